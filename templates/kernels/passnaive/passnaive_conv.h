/* passnaive_conv.h - the baselines of the training passes of the layer
 * families (ct_pass_naive.cuh beside it, through FAMILY_dgnaive and
 * FAMILY_wgnaive): one thread per element of the gradient, any layer,
 * layout and element type. */
#ifndef CT_PASSNAIVE_CONV_H
#define CT_PASSNAIVE_CONV_H

#include "kernel_kind.h"
#include "problem.h"

extern const ct_param_def ct_passnaive_params[1];
extern const ct_kernel_kind ct_kind_dgnaive, ct_kind_wgnaive;

#define CT_KERNEL_dgnaive(nm, family)                                                                         \
    {.name = nm, .summary = "input gradient: one thread per input element, gathering the outputs whose "     \
                            "windows hold it (baseline)",                                                    \
     .is_baseline = 1, .dtypes = CT_DTYPES_ALL, .params = ct_passnaive_params, .nparams = 1,                  \
     .kind = &ct_kind_dgnaive, .kernel = "passnaive"}
#define CT_KERNEL_wgnaive(nm, family)                                                                         \
    {.name = nm, .summary = "weight gradient: one thread per weight (then bias), rows summed in fp32 and "   \
                            "rows in fp64 (baseline)",                                                       \
     .is_baseline = 1, .dtypes = CT_DTYPES_ALL, .params = ct_passnaive_params, .nparams = 1,                  \
     .kind = &ct_kind_wgnaive, .kernel = "passnaive"}

#endif
