// ct_conv_tc16r.cuh: the half-precision implicit GEMM of ct_conv_tc16.cuh
// with the block's weights resident in shared memory, for layers whose
// weights of a channel tile fit there whole (a 3x3 layer of 64 channels:
// 72 KiB of 64 rows), channels-last activations (NHWC). Included by
// conv2dc_tc16rcl after its problem macros. (An NCHW form, each tile
// copied raw and transposed in shared memory, lost to conv2dc_tc16 on the
// benchmark layer; ct_conv_tc16g.cuh does that transpose for wgmma.)
//
// Why: the chunked templates stage a chunk's weights again for every image
// tile and transpose them ([row][c][tap] to [row][tap][c]) each time; on a
// layer of few channels and many pixels that copy and transpose cost about
// as much as the mma steps. Here a block stages and transposes its
// COUT_TILE rows once, all the input channels (rounded up to 16: one
// chunk), and then walks TILES consecutive image tiles against them, the
// input of the next tiles copied by cp.async during a tile's mma steps.
//
// Shared memory (elements of 16 bits; tc16r_conv.c sizes it the same):
//   [A: weights, BM x (KHW*CK + 8)][B: STAGES input tiles, [pixel][c],
//   copied as they lie (16-byte pieces)][the outputs staged
//   [pixel][channel] for 16-byte stores].
// The raw weights ([row][c][tap], as they lie) are copied once into the
// area after the first tile and transposed from there before any tile.
//
// Tuning macros: COUT_TILE, TILE_OH, TILE_OW, WARPS_M, WARPS_N, MIN_BLOCKS
// as ct_conv_tc16.cuh, and
//   TILES    image tiles a block walks (consecutive: tiles of one image row
//            share their halo rows in L2)
//   STAGES   tiles whose copies are in flight, the one computed included
//            (1: none ahead, 2 or 3)
#ifndef CIN_CHUNK
#define CIN_CHUNK (((TC_CIN) + 15) / 16 * 16)   // one chunk: all the channels
#endif
#include "ct_conv_tc16_core.cuh"

#define TC_NTILES (TC_B * TC_TY * TC_TX)
#define TC_OP TC16_OP(TC_BM)                   // staged output pixel pitch
#define TC_OUTS (TC_SA + STAGES * TC_SB)       // staged outputs

// The landed raw weights (at TC_STAGE, [row][c][tap]) into A as
// [row][tap][c]. An item is 8 channels of one (row, tap); consecutive
// threads take consecutive channel octets, then taps, so a warp's reads
// (stride KHW*8 + 1 elements apart) fall in distinct banks.
__device__ __forceinline__ void tc16r_wtranspose(tc16_bits *smem)
{
    constexpr int c8 = TC_CK / 8;
#pragma unroll 2
    for (int i = threadIdx.x; i < TC_BM * TC_KHW * c8; i += TC_NT) {
        const int o = i % c8, slot = i / c8, m = slot / TC_KHW, tap = slot % TC_KHW;
        const tc16_bits *r = smem + TC_STAGE + m * TC_RK + o * 8 * TC_KHW + tap;
        unsigned v[4];
#pragma unroll
        for (int q = 0; q < 4; ++q)
            v[q] = (unsigned)r[2 * q * TC_KHW] | (unsigned)r[(2 * q + 1) * TC_KHW] << 16;
        *reinterpret_cast<uint4 *>(smem + m * TC_AP + tap * TC_CK + o * 8) = make_uint4(v[0], v[1], v[2], v[3]);
    }
}

// Tile T's origin: image b, first output row and column, first input row
// and column (before padding).
struct tc16r_tile {
    int b, oy0, ox0, iy0, ix0;
};

__device__ __forceinline__ tc16r_tile tc16r_at(int T)
{
    tc16r_tile r;
    const int tile = T % (TC_TY * TC_TX);
    r.b = T / (TC_TY * TC_TX);
    r.oy0 = tile / TC_TX * TILE_OH;
    r.ox0 = tile % TC_TX * TILE_OW;
    r.iy0 = r.oy0 * TC_SY - TC_PH;
    r.ix0 = r.ox0 * TC_SX - TC_PW;
    return r;
}

// Tile T's input into stage buffer d ([pixel][c], as tc16cl), no commit;
// in is the group's first channel of image 0.
__device__ __forceinline__ void tc16r_icopy(tc16_bits *d, const tc16_bits *__restrict__ in, int T)
{
    const tc16r_tile r = tc16r_at(T);
    in += (long long)r.b * TC_H * TC_W * TC_CIN_ALL;
    constexpr int iper = TC_CK / TC_IVEC;
#pragma unroll 4
    for (int i = threadIdx.x; i < TC_IS * iper; i += TC_NT) {
        const int p = i / iper, c = i % iper * TC_IVEC;
        const int iy = r.iy0 + p / TC_IW, ix = r.ix0 + p % TC_IW;
        const bool ok = iy >= 0 && iy < TC_H && ix >= 0 && ix < TC_W && (TC_CIN % TC_CK == 0 || c < TC_CIN);
        tc16_cp<TC_IVEC>(d + p * TC_CP + c, ok ? in + ((long long)iy * TC_W + ix) * TC_CIN_ALL + c : in, ok);
    }
}

extern "C" __global__ void __launch_bounds__(TC_NT, MIN_BLOCKS)
TC_NAME(const ct_elem *__restrict__ in_, const ct_elem *__restrict__ weight_,
#if TC_BIAS
        const ct_elem *__restrict__ bias,
#endif
        ct_elem *__restrict__ out_)
{
    extern __shared__ __align__(16) tc16_bits tc_smem[];
    const tc16_bits *weight = reinterpret_cast<const tc16_bits *>(weight_);
    const int grp = blockIdx.y / TC_NCT, co0 = blockIdx.y % TC_NCT * TC_BM;
    const tc16_bits *in = reinterpret_cast<const tc16_bits *>(in_) + grp * TC_CIN;
    weight += (long long)grp * TC_COUT * TC_CIN * TC_KHW;
    const int T0 = blockIdx.x * TILES;
    const int nt = TC_NTILES - T0 < TILES ? TC_NTILES - T0 : TILES;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int wm = warp % WARPS_M, wn = warp / WARPS_M, g = lane / 4, t = lane % 4;

    // ldmatrix rows as ct_conv_tc16.cuh (B offsets into the first tile
    // buffer; an NHWC stage k adds k * SB).
    const int arow = (wm * TC_WM + lane % 16) * TC_AP + lane / 16 * 8;
    int boff[(TC_NF + 1) / 2];
#pragma unroll
    for (int jj = 0; jj < (TC_NF + 1) / 2; ++jj) {
        const int n = wn * TC_WN + jj * 16 + lane % 8 + lane / 16 * 8;
        boff[jj] = TC_SA + (n < TC_NPIX ? (n / TILE_OW * TC_SY * TC_IW + n % TILE_OW * TC_SX) * TC_CP : 0) +
                   lane / 8 % 2 * 8;
    }
    float bv[TC_MF][2];
#pragma unroll
    for (int i = 0; i < TC_MF; ++i)
#pragma unroll
        for (int r2 = 0; r2 < 2; ++r2) {
#if TC_BIAS
            const int cl = co0 + wm * TC_WM + i * 16 + g + 8 * r2;
            bv[i][r2] = cl < TC_COUT ? ct_ldg(bias + grp * TC_COUT + cl) : 0.0f;
#else
            bv[i][r2] = 0.0f;
#endif
        }

    // The weights once: copied as they lie (with the first tile's input
    // where it goes straight to its stage), transposed, then the raw area
    // is free for the tiles. Copies are one commit group a tile from here.
    tc16_wcopy(tc_smem, weight, co0, 0);
    tc16r_icopy(tc_smem + TC_SA, in, T0);
    tc16_cp_commit();
    tc16_cp_wait<0>();
    __syncthreads();
    tc16r_wtranspose(tc_smem);
    __syncthreads();
#pragma unroll
    for (int k = 1; k < STAGES - 1; ++k) {
        if (k < nt)
            tc16r_icopy(tc_smem + TC_SA + k * TC_SB, in, T0 + k);
        tc16_cp_commit();
    }

    // Tile k: its copies complete (one group a tile, wait_group STAGES - 2
    // leaves the later ones in flight; NHWC's tile 0 came with the
    // weights), the barrier makes them visible and ends every warp's use of
    // the buffers tile k - 1 read (its input, the staged outputs), then
    // tile k + STAGES - 1's copies go out into the buffer tile k - 1 read.
#pragma unroll 1
    for (int k = 0; k < nt; ++k) {
        const int T = T0 + k;
        const tc16r_tile r = tc16r_at(T);
        if (STAGES == 1) {
            if (k > 0) {
                tc16r_icopy(tc_smem + TC_SA, in, T);
                tc16_cp_commit();
            }
            tc16_cp_wait<0>();
        } else {
            tc16_cp_wait<STAGES == 1 ? 0 : STAGES - 2>();
        }
        __syncthreads();
        const int st = k % STAGES;
        if (STAGES > 1) {
            if (k + STAGES - 1 < nt)
                tc16r_icopy(tc_smem + TC_SA + (k + STAGES - 1) % STAGES * TC_SB, in, T + STAGES - 1);
            tc16_cp_commit();
        }

        float acc[TC_MF][TC_NF][4];
#pragma unroll
        for (int i = 0; i < TC_MF; ++i)
#pragma unroll
            for (int j = 0; j < TC_NF; ++j)
#pragma unroll
                for (int q = 0; q < 4; ++q)
                    acc[i][j][q] = 0.0f;
        int bo[(TC_NF + 1) / 2];
#pragma unroll
        for (int jj = 0; jj < (TC_NF + 1) / 2; ++jj)
            bo[jj] = boff[jj] + st * TC_SB;
        tc16_chunk(tc_smem, arow, bo, acc);

        // acc[i][j]: channels g and g+8, pixels 2t and 2t+1 of its 16x8
        // tile; bias added in fp32, one rounding, staged [pixel][channel],
        // then each pixel's channels co0.. stored OVEC at a time.
#pragma unroll
        for (int i = 0; i < TC_MF; ++i)
#pragma unroll
            for (int r2 = 0; r2 < 2; ++r2) {
                const int cl = wm * TC_WM + i * 16 + g + 8 * r2;
#pragma unroll
                for (int j = 0; j < TC_NF; ++j)
#pragma unroll
                    for (int r1 = 0; r1 < 2; ++r1)
                        ct_st(reinterpret_cast<ct_elem *>(tc_smem + TC_OUTS) + (wn * TC_WN + j * 8 + 2 * t + r1) * TC_OP +
                                  cl,
                              acc[i][j][2 * r2 + r1] + bv[i][r2]);
            }
        __syncthreads();
        constexpr int per = TC_BM / TC_OVEC;
        ct_elem *out = out_ + (long long)r.b * TC_OH * TC_OW * TC_COUT_ALL + grp * TC_COUT + co0;
#pragma unroll 2
        for (int i = threadIdx.x; i < TC_NPIX * per; i += TC_NT) {
            const int n = i / per, c = i % per * TC_OVEC;
            const int oy = r.oy0 + n / TILE_OW, ox = r.ox0 + n % TILE_OW;
            if (oy >= TC_OH || ox >= TC_OW || co0 + c >= TC_COUT)
                continue;
            const tc16_bits *s = tc_smem + TC_OUTS + n * TC_OP + c;
            tc16_bits *d = reinterpret_cast<tc16_bits *>(out) + ((long long)oy * TC_OW + ox) * TC_COUT_ALL + c;
#if TC_OVEC == 8
            *reinterpret_cast<uint4 *>(d) = *reinterpret_cast<const uint4 *>(s);
#elif TC_OVEC == 4
            *reinterpret_cast<uint2 *>(d) = *reinterpret_cast<const uint2 *>(s);
#elif TC_OVEC == 2
            *reinterpret_cast<unsigned *>(d) = *reinterpret_cast<const unsigned *>(s);
#else
            *d = *s;
#endif
        }
    }
    tc16_cp_wait<0>();
}
