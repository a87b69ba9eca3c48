/* wino_conv.h - Winograd F(2x2, 3x3) on the FMA units for dense and grouped
 * 3x3 layers of stride 1 (ct_conv_wino.cuh beside it, through
 * FAMILY_wino): its parameters, constraints, launch geometry and executor,
 * for the architectures without fp32 tensor cores (sm_75, a T4). */
#ifndef CT_WINO_CONV_H
#define CT_WINO_CONV_H

#include "executor.h"
#include "kernel_kind.h"
#include "problem.h"

#define CT_WINO_NPARAMS 8
extern const ct_param_def ct_wino_params[CT_WINO_NPARAMS];
extern const ct_kernel_kind ct_kind_wino;
/* Its templates' executor: FPRE=0 the one kernel, FPRE=1 the prep kernel's
 * filter transforms into a workspace, then the main kernel on them
 * (ws_exec.h). */
extern const ct_executor ct_wino_exec;

/* fp32 and bf16 (no bf16 mma before sm_80); f16 has the m16n8k8
 * tensor-core templates on sm_75 (the code computes f16 too). */
#define CT_KERNEL_wino(nm, family)                                                                           \
    {.name = nm,                                                                                             \
     .summary = "3x3 stride-1 layers below sm_80: Winograd F(2x2,3x3), input patches and filters "           \
                "transformed as they are staged (FPRE=1: the filters once a call by a prep kernel), 16 FFMA " \
                "GEMMs (one per transform position) of THREAD_M x THREAD_N outer products, outputs "         \
                "transformed back through shared memory",                                                    \
     .params = ct_wino_params, .nparams = CT_WINO_NPARAMS,                                                   \
     .dtypes = (1u << CT_DTYPE_F32) | (1u << CT_DTYPE_BF16), .exec = &ct_wino_exec, .kind = &ct_kind_wino,   \
     .kernel = "wino"}

#endif
