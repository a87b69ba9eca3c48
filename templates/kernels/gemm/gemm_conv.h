/* gemm_conv.h - the conv1dc gemm template (gemm.conv1dc.cu.in beside it,
 * conv1dc's own code: an implicit GEMM on the FMA units, channel x position
 * tiles staged in shared memory): its parameters and its kind, on the
 * layer described as a ct_tc_shape of height 1. The family gives it plain
 * NCL fp32 layers only. */
#ifndef CT_GEMM_CONV_H
#define CT_GEMM_CONV_H

#include "kernel_kind.h"
#include "problem.h"

#define CT_GEMM_NPARAMS 7
extern const ct_param_def ct_gemm_params[CT_GEMM_NPARAMS];
extern const ct_kernel_kind ct_kind_gemm;

/* conv1dc's template of this kind (CT_KERNEL in kernel_kind.h). */
#define CT_GEMM_conv1dc                                                                                     \
    .summary = "implicit GEMM: channel x position tiles, weights and inputs staged in shared memory, "     \
               "register blocking"
#define CT_KERNEL_gemm(nm, family)                                                                         \
    {.name = nm, CT_GEMM_##family, .params = ct_gemm_params, .nparams = CT_GEMM_NPARAMS,                   \
     .kind = &ct_kind_gemm, .kernel = "gemm"}

#endif
