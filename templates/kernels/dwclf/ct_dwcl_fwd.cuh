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
// PREFETCH (dwclf_conv.c, which reads the DF_* sizes below from
// dwclf_sizes.cuh too).
#include "ct_dtype.cuh"
#include "ct_vec_io.cuh"

static_assert(LY_CL, "channels-last (nhwc) layers only");
static_assert(LY_GROUPS == LY_CIN && LY_COUT == LY_CIN, "depthwise layers only");
static_assert(LY_CIN % VEC == 0, "VEC must divide the channels (aligned vectors)");

#include "dwclf_sizes.cuh"

// The derived sizes (dwclf_sizes.cuh, which the tuner's model reads too).
#define DF_C LY_CIN
#define DF_NCV DWCLF_NCV(DF_C, VEC)                               // channel vectors of a pixel
#define DF_NCB DWCLF_NCB(DF_NCV, CHANNEL_THREADS)                 // channel slices
#define DF_CW DWCLF_CW(CHANNEL_THREADS, VEC)                      // channels of a slice
#define DF_TAPS DWCLF_TAPS(LY_KH, LY_KW)
#define DF_NXR DWCLF_NXR(LY_OW, OUT_X)                            // tiles along a row
#define DF_NRG DWCLF_NRG(LY_OH, OUT_Y)                            // row groups of an image
#define DF_TILES DWCLF_TILES(LY_B, DF_NRG, DF_NXR)
#define DF_NGRP DWCLF_NGRP(DF_TILES, POS_THREADS)                 // groups of POS_THREADS tiles
#define DF_NWX DWCLF_NWX(OUT_X, LY_SX, LY_KW, LY_DX)              // window entries of an input row
#define DF_NWY DWCLF_NWY(OUT_Y, LY_SY, LY_KH, LY_DY)              // input rows of a tile

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

extern "C" __global__ void __launch_bounds__(DWCLF_THREADS(CHANNEL_THREADS, POS_THREADS))
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
