/* test_codehash.c - a stored result is judged on the code generated for it
 * (tuner/build/codehash.c), not on its template file's bytes:
 *   - the canonical form ignores comments, blanks and line breaks and keeps
 *     every token, directive lines and literals;
 *   - the conditionals known for a candidate's macros are resolved
 *     (codepp.c) exactly as the C preprocessor resolves them, on every
 *     template of several problems; a fold of two templates into one
 *     source (#if on the element type) keeps both templates' code hashes;
 *   - the code hash depends on the defines (not their order), the
 *     parameters and the geometry;
 *   - its cost per candidate, measured on a real layer's space, is far
 *     below an NVRTC compile (about a second);
 *   - on tests/fixtures/pre_code_hash.db (made by the convtune before code
 *     hashes, see test_db_legacy.c): a refactor of shared headers (comments,
 *     layout, code moved from one header to the next) does not orphan a
 *     result that has a code hash, a change of the code does ("changed since
 *     the result ... was tuned"); an old result without one is judged on its
 *     template hash until a resumed run (ct_resume_load) fills it in.
 * No GPU. */
#include "export_common.h"

#include <ctype.h>
#include <sqlite3.h>

#include "codehash.h"
#include "codepp.h"
#include "resume.h"
#include "space.h"

#define TIMEOUT_S 120
#define FIXTURE CT_SOURCE_DIR "/tests/fixtures/pre_code_hash.db"
#define BF16 "conv2dc:2:64:16:16:64:3:3:same:bias:bf16"
#define LAYER "conv1dc:1:1024:4:1024:5:pad=2:bias"

static tl_workdir wd;

static char *canon(const char *src)
{
    char *out = NULL;
    ct_err e;
    CHECK(ct_code_canonical(src, &out, &e) == CT_OK && out != NULL);
    return out ? out : strdup("");
}

static void same_code(const char *a, const char *b)
{
    char *x = canon(a), *y = canon(b);
    CHECK_MSG(!strcmp(x, y), "should read as the same code:\n%s\n---\n%s", x, y);
    free(x);
    free(y);
}

static void other_code(const char *a, const char *b)
{
    char *x = canon(a), *y = canon(b);
    CHECK_MSG(strcmp(x, y) != 0, "should read as other code:\n%s", x);
    free(x);
    free(y);
}

static void test_canonical(void)
{
    same_code("#include <cuda_bf16.h>\n#define N 4\n__global__ void k(float *p) { p[0] = N + 1; } // c\n",
              "// a header comment\n\n#include <cuda_bf16.h>\n#define N 4   // four\n__global__ void\n  k( float* p )\n"
              "{\n\tp[ 0 ]=N+1; /* one\n more */\n}\n");
    same_code("#define A 1 \\\n  + 2\nint x = A;", "#define A 1 + 2\nint x = A;\n");
    same_code("a = b /* c */ + d;", "a = b + d;");
    /* Directive lines stay lines, with their tokens in order. */
    char *c = canon("  #if A   // x\nint x;\n#endif\n");
    CHECK_STR(c, "#if A\nint x;\n#endif\n");
    free(c);
    other_code("a = b - -c;", "a = b--c;");
    other_code("#define F(x) x\n", "#define F (x) x\n");
    other_code("s = \"a  b\";", "s = \"a b\";");
    other_code("p = \"//x\"; q = 1;", "p = \"//x\"; q = 2;");
    other_code("c = '/'; /* */ q = 1;", "c = '/'; /* */ q = 2;");
    other_code("x = 1;", "x = 2;");
    other_code("int a; int b;", "int b; int a;");
    other_code("#if A\nint x;\n#endif\n", "#if A int x;\n#endif\n");
}

static void test_hash(void)
{
    char d1[17], d2[17], h1[17], h2[17];
    ct_code_source_digest("int x;\n", d1);
    ct_code_source_digest("int y;\n", d2);
    CHECK(strlen(d1) == 16 && strcmp(d1, d2) != 0);
    const ct_define defs[] = {{"CONV_N", 100}, {"CONV_K", 3}}, swapped[] = {{"CONV_K", 3}, {"CONV_N", 100}};
    const ct_define other[] = {{"CONV_N", 101}, {"CONV_K", 3}};
    ct_params c = {.n = 1, .names = {"BLOCK_SIZE"}, .values = {128}}, c2 = c;
    c2.values[0] = 256;
    ct_launch l = {{4, 1, 1}, {128, 1, 1}, 0}, l2 = l;
    l2.smem_bytes = 1024;
    ct_code_hash(d1, defs, 2, &c, &l, h1);
    ct_code_hash(d1, swapped, 2, &c, &l, h2);
    CHECK_STR(h1, h2);
    ct_code_hash(d2, defs, 2, &c, &l, h2);
    CHECK(strcmp(h1, h2) != 0);
    ct_code_hash(d1, other, 2, &c, &l, h2);
    CHECK(strcmp(h1, h2) != 0);
    ct_code_hash(d1, defs, 2, &c2, &l, h2);
    CHECK(strcmp(h1, h2) != 0);
    ct_code_hash(d1, defs, 2, &c, &l2, h2);
    CHECK(strcmp(h1, h2) != 0);
    /* The rule for records: the code hash when stored, else the text hash. */
    ct_result r;
    ct_result_init(&r);
    snprintf(r.template_hash, sizeof r.template_hash, "%s", d1);
    CHECK(ct_code_matches(&r, d1, h1) && !ct_code_matches(&r, d2, h1));
    snprintf(r.code_hash, sizeof r.code_hash, "%s", h1);
    CHECK(ct_code_matches(&r, d2, h1) && !ct_code_matches(&r, d1, h2));
}

static char *resolve(const char *src, const ct_define *defs, int nd, const ct_params *c, const ct_family *fam)
{
    char *cs = canon(src), *out = NULL;
    ct_err e;
    CHECK(ct_code_resolve(cs, defs, nd, c, fam, &out, &e) == CT_OK && out != NULL);
    free(cs);
    return out ? out : strdup("");
}

static const ct_family *fam;   /* of resolves_to: conv2dc */

static void resolves_to(const char *src, const ct_define *defs, int nd, const char *want)
{
    char *got = resolve(src, defs, nd, NULL, fam), *w = canon(want);
    CHECK_MSG(!strcmp(got, w), "resolved:\n%s\nwant:\n%s", got, w);
    free(got);
    free(w);
}

static void test_resolve(void)
{
    const ct_define d[] = {{"A", 2}, {"B", 0}};
    ct_problem p;
    ct_err e;
    CHECK(ct_problem_parse("conv2dc:2:64:16:16:64:3:3:same", &p, &e) == CT_OK);
    fam = p.family;
    resolves_to("x;\n#if A == 2\ny;\n#else\nz;\n#endif\nw;\n", d, 2, "x; y; w;");
    resolves_to("#ifdef B\ny;\n#endif\n#ifndef CT_C\nz;\n#endif\n", d, 2, "y; z;");
    resolves_to("#if B\n1;\n#elif A > 1 && !defined(TC_C)\n2;\n#else\n3;\n#endif\n", d, 2, "2;");
    /* include guards; another template's parameter given a default */
    resolves_to("#ifndef CT_G\n#define CT_G\nx;\n#endif\n#ifndef CT_G\ny;\n#endif\n", d, 2, "#define CT_G\nx;");
    resolves_to("#ifndef PIPE\n#define PIPE 0\n#endif\n#if PIPE\na;\n#endif\n#if CONV_NONE\nb;\n#endif\n", d, 2,
                "#define PIPE 0\n");
    /* names that are not the project's own: NVRTC defines NULL and assert */
    resolves_to("#ifdef NULL\na;\n#endif\n#ifndef C\nb;\n#endif\n", d, 2,
                "#ifdef NULL\na;\n#endif\n#ifndef C\nb;\n#endif\n");
    /* macros of the text, expanded when used */
    resolves_to("#define K A + 1\n#define L K * 2\n#if L == 4\nyes;\n#endif\n#if L == 6\nno;\n#endif\n", d, 2,
                "#define K A + 1\n#define L K * 2\nyes;");
    resolves_to("#define K 1\n#undef K\n#ifdef K\nno;\n#endif\n", d, 2, "#define K 1\n#undef K\n");
    resolves_to("#if true && A / 2 == 1 && (3 << 2) == 12 && -1 < 0 && 017 == 15 && 0x10 == 16\nyes;\n#endif\n", d,
                2, "yes;");
    /* not known: kept whole */
    resolves_to("#if __CUDA_ARCH__ >= 800\na;\n#else\nb;\n#endif\n", d, 2,
                "#if __CUDA_ARCH__ >= 800\na;\n#else\nb;\n#endif\n");
    resolves_to("#define F(x) x\n#if F(1)\na;\n#endif\n", d, 2, "#define F(x) x\n#if F(1)\na;\n#endif\n");
    resolves_to("#include <cuda_bf16.h>\n#ifdef CUDART_INF_BF16\na;\n#endif\n", d, 2,
                "#include <cuda_bf16.h>\n#ifdef CUDART_INF_BF16\na;\n#endif\n");
    resolves_to("#if A / B\na;\n#endif\n#if 1u\nb;\n#endif\n#if 'a'\nc;\n#endif\n", d, 2,
                "#if A / B\na;\n#endif\n#if 1u\nb;\n#endif\n#if 'a'\nc;\n#endif\n");
    resolves_to("#if CT_SMEM_BYTES\na;\n#endif\n#if A and B\nb;\n#endif\n", d, 2,
                "#if CT_SMEM_BYTES\na;\n#endif\n#if A and B\nb;\n#endif\n");
    /* a name defined in a group kept whole is not known after it */
    resolves_to("#if __X\n#define M 1\n#endif\n#if M\na;\n#endif\n", d, 2,
                "#if __X\n#define M 1\n#endif\n#if M\na;\n#endif\n");
    /* an #elif not known after branches known not taken starts a group */
    resolves_to("#if B\na;\n#elif __X\nb;\n#else\nc;\n#endif\n", d, 2, "#if __X\nb;\n#else\nc;\n#endif\n");
    /* nesting: groups inside a branch not taken are skipped whole */
    resolves_to("#if B\n#if __X\na;\n#else\nb;\n#endif\n#else\nc;\n#endif\n", d, 2, "c;");
    /* malformed nesting: unresolved */
    resolves_to("#if A\na;\n", d, 2, "#if A\na;\n");
}

/* Text with every blank and line break removed, for comparing what the
 * preprocessor made of two sources. */
static void squeeze(char *s)
{
    char *w = s;
    for (const char *p = s; *p; p++)
        if (!isspace((unsigned char)*p))
            *w++ = *p;
    *w = '\0';
}

/* The C preprocessor's output (C++ mode) for text with the candidate's
 * macros defined first and its <header> lines left out, squeezed; NULL when
 * it fails. */
static char *cpp(const char *text, const ct_define *defs, int nd, const ct_params *c)
{
    size_t n = strlen(text), cap = n + 4096, o = 0;
    char *buf = malloc(cap);
    for (int i = 0; i < nd; i++)
        o += (size_t)snprintf(buf + o, cap - o, "#define %s %lld\n", defs[i].name, defs[i].value);
    for (int i = 0; c && i < c->n; i++)
        o += (size_t)snprintf(buf + o, cap - o, "#define %s %ld\n", c->names[i], c->values[i]);
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
        const char *q = line;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncmp(q, "#include <", 10) != 0 && strncmp(q, "# include <", 11) != 0) {
            memcpy(buf + o, line, len);
            o += len;
        }
        line += len;
    }
    buf[o] = '\0';
    char in[600];
    tl_path(in, sizeof in, wd.work, "cpp_in.cu");
    CHECK(tl_write_text(in, buf) == 0);
    free(buf);
    char *argv[] = {"cpp", "-P", "-x", "c++", "-std=c++17", in, NULL};
    tl_result r;
    tc_run(argv, wd.work, wd.base, TIMEOUT_S, &r);
    char *out = r.code == 0 ? r.out : NULL;
    CHECK_MSG(r.code == 0, "cpp: exit %d: %s", r.code, r.err);
    r.out = NULL;
    tl_result_free(&r);
    if (out)
        squeeze(out);
    return out;
}

/* On every template of problems covering the families, element types and
 * layouts, for a few candidates each: the C preprocessor makes the same of
 * the template's expanded source and of its resolved canonical form, so
 * no branch left out is one compiled; and the resolution leaves some out. */
static void test_resolve_cpp(void)
{
    static const char *const specs[] = {
        "conv1d:1000:7",
        "conv1d:1000:7:bf16",
        "conv1dc:2:64:128:64:3:pad=1:bias",
        "conv1dc:2:64:128:64:3:pad=1:nlc:f16",
        "conv2d:2:64:64:3:3:same:f16",
        "conv2dc:2:64:16:16:64:3:3:same:bias:bf16",
        "conv2dc:2:64:16:16:64:3:3:same:nhwc:f16",
        "conv2dc:4:32:14:14:32:3:3:same:groups=32",
    };
    ct_config cfg;
    ct_err e;
    ct_limits lim;
    CHECK(ct_config_init(&cfg, &e) == CT_OK);
    CHECK(ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
    int compared = 0, shorter = 0;
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        ct_problem p;
        ct_space sp;
        CHECK_MSG(ct_problem_parse(specs[k], &p, &e) == CT_OK, "%s: %s", specs[k], e.msg);
        if (ct_space_build(&p, &cfg, &lim, NULL, &sp, &e) != CT_OK) {
            CHECK_MSG(0, "space of %s: %s", specs[k], e.msg);
            continue;
        }
        ct_define defs[CT_MAX_DEFINES];
        int nd = ct_problem_defines(&p, defs);
        for (int t = 0; t < p.family->ntemplates; t++) {
            const ct_template *tp = &p.family->templates[t];
            int first = -1, last = -1;
            for (int i = 0; i < sp.n; i++)
                if (sp.cand[i].tmpl == tp) {
                    first = first < 0 ? i : first;
                    last = i;
                }
            if (first < 0)
                continue;
            char *src = NULL;
            CHECK(ct_template_source(tp->name, NULL, &src, &e) == CT_OK);
            /* one candidate a template, the first or the last by turns: cpp takes time */
            for (int i = (compared % 2) ? last : first; src && i >= 0; i = -1) {
                const ct_params *c = &sp.cand[i].params;
                char *res = resolve(src, defs, nd, c, p.family), *cs = canon(src);
                shorter += strlen(res) < strlen(cs);
                char *a = cpp(src, defs, nd, c), *b = cpp(res, defs, nd, c);
                CHECK_MSG(a && b && !strcmp(a, b), "%s on %s: the preprocessor reads the resolved source otherwise",
                          tp->name, specs[k]);
                compared++;
                free(a);
                free(b);
                free(res);
                free(cs);
            }
            free(src);
        }
        ct_space_free(&sp);
    }
    printf("resolved conditionals checked against cpp on %d candidates, %d with branches left out\n", compared,
           shorter);
    CHECK(compared >= 20 && shorter >= compared / 2);
}

/* The names the resolution takes as undefined unless given (codepp.c):
 * every template parameter of every family and every CT_, CONV_ and TC_
 * name in the templates. NVRTC, with the toolkit's half-type headers,
 * defines none of them (it does define NULL, assert, CUDART_VERSION). */
static void test_project_names(void)
{
    size_t cap = 1 << 21, o = 0;
    char *src = malloc(cap);
    o += (size_t)snprintf(src, cap, "#include <cuda_bf16.h>\n#include <cuda_fp16.h>\n");
    int names = 0;
    const ct_family *const *fams = ct_families();
    for (int f = 0; fams[f]; f++)
        for (int t = 0; t < fams[f]->ntemplates; t++) {
            const ct_template *tp = &fams[f]->templates[t];
            for (int i = 0; i < tp->nparams && o + 200 < cap; i++, names++)
                o += (size_t)snprintf(src + o, cap - o, "#ifdef %s\n#error %s is predefined\n#endif\n",
                                      tp->params[i].name, tp->params[i].name);
            char *text = NULL;
            ct_err e;
            if (ct_template_source(tp->name, NULL, &text, &e) != CT_OK)
                continue;
            for (const char *q = text; *q; q++) {
                if ((q > text && (isalnum((unsigned char)q[-1]) || q[-1] == '_')) ||
                    (strncmp(q, "CT_", 3) && strncmp(q, "TC_", 3) && strncmp(q, "CONV_", 5)))
                    continue;
                size_t n = 0;
                while (isalnum((unsigned char)q[n]) || q[n] == '_')
                    n++;
                if (o + 2 * n + 60 < cap) {
                    o += (size_t)snprintf(src + o, cap - o, "#ifdef %.*s\n#error %.*s is predefined\n#endif\n",
                                          (int)n, q, (int)n, q);
                    names++;
                }
                q += n - 1;
            }
            free(text);
        }
    CHECK(o + 200 < cap);   /* nothing left out */
    snprintf(src + o, cap - o, "#if !defined(NULL) || !defined(CUDART_VERSION)\n#error the probe sees no "
                               "predefined name\n#endif\n__global__ void ct_probe() {}\n");
    ct_binary b;
    ct_err e = {""};
    ct_status rc = ct_nvrtc_compile(src, "names", "compute_90", NULL, 0, NULL, &b, &e);
    CHECK_MSG(rc == CT_OK, "NVRTC: %s", e.msg);
    CHECK(names > 500);
    printf("%d project names: none predefined by NVRTC %d\n", names, ct_nvrtc_version());
    ct_binary_free(&b);
    free(src);
}

/* Two templates folded into one source, the half one's text in an #if on
 * the element type and the fp32 one's in its #else: each keeps the code
 * hash of its results. */
static void test_fold(void)
{
    ct_err e;
    char *tiled = NULL, *half = NULL;
    CHECK(ct_template_source("conv1d_tiled", NULL, &tiled, &e) == CT_OK);
    CHECK(ct_template_source("conv1d_tiledh", NULL, &half, &e) == CT_OK);
    if (!tiled || !half)
        return;
    size_t n = strlen(tiled) + strlen(half) + 100;
    char *folded = malloc(n);
    snprintf(folded, n, "// conv1d_tiled.cu: every element type\n#if defined(CT_DTYPE) && CT_DTYPE != 0\n%s\n"
                        "#else\n%s\n#endif // CT_DTYPE\n", half, tiled);
    static const char *const specs[] = {"conv1d:1000:7", "conv1d:1000:7:bf16", "conv1d:1000:7:f16"};
    ct_config cfg;
    ct_limits lim;
    CHECK(ct_config_init(&cfg, &e) == CT_OK);
    CHECK(ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
    int same = 0;
    for (int k = 0; k < 3; k++) {
        ct_problem p;
        ct_space sp;
        CHECK(ct_problem_parse(specs[k], &p, &e) == CT_OK);
        const char *name = k ? "conv1d_tiledh" : "conv1d_tiled";
        if (ct_space_build(&p, &cfg, &lim, name, &sp, &e) != CT_OK || sp.n == 0) {
            CHECK_MSG(0, "space of %s on %s: %s", name, specs[k], e.msg);
            continue;
        }
        for (int i = 0; i < sp.n; i += sp.n / 5 + 1) {
            char a[17], b[17];
            CHECK(ct_code_hash_of(k ? half : tiled, &p, sp.cand[i].tmpl, &sp.cand[i].params, a, &e) == CT_OK);
            CHECK(ct_code_hash_of(folded, &p, sp.cand[i].tmpl, &sp.cand[i].params, b, &e) == CT_OK);
            CHECK_MSG(!strcmp(a, b), "%s on %s: the fold changed the code hash", name, specs[k]);
            same += !strcmp(a, b);
        }
        ct_space_free(&sp);
    }
    CHECK(same >= 3);
    free(folded);
    free(tiled);
    free(half);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What the tuner adds per run (one canonical pass per template) and per
 * candidate (ct_code_candidate_hash), on every candidate of a bf16 layer's
 * space on sm_90; NVRTC takes about a second per candidate. */
static void test_cost(void)
{
    ct_problem p;
    ct_err e;
    ct_limits lim;
    ct_config cfg;
    ct_space sp;
    CHECK(ct_problem_parse(BF16, &p, &e) == CT_OK);
    CHECK(ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
    CHECK(ct_config_init(&cfg, &e) == CT_OK);
    if (ct_space_build(&p, &cfg, &lim, NULL, &sp, &e) != CT_OK) {
        CHECK_MSG(0, "space of %s: %s", BF16, e.msg);
        return;
    }
    char **canons = calloc((size_t)p.family->ntemplates, sizeof *canons);
    double t0 = now_s(), worst = 0;
    size_t bytes = 0;
    for (int i = 0; canons && i < p.family->ntemplates; i++) {
        char *src = NULL;
        double ts = now_s();
        CHECK(ct_template_source(p.family->templates[i].name, NULL, &src, &e) == CT_OK);
        CHECK(ct_code_canonical(src ? src : "", &canons[i], &e) == CT_OK);
        double dt = now_s() - ts;
        worst = dt > worst ? dt : worst;
        bytes += src ? strlen(src) : 0;
        free(src);
    }
    double per_run = now_s() - t0;
    char h[17];
    t0 = now_s();
    for (int k = 0; canons && k < sp.n; k++)
        CHECK(ct_code_candidate_hash(canons[sp.cand[k].tmpl - p.family->templates], &p, sp.cand[k].tmpl,
                                     &sp.cand[k].params, h, &e) == CT_OK);
    double per_cand = sp.n ? (now_s() - t0) / sp.n : 0;
    printf("code hash cost: %d templates (%zu bytes expanded) %.2f ms once per run (largest %.2f ms); "
           "%d candidates, %.2f us each\n", p.family->ntemplates, bytes, per_run * 1e3, worst * 1e3, sp.n,
           per_cand * 1e6);
    CHECK(sp.n > 1000);
    CHECK_MSG(per_cand < 1e-3, "%.3f ms per candidate", per_cand * 1e3);
    CHECK_MSG(per_run < 1.0, "%.3f s per run", per_run);
    ct_space_free(&sp);
    for (int i = 0; canons && i < p.family->ntemplates; i++)
        free(canons[i]);
    free(canons);
}

/* ------------------------------------------------------------------------ */
/* Exports after a refactor                                                 */

static tl_result run(const char *what, ...)
{
    va_list ap;
    tl_result r;
    va_start(ap, what);
    tc_convtune_v(wd.work, wd.base, TIMEOUT_S, &r, ap);
    va_end(ap);
    return r;
}

static void export_ok(const char *what, const char *db, const char *problem, const char *tdir)
{
    tl_result r = tdir ? run(what, "export", "--db", db, "--problem", problem, "--templates", tdir, "-o", "out.cu",
                             "--force", NULL)
                       : run(what, "export", "--db", db, "--problem", problem, "-o", "out.cu", "--force", NULL);
    CHECK_MSG(r.code == 0, "%s: exit %d: %s", what, r.code, r.err);
    tl_result_free(&r);
}

static void export_refused(const char *what, const char *db, const char *problem, const char *tdir,
                           const char *want)
{
    tl_result r = run(what, "export", "--db", db, "--problem", problem, "--templates", tdir, "-o", "refused.cu",
                      NULL);
    CHECK_MSG(r.code == 6 && tl_one_line(&r) && strstr(r.err, want) && strstr(r.err, "changed since the result"),
              "%s: exit %d: %s", what, r.code, r.err);
    char path[600];
    tl_path(path, sizeof path, wd.work, "refused.cu");
    CHECK(!tc_exists(path));
    tl_result_free(&r);
}

/* Replace the first occurrence of from in file dir/name with to (or append
 * to when from is NULL). */
static void edit(const char *dir, const char *name, const char *from, const char *to)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *s = tc_slurp(path, NULL);
    CHECK_MSG(s != NULL, "cannot read %s", path);
    if (!s)
        return;
    char *at = from ? strstr(s, from) : s + strlen(s);
    CHECK_MSG(at != NULL, "%s lacks '%s'", path, from);
    if (!at) {
        free(s);
        return;
    }
    size_t cut = from ? strlen(from) : 0, n = strlen(s) + strlen(to) + 1;
    char *o = malloc(n);
    snprintf(o, n, "%.*s%s%s", (int)(at - s), s, to, at + cut);
    CHECK(tl_write_text(path, o) == 0);
    free(o);
    free(s);
}

/* The layout and comments of a file changed throughout: indentation by tabs,
 * a comment on top, blank lines, every line comment moved a line down. */
static void relayout(const char *dir, const char *name)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *s = tc_slurp(path, NULL);
    CHECK_MSG(s != NULL, "cannot read %s", path);
    if (!s)
        return;
    size_t n = strlen(s);
    char *o = malloc(3 * n + 200), *w = o;
    w += sprintf(w, "/* %s, laid out again in a refactor:\n * nothing in it changed but this. */\n\n", name);
    for (const char *p = s; *p;) {
        if (!strncmp(p, "\n    ", 5)) {
            w += sprintf(w, "\n\t");
            p += 5;
        } else if (p > s && !strncmp(p, " // ", 4) && p[-1] != ' ') {
            w += sprintf(w, "\n   // ");   /* the comment on a line of its own */
            p += 4;
        } else {
            *w++ = *p++;
        }
    }
    w += sprintf(w, "\n\n// end of %s\n", name);
    CHECK(tl_write_text(path, o) == 0);
    free(o);
    free(s);
}

/* Move the first half of common/ct_conv_tc.cuh to the end of
 * conv1dc/conv1dc_tclayer.cuh, which conv1dc_tc.cu includes just before it:
 * the expanded source keeps its order. */
static void move_half(const char *dir)
{
    char a[700], b[700];
    snprintf(a, sizeof a, "%.600s/common/ct_conv_tc.cuh", dir);
    snprintf(b, sizeof b, "%.600s/conv1dc/conv1dc_tclayer.cuh", dir);
    char *sa = tc_slurp(a, NULL), *sb = tc_slurp(b, NULL);
    CHECK(sa && sb);
    if (sa && sb) {
        char *mid = sa + strlen(sa) / 2;
        while (*mid && *mid != '\n')
            mid++;
        if (*mid)
            mid++;
        size_t n = strlen(sb) + (size_t)(mid - sa) + 1;
        char *nb = malloc(n);
        snprintf(nb, n, "%s%.*s", sb, (int)(mid - sa), sa);
        CHECK(tl_write_text(b, nb) == 0 && tl_write_text(a, mid) == 0);
        free(nb);
    }
    free(sa);
    free(sb);
}

static int stored_cb(const ct_result *r, void *user)
{
    ct_result *out = user;
    if (!strcmp(r->problem, out->problem) && r->status == CT_RS_OK && !out->tmpl[0])
        *out = *r;
    return 0;
}

/* A conv1dc_tc result stored as the tuner stores one now (record() in
 * tune.c): with its code hash, faster than the problem's stored winner. */
static void add_tc_result(const char *db_path)
{
    ct_db *db = NULL;
    ct_err e;
    ct_result best;
    ct_result_init(&best);
    snprintf(best.problem, sizeof best.problem, "%s", LAYER);
    CHECK(ct_db_open(db_path, 1, &db, &e) == CT_OK);
    if (!db)
        return;
    ct_query q = {.problem = LAYER};
    ct_result tc;
    ct_result_init(&tc);
    snprintf(tc.problem, sizeof tc.problem, "%s", LAYER);
    CHECK(ct_db_query(db, &q, stored_cb, &best, &e) == CT_OK && best.tmpl[0]);
    /* a stored conv1dc_tc candidate's parameters */
    sqlite3 *h = NULL;
    sqlite3_stmt *s = NULL;
    char params[512] = "";
    CHECK(sqlite3_open_v2(db_path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
    CHECK(sqlite3_prepare_v2(h, "SELECT params FROM candidates WHERE template = 'conv1dc_tc' AND status = 'ok'"
                                " ORDER BY id LIMIT 1", -1, &s, NULL) == SQLITE_OK);
    if (sqlite3_step(s) == SQLITE_ROW)
        snprintf(params, sizeof params, "%s", (const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    sqlite3_close(h);
    ct_problem p;
    CHECK(ct_problem_parse(LAYER, &p, &e) == CT_OK);
    const ct_template *t = ct_template_find(p.family, "conv1dc_tc");
    ct_result r = best;
    snprintf(r.tmpl, sizeof r.tmpl, "conv1dc_tc");
    snprintf(r.params_json, sizeof r.params_json, "%s", params);
    r.created_at[0] = '\0';
    r.median_us = best.median_us / 2;
    char *src = NULL;
    CHECK(t && ct_params_from_json(params, t->params, t->nparams, &r.params, &e) == CT_OK);
    CHECK(ct_template_source("conv1dc_tc", NULL, &src, &e) == CT_OK);
    ct_hash_hex(src, r.template_hash);
    CHECK(t && ct_code_hash_of(src, &p, t, &r.params, r.code_hash, &e) == CT_OK);
    free(src);
    CHECK_MSG(ct_db_candidate_add(db, best.run_id, &r, &e) == CT_OK, "%s", e.msg);
    ct_db_close(db);
}

/* What a resumed run of BF16 does first (tune.c plan_run): the stored
 * outcomes that measured the current code, old ones given their code hash.
 * Returns how many it reuses. */
static int resume_bf16(const char *db_path, int *filled)
{
    ct_db *db = NULL;
    ct_err e;
    ct_problem p;
    CHECK(ct_problem_parse(BF16, &p, &e) == CT_OK);
    const int nt = p.family->ntemplates;
    char(*hashes)[17] = calloc((size_t)nt, sizeof *hashes), **canons = calloc((size_t)nt, sizeof *canons);
    for (int i = 0; hashes && canons && i < nt; i++) {
        char *src = NULL;
        CHECK(ct_template_source(p.family->templates[i].name, NULL, &src, &e) == CT_OK);
        ct_hash_hex(src ? src : "", hashes[i]);
        CHECK(ct_code_canonical(src ? src : "", &canons[i], &e) == CT_OK);
        free(src);
    }
    CHECK(ct_db_open(db_path, 1, &db, &e) == CT_OK);
    long long dev = 0;
    sqlite3 *h = NULL;
    sqlite3_stmt *s = NULL;
    CHECK(sqlite3_open_v2(db_path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
    CHECK(sqlite3_prepare_v2(h, "SELECT id FROM devices LIMIT 1", -1, &s, NULL) == SQLITE_OK);
    if (sqlite3_step(s) == SQLITE_ROW)
        dev = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(h);
    int n = -1;
    if (db && hashes && canons) {
        ct_resume prior;
        CHECK_MSG(ct_resume_load(db, &p, &dev, 1, (const char(*)[17])hashes, (const char *const *)canons, &prior,
                                 &e) == CT_OK, "%s", e.msg);
        n = prior.n;
        *filled = prior.nfill;
        ct_resume_free(&prior);
    }
    ct_db_close(db);
    for (int i = 0; canons && i < nt; i++)
        free(canons[i]);
    free(canons);
    free(hashes);
    return n;
}

static long long count_sql(const char *db_path, const char *sql)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *s = NULL;
    long long n = -1;
    if (sqlite3_open_v2(db_path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(h, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(h);
    return n;
}

static void test_refactor(void)
{
    char db[600], tdir[600], cp_from[600];
    tl_path(db, sizeof db, wd.work, "pre.db");
    tl_path(tdir, sizeof tdir, wd.work, "templates");
    snprintf(cp_from, sizeof cp_from, "%s/templates", CT_SOURCE_DIR);
    char *cp[] = {"cp", "-R", cp_from, tdir, NULL}, *cpdb[] = {"cp", FIXTURE, db, NULL};
    tl_result r;
    tc_run(cp, wd.work, wd.base, TIMEOUT_S, &r);
    CHECK_MSG(r.code == 0, "cp -R templates: %s", r.err);
    tl_result_free(&r);
    tc_run(cpdb, wd.work, wd.base, TIMEOUT_S, &r);
    CHECK_MSG(r.code == 0, "cp %s: %s", FIXTURE, r.err);
    tl_result_free(&r);

    /* The copy as it is: the old bf16 result exports on its template hash. */
    export_ok("unchanged copy", db, BF16, tdir);

    /* A refactor of the headers the two templates include: layout and
     * comments of ct_dtype.cuh (5 levels deep in the tensor-core templates),
     * conv2dc_layer.cuh and ct_conv_tc.cuh; half of ct_conv_tc.cuh moved to
     * the header included before it. */
    relayout(tdir, "common/ct_dtype.cuh");
    relayout(tdir, "conv2dc/conv2dc_layer.cuh");
    relayout(tdir, "common/ct_conv_tc.cuh");
    move_half(tdir);

    /* The old result has no code hash: judged on its template's text, which
     * changed, it is refused, as before. */
    export_refused("old result after a refactor", db, BF16, tdir, "(hash ");
    /* A resumed run reuses the 3 old outcomes of the problem (their template
     * hash matches the built-in templates) and gives them code hashes... */
    int filled = 0;
    CHECK(resume_bf16(db, &filled) == 3 && filled == 3);
    CHECK(count_sql(db, "SELECT count(*) FROM candidates WHERE code_hash IS NOT NULL") == 3);
    /* ...a second time, it finds them filled. */
    CHECK(resume_bf16(db, &filled) == 3 && filled == 0);
    /* ...after which the refactor orphans nothing. */
    export_ok("filled result after a refactor", db, BF16, tdir);
    char out[600];
    tl_path(out, sizeof out, wd.work, "out.cu");
    char *text = tc_slurp(out, NULL);
    CHECK(text && strstr(text, "laid out again in a refactor") && strstr(text, ", code hash "));
    free(text);

    /* A result stored now (with its code hash) on a template including
     * ct_conv_tc.cuh: refactored, it exports. */
    add_tc_result(db);
    export_ok("new result after a refactor", db, LAYER, tdir);
    text = tc_slurp(out, NULL);
    CHECK(text && strstr(text, "// template:  conv1dc_tc (content hash "));
    free(text);

    /* db export carries the code hashes; db import takes them into a new
     * database, and into one holding the same records without them. */
    tl_result x = run("db export", "db", "export", "--db", db, "--format", "json", "-o", "with.json", NULL);
    CHECK_MSG(x.code == 0, "db export: %s", x.err);
    tl_result_free(&x);
    char with[600], fresh[600], old[600];
    tl_path(with, sizeof with, wd.work, "with.json");
    tl_path(fresh, sizeof fresh, wd.work, "fresh.db");
    tl_path(old, sizeof old, wd.work, "old.db");
    text = tc_slurp(with, NULL);
    CHECK(text && strstr(text, "\"code_hash\":\"") && strstr(text, "\"code_hash\":null"));
    free(text);
    char *cpold[] = {"cp", FIXTURE, old, NULL};
    tc_run(cpold, wd.work, wd.base, TIMEOUT_S, &r);
    tl_result_free(&r);
    for (int k = 0; k < 2; k++) {
        const char *into = k ? old : fresh;
        x = run("db import", "db", "import", with, "--db", into, NULL);
        CHECK_MSG(x.code == 0, "db import into %s: %s", into, x.err);
        tl_result_free(&x);
        CHECK(count_sql(into, "SELECT count(*) FROM candidates WHERE code_hash IS NOT NULL") == 4);
        export_ok("imported result after a refactor", into, BF16, tdir);
        export_ok("imported result after a refactor", into, LAYER, tdir);
    }

    /* A change of the generated code is refused, with the code hashes. */
    edit(tdir, "common/ct_conv_tc.cuh", "__syncthreads();", "__syncthreads();\n    __syncthreads();");
    export_refused("changed code (ct_conv_tc.cuh)", db, LAYER, tdir, "(code hash ");
    edit(tdir, "common/ct_dtype.cuh", NULL, "\n__device__ int ct_refactor_probe = 1;\n");
    export_refused("changed code (ct_dtype.cuh)", db, BF16, tdir, "(code hash ");
    /* The built-in templates still generate what was measured. */
    export_ok("built-in templates", db, LAYER, NULL);
    export_ok("built-in templates", db, BF16, NULL);
}

int main(void)
{
    test_canonical();
    test_resolve();
    test_hash();
    test_cost();
    test_fold();
    test_project_names();
    CHECK(tl_workdir_make(&wd, "codehash") == 0);
    test_resolve_cpp();
    test_refactor();
    tl_workdir_remove(&wd);
    CHECK_DONE();
}
