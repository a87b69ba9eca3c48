/* tc16_conv.h - the half-precision (bf16, f16) tensor-core templates of a
 * convolution layer, the kinds of this kernel folder: conv*_tc16 (ct_conv_tc16.cuh, an
 * implicit GEMM over haloed tiles) and conv*_tc16w (ct_conv_tc16w.cuh, the
 * weights streamed into mma fragments, for layers with few pixels): their
 * parameters, derived sizes, constraints and launch geometry, and their
 * kinds; the derived sizes are tc16_sizes.cuh's and tc16w_sizes.cuh's,
 * which the templates' TC_* macros expand too. */
#ifndef CT_TC16_CONV_H
#define CT_TC16_CONV_H

#include <stddef.h>

#include "kernel_kind.h"
#include "problem.h"

struct ct_tc_shape;

#define CT_TC16_NPARAMS_2D 8
#define CT_TC16_NPARAMS_1D 7
#define CT_TC16W_NPARAMS 7
extern const ct_param_def ct_tc16_params_2d[CT_TC16_NPARAMS_2D];
extern const ct_param_def ct_tc16_params_1d[CT_TC16_NPARAMS_1D];
extern const ct_param_def ct_tc16w_params[CT_TC16W_NPARAMS];
/* conv*_tc16cl (ct_conv_tc16cl.cuh): channels-last activations, STAGES
 * in place of PREFETCH. */
extern const ct_param_def ct_tc16cl_params_2d[CT_TC16_NPARAMS_2D];
extern const ct_param_def ct_tc16cl_params_1d[CT_TC16_NPARAMS_1D];

/* The element types these templates compute in. */
#define CT_TC16_DTYPES ((1u << CT_DTYPE_BF16) | (1u << CT_DTYPE_F16))

/* Their kinds, sharing the hooks below: tc16 (NCHW/NCL), tc16w (weights
 * streamed: the kind's stream) and tc16cl (channels last: its layouts). */
extern const ct_kernel_kind ct_kind_tc16, ct_kind_tc16w, ct_kind_tc16cl;

/* A family's template of each kind (CT_KERNEL in kernel_kind.h): tc16 and
 * tc16cl take conv1dc's parameter list (no TILE_OH) or conv2dc's. */
#define CT_TC16_PARAMS_conv1dc(cl) ct_tc16##cl##_params_1d, .nparams = CT_TC16_NPARAMS_1D
#define CT_TC16_PARAMS_conv2dc(cl) ct_tc16##cl##_params_2d, .nparams = CT_TC16_NPARAMS_2D
#define CT_KERNEL_tc16(nm, family)                                                                        \
    {.name = nm, .summary = "bf16/f16 implicit GEMM on the tensor cores (mma.sync m16n8k16, ldmatrix, "    \
                            "fp32 sums), tiles staged channel-innermost",                                 \
     .params = CT_TC16_PARAMS_##family(), .dtypes = CT_TC16_DTYPES, .kind = &ct_kind_tc16, .kernel = "tc16"}
#define CT_KERNEL_tc16w(nm, family)                                                                       \
    {.name = nm, .summary = "bf16/f16 layers with few pixels: weights streamed from memory into the "      \
                            "mma fragments against an im2col in shared memory",                           \
     .params = ct_tc16w_params, .nparams = CT_TC16W_NPARAMS, .dtypes = CT_TC16_DTYPES, .kind = &ct_kind_tc16w, \
     .kernel = "tc16w"}
#define CT_KERNEL_tc16cl(nm, family)                                                                       \
    {.name = nm, .summary = "channels-last bf16/f16 implicit GEMM on the tensor cores: input tiles "        \
                            "copied by cp.async STAGES stages deep, outputs in 16-byte stores",            \
     .params = CT_TC16_PARAMS_##family(cl), .dtypes = CT_TC16_DTYPES, .kind = &ct_kind_tc16cl, .kernel = "tc16cl"}

typedef struct ct_tc16_geom {
    int stream; /* 1: a tc16w candidate (the fields after it), 0: a tc16 one */
    /* tc16 */
    long long bm, toh, tow, warps_m, warps_n, ck, prefetch, minb;
    int cl;            /* channels-last (tc16cl): nbuf is its stage count */
    long long stages, op, clstage;
    /* NCHW PREFETCH 0: input slots are column pairs (TC_IPAIR: first column
     * 2p - ioff of the tile, npr a row) or pixels, irx a thread, istep of
     * them loaded at once (TC_ISTEP) */
    long long ipair, ioff, npr, irx, istep;
    long long bn, nt, wm, wn, mf, nf, nch, khw, ap, cp, ih, iw, sa, sb, stage, nbuf, ty, tx, wr, ir;
    /* tc16w */
    long long warps_k, tile_n, unroll, kall, nkg, kp, ntot;
    long long cluster_k, nkgb; /* blocks of a cluster splitting the reduction, K groups of each */
    long long stage_x, ximg, xp; /* input planes staged: images a block touches, elements a row */
    long long smem_bytes, grid_x, grid_y, grid_z, regs;
} ct_tc16_geom;

void ct_tc16_geometry_of(const ct_template *t, const struct ct_tc_shape *s, const ct_params *c, ct_tc16_geom *g);

int ct_tc16_constrain(const ct_template *t, const struct ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                      char *why, size_t len);
void ct_tc16_normalize(const ct_template *t, const struct ct_tc_shape *s, ct_params *c);
void ct_tc16_launch(const ct_template *t, const struct ct_tc_shape *s, const ct_params *c, ct_launch *l);

#endif
