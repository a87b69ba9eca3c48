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

/* The float nearest to f that type t holds (f itself for f32). */
float ct_dtype_round(ct_dtype t, float f);

/* dst gets n elements of type t (ct_dtype_size(t) bytes each) rounded from
 * src. */
void ct_dtype_narrow(ct_dtype t, const float *src, void *dst, size_t n);

/* buf holds n elements of type t at its start; afterwards it holds them as
 * n floats (it must have room for them). */
void ct_dtype_widen(ct_dtype t, void *buf, size_t n);

/* The CUDA C type of an element of t ("__nv_bfloat16", "__half", "float")
 * and the toolkit header that declares it ("cuda_bf16.h", "cuda_fp16.h";
 * NULL for f32), as exports write them. */
const char *ct_dtype_c_type(ct_dtype t);
const char *ct_dtype_header(ct_dtype t);

/* The bits of a quiet NaN of a half type (what outputs are filled with
 * before a run). */
uint16_t ct_dtype_nan_bits(ct_dtype t);

/* The relative L2 bound a candidate of a problem of type t must meet
 * against the fp64 reference of its rounded inputs: f32_tolerance (the
 * [verify] setting) for f32, else twice the type's unit roundoff (bf16
 * 2^-7, f16 2^-10). Rounding the output once to the type gives about
 * u/sqrt(3) at most (docs/PROBLEMS.md "Half precision"). */
double ct_dtype_tolerance(ct_dtype t, double f32_tolerance);

/* The compute ceiling of a problem of type t among a device's measured
 * ones: the fp32 FMA rate for f32, the half tensor-core rate for bf16 and
 * f16 (their kernels run on the tensor cores; the FMA rate would put them
 * far above 100%). 0 when that one was not measured. */
double ct_dtype_peak_tflops(ct_dtype t, double fma_tflops, double tc_half_tflops);

#endif
