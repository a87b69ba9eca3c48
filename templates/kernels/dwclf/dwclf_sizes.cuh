// dwclf_sizes.cuh: the derived sizes of the kind dwtcl, one set of
// expressions for the kernel (ct_dwcl_fwd.cuh: compile-time constants from
// the layer's LY_* and the candidate's macros) and for its C model
// (dwclf_conv.c: the same from a ct_tc_shape and the candidate's values,
// which includes this file too). Integer macros only, read alike by C and
// CUDA.
#ifndef DWCLF_SIZES_CUH
#define DWCLF_SIZES_CUH
#define DWCLF_CDIV(a, b) (((a) + (b) - 1) / (b))
// Channel vectors of a pixel (c channels, vec a vector), the slices of ct
// of them (the grid's fastest index) and the channels of a slice.
#define DWCLF_NCV(c, vec) ((c) / (vec))
#define DWCLF_NCB(ncv, ct) DWCLF_CDIV(ncv, ct)
#define DWCLF_CW(ct, vec) ((ct) * (vec))
// Output tiles of oy rows x ox columns: along a row, row groups of an
// image, all of them (b images), and groups of pt tiles (a block's, in turn).
#define DWCLF_NXR(ow, ox) DWCLF_CDIV(ow, ox)
#define DWCLF_NRG(oh, oy) DWCLF_CDIV(oh, oy)
#define DWCLF_TILES(b, nrg, nxr) ((long long)(b) * (nrg) * (nxr))
#define DWCLF_NGRP(tiles, pt) DWCLF_CDIV(tiles, pt)
// A tile's window: the entries of an input row its ox outputs read (stride
// sx, kw taps dilated by dx), and its input rows.
#define DWCLF_NWX(ox, sx, kw, dx) (((ox) - 1) * (sx) + ((kw) - 1) * (dx) + 1)
#define DWCLF_NWY(oy, sy, kh, dy) (((oy) - 1) * (sy) + ((kh) - 1) * (dy) + 1)
// A block: ct x pt threads, items groups of tiles in turn; the grid.
#define DWCLF_THREADS(ct, pt) ((ct) * (pt))
#define DWCLF_BLOCKS(ncb, ngrp, items) ((ncb) * DWCLF_CDIV(ngrp, items))
// Shared memory: the slice's taps (kh x kw of them), staged as fp32.
#define DWCLF_TAPS(kh, kw) ((kh) * (kw))
#define DWCLF_SMEM(taps, cw) (4 * (taps) * (cw))
#endif
