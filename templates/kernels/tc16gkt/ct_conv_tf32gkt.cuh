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
#define TG_CK 32                                // a chunk: 128 bytes of fp32
#define TG_NCH TGKT_NCH(TC_CIN, TG_CK)
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
#define TG_SO TGKT_SO(TG_N, TG_OP, 4)           // the staged outputs, bytes (over the buffers)
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
#include "ct_dtype.cuh"   // ct_elem: float (CT_DTYPE unset with CT_TF32)
#include "ct_wgmma_tf32.cuh"
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
                    tg_tma_4d(sm0 + A_BUFS * TG_SA + s * TG_SB, &tmap, grp * TC_CIN + ch * TG_CK,
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
        tg_round_stage(sm + A_BUFS * TG_SA + s * TG_SB);
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
                tg_mma<TG_NW>(acc, da, r * TG_BM * 8 + 2 * k, db, r * TG_RSTEP * TILE_OW * 8 + 2 * k);
#else
#pragma unroll
            for (int k = 0; k < 4; ++k)
                tg_mma<TG_NW>(acc, da, tap * TG_BM * 8 + 2 * k, db, r * TG_RSTEP * TILE_OW * 8 + 2 * k);
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
