// tc16gkt_sizes.cuh: the derived sizes of the kind tc16gktcl, one set of
// expressions for the kernels (ct_conv_tc16gkt.cuh, and ct_conv_tf32gkt.cuh
// for tf32 problems: their TG_* macros, compile-time constants from the
// layer's TC_* and the candidate's macros) and for the C model
// (tc16gkt_conv.c: the same from a group's ct_tc_shape and the candidate's
// values, which includes this file too). Integer macros only, read alike by
// C and CUDA; the element size (2 or 4 bytes) and the chunk (128 bytes of
// channels) are arguments where they matter.
#ifndef TC16GKT_SIZES_CUH
#define TC16GKT_SIZES_CUH
#define TGKT_CDIV(a, b) (((a) + (b) - 1) / (b))
// A block: wgm x wgn consumer warpgroups (64 output channels each along M,
// a share of the tile's pixels along N) and one producer warpgroup.
#define TGKT_BM(wgm) (64 * (wgm))
#define TGKT_N(toh, tow) ((toh) * (tow))          // the tile's pixels
#define TGKT_NW(n, wgn) ((n) / (wgn))             // a consumer's: its wgmma's N
#define TGKT_NC(wgm, wgn) ((wgm) * (wgn))         // consumer warpgroups
#define TGKT_NT(nc) (128 * ((nc) + 1))
#define TGKT_KHW(kh, kw) ((kh) * (kw))
// Chunks of ck channels; k-blocks: one tap each, or with ROWS one filter
// column each (its kh taps read one box of boxh output rows, rstep apart).
#define TGKT_NCH(cin, ck) TGKT_CDIV(cin, ck)
#define TGKT_KPC(rows, kw, khw) ((rows) ? (kw) : (khw))
#define TGKT_BOXH(rows, toh, kh, rstep) ((rows) ? (toh) + ((kh) - 1) * (rstep) : (toh))
#define TGKT_NKB(nch, kpc) ((nch) * (kpc))
// Bytes: a B stage (boxh x tow pixels of 128-byte rows), an A buffer (a
// chunk's taps), the staged outputs (pitch bm + 8 elements of elem bytes,
// over the buffers), and where the barriers go (past both).
#define TGKT_SB(boxh, tow) ((boxh) * (tow) * 128)
#define TGKT_SA(khw, bm) ((khw) * (bm) * 128)
#define TGKT_OP(bm) ((bm) + 8)
#define TGKT_SO(n, op, elem) ((n) * (op) * (elem))
#define TGKT_BAR(abufs, sa, stages, sb, so) \
    ((abufs) * (sa) + (stages) * (sb) > (so) ? (abufs) * (sa) + (stages) * (sb) : (so))
// Registers: the launch's cap a thread (minb blocks of nt threads an SM,
// whole 8s, at most 255); the producer's after setmaxnreg.dec (a transpose
// item's 4 khw words and about 40); a consumer's share of the rest.
#define TGKT_REGCAP(nt, minb) (65536 / (nt) / (minb) / 8 * 8 > 255 ? 255 : 65536 / (nt) / (minb) / 8 * 8)
#define TGKT_PROD_REGS(khw) ((4 * (khw) + 40 + 7) / 8 * 8)
#define TGKT_CONS_REGS(cap, nc, prod) (((cap) * ((nc) + 1) - (prod)) / (nc) / 8 * 8)
// WPRE 1 and 2 (the weights laid out once a call by TC_NAME_wprep): the
// workspace is one A buffer's image for each (group, output channel block
// of bm, chunk), in that order, filled by one block of TGKT_WP_THREADS
// threads each; the producer only issues copies, so it keeps 40 registers
// (CUTLASS's producer share: enough for a warpgroup that loops and
// addresses). WPRE=2 copies a k-block's taps of a unit into its input
// stage instead of a chunk's into an A buffer. Guarded so
// that a WPRE=0 kernel's text, and its code hash, stay what they were; the
// model (TC_NAME undefined) always sees them.
#if !defined(TC_NAME) || WPRE
#define TGKT_WP_UNITS(groups, nct, nch) ((groups) * (nct) * (nch))
#define TGKT_WP_THREADS 256
#define TGKT_WP_PROD_REGS 40
#define TGKT_SAK(kbt, bm) ((kbt) * (bm) * 128)   // WPRE=2: a k-block's A in its stage
#endif
#endif
