/* dwtc16cl_conv.c - parameters, sizes, constraints and launch geometry of
 * the kind dwtc16cl (dwtc16cl_conv.h); the derived sizes are
 * dwtc16cl_sizes.cuh's, which the kernel's TD_* macros expand too. */
#include "dwtc16cl_conv.h"
#include "dwtc16cl_sizes.cuh"
#include "intmath.h"
#include "tc_shape.h"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

/* Each parameter once. */
#define TD_ALL(X)                                                                                              \
    X(VEC, 8, CT_RANGE(2, 8), "channels per global load and store (2, 4, 8: a 4-, 8- or 16-byte access; "    \
                              "narrowed to divide the channels and CHANNELS)")                                 \
    X(CHANNELS, 16, CT_RANGE(1, 256), "channels of a block (the grid's fastest index: the channel groups), "  \
                                       "staged in shared memory channel-major")                                \
    X(WARPS, 8, CT_WARPS(1), "warps of a block: each owns CHANNELS / WARPS channels, their weights in "       \
                             "registers as mma B fragments")                                                   \
    X(ROWS, 16, CT_RANGE(1, 256), "output rows of an item's tile (the input rows they read staged with it)")   \
    X(COLS, 64, CT_RANGE(8, 512), "output columns of an item's tile, a multiple of 8 (runs of 8: an mma's "  \
                                  "N; normalized to the output's width rounded up to 8)")                      \
    X(ITEMS, 1, CT_RANGE(1, 1 << 20), "items (batch image x row tile x column tile) a block computes in "    \
                                      "turn, its weights loaded once")                                         \
    X(BATCH, 2, CT_RANGE(1, 16), "staging tasks (two pixels' VEC channels each) a thread loads before it "    \
                                 "stores them")                                                                \
    X(TILES, 2, CT_RANGE(1, 8), "m16 tiles a warp computes at once for each of its channels (independent "    \
                                "mma chains)")                                                                 \
    X(SHIFT, 0, CT_RANGE(0, 2), "1: an m16 tile's halves are the even and odd rows of 8 row pairs, so that "  \
                                "for each filter row after the first half 0 takes half 1's fragments of the " \
                                "last and one ldmatrix.x2 loads the rest; 2: A-rows are runs, ROWS / 2 tiles " \
                                "hold an item's rows and each filter row after the first loads one half "     \
                                "(ROWS <= 16; TILES 1) (stride and dilation 1 along H, ROWS even; "          \
                                "normalized to 0 elsewhere, 2 to 1 past 16 rows)")                            \
    X(PREFETCH, 0, CT_RANGE(0, 2), "1: the next item's first staging batch is loaded before this item's mma " \
                                   "(its round trip overlaps the mma; its registers held through it); 2: "  \
                                   "before this item's copy-out (overlapping that, with its few registers)") \
    X(RING, 0, CT_RANGE(0, 1), "1: an item after the previous row tile of its image keeps the input rows "   \
                               "the two share in shared memory (a ring of rows) and stages only its new "   \
                               "ones (one column tile a row; normalized to 0 elsewhere)")                 \
    X(PIPE, 0, CT_RANGE(0, 2), "1: PWARPS producer warps stage item i + 1 into a second input buffer and "    \
                               "copy item i - 1 out of a second output buffer while the WARPS consumer "    \
                               "warps compute item i (named barriers; without PREFETCH and RING, which fall " \
                               "back to 0); 2: the same, the consumers copying their items out")          \
    X(PWARPS, 2, CT_RANGE(1, 16), "PIPE's producer warps (staging and copy-out; normalized to 1 without PIPE)") \
    X(OUTV, 0, CT_RANGE(0, 1), "1: the copy-out moves a 16-byte chunk (8 channels of a pixel) a thread, "      \
                               "0: a word (normalized to 0 where a block's channels of a pixel are no whole " \
                               "chunks)")                                                                    \
    X(MINB, 0, CT_RANGE(0, 4), "blocks an SM is to hold at once (__launch_bounds__: the register cap; 0: "  \
                               "none given, ptxas' own choice)")

const ct_param_def ct_dwtc16cl_params[CT_DWTC16CL_NPARAMS] = CT_PARAM_TABLE(TD_ALL);
CT_PARAM_VALUES(td, TD_ALL, ct_dwtc16cl_params)
_Static_assert(CT_PARAM_COUNT(TD_ALL) == CT_DWTC16CL_NPARAMS, "CT_DWTC16CL_NPARAMS is the list's length");

/* Blocks of a grid on layers that have the work for them (about one per
 * SM of an A100 or H100), and the grid's limit. */
#define TD_MIN_BLOCKS 128
#define TD_MAX_GRID 2147483647LL
/* k-steps of 16 input columns an mma row may span (KW <= 25 at dilation 1). */
#define TD_MAX_NK 2
/* Registers of B fragments a warp's channels may hold, mma of the unrolled
 * body (instruction cache, NVRTC time). */
#define TD_MAX_BREGS 64
#define TD_MAX_BODY 256
/* Words of a staging batch PREFETCH may hold through the mma. */
#define TD_MAX_PREFETCH 48

/* The template's derived sizes: dwtc16cl_sizes.cuh's expressions, which
 * ct_dwtc16_fwd.cuh's TD_* expand too. */
typedef struct td_geom {
    long long vec, cb, warps, rows, cols, items, batch, tiles, shift, prefetch, ring, pipe, pwarps, outv, minb;
    long long tw, threads, snthr, cpw, nk, ncr, nm, nr, xr, xwn, rs, nq, qoff, cs, in_words, prc, psw, out_words, smem;
    long long nrt, nct, nitems, nsplit, ncg, blocks, xt;
} td_geom;

static void td_geometry(const ct_tc_shape *s, const td_values *q, td_geom *g)
{
    memset(g, 0, sizeof *g);
    g->vec = q->VEC, g->cb = q->CHANNELS, g->warps = q->WARPS, g->rows = q->ROWS, g->cols = q->COLS;
    g->items = q->ITEMS, g->batch = q->BATCH, g->tiles = q->TILES, g->shift = q->SHIFT, g->prefetch = q->PREFETCH, g->ring = q->RING;
    g->pipe = q->PIPE, g->pwarps = q->PWARPS, g->outv = q->OUTV, g->minb = q->MINB;
    if (g->vec < 1 || g->cb < 1 || g->warps < 1 || g->rows < 1 || g->cols < 8 || g->items < 1 || g->batch < 1 ||
        g->tiles < 1 || g->pwarps < 1 || g->minb < 0)
        return;
    g->threads = DTC_THREADS(g->warps, g->pipe, g->pwarps);
    g->snthr = DTC_SNTHR(g->warps, g->pipe, g->pwarps);
    g->cpw = DTC_CPW(g->cb, g->warps);
    g->nk = DTC_NK(s->kw, s->dx);
    g->ncr = DTC_NCR(g->cols);
    g->nm = g->shift == 2 ? ct_cdiv(g->ncr, 8)
            : g->shift ? ct_cdiv(ct_cdiv(g->rows, 2) * g->ncr, 8) : ct_cdiv(g->rows * g->ncr, 16);
    /* m16 tiles a warp's channel runs at once: SHIFT 2's ROWS / 2. */
    g->tw = g->shift == 2 ? g->rows / 2 : g->tiles;
    g->nr = DTC_NR(g->rows, s->sy, s->kh, s->dy);
    g->xr = DTC_XR(g->cols, g->nk);
    g->xwn = DTC_XWN(g->xr);
    g->rs = DTC_RS(g->xwn);
    g->nq = DTC_NQ(g->cb, g->vec);
    g->qoff = DTC_QOFF(g->nq);
    g->cs = DTC_CS(DTC_NRP(g->shift, g->nr), g->rs, DTC_CSA(g->vec));
    g->in_words = DTC_IN_WORDS(g->cb, g->cs, g->nq, g->qoff);
    g->prc = DTC_PRC(DTC_PR(g->shift, g->rows));
    g->psw = DTC_PSW(g->cb);
    g->out_words = DTC_OUT_WORDS(g->shift, g->rows, g->cols, g->prc, g->psw);
    g->smem = 4 * DTC_SMEM_WORDS(g->pipe, g->in_words, g->out_words);
    g->nrt = DTC_NT(s->oh, g->rows);
    g->nct = DTC_NT(s->ow, g->cols);
    g->nitems = s->b * g->nrt * g->nct;
    g->nsplit = ct_cdiv(g->nitems, g->items);
    g->ncg = DTC_NCG(s->cin, g->cb);
    g->blocks = g->nsplit * g->ncg;
    g->xt = DTC_XT(g->nq, g->xwn, g->nr);
}

/* The layers it computes: depthwise, stride 1 along W, a filter row within
 * TD_MAX_NK k-steps, sm_80 or later (bf16 and f16 mma.sync m16n8k16). */
static int td_layer(const ct_template *t, const ct_tc_shape *s, const ct_limits *lim, char *why, size_t len)
{
    if (s->groups != s->cin || s->cout != s->cin) {
        snprintf(why, len, "%s computes a depthwise layer: groups = Cin = Cout only (here groups = %lld, Cin = "
                 "%lld, Cout = %lld)", t->name, s->groups, s->cin, s->cout);
        return 1;
    }
    if (lim->cc_major < 8) {
        snprintf(why, len, "%s needs sm_80 or later (bf16/f16 mma.sync m16n8k16), the device is sm_%d%d", t->name,
                 lim->cc_major, lim->cc_minor);
        return 1;
    }
    if (s->sx != 1) {
        snprintf(why, len, "%s: stride 1 along W only (here %lld: a strided column is no Toeplitz shift of "
                 "the input row; dwtcl serves strided layers)", t->name, s->sx);
        return 1;
    }
    if (8 + (s->kw - 1) * s->dx > 16 * TD_MAX_NK) {
        snprintf(why, len, "%s: 8 + (KW - 1) x DX = %lld input columns a row of 8 outputs spans exceed %d (two "
                 "k-steps of 16)", t->name, 8 + (s->kw - 1) * s->dx, 16 * TD_MAX_NK);
        return 1;
    }
    return 0;
}

static int td_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len)
{
    if (td_layer(t, s, lim, why, len))
        return 1;
    const td_values q = td_get(c);
    td_geom g;
    td_geometry(s, &q, &g);
    if (g.vec != 2 && g.vec != 4 && g.vec != 8) {
        snprintf(why, len, "VEC is 2, 4 or 8");
        return 1;
    }
    if (s->cin % g.vec != 0 || g.cb % g.vec != 0) {
        snprintf(why, len, "VEC=%lld divides neither Cin = %lld or CHANNELS=%lld (aligned vector accesses)", g.vec,
                 s->cin, g.cb);
        return 1;
    }
    if (g.warps < 1 || g.cb % g.warps != 0 || g.threads > lim->max_threads_per_block) {
        snprintf(why, len, "WARPS=%lld: at least 1, dividing CHANNELS=%lld, %lld threads (with PIPE's producer "
                 "warps) within the device's %d", g.warps, g.cb, g.threads, lim->max_threads_per_block);
        return 1;
    }
    if (g.cols % 8 != 0 || g.cols < 8 || g.rows < 1 || g.items < 1 || g.batch < 1 || g.batch > 16 || g.tiles < 1 ||
        g.tiles > 8) {
        snprintf(why, len, "COLS a multiple of 8, ROWS and ITEMS >= 1, BATCH in 1..16, TILES in 1..8");
        return 1;
    }
    if (g.shift != 0 && ((g.shift != 1 && g.shift != 2) || s->sy != 1 || s->dy != 1 || g.rows % 2 != 0 ||
                         (g.shift == 2 && (g.rows > 16 || g.tiles != 1)))) {
        snprintf(why, len, "SHIFT=%lld: 0, or 1 or 2 with stride and dilation 1 along H and ROWS even (here "
                 "stride %lld, dilation %lld, ROWS %lld), 2 with ROWS <= 16 and TILES=1", g.shift, s->sy, s->dy,
                 g.rows);
        return 1;
    }
    /* Prefetching needs a next item, and holds the batch's words through
     * the mma. */
    if (g.prefetch != 0 && ((g.prefetch != 1 && g.prefetch != 2) || g.items < 2 || g.batch * g.vec > TD_MAX_PREFETCH)) {
        snprintf(why, len, "PREFETCH=%lld: 0, or 1 or 2 with ITEMS >= 2 (here %lld) and at most %d words of a batch "
                 "held through the mma (here %lld)", g.prefetch, g.items, TD_MAX_PREFETCH, g.batch * g.vec);
        return 1;
    }
    if (g.ring != 0 && (g.ring != 1 || g.nct != 1 || g.nr <= g.rows * s->sy)) {
        snprintf(why, len, "RING=%lld: 0, or 1 with one column tile a row (here %lld) and row tiles sharing "
                 "input rows (%lld rows an item, %lld new)", g.ring, g.nct, g.nr, g.rows * s->sy);
        return 1;
    }
    if (g.pipe != 0 && ((g.pipe != 1 && g.pipe != 2) || g.pwarps < 1 || g.pwarps > 16 || g.prefetch != 0 ||
                        g.ring != 0)) {
        snprintf(why, len, "PIPE=%lld: 0, or 1 or 2 with PWARPS in 1..16 (here %lld) and neither PREFETCH nor RING",
                 g.pipe, g.pwarps);
        return 1;
    }
    if (g.cpw * s->kh * g.nk * 2 > TD_MAX_BREGS) {
        snprintf(why, len, "%lld channels a warp x KH %lld x %lld k-steps x 2 = %lld registers of weight "
                 "fragments exceed %d", g.cpw, s->kh, g.nk, g.cpw * s->kh * g.nk * 2, TD_MAX_BREGS);
        return 1;
    }
    if (g.cpw * g.tw * s->kh * g.nk > TD_MAX_BODY) {
        snprintf(why, len, "%lld unrolled mma a tile step (channels a warp x tiles x KH x k-steps) exceed %d",
                 g.cpw * g.tw * s->kh * g.nk, TD_MAX_BODY);
        return 1;
    }
    /* More tiles at once than an item has: a smaller TILES is the same
     * kernel (normalized away). */
    if (g.tiles > 1 && g.tiles > g.nm) {
        snprintf(why, len, "TILES=%lld exceeds the %lld m16 tiles of an item", g.tiles, g.nm);
        return 1;
    }
    /* Channels past the layer in the last group, outputs past the image in
     * the tiles: on a layer big enough to have a choice, another size does
     * better. */
    const int big = (double)s->b * (double)s->cin * (double)s->h * (double)s->w >= 1048576.0;
    if (big && 4 * s->cin < 3 * g.ncg * g.cb) {
        snprintf(why, len, "only %lld of the %lld channels of the channel groups are the layer's", s->cin,
                 g.ncg * g.cb);
        return 1;
    }
    const double teff = (double)s->oh * (double)s->ow / ((double)(g.nrt * g.rows) * (double)(g.nct * g.cols));
    if (big && teff < 0.75) {
        snprintf(why, len, "%.0f%% of the tiles' outputs exist (under 75%%)", 100.0 * teff);
        return 1;
    }
    if (g.smem > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of shared memory per block exceed the device's %d", g.smem,
                 lim->max_smem_per_block);
        return 1;
    }
    /* The weight fragments, the accumulators and A fragments of the tiles
     * at once, a batch's staging loads, about 32 for addresses. */
    /* (SHIFT 2: one channel's tiles at a time; PIPE: the staging
     * registers are the producer warps', live apart from the weights.) */
    const long long live = g.shift == 2 ? g.tw * 4 * (1 + g.nk) : g.cpw * g.tiles * 4 * (1 + g.nk);
    const long long mma = g.cpw * (s->kh * g.nk * 2 + 1) + live + 32, stage = g.batch * g.vec + 32;
    const long long regs = g.pipe ? (mma > stage ? mma : stage) : mma + stage - 32;
    if (ct_regs_exceed(lim, regs, g.threads, 1, why, len))
        return 1;
    /* MINB blocks an SM: their threads and shared memory fit, and the
     * register cap they set holds the weights and one tile step's
     * fragments (the addresses may spill a little: on the target's
     * SHIFT=2 shape, MINB 4 gives 64 registers and 16 bytes of spills). */
    if (g.outv != 0 && g.outv != 1) {
        snprintf(why, len, "OUTV is 0 or 1");
        return 1;
    }
    if (g.minb > 1 && (g.minb * g.threads > 2048 || g.minb * g.smem > lim->max_smem_per_sm ||
                       ct_regs_exceed(lim, mma - 32, g.threads, g.minb, why, len))) {
        snprintf(why, len, "MINB=%lld blocks of %lld threads, %lld bytes of shared memory and about %lld "
                 "registers a thread do not fit an SM", g.minb, g.threads, g.smem, mma - 32);
        return 1;
    }
    if (g.blocks > TD_MAX_GRID) {
        snprintf(why, len, "%lld blocks exceed the grid's limit", g.blocks);
        return 1;
    }
    /* A grid under TD_MIN_BLOCKS leaves SMs idle where the layer has the
     * items for more blocks. */
    if (g.blocks < TD_MIN_BLOCKS && g.nitems * g.ncg >= TD_MIN_BLOCKS) {
        snprintf(why, len, "%lld blocks (item ranges x channel groups) for %lld items: under %d, SMs idle",
                 g.blocks, g.nitems * g.ncg, TD_MIN_BLOCKS);
        return 1;
    }
    return 0;
}

/* Store the effective sizes, so that requests giving the same kernel
 * collapse: no more channels a block than the layer's (where the warps
 * still divide them), the widest vector up to the one asked for that
 * divides the channels and CHANNELS, no more rows or columns than the
 * output has, the fewest items giving the same number of item ranges, no
 * larger batch than a thread's staging tasks, no more tiles at once than
 * an item has. */
static void td_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    (void)t;
    td_values q = td_get(c);
    if (q.CHANNELS > s->cin && q.WARPS >= 1 && s->cin % q.WARPS == 0)
        q.CHANNELS = (long)s->cin;
    while (q.VEC > 2 && (s->cin % q.VEC != 0 || q.CHANNELS % q.VEC != 0))
        q.VEC /= 2;
    /* SHIFT=1 falls back to 0 on a layer that does not admit it or gains
     * nothing from it (one filter row), so that one value list serves
     * every layer. */
    if (q.SHIFT >= 1 && (s->sy != 1 || s->dy != 1 || s->kh == 1))
        q.SHIFT = 0;
    if (q.ROWS > s->oh)
        q.ROWS = (long)(q.SHIFT >= 1 && s->oh > 1 ? ct_rup(s->oh, 2) : s->oh);   /* SHIFT's rows come in twos */
    if (q.SHIFT >= 1 && q.ROWS % 2 != 0)
        q.SHIFT = 0;
    if (q.SHIFT == 2 && q.ROWS > 16)
        q.SHIFT = 1;
    if (q.SHIFT == 2)
        q.TILES = 1;   /* its tiles are ROWS / 2 */
    if (q.COLS > ct_rup(s->ow, 8))
        q.COLS = (long)ct_rup(s->ow, 8);
    if (q.ROWS >= 1 && q.COLS >= 8 && q.ITEMS >= 1) {
        const long long items = s->b * ct_cdiv(s->oh, q.ROWS) * ct_cdiv(s->ow, q.COLS);
        const long long nsplit = ct_cdiv(items, q.ITEMS < items ? q.ITEMS : items);
        q.ITEMS = (long)ct_cdiv(items, nsplit);
    }
    td_geom g;
    td_geometry(s, &q, &g);
    if (g.threads > 0 && q.BATCH > 1) {
        const long long most = ct_cdiv(g.xt, g.snthr);
        if (q.BATCH > most)
            q.BATCH = (long)(most > 1 ? most : 1);
    }
    if (g.nm >= 1 && q.TILES > g.nm)
        q.TILES = (long)g.nm;
    if (q.ITEMS == 1)
        q.PREFETCH = 0;   /* no next item */
    /* PIPE double-buffers instead of prefetching or keeping rows; its
     * producer count means nothing without it. */
    if (q.PIPE >= 1)
        q.PREFETCH = 0, q.RING = 0;
    else
        q.PWARPS = 1;
    /* The chunked copy-out needs whole 16-byte chunks of a pixel. */
    if (q.CHANNELS % 8 != 0 || s->cin % 8 != 0)
        q.OUTV = 0;
    /* A ring needs a block's next item to be the next row tile, sharing
     * input rows with this one. */
    if (q.ITEMS == 1 || g.nct != 1 || g.nrt == 1 || g.nr <= g.rows * s->sy)
        q.RING = 0;
    td_put(c, &q);
}

/* Blocks of WARPS warps, the channel groups fastest along the grid, the
 * tiles in dynamic shared memory. */
static void td_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    (void)t;
    const td_values q = td_get(c);
    td_geom g;
    td_geometry(s, &q, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.blocks;
    l->grid[1] = l->grid[2] = 1;
    l->block[0] = (unsigned)g.threads;
    l->block[1] = l->block[2] = 1;
    l->smem_bytes = (unsigned)g.smem;
}

const ct_kernel_kind ct_kind_dwtc16cl = {.name = "dwtc16cl", .layouts = CT_LAYOUT_CL_ONLY, .any_layer = 1,
                                         .constrain = td_constrain, .normalize = td_normalize,
                                         .launch = td_launch};
