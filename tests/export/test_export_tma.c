/* test_export_tma.c - exports of a kernel that takes a TMA tensor map
 * (conv2dc_tc16gktcl), without a GPU. The launcher must encode the map at
 * call time from the caller's input pointer through the runtime's driver
 * entry point (no -lcuda), with the model's box, element strides and
 * swizzle, and pass it after the buffers; the single and the family export
 * must compile with nvcc for sm_90a (a prerequisite: without nvcc the test
 * fails). The first record is stored as the convtune before split-K stored
 * it (no SPLIT_K among its parameters, that convtune's code hash): it must
 * still export, as one launch. A split-K record (SPLIT_K=2) exports its
 * workspace, the main kernel into it and the reduce with the bias. */
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
                                        "conv2dc:2:64:16:16:64:3:3:same:bias:nhwc:bf16",
                                        "conv2dc:2:256:10:13:72:3:3:same:bias:nhwc:bf16"};
    static const tc_param over[] = {{"TILE_OH", 8}, {"TILE_OW", 8}, {"STAGES", 3}, {"SPLIT_K", 2}};
    for (size_t i = 0; i < 3; i++) {
        char hash[17], params[512] = "{}";
        tc_template_hash("conv2dc_tc16gktcl", hash);
        tc_params(specs[i], "conv2dc_tc16gktcl", over, i == 2 ? 4 : 3, params, sizeof params);
        ct_result r = tc_rec("conv2dc_tc16gktcl", hash, params, "ok", 5.0 + (double)i, 1e-3);
        if (i == 0) {
            /* As stored before split-K: its parameters without SPLIT_K, and
             * the code hash that convtune (commit db198bb) gave them. */
            char *k = strstr(r.params_json, ",\"SPLIT_K\":1");
            CHECK_MSG(k != NULL, "no SPLIT_K in %s", r.params_json);
            if (k)
                memmove(k, k + strlen(",\"SPLIT_K\":1"), strlen(k + strlen(",\"SPLIT_K\":1")) + 1);
            snprintf(r.code_hash, sizeof r.code_hash, "%s", "ec0d8b5640441e88");
        }
        tc_add_run(db, &dev, specs[i], &r, 1);
    }
    /* An fp32 record (3xTF32: the template defines CT_TF32X3); its two A
     * images of a 3x3 chunk fit once, A_BUFS 1. */
    static const char *const fp32 = "conv2dc:2:36:16:16:64:3:3:same:bias:nhwc";
    static const tc_param over32[] = {{"TILE_OH", 8}, {"TILE_OW", 8}, {"STAGES", 3}, {"A_BUFS", 1}};
    {
        char hash[17], params[512] = "{}";
        tc_template_hash("conv2dc_tc16gktcl", hash);
        tc_params(fp32, "conv2dc_tc16gktcl", over32, 4, params, sizeof params);
        ct_result r = tc_rec("conv2dc_tc16gktcl", hash, params, "ok", 9.0, 1e-7);
        tc_add_run(db, &dev, fp32, &r, 1);
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

    /* Split-K: the workspace (two slices of the output's floats), the main
     * kernel into it with the map, the reduce with the bias. */
    path_in(cu, sizeof cu, "split.cu");
    path_in(h, sizeof h, "split.h");
    path_in(obj, sizeof obj, "split.o");
    convtune(&r, "export", "--problem", specs[2], "--db", "t.db", "-o", cu, NULL);
    CHECK_MSG(r.code == 0, "export --problem %s: exit %d: %s", specs[2], r.code, r.err);
    tc_result_free(&r);
    s = tc_slurp(cu, NULL);
    contains(s, "#define SPLIT_K 2", cu);
    contains(s, "#define CT_GRID_Z 2", cu);
    contains(s, "cudaMalloc((void **)&ct_ws, (size_t)CT_GRID_Z * 18720ULL * sizeof(float))", cu);
    contains(s, "(const ct_elem *)weight, ct_ws, ct_tmaps[0]);", cu);
    contains(s, "TC_CAT(conv2dc_tc16gktcl, _reduce)<<<19, 256, 0, stream>>>(ct_ws, (const ct_elem *)bias, "
                "(ct_elem *)out);", cu);
    free(s);
    compiles(cu, h, obj);

    path_in(cu, sizeof cu, "fam.cu");
    path_in(h, sizeof h, "fam.h");
    path_in(obj, sizeof obj, "fam.o");
    convtune(&r, "export", "--family", "conv2dc", "--dtype", "bf16", "--db", "t.db", "-o", cu, NULL);
    CHECK_MSG(r.code == 0, "export --family conv2dc: exit %d: %s", r.code, r.err);
    tc_result_free(&r);
    compiles(cu, h, obj);

    /* fp32 (3xTF32): CT_TF32X3 defined by the template, float pointers, the
     * map FLOAT32 with 32-channel boxes (Cin 36: 144-byte pixels). */
    path_in(cu, sizeof cu, "fp32.cu");
    path_in(h, sizeof h, "fp32.h");
    path_in(obj, sizeof obj, "fp32.o");
    convtune(&r, "export", "--problem", fp32, "--db", "t.db", "-o", cu, NULL);
    CHECK_MSG(r.code == 0, "export --problem %s: exit %d: %s", fp32, r.code, r.err);
    tc_result_free(&r);
    s = tc_slurp(cu, NULL);
    contains(s, "#define CT_TF32X3 1", cu);
    contains(s, "CU_TENSOR_MAP_DATA_TYPE_FLOAT32", cu);
    contains(s, "dims0[] = {36ull, 16ull, 16ull, 2ull}, strides0[] = {144ull, 2304ull, 36864ull}", cu);
    contains(s, "box0[] = {32u, 8u, 8u, 1u}", cu);
    contains(s, "(in, weight, bias, out, ct_tmaps[0]);", cu);
    CHECK_MSG(strstr(s, "#define CT_TF32 ") == NULL, "%s defines CT_TF32", cu);
    free(s);
    compiles(cu, h, obj);
    CHECK_DONE();
}
