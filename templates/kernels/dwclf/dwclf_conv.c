/* dwclf_conv.c - parameters, sizes, constraints and launch geometry of the
 * kind dwtcl of the kernel folder dwclf (dwclf_conv.h); the derived sizes
 * are dwclf_sizes.cuh's, which ct_dwcl_fwd.cuh expands too. */
#include "dwclf_conv.h"
#include "dwclf_sizes.cuh"
#include "intmath.h"
#include "tc_shape.h"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

/* Each parameter once, in list order; the 1D template lacks OUT_Y. */
#define DF_HEAD(X)                                                                                           \
    X(VEC, 8, CT_RANGE(1, 8), "consecutive channels per thread, one vector load and store along C (1, 2, "  \
                              "4, 8; at most 16 bytes: 4 fp32, 8 bf16 or f16; narrowed to divide the "      \
                              "channels)")                                                                   \
    X(CHANNEL_THREADS, 16, CT_THREADS(1), "threads of a block along the channels (block x; at most the "    \
                                          "layer's channel vectors)")                                        \
    X(POS_THREADS, 8, CT_THREADS(1), "threads of a block along the output tiles, a tile each (block y)")     \
    X(OUT_X, 8, CT_RANGE(1, 32), "consecutive output columns per thread, one register window of each "      \
                                 "input row feeding them (balanced over the row)")
#define DF_Y(X)                                                                                              \
    X(OUT_Y, 2, CT_RANGE(1, 16), "consecutive output rows per thread, each input row loaded once for all "   \
                                 "the rows it meets (balanced over the image)")
#define DF_TAIL(X)                                                                                           \
    X(ITEMS, 1, CT_RANGE(1, 1 << 20), "groups of POS_THREADS tiles a block computes in turn (its taps "      \
                                      "staged once)")                                                        \
    X(PREFETCH, 0, CT_RANGE(0, 1), "1: two row windows, the next row's loads issued before this row's FMAs")
#define DF_ALL(X) DF_HEAD(X) DF_Y(X) DF_TAIL(X)

const ct_param_def ct_dwclf_params_2d[CT_DWCLF_NPARAMS_2D] = CT_PARAM_TABLE(DF_ALL);
const ct_param_def ct_dwclf_params_1d[CT_DWCLF_NPARAMS_2D - 1] = {DF_HEAD(CT_PARAM_DEF) DF_TAIL(CT_PARAM_DEF)};
_Static_assert(CT_PARAM_COUNT(DF_ALL) == CT_DWCLF_NPARAMS_2D, "CT_DWCLF_NPARAMS_2D is the 2D list's length");
CT_PARAM_UNION(df, DF_ALL)

/* A candidate of t: the 1D template has OUT_Y = 1 (one output row). */
static df_values df_get(const ct_template *t, const ct_params *c)
{
    df_values q;
    ct_params_read_part(c, t->params, t->nparams, ct_dwclf_params_2d, CT_DWCLF_NPARAMS_2D, 1, q.v);
    return q;
}

static void df_put(const ct_template *t, ct_params *c, const df_values *q)
{
    ct_params_write_part(c, t->params, t->nparams, ct_dwclf_params_2d, CT_DWCLF_NPARAMS_2D, q->v);
}

/* Unrolled FMAs of one input row (instruction cache, NVRTC time). */
#define DF_MAX_BODY 2048
#define DF_MAX_GRID 2147483647LL
#define DF_STATIC_SMEM (48 * 1024)
/* Registers a thread may hold: above, fewer than 12 warps fit an SM (65536
 * registers), too few to hide the loads of the memory-bound layers. */
#define DF_MAX_REGS 168
/* SMs a grid should fill: about those of an A100 or H100 (fixed, so that a
 * space built without a device, precompiled or listed, is the device's). */
#define DF_SMS 128
/* Blocks per SM a grid keeps when ITEMS > 1 folds tiles into fewer blocks. */
#define DF_MIN_BLOCKS_PER_SM 4

static long long elem_size(const ct_tc_shape *s)
{
    return s->p ? (long long)ct_dtype_size(ct_problem_dtype(s->p)) : 4;
}

/* The template's derived sizes: dwclf_sizes.cuh's expressions, which the
 * kernel's DF_* macros of the same names are. */
typedef struct df_geom {
    long long vec, ct, pt, ox, oy, items, pf;
    long long ncv, ncb, threads, nxr, nrg, tiles, ngrp, blocks, nwx, nwy, smem;
} df_geom;

static void df_geometry(const ct_tc_shape *s, const df_values *q, df_geom *g)
{
    memset(g, 0, sizeof *g);
    g->vec = q->VEC, g->ct = q->CHANNEL_THREADS, g->pt = q->POS_THREADS;
    g->ox = q->OUT_X, g->oy = q->OUT_Y, g->items = q->ITEMS, g->pf = q->PREFETCH;
    if (g->vec < 1 || g->ct < 1 || g->pt < 1 || g->ox < 1 || g->oy < 1 || g->items < 1)
        return;
    g->ncv = DWCLF_NCV(s->cin, g->vec);
    g->ncb = DWCLF_NCB(g->ncv, g->ct);
    g->threads = DWCLF_THREADS(g->ct, g->pt);
    g->nxr = DWCLF_NXR(s->ow, g->ox);
    g->nrg = DWCLF_NRG(s->oh, g->oy);
    g->tiles = DWCLF_TILES(s->b, g->nrg, g->nxr);
    g->ngrp = DWCLF_NGRP(g->tiles, g->pt);
    g->blocks = DWCLF_BLOCKS(g->ncb, g->ngrp, g->items);
    g->nwx = DWCLF_NWX(g->ox, s->sx, s->kw, s->dx);
    g->nwy = DWCLF_NWY(g->oy, s->sy, s->kh, s->dy);
    g->smem = DWCLF_SMEM(DWCLF_TAPS(s->kh, s->kw), DWCLF_CW(g->ct, g->vec));
}

/* Window entries a tap reads (the others are never loaded). */
static long long used_entries(const ct_tc_shape *s, const df_geom *g)
{
    long long n = 0;
    for (long long t = 0; t < g->nwx; t++) {
        int used = 0;
        for (long long x = 0; x < g->ox && !used; x++)
            for (long long j = 0; j < s->kw && !used; j++)
                used = x * s->sx + j * s->dx == t;
        n += used;
    }
    return n;
}

/* Input rows of a tile a tap reads (the kernel skips the others). */
static long long used_rows(const ct_tc_shape *s, const df_geom *g)
{
    long long n = 0;
    for (long long r = 0; r < g->nwy; r++) {
        int used = 0;
        for (long long o = 0; o < g->oy && !used; o++) {
            const long long d = r - o * s->sy;
            used = d >= 0 && d % s->dy == 0 && d / s->dy < s->kh;
        }
        n += used;
    }
    return n;
}

/* Refused: layers that are not depthwise, vectors the channels or the
 * element type do not allow, tiles and blocks of too many idle threads or
 * too many registers, bodies too long to unroll, shared memory over the
 * static 48 KiB. */
static int df_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len)
{
    if (s->groups != s->cin || s->cout != s->cin) {
        snprintf(why, len, "%s convolves each channel with its own filter: groups = Cin = Cout only (here "
                 "groups = %lld, Cin = %lld, Cout = %lld)", t->name, s->groups, s->cin, s->cout);
        return 1;
    }
    const df_values q = df_get(t, c);
    df_geom g;
    df_geometry(s, &q, &g);
    if (g.vec != 1 && g.vec != 2 && g.vec != 4 && g.vec != 8) {
        snprintf(why, len, "VEC is 1, 2, 4 or 8");
        return 1;
    }
    if (g.vec * elem_size(s) > 16 || s->cin % g.vec != 0) {
        snprintf(why, len, "VEC=%lld: a vector of channels is one aligned load of at most 16 bytes (%lld-byte "
                 "elements) and divides Cin = %lld", g.vec, elem_size(s), s->cin);
        return 1;
    }
    if (g.ct < 1 || g.pt < 1 || g.ox < 1 || g.ox > 32 || g.oy < 1 || g.oy > 16 || g.items < 1 || g.pf < 0 ||
        g.pf > 1) {
        snprintf(why, len, "CHANNEL_THREADS, POS_THREADS and ITEMS >= 1, OUT_X in 1..32, OUT_Y in 1..16, "
                 "PREFETCH 0 or 1");
        return 1;
    }
    /* Warps of partly idle lanes: at most a quarter of a block's lanes on
     * a layer big enough to have a choice, and two warps at least there
     * (an SM holds 32 blocks at most: one-warp blocks fill half of it). */
    const long long lanes = ct_rup(g.threads, 32);
    const int big = (double)s->b * (double)s->cin * (double)s->h * (double)s->w >= 1048576.0;
    if (g.threads > lim->max_threads_per_block || (big && (4 * g.threads < 3 * lanes || g.threads < 64))) {
        snprintf(why, len, "%lld threads per block: over the device's %d or, on a large layer, under 64 or "
                 "3/4 of their warps' lanes", g.threads, lim->max_threads_per_block);
        return 1;
    }
    /* Channel threads past the layer in the last slice, outputs past the
     * image in the last tiles: on a large layer another shape does better. */
    const double ceff = (double)g.ncv / (double)(g.ncb * g.ct);
    const double teff = (double)s->oh * (double)s->ow / ((double)(g.nrg * g.oy) * (double)(g.nxr * g.ox));
    if (big && (ceff < 0.75 || teff < 0.75)) {
        snprintf(why, len, "%.0f%% of the channel threads have channels, %.0f%% of the tiles' outputs exist "
                 "(under 75%%)", 100.0 * ceff, 100.0 * teff);
        return 1;
    }
    /* Tiles too small to reuse their input: a thread loads its rows'
     * windows, each element once; over (KH x KW) / 2 + SY x SX loads per
     * output (a 1x1 tile loads KH x KW, the largest tiles of a stride-1
     * layer about 1) the loads and their conversions crowd the FMAs, and a
     * larger tile of the same threads does better on a large layer. */
    const double loads = (double)used_entries(s, &g) * (double)used_rows(s, &g) / (double)(g.ox * g.oy);
    if (big && loads > 0.5 * (double)(s->kh * s->kw) + (double)(s->sy * s->sx)) {
        snprintf(why, len, "a %lldx%lld tile loads %.1f inputs per output, over (KH x KW) / 2 + SY x SX", g.oy,
                 g.ox, loads);
        return 1;
    }
    if (g.oy * g.ox * s->kw * g.vec > DF_MAX_BODY) {
        snprintf(why, len, "OUT_Y x OUT_X x KW x VEC = %lld unrolled FMAs per input row exceed %d",
                 g.oy * g.ox * s->kw * g.vec, DF_MAX_BODY);
        return 1;
    }
    if (g.smem > DF_STATIC_SMEM || g.smem > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of taps in static shared memory per block exceed 48 KiB", g.smem);
        return 1;
    }
    /* The sums, a row's window (the entries a tap reads; two with
     * PREFETCH), a filter tap's VEC weights twice (the next one's load in
     * flight), the bias, about 24 for addresses and indices. */
    const long long regs = (g.oy * g.ox + (1 + g.pf) * used_entries(s, &g) + 3) * g.vec + 24;
    if (regs > DF_MAX_REGS) {
        snprintf(why, len, "about %lld registers per thread exceed %d (fewer than 12 warps per SM)", regs,
                 DF_MAX_REGS);
        return 1;
    }
    if (ct_regs_exceed(lim, regs, g.threads, 1, why, len))
        return 1;
    if (g.blocks > DF_MAX_GRID) {
        snprintf(why, len, "%lld blocks exceed the grid limit", g.blocks);
        return 1;
    }
    /* Tiles so large (or blocks so wide) that the grid leaves SMs idle or
     * under 4 warps each, too few to hide a row's loads: on a large layer
     * smaller tiles do better. */
    const long long warps = g.blocks * (lanes / 32);
    if (big && (g.blocks < DF_SMS || warps < 4LL * DF_SMS)) {
        snprintf(why, len, "%lld blocks of %lld warps: under one block or 4 warps per SM of %d", g.blocks,
                 lanes / 32, DF_SMS);
        return 1;
    }
    /* Tiles folded into fewer blocks save staging the taps, but not at the
     * cost of an SM's share of blocks (ITEMS is normalized to one block
     * holding every tile, so this leaves the small layers ITEMS = 1). */
    if (g.items > 1 && g.blocks < DF_MIN_BLOCKS_PER_SM * DF_SMS) {
        snprintf(why, len, "ITEMS=%lld leaves %lld blocks, under %d per SM of %d", g.items, g.blocks,
                 DF_MIN_BLOCKS_PER_SM, DF_SMS);
        return 1;
    }
    return 0;
}

/* Store the effective sizes, so that requests giving the same kernel
 * collapse: the widest vector the layer and type allow up to the one asked
 * for, no more channel threads than channel vectors, tiles no larger than
 * the output and balanced over it (56 columns in runs of 16 are 4 runs of
 * 14), no more groups of tiles per block than the layer has. */
static void df_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    df_values q = df_get(t, c);
    while (q.VEC > 1 && (q.VEC * elem_size(s) > 16 || s->cin % q.VEC != 0))
        q.VEC /= 2;
    if (q.VEC < 1 || q.CHANNEL_THREADS < 1 || q.POS_THREADS < 1 || q.OUT_X < 1 || q.OUT_Y < 1 || q.ITEMS < 1) {
        df_put(t, c, &q);
        return;
    }
    const long long ncv = DWCLF_NCV(s->cin, q.VEC);
    if (q.CHANNEL_THREADS > ncv)
        q.CHANNEL_THREADS = (long)ncv;
    q.OUT_X = (long)ct_cdiv(s->ow, ct_cdiv(s->ow, q.OUT_X));
    q.OUT_Y = (long)ct_cdiv(s->oh, ct_cdiv(s->oh, q.OUT_Y));
    const long long ngrp =
        DWCLF_NGRP(DWCLF_TILES(s->b, DWCLF_NRG(s->oh, q.OUT_Y), DWCLF_NXR(s->ow, q.OUT_X)), q.POS_THREADS);
    if (q.ITEMS > ngrp)
        q.ITEMS = (long)ngrp;
    df_put(t, c, &q);
}

/* Blocks of CHANNEL_THREADS x POS_THREADS, the channel slices fastest. */
static void df_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    const df_values q = df_get(t, c);
    df_geom g;
    df_geometry(s, &q, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.blocks;
    l->grid[1] = l->grid[2] = 1;
    l->block[0] = (unsigned)g.ct;
    l->block[1] = (unsigned)g.pt;
    l->block[2] = 1;
}

const ct_kernel_kind ct_kind_dwtcl = {.name = "dwtcl", .layouts = CT_LAYOUT_CL_ONLY, .any_layer = 1,
                                      .constrain = df_constrain, .normalize = df_normalize, .launch = df_launch};
