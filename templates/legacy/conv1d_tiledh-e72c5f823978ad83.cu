// conv1d_tiledh: conv1d_tiled for bf16 and f16 problems (CT_DTYPE 1 or 2).
//
//   out[i] = sum_{j<CONV_K} x[i + j - CONV_OFF] * mask[j],  x = 0 outside [0, CONV_N)
//
// The same register blocking, sliding window, chunking and parameters as
// conv1d_tiled (see there). Elements are widened to float as they leave
// global memory (the staged tile and a shared mask hold floats), the window
// and the sums are fp32, and each output is rounded once when stored
// (ct_half_io.cuh). A constant-memory mask holds the elements as the caller
// gave them and is widened per tap, once for OUTPUTS_PER_THREAD FMAs.
//
// Problem macros: CONV_N, CONV_K, CONV_OUT, CONV_OFF, CT_DTYPE.
// Tuning macros: BLOCK_SIZE, OUTPUTS_PER_THREAD, MASK_PLACEMENT, MASK_PAD,
// ALIGN, STAGE_INPUT, VEC_WIDTH, UNROLL, KCHUNK, MIN_BLOCKS (conv1d_tiled's).
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

#define R OUTPUTS_PER_THREAD
#define VW VEC_WIDTH
#define TILE_OUT (BLOCK_SIZE * R)
#define KSTEP (R * UNROLL)
#if MASK_PAD
#define KP (((CONV_K + KSTEP - 1) / KSTEP) * KSTEP)
#else
#define KP CONV_K
#endif
#define KCH (KCHUNK < KP ? KCHUNK : KP)
#define KCH4 (((KCH) + 3) / 4 * 4)
#define NCHUNK ((KP + KCH - 1) / KCH)
#define TILE_IN (TILE_OUT + KCH4)
// Tiles start at out0 - CONV_OFF + kc, which is this far past a multiple of 4.
#define SHIFT ((4 - (CONV_OFF % 4)) % 4)

#define CT_STR(x) #x
#define CT_PRAGMA(x) _Pragma(CT_STR(x))
#define CT_UNROLL(n) CT_PRAGMA(unroll n)

#if MASK_PLACEMENT == 0
// Zero-initialised at module load, so padded taps past CONV_K are zero.
__constant__ __align__(ALIGN) ct_elem c_mask[(KP + 3) / 4 * 4];
#define CT_SYMBOL_c_mask 1   // tells an exported launcher to fill c_mask
#endif

enum { SRC_SHARED = 0, SRC_GLOBAL = 1, SRC_GLOBAL_CHECKED = 2 };

template <int SRC, int NV>
__device__ __forceinline__ void window(float *d, const float *xs, const ct_elem *in, long long xg)
{
    if (SRC == SRC_SHARED)
        ct_lds<NV>(d, xs);
    else if (SRC == SRC_GLOBAL)
        ct_ldg_elems<NV>(d, in + xg);
    else
        ct_ldg_elems_checked<NV>(d, in, xg, CONV_N);
}

// NV taps from tap kabs: NV new inputs into the window, NV * R FMAs, then
// the window slides by NV.
template <int SRC, int NV>
__device__ __forceinline__ void step(float (&w)[R + VW], float (&acc)[R], const float *xs,
                                     const ct_elem *in, long long xg, const float *ms,
                                     const ct_elem *mask, int kabs)
{
    window<SRC, NV>(&w[R], xs, in, xg);
    float m[NV];
#if MASK_PLACEMENT == 0
#pragma unroll
    for (int v = 0; v < NV; ++v)
        m[v] = ct_ld(&c_mask[kabs + v]);
#elif MASK_PLACEMENT == 1
    ct_lds<NV>(m, ms);
#else
    ct_ldg_elems<NV>(m, mask + kabs);
#endif
#pragma unroll
    for (int v = 0; v < NV; ++v)
#pragma unroll
        for (int r = 0; r < R; ++r)
            acc[r] = fmaf(m[v], w[r + v], acc[r]);
#pragma unroll
    for (int i = 0; i < R; ++i)
        w[i] = w[i + NV];
}

// Taps kc .. kc+klen-1 of this thread's R outputs.
template <int SRC>
__device__ __forceinline__ void run_chunk(float (&acc)[R], const float *xs, const ct_elem *in,
                                          long long xg, const float *ms, const ct_elem *mask,
                                          int kc, int klen)
{
    float w[R + VW];
#pragma unroll
    for (int i = 0; i < R; i += VW)
        window<SRC, VW>(&w[i], xs + i, in, xg + i);
    int k = 0;
    CT_UNROLL(R / VW * UNROLL)
    for (; k + VW <= klen; k += VW)
        step<SRC, VW>(w, acc, xs + R + k, in, xg + R + k, ms + k, mask, kc + k);
    for (; k < klen; ++k)
        step<SRC, 1>(w, acc, xs + R + k, in, xg + R + k, ms + k, mask, kc + k);
}

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
conv1d_tiledh(const ct_elem *__restrict__ in, const ct_elem *__restrict__ mask,
              ct_elem *__restrict__ out)
{
#if STAGE_INPUT
    __shared__ __align__(ALIGN) float s_in[TILE_IN];
#endif
#if MASK_PLACEMENT == 1
    __shared__ __align__(ALIGN) float s_mask[KCH4];
    const float *ms = s_mask;
#else
    const float *ms = nullptr;
#endif
    const int t = threadIdx.x;
    const long long out0 = (long long)blockIdx.x * TILE_OUT;
#if !STAGE_INPUT
    const bool inside = out0 - CONV_OFF >= 0 &&
                        out0 + TILE_OUT + KP - 1 - CONV_OFF < (long long)CONV_N;
#endif
    float acc[R];
#pragma unroll
    for (int r = 0; r < R; ++r)
        acc[r] = 0.0f;

#pragma unroll 1
    for (int c = 0; c < NCHUNK; ++c) {
        const int kc = c * KCH;
        const int klen = (c == NCHUNK - 1) ? (KP - kc) : KCH;
#if STAGE_INPUT || MASK_PLACEMENT == 1
        if (c > 0)
            __syncthreads();
#endif
#if STAGE_INPUT
        // x[g0 .. g0+TILE_IN) as floats, four elements a load from the
        // aligned address just below g0, zeros outside the input.
        const long long ga = out0 - CONV_OFF + kc - SHIFT;
        for (int q = t; q < (TILE_IN + SHIFT + 3) / 4; q += BLOCK_SIZE) {
            const long long g = ga + 4LL * q;
            float v[4];
            if (g >= 0 && g + 3 < CONV_N)
                ct_ldg_elems<4>(v, in + g);
            else
                ct_ldg_elems_checked<4>(v, in, g, CONV_N);
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const int idx = 4 * q + j - SHIFT;
                if (idx >= 0 && idx < TILE_IN)
                    s_in[idx] = v[j];
            }
        }
#endif
#if MASK_PLACEMENT == 1
        for (int i = t; i < KCH4; i += BLOCK_SIZE)
            s_mask[i] = (i < klen && kc + i < CONV_K) ? ct_ldg(mask + kc + i) : 0.0f;
#endif
#if STAGE_INPUT || MASK_PLACEMENT == 1
        __syncthreads();
#endif
#if STAGE_INPUT
        run_chunk<SRC_SHARED>(acc, s_in + t * R, in, 0, ms, mask, kc, klen);
#else
        const long long xg = out0 + (long long)t * R - CONV_OFF + kc;
        if (inside)
            run_chunk<SRC_GLOBAL>(acc, nullptr, in, xg, ms, mask, kc, klen);
        else
            run_chunk<SRC_GLOBAL_CHECKED>(acc, nullptr, in, xg, ms, mask, kc, klen);
#endif
    }

    const long long o = out0 + (long long)t * R;
    if (R % 4 == 0 && o + R <= CONV_OUT) {
#pragma unroll
        for (int r = 0; r + 4 <= R; r += 4)
            ct_stg_elems<4>(out + o + r, &acc[r]);
    } else {
#pragma unroll
        for (int r = 0; r < R; ++r)
            if (o + r < CONV_OUT)
                ct_st(out + o + r, acc[r]);
    }
}
