/* test_export_wino4.c - exports of conv2dc_wino4 (Winograd F(4x4,3x3) for
 * sm_75), without a GPU. The first record is stored as the convtune before
 * FPRE stored it (no FPRE among its parameters, that convtune's code
 * hash): it must still export, as the one launch on every buffer. An
 * FPRE=1 record (fp32, and bf16 channels-last) exports the workspace of
 * the filters' transforms, made on the first call, the prep kernel into it
 * at every call and the main kernel reading it in the weights' place. The
 * single and the family exports must compile with nvcc for sm_75 (a
 * prerequisite: without nvcc the test fails). */
#include "export_common.h"
#define CT_EXPORT_TEST_NAME "export_wino4"
#include "export_run.h"

#define DEV "NVIDIA Test T4"
/* The code hash that convtune at commit aa309f9, before FPRE, gave the
 * first record's candidate. */
#define WINO4_PRE_FPRE_HASH "9dc54a2d591cb4ab"

static void compiles(const char *cu, const char *h, const char *obj)
{
    char *nv[] = {"nvcc", "-gencode=arch=compute_75,code=sm_75", "-Werror=all-warnings", "-include", (char *)h,
                  "-c", (char *)cu, "-o", (char *)obj, NULL};
    CHECK_MSG(run_tool("nvcc -c", nv) == 0, "nvcc -c %s failed", cu);
}

/* A record of conv2dc_wino4 for spec: its parameters in declaration order,
 * FPRE left out where fpre < 0 (as stored before it). */
static ct_result wino4_rec(const char *spec, const char *vals, int fpre, double us)
{
    char hash[17], params[512];
    tc_template_hash("conv2dc_wino4", hash);
    if (fpre < 0)
        snprintf(params, sizeof params, "{%s}", vals);
    else
        snprintf(params, sizeof params, "{%s,\"FPRE\":%d}", vals, fpre);
    (void)spec;
    return tc_rec("conv2dc_wino4", hash, params, "ok", us, 2e-6);
}

static void export_one(const char *spec, const char *name, char *cu, char *h, char *obj, size_t len)
{
    char f[64];
    snprintf(f, sizeof f, "%s.cu", name);
    path_in(cu, len, f);
    snprintf(f, sizeof f, "%s.h", name);
    path_in(h, len, f);
    snprintf(f, sizeof f, "%s.o", name);
    path_in(obj, len, f);
    tc_result r;
    convtune(&r, "export", "--problem", spec, "--db", "t.db", "-o", cu, NULL);
    CHECK_MSG(r.code == 0, "export --problem %s: exit %d: %s", spec, r.code, r.err);
    tc_result_free(&r);
}

int main(void)
{
    if (!scratch_dirs())
        return 1;
    if (!nvcc_on_path())
        CHECK_DONE();
    char dbpath[600];
    path_in(dbpath, sizeof dbpath, "t.db");
    ct_db *db = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_db_open(dbpath, 1, &db, &e) == CT_OK, "%s: %s", dbpath, e.msg);
    if (!db)
        CHECK_DONE();
    const ct_device_info dev = tc_device(DEV, "GPU-7575-test", 7, 5, 13000);
    static const char *const specs[] = {"conv2dc:2:12:9:11:20:3:3:same:groups=2:bias",
                                        "conv2dc:2:64:16:16:64:3:3:same:bias", "conv2dc:1:24:10:13:40:3:3:same:nhwc:bf16"};
    static const char *const vals[] = {
        "\"TILE_M\":16,\"TILE_N\":16,\"THREAD_M\":8,\"THREAD_N\":4,\"CHUNK_K\":4,\"PREFETCH\":1,\"STAGES\":2,"
        "\"MIN_BLOCKS\":1",
        "\"TILE_M\":32,\"TILE_N\":16,\"THREAD_M\":8,\"THREAD_N\":4,\"CHUNK_K\":4,\"PREFETCH\":1,\"STAGES\":1,"
        "\"MIN_BLOCKS\":1",
        "\"TILE_M\":32,\"TILE_N\":8,\"THREAD_M\":8,\"THREAD_N\":4,\"CHUNK_K\":8,\"PREFETCH\":0,\"STAGES\":2,"
        "\"MIN_BLOCKS\":1"};
    for (int i = 0; i < 3; i++) {
        ct_result r = wino4_rec(specs[i], vals[i], i == 0 ? -1 : 1, 5.0 + i);
        if (i == 0)   /* as stored before FPRE */
            snprintf(r.code_hash, sizeof r.code_hash, "%s", WINO4_PRE_FPRE_HASH);
        tc_add_run(db, &dev, specs[i], &r, 1);
    }
    ct_db_close(db);

    char cu[600], h[600], obj[600];
    export_one(specs[0], "one", cu, h, obj, sizeof cu);
    char *s = tc_slurp(cu, NULL);
    contains(s, "#define FPRE 0", cu);
    contains(s, "// Nothing is kept between calls.", cu);
    contains(s, "conv2dc_wino4<<<dim3(CT_GRID_X, CT_GRID_Y, CT_GRID_Z), CT_BLOCK_X, CT_SMEM_BYTES, stream>>>(in, "
                "weight, bias, out);", cu);
    free(s);
    compiles(cu, h, obj);

    /* FPRE=1: 2 channel blocks x 16 chunks of 4 x 32 filters, 36 floats
     * each (589824 bytes), one prep thread a filter (16 blocks). */
    export_one(specs[1], "fpre", cu, h, obj, sizeof cu);
    s = tc_slurp(cu, NULL);
    contains(s, "#define FPRE 1", cu);
    contains(s, "cudaMalloc(&ct_wp, 589824ULL)", cu);
    contains(s, "W4_CAT(conv2dc_wino4, _fprep)<<<dim3(16, 1, 1), 256, 0, stream>>>(weight, (float *)ct_wp);", cu);
    contains(s, "stream>>>(in, (const float *)ct_wp, bias, out);", cu);
    contains(s, "cudaFree(ct_wp);", cu);
    free(s);
    compiles(cu, h, obj);

    /* bf16, channels last, no bias: the casts, the fp32 workspace. */
    export_one(specs[2], "half", cu, h, obj, sizeof cu);
    s = tc_slurp(cu, NULL);
    contains(s, "_fprep)<<<", cu);
    contains(s, ">>>((const ct_elem *)weight, (float *)ct_wp);", cu);
    contains(s, "stream>>>((const ct_elem *)in, (const float *)ct_wp, (ct_elem *)out);", cu);
    free(s);
    compiles(cu, h, obj);

    tc_result r;
    static const char *const dts[] = {"f32", "bf16"};
    for (int i = 0; i < 2; i++) {
        char f[32];
        snprintf(f, sizeof f, "fam_%s.cu", dts[i]);
        path_in(cu, sizeof cu, f);
        snprintf(f, sizeof f, "fam_%s.h", dts[i]);
        path_in(h, sizeof h, f);
        snprintf(f, sizeof f, "fam_%s.o", dts[i]);
        path_in(obj, sizeof obj, f);
        convtune(&r, "export", "--family", "conv2dc", "--dtype", dts[i], "--db", "t.db", "-o", cu, NULL);
        CHECK_MSG(r.code == 0, "export --family conv2dc --dtype %s: exit %d: %s", dts[i], r.code, r.err);
        tc_result_free(&r);
        compiles(cu, h, obj);
    }
    CHECK_DONE();
}
