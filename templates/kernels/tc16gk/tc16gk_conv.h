/* tc16gk_conv.h - the kernel kind tc16gkcl (ct_conv_tc16gk.cuh, beside it):
 * the channels-last half-precision layer on Hopper's wgmma (sm_90a) with
 * the weights streamed along the reduction, a chunk of input channels at a
 * time, with the input: a block computes one image tile for 64 x WG_M
 * output channels. Parameters, sizes (tc16g_sizes.cuh's where they do not
 * depend on the element size, tc16gk_sizes.cuh's where they do: the
 * headers' TC_* macros expand both), constraints and launch geometry, on
 * the layer as a ct_tc_shape. */
#ifndef CT_TC16GK_CONV_H
#define CT_TC16GK_CONV_H

#include <stddef.h>

#include "problem.h"
#include "tc_shape.h"

#define CT_TC16GK_NPARAMS 7
extern const ct_param_def ct_tc16gk_params[CT_TC16GK_NPARAMS];

#define CT_TC16GK_SUMMARY                                                                                     \
    "channels-last bf16/f16 on Hopper's wgmma (sm_90a), weights streamed with the input CIN_CHUNK channels " \
    "at a time (copied STAGES - 2 chunks ahead, transposed while the previous chunk's steps run); tf32 "      \
    "on TF32 wgmma, operands rounded in shared memory"

/* The most filter taps it takes: a transpose item holds 8 channels of
 * every tap in registers, 4 words a tap. */
#define CT_TC16GK_MAX_TAPS 16

/* Its kind: channels last, wgmma. */
extern const ct_kernel_kind ct_kind_tc16gkcl;

/* A family's template of this kind (CT_KERNEL in kernel_kind.h). */
#define CT_KERNEL_tc16gkcl(nm, family)                                                                  \
    {.name = nm, .summary = CT_TC16GK_SUMMARY, .params = ct_tc16gk_params, .nparams = CT_TC16GK_NPARAMS, \
     .dtypes = CT_TC16_DTYPES | (1u << CT_DTYPE_TF32), .kind = &ct_kind_tc16gkcl, .kernel = "tc16gkcl"}

typedef struct ct_tc16gk_geom {
    long long wg_m, wg_n, toh, tow, ck, stages, minb;
    long long elem, kstep;   /* element bytes (2; tf32 4) and K of a wgmma step (16; tf32 8) */
    long long bm, nt, rpw, ih, iw, nw, wgn, nch, khw, ppx, sb, sa, rkp, sr, st, so;
    long long ntiles, smem_bytes, grid_x, grid_y, regs;
} ct_tc16gk_geom;

/* s is the whole layer; the sizes are those of one group's GEMM, for s->p's
 * element type (a tf32 problem: ct_conv_tf32gk.cuh's; no problem: half). */
void ct_tc16gk_geometry_of(const ct_tc_shape *s, const ct_params *c, ct_tc16gk_geom *g);

int ct_tc16gk_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len);
void ct_tc16gk_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c);
void ct_tc16gk_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l);

#endif
