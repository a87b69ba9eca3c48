/* dwbwd_conv.c - parameters, sizes, constraints and geometry of the kinds
 * dgdw and wgdw (dwbwd_conv.h; device code ct_dwbwd.cuh); the derived sizes
 * are dwbwd_sizes.cuh's, which ct_dwbwd.cuh's DS_*, DG_*, WG_* and WS_*
 * macros expand too. */
#include "dwbwd_conv.h"
#include "conv_pass.h"
#include "dwbwd_sizes.cuh"
#include "intmath.h"
#include "tc_shape.h"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

/* ---- parameters: each once, in list order; a 1D template lacks the rows'. */
#define DG_X(X) X(OUT_X, 4, CT_RANGE(1, 16), "pixels of a phase class's row per thread (one register window)")
#define DG_Y(X) X(OUT_Y, 1, CT_RANGE(1, 16), "rows of a phase class per thread")
#define DG_TH(X) X(TILE_OH, 0, CT_INT(0), "rows of a phase class per block tile (0: all)")
#define DG_REST(X)                                                                                          \
    X(TILE_OW, 0, CT_INT(0), "columns of a phase class per block tile (0: all)")                           \
    X(VEC, 1, CT_RANGE(1, 4), "elements per staging load: 4 (16-byte fp32 loads, rows a multiple of 4) or 1") \
    X(SWAP, 0, CT_RANGE(0, 1), "1: the filter as the windowed source and the dy plane as the taps (stride 1, " \
                               "dilation 1, planes smaller than the filter)")                             \
    X(STREAM, 0, CT_RANGE(0, 1), "1: rows of height 1 streamed with no staging, OUT_X items of 4 outputs per " \
                                 "thread, all loads issued first")
#define DG_ALL(X) DG_X(X) DG_Y(X) DG_TH(X) DG_REST(X)
const ct_param_def ct_dgdw_params_2d[CT_DGDW_NPARAMS_2D] = CT_PARAM_TABLE(DG_ALL);
const ct_param_def ct_dgdw_params_1d[CT_DGDW_NPARAMS_1D] = {DG_X(CT_PARAM_DEF) DG_REST(CT_PARAM_DEF)};
_Static_assert(CT_PARAM_COUNT(DG_ALL) == CT_DGDW_NPARAMS_2D, "CT_DGDW_NPARAMS_2D is the 2D list's length");
CT_PARAM_UNION(dg, DG_ALL)

#define WG_X(X)                                                                                             \
    X(TAP_X, 4, CT_RANGE(1, 16), "filter columns per thread (its register window's outputs)")              \
    X(PIX_X, 8, CT_RANGE(1, 32), "dy pixels of a row per segment (one window load serves them)")
#define WG_Y(X) X(TAP_Y, 1, CT_RANGE(1, 16), "filter rows per thread")
#define WG_G(X) X(GROUPS, 8, CT_RANGE(1, 1024), "pixel groups per block (each all the taps over its segments)")
#define WG_TH(X) X(TILE_OH, 0, CT_INT(0), "dy rows per staged unit (0: the whole plane)")
#define WG_V(X) X(VEC, 1, CT_RANGE(1, 4), "elements per staging load: 4 (16-byte fp32 loads, rows a multiple of 4) or 1")
#define WG_S(X)                                                                                             \
    X(SPLIT, 1, CT_RANGE(1, 64), "blocks per channel, each a slice of its units; the last to finish adds "   \
                                 "their sums in slice order (layers of fewer channels than SMs)")
#define WG_ST(X)                                                                                            \
    X(STREAM, 0, CT_RANGE(0, 1), "1: rows of height 1 streamed with no staging, GROUPS threads each PIX_X "    \
                                 "items of 4 dy positions a step, all taps (TAP_X = K)")
#define WG_ALL(X) WG_X(X) WG_Y(X) WG_G(X) WG_TH(X) WG_V(X) WG_S(X) WG_ST(X)
const ct_param_def ct_wgdw_params_2d[CT_WGDW_NPARAMS_2D] = CT_PARAM_TABLE(WG_ALL);
const ct_param_def ct_wgdw_params_1d[CT_WGDW_NPARAMS_1D] = {WG_X(CT_PARAM_DEF) WG_G(CT_PARAM_DEF)
                                                                WG_V(CT_PARAM_DEF) WG_S(CT_PARAM_DEF)
                                                                    WG_ST(CT_PARAM_DEF)};
_Static_assert(CT_PARAM_COUNT(WG_ALL) == CT_WGDW_NPARAMS_2D, "CT_WGDW_NPARAMS_2D is the 2D list's length");
CT_PARAM_UNION(wg, WG_ALL)

/* Bounds: unrolled FMAs of one loop body (NVRTC in about a second), the
 * phase classes instantiated (one copy of the loop each), the grid. */
#define DB_MAX_BODY 1024
#define DB_MAX_PHASES 16
#define DB_MAX_GRID 2147483647LL

/* A candidate of t over the 2D list: a 1D template's missing rows at their
 * defaults (the stub defines them so). */
static void db_read(const ct_template *t, const ct_params *c, const ct_param_def *all, int n, long *v)
{
    ct_params_read_part(c, t->params, t->nparams, all, n, CT_PARAM_DFLT, v);
}

static void db_write(const ct_template *t, ct_params *c, const ct_param_def *all, int n, const long *v)
{
    ct_params_write_part(c, t->params, t->nparams, all, n, v);
}

/* A depthwise layer: each channel its own filter, one in, one out. */
static int db_layer_excluded(const ct_template *t, const ct_tc_shape *s, char *why, size_t len)
{
    if (s->groups == s->cin && s->cout == s->cin)
        return 0;
    snprintf(why, len, "%s computes depthwise layers (groups = Cin = Cout) only, not groups = %lld of Cin = %lld, "
             "Cout = %lld (a channel multiplier is not handled)", t->name, s->groups < 1 ? 1 : s->groups, s->cin,
             s->cout);
    return 1;
}

/* ---- dgdw: the DG_* macros. */
typedef ct_dgdw_geom dg_geom;

/* STREAM 1: the DS_* macros. Items of 4 outputs, DS_NT x OUT_X a block
 * (whole warps), DS_NTX blocks a row; the vector path's window of DS_NV
 * vectors (nwl = 4 DS_NV elements) from vector rxmin / 4 of the item's. */
static void dg_stream_geometry(const ct_tc_shape *s, const dg_values *q, dg_geom *g)
{
    g->stream = 1;
    g->ox = q->OUT_X, g->oy = 1, g->nph = 1, g->nty = 1, g->mh = 1, g->mw = s->w;
    g->tkh = 1, g->tkw = s->kw, g->tdy = 1, g->tdx = s->dx;
    const long long ni = DWBWD_DS_NI(s->w), req = DWBWD_REQ(s->w, (long long)q->TILE_OW);
    g->nt = DWBWD_DS_NT(req, q->OUT_X);
    g->nitems = g->nt;
    g->tow = 4 * DWBWD_DS_BI(g->nt, q->OUT_X);
    g->ntx = DWBWD_DS_NTX(ni, DWBWD_DS_BI(g->nt, q->OUT_X));
    g->sv = DWBWD_DS_V(s->sx, s->w, s->ow);
    g->rxmin = DWBWD_DS_V0(s->pw, s->kw, s->dx);
    g->nwl = 4 * DWBWD_DS_NV(s->pw, g->rxmin);
    g->smem = 0;
    g->blocks = s->b * s->cin * g->ntx;
}

static void dg_geometry(const ct_tc_shape *s, const dg_values *q, dg_geom *g)
{
    memset(g, 0, sizeof *g);
    if (q->OUT_X < 1 || q->OUT_Y < 1)
        return;
    if (q->STREAM == 1) {
        dg_stream_geometry(s, q, g);
        return;
    }
    const int swap = q->SWAP == 1;
    g->nph = DWBWD_DG_NPH(s->sy, s->sx);
    g->ox = q->OUT_X, g->oy = q->OUT_Y, g->swap = swap;
    g->tkh = swap ? s->oh : s->kh, g->tkw = swap ? s->ow : s->kw;
    const long long tdy = swap ? 1 : s->dy;
    g->tdy = tdy;
    g->tdx = swap ? 1 : s->dx;
    g->srcw = swap ? s->kw : s->ow;
    g->mh = DWBWD_DG_M(s->h, s->sy), g->mw = DWBWD_DG_M(s->w, s->sx);
    g->rymin = DWBWD_DG_RMIN(s->ph, g->tkh, tdy, s->sy), g->rymax = DWBWD_DG_RMAX(s->sy, s->ph);
    g->rxmin = DWBWD_DG_RMIN(s->pw, g->tkw, g->tdx, s->sx), g->rxmax = DWBWD_DG_RMAX(s->sx, s->pw);
    g->toh = DWBWD_TILE(g->mh, (long long)q->TILE_OH, q->OUT_Y);
    g->tow = DWBWD_TILE(g->mw, (long long)q->TILE_OW, q->OUT_X);
    g->nty = DWBWD_CDIV(g->mh, g->toh), g->ntx = DWBWD_CDIV(g->mw, g->tow);
    g->tx = DWBWD_DG_TX(g->tow, q->OUT_X);
    g->nitems = DWBWD_DG_NITEMS(g->toh, q->OUT_Y, g->tx);
    g->nt = DWBWD_DG_NT(g->nitems);
    g->lead = DWBWD_DG_LEAD(q->VEC, g->rxmin);
    g->lv = DWBWD_DG_LV(g->lead, q->OUT_X);
    g->nwl = DWBWD_RUP(DWBWD_DG_NWX(q->OUT_X, g->rxmax, g->rxmin), g->lv);
    g->nr = DWBWD_DG_NR(q->OUT_Y, g->rymax, g->rymin);
    g->sih = DWBWD_DG_SIH(g->toh, g->rymax, g->rymin);
    const long long p0 = DWBWD_DG_PITCH0(g->lead, g->tow, q->OUT_X, g->nwl);
    g->pitch = DWBWD_DG_PITCH(p0, q->OUT_Y, g->tow);
    g->kwp = DWBWD_DG_KWP(g->tkw);
    g->smem = DWBWD_DG_SMEM(g->sih, g->pitch, g->tkh, g->kwp);
    g->blocks = DWBWD_DG_BLOCKS(s->b, s->cin, g->nph, g->nty, g->ntx);
}

/* 4-element staging loads need whole 4-element rows of the staged source
 * and tiles starting on them. */
static int dg_vec_ok(const dg_geom *g)
{
    return g->srcw % 4 == 0 && (g->ntx == 1 || g->tow % 4 == 0);
}

static dg_values dg_get(const ct_template *t, const ct_params *c)
{
    dg_values q;
    db_read(t, c, ct_dgdw_params_2d, CT_DGDW_NPARAMS_2D, q.v);
    return q;
}

/* STREAM 1: rows only (height 1, as every conv1dc layer); a window and
 * OUT_X items' loads in registers. */
static int dg_stream_constrain(const ct_tc_shape *s, const dg_values *q, const ct_limits *lim, char *why, size_t len)
{
    if (s->h != 1 || s->kh != 1 || s->oh != 1 || s->ph != 0 || q->SWAP != 0) {
        snprintf(why, len, "STREAM=1 streams rows: height 1 (a %lld x %lld plane, filter height %lld), SWAP 0",
                 s->h, s->w, s->kh);
        return 1;
    }
    dg_geom g;
    dg_stream_geometry(s, q, &g);
    if (g.nt > lim->max_threads_per_block) {
        snprintf(why, len, "%lld threads a block, over the device's %d", g.nt, lim->max_threads_per_block);
        return 1;
    }
    const double eff = (double)s->w / ((double)(g.ntx * g.tow));
    if (eff < 0.8 && s->w >= 4096) {
        snprintf(why, len, "only %.0f%% of the outputs computed are in the row (idle lanes)", 100.0 * eff);
        return 1;
    }
    if (q->OUT_X * 4 * s->kw > DB_MAX_BODY) {
        snprintf(why, len, "OUT_X x 4 x %lld taps = %lld unrolled FMAs exceed %d", s->kw, q->OUT_X * 4 * s->kw,
                 DB_MAX_BODY);
        return 1;
    }
    /* The items' windows (vector path), the taps, four sums, addresses. */
    if (ct_regs_exceed(lim, (g.sv ? q->OUT_X * g.nwl : 0) + s->kw + 4 + 24, g.nt, DWBWD_MINB(g.nt), why,
                       len))
        return 1;
    if (g.blocks > DB_MAX_GRID) {
        snprintf(why, len, "%lld blocks exceed the grid limit", g.blocks);
        return 1;
    }
    return 0;
}

static int dg_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len)
{
    if (db_layer_excluded(t, s, why, len))
        return 1;
    const dg_values q = dg_get(t, c);
    if (q.OUT_X < 1 || q.OUT_X > 16 || q.OUT_Y < 1 || q.OUT_Y > 16 || (q.VEC != 1 && q.VEC != 4) ||
        q.SWAP < 0 || q.SWAP > 1 || q.TILE_OH < 0 || q.TILE_OW < 0 || q.STREAM < 0 || q.STREAM > 1) {
        snprintf(why, len, "OUT_X and OUT_Y in 1..16, VEC 1 or 4, SWAP and STREAM 0 or 1, tiles >= 0");
        return 1;
    }
    if (q.STREAM)
        return dg_stream_constrain(s, &q, lim, why, len);
    if (s->sy * s->sx > DB_MAX_PHASES) {
        snprintf(why, len, "stride %lld x %lld has %lld phase classes, over the %d instantiated", s->sy, s->sx,
                 s->sy * s->sx, DB_MAX_PHASES);
        return 1;
    }
    /* The exchange reads every product of a pixel's windows: it pays where
     * the plane (OH x OW taps) is smaller than the filter. */
    if (q.SWAP && (s->sy != 1 || s->sx != 1 || s->dy != 1 || s->dx != 1 || s->oh * s->ow >= s->kh * s->kw)) {
        snprintf(why, len, "SWAP=1 needs stride 1, dilation 1 and a dy plane (%lld x %lld) smaller than the filter "
                 "(%lld x %lld)", s->oh, s->ow, s->kh, s->kw);
        return 1;
    }
    dg_geom g;
    dg_geometry(s, &q, &g);
    if (q.VEC == 4 && !dg_vec_ok(&g)) {
        snprintf(why, len, "VEC=4 needs staged rows of a multiple of 4 elements and tiles starting on them");
        return 1;
    }
    if (g.nt > lim->max_threads_per_block) {
        snprintf(why, len, "a tile of %lld x %lld pixels needs %lld threads, over the device's %d", g.toh, g.tow,
                 g.nt, lim->max_threads_per_block);
        return 1;
    }
    if (g.smem > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of staged tile and taps exceed the device's %d of shared memory", g.smem,
                 lim->max_smem_per_block);
        return 1;
    }
    /* Pixels past the plane (tiles rounded up, classes of unequal sizes) and
     * idle lanes: over 20% thrown away loses to another tile on planes big
     * enough to have one. */
    const double useful = (double)s->h * (double)s->w;
    const double eff = useful / ((double)(g.nph * g.nty * g.ntx * g.nt) * (double)(q.OUT_X * q.OUT_Y));
    if (eff < 0.8 && useful >= 4096) {
        snprintf(why, len, "only %.0f%% of the pixels computed are in the plane (tile padding, idle lanes)",
                 100.0 * eff);
        return 1;
    }
    /* A phase's row body: OUT_Y x OUT_X x taps of a row; one per class. */
    const long long body = q.OUT_Y * q.OUT_X * g.tkw * s->sy;
    if (body > DB_MAX_BODY) {
        snprintf(why, len, "OUT_Y x OUT_X x %lld taps x SY = %lld unrolled FMAs exceed %d", g.tkw, body, DB_MAX_BODY);
        return 1;
    }
    /* Accumulators, one window, four taps and about 20 for addresses, in
     * the 128 a thread the launch bounds allow blocks of 256 threads or
     * fewer (16 warps an SM: DG_MINB). */
    if (ct_regs_exceed(lim, q.OUT_X * q.OUT_Y + g.nwl + 24, g.nt, DWBWD_MINB(g.nt), why, len))
        return 1;
    if (g.blocks > DB_MAX_GRID) {
        snprintf(why, len, "%lld blocks exceed the grid limit", g.blocks);
        return 1;
    }
    return 0;
}

static void dg_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    dg_values q = dg_get(t, c);
    if (q.OUT_X < 1 || q.OUT_Y < 1)
        return;
    if (q.STREAM == 1) {
        /* The staging's parameters unused (VEC 1, one row); the tile as
         * the whole warps' items it comes to (0: the row). */
        q.VEC = 1, q.OUT_Y = 1, q.TILE_OH = 0;
        dg_geom g;
        dg_stream_geometry(s, &q, &g);
        q.TILE_OW = g.tow >= s->w ? 0 : (long)g.tow;
        db_write(t, c, ct_dgdw_params_2d, CT_DGDW_NPARAMS_2D, q.v);
        return;
    }
    dg_geom g;
    dg_geometry(s, &q, &g);
    if (q.OUT_Y > g.mh)
        q.OUT_Y = (long)g.mh;
    if (q.OUT_X > g.mw)
        q.OUT_X = (long)g.mw;
    dg_geometry(s, &q, &g);
    if (q.VEC == 4 && !dg_vec_ok(&g))
        q.VEC = 1;
    /* The effective tile, so that requests giving the same kernel collapse. */
    dg_values e = q;
    e.TILE_OH = g.toh >= g.mh ? 0 : (long)g.toh;
    e.TILE_OW = g.tow >= g.mw ? 0 : (long)g.tow;
    dg_geom again;
    dg_geometry(s, &e, &again);
    if (again.toh == g.toh && again.tow == g.tow)
        q = e;
    db_write(t, c, ct_dgdw_params_2d, CT_DGDW_NPARAMS_2D, q.v);
}

static void dg_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    const dg_values q = dg_get(t, c);
    dg_geom g;
    dg_geometry(s, &q, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.blocks;
    l->block[0] = (unsigned)g.nt;
    l->smem_bytes = (unsigned)g.smem;
    l->grid[1] = l->grid[2] = 1;
    l->block[1] = l->block[2] = 1;
}

/* ---- wgdw: the WG_* macros. */
typedef ct_wgdw_geom wg_geom;

static void wg_geometry(const ct_tc_shape *s, const wg_values *q, wg_geom *g)
{
    memset(g, 0, sizeof *g);
    if (q->TAP_X < 1 || q->TAP_Y < 1 || q->PIX_X < 1 || q->GROUPS < 1)
        return;
    g->tx = q->TAP_X, g->ty = q->TAP_Y, g->px = q->PIX_X, g->groups = q->GROUPS, g->split = q->SPLIT;
    g->nti = DWBWD_WG_NT_OF(s->kh, q->TAP_Y), g->ntj = DWBWD_WG_NT_OF(s->kw, q->TAP_X);
    g->tt = DWBWD_WG_TT(g->nti, g->ntj);
    g->khp = g->nti * q->TAP_Y, g->kwp = g->ntj * q->TAP_X;
    g->nch = DWBWD_WG_NCH(s->ow, q->PIX_X), g->owp = g->nch * q->PIX_X;
    g->br = DWBWD_WG_BR(s->oh, (long long)q->TILE_OH);
    g->nb = DWBWD_CDIV(s->oh, g->br);
    g->nu = DWBWD_WG_NU(s->b, g->nb);
    g->segs = DWBWD_WG_SEGS(g->br, g->nch);
    g->nth = DWBWD_WG_NTH(g->tt, q->GROUPS);
    g->nt = DWBWD_WG_NT(g->nth);
    g->lead = DWBWD_WG_LEAD(q->VEC, s->pw);
    const long long a = q->PIX_X * s->sx, b = q->TAP_X * s->dx;
    g->lv = DWBWD_WG_LV(g->lead, a, b);
    g->nwx = DWBWD_WG_NWX(q->PIX_X, s->sx, q->TAP_X, s->dx);
    g->nwl = DWBWD_RUP(g->nwx, g->lv);
    g->sih = DWBWD_WG_SIH(g->br, s->sy, g->khp, s->dy);
    g->pitch = DWBWD_WG_PITCH(g->lead, g->nch, a, g->ntj, b, g->nwl);
    g->dyp = DWBWD_RUP(g->owp, 4);
    g->ntaps = DWBWD_WG_NTAPS(s->kh, s->kw, s->bias);
    const long long red = DWBWD_WG_S_RED(q->GROUPS, g->ntaps);
    g->smem = 4 * DWBWD_WG_SMEM_STAGED(g->sih * g->pitch, g->br * g->dyp, red, g->ntaps);   /* + SPLIT's flag */
    if (q->STREAM == 1) {
        /* The WS_* sizes: items of 4 dy positions, the x window's first
         * vector (lead) and its elements (nwl); no staging. */
        g->stream = 1;
        g->sv = DWBWD_DS_V(s->sx, s->w, s->ow);
        g->lead = DWBWD_WS_X0(s->pw);
        g->nwl = 4 * DWBWD_WS_NV(s->kw, s->dx, s->pw, g->lead);
        g->segs = DWBWD_WS_NI(s->ow);
        g->smem = 4 * DWBWD_WG_SMEM_STREAM(red, g->ntaps);
    }
}

static wg_values wg_get(const ct_template *t, const ct_params *c)
{
    wg_values q;
    db_read(t, c, ct_wgdw_params_2d, CT_WGDW_NPARAMS_2D, q.v);
    return q;
}

static int wg_vec_ok(const ct_tc_shape *s)
{
    return s->w % 4 == 0 && s->ow % 4 == 0;
}

/* STREAM 1: rows only, all taps a thread (normalize: TAP_X = K), whole
 * warps of threads, the items' loads and windows in registers. */
static int wg_stream_constrain(const ct_tc_shape *s, const wg_values *q, const wg_geom *g, const ct_limits *lim,
                               char *why, size_t len)
{
    if (s->h != 1 || s->kh != 1 || s->oh != 1 || s->ph != 0 || q->TAP_Y != 1 || q->TAP_X != s->kw ||
        q->GROUPS % 32 != 0) {
        snprintf(why, len, "STREAM=1 streams rows (height 1) with all %lld taps a thread (TAP_X) and GROUPS a "
                 "multiple of 32", s->kw);
        return 1;
    }
    /* Items past the row: a step is GROUPS x PIX_X items. */
    const long long step = q->GROUPS * q->PIX_X;
    const double eff = (double)g->segs / (double)ct_rup(g->segs, step);
    if (eff < 0.7 && s->ow >= 4096) {
        snprintf(why, len, "only %.0f%% of the items a row's steps load are in the row", 100.0 * eff);
        return 1;
    }
    /* Accuracy: a thread's fp32 run (a row's items of it, 4 products a tap
     * each) at most 2048 products, as the staged path's units. */
    if (4 * ct_cdiv(g->segs, q->GROUPS) > 2048) {
        snprintf(why, len, "a thread would sum %lld products of a row in one fp32 run, over 2048",
                 4 * ct_cdiv(g->segs, q->GROUPS));
        return 1;
    }
    if (q->PIX_X * 4 * s->kw > DB_MAX_BODY) {
        snprintf(why, len, "PIX_X x 4 x %lld taps = %lld unrolled FMAs exceed %d", s->kw, q->PIX_X * 4 * s->kw,
                 DB_MAX_BODY);
        return 1;
    }
    if (g->smem + 16 > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of the threads' totals exceed the device's shared memory", g->smem);
        return 1;
    }
    /* Totals and a row's partials, the items' dy values and windows. */
    if (ct_regs_exceed(lim, 2 * s->kw + q->PIX_X * (4 + (g->sv ? g->nwl : 0)) + 24, g->nt,
                       DWBWD_MINB(g->nt), why, len))
        return 1;
    if (s->cin * q->SPLIT > DB_MAX_GRID) {
        snprintf(why, len, "%lld blocks exceed the grid limit", s->cin * q->SPLIT);
        return 1;
    }
    return 0;
}

static int wg_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len)
{
    if (db_layer_excluded(t, s, why, len))
        return 1;
    const wg_values q = wg_get(t, c);
    if (q.TAP_X < 1 || q.TAP_X > 16 || q.TAP_Y < 1 || q.TAP_Y > 16 || q.PIX_X < 1 || q.PIX_X > 32 ||
        q.GROUPS < 1 || q.GROUPS > 1024 || q.TILE_OH < 0 || (q.VEC != 1 && q.VEC != 4)) {
        snprintf(why, len, "TAP_X and TAP_Y in 1..16, PIX_X in 1..32, GROUPS in 1..1024, VEC 1 or 4, TILE_OH >= 0");
        return 1;
    }
    if (q.VEC == 4 && !wg_vec_ok(s)) {
        snprintf(why, len, "VEC=4 needs W and OW multiples of 4");
        return 1;
    }
    if (q.SPLIT < 1 || q.SPLIT > 64) {
        snprintf(why, len, "SPLIT in 1..64");
        return 1;
    }
    if (q.STREAM < 0 || q.STREAM > 1) {
        snprintf(why, len, "STREAM 0 or 1");
        return 1;
    }
    wg_geom g;
    wg_geometry(s, &q, &g);
    /* Splitting pays where the channels leave SMs idle (fewer than the
     * SMs), with no more slices than units and a workspace under 64 MiB. */
    const long long sms = lim->sm_count > 0 ? lim->sm_count : 128;   /* offline: unknown */
    if (q.SPLIT > 1 && (s->cin >= sms || q.SPLIT > g.nu ||
                        (double)q.SPLIT * s->cin * g.ntaps * 4.0 > 64.0 * 1048576.0)) {
        snprintf(why, len, "SPLIT=%ld: %lld channels already fill the %d SMs, or more slices than %lld units",
                 q.SPLIT, s->cin, (int)sms, g.nu);
        return 1;
    }
    if (g.nt > lim->max_threads_per_block) {
        snprintf(why, len, "%lld tap tiles x GROUPS=%ld need %lld threads, over the device's %d", g.tt, q.GROUPS,
                 g.nt, lim->max_threads_per_block);
        return 1;
    }
    if (q.STREAM)
        return wg_stream_constrain(s, &q, &g, lim, why, len);
    if (q.GROUPS > g.segs) {
        snprintf(why, len, "GROUPS=%ld exceed a unit's %lld segments: groups would idle", q.GROUPS, g.segs);
        return 1;
    }
    /* Products thrown away: taps past the filter, dy columns past the row,
     * idle lanes, groups without a last segment; on channels of 2^20
     * products or more, which have other tiles to choose. */
    const double eff = (double)(s->kh * s->kw) / (double)(g.khp * g.kwp) * (double)s->ow / (double)g.owp *
                       (double)g.nth / (double)g.nt * (double)g.segs /
                       (double)(q.GROUPS * ct_cdiv(g.segs, q.GROUPS));
    const double work = (double)s->b * (double)s->oh * (double)s->ow * (double)(s->kh * s->kw);
    if (eff < 0.7 && work >= 1048576.0) {
        snprintf(why, len, "only %.0f%% of the products computed are the layer's (tap tiles, segments, idle lanes)",
                 100.0 * eff);
        return 1;
    }
    if (g.smem + 16 > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of staged rows (or of the groups' totals) exceed the device's %d of shared "
                 "memory", g.smem, lim->max_smem_per_block);
        return 1;
    }
    if (q.TAP_Y * q.TAP_X * q.PIX_X > DB_MAX_BODY) {
        snprintf(why, len, "TAP_Y x TAP_X x PIX_X = %ld unrolled FMAs exceed %d", q.TAP_Y * q.TAP_X * q.PIX_X,
                 DB_MAX_BODY);
        return 1;
    }
    /* Totals and a unit's partials, one window, the dy values, about 24
     * for addresses (within WG_MINB's bound, as dgdw). */
    const long long addr = g.nt > 256 ? 32 : 24;   /* ptxas spilled at 24 in blocks of 800-1024 threads */
    if (ct_regs_exceed(lim, 2 * q.TAP_Y * q.TAP_X + g.nwl + q.PIX_X + addr, g.nt, DWBWD_MINB(g.nt),
                       why, len))
        return 1;
    if (s->cin * q.SPLIT > DB_MAX_GRID) {
        snprintf(why, len, "%lld blocks exceed the grid limit", s->cin * q.SPLIT);
        return 1;
    }
    return 0;
}

static void wg_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    wg_values q = wg_get(t, c);
    if (q.TAP_X < 1 || q.TAP_Y < 1 || q.PIX_X < 1 || q.GROUPS < 1)
        return;
    if (q.STREAM == 1) {
        /* One tap tile of all the taps; the staging's parameters unused. */
        q.TAP_Y = 1, q.TAP_X = (long)s->kw, q.TILE_OH = 0, q.VEC = 1;
        if (q.PIX_X > DWBWD_WS_NI(s->ow))
            q.PIX_X = (long)DWBWD_WS_NI(s->ow);
        db_write(t, c, ct_wgdw_params_2d, CT_WGDW_NPARAMS_2D, q.v);
        return;
    }
    if (q.TAP_Y > s->kh)
        q.TAP_Y = (long)s->kh;
    if (q.TAP_X > s->kw)
        q.TAP_X = (long)s->kw;
    if (q.PIX_X > s->ow)
        q.PIX_X = (long)s->ow;
    if (q.VEC == 4 && !wg_vec_ok(s))
        q.VEC = 1;
    wg_geom g;
    wg_geometry(s, &q, &g);
    /* No more groups than a unit has segments (more would idle). */
    if (q.GROUPS > g.segs) {
        q.GROUPS = (long)g.segs;
        wg_geometry(s, &q, &g);
    }
    wg_values e = q;
    e.TILE_OH = g.br >= s->oh ? 0 : (long)g.br;
    wg_geom again;
    wg_geometry(s, &e, &again);
    if (again.br == g.br)
        q = e;
    db_write(t, c, ct_wgdw_params_2d, CT_WGDW_NPARAMS_2D, q.v);
}

/* SPLIT blocks per channel. */
static void wg_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    const wg_values q = wg_get(t, c);
    wg_geom g;
    wg_geometry(s, &q, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)(s->cin * q.SPLIT);
    l->block[0] = (unsigned)g.nt;
    l->smem_bytes = (unsigned)g.smem;
    l->grid[1] = l->grid[2] = 1;
    l->block[1] = l->block[2] = 1;
}

void ct_dgdw_geometry(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_dgdw_geom *g)
{
    const dg_values q = dg_get(t, c);
    dg_geometry(s, &q, g);
}

void ct_wgdw_geometry(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_wgdw_geom *g)
{
    const wg_values q = wg_get(t, c);
    wg_geometry(s, &q, g);
}

#define DB_KIND .layouts = CT_LAYOUT_DEFAULT_ONLY, .any_layer = 1
const ct_kernel_kind ct_kind_dgdw = {.name = "dgdw", DB_KIND, .passes = CT_PASS_BIT(CT_PASS_DGRAD),
                                     .constrain = dg_constrain, .normalize = dg_normalize, .launch = dg_launch};
const ct_kernel_kind ct_kind_wgdw = {.name = "wgdw", DB_KIND, .passes = CT_PASS_BIT(CT_PASS_WGRAD),
                                     .constrain = wg_constrain, .normalize = wg_normalize, .launch = wg_launch};
