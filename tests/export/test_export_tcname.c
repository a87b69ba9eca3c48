/* test_export_tcname.c - family exports whose problems share a template
 * whose kernel is named through a macro (the tensor-core templates'
 * `#define TC_NAME conv1dc_tc`), without a GPU. The family export renames
 * each problem's kernels; renaming the macro did not hold (the template
 * defines it again after the rename), so two problems won by conv1dc_tc
 * declared one extern "C" kernel twice and the export did not compile (seen
 * on an H100, 2026-11-26, in gpu_torch's conv1dc family module). A database
 * holds two fp32 conv1dc problems won by conv1dc_tc and two bf16 ones won
 * by conv1dc_tc16wb; each family export must rename the kernels themselves,
 * once per problem, and compile with nvcc (a prerequisite: without it the
 * test fails). */
#include "export_common.h"
#define CT_EXPORT_TEST_NAME "export_tcname"
#include "export_run.h"

#define DEV "NVIDIA Test TC GPU"

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s ? strstr(s, what) : NULL; p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* The export of family conv1dc in dtype (NULL: fp32) into cu: renamed
 * kernels, and an nvcc compile for arch (its -gencode). */
static void check(const char *dtype, const char *kernel, const char *const *suffixes, const char *gencode)
{
    char cu[600], h[600], obj[600], want[300];
    path_in(cu, sizeof cu, dtype ? "f16.cu" : "f32.cu");
    path_in(h, sizeof h, dtype ? "f16.h" : "f32.h");
    path_in(obj, sizeof obj, dtype ? "f16.o" : "f32.o");
    tc_result r;
    if (dtype)
        convtune(&r, "export", "--family", "conv1dc", "--dtype", dtype, "--db", "t.db", "-o", cu, NULL);
    else
        convtune(&r, "export", "--family", "conv1dc", "--db", "t.db", "-o", cu, NULL);
    CHECK_MSG(r.code == 0, "export --family conv1dc %s: exit %d: %s", dtype ? dtype : "", r.code, r.err);
    tc_result_free(&r);
    char *s = tc_slurp(cu, NULL);
    for (int i = 0; i < 2; i++) {
        snprintf(want, sizeof want, "#define %s %s_%s\n", kernel, kernel, suffixes[i]);
        contains(s, want, cu);
    }
    snprintf(want, sizeof want, "#define %s ", kernel);
    CHECK_MSG(count(s, want) == 2, "%s: %d renames of %s, want 2", cu, count(s, want), kernel);
    lacks(s, "#define TC_NAME TC_NAME_", cu);
    free(s);
    CHECK_MSG(nvcc_with_header(gencode, h, cu, obj) == 0,
              "nvcc -c %s failed: two problems of %s do not compile together", cu, kernel);
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
    const ct_device_info dev = tc_device(DEV, "GPU-3333-test", 9, 0, 13000);
    static const struct {
        const char *spec, *tmpl;
    } rows[] = {
        {"conv1dc:2:32:40:24:3:pad=1:bias", "conv1dc_tc"},
        {"conv1dc:1:16:64:32:5:pad=2", "conv1dc_tc"},
        {"conv1dc:1:64:4:40:5:pad=2:bias:f16", "conv1dc_tc16wb"},
        {"conv1dc:2:48:4:24:3:pad=1:f16", "conv1dc_tc16wb"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const ct_result r = tc_first_values(rows[i].spec, rows[i].tmpl, 5.0 + (double)i);
        tc_add_run(db, &dev, rows[i].spec, &r, 1);
    }
    ct_db_close(db);
    static const char *const f32[] = {"conv1dc_2_32_40_24_3_pad_1_bias", "conv1dc_1_16_64_32_5_pad_2"};
    static const char *const f16[] = {"conv1dc_1_64_4_40_5_pad_2_bias_f16", "conv1dc_2_48_4_24_3_pad_1_f16"};
    check(NULL, "conv1dc_tc", f32, "-gencode=arch=compute_90a,code=sm_90a");
    check("f16", "conv1dc_tc16wb", f16, "-gencode=arch=compute_90a,code=sm_90a");
    CHECK_DONE();
}
