// tc16_sizes.cuh: the derived sizes of the tc16 core (ct_conv_tc16_core.cuh,
// shared by the kinds tc16 and tc16cl of this folder and tc16rcl of tc16r),
// one set of expressions for the kernels (the core's and ct_conv_tc16cl.cuh's
// TC_* macros: compile-time constants from the layer's TC_* and the
// candidate's macros) and for the C models (tc16_conv.c's tiled geometry and
// tc16r_conv.c's tc16rcl geometry: the same from a group's ct_tc_shape and the
// candidate's values, which include this file too). Integer macros only, read
// alike by C and CUDA.
#ifndef TC16_SIZES_CUH
#define TC16_SIZES_CUH
#define TC16_CDIV(a, b) (((a) + (b) - 1) / (b))
#define TC16_RUP(a, b) (TC16_CDIV(a, b) * (b))
// The block tile: bm output channels x the toh x tow pixels rounded up to
// whole 8-column fragments of wn warps (columns past the pixels are idle);
// 32 x wm x wn threads; a warp's rows and columns and its 16-row m- and
// 8-column n-fragments.
#define TC16_BN(toh, tow, wn) TC16_RUP((toh) * (tow), 8 * (wn))
#define TC16_NT(wm, wn) (32 * (wm) * (wn))
#define TC16_WM(bm, wm) ((bm) / (wm))
#define TC16_WN(bn, wn) ((bn) / (wn))
#define TC16_MF(wrows) ((wrows) / 16)
#define TC16_NF(wcols) ((wcols) / 8)
// The reduction: chunks of ck input channels, the taps, a chunk's mma steps.
#define TC16_NCH(cin, ck) TC16_CDIV(cin, ck)
#define TC16_KHW(kh, kw) ((kh) * (kw))
#define TC16_KSTEPS(khw, ck) ((khw) * (ck) / 16)
// A stage: the weights (bm rows of pitch AP) and the haloed input tile (IH x
// IW pixels of pitch CP), 16-bit elements; the rows padded by 8 elements.
#define TC16_AP(khw, ck) ((khw) * (ck) + 8)
#define TC16_CP(ck) ((ck) + 8)
#define TC16_IH(toh, sy, kh, dy) (((toh) - 1) * (sy) + ((kh) - 1) * (dy) + 1)
#define TC16_IW(tow, sx, kw, dx) (((tow) - 1) * (sx) + ((kw) - 1) * (dx) + 1)
#define TC16_SA(bm, ap) ((bm) * (ap))
#define TC16_SB(ih, iw, cp) ((ih) * (iw) * (cp))
#define TC16_STAGE(sa, sb) ((sa) + (sb))
// NCHW buffers: two where PREFETCH has a next chunk to load.
#define TC16_NBUF(prefetch, nch) ((prefetch) && (nch) > 1 ? 2 : 1)
// Copy slots of a chunk (a weight (row, tap), an input pixel) and those a
// thread owns.
#define TC16_WS(bm, khw) ((bm) * (khw))
#define TC16_IS(ih, iw) ((ih) * (iw))
#define TC16_WR(ws, nt) TC16_CDIV(ws, nt)
#define TC16_IR(is, nt) TC16_CDIV(is, nt)
// The PREFETCH 0 NCHW path's column pairs: whether it reads them (an even
// image width and tile step), the pair offset (the left padding's parity),
// pairs of a tile row, pair slots, and those a thread owns.
#define TC16_IPAIR(w, tow, sx) ((w) % 2 == 0 && (tow) * (sx) % 2 == 0)
#define TC16_IOFF(pw) ((pw) % 2)
#define TC16_NPR(iw, ioff) TC16_CDIV((iw) + (ioff), 2)
#define TC16_IS2(ih, npr) ((ih) * (npr))
#define TC16_IRX(ipair, is2, nt, ir) ((ipair) ? TC16_CDIV(is2, nt) : (ir))
// Input slots a thread of that path has in flight at once: two where the
// register estimate with both (accumulators, two slots' CK registers, one
// step's fragments, about 40) fits the 64K registers of an SM over minb
// blocks (255 at most).
#define TC16_RBUDGET(nt, minb) (65536 / ((nt) * (minb)) < 255 ? 65536 / ((nt) * (minb)) : 255)
#define TC16_ISTEP(irx, mf, nf, ck, budget) \
    ((irx) > 1 && (mf) * (nf) * 4 + 2 * (ck) + (mf) * 4 + (nf) * 2 + 40 <= (budget) ? 2 : 1)
// Raw weights (the PREFETCH 0 NCHW path and channels-last): a row's ck x khw
// run, bm rows, after the stage.
#define TC16_RK(ck, khw) ((ck) * (khw))
#define TC16_SR(bm, rk) ((bm) * (rk))
#define TC16_CLSTAGE(stage, sr) ((stage) + (sr))
// Channels-last: the stages (at most the chunks), the staged outputs' pixel
// pitch.
#define TC16_NST(nch, stages) ((nch) < (stages) ? (nch) : (stages))
#define TC16_OP(bm) ((bm) + 8)
#endif
