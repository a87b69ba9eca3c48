/* dw16bwd_conv.h - the weight gradient of depthwise layers in the
 * channels-last layout on the tensor cores, bf16 and f16
 * (ct_dw16_wgrad.cuh beside it, through FAMILY_wgdw16cl): its parameters,
 * constraints and launch geometry, and its executor (the main kernel's
 * partial sums into a workspace, then the depthwise wgrad's reduce kernel,
 * ../dwclbwd/ct_dwcl_wgred.cuh, in a fixed order). */
#ifndef CT_DW16BWD_CONV_H
#define CT_DW16BWD_CONV_H

#include "executor.h"
#include "kernel_kind.h"
#include "problem.h"

#define CT_DW16BWD_NPARAMS 13
extern const ct_param_def ct_wgdw16cl_params[CT_DW16BWD_NPARAMS];
extern const ct_kernel_kind ct_kind_wgdw16cl;
extern const ct_executor ct_dw16bwd_exec;

#define CT_KERNEL_wgdw16cl(nm, family)                                                                        \
    {.name = nm, .summary = "depthwise weight gradient, channels last, bf16/f16 on the tensor cores: per "    \
                            "channel a GEMM of KW x KH taps over (b, row, column), x and dy tiles staged "    \
                            "in shared memory as mma fragments, splits added in fp64 by a second kernel",    \
     .dtypes = CT_DTYPES_HALF, .params = ct_wgdw16cl_params, .nparams = CT_DW16BWD_NPARAMS,                   \
     .exec = &ct_dw16bwd_exec, .kind = &ct_kind_wgdw16cl, .kernel = "dw16bwd"}

#endif
