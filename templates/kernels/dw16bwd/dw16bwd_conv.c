/* dw16bwd_conv.c - parameters, sizes, constraints, launch geometry and
 * executor of the kind wgdw16cl (dw16bwd_conv.h); the derived sizes are
 * dw16bwd_sizes.cuh's, which the WT_* macros of ct_dw16_wgrad.cuh expand
 * too. */
#include "dw16bwd_conv.h"
#include "dw16bwd_sizes.cuh"
#include "dwclbwd_conv.h"
#include "intmath.h"
#include "tc_shape.h"
#include "ws_exec.h"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

/* Each parameter once. */
#define WT_ALL(X)                                                                                              \
    X(VEC, 8, CT_RANGE(2, 8), "channels per global load while staging (2, 4, 8: a 4-, 8- or 16-byte load; "  \
                              "narrowed to divide the channels and CHANNELS)")                                 \
    X(CHANNELS, 16, CT_RANGE(1, 256), "channels of a block (grid y: the channel groups), staged in shared "   \
                                       "memory channel-major")                                                 \
    X(WARPS, 8, CT_WARPS(1), "warps of a block: each owns CHANNELS / WARPS channels' accumulators")            \
    X(ROWS, 8, CT_RANGE(1, 1 << 20), "x rows of an item's tile (the dy rows they meet staged with them)")      \
    X(ITEMS, 2, CT_RANGE(1, 1 << 20), "items (batch image x row tile) a block sums before its split's partial " \
                                      "sums (grid x: the splits)")                                             \
    X(PAIR, 0, CT_RANGE(0, 1), "1: one mma takes two x rows against one B of dy rows (KW <= 8, KH <= 7, "     \
                               "dilation 1 along H, ROWS even): fewer fragment loads, half the mma")     \
    X(BATCH, 4, CT_RANGE(1, 16), "staging tasks of x and of dy a thread loads before it stores them (loads "  \
                                 "in flight: 3 x-pixel and 2 dy-pixel vectors a task)")                  \
    X(PREFETCH, 0, CT_RANGE(0, 1), "1: the next item's first staging batch is loaded before this item's mma " \
                                   "(its round trip overlaps the mma; its registers held through it)")       \
    X(CFIRST, 0, CT_RANGE(0, 1), "1: the blocks in launch order take a split's channel groups side by side "  \
                                 "(the blocks reading a pixel's channels run together), 0: the splits first")   \
    X(RING, 0, CT_RANGE(0, 1), "1: an item after the previous row tile of its image keeps the dy rows the two " \
                               "share in shared memory (a ring of rows) and stages only its new ones")      \
    X(ASYNC, 0, CT_RANGE(0, 1), "1: cp.async copies the next item's rows as they lie into shared memory "      \
                                "during this item's mma, transposed from there (no staging round trip to "   \
                                "memory; more shared memory), 0: loads through registers")                 \
    X(WIDE, 0, CT_RANGE(0, 1), "1 (with PAIR): the two x rows of a pair interleaved and a dy row's words j, "  \
                               "j + 4 side by side, each fragment pair one 8-byte shared-memory load; "    \
                               "normalized to 0 without PAIR)")                                             \
    X(XSH, 0, CT_RANGE(0, 1), "1: an x staging task takes its third pixel from the lane of the next task by a " \
                              "shuffle instead of loading it again")

const ct_param_def ct_wgdw16cl_params[CT_DW16BWD_NPARAMS] = CT_PARAM_TABLE(WT_ALL);
CT_PARAM_VALUES(wt, WT_ALL, ct_wgdw16cl_params)
_Static_assert(CT_PARAM_COUNT(WT_ALL) == CT_DW16BWD_NPARAMS, "CT_DW16BWD_NPARAMS is the list's length");

/* Products an fp32 accumulator may hold before the splits' fp64 sums. */
#define WT_MAX_RUN 2048
/* Blocks of a grid on layers that have the work for them (about one per
 * SM of an A100 or H100), and the grid's limits. */
#define WT_MIN_BLOCKS 128
#define WT_MAX_GRID 2147483647LL
#define WT_MAX_GRID_Y 65535LL
/* Workspace floats of the splits (1 GiB). */
#define WT_MAX_WS (1LL << 28)

/* The template's derived sizes: ct_dw16_wgrad.cuh's WT_*, dw16bwd_sizes.cuh's
 * expressions. */
typedef struct wt_geom {
    long long vec, cb, warps, rows, items, pair, batch, prefetch, async, wide;
    long long cpw, nt, owp, ns, offx, xwn, xw, dlo, ndr, dwn, dws, nq, cs, smem;
    long long ntile, nitems, nsplit, ncg, count, threads;
} wt_geom;

static void wt_geometry(const ct_tc_shape *s, const wt_values *q, wt_geom *g)
{
    memset(g, 0, sizeof *g);
    g->vec = q->VEC, g->cb = q->CHANNELS, g->warps = q->WARPS, g->rows = q->ROWS, g->items = q->ITEMS;
    g->pair = q->PAIR, g->batch = q->BATCH, g->prefetch = q->PREFETCH, g->async = q->ASYNC, g->wide = q->WIDE;
    if (g->vec < 1 || g->cb < 1 || g->warps < 1 || g->rows < 1 || g->items < 1 || g->batch < 1)
        return;
    g->threads = DW16B_NTHR(g->warps);
    g->cpw = DW16B_CPW(g->cb, g->warps);
    g->nt = DW16B_NT(s->kh);
    g->owp = DW16B_OWP(s->ow);
    g->ns = DW16B_NS(g->owp);
    g->offx = DW16B_OFFX(s->pw);
    g->xwn = DW16B_XWN(g->owp, s->dx, s->pw, g->offx);
    /* The kernel's wt_xw(): the first stride from XWN on that passes. */
    const long long span = DW16B_SPAN(s->dx);
    g->xw = g->xwn;
    for (long long w = g->xwn; w < g->xwn + 32; w++)
        if (DW16B_XW_OK(w, g->wide, span)) {
            g->xw = w;
            break;
        }
    g->dlo = DW16B_DLO(s->ph, s->kh, s->dy);
    g->ndr = DW16B_NDR(g->rows, s->ph, g->dlo);
    g->dwn = DW16B_DWN(g->owp);
    g->dws = DW16B_DWS(g->wide, g->dwn);
    g->nq = DW16B_NQ(g->cb, g->vec);
    g->cs = DW16B_CS(g->wide, g->nq, g->vec, DW16B_CS0(g->rows, g->xw, g->ndr, g->dws));
    const long long tile_words = DW16B_TILE_WORDS(g->cb, g->cs);
    g->smem = 4 * DW16B_SMEM_WORDS(g->async, DW16B_RAW0(tile_words),
                                   DW16B_RAWX(g->rows, DW16B_RW(s->w), g->cb),
                                   DW16B_RAWD(g->ndr, DW16B_RW(s->ow), g->cb), tile_words);
    g->ntile = DW16B_NTILE(DW16B_ROWT(s->h, s->oh), g->rows);
    g->nitems = DW16B_NITEMS(s->b, g->ntile);
    g->nsplit = DW16B_NSPLIT(g->nitems, g->items);
    g->ncg = DW16B_NCG(s->cin, g->cb);
    g->count = DW16B_COUNT(s->kh * s->kw, s->bias, s->cin);
}

static long long elem_size(const ct_tc_shape *s)
{
    return s->p ? (long long)ct_dtype_size(ct_problem_dtype(s->p)) : 2;
}

/* The layers it computes: depthwise, stride 1, filters of at most 16 x 16,
 * sm_80 or later (bf16 and f16 mma.sync m16n8k16). */
static int wt_layer(const ct_template *t, const ct_tc_shape *s, const ct_limits *lim, char *why, size_t len)
{
    if (s->groups != s->cin || s->cout != s->cin) {
        snprintf(why, len, "%s computes a depthwise layer's weight gradient: groups = Cin = Cout only (here "
                 "groups = %lld, Cin = %lld, Cout = %lld)", t->name, s->groups, s->cin, s->cout);
        return 1;
    }
    if (lim->cc_major < 8) {
        snprintf(why, len, "%s needs sm_80 or later (bf16/f16 mma.sync m16n8k16), the device is sm_%d%d", t->name,
                 lim->cc_major, lim->cc_minor);
        return 1;
    }
    if (s->sy != 1 || s->sx != 1) {
        snprintf(why, len, "%s: stride 1 only (here %lld x %lld: a strided column is no Toeplitz row shift; "
                 "wgdwcl serves strided layers)", t->name, s->sy, s->sx);
        return 1;
    }
    if (s->kh > 16 || s->kw > 16) {
        snprintf(why, len, "%s: KH and KW at most 16 (here %lld x %lld: one m16 tile along KW, two n8 tiles "
                 "along KH)", t->name, s->kh, s->kw);
        return 1;
    }
    return 0;
}

static int wt_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len)
{
    if (wt_layer(t, s, lim, why, len))
        return 1;
    const wt_values q = wt_get(c);
    wt_geom g;
    wt_geometry(s, &q, &g);
    if (g.vec != 2 && g.vec != 4 && g.vec != 8) {
        snprintf(why, len, "VEC is 2, 4 or 8");
        return 1;
    }
    if (s->cin % g.vec != 0 || g.cb % g.vec != 0) {
        snprintf(why, len, "VEC=%lld divides neither Cin = %lld or CHANNELS=%lld (aligned vector loads)", g.vec,
                 s->cin, g.cb);
        return 1;
    }
    if (g.warps < 1 || g.cb % g.warps != 0 || g.threads > lim->max_threads_per_block) {
        snprintf(why, len, "WARPS=%lld: at least 1, dividing CHANNELS=%lld, %lld threads within the device's %d",
                 g.warps, g.cb, g.threads, lim->max_threads_per_block);
        return 1;
    }
    /* Channels past the layer in the last group: on a layer big enough to
     * have a choice, another group size does better. */
    const int big = (double)s->b * (double)s->cin * (double)s->h * (double)s->w >= 1048576.0;
    if (big && 4 * s->cin < 3 * g.ncg * g.cb) {
        snprintf(why, len, "only %lld of the %lld channels of the channel groups are the layer's", s->cin,
                 g.ncg * g.cb);
        return 1;
    }
    /* Two x rows an mma: M = 2 x 8 kw rows, N = KH + 1 dy rows. */
    if (g.pair != 0 && (g.pair != 1 || s->kw > 8 || s->kh > 7 || s->dy != 1 || g.rows % 2 != 0 || s->h < 2)) {
        snprintf(why, len, "PAIR=%lld: 0, or 1 with KW <= 8, KH <= 7, dilation 1 along H and ROWS even (here KW "
                 "%lld, KH %lld, dilation %lld, ROWS %lld; and two x rows at least)", g.pair, s->kw, s->kh, s->dy, g.rows);
        return 1;
    }
    /* The error of an fp32 sum grows with its length. */
    if (g.items * g.rows * g.owp > WT_MAX_RUN) {
        snprintf(why, len, "ITEMS x ROWS x OW rounded to 16 = %lld products in one fp32 sum exceed %d",
                 g.items * g.rows * g.owp, WT_MAX_RUN);
        return 1;
    }
    if (g.smem > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of shared memory per block exceed the device's %d", g.smem,
                 lim->max_smem_per_block);
        return 1;
    }
    /* The accumulators (4 per n tile and channel, the bias's), the A and B
     * fragments of a slice, about 40 for addresses and a batch's staging
     * loads (3 x and 2 dy vectors of VEC / 2 words a task). */
    if (g.batch < 1 || g.batch > 16 || (g.prefetch != 0 && g.prefetch != 1) || (q.CFIRST != 0 && q.CFIRST != 1) ||
        (q.RING != 0 && q.RING != 1) || (g.async != 0 && g.async != 1)) {
        snprintf(why, len, "BATCH in 1..16, PREFETCH, CFIRST, RING and ASYNC 0 or 1");
        return 1;
    }
    if (q.XSH != 0 && q.XSH != 1) {
        snprintf(why, len, "XSH is 0 or 1");
        return 1;
    }
    if (g.wide != 0 && (g.wide != 1 || !g.pair)) {
        snprintf(why, len, "WIDE=%lld: 0, or 1 with PAIR=1 (its interleaved rows are a pair's)", g.wide);
        return 1;
    }
    if (g.async && g.prefetch) {
        snprintf(why, len, "ASYNC=1 copies the next item during the mma itself: PREFETCH=0 with it");
        return 1;
    }
    /* Prefetching needs a next item, and holds the batch's words through
     * the mma: past 40 (BATCH 4 of 8-channel vectors), ptxas used 210-232
     * registers on sm_90, one block an SM. */
    if (g.prefetch && (g.items < 2 || g.batch * 5 * g.vec / 2 > 40)) {
        snprintf(why, len, "PREFETCH with ITEMS=%lld, BATCH=%lld: a next item, and at most 40 words of a batch held "
                 "through the mma (here %lld)", g.items, g.batch, g.batch * 5 * g.vec / 2);
        return 1;
    }
    if (ct_regs_exceed(lim, g.cpw * (4 * g.nt + (s->bias ? 1 : 0)) + 4 + 2 * g.nt + 40 + g.batch * 5 * g.vec / 2,
                       g.threads, 1, why, len))
        return 1;
    if (g.nsplit > WT_MAX_GRID || g.ncg > WT_MAX_GRID_Y) {
        snprintf(why, len, "%lld splits x %lld channel groups exceed the grid's limits", g.nsplit, g.ncg);
        return 1;
    }
    /* A grid under WT_MIN_BLOCKS leaves SMs idle where the layer has the
     * items for more blocks. */
    if (g.nsplit * g.ncg < WT_MIN_BLOCKS && g.nitems * g.ncg >= WT_MIN_BLOCKS) {
        snprintf(why, len, "%lld blocks (splits x channel groups) for %lld items: under %d, SMs idle",
                 g.nsplit * g.ncg, g.nitems * g.ncg, WT_MIN_BLOCKS);
        return 1;
    }
    /* The workspace is written and read once: beyond a quarter of the
     * bytes of x and dy, longer splits do better. */
    const double io = (double)elem_size(s) * (double)s->b * (double)s->cin *
                      ((double)s->h * (double)s->w + (double)s->oh * (double)s->ow);
    if (g.nsplit > 1 && 8.0 * (double)g.nsplit * (double)g.count > 0.25 * io) {
        snprintf(why, len, "%lld splits: their partial sums move %.0f%% of the bytes of x and dy, over 25%%",
                 g.nsplit, 100.0 * 8.0 * (double)g.nsplit * (double)g.count / io);
        return 1;
    }
    if (g.nsplit * g.count > WT_MAX_WS) {
        snprintf(why, len, "a workspace of %lld partial sums exceeds %lld", g.nsplit * g.count, WT_MAX_WS);
        return 1;
    }
    return 0;
}

/* Store the effective sizes, so that requests giving the same kernel
 * collapse: the widest vector up to the one asked for that divides the
 * channels and CHANNELS, no more rows than the tiles cover, the fewest
 * items giving the same number of splits, no larger batch than a thread's
 * staging tasks. */
static void wt_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    (void)t;
    wt_values q = wt_get(c);
    /* No more channels a block than the layer has, where its warps still
     * divide them (a big layer of 8 channels would otherwise waste half of
     * CHANNELS=16's and be refused). */
    if (q.CHANNELS > s->cin && q.WARPS >= 1 && s->cin % q.WARPS == 0)
        q.CHANNELS = (long)s->cin;
    while (q.VEC > 2 && (s->cin % q.VEC != 0 || q.CHANNELS % q.VEC != 0))
        q.VEC /= 2;
    /* PAIR=1 falls back to 0 on a layer that does not admit it (it took
     * 11% off the 7x7 target's time wherever it applied), so that one
     * value list serves every layer. */
    if (q.PAIR == 1 && (s->kw > 8 || s->kh > 7 || s->dy != 1 || q.ROWS % 2 != 0 || s->h < 2))
        q.PAIR = 0;
    const long long rowt = DW16B_ROWT(s->h, s->oh);
    if (q.ROWS > rowt)
        q.ROWS = (long)(q.PAIR == 1 ? ct_rup(rowt, 2) : rowt);   /* PAIR's rows come in twos */
    if (q.ROWS >= 1 && q.ITEMS >= 1) {
        const long long items = DW16B_NITEMS(s->b, DW16B_NTILE(rowt, q.ROWS));
        const long long nsplit = ct_cdiv(items, q.ITEMS < items ? q.ITEMS : items);
        q.ITEMS = (long)ct_cdiv(items, nsplit);
    }
    /* No more batch than a thread's staging tasks of x or dy. */
    wt_geom g;
    wt_geometry(s, &q, &g);
    if (g.threads > 0 && g.vec >= 1 && q.BATCH > 1) {
        const long long xi = DW16B_TI(DW16B_XT(g.nq, g.xwn, g.rows), g.threads),
                        di = DW16B_TI(DW16B_DT(g.nq, g.dwn, g.ndr), g.threads), most = xi > di ? xi : di;
        if (q.BATCH > most)
            q.BATCH = (long)(most > 1 ? most : 1);
    }
    /* A ring needs a block's next item to be the next row tile. */
    if (q.ITEMS == 1 || g.ntile == 1)
        q.RING = 0;
    /* WIDE interleaves PAIR's rows; XSH needs the next task in the warp. */
    if (q.PAIR != 1)
        q.WIDE = 0;
    if (g.cb / (g.vec > 0 ? g.vec : 1) * (q.WIDE == 1 ? 2 : 1) >= 32)
        q.XSH = 0;
    wt_put(c, &q);
}

/* Blocks of WARPS warps, the splits along x and the channel groups along y
 * (the executor launches it), the tiles in dynamic shared memory. */
static void wt_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    (void)t;
    const wt_values q = wt_get(c);
    wt_geom g;
    wt_geometry(s, &q, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.nsplit;
    l->grid[1] = (unsigned)g.ncg;
    l->grid[2] = 1;
    l->block[0] = (unsigned)g.threads;
    l->block[1] = l->block[2] = 1;
    l->smem_bytes = (unsigned)g.smem;
}

const ct_kernel_kind ct_kind_wgdw16cl = {.name = "wgdw16cl", .layouts = CT_LAYOUT_CL_ONLY, .any_layer = 1,
                                         .passes = CT_PASS_BIT(CT_PASS_WGRAD), .constrain = wt_constrain,
                                         .normalize = wt_normalize, .launch = wt_launch};

/* The executor: wgdwcl's two launches (the workspace of the splits along
 * the grid's x, then the reduce, even for one split) and its export text,
 * for this kind's template. */
static const ct_ws_exec wt_ws = {.exec = &ct_dw16bwd_exec, .split_axis = 0, .always = 1,
                                 .reduce_grid = ct_dwclbwd_reduce_grid, .what = "wgrad workspace"};

static ct_status wt_setup(const ct_problem *p, const ct_params *c, const ct_drv *d, CUmodule mod,
                          const CUdeviceptr *bufs, void **out, ct_err *e)
{
    return ct_ws_setup(&wt_ws, p, c, d, mod, bufs, out, e);
}

static void wt_emit(FILE *f, const ct_problem *p, const ct_params *c, const char *sym, const char *signature)
{
    ct_dwclbwd_emit(&ct_dw16bwd_exec, f, p, c, sym, signature);
}

const ct_executor ct_dw16bwd_exec = {
    .library = "CUDA runtime",
    .link_flags = "",
    .setup = wt_setup,
    .run = ct_ws_run,
    .teardown = ct_ws_teardown,
    .resources = ct_ws_resources,
    .emit_launcher = wt_emit,
};
