// dw16bwd_sizes.cuh: the derived sizes of the kind wgdw16cl, one set of
// expressions for the kernel (ct_dw16_wgrad.cuh: its WT_* macros,
// compile-time constants from the layer's LY_* and the candidate's macros)
// and for its C model (dw16bwd_conv.c: the same from a ct_tc_shape and the
// candidate's values, which includes this file too). Integer macros only,
// read alike by C and CUDA.
#ifndef DW16BWD_SIZES_CUH
#define DW16BWD_SIZES_CUH
#define DW16B_CDIV(a, b) (((a) + (b) - 1) / (b))
// A block: cb channels (a channel group, grid y), cb / warps a warp, one or
// two n8 tiles along KH.
#define DW16B_NCG(c, cb) DW16B_CDIV(c, cb)
#define DW16B_CPW(cb, warps) ((cb) / (warps))
#define DW16B_NT(kh) ((kh) > 8 ? 2 : 1)
#define DW16B_NTHR(warps) ((warps) * 32)
// A dy row padded to slices of 16, its slices; x column 0's index in a row
// and the words of an x row copy.
#define DW16B_OWP(ow) (((ow) + 15) / 16 * 16)
#define DW16B_NS(owp) ((owp) / 16)
#define DW16B_OFFX(pw) ((pw) + ((pw) & 1))
#define DW16B_XWN(owp, dx, pw, offx) (((owp) + 15 * (dx) - (pw) + (offx)) / 2 + 1)
// The dy rows of a tile of rows x rows: from dlo (the top taps' reach
// above the tile, if any), ndr of them, dwn words each; a dy row's stride:
// 8 rows x 4 words on 32 banks; wide: 8 rows x 8 words (2 x 4 rows) on
// 2 x 32 banks.
#define DW16B_DLO(ph, kh, dy) ((ph) - ((kh) - 1) * (dy) < 0 ? (ph) - ((kh) - 1) * (dy) : 0)
#define DW16B_NDR(rows, ph, dlo) ((rows) + (ph) - (dlo))
#define DW16B_DWN(owp) ((owp) / 2)
#define DW16B_DWS(wide, dwn) ((wide) ? (dwn) + (40 - (dwn) % 32) % 32 : (dwn) + 4)
// Row tiles (covering the larger of h and oh), items (batch image x row
// tile), splits of `items` items (grid x) and the workspace floats of a
// split (the taps' and the bias's sums of every channel).
#define DW16B_ROWT(h, oh) ((h) > (oh) ? (h) : (oh))
#define DW16B_NTILE(rowt, rows) DW16B_CDIV(rowt, rows)
#define DW16B_NITEMS(b, ntile) ((long long)(b) * (ntile))
#define DW16B_NSPLIT(nitems, items) DW16B_CDIV(nitems, items)
#define DW16B_COUNT(taps, bias, c) ((long long)((taps) + ((bias) ? 1 : 0)) * (c))
// Staging: loads across a block's channels, the x and dy tasks of an item
// and a thread's share of each.
#define DW16B_NQ(cb, vec) ((cb) / (vec))
#define DW16B_XT(nq, xwn, rows) ((nq) * (xwn) * (rows))
#define DW16B_DT(nq, dwn, ndr) ((nq) * (dwn) * (ndr))
#define DW16B_TI(tasks, nthr) DW16B_CDIV(tasks, nthr)
// The stride of an x row copy is the first w from xwn on (of 32) for which
// this holds: the words a warp's A loads touch in copy 0 and in copy 1
// (span words of each) on different banks; wide: a pair of rows' words
// interleaved, the span twice as many words, 2 w apart.
#define DW16B_SPAN(dx) ((6 + 7 * (dx)) / 2 + 1)
#define DW16B_XW_OK(w, wide, span)                                      \
    ((wide) ? 2 * (w) % 32 >= 2 * (span) && 2 * (w) % 32 <= 32 - 2 * (span) \
            : (w) % 32 >= (span) && (w) % 32 <= 32 - (span))
// Words of a channel: the x rows' two copies, the dy rows, padded so that
// a staging store's lanes fall on different banks (nq loads along the
// channels x 32 / nq words, vec channels apart: vec 8 with nq 2 wants
// 2 mod 4 words, otherwise odd ones; wide: 2 mod 4 always, its 8-byte
// fragment loads want an even channel base); a block's tiles.
#define DW16B_CS0(rows, xw, ndr, dws) ((rows) * 2 * (xw) + (ndr) * (dws))
#define DW16B_CS(wide, nq, vec, cs0) ((wide) || ((nq) == 2 && (vec) == 8) ? (cs0) + (6 - (cs0) % 4) % 4 : (cs0) | 1)
#define DW16B_TILE_WORDS(cb, cs) ((cb) * (cs))
// async: after the tiles (16-byte aligned) the raw rows as they lie in
// memory (cb channels a pixel), each row's even pixels, then its odd ones;
// the shared memory's words.
#define DW16B_RAW0(tile_words) (((tile_words) + 3) / 4 * 4)
#define DW16B_RW(n) (((n) + 1) / 2)                   // pixels of a parity of a row of n
#define DW16B_RAWX(rows, rwx, cb) ((rows) * 2 * (rwx) * (cb))
#define DW16B_RAWD(ndr, rwd, cb) ((ndr) * 2 * (rwd) * (cb))
#define DW16B_SMEM_WORDS(async, raw0, rawx, rawd, tile_words) ((async) ? (raw0) + ((rawx) + (rawd)) / 2 : (tile_words))
#endif
