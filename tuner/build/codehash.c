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

#include "cache.h"
#include "codepp.h"
#include "compile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
    /* A parameter added to the template later is hashed only away from its
     * default (ct_param_def.added): at the default the code is what results
     * stored before it measured, and their hash stays. The resolution above
     * sees it, so the branches it selects are dropped all the same. */
    ct_params hashed = {0};
    for (int i = 0; c && i < c->n; i++) {
        const ct_param_def *d = t ? ct_param_find(t->params, t->nparams, c->names[i]) : NULL;
        if (d && d->added && c->values[i] == d->dflt)
            continue;
        hashed.names[hashed.n] = c->names[i];
        hashed.values[hashed.n++] = c->values[i];
    }
    ct_code_hash(digest, defs, nd, &hashed, &l, out);
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

/* text from its first line that is not a comment: the PTX without the
 * header lines NVRTC writes (its version and build), which differ between
 * toolkits and say nothing of the code. */
static const char *ptx_body(const char *text)
{
    while (text[0] == '/' && text[1] == '/') {
        const char *nl = strchr(text, '\n');
        if (!nl)
            return text + strlen(text);
        text = nl + 1;
    }
    return text;
}

/* src's PTX for arch, compiled in a child process (*ptx malloc'ed, the
 * header lines left out; NULL when it does not compile). Why a child: the
 * PTX of one text varies more between compiles within one process (where
 * tests/test_fold.c met 1 to 5 of 54 pairs differing) than between fresh
 * processes; a child forked from a process that has not compiled yet
 * compiles as a fresh one. */
static ct_status child_ptx(const char *src, const ct_problem *p, const ct_template *t, const ct_params *c,
                           const char *arch, char **ptx, ct_err *e)
{
    *ptx = NULL;
    int fd[2];
    if (pipe(fd) != 0)
        return ct_fail(e, CT_ERR_IO, "pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return ct_fail(e, CT_ERR_IO, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        close(fd[0]);
        ct_define defs[CT_MAX_DEFINES];
        const int nd = ct_problem_defines(p, defs);
        ct_binary bin;
        ct_err ce;
        int ok = ct_nvrtc_compile(src, t->name, arch, defs, nd, c, &bin, &ce) == CT_OK && !bin.is_cubin;
        const char *body = ok ? ptx_body(bin.data) : "";
        size_t n = strlen(body), off = 0;
        while (off < n) {
            ssize_t w = write(fd[1], body + off, n - off);
            if (w <= 0)
                _exit(2);
            off += (size_t)w;
        }
        _exit(ok ? 0 : 1);
    }
    close(fd[1]);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    ssize_t r = 0;
    while (buf && (r = read(fd[0], buf + len, cap - len - 1)) != 0) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        len += (size_t)r;
        if (cap - len < 2) {
            char *grown = realloc(buf, cap *= 2);
            if (!grown)
                free(buf);
            buf = grown;
        }
    }
    close(fd[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!buf)
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    buf[len] = '\0';
    if (r < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        free(buf);
        return ct_fail(e, CT_ERR_COMPILE, "template %s does not compile for %s", t->name, arch);
    }
    *ptx = buf;
    return CT_OK;
}

/* Rounds of compiles of each side before two texts count as different:
 * NVRTC 13.0 gives one text one of a few PTX variants from run to run (at
 * times other vector loads and instruction orders: 3 variants in 10 fresh
 * `convtune compile` runs of one conv2dc_dwph candidate, 7 of them the same),
 * so one compile of each side may differ where the code is the same.
 * Identical PTX is never a false acceptance, whichever compile gave it. */
#define CT_PTX_ROUNDS 3

ct_status ct_code_same_ptx(const char *a, const char *b, const ct_problem *p, const ct_template *t,
                           const ct_params *c, const char *arch, int *same, ct_err *e)
{
    *same = 0;
    char *pa[CT_PTX_ROUNDS] = {NULL}, *pb[CT_PTX_ROUNDS] = {NULL};
    ct_status rc = CT_OK;
    for (int r = 0; r < CT_PTX_ROUNDS && rc == CT_OK && !*same; r++) {
        if ((rc = child_ptx(a, p, t, c, arch, &pa[r], e)) != CT_OK ||
            (rc = child_ptx(b, p, t, c, arch, &pb[r], e)) != CT_OK)
            break;
        for (int i = 0; i <= r && !*same; i++)
            *same = strcmp(pa[r], pb[i]) == 0 || strcmp(pa[i], pb[r]) == 0;
    }
    for (int r = 0; r < CT_PTX_ROUNDS; r++) {
        free(pa[r]);
        free(pb[r]);
    }
    return rc;
}

/* Kept texts of one template a judgement looks through. */
#define CT_LEGACY_TEXTS_MAX 32

/* The PTX fallback of ct_code_judge: whether old (rec's template text, kept
 * in templates/legacy/) and the template's current text compile to the same
 * PTX for rec's problem, parameters and architecture. Any failure (no
 * architecture stored, a compile error, no NVRTC) refuses. */
static ct_status same_ptx_as_now(const ct_result *rec, const char *old, const ct_problem *p, const ct_template *t,
                                 const ct_params *c, const char *dir, int *same, ct_err *e)
{
    *same = 0;
    if (rec->cc_major <= 0 || rec->cc_minor < 0)
        return CT_OK;
    char arch[32], *now = NULL;
    snprintf(arch, sizeof arch, "compute_%d%d", rec->cc_major, rec->cc_minor);
    ct_err quiet;
    memset(&quiet, 0, sizeof quiet);
    ct_status rc = ct_template_source(t->name, dir, &now, &quiet);
    /* A "same" verdict is a fact of the two texts, the candidate and the
     * compiler, kept in the binary cache's folder so that the next export
     * of the same record compiles nothing; "different" is not kept, since
     * a later judgement may meet the matching PTX variant. */
    char cdir[1024] = "", key[33] = "";
    if (rc == CT_OK && ct_cache_default_dir(cdir, sizeof cdir, NULL) == CT_OK) {
        ct_define defs[CT_MAX_DEFINES];
        const int nd = ct_problem_defines(p, defs);
        const int nv = ct_nvrtc_version();
        char ko[33], kn[33], both[80];
        ct_cache_key(old, t->name, arch, defs, nd, c, nv, ko);
        ct_cache_key(now, t->name, arch, defs, nd, c, nv, kn);
        snprintf(both, sizeof both, "%s %s", ko, kn);
        ct_cache_key(both, "same-ptx", arch, NULL, 0, NULL, nv, key);
        if (ct_cache_has_mark(cdir, key, "same")) {
            free(now);
            *same = 1;
            return CT_OK;
        }
    }
    if (rc == CT_OK)
        rc = ct_code_same_ptx(old, now, p, t, c, arch, same, &quiet);
    if (rc == CT_OK && *same && key[0])
        (void)ct_cache_put_mark(cdir, key, "same");   /* a failure costs only a later judgement */
    free(now);
    if (rc == CT_ERR_INTERNAL && strstr(quiet.msg, "out of memory"))
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    *same = rc == CT_OK && *same;
    return CT_OK;
}

ct_status ct_code_judge(const ct_result *rec, const char *text_hash, const char *code_hash, const ct_problem *p,
                        const ct_template *t, const ct_params *c, const char *dir, int *same, ct_err *e)
{
    *same = 0;
    if (rec->code_hash[0] ? strcmp(rec->code_hash, code_hash) == 0 : strcmp(rec->template_hash, text_hash) == 0) {
        *same = 1;
        return CT_OK;
    }
    char *old = NULL, then[17];
    if (ct_template_legacy_source(t->name, rec->template_hash, dir, &old, NULL) == CT_OK) {
        ct_status rc = ct_code_hash_of(old, p, t, c, then, e);
        if (rc == CT_OK && !rec->code_hash[0] && strcmp(then, code_hash) == 0)
            *same = 1;
        /* The kept text is what the record measured when it gives the
         * record's code hash (or the record has none); its code differs
         * from today's in tokens, so ask the compiler whether it is the
         * same code. */
        else if (rc == CT_OK && (!rec->code_hash[0] || strcmp(then, rec->code_hash) == 0))
            rc = same_ptx_as_now(rec, old, p, t, c, dir, same, e);
        free(old);
        return rc;
    }
    /* The record's own text is not kept (it was tuned on a text that an
     * edit of comments or layout replaced before the last refactor of
     * tokens, which kept only the text just before it): any kept text of
     * the template that gives the record's code hash generated the code it
     * measured, so that text stands in for it. Without a code hash the
     * record's code is known only through its own text. */
    if (!rec->code_hash[0])
        return CT_OK;
    char hashes[CT_LEGACY_TEXTS_MAX][17];
    int n = ct_template_legacy_hashes(t->name, dir, hashes, CT_LEGACY_TEXTS_MAX);
    for (int i = 0; i < n; i++) {
        if (ct_template_legacy_source(t->name, hashes[i], dir, &old, NULL) != CT_OK)
            continue;
        ct_err quiet;
        memset(&quiet, 0, sizeof quiet);
        ct_status rc = ct_code_hash_of(old, p, t, c, then, &quiet);
        if (rc == CT_OK && strcmp(then, rec->code_hash) == 0) {
            rc = same_ptx_as_now(rec, old, p, t, c, dir, same, e);
            free(old);
            return rc;
        }
        free(old);
        old = NULL;
        if (rc == CT_ERR_INTERNAL && strstr(quiet.msg, "out of memory"))
            return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    }
    return CT_OK;
}
