/* test_export_tf32.c - exports of tf32 problems, without a GPU. A database
 * holds, on one device, a conv2dc layer in fp32 and in tf32 (both won by
 * conv2dc_tc), a channels-last tf32 layer won by conv2dc_tcsplit (the
 * split-K executor) and a conv1dc tf32 layer won by conv1dc_tc:
 *
 *   - export --problem of a tf32 winner: float pointers (a tf32 problem's
 *     buffers are fp32's), CT_TF32 defined and the single-pass kernel in it
 *     (cvt.rna), no CT_DTYPE, the self-test held to 2^-10; the fp32 export
 *     of the same layer has none of it. Both compile with nvcc, the
 *     self-test too (never run);
 *   - export --family conv2dc --dtype tf32: the tf32 problems only, the
 *     selector convtune_conv2dc_tf32 on float pointers, the generic kernel
 *     the fp32 one renamed; it and the fp32 family export compile and link
 *     into one program, both headers included together from C11;
 *   - --torch of a tf32 problem and of the tf32 family: float32 tensors;
 *   - refusals: --dtype tf32 for a family without tf32 problems.
 * nvcc is a prerequisite: without it the test fails. */
#include "export_common.h"
#define CT_EXPORT_TEST_NAME "export_tf32"
#include "export_run.h"

#define DEV "NVIDIA Test TF32 GPU"
#define F32 "conv2dc:2:8:9:9:8:3:3:same"
#define TF32 "conv2dc:2:8:9:9:8:3:3:same:tf32"
#define SPLIT "conv2dc:1:16:12:12:24:3:3:same:nhwc:tf32"
#define C1D "conv1dc:2:7:33:9:5:pad=2:bias:tf32"
static char dbpath[600];

static void fill(const char *path)
{
    ct_db *db = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_db_open(path, 1, &db, &e) == CT_OK, "%s: %s", path, e.msg);
    if (!db)
        return;
    ct_device_info dev = tc_device(DEV, "GPU-3333-test", 9, 0, 13000);
    static const struct {
        const char *spec, *tmpl;
        double us;
    } rows[] = {
        {F32, "conv2dc_tc", 5.0},
        {TF32, "conv2dc_tc", 3.0},
        {SPLIT, "conv2dc_tcsplit", 4.0},
        {C1D, "conv1dc_tc", 2.0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const ct_result r = tc_first_values(rows[i].spec, rows[i].tmpl, rows[i].us);
        tc_add_run(db, &dev, rows[i].spec, &r, 1);
    }
    ct_db_close(db);
}

/* nvcc -c src (the header included first when h), and the self-test
 * linked (never run) when selftest. */
static void nvcc_builds(const char *src, const char *h, int selftest)
{
    char obj[700], exe[700];
    snprintf(obj, sizeof obj, "%s.o", src);
    snprintf(exe, sizeof exe, "%s.selftest", src);
    CHECK_MSG(nvcc_with_header("-arch=sm_90", h, src, obj) == 0, "nvcc -c %s failed", src);
    if (selftest) {
        char *st[] = {"nvcc", "-arch=sm_90", "-DCONVTUNE_SELFTEST", (char *)src, "-o", exe, NULL};
        CHECK_MSG(run_tool("nvcc -DCONVTUNE_SELFTEST", st) == 0, "nvcc -DCONVTUNE_SELFTEST %s failed", src);
        unlink(exe);
    }
    unlink(obj);
}

static void single(void)
{
    char cu[600], h[600], cu32[600], h32[600], cus[600], hs[600];
    path_in(cu, sizeof cu, "tf32.cu");
    path_in(h, sizeof h, "tf32.h");
    path_in(cu32, sizeof cu32, "f32.cu");
    path_in(h32, sizeof h32, "f32.h");
    path_in(cus, sizeof cus, "split.cu");
    path_in(hs, sizeof hs, "split.h");
    tc_result r;
    convtune(&r, "export", "--problem", TF32, "--db", dbpath, "-o", cu, NULL);
    CHECK_MSG(r.code == 0, "export --problem %s: exit %d: %s", TF32, r.code, r.err);
    tc_result_free(&r);
    convtune(&r, "export", "--problem", F32, "--db", dbpath, "-o", cu32, NULL);
    CHECK_MSG(r.code == 0, "export --problem %s: exit %d: %s", F32, r.code, r.err);
    tc_result_free(&r);
    convtune(&r, "export", "--problem", SPLIT, "--db", dbpath, "-o", cus, NULL);
    CHECK_MSG(r.code == 0, "export --problem %s: exit %d: %s", SPLIT, r.code, r.err);
    tc_result_free(&r);
    char *s = tc_slurp(cu, NULL), *t = tc_slurp(h, NULL), *s32 = tc_slurp(cu32, NULL), *ss = tc_slurp(cus, NULL);
    contains(s, "#define CT_TF32 1\n", cu);
    contains(s, "cvt.rna.tf32.f32", cu);
    contains(s, "int convtune_conv2dc_2_8_9_9_8_3_3_same_tf32(const float *in, const float *weight, float *out, "
                "cudaStream_t stream)", cu);
    contains(s, "// Element type: tf32: fp32 buffers (float pointers)", cu);
    contains(s, "const int pass = relerr <= 0.000976562;", cu);
    contains(s, "//   out   1296 floats\n", cu);
    lacks(s, "#define CT_DTYPE", cu);
    lacks(s, "void *in", cu);
    contains(t, "int convtune_conv2dc_2_8_9_9_8_3_3_same_tf32(const float *in, const float *weight, float *out, "
                "struct CUstream_st *stream);", h);
    /* the fp32 export of the same layer: 3xTF32, its own tolerance */
    lacks(s32, "#define CT_TF32", cu32);
    contains(s32, "const int pass = relerr <= 1e-05;", cu32);
    /* the split-K executor's launcher on float pointers */
    contains(ss, "#define CT_TF32 1\n", cus);
    contains(ss, "TC_CAT(conv2dc_tcsplit, _reduce)<<<", cus);
    lacks(ss, "void *in", cus);
    free(s);
    free(t);
    free(s32);
    free(ss);
    nvcc_builds(cu, h, 1);
    nvcc_builds(cus, hs, 1);
}

static void family(void)
{
    char cu32[600], h32[600], cu[600], h[600];
    path_in(cu32, sizeof cu32, "fam32.cu");
    path_in(h32, sizeof h32, "fam32.h");
    path_in(cu, sizeof cu, "famtf32.cu");
    path_in(h, sizeof h, "famtf32.h");
    tc_result r;
    convtune(&r, "export", "--family", "conv2dc", "--db", dbpath, "-o", cu32, NULL);
    CHECK_MSG(r.code == 0 && strstr(r.out, "1 tuned conv2dc problems on " DEV), "export --family conv2dc: %d %s%s",
              r.code, r.out, r.err);
    tc_result_free(&r);
    convtune(&r, "export", "--family", "conv2dc", "--dtype", "tf32", "--db", dbpath, "-o", cu, NULL);
    CHECK_MSG(r.code == 0 && strstr(r.out, "2 tuned conv2dc_tf32 problems on " DEV) &&
                  strstr(r.out, "the selector convtune_conv2dc_tf32"),
              "export --family conv2dc --dtype tf32: %d %s%s", r.code, r.out, r.err);
    tc_result_free(&r);
    char *s = tc_slurp(cu, NULL), *t = tc_slurp(h, NULL), *s32 = tc_slurp(cu32, NULL);
    contains(s, "re-run `convtune export --family conv2dc --dtype tf32` instead", cu);
    contains(s, "// type:      tf32: every buffer holds floats (float pointers)", cu);
    contains(s, "#define conv2dc_generic conv2dc_generic_tf32\n", cu);
    contains(s, "namespace ct_generic_conv2dc_tf32 {\n", cu);
    contains(s, "extern \"C\" int convtune_conv2dc_tf32(const float *in, const float *weight, const float *bias, "
                "float *out,", cu);
    contains(s, TF32 ": conv2dc_tc (content hash ", cu);
    contains(s, SPLIT ": conv2dc_tcsplit (content hash ", cu);
    contains(s, "#define CT_TF32 1\n", cu);
    lacks(s, "#define CT_DTYPE 1", cu);
    lacks(s, "#define CT_DTYPE 2", cu);
    lacks(s, F32 ": ", cu);
    lacks(s, "conv1dc", cu);
    contains(t, "#define CONVTUNE_CONV2DC_TF32_NTUNED 2\n", h);
    lacks(s32, ":tf32", cu32);
    lacks(s32, "#define CT_TF32", cu32);
    free(s);
    free(t);
    free(s32);

    /* both in one program: the headers together from C11, the objects linked */
    char csrc[600], o32[600], otf[600], omain[600], exe[600], text[3000];
    path_in(csrc, sizeof csrc, "both.c");
    path_in(o32, sizeof o32, "fam32.o");
    path_in(otf, sizeof otf, "famtf32.o");
    path_in(omain, sizeof omain, "both.o");
    path_in(exe, sizeof exe, "both");
    snprintf(text, sizeof text,
             "#include <stddef.h>\n#include \"%s\"\n#include \"%s\"\n"
             "int main(int argc, char **argv)\n{\n"
             "    (void)argv;\n    if (argc < 5)   /* link only: nothing is called without a GPU */\n"
             "        return CONVTUNE_CONV2DC_NTUNED + CONVTUNE_CONV2DC_TF32_NTUNED == 3 ? 0 : 1;\n"
             "    float *f = NULL;\n    int g = 0;\n"
             "    int rc = convtune_conv2dc(f, f, NULL, f, 2, 8, 9, 9, 8, 3, 3, CONVTUNE_CONV2DC_SAME, 0, 0, 1, 1, 1, 1,\n"
             "                              1, CONVTUNE_CONV2DC_NCHW, NULL, &g);\n"
             "    rc |= convtune_conv2dc_tf32(f, f, NULL, f, 2, 8, 9, 9, 8, 3, 3, CONVTUNE_CONV2DC_SAME, 0, 0, 1, 1, 1,\n"
             "                                1, 1, CONVTUNE_CONV2DC_NCHW, NULL, &g);\n"
             "    return rc;\n}\n",
             h32, h);
    CHECK(tc_write_text(csrc, text) == 0);
    char *gcc[] = {"gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-c", csrc, "-o", omain, NULL};
    CHECK_MSG(run_tool("gcc -std=c11 (both headers)", gcc) == 0, "%s and %s do not compile together as C11", h32, h);
    CHECK_MSG(nvcc_with_header("-arch=sm_90", h32, cu32, o32) == 0, "nvcc -c %s failed", cu32);
    CHECK_MSG(nvcc_with_header("-arch=sm_90", h, cu, otf) == 0, "nvcc -c %s failed", cu);
    char *ld[] = {"nvcc", "-arch=sm_90", "-o", exe, omain, o32, otf, NULL};
    CHECK_MSG(run_tool("nvcc -o both (link)", ld) == 0, "the fp32 and tf32 exports do not link into one program");
    char *run[] = {exe, NULL};
    CHECK_MSG(run_tool("./both", run) == 0, "the linked program does not see both tables");
}

static void torch(void)
{
    char tdir[600];
    path_in(tdir, sizeof tdir, "torch");
    CHECK(mkdir(tdir, 0700) == 0);
    tc_result r;
    convtune(&r, "export", "--problem", C1D, "--torch", "--db", dbpath, "-o", tdir, NULL);
    CHECK_MSG(r.code == 0, "export --problem %s --torch: %d %s%s", C1D, r.code, r.out, r.err);
    tc_result_free(&r);
    char py[700], bind[700];
    snprintf(py, sizeof py, "%s/conv1dc_2_7_33_9_5_pad_2_bias_tf32.py", tdir);
    snprintf(bind, sizeof bind, "%s/conv1dc_2_7_33_9_5_pad_2_bias_tf32_binding.cpp", tdir);
    char *p = tc_slurp(py, NULL), *b = tc_slurp(bind, NULL);
    contains(p, "torch.float32", py);
    contains(p, "\"" C1D "\"", py);
    lacks(p, "bfloat16", py);
    lacks(p, "float16", py);
    contains(b, "data_ptr<float>()", bind);
    free(p);
    free(b);
    char *argv[] = {"python3", "-m", "py_compile", py, NULL};
    CHECK_MSG(run_tool("python3 -m py_compile", argv) == 0, "%s is not valid Python", py);

    /* the family module: float32 tensors around the tf32 selector */
    char fdir[600], fpy[700];
    path_in(fdir, sizeof fdir, "torchfam");
    CHECK(mkdir(fdir, 0700) == 0);
    convtune(&r, "export", "--family", "conv2dc", "--dtype", "tf32", "--torch", "--db", dbpath, "-o", fdir, NULL);
    CHECK_MSG(r.code == 0 && strstr(r.out, "convtune_conv2dc_tf32.py"), "export --family --dtype tf32 --torch: %d %s%s",
              r.code, r.out, r.err);
    tc_result_free(&r);
    snprintf(fpy, sizeof fpy, "%s/convtune_conv2dc_tf32.py", fdir);
    char *fp = tc_slurp(fpy, NULL);
    contains(fp, "torch.float32", fpy);
    contains(fp, "`convtune export --family conv2dc --dtype tf32 --torch`", fpy);
    contains(fp, "\"symbol\": \"convtune_conv2dc_tf32\"", fpy);
    contains(fp, "\"" TF32 "\"", fpy);
    lacks(fp, "float16", fpy);
    free(fp);
    char *fargv[] = {"python3", "-m", "py_compile", fpy, NULL};
    CHECK_MSG(run_tool("python3 -m py_compile", fargv) == 0, "%s is not valid Python", fpy);
}

int main(void)
{
    if (!scratch_dirs())
        return 1;
    if (!nvcc_on_path())
        CHECK_DONE();
    path_in(dbpath, sizeof dbpath, "a.db");
    fill(dbpath);
    single();
    family();
    torch();

    /* refusals, each leaving nothing behind */
    char cux[600], hx[600];
    path_in(cux, sizeof cux, "x.cu");
    path_in(hx, sizeof hx, "x.h");
    tc_result r;
    convtune(&r, "export", "--family", "conv1d", "--dtype", "tf32", "--db", dbpath, "-o", cux, NULL);
    fails(&r, 2, "--dtype tf32: family conv1d has no tf32 problems", "export --family conv1d --dtype tf32");
    convtune(&r, "export", "--family", "conv2d", "--dtype", "tf32", "--db", dbpath, "-o", cux, NULL);
    fails(&r, 2, "family conv2d has no tf32 problems", "export --family conv2d --dtype tf32");
    convtune(&r, "export", "--problem", "conv1d:100:3:tf32", "--db", dbpath, "-o", cux, NULL);
    fails(&r, 2, "element type 'tf32' is not offered by conv1d", "export --problem conv1d:...:tf32");
    CHECK(!tc_exists(cux) && !tc_exists(hx));

    if (getenv("CT_TEST_KEEP") || ct_check_failures)
        printf("kept %s\n", base);
    else
        tc_rm_rf(base);
    CHECK_DONE();
}
