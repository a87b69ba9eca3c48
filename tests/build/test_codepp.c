/* test_codepp.c - the canonical form and the resolved conditionals of a
 * template (tuner/build/codehash.c, codepp.c), what the code hash of a
 * stored result is computed from (see test_codehash.c):
 *   - the canonical form ignores comments, blanks and line breaks and keeps
 *     every token, directive lines and literals;
 *   - the conditionals known for a candidate's macros are resolved exactly
 *     as the C preprocessor resolves them, on every template of several
 *     problems; the names taken as undefined are none that NVRTC defines;
 *   - a fold of two templates into one source (#if on the element type)
 *     keeps both templates' code hashes.
 * No GPU; NVRTC and cpp. */
#include "export_common.h"

#include <ctype.h>

#include "codehash.h"
#include "codepp.h"
#include "space.h"

#define TIMEOUT_S 120

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

int main(void)
{
    test_canonical();
    test_resolve();
    test_fold();
    test_project_names();
    CHECK(tl_workdir_make(&wd, "codepp") == 0);
    test_resolve_cpp();
    tl_workdir_remove(&wd);
    CHECK_DONE();
}
