/* tc16_conv.c - parameters, sizes, constraints and launch geometry of the
 * half-precision tensor-core kinds of this folder (ct_conv_tc16.cuh,
 * ct_conv_tc16cl.cuh, ct_conv_tc16w.cuh); the derived sizes are
 * tc16_sizes.cuh's (tc16, tc16cl: ct_conv_tc16_core.cuh expands them too)
 * and tc16w_sizes.cuh's (tc16w: ct_conv_tc16w.cuh). */
#include "tc16_conv.h"
#include "intmath.h"
#include "tc16_sizes.cuh"
#include "tc16w_sizes.cuh"

#include "tc_shape.h"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

/* Each parameter once; the 1D tc16 list lacks the rows. */
#define T16_HEAD(X) X(COUT_TILE, 64, CT_INT(0), "output channels per block (WARPS_M x a multiple of 16)")
#define T16_ROWS(X) X(TILE_OH, 1, CT_INT(0), "output rows per block")
#define T16_TILE(X)                                                                                           \
    X(TILE_OW, 16, CT_INT(0), "output columns per block (pixels rounded up to WARPS_N x 8k)")                \
    X(WARPS_M, 2, CT_WARPS(0), "warps along the output channels")                                           \
    X(WARPS_N, 2, CT_WARPS(0), "warps along the output pixels")                                             \
    X(CIN_CHUNK, 32, CT_INT(0), "input channels staged (transposed, channel-innermost) at a time, a "       \
                                "multiple of 16 up to 64")
#define T16_PREFETCH(X)                                                                                       \
    X(PREFETCH, 1, CT_INT(0), "1: two buffers, the next chunk loaded into registers during this one's mma "  \
                              "steps; 0: one buffer copied between barriers (fewer registers)")
#define T16_STAGES(X)                                                                                         \
    X(STAGES, 2, CT_INT(0), "channels-last: shared-memory stages, the input's cp.async copies of STAGES - 1 " \
                            "chunks ahead in flight during a chunk's mma steps (1 to 4)")
#define T16_TAIL(X) X(MIN_BLOCKS, 1, CT_INT(0), "minimum resident blocks per SM (__launch_bounds__)")
#define T16_BODY(X) T16_TILE(X) T16_PREFETCH(X) T16_TAIL(X)
#define T16_CLBODY(X) T16_TILE(X) T16_STAGES(X) T16_TAIL(X)
#define T16_ALL(X) T16_HEAD(X) T16_ROWS(X) T16_BODY(X)
/* Every name of either list, for the values union. */
#define T16_UNION(X) T16_ALL(X) T16_STAGES(X)

const ct_param_def ct_tc16_params_2d[CT_TC16_NPARAMS_2D] = CT_PARAM_TABLE(T16_ALL);
const ct_param_def ct_tc16_params_1d[CT_TC16_NPARAMS_1D] = {T16_HEAD(CT_PARAM_DEF) T16_BODY(CT_PARAM_DEF)};
const ct_param_def ct_tc16cl_params_2d[CT_TC16_NPARAMS_2D] = {T16_HEAD(CT_PARAM_DEF) T16_ROWS(CT_PARAM_DEF)
                                                                  T16_CLBODY(CT_PARAM_DEF)};
const ct_param_def ct_tc16cl_params_1d[CT_TC16_NPARAMS_1D] = {T16_HEAD(CT_PARAM_DEF) T16_CLBODY(CT_PARAM_DEF)};
static const ct_param_def t16_union_params[] = CT_PARAM_TABLE(T16_UNION);
_Static_assert(CT_PARAM_COUNT(T16_ALL) == CT_TC16_NPARAMS_2D, "CT_TC16_NPARAMS_2D is the 2D list's length");
CT_PARAM_UNION(t16, T16_UNION)

#define T16W_LIST(X)                                                                                          \
    X(WARPS_M, 1, CT_WARPS(0), "16-row m-fragments (output channels) per block, one warp row each")          \
    X(WARPS_K, 8, CT_WARPS(0), "warps splitting the reduction within a block, added through shared memory") \
    X(TILE_N, 8, CT_INT(0), "output pixels per block (8, 16 or 32): the im2col rows in shared memory")      \
    X(UNROLL, 2, CT_INT(0), "32-value weight groups a warp has in flight ahead of its mma steps (1, 2, 4)")  \
    X(CLUSTER_K, 1, CT_INT(0), "blocks of a thread-block cluster (sm_90) splitting the reduction, their "    \
                               "partial sums added through distributed shared memory (1, 2, 4, 8)")         \
    X(MIN_BLOCKS, 1, CT_INT(0), "minimum resident blocks per SM (__launch_bounds__)")                       \
    X(STAGE_X, 0, CT_INT(0), "1: the input planes a block reads copied to shared memory with 16-byte loads "  \
                             "before its im2col (one round of latency), and a cluster's sums added in "     \
                             "each block before the exchange; 0: the im2col gathered from global memory")
const ct_param_def ct_tc16w_params[CT_TC16W_NPARAMS] = CT_PARAM_TABLE(T16W_LIST);
_Static_assert(CT_PARAM_COUNT(T16W_LIST) == CT_TC16W_NPARAMS, "CT_TC16W_NPARAMS is the list's length");
CT_PARAM_VALUES(t16w, T16W_LIST, ct_tc16w_params)

static int is_stream(const ct_template *t)
{
    return t->kind->stream;
}

/* A tc16 candidate; a 1D one has TILE_OH 1 (its kernel defines it), and
 * each reads 1 for the parameter of the other kind (PREFETCH, STAGES). */
static t16_values t16_get(const ct_template *t, const ct_params *c)
{
    t16_values q;
    ct_params_read_part(c, t->params, t->nparams, t16_union_params, CT_PARAM_COUNT(T16_UNION), 1, q.v);
    return q;
}

static void t16_put(const ct_template *t, ct_params *c, const t16_values *q)
{
    ct_params_write_part(c, t->params, t->nparams, t16_union_params, CT_PARAM_COUNT(T16_UNION), q->v);
}

static long long max2(long long a, long long b)
{
    return a > b ? a : b;
}

/* s is one group's layer (ct_tc_per_group); the grid's y covers them all. */
static void tiled_geometry(const ct_template *t, const ct_tc_shape *s, long long groups, const ct_params *c,
                           ct_tc16_geom *g)
{
    const t16_values q = t16_get(t, c);
    g->bm = q.COUT_TILE;
    g->toh = q.TILE_OH;
    g->tow = q.TILE_OW;
    g->warps_m = q.WARPS_M;
    g->warps_n = q.WARPS_N;
    g->ck = q.CIN_CHUNK;
    g->prefetch = q.PREFETCH;
    g->cl = ct_kind_channels_last(t);
    g->stages = q.STAGES;
    g->minb = q.MIN_BLOCKS;
    if (g->bm < 1 || g->toh < 1 || g->tow < 1 || g->warps_m < 1 || g->warps_n < 1 || g->ck < 16)
        return;
    /* The kernels' TC_* sizes, tc16_sizes.cuh's expressions. */
    g->bn = TC16_BN(g->toh, g->tow, g->warps_n);
    g->nt = TC16_NT(g->warps_m, g->warps_n);
    g->wm = TC16_WM(g->bm, g->warps_m);
    g->wn = TC16_WN(g->bn, g->warps_n);
    g->mf = TC16_MF(g->wm);
    g->nf = TC16_NF(g->wn);
    g->nch = TC16_NCH(s->cin, g->ck);
    g->khw = TC16_KHW(s->kh, s->kw);
    g->ap = TC16_AP(g->khw, g->ck);
    g->cp = TC16_CP(g->ck);
    g->ih = TC16_IH(g->toh, s->sy, s->kh, s->dy);
    g->iw = TC16_IW(g->tow, s->sx, s->kw, s->dx);
    g->sa = TC16_SA(g->bm, g->ap);
    g->sb = TC16_SB(g->ih, g->iw, g->cp);
    g->stage = TC16_STAGE(g->sa, g->sb);
    g->nbuf = g->cl ? TC16_NST(g->nch, g->stages) : TC16_NBUF(g->prefetch, g->nch);
    g->ty = TC16_CDIV(s->oh, g->toh);
    g->tx = TC16_CDIV(s->ow, g->tow);
    g->wr = TC16_WR(TC16_WS(g->bm, g->khw), g->nt);
    g->ir = TC16_IR(TC16_IS(g->ih, g->iw), g->nt);
    /* Channels-last stages and the NCHW one of PREFETCH 0 add the raw
     * weights ([row][c][tap], transposed in place); channels-last outputs
     * are staged as [pixel][channel] after the loop. */
    g->op = TC16_OP(g->bm);
    g->clstage = TC16_CLSTAGE(g->stage, TC16_SR(g->bm, TC16_RK(g->ck, g->khw)));
    g->smem_bytes = 2 * (g->cl         ? max2(g->nbuf * g->clstage, g->bn * g->op)
                         : g->prefetch ? g->nbuf * g->stage
                                       : g->clstage);
    g->grid_x = s->b * g->ty * g->tx;
    g->grid_y = TC16_CDIV(s->cout, g->bm) * groups;
    /* Accumulators, the chunk's elements in flight (ptxas packs the pairs
     * only when it stores them: a register each; channels-last copies by
     * cp.async and holds none; nor do NCHW weights at PREFETCH 0), one step's fragments and about 40 for
     * addresses and the loop: within 16 of ptxas on the seed layer's
     * candidates. */
    const long long base = g->mf * g->nf * 4 + g->mf * 4 + g->nf * 2 + 40;
    /* PREFETCH 0 NCHW input slots: column pairs (TC_IPAIR) or pixels. */
    g->ipair = !g->cl && !g->prefetch && TC16_IPAIR(s->w, g->tow, s->sx);
    g->ioff = TC16_IOFF(s->pw);
    g->npr = TC16_NPR(g->iw, g->ioff);
    g->irx = TC16_IRX(g->ipair, TC16_IS2(g->ih, g->npr), g->nt, g->ir);
    g->istep = !g->cl && !g->prefetch && g->nt > 0 && g->minb > 0
                   ? TC16_ISTEP(g->irx, g->mf, g->nf, g->ck, TC16_RBUDGET(g->nt, g->minb))
                   : 1;
    g->regs = base + (g->nbuf > 1 && !g->cl ? (g->wr + g->ir) * g->ck : g->istep * g->ck);
}

static void stream_geometry(const ct_tc_shape *s, long long groups, const ct_params *c, ct_tc16_geom *g)
{
    const t16w_values q = t16w_get(c);
    g->stream = 1;
    g->warps_m = q.WARPS_M;
    g->warps_k = q.WARPS_K;
    g->tile_n = q.TILE_N;
    g->unroll = q.UNROLL;
    g->minb = q.MIN_BLOCKS;
    g->cluster_k = q.CLUSTER_K;
    g->stage_x = q.STAGE_X;
    if (g->warps_m < 1 || g->warps_k < 1 || g->tile_n < 8 || g->unroll < 1 || g->cluster_k < 1)
        return;
    g->bm = TCW_BM(g->warps_m);
    g->nt = TCW_NT(g->warps_m, g->warps_k);
    g->nf = TCW_NF(g->tile_n);
    g->khw = TCW_KHW(s->kh, s->kw);
    g->kall = TCW_KALL(s->cin, g->khw);
    g->nkg = TCW_NKG(g->kall);
    g->nkgb = TCW_NKGB(g->nkg, g->cluster_k);
    g->kp = TCW_KP(g->nkgb);
    g->ntot = TCW_NTOT(s->b, s->oh, s->ow);
    /* STAGE_X (ct_conv_tc16w.cuh's TC_XIMG, TC_XP): a row per image the
     * block's pixels can touch, of the planes of the channels its groups
     * span, after the im2col; the blocks' sums after the warps'. */
    const long long ohw = s->oh * s->ow, xch = TCW_XCH(g->nkgb, g->khw);
    g->ximg = g->stage_x ? TCW_XIMG(s->b, g->tile_n, ohw) : 0;
    g->xp = g->stage_x ? TCW_XP(xch, s->h * s->w) : 0;
    g->smem_bytes = TCW_SMEM(g->tile_n, g->kp, g->ximg, g->xp, g->warps_k, (g->stage_x && g->cluster_k > 1), g->bm);
    g->grid_x = TCW_CDIV(g->ntot, g->tile_n);
    g->grid_y = TCW_NCT(s->cout, g->bm) * groups;
    g->grid_z = g->cluster_k;
    /* Accumulators, this and the next iteration's weight loads (4 words
     * each, two rows), an im2col load and about 40 (ptxas: 90 at 4 + 64 +
     * 4 + 40). */
    g->regs = g->nf * 4 + 16 * g->unroll + 4 + 40;
}

void ct_tc16_geometry_of(const ct_template *t, const ct_tc_shape *layer, const ct_params *c, ct_tc16_geom *g)
{
    const ct_tc_shape one = ct_tc_per_group(layer);
    memset(g, 0, sizeof *g);
    if (is_stream(t))
        stream_geometry(&one, ct_tc_ngroups(layer), c, g);
    else
        tiled_geometry(t, &one, ct_tc_ngroups(layer), c, g);
}

static int grid_exceeds(const ct_tc16_geom *g, char *why, size_t len)
{
    if (g->grid_x <= 2147483647LL && g->grid_y <= 65535)
        return 0;
    snprintf(why, len, "the grid exceeds the device's limits");
    return 1;
}

static int tiled_constrain(const ct_tc_shape *s, const ct_tc16_geom *g, const ct_limits *lim, char *why,
                           size_t len)
{
    if (g->bm < 16 || g->toh < 1 || g->tow < 1 || g->warps_m < 1 || g->warps_n < 1 || g->ck % 16 != 0 ||
        g->ck < 16 || g->ck > 64 || g->minb < 1 || g->prefetch < 0 || g->prefetch > 1 || g->stages < 1 ||
        g->stages > 4) {
        snprintf(why, len, "COUT_TILE >= 16, tiles, warps and MIN_BLOCKS >= 1, CIN_CHUNK 16, 32, 48 or 64, "
                 "PREFETCH 0 or 1, STAGES 1 to 4");
        return 1;
    }
    if (g->bm % (16 * g->warps_m) != 0) {
        snprintf(why, len, "COUT_TILE=%lld is not WARPS_M=%lld x a multiple of 16", g->bm, g->warps_m);
        return 1;
    }
    if (g->nt > lim->max_threads_per_block) {
        snprintf(why, len, "%lld warps exceed the device's %d threads", g->nt / 32, lim->max_threads_per_block);
        return 1;
    }
    if (g->bm > 16 * g->warps_m && g->bm >= 2 * ct_rup(s->cout, 16)) {
        snprintf(why, len, "COUT_TILE=%lld is twice the %lld output channels", g->bm, s->cout);
        return 1;
    }
    if (g->toh > s->oh || g->tow > s->ow) {
        snprintf(why, len, "a %lldx%lld tile exceeds the %lldx%lld output", g->toh, g->tow, s->oh, s->ow);
        return 1;
    }
    /* Idle work as in tc_conv.c: tile fit, channel tiles, and channels
     * padded to the chunk. A layer of fewer than 16 channels pads whatever
     * the candidate, so there the reduction's share is not held against it. */
    const double pix = (double)(s->oh * s->ow) / ((double)(g->ty * g->tx) * (double)g->bn);
    const double chan = (double)s->cout / (double)ct_rup(s->cout, g->bm);
    const double red = (double)s->cin / (double)(g->nch * g->ck);
    const double eff = pix * chan * (s->cin >= 16 ? red : 1.0);
    if (eff < 0.6 && (double)s->b * (double)s->oh * (double)s->ow >= 4096.0 && s->cout >= 64) {
        snprintf(why, len, "only %.0f%% of the tensor-core work is useful (tile fit %.0f%%, channels %.0f%%, "
                 "reduction %.0f%%)", 100 * eff, 100 * pix, 100 * chan, 100 * red);
        return 1;
    }
    /* A warp tile under 32x32 spends one ldmatrix on every one or two mma
     * steps: on a layer large enough for bigger tiles it only loses. */
    if (g->mf * g->nf < 8 && (double)s->b * (double)s->oh * (double)s->ow >= 4096.0 && s->cout >= 32) {
        snprintf(why, len, "a %lldx%lld warp tile (under 32x32) on a layer with room for larger ones",
                 16 * g->mf, 8 * g->nf);
        return 1;
    }
    /* The unrolled mma steps of a chunk: past this, code size and NVRTC
     * time grow with nothing to gain (a 3x3, 64-channel chunk of a 64x64
     * warp tile is 1152). */
    const long long body = g->mf * g->nf * (g->khw * g->ck / 16 <= 36 ? g->khw * g->ck / 16 : 4);
    if (body > 1152) {
        snprintf(why, len, "%lld mma instructions in one unrolled chunk exceed 1152", body);
        return 1;
    }
    if (g->smem_bytes > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of shared memory exceed the device's %d", g->smem_bytes,
                 lim->max_smem_per_block);
        return 1;
    }
    if (grid_exceeds(g, why, len))
        return 1;
    return ct_regs_exceed(lim, g->regs, g->nt, g->minb, why, len);
}

/* Past this many pixels a layer reads its weights from L2 once per
 * TILE_N of them; the tiled tc16 template reads them once per image tile
 * and is the one to tune. */
#define STREAM_MAX_PIXELS 256

static int stream_constrain(const ct_tc_shape *s, const ct_tc16_geom *g, const ct_limits *lim, char *why,
                            size_t len)
{
    if (g->warps_m < 1 || g->warps_k < 1 || (g->tile_n != 8 && g->tile_n != 16 && g->tile_n != 32) ||
        (g->unroll != 1 && g->unroll != 2 && g->unroll != 4) || g->minb < 1 ||
        (g->cluster_k != 1 && g->cluster_k != 2 && g->cluster_k != 4 && g->cluster_k != 8) ||
        (g->stage_x != 0 && g->stage_x != 1)) {
        snprintf(why, len, "WARPS_M, WARPS_K and MIN_BLOCKS >= 1, TILE_N 8, 16 or 32, UNROLL 1, 2 or 4, "
                 "CLUSTER_K 1, 2, 4 or 8, STAGE_X 0 or 1");
        return 1;
    }
    if (g->cluster_k > 1 && lim->cc_major < 9) {
        snprintf(why, len, "CLUSTER_K=%lld needs thread-block clusters (sm_90 or later)", g->cluster_k);
        return 1;
    }
    if (g->kall % 8 != 0) {
        snprintf(why, len, "16-byte weight loads need Cin/groups x KH x KW = %lld to be a multiple of 8",
                 g->kall);
        return 1;
    }
    if (g->ntot > STREAM_MAX_PIXELS) {
        snprintf(why, len, "%lld output pixels (B x OH x OW) exceed %d: weight streaming is for layers with few",
                 g->ntot, STREAM_MAX_PIXELS);
        return 1;
    }
    if (g->tile_n > ct_rup(g->ntot, 8)) {
        snprintf(why, len, "TILE_N=%lld exceeds the %lld output pixels", g->tile_n, g->ntot);
        return 1;
    }
    if (g->warps_k * g->unroll > g->nkgb) {
        snprintf(why, len, "WARPS_K x UNROLL = %lld exceeds a block's %lld groups of 32 reduction values",
                 g->warps_k * g->unroll, g->nkgb);
        return 1;
    }
    /* A cluster of blocks is for filling the SMs: with more than enough
     * blocks already it only adds the exchange (offline, with no SM count,
     * every split stays). */
    if (g->cluster_k > 1 && lim->sm_count > 0 && g->grid_x * g->grid_y >= lim->sm_count) {
        snprintf(why, len, "CLUSTER_K=%lld on %lld blocks, already as many as the %d SMs", g->cluster_k,
                 g->grid_x * g->grid_y, lim->sm_count);
        return 1;
    }
    if (g->warps_m > 1 && g->bm >= 2 * ct_rup(s->cout, 16)) {
        snprintf(why, len, "WARPS_M=%lld covers twice the %lld output channels", g->warps_m, s->cout);
        return 1;
    }
    if (g->nt > lim->max_threads_per_block) {
        snprintf(why, len, "%lld warps exceed the device's %d threads", g->nt / 32, lim->max_threads_per_block);
        return 1;
    }
    if (g->smem_bytes > lim->max_smem_per_block) {
        snprintf(why, len, "an im2col%s of %lld bytes exceeds the device's %d of shared memory",
                 g->stage_x ? " and staged input" : "", g->smem_bytes, lim->max_smem_per_block);
        return 1;
    }
    if (grid_exceeds(g, why, len))
        return 1;
    return ct_regs_exceed(lim, g->regs, g->nt, g->minb, why, len);
}

int ct_tc16_constrain(const ct_template *t, const ct_tc_shape *layer, const ct_params *c, const ct_limits *lim,
                      char *why, size_t len)
{
    if (ct_tc16_arch_excluded(layer, lim, why, len))
        return 1;
    const ct_tc_shape one = ct_tc_per_group(layer);
    if (ct_tc_depthwise_refused(&one, why, len))
        return 1;
    ct_tc16_geom g;
    ct_tc16_geometry_of(t, layer, c, &g);
    return g.stream ? stream_constrain(&one, &g, lim, why, len) : tiled_constrain(&one, &g, lim, why, len);
}

void ct_tc16_normalize(const ct_template *t, const ct_tc_shape *layer, ct_params *c)
{
    const ct_tc_shape one = ct_tc_per_group(layer), *s = &one;
    if (is_stream(t)) {
        t16w_values q = t16w_get(c);
        /* One tile of 8 pixels covers a layer of up to 8. */
        if (q.TILE_N > ct_rup(s->b * s->oh * s->ow, 8) && q.TILE_N > 8)
            q.TILE_N = 8;
        t16w_put(c, &q);
        return;
    }
    t16_values q = t16_get(t, c);
    if (q.TILE_OW > s->ow)
        q.TILE_OW = (long)s->ow;
    if (q.TILE_OH > s->oh)
        q.TILE_OH = (long)s->oh;
    /* A chunk past the channels (rounded to 16) only stages zeros. */
    if (q.CIN_CHUNK > ct_rup(s->cin, 16) && q.CIN_CHUNK % 16 == 0)
        q.CIN_CHUNK = (long)ct_rup(s->cin, 16);
    /* One chunk: nothing to load ahead; stages past the chunks stay empty. */
    if (q.CIN_CHUNK >= s->cin)
        q.PREFETCH = 0;
    if (q.CIN_CHUNK >= 16 && q.STAGES > ct_cdiv(s->cin, q.CIN_CHUNK))
        q.STAGES = (long)ct_cdiv(s->cin, q.CIN_CHUNK);
    t16_put(t, c, &q);
}

void ct_tc16_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    ct_tc16_geom g;
    ct_tc16_geometry_of(t, s, c, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.grid_x;
    l->grid[1] = (unsigned)g.grid_y;
    l->grid[2] = (unsigned)(g.stream ? g.grid_z : 1);
    l->block[0] = (unsigned)g.nt;
    l->block[1] = l->block[2] = 1;
    l->smem_bytes = (unsigned)g.smem_bytes;
}

#define T16_HOOKS \
    .any_layer = 1, .constrain = ct_tc16_constrain, .normalize = ct_tc16_normalize, .launch = ct_tc16_launch
const ct_kernel_kind ct_kind_tc16 = {.name = "tc16", .layouts = CT_LAYOUT_DEFAULT_ONLY, T16_HOOKS};
const ct_kernel_kind ct_kind_tc16w = {.name = "tc16w", .layouts = CT_LAYOUT_DEFAULT_ONLY, .stream = 1, T16_HOOKS};
const ct_kernel_kind ct_kind_tc16cl = {.name = "tc16cl", .layouts = CT_LAYOUT_CL_ONLY, T16_HOOKS};
