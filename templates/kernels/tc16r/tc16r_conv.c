/* tc16r_conv.c - parameters, sizes, constraints and launch geometry of the
 * resident-weight half-precision tensor-core templates
 * (ct_conv_tc16r.cuh, beside it); tc16rcl's sizes of the tc16 core are
 * tc16_sizes.cuh's, which ct_conv_tc16_core.cuh expands too; tc16g's and
 * tc16gcl's are tc16g_sizes.cuh's, which ct_conv_tc16g_core.cuh and
 * ct_conv_tc16g.cuh expand. */
#include "tc16r_conv.h"
#include "intmath.h"
#include "tc16_sizes.cuh"
#include "tc16g_sizes.cuh"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

#define T16R_LIST(X)                                                                                          \
    X(COUT_TILE, 64, CT_INT(0), "output channels per block (WARPS_M x a multiple of 16), their weights "     \
                                "resident in shared memory")                                                \
    X(TILE_OH, 4, CT_INT(0), "output rows per image tile")                                                  \
    X(TILE_OW, 28, CT_INT(0), "output columns per image tile (pixels rounded up to WARPS_N x 8k)")          \
    X(WARPS_M, 1, CT_WARPS(0), "warps along the output channels")                                           \
    X(WARPS_N, 4, CT_WARPS(0), "warps along the output pixels")                                             \
    X(TILES, 4, CT_INT(0), "consecutive image tiles a block computes against its staged weights")           \
    X(STAGES, 2, CT_INT(0), "tiles whose input copies are in flight, the computed one included (1, 2, 3)")  \
    X(MIN_BLOCKS, 1, CT_INT(0), "minimum resident blocks per SM (__launch_bounds__)")
const ct_param_def ct_tc16rcl_params[CT_TC16R_NPARAMS] = CT_PARAM_TABLE(T16R_LIST);
_Static_assert(CT_PARAM_COUNT(T16R_LIST) == CT_TC16R_NPARAMS, "CT_TC16R_NPARAMS is the list's length");
CT_PARAM_VALUES(t16r, T16R_LIST, ct_tc16rcl_params)

#define T16G_LIST(X)                                                                                          \
    X(WG_M, 1, CT_INT(0), "warpgroups along the output channels, 64 each (their weights resident)")         \
    X(WG_N, 2, CT_INT(0), "warpgroups along the tile's rows (dividing TILE_OH), or with PINGPONG each on "   \
                          "its own tiles")                                                                  \
    X(TILE_OH, 2, CT_INT(0), "output rows per image tile")                                                  \
    X(TILE_OW, 56, CT_INT(0), "output columns per image tile (a wgmma covers a warpgroup's rows: N <= 256)") \
    X(TILES, 7, CT_INT(0), "consecutive image tiles a block computes against its staged weights")           \
    X(STAGES, 3, CT_INT(0), "input buffers: NHWC 2 to 6, NCHW raw ones 1 to 5 (copies STAGES - 1 tiles "   \
                            "ahead)")                                                                       \
    X(PINGPONG, 0, CT_INT(0), "0: the warpgroups split each tile's rows; 1: each walks its own tiles with "  \
                              "its own buffers, its epilogue overlapping the others' wgmma steps")           \
    X(MIN_BLOCKS, 1, CT_INT(0), "minimum resident blocks per SM (__launch_bounds__)")
const ct_param_def ct_tc16g_params[CT_TC16G_NPARAMS] = CT_PARAM_TABLE(T16G_LIST);
_Static_assert(CT_PARAM_COUNT(T16G_LIST) == CT_TC16G_NPARAMS, "CT_TC16G_NPARAMS is the list's length");
CT_PARAM_VALUES(t16g, T16G_LIST, ct_tc16g_params)

/* The largest wgmma N the template's wrappers are written for. */
#define T16G_MAX_N 256

/* The unrolled mma steps of a tile: a 3x3, 64-channel layer's 36 k-steps
 * of a 64x64 warp tile are 1152. */
#define T16R_MAX_BODY 1152

static int is_wgmma(const ct_template *t)
{
    return t->kind->wgmma;
}

static long long max2(long long a, long long b)
{
    return a > b ? a : b;
}

/* ct_conv_tc16g.cuh's sizes (its TC_* macros: tc16g_sizes.cuh's
 * expressions); s is one group's layer, cl the layout. */
static void wgmma_geometry(const ct_tc_shape *s, int cl, long long groups, const ct_params *c, ct_tc16r_geom *g)
{
    const t16g_values q = t16g_get(c);
    g->wgmma = 1;
    g->wg_m = q.WG_M, g->wg_n = q.WG_N, g->toh = q.TILE_OH, g->tow = q.TILE_OW, g->tiles = q.TILES;
    g->stages = q.STAGES, g->minb = q.MIN_BLOCKS, g->pingpong = q.PINGPONG;
    if (g->wg_m < 1 || g->wg_n < 1 || g->toh < 1 || g->tow < 1 || g->tiles < 1 || g->stages < 1)
        return;
    g->bm = TC16G_BM(g->wg_m);
    g->nt = TC16G_NT(g->wg_m, g->wg_n);
    g->rpw = TC16G_RPW(g->pingpong, g->toh, g->wg_n);
    g->ck = ct_rup(s->cin, 16);
    g->khw = TC16G_KHW(s->kh, s->kw);
    g->ih = TC16G_IH(g->toh, s->sy, s->kh, s->dy);
    g->iw = TC16G_IW(g->tow, s->kw, s->dx);
    /* Stride 1 down: one wgmma over a warpgroup's rows (the header's FLAT);
     * else one per row. */
    g->nw = s->sy == 1 ? 1 : g->rpw;
    g->wgn = s->sy == 1 ? TC16G_WN_FLAT(g->rpw, g->iw, g->tow) : TC16G_WN_ROW(g->tow);
    g->ppx = TC16G_PPX(g->ih * g->iw);
    g->sb = TC16G_SB(g->ck, TC16G_PB(g->ppx));       /* bytes here, as the header */
    g->sa = TC16G_SA(g->bm, g->khw, g->ck);
    g->rk = TC16G_RK(s->cin, g->khw);
    const long long rv = TC16G_VEC(s->w);
    g->rw = TC16G_RW(g->iw, rv);
    g->sri = TC16G_SRI(s->cin, g->ih, g->rw);
    /* NHWC: STAGES B buffers and the staged outputs; NCHW: two B buffers
     * and STAGES raw ones. The raw weights overlay all after the first B,
     * rpc channels at a time: as many (a multiple of 16) as fit there, at
     * least 16 (the header's TC_RPC). */
    g->cl = cl;
    const long long region = cl ? TC16G_WGB_CL(g->stages, g->sb, g->toh, g->tow, TC16G_OP(g->bm))
                                : TC16G_WGB_RAW(g->sb, g->stages, g->sri);
    const long long regions = TC16G_NREG(g->pingpong, g->wg_n) * region;
    const long long rpc = TC16G_RPC(TC16G_RPC0(regions, g->sb, g->bm, g->khw), g->ck);
    g->rpc = rpc;
    const long long sr = g->bm * TC16G_RKP(rpc, g->khw) * 2;
    g->smem_bytes = g->sa + max2(regions, g->sb + sr);
    g->ntiles = s->b * ct_cdiv(s->oh, g->toh) * ct_cdiv(s->ow, g->tow);
    g->grid_x = ct_cdiv(g->ntiles, g->tiles);
    g->grid_y = ct_cdiv(s->cout, g->bm) * groups;
    /* The accumulators (N / 2 per chain), as many again packed for the
     * epilogue, and about 24 (ptxas: 79, 198 and 246 at N = 56, 120, 232). */
    g->regs = g->nw * g->wgn + 24;
}

/* s is one group's layer; the grid's y covers the groups' channel tiles. */
void ct_tc16r_geometry_of(const ct_template *t, const ct_tc_shape *layer, const ct_params *c, ct_tc16r_geom *g)
{
    const ct_tc_shape one = ct_tc_per_group(layer), *s = &one;
    memset(g, 0, sizeof *g);
    if (is_wgmma(t)) {
        wgmma_geometry(s, ct_kind_channels_last(t), ct_tc_ngroups(layer), c, g);
        return;
    }
    const t16r_values q = t16r_get(c);
    g->bm = q.COUT_TILE, g->toh = q.TILE_OH, g->tow = q.TILE_OW, g->warps_m = q.WARPS_M, g->warps_n = q.WARPS_N;
    g->tiles = q.TILES, g->stages = q.STAGES, g->minb = q.MIN_BLOCKS;
    if (g->bm < 1 || g->toh < 1 || g->tow < 1 || g->warps_m < 1 || g->warps_n < 1 || g->tiles < 1 || g->stages < 1)
        return;
    /* The tc16 core's TC_* sizes (tc16_sizes.cuh); CIN_CHUNK is all the
     * channels, rounded up to 16 (ct_conv_tc16r.cuh). */
    g->bn = TC16_BN(g->toh, g->tow, g->warps_n);
    g->nt = TC16_NT(g->warps_m, g->warps_n);
    g->wm = TC16_WM(g->bm, g->warps_m);
    g->wn = TC16_WN(g->bn, g->warps_n);
    g->mf = TC16_MF(g->wm);
    g->nf = TC16_NF(g->wn);
    g->ck = ct_rup(s->cin, 16);
    g->khw = TC16_KHW(s->kh, s->kw);
    g->ap = TC16_AP(g->khw, g->ck);
    g->cp = TC16_CP(g->ck);
    g->ih = TC16_IH(g->toh, s->sy, s->kh, s->dy);
    g->iw = TC16_IW(g->tow, s->sx, s->kw, s->dx);
    g->sa = TC16_SA(g->bm, g->ap);
    g->sb = TC16_SB(g->ih, g->iw, g->cp);
    g->rk = TC16_RK(g->ck, g->khw);
    g->op = TC16_OP(g->bm);
    /* The header's layout: the raw weights go after A and the first tile,
     * over what the tiles use later. */
    const long long sr = TC16_SR(g->bm, g->rk);
    g->smem_bytes = 2 * (g->sa + max2(g->stages * g->sb + g->bn * g->op, g->sb + sr));
    g->ntiles = s->b * ct_cdiv(s->oh, g->toh) * ct_cdiv(s->ow, g->tow);
    g->grid_x = ct_cdiv(g->ntiles, g->tiles);
    g->grid_y = ct_cdiv(s->cout, g->bm) * ct_tc_ngroups(layer);
    /* Accumulators, one step's fragments, the bias and about 48 for
     * addresses, the loop and the tile's origin. */
    g->regs = g->mf * g->nf * 4 + g->mf * 4 + g->nf * 2 + 2 * g->mf + 48;
}

/* The checks both kinds share once their own have passed: the tiles, the
 * useful share of the work, shared memory, the grid and registers. */
static int common_constrain(const ct_tc_shape *s, const ct_tc16r_geom *g, long long bn, const ct_limits *lim,
                            char *why, size_t len)
{
    if (g->toh > s->oh || g->tow > s->ow) {
        snprintf(why, len, "a %lldx%lld tile exceeds the %lldx%lld output", g->toh, g->tow, s->oh, s->ow);
        return 1;
    }
    /* Resident weights pay off over several tiles; a block of one tile is
     * conv*_tc16's work with a larger copy. */
    if (g->tiles < 2 && g->ntiles > 1) {
        snprintf(why, len, "TILES=1: the weights staged for one tile only (conv*_tc16 does that)");
        return 1;
    }
    if (g->tiles > g->ntiles) {
        snprintf(why, len, "TILES=%lld exceeds the layer's %lld tiles", g->tiles, g->ntiles);
        return 1;
    }
    /* Idle tensor-core work as tc16_conv.c (tile fit, channel tiles, the
     * channels padded to 16); bn is the GEMM columns a tile pays for. */
    const double pix = (double)(s->oh * s->ow) /
                       ((double)(ct_cdiv(s->oh, g->toh) * ct_cdiv(s->ow, g->tow)) * (double)bn);
    const double chan = (double)s->cout / (double)ct_rup(s->cout, g->bm);
    const double red = (double)s->cin / (double)g->ck;
    const double eff = pix * chan * (s->cin >= 16 ? red : 1.0);
    if (eff < 0.6 && (double)s->b * (double)s->oh * (double)s->ow >= 4096.0 && s->cout >= 32) {
        snprintf(why, len, "only %.0f%% of the tensor-core work is useful (tile fit %.0f%%, channels %.0f%%, "
                 "reduction %.0f%%)", 100 * eff, 100 * pix, 100 * chan, 100 * red);
        return 1;
    }
    if (g->smem_bytes > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of shared memory (the weights of %lld channels resident) exceed the "
                 "device's %d", g->smem_bytes, g->bm, lim->max_smem_per_block);
        return 1;
    }
    if (g->grid_x > 2147483647LL || g->grid_y > 65535) {
        snprintf(why, len, "the grid exceeds the device's limits");
        return 1;
    }
    return ct_regs_exceed(lim, g->regs, g->nt, g->minb, why, len);
}

static int wgmma_constrain(const ct_tc_shape *s, const ct_tc16r_geom *g, const ct_limits *lim, char *why,
                           size_t len)
{
    if (g->wg_m < 1 || g->wg_n < 1 || g->toh < 1 || g->tow < 1 || g->tiles < 1 || g->minb < 1) {
        snprintf(why, len, "WG_M, WG_N, tiles, TILES and MIN_BLOCKS >= 1");
        return 1;
    }
    if (g->cl ? g->stages < 2 || g->stages > 6 : g->stages < 1 || g->stages > 5) {
        snprintf(why, len, "STAGES=%lld: %s", g->stages, g->cl ? "2 to 6 input buffers (channels last)"
                                                                : "1 to 5 raw input buffers (NCHW)");
        return 1;
    }
    if (s->sx != 1) {
        snprintf(why, len, "a wgmma operand is a run of consecutive input pixels: stride 1 along the width "
                 "only (here %lld)", s->sx);
        return 1;
    }
    if (g->pingpong < 0 || g->pingpong > 1) {
        snprintf(why, len, "PINGPONG is 0 or 1");
        return 1;
    }
    if (g->pingpong && (g->wg_m != 1 || g->wg_n < 2)) {
        snprintf(why, len, "PINGPONG=1 is for WG_N >= 2 warpgroups of 64 channels (WG_M=1), each on its own tiles");
        return 1;
    }
    if (!g->pingpong && g->toh % g->wg_n != 0) {
        snprintf(why, len, "WG_N=%lld does not divide TILE_OH=%lld", g->wg_n, g->toh);
        return 1;
    }
    if (g->wgn > T16G_MAX_N) {
        snprintf(why, len, "a wgmma N of %lld (TILE_OW %lld, %lld rows a warpgroup) exceeds %d", g->wgn, g->tow,
                 g->rpw, T16G_MAX_N);
        return 1;
    }
    if (g->wg_m * g->wg_n > 4 || g->nt > lim->max_threads_per_block) {
        snprintf(why, len, "%lld warpgroups: 4 at most (one named barrier each), within the device's %d threads",
                 g->wg_m * g->wg_n, lim->max_threads_per_block);
        return 1;
    }
    if (g->wg_m > 1 && g->bm >= 2 * ct_rup(s->cout, 64)) {
        snprintf(why, len, "WG_M=%lld covers twice the %lld output channels", g->wg_m, s->cout);
        return 1;
    }
    return common_constrain(s, g, g->wgn, lim, why, len);
}

int ct_tc16r_constrain(const ct_template *t, const ct_tc_shape *layer, const ct_params *c, const ct_limits *lim,
                       char *why, size_t len)
{
    if (is_wgmma(t) && (lim->cc_major != 9 || lim->cc_minor != 0)) {
        snprintf(why, len, "wgmma is an sm_90a instruction: compute capability 9.0 only (here %d.%d)",
                 lim->cc_major, lim->cc_minor);
        return 1;
    }
    if (ct_tc16_arch_excluded(layer, lim, why, len))
        return 1;
    const ct_tc_shape one = ct_tc_per_group(layer), *s = &one;
    if (ct_tc_depthwise_refused(s, why, len))
        return 1;
    ct_tc16r_geom g;
    ct_tc16r_geometry_of(t, layer, c, &g);
    if (is_wgmma(t))
        return wgmma_constrain(s, &g, lim, why, len);
    if (g.bm < 16 || g.toh < 1 || g.tow < 1 || g.warps_m < 1 || g.warps_n < 1 || g.tiles < 1 || g.stages < 1 ||
        g.stages > 3 || g.minb < 1) {
        snprintf(why, len, "COUT_TILE >= 16, tiles, warps, TILES and MIN_BLOCKS >= 1, STAGES 1, 2 or 3");
        return 1;
    }
    if (g.bm % (16 * g.warps_m) != 0) {
        snprintf(why, len, "COUT_TILE=%lld is not WARPS_M=%lld x a multiple of 16", g.bm, g.warps_m);
        return 1;
    }
    if (g.nt > lim->max_threads_per_block) {
        snprintf(why, len, "%lld warps exceed the device's %d threads", g.nt / 32, lim->max_threads_per_block);
        return 1;
    }
    if (g.bm > 16 * g.warps_m && g.bm >= 2 * ct_rup(s->cout, 16)) {
        snprintf(why, len, "COUT_TILE=%lld is twice the %lld output channels", g.bm, s->cout);
        return 1;
    }
    /* A warp tile under 32x32 spends one ldmatrix on every one or two mma
     * steps: on a layer large enough for bigger tiles it only loses. */
    if (g.mf * g.nf < 8 && (double)s->b * (double)s->oh * (double)s->ow >= 4096.0 && s->cout >= 32) {
        snprintf(why, len, "a %lldx%lld warp tile (under 32x32) on a layer with room for larger ones",
                 16 * g.mf, 8 * g.nf);
        return 1;
    }
    const long long body = g.mf * g.nf * (g.khw * g.ck / 16 <= 36 ? g.khw * g.ck / 16 : 4);
    if (body > T16R_MAX_BODY) {
        snprintf(why, len, "%lld mma instructions in one unrolled chunk exceed %d", body, T16R_MAX_BODY);
        return 1;
    }
    return common_constrain(s, &g, g.bn, lim, why, len);
}

void ct_tc16r_normalize(const ct_template *t, const ct_tc_shape *layer, ct_params *c)
{
    const ct_tc_shape one = ct_tc_per_group(layer), *s = &one;
    if (is_wgmma(t)) {
        t16g_values q = t16g_get(c);
        if (q.TILE_OW > s->ow)
            q.TILE_OW = (long)s->ow;
        if (q.TILE_OH > s->oh)
            q.TILE_OH = (long)s->oh;
        /* Buffers for copies past the block's tiles stay empty; channels
         * last keeps its least, two (the tile computed, the next copied). */
        const long most = ct_kind_channels_last(t) && q.TILES < 2 ? 2 : (long)q.TILES;
        if (q.TILES >= 1 && q.STAGES > most)
            q.STAGES = most;
        t16g_put(c, &q);
        return;
    }
    t16r_values q = t16r_get(c);
    if (q.TILE_OW > s->ow)
        q.TILE_OW = (long)s->ow;
    if (q.TILE_OH > s->oh)
        q.TILE_OH = (long)s->oh;
    /* Stages past the block's tiles stay empty. */
    if (q.TILES >= 1 && q.STAGES > q.TILES)
        q.STAGES = q.TILES;
    t16r_put(c, &q);
}

void ct_tc16r_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    ct_tc16r_geom g;
    ct_tc16r_geometry_of(t, s, c, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.grid_x;
    l->grid[1] = (unsigned)g.grid_y;
    l->grid[2] = 1;
    l->block[0] = (unsigned)g.nt;
    l->block[1] = l->block[2] = 1;
    l->smem_bytes = (unsigned)g.smem_bytes;
}

#define T16R_HOOKS \
    .any_layer = 1, .constrain = ct_tc16r_constrain, .normalize = ct_tc16r_normalize, .launch = ct_tc16r_launch
const ct_kernel_kind ct_kind_tc16rcl = {.name = "tc16rcl", .layouts = CT_LAYOUT_CL_ONLY, T16R_HOOKS};
const ct_kernel_kind ct_kind_tc16g = {.name = "tc16g", .layouts = CT_LAYOUT_DEFAULT_ONLY, .wgmma = 1, T16R_HOOKS};
const ct_kernel_kind ct_kind_tc16gcl = {.name = "tc16gcl", .layouts = CT_LAYOUT_CL_ONLY, .wgmma = 1, T16R_HOOKS};
