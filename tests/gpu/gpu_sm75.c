/* gpu_sm75.c - the T4's (sm_75) code paths on whatever GPU is at hand:
 * layers of every element type and both layouts, odd sizes, the space
 * restricted to what sm_75 admits (ct_limits_restrict, as `--arch-limit
 * sm_75`), a seeded sample of its candidates compiled to compute_75 PTX,
 * which the driver compiles for this GPU with __CUDA_ARCH__ 750: the f16
 * mma.sync kinds as two m16n8k8 steps with ordinary loads for cp.async,
 * conv*_simt on dense and channels-last layers with its ordinary-load
 * copies, conv*_simth in bf16, and conv2dc_wino4 alone (its own sample:
 * the whole space's would rarely draw it). Every candidate must verify against
 * the fp64 reference (the type's tolerance). Timings are not looked at. */
#include "compile.h"
#include "gpu_common.h"
#include "space.h"

#define PER_LAYER 14

static int run_layer(ct_gpu *g, const ct_limits *lim75, const char *spec, const char *only, int per,
                     const ct_config *cfg, int *ran)
{
    ct_problem p;
    ct_err e = {0};
    if (ct_problem_parse(spec, &p, &e) != CT_OK) {
        CHECK_MSG(0, "%s: %s", spec, e.msg);
        return 1;
    }
    ct_workload w;
    if (ct_workload_create(g, &p, 7, NULL, NULL, &w, &e) != CT_OK) {
        CHECK_MSG(0, "%s: %s", spec, e.msg);
        return 1;
    }
    ct_space sp;
    if (ct_space_build(&p, cfg, lim75, only, &sp, &e) != CT_OK) {
        CHECK_MSG(0, "%s: %s", spec, e.msg);
        ct_workload_free(g, &w);
        return 1;
    }
    int tuned = 0;
    for (int i = 0; i < sp.n; i++)
        tuned += !sp.cand[i].tmpl->is_baseline;
    CHECK_MSG(tuned > 0, "%s: no tuned candidate on sm_75", spec);
    ct_space_sample(&sp, per, 75);
    ct_define defs[CT_MAX_DEFINES];
    const int nd = ct_problem_defines(&p, defs);
    for (int i = 0; i < sp.n; i++) {
        const ct_template *t = sp.cand[i].tmpl;
        if (t->is_baseline)
            continue;
        char *src = NULL, key[512];
        ct_binary bin = {0};
        ct_params_to_key(&sp.cand[i].params, key, sizeof key);
        CHECK(ct_template_source(t->name, NULL, &src, &e) == CT_OK);
        const ct_status rc = ct_nvrtc_compile(src, t->name, "compute_75", defs, nd, &sp.cand[i].params, &bin, &e);
        free(src);
        CHECK_MSG(rc == CT_OK, "%s %s %s: %s", spec, t->name, key, e.msg);
        if (rc != CT_OK)
            continue;
        ct_result o;
        ct_result_init(&o);
        CHECK(ct_run_candidate(g, &w, t, &sp.cand[i].params, &bin, &cfg->s, &o, &e) == CT_OK);
        ct_binary_free(&bin);
        CHECK_MSG(o.status == CT_RS_OK, "%s %s %s: %s %s", spec, t->name, key, ct_result_status_name(o.status),
                  o.error);
        printf("%s %s %s: %s\n", spec, t->name, key, ct_result_status_name(o.status));
        (*ran)++;
    }
    ct_space_free(&sp);
    ct_workload_free(g, &w);
    return 0;
}

int main(void)
{
    ct_gpu g;
    gpu_or_skip(&g);
    ct_limits lim75 = g.lim;
    ct_err e = {0};
    if (ct_limits_restrict(&lim75, "sm_75", &e) != CT_OK) {
        printf("SKIPPED: %s\n", e.msg);   /* a GPU older than sm_75 */
        ct_gpu_close(&g);
        return 77;
    }
    ct_config cfg;
    CHECK(ct_config_init(&cfg, &e) == CT_OK);
    cfg.s.min_reps = 1;
    cfg.s.min_time_ms = 0;
    cfg.s.warmup = 0;
    static const char *const layers[] = {
        /* fp32: conv2dc_simt dense (NCHW, NHWC), grouped and strided channels last, conv1dc NLC */
        "conv2dc:2:19:13:11:21:3:3:same:bias",
        "conv2dc:2:17:9:11:24:3:3:same:nhwc",
        "conv2dc:2:12:15:13:20:3:3:pad=1:stride=2:groups=2:bias:nhwc",
        "conv1dc:2:12:37:20:5:pad=4:dilation=2:bias:nlc",
        /* f16: the mma.sync kinds (two m16n8k8 steps) */
        "conv2dc:2:32:13:11:40:3:3:same:bias:f16",
        "conv2dc:2:32:13:11:48:3:3:pad=1:stride=2:nhwc:f16",
        "conv2dc:1:64:3:3:64:3:3:same:f16",
        "conv1dc:2:32:50:40:3:pad=1:f16",
        /* bf16: conv*_simth alone (no bf16 mma on sm_75) */
        "conv2dc:2:19:13:11:21:3:3:same:bias:bf16",
        "conv2dc:2:12:15:13:20:3:3:pad=2:dilation=2:groups=2:nhwc:bf16",
        "conv1dc:2:12:37:20:5:pad=2:stride=2:nlc:bf16",
    };
    int ran = 0;
    for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
        run_layer(&g, &lim75, layers[i], NULL, PER_LAYER, &cfg, &ran);
    /* conv2dc_wino4 (Winograd F(4x4,3x3)) alone: odd sizes (4x4 tiles past
     * the output's edge), bias, channels last, groups, bf16; fewer a layer
     * (NVRTC takes seconds over its unrolled transforms). */
    static const char *const wino4[] = {
        "conv2dc:3:40:19:23:24:3:3:same:bias",
        "conv2dc:2:21:14:17:30:3:3:same:nhwc",
        "conv2dc:2:36:13:17:42:3:3:pad=2:groups=3:bias",
        "conv2dc:2:24:11:15:20:3:3:same:bias:bf16",
    };
    for (size_t i = 0; i < sizeof wino4 / sizeof wino4[0]; i++)
        run_layer(&g, &lim75, wino4[i], "conv2dc_wino4", 6, &cfg, &ran);
    printf("%d sm_75 candidates run as compute_75 PTX on %s\n", ran, g.arch);
    CHECK(ran >= 40);
    ct_gpu_close(&g);
    CHECK_DONE();
}
