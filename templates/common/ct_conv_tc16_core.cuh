#include "ct_mma16.cuh"

#ifndef TC_GROUPS
#define TC_GROUPS 1
#endif
#define TC_CIN_ALL (TC_CIN * TC_GROUPS)
#define TC_COUT_ALL (TC_COUT * TC_GROUPS)
// The derived sizes (tc16_sizes.cuh, which the tuner's models read too).
#include "tc16_sizes.cuh"
#define TC_CDIV(a, b) TC16_CDIV(a, b)
#define TC_RUP(a, b) TC16_RUP(a, b)

#define TC_NPIX (TILE_OH * TILE_OW)
#define TC_BN TC16_BN(TILE_OH, TILE_OW, WARPS_N)   // columns past TC_NPIX are idle
#define TC_BM COUT_TILE
#define TC_NT TC16_NT(WARPS_M, WARPS_N)
#define TC_WM TC16_WM(TC_BM, WARPS_M)
#define TC_WN TC16_WN(TC_BN, WARPS_N)
#define TC_MF TC16_MF(TC_WM)
#define TC_NF TC16_NF(TC_WN)
#define TC_CK CIN_CHUNK
#define TC_NCH TC16_NCH(TC_CIN, TC_CK)
#define TC_KHW TC16_KHW(TC_KH, TC_KW)
#define TC_KSTEPS TC16_KSTEPS(TC_KHW, TC_CK)    // mma steps of a chunk
#define TC_AP TC16_AP(TC_KHW, TC_CK)            // weight row pitch, elements
#define TC_CP TC16_CP(TC_CK)                    // input pixel pitch, elements
#define TC_IH TC16_IH(TILE_OH, TC_SY, TC_KH, TC_DY)
#define TC_IW TC16_IW(TILE_OW, TC_SX, TC_KW, TC_DX)
#define TC_SA TC16_SA(TC_BM, TC_AP)
#define TC_SB TC16_SB(TC_IH, TC_IW, TC_CP)
#define TC_STAGE TC16_STAGE(TC_SA, TC_SB)
#define TC_NBUF TC16_NBUF(PREFETCH, TC_NCH)
#define TC_TY TC16_CDIV(TC_OH, TILE_OH)
#define TC_TX TC16_CDIV(TC_OW, TILE_OW)
#define TC_NCT TC16_CDIV(TC_COUT, TC_BM)        // channel tiles of a group
// Copy slots of a chunk: a weight slot is one (row, tap), an input slot
// one pixel of the haloed tile; each thread owns the slots tid + r * NT
// and copies the CK / 2 channel pairs of each, so that its addresses are
// a few bases plus multiples of the pair (few registers live across the
// mma steps).
#define TC_WS TC16_WS(TC_BM, TC_KHW)
#define TC_IS TC16_IS(TC_IH, TC_IW)
#define TC_WR TC16_WR(TC_WS, TC_NT)
#define TC_IR TC16_IR(TC_IS, TC_NT)
// The PREFETCH 0 NCHW path reads the input in column pairs where it can:
// with an even image width and an even tile step along it, every tile's
// first column has the parity of the left padding, so slot p of a tile row
// is image columns ix0 - IOFF + 2p and the next, 32-bit aligned, wholly in
// or out of the image; it becomes tile columns 2p - IOFF and 2p - IOFF + 1
// (each stored where inside the tile). Half the loads of one per pixel.
#define TC_IPAIR TC16_IPAIR(TC_W, TILE_OW, TC_SX)
#define TC_IOFF TC16_IOFF(TC_PW)
#define TC_NPR TC16_NPR(TC_IW, TC_IOFF)        // pairs of a tile row
#define TC_IS2 TC16_IS2(TC_IH, TC_NPR)
#define TC_IRX TC16_IRX(TC_IPAIR, TC_IS2, TC_NT, TC_IR)
// Input slots (pixels or pairs, CK registers each) whose loads a thread of
// the PREFETCH 0 NCHW path has in flight at once: two where tc16_conv.c's
// register estimate with both fits the 64K registers of an SM over
// MIN_BLOCKS blocks (255 at most).
#define TC_RBUDGET TC16_RBUDGET(TC_NT, MIN_BLOCKS)
#define TC_ISTEP TC16_ISTEP(TC_IRX, TC_MF, TC_NF, TC_CK, TC_RBUDGET)

// Raw weights (the PREFETCH 0 NCHW path and channels-last): a row's CK x
// KHW run of OIHW weights ([c][tap]) copied by cp.async as it lies into an
// area after the stage, then transposed shared memory to shared memory.
// Elements of one copy or store: the widest piece that keeps every group's
// and chunk's offset aligned.
#define TC_VEC(n) ((n) % 8 == 0 ? 8 : (n) % 4 == 0 ? 4 : (n) % 2 == 0 ? 2 : 1)
#define TC_IVEC TC_VEC(TC_CIN)
#define TC_WVEC TC_VEC(TC_CIN * TC_KHW)
#define TC_OVEC TC_VEC(TC_COUT)
#define TC_RK TC16_RK(TC_CK, TC_KHW)            // raw weight row, elements
#define TC_SR TC16_SR(TC_BM, TC_RK)
#define TC_CLSTAGE TC16_CLSTAGE(TC_STAGE, TC_SR)  // weights, input tile, raw weights

// The mma steps of a chunk are unrolled whole up to 36 (a 3x3 filter of 64
// channels), by 4 past that (pragmas do not expand macros); the loop below
// takes them two at a time.
constexpr int tc16_unroll2 = TC_KSTEPS <= 36 ? (TC_KSTEPS + 1) / 2 : 2;

// Shared memory (dynamic, sized by tc16_conv.c): TC_NBUF stages of
// TC_STAGE 16-bit elements, each the weights then the input tile.

// One slot's CK / 2 channel pairs of chunk ch (from ci0 = ch * CK): weight
// slot (row m, tap), input slot (pixel of the haloed tile). Zeros outside
// the image and past the layer's channels and rows.
__device__ __forceinline__ void tc16_wload(unsigned *v, const tc16_bits *__restrict__ weight, int co0, int ci0,
                                           int slot)
{
    const int m = slot / TC_KHW, tap = slot % TC_KHW;
    const bool ok = (TC_WS % TC_NT == 0 || slot < TC_WS) && co0 + m < TC_COUT;
    const tc16_bits *p = weight + ((co0 + m) * TC_CIN + ci0) * TC_KHW + tap;
#pragma unroll
    for (int q = 0; q < TC_CK / 2; ++q)
        v[q] = tc16_ld(p + 2 * q * TC_KHW, ok && (TC_CIN % TC_CK == 0 || ci0 + 2 * q < TC_CIN)) |
               tc16_ld(p + (2 * q + 1) * TC_KHW, ok && (TC_CIN % TC_CK == 0 || ci0 + 2 * q + 1 < TC_CIN)) << 16;
}

__device__ __forceinline__ void tc16_iload(unsigned *v, const tc16_bits *__restrict__ in, int iy0, int ix0, int ci0,
                                           int slot)
{
    const int iy = iy0 + slot / TC_IW, ix = ix0 + slot % TC_IW;
    const bool ok = (TC_IS % TC_NT == 0 || slot < TC_IS) && iy >= 0 && iy < TC_H && ix >= 0 && ix < TC_W;
    const tc16_bits *p = in + (ci0 * TC_H + iy) * TC_W + ix;
#pragma unroll
    for (int q = 0; q < TC_CK / 2; ++q)
        v[q] = tc16_ld(p + 2 * q * TC_H * TC_W, ok && (TC_CIN % TC_CK == 0 || ci0 + 2 * q < TC_CIN)) |
               tc16_ld(p + (2 * q + 1) * TC_H * TC_W, ok && (TC_CIN % TC_CK == 0 || ci0 + 2 * q + 1 < TC_CIN))
                   << 16;
}

// Pair slot `slot` of chunk ch (from ci0): lo the two channels' values of
// its first column packed per channel pair, hi those of its second.
__device__ __forceinline__ void tc16_iload2(unsigned *lo, unsigned *hi, const tc16_bits *__restrict__ in, int iy0,
                                            int ix0, int ci0, int slot)
{
    const int iy = iy0 + slot / TC_NPR, ix = ix0 - TC_IOFF + slot % TC_NPR * 2;
    const bool ok = (TC_IS2 % TC_NT == 0 || slot < TC_IS2) && iy >= 0 && iy < TC_H && ix >= 0 && ix < TC_W;
    const unsigned *p = reinterpret_cast<const unsigned *>(in + ((long long)ci0 * TC_H + iy) * TC_W + ix);
#pragma unroll
    for (int q = 0; q < TC_CK / 2; ++q) {
        const unsigned a = ok && (TC_CIN % TC_CK == 0 || ci0 + 2 * q < TC_CIN) ? __ldg(p + q * TC_H * TC_W) : 0u;
        const unsigned b = ok && (TC_CIN % TC_CK == 0 || ci0 + 2 * q + 1 < TC_CIN)
                               ? __ldg(p + q * TC_H * TC_W + TC_H * TC_W / 2)
                               : 0u;
        lo[q] = __byte_perm(a, b, 0x5410);
        hi[q] = __byte_perm(a, b, 0x7632);
    }
}

// The pairs stored transposed into stage s, 16 bytes (4 pairs) at a time:
// weights at [m][tap][c], input at [pixel][c].
__device__ __forceinline__ void tc16_put(tc16_bits *d, const unsigned *v)
{
#pragma unroll
    for (int q = 0; q < TC_CK / 8; ++q)
        reinterpret_cast<uint4 *>(d)[q] = make_uint4(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]);
}

__device__ __forceinline__ void tc16_wstore(tc16_bits *s, int slot, const unsigned *v)
{
    if (TC_WS % TC_NT == 0 || slot < TC_WS)
        tc16_put(s + slot / TC_KHW * TC_AP + slot % TC_KHW * TC_CK, v);
}

__device__ __forceinline__ void tc16_istore(tc16_bits *s, int slot, const unsigned *v)
{
    if (TC_IS % TC_NT == 0 || slot < TC_IS)
        tc16_put(s + TC_SA + slot * TC_CP, v);
}

__device__ __forceinline__ void tc16_istore2(tc16_bits *s, int slot, const unsigned *lo, const unsigned *hi)
{
    const int x = slot % TC_NPR * 2 - TC_IOFF, px = slot / TC_NPR * TC_IW + x;
    if (TC_IS2 % TC_NT != 0 && slot >= TC_IS2)
        return;
    if (TC_IOFF == 0 || x >= 0)
        tc16_put(s + TC_SA + px * TC_CP, lo);
    if ((TC_IW + TC_IOFF) % 2 == 0 || x + 1 < TC_IW)
        tc16_put(s + TC_SA + (px + 1) * TC_CP, hi);
}

// The fragments of mma step s of a staged chunk: A from this lane's weight
// row arow, B from its pixel rows boff, at the step's tap offset.
__device__ __forceinline__ void tc16_frags(const tc16_bits *st, int arow, const int *boff, int s,
                                           unsigned (*a)[4], unsigned (*bf)[2])
{
    const int tap = s / (TC_CK / 16), k = tap * TC_CK + s % (TC_CK / 16) * 16;
    const int koff = (tap / TC_KW * TC_DY * TC_IW + tap % TC_KW * TC_DX) * TC_CP + s % (TC_CK / 16) * 16;
#pragma unroll
    for (int i = 0; i < TC_MF; ++i)
        tc16_ldsm4(a[i], st + arow + i * 16 * TC_AP + k);
#pragma unroll
    for (int jj = 0; jj < TC_NF / 2; ++jj) {
        unsigned r4[4];
        tc16_ldsm4(r4, st + boff[jj] + koff);
        bf[2 * jj][0] = r4[0];
        bf[2 * jj][1] = r4[1];
        bf[2 * jj + 1][0] = r4[2];
        bf[2 * jj + 1][1] = r4[3];
    }
#if TC_NF % 2
    tc16_ldsm2(bf[TC_NF - 1], st + boff[TC_NF / 2] + koff);
#endif
}

__device__ __forceinline__ void tc16_mmas(float (*acc)[TC_NF][4], unsigned (*a)[4], unsigned (*bf)[2])
{
#pragma unroll
    for (int i = 0; i < TC_MF; ++i)
#pragma unroll
        for (int j = 0; j < TC_NF; ++j)
            tc16_mma(acc[i][j], a[i], bf[j]);
}

// The mma steps of one staged chunk. The asm statements keep their order,
// so the fragments of step s + 1 are loaded before the mma steps of s
// (two register sets): an mma never waits on the ldmatrix just before it,
// which with a few warps per scheduler left the tensor cores idle half of
// the time (Nsight Compute: "fixed latency" stalls).
__device__ __forceinline__ void tc16_chunk(const tc16_bits *st, int arow, const int *boff,
                                           float (*acc)[TC_NF][4])
{
    unsigned a0[TC_MF][4], b0[TC_NF][2], a1[TC_MF][4], b1[TC_NF][2];
    tc16_frags(st, arow, boff, 0, a0, b0);
#pragma unroll tc16_unroll2
    for (int s = 0; s + 1 < TC_KSTEPS; s += 2) {
        tc16_frags(st, arow, boff, s + 1, a1, b1);
        tc16_mmas(acc, a0, b0);
        if (s + 2 < TC_KSTEPS)
            tc16_frags(st, arow, boff, s + 2, a0, b0);
        tc16_mmas(acc, a1, b1);
    }
    if (TC_KSTEPS % 2)
        tc16_mmas(acc, a0, b0);
}

// Raw weight piece e of row m: elements e * WVEC.. of the row's [c][tap]
// run from channel ci0, into the raw area of stage st (no commit).
__device__ __forceinline__ void tc16_wcopy(tc16_bits *st, const tc16_bits *__restrict__ weight, int co0, int ci0)
{
    constexpr int wper = TC_RK / TC_WVEC;
#pragma unroll 4
    for (int i = threadIdx.x; i < TC_BM * wper; i += TC_NT) {
        const int m = i / wper, e = i % wper * TC_WVEC;
        const bool ok = co0 + m < TC_COUT && (TC_CIN % TC_CK == 0 || ci0 * TC_KHW + e < TC_CIN * TC_KHW);
        tc16_cp<TC_WVEC>(st + TC_STAGE + m * TC_RK + e,
                         ok ? weight + ((long long)(co0 + m) * TC_CIN + ci0) * TC_KHW + e : weight, ok);
    }
}

// The landed raw weights of stage st transposed into its [row][tap][c]
// area: slot (m, tap) gathers its CK channels (stride KHW), pairs them and
// stores 16 bytes at a time.
__device__ __forceinline__ void tc16_wtranspose(tc16_bits *st)
{
#pragma unroll 1
    for (int slot = threadIdx.x; slot < TC_WS; slot += TC_NT) {
        const tc16_bits *r = st + TC_STAGE + slot / TC_KHW * TC_RK + slot % TC_KHW;
        unsigned v[TC_CK / 2];
#pragma unroll
        for (int q = 0; q < TC_CK / 2; ++q)
            v[q] = (unsigned)r[2 * q * TC_KHW] | (unsigned)r[(2 * q + 1) * TC_KHW] << 16;
        tc16_put(st + slot / TC_KHW * TC_AP + slot % TC_KHW * TC_CK, v);
    }
}
