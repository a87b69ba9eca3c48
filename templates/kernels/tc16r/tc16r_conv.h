/* tc16r_conv.h - the half-precision tensor-core templates with resident
 * weights, the kernel kinds of this folder: conv2dc_tc16rcl (ct_conv_tc16r.cuh, mma.sync,
 * NHWC) and conv2dc_tc16g / tc16gcl (ct_conv_tc16g.cuh, wgmma, NCHW and
 * NHWC). A block stages its output channels' weights once, for all input
 * channels, and walks TILES image tiles against them. Parameters, sizes
 * (tc16_sizes.cuh's and tc16g_sizes.cuh's, which the headers' TC_*
 * macros expand too), constraints and launch geometry,
 * on the layer as a ct_tc_shape, and their kinds. The family excludes the
 * channels-last ones from NCHW layers and the other from NHWC ones. */
#ifndef CT_TC16R_CONV_H
#define CT_TC16R_CONV_H

#include <stddef.h>

#include "problem.h"
#include "tc_shape.h"

#define CT_TC16R_NPARAMS 8
extern const ct_param_def ct_tc16rcl_params[CT_TC16R_NPARAMS];

/* conv2dc_tc16g and conv2dc_tc16gcl (ct_conv_tc16g.cuh, beside it):
 * the same walk of tiles against resident weights on Hopper's wgmma
 * (sm_90a), NCHW and NHWC: warpgroups in place of warps, an output row per
 * wgmma. */
#define CT_TC16G_NPARAMS 8
extern const ct_param_def ct_tc16g_params[CT_TC16G_NPARAMS];

/* Their kinds, sharing the hooks below: tc16rcl (mma.sync, NHWC), tc16g
 * and tc16gcl (the kind's wgmma; NCHW and NHWC, its layouts). */
extern const ct_kernel_kind ct_kind_tc16rcl, ct_kind_tc16g, ct_kind_tc16gcl;

/* A family's template of each kind (CT_KERNEL in kernel_kind.h). */
#define CT_TC16R_SUMMARY                                                                                      \
    "channels-last bf16/f16 implicit GEMM (mma.sync), a block's weights staged once and resident while it " \
    "walks TILES image tiles, copied by cp.async STAGES deep"
#define CT_TC16G_SUMMARY                                                                                   \
    "bf16/f16 on Hopper's warpgroup mma (wgmma, sm_90a): operands read from shared memory by the tensor " \
    "cores, an output row per wgmma, weights resident across TILES tiles, each tile transposed (NCHW)"
#define CT_TC16GCL_SUMMARY                                                                             \
    "conv2dc_tc16g for channels-last layers (NHWC): tiles copied by cp.async as they lie, outputs in " \
    "16-byte stores"
#define CT_KERNEL_tc16rcl(nm, family)                                                                     \
    {.name = nm, .summary = CT_TC16R_SUMMARY, .params = ct_tc16rcl_params, .nparams = CT_TC16R_NPARAMS, \
     .dtypes = CT_TC16_DTYPES, .kind = &ct_kind_tc16rcl, .kernel = "tc16rcl"}
#define CT_KERNEL_tc16g(nm, family)                                                                     \
    {.name = nm, .summary = CT_TC16G_SUMMARY, .params = ct_tc16g_params, .nparams = CT_TC16G_NPARAMS, \
     .dtypes = CT_TC16_DTYPES, .kind = &ct_kind_tc16g, .kernel = "tc16g"}
#define CT_KERNEL_tc16gcl(nm, family)                                                                     \
    {.name = nm, .summary = CT_TC16GCL_SUMMARY, .params = ct_tc16g_params, .nparams = CT_TC16G_NPARAMS, \
     .dtypes = CT_TC16_DTYPES, .kind = &ct_kind_tc16gcl, .kernel = "tc16gcl"}

typedef struct ct_tc16r_geom {
    long long bm, toh, tow, warps_m, warps_n, tiles, stages, minb;
    long long bn, nt, wm, wn, mf, nf, ck, khw, ap, cp, ih, iw, sa, sb, rk, rw, sri, op;
    long long ntiles, smem_bytes, grid_x, grid_y, regs;
    /* tc16g: warpgroups, a wgmma's N, rows per warpgroup, plane pixels */
    int wgmma, cl;
    long long wg_m, wg_n, wgn, rpw, nw, ppx, pingpong;
    long long rpc; /* input channels of the raw weights staged at a time */
} ct_tc16r_geom;

void ct_tc16r_geometry_of(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_tc16r_geom *g);

int ct_tc16r_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                       char *why, size_t len);
void ct_tc16r_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c);
void ct_tc16r_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l);

#endif
