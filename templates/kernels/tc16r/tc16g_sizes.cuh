// tc16g_sizes.cuh: the derived sizes of the wgmma core
// (ct_conv_tc16g_core.cuh, shared by the kinds tc16g and tc16gcl of this
// folder and tc16gkcl of tc16gk) and of ct_conv_tc16g.cuh, one set of
// expressions for the kernels (their TC_* macros: compile-time constants
// from the layer's TC_* and the candidate's macros) and for the C models
// (tc16r_conv.c's wgmma geometry, tc16gk_conv.c's: the same from a group's
// ct_tc_shape and the candidate's values, which include this file too).
// Integer macros only, read alike by C and CUDA. Sizes in bytes are of
// 16-bit elements (the tf32 kernels of tc16gk state theirs apart).
#ifndef TC16G_SIZES_CUH
#define TC16G_SIZES_CUH
#define TC16G_CDIV(a, b) (((a) + (b) - 1) / (b))
#define TC16G_RUP(a, b) (TC16G_CDIV(a, b) * (b))
// A block: wgm warpgroups of 64 output channels along M, wgn along the
// tile's rows; 128 threads a warpgroup.
#define TC16G_BM(wgm) (64 * (wgm))
#define TC16G_NT(wgm, wgn) (128 * (wgm) * (wgn))
// Output rows a warpgroup covers: all the tile's with PINGPONG (each its own
// tiles), else its share of them.
#define TC16G_RPW(pp, toh, wgn) ((pp) ? (toh) : (toh) / (wgn))
// The wgmma's N: stride 1 down the image (FLAT) one run of pixels over a
// warpgroup's rows, (rpw - 1) x iw + tow long, in one chain; otherwise a
// chain a row, N = tow; both rounded up to 8.
#define TC16G_WN_FLAT(rpw, iw, tow) TC16G_RUP(((rpw) - 1) * (iw) + (tow), 8)
#define TC16G_WN_ROW(tow) TC16G_RUP(tow, 8)
// The haloed input tile (ih x iw pixels), its planes (odd pixel counts: a
// run ends at most 7 past the tile) of 16-byte pixel rows, 8 channels each.
#define TC16G_KHW(kh, kw) ((kh) * (kw))
#define TC16G_IH(toh, sy, kh, dy) (((toh) - 1) * (sy) + ((kh) - 1) * (dy) + 1)
#define TC16G_IW(tow, kw, dx) ((tow) + ((kw) - 1) * (dx))
#define TC16G_PPX(is) (((is) + 8) | 1)
#define TC16G_PB(ppx) ((ppx) * 16)
#define TC16G_SB(ck, pb) ((ck) / 8 * (pb))
// A of ck channels (bytes), the staged outputs' pixel pitch (elements), a
// raw weight row (elements).
#define TC16G_SA(bm, khw, ck) ((bm) * (khw) * (ck) * 2)
#define TC16G_OP(bm) ((bm) + 8)
#define TC16G_RK(cin, khw) ((cin) * (khw))
// Elements of one copy: the widest piece that keeps every offset aligned.
#define TC16G_VEC(n) ((n) % 8 == 0 ? 8 : (n) % 4 == 0 ? 4 : (n) % 2 == 0 ? 2 : 1)
// ct_conv_tc16g.cuh: the buffer regions (one a warpgroup with PINGPONG);
// a region's bytes: NHWC STAGES B buffers and the staged outputs, NCHW two
// B buffers and STAGES raw tiles of cin planes of ih rows of rw elements
// (from a column multiple of rv; 16-byte multiples keep the next region
// aligned).
#define TC16G_NREG(pp, wgn) ((pp) ? (wgn) : 1)
#define TC16G_RW(iw, rv) TC16G_RUP((iw) + (rv) - 1, rv)
#define TC16G_SRI(cin, ih, rw) TC16G_RUP((cin) * (ih) * (rw) * 2, 16)
#define TC16G_WGB_CL(stages, sb, toh, tow, op) ((stages) * (sb) + (toh) * (tow) * (op) * 2)
#define TC16G_WGB_RAW(sb, stages, sri) (2 * (sb) + (stages) * (sri))
// The raw weights come rpc channels at a time over the regions past the
// first B buffer: as many (a multiple of 16) as fit, at least 16, at most
// ck; their rows' pitch.
#define TC16G_RPC0(regions, sb, bm, khw) (((regions) - (sb)) / ((bm) * 16 * (khw) * 2) * 16)
#define TC16G_RPC(rpc0, ck) ((rpc0) < 16 ? 16 : (rpc0) > (ck) ? (ck) : (rpc0))
#define TC16G_RKP(rpc, khw) TC16G_RUP((rpc) * (khw), 8)
#endif
