// tc_sizes.cuh: the derived sizes of the kinds tc and tcsplit, one set of
// expressions for the kernel (ct_conv_tc.cuh: compile-time constants from
// the layer's TC_* and the candidate's macros) and for its C model
// (tc_conv.c: the same from a group's ct_tc_shape and the candidate's
// values, which includes this file too). Integer macros only, read alike
// by C and CUDA.
#ifndef TC_SIZES_CUH
#define TC_SIZES_CUH
#define TCS_CDIV(a, b) (((a) + (b) - 1) / (b))
#define TCS_RUP(a, b) (TCS_CDIV(a, b) * (b))
// The block's GEMM tile: bm output channels x the toh x tow pixels rounded
// up to wn warps of whole 8-column mma tiles; wm x wn warps, each wm / 16
// x wn / 8 fragments of its (bm / wm) x (bn / wn) part.
#define TCS_NPIX(toh, tow) ((toh) * (tow))
#define TCS_BN(npix, wn) TCS_RUP(npix, 8 * (wn))
#define TCS_NT(wm, wn) (32 * (wm) * (wn))
#define TCS_WM(bm, wm) ((bm) / (wm))
#define TCS_WN(bn, wn) ((bn) / (wn))
#define TCS_MF(wm_rows) ((wm_rows) / 16)
#define TCS_NF(wn_cols) ((wn_cols) / 8)
// A chunk: ck input channels (at most cin) and the chunks; its K values
// (ck x the taps), padded to whole groups of acc mma steps, and the A
// stage's row of them (+ 4: = 4 mod 8, conflict-free ldmatrix rows).
#define TCS_CK(chunk, cin) ((chunk) < (cin) ? (chunk) : (cin))
#define TCS_NCH(cin, ck) TCS_CDIV(cin, ck)
#define TCS_KHW(kh, kw) ((kh) * (kw))
#define TCS_KCR(ck, khw) ((ck) * (khw))
#define TCS_KC(kcr, acc) TCS_RUP(kcr, 8 * (acc))
#define TCS_AP(kc) ((kc) + 4)
// The haloed input tile of a block (toh x tow outputs, stride s, k taps
// dilated by d) and its channel plane (= 8 mod 32: conflict-free tap-major
// B); a stage's A and B floats; the buffers.
#define TCS_IN(to, s, k, d) (((to) - 1) * (s) + ((k) - 1) * (d) + 1)
#define TCS_PLANE(ih, iw) (TCS_RUP((ih) * (iw), 32) + 8)
#define TCS_SA(bm, ap) ((bm) * (ap))
#define TCS_SB(ck, plane) ((ck) * (plane))
#define TCS_STAGE(sa, sb) ((sa) + (sb))
#define TCS_NBUF(pipe) ((pipe) ? 2 : 1)
// Bytes of dynamic shared memory: the stages, then the kc ints of the
// kk -> offset table.
#define TCS_SMEM(nbuf, stage, kc) (4 * ((nbuf) * (stage) + (kc)))
// Tiles of the output (oh x ow) and the channel tiles of a group.
#define TCS_TILES_OF(n, to) TCS_CDIV(n, to)
#define TCS_NCT(cout, bm) TCS_CDIV(cout, bm)
#endif
