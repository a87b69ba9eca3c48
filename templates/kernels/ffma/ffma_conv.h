/* ffma_conv.h - the FFMA implicit GEMM of dense and grouped layers in the
 * SGEMM structure (ct_conv_ffma.cuh beside it, through FAMILY_ffma): its
 * parameters, constraints, normalization and launch geometry, for the
 * architectures without fp32 tensor cores (sm_75, a T4). */
#ifndef CT_FFMA_CONV_H
#define CT_FFMA_CONV_H

#include "kernel_kind.h"
#include "problem.h"

#define CT_FFMA_NPARAMS 5
extern const ct_param_def ct_ffma_params[CT_FFMA_NPARAMS];
extern const ct_kernel_kind ct_kind_ffma;

/* fp32, and bf16 (no bf16 mma before sm_80); f16 has the m16n8k8
 * tensor-core templates on sm_75, so no f16 budget is spent here (the code
 * computes f16 as well: the replay checks it). */
#define CT_KERNEL_ffma(nm, family)                                                                           \
    {.name = nm,                                                                                             \
     .summary = "dense and grouped layers below sm_80: an FFMA implicit GEMM in the SGEMM structure, a "     \
                "TILE_M x TILE_N block tile, THREAD_M x THREAD_N outer products from 128-bit shared loads, " \
                "CHUNK_K terms a stage, double-buffered, the im2col gathered by the loading threads",       \
     .params = ct_ffma_params, .nparams = CT_FFMA_NPARAMS,                                                   \
     .dtypes = (1u << CT_DTYPE_F32) | (1u << CT_DTYPE_BF16), .kind = &ct_kind_ffma, .kernel = "ffma"}

#endif
