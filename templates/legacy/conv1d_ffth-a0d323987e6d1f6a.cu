// conv1d_ffth: conv1d_fft for bf16 and f16 problems (CT_DTYPE 1 or 2).
//
// The same overlap-save pipeline and parameters as conv1d_fft (see there),
// with its kernel names, so one executor runs both: the gather widens the
// input and mask elements to float as it writes the rows, the transforms
// and the spectrum product stay fp32 in cuFFT, and the scatter rounds each
// output once to the element type.
//
// Problem macros: CONV_N, CONV_K, CONV_OUT, CONV_OFF, CT_DTYPE.
// Tuning macros: FFT_SIZE, BLOCK_SIZE.
// ct_dtype.cuh - the element type of a problem's buffers, for templates.
//
// CT_DTYPE is the problem's ct_dtype (tuner/core/problem.h): 0 f32, 1 bf16,
// 2 f16. The tuner defines it for bf16 and f16 problems only, so the kernels
// and exports of f32 problems are those of before; here it defaults to 0.
// Inputs, weights, bias and outputs are ct_elem in memory; kernels load them
// to float (ct_ld), sum in fp32 and round once when they store (ct_st, round
// to nearest even); ct_ldg loads through the read-only cache. The pair forms move two neighbouring elements as one
// 32-bit word (64-bit for f32) and need its alignment.
#ifndef CT_DTYPE_CUH
#define CT_DTYPE_CUH

#ifndef CT_DTYPE
#define CT_DTYPE 0
#endif
#define CT_DTYPE_F32 0
#define CT_DTYPE_BF16 1
#define CT_DTYPE_F16 2

#if CT_DTYPE == CT_DTYPE_BF16
#include <cuda_bf16.h>
typedef __nv_bfloat16 ct_elem;
typedef __nv_bfloat162 ct_elem2;
__device__ __forceinline__ float ct_ld(const ct_elem *p) { return __bfloat162float(*p); }
__device__ __forceinline__ void ct_st(ct_elem *p, float v) { *p = __float2bfloat16_rn(v); }
__device__ __forceinline__ float ct_ldg(const ct_elem *p) { return __bfloat162float(__ldg(p)); }
__device__ __forceinline__ float2 ct_ld2(const ct_elem2 *p) { return __bfloat1622float2(*p); }
__device__ __forceinline__ void ct_st2(ct_elem2 *p, float2 v) { *p = __float22bfloat162_rn(v); }
#elif CT_DTYPE == CT_DTYPE_F16
#include <cuda_fp16.h>
typedef __half ct_elem;
typedef __half2 ct_elem2;
__device__ __forceinline__ float ct_ld(const ct_elem *p) { return __half2float(*p); }
__device__ __forceinline__ void ct_st(ct_elem *p, float v) { *p = __float2half_rn(v); }
__device__ __forceinline__ float ct_ldg(const ct_elem *p) { return __half2float(__ldg(p)); }
__device__ __forceinline__ float2 ct_ld2(const ct_elem2 *p) { return __half22float2(*p); }
__device__ __forceinline__ void ct_st2(ct_elem2 *p, float2 v) { *p = __float22half2_rn(v); }
#elif CT_DTYPE == CT_DTYPE_F32
typedef float ct_elem;
typedef float2 ct_elem2;
__device__ __forceinline__ float ct_ld(const ct_elem *p) { return *p; }
__device__ __forceinline__ void ct_st(ct_elem *p, float v) { *p = v; }
__device__ __forceinline__ float ct_ldg(const ct_elem *p) { return __ldg(p); }
__device__ __forceinline__ float2 ct_ld2(const ct_elem2 *p) { return *p; }
__device__ __forceinline__ void ct_st2(ct_elem2 *p, float2 v) { *p = v; }
#else
#error "CT_DTYPE must be 0 (f32), 1 (bf16) or 2 (f16)"
#endif

#endif

#define FFT_S (FFT_SIZE - CONV_K + 1)                 // outputs per segment
#define FFT_CS (FFT_SIZE / 2 + 1)                     // complex bins per row
#define FFT_RS (2 * FFT_CS)                           // floats per row (in-place layout)
#define FFT_NSEG ((CONV_OUT + FFT_S - 1) / FFT_S)

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
conv1d_fft_gather(const ct_elem *__restrict__ in, const ct_elem *__restrict__ mask, float *__restrict__ buf)
{
    const long long total = (long long)(FFT_NSEG + 1) * FFT_SIZE;
    for (long long i = (long long)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < total;
         i += (long long)gridDim.x * BLOCK_SIZE) {
        const long long row = i / FFT_SIZE;
        const int t = (int)(i - row * FFT_SIZE);
        const long long g = row * FFT_S + t - CONV_OFF;
        const bool have = row < FFT_NSEG ? g >= 0 && g < CONV_N : t < CONV_K;
        buf[row * FFT_RS + t] = have ? ct_ldg(row < FFT_NSEG ? in + g : mask + t) : 0.0f;
    }
}

// X *= conj(M) / FFT_SIZE for every segment's spectrum X; M is the last row.
extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
conv1d_fft_multiply(float2 *__restrict__ spec)
{
    const float scale = 1.0f / FFT_SIZE;
    const float2 *__restrict__ m = spec + (long long)FFT_NSEG * FFT_CS;
    for (long long i = (long long)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < (long long)FFT_NSEG * FFT_CS;
         i += (long long)gridDim.x * BLOCK_SIZE) {
        const float2 x = spec[i], w = m[i % FFT_CS];
        spec[i] = make_float2((x.x * w.x + x.y * w.y) * scale, (x.y * w.x - x.x * w.y) * scale);
    }
}

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
conv1d_fft_scatter(const float *__restrict__ buf, ct_elem *__restrict__ out)
{
    for (long long i = (long long)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < CONV_OUT;
         i += (long long)gridDim.x * BLOCK_SIZE) {
        const long long row = i / FFT_S;
        ct_st(out + i, buf[row * FFT_RS + (i - row * FFT_S)]);
    }
}
