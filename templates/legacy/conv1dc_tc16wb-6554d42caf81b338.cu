// conv1dc_tc16wb: the conv1dc layer in bf16 or f16 with at most 16 output
// pixels, whole weight rows as the B operand of mma.sync m16n8k16 (copied
// by the bulk copy engine or loaded into registers) against an im2col
// built from input planes in registers; see ct_conv_tc16wb.cuh. Needs sm_90.
#define TC_NAME conv1dc_tc16wb
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
// ct_conv_tc16wb.cuh: a convolution layer in bf16 or f16 (CT_DTYPE 1 or 2)
// with at most 16 output pixels and input planes of at most 16 values,
// whose time is the reading of its weights (seed 002's length-4 U-Net
// layer, a late 1D layer, a 4x4 bottleneck); sm_90 (the bulk copy engine,
// clusters). Included by the conv*_tc16wb templates after their problem
// macros (conv*_tclayer.cuh). The GEMM is that of ct_conv_tc.cuh with the
// roles of ct_conv_tc16w.cuh swapped:
//
//   C^T = X^T * A^T, M = pixels (B x OH x OW), N = Cout, K = Cin x KH x KW,
//
// so that the weights are mma.sync m16n8k16's B operand: eight output
// channels a fragment, where tc16w's A operand takes sixteen. A block of 8
// output channels then owns 8 whole weight rows (seed 002: 80 KB, one block
// per SM for 1024 channels): no reduction split between blocks, no cluster
// to launch.
//
// Per-phase %globaltimer stamps on an H100 (seed 002, bf16; bench/seed002)
// showed where such a kernel's time goes: an im2col built as tc16w builds
// it, element by element, ended 1.7 to 2.7 us into the kernel, past the
// 2 us the weights take to stream from L2; built as below it ends at 1.2 to
// 1.3 us. All pixels are one tile, so every pixel's position is a constant:
// a thread loads 8 channels' planes (a unit, 16 bytes a load) into
// registers and writes each pixel's KHW words of those channels, each value
// a constant pick and each padding test decided at compile time.
//
// The weights (WSRC): 0, the block's rows copied into shared memory by the
// copy engine (cp.async.bulk, whole 128-byte lines, one copy a row and
// piece; CHUNKS pieces along K, each completing on its own mbarrier, so the
// mma steps start when the first lands); 1, each lane's 16 bytes a step
// loaded straight into its fragment registers, all of a warp's steps in
// flight at once (for short reductions). Lane (g, t) takes K values
// 8t..8t+7 of a 32-value group of row g (in shared memory the row pitch is
// 64 bytes past a multiple of 128, so a quarter warp's two rows fill the 32
// banks) and feeds 8t..8t+3 to one mma and 8t+4..8t+7 to a second, as the K
// pairs (2t, 2t+1) and (2t+8, 2t+9) each expects; its A fragment is the same
// K values of pixel g's im2col row (and of pixel g + 8 past 8 pixels).
//
// A block owns the pixels x 8 CO_TILES output channels; its WARPS_K warps
// deal out the block's K groups (warp wk: wk, wk + WARPS_K, ...) and add
// their partial sums through shared memory. With CLUSTER_K > 1, for layers
// with too few channel tiles to fill the SMs, a thread-block cluster of
// CLUSTER_K blocks along the grid's z splits the groups further; the
// blocks' sums meet through distributed shared memory.
//
// Problem macros as ct_conv_tc.cuh, and CT_DTYPE. Tuning macros:
//   CO_TILES      8-channel mma n-tiles per block (1 or 2)
//   WARPS_K       warps splitting the reduction within a block
//   WSRC          0: weights by the copy engine into shared memory;
//                 1: weights loaded into registers, all steps in flight
//   CHUNKS        WSRC 0: copy pieces along K, each with its own barrier
//   CLUSTER_K     blocks of a cluster splitting the reduction (1, 2, 4, 8)
//   MIN_BLOCKS    minimum resident blocks per SM (__launch_bounds__)
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

#define TC_KHW (TC_KH * TC_KW)
#define TC_KALL (TC_CIN * TC_KHW)                      // reduction length (a multiple of 8)
#define TC_NKG TC_CDIV(TC_KALL, 32)                    // 32-value K groups
#define TC_NKGB TC_CDIV(TC_NKG, CLUSTER_K)             // K groups of a block
#define TC_NGW TC_CDIV(TC_NKGB, WARPS_K)               // K groups of a warp
#define TC_GPC TC_CDIV(TC_NKGB, CHUNKS)                // K groups of a copy piece
#define TC_KP (TC_RUP(TC_NKGB * 32, 64) + 32)          // im2col and weight row pitch, elements
#define TC_NTOT (TC_B * TC_OH * TC_OW)
#define TC_OHW (TC_OH * TC_OW)
#define TC_HWI (TC_H * TC_W)
#define TC_BN (8 * CO_TILES)
#define TC_NT (32 * WARPS_K)
#define TC_TP (TC_NTOT <= 8 ? 8 : 16)                  // mma rows: pixels g (and g + 8)
#define TC_NCT TC_CDIV(TC_COUT, TC_BN)                 // channel tiles of a group
#define TC_NOUT (TC_TP * TC_BN)                       // outputs of a block

// Shared memory (dynamic, sized by tc16wb_conv.c), in elements: with WSRC 0
// the weights, TC_BN rows of TC_KP; the im2col, a row of TC_KP a pixel. After the mma
// steps the same memory holds the warps' partial sums (and the block's
// sums).
#define TC_NUB (TC_CDIV(TC_NKGB * 32, 8 * TC_KHW) + 1)   // 8-channel units a block's K range touches
#define TC_UIT TC_CDIV(TC_NUB * TC_B, TC_NT)           // im2col (unit, image) tasks of a thread
// A unit's planes in 16-byte loads: whole units, each 16-byte aligned.
#define TC_XVEC (TC_CIN % 8 == 0 && TC_CIN_ALL * TC_HWI % 8 == 0)
#define TC_ISM (WSRC ? 0 : TC_BN * TC_KP)              // the im2col, elements from the start

// 16 bytes of global memory through the read-only path. Volatile, so that
// the input planes' loads (which the im2col waits for) go out ahead of the
// weights' (which land while it is built).
__device__ __forceinline__ uint4 tc16wb_ld16(const tc16_bits *p)
{
    uint4 v;
    asm volatile("ld.global.nc.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}

__device__ __forceinline__ unsigned tc16wb_smem(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

// The copy engine: bytes (a multiple of 16, both ends 16-byte aligned) from
// global src to shared dst, counted on the mbarrier bar when they land.
__device__ __forceinline__ void tc16wb_bulk(void *dst, const void *src, unsigned bytes, unsigned long long *bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(tc16wb_smem(dst)), "l"(src), "r"(bytes), "r"(tc16wb_smem(bar)) : "memory");
}

// Whether bar's phase `parity` has completed; the memory clobber keeps the
// shared-memory reads of what it guards after it.
__device__ __forceinline__ bool tc16wb_try_wait(unsigned long long *bar, unsigned parity)
{
    unsigned ok;
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(ok) : "r"(tc16wb_smem(bar)), "r"(parity) : "memory");
    return ok != 0;
}

#if CLUSTER_K > 1
// Every thread of the cluster: the release/acquire orders the sums' shared-
// memory stores before the other blocks' reads of them.
__device__ __forceinline__ void tc16wb_cluster_sync()
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// p's word in the shared memory of the cluster's block `rank`.
__device__ __forceinline__ float tc16wb_ld_dsmem(const float *p, unsigned rank)
{
    unsigned r;
    float v;
    asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(tc16wb_smem(p)), "r"(rank));
    asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(r));
    return v;
}
#define TC_CLUSTER __cluster_dims__(1, 1, CLUSTER_K)
#else
#define TC_CLUSTER
#endif

extern "C" __global__ void __launch_bounds__(TC_NT, MIN_BLOCKS) TC_CLUSTER
TC_NAME(const ct_elem *__restrict__ in_, const ct_elem *__restrict__ weight_,
#if TC_BIAS
        const ct_elem *__restrict__ bias,
#endif
        ct_elem *__restrict__ out_)
{
    extern __shared__ __align__(128) tc16_bits tc_smem[];
#if !WSRC
    __shared__ unsigned long long bar[CHUNKS];
#endif
    const tc16_bits *in = reinterpret_cast<const tc16_bits *>(in_);
    const tc16_bits *weight = reinterpret_cast<const tc16_bits *>(weight_);

    const int grp = blockIdx.y / TC_NCT, co0 = blockIdx.y % TC_NCT * TC_BN;
    const int wk = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    // This block's K groups [kb, ke) and their values [32 kb, 32 kb + kv).
    const int kb = blockIdx.z * TC_NKGB, ke = min(TC_NKG, kb + TC_NKGB);
    const int kv = min(ke * 32, TC_KALL) - kb * 32;
    const uint4 zero = make_uint4(0, 0, 0, 0);

    // The input's loads go out first: a thread's unit (below) is 8 channels
    // of one image, 8 HWI contiguous elements (16-byte loads where the
    // layer's sizes keep them aligned); channels past the layer read zeros.
    const int u_lo = kb * 32 / (8 * TC_KHW), u_hi = TC_CDIV(kb * 32 + kv, 8 * TC_KHW);
    unsigned pv[TC_UIT][4 * TC_HWI];
#pragma unroll
    for (int it = 0; it < TC_UIT; ++it) {
        const int idx = threadIdx.x + it * TC_NT, u = u_lo + idx / TC_B, b = idx % TC_B;
        const tc16_bits *x = in + ((long long)b * TC_CIN_ALL + grp * TC_CIN + 8 * u) * TC_HWI;
        const bool live = idx < TC_NUB * TC_B && u < u_hi;
#pragma unroll
        for (int q = 0; q < TC_HWI; ++q) {
#if TC_XVEC
            const uint4 r = live ? tc16wb_ld16(x + 8 * q) : zero;
            pv[it][4 * q] = r.x, pv[it][4 * q + 1] = r.y, pv[it][4 * q + 2] = r.z, pv[it][4 * q + 3] = r.w;
#else
#pragma unroll
            for (int h = 0; h < 4; ++h) {
                const int e0 = 8 * q + 2 * h, e1 = e0 + 1;
                pv[it][4 * q + h] = tc16_ld(x + e0, live && 8 * u + e0 / TC_HWI < TC_CIN) |
                                    tc16_ld(x + e1, live && 8 * u + e1 / TC_HWI < TC_CIN) << 16;
            }
#endif
        }
    }

    // The weights. WSRC 1: every step's 16 bytes of the lane's rows, in
    // flight together. WSRC 0: piece c is K groups [c GPC, (c + 1) GPC) of
    // the block's rows, a copy a row, issued by the lanes of warp 0 once
    // lane 0 has armed every piece's barrier with its byte count; rows past
    // the layer are not copied (their lanes read zeros instead). Every armed
    // piece is waited for by the warps whose groups it holds, so none is in
    // flight when the block ends.
#if WSRC
    uint4 wv[TC_NGW][CO_TILES];
#pragma unroll
    for (int i = 0; i < TC_NGW; ++i)
#pragma unroll
        for (int j = 0; j < CO_TILES; ++j) {
            const int lg = wk + i * WARPS_K, loc = lg * 32;
            wv[i][j] = co0 + 8 * j + g < TC_COUT && kb + lg < ke && loc + 8 * t < kv
                           ? tc16wb_ld16(weight + ((long long)grp * TC_COUT + co0 + 8 * j + g) * TC_KALL + kb * 32 +
                                         loc + 8 * t)
                           : zero;
        }
#else
    tc16_bits *wsm = tc_smem;
    if (wk == 0) {
        const int rows = min(TC_BN, TC_COUT - co0);
        if (lane == 0) {
#pragma unroll 1
            for (int c = 0; c < CHUNKS; ++c)
                asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(tc16wb_smem(&bar[c])));
            asm volatile("fence.mbarrier_init.release.cluster;\n\tfence.proxy.async.shared::cta;" ::: "memory");
#pragma unroll 1
            for (int c = 0; c < CHUNKS; ++c) {
                const int v0 = c * TC_GPC * 32, v1 = min(kv, (c + 1) * TC_GPC * 32);
                if (v1 > v0)
                    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                                 ::"r"(tc16wb_smem(&bar[c])), "r"((unsigned)(rows * (v1 - v0) * 2)) : "memory");
            }
        }
        __syncwarp();
#pragma unroll 1
        for (int p = lane; p < rows * CHUNKS; p += 32) {
            const int r = p % rows, c = p / rows;
            const int v0 = c * TC_GPC * 32, v1 = min(kv, (c + 1) * TC_GPC * 32);
            if (v1 > v0)
                tc16wb_bulk(wsm + r * TC_KP + v0,
                            weight + ((long long)grp * TC_COUT + co0 + r) * TC_KALL + kb * 32 + v0,
                            (unsigned)((v1 - v0) * 2), &bar[c]);
        }
    }
#endif
    // A thread's output and its bias (below), loaded now too.
#if TC_BIAS
    const int mo = threadIdx.x / TC_TP;
    const float bv = threadIdx.x < TC_NOUT && co0 + mo < TC_COUT ? ct_ldg(bias + grp * TC_COUT + co0 + mo) : 0.0f;
#endif

    // im2col: row n (pixel n) holds, at local K index kk - 32 kb, its input
    // value of every kk = c * KHW + tap of the block's groups. A thread
    // takes 8 channels of one image (a unit: KHW 16-byte words of each of
    // the image's rows, so every store is a whole word), whose planes it
    // loaded into registers first (above); with one tile of pixels every
    // pixel's position is a constant, so each value is a constant pick from
    // those registers and each padding test is decided at compile time. Words
    // past the block's values are zeros (below: the weights' are too).
    tc16_bits *im = tc_smem + TC_ISM;
    const int kr = (ke - kb) * 32;
#pragma unroll
    for (int it = 0; it < TC_UIT; ++it) {
        const int idx = threadIdx.x + it * TC_NT, u = u_lo + idx / TC_B, b = idx % TC_B;
        if (idx >= TC_NUB * TC_B || u >= u_hi)
            continue;
#pragma unroll
        for (int o = 0; o < TC_OHW; ++o) {
            const int oy = o / TC_OW, ox = o % TC_OW;
            tc16_bits *row = im + (b * TC_OHW + o) * TC_KP;
#pragma unroll
            for (int w = 0; w < TC_KHW; ++w) {
                const int loc = 8 * (u * TC_KHW + w) - kb * 32;
                if (loc < 0 || loc >= kv)
                    continue;
                unsigned v[4];
#pragma unroll
                for (int j = 0; j < 8; ++j) {
                    const int e = 8 * w + j, cr = e / TC_KHW, tap = e % TC_KHW;
                    const int iy = oy * TC_SY - TC_PH + tap / TC_KW * TC_DY, ix = ox * TC_SX - TC_PW + tap % TC_KW * TC_DX;
                    const int E = (cr * TC_H + iy) * TC_W + ix;
                    const unsigned h =
                        iy >= 0 && iy < TC_H && ix >= 0 && ix < TC_W ? pv[it][E / 2] >> (16 * (E % 2)) & 0xffffu : 0u;
                    v[j / 2] = j % 2 ? v[j / 2] | h << 16 : h;
                }
                *reinterpret_cast<uint4 *>(row + loc) = make_uint4(v[0], v[1], v[2], v[3]);
            }
        }
    }
    // The last group's values past the reduction.
    for (int idx = threadIdx.x; idx < TC_NTOT * 4; idx += TC_NT) {
        const int n = idx / 4, loc = kr - 32 + 8 * (idx % 4);
        if (loc >= kv)
            *reinterpret_cast<uint4 *>(im + n * TC_KP + loc) = zero;
    }
    __syncthreads();

    // Two accumulator sets, one per mma of a step: two dependent chains of
    // NGW mma steps, not one of 2 NGW.
    float acc[CO_TILES][4], acc2[CO_TILES][4];
#pragma unroll
    for (int j = 0; j < CO_TILES; ++j)
#pragma unroll
        for (int r = 0; r < 4; ++r)
            acc[j][r] = acc2[j][r] = 0.0f;
    // The lane's A rows (pixels g and g + 8) and B rows (channel co0 + 8j +
    // g of n-tile j).
    const bool xok0 = g < TC_NTOT, xok1 = g + 8 < TC_NTOT;
    const tc16_bits *xa = im + g * TC_KP + 8 * t, *xb = xa + 8 * TC_KP;
#if !WSRC
    const tc16_bits *wl = wsm + g * TC_KP + 8 * t;
    int waited = -1;
#endif
#pragma unroll
    for (int i = 0; i < TC_NGW; ++i) {
        // Step i is the block's group lg = wk + i WARPS_K, values 32 lg.. of
        // piece lg / GPC; the lane's 16 bytes are whole inside the values or
        // past them (zeros: the copy wrote nothing there).
        const int lg = wk + i * WARPS_K, loc = lg * 32;
        if ((TC_NKGB % WARPS_K != 0 || CLUSTER_K > 1) && kb + lg >= ke)
            break;
        const uint4 p0 = xok0 ? *reinterpret_cast<const uint4 *>(xa + loc) : zero;
        const uint4 p1 = xok1 ? *reinterpret_cast<const uint4 *>(xb + loc) : zero;
#if !WSRC
        if (lg / TC_GPC != waited) {
            waited = lg / TC_GPC;
            while (!tc16wb_try_wait(&bar[waited], 0))
                ;
        }
#endif
        const unsigned alo[4] = {p0.x, p1.x, p0.y, p1.y}, ahi[4] = {p0.z, p1.z, p0.w, p1.w};
#pragma unroll
        for (int j = 0; j < CO_TILES; ++j) {
#if WSRC
            const uint4 w = wv[i][j];
#else
            const uint4 w = co0 + 8 * j + g < TC_COUT && loc + 8 * t < kv
                                ? *reinterpret_cast<const uint4 *>(wl + 8 * j * TC_KP + loc)
                                : zero;
#endif
            const unsigned blo[2] = {w.x, w.y}, bhi[2] = {w.z, w.w};
            tc16_mma(acc[j], alo, blo);
            tc16_mma(acc2[j], ahi, bhi);
        }
    }

    // The warps' partial sums, [wk][m][n] in fp32 (m the block's channel,
    // n its pixel), over the im2col; accumulator r of n-tile j is pixel
    // g + 8 (r / 2), channel 8j + 2t + r % 2.
    __syncthreads();
    float *red = reinterpret_cast<float *>(tc_smem);   // all of it: every armed piece has landed
#pragma unroll
    for (int j = 0; j < CO_TILES; ++j)
#pragma unroll
        for (int r = 0; r < (TC_TP > 8 ? 4 : 2); ++r)
            red[(wk * TC_BN + 8 * j + 2 * t + r % 2) * TC_TP + g + 8 * (r / 2)] = acc[j][r] + acc2[j][r];
    __syncthreads();
#if CLUSTER_K > 1
    // The block's sums after the warps'; then each output is CLUSTER_K
    // loads of the blocks' sums, block z storing the z-th share.
    float *sums = red + WARPS_K * TC_NOUT;
    for (int idx = threadIdx.x; idx < TC_NOUT; idx += TC_NT) {
        float s = 0.0f;
#pragma unroll
        for (int k = 0; k < WARPS_K; ++k)
            s += red[k * TC_NOUT + idx];
        sums[idx] = s;
    }
    tc16wb_cluster_sync();
    for (int idx = threadIdx.x + blockIdx.z * TC_NT; idx < TC_NOUT; idx += TC_NT * CLUSTER_K) {
#else
    for (int idx = threadIdx.x; idx < TC_NOUT; idx += TC_NT) {
#endif
        const int m = idx / TC_TP, pix = idx % TC_TP, co = co0 + m;
        if (co >= TC_COUT || pix >= TC_NTOT)
            continue;
        float s = 0.0f;
#if CLUSTER_K > 1
        float part[CLUSTER_K];
#pragma unroll
        for (int z = 0; z < CLUSTER_K; ++z)
            part[z] = tc16wb_ld_dsmem(sums + idx, z);
#pragma unroll
        for (int z = 0; z < CLUSTER_K; ++z)
            s += part[z];
#else
        float part[WARPS_K];
#pragma unroll
        for (int k = 0; k < WARPS_K; ++k)
            part[k] = red[k * TC_NOUT + idx];
#pragma unroll
        for (int k = 0; k < WARPS_K; ++k)
            s += part[k];
#endif
#if TC_BIAS
        s += idx == threadIdx.x ? bv : ct_ldg(bias + grp * TC_COUT + co);
#endif
        const int b = pix / TC_OHW, o = pix % TC_OHW;
        ct_st(out_ + ((long long)b * TC_COUT_ALL + grp * TC_COUT + co) * TC_OHW + o, s);
    }
#if CLUSTER_K > 1
    tc16wb_cluster_sync();   // the other blocks may still read this one's sums
#endif
}
