// conv1dc_tc16gktcl: the conv1dc layer in bf16 or f16 (or tf32), channels-last (NHWC),
// on Hopper: input tiles copied by TMA tensor copies (128-byte swizzle),
// wgmma on both operands in shared memory, a warp-specialised mbarrier
// pipeline; see ct_conv_tc16gkt.cuh. Needs compute capability 9.0 and a
// tensor map argument (tc16gkt_conv.c encodes it).
#define TC_NAME conv1dc_tc16gktcl
// conv1dc_tclayer.cuh: the conv1dc problem macros mapped onto the TC_* macros of
// ct_conv_tc.cuh, for conv1dc_tc and conv1dc_tcsplit (which define TC_NAME first).
// conv1dc_layer.cuh: the layer fields convtune defines only where they are
// not 1 (CONV_STRIDE, CONV_DIL, CONV_GROUPS), so that templates that read
// them see 1 otherwise. CONV_PAD is the zeros before the input (causal:
// (K-1) x CONV_DIL).
#ifndef CONV_STRIDE
#define CONV_STRIDE 1
#endif
#ifndef CONV_DIL
#define CONV_DIL 1
#endif
#ifndef CONV_GROUPS
#define CONV_GROUPS 1
#endif
#define CONV_CING (CONV_CIN / CONV_GROUPS)     // input channels of a group
#define CONV_COUTG (CONV_COUT / CONV_GROUPS)   // output channels of a group
#define TC_B CONV_B
#define TC_CIN CONV_CING
#define TC_GROUPS CONV_GROUPS
#define TC_H 1
#define TC_W CONV_L
#define TC_COUT CONV_COUTG
#define TC_KH 1
#define TC_KW CONV_K
#define TC_OH 1
#define TC_OW CONV_LOUT
#define TC_PH 0
#define TC_PW CONV_PAD
#define TC_SY 1
#define TC_SX CONV_STRIDE
#define TC_DY 1
#define TC_DX CONV_DIL
#define TC_BIAS CONV_BIAS
#define TILE_OH 1
#if CT_TF32   // a tf32 problem: fp32 tensors, TF32 wgmma (ct_conv_tf32gkt.cuh)
// ct_conv_tf32gkt.cuh: ct_conv_tc16gkt.cuh for a tf32 problem (fp32
// tensors, CT_TF32): the same TMA-fed warp-specialised pipeline on TF32
// wgmma (m64nNk8, both operands K-major in 128-byte-swizzled shared
// memory; ../../common/ct_wgmma_tf32.cuh). Included by conv2dc_tc16gktcl
// and conv1dc_tc16gktcl instead of ct_conv_tc16gkt.cuh when CT_TF32 is
// defined, so the half types' code (and code hashes) stay as they were.
// Read ct_conv_tc16gkt.cuh first; what differs with 4-byte elements:
//
// - A 128-byte swizzle row is 32 channels: a chunk (a k-block's channels,
//   a box's inner dimension) is 32 channels, and a k-block is 4 wgmma k8
//   steps of 32 bytes each, the same descriptor offsets as the half
//   types' k16 steps (the swizzle geometry is in bytes).
// - The weights' transposer: item i is row m = i % BM, channels 4 o ..
//   4 o + 3 (o = i / BM) of every tap, KHW 16-byte loads, one 16-byte
//   store a tap of the 4 channels rounded to TF32 (cvt.rna).
// - The input boxes land raw fp32 and wgmma would truncate them (it reads
//   the top 19 bits): after a k-block's full barrier completes, the
//   consumer warpgroups round its stage in place, each 16-byte chunk by
//   one consumer thread, then fence the async proxy and meet on named
//   barrier 1 before any of them issues the k-block's wgmma. The consumers
//   do it, not the producer: they are the ones waiting for that barrier
//   already, 128 or 256 threads against the producer's one copying lane
//   (the transposers are busy with the next chunk), and the rounding of
//   k-block kb overlaps the wgmma of kb - 1, still in flight (wait_group
//   1). The stage is released only after kb's wgmma retires, so the next
//   copy into it follows the rounding's stores (fenced before the
//   barrier, as the copy engine is the async proxy).
// - The epilogue stages fp32 [pixel][channel] and stores 4, 2 or 1
//   floats at once.
#ifndef TC_GROUPS
#define TC_GROUPS 1
#endif
#define TG_CDIV(a, b) (((a) + (b) - 1) / (b))
#define TG_CIN_ALL (TC_CIN * TC_GROUPS)
#define TG_COUT_ALL (TC_COUT * TC_GROUPS)
#ifndef WG_N
#define WG_N 1
#endif
#define TG_BM (64 * WG_M)
#define TG_N (TILE_OH * TILE_OW)                // the tile's pixels
#define TG_NW (TG_N / WG_N)                     // a consumer's: its wgmma's N
#define TG_NC (WG_M * WG_N)                     // consumer warpgroups
#define TG_NT (128 * (TG_NC + 1))
#define TG_KHW (TC_KH * TC_KW)
#define TG_CK 32                                // a chunk: 128 bytes of fp32
#define TG_NCH TG_CDIV(TC_CIN, TG_CK)
// k-blocks: one tap each, or with ROWS one filter column each (its KH
// taps read one box of TG_BOXH output rows, tap i at row i DY / SY).
#ifndef ROWS
#define ROWS 0
#endif
#define TG_KPC (ROWS ? TC_KW : TG_KHW)          // k-blocks a chunk
#define TG_KBT (ROWS ? TC_KH : 1)               // taps a k-block
#define TG_RSTEP (TC_DY / TC_SY)                // box rows between a column's taps (ROWS)
#define TG_BOXH (ROWS ? TILE_OH + (TC_KH - 1) * TG_RSTEP : TILE_OH)
#define TG_NKB (TG_NCH * TG_KPC)
#define TG_SB (TG_BOXH * TILE_OW * 128)         // a B stage, bytes
#define TG_SA (TG_KHW * TG_BM * 128)            // an A buffer (a chunk's taps), bytes
#define TG_OP (TG_BM + 8)                       // staged output pixel pitch, elements
#define TG_SO (TG_N * TG_OP * 4)                // the staged outputs, bytes (over the buffers)
// The barriers, after the buffers and the staged outputs: nothing
// overwrites them while they are in use.
#define TG_BAR (A_BUFS * TG_SA + STAGES * TG_SB > TG_SO ? A_BUFS * TG_SA + STAGES * TG_SB : TG_SO)
#define TG_TY TG_CDIV(TC_OH, TILE_OH)
#define TG_TX TG_CDIV(TC_OW, TILE_OW)
#define TG_NCT TG_CDIV(TC_COUT, TG_BM)
#define TG_RK (TC_CIN * TG_KHW)                 // a weight row, elements
#define TG_OVEC (TC_COUT % 4 == 0 ? 4 : TC_COUT % 2 == 0 ? 2 : 1)
#if SPLIT_K > 1
// Split-K (SPLIT_K slices over the grid's z, ct_tc16gkt_split.cuh): block
// z takes the chunks z NCH / SPLIT_K .. (z + 1) NCH / SPLIT_K - 1 (whole
// chunks, every tap of each: its own pipeline, A buffers and phases from
// its first chunk), and writes its fp32 sums, without the bias, to slice z
// of the workspace (SPLIT_K x the output, the output's layout).
#define TG_OUT_COUNT ((long long)TC_B * TC_OH * TC_OW * TG_COUT_ALL)
#endif
#ifndef SETMAXNREG
#define SETMAXNREG 0
#endif
#ifndef A_BUFS
#define A_BUFS 2
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 1
#endif
#define TG_REGCAP (65536 / TG_NT / MIN_BLOCKS / 8 * 8 > 255 ? 255 : 65536 / TG_NT / MIN_BLOCKS / 8 * 8)
// The producer's registers after setmaxnreg.dec: a transpose item's 4 KHW
// words and about 40 more (fewer spill them).
#define TG_PROD_REGS ((4 * TG_KHW + 40 + 7) / 8 * 8)
#define TG_CONS_REGS ((TG_REGCAP * (TG_NC + 1) - TG_PROD_REGS) / TG_NC / 8 * 8)
#if TG_N % (8 * WG_N) != 0 || TG_NW > 256
#error "TILE_OH x TILE_OW / WG_N must be a multiple of 8, at most 256"
#endif
#if ROWS && (TILE_OW % 8 != 0 || TC_DY % TC_SY != 0)
#error "ROWS needs TILE_OW a multiple of 8 (taps start 1024-aligned) and DY a multiple of SY"
#endif

#ifdef CT_REPLAY
// The CPU replay (tc16gkt_replay.cpp, ../replay_hopper.h) runs this
// header as host C++: each primitive below is the shim's emulation.
typedef unsigned tg_bits;
struct tg_tmap { unsigned long long v[16]; };
#define TG_GRID_CONSTANT
#define tg_smem_addr(p) ct_rp_smem_addr(p)
#define tg_bar_init(b, n) ct_rp_bar_init(b, n)
#define tg_bar_init_fence() ((void)0)
#define tg_arrive(b) ct_rp_arrive(b)
#define tg_arrive_tx(b, n) ct_rp_arrive_tx(b, n)
#define tg_wait(b, par) ct_rp_wait(b, par)
#define tg_tma_4d(dst, m, c0, c1, c2, c3, b) ct_rp_tma_4d(dst, (const void *)(m), c0, c1, c2, c3, b)
#define tg_proxy_fence() ct_rp_proxy_fence()
#define tg_wg_fence() ((void)0)
#define tg_wg_commit() ct_rp_wg_commit()
#define tg_wg_wait0() ct_rp_wg_wait(0)
#define tg_wg_wait1() ct_rp_wg_wait(1)
#define tg_consumer_sync() ct_rp_named_sync(1, 128 * TG_NC)
#define tg_setmaxnreg_dec(n) ((void)0)
#define tg_setmaxnreg_inc(n) ((void)0)
template <int N> static inline void tg_mma(float *d, unsigned long long da, unsigned oa, unsigned long long db,
                                           unsigned ob)
{
    ct_rp_wgmma(d, N, da + oa, db + ob);
}
template <int R> static inline void tg_hold(float *) {}
// cvt.rna.tf32.f32 on finite values: the low 13 bits rounded off, ties
// away from zero.
static inline unsigned tg_rna(unsigned x)
{
    return (x + 0x1000u) & ~0x1fffu;
}
#else
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
// ct_wgmma_tf32.cuh: warpgroup mma (wgmma.mma_async, sm_90a) on TF32
// operands, both in shared memory (K-major, as TF32 requires: wgmma takes
// no transpose for 32-bit types), fp32 accumulators, m64nNk8 for N = 8,
// 16, ..., 256: tg_wgmma<N>(d, da0, oa, db0, ob, accumulate), and the
// pieces of ct_wgmma.cuh a TF32 kernel needs (descriptors, fences, commit
// and wait), without its half types. The accumulator layout is that of
// ct_wgmma.cuh's m64nNk16: d holds N / 2 floats a thread, thread 32w + 4g
// + t rows 16w + g (d[4j], d[4j+1]) and 16w + g + 8 (d[4j+2], d[4j+3]) at
// columns 8j + 2t and 8j + 2t + 1. The tensor cores read the top 19 bits
// of each 32-bit operand (truncation): the kernels round operands to TF32
// (cvt.rna) before they are read. Generated once; each N is one pattern.
#ifndef CT_WGMMA_TF32_CUH
#define CT_WGMMA_TF32_CUH

// A shared-memory matrix descriptor without swizzling (ct_wgmma.cuh's
// tc16_wgdesc): start address, the byte distances between core matrices
// (8 rows of 16 bytes) adjacent along K (lbo) and along M or N (sbo).
__device__ __forceinline__ unsigned long long tg_wgdesc(const void *p, unsigned lbo, unsigned sbo)
{
    const unsigned a = (unsigned)__cvta_generic_to_shared(p);
    return (unsigned long long)((a >> 4) & 0x3FFF) | (unsigned long long)((lbo >> 4) & 0x3FFF) << 16 |
           (unsigned long long)((sbo >> 4) & 0x3FFF) << 32;
}

// v, hidden from the optimizer (not hoisted out of the loop it is in).
__device__ __forceinline__ unsigned long long tg_opaque(unsigned long long v)
{
    unsigned long long r;
    asm volatile("mov.b64 %0, %1;\n" : "=l"(r) : "l"(v));
    return r;
}

__device__ __forceinline__ void tg_wg_fence()
{
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

__device__ __forceinline__ void tg_wg_commit()
{
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

__device__ __forceinline__ void tg_wg_wait0()
{
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}

__device__ __forceinline__ void tg_wg_wait1()
{
    asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
}

// The accumulators belong to the asynchronous wgmma until its wait_group
// (ct_wgmma.cuh's tc16_wg_hold).
template <int R> __device__ __forceinline__ void tg_wg_hold(float *d)
{
#pragma unroll
    for (int i = 0; i < R; ++i)
        asm volatile("" : "+f"(d[i])::"memory");
}

// Shared memory written by ordinary stores or cp.async and read next by
// wgmma (the async proxy): each writer fences before the barrier.
__device__ __forceinline__ void tg_proxy_fence()
{
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// x rounded to TF32, to nearest with ties away from zero.
__device__ __forceinline__ unsigned tg_rna(unsigned x)
{
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(__uint_as_float(x)));
    return r;
}

// 16 bytes from s to d by cp.async (zeros where ok is false: src-size 0
// reads nothing), one commit group per call of commit, waits as
// ct_mma16.cuh's.
__device__ __forceinline__ void tg_cp16(void *d, const void *s, bool ok)
{
    const unsigned a = (unsigned)__cvta_generic_to_shared(d);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(a), "l"(s), "r"(ok ? 16 : 0));
}

__device__ __forceinline__ void tg_cp_commit()
{
    asm volatile("cp.async.commit_group;\n" ::);
}

template <int N> __device__ __forceinline__ void tg_cp_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

// da0 + oa and db0 + ob are the descriptors (offsets in 16-byte units,
// added inside the asm, as ct_wgmma.cuh's). acc 0 overwrites d.
template <int N>
__device__ __forceinline__ void tg_wgmma(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                         unsigned ob, int acc);

template <>
__device__ __forceinline__ void tg_wgmma<8>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %8, 0;\n"
                 "cvt.u64.u32 t, %5;\nadd.s64 a, %4, t;\ncvt.u64.u32 t, %7;\nadd.s64 b, %6, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<16>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %12, 0;\n"
                 "cvt.u64.u32 t, %9;\nadd.s64 a, %8, t;\ncvt.u64.u32 t, %11;\nadd.s64 b, %10, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<24>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %16, 0;\n"
                 "cvt.u64.u32 t, %13;\nadd.s64 a, %12, t;\ncvt.u64.u32 t, %15;\nadd.s64 b, %14, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n24k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<32>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %20, 0;\n"
                 "cvt.u64.u32 t, %17;\nadd.s64 a, %16, t;\ncvt.u64.u32 t, %19;\nadd.s64 b, %18, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<40>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %24, 0;\n"
                 "cvt.u64.u32 t, %21;\nadd.s64 a, %20, t;\ncvt.u64.u32 t, %23;\nadd.s64 b, %22, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n40k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<48>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %28, 0;\n"
                 "cvt.u64.u32 t, %25;\nadd.s64 a, %24, t;\ncvt.u64.u32 t, %27;\nadd.s64 b, %26, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n48k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<56>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %32, 0;\n"
                 "cvt.u64.u32 t, %29;\nadd.s64 a, %28, t;\ncvt.u64.u32 t, %31;\nadd.s64 b, %30, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n56k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<64>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %36, 0;\n"
                 "cvt.u64.u32 t, %33;\nadd.s64 a, %32, t;\ncvt.u64.u32 t, %35;\nadd.s64 b, %34, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<72>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %40, 0;\n"
                 "cvt.u64.u32 t, %37;\nadd.s64 a, %36, t;\ncvt.u64.u32 t, %39;\nadd.s64 b, %38, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n72k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<80>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %44, 0;\n"
                 "cvt.u64.u32 t, %41;\nadd.s64 a, %40, t;\ncvt.u64.u32 t, %43;\nadd.s64 b, %42, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n80k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<88>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %48, 0;\n"
                 "cvt.u64.u32 t, %45;\nadd.s64 a, %44, t;\ncvt.u64.u32 t, %47;\nadd.s64 b, %46, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n88k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<96>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %52, 0;\n"
                 "cvt.u64.u32 t, %49;\nadd.s64 a, %48, t;\ncvt.u64.u32 t, %51;\nadd.s64 b, %50, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n96k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<104>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %56, 0;\n"
                 "cvt.u64.u32 t, %53;\nadd.s64 a, %52, t;\ncvt.u64.u32 t, %55;\nadd.s64 b, %54, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n104k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<112>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %60, 0;\n"
                 "cvt.u64.u32 t, %57;\nadd.s64 a, %56, t;\ncvt.u64.u32 t, %59;\nadd.s64 b, %58, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n112k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<120>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %64, 0;\n"
                 "cvt.u64.u32 t, %61;\nadd.s64 a, %60, t;\ncvt.u64.u32 t, %63;\nadd.s64 b, %62, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n120k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<128>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %68, 0;\n"
                 "cvt.u64.u32 t, %65;\nadd.s64 a, %64, t;\ncvt.u64.u32 t, %67;\nadd.s64 b, %66, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<136>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %72, 0;\n"
                 "cvt.u64.u32 t, %69;\nadd.s64 a, %68, t;\ncvt.u64.u32 t, %71;\nadd.s64 b, %70, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n136k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<144>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %76, 0;\n"
                 "cvt.u64.u32 t, %73;\nadd.s64 a, %72, t;\ncvt.u64.u32 t, %75;\nadd.s64 b, %74, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n144k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<152>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %80, 0;\n"
                 "cvt.u64.u32 t, %77;\nadd.s64 a, %76, t;\ncvt.u64.u32 t, %79;\nadd.s64 b, %78, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n152k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<160>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %84, 0;\n"
                 "cvt.u64.u32 t, %81;\nadd.s64 a, %80, t;\ncvt.u64.u32 t, %83;\nadd.s64 b, %82, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n160k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<168>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %88, 0;\n"
                 "cvt.u64.u32 t, %85;\nadd.s64 a, %84, t;\ncvt.u64.u32 t, %87;\nadd.s64 b, %86, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n168k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<176>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %92, 0;\n"
                 "cvt.u64.u32 t, %89;\nadd.s64 a, %88, t;\ncvt.u64.u32 t, %91;\nadd.s64 b, %90, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n176k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<184>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %96, 0;\n"
                 "cvt.u64.u32 t, %93;\nadd.s64 a, %92, t;\ncvt.u64.u32 t, %95;\nadd.s64 b, %94, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n184k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<192>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %100, 0;\n"
                 "cvt.u64.u32 t, %97;\nadd.s64 a, %96, t;\ncvt.u64.u32 t, %99;\nadd.s64 b, %98, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n192k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<200>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %104, 0;\n"
                 "cvt.u64.u32 t, %101;\nadd.s64 a, %100, t;\ncvt.u64.u32 t, %103;\nadd.s64 b, %102, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n200k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<208>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %108, 0;\n"
                 "cvt.u64.u32 t, %105;\nadd.s64 a, %104, t;\ncvt.u64.u32 t, %107;\nadd.s64 b, %106, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n208k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<216>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %112, 0;\n"
                 "cvt.u64.u32 t, %109;\nadd.s64 a, %108, t;\ncvt.u64.u32 t, %111;\nadd.s64 b, %110, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n216k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<224>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %116, 0;\n"
                 "cvt.u64.u32 t, %113;\nadd.s64 a, %112, t;\ncvt.u64.u32 t, %115;\nadd.s64 b, %114, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n224k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<232>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %120, 0;\n"
                 "cvt.u64.u32 t, %117;\nadd.s64 a, %116, t;\ncvt.u64.u32 t, %119;\nadd.s64 b, %118, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n232k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<240>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %124, 0;\n"
                 "cvt.u64.u32 t, %121;\nadd.s64 a, %120, t;\ncvt.u64.u32 t, %123;\nadd.s64 b, %122, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n240k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<248>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %128, 0;\n"
                 "cvt.u64.u32 t, %125;\nadd.s64 a, %124, t;\ncvt.u64.u32 t, %127;\nadd.s64 b, %126, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n248k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tg_wgmma<256>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                          unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %132, 0;\n"
                 "cvt.u64.u32 t, %129;\nadd.s64 a, %128, t;\ncvt.u64.u32 t, %131;\nadd.s64 b, %130, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, a, b, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}
#endif
typedef unsigned tg_bits;
#if defined(__CUDACC__) && !defined(__CUDACC_RTC__)
#include <cuda.h>
typedef CUtensorMap tg_tmap;
#else
struct __align__(64) tg_tmap { unsigned long long v[16]; };
#endif
#define TG_GRID_CONSTANT __grid_constant__
// One m64nNk8 step, accumulating (ct_wgmma_tf32.cuh's tg_wgmma).
template <int N> __device__ __forceinline__ void tg_mma(float *d, unsigned long long da, unsigned oa,
                                                        unsigned long long db, unsigned ob)
{
    tg_wgmma<N>(d, da, oa, db, ob, 1);
}
template <int R> __device__ __forceinline__ void tg_hold(float *d)
{
    tg_wg_hold<R>(d);
}
__device__ __forceinline__ unsigned tg_smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ void tg_bar_init(unsigned b, unsigned n)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(b), "r"(n) : "memory");
}
__device__ __forceinline__ void tg_bar_init_fence()
{
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
__device__ __forceinline__ void tg_arrive(unsigned b)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(b) : "memory");
}
__device__ __forceinline__ void tg_arrive_tx(unsigned b, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(b), "r"(bytes) : "memory");
}
__device__ __forceinline__ void tg_wait(unsigned b, unsigned parity)
{
    unsigned ok;
    do {
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(ok)
                     : "r"(b), "r"(parity)
                     : "memory");
    } while (!ok);
}
__device__ __forceinline__ void tg_tma_4d(unsigned dst, const tg_tmap *m, int c0, int c1, int c2, int c3,
                                          unsigned b)
{
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4, %5}], [%6];\n" ::"r"(dst),
                 "l"(reinterpret_cast<unsigned long long>(m)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(b)
                 : "memory");
}
// The consumers' warpgroups alone (named barrier 1).
__device__ __forceinline__ void tg_consumer_sync()
{
    asm volatile("bar.sync 1, %0;\n" ::"n"(128 * TG_NC) : "memory");
}
#define tg_setmaxnreg_dec(n) asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(n))
#define tg_setmaxnreg_inc(n) asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(n))
#endif

// A K-major operand in the 128-byte-swizzled canonical layout: rows of
// 128 bytes (32 fp32 elements of K), 8-row groups 1024 bytes apart (SBO), the
// layout type 1 (128B swizzle) in bits 62-63; the leading byte offset is
// unused with a K extent of one swizzle row (set to 1). The base is
// 1024-aligned (base offset 0); a k8 step adds 32 bytes (2 units) to the
// start address.
__device__ __forceinline__ unsigned long long tg_desc(unsigned addr)
{
    return (unsigned long long)((addr >> 4) & 0x3FFF) | 1ull << 16 | (unsigned long long)(1024 >> 4) << 32 |
           1ull << 62;
}

// Chunk ch's weights into A buffer a (generic pointer ap): item i is row
// m = i % BM, channels 4 o .. 4 o + 3 of the chunk (o = i / BM); a thread
// reads the item's KHW x 4 elements as KHW 16-byte loads (channel c's
// taps consecutive: element c KHW + tap) and writes the 4 channels of each
// tap, rounded to TF32, as one 16-byte store, chunk o of row m at chunk o
// ^ (m % 8). Zeros past Cout and Cin (Cin a multiple of 4: an item is all
// in or all out). TG_TI items a thread at once, their loads in flight
// together.
#define TG_TI (SETMAXNREG ? 1 : 2)
__device__ __forceinline__ void tg_transpose(unsigned char *ap, const tg_bits *__restrict__ weight, int co0, int ch,
                                             int t0, int nthreads)
{
#pragma unroll 1
    for (int i0 = t0; i0 < TG_BM * 8; i0 += nthreads * TG_TI) {
        unsigned w[TG_TI][4 * TG_KHW];
#pragma unroll
        for (int it = 0; it < TG_TI; ++it) {
            const int i = i0 + it * nthreads, m = i % TG_BM, o = i / TG_BM, c = ch * TG_CK + o * 4;
            const bool ok = i < TG_BM * 8 && co0 + m < TC_COUT && c < TC_CIN;
            if (ok) {
                const uint4 *r =
                    reinterpret_cast<const uint4 *>(weight + (long long)(co0 + m) * TG_RK + c * TG_KHW);
#pragma unroll
                for (int v = 0; v < TG_KHW; ++v) {
                    const uint4 x = r[v];
                    w[it][4 * v] = x.x, w[it][4 * v + 1] = x.y, w[it][4 * v + 2] = x.z, w[it][4 * v + 3] = x.w;
                }
            } else {
#pragma unroll
                for (int v = 0; v < 4 * TG_KHW; ++v)
                    w[it][v] = 0;
            }
        }
#pragma unroll
        for (int it = 0; it < TG_TI; ++it) {
            const int i = i0 + it * nthreads, m = i % TG_BM, o = i / TG_BM;
            if (i >= TG_BM * 8)
                break;
#pragma unroll
            for (int tap = 0; tap < TG_KHW; ++tap) {
                uint4 *dst = reinterpret_cast<uint4 *>(ap + (tap * TG_BM + m) * 128 + ((o ^ (m % 8)) * 16));
#ifdef CT_REPLAY
                ct_rp_write_check(dst, 16);
#endif
                uint4 v;
                v.x = tg_rna(w[it][tap]), v.y = tg_rna(w[it][TG_KHW + tap]);
                v.z = tg_rna(w[it][2 * TG_KHW + tap]), v.w = tg_rna(w[it][3 * TG_KHW + tap]);
                *dst = v;
            }
        }
    }
}

// Stage s's input box rounded to TF32 in place by the consumers (16-byte
// chunk i by consumer thread i mod 128 NC), fenced for the async proxy
// (the wgmma that reads it, the copy that refills it after), then the
// consumers meet: no wgmma reads the stage before every chunk is rounded.
// Four chunks a thread loaded before any is stored: their shared-memory
// latencies overlap.
#define TG_RCH (TG_SB / 16)                       // a stage's 16-byte chunks
#define TG_RN TG_CDIV(TG_RCH, 128 * TG_NC)        // a consumer thread's
__device__ __forceinline__ void tg_round_stage(unsigned char *bp)
{
    uint4 *p = reinterpret_cast<uint4 *>(bp);
    const int t = threadIdx.x - 128;
#pragma unroll
    for (int r0 = 0; r0 < TG_RN; r0 += 4) {
        uint4 v[4] = {};
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            const int i = t + (r0 + r) * 128 * TG_NC;
            if (r0 + r < TG_RN && i < TG_RCH)
                v[r] = p[i];
        }
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            const int i = t + (r0 + r) * 128 * TG_NC;
            if (r0 + r < TG_RN && i < TG_RCH) {
                v[r].x = tg_rna(v[r].x), v[r].y = tg_rna(v[r].y), v[r].z = tg_rna(v[r].z), v[r].w = tg_rna(v[r].w);
#ifdef CT_REPLAY
                ct_rp_write_check(p + i, 16);
#endif
                p[i] = v[r];
            }
        }
    }
    tg_proxy_fence();
    tg_consumer_sync();
}

extern "C" __global__ void __launch_bounds__(TG_NT, MIN_BLOCKS)
TC_NAME(const ct_elem *__restrict__ in_, const ct_elem *__restrict__ weight_,
#if SPLIT_K > 1
        float *__restrict__ ws_,
#else
#if TC_BIAS
        const ct_elem *__restrict__ bias,
#endif
        ct_elem *__restrict__ out_,
#endif
        const TG_GRID_CONSTANT tg_tmap tmap)
{
    (void)in_;   // read through the tensor map
#ifdef CT_REPLAY
    unsigned char *const tg_raw = ct_rp_smem;
#else
    extern __shared__ __align__(1024) unsigned char tg_raw[];
#endif
    // The swizzle is a function of the shared address: buffers 1024-aligned.
    unsigned char *const sm = tg_raw + ((1024 - tg_smem_addr(tg_raw) % 1024) % 1024);
    const unsigned sm0 = tg_smem_addr(sm);
    const int tile = blockIdx.x % (TG_TY * TG_TX), b = blockIdx.x / (TG_TY * TG_TX);
    const int oy0 = tile / TG_TX * TILE_OH, ox0 = tile % TG_TX * TILE_OW;
    const int grp = blockIdx.y / TG_NCT, co0 = blockIdx.y % TG_NCT * TG_BM;
    const int wg = threadIdx.x / 128;
#if SPLIT_K > 1
    // This block's slice: nch chunks from chunk ch0 (nkb k-blocks).
    const int ch0 = (int)blockIdx.z * TG_NCH / SPLIT_K, nch = ((int)blockIdx.z + 1) * TG_NCH / SPLIT_K - ch0,
              nkb = nch * TG_KPC;
#endif
    // Barriers: fullB[STAGES], emptyB[STAGES], fullA[2], emptyA[2].
    const unsigned bar = sm0 + TG_BAR;
#define TG_FULLB(s) (bar + 8 * (s))
#define TG_EMPTYB(s) (bar + 8 * (STAGES + (s)))
#define TG_FULLA(a) (bar + 8 * (2 * STAGES + (a)))
#define TG_EMPTYA(a) (bar + 8 * (2 * STAGES + 2 + (a)))
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            tg_bar_init(TG_FULLB(s), 1);
            tg_bar_init(TG_EMPTYB(s), 4 * TG_NC);
        }
        for (int a = 0; a < 2; ++a) {
            tg_bar_init(TG_FULLA(a), 96);
            tg_bar_init(TG_EMPTYA(a), 4 * TG_NC);
        }
        tg_bar_init_fence();
    }
    __syncthreads();

    if (wg == 0) {
        // The producer.
#if SETMAXNREG
        tg_setmaxnreg_dec(TG_PROD_REGS);
#endif
        const int warp = threadIdx.x / 32;
        if (warp == 0) {
            if (threadIdx.x == 0) {
#pragma unroll 1
#if SPLIT_K > 1
                for (int kb = 0; kb < nkb; ++kb) {
                    const int s = kb % STAGES, u = kb / STAGES, ch = ch0 + kb / TG_KPC, q = kb % TG_KPC;
#else
                for (int kb = 0; kb < TG_NKB; ++kb) {
                    const int s = kb % STAGES, u = kb / STAGES, ch = kb / TG_KPC, q = kb % TG_KPC;
#endif
                    const int i = ROWS ? 0 : q / TC_KW, j = ROWS ? q : q % TC_KW;
                    if (u > 0)
                        tg_wait(TG_EMPTYB(s), (u - 1) & 1);
                    tg_arrive_tx(TG_FULLB(s), TG_SB);
                    tg_tma_4d(sm0 + A_BUFS * TG_SA + s * TG_SB, &tmap, grp * TC_CIN + ch * TG_CK,
                              ox0 * TC_SX + j * TC_DX - TC_PW, oy0 * TC_SY + i * TC_DY - TC_PH, b,
                              TG_FULLB(s));
                }
            }
        } else {
            const tg_bits *weight =
                reinterpret_cast<const tg_bits *>(weight_) + (long long)grp * TC_COUT * TG_RK;
#pragma unroll 1
#if SPLIT_K > 1
            for (int ch = 0; ch < nch; ++ch) {
#else
            for (int ch = 0; ch < TG_NCH; ++ch) {
#endif
                const int a = ch % A_BUFS;
                if (ch >= A_BUFS)
                    tg_wait(TG_EMPTYA(a), (ch / A_BUFS - 1) & 1);
#if SPLIT_K > 1
                tg_transpose(sm + a * TG_SA, weight, co0, ch0 + ch, threadIdx.x - 32, 96);
#else
                tg_transpose(sm + a * TG_SA, weight, co0, ch, threadIdx.x - 32, 96);
#endif
                tg_proxy_fence();
                tg_arrive(TG_FULLA(a));
            }
        }
        return;
    }

    // A consumer warpgroup: output channels co0 + 64 wgm .., pixels NW wgn ..
#if SETMAXNREG
    tg_setmaxnreg_inc(TG_CONS_REGS);
#endif
    const int wgm = (wg - 1) % WG_M, wgn = (wg - 1) / WG_M, lane = threadIdx.x % 32;
    float acc[TG_NW / 2];
#pragma unroll
    for (int e = 0; e < TG_NW / 2; ++e)
        acc[e] = 0.0f;
    tg_hold<TG_NW / 2>(acc);
#pragma unroll 1
#if SPLIT_K > 1
    for (int kb = 0; kb < nkb; ++kb) {
#else
    for (int kb = 0; kb < TG_NKB; ++kb) {
#endif
        const int s = kb % STAGES, u = kb / STAGES, ch = kb / TG_KPC, q = kb % TG_KPC, a = ch % A_BUFS;
        if (q == 0)
            tg_wait(TG_FULLA(a), (ch / A_BUFS) & 1);
        tg_wait(TG_FULLB(s), u & 1);
        tg_round_stage(sm + A_BUFS * TG_SA + s * TG_SB);
        tg_wg_fence();
        const unsigned long long da = tg_desc(sm0 + a * TG_SA + wgm * 64 * 128);
        const unsigned long long db = tg_desc(sm0 + A_BUFS * TG_SA + s * TG_SB + wgn * TG_NW * 128);
#pragma unroll
        for (int r = 0; r < TG_KBT; ++r) {
            const int tap = ROWS ? r * TC_KW + q : q;
#pragma unroll
            for (int k = 0; k < 4; ++k)
                tg_mma<TG_NW>(acc, da, tap * TG_BM * 8 + 2 * k, db, r * TG_RSTEP * TILE_OW * 8 + 2 * k);
        }
        tg_wg_commit();
        // With one A buffer, a chunk's last k-block drains the steps: the
        // next chunk's transpose waits for the buffer, and the consumers
        // for that transpose. Otherwise k-block kb - 1's steps are done
        // here: its stage (and, after a chunk's last tap, its A buffer)
        // may be refilled.
        const bool drain = A_BUFS == 1 && q == TG_KPC - 1, drained = A_BUFS == 1 && q == 0;
        if (drain)
            tg_wg_wait0();
        else
            tg_wg_wait1();
        if (lane == 0) {
            if (kb > 0 && !drained)
                tg_arrive(TG_EMPTYB((kb - 1) % STAGES));
            if (drain) {
                tg_arrive(TG_EMPTYB(s));
                tg_arrive(TG_EMPTYA(0));
            } else if (A_BUFS == 2 && q == 0 && ch > 0) {
                tg_arrive(TG_EMPTYA((ch - 1) % 2));
            }
        }
    }
    tg_wg_wait0();
    tg_hold<TG_NW / 2>(acc);

#if SPLIT_K > 1
    // Split-K: this slice's sums, fp32 without the bias, from the
    // accumulators straight into slice z of the workspace (acc[4j + 2h +
    // e]: channel 16w + g + 8h of the warpgroup's 64, pixel 8j + 2t + e of
    // its NW); a warp's store is 8 consecutive channels of 4 pixels, whole
    // 32-byte sectors. The reduce adds the bias and rounds.
    {
        const int w = threadIdx.x / 32 % 4, g = lane / 4, t = lane % 4;
        float *ws = ws_ + (long long)blockIdx.z * TG_OUT_COUNT + (long long)b * TC_OH * TC_OW * TG_COUT_ALL +
                    grp * TC_COUT;
#pragma unroll
        for (int j = 0; j < TG_NW / 8; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h)
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const int n = wgn * TG_NW + 8 * j + 2 * t + e, co = co0 + wgm * 64 + 16 * w + g + 8 * h;
                    const int oy = oy0 + n / TILE_OW, ox = ox0 + n % TILE_OW;
                    if (oy < TC_OH && ox < TC_OW && co < TC_COUT)
                        ws[((long long)oy * TC_OW + ox) * TG_COUT_ALL + co] = acc[4 * j + 2 * h + e];
                }
    }
}
// ct_tc16gkt_split.cuh: the second kernel of a split-K candidate of
// conv*_tc16gktcl (SPLIT_K > 1), included after the main kernel by
// ct_conv_tc16gkt.cuh and ct_conv_tf32gkt.cuh (their TG_* macros).
//
// The main kernel's block z wrote its slice's fp32 sums, without the bias,
// to slice z of the workspace (SPLIT_K x the output's count, in the
// output's channels-last layout). This kernel adds the slices in order 0
// .. SPLIT_K - 1 (the same sums on every run: no atomics), adds the bias
// in fp32, rounds once to the element type and writes the output: 4
// outputs a thread (16-byte loads of each slice) where the count is a
// multiple of 4, else one. Its name is pasted from TC_NAME, so that a
// family export's renaming of the main kernel renames it too; the host
// launches TG_OUT_COUNT / 4 (or TG_OUT_COUNT) threads in blocks of 256.
#define TC_CAT2(a, b) a##b
#define TC_CAT(a, b) TC_CAT2(a, b)
extern "C" __global__ void __launch_bounds__(256)
TC_CAT(TC_NAME, _reduce)(const float *__restrict__ ws,
#if TC_BIAS
                         const ct_elem *__restrict__ bias,
#endif
                         ct_elem *__restrict__ out)
{
    const long long i = (long long)blockIdx.x * 256 + threadIdx.x;
    if (TG_OUT_COUNT % 4 == 0) {
        if (i >= TG_OUT_COUNT / 4)
            return;
        float4 s = reinterpret_cast<const float4 *>(ws)[i];
#pragma unroll
        for (int z = 1; z < SPLIT_K; ++z) {
            const float4 v = reinterpret_cast<const float4 *>(ws + z * TG_OUT_COUNT)[i];
            s.x += v.x, s.y += v.y, s.z += v.z, s.w += v.w;
        }
#if TC_BIAS
        // channels last: output k's channel is k % COUT_ALL
        s.x += ct_ldg(bias + (4 * i) % TG_COUT_ALL);
        s.y += ct_ldg(bias + (4 * i + 1) % TG_COUT_ALL);
        s.z += ct_ldg(bias + (4 * i + 2) % TG_COUT_ALL);
        s.w += ct_ldg(bias + (4 * i + 3) % TG_COUT_ALL);
#endif
        ct_elem2 *o = reinterpret_cast<ct_elem2 *>(out + 4 * i);
        ct_st2(o, make_float2(s.x, s.y));
        ct_st2(o + 1, make_float2(s.z, s.w));
    } else {
        if (i >= TG_OUT_COUNT)
            return;
        float s = ws[i];
#pragma unroll
        for (int z = 1; z < SPLIT_K; ++z)
            s += ws[z * TG_OUT_COUNT + i];
#if TC_BIAS
        s += ct_ldg(bias + i % TG_COUT_ALL);
#endif
        ct_st(out + i, s);
    }
}
#else
    // Epilogue: acc[4j..] holds channels 16w + g (+8) of this warpgroup's
    // 64, pixels 8j + 2t (+1); the bias added in fp32, one rounding; staged
    // as [pixel][channel] over the buffers (every consumer's steps are
    // done, and every copy landed: barrier), then OVEC-element stores.
    const int w = threadIdx.x / 32 % 4, g = lane / 4, t = lane % 4;
    float bv[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int co = co0 + wgm * 64 + 16 * w + g + 8 * h;
#if TC_BIAS
        bv[h] = co < TC_COUT ? ct_ldg(bias + grp * TC_COUT + co) : 0.0f;
#else
        (void)co;
        bv[h] = 0.0f;
#endif
    }
    tg_consumer_sync();
    float *so = reinterpret_cast<float *>(sm);
#pragma unroll
    for (int j = 0; j < TG_NW / 8; ++j)
#pragma unroll
        for (int e = 0; e < 2; ++e)
#pragma unroll
            for (int h = 0; h < 2; ++h)
                so[(wgn * TG_NW + 8 * j + 2 * t + e) * TG_OP + wgm * 64 + 16 * w + g + 8 * h] =
                    acc[4 * j + 2 * h + e] + bv[h];
    tg_consumer_sync();
    constexpr int per = TG_BM / TG_OVEC;
    float *out = reinterpret_cast<float *>(out_) + (long long)b * TC_OH * TC_OW * TG_COUT_ALL + grp * TC_COUT + co0;
#pragma unroll 1
    for (int i = threadIdx.x - 128; i < TG_N * per; i += 128 * TG_NC) {
        const int n = i / per, c = i % per * TG_OVEC;
        const int oy = oy0 + n / TILE_OW, ox = ox0 + n % TILE_OW;
        if (oy >= TC_OH || ox >= TC_OW || co0 + c >= TC_COUT)
            continue;
        const float *s = so + n * TG_OP + c;
        float *d = out + ((long long)oy * TC_OW + ox) * TG_COUT_ALL + c;
#if TG_OVEC == 4
        *reinterpret_cast<float4 *>(d) = *reinterpret_cast<const float4 *>(s);
#elif TG_OVEC == 2
        *reinterpret_cast<float2 *>(d) = *reinterpret_cast<const float2 *>(s);
#else
        *d = *s;
#endif
    }
}
#endif
#else
// ct_conv_tc16gkt.cuh: a channels-last (NHWC) convolution layer in bf16 or
// f16 on Hopper: the input tiles copied by the tensor memory accelerator
// (cp.async.bulk.tensor, tiled mode, 128-byte swizzle), wgmma with both
// operands in 128-byte-swizzled shared memory, a warp-specialised mbarrier
// pipeline. Included by conv2dc_tc16gktcl and conv1dc_tc16gktcl (a 2D
// layer of one row) after their problem macros (FAMILY_tclayer.cuh).
//
// The GEMM: C[co][pixel] = sum over (chunk, tap, c) of W[co][c][tap] *
// X[pixel + tap][c], M the output channels (64 a consumer warpgroup, BM =
// 64 WG_M a block), N the block's TILE_OH x TILE_OW output pixels (WG_N
// warpgroups, one wgmma of N / WG_N <= 256 each), K walked in k-blocks of 64 channels of
// one tap (k-block kb is channel chunk kb / KHW, tap kb % KHW) or, with
// ROWS, of one filter column j and its KH taps (chunk kb / KW, j = kb % KW).
//
// B (the input): k-block kb's operand is one TMA box of the 4D NHWC tensor
// [C][W][H][B] (innermost first): [64 channels][TILE_OW][TILE_OH][1] at
// coordinates (channel of the chunk, ox0 SX + j DX - PW, oy0 SY + i DY -
// PH, b) for tap (i, j), the tensor map's element strides (1, SX, SY, 1)
// giving the stride (its box is TILE_OW SX x TILE_OH SY elements
// traversed); coordinates outside the tensor read as zeros, which is the
// padding. With ROWS the box of column j starts at filter row 0 and is
// TILE_OH + (KH - 1) DY / SY output rows tall: tap (i, j)'s operand starts
// i DY / SY rows down it, TILE_OW (a multiple of 8) pixel rows a row, so
// 1024-aligned as every operand here. Row n of the box is output pixel n
// (row-major in the tile), 128 bytes of 64 channels, 16-byte chunk q of
// row n at chunk q ^ (n % 8)
// (128-byte swizzle; a stage starts 1024-aligned). Channels past Cin of
// the last chunk are zeros or the next group's channels: their weights
// are zeros.
//
// A (the weights, OIHW, [co][c][tap]): a chunk's rows for every tap, in
// one of A_BUFS A buffers [tap][row][64 channels] in the same swizzled layout.
// The producer's transposers turn 8 channels x KHW taps of one row (KHW
// 16-byte global loads, consecutive) into KHW 16-byte stores, one per tap,
// with byte permutes (as ct_conv_tc16gk.cuh), then fence the async proxy
// before they arrive.
//
// Roles (warpgroup 0 the producer, 1 .. WG_M WG_N the consumers, m = (w -
// 1) % WG_M along the channels, n = (w - 1) / WG_M along the pixels):
//   warp 0, one lane: for each k-block, waits until its B stage is empty,
//     arms the stage's full barrier with the box's bytes and issues the
//     copy;
//   warps 1-3: for each chunk, wait until its A buffer is empty (chunk
//     ch - A_BUFS's last k-block done), transpose, fence, arrive;
//   consumer warpgroup (m, n): output channels 64 m .. 64 m + 63 of the
//     block's BM, pixels n N / WG_N .. of the tile (rows of the B stage,
//     8-row groups: 1024-aligned); per k-block waits for its A buffer (a chunk's first k-block)
//     and B stage, issues 4 wgmma k16 steps a tap, commits, waits until
//     the previous k-block's group is done (wgmma.wait_group 1) and
//     releases that k-block's B stage (and A buffer after a chunk's last
//     k-block): one lane a warp arrives.
// Barriers (phase parity: the n-th completion of a barrier has parity n %
// 2): fullB[s] (1 arrival + the box's bytes), emptyB[s] (4 WG_M WG_N
// arrivals), fullA[a] (96), emptyA[a] (4 WG_M WG_N). Use u of stage s
// (k-block kb = u STAGES + s) waits for fullB[s]'s completion u (parity u
// & 1); its copy waits for emptyB[s]'s completion u - 1.
//
// Epilogue: the consumers' accumulators plus the bias (fp32, one
// rounding) staged as [pixel][channel] over the (then idle) buffers, then
// 16-byte stores along the channels.
//
// Tuning macros:
//   WG_M        consumer warpgroups along the output channels (64 each)
//   WG_N        consumer warpgroups along the tile's pixels (N / WG_N
//               each, sharing the A buffers)
//   TILE_OH     output rows of the block's tile
//   TILE_OW     output columns (TILE_OH x TILE_OW <= 256, a multiple of 8)
//   STAGES      B stages (k-blocks in flight)
//   SETMAXNREG  1: the producer gives registers to the consumers
//               (setmaxnreg, with two consumer warpgroups)
//   ROWS        1: a k-block is a filter column, its taps' boxes one
//               box of TILE_OH + (KH - 1) DY / SY rows (fewer copies
//               of the same input rows); 0: a k-block is one tap
//   MIN_BLOCKS  resident blocks an SM (__launch_bounds__): 2 overlaps one
//               block's first transpose with another's steps
//   A_BUFS      A buffers: 2, or 1 where two do not fit (many taps): the
//               consumers then drain a chunk's steps (wait_group 0) and
//               free its buffer before the next chunk is transposed
#ifndef TC_GROUPS
#define TC_GROUPS 1
#endif
#define TG_CDIV(a, b) (((a) + (b) - 1) / (b))
#define TG_CIN_ALL (TC_CIN * TC_GROUPS)
#define TG_COUT_ALL (TC_COUT * TC_GROUPS)
#ifndef WG_N
#define WG_N 1
#endif
#define TG_BM (64 * WG_M)
#define TG_N (TILE_OH * TILE_OW)                // the tile's pixels
#define TG_NW (TG_N / WG_N)                     // a consumer's: its wgmma's N
#define TG_NC (WG_M * WG_N)                     // consumer warpgroups
#define TG_NT (128 * (TG_NC + 1))
#define TG_KHW (TC_KH * TC_KW)
#define TG_NCH TG_CDIV(TC_CIN, 64)
// k-blocks: one tap each, or with ROWS one filter column each (its KH
// taps read one box of TG_BOXH output rows, tap i at row i DY / SY).
#ifndef ROWS
#define ROWS 0
#endif
#define TG_KPC (ROWS ? TC_KW : TG_KHW)          // k-blocks a chunk
#define TG_KBT (ROWS ? TC_KH : 1)               // taps a k-block
#define TG_RSTEP (TC_DY / TC_SY)                // box rows between a column's taps (ROWS)
#define TG_BOXH (ROWS ? TILE_OH + (TC_KH - 1) * TG_RSTEP : TILE_OH)
#define TG_NKB (TG_NCH * TG_KPC)
#define TG_SB (TG_BOXH * TILE_OW * 128)         // a B stage, bytes
#define TG_SA (TG_KHW * TG_BM * 128)            // an A buffer (a chunk's taps), bytes
#define TG_OP (TG_BM + 8)                       // staged output pixel pitch, elements
#define TG_SO (TG_N * TG_OP * 2)                // the staged outputs, bytes (over the buffers)
// The barriers, after the buffers and the staged outputs: nothing
// overwrites them while they are in use.
#define TG_BAR (A_BUFS * TG_SA + STAGES * TG_SB > TG_SO ? A_BUFS * TG_SA + STAGES * TG_SB : TG_SO)
#define TG_TY TG_CDIV(TC_OH, TILE_OH)
#define TG_TX TG_CDIV(TC_OW, TILE_OW)
#define TG_NCT TG_CDIV(TC_COUT, TG_BM)
#define TG_RK (TC_CIN * TG_KHW)                 // a weight row, elements
#define TG_OVEC (TC_COUT % 8 == 0 ? 8 : TC_COUT % 4 == 0 ? 4 : TC_COUT % 2 == 0 ? 2 : 1)
#if SPLIT_K > 1
// Split-K (SPLIT_K slices over the grid's z, ct_tc16gkt_split.cuh): block
// z takes the chunks z NCH / SPLIT_K .. (z + 1) NCH / SPLIT_K - 1 (whole
// chunks, every tap of each: its own pipeline, A buffers and phases from
// its first chunk), and writes its fp32 sums, without the bias, to slice z
// of the workspace (SPLIT_K x the output, the output's layout).
#define TG_OUT_COUNT ((long long)TC_B * TC_OH * TC_OW * TG_COUT_ALL)
#endif
#ifndef SETMAXNREG
#define SETMAXNREG 0
#endif
#ifndef A_BUFS
#define A_BUFS 2
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 1
#endif
#define TG_REGCAP (65536 / TG_NT / MIN_BLOCKS / 8 * 8 > 255 ? 255 : 65536 / TG_NT / MIN_BLOCKS / 8 * 8)
// The producer's registers after setmaxnreg.dec: a transpose item's 4 KHW
// words and about 40 more (fewer spill them).
#define TG_PROD_REGS ((4 * TG_KHW + 40 + 7) / 8 * 8)
#define TG_CONS_REGS ((TG_REGCAP * (TG_NC + 1) - TG_PROD_REGS) / TG_NC / 8 * 8)
#if TG_N % (8 * WG_N) != 0 || TG_NW > 256
#error "TILE_OH x TILE_OW / WG_N must be a multiple of 8, at most 256"
#endif
#if ROWS && (TILE_OW % 8 != 0 || TC_DY % TC_SY != 0)
#error "ROWS needs TILE_OW a multiple of 8 (taps start 1024-aligned) and DY a multiple of SY"
#endif

#ifdef CT_REPLAY
// The CPU replay (tc16gkt_replay.cpp, ../replay_hopper.h) runs this
// header as host C++: each primitive below is the shim's emulation.
typedef unsigned short tg_bits;
struct tg_tmap { unsigned long long v[16]; };
#define TG_GRID_CONSTANT
#define tg_smem_addr(p) ct_rp_smem_addr(p)
#define tg_bar_init(b, n) ct_rp_bar_init(b, n)
#define tg_bar_init_fence() ((void)0)
#define tg_arrive(b) ct_rp_arrive(b)
#define tg_arrive_tx(b, n) ct_rp_arrive_tx(b, n)
#define tg_wait(b, par) ct_rp_wait(b, par)
#define tg_tma_4d(dst, m, c0, c1, c2, c3, b) ct_rp_tma_4d(dst, (const void *)(m), c0, c1, c2, c3, b)
#define tg_proxy_fence() ct_rp_proxy_fence()
#define tg_wg_fence() ((void)0)
#define tg_wg_commit() ct_rp_wg_commit()
#define tg_wg_wait0() ct_rp_wg_wait(0)
#define tg_wg_wait1() ct_rp_wg_wait(1)
#define tg_consumer_sync() ct_rp_named_sync(1, 128 * TG_NC)
#define tg_setmaxnreg_dec(n) ((void)0)
#define tg_setmaxnreg_inc(n) ((void)0)
template <int N> static inline void tg_wgmma(float *d, unsigned long long da, unsigned oa, unsigned long long db,
                                             unsigned ob)
{
    ct_rp_wgmma(d, N, da + oa, db + ob);
}
template <int R> static inline void tg_hold(float *) {}
static inline unsigned tg_pack(float a, float b)
{
    ct_elem2 v;
    ct_st2(&v, make_float2(a, b));
    unsigned r;
    memcpy(&r, &v, 4);
    return r;
}
static inline unsigned tg_byte_perm(unsigned x, unsigned y, unsigned s)
{
    const unsigned long long v = (unsigned long long)x | (unsigned long long)y << 32;
    unsigned r = 0;
    for (int k = 0; k < 4; k++)
        r |= (unsigned)(v >> 8 * ((s >> 4 * k) & 7) & 0xff) << 8 * k;
    return r;
}
#else
// ct_wgmma.cuh: warpgroup mma (wgmma.mma_async, sm_90a) with both operands
// in shared memory, fp32 accumulators, m64nNk16 for N = 8, 16, ..., 256:
// tc16_wgmma<N>(d, descA, descB, accumulate). The operand lists are written
// out per N because an asm statement takes a fixed number of operands
// (generated once; each N is the same pattern). The element type is the
// tc16 one (TC16_WG_TYPE: bf16 or f16, ct_mma16.cuh).
//
// d: N / 2 floats per thread; thread 32w + 4g + t of the warpgroup holds,
// for each 8 columns j, rows 16w + g (d[4j], d[4j+1]) and 16w + g + 8
// (d[4j+2], d[4j+3]) at columns 8j + 2t and 8j + 2t + 1, as mma.sync's
// m16n8 fragments. accumulate 0 overwrites d (scale-d 0).
#ifndef CT_WGMMA_CUH
#define CT_WGMMA_CUH
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

#if CT_DTYPE == 1
#define TC16_WG_TYPE ".f32.bf16.bf16 "
#else
#define TC16_WG_TYPE ".f32.f16.f16 "
#endif

// A shared-memory matrix descriptor without swizzling: start address, the
// byte distance between core matrices (8 rows of 16 bytes, contiguous)
// adjacent along K (lbo) and along M or N (sbo), each in units of 16 bytes.
__device__ __forceinline__ unsigned long long tc16_wgdesc(const void *p, unsigned lbo, unsigned sbo)
{
    const unsigned a = (unsigned)__cvta_generic_to_shared(p);
    return (unsigned long long)((a >> 4) & 0x3FFF) | (unsigned long long)((lbo >> 4) & 0x3FFF) << 16 |
           (unsigned long long)((sbo >> 4) & 0x3FFF) << 32;
}

// v, hidden from the optimizer (not hoisted out of the loop it is in).
__device__ __forceinline__ unsigned long long tc16_opaque(unsigned long long v)
{
    unsigned long long r;
    asm volatile("mov.b64 %0, %1;\n" : "=l"(r) : "l"(v));
    return r;
}

__device__ __forceinline__ void tc16_wg_fence()
{
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

__device__ __forceinline__ void tc16_wg_commit()
{
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

__device__ __forceinline__ void tc16_wg_wait0()
{
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}

// All but the newest committed group complete (a pipeline one group deep).
__device__ __forceinline__ void tc16_wg_wait1()
{
    asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
}

// The accumulators of an asynchronous wgmma belong to it until its
// wait_group: an empty asm that "modifies" each of them, placed before the
// first wgmma and after the wait, keeps the compiler from moving their
// other uses across.
template <int R> __device__ __forceinline__ void tc16_wg_hold(float *d)
{
#pragma unroll
    for (int i = 0; i < R; ++i)
        asm volatile("" : "+f"(d[i])::"memory");
}

// a and b rounded once to the element type, a in the low half.
__device__ __forceinline__ unsigned tc16_pack(float a, float b)
{
    ct_elem2 v;
    ct_st2(&v, make_float2(a, b));
    return *reinterpret_cast<unsigned *>(&v);
}

// Shared memory written by ordinary stores or cp.async and read next by
// wgmma (the async proxy): each writer fences before the barrier.
__device__ __forceinline__ void tc16_proxy_fence()
{
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// da0 + oa and db0 + ob are the descriptors (offsets in 16-byte units,
// added inside the asm so that no step's 64-bit descriptor is computed
// ahead and held in registers).
template <int N>
__device__ __forceinline__ void tc16_wgmma(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc);

template <>
__device__ __forceinline__ void tc16_wgmma<8>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %8, 0;\n"
                 "cvt.u64.u32 t, %5;\nadd.s64 a, %4, t;\ncvt.u64.u32 t, %7;\nadd.s64 b, %6, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<16>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %12, 0;\n"
                 "cvt.u64.u32 t, %9;\nadd.s64 a, %8, t;\ncvt.u64.u32 t, %11;\nadd.s64 b, %10, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<24>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %16, 0;\n"
                 "cvt.u64.u32 t, %13;\nadd.s64 a, %12, t;\ncvt.u64.u32 t, %15;\nadd.s64 b, %14, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n24k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<32>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %20, 0;\n"
                 "cvt.u64.u32 t, %17;\nadd.s64 a, %16, t;\ncvt.u64.u32 t, %19;\nadd.s64 b, %18, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n32k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<40>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %24, 0;\n"
                 "cvt.u64.u32 t, %21;\nadd.s64 a, %20, t;\ncvt.u64.u32 t, %23;\nadd.s64 b, %22, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n40k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<48>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %28, 0;\n"
                 "cvt.u64.u32 t, %25;\nadd.s64 a, %24, t;\ncvt.u64.u32 t, %27;\nadd.s64 b, %26, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n48k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<56>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %32, 0;\n"
                 "cvt.u64.u32 t, %29;\nadd.s64 a, %28, t;\ncvt.u64.u32 t, %31;\nadd.s64 b, %30, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n56k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<64>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %36, 0;\n"
                 "cvt.u64.u32 t, %33;\nadd.s64 a, %32, t;\ncvt.u64.u32 t, %35;\nadd.s64 b, %34, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<72>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %40, 0;\n"
                 "cvt.u64.u32 t, %37;\nadd.s64 a, %36, t;\ncvt.u64.u32 t, %39;\nadd.s64 b, %38, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n72k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<80>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %44, 0;\n"
                 "cvt.u64.u32 t, %41;\nadd.s64 a, %40, t;\ncvt.u64.u32 t, %43;\nadd.s64 b, %42, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n80k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<88>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %48, 0;\n"
                 "cvt.u64.u32 t, %45;\nadd.s64 a, %44, t;\ncvt.u64.u32 t, %47;\nadd.s64 b, %46, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n88k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<96>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %52, 0;\n"
                 "cvt.u64.u32 t, %49;\nadd.s64 a, %48, t;\ncvt.u64.u32 t, %51;\nadd.s64 b, %50, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n96k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<104>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %56, 0;\n"
                 "cvt.u64.u32 t, %53;\nadd.s64 a, %52, t;\ncvt.u64.u32 t, %55;\nadd.s64 b, %54, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n104k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<112>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %60, 0;\n"
                 "cvt.u64.u32 t, %57;\nadd.s64 a, %56, t;\ncvt.u64.u32 t, %59;\nadd.s64 b, %58, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n112k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<120>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %64, 0;\n"
                 "cvt.u64.u32 t, %61;\nadd.s64 a, %60, t;\ncvt.u64.u32 t, %63;\nadd.s64 b, %62, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n120k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<128>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %68, 0;\n"
                 "cvt.u64.u32 t, %65;\nadd.s64 a, %64, t;\ncvt.u64.u32 t, %67;\nadd.s64 b, %66, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<136>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %72, 0;\n"
                 "cvt.u64.u32 t, %69;\nadd.s64 a, %68, t;\ncvt.u64.u32 t, %71;\nadd.s64 b, %70, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n136k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<144>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %76, 0;\n"
                 "cvt.u64.u32 t, %73;\nadd.s64 a, %72, t;\ncvt.u64.u32 t, %75;\nadd.s64 b, %74, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n144k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<152>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %80, 0;\n"
                 "cvt.u64.u32 t, %77;\nadd.s64 a, %76, t;\ncvt.u64.u32 t, %79;\nadd.s64 b, %78, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n152k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<160>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %84, 0;\n"
                 "cvt.u64.u32 t, %81;\nadd.s64 a, %80, t;\ncvt.u64.u32 t, %83;\nadd.s64 b, %82, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n160k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<168>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %88, 0;\n"
                 "cvt.u64.u32 t, %85;\nadd.s64 a, %84, t;\ncvt.u64.u32 t, %87;\nadd.s64 b, %86, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n168k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<176>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %92, 0;\n"
                 "cvt.u64.u32 t, %89;\nadd.s64 a, %88, t;\ncvt.u64.u32 t, %91;\nadd.s64 b, %90, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n176k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<184>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %96, 0;\n"
                 "cvt.u64.u32 t, %93;\nadd.s64 a, %92, t;\ncvt.u64.u32 t, %95;\nadd.s64 b, %94, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n184k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<192>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %100, 0;\n"
                 "cvt.u64.u32 t, %97;\nadd.s64 a, %96, t;\ncvt.u64.u32 t, %99;\nadd.s64 b, %98, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n192k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<200>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %104, 0;\n"
                 "cvt.u64.u32 t, %101;\nadd.s64 a, %100, t;\ncvt.u64.u32 t, %103;\nadd.s64 b, %102, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n200k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<208>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %108, 0;\n"
                 "cvt.u64.u32 t, %105;\nadd.s64 a, %104, t;\ncvt.u64.u32 t, %107;\nadd.s64 b, %106, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n208k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<216>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %112, 0;\n"
                 "cvt.u64.u32 t, %109;\nadd.s64 a, %108, t;\ncvt.u64.u32 t, %111;\nadd.s64 b, %110, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n216k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<224>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %116, 0;\n"
                 "cvt.u64.u32 t, %113;\nadd.s64 a, %112, t;\ncvt.u64.u32 t, %115;\nadd.s64 b, %114, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n224k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<232>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %120, 0;\n"
                 "cvt.u64.u32 t, %117;\nadd.s64 a, %116, t;\ncvt.u64.u32 t, %119;\nadd.s64 b, %118, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n232k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<240>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %124, 0;\n"
                 "cvt.u64.u32 t, %121;\nadd.s64 a, %120, t;\ncvt.u64.u32 t, %123;\nadd.s64 b, %122, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n240k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<248>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %128, 0;\n"
                 "cvt.u64.u32 t, %125;\nadd.s64 a, %124, t;\ncvt.u64.u32 t, %127;\nadd.s64 b, %126, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n248k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

template <>
__device__ __forceinline__ void tc16_wgmma<256>(float *d, unsigned long long da0, unsigned oa, unsigned long long db0,
                                           unsigned ob, int acc)
{
    asm volatile("{\n.reg .pred p;\n.reg .b64 a, b, t;\nsetp.ne.b32 p, %132, 0;\n"
                 "cvt.u64.u32 t, %129;\nadd.s64 a, %128, t;\ncvt.u64.u32 t, %131;\nadd.s64 b, %130, t;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k16" TC16_WG_TYPE
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, a, b, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                 : "l"(da0), "r"(oa), "l"(db0), "r"(ob), "r"(acc));
}

#endif
typedef tc16_bits tg_bits;
// The tensor map, passed by value as a __grid_constant__ parameter:
// cuda.h's CUtensorMap where the compiler has cuda.h (an exported .cu
// compiled by nvcc, whose launcher encodes it), else the same 128 opaque
// bytes, 64-aligned (NVRTC has no cuda.h).
#if defined(__CUDACC__) && !defined(__CUDACC_RTC__)
#include <cuda.h>
typedef CUtensorMap tg_tmap;
#else
struct __align__(64) tg_tmap { unsigned long long v[16]; };
#endif
#define TG_GRID_CONSTANT __grid_constant__
#define tg_byte_perm __byte_perm
#define tg_pack tc16_pack
#define tg_wg_fence tc16_wg_fence
#define tg_wg_commit tc16_wg_commit
#define tg_wg_wait0 tc16_wg_wait0
#define tg_wg_wait1 tc16_wg_wait1
#define tg_proxy_fence tc16_proxy_fence
template <int N> __device__ __forceinline__ void tg_wgmma(float *d, unsigned long long da, unsigned oa,
                                                          unsigned long long db, unsigned ob)
{
    tc16_wgmma<N>(d, da, oa, db, ob, 1);
}
template <int R> __device__ __forceinline__ void tg_hold(float *d)
{
    tc16_wg_hold<R>(d);
}
__device__ __forceinline__ unsigned tg_smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ void tg_bar_init(unsigned b, unsigned n)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(b), "r"(n) : "memory");
}
// The initialised barriers visible to the async proxy (the copy engine's
// complete_tx) before any copy is issued.
__device__ __forceinline__ void tg_bar_init_fence()
{
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
__device__ __forceinline__ void tg_arrive(unsigned b)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(b) : "memory");
}
__device__ __forceinline__ void tg_arrive_tx(unsigned b, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(b), "r"(bytes) : "memory");
}
__device__ __forceinline__ void tg_wait(unsigned b, unsigned parity)
{
    unsigned ok;
    do {
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(ok)
                     : "r"(b), "r"(parity)
                     : "memory");
    } while (!ok);
}
__device__ __forceinline__ void tg_tma_4d(unsigned dst, const tg_tmap *m, int c0, int c1, int c2, int c3,
                                          unsigned b)
{
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4, %5}], [%6];\n" ::"r"(dst),
                 "l"(reinterpret_cast<unsigned long long>(m)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(b)
                 : "memory");
}
// The consumers' warpgroups alone (named barrier 1; the producer takes no
// part in the epilogue).
__device__ __forceinline__ void tg_consumer_sync()
{
    asm volatile("bar.sync 1, %0;\n" ::"n"(128 * TG_NC) : "memory");
}
#define tg_setmaxnreg_dec(n) asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(n))
#define tg_setmaxnreg_inc(n) asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(n))
#endif

// A K-major operand in the 128-byte-swizzled canonical layout: rows of
// 128 bytes (64 elements of K), 8-row groups 1024 bytes apart (SBO), the
// layout type 1 (128B swizzle) in bits 62-63; the leading byte offset is
// unused with a K extent of one swizzle row (set to 1). The base is
// 1024-aligned (base offset 0); a k16 step adds 32 bytes (2 units) to the
// start address.
__device__ __forceinline__ unsigned long long tg_desc(unsigned addr)
{
    return (unsigned long long)((addr >> 4) & 0x3FFF) | 1ull << 16 | (unsigned long long)(1024 >> 4) << 32 |
           1ull << 62;
}

// Chunk ch's weights into A buffer a (generic pointer ap): item i is row
// m = i % BM, channels 8 o .. 8 o + 7 of the chunk (o = i / BM); a thread
// reads the item's KHW x 8 elements as KHW 16-byte loads and writes 8
// channels of each tap as one 16-byte store, chunk o of row m at chunk o ^
// (m % 8). Zeros past Cout and Cin. TG_TI items a thread at once: their
// loads in flight together (the loads' latency, not their bytes, bounds
// the transpose; a block whose layer has one chunk waits for it).
#define TG_TI (SETMAXNREG ? 1 : 2)
__device__ __forceinline__ void tg_transpose(unsigned char *ap, const tg_bits *__restrict__ weight, int co0, int ch,
                                             int t0, int nthreads)
{
#pragma unroll 1
    for (int i0 = t0; i0 < TG_BM * 8; i0 += nthreads * TG_TI) {
        unsigned w[TG_TI][4 * TG_KHW];
#pragma unroll
        for (int it = 0; it < TG_TI; ++it) {
            const int i = i0 + it * nthreads, m = i % TG_BM, o = i / TG_BM, c = ch * 64 + o * 8;
            const bool ok = i < TG_BM * 8 && co0 + m < TC_COUT && c < TC_CIN;
            if (ok) {
                const uint4 *r =
                    reinterpret_cast<const uint4 *>(weight + (long long)(co0 + m) * TG_RK + c * TG_KHW);
#pragma unroll
                for (int v = 0; v < TG_KHW; ++v) {
                    const uint4 x = r[v];
                    w[it][4 * v] = x.x, w[it][4 * v + 1] = x.y, w[it][4 * v + 2] = x.z, w[it][4 * v + 3] = x.w;
                }
            } else {
#pragma unroll
                for (int v = 0; v < 4 * TG_KHW; ++v)
                    w[it][v] = 0;
            }
        }
#pragma unroll
        for (int it = 0; it < TG_TI; ++it) {
            const int i = i0 + it * nthreads, m = i % TG_BM, o = i / TG_BM;
            if (i >= TG_BM * 8)
                break;
#pragma unroll
            for (int tap = 0; tap < TG_KHW; ++tap) {
                unsigned q[4];
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    const int e0 = 2 * j * TG_KHW + tap, e1 = e0 + TG_KHW;
                    q[j] = tg_byte_perm(w[it][e0 / 2], w[it][e1 / 2],
                                        (e0 % 2 ? 0x32 : 0x10) | (e1 % 2 ? 0x7600 : 0x5400));
                }
                uint4 *dst = reinterpret_cast<uint4 *>(ap + (tap * TG_BM + m) * 128 + ((o ^ (m % 8)) * 16));
#ifdef CT_REPLAY
                ct_rp_write_check(dst, 16);
#endif
                *dst = make_uint4(q[0], q[1], q[2], q[3]);
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(TG_NT, MIN_BLOCKS)
TC_NAME(const ct_elem *__restrict__ in_, const ct_elem *__restrict__ weight_,
#if SPLIT_K > 1
        float *__restrict__ ws_,
#else
#if TC_BIAS
        const ct_elem *__restrict__ bias,
#endif
        ct_elem *__restrict__ out_,
#endif
        const TG_GRID_CONSTANT tg_tmap tmap)
{
    (void)in_;   // read through the tensor map
#ifdef CT_REPLAY
    unsigned char *const tg_raw = ct_rp_smem;
#else
    extern __shared__ __align__(1024) unsigned char tg_raw[];
#endif
    // The swizzle is a function of the shared address: buffers 1024-aligned.
    unsigned char *const sm = tg_raw + ((1024 - tg_smem_addr(tg_raw) % 1024) % 1024);
    const unsigned sm0 = tg_smem_addr(sm);
    const int tile = blockIdx.x % (TG_TY * TG_TX), b = blockIdx.x / (TG_TY * TG_TX);
    const int oy0 = tile / TG_TX * TILE_OH, ox0 = tile % TG_TX * TILE_OW;
    const int grp = blockIdx.y / TG_NCT, co0 = blockIdx.y % TG_NCT * TG_BM;
    const int wg = threadIdx.x / 128;
#if SPLIT_K > 1
    // This block's slice: nch chunks from chunk ch0 (nkb k-blocks).
    const int ch0 = (int)blockIdx.z * TG_NCH / SPLIT_K, nch = ((int)blockIdx.z + 1) * TG_NCH / SPLIT_K - ch0,
              nkb = nch * TG_KPC;
#endif
    // Barriers: fullB[STAGES], emptyB[STAGES], fullA[2], emptyA[2].
    const unsigned bar = sm0 + TG_BAR;
#define TG_FULLB(s) (bar + 8 * (s))
#define TG_EMPTYB(s) (bar + 8 * (STAGES + (s)))
#define TG_FULLA(a) (bar + 8 * (2 * STAGES + (a)))
#define TG_EMPTYA(a) (bar + 8 * (2 * STAGES + 2 + (a)))
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            tg_bar_init(TG_FULLB(s), 1);
            tg_bar_init(TG_EMPTYB(s), 4 * TG_NC);
        }
        for (int a = 0; a < 2; ++a) {
            tg_bar_init(TG_FULLA(a), 96);
            tg_bar_init(TG_EMPTYA(a), 4 * TG_NC);
        }
        tg_bar_init_fence();
    }
    __syncthreads();

    if (wg == 0) {
        // The producer.
#if SETMAXNREG
        tg_setmaxnreg_dec(TG_PROD_REGS);
#endif
        const int warp = threadIdx.x / 32;
        if (warp == 0) {
            if (threadIdx.x == 0) {
#pragma unroll 1
#if SPLIT_K > 1
                for (int kb = 0; kb < nkb; ++kb) {
                    const int s = kb % STAGES, u = kb / STAGES, ch = ch0 + kb / TG_KPC, q = kb % TG_KPC;
#else
                for (int kb = 0; kb < TG_NKB; ++kb) {
                    const int s = kb % STAGES, u = kb / STAGES, ch = kb / TG_KPC, q = kb % TG_KPC;
#endif
                    const int i = ROWS ? 0 : q / TC_KW, j = ROWS ? q : q % TC_KW;
                    if (u > 0)
                        tg_wait(TG_EMPTYB(s), (u - 1) & 1);
                    tg_arrive_tx(TG_FULLB(s), TG_SB);
                    tg_tma_4d(sm0 + A_BUFS * TG_SA + s * TG_SB, &tmap, grp * TC_CIN + ch * 64,
                              ox0 * TC_SX + j * TC_DX - TC_PW, oy0 * TC_SY + i * TC_DY - TC_PH, b,
                              TG_FULLB(s));
                }
            }
        } else {
            const tg_bits *weight =
                reinterpret_cast<const tg_bits *>(weight_) + (long long)grp * TC_COUT * TG_RK;
#pragma unroll 1
#if SPLIT_K > 1
            for (int ch = 0; ch < nch; ++ch) {
#else
            for (int ch = 0; ch < TG_NCH; ++ch) {
#endif
                const int a = ch % A_BUFS;
                if (ch >= A_BUFS)
                    tg_wait(TG_EMPTYA(a), (ch / A_BUFS - 1) & 1);
#if SPLIT_K > 1
                tg_transpose(sm + a * TG_SA, weight, co0, ch0 + ch, threadIdx.x - 32, 96);
#else
                tg_transpose(sm + a * TG_SA, weight, co0, ch, threadIdx.x - 32, 96);
#endif
                tg_proxy_fence();
                tg_arrive(TG_FULLA(a));
            }
        }
        return;
    }

    // A consumer warpgroup: output channels co0 + 64 wgm .., pixels NW wgn ..
#if SETMAXNREG
    tg_setmaxnreg_inc(TG_CONS_REGS);
#endif
    const int wgm = (wg - 1) % WG_M, wgn = (wg - 1) / WG_M, lane = threadIdx.x % 32;
    float acc[TG_NW / 2];
#pragma unroll
    for (int e = 0; e < TG_NW / 2; ++e)
        acc[e] = 0.0f;
    tg_hold<TG_NW / 2>(acc);
#pragma unroll 1
#if SPLIT_K > 1
    for (int kb = 0; kb < nkb; ++kb) {
#else
    for (int kb = 0; kb < TG_NKB; ++kb) {
#endif
        const int s = kb % STAGES, u = kb / STAGES, ch = kb / TG_KPC, q = kb % TG_KPC, a = ch % A_BUFS;
        if (q == 0)
            tg_wait(TG_FULLA(a), (ch / A_BUFS) & 1);
        tg_wait(TG_FULLB(s), u & 1);
        tg_wg_fence();
        const unsigned long long da = tg_desc(sm0 + a * TG_SA + wgm * 64 * 128);
        const unsigned long long db = tg_desc(sm0 + A_BUFS * TG_SA + s * TG_SB + wgn * TG_NW * 128);
#pragma unroll
        for (int r = 0; r < TG_KBT; ++r) {
            const int tap = ROWS ? r * TC_KW + q : q;
#pragma unroll
            for (int k = 0; k < 4; ++k)
                tg_wgmma<TG_NW>(acc, da, tap * TG_BM * 8 + 2 * k, db, r * TG_RSTEP * TILE_OW * 8 + 2 * k);
        }
        tg_wg_commit();
        // With one A buffer, a chunk's last k-block drains the steps: the
        // next chunk's transpose waits for the buffer, and the consumers
        // for that transpose. Otherwise k-block kb - 1's steps are done
        // here: its stage (and, after a chunk's last tap, its A buffer)
        // may be refilled.
        const bool drain = A_BUFS == 1 && q == TG_KPC - 1, drained = A_BUFS == 1 && q == 0;
        if (drain)
            tg_wg_wait0();
        else
            tg_wg_wait1();
        if (lane == 0) {
            if (kb > 0 && !drained)
                tg_arrive(TG_EMPTYB((kb - 1) % STAGES));
            if (drain) {
                tg_arrive(TG_EMPTYB(s));
                tg_arrive(TG_EMPTYA(0));
            } else if (A_BUFS == 2 && q == 0 && ch > 0) {
                tg_arrive(TG_EMPTYA((ch - 1) % 2));
            }
        }
    }
    tg_wg_wait0();
    tg_hold<TG_NW / 2>(acc);

#if SPLIT_K > 1
    // Split-K: this slice's sums, fp32 without the bias, from the
    // accumulators straight into slice z of the workspace (acc[4j + 2h +
    // e]: channel 16w + g + 8h of the warpgroup's 64, pixel 8j + 2t + e of
    // its NW); a warp's store is 8 consecutive channels of 4 pixels, whole
    // 32-byte sectors. The reduce adds the bias and rounds.
    {
        const int w = threadIdx.x / 32 % 4, g = lane / 4, t = lane % 4;
        float *ws = ws_ + (long long)blockIdx.z * TG_OUT_COUNT + (long long)b * TC_OH * TC_OW * TG_COUT_ALL +
                    grp * TC_COUT;
#pragma unroll
        for (int j = 0; j < TG_NW / 8; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h)
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const int n = wgn * TG_NW + 8 * j + 2 * t + e, co = co0 + wgm * 64 + 16 * w + g + 8 * h;
                    const int oy = oy0 + n / TILE_OW, ox = ox0 + n % TILE_OW;
                    if (oy < TC_OH && ox < TC_OW && co < TC_COUT)
                        ws[((long long)oy * TC_OW + ox) * TG_COUT_ALL + co] = acc[4 * j + 2 * h + e];
                }
    }
}
// ct_tc16gkt_split.cuh: the second kernel of a split-K candidate of
// conv*_tc16gktcl (SPLIT_K > 1), included after the main kernel by
// ct_conv_tc16gkt.cuh and ct_conv_tf32gkt.cuh (their TG_* macros).
//
// The main kernel's block z wrote its slice's fp32 sums, without the bias,
// to slice z of the workspace (SPLIT_K x the output's count, in the
// output's channels-last layout). This kernel adds the slices in order 0
// .. SPLIT_K - 1 (the same sums on every run: no atomics), adds the bias
// in fp32, rounds once to the element type and writes the output: 4
// outputs a thread (16-byte loads of each slice) where the count is a
// multiple of 4, else one. Its name is pasted from TC_NAME, so that a
// family export's renaming of the main kernel renames it too; the host
// launches TG_OUT_COUNT / 4 (or TG_OUT_COUNT) threads in blocks of 256.
#define TC_CAT2(a, b) a##b
#define TC_CAT(a, b) TC_CAT2(a, b)
extern "C" __global__ void __launch_bounds__(256)
TC_CAT(TC_NAME, _reduce)(const float *__restrict__ ws,
#if TC_BIAS
                         const ct_elem *__restrict__ bias,
#endif
                         ct_elem *__restrict__ out)
{
    const long long i = (long long)blockIdx.x * 256 + threadIdx.x;
    if (TG_OUT_COUNT % 4 == 0) {
        if (i >= TG_OUT_COUNT / 4)
            return;
        float4 s = reinterpret_cast<const float4 *>(ws)[i];
#pragma unroll
        for (int z = 1; z < SPLIT_K; ++z) {
            const float4 v = reinterpret_cast<const float4 *>(ws + z * TG_OUT_COUNT)[i];
            s.x += v.x, s.y += v.y, s.z += v.z, s.w += v.w;
        }
#if TC_BIAS
        // channels last: output k's channel is k % COUT_ALL
        s.x += ct_ldg(bias + (4 * i) % TG_COUT_ALL);
        s.y += ct_ldg(bias + (4 * i + 1) % TG_COUT_ALL);
        s.z += ct_ldg(bias + (4 * i + 2) % TG_COUT_ALL);
        s.w += ct_ldg(bias + (4 * i + 3) % TG_COUT_ALL);
#endif
        ct_elem2 *o = reinterpret_cast<ct_elem2 *>(out + 4 * i);
        ct_st2(o, make_float2(s.x, s.y));
        ct_st2(o + 1, make_float2(s.z, s.w));
    } else {
        if (i >= TG_OUT_COUNT)
            return;
        float s = ws[i];
#pragma unroll
        for (int z = 1; z < SPLIT_K; ++z)
            s += ws[z * TG_OUT_COUNT + i];
#if TC_BIAS
        s += ct_ldg(bias + i % TG_COUT_ALL);
#endif
        ct_st(out + i, s);
    }
}
#else
    // Epilogue: acc[4j..] holds channels 16w + g (+8) of this warpgroup's
    // 64, pixels 8j + 2t (+1); the bias added in fp32, one rounding; staged
    // as [pixel][channel] over the buffers (every consumer's steps are
    // done, and every copy landed: barrier), then OVEC-element stores.
    const int w = threadIdx.x / 32 % 4, g = lane / 4, t = lane % 4;
    float bv[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int co = co0 + wgm * 64 + 16 * w + g + 8 * h;
#if TC_BIAS
        bv[h] = co < TC_COUT ? ct_ldg(bias + grp * TC_COUT + co) : 0.0f;
#else
        (void)co;
        bv[h] = 0.0f;
#endif
    }
    unsigned pk[TG_NW / 4];
#pragma unroll
    for (int j = 0; j < TG_NW / 8; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h)
            pk[2 * j + h] = tg_pack(acc[4 * j + 2 * h] + bv[h], acc[4 * j + 2 * h + 1] + bv[h]);
    tg_consumer_sync();
    tg_bits *so = reinterpret_cast<tg_bits *>(sm);
#pragma unroll
    for (int j = 0; j < TG_NW / 8; ++j)
#pragma unroll
        for (int e = 0; e < 2; ++e)
#pragma unroll
            for (int h = 0; h < 2; ++h)
                so[(wgn * TG_NW + 8 * j + 2 * t + e) * TG_OP + wgm * 64 + 16 * w + g + 8 * h] =
                    (tg_bits)(pk[2 * j + h] >> 16 * e);
    tg_consumer_sync();
    constexpr int per = TG_BM / TG_OVEC;
    tg_bits *out = reinterpret_cast<tg_bits *>(out_) + (long long)b * TC_OH * TC_OW * TG_COUT_ALL + grp * TC_COUT + co0;
#pragma unroll 1
    for (int i = threadIdx.x - 128; i < TG_N * per; i += 128 * TG_NC) {
        const int n = i / per, c = i % per * TG_OVEC;
        const int oy = oy0 + n / TILE_OW, ox = ox0 + n % TILE_OW;
        if (oy >= TC_OH || ox >= TC_OW || co0 + c >= TC_COUT)
            continue;
        const tg_bits *s = so + n * TG_OP + c;
        tg_bits *d = out + ((long long)oy * TC_OW + ox) * TG_COUT_ALL + c;
#if TG_OVEC == 8
        *reinterpret_cast<uint4 *>(d) = *reinterpret_cast<const uint4 *>(s);
#elif TG_OVEC == 4
        *reinterpret_cast<uint2 *>(d) = *reinterpret_cast<const uint2 *>(s);
#elif TG_OVEC == 2
        *reinterpret_cast<unsigned *>(d) = *reinterpret_cast<const unsigned *>(s);
#else
        *d = *s;
#endif
    }
}
#endif
#endif
