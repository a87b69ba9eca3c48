// conv1dc_dwclh: conv1dc_dwcl for bf16 and f16 layers (CT_DTYPE 1 or 2).
//
// The same stream over channels-last rows and parameters as conv1dc_dwcl
// (see there): a thread's VEC channels arrive in one 8-, 4- or 2-byte load
// and are widened to float (ct_half_io.cuh), the window, weights, bias and
// sums are fp32, and each output vector is rounded once when stored.
//
// Problem macros: those of conv1dc_dwcl and CT_DTYPE. Tuning macros: VEC,
// CHANNEL_THREADS, POS_THREADS, POS_PER_THREAD, CHUNK.
// ct_half_io.cuh - vector moves of bf16/f16 elements widened to float, for
// the half-precision direct templates (conv1d_tiledh, conv2d_tiledh, ...).
//
// These templates keep the register windows and shared-memory tiles of
// their fp32 counterparts in float: elements are widened once, when they
// leave global memory, so the multiply-add loops are the fp32 ones; each
// output is rounded once, when it is stored. The fp32 templates keep their
// own text (stored results are tied to its hash), so this is new code.
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

#ifndef CT_HALF_IO_CUH
#define CT_HALF_IO_CUH

#if CT_DTYPE == CT_DTYPE_F32
#error "ct_half_io.cuh serves bf16 and f16 problems; fp32 has its own templates"
#endif

// NV floats from shared memory (NV * 4-byte aligned).
template <int NV>
__device__ __forceinline__ void ct_lds(float *d, const float *p)
{
    if (NV == 4) {
        const float4 v = *reinterpret_cast<const float4 *>(p);
        d[0] = v.x; d[1] = v.y; d[2] = v.z; d[3] = v.w;
    } else if (NV == 2) {
        const float2 v = *reinterpret_cast<const float2 *>(p);
        d[0] = v.x; d[1] = v.y;
    } else {
#pragma unroll
        for (int i = 0; i < NV; ++i)
            d[i] = p[i];
    }
}

// NV elements through the read-only cache in one load (NV * 2-byte aligned),
// widened to float.
template <int NV>
__device__ __forceinline__ void ct_ldg_elems(float *d, const ct_elem *p)
{
    if (NV == 4) {
        __align__(8) ct_elem2 h[2];
        *reinterpret_cast<uint2 *>(h) = __ldg(reinterpret_cast<const uint2 *>(p));
        const float2 a = ct_ld2(&h[0]), b = ct_ld2(&h[1]);
        d[0] = a.x; d[1] = a.y; d[2] = b.x; d[3] = b.y;
    } else if (NV == 2) {
        __align__(4) ct_elem2 h;
        *reinterpret_cast<unsigned *>(&h) = __ldg(reinterpret_cast<const unsigned *>(p));
        const float2 a = ct_ld2(&h);
        d[0] = a.x; d[1] = a.y;
    } else {
#pragma unroll
        for (int i = 0; i < NV; ++i)
            d[i] = ct_ldg(p + i);
    }
}

// Elements g .. g+NV-1 of a buffer of n elements, zero outside it.
template <int NV>
__device__ __forceinline__ void ct_ldg_elems_checked(float *d, const ct_elem *p, long long g, long long n)
{
#pragma unroll
    for (int i = 0; i < NV; ++i)
        d[i] = (g + i >= 0 && g + i < n) ? ct_ldg(p + g + i) : 0.0f;
}

// NV outputs rounded to the element type, stored in one instruction
// (NV * 2-byte aligned).
template <int NV>
__device__ __forceinline__ void ct_stg_elems(ct_elem *p, const float *v)
{
    if (NV == 4) {
        __align__(8) ct_elem2 h[2];
        ct_st2(&h[0], make_float2(v[0], v[1]));
        ct_st2(&h[1], make_float2(v[2], v[3]));
        *reinterpret_cast<uint2 *>(p) = *reinterpret_cast<const uint2 *>(h);
    } else if (NV == 2) {
        ct_st2(reinterpret_cast<ct_elem2 *>(p), make_float2(v[0], v[1]));
    } else {
#pragma unroll
        for (int i = 0; i < NV; ++i)
            ct_st(p + i, v[i]);
    }
}

#endif
// conv1dc_layer.cuh: the layer fields convtune defines only where they are
// not 1 (CONV_STRIDE, CONV_DIL, CONV_GROUPS), so that templates that read
// them see 1 otherwise. CONV_PAD is the zeros before the input (causal:
// (K-1) x CONV_DIL).
#ifndef CONV_STRIDE
#define CONV_STRIDE 1
#endif
#ifndef CONV_DIL
#define CONV_DIL 1
#endif
#ifndef CONV_GROUPS
#define CONV_GROUPS 1
#endif
#define CONV_CING (CONV_CIN / CONV_GROUPS)     // input channels of a group
#define CONV_COUTG (CONV_COUT / CONV_GROUPS)   // output channels of a group
// conv1dc_layout.cuh: the activations' layout, for the templates that
// compute both (the others' constraints exclude channels-last layers).
// CONV_CHANNELS_LAST is defined (1) only for the channels-last layout nlc.
// Element index of input (b, c, x) and output (b, co, t): ncl [B][C][L],
// nlc [B][L][C]. The weights are [Cout][Cin/G][K] in both.
#ifndef CONV_CHANNELS_LAST
#define CONV_CHANNELS_LAST 0
#endif
#if CONV_CHANNELS_LAST
#define CONV_IN_AT(b, c, x) (((b) * CONV_L + (x)) * CONV_CIN + (c))
#define CONV_OUT_AT(b, co, t) (((b) * CONV_LOUT + (t)) * CONV_COUT + (co))
#else
#define CONV_IN_AT(b, c, x) (((b) * CONV_CIN + (c)) * CONV_L + (x))
#define CONV_OUT_AT(b, co, t) (((b) * CONV_COUT + (co)) * CONV_LOUT + (t))
#endif

#define NCV (CONV_CIN / VEC)                                     // channel vectors of a row
#define NCB ((NCV + CHANNEL_THREADS - 1) / CHANNEL_THREADS)      // blocks across the channels
#define RUN (POS_THREADS * POS_PER_THREAD)                       // positions per block
#define NPB ((CONV_LOUT + RUN - 1) / RUN)                        // blocks along the positions
#define NWC ((CHUNK - 1) * CONV_STRIDE + (CONV_K - 1) * CONV_DIL + 1)   // rows of a step's window
#define STEP (CHUNK * CONV_STRIDE)                               // rows between two steps' windows
#define KEEP (NWC > STEP ? NWC - STEP : 0)                       // rows a step hands to the next

static_assert(CONV_CHANNELS_LAST, "channels-last (nlc) layers only");
static_assert(CONV_GROUPS == CONV_CIN && CONV_COUT == CONV_CIN, "depthwise layers only");
static_assert(VEC == 1 || VEC == 2 || VEC == 4, "VEC is 1, 2 or 4");
static_assert(CONV_CIN % VEC == 0, "VEC must divide the channels (aligned vectors)");
static_assert(POS_PER_THREAD % CHUNK == 0, "CHUNK must divide POS_PER_THREAD");

// Whether window row u of a step is read by a tap of this step or, carried,
// of a later one: rows no tap reads (stride or dilation > 1) are not loaded.
__device__ __forceinline__ constexpr bool dwcl_used(int u)
{
    for (int r = u; r >= 0; r -= STEP)
        for (int o = 0; o < CHUNK; ++o) {
            const int d = r - o * CONV_STRIDE;
            if (d >= 0 && d % CONV_DIL == 0 && d / CONV_DIL < CONV_K)
                return true;
        }
    return false;
}

// The VEC channels of input row x (zeros outside [0, L)).
__device__ __forceinline__ void dwcl_load(float (&v)[VEC], const ct_elem *__restrict__ src, int x)
{
    if (x < 0 || x >= CONV_L) {
#pragma unroll
        for (int e = 0; e < VEC; ++e)
            v[e] = 0.0f;
        return;
    }
    ct_ldg_elems<VEC>(v, src + x * CONV_CIN);
}

extern "C" __global__ void __launch_bounds__(CHANNEL_THREADS * POS_THREADS)
conv1dc_dwclh(const ct_elem *__restrict__ in, const ct_elem *__restrict__ weight,
#if CONV_BIAS
              const ct_elem *__restrict__ bias,
#endif
              ct_elem *__restrict__ out)
{
    const int cb = blockIdx.x % NCB;
    const int pb = (blockIdx.x / NCB) % NPB;
    const int b = blockIdx.x / (NCB * NPB);
    const int cv = cb * CHANNEL_THREADS + threadIdx.x;
    const int t0 = pb * RUN + threadIdx.y * POS_PER_THREAD;
    if (cv >= NCV || t0 >= CONV_LOUT)
        return;
    const int c0 = cv * VEC;

    float w[CONV_K][VEC];
#pragma unroll
    for (int e = 0; e < VEC; ++e)
#pragma unroll
        for (int k = 0; k < CONV_K; ++k)
            w[k][e] = ct_ldg(weight + (c0 + e) * CONV_K + k);
    float b0[VEC];
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
#if CONV_BIAS
        b0[e] = ct_ldg(bias + c0 + e);
#else
        b0[e] = 0.0f;
#endif
    }

    // Every buffer holds fewer than 2^31 elements (the family's parser checks).
    const ct_elem *src = in + b * CONV_L * CONV_CIN + c0;
    ct_elem *dst = out + b * CONV_LOUT * CONV_COUT + c0;
    int x0 = t0 * CONV_STRIDE - CONV_PAD;   // input row of window row 0
    float x[NWC][VEC];
#pragma unroll
    for (int u = 0; u < NWC; ++u)
#pragma unroll
        for (int e = 0; e < VEC; ++e)
            x[u][e] = 0.0f;
#pragma unroll
    for (int u = 0; u < KEEP; ++u)
        if (dwcl_used(u))
            dwcl_load(x[u], src, x0 + u);

    for (int t = t0; t < t0 + POS_PER_THREAD && t < CONV_LOUT; t += CHUNK) {
#pragma unroll
        for (int u = KEEP; u < NWC; ++u)
            if (dwcl_used(u))
                dwcl_load(x[u], src, x0 + u);
#pragma unroll
        for (int o = 0; o < CHUNK; ++o) {
            float acc[VEC];
#pragma unroll
            for (int e = 0; e < VEC; ++e) {
                acc[e] = b0[e];
#pragma unroll
                for (int k = 0; k < CONV_K; ++k)
                    acc[e] = fmaf(w[k][e], x[o * CONV_STRIDE + k * CONV_DIL][e], acc[e]);
            }
            if (t + o < CONV_LOUT) {
                ct_stg_elems<VEC>(dst + (t + o) * CONV_COUT, acc);
            }
        }
#pragma unroll
        for (int u = 0; u < KEEP; ++u)
#pragma unroll
            for (int e = 0; e < VEC; ++e)
                x[u][e] = x[u + STEP][e];
        x0 += STEP;
    }
}
