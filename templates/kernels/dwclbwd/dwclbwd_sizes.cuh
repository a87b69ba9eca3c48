// dwclbwd_sizes.cuh: the derived sizes of the kinds dgdwcl and wgdwcl, one
// set of expressions for the kernels (ct_dwcl_bwd.cuh: compile-time
// constants from the layer's LY_* and the candidate's macros) and for
// their C model (dwclbwd_conv.c: the same from a ct_tc_shape and the
// candidate's values, which includes this file too). Integer macros only,
// read alike by C and CUDA.
#ifndef DWCLBWD_SIZES_CUH
#define DWCLBWD_SIZES_CUH
#define DWCLB_CDIV(a, b) (((a) + (b) - 1) / (b))
// Floor division, for window offsets that may be negative.
#define DWCLB_FDIV(a, b) ((a) >= 0 ? (a) / (b) : -((-(a) + (b) - 1) / (b)))

// Both passes: channel vectors of a pixel (c channels, vec a vector), the
// slices of ct of them and the channels of a slice; the filter's taps.
#define DWCLB_NCV(c, vec) ((c) / (vec))
#define DWCLB_NCB(ncv, ct) DWCLB_CDIV(ncv, ct)
#define DWCLB_CW(ct, vec) ((ct) * (vec))
#define DWCLB_TAPS(kh, kw) ((kh) * (kw))

// dgrad: runs of p positions along a row of dx (w wide), all of them (b
// images of h rows), blocks of ct x pt threads (a run each; the channel
// slices the grid's fastest index) and the grid; the slice's taps staged
// as fp32 (floats). A run's window of dy: the column of its entry 0 past
// xx0 / SX, and its entries.
#define DWCLB_DG_NRUN(w, p) DWCLB_CDIV(w, p)
#define DWCLB_DG_RUNS(b, h, nrun) ((long long)(b) * (h) * (nrun))
#define DWCLB_DG_THREADS(ct, pt) ((ct) * (pt))
#define DWCLB_DG_BLOCKS(ncb, runs, pt) ((ncb) * DWCLB_CDIV(runs, pt))
#define DWCLB_DG_STAGE(taps, cw) ((taps) * (cw))
#define DWCLB_DG_WLO(pw, kw, dx, sx) DWCLB_FDIV((pw) - ((kw) - 1) * (dx), sx)
#define DWCLB_DG_NWIN(p, pw, sx, wlo) (DWCLB_FDIV((p) - 1 + (pw), sx) - (wlo) + 1)

// wgrad: runs of p positions along a row of dy (ow wide), items of ry dy
// rows of a run, along the dy rows and in all (b images); a worker's items
// (itm counts dy row runs), a split's (nwk workers) and the splits (grid
// x); a run's x window; the workspace rows of a split (taps, bias) and its
// floats (c channels); filter row groups of r rows (block y), the block's
// threads (ct x groups x nwk) and its floats of partial sums.
#define DWCLB_WG_NRUN(ow, p) DWCLB_CDIV(ow, p)
#define DWCLB_WG_NTY(oh, ry) DWCLB_CDIV(oh, ry)
#define DWCLB_WG_ITEMS(b, nty, nrun) ((long long)(b) * (nty) * (nrun))
#define DWCLB_WG_IT(itm, ry) ((itm) / (ry))
#define DWCLB_WG_PER_SPLIT(nwk, it) ((long long)(nwk) * (it))
#define DWCLB_WG_NSPLIT(items, per) DWCLB_CDIV(items, per)
#define DWCLB_WG_NWX(p, sx, kw, dx) (((p) - 1) * (sx) + ((kw) - 1) * (dx) + 1)
#define DWCLB_WG_ROWS(taps, bias) ((taps) + ((bias) ? 1 : 0))
#define DWCLB_WG_COUNT(rows, c) ((long long)(rows) * (c))
#define DWCLB_WG_NRG(kh, r) DWCLB_CDIV(kh, r)
#define DWCLB_WG_THREADS(ct, nrg, nwk) ((ct) * (nrg) * (nwk))
#define DWCLB_WG_RED(nwk, nrg, ct, vec) ((nwk) * (nrg) * (ct) * (vec))
// wgrad's 2D blocking (ry > 1): the x entries one position's taps span,
// the positions of an unrolled period, the slots of an x row's window, the
// x row offsets of an item.
#define DWCLB_W2_SPAN(kw, dx) (((kw) - 1) * (dx) + 1)
#define DWCLB_W2_PER(span, sx) DWCLB_CDIV(span, sx)
#define DWCLB_W2_NB(per, sx) ((per) * (sx))
#define DWCLB_W2_NU(ry, sy, r, dy) (((ry) - 1) * (sy) + ((r) - 1) * (dy) + 1)
#endif
