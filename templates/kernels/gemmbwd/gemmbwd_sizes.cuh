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
#define GBS_FDIV(a, b) ((a) >= 0 ? (a) / (b) : -((-(a) + (b) - 1) / (b)))   // floor, b > 0
#define GBS_MIN(a, b) ((a) < (b) ? (a) : (b))
// What a parameter of 0 or of n and more means: all n.
#define GBS_REQ(n, req) ((req) == 0 || (req) >= (n) ? (n) : (req))
// A block tile of n: the one asked for split into equal tiles, rounded up
// to whole pixel groups of per.
#define GBS_TILE(n, req, per) GBS_RUP(GBS_CDIV(n, GBS_CDIV(n, GBS_REQ(n, req))), per)
// Blocks an SM the launch bounds ask for: two and 16 warps at least.
#define GBS_MINB(nt) ((nt) >= 256 ? 2 : 512 / (nt))
// Elements of a vector load of a run whose starts are step apart.
#define GBS_LV(step) ((step) % 4 == 0 ? 4 : (step) % 2 == 0 ? 2 : 1)

// ---- dgsimt (DG_*): input channel groups of a group's cing channels
// (about cpt each), their channels, the groups staged per block (nsl
// slices of threads), the channel blocks; the tile's pixel groups along a
// row and in all, the threads (whole warps); the staged dy tile of a tile
// at (y0, x0) (multiples of sy, sx): rows from y0/sy + cyf, columns from
// x0/sx + cxf (cyf x sy the largest multiple of sy at or below ph - (kh-1)
// x dy), its rows, a window's step and width, the pitch; the stage: dy
// tiles of cc channels, weights [co][tap][ci of the block] padded to whole
// vectors, in floats.
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
#define GBS_DG_PITCH(xg, step, nwl) GBS_RUP(((xg) - 1) * (step) + (nwl), 4)
#define GBS_DG_S_DY(gpb, cc, chp) ((gpb) * (cc) * (chp))
#define GBS_DG_WP(nsl, cpt) GBS_RUP((nsl) * (cpt), 4)
#define GBS_DG_S_W(cc, khw, wp) ((cc) * (khw) * (wp))

// ---- wgsimt (WG_*): the block's channel slices of mr channels and its
// channels (mb), the owners of a block (a weight row each), the threads
// (rs reduction slices of owners, whole warps); a chunk's segments of ox;
// the staged dy (rows padded to whole vectors) and x tiles: a window's
// width, the rows; the x rows and channels padded so that a warp's window
// loads fall in distinct banks (a row pitch of an odd number of lv-vectors,
// a channel pitch congruent mod 32 to kh x dy rows); a thread's results
// (taps, bias); a stage (dy, then x), in floats.
#define GBS_WG_NMS(mbreq, mr) GBS_CDIV(mbreq, mr)
#define GBS_WG_MB(nms, mr) ((nms) * (mr))
#define GBS_WG_OWN(gpb, nms, nb, kh) ((gpb) * (nms) * (nb) * (kh))
#define GBS_WG_NT(own, rs) GBS_RUP((own) * (rs), 32)
#define GBS_WG_NCHK(b, nty, ntx) ((long long)(b) * (nty) * (ntx))
#define GBS_WG_SEGX(tow, ox) ((tow) / (ox))
#define GBS_WG_NSEG(toh, segx) ((toh) * (segx))
#define GBS_WG_TOWP(tow) GBS_RUP(tow, 4)
#define GBS_WG_S_DY(gpb, mb, dychp) ((gpb) * (mb) * (dychp))
#define GBS_WG_NWX(ox, sx, kw, dx) (((ox) - 1) * (sx) + ((kw) - 1) * (dx) + 1)
#define GBS_WG_SIH(toh, sy, kh, dy) (((toh) - 1) * (sy) + ((kh) - 1) * (dy) + 1)
#define GBS_WG_SIWL(tow, ox, sx, nwl) (((tow) - (ox)) * (sx) + (nwl))
#define GBS_WG_SIWP(siwl, lv) ((siwl) / (lv) % 2 ? (siwl) : (siwl) + (lv))
#define GBS_WG_XCHP(sih, siwp, kh, dy) ((sih) * (siwp) + (((kh) * (dy) - (sih)) * (siwp) % 32 + 32) % 32)
#define GBS_WG_S_X(gpb, nb, xchp) ((gpb) * (nb) * (xchp))
#define GBS_WG_E(mr, kw, bias) ((mr) * (kw) + ((bias) ? (mr) : 0))
#define GBS_WG_S_ST(s_dy, s_x) GBS_RUP((s_dy) + (s_x), 4)
#endif
