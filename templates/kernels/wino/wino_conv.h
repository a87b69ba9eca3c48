/* wino_conv.h - Winograd F(2x2, 3x3) on the FMA units for dense and grouped
 * 3x3 layers of stride 1 (ct_conv_wino.cuh beside it, through
 * FAMILY_wino): its parameters, constraints and launch geometry, for the
 * architectures without fp32 tensor cores (sm_75, a T4). */
#ifndef CT_WINO_CONV_H
#define CT_WINO_CONV_H

#include "kernel_kind.h"
#include "problem.h"

#define CT_WINO_NPARAMS 7
extern const ct_param_def ct_wino_params[CT_WINO_NPARAMS];
extern const ct_kernel_kind ct_kind_wino;

/* fp32 and bf16 (no bf16 mma before sm_80); f16 has the m16n8k8
 * tensor-core templates on sm_75 (the code computes f16 too). */
#define CT_KERNEL_wino(nm, family)                                                                           \
    {.name = nm,                                                                                             \
     .summary = "3x3 stride-1 layers below sm_80: Winograd F(2x2,3x3) in one kernel, input patches and "     \
                "filters transformed as they are staged, 16 FFMA GEMMs (one per transform position) of "     \
                "THREAD_M x THREAD_N outer products, outputs transformed back through shared memory",        \
     .params = ct_wino_params, .nparams = CT_WINO_NPARAMS,                                                   \
     .dtypes = (1u << CT_DTYPE_F32) | (1u << CT_DTYPE_BF16), .kind = &ct_kind_wino, .kernel = "wino"}

#endif
