/* codepp.c - conditionals resolved for one candidate (codepp.h).
 *
 * A group is dropped only where its condition is known to be what NVRTC
 * computes for the candidate; anything else keeps the group whole, which
 * can only make the code hash stricter. The tuner compiles a template with
 * exactly its problem's and parameters' -D macros (compile.c), so a name is
 *   known      when it is one of those or #defined by the text, as an
 *              integer expression of known names (expanded when used, as
 *              the preprocessor does), or #undef'd by it;
 *   undefined  (0, false for defined()) when none of that holds and it is
 *              one of the project's own: it starts with CT_, CONV_ or TC_
 *              or is a parameter of a template of the family (a shared
 *              header tests another template's parameter). NVRTC itself
 *              defines names such as NULL, assert and CUDART_VERSION, and
 *              the toolkit headers many more, but none of these (checked
 *              for the installed toolkit in tests/test_codehash.c);
 *   unknown    otherwise, and so are function-like macros, names #defined
 *              or #undef'd inside a group kept whole, the launch-geometry
 *              macros only exports define (CT_GRID_*, CT_BLOCK_*,
 *              CT_SMEM_BYTES) and C++'s alternative operator names.
 * Expressions are evaluated in 64-bit signed arithmetic; an unsigned
 * constant, an overflow, a division by zero or a character constant makes
 * the condition unknown. Inside a group kept whole nothing is resolved.
 * Malformed nesting returns the text unchanged. The result is checked
 * against the C preprocessor on every template in tests/test_codehash.c. */
#include "codepp.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* A character of a word: an identifier or a number. */
static int pp_is_word(int c)
{
    return isalnum(c) || c == '_' || c == '.' || c >= 0x80;
}

/* The spacing rule of code outside directives: a blank between a and b is
 * kept only where dropping it could join two tokens into another: two word
 * characters, a word and a quote (L"x", u8"x"), or two operator characters
 * that begin a longer operator (a - -b, a / *p). */
int ct_code_blank_needed(int a, int b)
{
    static const char *const joins[] = {"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&",
                                        "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::",
                                        "##", "<:", ":>", "<%", "%>", "%:", "/*", "//", "*/"};
    if (a == '\n' || a == 0)
        return 0;
    int wa = pp_is_word(a), wb = pp_is_word(b);
    if (wa && wb)
        return 1;
    if (wa || wb)
        return (wa && (b == '"' || b == '\'')) || (wb && (a == '"' || a == '\''));
    for (size_t i = 0; i < sizeof joins / sizeof joins[0]; i++)
        if (joins[i][0] == a && joins[i][1] == b)
            return 1;
    return 0;
}


typedef enum { M_VALUE, M_BODY, M_UNDEF, M_UNKNOWN } mstate;

typedef struct macro {
    const char *name;
    size_t len;
    mstate st;
    long long value;           /* M_VALUE */
    const char *body;          /* M_BODY: the replacement, to the end of its line */
    size_t blen;
} macro;

typedef struct pp {
    macro *m;
    int n, cap;
    const ct_family *fam;      /* whose templates' parameters are project names */
    int failed;                /* out of memory */
} pp;

static int is_id_start(int c)
{
    return isalpha(c) || c == '_';
}

static int is_id(int c)
{
    return isalnum(c) || c == '_';
}

static int name_is(const char *s, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

static macro *find(pp *x, const char *s, size_t n)
{
    for (int i = 0; i < x->n; i++)
        if (x->m[i].len == n && memcmp(x->m[i].name, s, n) == 0)
            return &x->m[i];
    return NULL;
}

static macro *set(pp *x, const char *s, size_t n, mstate st)
{
    macro *m = find(x, s, n);
    if (!m) {
        if (x->n == x->cap) {
            int nc = x->cap ? 2 * x->cap : 64;
            macro *nm = realloc(x->m, (size_t)nc * sizeof *nm);
            if (!nm) {
                x->failed = 1;
                return NULL;
            }
            x->m = nm;
            x->cap = nc;
        }
        m = &x->m[x->n++];
        m->name = s;
        m->len = n;
    }
    m->st = st;
    return m;
}

/* What name s[0..n) is now (the rules above). */
static mstate state_of(pp *x, const char *s, size_t n, const macro **out)
{
    static const char *const alt[] = {"and", "and_eq", "bitand", "bitor", "compl", "not", "not_eq", "or", "or_eq",
                                      "xor", "xor_eq"};
    static const char *const export_only[] = {"CT_GRID_X", "CT_GRID_Y", "CT_GRID_Z", "CT_BLOCK_X", "CT_BLOCK_Y",
                                              "CT_BLOCK_Z", "CT_SMEM_BYTES"};
    *out = NULL;
    for (size_t i = 0; i < sizeof alt / sizeof alt[0]; i++)
        if (name_is(s, n, alt[i]))
            return M_UNKNOWN;
    for (size_t i = 0; i < sizeof export_only / sizeof export_only[0]; i++)
        if (name_is(s, n, export_only[i]))
            return M_UNKNOWN;
    const macro *m = find(x, s, n);
    if (m) {
        *out = m;
        return m->st;
    }
    if ((n > 3 && !memcmp(s, "CT_", 3)) || (n > 3 && !memcmp(s, "TC_", 3)) || (n > 5 && !memcmp(s, "CONV_", 5)))
        return M_UNDEF;
    for (int t = 0; x->fam && t < x->fam->ntemplates; t++)
        for (int i = 0; i < x->fam->templates[t].nparams; i++)
            if (name_is(s, n, x->fam->templates[t].params[i].name))
                return M_UNDEF;
    return M_UNKNOWN;
}

/* ------------------------------------------------------------------------ */
/* #if expressions                                                          */

enum { T_NUM, T_OP };

typedef struct tok {
    int kind;
    long long v;
    char op[3];
} tok;

#define MAX_TOKS 512
#define MAX_DEPTH 32

typedef struct expr {
    tok t[MAX_TOKS];
    int n, pos;
    int unknown;
} expr;

static void push_num(expr *x, long long v)
{
    if (x->n == MAX_TOKS) {
        x->unknown = 1;
        return;
    }
    x->t[x->n].kind = T_NUM;
    x->t[x->n++].v = v;
}

static void skip_blank(const char **s, const char *end)
{
    while (*s < end && **s == ' ')
        (*s)++;
}

/* Append the tokens of s[0..len) with macros replaced, depth macros deep. */
static void expand(pp *p, expr *x, const char *s, size_t len, int depth)
{
    static const char *const ops[] = {"||", "&&", "==", "!=", "<=", ">=", "<<", ">>", "+", "-", "*", "/",
                                      "%",  "<",  ">",  "&",  "|",  "^",  "!",  "~",  "?", ":", "(", ")"};
    const char *end = s + len;
    while (!x->unknown && s < end) {
        skip_blank(&s, end);
        if (s >= end)
            break;
        if (is_id_start((unsigned char)*s)) {
            const char *b = s;
            while (s < end && is_id((unsigned char)*s))
                s++;
            size_t n = (size_t)(s - b);
            const macro *m;
            if (name_is(b, n, "defined")) {
                if (depth > 0) {   /* undefined behaviour in C: not judged */
                    x->unknown = 1;
                    return;
                }
                skip_blank(&s, end);
                int paren = s < end && *s == '(';
                if (paren) {
                    s++;
                    skip_blank(&s, end);
                }
                const char *nb = s;
                while (s < end && is_id((unsigned char)*s))
                    s++;
                size_t nn = (size_t)(s - nb);
                skip_blank(&s, end);
                if (nn == 0 || !is_id_start((unsigned char)*nb) || (paren && (s >= end || *s++ != ')'))) {
                    x->unknown = 1;
                    return;
                }
                mstate st = state_of(p, nb, nn, &m);
                if (st == M_UNKNOWN)
                    x->unknown = 1;
                else
                    push_num(x, st != M_UNDEF);
                continue;
            }
            if (name_is(b, n, "true") || name_is(b, n, "false")) {   /* C++: 1 and 0 in #if */
                push_num(x, b[0] == 't');
                continue;
            }
            mstate st = state_of(p, b, n, &m);
            if (st == M_UNKNOWN || (st == M_BODY && depth >= MAX_DEPTH)) {
                x->unknown = 1;
                return;
            }
            if (st == M_VALUE)
                push_num(x, m->value);
            else if (st == M_UNDEF)
                push_num(x, 0);
            else
                expand(p, x, m->body, m->blen, depth + 1);
            continue;
        }
        if (isdigit((unsigned char)*s)) {
            const char *b = s;
            while (s < end && (isalnum((unsigned char)*s) || *s == '.'))
                s++;
            char buf[40];
            size_t n = (size_t)(s - b);
            if (n >= sizeof buf) {
                x->unknown = 1;
                return;
            }
            memcpy(buf, b, n);
            buf[n] = '\0';
            char *q;
            unsigned long long v = strtoull(buf, &q, 0);
            while (*q == 'l' || *q == 'L')
                q++;
            if (*q || v > (unsigned long long)LLONG_MAX) {   /* u suffix, float, bad digit, too large */
                x->unknown = 1;
                return;
            }
            push_num(x, (long long)v);
            continue;
        }
        size_t k = 0;
        while (k < sizeof ops / sizeof ops[0] && strncmp(s, ops[k], strlen(ops[k])) != 0)
            k++;
        if (k == sizeof ops / sizeof ops[0] || (size_t)(end - s) < strlen(ops[k]) || x->n == MAX_TOKS) {
            x->unknown = 1;   /* a character constant, a comma, ... */
            return;
        }
        x->t[x->n].kind = T_OP;
        strcpy(x->t[x->n++].op, ops[k]);
        s += strlen(ops[k]);
    }
}

static int is_op(expr *x, const char *op)
{
    return !x->unknown && x->pos < x->n && x->t[x->pos].kind == T_OP && strcmp(x->t[x->pos].op, op) == 0;
}

static long long cond(expr *x);

static long long primary(expr *x)
{
    if (x->unknown || x->pos >= x->n) {
        x->unknown = 1;
        return 0;
    }
    if (x->t[x->pos].kind == T_NUM)
        return x->t[x->pos++].v;
    if (is_op(x, "(")) {
        x->pos++;
        long long v = cond(x);
        if (!is_op(x, ")"))
            x->unknown = 1;
        x->pos++;
        return v;
    }
    x->unknown = 1;
    return 0;
}

static long long unary(expr *x)
{
    if (is_op(x, "+") || is_op(x, "-") || is_op(x, "!") || is_op(x, "~")) {
        char op = x->t[x->pos++].op[0];
        long long v = unary(x);
        if (op == '-' && v == LLONG_MIN)
            x->unknown = 1;
        return op == '+' ? v : op == '-' ? (x->unknown ? 0 : -v) : op == '!' ? !v : ~v;
    }
    return primary(x);
}

/* One binary operator on known operands; overflow and undefined results
 * make the expression unknown. */
static long long apply(expr *x, const char *op, long long a, long long b)
{
    long long r = 0;
    switch (op[0]) {
    case '*':
        if (__builtin_mul_overflow(a, b, &r))
            x->unknown = 1;
        return r;
    case '/':
    case '%':
        if (b == 0 || (a == LLONG_MIN && b == -1)) {
            x->unknown = 1;
            return 0;
        }
        return op[0] == '/' ? a / b : a % b;
    case '+':
        if (__builtin_add_overflow(a, b, &r))
            x->unknown = 1;
        return r;
    case '-':
        if (__builtin_sub_overflow(a, b, &r))
            x->unknown = 1;
        return r;
    case '<':
        if (op[1] == '<') {
            if (a < 0 || b < 0 || b > 62 || a > (LLONG_MAX >> b)) {
                x->unknown = 1;
                return 0;
            }
            return a << b;
        }
        return op[1] == '=' ? a <= b : a < b;
    case '>':
        if (op[1] == '>') {
            if (a < 0 || b < 0 || b > 63) {
                x->unknown = 1;
                return 0;
            }
            return a >> b;
        }
        return op[1] == '=' ? a >= b : a > b;
    case '=':
        return a == b;
    case '!':
        return a != b;
    case '&':
        return op[1] == '&' ? (a && b) : (a & b);
    case '|':
        return op[1] == '|' ? (a || b) : (a | b);
    case '^':
        return a ^ b;
    }
    x->unknown = 1;
    return 0;
}

/* Binary operators by precedence level, loosest first. */
static const char *const levels[][4] = {
    {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"},
    {"*", "/", "%"},
};
#define NLEVELS ((int)(sizeof levels / sizeof levels[0]))

static long long binary(expr *x, int level)
{
    if (level == NLEVELS)
        return unary(x);
    long long a = binary(x, level + 1);
    for (;;) {
        const char *op = NULL;
        for (int k = 0; k < 4 && levels[level][k]; k++)
            if (is_op(x, levels[level][k]))
                op = levels[level][k];
        if (!op)
            return a;
        x->pos++;
        long long b = binary(x, level + 1);
        if (x->unknown)
            return 0;
        a = apply(x, op, a, b);
    }
}

static long long cond(expr *x)
{
    long long c = binary(x, 0);
    if (!is_op(x, "?"))
        return c;
    x->pos++;
    long long a = cond(x);
    if (!is_op(x, ":")) {
        x->unknown = 1;
        return 0;
    }
    x->pos++;
    long long b = cond(x);
    return c ? a : b;
}

/* 1 or 0 when the condition s[0..len) is known, else -1. */
static int evaluate(pp *p, const char *s, size_t len)
{
    expr *x = calloc(1, sizeof *x);
    if (!x) {
        p->failed = 1;
        return -1;
    }
    expand(p, x, s, len, 0);
    long long v = x->unknown ? 0 : cond(x);
    int known = !x->unknown && x->pos == x->n;
    free(x);
    return known ? v != 0 : -1;
}

/* ------------------------------------------------------------------------ */
/* Lines                                                                    */

typedef struct group {
    char kind;                 /* 'R' resolved, 'U' kept whole, 'S' inside a branch not taken */
    int taking, taken;         /* 'R': this branch is compiled; one was */
} group;

typedef struct out_buf {
    char *s;
    size_t n;
    int code_line;             /* the last line written is code, not a directive */
} out_buf;

/* A line to the output; code lines that dropped directives separated are
 * joined as the canonical form joins code (a line break is a blank). */
static void emit(out_buf *o, const char *line, size_t n, int directive)
{
    if (!directive && o->code_line && o->n > 0) {
        o->n--;   /* the '\n' */
        if (ct_code_blank_needed((unsigned char)o->s[o->n - 1], (unsigned char)line[0]))
            o->s[o->n++] = ' ';
    }
    memcpy(o->s + o->n, line, n);
    o->n += n;
    o->s[o->n++] = '\n';
    o->code_line = !directive;
}

/* The directive's keyword and what follows it (after one blank). */
static const char *keyword(const char *line, const char *end, size_t *kn, const char **rest)
{
    const char *s = line + 1;
    skip_blank(&s, end);
    const char *k = s;
    while (s < end && is_id((unsigned char)*s))
        s++;
    *kn = (size_t)(s - k);
    skip_blank(&s, end);
    *rest = s;
    return k;
}

/* What a #define or #undef kept does to the names, with verbatim set inside
 * a group kept whole. */
static void note_directive(pp *p, const char *k, size_t kn, const char *rest, const char *end, int verbatim)
{
    int def = name_is(k, kn, "define"), undef = name_is(k, kn, "undef");
    if (!def && !undef)
        return;
    const char *nb = rest, *s = rest;
    while (s < end && is_id((unsigned char)*s))
        s++;
    if (s == nb)
        return;
    size_t nn = (size_t)(s - nb);
    if (verbatim) {
        set(p, nb, nn, M_UNKNOWN);
    } else if (undef) {
        set(p, nb, nn, M_UNDEF);
    } else if (s < end && *s == '(') {
        set(p, nb, nn, M_UNKNOWN);   /* function-like */
    } else {
        skip_blank(&s, end);
        macro *m = set(p, nb, nn, M_BODY);
        if (m) {
            m->body = s;
            m->blen = (size_t)(end - s);
        }
    }
}

ct_status ct_code_resolve(const char *canonical, const ct_define *defs, int ndefs, const ct_params *c,
                          const ct_family *fam, char **out, ct_err *e)
{
    size_t len = strlen(canonical);
    pp p = {.fam = fam};
    out_buf o = {malloc(len + 2), 0, 0};
    group *g = NULL;
    int ng = 0, cap = 0, ok = 1;
    if (!o.s)
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    for (int i = 0; i < ndefs; i++) {
        macro *m = set(&p, defs[i].name, strlen(defs[i].name), M_VALUE);
        if (m)
            m->value = defs[i].value;
    }
    for (int i = 0; c && i < c->n; i++) {
        macro *m = set(&p, c->names[i], strlen(c->names[i]), M_VALUE);
        if (m)
            m->value = c->values[i];
    }
    for (const char *line = canonical; ok && !p.failed && *line;) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        const char *next = *end ? end + 1 : end;
        size_t n = (size_t)(end - line);
        const group *top = ng ? &g[ng - 1] : NULL;
        int active = !top || (top->kind == 'R' && top->taking) || top->kind == 'U';
        int verbatim = top && top->kind == 'U';
        if (line[0] != '#') {
            if (active && n > 0)
                emit(&o, line, n, 0);
            line = next;
            continue;
        }
        size_t kn;
        const char *rest, *k = keyword(line, end, &kn, &rest);
        int opens = name_is(k, kn, "if") || name_is(k, kn, "ifdef") || name_is(k, kn, "ifndef");
        if (opens) {
            if (ng == cap) {
                int nc = cap ? 2 * cap : 32;
                group *ngp = realloc(g, (size_t)nc * sizeof *ngp);
                if (!ngp) {
                    p.failed = 1;
                    break;
                }
                g = ngp;
                cap = nc;
            }
            group *ng_ = &g[ng++];
            *ng_ = (group){.kind = !active ? 'S' : verbatim ? 'U' : 'R'};
            if (ng_->kind == 'R') {
                int v;
                if (name_is(k, kn, "if")) {
                    v = evaluate(&p, rest, (size_t)(end - rest));
                } else {
                    const char *s = rest;
                    while (s < end && is_id((unsigned char)*s))
                        s++;
                    const macro *m;
                    mstate st = s > rest && s == end && is_id_start((unsigned char)*rest)
                                    ? state_of(&p, rest, (size_t)(s - rest), &m)
                                    : M_UNKNOWN;
                    v = st == M_UNKNOWN ? -1 : (st != M_UNDEF) == name_is(k, kn, "ifdef");
                }
                if (v < 0)
                    ng_->kind = 'U';
                else
                    ng_->taking = ng_->taken = v;
            }
            if (ng_->kind == 'U')
                emit(&o, line, n, 1);
        } else if (name_is(k, kn, "elif") || name_is(k, kn, "else") || name_is(k, kn, "endif")) {
            if (!ng) {
                ok = 0;
                break;
            }
            group *t = &g[ng - 1];
            if (t->kind == 'U') {
                emit(&o, line, n, 1);
            } else if (t->kind == 'R' && name_is(k, kn, "else")) {
                t->taking = !t->taken;
                t->taken = 1;
            } else if (t->kind == 'R' && name_is(k, kn, "elif")) {
                int v = t->taken ? 0 : evaluate(&p, rest, (size_t)(end - rest));
                if (v < 0) {
                    /* the branches before were not taken: the rest is a group of its own */
                    t->kind = 'U';
                    char head[] = "#if ";
                    memcpy(o.s + o.n, head, 4);
                    o.n += 4;
                    emit(&o, rest, (size_t)(end - rest), 1);
                } else {
                    t->taking = v;
                    t->taken |= v;
                }
            }
            if (name_is(k, kn, "endif"))
                ng--;
        } else if (active) {
            note_directive(&p, k, kn, rest, end, verbatim);
            emit(&o, line, n, 1);
        }
        line = next;
    }
    free(g);
    free(p.m);
    if (p.failed) {
        free(o.s);
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    }
    if (!ok || ng != 0) {   /* malformed nesting: unresolved, as it is */
        memcpy(o.s, canonical, len + 1);
        o.n = len;
    }
    o.s[o.n] = '\0';
    *out = o.s;
    return CT_OK;
}
