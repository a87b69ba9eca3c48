/* dwtc16cl_conv.h - the forward pass of depthwise layers in the
 * channels-last layout on the tensor cores, bf16 and f16, as banded
 * (Toeplitz) GEMMs (ct_dwtc16_fwd.cuh beside it, through FAMILY_dwtc16cl):
 * its parameters, constraints, normalization and launch geometry. */
#ifndef CT_DWTC16CL_CONV_H
#define CT_DWTC16CL_CONV_H

#include "kernel_kind.h"
#include "problem.h"

#define CT_DWTC16CL_NPARAMS 15
extern const ct_param_def ct_dwtc16cl_params[CT_DWTC16CL_NPARAMS];
extern const ct_kernel_kind ct_kind_dwtc16cl;

#define CT_KERNEL_dwtc16cl(nm, family)                                                                        \
    {.name = nm, .summary = "depthwise forward, channels last, bf16/f16 on the tensor cores: per channel and " \
                            "filter row a banded (Toeplitz) GEMM of 16 output runs x 8 columns, input tiles "  \
                            "staged channel-major for ldmatrix, weights in registers",                        \
     .dtypes = CT_DTYPES_HALF, .params = ct_dwtc16cl_params, .nparams = CT_DWTC16CL_NPARAMS,                  \
     .kind = &ct_kind_dwtc16cl, .kernel = "dwtc16cl"}

#endif
