// gemmbwd_sizes.cuh: the derived sizes of the kinds dgsimt and wgsimt, one
// set of expressions for the kernels (ct_gemmbwd.cuh: compile-time
// constants from the layer's LY_* and the candidate's macros) and for
// their C model (gemmbwd_conv.c: the same from a ct_tc_shape and the
// candidate's values, which includes this file too). Integer macros only,
// read alike by C and CUDA.
#ifndef GEMMBWD_SIZES_CUH
#define GEMMBWD_SIZES_CUH
#define GBS_CDIV(a, b) (((a) + (b) - 1) / (b))
#define GBS_RUP(a, b) (GBS_CDIV(a, b) * (b))
#define GBS_FDIV(a, b) ((a) >= 0 ? (a) / (b) : -((-(a) + (b) - 1) / (b)))   // floor
#define GBS_MIN(a, b) ((a) < (b) ? (a) : (b))
// What a parameter of 0 or of n and more means: all n.
#define GBS_REQ(n, req) ((req) == 0 || (req) >= (n) ? (n) : (req))
// A block tile of n: the one asked for split into equal tiles, rounded up
// to whole pixel groups of per.
#define GBS_TILE(n, req, per) GBS_RUP(GBS_CDIV(n, GBS_CDIV(n, GBS_REQ(n, req))), per)
// Blocks an SM the launch bounds ask for: two and 16 warps at least.
#define GBS_MINB(nt) ((nt) >= 256 ? 2 : 512 / (nt))

// ---- dgsimt (DG_*): input channel groups of a group's cing channels
// (about cpt each), their channels, the groups staged per block (nsl
// slices of threads), the channel blocks; the tile's pixel groups along a
// row and in all, the threads (whole warps); chunks of cc output channels;
// the staged dy tile of a tile at (y0, x0) (multiples of sy, sx): rows from
// y0/sy + cyf, columns from x0/sx + cxf (cyf x sy the largest multiple of
// sy at or below ph - (kh-1) x dy), its rows, a window's step, width and
// loads, the pitch; the stage: dy tiles, weights [co][tap][ci of the
// block] padded to whole vectors, in floats.
#define GBS_DG_NCG(cing, cpt) GBS_CDIV(cing, GBS_MIN(cpt, cing))
#define GBS_DG_CPT(cing, ncg) GBS_CDIV(cing, ncg)
#define GBS_DG_GPB(nsl, ncg) ((nsl) >= (ncg) ? (nsl) / (ncg) : 1)
#define GBS_DG_NCB(groups, ncg, nsl) GBS_CDIV((groups) * (ncg), nsl)
#define GBS_DG_XG(tw, ox) ((tw) / (ox))
#define GBS_DG_PIX(th, oy, xg) (((th) / (oy)) * (xg))
#define GBS_DG_NT(pix, nsl) GBS_RUP((pix) * (nsl), 32)
#define GBS_DG_CF(p, k, d, s) GBS_FDIV((p) - ((k) - 1) * (d), s)
#define GBS_DG_SIH(th, ph, sy, cyf) (GBS_FDIV((th) - 1 + (ph), sy) - (cyf) + 1)
#define GBS_DG_STEP(ox, sx) ((ox) / (sx))
#define GBS_DG_NWX(ox, pw, cxf, sx) (((ox) - 1 + (pw) - (cxf) * (sx)) / (sx) + 1)
#define GBS_LV(step) ((step) % 4 == 0 ? 4 : (step) % 2 == 0 ? 2 : 1)
#define GBS_DG_PITCH(xg, step, nwl) GBS_RUP(((xg) - 1) * (step) + (nwl), 4)
#define GBS_DG_S_DY(gpb, cc, chp) ((gpb) * (cc) * (chp))
#define GBS_DG_WP(nsl, cpt) GBS_RUP((nsl) * (cpt), 4)
#define GBS_DG_S_W(cc, khw, wp) ((cc) * (khw) * (wp))

// ---- wgsimt (WG_*): a thread's output channels (at most coutg), the
// block's channel slices and channels (mb), the channel blocks; the input
// channels of a block and their blocks; the group blocks (gpb groups
// each); the owners of a block (a weight row each), the threads (rs
// reduction slices of owners, whole warps); the dy tile (rows unrounded),
// its chunks (b images of tiles), a chunk's segments of ox; the staged dy
// (rows padded to whole vectors) and x tiles: a window's width and loads,
// the rows and pitch; a thread's results (taps, bias); the floats of
// shared memory, stages or the reduction's partial sums.
#define GBS_WG_NMS(mbreq, mr) GBS_CDIV(mbreq, mr)
#define GBS_WG_MB(nms, mr) ((nms) * (mr))
#define GBS_WG_OWN(gpb, nms, nb, kh) ((gpb) * (nms) * (nb) * (kh))
#define GBS_WG_NT(own, rs) GBS_RUP((own) * (rs), 32)
#define GBS_WG_NCHK(b, nty, ntx) ((long long)(b) * (nty) * (ntx))
#define GBS_WG_SEGX(tow, ox) ((tow) / (ox))
#define GBS_WG_NSEG(toh, segx) ((toh) * (segx))
#define GBS_WG_TOWP(tow) GBS_RUP(tow, 4)
#define GBS_WG_S_DY(gpb, mb, toh, towp) ((gpb) * (mb) * ((toh) * (towp)))
#define GBS_WG_NWX(ox, sx, kw, dx) (((ox) - 1) * (sx) + ((kw) - 1) * (dx) + 1)
#define GBS_WG_SIH(toh, sy, kh, dy) (((toh) - 1) * (sy) + ((kh) - 1) * (dy) + 1)
#define GBS_WG_SIWP(tow, ox, sx, nwl) GBS_RUP(((tow) - (ox)) * (sx) + (nwl), 4)
#define GBS_WG_S_X(gpb, nb, sih, siwp) ((gpb) * (nb) * ((sih) * (siwp)))
#define GBS_WG_E(mr, kw, bias) ((mr) * (kw) + ((bias) ? (mr) : 0))
#define GBS_WG_SMEM_FLOATS(s_dy, s_x, red) ((s_dy) + (s_x) > (red) ? (s_dy) + (s_x) : (red))
#endif
