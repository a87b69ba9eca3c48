// tc16w_sizes.cuh: the derived sizes of the kind tc16w, one set of
// expressions for the kernel (ct_conv_tc16w.cuh: compile-time constants
// from the layer's TC_* and the candidate's macros) and for its C model
// (tc16_conv.c's stream geometry: the same from a group's ct_tc_shape and
// the candidate's values, which includes this file too). Integer macros
// only, read alike by C and CUDA. (The kinds tc16 and tc16cl of this
// folder still state theirs in ct_conv_tc16_core.cuh and tc16_conv.c.)
#ifndef TC16W_SIZES_CUH
#define TC16W_SIZES_CUH
#define TCW_CDIV(a, b) (((a) + (b) - 1) / (b))
#define TCW_RUP(a, b) (TCW_CDIV(a, b) * (b))
// The reduction: cin x the taps (a multiple of 8), its 32-value K groups
// and a block's (one of cluster blocks); the im2col row pitch, elements.
#define TCW_KHW(kh, kw) ((kh) * (kw))
#define TCW_KALL(cin, khw) ((cin) * (khw))
#define TCW_NKG(kall) TCW_CDIV(kall, 32)
#define TCW_NKGB(nkg, cluster) TCW_CDIV(nkg, cluster)
#define TCW_KP(nkgb) (TCW_RUP((nkgb) * 32, 64) + 32)
// The pixels, a block's output channels (wm warps of 16) and threads (wm x
// wk warps), its 8-pixel fragments, the channel tiles of a group.
#define TCW_NTOT(b, oh, ow) ((b) * (oh) * (ow))
#define TCW_BM(wm) (16 * (wm))
#define TCW_NT(wm, wk) (32 * (wm) * (wk))
#define TCW_NF(tn) ((tn) / 8)
#define TCW_NCT(cout, bm) TCW_CDIV(cout, bm)
// STAGE_X: the channels a block's K groups span, the images its tn pixels
// can touch (ohw pixels an image, b images), a staged row's elements.
#define TCW_XCH(nkgb, khw) (TCW_CDIV((nkgb) * 32, khw) + 1)
#define TCW_XIMG(b, tn, ohw) ((b) < TCW_CDIV((tn) - 1, ohw) + 1 ? (b) : TCW_CDIV((tn) - 1, ohw) + 1)
#define TCW_XP(xch, hwi) TCW_RUP((xch) * (hwi) + 8, 8)
// Bytes of dynamic shared memory: the im2col (tn rows of kp 2-byte
// elements) and the staged planes (ximg rows of xp), or after the mma
// steps the warps' fp32 partial sums (and, with STAGE_X and clusters, the
// block's sums after them), whichever is larger.
#define TCW_SMEM(tn, kp, ximg, xp, wk, sums2, bm)                                                            \
    (2 * (tn) * (kp) + 2 * (ximg) * (xp) > 4 * ((wk) + (sums2)) * (bm) * (tn)                               \
         ? 2 * (tn) * (kp) + 2 * (ximg) * (xp)                                                               \
         : 4 * ((wk) + (sums2)) * (bm) * (tn))
#endif
