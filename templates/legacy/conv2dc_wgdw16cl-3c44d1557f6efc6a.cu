// conv2dc_wgdw16cl: the weight gradient (wgrad, then the bias gradient) of
// a depthwise conv2dc layer in the channels-last layout, bf16 or f16, on
// the tensor cores: the partial sums of the grid's splits into a
// workspace, then conv2dc_wgdw16cl_reduce adds them in a fixed order; see
// ct_dw16_wgrad.cuh.
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
#define WT_NAME conv2dc_wgdw16cl
#define WT_REDUCE_NAME conv2dc_wgdw16cl_reduce
// ct_dw16_wgrad.cuh: the weight gradient of a depthwise layer (groups =
// Cin = Cout) in the channels-last layout (NHWC, and NLC as a 2D layer of
// height 1, through the LY_* names of FAMILY_as2d.cuh), bf16 or f16, on the
// tensor cores (mma.sync m16n8k16, fp32 sums), stride 1, any dilation and
// padding, KH and KW at most 16.
//
// Per channel the weight gradient is a small GEMM: with k = (b, r, ow) over
// the x rows r and the dy columns ow,
//   A[m = kw][k] = x[b][r][ow + kw*DX - PW]           (a Toeplitz row shift)
//   B[k][n = kh] = dy[b][r + PH - kh*DY][ow]          (0 outside dy)
//   dW[kh][kw] = sum_k A[kw][k] B[k][kh]
// which is sum over b, oh, ow of x[b][oh + kh*DY - PH][ow + kw*DX - PW]
// dy[b][oh][ow]. M = KW (rows past KW compute sums nobody keeps), N = KH
// (one n8 tile, two for KH > 8), K runs along ow in slices of 16 (the row
// padded to OWP = OW rounded up to 16 with zero dy).
//
// A block takes CHANNELS channels and, ITEMS times, an item: a batch image b
// and a tile of ROWS x rows r0.. (tiles of max(H, OH) rows: a tile also
// owns dy rows r0.. for the bias). It stages the tile in shared memory
// channel-major, the pairs of neighbouring columns of a channel packed in
// one 32-bit word as the mma fragments hold them:
//   x: ROWS rows of two copies, copy 0 word j = columns (2j, 2j+1) - OFFX,
//      copy 1 word j = columns (2j+1, 2j+2) - OFFX (zeros outside the image),
//      so that a fragment pair at an odd column is an aligned word too;
//   dy: the rows r0 + DLO .. r0 + ROWS - 1 + PH the tile's x rows meet (and
//      the rows r0.. it owns), word j = columns (2j, 2j+1), zeros past OW
//      and outside dy.
// The staging loads are VEC channels of a pixel (16, 8 or 4 bytes), BATCH
// tasks' worth in flight before their stores (wt_load, wt_store).
// A warp owns CHANNELS / WARPS channels, their fp32 accumulators in
// registers (4 per n tile), and walks the tile's x rows and each row's
// slices, its channels innermost (independent mma chains): per slice and
// channel 4 A words (a1 = a2 at dilation 1, and a3 is
// the next slice's a0: 2 new loads), 2 B words per n tile and one mma per n
// tile. The bias gradient (LY_BIAS) is each lane's fp32 sum of the owned dy
// rows' words, added over the warp at the end.
//
// The block's sums (at most ITEMS x ROWS x OWP products each) go to its
// split's slice of the workspace, ws[split][tap][c] then ws[split][KH*KW][c]
// for the bias; WT_REDUCE_NAME adds the splits in fp64 in a fixed order
// (ct_dwcl_wgred.cuh, the depthwise wgrad's own reduce): no atomics, the
// same bits every run.
//
// PAIR (KW <= 8, KH <= 7, DY 1): one mma takes two x rows, r in the A rows
// g and r + 1 in the rows g + 8 (KW <= 8 each), against one B of dy rows
// r + 1 + PH - n (n = 0..7): x row r + 1 meets them at kh = n, x row r at
// kh = n - 1, so KH + 1 <= 8 columns cover both rows' taps. Per row and
// slice 2 A words and 1 B word instead of 2 and 2, half the mma; the two
// halves of a tap are added at the end (a lane's own, or its neighbour's
// through a shuffle).
//
// PREFETCH: the next item's first staging batch is loaded before this
// item's mma and stored after the next item's first barrier, so that its
// round trip to memory overlaps the mma.
//
// CFIRST: the grid is splits (x) x channel groups (y) either way (the
// workspace counts the splits along x), but with CFIRST the blocks in
// launch order walk the channel groups first, so that the blocks reading
// the channels of the same pixels run at the same time and each DRAM burst
// of a pixel's channels serves them all (without it the channel groups of
// a pixel run a wave apart and each fetches its own share of the bursts).
//
// RING: consecutive row tiles of an image share PH - DLO dy rows; they stay
// in a ring of NDR row slots (wt_slot) and an item stages only its new
// ROWS rows.
//
// ASYNC: cp.async copies the next item's rows as they lie into a raw area
// after the tiles during this item's mma; the item transposes from there
// (no staging round trip to memory between the barriers, fewer registers).
//
// WIDE (PAIR): the rows of a pair interleaved word by word and a dy row's
// words j, j + 4 side by side: each fragment pair is one 8-byte load.
//
// XSH: an x staging task takes its third pixel from the next task's lane
// (wt_own3) instead of loading it again through L1.
//
// Tuning macros: CHANNELS, WARPS, ROWS, ITEMS, VEC, PAIR, BATCH, PREFETCH,
// CFIRST, RING, ASYNC, WIDE, XSH (dw16bwd_conv.c).
// CT_REPLAY (the CPU replay, dw16bwd_replay.cpp) supplies tc16_mma and the
// cp.async copies itself.
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
#ifndef CT_REPLAY
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
#endif
// The replay checks the alignment of every vector access to shared memory
// (the CPU would take a misaligned one silently).
#ifdef CT_REPLAY
#define WT_ALIGNED(p, n) assert((reinterpret_cast<uintptr_t>(p) & ((n) - 1)) == 0)
#else
#define WT_ALIGNED(p, n) ((void)0)
#endif

static_assert(LY_CL, "channels-last (nhwc, nlc) layers only");
static_assert(LY_GROUPS == LY_CIN && LY_COUT == LY_CIN, "depthwise layers only");
static_assert(LY_PASS == 2, "the weight gradient");
static_assert(CT_DTYPE == 1 || CT_DTYPE == 2, "bf16 or f16");
static_assert(LY_SX == 1 && LY_SY == 1, "stride 1");
static_assert(LY_KH <= 16 && LY_KW <= 16, "KH, KW at most 16");
static_assert(LY_CIN % VEC == 0 && CHANNELS % VEC == 0, "VEC divides the channels and a block's channels");
static_assert(VEC == 2 || VEC == 4 || VEC == 8, "VEC is 2, 4 or 8 channels (one 4-, 8- or 16-byte load)");
static_assert(CHANNELS % WARPS == 0, "WARPS divides CHANNELS");
static_assert(BATCH >= 1, "BATCH >= 1");
static_assert(RING == 0 || RING == 1, "RING is 0 or 1");
static_assert(ASYNC == 0 || (ASYNC == 1 && PREFETCH == 0), "ASYNC is 0 or 1, and 1 without PREFETCH");
static_assert(WIDE == 0 || (WIDE == 1 && PAIR == 1), "WIDE is 0 or 1, and 1 with PAIR");
static_assert(XSH == 0 || XSH == 1, "XSH is 0 or 1");
static_assert(PAIR == 0 || (LY_KW <= 8 && LY_KH <= 7 && LY_DY == 1 && ROWS % 2 == 0),
              "PAIR: KW <= 8, KH <= 7, dilation 1 along H, ROWS even");

#define WT_C LY_CIN
#define WT_CB CHANNELS
#define WT_NCG ((WT_C + WT_CB - 1) / WT_CB)                 // channel groups: grid y
#define WT_CPW (WT_CB / WARPS)                              // channels of a warp
#define WT_NT (LY_KH > 8 ? 2 : 1)                           // n8 tiles (PAIR: 1)
#define WT_AS (WT_CPW == 1 && WT_NT == 1 ? 2 : 1)           // accumulator sets (by slice parity)
#define WT_OWP ((LY_OW + 15) / 16 * 16)                     // dy row padded to slices
#define WT_NS (WT_OWP / 16)                                 // slices of a row
#define WT_OFFX (LY_PW + (LY_PW & 1))                       // x column 0's index in a row
#define WT_XWN ((WT_OWP + 15 * LY_DX - LY_PW + WT_OFFX) / 2 + 1) // words of an x row copy
#define WT_DLO (LY_PH - (LY_KH - 1) * LY_DY < 0 ? LY_PH - (LY_KH - 1) * LY_DY : 0)
#define WT_NDR (ROWS + LY_PH - WT_DLO)                      // dy rows of a tile
#define WT_DWN (WT_OWP / 2)                                 // words of a dy row
// Its stride: 8 rows x 4 words on 32 banks; WIDE: 8 rows x 8 words (2 x 4
// rows) on 2 x 32 banks.
#define WT_DWS (WIDE ? WT_DWN + (40 - WT_DWN % 32) % 32 : WT_DWN + 4)
#define WT_ROWT ((LY_H > LY_OH ? LY_H : LY_OH))             // rows the tiles cover
#define WT_NTILE ((WT_ROWT + ROWS - 1) / ROWS)
#define WT_ITEMS ((long long)LY_B * WT_NTILE)
#define WT_NSPLIT ((WT_ITEMS + ITEMS - 1) / ITEMS)
#define WT_TAPS (LY_KH * LY_KW)
#define WT_COUNT ((long long)(WT_TAPS + (LY_BIAS ? 1 : 0)) * WT_C) // workspace floats of a split
#define WT_NQ (WT_CB / VEC)                                 // loads across a block's channels
#define WT_NTHR (WARPS * 32)
#define WT_XT (WT_NQ * WT_XWN * ROWS)                      // x staging tasks of an item
#define WT_DT (WT_NQ * WT_DWN * WT_NDR)                     // dy staging tasks of an item
#define WT_XI ((WT_XT + WT_NTHR - 1) / WT_NTHR)             // a thread's x tasks
#define WT_DI ((WT_DT + WT_NTHR - 1) / WT_NTHR)             // a thread's dy tasks
#define WT_NB (((WT_XI > WT_DI ? WT_XI : WT_DI) + BATCH - 1) / BATCH) // batches of BATCH tasks of each

// The stride of an x row copy: at least WT_XWN words, with the words a
// warp's A loads touch in copy 0 and in copy 1 on different banks where
// that is possible (they span (6 + 7 DX) / 2 + 1 words of each copy).
// WIDE: a pair of rows' words interleaved, so the span is twice as many
// words, 2 x XW apart.
__device__ __forceinline__ constexpr int wt_xw()
{
    const int span = (6 + 7 * LY_DX) / 2 + 1;
    for (int w = WT_XWN; w < WT_XWN + 32; ++w)
        if (WIDE ? 2 * w % 32 >= 2 * span && 2 * w % 32 <= 32 - 2 * span : w % 32 >= span && w % 32 <= 32 - span)
            return w;
    return WT_XWN;
}
#define WT_XW (wt_xw())
// Words of a channel: the x rows' two copies, the dy rows, padded so that
// a staging store's lanes fall on different banks: WT_NQ loads along the
// channels x 32 / WT_NQ words, VEC channels apart (VEC 8: 2 x 16 words
// want 8 x CS = 16 mod 32 words, CS = 2 mod 4; otherwise CS odd). WIDE:
// 2 mod 4 always (its 8-byte fragment loads want an even channel base).
#define WT_CS0 (ROWS * 2 * WT_XW + WT_NDR * WT_DWS)
#define WT_CS (WIDE || (WT_NQ == 2 && VEC == 8) ? WT_CS0 + (6 - WT_CS0 % 4) % 4 : WT_CS0 | 1)
#define WT_TILE_WORDS (WT_CB * WT_CS)
// ASYNC: after the tiles (16-byte aligned) the raw staging area, the
// item's rows as they lie in memory (the block's WT_CB channels of each
// pixel), ROWS x rows then NDR dy rows, each row's even pixels and then
// its odd ones: a warp's reads of the pixels w, w + 2, ... (w even) are
// then contiguous (wt_rx, wt_rd).
#define WT_RAW0 ((WT_TILE_WORDS + 3) / 4 * 4)
#define WT_RWX ((LY_W + 1) / 2)                             // pixels of a parity of an x row
#define WT_RWD ((LY_OW + 1) / 2)
#define WT_RAWX (ROWS * 2 * WT_RWX * WT_CB)                 // elements of the raw x rows
#define WT_RAWD (WT_NDR * 2 * WT_RWD * WT_CB)               // elements of the raw dy rows
#define WT_SMEM_WORDS (ASYNC ? WT_RAW0 + (WT_RAWX + WT_RAWD) / 2 : WT_TILE_WORDS)

// The float value of a 16-bit element's bits.
__device__ __forceinline__ float wt_tof(unsigned bits)
{
#ifdef CT_REPLAY
    const unsigned short h = (unsigned short)bits;
    ct_elem e;
    memcpy(&e, &h, sizeof h);
    return ct_ld(&e);
#elif CT_DTYPE == 1
    return __uint_as_float(bits << 16);
#else
    return __half2float(__ushort_as_half((unsigned short)bits));
#endif
}

// VEC channels of a pixel as VEC / 2 words (channel 2e in the low half of
// word e), zeros where ok is false; from global memory through the
// read-only path, or (SH) from the raw staging area in shared memory.
template <bool SH = false> __device__ __forceinline__ void wt_ldv(unsigned *v, const ct_elem *p, bool ok)
{
    if (SH && ok)
        WT_ALIGNED(p, 2 * VEC);
    if (VEC == 8) {
        const uint4 *a = reinterpret_cast<const uint4 *>(p);
        const uint4 u = ok ? (SH ? *a : __ldg(a)) : make_uint4(0, 0, 0, 0);
        v[0] = u.x, v[1] = u.y, v[2] = u.z, v[3] = u.w;
    } else if (VEC == 4) {
        const uint2 *a = reinterpret_cast<const uint2 *>(p);
        const uint2 u = ok ? (SH ? *a : __ldg(a)) : make_uint2(0, 0);
        v[0] = u.x, v[1] = u.y;
    } else {
        const unsigned *a = reinterpret_cast<const unsigned *>(p);
        v[0] = ok ? (SH ? *a : __ldg(a)) : 0u;
    }
}

// The raw area's element offsets of x pixel w of tile row r and of dy
// pixel o of tile row d (their first channel of the block).
__device__ __forceinline__ long long wt_rx(int r, int w)
{
    return ((long long)(r * 2 + (w & 1)) * WT_RWX + (w >> 1)) * WT_CB;
}
__device__ __forceinline__ long long wt_rd(int d, int o)
{
    return WT_RAWX + ((long long)(d * 2 + (o & 1)) * WT_RWD + (o >> 1)) * WT_CB;
}

// x staging task -> (q, j, r): q fastest, then j, then the row; WIDE: the
// two rows of a pair before j, so that a warp's stores of interleaved
// words (wt_xo) are contiguous.
__device__ __forceinline__ void wt_xtask(int task, int &q, int &j, int &r)
{
    q = task % WT_NQ;
    const int rest = task / WT_NQ;
    if (WIDE) {
        const int rest2 = rest / 2;
        j = rest2 % WT_XWN, r = 2 * (rest2 / WT_XWN) + rest % 2;
    } else {
        j = rest % WT_XWN, r = rest / WT_XWN;
    }
}

// XSH: the lane distance to the task of the next word j + 1 of the same
// row (q, then with WIDE the row of the pair, run faster than j), and
// whether a task loads its third pixel itself: only where that lane is
// past the warp or j is its row's last word; the others take it from that
// lane's first pixel (the same pixel, w + 2) by a shuffle.
#define WT_DJ (WIDE ? 2 * WT_NQ : WT_NQ)
__device__ __forceinline__ bool wt_own3(int tid, int j)
{
    return !XSH || tid % 32 + WT_DJ >= 32 || j == WT_XWN - 1;
}

// The word offset of x row r, copy 0, word j in a channel's tile; copy 1
// is WT_XO1 further. WIDE interleaves the words of rows 2P and 2P + 1.
__device__ __forceinline__ int wt_xo(int r, int j)
{
    return WIDE ? (r / 2) * 4 * WT_XW + 2 * j + r % 2 : r * 2 * WT_XW + j;
}
#define WT_XO1 (WIDE ? 2 * WT_XW : WT_XW)

// The position of word j in a dy row: WIDE puts words j and j + 4 of each
// group of 8 side by side (a B fragment's two words: one 8-byte load).
__device__ __forceinline__ int wt_dpos(int j)
{
    return WIDE ? (j & ~7) + 2 * (j & 3) + ((j >> 2) & 1) : j;
}

// Channel e's elements of two pixels' vectors as one word (lo, hi).
__device__ __forceinline__ unsigned wt_pair(const unsigned *lo, const unsigned *hi, int e)
{
    return e % 2 == 0 ? (lo[e / 2] & 0xffffu) | (hi[e / 2] << 16) : (lo[e / 2] >> 16) | (hi[e / 2] & 0xffff0000u);
}

// The ring slot of dy tile row d (0 <= d < NDR) of an item whose row 0 is
// in slot s0 (< NDR): with RING a row tile keeps the dy rows it shares with
// the previous tile of its image where they are, in slots mod NDR.
__device__ __forceinline__ int wt_slot(int d, int s0)
{
    if (!RING)
        return d;
    const int k = d + s0;
    return k >= WT_NDR ? k - WT_NDR : k;
}

// Staging batches of an item staging dn dy rows (x: every row).
__device__ __forceinline__ constexpr int wt_nb(int dn)
{
    const int di = (WT_NQ * WT_DWN * dn + WT_NTHR - 1) / WT_NTHR;
    return ((WT_XI > di ? WT_XI : di) + BATCH - 1) / BATCH;
}

// A batch of a thread's staging: the loaded vectors of BATCH x tasks (3
// pixels each) and BATCH dy tasks (2 pixels each).
struct wt_stage {
    unsigned xv[BATCH][3][VEC / 2], dv[BATCH][2][VEC / 2];
};

// Loads batch bt of the item (b, r0) of channel group cg: x task (q, j, r),
// q fastest (a warp's loads along the channels, then the columns), pixels
// w = 2j - OFFX, w + 1, w + 2 of x row r0 + r; dy task (q, j, d), pixels
// 2j, 2j + 1 of dy row r0 + DLO + d. A thread takes the tasks tid, tid +
// NTHR, ...: every load of a batch is issued before its first store, so
// that one round trip to memory serves the batch. RAW: from the raw
// staging area (ASYNC, wt_async) instead of global memory.
template <bool RAW>
__device__ __forceinline__ void wt_load(wt_stage &st, const ct_elem *__restrict__ x, const ct_elem *__restrict__ dy,
                                        const ct_elem *raw, int tid, int cg, int b, int r0, int bt, int dfirst, int dn)
{
    const int px = RAW ? WT_CB : 2 * WT_C;   // elements from pixel w to w + 2
#pragma unroll
    for (int k = 0; k < BATCH; ++k) {
        const int task = tid + (bt * BATCH + k) * WT_NTHR;
        int q, j, r;
        wt_xtask(task, q, j, r);
        const int y = r0 + r, w = 2 * j - WT_OFFX, c = cg * WT_CB + q * VEC;
        const bool row = task < WT_XT && y < LY_H && c < WT_C;
        // (w is even: in the raw area pixel w + 1 is in the odd half, w + 2
        // next to w.)
        const ct_elem *p = RAW ? raw + wt_rx(r, w) + q * VEC : x + (((long long)b * LY_H + y) * LY_W + w) * WT_C + c;
        const ct_elem *p1 = RAW ? raw + wt_rx(r, w + 1) + q * VEC : p + WT_C;
        wt_ldv<RAW>(st.xv[k][0], p, row && w >= 0 && w < LY_W);
        wt_ldv<RAW>(st.xv[k][1], p1, row && w + 1 >= 0 && w + 1 < LY_W);
        wt_ldv<RAW>(st.xv[k][2], p + px, row && w + 2 >= 0 && w + 2 < LY_W && wt_own3(tid, j));
    }
#pragma unroll
    for (int k = 0; k < BATCH; ++k) {
        const int task = tid + (bt * BATCH + k) * WT_NTHR;
        const int q = task % WT_NQ, rest = task / WT_NQ, j = rest % WT_DWN, d = dfirst + rest / WT_DWN;
        const int oh = r0 + WT_DLO + d, o = 2 * j, c = cg * WT_CB + q * VEC;
        const bool row = task < WT_NQ * WT_DWN * dn && oh >= 0 && oh < LY_OH && c < WT_C;
        const ct_elem *p = RAW ? raw + wt_rd(d, o) + q * VEC : dy + (((long long)b * LY_OH + oh) * LY_OW + o) * WT_C + c;
        const ct_elem *p1 = RAW ? raw + wt_rd(d, o + 1) + q * VEC : p + WT_C;
        wt_ldv<RAW>(st.dv[k][0], p, row && o < LY_OW);
        wt_ldv<RAW>(st.dv[k][1], p1, row && o + 1 < LY_OW);
    }
}

// ASYNC: copies the item (b, r0)'s rows of the block's channels into the
// raw staging area as they lie (cp.async, 4 to 16 bytes a pixel's VEC
// channels, consecutive threads along the channels and then the pixels):
// x rows r0..r0 + ROWS - 1, dy tile rows dfirst..dfirst + dn - 1. Pixels
// outside the image or dy and channels past the layer are not copied:
// wt_load<true> reads zeros for them, under the conditions of wt_load.
__device__ __forceinline__ void wt_async(ct_elem *raw, const ct_elem *__restrict__ x, const ct_elem *__restrict__ dy,
                                         int tid, int cg, int b, int r0, int dfirst, int dn)
{
    for (int task = tid; task < WT_NQ * LY_W * ROWS; task += WT_NTHR) {
        const int q = task % WT_NQ, rest = task / WT_NQ, w = rest % LY_W, r = rest / LY_W;
        const int y = r0 + r, c = cg * WT_CB + q * VEC;
        if (y < LY_H && c < WT_C)
            tc16_cp<VEC>(reinterpret_cast<tc16_bits *>(raw + wt_rx(r, w) + q * VEC),
                         reinterpret_cast<const tc16_bits *>(x + (((long long)b * LY_H + y) * LY_W + w) * WT_C + c),
                         true);
    }
    for (int task = tid; task < WT_NQ * LY_OW * dn; task += WT_NTHR) {
        const int q = task % WT_NQ, rest = task / WT_NQ, o = rest % LY_OW, d = dfirst + rest / LY_OW;
        const int oh = r0 + WT_DLO + d, c = cg * WT_CB + q * VEC;
        if (oh >= 0 && oh < LY_OH && c < WT_C)
            tc16_cp<VEC>(reinterpret_cast<tc16_bits *>(raw + wt_rd(d, o) + q * VEC),
                         reinterpret_cast<const tc16_bits *>(dy + (((long long)b * LY_OH + oh) * LY_OW + o) * WT_C + c),
                         true);
    }
    tc16_cp_commit();
}

// Stores batch bt into the tile, channel-major: x copy 0 word j = pixels
// (w, w + 1), copy 1 word j = (w + 1, w + 2); dy word j = (2j, 2j + 1).
__device__ __forceinline__ void wt_store(const wt_stage &st, unsigned *sm, int tid, int bt, int dfirst, int dn,
                                         int s0)
{
#pragma unroll
    for (int k = 0; k < BATCH; ++k) {
        const int task = tid + (bt * BATCH + k) * WT_NTHR;
        int q, j, r;
        wt_xtask(task, q, j, r);
        unsigned *s = sm + (q * VEC) * WT_CS + wt_xo(r, j);
        unsigned x2[VEC / 2];
#pragma unroll
        for (int e = 0; e < VEC / 2; ++e) {
            x2[e] = st.xv[k][2][e];
#if XSH
            // Every lane shuffles (the whole warp calls wt_store).
            const unsigned v = __shfl_down_sync(0xffffffffu, st.xv[k][0][e], WT_DJ);
            if (!wt_own3(tid, j))
                x2[e] = v;
#endif
        }
        if (task < WT_XT)
#pragma unroll
            for (int e = 0; e < VEC; ++e) {
                s[e * WT_CS] = wt_pair(st.xv[k][0], st.xv[k][1], e);
                s[e * WT_CS + WT_XO1] = wt_pair(st.xv[k][1], x2, e);
            }
    }
#pragma unroll
    for (int k = 0; k < BATCH; ++k) {
        const int task = tid + (bt * BATCH + k) * WT_NTHR;
        const int q = task % WT_NQ, rest = task / WT_NQ, j = rest % WT_DWN, d = dfirst + rest / WT_DWN;
        unsigned *s = sm + (q * VEC) * WT_CS + ROWS * 2 * WT_XW + wt_slot(d, s0) * WT_DWS + wt_dpos(j);
        if (task < WT_NQ * WT_DWN * dn)
#pragma unroll
            for (int e = 0; e < VEC; ++e)
                s[e * WT_CS] = wt_pair(st.dv[k][0], st.dv[k][1], e);
    }
}

extern "C" __global__ void __launch_bounds__(WT_NTHR)
WT_NAME(const ct_elem *__restrict__ x, const ct_elem *__restrict__ dy, float *__restrict__ ws)
{
#ifndef CT_REPLAY
    extern __shared__ float smem[];   // (the replay's is a global array: its static shared arrays stay shared)
#endif
    unsigned *const sm = reinterpret_cast<unsigned *>(smem);
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, g = lane / 4, t = lane % 4;
#if CFIRST
    // The grid's blocks in launch order take the channel groups of a split
    // side by side: the blocks that read a pixel's channels run together.
    const long long lin = blockIdx.x + (long long)WT_NSPLIT * blockIdx.y;
    const int cg = (int)(lin % WT_NCG);
    const long long split = lin / WT_NCG;
#else
    const int cg = blockIdx.y;
    const long long split = blockIdx.x;
#endif
    const long long it0 = split * ITEMS;
    const int nit = (int)(WT_ITEMS - it0 < ITEMS ? WT_ITEMS - it0 : ITEMS);

    float acc[WT_AS][WT_CPW][WT_NT][4];
#pragma unroll
    for (int h = 0; h < WT_AS; ++h)
#pragma unroll
        for (int i = 0; i < WT_CPW; ++i)
#pragma unroll
            for (int n = 0; n < WT_NT; ++n)
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    acc[h][i][n][e] = 0.0f;
#if LY_BIAS
    float accb[WT_CPW];
#pragma unroll
    for (int i = 0; i < WT_CPW; ++i)
        accb[i] = 0.0f;
#endif

    // The A words of a thread: copy (column parity) and word of slice 0,
    // row 0. Column of a0: 2t + g*DX - PW (+ 16 per slice), index + OFFX.
    const int i0 = 2 * t + g * LY_DX - LY_PW + WT_OFFX;
    const int par = i0 & 1;
    const int aw = wt_xo(0, (i0 - par) / 2) + par * WT_XO1;
    // The B rows of a thread: dy tile row r + PH - kh*DY - DLO, kh = g (+8),
    // clamped to KH - 1 (columns past KH compute sums nobody keeps). PAIR:
    // column n is dy row r + 1 + PH - n, kh n of x row r + 1 and n - 1 of
    // x row r, clamped to n = KH.
    int brow[WT_NT];
#pragma unroll
    for (int n = 0; n < WT_NT; ++n) {
#if PAIR
        brow[n] = 1 + LY_PH - (g < LY_KH ? g : LY_KH) - WT_DLO;
#else
        const int kh = g + 8 * n < LY_KH ? g + 8 * n : LY_KH - 1;
        brow[n] = LY_PH - kh * LY_DY - WT_DLO;
#endif
    }

    // RING: an item after the previous row tile of its image (in this
    // block) stages only its last ROWS dy rows (tile rows NDR - ROWS..);
    // the others are the previous tile's rows ROWS.., in the ring's slots
    // (row 0 of the item in slot s0).
    int s0 = 0;
    wt_stage st;
    ct_elem *const raw = reinterpret_cast<ct_elem *>(sm + WT_RAW0);   // ASYNC only
    (void)raw;
#if PREFETCH
    if (nit > 0)
        wt_load<false>(st, x, dy, raw, tid, cg, (int)(it0 / WT_NTILE), (int)(it0 % WT_NTILE) * ROWS, 0, 0, WT_NDR);
#endif
#if ASYNC
    if (nit > 0)
        wt_async(raw, x, dy, tid, cg, (int)(it0 / WT_NTILE), (int)(it0 % WT_NTILE) * ROWS, 0, WT_NDR);
#endif
    for (int it = 0; it < nit; ++it) {
        const long long item = it0 + it;
        const int b = (int)(item / WT_NTILE), r0 = (int)(item % WT_NTILE) * ROWS;
        const bool cont = RING && it > 0 && r0 != 0;
        const int dfirst = cont ? WT_NDR - ROWS : 0, dn = cont ? ROWS : WT_NDR;
        s0 = cont ? wt_slot(ROWS, s0) : 0;
#if ASYNC
        tc16_cp_wait<0>();   // this thread's copies of the item (the barrier: everyone's)
#endif
        __syncthreads();   // the previous item's reads are done
        // Stage the item (x: task (q, j, r), dy: task (q, j, d); see
        // wt_load): BATCH tasks of each at a time, the first batch already
        // loaded where PREFETCH loaded it during the last item's mma.
        const int nb = RING ? wt_nb(dn) : WT_NB;
#pragma unroll 1
        for (int bt = 0; bt < nb; ++bt) {
            if (ASYNC)
                wt_load<true>(st, x, dy, raw, tid, cg, b, r0, bt, dfirst, dn);
            else if (!PREFETCH || bt > 0)
                wt_load<false>(st, x, dy, raw, tid, cg, b, r0, bt, dfirst, dn);
            wt_store(st, sm, tid, bt, dfirst, dn, s0);
        }
        __syncthreads();
#if ASYNC
        // The next item's copies, in flight during this item's mma (the raw
        // area is free: every thread passed the barrier after its reads).
        if (it + 1 < nit) {
            const long long nx = item + 1;
            const int nr0 = (int)(nx % WT_NTILE) * ROWS;
            const bool ncont = RING && nr0 != 0;
            wt_async(raw, x, dy, tid, cg, (int)(nx / WT_NTILE), nr0, ncont ? WT_NDR - ROWS : 0,
                     ncont ? ROWS : WT_NDR);
        }
#endif
#if PREFETCH
        // The next item's first batch, in flight during this item's mma.
        if (it + 1 < nit) {
            const long long nx = item + 1;
            const int nr0 = (int)(nx % WT_NTILE) * ROWS;
            const bool ncont = RING && nr0 != 0;
            wt_load<false>(st, x, dy, raw, tid, cg, (int)(nx / WT_NTILE), nr0, 0, ncont ? WT_NDR - ROWS : 0,
                           ncont ? ROWS : WT_NDR);
        }
#endif

        // Every x row of the tile in the image, each slice of it, the warp's
        // channels innermost (independent mma chains; one channel alternates
        // two accumulator sets by slice).
        const int nr = LY_H - r0 < ROWS ? LY_H - r0 : ROWS;
        for (int r = 0; r < nr; r += 1 + PAIR) {
#pragma unroll
            for (int sl = 0; sl < WT_NS; ++sl) {
#pragma unroll
                for (int i = 0; i < WT_CPW; ++i) {
                    const unsigned *xr = sm + (warp + WARPS * i) * WT_CS + wt_xo(r, 0) + aw + wt_xo(0, sl * 8);
                    const unsigned *ds = sm + (warp + WARPS * i) * WT_CS + ROWS * 2 * WT_XW;
                    unsigned a[4];
#if PAIR && WIDE
                    // Rows g: x row r, rows g + 8: x row r + 1, interleaved:
                    // one 8-byte load for the pair, another 4 words on.
                    WT_ALIGNED(xr, 8);
                    const uint2 lo = *reinterpret_cast<const uint2 *>(xr);
                    const uint2 hi = *reinterpret_cast<const uint2 *>(xr + 8);
                    a[0] = lo.x, a[1] = lo.y, a[2] = hi.x, a[3] = hi.y;
#elif PAIR
                    // Rows g: x row r, rows g + 8: x row r + 1 (zeros past
                    // the image or the tile's last row: ROWS is even).
                    a[0] = xr[0];
                    a[1] = xr[2 * WT_XW];
                    a[2] = xr[4];
                    a[3] = xr[2 * WT_XW + 4];
#else
                    a[0] = xr[0];
                    a[1] = xr[4 * LY_DX];
                    a[2] = xr[4];
                    a[3] = xr[4 + 4 * LY_DX];
#endif
#pragma unroll
                    for (int n = 0; n < WT_NT; ++n) {
                        const unsigned *dr = ds + wt_slot(r + brow[n], s0) * WT_DWS + sl * 8 + wt_dpos(t);
                        unsigned bb[2];
#if WIDE
                        WT_ALIGNED(dr, 8);
                        const uint2 u = *reinterpret_cast<const uint2 *>(dr);   // words t, t + 4
                        bb[0] = u.x, bb[1] = u.y;
#else
                        bb[0] = dr[0];
                        bb[1] = dr[4];
#endif
                        tc16_mma(acc[sl % WT_AS][i][n], a, bb);
                    }
                }
            }
        }
#if LY_BIAS
        // The owned dy rows r0.. (tile rows -DLO..), in dy.
        const int no = LY_OH - r0 < ROWS ? LY_OH - r0 : ROWS;
#pragma unroll
        for (int i = 0; i < WT_CPW; ++i) {
            const unsigned *ds = sm + (warp + WARPS * i) * WT_CS + ROWS * 2 * WT_XW;
            for (int k = lane; k < no * WT_DWN; k += 32) {
                const unsigned v = ds[wt_slot(k / WT_DWN - WT_DLO, s0) * WT_DWS + k % WT_DWN];
                accb[i] += wt_tof(v & 0xffffu) + wt_tof(v >> 16);
            }
        }
#endif
    }

    // The split's partial sums: D[m = kw][n = kh], a thread holding rows g
    // and g + 8, columns 2t and 2t + 1 of each n tile.
    float *part = ws + split * WT_COUNT;
#pragma unroll
    for (int i = 0; i < WT_CPW; ++i) {
        const int c = cg * WT_CB + warp + WARPS * i;
#pragma unroll
        for (int n = 0; n < WT_NT; ++n) {
            float v[4];
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                v[e] = acc[0][i][n][e];
#pragma unroll
                for (int h = 1; h < WT_AS; ++h)
                    v[e] += acc[h][i][n][e];
            }
#if PAIR
            // Tap (kh, kw = g): x row r + 1's D[g + 8][kh] (v[2], v[3] at
            // kh = 2t, 2t + 1) and x row r's D[g][kh + 1]: v[1] of this
            // lane for kh = 2t, v[0] of lane t + 1 for kh = 2t + 1 (the xor
            // 1 and xor 3 partners; none for t = 3, kh = 7 >= KH).
            const float n1 = __shfl_xor_sync(0xffffffffu, v[0], 1), n3 = __shfl_xor_sync(0xffffffffu, v[0], 3);
            const float sum[2] = {v[2] + v[1], v[3] + (t == 1 ? n3 : t == 3 ? 0.0f : n1)};
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int kw = g, kh = 2 * t + e;
                if (c < WT_C && kw < LY_KW && kh < LY_KH)
                    part[(long long)(kh * LY_KW + kw) * WT_C + c] = sum[e];
            }
#else
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int kw = g + 8 * (e / 2), kh = 2 * t + e % 2 + 8 * n;
                if (c < WT_C && kw < LY_KW && kh < LY_KH)
                    part[(long long)(kh * LY_KW + kw) * WT_C + c] = v[e];
            }
#endif
        }
#if LY_BIAS
        float s = accb[i];
#pragma unroll
        for (int m = 16; m >= 1; m /= 2)
            s += __shfl_xor_sync(0xffffffffu, s, m);
        if (lane == 0 && c < WT_C)
            part[(long long)WT_TAPS * WT_C + c] = s;
#endif
    }
}

// The reduce kernel: dweight (then dbias) from the splits, in fp64.
#define DB_REDUCE_NAME WT_REDUCE_NAME
#define DB_C WT_C
#define DB_TAPS WT_TAPS
#define WG_COUNT WT_COUNT
#define WG_NSPLIT WT_NSPLIT
// ct_dwcl_wgred.cuh: the second kernel of the depthwise weight gradients
// (ct_dwcl_bwd.cuh's wgdwcl, ../dw16bwd/ct_dw16_wgrad.cuh's wgdw16cl), one
// source for both: it adds the splits' partial sums of a workspace of
// WG_NSPLIT x WG_COUNT floats (ws[split][tap][c], the taps then the bias
// row, DB_TAPS taps of DB_C channels) in fp64 into dW (then db), named
// DB_REDUCE_NAME. The including header defines those macros.
// dweight[c][tap] (then dbias[c]) = the splits' partial sums ws[s][tap][c]
// added in fp64 in a fixed order: a block of 256 threads takes 32
// consecutive entries (a warp reads 128 contiguous bytes of a split); its 8
// warps sum the splits s = g, g + 8, ... of them in split order, then warp
// 0 adds the 8 sums in warp order. Many short chains keep the loads of
// every split in flight, where one thread per weight would wait on a
// chain of hundreds of dependent loads.
#define WG_RED_GROUPS 8
extern "C" __global__ void __launch_bounds__(256)
DB_REDUCE_NAME(const float *__restrict__ ws, ct_elem *__restrict__ dweight)
{
    __shared__ double s_sum[WG_RED_GROUPS][32];
    const int lane = threadIdx.x % 32, g = threadIdx.x / 32;
    const long long o = (long long)blockIdx.x * 32 + lane;
    double sum = 0.0;
    if (o < WG_COUNT)
#pragma unroll 4
        for (long long s = g; s < WG_NSPLIT; s += WG_RED_GROUPS)
            sum += (double)ws[s * WG_COUNT + o];
    s_sum[g][lane] = sum;
    __syncthreads();
    if (g != 0 || o >= WG_COUNT)
        return;
    for (int k = 1; k < WG_RED_GROUPS; ++k)
        sum += s_sum[k][lane];
    const long long tap = o / DB_C, c = o % DB_C;
    ct_st(dweight + (tap < DB_TAPS ? c * DB_TAPS + tap : (long long)DB_TAPS * DB_C + c), (float)sum);
}
