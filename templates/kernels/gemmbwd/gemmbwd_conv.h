/* gemmbwd_conv.h - the training passes of dense and grouped (not
 * depthwise) layers as implicit GEMMs on the FMA units (ct_gemmbwd.cuh
 * beside it, through FAMILY_dgsimt and FAMILY_wgsimt): their parameters,
 * derived sizes, constraints and launch geometry on the layer described as
 * a ct_tc_shape (a 1D layer is a 2D one of height 1), and wgsimt's
 * executor (the split reduction's workspace and second kernel). */
#ifndef CT_GEMMBWD_CONV_H
#define CT_GEMMBWD_CONV_H

#include "executor.h"
#include "kernel_kind.h"
#include "problem.h"

/* Parameter lists, 2D and 1D (no OUT_Y, TILE_H; no TILE_OH). */
#define CT_DGSIMT_NPARAMS_2D 8
#define CT_DGSIMT_NPARAMS_1D 6
#define CT_WGSIMT_NPARAMS_2D 10
#define CT_WGSIMT_NPARAMS_1D 9
extern const ct_param_def ct_dgsimt_params_2d[CT_DGSIMT_NPARAMS_2D], ct_dgsimt_params_1d[CT_DGSIMT_NPARAMS_1D];
extern const ct_param_def ct_wgsimt_params_2d[CT_WGSIMT_NPARAMS_2D], ct_wgsimt_params_1d[CT_WGSIMT_NPARAMS_1D];
extern const ct_kernel_kind ct_kind_dgsimt, ct_kind_wgsimt;
extern const ct_executor ct_dgsimt_exec, ct_wgsimt_exec;

#define CT_DGSIMT_conv1dc .params = ct_dgsimt_params_1d, .nparams = CT_DGSIMT_NPARAMS_1D
#define CT_DGSIMT_conv2dc .params = ct_dgsimt_params_2d, .nparams = CT_DGSIMT_NPARAMS_2D
#define CT_WGSIMT_conv1dc .params = ct_wgsimt_params_1d, .nparams = CT_WGSIMT_NPARAMS_1D
#define CT_WGSIMT_conv2dc .params = ct_wgsimt_params_2d, .nparams = CT_WGSIMT_NPARAMS_2D

#define CT_KERNEL_dgsimt(nm, family)                                                                        \
    {.name = nm, .summary = "input gradient, dense or grouped: implicit GEMM on the FMA units, haloed dy "  \
                            "tiles and weights staged by output-channel chunks, pixels x input channels "   \
                            "per thread, the chunks split over slices where the grid is small",             \
     .dtypes = CT_DTYPES_ALL, CT_DGSIMT_##family, .exec = &ct_dgsimt_exec, .kind = &ct_kind_dgsimt,         \
     .kernel = "gemmbwd"}
#define CT_KERNEL_wgsimt(nm, family)                                                                        \
    {.name = nm, .summary = "weight gradient, dense or grouped: implicit GEMM on the FMA units, output x "  \
                            "input channel tiles, the reduction split over slices added in fp64 by a "      \
                            "second kernel (deterministic)",                                                \
     .dtypes = CT_DTYPES_ALL, CT_WGSIMT_##family, .exec = &ct_wgsimt_exec, .kind = &ct_kind_wgsimt,         \
     .kernel = "gemmbwd"}

#endif
