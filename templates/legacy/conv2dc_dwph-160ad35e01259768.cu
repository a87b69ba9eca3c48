// conv2dc_dwph: conv2dc_dwp for bf16 and f16 layers (CT_DTYPE 1 or 2).
//
// The same warps, planes, frames and items as conv2dc_dwp (see there), with
// the plane and filter widened to float as they are staged: the frame in
// shared memory is fp32, so an item's FMA loop is conv2dc_dwp's, and each
// output is rounded once when stored (ct_half_io.cuh).
//
// cp.async copies bytes and cannot widen, and has no 2-byte size for odd
// planes, so the staging is ordinary loads (VEC = 4: one 8-byte load of 4
// elements and one 16-byte shared store; VEC = 1: element by element), a
// few in flight per lane. It takes the warp's turn: the next plane's
// latency is hidden by the other warps of the SM rather than under this
// warp's FMAs, and one buffer is used (the launch sizes shared memory as
// for conv2dc_dwp; with PLANES > 1 the second lies idle, and PLANES only
// amortises the frame's zeros). Halves of the bytes to move make the copy
// a smaller part of a plane's time than in fp32.
//
// Problem macros: those of conv2dc_dwp and CT_DTYPE. Tuning macros: OUT_X,
// OUT_Y, WARPS, PLANES, VEC (tuner/families/tc/dwp_conv.c).
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
// conv2dc_layer.cuh: the layer fields convtune defines only where they are
// not 1 (stride CONV_SH x CONV_SW, dilation CONV_DH x CONV_DW, CONV_GROUPS
// groups), so that templates that read them see 1 otherwise.
#ifndef CONV_SH
#define CONV_SH 1
#endif
#ifndef CONV_SW
#define CONV_SW 1
#endif
#ifndef CONV_DH
#define CONV_DH 1
#endif
#ifndef CONV_DW
#define CONV_DW 1
#endif
#ifndef CONV_GROUPS
#define CONV_GROUPS 1
#endif
#define CONV_CING (CONV_CIN / CONV_GROUPS)     // input channels of a group
#define CONV_COUTG (CONV_COUT / CONV_GROUPS)   // output channels of a group

#define DW_CDIV(a, b) (((a) + (b) - 1) / (b))
#define DW_RUP(a, b) (DW_CDIV(a, b) * (b))
#define DW_MAX(a, b) ((a) > (b) ? (a) : (b))
#define NPLANES (CONV_B * CONV_CIN)
#define STAGES (PLANES > 1 ? 2 : 1)
#define NIY DW_CDIV(CONV_OH, OUT_Y)                   // items down the plane
#define NIX DW_CDIV(CONV_OW, OUT_X)                   // items along a row
#define NITEMS (NIY * NIX)
#define LEAD (VEC == 4 ? (4 - CONV_PW % 4) % 4 : 0)   // frame columns before the left halo
#define STEP (OUT_X * CONV_SW)                        // columns between items' windows
#define LV (LEAD % 4 == 0 && STEP % 4 == 0 ? 4 : LEAD % 2 == 0 && STEP % 2 == 0 ? 2 : 1)
#define NWX ((OUT_X - 1) * CONV_SW + (CONV_KW - 1) * CONV_DW + 1)
#define NWL DW_RUP(NWX, LV)
#define NR ((OUT_Y - 1) * CONV_SH + (CONV_KH - 1) * CONV_DH + 1)   // input rows of an item
// The frame: every row and column an item reads, and the whole plane.
#define SIH DW_MAX((NIY * OUT_Y - 1) * CONV_SH + (CONV_KH - 1) * CONV_DH + 1, CONV_PH + CONV_H)
#define PITCH DW_RUP(DW_MAX(LEAD + (NIX - 1) * STEP + NWL, LEAD + CONV_PW + CONV_W), 4)
#define S_IN (SIH * PITCH)
#define KWP DW_RUP(CONV_KW, 4)
#define S_W (CONV_KH * KWP)
#define BUF (S_IN + S_W)                              // floats, a multiple of 4

static_assert(CONV_GROUPS == CONV_CIN && CONV_COUT == CONV_CIN, "depthwise layers only");
static_assert(VEC == 1 || CONV_W % 4 == 0, "4-element loads need whole 4-element rows");

// Zeros everywhere the staging never writes: the halo and the filter's
// columns past KW. Once per warp; the staging leaves them alone.
__device__ __forceinline__ void dwp_frame(float *b, int lane)
{
    for (int e = lane; e < BUF; e += 32) {
        bool copied;
        if (e < S_IN) {
            const int r = e / PITCH - CONV_PH, q = e % PITCH - LEAD - CONV_PW;
            copied = r >= 0 && r < CONV_H && q >= 0 && q < CONV_W;
        } else {
            copied = (e - S_IN) % KWP < CONV_KW;
        }
        if (!copied)
            b[e] = 0.0f;
    }
}

// Plane p and its filter widened into buffer b (over the zeros of the frame).
__device__ __forceinline__ void dwph_stage(float *b, const ct_elem *__restrict__ in,
                                           const ct_elem *__restrict__ weight, int p, int lane)
{
    const ct_elem *src = in + (long long)p * (CONV_H * CONV_W);
    float *dst = b + CONV_PH * PITCH + LEAD + CONV_PW;
#if VEC == 4
#pragma unroll 4
    for (int e = lane; e < CONV_H * CONV_W / 4; e += 32) {
        float v[4];
        ct_ldg_elems<4>(v, src + 4 * e);
        *reinterpret_cast<float4 *>(dst + (e / (CONV_W / 4)) * PITCH + (e % (CONV_W / 4)) * 4) =
            make_float4(v[0], v[1], v[2], v[3]);
    }
#else
#pragma unroll 4
    for (int e = lane; e < CONV_H * CONV_W; e += 32)
        dst[(e / CONV_W) * PITCH + e % CONV_W] = ct_ldg(src + e);
#endif
    const ct_elem *w = weight + (long long)(p % CONV_CIN) * (CONV_KH * CONV_KW);
    for (int e = lane; e < CONV_KH * CONV_KW; e += 32)
        b[S_IN + (e / CONV_KW) * KWP + e % CONV_KW] = ct_ldg(w + e);
}

// The OUT_Y x OUT_X outputs of item `it` of the plane staged in b.
__device__ __forceinline__ void dwp_item(const float *b, int it, float b0, ct_elem *__restrict__ dst)
{
    const int ty = it / NIX, tx = it % NIX;
    float acc[OUT_Y][OUT_X];
#pragma unroll
    for (int a = 0; a < OUT_Y; ++a)
#pragma unroll
        for (int o = 0; o < OUT_X; ++o)
            acc[a][o] = b0;
    const float *base = b + (ty * OUT_Y * CONV_SH) * PITCH + LEAD + tx * STEP;
    const float *taps = b + S_IN;
    // Unrolled whole where the body stays small: the row tests fold away.
#if CONV_KH * CONV_KW * OUT_Y * OUT_X <= 2048
#pragma unroll
#else
#pragma unroll 1
#endif
    for (int r = 0; r < NR; ++r) {
        float win[NWL];
#pragma unroll
        for (int u = 0; u < NWL; u += LV)
            ct_lds<LV>(&win[u], base + r * PITCH + u);
#pragma unroll
        for (int a = 0; a < OUT_Y; ++a) {
            // Output row a reads this input row through filter row d / DH
            // (the same for every lane: a uniform branch).
            const int d = r - a * CONV_SH;
            if (d >= 0 && d < CONV_KH * CONV_DH && d % CONV_DH == 0) {
                const float *wr = taps + (d / CONV_DH) * KWP;
#pragma unroll
                for (int jq = 0; jq < KWP; jq += 4) {
                    float t[4];
                    ct_lds<4>(t, wr + jq);
#pragma unroll
                    for (int jj = 0; jj < 4; ++jj)
                        if (jq + jj < CONV_KW) {
#pragma unroll
                            for (int o = 0; o < OUT_X; ++o)
                                acc[a][o] = fmaf(t[jj], win[o * CONV_SW + (jq + jj) * CONV_DW], acc[a][o]);
                        }
                }
            }
        }
    }
    const int x0 = tx * OUT_X;
#pragma unroll
    for (int a = 0; a < OUT_Y; ++a) {
        const int y = ty * OUT_Y + a;
        if (y >= CONV_OH)
            break;
        ct_elem *row = dst + y * CONV_OW + x0;
        if (CONV_OW % 4 == 0 && OUT_X % 4 == 0 && x0 + OUT_X <= CONV_OW) {
#pragma unroll
            for (int o = 0; o < OUT_X; o += 4)
                ct_stg_elems<4>(row + o, &acc[a][o]);
        } else {
#pragma unroll
            for (int o = 0; o < OUT_X; ++o)
                if (x0 + o < CONV_OW)
                    ct_st(row + o, acc[a][o]);
        }
    }
}

extern "C" __global__ void __launch_bounds__(32 * WARPS)
conv2dc_dwph(const ct_elem *__restrict__ in, const ct_elem *__restrict__ weight,
#if CONV_BIAS
             const ct_elem *__restrict__ bias,
#endif
             ct_elem *__restrict__ out)
{
    extern __shared__ __align__(16) float smem[];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int first = (blockIdx.x * WARPS + warp) * PLANES;
    if (first >= NPLANES)
        return;
    const int n = NPLANES - first < PLANES ? NPLANES - first : PLANES;
    float *buf = smem + warp * (STAGES * BUF);
    dwp_frame(buf, lane);
    for (int k = 0; k < n; ++k) {
        const int p = first + k;
        dwph_stage(buf, in, weight, p, lane);
        // Every lane's stores (and zeros) visible to the whole warp.
        __syncwarp();
#if CONV_BIAS
        const float b0 = ct_ldg(bias + p % CONV_CIN);
#else
        const float b0 = 0.0f;
#endif
        ct_elem *dst = out + (long long)p * (CONV_OH * CONV_OW);
        for (int it = lane; it < NITEMS; it += 32)
            dwp_item(buf, it, b0, dst);
        // The buffer is read until here before the next plane overwrites it.
        __syncwarp();
    }
}
