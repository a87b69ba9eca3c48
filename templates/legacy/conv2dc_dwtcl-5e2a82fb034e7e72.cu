// conv2dc_dwtcl: the forward pass of a depthwise conv2dc layer in the
// channels-last layout, every element type; see ct_dwcl_fwd.cuh.
// conv2dc_as2d.cuh: the layer under the names every layer family gives it
// (LY_*), so that one kernel source serves conv1dc (a 2D layer of height 1,
// conv1dc_as2d.cuh) and conv2dc. The sizes are the forward layer's: x is
// B x CIN x H x W, y (the forward output, dy in the passes) B x COUT x OH x
// OW, each in the layout; the weights COUT x CING x KH x KW in both.
// LY_PASS: 0 the forward pass, 1 dgrad, 2 wgrad (CONV_PASS).
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
// conv2dc_layout.cuh: the activations' layout, for the templates that
// compute both (the others' constraints exclude channels-last layers).
// CONV_CHANNELS_LAST is defined (1) only for the channels-last layout nhwc.
// Element index of input (b, c, y, x) and output (b, co, y, x): nchw
// [B][C][H][W], nhwc [B][H][W][C]. The weights are [Cout][Cin/G][KH][KW] in
// both.
#ifndef CONV_CHANNELS_LAST
#define CONV_CHANNELS_LAST 0
#endif
#if CONV_CHANNELS_LAST
#define CONV_IN_AT(b, c, y, x) ((((b) * CONV_H + (y)) * CONV_W + (x)) * CONV_CIN + (c))
#define CONV_OUT_AT(b, co, y, x) ((((b) * CONV_OH + (y)) * CONV_OW + (x)) * CONV_COUT + (co))
#else
#define CONV_IN_AT(b, c, y, x) ((((b) * CONV_CIN + (c)) * CONV_H + (y)) * CONV_W + (x))
#define CONV_OUT_AT(b, co, y, x) ((((b) * CONV_COUT + (co)) * CONV_OH + (y)) * CONV_OW + (x))
#endif
#ifndef CONV_PASS
#define CONV_PASS 0
#endif
#define LY_B CONV_B
#define LY_CIN CONV_CIN
#define LY_COUT CONV_COUT
#define LY_GROUPS CONV_GROUPS
#define LY_CING CONV_CING
#define LY_COUTG CONV_COUTG
#define LY_H CONV_H
#define LY_W CONV_W
#define LY_KH CONV_KH
#define LY_KW CONV_KW
#define LY_OH CONV_OH
#define LY_OW CONV_OW
#define LY_PH CONV_PH
#define LY_PW CONV_PW
#define LY_SY CONV_SH
#define LY_SX CONV_SW
#define LY_DY CONV_DH
#define LY_DX CONV_DW
#define LY_BIAS CONV_BIAS
#define LY_CL CONV_CHANNELS_LAST
#define LY_PASS CONV_PASS
#define LY_X_AT(b, c, y, x) CONV_IN_AT(b, c, y, x)
#define LY_Y_AT(b, c, y, x) CONV_OUT_AT(b, c, y, x)
#define DF_NAME conv2dc_dwtcl
// ct_dwcl_fwd.cuh: the forward pass of a depthwise layer (groups = Cin =
// Cout) in the channels-last layout (NHWC), read through the LY_* names of
// FAMILY_as2d.cuh; every element type (fp32 sums), any stride, dilation and
// padding, bias:
//
//   out[b][y][x][c] = bias[c] + sum over i < KH, j < KW of
//                     in[b][y*SY + i*DY - PH][x*SX + j*DX - PW][c] * w[c][i][j]
//
// A thread owns VEC consecutive channels (one load or store of at most 16
// bytes along C: a warp covers consecutive channels of a pixel, then the
// next pixels, all contiguous in NHWC) and a tile of OUT_Y x OUT_X outputs
// (OUT_Y consecutive rows, OUT_X consecutive columns). It walks the input
// rows its tile reads, (OUT_Y-1)*SY + (KH-1)*DY + 1 of them, one at a time
// (a loop at run time): each row's window of (OUT_X-1)*SX + (KW-1)*DX + 1
// entries is loaded once into registers (entries no tap reads, under stride
// or dilation, never) and then feeds every output row of the tile that the
// row meets, through the filter row i = (r - o*SY) / DY of that output row:
// OUT_X x KW x VEC FMAs per pair, the window indices compile-time constants
// (a fully unrolled body per row). Each input element loaded feeds up to
// OUT_Y x KW FMAs, so loads and conversions (bf16, f16) stay a small part
// of the instructions.
//
// A block is CHANNEL_THREADS x POS_THREADS threads: a slice of channels (the
// grid's fastest index) and POS_THREADS consecutive tiles (along a row of
// tiles, then the next row group, then the next image), so that the tiles
// of a block and of the blocks beside it share their input rows in L1 and
// L2. The block stages its slice's taps in shared memory as fp32, tap-major,
// so that a filter row's taps are vector loads common to the warp's lanes of
// one channel vector; it then computes ITEMS groups of POS_THREADS tiles,
// one after the other (the staging paid once).
//
// PREFETCH 1 holds two windows: the next row's loads are issued before
// the current row's FMAs (in flight during them, where few warps share an
// SM or the row's FMAs are few: strided 3x3 layers).
//
// Tuning macros: VEC, CHANNEL_THREADS, POS_THREADS, OUT_X, OUT_Y, ITEMS,
// PREFETCH (dwclf_conv.c, which mirrors the DF_* sizes below).
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
// ct_vec_io.cuh: moves of VEC consecutive channels of a channels-last
// tensor (NHWC, NLC) between memory and float registers, for the kernels
// whose thread owns VEC channels (templates/kernels/dwclf, dwclbwd): one
// load or store of at most 16 bytes along C, elements widened to float when
// they leave global memory and rounded once when they are stored, so that
// every element type (ct_dtype.cuh) runs the fp32 arithmetic.
//
// VEC (1, 2, 4 or 8) is the including kernel's tuning macro; the pointers
// are VEC-element aligned (the kernel asserts that VEC divides C).
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

#ifndef CT_VEC_IO_CUH
#define CT_VEC_IO_CUH

static_assert(VEC == 1 || VEC == 2 || VEC == 4 || VEC == 8, "VEC is 1, 2, 4 or 8");
static_assert(VEC * sizeof(ct_elem) <= 16, "a vector of channels is one load of at most 16 bytes");

// The VEC channels at p (VEC-element aligned) in one load, widened to float.
__device__ __forceinline__ void ct_vec_load(float (&v)[VEC], const ct_elem *__restrict__ p)
{
#if CT_DTYPE == CT_DTYPE_F32
#if VEC == 4
    const float4 q = __ldg(reinterpret_cast<const float4 *>(p));
    v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
#elif VEC == 2
    const float2 q = __ldg(reinterpret_cast<const float2 *>(p));
    v[0] = q.x; v[1] = q.y;
#else
    v[0] = __ldg(p);
#endif
#else
#if VEC == 8
    __align__(16) ct_elem2 h[4];
    *reinterpret_cast<uint4 *>(h) = __ldg(reinterpret_cast<const uint4 *>(p));
#elif VEC == 4
    __align__(8) ct_elem2 h[2];
    *reinterpret_cast<uint2 *>(h) = __ldg(reinterpret_cast<const uint2 *>(p));
#elif VEC == 2
    __align__(4) ct_elem2 h[1];
    *reinterpret_cast<unsigned *>(h) = __ldg(reinterpret_cast<const unsigned *>(p));
#endif
#if VEC >= 2
#pragma unroll
    for (int k = 0; k < VEC / 2; ++k) {
        const float2 f = ct_ld2(&h[k]);
        v[2 * k] = f.x;
        v[2 * k + 1] = f.y;
    }
#else
    v[0] = ct_ldg(p);
#endif
#endif
}

// ct_vec_load where ok, zeros elsewhere (padding, positions past the layer).
__device__ __forceinline__ void ct_vec_load_or_zero(float (&v)[VEC], const ct_elem *__restrict__ p, bool ok)
{
    if (ok) {
        ct_vec_load(v, p);
    } else {
#pragma unroll
        for (int e = 0; e < VEC; ++e)
            v[e] = 0.0f;
    }
}

// The store of VEC channels, rounded once to the element type.
__device__ __forceinline__ void ct_vec_store_rounded(ct_elem *p, const float (&v)[VEC])
{
#if CT_DTYPE == CT_DTYPE_F32
#if VEC == 4
    *reinterpret_cast<float4 *>(p) = make_float4(v[0], v[1], v[2], v[3]);
#elif VEC == 2
    *reinterpret_cast<float2 *>(p) = make_float2(v[0], v[1]);
#else
    *p = v[0];
#endif
#elif VEC >= 2
    __align__(16) ct_elem2 h[VEC / 2];
#pragma unroll
    for (int k = 0; k < VEC / 2; ++k)
        ct_st2(&h[k], make_float2(v[2 * k], v[2 * k + 1]));
#if VEC == 8
    *reinterpret_cast<uint4 *>(p) = *reinterpret_cast<const uint4 *>(h);
#elif VEC == 4
    *reinterpret_cast<uint2 *>(p) = *reinterpret_cast<const uint2 *>(h);
#else
    *reinterpret_cast<unsigned *>(p) = *reinterpret_cast<const unsigned *>(h);
#endif
#else
    ct_st(p, v[0]);
#endif
}

// VEC floats from shared memory (VEC-float aligned).
__device__ __forceinline__ void ct_vec_load_shared(float (&v)[VEC], const float *p)
{
#if VEC >= 4
#pragma unroll
    for (int k = 0; k < VEC / 4; ++k) {
        const float4 q = reinterpret_cast<const float4 *>(p)[k];
        v[4 * k] = q.x; v[4 * k + 1] = q.y; v[4 * k + 2] = q.z; v[4 * k + 3] = q.w;
    }
#elif VEC == 2
    const float2 q = *reinterpret_cast<const float2 *>(p);
    v[0] = q.x; v[1] = q.y;
#else
    v[0] = *p;
#endif
}

#endif

static_assert(LY_CL, "channels-last (nhwc) layers only");
static_assert(LY_GROUPS == LY_CIN && LY_COUT == LY_CIN, "depthwise layers only");
static_assert(LY_CIN % VEC == 0, "VEC must divide the channels (aligned vectors)");

#define DF_C LY_CIN
#define DF_NCV (DF_C / VEC)                                       // channel vectors of a pixel
#define DF_NCB ((DF_NCV + CHANNEL_THREADS - 1) / CHANNEL_THREADS) // channel slices
#define DF_CW (CHANNEL_THREADS * VEC)                             // channels of a slice
#define DF_TAPS (LY_KH * LY_KW)
#define DF_NXR ((LY_OW + OUT_X - 1) / OUT_X)                      // tiles along a row
#define DF_NRG ((LY_OH + OUT_Y - 1) / OUT_Y)                      // row groups of an image
#define DF_TILES ((long long)LY_B * DF_NRG * DF_NXR)
#define DF_NGRP ((DF_TILES + POS_THREADS - 1) / POS_THREADS)     // groups of POS_THREADS tiles
#define DF_NWX ((OUT_X - 1) * LY_SX + (LY_KW - 1) * LY_DX + 1)    // window entries of an input row
#define DF_NWY ((OUT_Y - 1) * LY_SY + (LY_KH - 1) * LY_DY + 1)    // input rows of a tile

// Whether a tap reads window entry t (others are never loaded).
__device__ __forceinline__ constexpr bool df_used(int t)
{
    for (int x = 0; x < OUT_X; ++x)
        for (int j = 0; j < LY_KW; ++j)
            if (x * LY_SX + j * LY_DX == t)
                return true;
    return false;
}

// Whether output row o of a tile reads the tile's input row r, through
// filter row (r - o*SY) / DY.
__device__ __forceinline__ bool df_meets(int r, int o)
{
    const int d = r - o * LY_SY;
    return d >= 0 && d % LY_DY == 0 && d / LY_DY < LY_KH;
}

// Whether the tile's input row r is inside the image (yy) and read by a tap.
__device__ __forceinline__ bool df_row_ok(int r, int yy)
{
    bool any = false;
#pragma unroll
    for (int o = 0; o < OUT_Y; ++o)
        any = any || df_meets(r, o);
    return any && yy >= 0 && yy < LY_H;
}

// The window of the input row at src (the image's, channel c0) row yy,
// from column xc0: the entries a tap reads, zeros for the padding and for
// a row that is not ok (never dereferenced then).
__device__ __forceinline__ void df_window(float (&win)[DF_NWX][VEC], const ct_elem *__restrict__ src, int yy,
                                          int xc0, bool ok)
{
    const ct_elem *row = src + (long long)(ok ? yy : 0) * LY_W * DF_C;
#pragma unroll
    for (int t = 0; t < DF_NWX; ++t) {
        if ((LY_SX == 1 && LY_DX == 1) || df_used(t)) {
            const int xc = xc0 + t;
            ct_vec_load_or_zero(win[t], row + (long long)xc * DF_C, ok && xc >= 0 && xc < LY_W);
        }
    }
}

// The FMAs of the tile's input row r (window win): every output row o
// that meets it, through filter row (r - o*SY) / DY, its taps read from
// the staged slice (channel cl0 of the slice).
__device__ __forceinline__ void df_row_fma(float (&acc)[OUT_Y][OUT_X][VEC], const float (&win)[DF_NWX][VEC], int r,
                                           const float *s_w, int cl0)
{
#pragma unroll
    for (int o = 0; o < OUT_Y; ++o) {
        if (!df_meets(r, o))
            continue;
        const float *wrow = &s_w[(r - o * LY_SY) / LY_DY * LY_KW * DF_CW + cl0];
#pragma unroll
        for (int j = 0; j < LY_KW; ++j) {
            float wt[VEC];
            ct_vec_load_shared(wt, wrow + j * DF_CW);
#pragma unroll
            for (int x = 0; x < OUT_X; ++x)
#pragma unroll
                for (int e = 0; e < VEC; ++e)
                    acc[o][x][e] = fmaf(wt[e], win[x * LY_SX + j * LY_DX][e], acc[o][x][e]);
        }
    }
}

extern "C" __global__ void __launch_bounds__(CHANNEL_THREADS * POS_THREADS)
DF_NAME(const ct_elem *__restrict__ in, const ct_elem *__restrict__ weight,
#if LY_BIAS
        const ct_elem *__restrict__ bias,
#endif
        ct_elem *__restrict__ out)
{
    __shared__ __align__(16) float s_w[DF_TAPS * DF_CW];   // [tap][channel of the slice]
    const int cb = blockIdx.x % DF_NCB;
    const int tid = threadIdx.y * CHANNEL_THREADS + threadIdx.x;
    // Read in the weights' order (coalesced), written tap-major; channels
    // past the layer (the last slice) stage zeros.
    for (int e = tid; e < DF_TAPS * DF_CW; e += CHANNEL_THREADS * POS_THREADS) {
        const int tap = e % DF_TAPS, cl = e / DF_TAPS, c = cb * DF_CW + cl;
        s_w[tap * DF_CW + cl] = c < DF_C ? ct_ldg(weight + (long long)c * DF_TAPS + tap) : 0.0f;
    }
    __syncthreads();
    const int cv = cb * CHANNEL_THREADS + threadIdx.x;
    if (cv >= DF_NCV)
        return;
    const int c0 = cv * VEC, cl0 = threadIdx.x * VEC;
    float b0[VEC];
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
#if LY_BIAS
        b0[e] = ct_ldg(bias + c0 + e);
#else
        b0[e] = 0.0f;
#endif
    }

#pragma unroll 1
    for (int it = 0; it < ITEMS; ++it) {
        const long long grp = (long long)(blockIdx.x / DF_NCB) * ITEMS + it;
        const long long tile = grp * POS_THREADS + threadIdx.y;
        if (grp >= DF_NGRP || tile >= DF_TILES)
            return;
        const int xr = (int)(tile % DF_NXR);
        const int rg = (int)(tile / DF_NXR % DF_NRG);
        const int b = (int)(tile / ((long long)DF_NXR * DF_NRG));
        const int ox0 = xr * OUT_X, oy0 = rg * OUT_Y;
        const int xc0 = ox0 * LY_SX - LY_PW;   // input column of window entry 0
        const int yr0 = oy0 * LY_SY - LY_PH;   // input row of the tile's row 0
        const ct_elem *src = in + (long long)b * LY_H * LY_W * DF_C + c0;

        float acc[OUT_Y][OUT_X][VEC];
#pragma unroll
        for (int o = 0; o < OUT_Y; ++o)
#pragma unroll
            for (int x = 0; x < OUT_X; ++x)
#pragma unroll
                for (int e = 0; e < VEC; ++e)
                    acc[o][x][e] = b0[e];

#if PREFETCH
        // Two windows: the next row's loads are issued before this row's
        // FMAs, so that they are in flight while the FMAs run.
        float wa[DF_NWX][VEC], wb[DF_NWX][VEC];
        bool oka = df_row_ok(0, yr0);
        df_window(wa, src, yr0, xc0, oka);
#pragma unroll 1
        for (int r = 0; r < DF_NWY; r += 2) {
            const bool okb = r + 1 < DF_NWY && df_row_ok(r + 1, yr0 + r + 1);
            df_window(wb, src, yr0 + r + 1, xc0, okb);
            if (oka)
                df_row_fma(acc, wa, r, s_w, cl0);
            if (r + 1 >= DF_NWY)
                break;
            oka = r + 2 < DF_NWY && df_row_ok(r + 2, yr0 + r + 2);
            df_window(wa, src, yr0 + r + 2, xc0, oka);
            if (okb)
                df_row_fma(acc, wb, r + 1, s_w, cl0);
        }
#else
#pragma unroll 1
        for (int r = 0; r < DF_NWY; ++r) {
            if (!df_row_ok(r, yr0 + r))
                continue;
            float win[DF_NWX][VEC];
            df_window(win, src, yr0 + r, xc0, true);
            df_row_fma(acc, win, r, s_w, cl0);
        }
#endif

        ct_elem *dst = out + (((long long)b * LY_OH + oy0) * LY_OW + ox0) * DF_C + c0;
#pragma unroll
        for (int o = 0; o < OUT_Y; ++o)
#pragma unroll
            for (int x = 0; x < OUT_X; ++x)
                if (oy0 + o < LY_OH && ox0 + x < LY_OW)
                    ct_vec_store_rounded(dst + ((long long)o * LY_OW + x) * DF_C, acc[o][x]);
    }
}
