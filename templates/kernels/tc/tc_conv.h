/* tc_conv.h - the fp32 tensor-core implicit-GEMM kinds of this kernel
 * folder, tc and tcsplit (ct_conv_tc.cuh; the templates conv1dc_tc,
 * conv2dc_tc, conv1dc_tcsplit, conv2dc_tcsplit): their parameters, derived
 * sizes, constraints, launch geometry and the executor of the split-K
 * variant (two launches and a workspace).
 *
 * A family describes its problem as a ct_tc_shape (tc_shape.h; a 1D layer
 * is a 2D one of height 1) and lists each template with CT_KERNEL; the
 * derived sizes are tc_sizes.cuh's, which the template's TC_* macros
 * expand too. */
#ifndef CT_TC_CONV_H
#define CT_TC_CONV_H

#include <stddef.h>

#include "executor.h"
#include "kernel_kind.h"
#include "problem.h"
#include "tc_shape.h"

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

/* A family's template of each kind (CT_KERNEL in kernel_kind.h): conv1dc
 * takes the 1D lists (no TILE_OH) and stages rows, conv2dc the 2D ones and
 * tiles; both kinds read [kernel.tc] of values.ini. */
#define CT_TC_PARAMS_conv1dc ct_tc_params_1d, .nparams = CT_TC_NPARAMS_1D
#define CT_TC_PARAMS_conv2dc ct_tc_params_2d, .nparams = CT_TC_NPARAMS_2D
#define CT_TC_SPLIT_PARAMS_conv1dc ct_tc_split_params_1d, .nparams = CT_TC_NPARAMS_1D + 1
#define CT_TC_SPLIT_PARAMS_conv2dc ct_tc_split_params_2d, .nparams = CT_TC_NPARAMS_2D + 1
#define CT_TC_STAGED_conv1dc "rows"
#define CT_TC_STAGED_conv2dc "tiles"
#define CT_KERNEL_tc(nm, family)                                                                            \
    {.name = nm, .summary = "implicit GEMM on the tensor cores at fp32 accuracy (3xTF32 mma.sync; tf32: "    \
                            "one mma of operands rounded to TF32), "                                        \
                            "haloed input " CT_TC_STAGED_##family " and weights staged by cp.async",        \
     .params = CT_TC_PARAMS_##family, .kind = &ct_kind_tc, .kernel = "tc"}
#define CT_KERNEL_tcsplit(nm, family)                                                                       \
    {.name = nm, .summary = #family "_tc with the input channels split over the grid, partial "             \
                            "sums added by a second kernel (small grids, long reductions)",                 \
     .params = CT_TC_SPLIT_PARAMS_##family, .exec = &ct_tc_split_exec, .kind = &ct_kind_tc, .kernel = "tc"}

/* Whether the tc kind computes s single-pass: a tf32 problem (s->p's
 * element type), compiled with CT_TF32: one mma per step of operands
 * rounded to TF32 (to nearest) into the sums, where fp32 takes three of
 * the split operands and sums ACC_STEPS steps apart. Its model has a third
 * of the mmas, no group sums and half the fragment registers, and ACC_STEPS
 * is normalised to 1. */
int ct_tc_single_pass(const ct_tc_shape *s);

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

/* The 3xTF32 split of one fp32 value as the template computes it: big is x
 * with its 13 low mantissa bits cleared (a TF32 value), small = x - big,
 * exact in fp32. The tensor cores read an fp32 register as TF32 by the same
 * truncation (ct_tc_tf32), so a product is modelled as
 * tf32(a_big)*tf32(b_small) + tf32(a_small)*tf32(b_big) + a_big*b_big. */
void ct_tc_split(float x, float *big, float *small);
float ct_tc_tf32(float x);

#endif
