/* test_export_family.c - `convtune export --family conv1d` and `convtune
 * query --nearest`, on a database filled through the ct_db API:
 *
 *   "NVIDIA Test Family GPU" (sm_90), driver 13000: conv1d:3000:37:same
 *       (conv1d_tiled, mask in constant memory; a faster wrong result next to
 *       it), conv1d:4096:7:valid (tiled, shared mask, unstaged input, 9 us),
 *       conv1d:1000:5:valid (conv1d_naive wins)
 *   the same name with driver 13010: conv1d:4096:7:valid again, 6 us (one
 *       device: the faster row must win)
 *   "NVIDIA Other Test GPU" (sm_80): conv1d:3000:37:same only, 1 us
 *
 * The export must pick the device with the most tuned problems (or the one
 * asked for), hold one instance per problem with unique kernel names, each
 * in its own namespace with its macros undone, the generic kernel and the
 * selector; the pair must compile: the header from C (gcc -std=c11 -Wall
 * -Wextra -Werror) and C++, the .cu with nvcc -c (and with the header
 * included first, so declarations and definitions agree). Then the
 * refusals, and query --nearest for an exact, a nearby and an untuned size.
 * nvcc is a prerequisite (the toolkit is): without it on PATH the test
 * fails, it does not skip. */
#include "export_common.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>

#include "export.h"
#include "family_export.h"
#include "json.h"

#define DEV "NVIDIA Test Family GPU"
#define OTHER "NVIDIA Other Test GPU"
#define TIMEOUT_S 300

static char base[] = "/tmp/ct_test_export_family_XXXXXX";
static char work[512];
static char dbpath[600];

static void path_in(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", work, name);
}

/* convtune ARGS... (NULL-terminated) in the work directory. */
static void convtune(tc_result *r, ...)
{
    char *argv[24];
    int n = 0;
    va_list ap;
    argv[n++] = (char *)CT_BINARY;
    va_start(ap, r);
    for (char *a; n < 23 && (a = va_arg(ap, char *)) != NULL;)
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    tc_run(argv, work, base, TIMEOUT_S, r);
}

/* A command that must fail with code, one stderr line containing want and
 * nothing on stdout. */
static void fails(tc_result *r, int code, const char *want, const char *what)
{
    CHECK_MSG(r->code == code, "%s: exit %d, expected %d; stderr: %s", what, r->code, code, r->err);
    CHECK_MSG(tc_one_line(r), "%s: stderr is not one line: [%s]", what, r->err);
    CHECK_MSG(strstr(r->err, want) != NULL, "%s: stderr [%s] lacks [%s]", what, r->err, want);
    CHECK_MSG(r->outlen == 0, "%s: stdout not empty: %s", what, r->out);
    tc_result_free(r);
}

static int count_temps(void)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "ls -A %s | grep -c '^\\.convtune-export-' > %s/.n", work, base);
    if (system(cmd) == -1)
        return -1;
    snprintf(cmd, sizeof cmd, "%s/.n", base);
    char *t = tc_slurp(cmd, NULL);
    int n = t ? atoi(t) : -1;
    free(t);
    return n;
}

static int run_tool(const char *what, char *const *argv)
{
    tc_result r;
    tc_run(argv, work, base, TIMEOUT_S, &r);
    int code = r.code;
    if (code != 0)
        fprintf(stderr, "%s -> %d:\n%s%s\n", what, code, r.out, r.err);
    tc_result_free(&r);
    return code;
}

static char hash_tiled[17], hash_naive[17];
static char p_const[512], p_shared[512], p_naive[512], p_other[512];

static void fill(const char *path, int stale)
{
    ct_db *db = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_db_open(path, 1, &db, &e) == CT_OK, "%s: %s", path, e.msg);
    if (!db)
        return;
    ct_device_info dev = tc_device(DEV, "GPU-1111-test", 9, 0, 13000);
    ct_device_info dev2 = tc_device(DEV, "GPU-1111-test", 9, 0, 13010);
    ct_device_info other = tc_device(OTHER, "GPU-2222-test", 8, 0, 13000);
    const char *ht = stale ? "0123456789abcdef" : hash_tiled;
    const ct_result r1[] = {
        tc_rec("conv1d_tiled", ht, p_const, "wrong_result", 1.0, 0.3),
        tc_rec("conv1d_tiled", ht, p_const, "ok", 5.0, 1e-7),
        tc_rec("conv1d_naive", hash_naive, p_naive, "ok", 40.0, 1e-7),
    };
    const ct_result r2[] = {
        tc_rec("conv1d_tiled", ht, p_shared, "ok", 9.0, 1e-7),
        tc_rec("conv1d_naive", hash_naive, p_naive, "ok", 30.0, 1e-7),
    };
    const ct_result r2b[] = {tc_rec("conv1d_tiled", ht, p_shared, "ok", 6.0, 1e-7)};
    const ct_result r3[] = {
        tc_rec("conv1d_naive", hash_naive, p_naive, "ok", 3.0, 1e-7),
        tc_rec("conv1d_tiled", ht, p_other, "wrong_result", 2.0, 0.5),
    };
    const ct_result r4[] = {tc_rec("conv1d_tiled", ht, p_const, "ok", 1.0, 1e-7)};
    tc_add_run(db, &dev, "conv1d:3000:37:same", r1, 3);
    tc_add_run(db, &dev, "conv1d:4096:7:valid", r2, 2);
    tc_add_run(db, &dev2, "conv1d:4096:7:valid", r2b, 1);
    tc_add_run(db, &dev, "conv1d:1000:5:valid", r3, 2);
    tc_add_run(db, &other, "conv1d:3000:37:same", r4, 1);
    ct_db_close(db);
}

static int contains(const char *s, const char *want, const char *file)
{
    int ok = s && strstr(s, want) != NULL;
    CHECK_MSG(ok, "%s lacks [%s]", file, want);
    return ok;
}

static void check_family_text(const char *cu, const char *h)
{
    size_t n = 0;
    char *s = tc_slurp(cu, &n), *t = tc_slurp(h, NULL);
    CHECK_MSG(s && t, "%s or %s not written", cu, h);
    if (!s || !t) {
        free(s);
        free(t);
        return;
    }
    CHECK(strncmp(s, "// autogenerated by convtune", 28) == 0);
    CHECK(strncmp(t, "// autogenerated by convtune", 28) == 0);
    /* provenance in both */
    const char *files[2] = {s, t};
    for (int i = 0; i < 2; i++) {
        const char *name = i ? h : cu;
        contains(files[i], "// device:    " DEV " (sm_90): the device with the most tuned conv1d problems", name);
        contains(files[i], "conv1d:1000:5:valid: conv1d_naive (content hash ", name);
        contains(files[i], "conv1d:4096:7:valid: conv1d_tiled (content hash ", name);
        contains(files[i], "conv1d:3000:37:same: conv1d_tiled (content hash ", name);
        contains(files[i], "median 6.00 us", name);     /* the driver-13010 row won */
        contains(files[i], "median 5.00 us", name);
        contains(files[i], "median 3.00 us", name);
        contains(files[i], hash_tiled, name);
        contains(files[i], p_shared, name);
        contains(files[i], "// exported:  ", name);
        contains(files[i], "by convtune " CONVTUNE_VERSION, name);
        contains(files[i], "templates/conv1d_generic.cu (content hash ", name);
        CHECK_MSG(!strstr(files[i], "median 9.00 us") && !strstr(files[i], "median 1.00 us") &&
                      !strstr(files[i], OTHER),
                  "%s mentions a result that is not the winner on " DEV, name);
    }
    /* one instance per problem: renamed kernels, own namespace, macros undone */
    contains(s, "#define conv1d_tiled conv1d_tiled_conv1d_3000_37_same\nnamespace ct_conv1d_3000_37_same {", cu);
    contains(s, "#define conv1d_tiled conv1d_tiled_conv1d_4096_7_valid\nnamespace ct_conv1d_4096_7_valid {", cu);
    contains(s, "#define conv1d_naive conv1d_naive_conv1d_1000_5_valid\nnamespace ct_conv1d_1000_5_valid {", cu);
    contains(s, "}  // namespace ct_conv1d_3000_37_same\n#undef conv1d_tiled\n", cu);
    contains(s, "}  // namespace ct_conv1d_1000_5_valid\n#undef conv1d_naive\n", cu);
    static const char *const undone[] = {"CONV_N", "CONV_K", "CONV_OUT", "CONV_OFF", "BLOCK_SIZE", "R", "KP",
                                         "CT_UNROLL", "CT_SYMBOL_c_mask", "CT_GRID_X", "OUTPUTS_PER_THREAD"};
    for (size_t i = 0; i < sizeof undone / sizeof undone[0]; i++) {
        char want[80];
        snprintf(want, sizeof want, "\n#undef %s\n", undone[i]);
        contains(s, want, cu);
    }
    contains(s, "extern \"C\" int convtune_conv1d_3000_37_same(const float *in, const float *mask, float *out, "
                "cudaStream_t stream)", cu);
    contains(s, "cudaMemcpyToSymbolAsync(c_mask, mask, 37 ", cu);
    /* the template text verbatim, once per instance that uses it */
    char *src = NULL;
    ct_err e;
    CHECK(ct_template_source("conv1d_tiled", NULL, &src, &e) == CT_OK);
    const char *at = src ? strstr(s, src) : NULL;
    CHECK_MSG(at && strstr(at + 1, src), "%s lacks two verbatim copies of conv1d_tiled.cu", cu);
    free(src);
    CHECK(ct_template_source("conv1d_generic", NULL, &src, &e) == CT_OK);
    contains(s, "namespace ct_generic_conv1d {\n", cu);
    CHECK_MSG(src && strstr(s, src), "%s lacks templates/conv1d_generic.cu", cu);
    free(src);
    /* the selector: the tuned table in the ranking's order (mode, sizes) */
    const char *t1 = strstr(s, "{1000LL, 5LL, 0, 256u, ct_conv1d_1000_5_valid::convtune_conv1d_1000_5_valid}");
    const char *t2 = strstr(s, "{4096LL, 7LL, 0, ");
    const char *t3 = strstr(s, "{3000LL, 37LL, 1, 128u, ct_conv1d_3000_37_same::convtune_conv1d_3000_37_same}");
    CHECK_MSG(t1 && t2 && t3 && t1 < t2 && t2 < t3, "%s: the tuned table is missing or out of order", cu);
    contains(s, "static const char device_name[] = \"" DEV "\";", cu);
    contains(s, "extern \"C\" int convtune_conv1d(const float *in, const float *mask, float *out, long long n, "
                "long long k,\n                           int mode, cudaStream_t stream, int *grade)", cu);
    contains(s, "extern \"C\" int convtune_conv1d_pick(long long n, long long k, int mode, double *distance)", cu);
    contains(s, "extern \"C\" int convtune_conv1d_tuned(int i, long long *n, long long *k, int *mode)", cu);
    contains(s, "ct_generic_conv1d::conv1d_generic_launch(in, mask, out, n, k, mode, block, stream);", cu);
    contains(s, "!ct_generic_conv1d::conv1d_generic_accepts(n, k, mode)", cu);
    /* the header */
    contains(t, "#ifndef CONVTUNE_CONV1D_SELECTOR_H\n#define CONVTUNE_CONV1D_SELECTOR_H\n", h);
    contains(t, "struct CUstream_st;\n", h);
    contains(t, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n", h);
    contains(t, "CONVTUNE_EXACT = 0,", h);
    contains(t, "CONVTUNE_NEAREST_SIZE = 1,", h);
    contains(t, "CONVTUNE_OTHER_DEVICE = 2,", h);
    contains(t, "CONVTUNE_GENERIC = 3", h);
    contains(t, "CONVTUNE_CONV1D_VALID = 0,", h);
    contains(t, "CONVTUNE_CONV1D_SAME = 1,", h);
    contains(t, "CONVTUNE_CONV1D_RIGHT = 2\n", h);
    contains(t, "#define CONVTUNE_CONV1D_DEVICE \"" DEV "\"\n", h);
    contains(t, "#define CONVTUNE_CONV1D_ARCH \"sm_90\"\n", h);
    contains(t, "#define CONVTUNE_CONV1D_NTUNED 3\n", h);
    contains(t, "int convtune_conv1d(const float *in, const float *mask, float *out, long long n, long long k, "
                "int mode,\n                struct CUstream_st *stream, int *grade);", h);
    contains(t, "int convtune_conv1d_pick(long long n, long long k, int mode, double *distance);", h);
    contains(t, "int convtune_conv1d_tuned(int i, long long *n, long long *k, int *mode);", h);
    contains(t, "int convtune_conv1d_4096_7_valid(const float *in, const float *mask, float *out, "
                "struct CUstream_st *stream);", h);
    /* outside comments, no CUDA type or header */
    for (const char *line = t; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char buf[400];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf - 1 ? len : sizeof buf - 1), line);
        if (strncmp(buf, "//", 2) != 0)
            CHECK_MSG(!strstr(buf, "cudaStream_t") && !strstr(buf, "#include") && !strstr(buf, "cuda"),
                      "%s needs a CUDA header: [%s]", h, buf);
        line += len + (nl != NULL);
    }
    free(s);
    free(t);
}

/* The header must compile as C11 and C++ with warnings as errors, and
 * accept a cudaStream_t where the runtime's header is included first. */
static void compile_header(const char *h, const char *nvcc_path)
{
    char c_src[600], cc_src[600], cuda_src[600], obj[600], inc[700];
    path_in(c_src, sizeof c_src, "use_header.c");
    path_in(cc_src, sizeof cc_src, "use_header.cc");
    path_in(cuda_src, sizeof cuda_src, "use_header_cuda.cc");
    path_in(obj, sizeof obj, "use_header.o");
    char text[2048];
    snprintf(text, sizeof text,
             "#include <stddef.h>\n#include \"%s\"\n"
             "int use(const float *in, const float *mask, float *out, struct CUstream_st *s);\n"
             "int use(const float *in, const float *mask, float *out, struct CUstream_st *s)\n{\n"
             "    int grade = CONVTUNE_GENERIC;\n    double d = 0;\n    long long n = 0, k = 0;\n    int mode = 0;\n"
             "    int rc = convtune_conv1d(in, mask, out, 4096, 7, CONVTUNE_CONV1D_VALID, s, &grade);\n"
             "    rc |= convtune_conv1d(in, mask, out, 10, 3, CONVTUNE_CONV1D_SAME, NULL, NULL);\n"
             "    rc |= convtune_conv1d_3000_37_same(in, mask, out, s);\n"
             "    rc |= convtune_conv1d_tuned(0, &n, &k, &mode) + convtune_conv1d_pick(n, k, mode, &d);\n"
             "    return rc + (int)convtune_grade_name(grade)[0] + (int)sizeof CONVTUNE_CONV1D_DEVICE +\n"
             "           CONVTUNE_CONV1D_NTUNED + CONVTUNE_EXACT + CONVTUNE_NEAREST_SIZE + CONVTUNE_OTHER_DEVICE;\n}\n",
             h);
    CHECK(tc_write_text(c_src, text) == 0);
    CHECK(tc_write_text(cc_src, text) == 0);
    char *gcc[] = {"gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-c", c_src, "-o", obj, NULL};
    CHECK_MSG(run_tool("gcc -std=c11 (header from C)", gcc) == 0, "%s does not compile as C11", h);
    char *gpp[] = {"g++", "-std=c++11", "-Wall", "-Wextra", "-Werror", "-c", cc_src, "-o", obj, NULL};
    CHECK_MSG(run_tool("g++ -std=c++11 (header from C++)", gpp) == 0, "%s does not compile as C++", h);
    /* with the CUDA runtime header first: cudaStream_t is the header's type */
    if (nvcc_path) {
        char dir[600];
        snprintf(dir, sizeof dir, "%s", nvcc_path);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        snprintf(inc, sizeof inc, "-I%s/../include", dir);
        snprintf(text, sizeof text,
                 "#include <cuda_runtime.h>\n#include \"%s\"\n"
                 "int use2(const float *in, const float *mask, float *out, cudaStream_t s)\n{\n"
                 "    int g;\n    return convtune_conv1d(in, mask, out, 4096, 7, CONVTUNE_CONV1D_VALID, s, &g) +\n"
                 "           convtune_conv1d_4096_7_valid(in, mask, out, s);\n}\n", h);
        CHECK(tc_write_text(cuda_src, text) == 0);
        char *gpp2[] = {"g++", "-std=c++11", "-Wall", "-Wextra", "-Werror", inc, "-c", cuda_src, "-o", obj, NULL};
        CHECK_MSG(run_tool("g++ with cuda_runtime.h", gpp2) == 0, "%s conflicts with cuda_runtime.h", h);
    }
    unlink(obj);
}

/* query --nearest SPEC --format json, parsed. */
static ct_json *nearest_json(const char *spec, const char *device)
{
    tc_result r;
    if (device)
        convtune(&r, "query", "--nearest", spec, "--db", dbpath, "--device", device, "--format", "json", NULL);
    else
        convtune(&r, "query", "--nearest", spec, "--db", dbpath, "--format", "json", NULL);
    CHECK_MSG(r.code == 0, "query --nearest %s: exit %d: %s", spec, r.code, r.err);
    ct_json *v = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_json_parse(r.out, r.outlen, &v, &e) == CT_OK, "query --nearest %s: not JSON: %s\n%s", spec, e.msg,
              r.out);
    tc_result_free(&r);
    return v;
}

static const char *jstr(const ct_json *o, const char *key)
{
    const ct_json *v = ct_json_get(o, key);
    return v && v->type == CT_JSON_STRING ? v->str : "(missing)";
}

static void nearest(void)
{
    /* exact */
    ct_json *v = nearest_json("conv1d:3000:37:same", NULL);
    if (v) {
        CHECK_STR(jstr(v, "grade"), "exact");
        CHECK_STR(jstr(v, "chosen"), "conv1d:3000:37:same");
        CHECK_STR(jstr(v, "device"), DEV);
        CHECK_STR(jstr(v, "launch"), "tuned");
        const ct_json *d = ct_json_get(v, "distance"), *recs = ct_json_get(v, "records");
        CHECK(d && d->type == CT_JSON_NUMBER && d->number == 0);
        CHECK(recs && recs->type == CT_JSON_ARRAY && recs->n == 1);
        if (recs && recs->n == 1) {
            CHECK_STR(jstr(recs->items[0], "template"), "conv1d_tiled");
            CHECK_STR(jstr(recs->items[0], "problem"), "conv1d:3000:37:same");
            const ct_json *us = ct_json_get(recs->items[0], "median_us");
            CHECK(us && us->number == 5.0);
        }
    }
    ct_json_free(v);
    /* nearby: (ln 5000 - ln 3000, ln 40 - ln 37) from conv1d:3000:37:same */
    v = nearest_json("conv1d:5000:40:same", NULL);
    if (v) {
        CHECK_STR(jstr(v, "grade"), "nearest_size");
        CHECK_STR(jstr(v, "chosen"), "conv1d:3000:37:same");
        CHECK_STR(jstr(v, "launch"), "generic");
        const ct_json *d = ct_json_get(v, "distance"), *b = ct_json_get(v, "block");
        double want = sqrt(pow(log(5000.0) - log(3000.0), 2) + pow(log(40.0) - log(37.0), 2));
        CHECK_MSG(d && d->type == CT_JSON_NUMBER && fabs(d->number - want) < 1e-5, "distance %g, want %g",
                  d ? d->number : -1.0, want);
        CHECK(b && b->is_integer && b->integer == 128);
    }
    ct_json_free(v);
    /* valid mode: nearer to 4096:7 than to 1000:5 */
    v = nearest_json("conv1d:3000:7:valid", NULL);
    if (v) {
        CHECK_STR(jstr(v, "grade"), "nearest_size");
        CHECK_STR(jstr(v, "chosen"), "conv1d:4096:7:valid");
    }
    ct_json_free(v);
    /* nothing tuned in mode right */
    v = nearest_json("conv1d:3000:37:right", NULL);
    if (v) {
        CHECK_STR(jstr(v, "grade"), "generic");
        const ct_json *d = ct_json_get(v, "distance"), *recs = ct_json_get(v, "records");
        CHECK(d && d->type == CT_JSON_NULL);
        CHECK(recs && recs->type == CT_JSON_ARRAY && recs->n == 0);
    }
    ct_json_free(v);
    /* on the other device, whose only problem is conv1d:3000:37:same */
    v = nearest_json("conv1d:4096:7:same", "Other Test");
    if (v) {
        CHECK_STR(jstr(v, "grade"), "nearest_size");
        CHECK_STR(jstr(v, "device"), OTHER);
        CHECK_STR(jstr(v, "chosen"), "conv1d:3000:37:same");
    }
    ct_json_free(v);

    /* the table form */
    tc_result r;
    convtune(&r, "query", "--nearest", "conv1d:5000:40:same", "--db", dbpath, NULL);
    CHECK_MSG(r.code == 0, "query --nearest (table): exit %d: %s", r.code, r.err);
    CHECK_MSG(strstr(r.out, "grade:    nearest_size\n") && strstr(r.out, "distance: 0.5") &&
                  strstr(r.out, "to conv1d:3000:37:same") && strstr(r.out, "launches: the generic kernel") &&
                  strstr(r.out, "conv1d_tiled") && strstr(r.out, "device:   " DEV " (sm_90; the device with"),
              "query --nearest table output:\n%s", r.out);
    tc_result_free(&r);

    /* refusals */
    convtune(&r, "query", "--nearest", "conv1d:5000:40:same", "--db", dbpath, "--format", "csv", NULL);
    fails(&r, 2, "table or JSON", "query --nearest --format csv");
    convtune(&r, "query", "--nearest", "conv1d:0:40", "--db", dbpath, NULL);
    fails(&r, 2, "must be positive", "query --nearest conv1d:0:40");
    convtune(&r, "query", "--nearest", "conv1d:10:3", "--db", dbpath, "--device", "NVIDIA", NULL);
    fails(&r, 2, "matches several devices", "query --nearest --device NVIDIA");
    convtune(&r, "query", "--nearest", "conv1d:10:3", "--db", dbpath, "--device", "H100", NULL);
    fails(&r, 6, "no tuned conv1d problem on a device matching 'H100'", "query --nearest --device H100");
    convtune(&r, "query", "--nearest", "conv1d:10:3", "--db", dbpath, "--problem", "conv1d:10:3", NULL);
    fails(&r, 2, "takes no --problem", "query --nearest --problem");
}

/* The generic kernels alone compile with NVRTC (their host side is behind
 * !__CUDACC_RTC__) for the oldest and the newest architecture. */
static void generic_nvrtc(const ct_family *fam)
{
    const char *name = fam->family_export->generic;
    char *src = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_template_source(name, NULL, &src, &e) == CT_OK, "%s: %s", name, e.msg);
    static const char *const archs[] = {"sm_75", "sm_90"};
    for (int a = 0; src && a < 2; a++) {
        ct_binary b;
        memset(&b, 0, sizeof b);
        ct_params none;
        memset(&none, 0, sizeof none);
        CHECK_MSG(ct_nvrtc_compile(src, name, archs[a], NULL, 0, &none, &b, &e) == CT_OK, "NVRTC %s for %s: %s",
                  name, archs[a], e.msg);
        ct_binary_free(&b);
    }
    free(src);
}

/* query --nearest SPEC on db: grade and chosen problem. */
static void nearest_is(const char *db, const char *spec, const char *grade, const char *chosen)
{
    tc_result r;
    convtune(&r, "query", "--nearest", spec, "--db", db, "--format", "json", NULL);
    CHECK_MSG(r.code == 0, "query --nearest %s: exit %d: %s", spec, r.code, r.err);
    ct_json *v = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_json_parse(r.out, r.outlen, &v, &e) == CT_OK, "query --nearest %s: %s", spec, e.msg);
    tc_result_free(&r);
    if (!v)
        return;
    CHECK_MSG(!strcmp(jstr(v, "grade"), grade), "%s: grade %s, want %s", spec, jstr(v, "grade"), grade);
    ct_problem want;
    if (chosen && ct_problem_parse(chosen, &want, &e) == CT_OK)
        CHECK_MSG(!strcmp(jstr(v, "chosen"), want.canonical), "%s: chose %s, want %s", spec, jstr(v, "chosen"),
                  want.canonical);
    ct_json_free(v);
}

/* Every family: a database with two tuned problems, its export (files,
 * instances, generic kernel, selector table and signatures), the pair built
 * with nvcc and the header with a C compiler, and the selector's grades. */
static void every_family(const char *nvcc_path)
{
    ct_device_info dev = tc_device(DEV, "GPU-1111-test", 9, 0, 13000);
    for (int c = 0; c < TC_NFAMILY_CASES; c++) {
        const tc_family_case *fc = &tc_family_cases[c];
        const ct_family *fam = ct_family_find(fc->family);
        CHECK_MSG(fam && fam->family_export, "%s declares no family export", fc->family);
        if (!fam || !fam->family_export)
            continue;
        generic_nvrtc(fam);
        char db[600], name[64], cu[600], h[600], want[300], up[64];
        snprintf(name, sizeof name, "every_%s.db", fc->family);
        path_in(db, sizeof db, name);
        if (!tc_family_db(db, &dev, fc))
            continue;
        snprintf(name, sizeof name, "every_%s.cu", fc->family);
        path_in(cu, sizeof cu, name);
        snprintf(name, sizeof name, "every_%s.h", fc->family);
        path_in(h, sizeof h, name);
        tc_result r;
        convtune(&r, "export", "--family", fc->family, "--db", db, "-o", cu, NULL);
        CHECK_MSG(r.code == 0 && r.errlen == 0, "export --family %s: exit %d: %s", fc->family, r.code, r.err);
        snprintf(want, sizeof want, "2 tuned %s problems on " DEV, fc->family);
        CHECK_MSG(strstr(r.out, want) != NULL, "export --family %s stdout: %s", fc->family, r.out);
        tc_result_free(&r);
        char *s = tc_slurp(cu, NULL), *t = tc_slurp(h, NULL), *gsrc = NULL;
        ct_err e = {""};
        CHECK(ct_template_source(fam->family_export->generic, NULL, &gsrc, &e) == CT_OK);
        CHECK_MSG(s && gsrc && strstr(s, gsrc), "%s lacks its generic template verbatim", cu);
        snprintf(want, sizeof want, "namespace ct_generic_%s {\n", fc->family);
        contains(s, want, cu);
        for (int i = 0; i < 2; i++) {
            ct_problem p;
            CHECK(ct_problem_parse(fc->problems[i], &p, &e) == CT_OK);
            char sym[200];
            ct_export_symbol(p.canonical, sym, sizeof sym);
            snprintf(want, sizeof want, "namespace ct_%s {\n", sym + strlen("convtune_"));
            contains(s, want, cu);
            snprintf(want, sizeof want, "},   // %s\n", p.canonical);
            contains(s, want, cu);
        }
        contains(s, fc->row, cu);
        snprintf(want, sizeof want, "extern \"C\" int convtune_%s(const float *in, ", fc->family);
        contains(s, want, cu);
        snprintf(want, sizeof want, "int convtune_%s_pick(", fc->family);
        contains(t, want, h);
        size_t u = 0;
        for (; fc->family[u] && u + 1 < sizeof up; u++)
            up[u] = (char)toupper((unsigned char)fc->family[u]);
        up[u] = '\0';
        snprintf(want, sizeof want, "#define CONVTUNE_%s_NTUNED 2\n", up);
        contains(t, want, h);
        free(s);
        free(t);
        free(gsrc);
        if (nvcc_path) {
            char obj[600];
            path_in(obj, sizeof obj, "every.o");
            char *nv[] = {"nvcc", "-arch=sm_90", "-Werror=all-warnings", "-include", h, "-c", cu, "-o", obj, NULL};
            CHECK_MSG(run_tool("nvcc -include F.h -c F.cu", nv) == 0, "nvcc -c %s failed", cu);
            char csrc[600], text[1000];
            path_in(csrc, sizeof csrc, "every.c");
            snprintf(text, sizeof text, "#include \"%s\"\nint every(void);\nint every(void)\n{\n"
                     "    return CONVTUNE_%s_NTUNED + (int)convtune_grade_name(CONVTUNE_EXACT)[0];\n}\n", h, up);
            CHECK(tc_write_text(csrc, text) == 0);
            char *gcc[] = {"gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-c", csrc, "-o", obj, NULL};
            CHECK_MSG(run_tool("gcc -std=c11 F.h", gcc) == 0, "%s does not compile as C11", h);
            unlink(obj);
        }
        nearest_is(db, fc->problems[0], "exact", fc->problems[0]);
        nearest_is(db, fc->problems[1], "exact", fc->problems[1]);
        nearest_is(db, fc->nearby, "nearest_size", fc->problems[0]);
        nearest_is(db, fc->untuned, "generic", NULL);
        /* a family with nothing stored */
        const char *other = strcmp(fc->family, "conv2d") ? "conv2d" : "conv1d";
        convtune(&r, "export", "--family", other, "--db", db, "-o", cu, "--force", NULL);
        snprintf(want, sizeof want, "no tuned %s problem in the database", other);
        fails(&r, 6, want, "export --family of a family with nothing tuned");
    }
}

int main(void)
{
    if (!mkdtemp(base)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(work, sizeof work, "%s/work", base);
    if (mkdir(work, 0700) != 0) {
        perror("mkdir");
        return 1;
    }
    char nvcc_path[600];
    const int have_nvcc = tc_which("nvcc", nvcc_path, sizeof nvcc_path);
    if (!have_nvcc)
        CHECK_MSG(0, "nvcc is not on PATH: the CUDA toolkit's compiler is a prerequisite of these tests "
                     "(tests/CMakeLists.txt puts the toolkit's bin folder on PATH), so its absence fails");
    tc_template_hash("conv1d_tiled", hash_tiled);
    tc_template_hash("conv1d_naive", hash_naive);
    CHECK(strlen(hash_tiled) == 16 && strlen(hash_naive) == 16);
    const tc_param pc[] = {{"BLOCK_SIZE", 128}, {"OUTPUTS_PER_THREAD", 8}, {"MASK_PLACEMENT", 0}, {"MASK_PAD", 1},
                           {"STAGE_INPUT", 1}, {"VEC_WIDTH", 4}, {"UNROLL", 4}};
    const tc_param ps[] = {{"BLOCK_SIZE", 64}, {"OUTPUTS_PER_THREAD", 4}, {"MASK_PLACEMENT", 1}, {"MASK_PAD", 0},
                           {"STAGE_INPUT", 0}, {"VEC_WIDTH", 2}, {"UNROLL", 2}};
    const tc_param pn[] = {{"BLOCK_SIZE", 256}};
    const tc_param po[] = {{"BLOCK_SIZE", 256}, {"OUTPUTS_PER_THREAD", 4}, {"MASK_PLACEMENT", 2}, {"MASK_PAD", 0},
                           {"VEC_WIDTH", 1}, {"UNROLL", 1}};
    CHECK(tc_params("conv1d:3000:37:same", "conv1d_tiled", pc, 7, p_const, sizeof p_const));
    CHECK(tc_params("conv1d:4096:7:valid", "conv1d_tiled", ps, 7, p_shared, sizeof p_shared));
    CHECK(tc_params("conv1d:1000:5:valid", "conv1d_naive", pn, 1, p_naive, sizeof p_naive));
    CHECK(tc_params("conv1d:1000:5:valid", "conv1d_tiled", po, 6, p_other, sizeof p_other));
    path_in(dbpath, sizeof dbpath, "a.db");
    fill(dbpath, 0);

    ct_db *db = NULL;
    ct_err e = {""};

    char cu[600], h[600];
    path_in(cu, sizeof cu, "multi.cu");
    path_in(h, sizeof h, "multi.h");
    tc_result r;
    convtune(&r, "export", "--family", "conv1d", "--db", dbpath, "-o", cu, NULL);
    CHECK_MSG(r.code == 0, "export --family: exit %d: %s", r.code, r.err);
    CHECK_MSG(r.errlen == 0, "export --family: stderr: %s", r.err);
    CHECK_MSG(strstr(r.out, cu) && strstr(r.out, h) && strstr(r.out, "3 tuned conv1d problems on " DEV),
              "export --family stdout: %s", r.out);
    tc_result_free(&r);
    CHECK(count_temps() == 0);
    check_family_text(cu, h);

    if (have_nvcc) {
        compile_header(h, nvcc_path);
        char obj[600];
        path_in(obj, sizeof obj, "multi.o");
        char *nv[] = {"nvcc", "-arch=sm_90", "-Werror=all-warnings", "-c", cu, "-o", obj, NULL};
        CHECK_MSG(run_tool("nvcc -c multi.cu", nv) == 0, "nvcc -c %s failed", cu);
        CHECK(tc_exists(obj));
        unlink(obj);
        char *nvh[] = {"nvcc", "-arch=sm_90", "-Werror=all-warnings", "-include", h, "-c", cu, "-o", obj, NULL};
        CHECK_MSG(run_tool("nvcc -include multi.h -c multi.cu", nvh) == 0,
                  "%s and %s disagree (nvcc -include)", cu, h);
        unlink(obj);
    }

    /* --device: the other device, as asked */
    char cu2[600];
    path_in(cu2, sizeof cu2, "other.cu");
    convtune(&r, "export", "--family", "conv1d", "--db", dbpath, "--device", "other test", "-o", cu2, NULL);
    CHECK_MSG(r.code == 0, "export --family --device: exit %d: %s", r.code, r.err);
    CHECK_MSG(strstr(r.out, "1 tuned conv1d problems on " OTHER " (as asked)"), "stdout: %s", r.out);
    tc_result_free(&r);
    {
        char *s = tc_slurp(cu2, NULL);
        CHECK(s && strstr(s, "// device:    " OTHER " (sm_80): as asked with --device"));
        CHECK(s && strstr(s, "median 1.00 us") && !strstr(s, "conv1d:4096:7:valid"));
        CHECK(s && strstr(s, "{3000LL, 37LL, 1, 128u, "));
        free(s);
    }
    if (have_nvcc) {
        char obj[600];
        path_in(obj, sizeof obj, "other.o");
        char *nv[] = {"nvcc", "-arch=sm_80", "-c", cu2, "-o", obj, NULL};
        CHECK_MSG(run_tool("nvcc -c other.cu", nv) == 0, "nvcc -c %s failed", cu2);
        unlink(obj);
    }

    /* refusals, each leaving nothing behind */
    convtune(&r, "export", "--family", "conv1d", "--db", dbpath, "-o", cu, NULL);
    fails(&r, 7, "exists", "export --family onto an existing file");
    char cu3[600], h3[600];
    path_in(cu3, sizeof cu3, "half.cu");
    path_in(h3, sizeof h3, "half.h");
    CHECK(tc_write_text(h3, "not ours\n") == 0);
    convtune(&r, "export", "--family", "conv1d", "--db", dbpath, "-o", cu3, NULL);
    fails(&r, 7, "half.h exists", "export --family with its header present");
    CHECK(!tc_exists(cu3));
    unlink(h3);
    CHECK(symlink("/nonexistent/x", h3) == 0);
    convtune(&r, "export", "--family", "conv1d", "--db", dbpath, "-o", cu3, "--force", NULL);
    fails(&r, 7, "symbolic link", "export --family with its header a symbolic link");
    CHECK(!tc_exists(cu3));
    unlink(h3);
    convtune(&r, "export", "--family", "conv1d", "--db", dbpath, "--device", "NVIDIA", "-o", cu3, NULL);
    fails(&r, 2, "matches several devices", "export --family --device NVIDIA");
    convtune(&r, "export", "--family", "conv1d", "--db", dbpath, "--device", "H100", "-o", cu3, NULL);
    fails(&r, 6, "no tuned conv1d problem on a device matching 'H100'", "export --family --device H100");
    convtune(&r, "export", "--family", "conv9d", "--db", dbpath, "-o", cu3, NULL);
    fails(&r, 2, "unknown family 'conv9d'", "export --family conv9d");
    convtune(&r, "export", "--family", "conv1d", "--problem", "conv1d:10:3", "--db", dbpath, "-o", cu3, NULL);
    fails(&r, 2, "not both", "export --family --problem");
    char empty[600], stale[600];
    path_in(empty, sizeof empty, "empty.db");
    path_in(stale, sizeof stale, "stale.db");
    CHECK(ct_db_open(empty, 1, &db, &e) == CT_OK);
    ct_db_close(db);
    convtune(&r, "export", "--family", "conv1d", "--db", empty, "-o", cu3, NULL);
    fails(&r, 6, "no tuned conv1d problem in the database", "export --family from an empty database");
    fill(stale, 1);
    convtune(&r, "export", "--family", "conv1d", "--db", stale, "-o", cu3, NULL);
    fails(&r, 6, "changed since the result for conv1d:", "export --family with a changed template");
    CHECK(!tc_exists(cu3) && !tc_exists(h3));
    CHECK(count_temps() == 0);
    /* the default path needs generated/ */
    convtune(&r, "export", "--family", "conv1d", "--db", dbpath, NULL);
    fails(&r, 7, "directory generated does not exist", "export --family to the default path");

    nearest();
    every_family(have_nvcc ? nvcc_path : NULL);

    if (getenv("CT_TEST_KEEP"))
        printf("kept %s\n", base);
    else
        tc_rm_rf(base);
    CHECK_DONE();
}
