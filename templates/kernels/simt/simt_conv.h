/* simt_conv.h - the SIMT (FFMA, fp32) templates of the layer families for
 * layers the plain tiled templates refuse: strided, dilated and grouped
 * (below sm_80, with no fp32 tensor cores, dense and channels-last ones too)
 * (ct_conv_simt.cuh, beside it, through conv1dc_simt and
 * conv2dc_simt). Their parameters, derived sizes, constraints and launch
 * geometry on the layer described as a ct_tc_shape (a 1D layer is a 2D one
 * of height 1); the derived sizes are simt_sizes.cuh's, which the
 * template's SM_* macros expand too. */
#ifndef CT_SIMT_CONV_H
#define CT_SIMT_CONV_H

#include <stddef.h>

#include "problem.h"
#include "tc_shape.h"

/* Parameter lists: 2D and 1D (no OUT_Y, TILE_OH); their lengths are
 * constants for the families' static template tables. */
#define CT_SIMT_NPARAMS_2D 8
#define CT_SIMT_NPARAMS_1D 6
extern const ct_param_def ct_simt_params_2d[CT_SIMT_NPARAMS_2D];
extern const ct_param_def ct_simt_params_1d[CT_SIMT_NPARAMS_1D];

/* Their kind (1D or 2D by the parameters a template lists). */
extern const ct_kernel_kind ct_kind_simt;

/* A family's template of this kind (CT_KERNEL in kernel_kind.h): the
 * family's parameter list and summary (a conv1dc layer has no OUT_Y). */
#define CT_SIMT_conv1dc                                                                                    \
    .summary = "strided, dilated, grouped: FMAs in fp32 (sm_75 on), a block's groups' haloed tiles and "   \
               "weights staged, OUT_X outputs x a slice of a group's channels per thread",                 \
    .params = ct_simt_params_1d, .nparams = CT_SIMT_NPARAMS_1D
#define CT_SIMT_conv2dc                                                                                    \
    .summary = "strided, dilated, grouped: FMAs in fp32 (sm_75 on), a block's groups' haloed tiles and "   \
               "weights staged, OUT_Y x OUT_X outputs x a slice of a group's channels per thread",         \
    .params = ct_simt_params_2d, .nparams = CT_SIMT_NPARAMS_2D
#define CT_KERNEL_simt(nm, family) {.name = nm, CT_SIMT_##family, .kind = &ct_kind_simt, .kernel = "simt"}

/* The bf16 entry (FAMILY_simth, a family's line after its simt one): the
 * CT_DTYPE branch of FAMILY_simt.cu, fp32 FMAs on widened elements, one
 * rounding per output; below sm_80 only, where no tensor core takes bf16
 * (sm_75), so that such a layer is not left to the naive kernel. f16 there
 * has the mma.sync kinds, which a tuning budget should not be spent
 * beside (the code computes f16 as well). */
extern const ct_kernel_kind ct_kind_simth;
#define CT_SIMTH_SUMMARY "the simt kernel for bf16 before sm_80 (a T4 has no bf16 mma): elements widened to float " \
                         "as ordinary loads stage them, fp32 FMAs, one rounding per output"
#define CT_SIMTH_conv1dc .params = ct_simt_params_1d, .nparams = CT_SIMT_NPARAMS_1D
#define CT_SIMTH_conv2dc .params = ct_simt_params_2d, .nparams = CT_SIMT_NPARAMS_2D
#define CT_SIMTH_ENTRY(family)                                                                              \
    {.name = #family "_simth", .summary = CT_SIMTH_SUMMARY, CT_SIMTH_##family, .kind = &ct_kind_simth,     \
     .kernel = "simt", .dtypes = 1u << CT_DTYPE_BF16, .source = #family "_simt"}

/* The kind's hooks. */
int ct_simt_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                      char *why, size_t len);
void ct_simt_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c);
void ct_simt_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l);

#endif
