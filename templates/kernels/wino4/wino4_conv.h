/* wino4_conv.h - Winograd F(4x4, 3x3) on the FMA units for dense and
 * grouped 3x3 layers of stride 1 (ct_conv_wino4.cuh beside it, through
 * FAMILY_wino4): its parameters, constraints, launch geometry and
 * executor, for the architectures without fp32 tensor cores (sm_75, a T4). */
#ifndef CT_WINO4_CONV_H
#define CT_WINO4_CONV_H

#include "executor.h"
#include "kernel_kind.h"
#include "problem.h"

#define CT_WINO4_NPARAMS 9
extern const ct_param_def ct_wino4_params[CT_WINO4_NPARAMS];
extern const ct_kernel_kind ct_kind_wino4;
/* Its templates' executor: FPRE=0 the one kernel, FPRE=1 the prep kernel's
 * filter transforms into a workspace, then the main kernel on them
 * (ws_exec.h). */
extern const ct_executor ct_wino4_exec;

/* fp32 and bf16 (no bf16 mma before sm_80), as the wino kind; f16 has the
 * m16n8k8 tensor-core templates on sm_75 (the code computes f16 too). */
#define CT_KERNEL_wino4(nm, family)                                                                          \
    {.name = nm,                                                                                             \
     .summary = "3x3 stride-1 layers below sm_80: Winograd F(4x4,3x3), 6x6 input patches and filters "      \
                "transformed as they are staged (FPRE=1: the filters once a call by a prep kernel), 36 FFMA " \
                "GEMMs (one per transform position) of THREAD_M x THREAD_N outer products, 4x4 outputs "     \
                "transformed back through shared memory",                                                    \
     .params = ct_wino4_params, .nparams = CT_WINO4_NPARAMS,                                                 \
     .dtypes = (1u << CT_DTYPE_F32) | (1u << CT_DTYPE_BF16), .exec = &ct_wino4_exec, .kind = &ct_kind_wino4,  \
     .kernel = "wino4"}

#endif
