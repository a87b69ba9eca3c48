/* tc16_replay.h - what the CPU replays of the half-precision tensor-core
 * templates share (the replay tests of tests/ and of the kernel folders,
 * templates/kernels/K/test_K_conv.c): bf16 bits, the layer from a problem's
 * macros, the mma m16n8k16 operand layouts in fp64,
 * sampled candidates, and the driver that runs a kernel's replay on random
 * bf16 inputs against the family's fp64 reference.
 *
 *   mma m16n8k16 (row.col): a0..a7 = A[g][2t..2t+1], A[g+8][2t..2t+1],
 *     A[g][2t+8..2t+9], A[g+8][2t+8..2t+9]; b0..b3 = B[2t..2t+1][g],
 *     B[2t+8..2t+9][g]; c0..c3 = C[g][2t..2t+1], C[g+8][2t..2t+1].
 *
 * The inputs are bf16 values and the products are summed in fp64, so only
 * the indexing can make a replay differ from the reference. */
#ifndef CT_TC16_REPLAY_H
#define CT_TC16_REPLAY_H

#include "check.h"
#include "config.h"
#include "data.h"
#include "runner.h"
#include "space.h"
#include "tc_shape.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const uint16_t NAN16 = 0x7fc1;   /* a bf16 NaN: unwritten shared memory */

static inline float bf(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint16_t to_bf(float f)   /* exact for the values used here */
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16);
}

/* The layer as the family's tc hooks see it, from its macros. */
typedef struct layer {
    ct_tc_shape s;
    long long cin_g, cout_g, groups;
} layer;

static inline layer layer_of(const ct_problem *p)
{
    ct_define d[CT_MAX_DEFINES];
    const int nd = ct_problem_defines(p, d);
    const int two = !strcmp(p->family->name, "conv2dc");
    long long v[16];
    static const char *const n2[] = {"CONV_B", "CONV_CIN", "CONV_H", "CONV_W", "CONV_COUT", "CONV_KH", "CONV_KW",
                                     "CONV_OH", "CONV_OW", "CONV_PH", "CONV_PW", "CONV_SH", "CONV_SW", "CONV_DH",
                                     "CONV_DW", "CONV_GROUPS"};
    static const char *const n1[] = {"CONV_B", "CONV_CIN", "-", "CONV_L", "CONV_COUT", "-", "CONV_K", "-",
                                     "CONV_LOUT", "-", "CONV_PAD", "-", "CONV_STRIDE", "-", "CONV_DIL",
                                     "CONV_GROUPS"};
    for (int k = 0; k < 16; k++) {
        v[k] = (k >= 11 || (!two && (k == 2 || k == 5 || k == 7))) ? 1 : 0;
        for (int i = 0; i < nd; i++)
            if (!strcmp(d[i].name, two ? n2[k] : n1[k]))
                v[k] = d[i].value;
    }
    layer l = {.s = {.b = v[0], .cin = v[1], .h = v[2], .w = v[3], .cout = v[4], .kh = v[5], .kw = v[6],
                     .oh = v[7], .ow = v[8], .ph = v[9], .pw = v[10], .sy = v[11], .sx = v[12], .dy = v[13],
                     .dx = v[14], .groups = v[15], .bias = (int)ct_problem_value(p, "bias")},
               .groups = v[15]};
    l.cin_g = l.s.cin / l.groups;
    l.cout_g = l.s.cout / l.groups;
    return l;
}

/* d[lane][0..3] += A * B from the lanes' fragments (a[lane][reg][half],
 * b[lane][reg][half]), in fp64. */
static inline void mma(double d[32][4], float a[32][4][2], float b[32][2][2])
{
    double A[16][16], B[16][8];
    for (int lane = 0; lane < 32; lane++) {
        const int g = lane / 4, t = lane % 4;
        for (int e = 0; e < 2; e++) {
            A[g][2 * t + e] = a[lane][0][e];
            A[g + 8][2 * t + e] = a[lane][1][e];
            A[g][2 * t + 8 + e] = a[lane][2][e];
            A[g + 8][2 * t + 8 + e] = a[lane][3][e];
            B[2 * t + e][g] = b[lane][0][e];
            B[2 * t + 8 + e][g] = b[lane][1][e];
        }
    }
    for (int lane = 0; lane < 32; lane++) {
        const int g = lane / 4, t = lane % 4;
        for (int r = 0; r < 4; r++) {
            const int row = g + 8 * (r / 2), col = 2 * t + r % 2;
            double s = 0;
            for (int k = 0; k < 16; k++)
                s += A[row][k] * B[k][col];
            d[lane][r] += s;
        }
    }
}

/* Up to n admissible candidates of t for p, drawn from the value lists;
 * any_dtype: also where t does not take p's element type (a kernel's code
 * kept for its replay, not admitted). */
static inline int sample_candidates_of(const ct_problem *p, const ct_template *t, const ct_config *cfg,
                                       const ct_limits *lim, int n, ct_params *out, unsigned long long *rng,
                                       int any_dtype)
{
    int got = 0;
    for (int tries = 0; tries < 4000 && got < n; tries++) {
        ct_params c = {0};
        for (int i = 0; i < t->nparams; i++) {
            const ct_space_list *l = ct_config_list(cfg, t, t->params[i].name);
            if (!l)
                return 0;
            ct_params_set(&c, t->params[i].name, l->vals[ct_rand_next(rng) % (unsigned long long)l->nvals], NULL);
        }
        p->family->normalize(p, t, &c);
        char why[256];
        if ((any_dtype || !ct_template_refuses_dtype(p, t, why, sizeof why)) &&
            !p->family->constrain(p, t, &c, lim, why, sizeof why))
            out[got++] = c;
    }
    return got;
}

static inline int sample_candidates(const ct_problem *p, const ct_template *t, const ct_config *cfg,
                                    const ct_limits *lim, int n, ct_params *out, unsigned long long *rng)
{
    return sample_candidates_of(p, t, cfg, lim, n, out, rng, 0);
}

/* The configuration's spaces and sm_90's limits, for the samples; 0 (after
 * saying why) when the configuration does not load. */
static inline int replay_setup(ct_config *cfg, ct_limits *lim)
{
    ct_err e = {0};
    if (ct_config_init(cfg, &e) != CT_OK) {
        fprintf(stderr, "config: %s\n", e.msg);
        return 0;
    }
    CHECK(ct_limits_for_arch("sm_90", lim, &e) == CT_OK);
    return 1;
}

/* The flags of a replay's compile with the host C++ compiler, and of the
 * precompiled headers it reads (GCC uses a .gch only with its flags). */
#define REPLAY_CXXFLAGS "-std=c++20 -O1 -w -pthread"

/* Into flags, the options that read the library headers every replay
 * includes precompiled (templates/kernels/replay_std.h, with CUDA's for a
 * half type: replay_cuda.h), as templates/kernels/replay_lib.sh's
 * replay_pch does: from $REPLAY_PCH_DIR where CTest's set-up made them (the
 * fixture ct_replay_pch), else made once in the folder scratch with cxx.
 * GCC uses a .gch only where it fits the compile and else reads the header
 * itself: at worst time is lost, never a different compile. */
static inline void replay_pch_flags(const char *cxx, const char *cuda_inc, const char *scratch, int half,
                                    char *flags, size_t len)
{
    const char *h = half ? "replay_cuda.h" : "replay_std.h", *env = getenv("REPLAY_PCH_DIR");
    char dir[1100], gch[1200], cmd[4096];
    snprintf(dir, sizeof dir, "%s", env && *env ? env : "");
    snprintf(gch, sizeof gch, "%s/%s.gch", dir, h);
    if (!dir[0] || access(gch, R_OK) != 0) {
        snprintf(dir, sizeof dir, "%s/pch", scratch);
        snprintf(gch, sizeof gch, "%s/%s.gch", dir, h);
        snprintf(cmd, sizeof cmd, "mkdir -p '%s' && %s " REPLAY_CXXFLAGS " -I'%s' -x c++-header '%s/templates/kernels/%s' -o '%s'",
                 dir, cxx, cuda_inc, CT_SOURCE_DIR, h, gch);
        if (access(gch, R_OK) != 0 && system(cmd) != 0)
            fprintf(stderr, "no precompiled %s (%s): the replays parse it each time\n", h, cmd);
    }
    snprintf(flags, len, "-I'%s' -include %s", dir, h);
}

/* One replay: the candidate's kernel run on the layer, every output it
 * writes set in out (fp64) and counted in writes. */
typedef struct replay_run {
    const ct_problem *p;
    const ct_template *t;
    const layer *L;
    const uint16_t *in, *w, *bias;
    double *out;
    int *writes;
} replay_run;
typedef void (*replay_fn)(const replay_run *r, const ct_params *c);

/* Replays up to `samples` sampled candidates of tmpl on spec's layer, each
 * on the same random bf16 inputs; every output must be written exactly
 * once and match the fp64 reference to 1e-12. */
static inline void replay_spec(const char *spec, const char *tmpl, int samples, const ct_config *cfg,
                               const ct_limits *lim, unsigned long long *rng, replay_fn one)
{
    ct_problem p;
    ct_err e = {0};
    CHECK_MSG(ct_problem_parse(spec, &p, &e) == CT_OK, "%s: %s", spec, e.msg);
    const ct_template *t = ct_template_find(p.family, tmpl);
    ct_params cand[12];
    const int ncand = t ? sample_candidates(&p, t, cfg, lim, samples < 12 ? samples : 12, cand, rng) : 0;
    CHECK_MSG(ncand > 0, "%s: %s admits no candidate", spec, tmpl);
    const layer L = layer_of(&p);
    ct_buffer bufs[CT_MAX_BUFS];
    const int nb = p.family->buffers(&p, bufs);
    float *host[CT_MAX_BUFS] = {0};
    uint16_t *h16[CT_MAX_BUFS] = {0};
    for (int i = 0; i < nb - 1; i++) {
        host[i] = malloc(bufs[i].count * sizeof(float));
        h16[i] = malloc(bufs[i].count * sizeof(uint16_t));
        for (size_t k = 0; k < bufs[i].count; k++) {
            h16[i][k] = to_bf(tl_uniform(rng));
            host[i][k] = bf(h16[i][k]);
        }
    }
    const size_t count = bufs[nb - 1].count;
    double *ref = malloc(count * sizeof *ref), *got = malloc(count * sizeof *got);
    int *writes = malloc(count * sizeof *writes);
    p.family->reference(&p, (const float *const *)host, ref);
    double worst = 0;
    char worst_key[512] = "";
    for (int i = 0; i < ncand; i++) {
        const replay_run R = {&p, t, &L, h16[0], h16[1], L.s.bias ? h16[2] : NULL, got, writes};
        for (size_t k = 0; k < count; k++) {
            got[k] = NAN;
            writes[k] = 0;
        }
        one(&R, &cand[i]);
        double num = 0, den = 0;
        int once = 1;
        for (size_t k = 0; k < count; k++) {
            num += (got[k] - ref[k]) * (got[k] - ref[k]);
            den += ref[k] * ref[k];
            once &= writes[k] == 1;
        }
        char key[512];
        ct_params_to_key(&cand[i], key, sizeof key);
        CHECK_MSG(once, "%s %s: an output not written exactly once", spec, key);
        const double err = isnan(num) ? INFINITY : sqrt(num / den);
        if (!(err <= worst)) {
            worst = err;
            snprintf(worst_key, sizeof worst_key, "%s", key);
        }
    }
    CHECK_MSG(worst <= 1e-12, "%s %s: replay error %.3g for %s", spec, tmpl, worst, worst_key);
    printf("replay %-52s %-14s %2d candidates, worst relative error %.2g\n", spec, tmpl, ncand, worst);
    for (int i = 0; i < nb - 1; i++) {
        free(host[i]);
        free(h16[i]);
    }
    free(ref);
    free(got);
    free(writes);
}

#endif
