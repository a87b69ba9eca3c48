/* tc16wb_conv.c - parameters, sizes, constraints and launch geometry of
 * the kernel kind tc16wb (ct_conv_tc16wb.cuh, beside it); the derived sizes
 * are tc16wb_sizes.cuh's, which ct_conv_tc16wb.cuh expands too. */
#include "tc16wb_conv.h"
#include "intmath.h"
#include "tc16wb_sizes.cuh"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

#define T16WB_LIST(X)                                                                                         \
    X(CO_TILES, 1, CT_INT(0), "8-channel mma n-tiles per block (1 or 2): 8 or 16 output channels, their "    \
                              "whole weight rows")                                                          \
    X(WARPS_K, 16, CT_WARPS(0), "warps splitting the reduction within a block, added through shared memory") \
    X(WSRC, 0, CT_INT(0), "0: the weights copied into shared memory by the bulk copy engine (whole lines); "  \
                          "1: loaded straight into the mma registers, all of a warp's steps in flight")      \
    X(CHUNKS, 2, CT_INT(0), "WSRC 0: copy pieces along the reduction, each with its own barrier, so the mma " \
                            "steps start when the first lands (1 to 8)")                                    \
    X(CLUSTER_K, 1, CT_INT(0), "blocks of a thread-block cluster splitting the reduction, their partial "    \
                               "sums added through distributed shared memory (1, 2, 4, 8)")                 \
    X(MIN_BLOCKS, 1, CT_INT(0), "minimum resident blocks per SM (__launch_bounds__)")
const ct_param_def ct_tc16wb_params[CT_TC16WB_NPARAMS] = CT_PARAM_TABLE(T16WB_LIST);
_Static_assert(CT_PARAM_COUNT(T16WB_LIST) == CT_TC16WB_NPARAMS, "CT_TC16WB_NPARAMS is the list's length");
CT_PARAM_VALUES(t16wb, T16WB_LIST, ct_tc16wb_params)

/* Unrolled code: mma steps of a warp, and im2col words of a thread. */
#define T16WB_MAX_STEPS 128
#define T16WB_MAX_WORDS 512
/* WSRC 1 holds a warp's every step in registers, 4 a step and n-tile. */
#define T16WB_MAX_REG_STEPS 16

void ct_tc16wb_geometry_of(const ct_tc_shape *layer, const ct_params *c, ct_tc16wb_geom *g)
{
    const ct_tc_shape one = ct_tc_per_group(layer), *s = &one;
    const t16wb_values q = t16wb_get(c);
    memset(g, 0, sizeof *g);
    g->co_tiles = q.CO_TILES, g->warps_k = q.WARPS_K, g->wsrc = q.WSRC, g->chunks = q.CHUNKS;
    g->cluster_k = q.CLUSTER_K, g->minb = q.MIN_BLOCKS;
    if (g->co_tiles < 1 || g->warps_k < 1 || g->chunks < 1 || g->cluster_k < 1)
        return;
    g->bn = TCWB_BN(g->co_tiles);
    g->nt = TCWB_NT(g->warps_k);
    g->khw = TCWB_KHW(s->kh, s->kw);
    g->kall = TCWB_KALL(s->cin, g->khw);
    g->nkg = TCWB_NKG(g->kall);
    g->nkgb = TCWB_NKGB(g->nkg, g->cluster_k);
    g->ngw = TCWB_NGW(g->nkgb, g->warps_k);
    g->gpc = TCWB_GPC(g->nkgb, g->chunks);
    g->kp = TCWB_KP(g->nkgb);
    g->ntot = TCWB_NTOT(s->b, s->oh, s->ow);
    g->tp = TCWB_TP(g->ntot);
    g->hwi = TCWB_HWI(s->h, s->w);
    g->nub = TCWB_NUB(g->nkgb, g->khw);
    g->uit = TCWB_UIT(g->nub, s->b, g->nt);
    g->nout = TCWB_NOUT(g->tp, g->bn);
    /* The header's layout: weights (WSRC 0) and im2col, the partial sums
     * over all of it afterwards. */
    g->smem_bytes = TCWB_SMEM(TCWB_ISM(g->wsrc, g->bn, g->kp), g->ntot, g->kp, g->warps_k, g->cluster_k, g->nout);
    g->grid_y = TCWB_NCT(s->cout, g->bn) * ct_tc_ngroups(layer);
    g->grid_z = g->cluster_k;
    /* The input planes, WSRC 1's weights, both accumulator sets and about 40
     * (ptxas on seed 002: 49 and 64 where this says 64 and 84). */
    g->regs = 4 * g->uit * g->hwi + (g->wsrc ? 4 * g->ngw * g->co_tiles : 0) + 8 * g->co_tiles + 40;
}

static int shape_refused(const ct_tc_shape *s, const ct_tc16wb_geom *g, char *why, size_t len)
{
    if (ct_tc_depthwise_refused(s, why, len))
        return 1;
    if (g->kall % 8 != 0) {
        snprintf(why, len, "16-byte weight rows need Cin/groups x KH x KW = %lld to be a multiple of 8", g->kall);
        return 1;
    }
    if (g->ntot > CT_TC16WB_MAX_PIXELS) {
        snprintf(why, len, "%lld output pixels (B x OH x OW) exceed %d: one tile of mma rows (conv*_tc16w "
                 "takes more)", g->ntot, CT_TC16WB_MAX_PIXELS);
        return 1;
    }
    if (g->hwi > CT_TC16WB_MAX_PLANE) {
        snprintf(why, len, "input planes of %lld values exceed %d: a thread holds 8 channels' planes in "
                 "registers", g->hwi, CT_TC16WB_MAX_PLANE);
        return 1;
    }
    return 0;
}

int ct_tc16wb_constrain(const ct_template *t, const ct_tc_shape *layer, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len)
{
    (void)t;
    if (lim->cc_major < 9) {
        snprintf(why, len, "the bulk copy engine and thread-block clusters need sm_90 or later (here %d.%d)",
                 lim->cc_major, lim->cc_minor);
        return 1;
    }
    const ct_tc_shape one = ct_tc_per_group(layer), *s = &one;
    ct_tc16wb_geom g;
    ct_tc16wb_geometry_of(layer, c, &g);
    if ((g.co_tiles != 1 && g.co_tiles != 2) || g.warps_k < 1 || (g.wsrc != 0 && g.wsrc != 1) || g.chunks < 1 ||
        g.chunks > 8 || (g.cluster_k != 1 && g.cluster_k != 2 && g.cluster_k != 4 && g.cluster_k != 8) ||
        g.minb < 1) {
        snprintf(why, len, "CO_TILES 1 or 2, WARPS_K and MIN_BLOCKS >= 1, WSRC 0 or 1, CHUNKS 1 to 8, "
                 "CLUSTER_K 1, 2, 4 or 8");
        return 1;
    }
    if (shape_refused(s, &g, why, len))
        return 1;
    if (g.nt > lim->max_threads_per_block) {
        snprintf(why, len, "%lld warps exceed the device's %d threads", g.warps_k, lim->max_threads_per_block);
        return 1;
    }
    if (g.cluster_k > g.nkg) {
        snprintf(why, len, "CLUSTER_K=%lld exceeds the %lld groups of 32 reduction values", g.cluster_k, g.nkg);
        return 1;
    }
    if ((g.cluster_k - 1) * g.nkgb >= g.nkg) {
        snprintf(why, len, "CLUSTER_K=%lld blocks of %lld groups leave the last none of the %lld", g.cluster_k,
                 g.nkgb, g.nkg);
        return 1;
    }
    if (g.warps_k > g.nkgb) {
        snprintf(why, len, "WARPS_K=%lld exceeds a block's %lld groups of 32 reduction values: idle warps",
                 g.warps_k, g.nkgb);
        return 1;
    }
    if (g.chunks > g.nkgb) {
        snprintf(why, len, "CHUNKS=%lld exceeds a block's %lld groups of 32 reduction values", g.chunks, g.nkgb);
        return 1;
    }
    if (g.wsrc && g.ngw * g.co_tiles > T16WB_MAX_REG_STEPS) {
        snprintf(why, len, "WSRC=1 holds %lld steps x %lld n-tiles of weights a warp in registers (at most %d)",
                 g.ngw, g.co_tiles, T16WB_MAX_REG_STEPS);
        return 1;
    }
    if (g.ngw * g.co_tiles > T16WB_MAX_STEPS) {
        snprintf(why, len, "%lld unrolled mma steps a warp exceed %d", g.ngw * g.co_tiles, T16WB_MAX_STEPS);
        return 1;
    }
    if (g.uit * s->oh * s->ow * g.khw > T16WB_MAX_WORDS) {
        snprintf(why, len, "%lld unrolled im2col words a thread exceed %d", g.uit * s->oh * s->ow * g.khw,
                 T16WB_MAX_WORDS);
        return 1;
    }
    if (g.co_tiles > 1 && g.bn >= 2 * ct_rup(s->cout, 8)) {
        snprintf(why, len, "CO_TILES=%lld covers twice the %lld output channels", g.co_tiles, s->cout);
        return 1;
    }
    /* A cluster is for filling the SMs: with as many blocks already it only
     * adds the exchange (offline, with no SM count, every split stays). */
    if (g.cluster_k > 1 && lim->sm_count > 0 && g.grid_y >= lim->sm_count) {
        snprintf(why, len, "CLUSTER_K=%lld on %lld blocks, already as many as the %d SMs", g.cluster_k, g.grid_y,
                 lim->sm_count);
        return 1;
    }
    if (g.smem_bytes > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of shared memory (%s the im2col of %lld pixels) exceed the device's %d",
                 g.smem_bytes, g.wsrc ? "" : "the weights of 8 CO_TILES channels and", g.ntot,
                 lim->max_smem_per_block);
        return 1;
    }
    if (g.grid_y > 65535) {
        snprintf(why, len, "the grid exceeds the device's limits");
        return 1;
    }
    return ct_regs_exceed(lim, g.regs, g.nt, g.minb, why, len);
}

void ct_tc16wb_normalize(const ct_template *t, const ct_tc_shape *layer, ct_params *c)
{
    (void)t;
    (void)layer;
    t16wb_values q = t16wb_get(c);
    /* Registers take no copy pieces: one value for all. */
    if (q.WSRC == 1)
        q.CHUNKS = 1;
    t16wb_put(c, &q);
}

void ct_tc16wb_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    (void)t;
    ct_tc16wb_geom g;
    ct_tc16wb_geometry_of(s, c, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = 1;
    l->grid[1] = (unsigned)g.grid_y;
    l->grid[2] = (unsigned)g.grid_z;
    l->block[0] = (unsigned)g.nt;
    l->block[1] = l->block[2] = 1;
    l->smem_bytes = (unsigned)g.smem_bytes;
}

const ct_kernel_kind ct_kind_tc16wb = {.name = "tc16wb", .layouts = CT_LAYOUT_DEFAULT_ONLY, .any_layer = 1,
                                       .constrain = ct_tc16wb_constrain, .normalize = ct_tc16wb_normalize,
                                       .launch = ct_tc16wb_launch};
