// tc16wb_sizes.cuh: the derived sizes of the kind tc16wb, one set of
// expressions for the kernel (ct_conv_tc16wb.cuh: compile-time constants
// from the layer's TC_* and the candidate's macros) and for its C model
// (tc16wb_conv.c: the same from a group's ct_tc_shape and the candidate's
// values, which includes this file too). Integer macros only, read alike
// by C and CUDA.
#ifndef TC16WB_SIZES_CUH
#define TC16WB_SIZES_CUH
#define TCWB_CDIV(a, b) (((a) + (b) - 1) / (b))
#define TCWB_RUP(a, b) (TCWB_CDIV(a, b) * (b))
// The reduction: cin x the taps (a multiple of 8), its 32-value K groups,
// a block's (one of cluster blocks), a warp's (wk warps), a copy piece's;
// the im2col and weight row pitch, in elements.
#define TCWB_KHW(kh, kw) ((kh) * (kw))
#define TCWB_KALL(cin, khw) ((cin) * (khw))
#define TCWB_NKG(kall) TCWB_CDIV(kall, 32)
#define TCWB_NKGB(nkg, cluster) TCWB_CDIV(nkg, cluster)
#define TCWB_NGW(nkgb, wk) TCWB_CDIV(nkgb, wk)
#define TCWB_GPC(nkgb, chunks) TCWB_CDIV(nkgb, chunks)
#define TCWB_KP(nkgb) (TCWB_RUP((nkgb) * 32, 64) + 32)
// The pixels (all of the layer's), an input plane, the block's output
// channels (cot mma tiles of 8) and threads (wk warps), the mma rows
// (pixels g and g + 8), the channel tiles of a group, a block's outputs.
#define TCWB_NTOT(b, oh, ow) ((b) * (oh) * (ow))
#define TCWB_HWI(h, w) ((h) * (w))
#define TCWB_BN(cot) (8 * (cot))
#define TCWB_NT(wk) (32 * (wk))
#define TCWB_TP(ntot) ((ntot) <= 8 ? 8 : 16)
#define TCWB_NCT(cout, bn) TCWB_CDIV(cout, bn)
#define TCWB_NOUT(tp, bn) ((tp) * (bn))
// The 8-channel units a block's K range touches, and a thread's im2col
// (unit, image) tasks.
#define TCWB_NUB(nkgb, khw) (TCWB_CDIV((nkgb) * 32, 8 * (khw)) + 1)
#define TCWB_UIT(nub, b, nt) TCWB_CDIV((nub) * (b), nt)
// Shared memory, in elements: with WSRC 0 the weights, bn rows of kp, then
// the im2col, a row of kp a pixel (ism: its start); after the mma steps
// the same memory holds the warps' fp32 partial sums (and the block's,
// with a cluster). Bytes: the larger of the two.
#define TCWB_ISM(wsrc, bn, kp) ((wsrc) ? 0 : (bn) * (kp))
#define TCWB_SMEM(ism, ntot, kp, wk, cluster, nout)                                                          \
    (2 * ((ism) + (ntot) * (kp)) > 4 * ((wk) + ((cluster) > 1)) * (nout)                                    \
         ? 2 * ((ism) + (ntot) * (kp))                                                                       \
         : 4 * ((wk) + ((cluster) > 1)) * (nout))
#endif
