// conv1dc_tc16w: the conv1dc layer in bf16 or f16 with few output positions,
// the weights streamed into mma.sync m16n8k16 fragments (16-byte loads)
// against an im2col of the input in shared memory; see ct_conv_tc16w.cuh.
// Needs sm_80.
#define TC_NAME conv1dc_tc16w
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
// ct_conv_tc16w.cuh: a convolution layer in bf16 or f16 (CT_DTYPE 1 or 2)
// with few output pixels, whose time is the reading of its weights (a
// U-Net bottleneck, a late 1D layer): the weights stream from global memory
// straight into mma.sync m16n8k16 fragments, 16 bytes a load, never through
// shared memory. Included by the conv*_tc16w templates after their problem
// macros (conv*_tclayer.cuh). The GEMM is that of ct_conv_tc.cuh,
//
//   C = A * X, M = Cout, N = B x OH x OW (flattened), K = Cin x KH x KW,
//
// with K in the weights' own order (kk = ci * KHW + tap, contiguous rows).
// A mma's K order is free as long as both operands follow it, so lane
// (g, t) loads K values 8t..8t+7 of a 32-value group for rows g and g+8
// (two 16-byte loads) and feeds K 8t..8t+3 to one mma and 8t+4..8t+7 to a
// second, as the K pairs (2t, 2t+1) and (2t+8, 2t+9) each mma expects.
// X is built once per block as an explicit im2col in shared memory, [pixel]
// [kk], read with the same permutation (one 16-byte load per pixel and
// group); its row pitch is 64 bytes past a multiple of 128, so the two rows
// a quarter warp reads fill the 32 banks.
//
// A block owns 16 x WARPS_M output channels and TILE_N pixels; its
// WARPS_M x WARPS_K warps split the K groups WARPS_K ways (warp wk takes
// groups wk, wk + WARPS_K, ...), each loading UNROLL groups ahead of its
// mma steps, and add their partial sums through shared memory at the end.
//
// With CLUSTER_K > 1 (sm_90) the reduction is split further over a thread-
// block cluster of CLUSTER_K blocks along the grid's z: block z takes the
// z-th contiguous range of K groups (and builds only that range's im2col),
// so a layer of few output channels streams its weights from more SMs
// (seed 002's 64 channel tiles leave half of an H100's 132 SMs idle). The
// blocks' partial sums meet through distributed shared memory after a
// cluster barrier, each block adding up and storing a CLUSTER_K-th of the
// outputs: no workspace, no second kernel, a plain launch (the cluster's
// shape is compiled in).
//
// With STAGE_X 1 the input the im2col reads (for each image the block's
// pixels lie in, the planes of the channels its K range spans: contiguous
// in memory) is first copied into shared memory with 16-byte loads, so the
// im2col costs one round of memory latency, not one per element a thread
// gathers (seed 002 in bf16: about five rounds of scalar loads, while only
// UNROLL of each warp's weight groups are in flight). With clusters the
// warps' partial sums are then added within each block first, so that each
// output takes CLUSTER_K loads of distributed shared memory, not
// WARPS_K x CLUSTER_K.
//
// Problem macros as ct_conv_tc.cuh, and CT_DTYPE. Tuning macros:
//   WARPS_M       16-row m-fragments (output channels) per block
//   WARPS_K       warps splitting the reduction within a block
//   TILE_N        pixels per block (8, 16 or 32)
//   UNROLL        32-value K groups a warp loads ahead (1, 2 or 4)
//   CLUSTER_K     blocks of a cluster splitting the reduction (1, 2, 4, 8)
//   MIN_BLOCKS    minimum resident blocks per SM (__launch_bounds__)
//   STAGE_X       1: input planes staged in shared memory (above), 0: gathered
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

#ifndef STAGE_X
#define STAGE_X 0
#endif

#ifndef TC_GROUPS
#define TC_GROUPS 1
#endif
#define TC_CIN_ALL (TC_CIN * TC_GROUPS)
#define TC_COUT_ALL (TC_COUT * TC_GROUPS)
#define TC_CDIV(a, b) (((a) + (b) - 1) / (b))
#define TC_RUP(a, b) (TC_CDIV(a, b) * (b))

#define TC_KHW (TC_KH * TC_KW)
#define TC_KALL (TC_CIN * TC_KHW)                // reduction length (a multiple of 8)
#define TC_NKG TC_CDIV(TC_KALL, 32)              // 32-value K groups
#define TC_NKGB TC_CDIV(TC_NKG, CLUSTER_K)       // K groups of a block
#define TC_KP (TC_RUP(TC_NKGB * 32, 64) + 32)    // im2col row pitch, elements
#define TC_NTOT (TC_B * TC_OH * TC_OW)
#define TC_BM (16 * WARPS_M)
#define TC_NT (32 * WARPS_M * WARPS_K)
#define TC_NF (TILE_N / 8)
#define TC_NCT TC_CDIV(TC_COUT, TC_BM)          // channel tiles of a group
#define TC_STEP (WARPS_K * UNROLL)               // groups a warp skips per iteration

// Shared memory (dynamic, sized by tc16_conv.c): the im2col, TILE_N rows of
// TC_KP elements; at the end its first bytes hold the partial sums (and,
// with STAGE_X and clusters, the block's sums after them).
//
// STAGE_X: the staged planes follow the im2col, one row of TC_XP elements
// per image a block's pixels can touch (TC_XIMG): channels [c_lo, c_hi) of
// the block's K range (at most TC_XCH), from a 16-byte boundary at or
// before their first element (the shift, under 8, is where they start).
#define TC_HWI (TC_H * TC_W)
#define TC_OHW (TC_OH * TC_OW)
#define TC_XCH (TC_CDIV(TC_NKGB * 32, TC_KHW) + 1)
#define TC_XIMG (TC_B < TC_CDIV(TILE_N - 1, TC_OHW) + 1 ? TC_B : TC_CDIV(TILE_N - 1, TC_OHW) + 1)
#define TC_XP TC_RUP(TC_XCH * TC_HWI + 8, 8)

#if CLUSTER_K > 1
// Every thread of the cluster: the release/acquire orders the partial sums'
// shared-memory stores before the other blocks' reads of them.
__device__ __forceinline__ void tc16_cluster_sync()
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// p's word in the shared memory of the cluster's block `rank`.
__device__ __forceinline__ float tc16_ld_dsmem(const float *p, unsigned rank)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(p), r;
    float v;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
    asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(r) : "memory");
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
    extern __shared__ __align__(16) tc16_bits tc_smem[];
    const tc16_bits *in = reinterpret_cast<const tc16_bits *>(in_);
    const tc16_bits *weight = reinterpret_cast<const tc16_bits *>(weight_);

    const int n0 = blockIdx.x * TILE_N;
    const int grp = blockIdx.y / TC_NCT, co0 = blockIdx.y % TC_NCT * TC_BM;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int wm = warp % WARPS_M, wk = warp / WARPS_M, g = lane / 4, t = lane % 4;
    // This block's K groups [kb, ke); loads past ke would fetch the next
    // block's weights for nothing.
    const int kb = blockIdx.z * TC_NKGB, ke = min(TC_NKG, kb + TC_NKGB);

    // This lane's two weight rows, from K value 8t of a group; rows past
    // the layer read zeros.
    const int r0 = co0 + wm * 16 + g, r1 = r0 + 8;
    const uint4 *w0 = reinterpret_cast<const uint4 *>(weight + ((long long)grp * TC_COUT + r0) * TC_KALL + 8 * t);
    const uint4 *w1 = reinterpret_cast<const uint4 *>(weight + ((long long)grp * TC_COUT + r1) * TC_KALL + 8 * t);
    const bool ok0 = r0 < TC_COUT, ok1 = r1 < TC_COUT;
    const uint4 zero = make_uint4(0, 0, 0, 0);
    // Group kg's 16 bytes of a row are whole inside the reduction or past it.
#define TC_WLOAD(p, ok, kg) ((ok) && (kg) < ke && (kg) * 32 + 8 * t < TC_KALL ? __ldg((p) + (kg) * 4) : zero)

    // The first groups' loads are issued before the im2col is built.
    uint4 a0[UNROLL], a1[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
        const int kg = kb + wk + u * WARPS_K;
        a0[u] = TC_WLOAD(w0, ok0, kg);
        a1[u] = TC_WLOAD(w1, ok1, kg);
    }

#if STAGE_X
    // The planes: image slot i is image b_first + i; chunk q of its row is
    // elements [a0 + 8q, a0 + 8q + 8) of the input, one 16-byte load when
    // all of them are the row's (the input is 16-byte aligned), else each
    // of the row's elements alone. Outside the row: zeros, never read.
    const int b_first = n0 / TC_OHW;
    const int c_lo = kb * 32 / TC_KHW, c_hi = min(TC_CIN, TC_CDIV(min(ke * 32, TC_KALL), TC_KHW));
    const long long xcount = (long long)(c_hi - c_lo) * TC_HWI;
    tc16_bits *xs = tc_smem + TILE_N * TC_KP;
    for (int idx = threadIdx.x; idx < TC_XIMG * (TC_XP / 8); idx += TC_NT) {
        const int i = idx / (TC_XP / 8), q = idx % (TC_XP / 8), b = b_first + i;
        const long long s0 = ((long long)b * TC_CIN_ALL + grp * TC_CIN + c_lo) * TC_HWI, a0 = s0 & ~7LL;
        const long long lo = s0 - (a0 + 8 * q), hi = lo + xcount;   // the row within this chunk: [lo, hi)
        uint4 v = make_uint4(0, 0, 0, 0);
        if (b < TC_B && lo <= 0 && hi >= 8) {
            v = __ldg(reinterpret_cast<const uint4 *>(in + a0) + q);
        } else if (b < TC_B && lo < 8 && hi > 0) {
            unsigned h[8];
#pragma unroll
            for (int e = 0; e < 8; ++e)
                h[e] = tc16_ld(in + a0 + 8 * q + e, e >= lo && e < hi);
            v = make_uint4(h[0] | h[1] << 16, h[2] | h[3] << 16, h[4] | h[5] << 16, h[6] | h[7] << 16);
        }
        *reinterpret_cast<uint4 *>(xs + i * TC_XP + 8 * q) = v;
    }
    __syncthreads();
#endif

    // im2col: row n (pixel n0 + n) holds its input value of every kk of
    // the block's groups (local kk0, reduction index kk0 + 32 kb), 8 a
    // thread; zeros at the padding and past the reduction. Rows of pixels
    // past the layer are left unwritten: they only feed idle columns.
    for (int idx = threadIdx.x; idx < TILE_N * (TC_NKGB * 4); idx += TC_NT) {
        const int n = idx / (TC_NKGB * 4), kk0 = idx % (TC_NKGB * 4) * 8;
        const int pix = n0 + n;
        if (pix >= TC_NTOT)
            continue;
        const int b = pix / (TC_OH * TC_OW), oy = pix / TC_OW % TC_OH, ox = pix % TC_OW;
#if STAGE_X
        // image b's staged planes, from channel c0 = c_lo
        const int c0 = c_lo;
        const tc16_bits *x = xs + (b - b_first) * TC_XP + ((((long long)b * TC_CIN_ALL + grp * TC_CIN + c_lo) *
                                                            TC_HWI) & 7);
#else
        const int c0 = 0;
        const tc16_bits *x = in + ((long long)b * TC_CIN_ALL + grp * TC_CIN) * TC_H * TC_W;
#endif
        unsigned v[4];
#pragma unroll
        for (int e = 0; e < 8; e += 2) {
            unsigned h[2];
#pragma unroll
            for (int f = 0; f < 2; ++f) {
                const int kk = kb * 32 + kk0 + e + f, c = kk / TC_KHW, tap = kk % TC_KHW;
                const int iy = oy * TC_SY - TC_PH + tap / TC_KW * TC_DY, ix = ox * TC_SX - TC_PW + tap % TC_KW * TC_DX;
                const bool ok = kk < TC_KALL && iy >= 0 && iy < TC_H && ix >= 0 && ix < TC_W;
#if STAGE_X
                h[f] = ok ? (unsigned)x[((long long)(c - c0) * TC_H + iy) * TC_W + ix] : 0u;
#else
                h[f] = tc16_ld(x + ((long long)(c - c0) * TC_H + iy) * TC_W + ix, ok);
#endif
            }
            v[e / 2] = h[0] | h[1] << 16;
        }
        *reinterpret_cast<uint4 *>(tc_smem + n * TC_KP + kk0) = make_uint4(v[0], v[1], v[2], v[3]);
    }
    __syncthreads();

    float acc[TC_NF][4];
#pragma unroll
    for (int j = 0; j < TC_NF; ++j)
#pragma unroll
        for (int r = 0; r < 4; ++r)
            acc[j][r] = 0.0f;
    const tc16_bits *xb = tc_smem + g * TC_KP + 8 * t;
#pragma unroll 1
    for (int kg0 = kb + wk; kg0 < ke; kg0 += TC_STEP) {
        // The next iteration's loads go out before this one's mma steps.
        uint4 n0v[UNROLL], n1v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const int kg = kg0 + TC_STEP + u * WARPS_K;
            n0v[u] = TC_WLOAD(w0, ok0, kg);
            n1v[u] = TC_WLOAD(w1, ok1, kg);
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const int kg = kg0 + u * WARPS_K;
            if ((TC_NKG % TC_STEP != 0 || CLUSTER_K > 1) && kg >= ke)
                break;
            const unsigned lo[4] = {a0[u].x, a1[u].x, a0[u].y, a1[u].y};
            const unsigned hi[4] = {a0[u].z, a1[u].z, a0[u].w, a1[u].w};
#pragma unroll
            for (int j = 0; j < TC_NF; ++j) {
                const uint4 xv = *reinterpret_cast<const uint4 *>(xb + j * 8 * TC_KP + (kg - kb) * 32);
                const unsigned blo[2] = {xv.x, xv.y}, bhi[2] = {xv.z, xv.w};
                tc16_mma(acc[j], lo, blo);
                tc16_mma(acc[j], hi, bhi);
            }
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            a0[u] = n0v[u];
            a1[u] = n1v[u];
        }
    }
#undef TC_WLOAD

    // The warps' partial sums, [wk][wm][row][n] in fp32, over the im2col.
    __syncthreads();
    float *red = reinterpret_cast<float *>(tc_smem);
#pragma unroll
    for (int j = 0; j < TC_NF; ++j)
#pragma unroll
        for (int r = 0; r < 4; ++r)
            red[((wk * WARPS_M + wm) * 16 + g + 8 * (r / 2)) * TILE_N + j * 8 + 2 * t + r % 2] = acc[j][r];
#if CLUSTER_K > 1 && STAGE_X
    // The block's sums first, after the warps' ([m][n], past theirs); then
    // each output is CLUSTER_K loads of the blocks' sums.
    __syncthreads();
    float *sums = red + WARPS_K * TC_BM * TILE_N;
    for (int idx = threadIdx.x; idx < TC_BM * TILE_N; idx += TC_NT) {
        float s = 0.0f;
#pragma unroll
        for (int k = 0; k < WARPS_K; ++k)
            s += red[k * TC_BM * TILE_N + idx];
        sums[idx] = s;
    }
    tc16_cluster_sync();
    for (int idx = threadIdx.x + blockIdx.z * TC_NT; idx < TC_BM * TILE_N; idx += TC_NT * CLUSTER_K) {
#elif CLUSTER_K > 1
    tc16_cluster_sync();
    for (int idx = threadIdx.x + blockIdx.z * TC_NT; idx < TC_BM * TILE_N; idx += TC_NT * CLUSTER_K) {
#else
    __syncthreads();
    for (int idx = threadIdx.x; idx < TC_BM * TILE_N; idx += TC_NT) {
#endif
        const int m = idx / TILE_N, n = idx % TILE_N, co = co0 + m, pix = n0 + n;
        if (co >= TC_COUT || pix >= TC_NTOT)
            continue;
        float s = 0.0f;
#if CLUSTER_K > 1 && STAGE_X
        float part[CLUSTER_K];   // the loads issued together, then added in rank order
#pragma unroll
        for (int z = 0; z < CLUSTER_K; ++z)
            part[z] = tc16_ld_dsmem(sums + idx, z);
#pragma unroll
        for (int z = 0; z < CLUSTER_K; ++z)
            s += part[z];
#else
#pragma unroll
        for (int k = 0; k < WARPS_K; ++k)
#if CLUSTER_K > 1
#pragma unroll
            for (int z = 0; z < CLUSTER_K; ++z)
                s += tc16_ld_dsmem(red + (k * TC_BM + m) * TILE_N + n, z);
#else
            s += red[(k * TC_BM + m) * TILE_N + n];
#endif
#endif
#if TC_BIAS
        s += ct_ldg(bias + grp * TC_COUT + co);
#endif
        const int b = pix / (TC_OH * TC_OW), o = pix % (TC_OH * TC_OW);
        ct_st(out_ + ((long long)b * TC_COUT_ALL + grp * TC_COUT + co) * TC_OH * TC_OW + o, s);
    }
#if CLUSTER_K > 1
    tc16_cluster_sync();   // the other blocks may still read this one's sums
#endif
}
