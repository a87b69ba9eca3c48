// conv2dc_tc16rcl: the conv2dc layer in bf16 or f16, channels-last (NHWC),
// as an implicit GEMM (mma.sync) with a block's weights resident across
// TILES image tiles: input tiles copied by cp.async as they lie, outputs in
// 16-byte stores; see ct_conv_tc16r.cuh. Needs sm_80.
#define TC_NAME conv2dc_tc16rcl
// conv2dc_tclayer.cuh: the conv2dc problem macros mapped onto the TC_* macros of
// ct_conv_tc.cuh, for conv2dc_tc and conv2dc_tcsplit (which define TC_NAME first).
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
#define TC_B CONV_B
#define TC_CIN CONV_CING
#define TC_GROUPS CONV_GROUPS
#define TC_H CONV_H
#define TC_W CONV_W
#define TC_COUT CONV_COUTG
#define TC_KH CONV_KH
#define TC_KW CONV_KW
#define TC_OH CONV_OH
#define TC_OW CONV_OW
#define TC_PH CONV_PH
#define TC_PW CONV_PW
#define TC_SY CONV_SH
#define TC_SX CONV_SW
#define TC_DY CONV_DH
#define TC_DX CONV_DW
#define TC_BIAS CONV_BIAS
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
// ct_mma16.cuh: the half-precision tensor-core pieces shared by the tc16
// templates (ct_conv_tc16.cuh, ct_conv_tc16w.cuh): elements (ct_elem) are
// moved as their 16-bit patterns, multiplied by mma.sync m16n8k16 with fp32
// accumulators (.bf16 for CT_DTYPE 1, .f16 for CT_DTYPE 2), and converted
// only at the ends (ct_dtype.cuh): the bias to fp32, each output rounded
// once to the type. sm_80 or later; f16 also on sm_75 (Turing), where one
// m16n8k16 step is two m16n8k8 ones (sm_75 has no m16n8k16 and no bf16
// mma) and the cp.async copies are ordinary loads and stores.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define TC16_SM75 1
#else
#define TC16_SM75 0
#endif
#ifndef CT_MMA16_CUH
#define CT_MMA16_CUH
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

#if CT_DTYPE == 1 && TC16_SM75
#error "bf16 mma.sync needs sm_80 or later"
#elif CT_DTYPE == 1
#define TC16_MMA "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
#elif CT_DTYPE == 2
#define TC16_MMA "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
#define TC16_MMA8 "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
#else
#error "the tc16 templates are for CT_DTYPE 1 (bf16) or 2 (f16)"
#endif

typedef unsigned short tc16_bits;

// d += a * b for one 16x8x16 tile (fragments in the PTX ISA's layout: a
// holds rows g and g+8 at K 2t..2t+1 and 2t+8..2t+9, b K 2t..2t+1 and
// 2t+8..2t+9 of column g, two elements a register, lower K in the low half).
// On sm_75 the K halves are two m16n8k8 steps: m16n8k8's A is rows g and
// g+8 at K 2t..2t+1 (a[0], a[1], or a[2], a[3] for the upper half), its B
// K 2t..2t+1 of column g (b[0], or b[1]), its C and D those of m16n8k16.
__device__ __forceinline__ void tc16_mma(float *d, const unsigned *a, const unsigned *b)
{
#if TC16_SM75
    asm volatile(TC16_MMA8 "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]));
    asm volatile(TC16_MMA8 "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[2]), "r"(a[3]), "r"(b[1]));
#else
    asm volatile(TC16_MMA "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

// Four (x4) or two (x2) 8x8 matrices of 16-bit values: lane l gives the
// address of row l % 8 of matrix l / 8 (16 bytes, 16-byte aligned); lane
// 4g + t receives elements 2t and 2t+1 of row g of each matrix.
__device__ __forceinline__ void tc16_ldsm4(unsigned *r, const tc16_bits *p)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s));
}

__device__ __forceinline__ void tc16_ldsm2(unsigned *r, const tc16_bits *p)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n" : "=r"(r[0]), "=r"(r[1]) : "r"(s));
}

// A 16-bit element of global memory, read through the read-only path; 0
// where ok is false (padding, channels past the layer), so that no NaN
// pattern from outside the tensor reaches the products.
__device__ __forceinline__ unsigned tc16_ld(const tc16_bits *p, bool ok)
{
    return ok ? (unsigned)__ldg(p) : 0u;
}

// V elements from s to d, zeros where ok is false (cp.async src-size 0
// reads nothing); one element goes through a register, and on sm_75 (no
// cp.async) all of them: the copy is complete when it returns, which every
// commit and wait below then finds (a barrier still publishes it).
template <int V> __device__ __forceinline__ void tc16_cp(tc16_bits *d, const tc16_bits *s, bool ok)
{
    if (V == 1) {
        *d = ok ? __ldg(s) : (tc16_bits)0;
        return;
    }
#if TC16_SM75
    if (V == 8)
        *reinterpret_cast<uint4 *>(d) = ok ? __ldg(reinterpret_cast<const uint4 *>(s)) : make_uint4(0, 0, 0, 0);
    else if (V == 4)
        *reinterpret_cast<uint2 *>(d) = ok ? __ldg(reinterpret_cast<const uint2 *>(s)) : make_uint2(0, 0);
    else
        *reinterpret_cast<unsigned *>(d) = ok ? __ldg(reinterpret_cast<const unsigned *>(s)) : 0u;
#else
    const unsigned a = (unsigned)__cvta_generic_to_shared(d);
    if (V == 8)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(a), "l"(s), "r"(ok ? 16 : 0));
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(a), "l"(s), "n"(2 * V),
                     "r"(ok ? 2 * V : 0));
#endif
}

__device__ __forceinline__ void tc16_cp_commit()
{
#if !TC16_SM75
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}

template <int N> __device__ __forceinline__ void tc16_cp_wait()
{
#if !TC16_SM75
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}
#endif

#ifndef TC_GROUPS
#define TC_GROUPS 1
#endif
#define TC_CIN_ALL (TC_CIN * TC_GROUPS)
#define TC_COUT_ALL (TC_COUT * TC_GROUPS)
#define TC_CDIV(a, b) (((a) + (b) - 1) / (b))
#define TC_RUP(a, b) (TC_CDIV(a, b) * (b))

#define TC_NPIX (TILE_OH * TILE_OW)
#define TC_BN TC_RUP(TC_NPIX, 8 * WARPS_N)     // columns past TC_NPIX are idle
#define TC_BM COUT_TILE
#define TC_NT (32 * WARPS_M * WARPS_N)
#define TC_WM (TC_BM / WARPS_M)
#define TC_WN (TC_BN / WARPS_N)
#define TC_MF (TC_WM / 16)
#define TC_NF (TC_WN / 8)
#define TC_CK CIN_CHUNK
#define TC_NCH TC_CDIV(TC_CIN, TC_CK)
#define TC_KHW (TC_KH * TC_KW)
#define TC_KSTEPS (TC_KHW * TC_CK / 16)        // mma steps of a chunk
#define TC_AP (TC_KHW * TC_CK + 8)             // weight row pitch, elements
#define TC_CP (TC_CK + 8)                      // input pixel pitch, elements
#define TC_IH ((TILE_OH - 1) * TC_SY + (TC_KH - 1) * TC_DY + 1)
#define TC_IW ((TILE_OW - 1) * TC_SX + (TC_KW - 1) * TC_DX + 1)
#define TC_SA (TC_BM * TC_AP)
#define TC_SB (TC_IH * TC_IW * TC_CP)
#define TC_STAGE (TC_SA + TC_SB)
#define TC_NBUF (PREFETCH && TC_NCH > 1 ? 2 : 1)
#define TC_TY TC_CDIV(TC_OH, TILE_OH)
#define TC_TX TC_CDIV(TC_OW, TILE_OW)
#define TC_NCT TC_CDIV(TC_COUT, TC_BM)          // channel tiles of a group
// Copy slots of a chunk: a weight slot is one (row, tap), an input slot
// one pixel of the haloed tile; each thread owns the slots tid + r * NT
// and copies the CK / 2 channel pairs of each, so that its addresses are
// a few bases plus multiples of the pair (few registers live across the
// mma steps).
#define TC_WS (TC_BM * TC_KHW)
#define TC_IS (TC_IH * TC_IW)
#define TC_WR TC_CDIV(TC_WS, TC_NT)
#define TC_IR TC_CDIV(TC_IS, TC_NT)
// The PREFETCH 0 NCHW path reads the input in column pairs where it can:
// with an even image width and an even tile step along it, every tile's
// first column has the parity of the left padding, so slot p of a tile row
// is image columns ix0 - IOFF + 2p and the next, 32-bit aligned, wholly in
// or out of the image; it becomes tile columns 2p - IOFF and 2p - IOFF + 1
// (each stored where inside the tile). Half the loads of one per pixel.
#define TC_IPAIR (TC_W % 2 == 0 && TILE_OW * TC_SX % 2 == 0)
#define TC_IOFF (TC_PW % 2)
#define TC_NPR TC_CDIV(TC_IW + TC_IOFF, 2)      // pairs of a tile row
#define TC_IS2 (TC_IH * TC_NPR)
#define TC_IRX (TC_IPAIR ? TC_CDIV(TC_IS2, TC_NT) : TC_IR)
// Input slots (pixels or pairs, CK registers each) whose loads a thread of
// the PREFETCH 0 NCHW path has in flight at once: two where tc16_conv.c's
// register estimate with both fits the 64K registers of an SM over
// MIN_BLOCKS blocks (255 at most).
#define TC_RBUDGET (65536 / (TC_NT * MIN_BLOCKS) < 255 ? 65536 / (TC_NT * MIN_BLOCKS) : 255)
#define TC_ISTEP (TC_IRX > 1 && TC_MF * TC_NF * 4 + 2 * TC_CK + TC_MF * 4 + TC_NF * 2 + 40 <= TC_RBUDGET ? 2 : 1)

// Raw weights (the PREFETCH 0 NCHW path and channels-last): a row's CK x
// KHW run of OIHW weights ([c][tap]) copied by cp.async as it lies into an
// area after the stage, then transposed shared memory to shared memory.
// Elements of one copy or store: the widest piece that keeps every group's
// and chunk's offset aligned.
#define TC_VEC(n) ((n) % 8 == 0 ? 8 : (n) % 4 == 0 ? 4 : (n) % 2 == 0 ? 2 : 1)
#define TC_IVEC TC_VEC(TC_CIN)
#define TC_WVEC TC_VEC(TC_CIN * TC_KHW)
#define TC_OVEC TC_VEC(TC_COUT)
#define TC_RK (TC_CK * TC_KHW)                  // raw weight row, elements
#define TC_SR (TC_BM * TC_RK)
#define TC_CLSTAGE (TC_STAGE + TC_SR)           // weights, input tile, raw weights

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

#define TC_NTILES (TC_B * TC_TY * TC_TX)
#define TC_OP (TC_BM + 8)                      // staged output pixel pitch
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
