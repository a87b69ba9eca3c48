// conv1dc_dwh: conv1dc_dw for bf16 and f16 layers (CT_DTYPE 1 or 2).
//
// The same rows, tiles and register windows as conv1dc_dw (see there): a
// VEC-wide load brings VEC elements (8, 4 or 2 bytes) widened to float
// (ct_half_io.cuh), the taps, window and sums are fp32, and each output
// (vector) is rounded once when stored.
//
// Problem macros: those of conv1dc_dw and CT_DTYPE. Tuning macros:
// BLOCK_SIZE, CHANNELS_PER_BLOCK, OUT_PER_THREAD, VEC
// (tuner/families/tc/dw_conv.c).
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

#define TPR (BLOCK_SIZE / CHANNELS_PER_BLOCK)          // threads per row
#define OPT OUT_PER_THREAD
#define ROWS (CONV_B * CONV_CIN)
#define TILE (TPR * OPT)                              // outputs of a row per block
#define NTILES ((CONV_LOUT + TILE - 1) / TILE)
#define NW ((OPT - 1) * CONV_STRIDE + (CONV_K - 1) * CONV_DIL + 1)   // the window's span
// Aligned loads: t0 is a multiple of VEC, so the window's first input
// t0 - CONV_PAD sits LEAD floats past an aligned address for every thread.
#define LEAD ((VEC - CONV_PAD % VEC) % VEC)
#define NV ((LEAD + NW + VEC - 1) / VEC)              // vectors per window

static_assert(CONV_GROUPS == CONV_CIN && CONV_COUT == CONV_CIN, "depthwise layers only");
static_assert(BLOCK_SIZE % CHANNELS_PER_BLOCK == 0, "CHANNELS_PER_BLOCK must divide BLOCK_SIZE");
static_assert(VEC == 1 || (CONV_STRIDE == 1 && CONV_L % VEC == 0 && CONV_LOUT % VEC == 0 && OPT % VEC == 0),
              "vector loads need stride 1 and aligned rows and windows");

// Whether some output o < OPT reads window position u through some tap:
// the positions no tap reads (stride or dilation > 1) are not loaded.
__device__ __forceinline__ constexpr bool dw_used(int u)
{
    for (int o = 0; o < OPT; ++o) {
        const int r = u - o * CONV_STRIDE;
        if (r >= 0 && r % CONV_DIL == 0 && r / CONV_DIL < CONV_K)
            return true;
    }
    return false;
}

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
conv1dc_dwh(const ct_elem *__restrict__ in, const ct_elem *__restrict__ weight,
#if CONV_BIAS
            const ct_elem *__restrict__ bias,
#endif
            ct_elem *__restrict__ out)
{
    const int tile = blockIdx.x % NTILES;
    const int row = (blockIdx.x / NTILES) * CHANNELS_PER_BLOCK + threadIdx.x / TPR;
    const int t0 = tile * TILE + (threadIdx.x % TPR) * OPT;
    if (row >= ROWS || t0 >= CONV_LOUT)
        return;
    const int c = row % CONV_CIN;

    float w[CONV_K];
#pragma unroll
    for (int k = 0; k < CONV_K; ++k)
        w[k] = ct_ldg(weight + c * CONV_K + k);

    const ct_elem *src = in + (long long)row * CONV_L;
    const int x0 = t0 * CONV_STRIDE - CONV_PAD;       // input of window position 0
#if VEC > 1
    // x[LEAD + u] is input x0 + u. L is a multiple of VEC, so each aligned
    // vector lies wholly inside the row or wholly on padding.
    float x[NV * VEC];
    const int a0 = x0 - LEAD;
#pragma unroll
    for (int v = 0; v < NV; ++v) {
        const int a = a0 + v * VEC;
        if (a >= 0 && a < CONV_L) {
            ct_ldg_elems<VEC>(&x[v * VEC], src + a);
        } else {
#pragma unroll
            for (int e = 0; e < VEC; ++e)
                x[v * VEC + e] = 0.0f;
        }
    }
#else
    float x[NW];
#pragma unroll
    for (int u = 0; u < NW; ++u) {
        if (dw_used(u)) {
            const int p = x0 + u;
            x[u] = p >= 0 && p < CONV_L ? ct_ldg(src + p) : 0.0f;
        } else {
            x[u] = 0.0f;
        }
    }
#endif

#if CONV_BIAS
    const float b0 = ct_ldg(bias + c);
#else
    const float b0 = 0.0f;
#endif
    float acc[OPT];
#pragma unroll
    for (int o = 0; o < OPT; ++o) {
        acc[o] = b0;
#pragma unroll
        for (int k = 0; k < CONV_K; ++k)
            acc[o] = fmaf(w[k], x[LEAD + o * CONV_STRIDE + k * CONV_DIL], acc[o]);
    }

    ct_elem *dst = out + (long long)row * CONV_LOUT + t0;
#if VEC > 1
    // LOUT is a multiple of VEC: a vector is wholly stored or wholly past the end.
#pragma unroll
    for (int v = 0; v < OPT / VEC; ++v) {
        if (t0 + v * VEC < CONV_LOUT)
            ct_stg_elems<VEC>(dst + v * VEC, &acc[v * VEC]);
    }
#else
#pragma unroll
    for (int o = 0; o < OPT; ++o)
        if (t0 + o < CONV_LOUT)
            ct_st(dst + o, acc[o]);
#endif
}
