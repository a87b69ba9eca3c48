/* dwclbwd_conv.c - parameters, sizes, constraints and launch geometry of
 * the kinds dgdwcl and wgdwcl (dwclbwd_conv.h); the derived sizes are
 * dwclbwd_sizes.cuh's, which ct_dwcl_bwd.cuh expands too. */
#include "dwclbwd_conv.h"
#include "dwclbwd_sizes.cuh"
#include "intmath.h"
#include "tc_shape.h"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

/* Each parameter once: the head both kinds share, then each kind's own. */
#define DB_HEAD(X)                                                                                           \
    X(VEC, 8, CT_RANGE(1, 8), "consecutive channels per thread, one vector load along C (1, 2, 4, 8; at "   \
                              "most 16 bytes: 4 fp32, 8 bf16 or f16; narrowed to divide the channels)")      \
    X(CHANNEL_THREADS, 16, CT_THREADS(1), "threads of a block along the channels (block x; at most the "    \
                                          "layer's channel vectors)")                                        \
    X(POS_PER_THREAD, 8, CT_RANGE(1, 64), "consecutive positions of a row per thread (dgrad: of dx, a "     \
                                          "multiple of the stride; wgrad: of dy)")                           \
    X(CHUNK, 4, CT_RANGE(1, 64), "positions per step of the sliding register window (divides "             \
                                 "POS_PER_THREAD)")
#define DG_TAIL(X) X(POS_THREADS, 8, CT_THREADS(1), "threads of a block along the positions, a run each (block y)")
#define WG_TAIL(X)                                                                                           \
    X(WORKERS, 4, CT_THREADS(1), "threads sharing a channel vector and a group of filter rows, their sums " \
                                 "added in the block (block z)")                        \
    X(ITEMS, 16, CT_RANGE(1, 1 << 20), "runs of POS_PER_THREAD positions a worker sums in fp32 before the " \
                                       "block's sums (bounds the length of an fp32 sum)")                   \
    X(ROWS_PER_THREAD, 1, CT_RANGE(1, 64), "filter rows per thread, each dy vector loaded feeding their "    \
                                           "ROWS x KW taps (block y: the rows' groups; at most KH)")          \
    X(DY_ROWS, 1, CT_RANGE(1, 64), "dy rows per item (2D register blocking past 1: each x entry loaded "      \
                                   "feeds every pair of dy row and filter row it meets; at most OH)")
#define DG_ALL(X) DB_HEAD(X) DG_TAIL(X)
#define WG_ALL(X) DB_HEAD(X) WG_TAIL(X)

const ct_param_def ct_dgdwcl_params[CT_DWCLBWD_NPARAMS - 3] = CT_PARAM_TABLE(DG_ALL);
const ct_param_def ct_wgdwcl_params[CT_DWCLBWD_NPARAMS] = CT_PARAM_TABLE(WG_ALL);
CT_PARAM_VALUES(dg, DG_ALL, ct_dgdwcl_params)
CT_PARAM_VALUES(wg, WG_ALL, ct_wgdwcl_params)
_Static_assert(CT_PARAM_COUNT(WG_ALL) == CT_DWCLBWD_NPARAMS, "CT_DWCLBWD_NPARAMS is wgrad's list's length");
_Static_assert(CT_PARAM_COUNT(DG_ALL) == CT_DWCLBWD_NPARAMS - 3, "dgrad's list is three shorter");

/* Unrolled FMAs of one filter row and run (instruction cache, NVRTC time
 * of about a second), and the grid's limits. */
#define DB_MAX_BODY 2048
#define DB_MAX_GRID 2147483647LL
#define DB_MAX_GRID_Y 65535LL
#define DB_STATIC_SMEM (48 * 1024)
/* Workspace floats of the weight gradient's splits (1 GiB). */
#define WG_MAX_WS (1LL << 28)
/* Blocks of a weight gradient's grid on layers that have the work for
 * them (about one per SM of an A100 or H100). */
#define WG_MIN_BLOCKS 128
/* Products an fp32 sum of one thread may hold before the block's sums. */
#define WG_MAX_RUN 2048
/* Unrolled FMAs of one period of wgrad's 2D blocking (NVRTC time). */
#define W2_MAX_BODY 2048

static long long elem_size(const ct_tc_shape *s)
{
    return s->p ? (long long)ct_dtype_size(ct_problem_dtype(s->p)) : 4;
}

/* The template's derived sizes: dwclbwd_sizes.cuh's expressions, which the
 * kernels' DB_*, DG_*, WG_* and W2_* macros are. */
typedef struct db_geom {
    long long vec, ct, p, chunk, ncv, ncb, threads, nrun, blocks, smem;
    long long pt, runs, nwin, live;                   /* dgrad */
    long long nwk, items, per, nsplit, nwx, count;    /* wgrad */
    long long rows, nrg, hold;                        /* wgrad */
    long long ry, nty, span, period, nb, nu, nused;   /* wgrad, 2D blocking (ry > 1) */
} db_geom;

static void dg_geometry(const ct_tc_shape *s, const dg_values *q, db_geom *g)
{
    memset(g, 0, sizeof *g);
    g->vec = q->VEC, g->ct = q->CHANNEL_THREADS, g->p = q->POS_PER_THREAD, g->chunk = q->CHUNK;
    g->pt = q->POS_THREADS;
    if (g->vec < 1 || g->ct < 1 || g->p < 1 || g->chunk < 1 || g->pt < 1)
        return;
    g->ncv = DWCLB_NCV(s->cin, g->vec);
    g->ncb = DWCLB_NCB(g->ncv, g->ct);
    g->threads = DWCLB_DG_THREADS(g->ct, g->pt);
    g->nrun = DWCLB_DG_NRUN(s->w, g->p);
    g->runs = DWCLB_DG_RUNS(s->b, s->h, g->nrun);
    g->blocks = DWCLB_DG_BLOCKS(g->ncb, g->runs, g->pt);
    g->smem = 4 * DWCLB_DG_STAGE(DWCLB_TAPS(s->kh, s->kw), DWCLB_CW(g->ct, g->vec));
    const long long wlo = DWCLB_DG_WLO(s->pw, s->kw, s->dx, s->sx);
    g->nwin = DWCLB_DG_NWIN(g->p, s->pw, s->sx, wlo);
    /* The entries a step holds live: its own and those the next reads. */
    const long long step = DWCLB_FDIV(g->chunk - 1 + (s->kw - 1) * s->dx, s->sx) + 1;
    g->live = step < g->nwin ? step : g->nwin;
}

static void wg_geometry(const ct_tc_shape *s, const wg_values *q, db_geom *g)
{
    memset(g, 0, sizeof *g);
    g->vec = q->VEC, g->ct = q->CHANNEL_THREADS, g->p = q->POS_PER_THREAD, g->chunk = q->CHUNK;
    g->nwk = q->WORKERS, g->items = q->ITEMS, g->rows = q->ROWS_PER_THREAD, g->ry = q->DY_ROWS;
    if (g->vec < 1 || g->ct < 1 || g->p < 1 || g->chunk < 1 || g->nwk < 1 || g->items < 1 || g->rows < 1 ||
        g->ry < 1)
        return;
    g->nrg = DWCLB_WG_NRG(s->kh, g->rows);
    g->ncv = DWCLB_NCV(s->cin, g->vec);
    g->ncb = DWCLB_NCB(g->ncv, g->ct);
    g->threads = DWCLB_WG_THREADS(g->ct, g->nrg, g->nwk);
    g->nrun = DWCLB_WG_NRUN(s->ow, g->p);
    g->nty = DWCLB_WG_NTY(s->oh, g->ry);
    g->per = DWCLB_WG_PER_SPLIT(g->nwk, DWCLB_WG_IT(g->items, g->ry));
    g->nsplit = DWCLB_WG_NSPLIT(DWCLB_WG_ITEMS(s->b, g->nty, g->nrun), g->per);
    g->blocks = g->nsplit * g->ncb;
    g->smem = 4 * DWCLB_WG_RED(g->nwk, g->nrg, g->ct, g->vec);
    g->nwx = DWCLB_WG_NWX(g->p, s->sx, s->kw, s->dx);
    const long long step = (g->chunk - 1) * s->sx + (s->kw - 1) * s->dx + 1;
    g->live = step < g->nwx ? step : g->nwx;
    /* The entries each further row's window keeps between steps. */
    g->hold = (s->kw - 1) * s->dx < g->nwx ? (s->kw - 1) * s->dx : g->nwx;
    g->count = DWCLB_WG_COUNT(DWCLB_WG_ROWS(DWCLB_TAPS(s->kh, s->kw), s->bias), s->cin);
    /* 2D blocking (W2_* of ct_dwcl_bwd.cuh): the window's span, period and
     * slots, the x row offsets and those a pair of rows meets. */
    g->span = DWCLB_W2_SPAN(s->kw, s->dx);
    g->period = DWCLB_W2_PER(g->span, s->sx);
    g->nb = DWCLB_W2_NB(g->period, s->sx);
    g->nu = DWCLB_W2_NU(g->ry, s->sy, g->rows, s->dy);
    for (long long u = 0; u < g->nu; u++) {
        int used = 0;
        for (long long a = 0; a < g->ry && !used; a++)
            for (long long r = 0; r < g->rows && !used; r++)
                used = a * s->sy + r * s->dy == u;
        g->nused += used;
    }
}

/* What both kinds refuse: layers that are not depthwise, vectors the
 * channels or the element type do not allow, runs and steps that do not
 * nest, blocks of too many or too few threads. */
static int db_common(const ct_template *t, const ct_tc_shape *s, const db_geom *g, const ct_limits *lim,
                     char *why, size_t len)
{
    if (s->groups != s->cin || s->cout != s->cin) {
        snprintf(why, len, "%s computes a depthwise layer's gradients: groups = Cin = Cout only (here groups = "
                 "%lld, Cin = %lld, Cout = %lld)", t->name, s->groups, s->cin, s->cout);
        return 1;
    }
    if (g->vec != 1 && g->vec != 2 && g->vec != 4 && g->vec != 8) {
        snprintf(why, len, "VEC is 1, 2, 4 or 8");
        return 1;
    }
    if (g->vec * elem_size(s) > 16 || s->cin % g->vec != 0) {
        snprintf(why, len, "VEC=%lld: a vector of channels is one aligned load of at most 16 bytes (%lld-byte "
                 "elements) and divides Cin = %lld", g->vec, elem_size(s), s->cin);
        return 1;
    }
    if (g->ct < 1 || g->p < 1 || g->p > 64 || g->chunk < 1 || g->p % g->chunk != 0) {
        snprintf(why, len, "POS_PER_THREAD in 1..64, CHUNK dividing it, CHANNEL_THREADS >= 1");
        return 1;
    }
    /* Warps of partly idle lanes: at most a quarter of a block's lanes on
     * a layer big enough to have a choice (a layer of 1 to 3 channels may
     * have no block of a full warp); and two warps at least there, as an
     * SM holds 32 blocks at most (one-warp blocks fill half of it). */
    const long long lanes = ct_rup(g->threads, 32);
    const int big = (double)s->b * (double)s->cin * (double)s->h * (double)s->w >= 1048576.0;
    if (g->threads > lim->max_threads_per_block || (big && (4 * g->threads < 3 * lanes || g->threads < 64))) {
        snprintf(why, len, "%lld threads per block: over the device's %d or, on a large layer, under 64 or "
                 "3/4 of their warps' lanes",
                 g->threads, lim->max_threads_per_block);
        return 1;
    }
    /* Channel vectors past the layer in the last slice: on a layer big
     * enough to have a choice, another slice width does better. */
    const double eff = (double)g->ncv / (double)(g->ncb * g->ct);
    if (eff < 0.75 && big) {
        snprintf(why, len, "only %.0f%% of the threads along the channels have channels (%lld vectors of %lld)",
                 100.0 * eff, g->ncv, g->vec);
        return 1;
    }
    /* (wgrad's 2D blocking bounds its own body: a period, not the run.) */
    if (g->ry <= 1 && g->p * s->kw * g->vec > DB_MAX_BODY) {
        snprintf(why, len, "POS_PER_THREAD x KW x VEC = %lld unrolled FMAs exceed %d", g->p * s->kw * g->vec,
                 DB_MAX_BODY);
        return 1;
    }
    if (g->smem > DB_STATIC_SMEM || g->smem > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of static shared memory per block exceed 48 KiB", g->smem);
        return 1;
    }
    return 0;
}

static int dg_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len)
{
    const dg_values q = dg_get(c);
    db_geom g;
    dg_geometry(s, &q, &g);
    if (g.pt < 1) {
        snprintf(why, len, "POS_THREADS >= 1");
        return 1;
    }
    if (db_common(t, s, &g, lim, why, len))
        return 1;
    /* A run starts at a multiple of the stride, so that which tap meets
     * which window entry is a compile-time constant. */
    if (g.p % s->sx != 0) {
        snprintf(why, len, "POS_PER_THREAD=%lld is not a multiple of the stride %lld", g.p, s->sx);
        return 1;
    }
    /* Sums of the run, the live window, a row's taps, about 24 for
     * addresses. */
    if (ct_regs_exceed(lim, (g.p + g.live + s->kw) * g.vec + 24, g.threads, 1, why, len))
        return 1;
    if (g.blocks > DB_MAX_GRID) {
        snprintf(why, len, "%lld blocks exceed the grid limit", g.blocks);
        return 1;
    }
    return 0;
}

/* wgrad's 2D blocking (DY_ROWS > 1): a run of whole periods of the x
 * window (or one shorter period), one period's unrolled body under
 * W2_MAX_BODY FMAs, and the registers: the taps' and the bias's sums, the
 * windows of the x rows a pair meets (every slot live: the window is
 * circular), a position's dy vectors, a flag per x and dy row and about 24
 * for addresses. */
static int wg2_constrain(const ct_tc_shape *s, const db_geom *g, const ct_limits *lim, char *why, size_t len)
{
    /* Every filter row in the thread: no row group past KH idles, and
     * each x row meets the most pairs (fewer rows load about as much per
     * FMA as the one-row-per-item scheme with every row, and would crowd
     * the space). */
    if (g->rows != s->kh) {
        snprintf(why, len, "DY_ROWS > 1 with ROWS_PER_THREAD=%lld: every filter row (KH = %lld) in a thread only",
                 g->rows, s->kh);
        return 1;
    }
    /* The point is x entries that meet several pairs of dy row and filter
     * row (strides that keep every pair's row apart load more than the
     * one-row scheme). */
    if (g->nused == g->ry * g->rows) {
        snprintf(why, len, "DY_ROWS=%lld with ROWS_PER_THREAD=%lld: no x row meets two pairs of dy and filter "
                 "rows (stride %lld, dilation %lld)", g->ry, g->rows, s->sy, s->dy);
        return 1;
    }
    /* A warp's channels of a pixel: one 32-byte sector at least where the
     * layer has them (narrow vectors over few channel threads would
     * touch a sector per pixel for half of it). */
    const long long run = g->ct * g->vec * elem_size(s), cbytes = s->cin * elem_size(s);
    if (run < (cbytes < 32 ? cbytes : 32)) {
        snprintf(why, len, "CHANNEL_THREADS x VEC = %lld bytes of a pixel's channels, under a 32-byte sector", run);
        return 1;
    }
    if (g->p % g->period != 0 && g->p >= g->period) {
        snprintf(why, len, "DY_ROWS > 1: POS_PER_THREAD=%lld is neither a multiple of the x window's period "
                 "%lld nor under it", g->p, g->period);
        return 1;
    }
    const long long steps = g->p < g->period ? g->p : g->period;
    const long long body = steps * g->ry * g->rows * s->kw * g->vec;
    if (body > W2_MAX_BODY) {
        snprintf(why, len, "DY_ROWS x ROWS_PER_THREAD x KW x VEC x %lld positions = %lld unrolled FMAs exceed %d",
                 steps, body, W2_MAX_BODY);
        return 1;
    }
    /* The last term: a position's loads in flight (SX new entries of each
     * x row, its dy vectors: issued a position ahead; without it, VEC 2 x
     * 7 rows x 2 dy rows of a 7x7 filter spills at 255). */
    const long long regs = (g->rows * s->kw + 1 + g->nused * g->nb + g->ry) * g->vec + 24 + g->nu + g->ry +
                           (g->nused * s->sx + g->ry) * g->vec;
    return ct_regs_exceed(lim, regs, g->threads, 1, why, len);
}

static int wg_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len)
{
    const wg_values q = wg_get(c);
    db_geom g;
    wg_geometry(s, &q, &g);
    /* WORKERS is the block's z dimension, which CUDA bounds at 64. */
    if (g.nwk < 1 || g.nwk > 64 || g.items < 1) {
        snprintf(why, len, "WORKERS in 1..64 (the block's z dimension), ITEMS >= 1");
        return 1;
    }
    if (g.rows < 1 || g.rows > s->kh) {
        snprintf(why, len, "ROWS_PER_THREAD in 1..KH = %lld", s->kh);
        return 1;
    }
    if (g.ry < 1 || g.ry > s->oh || g.items % g.ry != 0 || g.items < g.ry) {
        snprintf(why, len, "DY_ROWS in 1..OH = %lld, dividing ITEMS (its dy row runs)", s->oh);
        return 1;
    }
    if (db_common(t, s, &g, lim, why, len))
        return 1;
    /* The error of an fp32 sum grows with its length: a thread's sums hold
     * at most WG_MAX_RUN products before the block's (then fp64) sums. */
    if (g.items * g.p > WG_MAX_RUN) {
        snprintf(why, len, "ITEMS x POS_PER_THREAD = %lld products in one fp32 sum exceed %d", g.items * g.p,
                 WG_MAX_RUN);
        return 1;
    }
    if (g.ry > 1) {
        if (wg2_constrain(s, &g, lim, why, len))
            return 1;
    } else {
        /* A vector under 4 channels where the type and channels allow wider
         * loads less per instruction; it pays only to fit every filter row's
         * sums in a thread's registers where 4 channels' would not (KH x KW x
         * 4 > 128: 7x7 filters), and single channels only to 2D blocking.
         * Elsewhere it is refused, so that the narrower vectors do not crowd
         * the space. */
        long long widest = 8;
        while (widest > 1 && (widest * elem_size(s) > 16 || s->cin % widest != 0))
            widest /= 2;
        const long long wide = widest < 4 ? widest : 4;
        if (g.vec < wide && (g.vec < 2 || !(g.rows == s->kh && s->kh > 1 && s->kh * s->kw * wide > 128))) {
            snprintf(why, len, "VEC=%lld under the %lld the layer allows: only with every filter row of a large "
                     "filter in a thread (ROWS_PER_THREAD = KH, KH x KW x %lld > 128)", g.vec, wide, wide);
            return 1;
        }
        /* Several rows over runs of more than 8 positions: ptxas keeps the
         * later steps' loads of every row in flight and runs out of registers
         * (255 or spills on sm_90 for 16 positions of 2 to 4 rows). */
        if (g.rows > 1 && g.p > 8) {
            snprintf(why, len, "ROWS_PER_THREAD=%lld > 1 with POS_PER_THREAD=%lld > 8 (registers)", g.rows, g.p);
            return 1;
        }
        /* A thread's rows unroll into one body: ROWS x POS_PER_THREAD x KW x
         * VEC FMAs per run (NVRTC about a second). */
        if (g.rows * g.p * s->kw * g.vec > DB_MAX_BODY) {
            snprintf(why, len, "ROWS_PER_THREAD x POS_PER_THREAD x KW x VEC = %lld unrolled FMAs exceed %d",
                     g.rows * g.p * s->kw * g.vec, DB_MAX_BODY);
            return 1;
        }
        /* The taps' and the bias's sums, a step's dy, the live x window, about
         * 24 for addresses. Several rows: their sums, a step's dy and live
         * window, what the other rows' windows keep between steps (none in a
         * run of one step) and half the later steps' entries of every row
         * (ptxas hoists their loads), a row offset and flag each (fitted to
         * ptxas on sm_90: 7x7 rows of 4-8 positions use 156-202 registers, no
         * spills, where this says 184-222). */
        const long long keep = g.p > g.chunk ? (g.rows - 1) * g.hold + g.rows * (g.p - g.chunk) / 2 : 0;
        const long long regs = g.rows == 1 ? (s->kw + 1 + g.chunk + g.live) * g.vec + 24
                                           : (g.rows * s->kw + g.chunk + g.live + keep) * g.vec + 24 + 8 * g.rows;
        if (ct_regs_exceed(lim, regs, g.threads, 1, why, len))
            return 1;
    }
    if (g.nsplit > DB_MAX_GRID || g.ncb > DB_MAX_GRID_Y) {
        snprintf(why, len, "%lld splits x %lld channel slices exceed the grid's limits", g.nsplit, g.ncb);
        return 1;
    }
    /* A grid under WG_MIN_BLOCKS leaves SMs idle: refused where the layer
     * has runs enough for it at 64 runs a block. */
    const long long runs = g.nrun * s->b * s->oh * g.ncb;
    if (g.blocks < WG_MIN_BLOCKS && runs >= 64 * WG_MIN_BLOCKS) {
        snprintf(why, len, "%lld blocks (splits x channel slices) for %lld runs: under %d, SMs idle", g.blocks,
                 runs, WG_MIN_BLOCKS);
        return 1;
    }
    /* The workspace is written and read once: beyond a quarter of the
     * bytes of x and dy, fewer and longer splits do better (one split,
     * ITEMS normalized to every run, is always admissible). */
    const double io = (double)elem_size(s) * (double)s->b * (double)s->cin *
                      ((double)s->h * (double)s->w + (double)s->oh * (double)s->ow);
    if (g.nsplit > 1 && 8.0 * (double)g.nsplit * (double)g.count > 0.25 * io) {
        snprintf(why, len, "%lld splits: their partial sums move %.0f%% of the bytes of x and dy, over 25%%",
                 g.nsplit, 100.0 * 8.0 * (double)g.nsplit * (double)g.count / io);
        return 1;
    }
    if (g.nsplit * g.count > WG_MAX_WS) {
        snprintf(why, len, "a workspace of %lld partial sums exceeds %lld", g.nsplit * g.count, WG_MAX_WS);
        return 1;
    }
    return 0;
}

/* Store the effective sizes, so that requests giving the same kernel
 * collapse: the widest vector the layer and type allow up to the one asked
 * for, no more channel threads than channel vectors, runs no longer than
 * the row (dgrad: rounded to the stride), steps no longer than the run. */
static void db_normalize_head(const ct_tc_shape *s, long *vec, long *ct, long *p, long *chunk, long long row,
                              long long mult)
{
    while (*vec > 1 && (*vec * elem_size(s) > 16 || s->cin % *vec != 0))
        *vec /= 2;
    if (*vec < 1)
        return;
    const long long ncv = s->cin / *vec;
    if (*ct > ncv)
        *ct = (long)ncv;
    if (*p > row && mult >= 1)
        *p = (long)ct_rup(row, mult);
    /* dgrad's run is a multiple of the stride: the nearest below, at least one stride. */
    if (mult > 1 && *p % mult != 0)
        *p = *p > mult ? (long)(*p - *p % mult) : (long)mult;
    /* The longest step dividing the run, up to the one asked for. */
    if (*chunk > *p)
        *chunk = *p;
    while (*chunk > 1 && *p % *chunk != 0)
        (*chunk)--;
}

static void dg_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    (void)t;
    dg_values q = dg_get(c);
    db_normalize_head(s, &q.VEC, &q.CHANNEL_THREADS, &q.POS_PER_THREAD, &q.CHUNK, s->w, s->sx);
    dg_put(c, &q);
}

static void wg_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    (void)t;
    wg_values q = wg_get(c);
    db_normalize_head(s, &q.VEC, &q.CHANNEL_THREADS, &q.POS_PER_THREAD, &q.CHUNK, s->ow, 1);
    /* The fewest rows per thread giving the same number of row groups. */
    if (q.ROWS_PER_THREAD > s->kh)
        q.ROWS_PER_THREAD = (long)s->kh;
    if (q.ROWS_PER_THREAD >= 1)
        q.ROWS_PER_THREAD = (long)ct_cdiv(s->kh, DWCLB_WG_NRG(s->kh, q.ROWS_PER_THREAD));
    if (q.DY_ROWS > s->oh)
        q.DY_ROWS = (long)s->oh;
    /* 2D blocking steps one position at a time (CHUNK 1), over runs of
     * whole periods of the x window: the run asked for rounded up to whole
     * periods, then the shortest run of whole periods that covers the row
     * in as many runs (a row no longer than a period is one run). */
    if (q.DY_ROWS > 1 && q.POS_PER_THREAD >= 1) {
        q.CHUNK = 1;
        const long long period = DWCLB_W2_PER(DWCLB_W2_SPAN(s->kw, s->dx), s->sx);
        long long p = q.POS_PER_THREAD;
        if (s->ow <= period) {
            p = s->ow;
        } else {
            for (long long n = ct_cdiv(s->ow, ct_rup(p, period));; n++) {
                p = ct_rup(ct_cdiv(s->ow, n), period);
                if (p <= 64 || p <= period)
                    break;
            }
        }
        q.POS_PER_THREAD = (long)p;
    }
    /* ITEMS counts dy row runs: whole items of DY_ROWS runs; one split
     * holds every item at most. */
    if (q.POS_PER_THREAD >= 1 && q.WORKERS >= 1 && q.DY_ROWS >= 1 && q.ITEMS >= 1) {
        long long it = ct_cdiv(q.ITEMS, q.DY_ROWS);
        const long long items =
            DWCLB_WG_ITEMS(s->b, DWCLB_WG_NTY(s->oh, q.DY_ROWS), DWCLB_WG_NRUN(s->ow, q.POS_PER_THREAD));
        if (it * q.WORKERS > items)
            it = ct_cdiv(items, q.WORKERS);
        q.ITEMS = (long)(it * q.DY_ROWS);
    }
    wg_put(c, &q);
}

/* dgrad: blocks of CHANNEL_THREADS x POS_THREADS, the channel slices
 * fastest. wgrad: blocks of CHANNEL_THREADS x row groups x WORKERS, the splits
 * along x and the channel slices along y (the executor launches it). */
static void dg_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    (void)t;
    const dg_values q = dg_get(c);
    db_geom g;
    dg_geometry(s, &q, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.blocks;
    l->grid[1] = l->grid[2] = 1;
    l->block[0] = (unsigned)g.ct;
    l->block[1] = (unsigned)g.pt;
    l->block[2] = 1;
}

static void wg_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    (void)t;
    const wg_values q = wg_get(c);
    db_geom g;
    wg_geometry(s, &q, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.nsplit;
    l->grid[1] = (unsigned)g.ncb;
    l->grid[2] = 1;
    l->block[0] = (unsigned)g.ct;
    l->block[1] = (unsigned)g.nrg;
    l->block[2] = (unsigned)g.nwk;
}

const ct_kernel_kind ct_kind_dgdwcl = {.name = "dgdwcl", .layouts = CT_LAYOUT_CL_ONLY, .any_layer = 1,
                                       .passes = CT_PASS_BIT(CT_PASS_DGRAD), .constrain = dg_constrain,
                                       .normalize = dg_normalize, .launch = dg_launch};
const ct_kernel_kind ct_kind_wgdwcl = {.name = "wgdwcl", .layouts = CT_LAYOUT_CL_ONLY, .any_layer = 1,
                                       .passes = CT_PASS_BIT(CT_PASS_WGRAD), .constrain = wg_constrain,
                                       .normalize = wg_normalize, .launch = wg_launch};
