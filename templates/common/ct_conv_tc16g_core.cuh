// ct_conv_tc16g_core.cuh: what the wgmma layer templates share
// (ct_conv_tc16g.cuh, weights resident; ct_conv_tc16gk.cuh, weights
// streamed): the layer's sizes, a warpgroup's wgmma chains over its rows,
// the input planes' layout, the k-steps of the channels the planes hold,
// the accumulators packed for the epilogue and an output piece's store.
// The includer defines TC_RPW (output rows a warpgroup covers) and TC_CK
// (input channels the planes and a weight buffer hold, a multiple of 16)
// before including it: the functions' array types use them.
//
// Layouts, wgmma's K-major canonical form without swizzling (a core matrix
// is 8 rows of 8 K-consecutive elements, 128 contiguous bytes):
//   A (weights): [k / 8][co][8], k = tap * CK + c; core matrices adjacent
//     along K are BM x 16 bytes apart (LBO), along M 128 (SBO).
//   B (a tile's haloed input): [c / 8][pixel][8], one plane of 16-byte
//     pixel rows per 8 channels; along K the next plane (LBO, an odd number
//     of 16-byte units so the writes of a pixel's 8 planes fall in distinct
//     banks), along N the next 8 pixels (SBO 128). A row's operand at tap
//     (i, j) starts at pixel (row * SY + i * DY) * IW + j * DX.
#ifndef CT_CONV_TC16G_CORE_CUH
#define CT_CONV_TC16G_CORE_CUH
#include "ct_wgmma.cuh"

#ifndef TC_GROUPS
#define TC_GROUPS 1
#endif
#define TC_CIN_ALL (TC_CIN * TC_GROUPS)
#define TC_COUT_ALL (TC_COUT * TC_GROUPS)
// The derived sizes (tc16g_sizes.cuh, which the tuner's models read too).
#include "tc16g_sizes.cuh"
#define TC_CDIV(a, b) TC16G_CDIV(a, b)
#define TC_RUP(a, b) TC16G_RUP(a, b)

#define TC_BM TC16G_BM(WG_M)
#define TC_NT TC16G_NT(WG_M, WG_N)
// Stride 1 down the image: consecutive output rows read consecutive input
// rows, so a tap's operand for all of a warpgroup's rows is one run of
// pixels, (RPW - 1) x IW + TILE_OW long, and one wgmma covers them (FLAT):
// its column n is output row n / IW, column n % IW, wasted past TILE_OW
// (the KW - 1 halo columns of a row). Fewer, larger wgmma steps: a small
// N leaves the tensor cores waiting on each step's accumulator chain.
// Otherwise one wgmma per row, N = TILE_OW.
#define TC_FLAT (TC_SY == 1)
#if TC_FLAT
#define TC_NW 1                                 // wgmma chains per warpgroup
#define TC_WN TC16G_WN_FLAT(TC_RPW, TC_IW, TILE_OW)
#else
#define TC_NW TC_RPW
#define TC_WN TC16G_WN_ROW(TILE_OW)
#endif
#define TC_KHW TC16G_KHW(TC_KH, TC_KW)
#define TC_KSTEPS (TC_KHW * TC_CK / 16)         // k-steps of the channels held
#define TC_IH TC16G_IH(TILE_OH, TC_SY, TC_KH, TC_DY)
#define TC_IW TC16G_IW(TILE_OW, TC_KW, TC_DX)
#define TC_IS (TC_IH * TC_IW)
#define TC_PPX TC16G_PPX(TC_IS)                 // plane pixels: odd; a run ends at most 7 past the tile
#define TC_PB TC16G_PB(TC_PPX)                  // plane bytes
#define TC_SB TC16G_SB(TC_CK, TC_PB)            // the planes of CK channels, bytes
#define TC_SA TC16G_SA(TC_BM, TC_KHW, TC_CK)    // A of CK channels, bytes
#define TC_OP TC16G_OP(TC_BM)                   // staged output pixel pitch, elements
#define TC_RK TC16G_RK(TC_CIN, TC_KHW)          // a raw weight row, elements
#define TC_TY TC16G_CDIV(TC_OH, TILE_OH)
#define TC_TX TC16G_CDIV(TC_OW, TILE_OW)
#define TC_NCT TC16G_CDIV(TC_COUT, TC_BM)
#define TC_VEC(n) TC16G_VEC(n)
#define TC_OVEC TC_VEC(TC_COUT)

// The k-steps of CK channels into acc, one wgmma per step and chain. A
// descriptor's address field counts 16 bytes, so a step's is its base's
// (da0: A at this warpgroup's 64 rows; db0: B at its first row) plus a
// constant, added in the wgmma's asm (shared addresses stay under 2^18:
// no carry). FRESH: the first step overwrites acc (scale-d 0); otherwise
// every step adds to it.
template <bool FRESH>
__device__ __forceinline__ void tc16g_steps(float (*acc)[TC_WN / 2], unsigned long long da0, unsigned long long db0)
{
#pragma unroll
    for (int s = 0; s < TC_KSTEPS; ++s) {
        const int tap = s / (TC_CK / 16), q = s % (TC_CK / 16);
        const unsigned oa = (tap * (TC_CK / 8) + 2 * q) * TC_BM;
#pragma unroll
        for (int rr = 0; rr < TC_NW; ++rr) {
            const int p0 = (rr * TC_SY + tap / TC_KW * TC_DY) * TC_IW + tap % TC_KW * TC_DX;
            tc16_wgmma<TC_WN>(acc[rr], da0, oa, db0, 2 * q * TC_PB / 16 + p0, FRESH ? s > 0 : 1);
        }
    }
}

// The bias of this thread's two channel rows of its warpgroup's 64 (16w + g
// and 16w + g + 8, w its warp) from output channel co0 + 64 wgm of group
// grp, in fp32: zeros past Cout, and without a bias (TC_BIAS_ARG null).
#if TC_BIAS
#define TC_BIAS_ARG bias
#else
#define TC_BIAS_ARG nullptr
#endif
__device__ __forceinline__ void tc16g_bias(float *bv, const ct_elem *__restrict__ bias, int grp, int co0, int wgm)
{
    const int w = threadIdx.x / 32 % 4, g = threadIdx.x % 32 / 4;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int co = co0 + wgm * 64 + 16 * w + g + 8 * h;
        bv[h] = TC_BIAS && co < TC_COUT ? ct_ldg(bias + grp * TC_COUT + co) : 0.0f;
    }
}

// acc[rr][4j..] holds channels 16w + g (+8) of the warpgroup's 64, columns
// 8j + 2t (+1) of chain rr; pk[rr][2j + h] gets channel row h's pair, the
// bias added in fp32, one rounding. Every accumulator is read here,
// unconditionally: read under a condition, ptxas guards each read with a
// wait of its own and serializes all wgmma steps of the kernel (its info
// C7518).
__device__ __forceinline__ void tc16g_pack(float (*acc)[TC_WN / 2], const float *bv, unsigned (*pk)[TC_WN / 4])
{
#pragma unroll
    for (int rr = 0; rr < TC_NW; ++rr)
#pragma unroll
        for (int j = 0; j < TC_WN / 8; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h)
                pk[rr][2 * j + h] = tc16_pack(acc[rr][4 * j + 2 * h] + bv[h], acc[rr][4 * j + 2 * h + 1] + bv[h]);
}

// Where column n of chain rr lands among the warpgroup's output rows: with
// FLAT, row n / IW and column n % IW (columns from TILE_OW on are a row's
// halo, never stored); otherwise row rr, column n. (A walk adding 8 to the
// column and wrapping once at IW, as tc16g had, misplaced columns where IW
// is under 8.)
__device__ __forceinline__ int tc16g_row(int rr, int n)
{
    return TC_FLAT ? n / TC_IW : rr;
}

__device__ __forceinline__ int tc16g_col(int n)
{
    return TC_FLAT ? n % TC_IW : n;
}

// This thread's packed outputs staged as [pixel][channel] (pitch OP): the
// warpgroup's rows start at tile row rw0, its channels at 64 wgm.
__device__ __forceinline__ void tc16g_stage(tc16_bits *so, unsigned (*pk)[TC_WN / 4], int rw0, int wgm)
{
    const int w = threadIdx.x / 32 % 4, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
#pragma unroll
    for (int rr = 0; rr < TC_NW; ++rr)
#pragma unroll
        for (int j = 0; j < TC_WN / 8; ++j)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int n = 8 * j + 2 * t + e, re = tc16g_row(rr, n), xe = tc16g_col(n);
                if (xe < TILE_OW && re < TC_RPW)
#pragma unroll
                    for (int h = 0; h < 2; ++h)
                        so[((rw0 + re) * TILE_OW + xe) * TC_OP + wgm * 64 + 16 * w + g + 8 * h] =
                            (tc16_bits)(pk[rr][2 * j + h] >> 16 * e);
            }
}

// OVEC consecutive output elements from shared memory to global memory.
__device__ __forceinline__ void tc16g_store(tc16_bits *d, const tc16_bits *s)
{
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
#endif
