// ct_conv_tc16g.cuh: a convolution layer in bf16 or f16 as an implicit GEMM
// on Hopper's warpgroup mma (wgmma.mma_async, sm_90a), both operands read
// by the tensor cores straight from shared memory, fp32 accumulators.
// Included by conv2dc_tc16g (NCHW, TC_CL 0) and conv2dc_tc16gcl (NHWC,
// TC_CL 1) after their problem macros (conv2dc_tclayer.cuh).
//
// Why: mma.sync takes its operands from registers, so every 16x8x16 step
// costs ldmatrix traffic and issue slots, and with the few warps that fit
// beside a resident weight tile the tensor cores wait on them. wgmma reads
// a 64 x N x 16 step's operands itself. A tile's steps are issued, then
// waited for (wait_group 0) before its epilogue; with PINGPONG another
// warpgroup's steps run meanwhile.
//
// The GEMM is ct_conv_tc16r.cuh's: C[co][pixel] = sum over (tap, c) of
// W[co][tap][c] * X[pixel + tap offset][c], weights resident per block
// (COUT_TILE = 64 x WG_M channels, all the input channels rounded up to
// 16, staged and transposed once), TILES image tiles walked in turn. With
// stride 1 along the width a tap's operand for an output row is a run of
// consecutive input pixels, so a descriptor addresses it in place: a
// wgmma's N is a row (TILE_OW pixels rounded up to 8) or, with stride 1
// down as well, all of a warpgroup's rows at once (FLAT). The operand
// layouts (wgmma's K-major form without swizzling), the sizes and the
// k-steps are ct_conv_tc16g_core.cuh's, shared with ct_conv_tc16gk.cuh.
// Columns past a row's TILE_OW read pixels past the row (the next row's
// halo, or padding at the end of each plane); their sums are never stored.
//
// Channels last, a tile's input is copied into B by cp.async as it lies
// (16-byte pieces), STAGES buffers. NCHW keeps channels apart in memory:
// the tile's rows are copied raw ([c][row][column], 16-byte pieces where
// the width is a multiple of 8, narrower ones where not) into STAGES raw
// buffers and transposed by the block into one of two B buffers. Both copy
// LOOKAHEAD = STAGES - 1 tiles ahead: a tile's steps are waited for before
// its epilogue, so at the next tile's barrier its buffer is free. (An
// earlier version overlapped two tiles' steps and, channels last, kept two
// buffers back, which left STAGES 2 with no copy ahead.)
//
// Tuning macros:
//   WG_M        warpgroups along the output channels (64 each)
//   WG_N        warpgroups along the tile's rows (TILE_OH / WG_N rows each)
//   TILE_OH     output rows of an image tile
//   TILE_OW     output columns of an image tile (a wgmma's N is at most 256)
//   TILES       consecutive image tiles a block walks
//   STAGES      input buffers (NHWC: 2 to 6; NCHW raw ones: 1 to 5): the
//               bytes in flight per SM are what bounds a layer of few
//               channels (latency x bandwidth), so small tiles go deep
//   MIN_BLOCKS  minimum resident blocks per SM (__launch_bounds__)
// PINGPONG 0: the warpgroups share each tile (WG_N of them split its rows)
// and the block's barriers; 1: each warpgroup walks its own tiles (every
// WG_N-th), with its own buffers and barriers, so one's epilogue and
// copies overlap another's wgmma steps.
#ifndef PINGPONG
#define PINGPONG 0
#endif
#define TC_PP PINGPONG
#define TC_RPW TC16G_RPW(TC_PP, TILE_OH, WG_N)      // rows per warpgroup
#define TC_TN (TC_PP ? 128 : TC_NT)                  // threads that share a tile
#define TC_TID (TC_PP ? threadIdx.x % 128 : threadIdx.x)
#define TC_NREG TC16G_NREG(TC_PP, WG_N)              // buffer regions
#define TC_CK TC_RUP(TC_CIN, 16)                     // all the input channels: A is resident
#include "ct_conv_tc16g_core.cuh"

#define TC_NTILES (TC_B * TC_TY * TC_TX)
#define TC_IVEC TC_VEC(TC_CIN)
#define TC_WVEC TC_VEC(TC_RK)
#define TC_RAWW (TC_SA + TC_SB)                 // raw weights, bytes (before any tile but the first)
// The raw weights come RPC channels at a time, as many (a multiple of 16,
// so that the last piece reaches CK and zeros A's padded channels) as fit
// in the tiles' regions past the first B buffer, at least 16 (the block's
// shared memory then grows to hold them: tc16r_conv.c sizes it so). All of
// a 128-channel 3x3 layer's 64 rows at once took 147 KB beside A's 147 KB:
// no candidate fitted.
#define TC_RPC0 TC16G_RPC0(TC_NREG * TC_WGB, TC_SB, TC_BM, TC_KHW)
#define TC_RPC TC16G_RPC(TC_RPC0, TC_CK)
#define TC_RKP TC16G_RKP(TC_RPC, TC_KHW)        // raw row pitch, elements
// After A, TC_NREG regions of TC_WGB bytes (one per warpgroup with
// PINGPONG); offsets below are within a region.
#define TC_LOOK (STAGES - 1)
#if TC_CL
#define TC_OUTS (STAGES * TC_SB)                // staged outputs
#define TC_BSTAGE(j) ((j) % STAGES * TC_SB)
#define TC_WGB TC16G_WGB_CL(STAGES, TC_SB, TILE_OH, TILE_OW, TC_OP)
#else
#define TC_RV TC_VEC(TC_W)                      // raw piece: elements that keep rows aligned
#define TC_RW TC16G_RW(TC_IW, TC_RV)           // raw row, from a column multiple of RV
#define TC_SRI TC16G_SRI(TC_CIN, TC_IH, TC_RW)  // raw tile, bytes: 16-byte multiples keep the
                                                // next warpgroup's region aligned (PINGPONG)
#define TC_RAWIN (2 * TC_SB)                    // raw tiles
#define TC_BSTAGE(j) ((j) % 2 * TC_SB)
#define TC_WGB TC16G_WGB_RAW(TC_SB, STAGES, TC_SRI)
#endif

struct tc16g_tile {
    int b, oy0, ox0, iy0, ix0;
};

__device__ __forceinline__ tc16g_tile tc16g_at(int T)
{
    tc16g_tile r;
    const int tile = T % (TC_TY * TC_TX);
    r.b = T / (TC_TY * TC_TX);
    r.oy0 = tile / TC_TX * TILE_OH;
    r.ox0 = tile % TC_TX * TILE_OW;
    r.iy0 = r.oy0 * TC_SY - TC_PH;
    r.ix0 = r.ox0 - TC_PW;
    return r;
}

#if TC_CL
// Tile T's haloed input into stage d as [c / 8][pixel][8], IVEC channels a
// piece (a piece never straddles planes), zeros outside the image and past
// the channels; no commit. in: the group's first channel of image 0.
__device__ __forceinline__ void tc16g_icopy(unsigned char *d, const tc16_bits *__restrict__ in, int T)
{
    const tc16g_tile r = tc16g_at(T);
    in += (long long)r.b * TC_H * TC_W * TC_CIN_ALL;
    constexpr int per = TC_CK / TC_IVEC;
#pragma unroll 4
    for (int i = TC_TID; i < TC_IS * per; i += TC_TN) {
        const int p = i / per, c = i % per * TC_IVEC;
        const int iy = r.iy0 + p / TC_IW, ix = r.ix0 + p % TC_IW;
        const bool ok = iy >= 0 && iy < TC_H && ix >= 0 && ix < TC_W && (TC_CIN % 16 == 0 || c < TC_CIN);
        tc16_cp<TC_IVEC>(reinterpret_cast<tc16_bits *>(d + c / 8 * TC_PB + p * 16) + c % 8,
                         ok ? in + ((long long)iy * TC_W + ix) * TC_CIN_ALL + c : in, ok);
    }
}
#else
// Tile T's rows, raw, into raw buffer d: channel c's rows of TC_RW columns
// from the column at or before ix0 that is a multiple of RV, RV columns a
// piece: the widest piece (16 bytes where the width is a multiple of 8)
// that keeps every piece aligned and wholly in or out of the image, single
// elements where the width is odd. No commit. in: the group's first
// channel of image 0.
__device__ __forceinline__ void tc16g_icopy(unsigned char *d, const tc16_bits *__restrict__ in, int T)
{
    const tc16g_tile r = tc16g_at(T);
    in += (long long)r.b * TC_CIN_ALL * TC_H * TC_W;
    const int cx0 = r.ix0 - ((r.ix0 % TC_RV) + TC_RV) % TC_RV;
    constexpr int per = TC_RW / TC_RV;
#pragma unroll 4
    for (int i = TC_TID; i < TC_CIN * TC_IH * per; i += TC_TN) {
        const int x = i % per * TC_RV, row = i / per, y = row % TC_IH, c = row / TC_IH;
        const int iy = r.iy0 + y, ix = cx0 + x;
        const bool ok = iy >= 0 && iy < TC_H && ix >= 0 && ix < TC_W;
        tc16_cp<TC_RV>(reinterpret_cast<tc16_bits *>(d) + row * TC_RW + x,
                       ok ? in + ((long long)c * TC_H + iy) * TC_W + ix : in, ok);
    }
}

// The landed raw tile of origin column ix0 into B buffer d as
// [c / 8][pixel][8]: an item is 8 channels of one pixel, consecutive
// threads consecutive pixels (neighbouring raw elements; 16-byte stores to
// distinct banks); channels past the layer's are zeros.
__device__ __forceinline__ void tc16g_transpose(unsigned char *d, const unsigned char *raw_, int ix0)
{
    const tc16_bits *raw = reinterpret_cast<const tc16_bits *>(raw_);
    const int off = ((ix0 % TC_RV) + TC_RV) % TC_RV;
#pragma unroll 2
    for (int i = TC_TID; i < TC_IS * (TC_CK / 8); i += TC_TN) {
        const int p = i % TC_IS, o = i / TC_IS;
        const tc16_bits *sp = raw + (o * 8 * TC_IH + p / TC_IW) * TC_RW + p % TC_IW + off;
        unsigned v[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const int c = o * 8 + 2 * q;
            const unsigned lo = TC_CIN % 16 == 0 || c < TC_CIN ? sp[2 * q * TC_IH * TC_RW] : 0u;
            const unsigned hi = TC_CIN % 16 == 0 || c + 1 < TC_CIN ? sp[(2 * q + 1) * TC_IH * TC_RW] : 0u;
            v[q] = lo | hi << 16;
        }
        *reinterpret_cast<uint4 *>(d + o * TC_PB + p * 16) = make_uint4(v[0], v[1], v[2], v[3]);
    }
}
#endif

// A barrier of this thread's warpgroup alone (named barrier 1 + its index,
// written as constants: a register id makes ptxas reserve all 16).
__device__ __forceinline__ void tc16g_wg_bar()
{
    switch (threadIdx.x / 128) {
    case 0: asm volatile("bar.sync 1, 128;\n" ::: "memory"); break;
    case 1: asm volatile("bar.sync 2, 128;\n" ::: "memory"); break;
    case 2: asm volatile("bar.sync 3, 128;\n" ::: "memory"); break;
    default: asm volatile("bar.sync 4, 128;\n" ::: "memory"); break;
    }
}

// Where tile j's input is copied to (NHWC: its B buffer; NCHW: its raw one).
__device__ __forceinline__ unsigned char *tc16g_dst(unsigned char *rg, int j)
{
#if TC_CL
    return rg + TC_BSTAGE(j);
#else
    return rg + TC_RAWIN + j % STAGES * TC_SRI;
#endif
}

// The barrier of the threads that share a tile: the block's, or with
// PINGPONG the warpgroup's own.
__device__ __forceinline__ void tc16g_tbar()
{
    if (TC_PP)
        tc16g_wg_bar();
    else
        __syncthreads();
}

// Tile j's start: its copies complete (one commit group a tile, LOOKAHEAD
// ahead; with none, issued here), the barrier that also ends every warp's
// part in the tiles before (their buffers are free), tile j + LOOKAHEAD's
// copies, NCHW's transpose and a second barrier, then the wgmma steps into
// acc, committed (the caller waits for them).
// Tile number j of this warpgroup's (or the block's) walk is tile
// T0 + j x step + first of the layer; nj of them.
__device__ __forceinline__ void tc16g_issue(unsigned char *sm, unsigned char *rg, const tc16_bits *__restrict__ in,
                                            int T0, int step, int first, int nj, int j, int wgm, int wgn,
                                            float (*acc)[TC_WN / 2])
{
    if (TC_LOOK == 0 && (j > 0 || !TC_CL || TC_PP)) {
        tc16g_icopy(tc16g_dst(rg, j), in, T0 + j * step + first);
        tc16_cp_commit();
    }
    tc16_cp_wait<TC_LOOK == 0 ? 0 : TC_LOOK - 1>();
    tc16_proxy_fence();
    tc16g_tbar();
    if (TC_LOOK > 0) {
        if (j + TC_LOOK < nj)
            tc16g_icopy(tc16g_dst(rg, j + TC_LOOK), in, T0 + (j + TC_LOOK) * step + first);
        tc16_cp_commit();
    }
    unsigned char *st = rg + TC_BSTAGE(j);
#if !TC_CL
    tc16g_transpose(st, tc16g_dst(rg, j), tc16g_at(T0 + j * step + first).ix0);
    tc16_proxy_fence();
    tc16g_tbar();
#endif
#pragma unroll
    for (int rr = 0; rr < TC_NW; ++rr) {
#pragma unroll
        for (int e = 0; e < TC_WN / 2; ++e)
            acc[rr][e] = 0.0f;
        tc16_wg_hold<TC_WN / 2>(acc[rr]);
    }
    tc16_wg_fence();
    // The descriptors' bases pass through tc16_opaque: left to itself the
    // compiler computes every step's descriptors ahead, out of the tile
    // loop, in more registers than the accumulators leave.
    const unsigned long long da0 = tc16_opaque(tc16_wgdesc(sm + wgm * 64 * 16, TC_BM * 16, 128));
    const unsigned long long db0 =
        tc16_opaque(tc16_wgdesc(st + (TC_PP ? 0 : wgn) * TC_RPW * TC_SY * TC_IW * 16, TC_PB, 128));
    tc16g_steps<true>(acc, da0, db0);
    tc16_wg_commit();
}

// Tile j's end, once its wgmma group has completed: acc[rr][4j'..] holds
// channels 16w + g (+8), pixels 8j' + 2t (+1) of row rr of this warpgroup;
// the bias added in fp32, one rounding. NHWC stages them [pixel][channel]
// for 16-byte stores (the warpgroup's barrier between); NCHW stores them as
// they are.
__device__ __forceinline__ void tc16g_finish(unsigned char *rg, ct_elem *__restrict__ out_, int T, int grp, int co0,
                                             int wgm, int wgn, const float *bv, float (*acc)[TC_WN / 2])
{
#pragma unroll
    for (int rr = 0; rr < TC_NW; ++rr)
        tc16_wg_hold<TC_WN / 2>(acc[rr]);
    unsigned pk[TC_NW][TC_WN / 4];
    tc16g_pack(acc, bv, pk);
    const tc16g_tile r = tc16g_at(T);
#if TC_CL
    tc16_bits *so = reinterpret_cast<tc16_bits *>(rg + TC_OUTS);
    const int rw0 = (TC_PP ? 0 : wgn) * TC_RPW;   // the warpgroup's first row of the tile
    tc16g_stage(so, pk, rw0, wgm);
    // Each warpgroup stores what it staged (its rows, its 64 channels):
    // its own barrier, not the block's, between.
    tc16g_wg_bar();
    constexpr int per = 64 / TC_OVEC;
    const int c0 = co0 + wgm * 64;
    ct_elem *out = out_ + (long long)r.b * TC_OH * TC_OW * TC_COUT_ALL + grp * TC_COUT + c0;
#pragma unroll 2
    for (int i = threadIdx.x % 128; i < TC_RPW * TILE_OW * per; i += 128) {
        const int n = rw0 * TILE_OW + i / per, c = i % per * TC_OVEC;
        const int oy = r.oy0 + n / TILE_OW, ox = r.ox0 + n % TILE_OW;
        if (oy >= TC_OH || ox >= TC_OW || c0 + c >= TC_COUT)
            continue;
        const tc16_bits *s = so + n * TC_OP + wgm * 64 + c;
        tc16g_store(reinterpret_cast<tc16_bits *>(out) + ((long long)oy * TC_OW + ox) * TC_COUT_ALL + c, s);
    }
#else
    const int w = threadIdx.x / 32 % 4, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int co = co0 + wgm * 64 + 16 * w + g + 8 * h;
        if (co >= TC_COUT)
            continue;
        ct_elem *o = out_ + ((long long)r.b * TC_COUT_ALL + grp * TC_COUT + co) * TC_OH * TC_OW;
#pragma unroll
        for (int rr = 0; rr < TC_NW; ++rr)
#pragma unroll
            for (int j = 0; j < TC_WN / 8; ++j)
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const int n = 8 * j + 2 * t + e, re = tc16g_row(rr, n), xe = tc16g_col(n);
                    const int oy = r.oy0 + (TC_PP ? 0 : wgn) * TC_RPW + re, ox = r.ox0 + xe;
                    if (xe < TILE_OW && re < TC_RPW && oy < TC_OH && ox < TC_OW)
                        reinterpret_cast<tc16_bits *>(o)[oy * TC_OW + ox] = (tc16_bits)(pk[rr][2 * j + h] >> 16 * e);
                }
    }
#endif
}

extern "C" __global__ void __launch_bounds__(TC_NT, MIN_BLOCKS)
TC_NAME(const ct_elem *__restrict__ in_, const ct_elem *__restrict__ weight_,
#if TC_BIAS
        const ct_elem *__restrict__ bias,
#endif
        ct_elem *__restrict__ out_)
{
    extern __shared__ __align__(128) unsigned char tc_sm[];
    const int grp = blockIdx.y / TC_NCT, co0 = blockIdx.y % TC_NCT * TC_BM;
#if TC_CL
    const tc16_bits *in = reinterpret_cast<const tc16_bits *>(in_) + grp * TC_CIN;
#else
    const tc16_bits *in = reinterpret_cast<const tc16_bits *>(in_) + (long long)grp * TC_CIN * TC_H * TC_W;
#endif
    const tc16_bits *weight = reinterpret_cast<const tc16_bits *>(weight_) + (long long)grp * TC_COUT * TC_RK;
    const int T0 = blockIdx.x * TILES;
    const int nt = TC_NTILES - T0 < TILES ? TC_NTILES - T0 : TILES;
    const int wg = threadIdx.x / 128, wgm = wg % WG_M, wgn = wg / WG_M;

    float bv[2];
    tc16g_bias(bv, TC_BIAS_ARG, grp, co0, wgm);

    // The weights once: rows co0.. copied as they lie ([co][c][tap], rows
    // RKP apart) RPC channels at a time (each row's run contiguous), the
    // first piece with the first tile's input, and each piece transposed
    // into A; an item is 8 channels of one (row, tap).
    {
        tc16_bits *raw = reinterpret_cast<tc16_bits *>(tc_sm + TC_RAWW);
        constexpr int wper = TC_RPC * TC_KHW / TC_WVEC, c8 = TC_CK / 8, p8 = TC_RPC / 8;
#pragma unroll 1
        for (int c0 = 0; c0 < TC_CIN; c0 += TC_RPC) {
            const int nrk = (TC_CIN - c0 < TC_RPC ? TC_CIN - c0 : TC_RPC) * TC_KHW;
#pragma unroll 4
            for (int i = threadIdx.x; i < TC_BM * wper; i += TC_NT) {
                const int m = i / wper, e = i % wper * TC_WVEC;
                const bool ok = co0 + m < TC_COUT && e < nrk;
                tc16_cp<TC_WVEC>(raw + m * TC_RKP + e,
                                 ok ? weight + (long long)(co0 + m) * TC_RK + c0 * TC_KHW + e : weight, ok);
            }
#if TC_CL
            if (!TC_PP && c0 == 0)   // with PINGPONG the raw weights lie over other warpgroups' buffers
                tc16g_icopy(tc_sm + TC_SA, in, T0);
#endif
            tc16_cp_commit();
            tc16_cp_wait<0>();
            __syncthreads();
#pragma unroll 2
            for (int i = threadIdx.x; i < TC_BM * TC_KHW * p8; i += TC_NT) {
                const int o = i % p8, slot = i / p8, m = slot / TC_KHW, tap = slot % TC_KHW;
                const int og = c0 / 8 + o;   // the channels' group of 8 in A
                if (og >= c8)
                    continue;
                const tc16_bits *r = raw + m * TC_RKP + o * 8 * TC_KHW + tap;
                unsigned v[4];
#pragma unroll
                for (int q = 0; q < 4; ++q) {
                    const int c = og * 8 + 2 * q;
                    const unsigned lo = co0 + m < TC_COUT && c < TC_CIN ? r[2 * q * TC_KHW] : 0u;
                    const unsigned hi = co0 + m < TC_COUT && c + 1 < TC_CIN ? r[(2 * q + 1) * TC_KHW] : 0u;
                    v[q] = lo | hi << 16;
                }
                *reinterpret_cast<uint4 *>(tc_sm + ((tap * c8 + og) * TC_BM + m) * 16) =
                    make_uint4(v[0], v[1], v[2], v[3]);
            }
            __syncthreads();   // the raw area is free for the next piece
        }
        tc16_proxy_fence();
        __syncthreads();   // A is whole; the raw area is free for the tiles
    }
    // This warpgroup's walk (PINGPONG: every WG_N-th tile from its own) or
    // the block's, and its buffer region.
    const int first = TC_PP ? wgn : 0, step = TC_NREG;
    const int nj = first < nt ? (nt - first + step - 1) / step : 0;
    unsigned char *rg = tc_sm + TC_SA + (TC_PP ? wgn : 0) * TC_WGB;

    // Tiles 1 .. LOOKAHEAD - 1 (from 0 where tile 0 did not come with the
    // weights: NCHW, whose raw area was theirs, and PINGPONG).
#pragma unroll
    for (int k = TC_CL && !TC_PP ? 1 : 0; k < TC_LOOK; ++k) {
        if (k < nj)
            tc16g_icopy(tc16g_dst(rg, k), in, T0 + k * step + first);
        tc16_cp_commit();
    }

    // One tile at a time: its wgmma steps issued, waited for, stored. (Two
    // accumulator sets, the next tile's steps issued before this one's
    // epilogue, made ptxas serialize every step: it cannot tell which set
    // a wait_group 1 has completed. PINGPONG overlaps warpgroups instead.)
    float acc[TC_NW][TC_WN / 2];
#pragma unroll 1
    for (int j = 0; j < nj; ++j) {
        tc16g_issue(tc_sm, rg, in, T0, step, first, nj, j, wgm, wgn, acc);
        tc16_wg_wait0();
        tc16g_finish(rg, out_, T0 + j * step + first, grp, co0, wgm, wgn, bv, acc);
    }
    tc16_cp_wait<0>();
}
