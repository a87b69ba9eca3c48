/* tc_conv.h - the tensor-core implicit-GEMM templates (templates/
 * ct_conv_tc.cuh) for any family whose problem is a convolution layer:
 * their parameters, derived sizes, constraints, launch geometry and the
 * executor of the split-K variant (two launches and a workspace).
 *
 * A family describes its problem as a ct_tc_shape (a 1D layer is a 2D one
 * of height 1) and hands its tc templates' hooks to these functions; the
 * sizes here mirror the TC_* macros of the template. */
#ifndef CT_TC_CONV_H
#define CT_TC_CONV_H

#include <stddef.h>

#include "executor.h"
#include "kernel_kind.h"
#include "problem.h"

typedef struct ct_tc_shape {
    long long b, cin, h, w, cout, kh, kw, oh, ow; /* NCHW input, OIHW weights */
    long long ph, pw, sy, sx, dy, dx;             /* padding before, stride, dilation */
    long long groups;                             /* Cin and Cout split in groups (0 or 1: none) */
    int bias;
    int pass;                                     /* CT_PASS_*: the sizes above are the forward layer's */
    /* The problem described, for the hooks of a family's own kinds (the
     * shared kinds read the fields above only); may be NULL otherwise. */
    const ct_problem *p;
} ct_tc_shape;

/* The layer's groups, 1 when it has none: a grouped layer is one GEMM (or
 * one block's share of channels) per group. */
static inline long long ct_tc_ngroups(const ct_tc_shape *s)
{
    return s->groups > 1 ? s->groups : 1;
}

/* Parameter lists: 2D and 1D (no TILE_OH), each plain and split-K; their
 * lengths are constants for the families' static template tables (checked
 * against the lists in tc_conv.c). */
#define CT_TC_NPARAMS_2D 10
#define CT_TC_NPARAMS_1D 9
extern const ct_param_def ct_tc_params_2d[CT_TC_NPARAMS_2D];
extern const ct_param_def ct_tc_split_params_2d[CT_TC_NPARAMS_2D + 1];
extern const ct_param_def ct_tc_params_1d[CT_TC_NPARAMS_1D];
extern const ct_param_def ct_tc_split_params_1d[CT_TC_NPARAMS_1D + 1];

extern const ct_executor ct_tc_split_exec;

/* The kind of conv*_tc and conv*_tcsplit (3xTF32): both layouts
 * (CONV_CHANNELS_LAST); which parameters a template lists tells 1D from 2D
 * and the split from the plain one. */
extern const ct_kernel_kind ct_kind_tc;

/* Whether the tc kind computes s single-pass: a tf32 problem (s->p's
 * element type), compiled with CT_TF32: one mma per step of operands
 * rounded to TF32 (to nearest) into the sums, where fp32 takes three of
 * the split operands and sums ACC_STEPS steps apart. Its model has a third
 * of the mmas, no group sums and half the fragment registers, and ACC_STEPS
 * is normalised to 1. */
int ct_tc_single_pass(const ct_tc_shape *s);

/* One group's layer: Cin and Cout of a group, groups 1 (each group is its
 * own GEMM; the grid's y dimension walks the groups). */
ct_tc_shape ct_tc_per_group(const ct_tc_shape *s);

/* Whether a tensor-core kind refuses the layer for its groups of one input
 * and one output channel (depthwise; one is ct_tc_per_group's shape): a
 * GEMM with a single column per group keeps at most 1/16 of each mma tile
 * busy, in every element type, and the depthwise templates serve exactly
 * these layers. Writes the reason. */
int ct_tc_depthwise_refused(const ct_tc_shape *one, char *why, size_t len);

typedef struct ct_tc_geom {
    long long bm, toh, tow, warps_m, warps_n, ck, korder, pipe, split, minb, acc;
    long long bn, nt, wm, wn, mf, nf, nch, khw, kcr, kc, ap, ih, iw, plane, stage, nbuf, ty, tx;
    long long smem_bytes, blocks;
} ct_tc_geom;

/* t is the candidate's template: which parameters it has (a 1D one has no
 * TILE_OH, a plain one no SPLIT_K). */
void ct_tc_geometry_of(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_tc_geom *g);

/* The kind's hooks. */
int ct_tc_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim, char *why,
                    size_t len);
void ct_tc_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c);
void ct_tc_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l);

/* Whether the half-precision mma.sync kinds (tc16, tc16cl, tc16w,
 * tc16rcl) cannot run s on lim's architecture (the reason in why): they
 * need sm_80, or sm_75 for f16 (two m16n8k8 steps per m16n8k16 one and
 * ordinary loads for cp.async, ct_mma16.cuh); Turing has no bf16 mma. */
int ct_tc16_arch_excluded(const ct_tc_shape *s, const ct_limits *lim, char *why, size_t len);

/* The 3xTF32 split of one fp32 value as the template computes it: big is x
 * with its 13 low mantissa bits cleared (a TF32 value), small = x - big,
 * exact in fp32. The tensor cores read an fp32 register as TF32 by the same
 * truncation (ct_tc_tf32), so a product is modelled as
 * tf32(a_big)*tf32(b_small) + tf32(a_small)*tf32(b_big) + a_big*b_big. */
void ct_tc_split(float x, float *big, float *small);
float ct_tc_tf32(float x);

#endif
