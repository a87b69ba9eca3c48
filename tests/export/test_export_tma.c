/* test_export_tma.c - exports of a kernel that takes a TMA tensor map
 * (conv2dc_tc16gktcl), without a GPU. The launcher must encode the map at
 * call time from the caller's input pointer through the runtime's driver
 * entry point (no -lcuda), with the model's box, element strides and
 * swizzle, and pass it after the buffers; the single and the family export
 * must compile with nvcc for sm_90a (a prerequisite: without nvcc the test
 * fails). The first record is stored as the convtune before split-K stored
 * it (no SPLIT_K among its parameters, that convtune's code hash): it must
 * still export, as one launch. A split-K record (SPLIT_K=2) exports its
 * workspace, the main kernel into it and the reduce with the bias. WPRE=1
 * records, alone and with a split, export the prep's workspace and launch
 * at every call, the main kernel reading the workspace for the weights. */
#include "export_common.h"
#define CT_EXPORT_TEST_NAME "export_tma"
#include "export_run.h"

#define DEV "NVIDIA Test TMA GPU"

/* convtune export of spec (NULL: the conv2dc bf16 family) into STEM.cu,
 * compiled with nvcc; its text (free it; NULL where it failed). */
static char *exported(const char *spec, const char *stem)
{
    char cu[600], h[600], obj[600], name[64];
    snprintf(name, sizeof name, "%s.cu", stem);
    path_in(cu, sizeof cu, name);
    snprintf(name, sizeof name, "%s.h", stem);
    path_in(h, sizeof h, name);
    snprintf(name, sizeof name, "%s.o", stem);
    path_in(obj, sizeof obj, name);
    tc_result r;
    if (spec)
        convtune(&r, "export", "--problem", spec, "--db", "t.db", "-o", cu, NULL);
    else
        convtune(&r, "export", "--family", "conv2dc", "--dtype", "bf16", "--db", "t.db", "-o", cu, NULL);
    CHECK_MSG(r.code == 0, "export %s: exit %d: %s", spec ? spec : "--family conv2dc", r.code, r.err);
    tc_result_free(&r);
    CHECK_MSG(nvcc_with_header("-gencode=arch=compute_90a,code=sm_90a", h, cu, obj) == 0, "nvcc -c %s failed", cu);
    return tc_slurp(cu, NULL);
}

int main(void)
{
    if (!scratch_dirs())
        return 1;
    if (!nvcc_on_path())
        CHECK_DONE();
    ct_db *db = scratch_db();
    if (!db)
        CHECK_DONE();
    const ct_device_info dev = tc_device(DEV, "GPU-4444-test", 9, 0, 13000);
    /* Stride 2 down (an element stride of 2), bias; a second size for the
     * family export. */
    static const char *const specs[] = {"conv2dc:1:72:9:13:40:3:3:pad=1:stride=2,1:bias:nhwc:bf16",
                                        "conv2dc:2:64:16:16:64:3:3:same:bias:nhwc:bf16",
                                        "conv2dc:2:256:10:13:72:3:3:same:bias:nhwc:bf16",
                                        "conv2dc:1:128:7:7:96:3:3:same:nhwc:bf16",
                                        "conv2dc:2:192:7:7:64:3:3:same:bias:nhwc:bf16",
                                        "conv2dc:2:128:14:14:128:3:3:same:bias:nhwc:bf16"};
    /* The overrides of each: the tile and stages, then SPLIT_K=2 (spec 2
     * and 4), WPRE=1 (spec 3 and 4); WPRE=2 (spec 5). */
    static const tc_param over[] = {{"TILE_OH", 8}, {"TILE_OW", 8}, {"STAGES", 3}, {"SPLIT_K", 2}, {"WPRE", 1}};
    static const tc_param over_wpre[] = {{"TILE_OH", 8}, {"TILE_OW", 8}, {"STAGES", 3}, {"WPRE", 1}};
    static const tc_param over_wpre2[] = {{"TILE_OH", 8}, {"TILE_OW", 8}, {"STAGES", 6}, {"WPRE", 2}};
    for (size_t i = 0; i < 6; i++) {
        char hash[17], params[512] = "{}";
        tc_template_hash("conv2dc_tc16gktcl", hash);
        if (i == 3 || i == 5)
            tc_params(specs[i], "conv2dc_tc16gktcl", i == 3 ? over_wpre : over_wpre2, 4, params, sizeof params);
        else
            tc_params(specs[i], "conv2dc_tc16gktcl", over, i == 2 ? 4 : i == 4 ? 5 : 3, params, sizeof params);
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

    /* Each export and what its launcher must hold; NULL: the family's. */
    const struct {
        const char *spec, *stem, *want[6], *bad;
    } exports[] = {
        /* The NHWC input as [C][W][H][B]; 8x8 output pixels, stride 2 down:
         * 16 rows traversed by steps of 2; the 128-byte swizzle. */
        {specs[0], "one",
         {"cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\"",
          "dims0[] = {72ull, 13ull, 9ull, 1ull}, strides0[] = {144ull, 1872ull, 16848ull}",
          "box0[] = {64u, 8u, 16u, 1u}, estr0[] = {1u, 1u, 2u, 1u}", "CU_TENSOR_MAP_SWIZZLE_128B",
          "(ct_elem *)out, ct_tmaps[0]);"},
         NULL},
        /* Split-K: the workspace (two slices of the output's floats), the
         * main kernel into it with the map, the reduce with the bias. */
        {specs[2], "split",
         {"#define SPLIT_K 2", "#define CT_GRID_Z 2",
          "cudaMalloc((void **)&ct_ws, (size_t)CT_GRID_Z * 18720ULL * sizeof(float))",
          "(const ct_elem *)weight, ct_ws, ct_tmaps[0]);",
          "TC_CAT(conv2dc_tc16gktcl, _reduce)<<<19, 256, 0, stream>>>(ct_ws, (const ct_elem *)bias, "
          "(ct_elem *)out);"},
         NULL},
        /* WPRE=1: 2 output channel blocks x 2 chunks of 9 taps x 64 rows x
         * 128 bytes of A images, written by the prep at every call. */
        {specs[3], "wpre",
         {"#define WPRE 1", "cudaMalloc(&ct_wp, 294912ULL)",
          "TC_CAT(conv2dc_tc16gktcl, _wprep)<<<dim3(16, 1), 128, 0, stream>>>((const ct_elem *)weight, "
          "(ct_elem *)ct_wp);",
          "(const ct_elem *)in, (const ct_elem *)ct_wp, (ct_elem *)out, ct_tmaps[0]);", "cudaFree(ct_wp);"},
         NULL},
        /* WPRE=1 with a split: the prep, the main kernel into the split's
         * workspace, the reduce with the bias. */
        {specs[4], "wsplit",
         {"cudaMalloc(&ct_wp, 221184ULL)", "TC_CAT(conv2dc_tc16gktcl, _wprep)<<<dim3(12, 1), 128, 0, stream>>>",
          "(const ct_elem *)in, (const ct_elem *)ct_wp, ct_ws, ct_tmaps[0]);",
          "TC_CAT(conv2dc_tc16gktcl, _reduce)<<<"},
         NULL},
        /* WPRE=2: the same prep (2 chunks of A images), the A copied into
         * the input stages. */
        {specs[5], "wpre2",
         {"#define WPRE 2", "cudaMalloc(&ct_wp, 294912ULL)",
          "TC_CAT(conv2dc_tc16gktcl, _wprep)<<<dim3(16, 1), 128, 0, stream>>>",
          "(const ct_elem *)in, (const ct_elem *)ct_wp, (const ct_elem *)bias, (ct_elem *)out, ct_tmaps[0]);"},
         NULL},
        {NULL, "fam", {NULL}, NULL},
        /* fp32 (3xTF32): CT_TF32X3 defined by the template, float
         * pointers, the map FLOAT32 with 32-channel boxes (Cin 36:
         * 144-byte pixels). */
        {fp32, "fp32",
         {"#define CT_TF32X3 1", "CU_TENSOR_MAP_DATA_TYPE_FLOAT32",
          "dims0[] = {36ull, 16ull, 16ull, 2ull}, strides0[] = {144ull, 2304ull, 36864ull}", "box0[] = {32u, 8u, 8u, 1u}",
          "(in, weight, bias, out, ct_tmaps[0]);"},
         "#define CT_TF32 "},
    };
    for (size_t i = 0; i < sizeof exports / sizeof exports[0]; i++) {
        char cu[80];
        snprintf(cu, sizeof cu, "%s.cu", exports[i].stem);
        char *s = exported(exports[i].spec, exports[i].stem);
        for (int k = 0; k < 6 && exports[i].want[k]; k++)
            contains(s, exports[i].want[k], cu);
        if (exports[i].bad)
            lacks(s, exports[i].bad, cu);
        free(s);
    }
    CHECK_DONE();
}
