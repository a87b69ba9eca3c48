// simt_sizes.cuh: the derived sizes of the kinds simt and simth, one set of
// expressions for the kernel (ct_conv_simt.cuh: compile-time constants from
// the layer's SM_* and the candidate's macros) and for its C model
// (simt_conv.c: the same from a ct_tc_shape and the candidate's values,
// which includes this file too). Integer macros only, read alike by C and
// CUDA.
#ifndef SIMT_SIZES_CUH
#define SIMT_SIZES_CUH
#define SIMT_CDIV(a, b) (((a) + (b) - 1) / (b))
#define SIMT_RUP(a, b) (SIMT_CDIV(a, b) * (b))
// What a parameter of 0 or of n and more means: all n.
#define SIMT_REQ(n, req) ((req) == 0 || (req) >= (n) ? (n) : (req))
// Output channel groups of a group's coutg channels (about cpt each, at
// most coutg), their channels; the groups staged per block (nsl slices of
// threads) and the channel blocks of the layer's groups.
#define SIMT_CPT_REQ(cpt, coutg) ((cpt) < (coutg) ? (cpt) : (coutg))
#define SIMT_NCG(coutg, req) SIMT_CDIV(coutg, req)
#define SIMT_CPT(coutg, ncg) SIMT_CDIV(coutg, ncg)
#define SIMT_GPB(nsl, ncg) ((nsl) >= (ncg) ? (nsl) / (ncg) : 1)
#define SIMT_NCB(groups, ncg, nsl) SIMT_CDIV((groups) * (ncg), nsl)
// A block tile of n outputs: the one asked for split into equal tiles,
// rounded up to whole pixel groups of per; pixel groups along a tile row
// and of a tile, the threads (whole warps) and the blocks an SM the launch
// bounds ask for.
#define SIMT_TILE(n, req, per) SIMT_RUP(SIMT_CDIV(n, SIMT_CDIV(n, SIMT_REQ(n, req))), per)
#define SIMT_XG(tow, ox) ((tow) / (ox))
#define SIMT_PIX(toh, oy, xg) (((toh) / (oy)) * (xg))
#define SIMT_NT(pix, nsl) SIMT_RUP((pix) * (nsl), 32)
#define SIMT_MINB(nt) ((nt) >= 256 ? 2 : 512 / (nt))
// Chunks of cc input channels, the shared buffers.
#define SIMT_NCH(cing, cc) SIMT_CDIV(cing, cc)
#define SIMT_NBUF(pipe) ((pipe) ? 2 : 1)
// A thread's window of a row (ox outputs at stride sx, kw taps dilated by
// dx), read lv floats at a time; the staged tile's rows and pitch, a
// channel's tile (channels last: padded to 4 mod 32 floats).
#define SIMT_STEP(ox, sx) ((ox) * (sx))
#define SIMT_NWX(ox, sx, kw, dx) (((ox) - 1) * (sx) + ((kw) - 1) * (dx) + 1)
#define SIMT_LV(step) ((step) % 4 == 0 ? 4 : (step) % 2 == 0 ? 2 : 1)
#define SIMT_NWL(nwx, lv) SIMT_RUP(nwx, lv)
#define SIMT_SIH(toh, sy, kh, dy) (((toh) - 1) * (sy) + ((kh) - 1) * (dy) + 1)
#define SIMT_PITCH(xg, step, nwl) SIMT_RUP(((xg) - 1) * (step) + (nwl), 4)
#define SIMT_CHP(cl, sih, pitch) ((cl) ? SIMT_RUP((sih) * (pitch) - 4, 32) + 4 : (sih) * (pitch))
// A stage: the input tiles of gpb groups x cc channels, the weights
// [ci][tap][co] of the block's channels padded to whole vectors (wv at a
// time), in floats; bytes of shared memory; the grid.
#define SIMT_S_IN(gpb, cc, chp) ((gpb) * (cc) * (chp))
#define SIMT_WP(nsl, cpt) SIMT_RUP((nsl) * (cpt), 4)
#define SIMT_S_W(cc, khw, wp) ((cc) * (khw) * (wp))
#define SIMT_STAGE(s_in, s_w) ((s_in) + (s_w))
#define SIMT_WV(cpt) ((cpt) % 4 == 0 ? 4 : (cpt) % 2 == 0 ? 2 : 1)
#define SIMT_SMEM(nbuf, stage) (4 * (nbuf) * (stage))
#define SIMT_BLOCKS(b, nty, ntx, ncb) ((b) * (nty) * (ntx) * (ncb))
#endif
