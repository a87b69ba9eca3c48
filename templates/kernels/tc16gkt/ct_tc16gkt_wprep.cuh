// ct_tc16gkt_wprep.cuh: the weight-layout kernel of a WPRE=1 candidate of
// conv*_tc16gktcl and the main kernel's fetch of what it writes, included
// before the main kernel by ct_conv_tc16gkt.cuh and ct_conv_tf32gkt.cuh
// (their TG_* macros and primitives, tg_bits, and tf32's tg_rna).
//
// Why: without it every block of the main kernel turns its chunks' OIHW
// weights into the swizzled K-major A layout itself (its producer's warps
// 1-3), for as few pixels as a small image's tile has; that transposing,
// repeated by every block, bounds the time of 14x14 and 7x7 layers. This
// kernel does it once a call: block (x, y) writes workspace unit y NCT NCH
// + x (group y, output channel block x / NCH, chunk x % NCH), TG_WSA bytes,
// the exact image of the A buffer ([tap][row][128 bytes], 16-byte chunk q
// of row m at q ^ (m % 8)), which the main kernel's copying lane then
// fetches with one bulk copy. Zeros past Cout and Cin, as the transposers
// write; tf32's operands rounded to TF32 here (cvt.rna's rounding).
//
// Item (m, q): 16 bytes (E channels) of row m for every tap, q fastest: a
// thread's KHW 16-byte loads are one contiguous run of the OIHW row, eight
// threads' runs adjacent, and eight threads store one whole 128-byte row of
// each tap. The host launches (NCT NCH, GROUPS) blocks of TGKT_WP_THREADS.
#ifndef TC_CAT
#define TC_CAT2(a, b) a##b
#define TC_CAT(a, b) TC_CAT2(a, b)
#endif
#ifdef CT_REPLAY
#define tg_bulk(dst, src, n, b) ct_rp_bulk(dst, src, n, b)
#else
// A 1D bulk copy of n bytes (a multiple of 16, both addresses 16-aligned)
// from global memory into shared memory, its bytes completing on barrier b.
__device__ __forceinline__ void tg_bulk(unsigned dst, const void *src, unsigned n, unsigned b)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(dst),
                 "l"(src), "r"(n), "r"(b)
                 : "memory");
}
#endif
#define TG_WPE (16 / (int)sizeof(tg_bits))   // elements of a 16-byte chunk
#define TG_WSA TGKT_SA(TG_KHW, TG_BM)          // a unit: a chunk's A image, bytes
#if CT_TF32
#define TG_WP_CVT(x) tg_rna(x)
#else
#define TG_WP_CVT(x) (x)
#endif
extern "C" __global__ void __launch_bounds__(TGKT_WP_THREADS)
TC_CAT(TC_NAME, _wprep)(const ct_elem *__restrict__ weight_, ct_elem *__restrict__ wp_)
{
    const int grp = blockIdx.y, cot = blockIdx.x / TG_NCH, ch = blockIdx.x % TG_NCH;
    const tg_bits *w = reinterpret_cast<const tg_bits *>(weight_) + (long long)grp * TC_COUT * TG_RK;
    unsigned char *u =
        reinterpret_cast<unsigned char *>(wp_) + ((long long)grp * TG_NCT * TG_NCH + blockIdx.x) * TG_WSA;
#pragma unroll 1
    for (int i = threadIdx.x; i < TG_BM * 8; i += TGKT_WP_THREADS) {
        const int q = i % 8, m = i / 8, co = cot * TG_BM + m, c = (ch * 8 + q) * TG_WPE;
        union {
            uint4 v[TG_KHW];
            tg_bits e[TG_WPE * TG_KHW];
        } x;
        if (co < TC_COUT && c < TC_CIN) {
            const uint4 *r = reinterpret_cast<const uint4 *>(w + (long long)co * TG_RK + (long long)c * TG_KHW);
#pragma unroll
            for (int v = 0; v < TG_KHW; ++v)
                x.v[v] = r[v];
        } else {
#pragma unroll
            for (int v = 0; v < TG_KHW; ++v)
                x.v[v] = uint4{0u, 0u, 0u, 0u};
        }
#pragma unroll
        for (int tap = 0; tap < TG_KHW; ++tap) {
            union {
                uint4 v;
                tg_bits e[TG_WPE];
            } o;
#pragma unroll
            for (int k = 0; k < TG_WPE; ++k)
                o.e[k] = TG_WP_CVT(x.e[k * TG_KHW + tap]);
            *reinterpret_cast<uint4 *>(u + (tap * TG_BM + m) * 128 + (q ^ (m % 8)) * 16) = o.v;
        }
    }
}

#if WPRE == 1
// The main kernel's producer with WPRE=1, one lane (the transposers' warps
// idle): the block's chunk ch0 + ch (its split slice's, from ch0) is one
// bulk copy of unit (grp, co0 / BM, ch0 + ch) into A buffer ch % A_BUFS,
// once the consumers have emptied it, its bytes expected on the buffer's
// full barrier (fulla0, emptya0: buffer 0's barriers, 8 bytes apart).
__device__ __forceinline__ void tg_wp_fetch(unsigned sm0, const ct_elem *weight_, int grp, int co0, unsigned fulla0,
                                            unsigned emptya0)
{
#if SPLIT_K > 1
    const int ch0 = (int)blockIdx.z * TG_NCH / SPLIT_K, nch = ((int)blockIdx.z + 1) * TG_NCH / SPLIT_K - ch0;
#else
    const int ch0 = 0, nch = TG_NCH;
#endif
    const unsigned char *wp = reinterpret_cast<const unsigned char *>(weight_) +
                              (((long long)grp * TG_NCT + co0 / TG_BM) * TG_NCH + ch0) * TG_WSA;
#pragma unroll 1
    for (int ch = 0; ch < nch; ++ch) {
        const int a = ch % A_BUFS;
        if (ch >= A_BUFS)
            tg_wait(emptya0 + 8 * a, (ch / A_BUFS - 1) & 1);
        tg_arrive_tx(fulla0 + 8 * a, TG_WSA);
        tg_bulk(sm0 + a * TG_WSA, wp + (long long)ch * TG_WSA, TG_WSA, fulla0 + 8 * a);
    }
}
#endif

#if WPRE == 2
// WPRE=2, the copying lane: k-block q of chunk ch's A (its KBT taps of
// unit (grp, co0 / BM, ch), tap ROWS ? r KW + q : q as row r of the stage's
// A) into the input stage at shared address dst, on the stage's full
// barrier b, whose expect_tx counted them with the box.
__device__ __forceinline__ void tg_wp_stage(unsigned dst, const ct_elem *weight_, int grp, int co0, int ch, int q,
                                            unsigned b)
{
    const unsigned char *wp = reinterpret_cast<const unsigned char *>(weight_) +
                              (((long long)grp * TG_NCT + co0 / TG_BM) * TG_NCH + ch) * TG_WSA;
#pragma unroll
    for (int r = 0; r < TG_KBT; ++r)
        tg_bulk(dst + r * TG_BM * 128, wp + (ROWS ? r * TC_KW + q : q) * TG_BM * 128, TG_BM * 128, b);
}
#endif
