/* conv1dc_replay.h - what the CPU replays of conv1dc's FMA templates share
 * (templates/kernels/tiled/test_tiled_conv.c, templates/kernels/gemm/
 * test_gemm_conv.c) and test_family_conv1dc: the layer's sizes from a
 * problem, and the driver that replays a template's decomposition on every
 * candidate of its space (sm_90 limits) over a battery of odd layers, on
 * random inputs, against the family's fp64 reference. The decompositions
 * sum the same doubles in other orders: 1e-13 still separates a wrong index
 * from rounding. */
#ifndef CONV1DC_REPLAY_H
#define CONV1DC_REPLAY_H

#include "check.h"
#include "config.h"
#include "data.h"
#include "problem.h"
#include "runner.h"
#include "space.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct shape {
    long long b, cin, l, cout, k, pad, bias, lout;
} shape;

static inline shape shape_of(const ct_problem *p)
{
    const long long *d = p->dims;
    const long long pad = ct_problem_value(p, "pad");
    /* PyTorch's output length, with causal's (K-1) x D zeros before. */
    const long long dil = ct_problem_value(p, "dilation"), stride = ct_problem_value(p, "stride");
    const long long zeros = ct_problem_value(p, "causal") ? (d[4] - 1) * dil : 2 * pad;
    return (shape){d[0], d[1], d[2], d[3], d[4], pad, ct_problem_value(p, "bias"),
                   (d[2] + zeros - dil * (d[4] - 1) - 1) / stride + 1};
}

/* One candidate's decomposition: out (the output's count) from x, w and
 * bias (NULL without one). Unwritten outputs stay NaN. */
typedef void (*replay_fn)(const shape *s, const ct_params *c, const float *x, const float *w, const float *bias,
                          double *out);

/* Replays every candidate of template tmpl against the reference output
 * want, reporting at most three that differ. */
static inline void replay_space(const ct_problem *p, const shape *s, const char *tmpl, replay_fn replay,
                                float *const *in, const double *want, double *got, size_t nout)
{
    ct_config cfg;
    ct_limits lim;
    ct_space sp;
    ct_err e;
    CHECK(ct_config_init(&cfg, &e) == CT_OK);
    CHECK(ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
    CHECK(ct_space_build(p, &cfg, &lim, tmpl, &sp, &e) == CT_OK);
    CHECK_MSG(sp.n > 0, "%s: empty %s space", p->canonical, tmpl);
    int bad = 0;
    for (int i = 0; i < sp.n && bad < 3; i++) {
        replay(s, &sp.cand[i].params, in[0], in[1], s->bias ? in[2] : NULL, got);
        double err = tl_relerr(got, want, nout);
        if (!(err <= 1e-13)) {
            char key[512];
            ct_params_to_key(&sp.cand[i].params, key, sizeof key);
            CHECK_MSG(0, "%s %s %s: replay relerr %.3g", p->canonical, tmpl, key, err);
            bad++;
        }
    }
    printf("%s: %d %s candidates replayed\n", p->canonical, sp.n, tmpl);
    ct_space_free(&sp);
}

/* tmpl's decomposition over its whole constrained space on each layer of
 * the battery (odd sizes, one input or output channel, K = 1, padding,
 * bias), against the family's reference (test_conformance holds that to
 * the definition). */
static inline void conv1dc_replay_all(const char *tmpl, replay_fn replay)
{
    static const char *const shapes[] = {
        "conv1dc:1:3:17:5:1",      "conv1dc:2:7:33:9:7:pad=3:bias", "conv1dc:1:1:1:1:1",
        "conv1dc:3:5:11:6:4:pad=2", "conv1dc:1:37:4:13:5:pad=2:bias", "conv1dc:5:9:70:3:3:pad=1:bias",
        "conv1dc:2:16:4:8:5:pad=2", "conv1dc:1:2:3:2:7:pad=2:bias",  "conv1dc:3:33:19:5:1:bias",
    };
    unsigned long long rng = tl_seed(0x9E3779B97F4A7C15ULL);
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        ct_problem p;
        ct_err e;
        memset(&e, 0, sizeof e);
        CHECK_MSG(ct_problem_parse(shapes[k], &p, &e) == CT_OK, "%s: %s", shapes[k], e.msg);
        const shape s = shape_of(&p);
        ct_buffer bufs[CT_MAX_BUFS];
        const int nb = p.family->buffers(&p, bufs);
        float *in[CT_MAX_BUFS] = {0};
        for (int i = 0; i < nb - 1; i++) {
            in[i] = malloc(bufs[i].count * sizeof(float));
            tl_fill(in[i], bufs[i].count, &rng);
        }
        const size_t nout = bufs[nb - 1].count;
        double *want = malloc(nout * sizeof *want), *got = malloc(nout * sizeof *got);
        p.family->reference(&p, (const float *const *)in, want);
        replay_space(&p, &s, tmpl, replay, in, want, got, nout);
        for (int i = 0; i < nb - 1; i++)
            free(in[i]);
        free(want);
        free(got);
    }
}

#endif
