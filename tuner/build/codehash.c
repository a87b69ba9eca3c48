/* codehash.c - the code hash of a candidate (codehash.h).
 *
 * Why this and not the template file's hash: the file's hash (still stored
 * as template_hash) changes with every edit of any .cuh it includes, so a
 * comment in a shared header orphaned every stored winner of every template
 * including it, and the project copied code rather than refactor it.
 *
 * Why not the PTX: `export` runs without a GPU and should not need a compile
 * per exported instance (a family export writes hundreds); PTX also changes
 * with the NVRTC version, so it would orphan everything at a toolkit update
 * unless stored with it, and a record could only be judged where the same
 * NVRTC is installed. The canonical text is deterministic, costs a pass over
 * the source once per template plus a few hundred bytes per candidate (see
 * tests/test_codehash.c for the measured cost), and needs no toolkit.
 *
 * What the canonical form removes: comments, line splices, the amount and
 * kind of blank space, line breaks outside directives. It keeps: every
 * token in order, one blank inside a directive wherever there was one (a
 * blank after a macro's name decides whether it is function-like), one
 * blank between two tokens that would otherwise join into another (two
 * words, `a - -b`), string and character literals verbatim.
 * Preprocessor conditionals whose outcome is known for the candidate's
 * macros are resolved (codepp.c): the branches not compiled for it are left
 * out, so a template may gain branches for other element types, layouts or
 * parameters (a fold of two copies into one source) without orphaning the
 * results of the branch it had; a condition that is not known (the
 * compiler's or the toolkit's macros, say) keeps its group whole, which can only make a
 * refusal more likely, never an acceptance. Moving code between headers
 * keeps the hash when the expanded order of the tokens is unchanged. */
#include "codehash.h"

#include "codepp.h"
#include "compile.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FNV_OFFSET 1469598103934665603ULL
#define FNV_PRIME 1099511628211ULL

static unsigned long long fnv(unsigned long long h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= FNV_PRIME;
    }
    return h;
}

ct_status ct_code_canonical(const char *src, char **out, ct_err *e)
{
    size_t n = strlen(src);
    char *o = malloc(n + 2);
    if (!o)
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    size_t k = 0;
    int line_start = 1, directive = 0, blank = 0;
    size_t i = 0;
    /* The next character with line splices (backslash newline) skipped. */
#define SPLICE() while (src[i] == '\\' && (src[i + 1] == '\n' || (src[i + 1] == '\r' && src[i + 2] == '\n'))) \
                     i += src[i + 1] == '\n' ? 2 : 3
    for (;;) {
        SPLICE();
        int c = (unsigned char)src[i];
        if (c == '\0')
            break;
        if (c == '/' && src[i + 1] == '/') {   /* to the end of the line, which stays */
            while (src[i] && src[i] != '\n') {
                i++;
                SPLICE();
            }
            continue;
        }
        if (c == '/' && src[i + 1] == '*') {   /* one blank, as the compiler reads it */
            i += 2;
            while (src[i] && !(src[i] == '*' && src[i + 1] == '/'))
                i++;
            i += src[i] ? 2 : 0;
            blank = 1;
            continue;
        }
        if (c == '\n') {
            if (directive) {
                o[k++] = '\n';
                directive = 0;
            }
            line_start = 1;
            blank = 1;
            i++;
            continue;
        }
        if (isspace(c)) {
            blank = 1;
            i++;
            continue;
        }
        if (line_start && c == '#') {
            if (k > 0 && o[k - 1] != '\n')
                o[k++] = '\n';
            directive = 1;
            blank = 0;
        } else if (blank && k > 0) {
            int prev = (unsigned char)o[k - 1];
            if (directive ? prev != '\n' : ct_code_blank_needed(prev, c))
                o[k++] = ' ';
        }
        blank = 0;
        line_start = 0;
        if (c == '"' || c == '\'') {   /* a literal, verbatim up to its closing quote */
            o[k++] = src[i++];
            while (src[i] && src[i] != c && src[i] != '\n') {
                if (src[i] == '\\' && src[i + 1])
                    o[k++] = src[i++];
                o[k++] = src[i++];
            }
            if (src[i] == c)
                o[k++] = src[i++];
            continue;
        }
        o[k++] = src[i++];
    }
#undef SPLICE
    if (k > 0 && o[k - 1] != '\n')
        o[k++] = '\n';
    o[k] = '\0';
    *out = o;
    return CT_OK;
}

void ct_code_source_digest(const char *canonical, char out[17])
{
    static const char tag[] = "convtune code 1\n";
    unsigned long long h = fnv(FNV_OFFSET, tag, sizeof tag - 1);
    h = fnv(h, canonical, strlen(canonical));
    snprintf(out, 17, "%016llx", h);
}

typedef struct named {
    const char *name;
    long long value;
} named;

static int cmp_named(const void *a, const void *b)
{
    return strcmp(((const named *)a)->name, ((const named *)b)->name);
}

void ct_code_hash(const char *source_digest, const ct_define *defs, int ndefs, const ct_params *c,
                  const ct_launch *l, char out[17])
{
    named v[CT_MAX_DEFINES + CT_MAX_PARAMS];
    int nv = 0;
    for (int i = 0; i < ndefs && nv < CT_MAX_DEFINES + CT_MAX_PARAMS; i++)
        v[nv++] = (named){defs[i].name, defs[i].value};
    for (int i = 0; c && i < c->n && nv < CT_MAX_DEFINES + CT_MAX_PARAMS; i++)
        v[nv++] = (named){c->names[i], c->values[i]};
    /* -D macros: their order is not the code's. */
    qsort(v, (size_t)nv, sizeof *v, cmp_named);
    char line[160];
    unsigned long long h = fnv(FNV_OFFSET, source_digest, strlen(source_digest));
    for (int i = 0; i < nv; i++) {
        int m = snprintf(line, sizeof line, "\n#define %s %lld", v[i].name, v[i].value);
        h = fnv(h, line, m > 0 ? (size_t)m : 0);
    }
    int m = snprintf(line, sizeof line, "\ngrid %u %u %u block %u %u %u smem %u\n", l->grid[0], l->grid[1],
                     l->grid[2], l->block[0], l->block[1], l->block[2], l->smem_bytes);
    h = fnv(h, line, m > 0 ? (size_t)m : 0);
    snprintf(out, 17, "%016llx", h);
}

ct_status ct_code_candidate_hash(const char *canonical, const ct_problem *p, const ct_template *t,
                                 const ct_params *c, char out[17], ct_err *e)
{
    ct_define defs[CT_MAX_DEFINES];
    int nd = ct_problem_defines(p, defs);
    char *resolved = NULL, digest[17];
    ct_status rc = ct_code_resolve(canonical, defs, nd, c, p->family, &resolved, e);
    if (rc != CT_OK)
        return rc;
    ct_code_source_digest(resolved, digest);
    free(resolved);
    ct_launch l;
    memset(&l, 0, sizeof l);
    p->family->geometry(p, t, c, &l);
    ct_code_hash(digest, defs, nd, c, &l, out);
    return CT_OK;
}

ct_status ct_code_hash_of(const char *src, const ct_problem *p, const ct_template *t, const ct_params *c,
                          char out[17], ct_err *e)
{
    char *canon = NULL;
    ct_status rc = ct_code_canonical(src, &canon, e);
    if (rc == CT_OK)
        rc = ct_code_candidate_hash(canon, p, t, c, out, e);
    free(canon);
    return rc;
}

ct_status ct_code_judge(const ct_result *rec, const char *text_hash, const char *code_hash, const ct_problem *p,
                        const ct_template *t, const ct_params *c, const char *dir, int *same, ct_err *e)
{
    *same = 0;
    if (rec->code_hash[0]) {
        *same = strcmp(rec->code_hash, code_hash) == 0;
        return CT_OK;
    }
    if (strcmp(rec->template_hash, text_hash) == 0) {
        *same = 1;
        return CT_OK;
    }
    char *old = NULL, then[17];
    if (ct_template_legacy_source(t->name, rec->template_hash, dir, &old, NULL) != CT_OK)
        return CT_OK;
    ct_status rc = ct_code_hash_of(old, p, t, c, then, e);
    free(old);
    *same = rc == CT_OK && strcmp(then, code_hash) == 0;
    return rc;
}
