/* gemmbwd_conv.c - the kinds dgsimt and wgsimt (gemmbwd_conv.h): their
 * parameters, the sizes of ct_gemmbwd.cuh's macros (gemmbwd_sizes.cuh's
 * expressions, which the kernels expand too), constraints, normalisation,
 * launch geometry, and wgsimt's executor. */
#include "gemmbwd_conv.h"
#include "conv_pass.h"
#include "export.h"
#include "gemmbwd_sizes.cuh"
#include "intmath.h"
#include "tc_shape.h"
#include "ws_exec.h"

#include <stdlib.h>
#include <string.h>

CT_FAMILY_CODE

/* ---- parameters: each once, in list order; the 1D lists lack the rows. */
#define DG_X(X) X(OUT_X, 4, CT_RANGE(1, 16), "consecutive dx pixels of a row per thread (a multiple of the stride)")
#define DG_Y(X) X(OUT_Y, 1, CT_RANGE(1, 16), "consecutive dx rows per thread (a multiple of the stride)")
#define DG_C(X)                                                                                            \
    X(CIN_PER_THREAD, 4, CT_RANGE(1, 32), "input channels of a group per thread (balanced over the group)") \
    X(CIN_SLICES, 1, CT_RANGE(1, 1024), "slices of CIN_PER_THREAD channels per block; more than a group "  \
                                         "has takes whole groups")
#define DG_TH(X) X(TILE_H, 0, CT_INT(0), "dx rows per block tile (0: the whole plane)")
#define DG_REST(X)                                                                                         \
    X(TILE_W, 0, CT_INT(0), "dx columns per block tile (0: the whole row)")                                \
    X(COUT_CHUNK, 0, CT_INT(0), "output channels of a group staged at a time (0: all)")                  \
    X(SPLIT, 1, CT_RANGE(1, 65535), "slices of the output-channel chunks over the grid, added by a second kernel")
#define DG_ALL(X) DG_X(X) DG_Y(X) DG_C(X) DG_TH(X) DG_REST(X)

const ct_param_def ct_dgsimt_params_2d[CT_DGSIMT_NPARAMS_2D] = CT_PARAM_TABLE(DG_ALL);
const ct_param_def ct_dgsimt_params_1d[CT_DGSIMT_NPARAMS_1D] = {DG_X(CT_PARAM_DEF) DG_C(CT_PARAM_DEF)
                                                                    DG_REST(CT_PARAM_DEF)};
_Static_assert(CT_PARAM_COUNT(DG_ALL) == CT_DGSIMT_NPARAMS_2D, "CT_DGSIMT_NPARAMS_2D is the 2D list's length");
CT_PARAM_UNION(dg, DG_ALL)

#define WG_HEAD(X)                                                                                         \
    X(CO_PER_THREAD, 4, CT_RANGE(1, 16), "output channels per thread")                                     \
    X(CO_TILE, 0, CT_INT(0), "output channels of a group per block (0: all)")                              \
    X(CIN_TILE, 0, CT_INT(0), "input channels of a group per block (0: all)")                              \
    X(GROUPS_PER_BLOCK, 1, CT_RANGE(1, 64), "whole groups per block (tiles covering a group only)")        \
    X(RED_SLICES, 1, CT_RANGE(1, 32), "threads sharing an owner's reduction within a block, added in order") \
    X(OUT_X, 4, CT_RANGE(1, 16), "consecutive output pixels of a row per reduction step (one register window)")
#define WG_TOH(X) X(TILE_OH, 0, CT_INT(0), "output rows per reduction chunk (0: the whole plane)")
#define WG_TAIL(X)                                                                                         \
    X(TILE_OW, 0, CT_INT(0), "output columns per reduction chunk (0: the whole row)")                     \
    X(SPLIT, 1, CT_RANGE(1, 65535), "slices of the reduction over the grid, added in fp64 by a second kernel") \
    X(STAGES, 1, CT_RANGE(1, 2), "shared stages: 1 (copy, then compute) or 2 (the next chunk copied by "       \
                                  "cp.async while this one is computed; fp32 on sm_80 and later)")
#define WG_ALL(X) WG_HEAD(X) WG_TOH(X) WG_TAIL(X)

const ct_param_def ct_wgsimt_params_2d[CT_WGSIMT_NPARAMS_2D] = CT_PARAM_TABLE(WG_ALL);
const ct_param_def ct_wgsimt_params_1d[CT_WGSIMT_NPARAMS_1D] = {WG_HEAD(CT_PARAM_DEF) WG_TAIL(CT_PARAM_DEF)};
_Static_assert(CT_PARAM_COUNT(WG_ALL) == CT_WGSIMT_NPARAMS_2D, "CT_WGSIMT_NPARAMS_2D is the 2D list's length");
CT_PARAM_UNION(wg, WG_ALL)

/* Bounds: unrolled FMAs of a body (NVRTC about a second), terms of one
 * fp32 partial sum (ct_gemmbwd.cuh's GB_MAX_RUN), the grid, and the
 * workspace of the split reduction. */
#define GB_MAX_BODY 1024
#define GB_MAX_RUN 2048
#define GB_MAX_GRID 2147483647LL
#define GB_MAX_WS (1LL << 30)
/* Blocks that fill a large GPU: two per SM of a 132-SM part. A constant,
 * not the device's count, so that a space is the same offline and on the
 * GPU (offline limits know no SM count). */
#define GB_FILL_BLOCKS 264

/* Read a candidate of t into the full list defs (n names); a name the
 * template lacks (the rows of a 1D template) reads as 1, as its stub
 * defines it. */
static void gb_read(const ct_template *t, const ct_params *c, const ct_param_def *defs, int n, long *v)
{
    ct_params_read_part(c, t->params, t->nparams, defs, n, 1, v);
}

static void gb_write(const ct_template *t, ct_params *c, const ct_param_def *defs, int n, const long *v)
{
    ct_params_write_part(c, t->params, t->nparams, defs, n, v);
}

static long long min_ll(long long a, long long b)
{
    return a < b ? a : b;
}

/* Dense or grouped only: a depthwise layer (one input and one output
 * channel per group) belongs to the depthwise templates. */
static int gb_depthwise(const ct_template *t, const ct_tc_shape *s, char *why, size_t len)
{
    const long long gr = ct_tc_ngroups(s);
    if (s->cin / gr == 1 && s->cout / gr == 1) {
        snprintf(why, len, "%s: a depthwise layer (one input and one output channel per group) has its own "
                 "templates", t->name);
        return 1;
    }
    return 0;
}

/* Two blocks per SM where an SM has 96 KiB or more (1 KiB each reserved). */
static int gb_smem_exceeds(long long smem, const ct_limits *lim, char *why, size_t len)
{
    const int two = lim->max_smem_per_sm >= 96 * 1024;
    if (smem > lim->max_smem_per_block || (two && 2 * (smem + 1024) > lim->max_smem_per_sm)) {
        snprintf(why, len, "%lld bytes of shared memory per block: two blocks do not fit the device's %d per SM "
                 "(%d per block)", smem, lim->max_smem_per_sm, lim->max_smem_per_block);
        return 1;
    }
    return 0;
}

/* ==== dgsimt ============================================================ */

typedef struct dg_geom {
    long long ox, oy, cpt, ncg, nsl, gpb, ncb, th, tw, nty, ntx, xg, pix, nt, minb, cc, nch;
    long long cyf, cxf, sih, step, nwx, lv, nwl, pitch, s_dy, wp, s_w, smem, blocks, split;
} dg_geom;

static void dg_geometry(const ct_tc_shape *s, const dg_values *q, dg_geom *g)
{
    memset(g, 0, sizeof *g);
    g->ox = q->OUT_X, g->oy = q->OUT_Y;
    if (g->ox < 1 || g->oy < 1 || q->CIN_PER_THREAD < 1 || q->CIN_SLICES < 1 || g->ox % s->sx || g->oy % s->sy)
        return;
    const long long groups = ct_tc_ngroups(s), cing = s->cin / groups, coutg = s->cout / groups;
    g->ncg = GBS_DG_NCG(cing, q->CIN_PER_THREAD);
    g->cpt = GBS_DG_CPT(cing, g->ncg);
    g->nsl = q->CIN_SLICES;
    g->gpb = GBS_DG_GPB(g->nsl, g->ncg);
    g->ncb = GBS_DG_NCB(groups, g->ncg, g->nsl);
    g->th = GBS_TILE(s->h, q->TILE_H, g->oy);
    g->tw = GBS_TILE(s->w, q->TILE_W, g->ox);
    g->nty = GBS_CDIV(s->h, g->th), g->ntx = GBS_CDIV(s->w, g->tw);
    g->xg = GBS_DG_XG(g->tw, g->ox);
    g->pix = GBS_DG_PIX(g->th, g->oy, g->xg);
    g->nt = GBS_DG_NT(g->pix, g->nsl);
    g->minb = GBS_MINB(g->nt);
    g->cc = GBS_REQ(coutg, q->COUT_CHUNK);
    g->nch = GBS_CDIV(coutg, g->cc);
    g->cyf = GBS_DG_CF(s->ph, s->kh, s->dy, s->sy);
    g->cxf = GBS_DG_CF(s->pw, s->kw, s->dx, s->sx);
    g->sih = GBS_DG_SIH(g->th, s->ph, s->sy, g->cyf);
    g->step = GBS_DG_STEP(g->ox, s->sx);
    g->nwx = GBS_DG_NWX(g->ox, s->pw, g->cxf, s->sx);
    g->lv = GBS_LV(g->step);
    g->nwl = GBS_RUP(g->nwx, g->lv);
    g->pitch = GBS_DG_PITCH(g->xg, g->step, g->nwl);
    g->s_dy = GBS_DG_S_DY(g->gpb, g->cc, g->sih * g->pitch);
    g->wp = GBS_DG_WP(g->nsl, g->cpt);
    g->s_w = GBS_DG_S_W(g->cc, s->kh * s->kw, g->wp);
    g->smem = 4 * (g->s_dy + g->s_w);
    g->blocks = s->b * g->nty * g->ntx * g->ncb;
    g->split = q->SPLIT;
}

static int dg_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len)
{
    if (gb_depthwise(t, s, why, len))
        return 1;
    dg_values q;
    gb_read(t, c, ct_dgsimt_params_2d, CT_DGSIMT_NPARAMS_2D, q.v);
    if (q.OUT_X < 1 || q.OUT_X > 16 || q.OUT_Y < 1 || q.OUT_Y > 16 || q.CIN_PER_THREAD < 1 ||
        q.CIN_PER_THREAD > 32 || q.CIN_SLICES < 1 || q.CIN_SLICES > 1024 || q.TILE_H < 0 || q.TILE_W < 0 ||
        q.COUT_CHUNK < 0 || q.SPLIT < 1 || q.SPLIT > 65535) {
        snprintf(why, len, "OUT_X, OUT_Y in 1..16, CIN_PER_THREAD in 1..32, CIN_SLICES in 1..1024, SPLIT in "
                 "1..65535, tiles and COUT_CHUNK >= 0");
        return 1;
    }
    /* Tiles and threads start on multiples of the stride, so that which
     * taps divide is known at compile time. */
    if (q.OUT_X % s->sx != 0 || q.OUT_Y % s->sy != 0) {
        snprintf(why, len, "OUT_X=%ld and OUT_Y=%ld must be multiples of the stride %lldx%lld", q.OUT_X, q.OUT_Y,
                 s->sy, s->sx);
        return 1;
    }
    dg_geom g;
    dg_geometry(s, &q, &g);
    if (g.nsl % g.ncg != 0 && g.ncg % g.nsl != 0) {
        snprintf(why, len, "CIN_SLICES=%lld neither divides nor is a multiple of a group's %lld slices", g.nsl,
                 g.ncg);
        return 1;
    }
    /* Copy and compute do not overlap within a block: two blocks and 16
     * warps per SM; under two warps too few copies are in flight on layers
     * large enough to have larger blocks. */
    const double useful = (double)s->b * (double)s->cin * (double)s->h * (double)s->w;
    if (g.nt > 512 || g.nt > lim->max_threads_per_block || (g.nt < 64 && useful >= 262144.0)) {
        snprintf(why, len, "%lld threads per block: outside 64 .. 512", g.nt);
        return 1;
    }
    /* Tile padding, channels past a group, groups past the layer, idle
     * lanes: more than 25% thrown away loses to another shape on planes of
     * 1024 pixels or more, or on layers of 2^18 dx elements or more (many
     * small planes: another tile or slice shape fits them). */
    const double eff = useful / ((double)g.blocks * (double)g.nt * (double)(g.cpt * g.oy * g.ox));
    if (eff < 0.75 && ((double)s->h * (double)s->w >= 1024 || useful >= 262144.0)) {
        snprintf(why, len, "only %.0f%% of the FMAs computed are dx elements", 100.0 * eff);
        return 1;
    }
    /* A split of the output channels: only for reductions of 1024 terms or
     * more on grids that leave SMs idle (few input channels x pixels), up
     * to eight times the blocks that fill them, at most one slice per
     * chunk, its workspace bounded. */
    const long long kred = s->cout / ct_tc_ngroups(s) * s->kh * s->kw;
    if (g.split > 1 && (g.split > g.nch || kred < 1024 || g.blocks >= GB_FILL_BLOCKS ||
                        g.blocks * g.split > 8 * GB_FILL_BLOCKS ||
                        g.split * ct_pass_x_count(s) * 4 > GB_MAX_WS)) {
        snprintf(why, len, "SPLIT=%lld: more slices than the %lld chunks, a reduction of %lld terms (under 1024), "
                 "a grid of %lld blocks that fills the SMs unsplit or eight times over split, or too large a "
                 "workspace", g.split, g.nch, kred, g.blocks);
        return 1;
    }
    if (s->kw * g.cpt * g.oy * g.ox > GB_MAX_BODY) {
        snprintf(why, len, "KW x CIN_PER_THREAD x OUT_Y x OUT_X = %lld unrolled FMAs exceed %d",
                 s->kw * g.cpt * g.oy * g.ox, GB_MAX_BODY);
        return 1;
    }
    if (gb_smem_exceeds(g.smem, lim, why, len))
        return 1;
    /* Accumulators, the windows, one tap's weights and about 20 for
     * addresses. */
    if (ct_regs_exceed(lim, g.cpt * g.oy * g.ox + g.oy * g.nwl + g.cpt + 20, g.nt, g.minb, why, len))
        return 1;
    if (g.blocks > GB_MAX_GRID) {
        snprintf(why, len, "%lld blocks exceed the grid limit", g.blocks);
        return 1;
    }
    return 0;
}

static void dg_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    dg_values q;
    gb_read(t, c, ct_dgsimt_params_2d, CT_DGSIMT_NPARAMS_2D, q.v);
    if (q.OUT_X < 1 || q.OUT_Y < 1 || q.CIN_PER_THREAD < 1 || q.CIN_SLICES < 1 || q.TILE_H < 0 || q.TILE_W < 0 ||
        q.COUT_CHUNK < 0)
        return;
    /* Pixels per thread: whole stride steps (the list's values need not be
     * multiples of a stride of 3). */
    q.OUT_X = (long)ct_rup(q.OUT_X, s->sx);
    q.OUT_Y = (long)ct_rup(q.OUT_Y, s->sy);
    /* More pixels per thread than the plane has (in stride steps): the plane. */
    if (q.OUT_Y > ct_rup(s->h, s->sy))
        q.OUT_Y = (long)ct_rup(s->h, s->sy);
    if (q.OUT_X > ct_rup(s->w, s->sx))
        q.OUT_X = (long)ct_rup(s->w, s->sx);
    dg_geom g;
    dg_geometry(s, &q, &g);
    const long long groups = ct_tc_ngroups(s), coutg = s->cout / groups;
    q.CIN_PER_THREAD = (long)g.cpt;
    /* The nearest slice count at or below the request that a block holds:
     * whole groups (at most all), or a divisor of a group's slices. */
    long nsl = (long)min_ll(q.CIN_SLICES, groups * g.ncg);
    if (nsl >= g.ncg)
        nsl -= nsl % (long)g.ncg;
    else
        while (g.ncg % nsl != 0)
            nsl--;
    q.CIN_SLICES = nsl;
    q.COUT_CHUNK = g.nch == 1 ? 0 : (long)ct_cdiv(coutg, g.nch);
    if (q.SPLIT > g.nch)
        q.SPLIT = (long)g.nch;
    dg_values e = q;
    e.TILE_H = g.th >= s->h ? 0 : (long)g.th;
    e.TILE_W = g.tw >= s->w ? 0 : (long)g.tw;
    dg_geom again;
    dg_geometry(s, &e, &again);
    if (again.th == g.th && again.tw == g.tw)
        q = e;
    gb_write(t, c, ct_dgsimt_params_2d, CT_DGSIMT_NPARAMS_2D, q.v);
}

static void dg_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    dg_values q;
    gb_read(t, c, ct_dgsimt_params_2d, CT_DGSIMT_NPARAMS_2D, q.v);
    dg_geom g;
    dg_geometry(s, &q, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.blocks;
    l->grid[1] = 1;
    l->grid[2] = (unsigned)g.split;
    l->block[0] = (unsigned)g.nt;
    l->block[1] = l->block[2] = 1;
    l->smem_bytes = (unsigned)g.smem;
}

const ct_kernel_kind ct_kind_dgsimt = {.name = "dgsimt", .layouts = CT_LAYOUT_BOTH, .any_layer = 1,
                                       .passes = CT_PASS_BIT(CT_PASS_DGRAD), .constrain = dg_constrain,
                                       .normalize = dg_normalize, .launch = dg_launch};

/* ==== wgsimt ============================================================ */

typedef struct wg_geom {
    long long mr, nms, mb, nmb, nb, nnb, gpb, ngs, own, rs, nt, minb, toh, tow, nty, ntx, nchk, nseg;
    long long s_dy, nwl, sih, siwp, xchp, s_x, e, stages, smem, blocks, split, run, total;
} wg_geom;

static void wg_geometry(const ct_tc_shape *s, const wg_values *q, wg_geom *g)
{
    memset(g, 0, sizeof *g);
    if (q->CO_PER_THREAD < 1 || q->CO_TILE < 0 || q->CIN_TILE < 0 || q->GROUPS_PER_BLOCK < 1 ||
        q->RED_SLICES < 1 || q->OUT_X < 1 || q->TILE_OH < 0 || q->TILE_OW < 0 || q->SPLIT < 1 || q->STAGES < 1)
        return;
    const long long groups = ct_tc_ngroups(s), cing = s->cin / groups, coutg = s->cout / groups;
    const long long ox = q->OUT_X;
    g->mr = GBS_MIN(q->CO_PER_THREAD, coutg);
    g->nms = GBS_WG_NMS(GBS_REQ(coutg, q->CO_TILE), g->mr);
    g->mb = GBS_WG_MB(g->nms, g->mr);
    g->nmb = GBS_CDIV(coutg, g->mb);
    g->nb = GBS_REQ(cing, q->CIN_TILE);
    g->nnb = GBS_CDIV(cing, g->nb);
    g->gpb = q->GROUPS_PER_BLOCK;
    g->ngs = GBS_CDIV(groups, g->gpb);
    g->own = GBS_WG_OWN(g->gpb, g->nms, g->nb, s->kh);
    g->rs = q->RED_SLICES;
    g->nt = GBS_WG_NT(g->own, g->rs);
    g->minb = GBS_MINB(g->nt);
    g->toh = GBS_TILE(s->oh, q->TILE_OH, 1);
    g->tow = GBS_TILE(s->ow, q->TILE_OW, ox);
    g->nty = GBS_CDIV(s->oh, g->toh), g->ntx = GBS_CDIV(s->ow, g->tow);
    g->nchk = GBS_WG_NCHK(s->b, g->nty, g->ntx);
    g->nseg = GBS_WG_NSEG(g->toh, GBS_WG_SEGX(g->tow, ox));
    g->s_dy = GBS_WG_S_DY(g->gpb, g->mb, g->toh * GBS_WG_TOWP(g->tow));
    const long long nwx = GBS_WG_NWX(ox, s->sx, s->kw, s->dx);
    const long long lv = GBS_LV(ox * s->sx);
    g->nwl = GBS_RUP(nwx, lv);
    g->sih = GBS_WG_SIH(g->toh, s->sy, s->kh, s->dy);
    /* Padded x rows and channels (WG_SIWP, WG_XCHP): a warp's windows in
     * distinct banks. */
    g->siwp = GBS_WG_SIWP(GBS_WG_SIWL(g->tow, ox, s->sx, g->nwl), lv);
    g->xchp = GBS_WG_XCHP(g->sih, g->siwp, s->kh, s->dy);
    g->s_x = GBS_WG_S_X(g->gpb, g->nb, g->xchp);
    g->e = GBS_WG_E(g->mr, s->kw, s->bias);
    const long long red = g->rs * g->own * g->e;
    g->stages = q->STAGES;
    const long long staged = g->stages * GBS_WG_S_ST(g->s_dy, g->s_x);
    g->smem = 4 * (staged > red ? staged : red);
    g->blocks = g->ngs * g->nmb * g->nnb;
    g->split = q->SPLIT;
    g->run = ct_cdiv(g->nchk, g->split) * ct_cdiv(g->nseg, g->rs) * ox;
    g->total = ct_pass_w_count(s) + (s->bias ? s->cout : 0);
}

static int wg_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len)
{
    if (gb_depthwise(t, s, why, len))
        return 1;
    wg_values q;
    gb_read(t, c, ct_wgsimt_params_2d, CT_WGSIMT_NPARAMS_2D, q.v);
    if (q.CO_PER_THREAD < 1 || q.CO_PER_THREAD > 16 || q.CO_TILE < 0 || q.CIN_TILE < 0 ||
        q.GROUPS_PER_BLOCK < 1 || q.GROUPS_PER_BLOCK > 64 || q.RED_SLICES < 1 || q.RED_SLICES > 32 ||
        q.OUT_X < 1 || q.OUT_X > 16 || q.TILE_OH < 0 || q.TILE_OW < 0 || q.SPLIT < 1 || q.SPLIT > 65535 ||
        q.STAGES < 1 || q.STAGES > 2) {
        snprintf(why, len, "CO_PER_THREAD and OUT_X in 1..16, GROUPS_PER_BLOCK in 1..64, RED_SLICES in 1..32, "
                 "SPLIT in 1..65535, STAGES 1 or 2, tiles >= 0");
        return 1;
    }
    /* cp.async copies 4-byte elements as they are (no widening) from
     * sm_80; elsewhere a second stage only costs shared memory. */
    if (q.STAGES == 2 && (lim->cc_major < 8 || (s->p && ct_problem_dtype(s->p) != CT_DTYPE_F32))) {
        snprintf(why, len, "STAGES=2 copies by cp.async: fp32 on sm_80 and later only");
        return 1;
    }
    wg_geom g;
    wg_geometry(s, &q, &g);
    if (g.gpb > 1 && (g.nmb > 1 || g.nnb > 1 || g.gpb > ct_tc_ngroups(s))) {
        snprintf(why, len, "GROUPS_PER_BLOCK=%lld takes whole groups: the channel tiles must cover a group and "
                 "the layer have as many", g.gpb);
        return 1;
    }
    const double work = (double)s->b * (double)s->oh * (double)s->ow * (double)ct_pass_w_count(s);
    if (g.nt > 512 || g.nt > lim->max_threads_per_block || (g.nt < 64 && work >= 1e9)) {
        snprintf(why, len, "%lld threads per block: outside 64 .. 512", g.nt);
        return 1;
    }
    if (g.split > g.nchk) {
        snprintf(why, len, "SPLIT=%lld exceeds the %lld chunks of the reduction", g.split, g.nchk);
        return 1;
    }
    /* More reduction lanes than a chunk has row segments: idle lanes. */
    if (g.rs > 1 && g.rs > g.nseg) {
        snprintf(why, len, "RED_SLICES=%lld exceeds a chunk's %lld row segments", g.rs, g.nseg);
        return 1;
    }
    /* A slice of under 4 chunks: its block's staging and the workspace
     * round trip outweigh the parallelism it adds. */
    if (g.split > 1 && g.nchk < 4 * g.split) {
        snprintf(why, len, "SPLIT=%lld leaves under 4 of the %lld chunks per slice", g.split, g.nchk);
        return 1;
    }
    /* fp32 accuracy: each lane's partial sums a bounded run of products. */
    if (g.run > GB_MAX_RUN) {
        snprintf(why, len, "a lane sums %lld products in fp32 (more than %d): more SPLIT or RED_SLICES", g.run,
                 GB_MAX_RUN);
        return 1;
    }
    /* Owners past a group's channels, idle lanes, tile padding: more than
     * 40% thrown away loses to another shape on layers of 1e9 FMAs. */
    const double chan = (double)ct_pass_w_count(s) / ((double)g.blocks * (double)g.own * (double)(g.mr * s->kw));
    const double lanes = (double)(g.own * g.rs) / (double)g.nt;
    const double pix = (double)(s->oh * s->ow) / ((double)(g.nty * g.toh) * (double)(g.ntx * g.tow));
    if (chan * lanes * pix < 0.6 && work >= 1e9) {
        snprintf(why, len, "only %.0f%% of the FMAs are useful (channels %.0f%%, lanes %.0f%%, pixels %.0f%%)",
                 100 * chan * lanes * pix, 100 * chan, 100 * lanes, 100 * pix);
        return 1;
    }
    /* Two blocks per SM at least on layers of 1e9 FMAs: a smaller grid
     * leaves SMs idle where more SPLIT or smaller tiles fill them. */
    if (g.blocks * g.split < GB_FILL_BLOCKS && work >= 1e9) {
        snprintf(why, len, "%lld blocks do not give a large GPU's SMs two each (%d)", g.blocks * g.split,
                 GB_FILL_BLOCKS);
        return 1;
    }
    if (g.mr * s->kw * q.OUT_X > GB_MAX_BODY / 2) {
        snprintf(why, len, "CO_PER_THREAD x KW x OUT_X = %lld unrolled FMAs exceed %d", g.mr * s->kw * q.OUT_X,
                 GB_MAX_BODY / 2);
        return 1;
    }
    if (gb_smem_exceeds(g.smem, lim, why, len))
        return 1;
    /* Chunks narrower than the row only where a whole row does not fit:
     * otherwise they add halo columns and barriers for nothing. */
    if (g.tow < s->ow) {
        wg_values whole = q;
        whole.TILE_OW = 0;
        wg_geom gw;
        wg_geometry(s, &whole, &gw);
        char tmp[200];
        if (!gb_smem_exceeds(gw.smem, lim, tmp, sizeof tmp)) {
            snprintf(why, len, "TILE_OW=%ld: a whole row of %lld columns fits in shared memory", q.TILE_OW, s->ow);
            return 1;
        }
    }
    if (ct_regs_exceed(lim, g.mr * s->kw + g.nwl + q.OUT_X + (s->bias ? g.mr : 0) + 24, g.nt, g.minb, why, len))
        return 1;
    if (g.blocks > GB_MAX_GRID || g.split * g.total * 4 > GB_MAX_WS) {
        snprintf(why, len, "%lld blocks or a %lld-byte workspace exceed the limits", g.blocks,
                 g.split * g.total * 4);
        return 1;
    }
    return 0;
}

static void wg_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    wg_values q;
    gb_read(t, c, ct_wgsimt_params_2d, CT_WGSIMT_NPARAMS_2D, q.v);
    if (q.OUT_X > s->ow)
        q.OUT_X = (long)s->ow;
    wg_geom g;
    wg_geometry(s, &q, &g);
    if (g.mr < 1)
        return;
    const long long groups = ct_tc_ngroups(s), cing = s->cin / groups, coutg = s->cout / groups;
    q.CO_PER_THREAD = (long)g.mr;
    q.CO_TILE = g.mb >= coutg ? 0 : (long)g.mb;
    q.CIN_TILE = g.nb >= cing ? 0 : (long)g.nb;
    if (q.GROUPS_PER_BLOCK > groups)
        q.GROUPS_PER_BLOCK = (long)groups;
    if (q.SPLIT > g.nchk)
        q.SPLIT = (long)g.nchk;
    wg_values e = q;
    e.TILE_OH = g.toh >= s->oh ? 0 : (long)g.toh;
    e.TILE_OW = g.tow >= s->ow ? 0 : (long)g.tow;
    wg_geom again;
    wg_geometry(s, &e, &again);
    if (again.toh == g.toh && again.tow == g.tow)
        q = e;
    gb_write(t, c, ct_wgsimt_params_2d, CT_WGSIMT_NPARAMS_2D, q.v);
}

static void wg_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    wg_values q;
    gb_read(t, c, ct_wgsimt_params_2d, CT_WGSIMT_NPARAMS_2D, q.v);
    wg_geom g;
    wg_geometry(s, &q, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.blocks;
    l->grid[1] = 1;
    l->grid[2] = (unsigned)g.split;
    l->block[0] = (unsigned)g.nt;
    l->block[1] = l->block[2] = 1;
    l->smem_bytes = (unsigned)g.smem;
}

const ct_kernel_kind ct_kind_wgsimt = {.name = "wgsimt", .layouts = CT_LAYOUT_BOTH, .any_layer = 1,
                                       .passes = CT_PASS_BIT(CT_PASS_WGRAD), .constrain = wg_constrain,
                                       .normalize = wg_normalize, .launch = wg_launch};

/* ---- the executor of both kinds: with SPLIT > 1 the main kernel writes
 * each slice's partials into a workspace and <template>_reduce adds them
 * into dx, or dW (and db); with SPLIT = 1 the main kernel writes them. The
 * launches are ws_exec.c's; the export's host code is this file's. ---- */

/* The reduce kernel's blocks of 256 threads: a warp per gradient element
 * under CT_WG_WARP_BELOW elements (few elements: each one's slices read by
 * 32 lanes at once), a thread per element above (ct_gemmbwd.cuh). */
#define CT_WG_WARP_BELOW 65536
static unsigned wg_reduce_grid(long long count)
{
    return (unsigned)(count < CT_WG_WARP_BELOW ? ct_cdiv(count, 8) : ct_cdiv(count, 256));
}

/* Host code of the export: with SPLIT > 1 the workspace is made on the
 * first call and kept; <sym>_release() frees it. */
static void gb_emit(const ct_executor *x, FILE *f, const ct_problem *p, const ct_params *c, const char *sym,
                    const char *signature)
{
    const ct_template *t = ct_ws_template(p, x);
    ct_buffer b[CT_MAX_BUFS];
    int nb = p->family->buffers(p, b);
    const long long count = (long long)ct_problem_output_count(p);
    const char *name = t ? t->name : "missing_template";
    ct_launch l;
    memset(&l, 0, sizeof l);
    if (t)
        p->family->geometry(p, t, c, &l);
    const int split = l.grid[2] > 1;
    if (split)
        fprintf(f, "// The split reduction's workspace, made on the first call and kept (not\n"
                   "// thread-safe: call once from one thread first, or guard the first call).\n"
                   "static float *ct_ws;\n\n");
    fprintf(f, "extern \"C\" void %s_release(void)\n{\n%s}\n\n", sym,
            split ? "    cudaFree(ct_ws);\n    ct_ws = 0;\n" : "");
    fprintf(f, "extern \"C\" %s\n{\n", signature);
    if (split)
        fprintf(f, "    if (!ct_ws) {\n"
                   "        cudaError_t err = cudaMalloc((void **)&ct_ws, (size_t)CT_GRID_Z * %lldULL * sizeof(float));\n"
                   "        if (err != cudaSuccess)\n            return (int)err;\n    }\n",
                count);
    ct_export_emit_smem_optin(f, name);
    /* A half-type launcher takes void pointers: cast them to the kernel's
     * ct_elem (float for fp32, whose launcher takes floats: a no-op). */
    fprintf(f, "    %s<<<dim3(CT_GRID_X, CT_GRID_Y, CT_GRID_Z), CT_BLOCK_X, CT_SMEM_BYTES, stream>>>((const ct_elem *)%s, "
               "(const ct_elem *)%s, %s%s);\n",
            name, b[0].name, b[1].name, split ? "" : "(ct_elem *)", split ? "ct_ws" : b[nb - 1].name);
    if (split)
        fprintf(f, "    %s_reduce<<<%u, 256, 0, stream>>>(ct_ws, (ct_elem *)%s);\n", name, wg_reduce_grid(count),
                b[nb - 1].name);
    fprintf(f, "    return (int)cudaGetLastError();\n}\n");
}

/* The splits along the grid's z; SPLIT = 1 writes the output directly. */
static const ct_ws_exec dg_ws = {.exec = &ct_dgsimt_exec, .split_axis = 2, .reduce_grid = wg_reduce_grid,
                                 .what = "split workspace"};
static const ct_ws_exec wg_ws = {.exec = &ct_wgsimt_exec, .split_axis = 2, .reduce_grid = wg_reduce_grid,
                                 .what = "split workspace"};

static ct_status dg_setup(const ct_problem *p, const ct_params *c, const ct_drv *d, CUmodule mod,
                          const CUdeviceptr *bufs, void **out, ct_err *e)
{
    return ct_ws_setup(&dg_ws, p, c, d, mod, bufs, out, e);
}

static ct_status wg_setup(const ct_problem *p, const ct_params *c, const ct_drv *d, CUmodule mod,
                          const CUdeviceptr *bufs, void **out, ct_err *e)
{
    return ct_ws_setup(&wg_ws, p, c, d, mod, bufs, out, e);
}

static void dg_emit(FILE *f, const ct_problem *p, const ct_params *c, const char *sym, const char *signature)
{
    gb_emit(&ct_dgsimt_exec, f, p, c, sym, signature);
}

static void wg_emit(FILE *f, const ct_problem *p, const ct_params *c, const char *sym, const char *signature)
{
    gb_emit(&ct_wgsimt_exec, f, p, c, sym, signature);
}

const ct_executor ct_dgsimt_exec = {
    .library = "CUDA runtime",
    .link_flags = "",
    .setup = dg_setup,
    .run = ct_ws_run,
    .teardown = ct_ws_teardown,
    .resources = ct_ws_resources,
    .emit_launcher = dg_emit,
};

const ct_executor ct_wgsimt_exec = {
    .library = "CUDA runtime",
    .link_flags = "",
    .setup = wg_setup,
    .run = ct_ws_run,
    .teardown = ct_ws_teardown,
    .resources = ct_ws_resources,
    .emit_launcher = wg_emit,
};
