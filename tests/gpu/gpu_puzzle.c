/* gpu_puzzle.c - exact outputs of seed 001's two puzzles, for the naive
 * kernel and a spread of tuned-template configurations, through the library
 * (compile, load, verify, read back). */
#include "compile.h"
#include "gpu_common.h"
#include "space.h"

static int run_one(ct_gpu *g, const char *spec, const float *a, const float *b, const float *expect,
                   const ct_config *cfg)
{
    ct_problem p;
    ct_err e;
    if (ct_problem_parse(spec, &p, &e) != CT_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    const float *inputs[3] = {a, b, NULL};
    ct_workload w;
    if (ct_workload_create(g, &p, 1, inputs, NULL, &w, &e) != CT_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    ct_space sp;
    if (ct_space_build(&p, cfg, &g->lim, NULL, &sp, &e) != CT_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    ct_space_sample(&sp, 64, 12345);
    ct_define defs[CT_MAX_DEFINES];
    int nd = p.family->defines(&p, defs);
    size_t nout = ct_problem_output_count(&p);
    int tried = 0;
    for (int i = 0; i < sp.n; i++) {
        char *src;
        ct_binary bin;
        const ct_template *t = sp.cand[i].tmpl;
        CHECK(ct_template_source(t->name, NULL, &src, &e) == CT_OK);
        CHECK_MSG(ct_nvrtc_compile(src, t->name, g->arch, defs, nd, &sp.cand[i].params, &bin, &e) == CT_OK,
                  "%s", e.msg);
        free(src);
        ct_result o;
        ct_result_init(&o);
        CHECK(ct_run_candidate(g, &w, t, &sp.cand[i].params, &bin, &cfg->s, &o, &e) == CT_OK);
        ct_binary_free(&bin);
        char key[512];
        ct_params_to_key(&sp.cand[i].params, key, sizeof key);
        CHECK_MSG(o.status == CT_RS_OK, "%s %s %s: %s %s", spec, t->name, key, ct_result_status_name(o.status), o.error);
        const float *out = w.host[w.out_index];
        for (size_t k = 0; k < nout; k++)
            CHECK_MSG(out[k] == expect[k], "%s %s %s: out[%zu] = %g, expected %g", spec, t->name, key, k,
                      out[k], expect[k]);
        tried++;
    }
    printf("%s: %d candidates give the exact puzzle output\n", spec, tried);
    ct_space_free(&sp);
    ct_workload_free(g, &w);
    return 0;
}

int main(void)
{
    ct_gpu g;
    gpu_or_skip(&g);
    ct_config cfg;
    ct_err e;
    CHECK(ct_config_init(&cfg, &e) == CT_OK);
    cfg.s.min_reps = 2;
    cfg.s.min_time_ms = 0;
    cfg.s.warmup = 0;

    const float a6[6] = {0, 1, 2, 3, 4, 5}, b3[3] = {0, 1, 2};
    const float e6[6] = {5, 8, 11, 14, 5, 0};
    run_one(&g, "conv1d:6:3:right", a6, b3, e6, &cfg);

    float a15[15], b4[4] = {0, 1, 2, 3};
    for (int i = 0; i < 15; i++)
        a15[i] = (float)i;
    const float e15[15] = {14, 20, 26, 32, 38, 44, 50, 56, 62, 68, 74, 80, 41, 14, 0};
    run_one(&g, "conv1d:15:4:right", a15, b4, e15, &cfg);
    ct_gpu_close(&g);
    CHECK_DONE();
}
