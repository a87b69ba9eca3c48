// conv2d_tiledh: conv2d_tiled for bf16 and f16 problems (CT_DTYPE 1 or 2).
//
//   out[b][y][x] = sum_{i<CONV_KH, j<CONV_KW} in[b][y + i - CONV_PH][x + j - CONV_PW] * f[i][j]
//
// The same tile, register blocking, row windows and parameters as
// conv2d_tiled (see there). The staged tile holds floats, widened once as
// the block stages it, so the window loads and the fp32 FMAs are those of
// conv2d_tiled; each output is rounded once when stored (ct_half_io.cuh).
// A constant-memory filter holds the elements as the caller gave them and is
// widened where a tap is used (the compiler keeps a widened row in registers
// when KH_STEP is 1); a shared filter is widened when it is staged.
//
// Problem macros: CONV_B, CONV_H, CONV_W, CONV_KH, CONV_KW, CONV_OH, CONV_OW,
// CONV_PH, CONV_PW, CT_DTYPE.
// Tuning macros: BLOCK_X, BLOCK_Y, OUT_X, OUT_Y, FILTER_PLACEMENT, KH_STEP,
// VEC, SMEM_PAD, MIN_BLOCKS (conv2d_tiled's).
// Launch: block (BLOCK_X, BLOCK_Y),
//         grid (ceil(OW/(BLOCK_X*OUT_X)), ceil(OH/(BLOCK_Y*OUT_Y)), B).
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

#define NTHREADS (BLOCK_X * BLOCK_Y)
#define TILE_OW (BLOCK_X * OUT_X)
#define TILE_OH (BLOCK_Y * OUT_Y)
#define NWIN (((OUT_X + CONV_KW - 1 + VEC - 1) / VEC) * VEC)
#define TILE_W ((BLOCK_X - 1) * OUT_X + NWIN)
#define TILE_H (TILE_OH + CONV_KH - 1)
#define PITCH (TILE_W + SMEM_PAD)
#define KHS (KH_STEP < CONV_KH ? KH_STEP : CONV_KH)
#define KW4 ((CONV_KW + 3) / 4 * 4)
#define STAGE_ROWS ((TILE_H + BLOCK_Y - 1) / BLOCK_Y)
#define STAGE_COLS ((TILE_W + BLOCK_X - 1) / BLOCK_X)

#if FILTER_PLACEMENT == 0
__constant__ ct_elem c_filter[CONV_KH * CONV_KW];
#define CT_SYMBOL_c_filter 1   // tells an exported launcher to fill c_filter
#define FILT(i, j) ct_ld(&c_filter[(i) * CONV_KW + (j)])
#else
#define FILT(i, j) s_filter[(i) * KW4 + (j)]
#endif

// Filter rows kh0 .. kh0+NR-1 for this thread's outputs; srow is its first
// staged value for filter row kh0.
template <int NR>
__device__ __forceinline__ void rows(float (&acc)[OUT_Y][OUT_X], const float *srow, const float *s_filter,
                                     int kh0)
{
#pragma unroll
    for (int r = 0; r < OUT_Y + NR - 1; ++r) {
        float w[NWIN];
#pragma unroll
        for (int i = 0; i < NWIN; i += VEC)
            ct_lds<VEC>(&w[i], srow + r * PITCH + i);
#pragma unroll
        for (int oy = 0; oy < OUT_Y; ++oy) {
            const int j = r - oy;
            if (j >= 0 && j < NR) {
#pragma unroll
                for (int kw = 0; kw < CONV_KW; ++kw) {
                    const float f = FILT(kh0 + j, kw);
#pragma unroll
                    for (int ox = 0; ox < OUT_X; ++ox)
                        acc[oy][ox] = fmaf(w[ox + kw], f, acc[oy][ox]);
                }
            }
        }
    }
    (void)s_filter;
}

extern "C" __global__ void __launch_bounds__(NTHREADS, MIN_BLOCKS)
conv2d_tiledh(const ct_elem *__restrict__ in, const ct_elem *__restrict__ filter,
              ct_elem *__restrict__ out)
{
    __shared__ __align__(16) float s_in[TILE_H * PITCH];
#if FILTER_PLACEMENT == 1
    __shared__ __align__(16) float s_filter[CONV_KH * KW4];
    for (int i = threadIdx.y * BLOCK_X + threadIdx.x; i < CONV_KH * KW4; i += NTHREADS) {
        const int r = i / KW4, c = i - r * KW4;
        s_filter[i] = c < CONV_KW ? ct_ldg(filter + r * CONV_KW + c) : 0.0f;
    }
#else
    const float *s_filter = nullptr;
    (void)filter;
#endif
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int oy0 = blockIdx.y * TILE_OH, ox0 = blockIdx.x * TILE_OW;
    const ct_elem *img = in + (long long)blockIdx.z * CONV_H * CONV_W;

    // Stage the tile, a warp along a row; near an edge the address is
    // clamped into the image and the value replaced by zero outside it. The
    // steps past the tile (last row and column steps) are skipped.
    const int gy0 = oy0 - CONV_PH, gx0 = ox0 - CONV_PW;
    const bool inside = gy0 >= 0 && gy0 + TILE_H <= CONV_H && gx0 >= 0 && gx0 + TILE_W <= CONV_W;
#pragma unroll
    for (int i = 0; i < STAGE_ROWS; ++i) {
        const int sy = ty + i * BLOCK_Y, gy = gy0 + sy;
        const bool row_in = inside || (gy >= 0 && gy < CONV_H);
        const ct_elem *grow = img + (inside ? gy : min(max(gy, 0), CONV_H - 1)) * CONV_W;
#pragma unroll
        for (int j = 0; j < STAGE_COLS; ++j) {
            const int sx = tx + j * BLOCK_X, gx = gx0 + sx;
            if ((TILE_H % BLOCK_Y != 0 && sy >= TILE_H) || (TILE_W % BLOCK_X != 0 && sx >= TILE_W))
                continue;
            const float v = ct_ldg(grow + (inside ? gx : min(max(gx, 0), CONV_W - 1)));
            s_in[sy * PITCH + sx] = (inside || (row_in && gx >= 0 && gx < CONV_W)) ? v : 0.0f;
        }
    }
    __syncthreads();

    float acc[OUT_Y][OUT_X];
#pragma unroll
    for (int oy = 0; oy < OUT_Y; ++oy)
#pragma unroll
        for (int ox = 0; ox < OUT_X; ++ox)
            acc[oy][ox] = 0.0f;

    const float *base = s_in + ty * OUT_Y * PITCH + tx * OUT_X;
#if KHS == CONV_KH
    rows<CONV_KH>(acc, base, s_filter, 0);
#else
    int kh0 = 0;
#pragma unroll 1
    for (; kh0 + KHS <= CONV_KH; kh0 += KHS)
        rows<KHS>(acc, base + kh0 * PITCH, s_filter, kh0);
#if CONV_KH % KHS != 0
    rows<CONV_KH % KHS>(acc, base + kh0 * PITCH, s_filter, kh0);
#endif
#endif

    const int x0 = ox0 + tx * OUT_X;
    ct_elem *o = out + (long long)blockIdx.z * CONV_OH * CONV_OW;
#pragma unroll
    for (int oy = 0; oy < OUT_Y; ++oy) {
        const int y = oy0 + ty * OUT_Y + oy;
        if (y >= CONV_OH)
            break;
        ct_elem *orow = o + y * CONV_OW + x0;
        // 8-byte stores where rows start 8-byte aligned (CONV_OW a multiple of 4).
        if (OUT_X % 4 == 0 && CONV_OW % 4 == 0 && x0 + OUT_X <= CONV_OW) {
#pragma unroll
            for (int ox = 0; ox < OUT_X; ox += 4)
                ct_stg_elems<4>(orow + ox, &acc[oy][ox]);
        } else {
#pragma unroll
            for (int ox = 0; ox < OUT_X; ++ox)
                if (x0 + ox < CONV_OW)
                    ct_st(orow + ox, acc[oy][ox]);
        }
    }
}
