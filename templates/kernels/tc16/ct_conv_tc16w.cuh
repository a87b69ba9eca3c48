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
#include "ct_mma16.cuh"

#ifndef STAGE_X
#define STAGE_X 0
#endif

#ifndef TC_GROUPS
#define TC_GROUPS 1
#endif
#define TC_CIN_ALL (TC_CIN * TC_GROUPS)
#define TC_COUT_ALL (TC_COUT * TC_GROUPS)
#include "tc16w_sizes.cuh"

// The derived sizes (tc16w_sizes.cuh, which the tuner's model reads too).
#define TC_CDIV(a, b) TCW_CDIV(a, b)
#define TC_RUP(a, b) TCW_RUP(a, b)

#define TC_KHW TCW_KHW(TC_KH, TC_KW)
#define TC_KALL TCW_KALL(TC_CIN, TC_KHW)          // reduction length (a multiple of 8)
#define TC_NKG TCW_NKG(TC_KALL)                   // 32-value K groups
#define TC_NKGB TCW_NKGB(TC_NKG, CLUSTER_K)       // K groups of a block
#define TC_KP TCW_KP(TC_NKGB)                     // im2col row pitch, elements
#define TC_NTOT TCW_NTOT(TC_B, TC_OH, TC_OW)
#define TC_BM TCW_BM(WARPS_M)
#define TC_NT TCW_NT(WARPS_M, WARPS_K)
#define TC_NF TCW_NF(TILE_N)
#define TC_NCT TCW_NCT(TC_COUT, TC_BM)          // channel tiles of a group
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
#define TC_XCH TCW_XCH(TC_NKGB, TC_KHW)
#define TC_XIMG TCW_XIMG(TC_B, TILE_N, TC_OHW)
#define TC_XP TCW_XP(TC_XCH, TC_HWI)

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
