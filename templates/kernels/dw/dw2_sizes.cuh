// dw2_sizes.cuh: the derived sizes of conv2dc_dw, one set of expressions for
// the kernel (dw.conv2dc.cu.in: compile-time constants from the layer's and
// the candidate's macros) and for its C model (dw_conv.c: the same from a
// ct_tc_shape and the candidate's values, which includes this file too).
// Integer macros only, read alike by C and CUDA.
#ifndef DW2_SIZES_CUH
#define DW2_SIZES_CUH
#define DW2_CDIV(a, b) (((a) + (b) - 1) / (b))
#define DW2_RUP(a, b) (DW2_CDIV(a, b) * (b))
// A block's tile of n outputs: the one asked for (0, or n and more: all of
// them), split into equal tiles, rounded up to whole threads of per outputs.
#define DW2_TILE(n, req, per) DW2_RUP(DW2_CDIV(n, DW2_CDIV(n, (req) == 0 || (req) >= (n) ? (n) : (req))), per)
// Threads of a tile of toh x tow outputs, oy x ox each: whole warps.
#define DW2_ITEMS(toh, tow, oy, ox) (((toh) / (oy)) * ((tow) / (ox)))
#define DW2_THREADS(items) DW2_RUP(items, 32)
// The window of ox outputs of one input row (stride sx, kw taps dilated by
// dx) and the width of its shared-memory loads.
#define DW2_NWX(ox, sx, kw, dx) (((ox) - 1) * (sx) + ((kw) - 1) * (dx) + 1)
#define DW2_LV(ox, sx) (((ox) * (sx)) % 4 == 0 ? 4 : ((ox) * (sx)) % 2 == 0 ? 2 : 1)
// The staged tile: rows, and a pitch that a 16-byte aligned last window fits.
#define DW2_SIH(toh, sy, kh, dy) (((toh) - 1) * (sy) + ((kh) - 1) * (dy) + 1)
#define DW2_PITCH(tow, ox, sx, nwl) DW2_RUP(((tow) - (ox)) * (sx) + (nwl), 4)
// A filter row padded to whole 16-byte loads.
#define DW2_KWP(kw) DW2_RUP(kw, 4)
#endif
