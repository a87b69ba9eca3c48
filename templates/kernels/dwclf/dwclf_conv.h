/* dwclf_conv.h - the forward pass of depthwise layers in the channels-last
 * layout (ct_dwcl_fwd.cuh beside it, through FAMILY_dwcl): its parameters,
 * constraints, normalization and launch geometry. */
#ifndef CT_DWCLF_CONV_H
#define CT_DWCLF_CONV_H

#include "kernel_kind.h"
#include "problem.h"

#define CT_DWCLF_NPARAMS 6
extern const ct_param_def ct_dwclf_params[CT_DWCLF_NPARAMS];
extern const ct_kernel_kind ct_kind_dwclf;

#define CT_KERNEL_dwcl(nm, family)                                                                            \
    {.name = nm, .summary = "depthwise, channels last: VEC channels (one vector load) x OUT_Y x OUT_X "       \
                            "outputs per thread, each input row's register window feeding every output row " \
                            "it meets, taps in shared memory",                                               \
     .dtypes = CT_DTYPES_ALL, .params = ct_dwclf_params, .nparams = CT_DWCLF_NPARAMS, .kind = &ct_kind_dwclf, \
     .kernel = "dwclf"}

#endif
