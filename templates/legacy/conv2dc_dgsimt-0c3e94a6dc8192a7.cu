// conv2dc_dgsimt: the input gradient (dgrad) of a dense or grouped conv2dc
// layer as an implicit GEMM on the FMA units, the output channels split
// over SPLIT slices added by conv2dc_dgsimt_reduce; see ct_gemmbwd.cuh.
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
#define GB_NAME conv2dc_dgsimt
#define GB_REDUCE_NAME conv2dc_dgsimt_reduce
// ct_gemmbwd.cuh: the training passes of a dense or grouped layer (not
// depthwise) as implicit GEMMs on the FMA units, any stride, dilation,
// padding and groups, every element type (ct_dtype.cuh: loads widened to
// float, sums in fp32, one rounding per stored value), written once for both
// families through the LY_* names of FAMILY_as2d.cuh (a conv1dc layer is a
// 2D one of height 1). Both layouts: every global access goes through
// LY_X_AT / LY_Y_AT (the copies are coalesced in NCHW/NCL).
//
// dgrad (LY_PASS 1), kernel GB_NAME(dout, weight, din): per group,
//   M = dx pixels of a tile, N = the group's CING input channels,
//   K = its COUTG output channels x KH x KW,
//   A[m][k] = dy[co][(yy + PH - i*DY) / SY][(xx + PW - j*DX) / SX] where
//   that divides and lies inside dy (no zero insertion), B[k][n] =
//   w[co][n][i][j]. A thread owns OUT_Y x OUT_X dx pixels (consecutive in a
//   row) x CPT input channels; a block CIN_SLICES slices (whole groups when a
//   group has fewer) x one tile of one image, and walks the output channels
//   CC at a time, staging the dy tile with its halo (zeros outside dy) and
//   the weights [cc][i][j][n]. The host keeps OUT_X a multiple of SX and
//   OUT_Y of SY, so every tile and thread starts on a multiple of the stride
//   and which (pixel, tap) pairs divide is known at compile time: a strided
//   layer's skipped taps cost nothing. Where the grid is small (few input
//   channels x pixels, a long reduction: seed 002's length-4 layer) SPLIT
//   slices of the chunks run on blockIdx.z, each writing its partial dx to
//   a workspace that GB_REDUCE_NAME adds in fp64 in a fixed order.
//
// wgrad (LY_PASS 2), kernel GB_NAME(in, dout, dst): per group,
//   M = COUTG, N = CING x KH x KW, K = B x OH x OW (the reduction).
//   A thread owns MR output channels x one (input channel, filter row) x
//   all KW taps; a block a tile of GPB groups x MB output channels x NB
//   input channels (all its owners) x RS reduction lanes, and one slice
//   (blockIdx.z, SPLIT slices) of the chunks of the reduction: a chunk is
//   one image's TOH x TOW output tile, its dy and its haloed x tile staged.
//   A lane sums OUT_X-pixel row segments of the tile, the segments dealt
//   round-robin to the RS lanes. Accuracy: each lane's fp32 partial covers
//   at most GB_MAX_RUN products (the host bounds ceil(chunks / SPLIT) x
//   segments per lane x OUT_X), the RS lanes' partials are then added in
//   fp32 in a fixed order (at most 32 of them), and the SPLIT slices by
//   GB_NAME_reduce in fp64 in slice order: deterministic, no atomics. With
//   SPLIT = 1 the kernel writes dW (then db) itself. The bias gradient
//   (dy summed over everything but its channel) rides along: the owners of
//   input channel 0, filter row 0 of the first input-channel block also sum
//   their dy.
//
// Tuning macros: see gemmbwd_conv.c (the host normalises them to the
// effective values these macros compute).
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

#define GB_CDIV(a, b) (((a) + (b) - 1) / (b))
#define GB_RUP(a, b) (GB_CDIV(a, b) * (b))
// Floor division by b > 0 of a possibly negative a.
#define GB_FDIV(a, b) ((a) >= 0 ? (a) / (b) : -((-(a) + (b) - 1) / (b)))
#define GB_STR(x) #x
#define GB_PRAGMA(x) _Pragma(GB_STR(x))
#define GB_UNROLL(n) GB_PRAGMA(unroll n)
#define GB_KHW (LY_KH * LY_KW)

// N consecutive floats of shared memory into registers (N-aligned).
template <int N>
__device__ __forceinline__ void gb_lds(float *d, const float *p)
{
    if (N == 4) {
        const float4 v = *reinterpret_cast<const float4 *>(p);
        d[0] = v.x; d[1] = v.y; d[2] = v.z; d[3] = v.w;
    } else if (N == 2) {
        const float2 v = *reinterpret_cast<const float2 *>(p);
        d[0] = v.x; d[1] = v.y;
    } else {
        d[0] = *p;
    }
}

// A staging copy of total elements by a block of NT threads: each thread
// issues GB_BATCH loads (ld(idx), the element or 0) before it stores them
// (st(idx, v)), so that several loads per thread are in flight; the
// copies are synchronous and the blocks of an SM overlap them with FMAs.
#define GB_BATCH 8
template <int NT, class Ld, class St>
__device__ __forceinline__ void gb_copy(int total, Ld ld, St st)
{
#pragma unroll 1
    for (int base = threadIdx.x; base < total; base += GB_BATCH * NT) {
        float v[GB_BATCH];
#pragma unroll
        for (int u = 0; u < GB_BATCH; ++u) {
            const int idx = base + u * NT;
            v[u] = idx < total ? ld(idx) : 0.0f;
        }
#pragma unroll
        for (int u = 0; u < GB_BATCH; ++u) {
            const int idx = base + u * NT;
            if (idx < total)
                st(idx, v[u]);
        }
    }
}

#if LY_PASS == 1
// ---- dgrad -----------------------------------------------------------------
// Input channels: NCG slices of CPT per group.
#define DG_CPT_REQ (CIN_PER_THREAD < LY_CING ? CIN_PER_THREAD : LY_CING)
#define DG_NCG GB_CDIV(LY_CING, DG_CPT_REQ)
#define DG_CPT GB_CDIV(LY_CING, DG_NCG)
#define DG_NSL CIN_SLICES
#define DG_GPB (DG_NSL >= DG_NCG ? DG_NSL / DG_NCG : 1)   // groups staged per block
#define DG_NCB GB_CDIV(LY_GROUPS * DG_NCG, DG_NSL)        // channel blocks
// dx tiles, balanced, rounded up to whole threads.
#define DG_TH_REQ (TILE_H == 0 || TILE_H >= LY_H ? LY_H : TILE_H)
#define DG_TW_REQ (TILE_W == 0 || TILE_W >= LY_W ? LY_W : TILE_W)
#define DG_TH GB_RUP(GB_CDIV(LY_H, GB_CDIV(LY_H, DG_TH_REQ)), OUT_Y)
#define DG_TW GB_RUP(GB_CDIV(LY_W, GB_CDIV(LY_W, DG_TW_REQ)), OUT_X)
#define DG_NTY GB_CDIV(LY_H, DG_TH)
#define DG_NTX GB_CDIV(LY_W, DG_TW)
#define DG_XG (DG_TW / OUT_X)
#define DG_PIX ((DG_TH / OUT_Y) * DG_XG)
#define DG_NT GB_RUP(DG_PIX * DG_NSL, 32)
#define DG_MINB (DG_NT >= 256 ? 2 : 512 / DG_NT)
#define DG_CC (COUT_CHUNK == 0 || COUT_CHUNK >= LY_COUTG ? LY_COUTG : COUT_CHUNK)
#define DG_NCH GB_CDIV(LY_COUTG, DG_CC)
// The staged dy tile of a tile at (Y0, X0) (multiples of SY, SX): rows from
// Y0/SY + CYF, columns from X0/SX + CXF, where CYF*SY is the largest
// multiple of SY at or below PH - (KH-1)*DY (the lowest numerator).
#define DG_CYF GB_FDIV(LY_PH - (LY_KH - 1) * LY_DY, LY_SY)
#define DG_CXF GB_FDIV(LY_PW - (LY_KW - 1) * LY_DX, LY_SX)
#define DG_SIH (GB_FDIV(DG_TH - 1 + LY_PH, LY_SY) - DG_CYF + 1)
#define DG_STEP (OUT_X / LY_SX)                            // window step between pixel groups
#define DG_NWX ((OUT_X - 1 + LY_PW - DG_CXF * LY_SX) / LY_SX + 1)
#define DG_LV (DG_STEP % 4 == 0 ? 4 : DG_STEP % 2 == 0 ? 2 : 1)
#define DG_NWL GB_RUP(DG_NWX, DG_LV)
#define DG_PITCH GB_RUP((DG_XG - 1) * DG_STEP + DG_NWL, 4)
#define DG_CHP (DG_SIH * DG_PITCH)
#define DG_S_DY (DG_GPB * DG_CC * DG_CHP)
// Weights [cc][i][j][n of the block], n padded to 4.
#define DG_WP GB_RUP(DG_NSL * DG_CPT, 4)
#define DG_S_W (DG_CC * GB_KHW * DG_WP)
#define DG_WV (DG_CPT % 4 == 0 ? 4 : DG_CPT % 2 == 0 ? 2 : 1)
// Pixel a of a thread's column and filter row i meet a dy row (compile
// time: a and i are unrolled), at staged row offset DG_RY(a, i); the same
// along a row.
#define DG_NUMY(a, i) ((a) + LY_PH - (i) * LY_DY - DG_CYF * LY_SY)
#define DG_NUMX(o, j) ((o) + LY_PW - (j) * LY_DX - DG_CXF * LY_SX)
// Unrolled bodies up to about 1024 FMAs (NVRTC time, instruction cache).
#define DG_ROW_FMAS (LY_KW * DG_CPT * OUT_Y * OUT_X)
#define DG_IUNROLL (LY_KH * DG_ROW_FMAS <= 1024 ? LY_KH : 1)
#define DG_CUNROLL (DG_IUNROLL * DG_ROW_FMAS * 2 <= 1024 ? 2 : 1)

// Stage output-channel chunk k: the dy tiles of the block's groups and the
// weights of its input-channel slices.
__device__ __forceinline__ void dg_stage(float *s, const ct_elem *__restrict__ dout,
                                         const ct_elem *__restrict__ weight, int b, int ry0, int rx0, int g0,
                                         int slot0, int k)
{
    gb_copy<DG_NT>(
        DG_S_DY,
        [&](int idx) {
            const int u = idx % DG_PITCH, rest = idx / DG_PITCH;
            const int r = rest % DG_SIH, ch = rest / DG_SIH;   // ch = gl * CC + cc
            const int g = g0 + ch / DG_CC, co = k * DG_CC + ch % DG_CC;
            const int y = ry0 + r, x = rx0 + u;
            const bool ok = g < LY_GROUPS && co < LY_COUTG && y >= 0 && y < LY_OH && x >= 0 && x < LY_OW;
            return ok ? ct_ld(&dout[LY_Y_AT(b, g * LY_COUTG + co, y, x)]) : 0.0f;
        },
        [&](int idx, float v) { s[idx] = v; });
    // Weights: consecutive threads read consecutive taps, then input
    // channels (one run of a group's channels per output channel).
    float *s_w = s + DG_S_DY;
    constexpr int COLS = DG_NSL * DG_CPT;
    gb_copy<DG_NT>(
        DG_CC * COLS * GB_KHW,
        [&](int idx) {
            const int tap = idx % GB_KHW, col = idx / GB_KHW % COLS, cc = idx / (GB_KHW * COLS);
            const int slot = slot0 + col / DG_CPT, g = slot / DG_NCG, n = slot % DG_NCG * DG_CPT + col % DG_CPT;
            const int co = k * DG_CC + cc;
            const bool ok = g < LY_GROUPS && n < LY_CING && co < LY_COUTG;
            return ok ? ct_ld(&weight[((long long)(g * LY_COUTG + co) * LY_CING + n) * GB_KHW + tap]) : 0.0f;
        },
        [&](int idx, float v) {
            const int tap = idx % GB_KHW, col = idx / GB_KHW % COLS, cc = idx / (GB_KHW * COLS);
            s_w[(cc * GB_KHW + tap) * DG_WP + col] = v;
        });
}

// One staged chunk: src is the thread's first window in its group's first
// staged channel, w its slice's weights of the chunk's first tap.
__device__ __forceinline__ void dg_chunk(float (&acc)[DG_CPT][OUT_Y][OUT_X], const float *src, const float *w)
{
    GB_UNROLL(DG_CUNROLL)
    for (int cc = 0; cc < DG_CC; ++cc) {
        GB_UNROLL(DG_IUNROLL)
        for (int i = 0; i < LY_KH; ++i) {
            float win[OUT_Y][DG_NWL];
#pragma unroll
            for (int a = 0; a < OUT_Y; ++a)
                if (DG_NUMY(a, i) % LY_SY == 0) {
#pragma unroll
                    for (int u = 0; u < DG_NWL; u += DG_LV)
                        gb_lds<DG_LV>(&win[a][u], src + cc * DG_CHP + DG_NUMY(a, i) / LY_SY * DG_PITCH + u);
                }
#pragma unroll
            for (int j = 0; j < LY_KW; ++j) {
                float wr[GB_RUP(DG_CPT, DG_WV)];
#pragma unroll
                for (int c = 0; c < DG_CPT; c += DG_WV)
                    gb_lds<DG_WV>(&wr[c], w + ((cc * LY_KH + i) * LY_KW + j) * DG_WP + c);
#pragma unroll
                for (int c = 0; c < DG_CPT; ++c)
#pragma unroll
                    for (int a = 0; a < OUT_Y; ++a)
#pragma unroll
                        for (int o = 0; o < OUT_X; ++o)
                            if (DG_NUMY(a, i) % LY_SY == 0 && DG_NUMX(o, j) % LY_SX == 0)
                                acc[c][a][o] = fmaf(win[a][DG_NUMX(o, j) / LY_SX], wr[c], acc[c][a][o]);
            }
        }
    }
}

#define GB_TOTAL ((long long)LY_B * LY_CIN * LY_H * LY_W)
#define GB_TOTAL_PP (LY_B * LY_CIN * LY_H * LY_W)   // for #if
#if SPLIT == 1
#define DG_DST ct_elem
#else
#define DG_DST float
#endif

extern "C" __global__ void __launch_bounds__(DG_NT, DG_MINB)
GB_NAME(const ct_elem *__restrict__ dout, const ct_elem *__restrict__ weight, DG_DST *__restrict__ dst)
{
    extern __shared__ __align__(16) float smem[];
    const int cb = blockIdx.x % DG_NCB, rest = blockIdx.x / DG_NCB;
    const int tile = rest % (DG_NTY * DG_NTX), b = rest / (DG_NTY * DG_NTX);
    const int y0 = tile / DG_NTX * DG_TH, x0 = tile % DG_NTX * DG_TW;
    const int ry0 = y0 / LY_SY + DG_CYF, rx0 = x0 / LY_SX + DG_CXF;
    const int slot0 = cb * DG_NSL, g0 = slot0 / DG_NCG;

    const int tid = threadIdx.x;
    const int pix = tid % DG_PIX, sl = tid / DG_PIX;
    const int slot = slot0 + sl, g = slot / DG_NCG, cg = slot % DG_NCG;
    const int ty = pix / DG_XG, xg = pix % DG_XG;
    const bool active = sl < DG_NSL && g < LY_GROUPS;

    float acc[DG_CPT][OUT_Y][OUT_X];
#pragma unroll
    for (int c = 0; c < DG_CPT; ++c)
#pragma unroll
        for (int a = 0; a < OUT_Y; ++a)
#pragma unroll
            for (int o = 0; o < OUT_X; ++o)
                acc[c][a][o] = 0.0f;

    const int win0 = (g - g0) * DG_CC * DG_CHP + ty * (OUT_Y / LY_SY) * DG_PITCH + xg * DG_STEP;
    // This slice's output-channel chunks (all of them without a split).
    const int k0 = DG_NCH * blockIdx.z / SPLIT, k1 = DG_NCH * (blockIdx.z + 1) / SPLIT;
#pragma unroll 1
    for (int k = k0; k < k1; ++k) {
        if (k > k0)
            __syncthreads();   // every thread is done with chunk k-1
        dg_stage(smem, dout, weight, b, ry0, rx0, g0, slot0, k);
        __syncthreads();
        if (active)
            dg_chunk(acc, smem + win0, smem + DG_S_DY + sl * DG_CPT);
    }
    if (!active)
        return;
#pragma unroll
    for (int c = 0; c < DG_CPT; ++c) {
        const int n = cg * DG_CPT + c;
        if (n >= LY_CING)
            break;
#pragma unroll
        for (int a = 0; a < OUT_Y; ++a) {
            const int yy = y0 + ty * OUT_Y + a;
            if (yy >= LY_H)
                break;
#pragma unroll
            for (int o = 0; o < OUT_X; ++o) {
                const int xx = x0 + xg * OUT_X + o;
                if (xx >= LY_W)
                    break;
#if SPLIT == 1
                ct_st(&dst[LY_X_AT(b, g * LY_CING + n, yy, xx)], acc[c][a][o]);
#else
                dst[blockIdx.z * GB_TOTAL + LY_X_AT(b, g * LY_CING + n, yy, xx)] = acc[c][a][o];
#endif
            }
        }
    }
}

#elif LY_PASS == 2
// ---- wgrad -----------------------------------------------------------------
#define GB_MAX_RUN 2048
#define WG_MR (CO_PER_THREAD < LY_COUTG ? CO_PER_THREAD : LY_COUTG)
#define WG_MB_REQ (CO_TILE == 0 || CO_TILE >= LY_COUTG ? LY_COUTG : CO_TILE)
#define WG_NMS GB_CDIV(WG_MB_REQ, WG_MR)                    // channel slices of a block
#define WG_MB (WG_NMS * WG_MR)
#define WG_NMB GB_CDIV(LY_COUTG, WG_MB)
#define WG_NB (CIN_TILE == 0 || CIN_TILE >= LY_CING ? LY_CING : CIN_TILE)
#define WG_NNB GB_CDIV(LY_CING, WG_NB)
#define WG_GPB GROUPS_PER_BLOCK                             // > 1 only with whole groups
#define WG_NGS GB_CDIV(LY_GROUPS, WG_GPB)
#define WG_OWN (WG_GPB * WG_NMS * WG_NB * LY_KH)            // owners of a block
#define WG_RS RED_SLICES
#define WG_NT GB_RUP(WG_OWN * WG_RS, 32)
#define WG_MINB (WG_NT >= 256 ? 2 : 512 / WG_NT)
// Reduction chunks: one image's TOH x TOW output tile.
#define WG_TOH_REQ (TILE_OH == 0 || TILE_OH >= LY_OH ? LY_OH : TILE_OH)
#define WG_TOW_REQ (TILE_OW == 0 || TILE_OW >= LY_OW ? LY_OW : TILE_OW)
#define WG_TOH GB_CDIV(LY_OH, GB_CDIV(LY_OH, WG_TOH_REQ))
#define WG_TOW GB_RUP(GB_CDIV(LY_OW, GB_CDIV(LY_OW, WG_TOW_REQ)), OUT_X)
#define WG_NTY GB_CDIV(LY_OH, WG_TOH)
#define WG_NTX GB_CDIV(LY_OW, WG_TOW)
#define WG_NCHK ((long long)LY_B * WG_NTY * WG_NTX)
#define WG_SEGX (WG_TOW / OUT_X)
#define WG_NSEG (WG_TOH * WG_SEGX)
// Staged dy [gl*MB + m][TOH][TOWP] and x [gl*NB + n][SIH][SIWP].
#define WG_TOWP GB_RUP(WG_TOW, 4)
#define WG_DYCHP (WG_TOH * WG_TOWP)
#define WG_S_DY (WG_GPB * WG_MB * WG_DYCHP)
#define WG_NWX ((OUT_X - 1) * LY_SX + (LY_KW - 1) * LY_DX + 1)
#define WG_LV ((OUT_X * LY_SX) % 4 == 0 ? 4 : (OUT_X * LY_SX) % 2 == 0 ? 2 : 1)
#define WG_NWL GB_RUP(WG_NWX, WG_LV)
#define WG_SIH ((WG_TOH - 1) * LY_SY + (LY_KH - 1) * LY_DY + 1)
// The x rows and channels are padded so that the window loads of a warp
// (consecutive owners: filter rows i, then input channels) fall in distinct
// banks: a row pitch of an odd number of LV-vectors, and a channel pitch
// congruent mod 32 to KH x DY rows, so that owner o's window starts at
// o x DY x SIWP mod 32 (distinct LV-vectors for 32 / LV consecutive owners
// where DY is odd). Unpadded, a 22 x 24 plane put every fourth owner on
// the same bank: 8-way conflicts on the seed layers.
#define WG_SIWL ((WG_TOW - OUT_X) * LY_SX + WG_NWL)        // a multiple of WG_LV
#define WG_SIWP (WG_SIWL / WG_LV % 2 ? WG_SIWL : WG_SIWL + WG_LV)
#define WG_XCHP (WG_SIH * WG_SIWP + ((LY_KH * LY_DY - WG_SIH) * WG_SIWP % 32 + 32) % 32)
#define WG_S_X (WG_GPB * WG_NB * WG_XCHP)
#define WG_DV (OUT_X % 4 == 0 ? 4 : OUT_X % 2 == 0 ? 2 : 1)
// Per owner: MR x KW weight sums, then MR bias sums.
#define WG_E (WG_MR * LY_KW + (LY_BIAS ? WG_MR : 0))
#define WG_NW ((long long)LY_COUT * LY_CING * GB_KHW)
#define GB_TOTAL (WG_NW + (LY_BIAS ? LY_COUT : 0))
#define GB_TOTAL_PP (LY_COUT * LY_CING * LY_KH * LY_KW + (LY_BIAS ? LY_COUT : 0))   // for #if

// One stage of a staged chunk: dy, then x (with the padding above).
#define WG_S_ST GB_RUP(WG_S_DY + WG_S_X, 4)

// The staging copies go by groups of consecutive columns of one staged
// row (WG_GD of dy, WG_GX of x: the row pitches are multiples of them),
// whose index arithmetic is done once: a group's elements are stride
// apart in memory (1 in NCHW, the channels in NHWC).
#define WG_GD 4
#define WG_GX (WG_SIWP % 4 == 0 ? 4 : WG_SIWP % 2 == 0 ? 2 : 1)
#define WG_DYS (LY_Y_AT(0, 0, 0, 1) - LY_Y_AT(0, 0, 0, 0))
#define WG_XS (LY_X_AT(0, 0, 0, 1) - LY_X_AT(0, 0, 0, 0))

// G elements p, p + stride, ... (bit k of ok: element k exists, else a
// zero) into shared dst (G-aligned). ASYNC: by cp.async (4 bytes each,
// zero-filled, reading nothing where absent: base is named then) in fp32
// from sm_80, complete after gb_wait; elsewhere (bf16 and f16 widened,
// sm_75, the CPU replay) loaded, then stored.
template <bool ASYNC, int G>
__device__ __forceinline__ void gb_put(float *dst, const ct_elem *p, int stride, unsigned ok, const ct_elem *base)
{
#if CT_DTYPE == 0 && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (ASYNC) {
#pragma unroll
        for (int k = 0; k < G; ++k) {
            const unsigned d = (unsigned)__cvta_generic_to_shared(dst + k);
            const bool e = ok >> k & 1;
            asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(e ? p + k * stride : base),
                         "r"(e ? 4 : 0)
                         : "memory");
        }
        return;
    }
#endif
    (void)base;
    float v[G];
#pragma unroll
    for (int k = 0; k < G; ++k)
        v[k] = ok >> k & 1 ? ct_ld(p + k * stride) : 0.0f;
    if (G == 4)
        *reinterpret_cast<float4 *>(dst) = make_float4(v[0], v[1 % G], v[2 % G], v[3 % G]);
    else if (G == 2)
        *reinterpret_cast<float2 *>(dst) = make_float2(v[0], v[1 % G]);
    else
        *dst = v[0];
}

__device__ __forceinline__ void gb_commit()
{
#if CT_DTYPE == 0 && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

template <int N>
__device__ __forceinline__ void gb_wait()
{
#if CT_DTYPE == 0 && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

// Stage chunk q (one image's output tile: its dy and haloed x) into s;
// ASYNC: issued by cp.async where gb_put has it, complete after gb_wait.
template <bool ASYNC>
__device__ __forceinline__ void wg_stage(float *s, const ct_elem *__restrict__ in, const ct_elem *__restrict__ dout,
                                         long long q, int gs, int mb, int nb)
{
    const int b = (int)(q / (WG_NTY * WG_NTX)), tile = (int)(q % (WG_NTY * WG_NTX));
    const int y0 = tile / WG_NTX * WG_TOH, x0 = tile % WG_NTX * WG_TOW;
#pragma unroll 2
    for (int t = threadIdx.x; t < WG_S_DY / WG_GD; t += WG_NT) {
        const int idx = t * WG_GD;
        const int u = idx % WG_TOWP, r = idx / WG_TOWP % WG_TOH, ch = idx / WG_DYCHP;
        const int g = gs * WG_GPB + ch / WG_MB, co = mb * WG_MB + ch % WG_MB;
        const int y = y0 + r, x = x0 + u;
        const bool row = g < LY_GROUPS && co < LY_COUTG && y < LY_OH;
        unsigned ok = 0;
#pragma unroll
        for (int k = 0; k < WG_GD; ++k)
            ok |= (unsigned)(row && x + k < LY_OW) << k;
        gb_put<ASYNC, WG_GD>(s + idx, dout + (row ? LY_Y_AT(b, g * LY_COUTG + co, y, x) : 0), WG_DYS, ok, dout);
    }
    float *s_x = s + WG_S_DY;
    const int iy0 = y0 * LY_SY - LY_PH, ix0 = x0 * LY_SX - LY_PW;
#pragma unroll 2
    for (int t = threadIdx.x; t < WG_S_X / WG_GX; t += WG_NT) {
        // Rows past SIH: the channel's padding, never read.
        const int idx = t * WG_GX;
        const int off = idx % WG_XCHP, ch = idx / WG_XCHP;
        const int u = off % WG_SIWP, r = off / WG_SIWP;
        const int g = gs * WG_GPB + ch / WG_NB, n = nb * WG_NB + ch % WG_NB;
        const int y = iy0 + r, x = ix0 + u;
        const bool row = g < LY_GROUPS && n < LY_CING && r < WG_SIH && y >= 0 && y < LY_H;
        unsigned ok = 0;
#pragma unroll
        for (int k = 0; k < WG_GX; ++k)
            ok |= (unsigned)(row && x + k >= 0 && x + k < LY_W) << k;
        gb_put<ASYNC, WG_GX>(s_x + idx, in + (row ? LY_X_AT(b, g * LY_CING + n, y, x) : 0), WG_XS, ok, in);
    }
}

// A lane's share of one staged chunk at s: its row segments (rs, rs + RS,
// ...), each an x window against OUT_X dy values of each of its MR
// channels. xo0, do0: the owner's window and channels in the stage.
__device__ __forceinline__ void wg_chunk(float (&acc)[WG_MR][LY_KW], float (&bacc)[WG_MR], const float *s, int xo0,
                                         int do0, int rs, bool sums_bias)
{
    const float *xs0 = s + WG_S_DY + xo0, *ds0 = s + do0;
#pragma unroll 1
    for (int seg = rs; seg < WG_NSEG; seg += WG_RS) {
        const int y = seg / WG_SEGX, xo = seg % WG_SEGX * OUT_X;
        float win[WG_NWL];
#pragma unroll
        for (int u = 0; u < WG_NWL; u += WG_LV)
            gb_lds<WG_LV>(&win[u], xs0 + y * LY_SY * WG_SIWP + xo * LY_SX + u);
#pragma unroll
        for (int m = 0; m < WG_MR; ++m) {
            float d[OUT_X];
#pragma unroll
            for (int o = 0; o < OUT_X; o += WG_DV)
                gb_lds<WG_DV>(&d[o], ds0 + m * WG_DYCHP + y * WG_TOWP + xo + o);
#pragma unroll
            for (int j = 0; j < LY_KW; ++j)
#pragma unroll
                for (int o = 0; o < OUT_X; ++o)
                    acc[m][j] = fmaf(d[o], win[o * LY_SX + j * LY_DX], acc[m][j]);
            if (sums_bias) {
#pragma unroll
                for (int o = 0; o < OUT_X; ++o)
                    bacc[m] += d[o];
            }
        }
    }
}

#if SPLIT == 1
#define WG_DST ct_elem
#else
#define WG_DST float
#endif

extern "C" __global__ void __launch_bounds__(WG_NT, WG_MINB)
GB_NAME(const ct_elem *__restrict__ in, const ct_elem *__restrict__ dout, WG_DST *__restrict__ dst)
{
    extern __shared__ __align__(16) float smem[];
    const int nb = blockIdx.x % WG_NNB, mb = blockIdx.x / WG_NNB % WG_NMB, gs = blockIdx.x / (WG_NNB * WG_NMB);
    const int tid = threadIdx.x;
    const int owner = tid % WG_OWN, rs = tid / WG_OWN;
    const int i = owner % LY_KH, nl = owner / LY_KH % WG_NB;
    const int ms = owner / (LY_KH * WG_NB) % WG_NMS, gl = owner / (LY_KH * WG_NB * WG_NMS);
    const bool active = rs < WG_RS;
    const bool sums_bias = LY_BIAS && nb == 0 && nl == 0 && i == 0;

    float acc[WG_MR][LY_KW], bacc[WG_MR];
#pragma unroll
    for (int m = 0; m < WG_MR; ++m) {
        bacc[m] = 0.0f;
#pragma unroll
        for (int j = 0; j < LY_KW; ++j)
            acc[m][j] = 0.0f;
    }
    // This slice's chunks, in order.
    const long long q0 = WG_NCHK * blockIdx.z / SPLIT, q1 = WG_NCHK * (blockIdx.z + 1) / SPLIT;
    const int xo0 = (gl * WG_NB + nl) * WG_XCHP + i * LY_DY * WG_SIWP;
    const int do0 = (gl * WG_MB + ms * WG_MR) * WG_DYCHP;
#if STAGES == 1
#pragma unroll 1
    for (long long q = q0; q < q1; ++q) {
        if (q > q0)
            __syncthreads();
        wg_stage<false>(smem, in, dout, q, gs, mb, nb);
        __syncthreads();
        if (active)
            wg_chunk(acc, bacc, smem, xo0, do0, rs, sums_bias);
    }
#else
    // Two stages: chunk q+1 is copied (cp.async) into the other stage
    // while chunk q is computed; the barrier after a chunk frees its stage
    // for the copy issued in the next iteration.
    wg_stage<true>(smem, in, dout, q0, gs, mb, nb);
    gb_commit();
#pragma unroll 1
    for (long long q = q0; q < q1; ++q) {
        const int k = (int)(q - q0);
        if (q + 1 < q1) {
            wg_stage<true>(smem + ((k + 1) & 1) * WG_S_ST, in, dout, q + 1, gs, mb, nb);
            gb_commit();
            gb_wait<1>();
        } else {
            gb_wait<0>();
        }
        __syncthreads();
        if (active)
            wg_chunk(acc, bacc, smem + (k & 1) * WG_S_ST, xo0, do0, rs, sums_bias);
        __syncthreads();
    }
#endif
    // The RS lanes' partials through shared memory, added in lane order.
    __syncthreads();
    if (active) {
        float *r = smem + (rs * WG_OWN + owner) * WG_E;
#pragma unroll
        for (int m = 0; m < WG_MR; ++m) {
#pragma unroll
            for (int j = 0; j < LY_KW; ++j)
                r[m * LY_KW + j] = acc[m][j];
            if (LY_BIAS)
                r[WG_MR * LY_KW + m] = bacc[m];
        }
    }
    __syncthreads();
    WG_DST *out = dst + (SPLIT == 1 ? 0 : blockIdx.z * GB_TOTAL);
    for (int idx = tid; idx < WG_OWN * WG_E; idx += WG_NT) {
        float v = 0.0f;
        for (int l = 0; l < WG_RS; ++l)
            v += smem[l * WG_OWN * WG_E + idx];
        const int ow = idx / WG_E, e = idx % WG_E;
        const int oi = ow % LY_KH, on = nb * WG_NB + ow / LY_KH % WG_NB;
        const int oms = ow / (LY_KH * WG_NB) % WG_NMS, og = gs * WG_GPB + ow / (LY_KH * WG_NB * WG_NMS);
        long long at;
        int co;
        if (e < WG_MR * LY_KW) {
            co = mb * WG_MB + oms * WG_MR + e / LY_KW;
            at = ((long long)(og * LY_COUTG + co) * LY_CING + on) * GB_KHW + oi * LY_KW + e % LY_KW;
        } else {
            co = mb * WG_MB + oms * WG_MR + (e - WG_MR * LY_KW);
            if (nb != 0 || on != 0 || oi != 0)
                continue;
            at = WG_NW + og * LY_COUTG + co;
        }
        if (og >= LY_GROUPS || co >= LY_COUTG || on >= LY_CING)
            continue;
#if SPLIT == 1
        ct_st(&out[at], v);
#else
        out[at] = v;
#endif
    }
}

#endif

#if SPLIT > 1
// Both passes: the SPLIT slices' partials of each gradient element, added in fp64 in a
// fixed order (deterministic), rounded once. Under 65536 elements (the
// host's CT_WG_WARP_BELOW) a warp adds one element: lane l the slices l,
// l+32, ..., then a butterfly over the lanes; above, a thread per element
// adds them in slice order.
extern "C" __global__ void __launch_bounds__(256)
GB_REDUCE_NAME(const float *__restrict__ ws, ct_elem *__restrict__ dweight)
{
#if GB_TOTAL_PP < 65536
    const long long e = (long long)blockIdx.x * 8 + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (e >= GB_TOTAL)
        return;
    double s = 0.0;
    for (int k = lane; k < SPLIT; k += 32)
        s += (double)ws[k * GB_TOTAL + e];
#pragma unroll
    for (int m = 16; m > 0; m /= 2)
        s += __shfl_xor_sync(0xffffffffu, s, m);
    if (lane == 0)
        ct_st(&dweight[e], (float)s);
#else
    const long long e = (long long)blockIdx.x * 256 + threadIdx.x;
    if (e >= GB_TOTAL)
        return;
    double s = 0.0;
#pragma unroll 4
    for (int k = 0; k < SPLIT; ++k)
        s += (double)ws[k * GB_TOTAL + e];
    ct_st(&dweight[e], (float)s);
#endif
}
#endif
