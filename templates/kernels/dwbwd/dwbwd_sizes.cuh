// dwbwd_sizes.cuh: the derived sizes of the kinds dgdw and wgdw, one set of
// expressions for the kernels (ct_dwbwd.cuh: compile-time constants from
// the layer's LY_* and the candidate's macros) and for their C model
// (dwbwd_conv.c: the same from a ct_tc_shape and the candidate's values,
// which includes this file too). Integer macros only, read alike by C and
// CUDA.
#ifndef DWBWD_SIZES_CUH
#define DWBWD_SIZES_CUH
#define DWBWD_CDIV(a, b) (((a) + (b) - 1) / (b))
#define DWBWD_RUP(a, b) (DWBWD_CDIV(a, b) * (b))
#define DWBWD_FDIV(a, b) ((a) >= 0 ? (a) / (b) : -((-(a) + (b) - 1) / (b)))   // floor
#define DWBWD_PMOD(a, b) ((a) - DWBWD_FDIV(a, b) * (b))                        // in [0, b)
#define DWBWD_MAX(a, b) ((a) > (b) ? (a) : (b))
// A tile of n: the one asked for (0, or n and more: all of it), split into
// equal tiles, rounded up to whole threads of per.
#define DWBWD_REQ(n, req) ((req) == 0 || (req) >= (n) ? (n) : (req))
#define DWBWD_TILE(n, req, per) DWBWD_RUP(DWBWD_CDIV(n, DWBWD_CDIV(n, DWBWD_REQ(n, req))), per)
// Blocks per SM the registers must allow: 16 warps at least (128 registers
// a thread), so that small blocks do not leave an SM a few warps.
#define DWBWD_MINB(nt) ((nt) <= 256 ? 512 / (nt) : 1)

// dgdw, STREAM 1 (DS_*): items of 4 outputs of a row of w; threads of a
// block (req outputs asked for, ox items a thread, whole warps), its items
// and the blocks of a row; whether the vector path holds (stride 1, whole
// vectors); its window's first vector, from the item's, and its vectors.
#define DWBWD_DS_NI(w) DWBWD_CDIV(w, 4)
#define DWBWD_DS_NT(req, ox) DWBWD_RUP(DWBWD_CDIV(DWBWD_CDIV(req, 4), ox), 32)
#define DWBWD_DS_BI(nt, ox) ((nt) * (ox))
#define DWBWD_DS_NTX(ni, bi) DWBWD_CDIV(ni, bi)
#define DWBWD_DS_V(sx, w, ow) ((sx) == 1 && (w) % 4 == 0 && (ow) % 4 == 0)
#define DWBWD_DS_V0(pw, kw, dx) DWBWD_FDIV((pw) - ((kw) - 1) * (dx), 4)
#define DWBWD_DS_NV(pw, v0) (DWBWD_FDIV(3 + (pw), 4) - (v0) + 1)

// dgdw, staged (DG_*): the stride phase classes, the rows (columns) of the
// largest one (n of them at stride s), the window's reach before and past
// an output (padding p, tk taps dilated by td), the tile (DWBWD_TILE), a
// row of threads, the threads' items and the block (whole warps); the
// staged columns before the first read (16-byte staging), the window's
// loads, its width and rows, the staged rows; the pitch, padded by up to
// 28 floats so that the threads' rows, oy x pitch apart, start tow floats
// apart modulo 32 banks (the windows of the lanes of a warp that span
// several rows then fall in distinct banks); the taps' padded rows; the
// bytes of shared memory (tile and taps) and the grid.
#define DWBWD_DG_NPH(sy, sx) ((sy) * (sx))
#define DWBWD_DG_M(n, s) DWBWD_CDIV(n, s)
#define DWBWD_DG_RMIN(p, tk, td, s) DWBWD_FDIV((p) - ((tk) - 1) * (td), s)
#define DWBWD_DG_RMAX(s, p) DWBWD_FDIV((s) - 1 + (p), s)
#define DWBWD_DG_TX(tow, ox) ((tow) / (ox))
#define DWBWD_DG_NITEMS(toh, oy, tx) (((toh) / (oy)) * (tx))
#define DWBWD_DG_NT(nitems) DWBWD_RUP(nitems, 32)
#define DWBWD_DG_LEAD(vec, rxmin) ((vec) == 4 ? DWBWD_PMOD(rxmin, 4) : 0)
#define DWBWD_DG_LV(lead, ox) ((lead) % 4 == 0 && (ox) % 4 == 0 ? 4 : (lead) % 2 == 0 && (ox) % 2 == 0 ? 2 : 1)
#define DWBWD_DG_NWX(ox, rxmax, rxmin) ((ox) + (rxmax) - (rxmin))
#define DWBWD_DG_NR(oy, rymax, rymin) ((oy) + (rymax) - (rymin))
#define DWBWD_DG_SIH(toh, rymax, rymin) ((toh) + (rymax) - (rymin))
#define DWBWD_DG_PITCH0(lead, tow, ox, nwl) DWBWD_RUP((lead) + (tow) - (ox) + (nwl), 4)
#define DWBWD_DG_PK(p0, k, oy, tow) (((oy) * ((p0) + 4 * (k)) - (tow)) % 32 == 0)
#define DWBWD_DG_PITCH(p0, oy, tow)                                                                          \
    ((p0) + 4 * (DWBWD_DG_PK(p0, 0, oy, tow)   ? 0                                                          \
                 : DWBWD_DG_PK(p0, 1, oy, tow) ? 1                                                          \
                 : DWBWD_DG_PK(p0, 2, oy, tow) ? 2                                                          \
                 : DWBWD_DG_PK(p0, 3, oy, tow) ? 3                                                          \
                 : DWBWD_DG_PK(p0, 4, oy, tow) ? 4                                                          \
                 : DWBWD_DG_PK(p0, 5, oy, tow) ? 5                                                          \
                 : DWBWD_DG_PK(p0, 6, oy, tow) ? 6                                                          \
                 : DWBWD_DG_PK(p0, 7, oy, tow) ? 7                                                          \
                                               : 0))
#define DWBWD_DG_KWP(tkw) DWBWD_RUP(tkw, 4)
#define DWBWD_DG_SMEM(sih, pitch, tkh, kwp) (4 * ((sih) * (pitch) + (tkh) * (kwp)))
#define DWBWD_DG_BLOCKS(b, c, nph, nty, ntx) ((b) * (c) * (nph) * (nty) * (ntx))

// wgdw (WG_*): tap tiles of ty x tx taps (nti x ntj of them, the threads
// of a group) and the padded filter; segments of px positions of a dy row
// and the padded row; a unit's dy rows (DWBWD_TILE without rounding), the
// units of a channel; a group's segments; the threads (groups of them,
// whole warps); the staged x columns before column -pw (16-byte staging),
// the window's loads (steps a = px x sx, b = tx x dx), width, loads and
// rows, the staged x and dy pitches; the results of a channel (taps,
// bias) and the groups' partial sums; the floats of shared memory, staged
// or (STREAM) not, a flag for SPLIT included.
#define DWBWD_WG_NT_OF(k, t) DWBWD_CDIV(k, t)
#define DWBWD_WG_TT(nti, ntj) ((nti) * (ntj))
#define DWBWD_WG_NCH(ow, px) DWBWD_CDIV(ow, px)
#define DWBWD_WG_BR(oh, req) DWBWD_CDIV(oh, DWBWD_CDIV(oh, DWBWD_REQ(oh, req)))
#define DWBWD_WG_NU(b, nb) ((b) * (nb))
#define DWBWD_WG_SEGS(br, nch) ((br) * (nch))
#define DWBWD_WG_NTH(tt, groups) ((tt) * (groups))
#define DWBWD_WG_NT(nth) DWBWD_RUP(nth, 32)
#define DWBWD_WG_LEAD(vec, pw) ((vec) == 4 ? DWBWD_PMOD(-(pw), 4) : 0)
#define DWBWD_WG_LV(lead, a, b)                                                                              \
    ((lead) % 4 == 0 && (a) % 4 == 0 && (b) % 4 == 0 ? 4 : (lead) % 2 == 0 && (a) % 2 == 0 && (b) % 2 == 0 ? 2 : 1)
#define DWBWD_WG_NWX(px, sx, tx, dx) (((px) - 1) * (sx) + ((tx) - 1) * (dx) + 1)
#define DWBWD_WG_SIH(br, sy, khp, dy) (((br) - 1) * (sy) + ((khp) - 1) * (dy) + 1)
#define DWBWD_WG_PITCH(lead, nch, a, ntj, b, nwl) DWBWD_RUP((lead) + ((nch) - 1) * (a) + ((ntj) - 1) * (b) + (nwl), 4)
#define DWBWD_WG_NTAPS(kh, kw, bias) ((kh) * (kw) + ((bias) ? 1 : 0))
#define DWBWD_WG_S_RED(groups, ntaps) ((groups) * (ntaps))
#define DWBWD_WG_SMEM_STAGED(s_x, s_dy, s_red, ntaps) DWBWD_MAX(DWBWD_MAX((s_x) + (s_dy), s_red), (ntaps) + 1)
#define DWBWD_WG_SMEM_STREAM(s_red, ntaps) DWBWD_MAX(s_red, (ntaps) + 1)
// wgdw, STREAM 1 (WS_*): items of 4 dy positions, the vector path, the x
// window's first vector and its vectors.
#define DWBWD_WS_NI(ow) DWBWD_CDIV(ow, 4)
#define DWBWD_WS_X0(pw) DWBWD_FDIV(-(pw), 4)
#define DWBWD_WS_NV(kw, dx, pw, x0) (DWBWD_FDIV(3 + ((kw) - 1) * (dx) - (pw), 4) - (x0) + 1)
#endif
