/* test_export_tma.c - exports of a kernel that takes a TMA tensor map
 * (conv2dc_tc16gktcl), without a GPU. The launcher must encode the map at
 * call time from the caller's input pointer through the runtime's driver
 * entry point (no -lcuda), with the model's box, element strides and
 * swizzle, and pass it after the buffers; the single and the family export
 * must compile with nvcc for sm_90a (a prerequisite: without nvcc the test
 * fails). */
#include "export_common.h"
#define CT_EXPORT_TEST_NAME "export_tma"
#include "export_run.h"

#define DEV "NVIDIA Test TMA GPU"

static void compiles(const char *cu, const char *h, const char *obj)
{
    char *nv[] = {"nvcc", "-gencode=arch=compute_90a,code=sm_90a", "-Werror=all-warnings", "-include", (char *)h,
                  "-c", (char *)cu, "-o", (char *)obj, NULL};
    CHECK_MSG(run_tool("nvcc -c", nv) == 0, "nvcc -c %s failed", cu);
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
    const ct_device_info dev = tc_device(DEV, "GPU-4444-test", 9, 0, 13000);
    /* Stride 2 down (an element stride of 2), bias; a second size for the
     * family export. */
    static const char *const specs[] = {"conv2dc:1:72:9:13:40:3:3:pad=1:stride=2,1:bias:nhwc:bf16",
                                        "conv2dc:2:64:16:16:64:3:3:same:bias:nhwc:bf16"};
    static const tc_param over[] = {{"TILE_OH", 8}, {"TILE_OW", 8}, {"STAGES", 3}};
    for (size_t i = 0; i < 2; i++) {
        char hash[17], params[512] = "{}";
        tc_template_hash("conv2dc_tc16gktcl", hash);
        tc_params(specs[i], "conv2dc_tc16gktcl", over, 3, params, sizeof params);
        const ct_result r = tc_rec("conv2dc_tc16gktcl", hash, params, "ok", 5.0 + (double)i, 1e-3);
        tc_add_run(db, &dev, specs[i], &r, 1);
    }
    ct_db_close(db);

    char cu[600], h[600], obj[600];
    path_in(cu, sizeof cu, "one.cu");
    path_in(h, sizeof h, "one.h");
    path_in(obj, sizeof obj, "one.o");
    tc_result r;
    convtune(&r, "export", "--problem", specs[0], "--db", "t.db", "-o", cu, NULL);
    CHECK_MSG(r.code == 0, "export --problem %s: exit %d: %s", specs[0], r.code, r.err);
    tc_result_free(&r);
    char *s = tc_slurp(cu, NULL);
    contains(s, "cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\"", cu);
    /* The NHWC input as [C][W][H][B]; 8x8 output pixels, stride 2 down: 16
     * rows traversed by steps of 2; the 128-byte swizzle. */
    contains(s, "dims0[] = {72ull, 13ull, 9ull, 1ull}, strides0[] = {144ull, 1872ull, 16848ull}", cu);
    contains(s, "box0[] = {64u, 8u, 16u, 1u}, estr0[] = {1u, 1u, 2u, 1u}", cu);
    contains(s, "CU_TENSOR_MAP_SWIZZLE_128B", cu);
    contains(s, "(ct_elem *)out, ct_tmaps[0]);", cu);
    free(s);
    compiles(cu, h, obj);

    path_in(cu, sizeof cu, "fam.cu");
    path_in(h, sizeof h, "fam.h");
    path_in(obj, sizeof obj, "fam.o");
    convtune(&r, "export", "--family", "conv2dc", "--dtype", "bf16", "--db", "t.db", "-o", cu, NULL);
    CHECK_MSG(r.code == 0, "export --family conv2dc: exit %d: %s", r.code, r.err);
    tc_result_free(&r);
    compiles(cu, h, obj);
    CHECK_DONE();
}
