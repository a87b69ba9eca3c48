/* conv1dc_gemm.h - the conv1dc gemm template (templates/conv1dc/
 * conv1dc_gemm.cu: an implicit GEMM on the FMA units, channel x position
 * tiles staged in shared memory): its parameters and its kind, on the
 * layer described as a ct_tc_shape of height 1. The family gives it plain
 * NCL fp32 layers only. */
#ifndef CT_CONV1DC_GEMM_H
#define CT_CONV1DC_GEMM_H

#include "kernel_kind.h"
#include "problem.h"

#define CT_CONV1DC_GEMM_NPARAMS 7
extern const ct_param_def ct_conv1dc_gemm_params[CT_CONV1DC_GEMM_NPARAMS];
extern const ct_kernel_kind ct_kind_conv1dc_gemm;

#endif
