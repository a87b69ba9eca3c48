/* test_export_wino.c - exports of conv2dc_wino4 and conv2dc_wino (Winograd
 * F(4x4,3x3) and F(2x2,3x3) for sm_75), without a GPU. A record of each
 * stored as the convtune before FPRE stored it (no FPRE among its
 * parameters, that convtune's code hash) must still export, as the one
 * launch on every buffer. FPRE=1 records (fp32, and bf16 channels-last)
 * export the workspace of the filters' transforms, made on the first call,
 * the prep kernel into it at every call and the main kernel reading it in
 * the weights' place. The single and the family exports must compile with
 * nvcc for sm_75 (a prerequisite: without nvcc the test fails). */
#include "export_common.h"
#define CT_EXPORT_TEST_NAME "export_wino"
#include "export_run.h"

#define DEV "NVIDIA Test T4"

static void compiles(const char *cu, const char *h, const char *obj)
{
    char *nv[] = {"nvcc", "-gencode=arch=compute_75,code=sm_75", "-Werror=all-warnings", "-include", (char *)h,
                  "-c", (char *)cu, "-o", (char *)obj, NULL};
    CHECK_MSG(run_tool("nvcc -c", nv) == 0, "nvcc -c %s failed", cu);
}

/* A stored record: its template, problem, parameters in declaration order
 * but FPRE, FPRE (-1: left out, as stored before it) and, for those, the
 * code hash that convtune at commit aa309f9, before FPRE, gave it. */
typedef struct wino_case {
    const char *tmpl, *spec, *vals;
    int fpre;
    const char *code_hash;
} wino_case;

static ct_result wino_rec(const wino_case *wc, double us)
{
    char hash[17], params[512];
    tc_template_hash(wc->tmpl, hash);
    if (wc->fpre < 0)
        snprintf(params, sizeof params, "{%s}", wc->vals);
    else
        snprintf(params, sizeof params, "{%s,\"FPRE\":%d}", wc->vals, wc->fpre);
    ct_result r = tc_rec(wc->tmpl, hash, params, "ok", us, 2e-6);
    if (wc->code_hash)
        snprintf(r.code_hash, sizeof r.code_hash, "%s", wc->code_hash);
    return r;
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
    static const wino_case cases[] = {
        {"conv2dc_wino4", "conv2dc:2:12:9:11:20:3:3:same:groups=2:bias",
         "\"TILE_M\":16,\"TILE_N\":16,\"THREAD_M\":8,\"THREAD_N\":4,\"CHUNK_K\":4,\"PREFETCH\":1,\"STAGES\":2,"
         "\"MIN_BLOCKS\":1", -1, "9dc54a2d591cb4ab"},
        {"conv2dc_wino4", "conv2dc:2:64:16:16:64:3:3:same:bias",
         "\"TILE_M\":32,\"TILE_N\":16,\"THREAD_M\":8,\"THREAD_N\":4,\"CHUNK_K\":4,\"PREFETCH\":1,\"STAGES\":1,"
         "\"MIN_BLOCKS\":1", 1, NULL},
        {"conv2dc_wino4", "conv2dc:1:24:10:13:40:3:3:same:nhwc:bf16",
         "\"TILE_M\":32,\"TILE_N\":8,\"THREAD_M\":8,\"THREAD_N\":4,\"CHUNK_K\":8,\"PREFETCH\":0,\"STAGES\":2,"
         "\"MIN_BLOCKS\":1", 1, NULL},
        {"conv2dc_wino", "conv2dc:1:16:12:12:32:3:3:same:bias",
         "\"TILE_M\":16,\"TILE_N\":16,\"THREAD_M\":4,\"THREAD_N\":8,\"CHUNK_K\":4,\"STAGES\":2,\"MIN_BLOCKS\":1", -1,
         "75c31f9b37020a4f"},
        {"conv2dc_wino", "conv2dc:2:32:14:14:64:3:3:same:nhwc",
         "\"TILE_M\":32,\"TILE_N\":32,\"THREAD_M\":8,\"THREAD_N\":8,\"CHUNK_K\":8,\"STAGES\":1,\"MIN_BLOCKS\":1", 1,
         NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ct_result r = wino_rec(&cases[i], 5.0 + (double)i);
        tc_add_run(db, &dev, cases[i].spec, &r, 1);
    }
    ct_db_close(db);

    char cu[600], h[600], obj[600];
    export_one(cases[0].spec, "one", cu, h, obj, sizeof cu);
    char *s = tc_slurp(cu, NULL);
    contains(s, "#define FPRE 0", cu);
    contains(s, "// Nothing is kept between calls.", cu);
    contains(s, "conv2dc_wino4<<<dim3(CT_GRID_X, CT_GRID_Y, CT_GRID_Z), CT_BLOCK_X, CT_SMEM_BYTES, stream>>>(in, "
                "weight, bias, out);", cu);
    free(s);
    compiles(cu, h, obj);

    /* FPRE=1: 2 channel blocks x 16 chunks of 4 x 32 filters, 36 floats
     * each (589824 bytes), one prep thread a filter (16 blocks). */
    export_one(cases[1].spec, "fpre", cu, h, obj, sizeof cu);
    s = tc_slurp(cu, NULL);
    contains(s, "#define FPRE 1", cu);
    contains(s, "cudaMalloc(&ct_wp, 589824ULL)", cu);
    contains(s, "W4_CAT(conv2dc_wino4, _fprep)<<<dim3(16, 1, 1), 256, 0, stream>>>(weight, (float *)ct_wp);", cu);
    contains(s, "stream>>>(in, (const float *)ct_wp, bias, out);", cu);
    contains(s, "cudaFree(ct_wp);", cu);
    free(s);
    compiles(cu, h, obj);

    /* bf16, channels last, no bias: the casts, the fp32 workspace. */
    export_one(cases[2].spec, "half", cu, h, obj, sizeof cu);
    s = tc_slurp(cu, NULL);
    contains(s, "_fprep)<<<", cu);
    contains(s, ">>>((const ct_elem *)weight, (float *)ct_wp);", cu);
    contains(s, "stream>>>((const ct_elem *)in, (const float *)ct_wp, (ct_elem *)out);", cu);
    free(s);
    compiles(cu, h, obj);

    /* wino: before FPRE, one launch; FPRE=1, 2 channel blocks x 4 chunks
     * of 8 x 32 filters, 16 floats each (131072 bytes), 8 prep blocks. */
    export_one(cases[3].spec, "wone", cu, h, obj, sizeof cu);
    s = tc_slurp(cu, NULL);
    contains(s, "conv2dc_wino<<<dim3(CT_GRID_X, CT_GRID_Y, CT_GRID_Z), CT_BLOCK_X, CT_SMEM_BYTES, stream>>>(in, "
                "weight, bias, out);", cu);
    free(s);
    compiles(cu, h, obj);
    export_one(cases[4].spec, "wfpre", cu, h, obj, sizeof cu);
    s = tc_slurp(cu, NULL);
    contains(s, "cudaMalloc(&ct_wp, 131072ULL)", cu);
    contains(s, "WN_CAT(conv2dc_wino, _fprep)<<<dim3(8, 1, 1), 256, 0, stream>>>(weight, (float *)ct_wp);", cu);
    contains(s, "stream>>>(in, (const float *)ct_wp, out);", cu);
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
