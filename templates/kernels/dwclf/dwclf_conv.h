/* dwclf_conv.h - the forward pass of depthwise layers in the channels-last
 * layout (ct_dwcl_fwd.cuh beside it, through FAMILY_dwtcl): its parameters,
 * constraints, normalization and launch geometry. */
#ifndef CT_DWCLF_CONV_H
#define CT_DWCLF_CONV_H

#include "kernel_kind.h"
#include "problem.h"

/* Parameter lists: 2D and 1D (no OUT_Y: one output row). */
#define CT_DWCLF_NPARAMS_2D 7
extern const ct_param_def ct_dwclf_params_2d[CT_DWCLF_NPARAMS_2D];
extern const ct_param_def ct_dwclf_params_1d[CT_DWCLF_NPARAMS_2D - 1];
extern const ct_kernel_kind ct_kind_dwtcl;

#define CT_DWTCL_conv1dc                                                                                      \
    .summary = "depthwise, channels last (nlc): VEC channels (one vector load) x OUT_X outputs per thread "   \
               "from a register window, taps in shared memory, any channel count",                           \
    .params = ct_dwclf_params_1d, .nparams = CT_DWCLF_NPARAMS_2D - 1
#define CT_DWTCL_conv2dc                                                                                      \
    .summary = "depthwise, channels last: VEC channels (one vector load) x OUT_Y x OUT_X outputs per "        \
               "thread, each input row's register window feeding every output row it meets, taps in "       \
               "shared memory",                                                                              \
    .params = ct_dwclf_params_2d, .nparams = CT_DWCLF_NPARAMS_2D
#define CT_KERNEL_dwtcl(nm, family) \
    {.name = nm, CT_DWTCL_##family, .dtypes = CT_DTYPES_ALL, .kind = &ct_kind_dwtcl, .kernel = "dwclf"}

#endif
