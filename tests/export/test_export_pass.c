/* test_export_pass.c - exports of a layer's training passes (conv_pass.h)
 * without a GPU: a database holding winners of dgrad and wgrad problems
 * (a bias gradient and a channels-last bf16 layer among them) next to a
 * forward layer. `export --problem` of a pass gives a .cu whose launcher
 * takes the pass's buffers (dout, weight -> din; in, dout -> dweight), whose
 * self-test carries the pass's CPU reference, and which nvcc builds with the
 * self-test (linked, not run); the header declares the same launcher.
 * `export --family` holds the forward layer alone (the selector's buffers
 * are the forward pass's), and refuses a database of passes alone, naming
 * what it lacks. nvcc is a prerequisite: without it the test fails. */
#include "export.h"
#include "export_common.h"

static tl_workdir wd;

static int run_ct(tc_result *r, ...)
{
    va_list ap;
    va_start(ap, r);
    tc_convtune_v(wd.work, wd.base, 120, r, ap);
    va_end(ap);
    return r->code;
}

static char *in_work(const char *name)
{
    static char path[16][700];   /* every path of a run stays valid: the passes, databases, exports */
    static int k;
    k = (k + 1) % 16;
    tl_path(path[k], sizeof path[k], wd.work, name);
    return path[k];
}

static const struct {
    const char *spec, *tmpl, *file, *signature;
} passes[] = {
    {"conv2dc:2:5:13:11:5:7:7:same:groups=5:bias:wgrad", "conv2dc_wgnaive", "wg.cu",
     "const float *in, const float *dout, float *dweight"},
    {"conv2dc:2:6:9:11:4:3:2:pad=1,0:stride=2,3:groups=2:dgrad", "conv2dc_dgnaive", "dg.cu",
     "const float *dout, const float *weight, float *din"},
    {"conv1dc:3:16:41:16:4:causal:groups=16:nlc:wgrad:bf16", "conv1dc_wgnaive", "wg16.cu",
     "const void *in, const void *dout, void *dweight"},
    /* the SIMT implicit GEMMs' launchers (an executor's) in a half type: void pointers cast */
    {"conv2dc:2:8:9:11:8:3:3:pad=1:nhwc:dgrad:bf16", "conv2dc_dgsimt", "dgs16.cu",
     "const void *dout, const void *weight, void *din"},
    {"conv2dc:2:8:9:11:8:3:3:pad=1:bias:nhwc:wgrad:bf16", "conv2dc_wgsimt", "wgs16.cu",
     "const void *in, const void *dout, void *dweight"},
    /* the tensor-core depthwise wgrad: wgdwcl's launcher text for another executor's template */
    {"conv2dc:2:16:9:61:16:3:3:pad=1:groups=16:bias:nhwc:wgrad:bf16", "conv2dc_wgdw16cl", "wgt16.cu",
     "const void *in, const void *dout, void *dweight"},
};
#define NPASSES ((int)(sizeof passes / sizeof passes[0]))
#define FORWARD "conv2dc:2:5:13:11:5:7:7:same:groups=5:bias"

static void check_export(int i, const char *db)
{
    tc_result r;
    const char *cu = in_work(passes[i].file);
    CHECK_MSG(run_ct(&r, "export", "--problem", passes[i].spec, "--db", db, "-o", cu, NULL) == 0,
              "export %s: exit %d: %s", passes[i].spec, r.code, r.err);
    tc_result_free(&r);
    char *text = tc_slurp(cu, NULL);
    CHECK_MSG(text != NULL, "%s not written", cu);
    if (!text)
        return;
    CHECK_MSG(strstr(text, passes[i].signature) != NULL, "%s: the launcher lacks (%s)", cu, passes[i].signature);
    CHECK_MSG(strstr(text, "#define CONV_PASS") != NULL, "%s: no CONV_PASS", cu);
    /* The self-test checks against the pass's reference, not the forward one. */
    CHECK_MSG(strstr(text, "#if CONV_PASS == 1") != NULL, "%s: the self-test's reference is not the pass's", cu);
    free(text);
    char h[700];
    ct_export_header_path(cu, h, sizeof h);
    char *ht = tc_slurp(h, NULL);
    CHECK_MSG(ht && strstr(ht, passes[i].signature) != NULL, "%s: the header declares another launcher", h);
    free(ht);
    char exe[700];
    snprintf(exe, sizeof exe, "%s.selftest", cu);
    char *argv[] = {"nvcc", "-gencode=arch=compute_90a,code=sm_90a", "-DCONVTUNE_SELFTEST", (char *)cu, "-o", exe,
                    NULL};
    tc_run(argv, wd.work, wd.base, 300, &r);
    CHECK_MSG(r.code == 0, "nvcc %s: exit %d: %.3000s%.3000s", cu, r.code, r.out, r.err);
    tc_result_free(&r);
}

int main(void)
{
    if (tl_workdir_make(&wd, "export_pass") != 0)
        return 1;
    char nvcc_path[600];
    if (!tl_which("nvcc", nvcc_path, sizeof nvcc_path))
        CHECK_MSG(0, "nvcc is not on PATH: the CUDA toolkit's compiler is a prerequisite of this test");
    const ct_device_info d = tc_device("NVIDIA Test Pass GPU", "GPU-00000000-pass", 9, 0, 13000);
    char *db_all = in_work("all.db"), *db_passes = in_work("passes.db");
    ct_db *db = NULL;
    ct_err e = {""};
    for (int which = 0; which < 2; which++) {
        const char *path = which ? db_passes : db_all;
        CHECK_MSG(ct_db_open(path, 1, &db, &e) == CT_OK, "%s: %s", path, e.msg);
        if (!db)
            CHECK_DONE();
        for (int i = 0; i < NPASSES; i++) {
            const ct_result rec = tc_first_values(passes[i].spec, passes[i].tmpl, 40.0 + i);
            tc_add_run(db, &d, passes[i].spec, &rec, 1);
        }
        if (!which) {
            const ct_result rec = tc_first_values(FORWARD, "conv2dc_naive", 9.0);
            tc_add_run(db, &d, FORWARD, &rec, 1);
        }
        ct_db_close(db);
    }
    for (int i = 0; i < NPASSES; i++)
        check_export(i, db_all);

    /* The family export: the forward layer's row alone in the table. */
    tc_result r;
    const char *fam = in_work("fam.cu");
    CHECK_MSG(run_ct(&r, "export", "--family", "conv2dc", "--db", db_all, "-o", fam, NULL) == 0,
              "export --family: exit %d: %s", r.code, r.err);
    tc_result_free(&r);
    char *text = tc_slurp(fam, NULL);
    CHECK_MSG(text && strstr(text, "{2LL, 5LL, 13LL, 11LL, 5LL, 7LL, 7LL,") != NULL, "%s: the forward row is missing",
              fam);
    CHECK_MSG(text && !strstr(text, "{2LL, 6LL, 9LL, 11LL, 4LL,"), "%s: a dgrad problem entered the selector", fam);
    free(text);
    CHECK(run_ct(&r, "export", "--family", "conv2dc", "--db", db_passes, "-o", in_work("none.cu"), NULL) != 0);
    CHECK_MSG(tl_one_line(&r) && strstr(r.err, "no tuned conv2dc problem") != NULL, "stderr: %s", r.err);
    CHECK(!tc_exists(in_work("none.cu")));
    tc_result_free(&r);
    tl_workdir_remove(&wd);
    CHECK_DONE();
}
