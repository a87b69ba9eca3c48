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
// The derived sizes (tc16gkt_sizes.cuh, which the tuner's model reads too).
#include "tc16gkt_sizes.cuh"
#define TG_CDIV(a, b) TGKT_CDIV(a, b)
#define TG_CIN_ALL (TC_CIN * TC_GROUPS)
#define TG_COUT_ALL (TC_COUT * TC_GROUPS)
#ifndef WG_N
#define WG_N 1
#endif
#define TG_BM TGKT_BM(WG_M)
#define TG_N TGKT_N(TILE_OH, TILE_OW)           // the tile's pixels
#define TG_NW TGKT_NW(TG_N, WG_N)               // a consumer's: its wgmma's N
#define TG_NC TGKT_NC(WG_M, WG_N)               // consumer warpgroups
#define TG_NT TGKT_NT(TG_NC)
#define TG_KHW TGKT_KHW(TC_KH, TC_KW)
#define TG_NCH TGKT_NCH(TC_CIN, 64)
// k-blocks: one tap each, or with ROWS one filter column each (its KH
// taps read one box of TG_BOXH output rows, tap i at row i DY / SY).
#ifndef ROWS
#define ROWS 0
#endif
#define TG_KPC TGKT_KPC(ROWS, TC_KW, TG_KHW)    // k-blocks a chunk
#define TG_KBT (ROWS ? TC_KH : 1)               // taps a k-block
#define TG_RSTEP (TC_DY / TC_SY)                // box rows between a column's taps (ROWS)
#define TG_BOXH TGKT_BOXH(ROWS, TILE_OH, TC_KH, TG_RSTEP)
#define TG_NKB TGKT_NKB(TG_NCH, TG_KPC)
#define TG_SB TGKT_SB(TG_BOXH, TILE_OW)         // a B stage, bytes
#if WPRE == 2
// WPRE=2: no A buffers; input stage s holds its k-block's A too (TG_SAK
// bytes at TG_ASTAGE(s), after the B stages), copied with its box.
#define TG_SA 0
#define TG_SAK TGKT_SAK(TG_KBT, TG_BM)
#define TG_ASTAGE(s) (STAGES * TG_SB + (s) * TG_SAK)
#else
#define TG_SA TGKT_SA(TG_KHW, TG_BM)            // an A buffer (a chunk's taps), bytes
#endif
#define TG_OP TGKT_OP(TG_BM)                    // staged output pixel pitch, elements
#define TG_SO TGKT_SO(TG_N, TG_OP, 2)           // the staged outputs, bytes (over the buffers)
// The barriers, after the buffers and the staged outputs: nothing
// overwrites them while they are in use.
#if WPRE == 2
#define TG_BAR TGKT_BAR(1, STAGES * TG_SAK, STAGES, TG_SB, TG_SO)
#else
#define TG_BAR TGKT_BAR(A_BUFS, TG_SA, STAGES, TG_SB, TG_SO)
#endif
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
#define TG_REGCAP TGKT_REGCAP(TG_NT, MIN_BLOCKS)
// The producer's registers after setmaxnreg.dec: a transpose item's 4 KHW
// words and about 40 more (fewer spill them).
#if WPRE
#define TG_PROD_REGS TGKT_WP_PROD_REGS   // the producer only issues copies
#else
#define TG_PROD_REGS TGKT_PROD_REGS(TG_KHW)
#endif
#define TG_CONS_REGS TGKT_CONS_REGS(TG_REGCAP, TG_NC, TG_PROD_REGS)
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
#include "ct_wgmma.cuh"
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

#if WPRE
#include "ct_tc16gkt_wprep.cuh"   // the prep kernel and the producer's fetch of its images
#endif

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
#if WPRE
            tg_bar_init(TG_FULLA(a), 1);   // the copying lane's expect_tx
#else
            tg_bar_init(TG_FULLA(a), 96);
#endif
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
#if WPRE == 2
                    tg_arrive_tx(TG_FULLB(s), TG_SB + TG_SAK);   // the box and the k-block's A
                    tg_wp_stage(sm0 + TG_ASTAGE(s), weight_, grp, co0, ch, q, TG_FULLB(s));
#else
                    tg_arrive_tx(TG_FULLB(s), TG_SB);
#endif
                    tg_tma_4d(sm0 + A_BUFS * TG_SA + s * TG_SB, &tmap, grp * TC_CIN + ch * 64,
                              ox0 * TC_SX + j * TC_DX - TC_PW, oy0 * TC_SY + i * TC_DY - TC_PH, b,
                              TG_FULLB(s));
                }
            }
#if WPRE == 1
        } else if (threadIdx.x == 32) {
            tg_wp_fetch(sm0, weight_, grp, co0, TG_FULLA(0), TG_EMPTYA(0));
        }
#elif WPRE == 2
        }   // warp 0 copies the weights with the input; warps 1-3 idle
#else
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
#endif
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
#if WPRE != 2
        if (q == 0)
            tg_wait(TG_FULLA(a), (ch / A_BUFS) & 1);
#endif
        tg_wait(TG_FULLB(s), u & 1);
        tg_wg_fence();
#if WPRE == 2
        (void)a;   // no A buffers
        const unsigned long long da = tg_desc(sm0 + TG_ASTAGE(s) + wgm * 64 * 128);
#else
        const unsigned long long da = tg_desc(sm0 + a * TG_SA + wgm * 64 * 128);
#endif
        const unsigned long long db = tg_desc(sm0 + A_BUFS * TG_SA + s * TG_SB + wgn * TG_NW * 128);
#pragma unroll
        for (int r = 0; r < TG_KBT; ++r) {
            const int tap = ROWS ? r * TC_KW + q : q;
#if WPRE == 2
            (void)tap;   // the stage holds the k-block's taps in the order r
#pragma unroll
            for (int k = 0; k < 4; ++k)
                tg_wgmma<TG_NW>(acc, da, r * TG_BM * 8 + 2 * k, db, r * TG_RSTEP * TILE_OW * 8 + 2 * k);
#else
#pragma unroll
            for (int k = 0; k < 4; ++k)
                tg_wgmma<TG_NW>(acc, da, tap * TG_BM * 8 + 2 * k, db, r * TG_RSTEP * TILE_OW * 8 + 2 * k);
#endif
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
#include "ct_tc16gkt_split.cuh"
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
