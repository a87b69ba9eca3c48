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

/* A stored record: its template, problem, parameters in declaration order
 * but FPRE, FPRE (-1: left out, as stored before it) and, for those, the
 * code hash that convtune at commit aa309f9, before FPRE, gave it; then
 * lines its single export's launcher must hold. */
typedef struct wino_case {
    const char *tmpl, *spec, *vals;
    int fpre;
    const char *code_hash;
    const char *want[4];
} wino_case;

#define W4_VALS(tm, tn, rm, rn, ck, pf, st)                                                                  \
    "\"TILE_M\":" #tm ",\"TILE_N\":" #tn ",\"THREAD_M\":" #rm ",\"THREAD_N\":" #rn ",\"CHUNK_K\":" #ck          \
    ",\"PREFETCH\":" #pf ",\"STAGES\":" #st ",\"MIN_BLOCKS\":1"
#define WN_VALS(tm, tn, rm, rn, ck, st)                                                                      \
    "\"TILE_M\":" #tm ",\"TILE_N\":" #tn ",\"THREAD_M\":" #rm ",\"THREAD_N\":" #rn ",\"CHUNK_K\":" #ck          \
    ",\"STAGES\":" #st ",\"MIN_BLOCKS\":1"
#define ONE_LAUNCH(k)                                                                                        \
    k "<<<dim3(CT_GRID_X, CT_GRID_Y, CT_GRID_Z), CT_BLOCK_X, CT_SMEM_BYTES, stream>>>(in, weight, bias, out);"

static const wino_case cases[] = {
    /* Before FPRE: the one launch. */
    {"conv2dc_wino4", "conv2dc:2:12:9:11:20:3:3:same:groups=2:bias", W4_VALS(16, 16, 8, 4, 4, 1, 2), -1,
     "9dc54a2d591cb4ab", {"#define FPRE 0", "// Nothing is kept between calls.", ONE_LAUNCH("conv2dc_wino4")}},
    /* 2 channel blocks x 16 chunks of 4 x 32 filters, 36 floats each, one
     * prep thread a filter. */
    {"conv2dc_wino4", "conv2dc:2:64:16:16:64:3:3:same:bias", W4_VALS(32, 16, 8, 4, 4, 1, 1), 1, NULL,
     {"cudaMalloc(&ct_wp, 589824ULL)",
      "W4_CAT(conv2dc_wino4, _fprep)<<<dim3(16, 1, 1), 256, 0, stream>>>(weight, (float *)ct_wp);",
      "stream>>>(in, (const float *)ct_wp, bias, out);", "cudaFree(ct_wp);"}},
    /* bf16, channels last, no bias: the casts, the fp32 workspace. */
    {"conv2dc_wino4", "conv2dc:1:24:10:13:40:3:3:same:nhwc:bf16", W4_VALS(32, 8, 8, 4, 8, 0, 2), 1, NULL,
     {"#define FPRE 1", ">>>((const ct_elem *)weight, (float *)ct_wp);",
      "stream>>>((const ct_elem *)in, (const float *)ct_wp, (ct_elem *)out);"}},
    {"conv2dc_wino", "conv2dc:1:16:12:12:32:3:3:same:bias", WN_VALS(16, 16, 4, 8, 4, 2), -1, "75c31f9b37020a4f",
     {ONE_LAUNCH("conv2dc_wino")}},
    /* 2 channel blocks x 4 chunks of 8 x 32 filters, 16 floats each. */
    {"conv2dc_wino", "conv2dc:2:32:14:14:64:3:3:same:nhwc", WN_VALS(32, 32, 8, 8, 8, 1), 1, NULL,
     {"cudaMalloc(&ct_wp, 131072ULL)",
      "WN_CAT(conv2dc_wino, _fprep)<<<dim3(8, 1, 1), 256, 0, stream>>>(weight, (float *)ct_wp);",
      "stream>>>(in, (const float *)ct_wp, out);"}},
};

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

/* convtune export --problem SPEC, or --family conv2dc --dtype DTYPE where
 * dtype is set, into NAME.cu, which must compile. */
static void export_compiles(const char *name, const char *spec, const char *dtype, char *cu, size_t len)
{
    char f[64], h[600], obj[600];
    snprintf(f, sizeof f, "%s.cu", name);
    path_in(cu, len, f);
    snprintf(f, sizeof f, "%s.h", name);
    path_in(h, sizeof h, f);
    snprintf(f, sizeof f, "%s.o", name);
    path_in(obj, sizeof obj, f);
    tc_result r;
    if (dtype)
        convtune(&r, "export", "--family", "conv2dc", "--dtype", dtype, "--db", "t.db", "-o", cu, NULL);
    else
        convtune(&r, "export", "--problem", spec, "--db", "t.db", "-o", cu, NULL);
    CHECK_MSG(r.code == 0, "export %s: exit %d: %s", dtype ? dtype : spec, r.code, r.err);
    tc_result_free(&r);
    CHECK_MSG(nvcc_with_header("-gencode=arch=compute_75,code=sm_75", h, cu, obj) == 0, "nvcc -c %s failed", cu);
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
    const ct_device_info dev = tc_device(DEV, "GPU-7575-test", 7, 5, 13000);
    const size_t n = sizeof cases / sizeof cases[0];
    for (size_t i = 0; i < n; i++) {
        ct_result r = wino_rec(&cases[i], 5.0 + (double)i);
        tc_add_run(db, &dev, cases[i].spec, &r, 1);
    }
    ct_db_close(db);

    char cu[600];
    for (size_t i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "one%zu", i);
        export_compiles(name, cases[i].spec, NULL, cu, sizeof cu);
        char *s = tc_slurp(cu, NULL);
        for (int k = 0; k < 4 && cases[i].want[k]; k++)
            contains(s, cases[i].want[k], cu);
        free(s);
    }
    export_compiles("fam_f32", NULL, "f32", cu, sizeof cu);
    export_compiles("fam_bf16", NULL, "bf16", cu, sizeof cu);
    CHECK_DONE();
}
