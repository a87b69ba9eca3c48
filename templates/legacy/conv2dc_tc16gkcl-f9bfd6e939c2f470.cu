// conv2dc_tc16gkcl: the conv2dc layer in bf16 or f16 (or tf32), channels-last (NHWC),
// on Hopper's warpgroup mma (wgmma, sm_90a), the weights streamed with the
// input CIN_CHUNK channels at a time; see ct_conv_tc16gk.cuh. Needs compute
// capability 9.0.
#define TC_NAME conv2dc_tc16gkcl
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
#if CT_TF32   // a tf32 problem: fp32 tensors, TF32 wgmma (ct_conv_tf32gk.cuh)
// ct_conv_tf32gk.cuh: conv2dc_tc16gkcl for a tf32 problem (CT_TF32: fp32
// tensors, products of operands rounded to TF32, verified to 2^-10): the
// kernel of ct_conv_tc16gk.cuh with 4-byte elements, on wgmma m64nNk8 with
// TF32 operands (sm_90a). Included by the template in place of
// ct_conv_tc16gk.cuh when CT_TF32 is defined, so the half types' code (and
// code hashes) are untouched.
//
// The same GEMM, pipeline and operand roles; what the element size
// changes (a core matrix is still 8 rows of 16 bytes, now 4 elements of K):
//   A (weights): [k / 4][co][4], k = tap * CK + c; core matrices adjacent
//     along K BM x 16 bytes apart (LBO), along M 128 (SBO).
//   B (the haloed input tile): [c / 4][pixel][4], one plane of 16-byte
//     pixel rows per 4 channels (LBO the plane, SBO 128).
//   A wgmma step is 8 of K (two planes, two A core matrices along K):
//     KHW x CK / 8 steps a chunk.
//   The raw weight rows are padded by 4 elements (16 bytes), and a
//     transpose item is 4 channels of one row: KHW 16-byte loads, KHW
//     16-byte stores, no byte permutes.
//   Outputs are staged in fp32 (pitch BM + 4) and stored 4, 2 or 1 a
//     thread.
// Rounding: wgmma would read an fp32 operand as TF32 by truncation, a bias
// toward zero in every product. So the transpose rounds the weights to
// TF32 to nearest (cvt.rna), and each thread rounds in place the input
// pieces it copied, once its copies of the chunk have landed (a thread's
// own cp.async writes are visible to it after its wait_group), before the
// proxy fence and barrier that hand the chunk to the tensor cores.
//
// Tuning macros as ct_conv_tc16gk.cuh's.
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

#ifndef TC_GROUPS
#define TC_GROUPS 1
#endif
#define TC_CIN_ALL (TC_CIN * TC_GROUPS)
#define TC_COUT_ALL (TC_COUT * TC_GROUPS)
// The sizes of any element size (tc16g_sizes.cuh, which tc16gk_conv.c
// reads too); 4-byte elements' own below.
// tc16g_sizes.cuh: the derived sizes of the wgmma core
// (ct_conv_tc16g_core.cuh, shared by the kinds tc16g and tc16gcl of this
// folder and tc16gkcl of tc16gk) and of ct_conv_tc16g.cuh, one set of
// expressions for the kernels (their TC_* macros: compile-time constants
// from the layer's TC_* and the candidate's macros) and for the C models
// (tc16r_conv.c's wgmma geometry, tc16gk_conv.c's: the same from a group's
// ct_tc_shape and the candidate's values, which include this file too).
// Integer macros only, read alike by C and CUDA. Sizes in bytes are of
// 16-bit elements (the tf32 kernels of tc16gk state theirs apart).
#ifndef TC16G_SIZES_CUH
#define TC16G_SIZES_CUH
#define TC16G_CDIV(a, b) (((a) + (b) - 1) / (b))
#define TC16G_RUP(a, b) (TC16G_CDIV(a, b) * (b))
// A block: wgm warpgroups of 64 output channels along M, wgn along the
// tile's rows; 128 threads a warpgroup.
#define TC16G_BM(wgm) (64 * (wgm))
#define TC16G_NT(wgm, wgn) (128 * (wgm) * (wgn))
// Output rows a warpgroup covers: all the tile's with PINGPONG (each its own
// tiles), else its share of them.
#define TC16G_RPW(pp, toh, wgn) ((pp) ? (toh) : (toh) / (wgn))
// The wgmma's N: stride 1 down the image (FLAT) one run of pixels over a
// warpgroup's rows, (rpw - 1) x iw + tow long, in one chain; otherwise a
// chain a row, N = tow; both rounded up to 8.
#define TC16G_WN_FLAT(rpw, iw, tow) TC16G_RUP(((rpw) - 1) * (iw) + (tow), 8)
#define TC16G_WN_ROW(tow) TC16G_RUP(tow, 8)
// The haloed input tile (ih x iw pixels), its planes (odd pixel counts: a
// run ends at most 7 past the tile) of 16-byte pixel rows, 8 channels each.
#define TC16G_KHW(kh, kw) ((kh) * (kw))
#define TC16G_IH(toh, sy, kh, dy) (((toh) - 1) * (sy) + ((kh) - 1) * (dy) + 1)
#define TC16G_IW(tow, kw, dx) ((tow) + ((kw) - 1) * (dx))
#define TC16G_PPX(is) (((is) + 8) | 1)
#define TC16G_PB(ppx) ((ppx) * 16)
#define TC16G_SB(ck, pb) ((ck) / 8 * (pb))
// A of ck channels (bytes), the staged outputs' pixel pitch (elements), a
// raw weight row (elements).
#define TC16G_SA(bm, khw, ck) ((bm) * (khw) * (ck) * 2)
#define TC16G_OP(bm) ((bm) + 8)
#define TC16G_RK(cin, khw) ((cin) * (khw))
// Elements of one copy: the widest piece that keeps every offset aligned.
#define TC16G_VEC(n) ((n) % 8 == 0 ? 8 : (n) % 4 == 0 ? 4 : (n) % 2 == 0 ? 2 : 1)
// ct_conv_tc16g.cuh: the buffer regions (one a warpgroup with PINGPONG);
// a region's bytes: NHWC STAGES B buffers and the staged outputs, NCHW two
// B buffers and STAGES raw tiles of cin planes of ih rows of rw elements
// (from a column multiple of rv; 16-byte multiples keep the next region
// aligned).
#define TC16G_NREG(pp, wgn) ((pp) ? (wgn) : 1)
#define TC16G_RW(iw, rv) TC16G_RUP((iw) + (rv) - 1, rv)
#define TC16G_SRI(cin, ih, rw) TC16G_RUP((cin) * (ih) * (rw) * 2, 16)
#define TC16G_WGB_CL(stages, sb, toh, tow, op) ((stages) * (sb) + (toh) * (tow) * (op) * 2)
#define TC16G_WGB_RAW(sb, stages, sri) (2 * (sb) + (stages) * (sri))
// The raw weights come rpc channels at a time over the regions past the
// first B buffer: as many (a multiple of 16) as fit, at least 16, at most
// ck; their rows' pitch.
#define TC16G_RPC0(regions, sb, bm, khw) (((regions) - (sb)) / ((bm) * 16 * (khw) * 2) * 16)
#define TC16G_RPC(rpc0, ck) ((rpc0) < 16 ? 16 : (rpc0) > (ck) ? (ck) : (rpc0))
#define TC16G_RKP(rpc, khw) TC16G_RUP((rpc) * (khw), 8)
#endif
#define TC_CDIV(a, b) TC16G_CDIV(a, b)
#define TC_RUP(a, b) TC16G_RUP(a, b)

#define TC_RPW TC16G_RPW(0, TILE_OH, WG_N)      // rows per warpgroup
#define TC_CK CIN_CHUNK
#define TC_BM TC16G_BM(WG_M)
#define TC_NT TC16G_NT(WG_M, WG_N)
#define TC_FLAT (TC_SY == 1)                    // one wgmma over a warpgroup's rows (ct_conv_tc16g_core.cuh)
#if TC_FLAT
#define TC_NW 1
#define TC_WN TC16G_WN_FLAT(TC_RPW, TC_IW, TILE_OW)
#else
#define TC_NW TC_RPW
#define TC_WN TC16G_WN_ROW(TILE_OW)
#endif
#define TC_KHW TC16G_KHW(TC_KH, TC_KW)
#define TC_KSTEPS (TC_KHW * TC_CK / 8)          // k-steps of 8 a chunk
#define TC_IH TC16G_IH(TILE_OH, TC_SY, TC_KH, TC_DY)
#define TC_IW TC16G_IW(TILE_OW, TC_KW, TC_DX)
#define TC_IS (TC_IH * TC_IW)
#define TC_PPX TC16G_PPX(TC_IS)                 // plane pixels: odd; a run ends at most 7 past the tile
#define TC_PB TC16G_PB(TC_PPX)                  // plane bytes
#define TC_SB (TC_CK / 4 * TC_PB)               // the planes of a chunk, bytes
#define TC_SA (TC_BM * TC_KHW * TC_CK * 4)      // A of a chunk, bytes
#define TC_OP (TC_BM + 4)                       // staged output pixel pitch, floats
#define TC_RK (TC_CIN * TC_KHW)                 // a raw weight row, elements
#define TC_TY TC_CDIV(TC_OH, TILE_OH)
#define TC_TX TC_CDIV(TC_OW, TILE_OW)
#define TC_NCT TC_CDIV(TC_COUT, TC_BM)
#define TC_OVEC (TC_COUT % 4 == 0 ? 4 : TC_COUT % 2 == 0 ? 2 : 1)
#define TC_NCH TC_CDIV(TC_CIN, TC_CK)           // chunks; the last one's channels past Cin are zeros
#define TC_RKP (TC_CK * TC_KHW + 4)             // a raw row in shared memory, elements
#define TC_SR (TC_BM * TC_RKP * 4)              // a chunk's raw weights, bytes
#define TC_ST (TC_SR + TC_SB)                   // a stage, bytes
#define TC_LOOK (STAGES - 2)

// Chunk ch's copies into stage st (one commit group): input piece (p, c)
// is channels ci0 + c .. + 3 of tile pixel p, into plane c / 4; raw piece
// e of row m is elements e .. e + 3 of the row's run from channel ci0.
// Zeros outside the image, past the channels and past Cout; addresses of
// what is not read stay inside the tensors.
__device__ __forceinline__ void tg_copy(unsigned char *st, const float *__restrict__ in,
                                        const float *__restrict__ weight, int co0, int iy0, int ix0, int ci0)
{
    constexpr int per = TC_CK / 4;
#pragma unroll 4
    for (int i = threadIdx.x; i < TC_IS * per; i += TC_NT) {
        const int p = i / per, c = i % per * 4;
        const int iy = iy0 + p / TC_IW, ix = ix0 + p % TC_IW;
        const bool ok = iy >= 0 && iy < TC_H && ix >= 0 && ix < TC_W && (TC_CIN % TC_CK == 0 || ci0 + c < TC_CIN);
        tg_cp16(st + TC_SR + c / 4 * TC_PB + p * 16, ok ? in + ((long long)iy * TC_W + ix) * TC_CIN_ALL + ci0 + c : in,
                ok);
    }
    constexpr int wper = TC_CK * TC_KHW / 4;
#pragma unroll 4
    for (int i = threadIdx.x; i < TC_BM * wper; i += TC_NT) {
        const int m = i / wper, e = i % wper * 4;
        const bool ok = co0 + m < TC_COUT && (TC_CIN % TC_CK == 0 || ci0 * TC_KHW + e < TC_RK);
        tg_cp16(st + (m * TC_RKP + e) * 4, ok ? weight + (long long)(co0 + m) * TC_RK + ci0 * TC_KHW + e : weight, ok);
    }
    tg_cp_commit();
}

// The input pieces this thread copied into stage st (tg_copy's loop),
// rounded to TF32 in place.
__device__ __forceinline__ void tg_round_input(unsigned char *st)
{
    constexpr int per = TC_CK / 4;
#pragma unroll 4
    for (int i = threadIdx.x; i < TC_IS * per; i += TC_NT) {
        const int p = i / per, c = i % per * 4;
        uint4 *q = reinterpret_cast<uint4 *>(st + TC_SR + c / 4 * TC_PB + p * 16);
        uint4 v = *q;
        v.x = tg_rna(v.x), v.y = tg_rna(v.y), v.z = tg_rna(v.z), v.w = tg_rna(v.w);
        *q = v;
    }
}

// The landed raw weights of stage st into A buffer a, [tap][c / 4][row][4],
// rounded to TF32: item (m, o) is channels 4o .. 4o + 3 of row m, word
// c * KHW + tap of its run.
__device__ __forceinline__ void tg_transpose(unsigned char *a, const unsigned char *st)
{
    constexpr int c4 = TC_CK / 4;
#pragma unroll 1
    for (int i = threadIdx.x; i < TC_BM * c4; i += TC_NT) {
        const int m = i % TC_BM, o = i / TC_BM;
        const uint4 *r = reinterpret_cast<const uint4 *>(st + (m * TC_RKP + o * 4 * TC_KHW) * 4);
        unsigned w[4 * TC_KHW];
#pragma unroll
        for (int v = 0; v < TC_KHW; ++v) {
            const uint4 x = r[v];
            w[4 * v] = x.x, w[4 * v + 1] = x.y, w[4 * v + 2] = x.z, w[4 * v + 3] = x.w;
        }
#pragma unroll
        for (int tap = 0; tap < TC_KHW; ++tap)
            *reinterpret_cast<uint4 *>(a + ((tap * c4 + o) * TC_BM + m) * 16) =
                make_uint4(tg_rna(w[tap]), tg_rna(w[TC_KHW + tap]), tg_rna(w[2 * TC_KHW + tap]),
                           tg_rna(w[3 * TC_KHW + tap]));
    }
}

// The k-steps of a chunk into acc, one wgmma per step and chain; a step's
// descriptors are its bases' (da0: A at this warpgroup's 64 rows; db0: B
// at its first row) plus a constant in 16-byte units. Every step adds.
__device__ __forceinline__ void tg_steps(float (*acc)[TC_WN / 2], unsigned long long da0, unsigned long long db0)
{
#pragma unroll
    for (int s = 0; s < TC_KSTEPS; ++s) {
        const int tap = s / (TC_CK / 8), q = s % (TC_CK / 8);
        const unsigned oa = (tap * (TC_CK / 4) + 2 * q) * TC_BM;
#pragma unroll
        for (int rr = 0; rr < TC_NW; ++rr) {
            const int p0 = (rr * TC_SY + tap / TC_KW * TC_DY) * TC_IW + tap % TC_KW * TC_DX;
            tg_wgmma<TC_WN>(acc[rr], da0, oa, db0, 2 * q * TC_PB / 16 + p0, 1);
        }
    }
}

extern "C" __global__ void __launch_bounds__(TC_NT, MIN_BLOCKS)
TC_NAME(const float *__restrict__ in_, const float *__restrict__ weight_,
#if TC_BIAS
        const float *__restrict__ bias,
#endif
        float *__restrict__ out_)
{
    extern __shared__ __align__(128) unsigned char tc_sm[];
    const int tile = blockIdx.x % (TC_TY * TC_TX), b = blockIdx.x / (TC_TY * TC_TX);
    const int oy0 = tile / TC_TX * TILE_OH, ox0 = tile % TC_TX * TILE_OW;
    const int grp = blockIdx.y / TC_NCT, co0 = blockIdx.y % TC_NCT * TC_BM;
    const float *in = in_ + (long long)b * TC_H * TC_W * TC_CIN_ALL + grp * TC_CIN;
    const float *weight = weight_ + (long long)grp * TC_COUT * TC_RK;
    const int iy0 = oy0 * TC_SY - TC_PH, ix0 = ox0 - TC_PW;
    const int wg = threadIdx.x / 128, wgm = wg % WG_M, wgn = wg / WG_M;
    unsigned char *const stg = tc_sm + 2 * TC_SA;   // the stages, after A's two buffers

#pragma unroll
    for (int k = 0; k < TC_LOOK; ++k) {
        if (k < TC_NCH)
            tg_copy(stg + k * TC_ST, in, weight, co0, iy0, ix0, k * TC_CK);
        else
            tg_cp_commit();
    }

    float acc[TC_NW][TC_WN / 2];
#pragma unroll
    for (int rr = 0; rr < TC_NW; ++rr) {
#pragma unroll
        for (int e = 0; e < TC_WN / 2; ++e)
            acc[rr][e] = 0.0f;
        tg_wg_hold<TC_WN / 2>(acc[rr]);
    }
#pragma unroll 1
    for (int ch = 0; ch < TC_NCH; ++ch) {
        unsigned char *st = stg + ch % STAGES * TC_ST;
        tg_cp_wait<TC_LOOK - 1>();
        tg_proxy_fence();
        tg_wg_wait1();
        __syncthreads();
        if (ch + TC_LOOK < TC_NCH)
            tg_copy(stg + (ch + TC_LOOK) % STAGES * TC_ST, in, weight, co0, iy0, ix0, (ch + TC_LOOK) * TC_CK);
        else
            tg_cp_commit();
        unsigned char *a = tc_sm + ch % 2 * TC_SA;
        tg_transpose(a, st);
        tg_round_input(st);
        tg_proxy_fence();
        __syncthreads();
        tg_wg_fence();
        const unsigned long long da0 = tg_opaque(tg_wgdesc(a + wgm * 64 * 16, TC_BM * 16, 128));
        const unsigned long long db0 =
            tg_opaque(tg_wgdesc(st + TC_SR + wgn * TC_RPW * TC_SY * TC_IW * 16, TC_PB, 128));
        tg_steps(acc, da0, db0);
        tg_wg_commit();
    }
    tg_wg_wait0();
#pragma unroll
    for (int rr = 0; rr < TC_NW; ++rr)
        tg_wg_hold<TC_WN / 2>(acc[rr]);
    tg_cp_wait<0>();

    // Epilogue: acc[rr][4j..] holds channels 16w + g (+8) of this
    // warpgroup's 64, columns 8j + 2t (+1) of chain rr. Every accumulator
    // is read once, unconditionally, with the bias (ct_conv_tc16g_core.cuh's
    // tc16g_pack says why); then staged as [pixel][channel] over the stages
    // (every warpgroup's steps are done: barrier) and stored OVEC floats a
    // thread.
    const int w = threadIdx.x / 32 % 4, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    float bv[2] = {0.0f, 0.0f};
#if TC_BIAS
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int co = co0 + wgm * 64 + 16 * w + g + 8 * h;
        bv[h] = co < TC_COUT ? __ldg(bias + grp * TC_COUT + co) : 0.0f;
    }
#endif
    float o[TC_NW][TC_WN / 2];
#pragma unroll
    for (int rr = 0; rr < TC_NW; ++rr)
#pragma unroll
        for (int e = 0; e < TC_WN / 2; ++e)
            o[rr][e] = acc[rr][e] + bv[e / 2 % 2];
    __syncthreads();
    float *so = reinterpret_cast<float *>(tc_sm);
    const int rw0 = wgn * TC_RPW;
#pragma unroll
    for (int rr = 0; rr < TC_NW; ++rr)
#pragma unroll
        for (int j = 0; j < TC_WN / 8; ++j)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int n = 8 * j + 2 * t + e;
                const int re = TC_FLAT ? n / TC_IW : rr, xe = TC_FLAT ? n % TC_IW : n;
                if (xe < TILE_OW && re < TC_RPW)
#pragma unroll
                    for (int h = 0; h < 2; ++h)
                        so[((rw0 + re) * TILE_OW + xe) * TC_OP + wgm * 64 + 16 * w + g + 8 * h] = o[rr][4 * j + 2 * h + e];
            }
    __syncthreads();
    constexpr int per = TC_BM / TC_OVEC;
    float *out = out_ + (long long)b * TC_OH * TC_OW * TC_COUT_ALL + grp * TC_COUT + co0;
#pragma unroll 2
    for (int i = threadIdx.x; i < TILE_OH * TILE_OW * per; i += TC_NT) {
        const int n = i / per, c = i % per * TC_OVEC;
        const int oy = oy0 + n / TILE_OW, ox = ox0 + n % TILE_OW;
        if (oy >= TC_OH || ox >= TC_OW || co0 + c >= TC_COUT)
            continue;
        const float *s = so + n * TC_OP + c;
        float *d = out + ((long long)oy * TC_OW + ox) * TC_COUT_ALL + c;
#if TC_OVEC == 4
        *reinterpret_cast<float4 *>(d) = *reinterpret_cast<const float4 *>(s);
#elif TC_OVEC == 2
        *reinterpret_cast<float2 *>(d) = *reinterpret_cast<const float2 *>(s);
#else
        *d = *s;
#endif
    }
}
#else
// ct_conv_tc16gk.cuh: a channels-last (NHWC) convolution layer in bf16 or
// f16 on Hopper's warpgroup mma (wgmma.mma_async, sm_90a), the weights
// streamed along the reduction with the input. Included by
// conv2dc_tc16gkcl after its problem macros (conv2dc_tclayer.cuh).
//
// The GEMM and the operand layouts are ct_conv_tc16g.cuh's (their sizes,
// the k-steps and the epilogue's packing in ct_conv_tc16g_core.cuh):
// C[co][pixel] = sum over (tap, c) of W[co][tap][c] * X[pixel + tap][c],
// A (weights) as [k / 8][co][8], B (the haloed input tile) as one plane of
// 16-byte pixel rows per 8 channels, a warpgroup's output rows one wgmma's
// N (FLAT, stride 1 down) or one wgmma per row. What differs is where the
// weights live. tc16g keeps a block's weights for all input channels
// resident and walks tiles against them: 147 KB for 64 output channels of
// a 128-channel 3x3 layer, which leaves room for small tiles only. Here a
// block computes one image tile for BM output channels and walks the
// input channels CIN_CHUNK at a time; each chunk's weights (BM x KHW x CK)
// and input planes are copied by cp.async STAGES - 2 chunks ahead, and the
// tensor cores work on chunk ch while the block transposes chunk ch + 1's
// weights.
//
// Per chunk ch (stage ch % STAGES: raw weights, then B; A in two buffers):
//   wait for chunk ch's copies; wgmma.wait_group 1 (chunk ch - 2's steps
//   done: its A buffer and stage are free, ch - 1's may still run);
//   barrier; copies of chunk ch + STAGES - 2 into stage (ch - 2) % STAGES;
//   chunk ch's weights transposed from its raw rows into A(ch % 2); proxy
//   fence, barrier; chunk ch's wgmma steps issued and committed.
//
// The weights are OIHW, [co][c][tap]: a row's run of a chunk is contiguous
// and is copied as it lies ([row][c][tap], rows RKP elements apart: the
// 8-element pad puts 8 consecutive rows' 16-byte loads in distinct banks).
// A thread's transpose item is 8 channels of one row: 8 x KHW elements
// read as KHW 16-byte loads, rearranged in registers (byte permutes, all
// positions compile-time constants) and written as KHW 16-byte stores,
// one per tap, consecutive threads consecutive rows (no bank conflicts).
//
// Tuning macros:
//   WG_M        warpgroups along the output channels (64 each)
//   WG_N        warpgroups along the tile's rows (TILE_OH / WG_N each)
//   TILE_OH     output rows of the block's image tile
//   TILE_OW     output columns of the tile (a wgmma's N is at most 256)
//   CIN_CHUNK   input channels of a chunk (a multiple of 16)
//   STAGES      chunk stages (3 to 6): copies run STAGES - 2 chunks ahead
//   MIN_BLOCKS  minimum resident blocks per SM (__launch_bounds__)
#define TC_RPW TC16G_RPW(0, TILE_OH, WG_N)      // rows per warpgroup
#define TC_CK CIN_CHUNK                         // a chunk: TC_SB and TC_SA are its B and A
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

#ifndef TC_GROUPS
#define TC_GROUPS 1
#endif
#define TC_CIN_ALL (TC_CIN * TC_GROUPS)
#define TC_COUT_ALL (TC_COUT * TC_GROUPS)
// The derived sizes (tc16g_sizes.cuh, which the tuner's models read too).
// tc16g_sizes.cuh: the derived sizes of the wgmma core
// (ct_conv_tc16g_core.cuh, shared by the kinds tc16g and tc16gcl of this
// folder and tc16gkcl of tc16gk) and of ct_conv_tc16g.cuh, one set of
// expressions for the kernels (their TC_* macros: compile-time constants
// from the layer's TC_* and the candidate's macros) and for the C models
// (tc16r_conv.c's wgmma geometry, tc16gk_conv.c's: the same from a group's
// ct_tc_shape and the candidate's values, which include this file too).
// Integer macros only, read alike by C and CUDA. Sizes in bytes are of
// 16-bit elements (the tf32 kernels of tc16gk state theirs apart).
#ifndef TC16G_SIZES_CUH
#define TC16G_SIZES_CUH
#define TC16G_CDIV(a, b) (((a) + (b) - 1) / (b))
#define TC16G_RUP(a, b) (TC16G_CDIV(a, b) * (b))
// A block: wgm warpgroups of 64 output channels along M, wgn along the
// tile's rows; 128 threads a warpgroup.
#define TC16G_BM(wgm) (64 * (wgm))
#define TC16G_NT(wgm, wgn) (128 * (wgm) * (wgn))
// Output rows a warpgroup covers: all the tile's with PINGPONG (each its own
// tiles), else its share of them.
#define TC16G_RPW(pp, toh, wgn) ((pp) ? (toh) : (toh) / (wgn))
// The wgmma's N: stride 1 down the image (FLAT) one run of pixels over a
// warpgroup's rows, (rpw - 1) x iw + tow long, in one chain; otherwise a
// chain a row, N = tow; both rounded up to 8.
#define TC16G_WN_FLAT(rpw, iw, tow) TC16G_RUP(((rpw) - 1) * (iw) + (tow), 8)
#define TC16G_WN_ROW(tow) TC16G_RUP(tow, 8)
// The haloed input tile (ih x iw pixels), its planes (odd pixel counts: a
// run ends at most 7 past the tile) of 16-byte pixel rows, 8 channels each.
#define TC16G_KHW(kh, kw) ((kh) * (kw))
#define TC16G_IH(toh, sy, kh, dy) (((toh) - 1) * (sy) + ((kh) - 1) * (dy) + 1)
#define TC16G_IW(tow, kw, dx) ((tow) + ((kw) - 1) * (dx))
#define TC16G_PPX(is) (((is) + 8) | 1)
#define TC16G_PB(ppx) ((ppx) * 16)
#define TC16G_SB(ck, pb) ((ck) / 8 * (pb))
// A of ck channels (bytes), the staged outputs' pixel pitch (elements), a
// raw weight row (elements).
#define TC16G_SA(bm, khw, ck) ((bm) * (khw) * (ck) * 2)
#define TC16G_OP(bm) ((bm) + 8)
#define TC16G_RK(cin, khw) ((cin) * (khw))
// Elements of one copy: the widest piece that keeps every offset aligned.
#define TC16G_VEC(n) ((n) % 8 == 0 ? 8 : (n) % 4 == 0 ? 4 : (n) % 2 == 0 ? 2 : 1)
// ct_conv_tc16g.cuh: the buffer regions (one a warpgroup with PINGPONG);
// a region's bytes: NHWC STAGES B buffers and the staged outputs, NCHW two
// B buffers and STAGES raw tiles of cin planes of ih rows of rw elements
// (from a column multiple of rv; 16-byte multiples keep the next region
// aligned).
#define TC16G_NREG(pp, wgn) ((pp) ? (wgn) : 1)
#define TC16G_RW(iw, rv) TC16G_RUP((iw) + (rv) - 1, rv)
#define TC16G_SRI(cin, ih, rw) TC16G_RUP((cin) * (ih) * (rw) * 2, 16)
#define TC16G_WGB_CL(stages, sb, toh, tow, op) ((stages) * (sb) + (toh) * (tow) * (op) * 2)
#define TC16G_WGB_RAW(sb, stages, sri) (2 * (sb) + (stages) * (sri))
// The raw weights come rpc channels at a time over the regions past the
// first B buffer: as many (a multiple of 16) as fit, at least 16, at most
// ck; their rows' pitch.
#define TC16G_RPC0(regions, sb, bm, khw) (((regions) - (sb)) / ((bm) * 16 * (khw) * 2) * 16)
#define TC16G_RPC(rpc0, ck) ((rpc0) < 16 ? 16 : (rpc0) > (ck) ? (ck) : (rpc0))
#define TC16G_RKP(rpc, khw) TC16G_RUP((rpc) * (khw), 8)
#endif
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

#define TC_NCH TC_CDIV(TC_CIN, TC_CK)           // chunks; the last one's channels past Cin are zeros
#define TC_RKP (TC_CK * TC_KHW + 8)             // a raw row in shared memory, elements
#define TC_SR (TC_BM * TC_RKP * 2)              // a chunk's raw weights, bytes
#define TC_ST (TC_SR + TC_SB)                   // a stage, bytes
#define TC_LOOK (STAGES - 2)

// Chunk ch's copies into stage st (one commit group): input piece (p, c)
// is channels ci0 + c .. + 7 of tile pixel p, into plane c / 8; raw piece
// e of row m is elements e .. e + 7 of the row's run from channel ci0.
// Zeros outside the image, past the channels and past Cout; addresses of
// what is not read stay inside the tensors. in: the tile's image and the
// group's first channel; weight: the group's first row.
__device__ __forceinline__ void tc16gk_copy(unsigned char *st, const tc16_bits *__restrict__ in,
                                            const tc16_bits *__restrict__ weight, int co0, int iy0, int ix0,
                                            int ci0)
{
    constexpr int per = TC_CK / 8;
#pragma unroll 4
    for (int i = threadIdx.x; i < TC_IS * per; i += TC_NT) {
        const int p = i / per, c = i % per * 8;
        const int iy = iy0 + p / TC_IW, ix = ix0 + p % TC_IW;
        const bool ok = iy >= 0 && iy < TC_H && ix >= 0 && ix < TC_W && (TC_CIN % TC_CK == 0 || ci0 + c < TC_CIN);
        tc16_cp<8>(reinterpret_cast<tc16_bits *>(st + TC_SR + c / 8 * TC_PB + p * 16),
                   ok ? in + ((long long)iy * TC_W + ix) * TC_CIN_ALL + ci0 + c : in, ok);
    }
    constexpr int wper = TC_CK * TC_KHW / 8;
    tc16_bits *raw = reinterpret_cast<tc16_bits *>(st);
#pragma unroll 4
    for (int i = threadIdx.x; i < TC_BM * wper; i += TC_NT) {
        const int m = i / wper, e = i % wper * 8;
        const bool ok = co0 + m < TC_COUT && (TC_CIN % TC_CK == 0 || ci0 * TC_KHW + e < TC_RK);
        tc16_cp<8>(raw + m * TC_RKP + e, ok ? weight + (long long)(co0 + m) * TC_RK + ci0 * TC_KHW + e : weight, ok);
    }
    tc16_cp_commit();
}

// The landed raw weights of stage st into A buffer a, [tap][c / 8][row][8].
// Element e of an item's run (channel e / KHW, tap e % KHW) is half e % 2
// of word e / 2; an output word is channels 2j and 2j + 1 of one tap.
__device__ __forceinline__ void tc16gk_transpose(unsigned char *a, const unsigned char *st)
{
    constexpr int c8 = TC_CK / 8;
#pragma unroll 1
    for (int i = threadIdx.x; i < TC_BM * c8; i += TC_NT) {
        const int m = i % TC_BM, o = i / TC_BM;
        const uint4 *r = reinterpret_cast<const uint4 *>(st + (m * TC_RKP + o * 8 * TC_KHW) * 2);
        unsigned w[4 * TC_KHW];
#pragma unroll
        for (int v = 0; v < TC_KHW; ++v) {
            const uint4 x = r[v];
            w[4 * v] = x.x, w[4 * v + 1] = x.y, w[4 * v + 2] = x.z, w[4 * v + 3] = x.w;
        }
#pragma unroll
        for (int tap = 0; tap < TC_KHW; ++tap) {
            unsigned q[4];
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const int e0 = 2 * j * TC_KHW + tap, e1 = e0 + TC_KHW;
                q[j] = __byte_perm(w[e0 / 2], w[e1 / 2], (e0 % 2 ? 0x32 : 0x10) | (e1 % 2 ? 0x7600 : 0x5400));
            }
            *reinterpret_cast<uint4 *>(a + ((tap * c8 + o) * TC_BM + m) * 16) = make_uint4(q[0], q[1], q[2], q[3]);
        }
    }
}

extern "C" __global__ void __launch_bounds__(TC_NT, MIN_BLOCKS)
TC_NAME(const ct_elem *__restrict__ in_, const ct_elem *__restrict__ weight_,
#if TC_BIAS
        const ct_elem *__restrict__ bias,
#endif
        ct_elem *__restrict__ out_)
{
    extern __shared__ __align__(128) unsigned char tc_sm[];
    const int tile = blockIdx.x % (TC_TY * TC_TX), b = blockIdx.x / (TC_TY * TC_TX);
    const int oy0 = tile / TC_TX * TILE_OH, ox0 = tile % TC_TX * TILE_OW;
    const int grp = blockIdx.y / TC_NCT, co0 = blockIdx.y % TC_NCT * TC_BM;
    const tc16_bits *in =
        reinterpret_cast<const tc16_bits *>(in_) + (long long)b * TC_H * TC_W * TC_CIN_ALL + grp * TC_CIN;
    const tc16_bits *weight = reinterpret_cast<const tc16_bits *>(weight_) + (long long)grp * TC_COUT * TC_RK;
    const int iy0 = oy0 * TC_SY - TC_PH, ix0 = ox0 - TC_PW;
    const int wg = threadIdx.x / 128, wgm = wg % WG_M, wgn = wg / WG_M;
    unsigned char *const stg = tc_sm + 2 * TC_SA;   // the stages, after A's two buffers

#pragma unroll
    for (int k = 0; k < TC_LOOK; ++k) {
        if (k < TC_NCH)
            tc16gk_copy(stg + k * TC_ST, in, weight, co0, iy0, ix0, k * TC_CK);
        else
            tc16_cp_commit();
    }

    float acc[TC_NW][TC_WN / 2];
#pragma unroll
    for (int rr = 0; rr < TC_NW; ++rr) {
#pragma unroll
        for (int e = 0; e < TC_WN / 2; ++e)
            acc[rr][e] = 0.0f;
        tc16_wg_hold<TC_WN / 2>(acc[rr]);
    }
#pragma unroll 1
    for (int ch = 0; ch < TC_NCH; ++ch) {
        unsigned char *st = stg + ch % STAGES * TC_ST;
        tc16_cp_wait<TC_LOOK - 1>();
        tc16_proxy_fence();
        tc16_wg_wait1();
        __syncthreads();
        if (ch + TC_LOOK < TC_NCH)
            tc16gk_copy(stg + (ch + TC_LOOK) % STAGES * TC_ST, in, weight, co0, iy0, ix0, (ch + TC_LOOK) * TC_CK);
        else
            tc16_cp_commit();
        unsigned char *a = tc_sm + ch % 2 * TC_SA;
        tc16gk_transpose(a, st);
        tc16_proxy_fence();
        __syncthreads();
        tc16_wg_fence();
        // The descriptors' bases opaque, as tc16g's: no step's is computed
        // ahead into registers. Every step adds (acc starts at zero).
        const unsigned long long da0 = tc16_opaque(tc16_wgdesc(a + wgm * 64 * 16, TC_BM * 16, 128));
        const unsigned long long db0 =
            tc16_opaque(tc16_wgdesc(st + TC_SR + wgn * TC_RPW * TC_SY * TC_IW * 16, TC_PB, 128));
        tc16g_steps<false>(acc, da0, db0);
        tc16_wg_commit();
    }
    tc16_wg_wait0();
#pragma unroll
    for (int rr = 0; rr < TC_NW; ++rr)
        tc16_wg_hold<TC_WN / 2>(acc[rr]);
    tc16_cp_wait<0>();

    // Epilogue: acc[rr][4j..] holds channels 16w + g (+8) of this
    // warpgroup's 64, columns 8j + 2t (+1) of chain rr; the bias added in
    // fp32, one rounding; staged as [pixel][channel] over the stages (every
    // warpgroup's steps are done: barrier), then 16-byte stores.
    float bv[2];
    tc16g_bias(bv, TC_BIAS_ARG, grp, co0, wgm);
    unsigned pk[TC_NW][TC_WN / 4];
    tc16g_pack(acc, bv, pk);
    __syncthreads();
    tc16_bits *so = reinterpret_cast<tc16_bits *>(tc_sm);
    tc16g_stage(so, pk, wgn * TC_RPW, wgm);
    __syncthreads();
    constexpr int per = TC_BM / TC_OVEC;
    ct_elem *out = out_ + (long long)b * TC_OH * TC_OW * TC_COUT_ALL + grp * TC_COUT + co0;
#pragma unroll 2
    for (int i = threadIdx.x; i < TILE_OH * TILE_OW * per; i += TC_NT) {
        const int n = i / per, c = i % per * TC_OVEC;
        const int oy = oy0 + n / TILE_OW, ox = ox0 + n % TILE_OW;
        if (oy >= TC_OH || ox >= TC_OW || co0 + c >= TC_COUT)
            continue;
        const tc16_bits *s = so + n * TC_OP + c;
        tc16g_store(reinterpret_cast<tc16_bits *>(out) + ((long long)oy * TC_OW + ox) * TC_COUT_ALL + c, s);
    }
}
#endif
