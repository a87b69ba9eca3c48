// tiled_sizes.cuh: the derived sizes of the kind tiled, one set of
// expressions for the kernels (tiled.conv2dc.cu.in, tiled.conv1dc.cu.in:
// compile-time constants from the layer's CONV_* and the candidate's
// macros) and for their C models (tiled_conv2dc.c, tiled_conv1dc.c: the same
// from a ct_tc_shape and the candidate's values, which include this file
// too). Integer macros only, read alike by C and CUDA.
#ifndef TILED_SIZES_CUH
#define TILED_SIZES_CUH
#define TILED_CDIV(a, b) (((a) + (b) - 1) / (b))
#define TILED_RUP(a, b) (TILED_CDIV(a, b) * (b))
#define TILED_MAX(a, b) ((a) > (b) ? (a) : (b))
// What a parameter of 0 or of n and more means: all n.
#define TILED_REQ(n, req) ((req) == 0 || (req) >= (n) ? (n) : (req))

// ---- conv2dc_tiled (TILED2_*).
// A block tile of n outputs: the one asked for split into equal tiles,
// rounded up to whole pixel groups of per; the tiles of an image (tx of
// them along a row).
#define TILED2_TILE(n, req, per) TILED_RUP(TILED_CDIV(n, TILED_CDIV(n, TILED_REQ(n, req))), per)
#define TILED2_TILES(oh, toh, tx) (TILED_CDIV(oh, toh) * (tx))
// Output channel groups of about cpt channels (0: all) and the channels of
// a group.
#define TILED2_NCG(cout, cpt) TILED_CDIV(cout, TILED_REQ(cout, cpt))
#define TILED2_CPT(cout, ncg) TILED_CDIV(cout, ncg)
// Pixel groups of a work item (ipb images of yg x xg groups), channels of
// a chunk and the chunks, the work units handed to threads (chunked: a
// pixel group x channel group each), the threads (block, or whole warps of
// units up to 1024), the work items, the shared buffers.
#define TILED2_ITEMS(ipb, yg, xg) ((ipb) * (yg) * (xg))
#define TILED2_NCH(cin, cc) TILED_CDIV(cin, cc)
#define TILED2_UNITS(nch, items, ncg) ((nch) > 1 ? (items) * (ncg) : (items))
#define TILED2_AUTO_NT(units) (TILED_RUP(units, 32) < 1024 ? TILED_RUP(units, 32) : 1024)
#define TILED2_NT(block, units) ((block) ? (block) : TILED2_AUTO_NT(units))
#define TILED2_WORK(b, ipb, tiles) (TILED_CDIV(b, ipb) * (tiles))
#define TILED2_NBUF(pipe) ((pipe) ? 2 : 1)
// A thread's window of a row (ox outputs, kw taps), read lv floats at a
// time (image: rows as they lie, w wide), rounded up to whole loads; the
// staged rows of a tile.
#define TILED2_LV(ox, w, image)                                                                              \
    ((ox) % 4 == 0 && (!(image) || (w) % 4 == 0) ? 4 : (ox) % 2 == 0 && (!(image) || (w) % 2 == 0) ? 2 : 1)
#define TILED2_NWIN(ox, kw) ((ox) + (kw) - 1)
#define TILED2_NL(nwin, lv) TILED_RUP(nwin, lv)
#define TILED2_SH(toh, kh) ((toh) + (kh) - 1)
// STAGE image: the last float a thread reads (rows pitch apart), and the
// floats of a buffer (ipb x cc planes of chp, the last read inside it).
#define TILED2_LAST_READ(sh, pitch, tow, ox, nl) (((sh) - 1) * (pitch) + (tow) - (ox) + (nl))
#define TILED2_S_IN_IMAGE(ipb, cc, chp, last) TILED_RUP(((ipb) * (cc) - 1) * (chp) + TILED_MAX(last, chp), 4)
// STAGE tile: the pitch a window fits, padded (ROW_PAD) so that a warp's
// rows fall in consecutive banks; the floats of a buffer.
#define TILED2_PITCH0(tow, ox, nl, lv) TILED_RUP((tow) - (ox) + (nl), lv)
#define TILED2_PITCH(pad, p0, tow) ((pad) ? (p0) + (((tow) - (p0)) % 32 + 32) % 32 : (p0))
#define TILED2_S_IN_TILE(ipb, cc, sh, pitch) ((ipb) * ((cc) * ((sh) * (pitch))))
// Shared weights: [ci][i][j][co] of the taps, co padded to whole vectors.
#define TILED2_COUTP(ncg, cpt) TILED_RUP((ncg) * (cpt), 4)
#define TILED2_TAPS(cin, kh, kw) ((cin) * (kh) * (kw))

// ---- conv1dc_tiled (TILED1_*).
// A block of block threads in groups of block / cpb (one output channel a
// group); the output tiles of lout positions, the batch tiles of bpb
// images, the whole channel steps of cpt (a weight row of cin), the sums
// of a thread; the grid (cout / cpb channel blocks of them).
#define TILED1_GROUP(block, cpb) ((block) / (cpb))
#define TILED1_NT(lout, tile) TILED_CDIV(lout, tile)
#define TILED1_NBT(b, bpb) TILED_CDIV(b, bpb)
#define TILED1_NCB(cin, cpt) ((cin) / (cpt))
#define TILED1_NACC(bpb, tile) ((bpb) * (tile))
#define TILED1_BLOCKS(cout, cpb, nbt, nt) (TILED_CDIV(cout, cpb) * (nbt) * (nt))
// The input a thread keeps of a channel: one tile covering the whole
// output loads only the l real inputs of a row, else the tile's window.
#define TILED1_XFULL(nt) ((nt) == 1)
#define TILED1_TW(tile, k) ((tile) + (k) - 1)
// Floats of the reduction's static shared memory: REDUCTION 1 a tree over
// the block (s_red[NACC][BLOCK_SIZE]), 2 atomics into a row a channel
// (s_sum[COUT_PER_BLOCK][NACC]), 0 a row a warp past one warp a group
// (s_red[BLOCK_SIZE / 32][NACC]).
#define TILED1_SMEM_FLOATS(red, nacc, block, cpb, group)                                                     \
    ((red) == 1 ? (nacc) * (block) : (red) == 2 ? (nacc) * (cpb) : (group) > 32 ? (nacc) * ((block) / 32) : 0)
#endif
