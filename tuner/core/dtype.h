/* dtype.h - the host side of the half element types: rounding floats to
 * bf16 and f16 exactly as the device's __float2bfloat16_rn and
 * __float2half_rn do, widening them back, and the verification tolerance of
 * each type. The types themselves (ct_dtype) are declared with the problem
 * (problem.h). */
#ifndef CT_DTYPE_H
#define CT_DTYPE_H

#include <stddef.h>
#include <stdint.h>

#include "problem.h"

/* Round to nearest, ties to even; overflow gives an infinity, NaN a quiet
 * NaN; f16 keeps subnormals. */
uint16_t ct_f32_to_bf16(float f);
uint16_t ct_f32_to_f16(float f);
float ct_bf16_to_f32(uint16_t h);
float ct_f16_to_f32(uint16_t h);

/* The float nearest to f that type t holds in memory (f itself for f32
 * and tf32, whose buffers are fp32). */
float ct_dtype_round(ct_dtype t, float f);

/* dst gets n elements of type t (ct_dtype_size(t) bytes each) rounded from
 * src. */
void ct_dtype_narrow(ct_dtype t, const float *src, void *dst, size_t n);

/* buf holds n elements of type t at its start; afterwards it holds them as
 * n floats (it must have room for them). */
void ct_dtype_widen(ct_dtype t, void *buf, size_t n);

/* The CUDA C type of an element of t ("__nv_bfloat16", "__half", "float"
 * for f32 and tf32) and the toolkit header that declares it ("cuda_bf16.h",
 * "cuda_fp16.h"; NULL for f32 and tf32), as exports write them. */
const char *ct_dtype_c_type(ct_dtype t);
const char *ct_dtype_header(ct_dtype t);

/* The bits of a quiet NaN of a half type (what outputs are filled with
 * before a run). */
uint16_t ct_dtype_nan_bits(ct_dtype t);

/* The relative L2 bound a candidate of a problem of type t must meet
 * against the fp64 reference of its rounded inputs: f32_tolerance (the
 * [verify] setting) for f32, else twice the type's unit roundoff (bf16
 * 2^-7, f16 2^-10, tf32 2^-10). Rounding the output once to the type gives
 * about u/sqrt(3) at most (docs/PROBLEMS.md "Half precision"); rounding
 * both operands of every product to TF32 (to nearest) about u*sqrt(2/3)
 * (docs/PROBLEMS.md "TF32"). */
double ct_dtype_tolerance(ct_dtype t, double f32_tolerance);

/* The verdict of verification: 1 when a result of relative L2 error relerr
 * passes for a problem of type t (relerr <= ct_dtype_tolerance(t,
 * f32_tolerance); NaN never does), else 0. The runner and the cuDNN
 * baseline's graph check judge by it. */
int ct_dtype_verified(ct_dtype t, double relerr, double f32_tolerance);

/* The compute ceiling of a problem of type t among a device's measured
 * ones: the fp32 FMA rate for f32, the half tensor-core rate for bf16 and
 * f16 (their kernels run on the tensor cores; the FMA rate would put them
 * far above 100%), half of it for tf32 (a TF32 mma does half the work of a
 * half one in the same time on sm_80 and sm_90). 0 when that one was not
 * measured. */
double ct_dtype_peak_tflops(ct_dtype t, double fma_tflops, double tc_half_tflops);

/* f rounded to TF32 (10 stored mantissa bits) to nearest, ties away from
 * zero, as the device's cvt.rna.tf32.f32 does: the operand a tf32 kernel
 * hands the tensor cores. */
float ct_tf32_round(float f);

#endif
