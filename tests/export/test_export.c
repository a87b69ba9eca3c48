/* test_export.c - `convtune export`: a database filled through the ct_db API
 * with one device, the problem conv1d:3000:37:same and a failed (but
 * fastest) candidate next to two verified conv1d_tiled ones. The exported
 * .cu must carry the winner's provenance, its parameters and the problem
 * sizes as #defines, the launcher and the self-test, and must compile with
 * nvcc (-c, and linked with -DCONVTUNE_SELFTEST; never run: no GPU needed).
 * The header written next to it (FILE.h) must carry the same provenance,
 * declare the launcher with a C signature that needs no CUDA header, and
 * compile from C (gcc -std=c11 -Wall -Wextra -Werror) and C++, with and
 * without cuda_runtime.h, and agree with the .cu (nvcc -include FILE.h).
 * Then the refusals: an existing file without --force, a missing directory,
 * a symbolic link (even with --force) and a template changed since tuning,
 * for the .cu and for its header: a refused pair leaves neither file.
 * nvcc is a prerequisite (the toolkit is): without it on PATH the test
 * fails, it does not skip. */
#include "check.h"
#include "compile.h"
#include "config.h"
#include "db.h"
#include "export.h"
#include "files.h"
#include "params.h"
#include "problem.h"
#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROBLEM "conv1d:3000:37:same"
#define SYMBOL "convtune_conv1d_3000_37_same"
#define DEVICE "NVIDIA Test Export GPU"
static const char *device_name = DEVICE;   /* the device make_db stores */
static const char *problem = PROBLEM;      /* the problem make_db stores and run_export asks for */

static tl_workdir wd;   /* the children run in wd.work, HOME and XDG_DATA_HOME inside */

/* Run argv in the work directory with stdout/stderr captured (argv[0] is a
 * path or a name looked up in PATH). */
static void run_argv(char *const *argv, tl_result *r)
{
    tl_run_opts o = {.cwd = wd.work, .capdir = wd.base, .envp = wd.env, .timeout_s = 120};
    tl_run(argv, &o, r);
}

/* convtune export --problem PROBLEM --db DB -o OUT [extra] */
static void run_export(const char *db, const char *out, const char *extra, tl_result *r)
{
    char *argv[12];
    int n = 0;
    argv[n++] = (char *)CT_BINARY;
    argv[n++] = "export";
    argv[n++] = "--problem";
    argv[n++] = (char *)problem;
    argv[n++] = "--db";
    argv[n++] = (char *)db;
    if (out) {
        argv[n++] = "-o";
        argv[n++] = (char *)out;
    }
    if (extra)
        argv[n++] = (char *)extra;
    argv[n] = NULL;
    run_argv(argv, r);
}

/* An export that must fail with code, one stderr line containing want, no
 * stdout. */
static void export_fails(const char *db, const char *out, const char *extra, int code, const char *want)
{
    tl_result r;
    run_export(db, out, extra, &r);
    CHECK_MSG(r.code == code, "export -o %s %s: exit %d, expected %d; stderr: %s", out ? out : "(default)",
              extra ? extra : "", r.code, code, r.err);
    CHECK_MSG(tl_one_line(&r), "export -o %s: stderr is not one line: [%s]", out ? out : "(default)", r.err);
    CHECK_MSG(strstr(r.err, want) != NULL, "export -o %s: stderr [%s] lacks [%s]", out ? out : "(default)",
              r.err, want);
    CHECK_MSG(r.outlen == 0, "export -o %s: stdout not empty: %s", out ? out : "(default)", r.out);
    tl_result_free(&r);
}

/* nvcc for sm_90a as the exports' Build line says [flag] src -o obj; returns the exit code. */
static int nvcc(const char *flag1, const char *flag2, const char *src, const char *obj)
{
    char *argv[10];
    int n = 0;
    argv[n++] = "nvcc";
    argv[n++] = "-gencode=arch=compute_90a,code=sm_90a";
    if (flag1)
        argv[n++] = (char *)flag1;
    if (flag2)
        argv[n++] = (char *)flag2;
    argv[n++] = (char *)src;
    argv[n++] = "-o";
    argv[n++] = (char *)obj;
    argv[n] = NULL;
    tl_result r;
    run_argv(argv, &r);
    int code = r.code;
    if (code != 0)
        fprintf(stderr, "nvcc %s %s %s -> %d:\n%s%s\n", flag1 ? flag1 : "", flag2 ? flag2 : "", src, code,
                r.out, r.err);
    tl_result_free(&r);
    return code;
}

/* The self-test program of the pair (out, h): nvcc -DCONVTUNE_SELFTEST with
 * warnings as errors and the header included first, so that one compile
 * checks the .cu, its self-test and that the header's declarations agree
 * with the .cu's definitions. */
static int nvcc_selftest(const char *out, const char *h, const char *exe)
{
    char *argv[] = {"nvcc", "-gencode=arch=compute_90a,code=sm_90a", "-DCONVTUNE_SELFTEST", "-Werror=all-warnings",
                    "-include", (char *)h, (char *)out, "-o", (char *)exe, NULL};
    tl_result r;
    run_argv(argv, &r);
    int code = r.code;
    if (code != 0)
        fprintf(stderr, "nvcc -DCONVTUNE_SELFTEST -include %s %s -> %d:\n%s%s\n", h, out, code, r.out, r.err);
    tl_result_free(&r);
    return code;
}

/* ------------------------------------------------------------------------ */
/* The database                                                             */

static const ct_template *tiled(void)
{
    const ct_family *f = ct_family_find("conv1d");
    return f ? ct_template_find(f, "conv1d_tiled") : NULL;
}

/* Every conv1d_tiled parameter, set as a user would pick them; a parameter
 * this list does not know (one added to the template later) takes the first
 * value of its built-in list, as `convtune compile` does. */
static void tiled_params(long placement, char *json, size_t len)
{
    const ct_template *t = tiled();
    static const struct { const char *name; long v; } vals[] = {
        {"BLOCK_SIZE", 128}, {"OUTPUTS_PER_THREAD", 8}, {"MASK_PLACEMENT", 0}, {"MASK_PAD", 1},
        {"ALIGN", 16}, {"STAGE_INPUT", 1}, {"VEC_WIDTH", 4}, {"UNROLL", 4}, {"KCHUNK", 1024},
        {"MIN_BLOCKS", 1},
    };
    static ct_config cfg;
    ct_err e = {""};
    CHECK_MSG(ct_config_init(&cfg, &e) == CT_OK, "built-in config: %s", e.msg);
    ct_params c;
    memset(&c, 0, sizeof c);
    for (int k = 0; k < t->nparams; k++) {
        const char *name = t->params[k].name;
        const ct_space_list *l = ct_config_list(&cfg, t, name);
        long v = l && l->nvals ? l->vals[0] : 0;
        for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
            if (!strcmp(vals[i].name, name))
                v = vals[i].v;
        if (!strcmp(name, "MASK_PLACEMENT"))
            v = placement;
        CHECK(ct_params_set(&c, name, v, NULL) == CT_OK);
    }
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
        CHECK_MSG(ct_params_get(&c, vals[i].name, -1) != -1, "conv1d_tiled lacks parameter %s", vals[i].name);
    CHECK(ct_params_to_json(&c, t->params, t->nparams, json, len) == CT_OK);
}

static ct_result mkrec(const char *tmpl, const char *hash, const char *params, const char *status,
                       double us, double relerr)
{
    ct_result r;
    ct_result_init(&r);
    snprintf(r.tmpl, sizeof r.tmpl, "%s", tmpl);
    snprintf(r.template_hash, sizeof r.template_hash, "%s", hash);
    snprintf(r.params_json, sizeof r.params_json, "%s", params);
    ct_result_status_parse(status, &r.status);
    if (strcmp(status, "ok") != 0)
        snprintf(r.error, sizeof r.error, "relative error %g above the tolerance", relerr);
    r.median_us = us;
    r.min_us = us * 0.97;
    r.max_us = us * 1.04;
    r.spread = 0.07;
    r.reps = 200;
    r.relerr = relerr;
    r.registers = 48;
    r.smem_bytes = 4 * 1024;
    r.compile_ms = 80;
    return r;
}

/* A database at path with one device, PROBLEM and the given candidates. */
static int make_db(const char *path, const ct_result *recs, int nrecs)
{
    ct_db *db = NULL;
    ct_err e = {""};
    ct_problem p;
    long long dev, prob, run, prob2, run2;
    ct_device_info d = {.uuid = "GPU-00000000-test", .cc_major = 9, .cc_minor = 0,
                        .sm_count = 132, .driver_version = 13000, .nvrtc_major = 13, .nvrtc_minor = 0,
                        .fma_tflops = 60.0, .bandwidth_gbs = 3000.0, .launch_us = 2.5};
    snprintf(d.name, sizeof d.name, "%s", device_name);
    int ok = ct_problem_parse(problem, &p, &e) == CT_OK && !strcmp(p.canonical, problem) &&
             ct_db_open(path, 1, &db, &e) == CT_OK &&
             ct_db_device_upsert(db, &d, &dev, &e) == CT_OK &&
             ct_db_problem_upsert(db, "conv1d", p.canonical, p.family->flops(&p), p.family->bytes(&p), &prob,
                                  &e) == CT_OK &&
             ct_db_run_begin(db, prob, dev, "{\"tolerance\":1e-05}", &run, &e) == CT_OK;
    for (int i = 0; ok && i < nrecs; i++)
        ok = ct_db_candidate_add(db, run, &recs[i], &e) == CT_OK;
    /* A faster verified result of another problem must not be picked. */
    ct_result other = mkrec("conv1d_naive", "0000000000000000", "{\"BLOCK_SIZE\":256}", "ok", 0.25, 0);
    if (ok)
        ok = ct_db_problem_upsert(db, "conv1d", "conv1d:4096:7:valid", 1e5, 1e5, &prob2, &e) == CT_OK &&
             ct_db_run_begin(db, prob2, dev, NULL, &run2, &e) == CT_OK &&
             ct_db_candidate_add(db, run2, &other, &e) == CT_OK && ct_db_run_end(db, run, "ok", &e) == CT_OK;
    CHECK_MSG(ok, "filling %s: %s", path, e.msg);
    ct_db_close(db);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Checks of the exported text                                              */

static void check_export_text(const char *path, const char *params_json, long placement)
{
    size_t n = 0;
    char *s = tl_slurp(path, &n);
    CHECK_MSG(s != NULL, "%s was not written", path);
    if (!s)
        return;
    const char *nl = strchr(s, '\n');
    CHECK_MSG(nl && strstr(s, "autogenerated by convtune") && strstr(s, "autogenerated by convtune") < nl,
              "%s: first line lacks 'autogenerated by convtune'", path);
    CHECK(strstr(s, PROBLEM) != NULL);
    CHECK(strstr(s, DEVICE) != NULL);
    CHECK(strstr(s, "sm_90") != NULL);
    CHECK(strstr(s, params_json) != NULL);
    char want[128];
    static const struct { const char *name; long v; } defs[] = {
        {"BLOCK_SIZE", 128}, {"OUTPUTS_PER_THREAD", 8}, {"MASK_PAD", 1}, {"ALIGN", 16},
        {"STAGE_INPUT", 1}, {"VEC_WIDTH", 4}, {"UNROLL", 4}, {"KCHUNK", 1024}, {"MIN_BLOCKS", 1},
        {"CONV_N", 3000}, {"CONV_K", 37}, {"CONV_OUT", 3000}, {"CONV_OFF", 18},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++) {
        snprintf(want, sizeof want, "\n#define %s %ld\n", defs[i].name, defs[i].v);
        CHECK_MSG(strstr(s, want) != NULL, "%s lacks '#define %s %ld'", path, defs[i].name, defs[i].v);
    }
    snprintf(want, sizeof want, "\n#define MASK_PLACEMENT %ld\n", placement);
    CHECK_MSG(strstr(s, want) != NULL, "%s lacks '#define MASK_PLACEMENT %ld'", path, placement);
    CHECK(strstr(s, "extern \"C\" int " SYMBOL "(const float *in, const float *mask, float *out, "
                    "cudaStream_t stream)") != NULL);
    CHECK(strstr(s, "#ifdef CONVTUNE_SELFTEST") != NULL);
    CHECK(strstr(s, "conv1d_tiled<<<") != NULL);
    /* 3000 outputs, 128 threads x 8 outputs per block: 3 blocks (written
     * as literals in the launch or as CT_GRID_* / CT_BLOCK_* macros) */
    CHECK_MSG(strstr(s, "grid(3u, 1u, 1u), block(128u, 1u, 1u)") ||
              (strstr(s, "\n#define CT_GRID_X 3\n") && strstr(s, "\n#define CT_BLOCK_X 128\n")),
              "%s: launch geometry is not 3 blocks of 128 threads", path);
    /* the template itself, unchanged */
    char *src = NULL;
    ct_err e;
    CHECK(ct_template_source("conv1d_tiled", NULL, &src, &e) == CT_OK);
    CHECK_MSG(src && strstr(s, src) != NULL, "%s does not contain templates/conv1d_tiled.cu verbatim", path);
    free(src);
    free(s);
}

/* ------------------------------------------------------------------------ */

static void path_in(char *buf, size_t len, const char *name)
{
    tl_path(buf, len, wd.work, name);
}

/* The header next to a .cu: provenance, guard, the C declaration, and no
 * CUDA type or #include outside comments. */
static void check_header_text(const char *cu, const char *params_json)
{
    char h[600];
    snprintf(h, sizeof h, "%.*s.h", (int)(strlen(cu) - 3), cu);
    char *s = tl_slurp(h, NULL);
    CHECK_MSG(s != NULL, "%s was not written next to %s", h, cu);
    if (!s)
        return;
    const char *nl = strchr(s, '\n');
    CHECK_MSG(nl && strstr(s, "autogenerated by convtune") && strstr(s, "autogenerated by convtune") < nl,
              "%s: first line lacks 'autogenerated by convtune'", h);
    CHECK(strstr(s, "// problem:   " PROBLEM) != NULL);
    CHECK(strstr(s, DEVICE) != NULL);
    CHECK(strstr(s, "sm_90") != NULL);
    CHECK(strstr(s, params_json) != NULL);
    CHECK(strstr(s, "// template:  conv1d_tiled (content hash ") != NULL);
    CHECK(strstr(s, "median 5.00 us") || strstr(s, "median 7.00 us"));
    CHECK(strstr(s, "exported 20") == NULL && strstr(s, "// device:    ") && strstr(s, "), tuned 20"));
    CHECK(strstr(s, "convtune " CONVTUNE_VERSION) != NULL);
    CHECK(strstr(s, "#ifndef CONVTUNE_CONV1D_3000_37_SAME_H\n#define CONVTUNE_CONV1D_3000_37_SAME_H\n") != NULL);
    CHECK(strstr(s, "\nstruct CUstream_st;\n") != NULL);
    CHECK(strstr(s, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n") != NULL);
    CHECK(strstr(s, "\nint " SYMBOL "(const float *in, const float *mask, float *out, struct CUstream_st *stream);\n"));
    for (const char *line = s; *line;) {
        const char *e = strchr(line, '\n');
        size_t len = e ? (size_t)(e - line) : strlen(line);
        if (strncmp(line, "//", 2) != 0) {
            char buf[300];
            snprintf(buf, sizeof buf, "%.*s", (int)(len < 299 ? len : 299), line);
            CHECK_MSG(!strstr(buf, "cuda") && !strstr(buf, "#include"), "%s needs a CUDA header: [%s]", h, buf);
        }
        line += len + (e != NULL);
    }
    free(s);
}

/* Run a compiler; returns its exit code (its output on failure). */
static int tool(char **argv)
{
    tl_result r;
    run_argv(argv, &r);
    int code = r.code;
    if (code != 0)
        fprintf(stderr, "%s -> %d:\n%s%s\n", argv[0], code, r.out, r.err);
    tl_result_free(&r);
    return code;
}

/* The header from C11 and C++ (warnings as errors) and after cuda_runtime.h
 * with a cudaStream_t (with the .cu under nvcc: nvcc_selftest). */
static void compile_header(const char *cu)
{
    char h[600], c_src[600], cc_src[600], obj[600], cuda_cc[600], inc[700] = "", nvcc_path[600];
    snprintf(h, sizeof h, "%.*s.h", (int)(strlen(cu) - 3), cu);
    snprintf(c_src, sizeof c_src, "%s/use_header.c", wd.work);
    snprintf(cc_src, sizeof cc_src, "%s/use_header.cc", wd.work);
    snprintf(cuda_cc, sizeof cuda_cc, "%s/use_header_cuda.cc", wd.work);
    snprintf(obj, sizeof obj, "%s/use_header.o", wd.work);
    char text[1200];
    snprintf(text, sizeof text,
             "#include <stddef.h>\n#include \"%s\"\n"
             "int use(const float *in, const float *mask, float *out);\n"
             "int use(const float *in, const float *mask, float *out)\n{\n"
             "    return " SYMBOL "(in, mask, out, NULL) + " SYMBOL "(in, mask, out, (struct CUstream_st *)0);\n}\n", h);
    CHECK(tl_write_text(c_src, text) == 0);
    CHECK(tl_write_text(cc_src, text) == 0);
    char *gcc[] = {"gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-c", c_src, "-o", obj, NULL};
    CHECK_MSG(tool(gcc) == 0, "%s does not compile as C11", h);
    char *gpp[] = {"g++", "-std=c++11", "-Wall", "-Wextra", "-Werror", "-c", cc_src, "-o", obj, NULL};
    CHECK_MSG(tool(gpp) == 0, "%s does not compile as C++", h);
    /* nvcc's directory tells where cuda_runtime.h is */
    if (tl_which("nvcc", nvcc_path, sizeof nvcc_path))
        snprintf(inc, sizeof inc, "-I%.*s/../include", (int)(strrchr(nvcc_path, '/') - nvcc_path), nvcc_path);
    else
        nvcc_path[0] = '\0';
    if (nvcc_path[0]) {
        snprintf(text, sizeof text,
                 "#include <cuda_runtime.h>\n#include \"%s\"\n"
                 "int use2(const float *in, const float *mask, float *out, cudaStream_t s);\n"
                 "int use2(const float *in, const float *mask, float *out, cudaStream_t s)\n{\n"
                 "    return " SYMBOL "(in, mask, out, s);\n}\n", h);
        CHECK(tl_write_text(cuda_cc, text) == 0);
        char *gpp2[] = {"g++", "-std=c++11", "-Wall", "-Wextra", "-Werror", inc, "-c", cuda_cc, "-o", obj, NULL};
        CHECK_MSG(tool(gpp2) == 0, "%s conflicts with cuda_runtime.h", h);
    }
    unlink(obj);
}

/* A half-precision winner (conv1d_naive in f16): the launcher takes void
 * pointers and casts them to the kernel's ct_elem, the comments and the
 * header state the type, the macros carry CT_DTYPE, the self-test rounds its
 * inputs to the type and checks with the type's tolerance; the .cu compiles
 * and links with its self-test, the header from C. */
static void check_half_export(int have_nvcc)
{
    char *src = NULL, hash[17] = "";
    ct_err e = {""};
    CHECK(ct_template_source("conv1d_naive", NULL, &src, &e) == CT_OK);
    ct_hash_hex(src ? src : "", hash);
    free(src);
    problem = "conv1d:3000:37:same:f16";
    char db[600], out[600], h[600];
    path_in(db, sizeof db, "half.db");
    path_in(out, sizeof out, "half.cu");
    path_in(h, sizeof h, "half.h");
    const ct_result recs[] = {mkrec("conv1d_naive", hash, "{\"BLOCK_SIZE\":128}", "ok", 9.0, 3e-4)};
    CHECK(make_db(db, recs, 1));
    tl_result r;
    run_export(db, out, NULL, &r);
    CHECK_MSG(r.code == 0, "export (f16): exit %d: %s", r.code, r.err);
    tl_result_free(&r);
    char *cu = tl_slurp(out, NULL), *hd = tl_slurp(h, NULL);
    CHECK(cu && hd);
    if (cu && hd) {
        const char *want_cu[] = {
            "#define CT_DTYPE 2\n",
            "int convtune_conv1d_3000_37_same_f16(const void *in, const void *mask, void *out, cudaStream_t stream)",
            "conv1d_naive<<<grid, block, CT_SMEM_BYTES, stream>>>((const ct_elem *)in, (const ct_elem *)mask, "
            "(ct_elem *)out);",
            "//   out   3000 f16 elements (2 bytes)\n",
            "// Element type: f16 (__half, cuda_fp16.h)",
            "#include <cuda_fp16.h>\n",
            "h[k] = __float2half_rn(host[i][k]);",
            "const int pass = relerr <= 0.000976562;",
        };
        for (size_t i = 0; i < sizeof want_cu / sizeof want_cu[0]; i++)
            CHECK_MSG(strstr(cu, want_cu[i]) != NULL, "%s lacks: %s", out, want_cu[i]);
        CHECK_MSG(strstr(hd, "int convtune_conv1d_3000_37_same_f16(const void *in, const void *mask, void *out, "
                             "struct CUstream_st *stream);") && strstr(hd, "3000 f16 elements"),
                  "%s: %s", h, hd);
    }
    free(cu);
    free(hd);
    if (have_nvcc) {
        char obj[600], exe[600];
        path_in(obj, sizeof obj, "half.o");
        path_in(exe, sizeof exe, "half_selftest");
        CHECK_MSG(nvcc_selftest(out, h, exe) == 0, "nvcc -DCONVTUNE_SELFTEST -include %s %s failed (the .cu, or "
                  "the two disagree)", h, out);
        /* From C with plain pointers, and agreeing with the .cu. */
        char c_src[600];
        snprintf(c_src, sizeof c_src, "%s/use_half.c", wd.work);
        char text[1400];
        snprintf(text, sizeof text,
                 "#include <stddef.h>\n#include \"%s\"\n"
                 "int use(const unsigned short *in, const unsigned short *mask, unsigned short *out);\n"
                 "int use(const unsigned short *in, const unsigned short *mask, unsigned short *out)\n{\n"
                 "    return convtune_conv1d_3000_37_same_f16(in, mask, out, NULL);\n}\n", h);
        CHECK(tl_write_text(c_src, text) == 0);
        char *gcc[] = {"gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-c", c_src, "-o", obj, NULL};
        CHECK_MSG(tool(gcc) == 0, "%s does not compile as C11", h);
        unlink(obj);
        unlink(exe);
    }
    problem = PROBLEM;
}

/* The half templates of the direct families (issue 16): each exported
 * winner's launcher casts the void pointers to the kernels' ct_elem ones,
 * an executor's (conv1d_ffth: cuFFT) as well, and the .cu compiles. */
static void check_half_templates(int have_nvcc)
{
    static const struct {
        const char *problem, *tmpl, *params, *launch;
    } cases[] = {
        {"conv1d:3001:37:same:bf16", "conv1d_tiledh", "{\"BLOCK_SIZE\":64,\"OUTPUTS_PER_THREAD\":8,\"MASK_PLACEMENT\":0,\"MASK_PAD\":0,\"ALIGN\":16,"
         "\"STAGE_INPUT\":1,\"VEC_WIDTH\":4,\"UNROLL\":1,\"KCHUNK\":40,\"MIN_BLOCKS\":1}",
         "conv1d_tiledh<<<grid, block, CT_SMEM_BYTES, stream>>>((const ct_elem *)in, (const ct_elem *)mask, "
         "(ct_elem *)out);"},
        {"conv1d:3001:37:same:f16", "conv1d_ffth", "{\"FFT_SIZE\":1024,\"BLOCK_SIZE\":256}",
         "stream>>>((const ct_elem *)in, (const ct_elem *)mask, ct_buf);"},
        {"conv2d:2:33:35:5:3:same:f16", "conv2d_tiledh", "{\"BLOCK_X\":32,\"BLOCK_Y\":4,\"OUT_X\":4,\"OUT_Y\":4,\"FILTER_PLACEMENT\":0,\"KH_STEP\":5,"
         "\"VEC\":4,\"SMEM_PAD\":0,\"MIN_BLOCKS\":1}",
         "conv2d_tiledh<<<grid, block, CT_SMEM_BYTES, stream>>>((const ct_elem *)in, (const ct_elem *)filter, "
         "(ct_elem *)out);"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *src = NULL, hash[17] = "";
        ct_err e = {""};
        CHECK(ct_template_source(cases[i].tmpl, NULL, &src, &e) == CT_OK);
        ct_hash_hex(src ? src : "", hash);
        free(src);
        problem = cases[i].problem;
        char db[600], out[600], name[64];
        snprintf(name, sizeof name, "halft%zu.db", i);
        path_in(db, sizeof db, name);
        snprintf(name, sizeof name, "halft%zu.cu", i);
        path_in(out, sizeof out, name);
        const ct_result recs[] = {mkrec(cases[i].tmpl, hash, cases[i].params, "ok", 9.0, 3e-4)};
        CHECK(make_db(db, recs, 1));
        tl_result r;
        run_export(db, out, NULL, &r);
        CHECK_MSG(r.code == 0, "export (%s): exit %d: %s", cases[i].tmpl, r.code, r.err);
        tl_result_free(&r);
        char *cu = tl_slurp(out, NULL);
        CHECK_MSG(cu && strstr(cu, cases[i].launch) && strstr(cu, "(const void *in, "), "%s lacks: %s", out,
                  cases[i].launch);
        free(cu);
        if (have_nvcc) {
            char obj[600];
            path_in(obj, sizeof obj, "halft.o");
            CHECK_MSG(nvcc("-c", NULL, out, obj) == 0, "nvcc -c %s failed", out);
            unlink(obj);
        }
    }
    problem = PROBLEM;
}

int main(void)
{
    if (tl_workdir_make(&wd, "export") != 0)
        return 1;
    char home[600];
    path_in(home, sizeof home, "home");
    char nvcc_path[600];
    const int have_nvcc = tl_which("nvcc", nvcc_path, sizeof nvcc_path);
    if (!have_nvcc)
        CHECK_MSG(0, "nvcc is not on PATH: the CUDA toolkit's compiler is a prerequisite of these tests "
                     "(tests/CMakeLists.txt puts the toolkit's bin folder on PATH), so its absence fails");

    const ct_template *t = tiled();
    CHECK(t != NULL);
    if (!t)
        CHECK_DONE();
    char *src = NULL;
    ct_err e = {""};
    CHECK(ct_template_source("conv1d_tiled", NULL, &src, &e) == CT_OK);
    char hash[17] = "";
    ct_hash_hex(src ? src : "", hash);
    free(src);

    char json_const[512], json_shared[512];
    tiled_params(0, json_const, sizeof json_const);
    tiled_params(1, json_shared, sizeof json_shared);
    CHECK(strstr(json_const, "\"MASK_PLACEMENT\":\"constant\"") != NULL);
    CHECK(strstr(json_shared, "\"MASK_PLACEMENT\":\"shared\"") != NULL);

    /* a.db: wrong result (fastest), constant-mask ok (5 us), shared-mask ok (7 us) */
    char dba[600], dbb[600], dbc[600];
    path_in(dba, sizeof dba, "a.db");
    path_in(dbb, sizeof dbb, "b.db");
    path_in(dbc, sizeof dbc, "c.db");
    const ct_result recs_a[] = {
        mkrec("conv1d_tiled", hash, json_const, "wrong_result", 1.0, 0.25),
        mkrec("conv1d_tiled", hash, json_shared, "ok", 7.0, 2e-7),
        mkrec("conv1d_tiled", hash, json_const, "ok", 5.0, 1e-7),
    };
    CHECK(make_db(dba, recs_a, 3));

    /* ct_db_best: the faster verified candidate, never the wrong result */
    ct_db *db = NULL;
    ct_result best;
    CHECK(ct_db_open(dba, 0, &db, &e) == CT_OK);
    if (db) {
        ct_status st = ct_db_best(db, PROBLEM, NULL, &best, &e);
        CHECK_MSG(st == CT_OK, "ct_db_best: %s", e.msg);
        if (st == CT_OK) {
            CHECK_STR(ct_result_status_name(best.status), "ok");
            CHECK(best.median_us == 5.0);
            CHECK_STR(best.params_json, json_const);
            CHECK_STR(best.template_hash, hash);
            CHECK_STR(best.device, DEVICE);
            CHECK_STR(best.arch, "sm_90");
            CHECK_STR(best.problem, PROBLEM);
        }
        CHECK(ct_db_best(db, PROBLEM, "test export", &best, &e) == CT_OK && best.median_us == 5.0);
        CHECK(ct_db_best(db, PROBLEM, "No Such GPU", &best, &e) == CT_ERR_NOT_FOUND);
        ct_db_close(db);
    }

    /* export of the winner */
    char out[600];
    path_in(out, sizeof out, "out.cu");
    tl_result r;
    run_export(dba, out, NULL, &r);
    CHECK_MSG(r.code == 0, "export: exit %d: %s", r.code, r.err);
    CHECK_MSG(r.errlen == 0, "export: stderr: %s", r.err);
    CHECK_MSG(strstr(r.out, out) && strstr(r.out, "5.00 us") && strstr(r.out, DEVICE), "export stdout: %s", r.out);
    CHECK_MSG(strstr(r.out, "/out.h"), "export stdout does not name the header: %s", r.out);
    tl_result_free(&r);
    check_export_text(out, json_const, 0);
    check_header_text(out, json_const);
    {
        size_t n = 0;
        char *s = tl_slurp(out, &n);
        CHECK(s && strstr(s, "#ifdef CT_SYMBOL_c_mask") && strstr(s, "cudaMemcpyToSymbolAsync(c_mask, mask, 37 "));
        free(s);
    }
    struct stat sb;
    CHECK(stat(out, &sb) == 0 && S_ISREG(sb.st_mode) && (sb.st_mode & S_IRUSR));
    CHECK(tl_count_prefixed(wd.work, ".convtune-export-") == 0);

    if (have_nvcc) {
        char obj[600], exe[600];
        path_in(obj, sizeof obj, "out.o");
        path_in(exe, sizeof exe, "selftest");
        char h[600];
        snprintf(h, sizeof h, "%.*s.h", (int)(strlen(out) - 3), out);
        CHECK_MSG(nvcc_selftest(out, h, exe) == 0, "nvcc -DCONVTUNE_SELFTEST -include %s %s failed (the .cu, or "
                  "the two disagree)", h, out);
        CHECK(stat(exe, &sb) == 0 && (sb.st_mode & S_IXUSR));
        unlink(exe);
        compile_header(out);
    }

    check_half_export(have_nvcc);
    check_half_templates(have_nvcc);

    /* b.db: the shared-memory mask record as the only verified one */
    const ct_result recs_b[] = {
        mkrec("conv1d_tiled", hash, json_const, "wrong_result", 2.0, 0.5),
        mkrec("conv1d_tiled", hash, json_shared, "ok", 7.0, 2e-7),
    };
    CHECK(make_db(dbb, recs_b, 2));
    char outb[600];
    path_in(outb, sizeof outb, "shared.cu");
    run_export(dbb, outb, NULL, &r);
    CHECK_MSG(r.code == 0, "export (shared): exit %d: %s", r.code, r.err);
    tl_result_free(&r);
    check_export_text(outb, json_shared, 1);
    check_header_text(outb, json_shared);
    if (have_nvcc) {
        char obj[600];
        path_in(obj, sizeof obj, "shared.o");
        CHECK_MSG(nvcc("-c", NULL, outb, obj) == 0, "nvcc -c %s failed", outb);
        CHECK(tl_exists(obj));
        unlink(obj);
    }

    /* Refusals. An existing file without --force: 7, the file untouched. */
    size_t len0 = 0;
    char *orig = tl_slurp(out, &len0);
    export_fails(dba, out, NULL, 7, "exists");
    CHECK_MSG(tl_same_bytes(out, orig, len0), "%s changed by a refused export", out);
    CHECK(tl_count_prefixed(wd.work, ".convtune-export-") == 0);
    free(orig);

    /* The header counts as much as the .cu: present alone, a symbolic link
     * or a directory, the export is refused and writes neither file. */
    {
        char pcu[600], ph[600];
        path_in(pcu, sizeof pcu, "pair.cu");
        path_in(ph, sizeof ph, "pair.h");
        CHECK(tl_write_text(ph, "somebody's header\n") == 0);
        export_fails(dba, pcu, NULL, 7, "pair.h exists");
        CHECK(!tl_exists(pcu));
        CHECK(tl_same_bytes(ph, "somebody's header\n", 18));
        CHECK(unlink(ph) == 0 && symlink("/nonexistent/target", ph) == 0);
        export_fails(dba, pcu, "--force", 7, "symbolic link");
        CHECK(!tl_exists(pcu));
        CHECK(unlink(ph) == 0 && mkdir(ph, 0755) == 0);
        export_fails(dba, pcu, "--force", 7, "not a regular file");
        CHECK(!tl_exists(pcu));
        CHECK(rmdir(ph) == 0);
        CHECK(tl_count_prefixed(wd.work, ".convtune-export-") == 0);
        /* an output name without .cu gets FILE.h appended */
        char plain[600], plain_h[600];
        path_in(plain, sizeof plain, "kernel_src");
        path_in(plain_h, sizeof plain_h, "kernel_src.h");
        run_export(dba, plain, NULL, &r);
        CHECK_MSG(r.code == 0 && tl_exists(plain) && tl_exists(plain_h), "export -o kernel_src: %d %s", r.code, r.err);
        tl_result_free(&r);
    }

    /* With --force it is replaced by rename: a new inode, the new text, no
     * temporary file left. */
    CHECK(tl_write_text(out, "stale\n") == 0);
    char outh[600];
    path_in(outh, sizeof outh, "out.h");
    CHECK(tl_write_text(outh, "stale header\n") == 0);
    struct stat before, after, hbefore, hafter;
    CHECK(stat(out, &before) == 0);
    CHECK(stat(outh, &hbefore) == 0);
    run_export(dba, out, "--force", &r);
    CHECK_MSG(r.code == 0, "export --force: exit %d: %s", r.code, r.err);
    CHECK_MSG(r.errlen == 0, "export --force: stderr: %s", r.err);
    tl_result_free(&r);
    CHECK(stat(out, &after) == 0);
    CHECK_MSG(after.st_ino != before.st_ino, "export --force rewrote %s in place instead of renaming", out);
    CHECK(stat(outh, &hafter) == 0);
    CHECK_MSG(hafter.st_ino != hbefore.st_ino, "export --force rewrote %s in place instead of renaming", outh);
    check_export_text(out, json_const, 0);
    check_header_text(out, json_const);
    CHECK(tl_count_prefixed(wd.work, ".convtune-export-") == 0);

    /* Into a missing directory: 7 and nothing created. */
    char missing[700], missing_dir[600];
    path_in(missing_dir, sizeof missing_dir, "nope");
    snprintf(missing, sizeof missing, "%s/out.cu", missing_dir);
    export_fails(dba, missing, NULL, 7, "does not exist");
    export_fails(dba, missing, "--force", 7, "does not exist");
    CHECK(!tl_exists(missing_dir));

    /* Through a symbolic link: 7 even with --force; the target untouched. */
    char target[600], link[600], dangling[600], gone[600];
    path_in(target, sizeof target, "target.txt");
    path_in(link, sizeof link, "link.cu");
    path_in(dangling, sizeof dangling, "dangling.cu");
    path_in(gone, sizeof gone, "gone.txt");
    static const char target_text[] = "the link target: do not touch\n";
    CHECK(tl_write_text(target, target_text) == 0);
    CHECK(symlink(target, link) == 0);
    CHECK(symlink(gone, dangling) == 0);
    export_fails(dba, link, NULL, 7, "symbolic link");
    export_fails(dba, link, "--force", 7, "symbolic link");
    export_fails(dba, dangling, "--force", 7, "symbolic link");
    CHECK(tl_same_bytes(target, target_text, strlen(target_text)));
    CHECK(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode));
    CHECK(lstat(dangling, &sb) == 0 && S_ISLNK(sb.st_mode));
    CHECK(!tl_exists(gone));
    CHECK(tl_count_prefixed(wd.work, ".convtune-export-") == 0);

    /* Onto a directory: refused with and without --force. */
    export_fails(dba, home, NULL, 7, "exists");
    export_fails(dba, home, "--force", 7, "not a regular file");

    /* The default path is NAME.cu in the current folder (the children's
     * is the work directory), wherever that is: no generated/ needed. */
    char gen[600], gen_file[700];
    path_in(gen, sizeof gen, "generated");
    path_in(gen_file, sizeof gen_file, "conv1d_3000_37_same.cu");
    CHECK(!tl_exists(gen_file));
    run_export(dba, NULL, NULL, &r);
    CHECK_MSG(r.code == 0, "export (default path): exit %d: %s", r.code, r.err);
    CHECK_MSG(strstr(r.out, "conv1d_3000_37_same.cu and conv1d_3000_37_same.h: ") == r.out,
              "export (default path) stdout: %s", r.out);
    tl_result_free(&r);
    CHECK(!tl_exists(gen));
    check_export_text(gen_file, json_const, 0);
    check_header_text(gen_file, json_const);
    export_fails(dba, NULL, NULL, 7, "exists");
    /* Deterministic: exporting the unchanged winner again, a second later,
     * writes the same bytes (no export time in either file). */
    {
        char gen_h[700];
        path_in(gen_h, sizeof gen_h, "conv1d_3000_37_same.h");
        size_t ncu = 0, nh = 0;
        char *cu1 = tl_slurp(gen_file, &ncu), *h1 = tl_slurp(gen_h, &nh);
        sleep(1);
        run_export(dba, NULL, "--force", &r);
        CHECK_MSG(r.code == 0, "export again: exit %d: %s", r.code, r.err);
        tl_result_free(&r);
        CHECK_MSG(cu1 && tl_same_bytes(gen_file, cu1, ncu), "a second export of the same winner changed the .cu");
        CHECK_MSG(h1 && tl_same_bytes(gen_h, h1, nh), "a second export of the same winner changed the .h");
        free(cu1);
        free(h1);
    }

    /* c.db: the stored template hash is not the current template's: 6. */
    const ct_result recs_c[] = {
        mkrec("conv1d_tiled", "0123456789abcdef", json_const, "ok", 5.0, 1e-7),
    };
    CHECK(strcmp(hash, "0123456789abcdef") != 0);
    CHECK(make_db(dbc, recs_c, 1));
    char outc[600];
    path_in(outc, sizeof outc, "changed.cu");
    export_fails(dbc, outc, NULL, 6, "changed");
    export_fails(dbc, outc, "--force", 6, "changed");
    CHECK(!tl_exists(outc));
    {
        char outch[600];
        path_in(outch, sizeof outch, "changed.h");
        CHECK(!tl_exists(outch));
    }
    CHECK(tl_count_prefixed(wd.work, ".convtune-export-") == 0);

    /* d.db: a device name with quotes, a format directive, a trigraph and a
     * newline must not break the generated C (comment or string literal). */
    device_name = "GPU \"X\" 100%s ?\?= \\\nint broken;";
    char dbd[600], outd[600];
    path_in(dbd, sizeof dbd, "d.db");
    path_in(outd, sizeof outd, "odd_name.cu");
    CHECK(make_db(dbd, recs_a, 3));
    run_export(dbd, outd, NULL, &r);
    CHECK_MSG(r.code == 0, "export with an odd device name: exit %d: %s", r.code, r.err);
    tl_result_free(&r);
    if (have_nvcc) {
        char objd[600];
        path_in(objd, sizeof objd, "odd_name_selftest");
        CHECK_MSG(nvcc("-DCONVTUNE_SELFTEST", "-Werror=all-warnings", outd, objd) == 0,
                  "the export with an odd device name does not compile cleanly");
    }

    tl_workdir_remove(&wd);
    CHECK_DONE();
}
