/* problem.c - lookup in the family registry and the parsing shared by all
 * families. The registry itself is tuner/families/registry.c. */
#include "problem.h"
#include "text.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const ct_family *ct_family_find(const char *name)
{
    const ct_family *const *families = ct_families();
    for (int i = 0; families[i]; i++)
        if (strcmp(families[i]->name, name) == 0)
            return families[i];
    return NULL;
}

const ct_template *ct_template_find(const ct_family *f, const char *name)
{
    for (int i = 0; i < f->ntemplates; i++)
        if (strcmp(f->templates[i].name, name) == 0)
            return &f->templates[i];
    return NULL;
}

size_t ct_problem_output_count(const ct_problem *p)
{
    ct_buffer bufs[CT_MAX_BUFS];
    int n = p->family->buffers(p, bufs);
    for (int i = 0; i < n; i++)
        if (bufs[i].is_output)
            return bufs[i].count;
    return 0;
}

const char *const ct_dtype_names[CT_NDTYPES] = {"f32", "bf16", "f16", "tf32"};

const char *ct_problem_reference_c(const ct_problem *p)
{
    return p->family->reference_c_for ? p->family->reference_c_for(p) : p->family->reference_c;
}

ct_dtype ct_problem_dtype(const ct_problem *p)
{
    /* Asked for every candidate a space judges: the field's index is
     * remembered per family (per thread: the compile pool's threads ask
     * too) rather than found by name each time. */
    static _Thread_local const ct_family *fam;
    static _Thread_local int at = -1;
    if (!p->family)
        return CT_DTYPE_F32;
    if (p->family != fam) {
        at = ct_field_find(p->family, "dtype");
        fam = p->family;
    }
    long long v = at < 0 ? -1 : p->dims[at];
    return v > 0 && v < CT_NDTYPES ? (ct_dtype)v : CT_DTYPE_F32;
}

size_t ct_dtype_size(ct_dtype t)
{
    return ct_dtype_is_half(t) ? 2 : 4;
}

ct_dtype ct_dtype_storage(ct_dtype t)
{
    return t == CT_DTYPE_TF32 ? CT_DTYPE_F32 : t;
}

int ct_dtype_is_half(ct_dtype t)
{
    return t == CT_DTYPE_BF16 || t == CT_DTYPE_F16;
}

const char *ct_dtype_name(ct_dtype t)
{
    return (unsigned)t < CT_NDTYPES ? ct_dtype_names[t] : "?";
}

int ct_problem_defines(const ct_problem *p, ct_define *defs)
{
    int n = p->family->defines(p, defs);
    ct_dtype t = ct_problem_dtype(p);
    if (ct_dtype_is_half(t) && n < CT_MAX_DEFINES)
        defs[n++] = (ct_define){"CT_DTYPE", (long long)t};
    if (t == CT_DTYPE_TF32 && n < CT_MAX_DEFINES)
        defs[n++] = (ct_define){"CT_TF32", 1};
    return n;
}

int ct_template_refuses_dtype(const ct_problem *p, const ct_template *t, char *why, size_t len)
{
    const ct_dtype d = ct_problem_dtype(p);
    const unsigned have = t->dtypes ? t->dtypes : 1u << CT_DTYPE_F32;
    /* fp32 kernels compute a tf32 problem at fp32 accuracy, within its
     * tolerance; its buffers are theirs. */
    if ((have & (1u << d)) || (d == CT_DTYPE_TF32 && (have & (1u << CT_DTYPE_F32))))
        return 0;
    if (have == 1u << CT_DTYPE_F32) {
        snprintf(why, len, "%s computes in fp32 only", t->name);
        return 1;
    }
    size_t o = (size_t)snprintf(why, len, "%s computes in", t->name);
    const char *sep = " ";
    for (int i = 0; i < CT_NDTYPES; i++)
        if ((have & (1u << i)) && o < len) {
            o += (size_t)snprintf(why + o, len - o, "%s%s", sep, ct_dtype_names[i]);
            sep = ", ";
        }
    if (o < len)
        snprintf(why + o, len - o, " only, not %s", ct_dtype_names[d]);
    return 1;
}

double ct_problem_size_distance(const ct_problem *a, const ct_problem *b)
{
    if (!a || !b || !a->family || a->family != b->family)
        return -1;
    double sum = 0;
    for (int i = 0; i < a->family->nfields; i++) {
        if (a->family->fields[i].kind != CT_FIELD_SIZE)
            continue;
        if (a->dims[i] <= 0 || b->dims[i] <= 0)
            return -1;
        double x = log((double)a->dims[i]) - log((double)b->dims[i]);
        sum += x * x;
    }
    return sqrt(sum);
}

double ct_problem_distance(const ct_problem *a, const ct_problem *b)
{
    if (!a || !b || !a->family || a->family != b->family)
        return -1;
    const ct_family *f = a->family;
    if (ct_problem_dtype(a) != ct_problem_dtype(b))   /* another type is another kernel */
        return -1;
    if (f->distance)
        return f->distance(a, b);
    /* Only a size has a meaningful ratio: a pad of 0 against 2, or another
     * mode, is another kernel, not a nearby size. */
    for (int i = 0; i < f->nfields; i++)
        if (f->fields[i].kind != CT_FIELD_SIZE && a->dims[i] != b->dims[i])
            return -1;
    return ct_problem_size_distance(a, b);
}

int ct_problem_equal(const ct_problem *a, const ct_problem *b)
{
    if (!a->family || a->family != b->family)
        return 0;
    for (int i = 0; i < a->family->nfields; i++)
        if (a->dims[i] != b->dims[i])
            return 0;
    return 1;
}

int ct_problem_compare(const ct_problem *a, const ct_problem *b)
{
    if (a->family != b->family)
        return strcmp(a->family->name, b->family->name);
    const ct_family *f = a->family;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < f->nfields; i++)
            if ((f->fields[i].kind == CT_FIELD_SIZE) == pass && a->dims[i] != b->dims[i])
                return a->dims[i] < b->dims[i] ? -1 : 1;
    return 0;
}

int ct_field_find(const ct_family *f, const char *name)
{
    for (int i = 0; i < f->nfields; i++)
        if (strcmp(f->fields[i].name, name) == 0)
            return i;
    return -1;
}

long long ct_problem_value(const ct_problem *p, const char *name)
{
    int i = p->family ? ct_field_find(p->family, name) : -1;
    return i < 0 ? -1 : p->dims[i];
}

int ct_field_choice(const ct_field *fd, const char *word)
{
    for (int i = 0; i < fd->nchoices; i++)
        if (strcmp(fd->choices[i], word) == 0)
            return i;
    return -1;
}

ct_status ct_parse_field_size(const ct_field *fd, const char *text, long long max, long long *out, ct_err *e)
{
    char label[96];
    snprintf(label, sizeof label, "%s (%s)", fd->name, fd->help);
    return ct_parse_size(text, label, max, out, e);
}

int ct_split_fields(const char *fields, char *buf, size_t len, char **f, int max, ct_err *e)
{
    if (strlen(fields) >= len) {
        ct_fail(e, CT_ERR_USAGE, "too long");
        return -1;
    }
    strcpy(buf, fields);
    int n = 0;
    for (char *s = buf;;) {
        char *c = strchr(s, ':');
        if (n == max) {
            ct_fail(e, CT_ERR_USAGE, "too many fields");
            return -1;
        }
        f[n++] = s;
        if (!c)
            return n;
        *c = '\0';
        s = c + 1;
    }
}

/* Sizes are written as digits with an optional fraction and exponent
 * ("2.5e3"); the value must come out a positive integer exactly, which we
 * check with integer arithmetic rather than through a double. */
ct_status ct_parse_size(const char *text, const char *field, long long max,
                        long long *out, ct_err *e)
{
    const char *s = text;
    if (*s == '\0')
        return ct_fail(e, CT_ERR_USAGE, "%s is empty", field);
    if (*s == '-')
        return ct_fail(e, CT_ERR_USAGE, "%s must be positive, got '%s'", field, text);
    char digits[64];
    int nd = 0, frac = 0, seen_dot = 0;
    for (; *s && *s != 'e' && *s != 'E'; s++) {
        if (*s == '.' && !seen_dot) {
            seen_dot = 1;
            continue;
        }
        if (!isdigit((unsigned char)*s))
            return ct_fail(e, CT_ERR_USAGE, "%s must be a positive integer, got '%s'", field, text);
        if (nd >= (int)sizeof digits - 1)
            return ct_fail(e, CT_ERR_USAGE, "%s is too large: '%s'", field, text);
        digits[nd++] = *s;
        frac += seen_dot;
    }
    if (nd == 0)
        return ct_fail(e, CT_ERR_USAGE, "%s must be a positive integer, got '%s'", field, text);
    long long exp10 = 0;
    if (*s) {
        s++;
        int neg = 0;
        if (*s == '+' || *s == '-')
            neg = (*s++ == '-');
        if (!*s)
            return ct_fail(e, CT_ERR_USAGE, "%s has an empty exponent: '%s'", field, text);
        for (; *s; s++) {
            if (!isdigit((unsigned char)*s))
                return ct_fail(e, CT_ERR_USAGE, "%s must be a positive integer, got '%s'", field, text);
            if (exp10 > 1000)
                return ct_fail(e, CT_ERR_USAGE, "%s is too large: '%s'", field, text);
            exp10 = exp10 * 10 + (*s - '0');
        }
        if (neg)
            exp10 = -exp10;
    }
    exp10 -= frac;
    /* Drop trailing zeros of the mantissa against a negative exponent. */
    while (exp10 < 0 && nd > 0 && digits[nd - 1] == '0') {
        nd--;
        exp10++;
    }
    if (exp10 < 0)
        return ct_fail(e, CT_ERR_USAGE, "%s must be an integer, got '%s'", field, text);
    unsigned long long v = 0;
    for (int i = 0; i < nd; i++) {
        if (v > (ULLONG_MAX - 9) / 10)
            return ct_fail(e, CT_ERR_USAGE, "%s is too large: '%s'", field, text);
        v = v * 10 + (unsigned)(digits[i] - '0');
        if (v > (unsigned long long)max)
            return ct_fail(e, CT_ERR_USAGE, "%s is too large: '%s' (at most %lld)", field, text, max);
    }
    for (long long i = 0; i < exp10 && v != 0; i++) {
        if (v > (unsigned long long)max / 10)
            return ct_fail(e, CT_ERR_USAGE, "%s is too large: '%s' (at most %lld)", field, text, max);
        v *= 10;
    }
    if (v == 0)
        return ct_fail(e, CT_ERR_USAGE, "%s must be positive, got '%s'", field, text);
    if (v > (unsigned long long)max)
        return ct_fail(e, CT_ERR_USAGE, "%s is too large: '%s' (at most %lld)", field, text, max);
    *out = (long long)v;
    return CT_OK;
}

/* A word that names an element type this convtune does not have, so that
 * "fp16" or "f64" is refused as a type rather than as some other field. */
static int looks_like_type(const char *w)
{
    static const char *const words[] = {"half", "float", "double", "bfloat16", "float16", "float32"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(w, words[i]) == 0)
            return 1;
    static const char *const prefixes[] = {"bf", "fp", "f", "int", "uint", "i", "u"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(w, prefixes[i], n) == 0 && w[n] && strspn(w + n, "0123456789") == strlen(w + n))
            return 1;
    }
    return 0;
}

/* The element type word w names (its ct_dtype), whether or not family f
 * offers it; -1 for any other word. */
static int dtype_word(const char *w)
{
    for (int i = 0; i < CT_NDTYPES; i++)
        if (strcmp(w, ct_dtype_names[i]) == 0)
            return i;
    return -1;
}

/* The refusal of a type word w that is not one of f's types (its dtype
 * field's choices, listed): a type of other families ("tf32" for conv1d) or
 * no type at all ("fp16"). */
static ct_status dtype_refused(const ct_field *fd, const char *fam, const char *w, ct_err *e)
{
    char known[64] = "";
    for (int i = 0; i < fd->nchoices; i++) {
        strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
        strncat(known, fd->choices[i], sizeof known - strlen(known) - 1);
    }
    if (dtype_word(w) == CT_DTYPE_TF32)
        return ct_fail(e, CT_ERR_USAGE, "element type 'tf32' is not offered by %s (its types: %s); tf32 is for "
                       "the layer families with tensor-core kernels, conv1dc and conv2dc", fam, known);
    return ct_fail(e, CT_ERR_USAGE, "unknown element type '%s' (known: %s)", w, known);
}

/* Take the element type token off the end of text (the fields after
 * "family:") into dims[fi]; out gets the text before it. Refuses a type
 * token anywhere but last, a second one, an unknown type and a type the
 * family does not offer. */
static ct_status take_dtype(const ct_family *f, int fi, const char *text, char *out, size_t len,
                            long long *value, ct_err *e)
{
    if (strlen(text) >= len)
        return ct_fail(e, CT_ERR_USAGE, "too long");
    strcpy(out, text);
    *value = CT_DTYPE_F32;
    const ct_field *fd = &f->fields[fi];
    char *last = strrchr(out, ':');
    char *tok = last ? last + 1 : out;
    int found = -1;
    if (last) {
        found = ct_field_choice(fd, tok);
        if (found < 0 && (dtype_word(tok) >= 0 || looks_like_type(tok)))
            return dtype_refused(fd, f->name, tok, e);
        if (found >= 0)
            *last = '\0';
    }
    /* Every other token: a type there is misplaced or repeated. */
    for (const char *s = out; *s;) {
        size_t n = strcspn(s, ":");
        char w[32];
        if (n < sizeof w) {
            memcpy(w, s, n);
            w[n] = '\0';
            if (ct_field_choice(fd, w) >= 0)
                return found >= 0 ? ct_fail(e, CT_ERR_USAGE, "element type given twice ('%s' and '%s')", w, tok)
                                  : ct_fail(e, CT_ERR_USAGE, "element type '%s' must be the last field", w);
            if (dtype_word(w) >= 0 || looks_like_type(w))
                return dtype_refused(fd, f->name, w, e);
        }
        s += n + (s[n] == ':');
    }
    if (found >= 0)
        *value = found;
    return CT_OK;
}

/* A token of text (the fields after "family:") that is a layout of
 * another family, when f has no layout field: its name in *owner, so that
 * "conv1d:100:3:same:nlc" says conv1d has no layout rather than "too many
 * fields". */
static const char *foreign_layout(const ct_family *f, const char *text, const char **owner)
{
    static char tok[16];
    if (ct_field_find(f, "layout") >= 0)
        return NULL;
    const ct_family *const *fams = ct_families();
    for (const char *s = text; *s;) {
        size_t n = strcspn(s, ":");
        for (int i = 0; fams[i] && n < sizeof tok; i++) {
            int li = ct_field_find(fams[i], "layout");
            memcpy(tok, s, n);
            tok[n] = '\0';
            if (li >= 0 && ct_field_choice(&fams[i]->fields[li], tok) >= 0) {
                *owner = fams[i]->name;
                return tok;
            }
        }
        s += n + (s[n] == ':');
    }
    return NULL;
}

ct_status ct_problem_parse(const char *spec, ct_problem *p, ct_err *e)
{
    memset(p, 0, sizeof *p);
    if (!spec || !*spec)
        return ct_fail(e, CT_ERR_USAGE, "problem: empty problem string");
    /* The spec is quoted in every message below: bounded and escaped, and
     * refused before any part of it is quoted raw when it is too long or
     * holds a control character (a newline would split the line). */
    char shown[CT_ECHO_LEN];
    ct_echo(spec, shown, sizeof shown);
    const size_t slen = strlen(spec);
    if (slen >= CT_PROBLEM_SPEC_MAX)
        return ct_fail(e, CT_ERR_USAGE, "problem string too long (%zu characters, at most %d): '%s'", slen,
                       CT_PROBLEM_SPEC_MAX - 1, shown);
    for (const char *c = spec; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) {
            const char one[2] = {*c, '\0'};
            char esc[8];
            return ct_fail(e, CT_ERR_USAGE, "problem '%s': a control character (%s) in the problem string", shown,
                           ct_echo(one, esc, sizeof esc));
        }
    const char *colon = strchr(spec, ':');
    size_t flen = colon ? (size_t)(colon - spec) : strlen(spec);
    char fam[32];
    if (flen >= sizeof fam)
        flen = sizeof fam - 1;
    memcpy(fam, spec, flen);
    fam[flen] = '\0';
    const ct_family *f = ct_family_find(fam);
    if (!f) {
        char known[256] = "";
        const ct_family *const *families = ct_families();
        for (int i = 0; families[i]; i++) {
            strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
            strncat(known, families[i]->grammar, sizeof known - strlen(known) - 1);
        }
        return ct_fail(e, CT_ERR_USAGE, "problem '%s': unknown family '%s' (known: %s)", shown, fam, known);
    }
    if (!colon)
        return ct_fail(e, CT_ERR_USAGE, "problem '%s': missing fields, expected %s", shown, f->grammar);
    const char *owner, *lay = foreign_layout(f, colon + 1, &owner);
    if (lay)
        return ct_fail(e, CT_ERR_USAGE, "problem '%s': %s has no layout ('%s' is a layout of %s; expected %s)", shown,
                       f->name, lay, owner, f->grammar);
    ct_err sub;
    p->family = f;
    const int fi = ct_field_find(f, "dtype");
    char rest[CT_PROBLEM_SPEC_MAX];
    long long dtype = CT_DTYPE_F32;
    ct_status rc = fi < 0 ? CT_OK : take_dtype(f, fi, colon + 1, rest, sizeof rest, &dtype, &sub);
    if (rc == CT_OK)
        rc = f->parse(fi < 0 ? colon + 1 : rest, p, &sub);
    if (rc != CT_OK) {
        p->family = NULL;
        return ct_fail(e, rc, "problem '%s': %s (expected %s)", shown, sub.msg, f->grammar);
    }
    if (fi >= 0)
        p->dims[fi] = dtype;
    f->canonical(p, p->canonical, sizeof p->canonical);
    if (dtype != CT_DTYPE_F32) {
        size_t n = strlen(p->canonical);
        snprintf(p->canonical + n, sizeof p->canonical - n, ":%s", ct_dtype_names[dtype]);
    }
    return CT_OK;
}

int ct_regs_exceed(const ct_limits *lim, long long regs, long long threads, long min_blocks, char *why,
                   size_t len)
{
    const long long warps_threads = (threads + 31) / 32 * 32;
    long long cap = lim->regs_per_sm / (min_blocks * warps_threads) / 8 * 8;
    if (cap > 255)
        cap = 255;
    if (min_blocks * threads <= 2048 && regs <= cap)
        return 0;
    snprintf(why, len, "about %lld registers per thread do not fit %ld blocks of %lld threads (%lld each)", regs,
             min_blocks, threads, cap);
    return 1;
}
