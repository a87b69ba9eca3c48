/* tiled_conv2dc.c - parameters, derived sizes, constraints and launch
 * geometry of the conv2dc tiled template (tiled.conv2dc.cu.in beside it;
 * the derived sizes are tiled_sizes.cuh's, which the template expands
 * too). */
#include "tiled_conv.h"
#include "intmath.h"
#include "tiled_sizes.cuh"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

static const char *const placement_names[] = {"constant", "shared"};
static const char *const stage_names[] = {"tile", "image"};

#define TILED_PARAMS(X)                                                                                      \
    X(BLOCK_SIZE, 0, CT_THREADS(0), "threads per block (0: one pixel group per thread, up to 1024)")         \
    X(OUT_X, 1, CT_RANGE(1, 16), "consecutive output pixels of a row per thread (sliding window)")            \
    X(COUT_PER_THREAD, 0, CT_INT(0), "output channels accumulated per thread (0: all)")                      \
    X(IMGS_PER_BLOCK, 1, CT_RANGE(1, 64), "images per block")                                                \
    X(TILE_OH, 0, CT_INT(0), "output rows per block tile (0: the whole image)")                              \
    X(TILE_OW, 0, CT_INT(0), "output columns per block tile (0: the whole image)")                           \
    X(WEIGHT_PLACEMENT, 0, CT_SYMBOLS(placement_names),                                                      \
      "constant: fully unrolled, weights folded into FMAs; shared: [ci][i][j][co]")                         \
    X(CI_UNROLL, 0, CT_INT(0), "input channels per unrolled iteration with shared weights (0: all)")         \
    X(ROW_PAD, 0, CT_INT(0), "1: pad staged rows so a warp's rows fall in consecutive banks")                \
    X(MIN_BLOCKS, 1, CT_INT(1), "minimum resident blocks per SM (__launch_bounds__)")                        \
    X(CIN_CHUNK, 0, CT_INT(0), "input channels staged at a time (0: all); with several chunks a thread "     \
                               "owns one pixel group x channel group")                                       \
    X(OUT_Y, 1, CT_RANGE(1, 16), "consecutive output rows per thread (each window row feeds every row it reaches)") \
    X(STAGE, 0, CT_SYMBOLS(stage_names), "tile: padded tile in shared memory, any mode; image: the global "   \
                                         "layout, one contiguous 16-byte copy per image (valid mode, whole "  \
                                         "images)")                                                          \
    X(PIPE, 0, CT_INT(0), "1: two shared buffers, the next stage copied (cp.async) while this one is "        \
                          "computed")                                                                        \
    X(GROUPS_PER_BLOCK, 1, CT_RANGE(1, 1024), "work items (IMGS_PER_BLOCK images x one tile) per block, in turn")
const ct_param_def ct_tiled_params_2d[CT_TILED_NPARAMS_2D] = CT_PARAM_TABLE(TILED_PARAMS);
CT_PARAM_VALUES(tiled2, TILED_PARAMS, ct_tiled_params_2d)
_Static_assert(CT_PARAM_COUNT(TILED_PARAMS) == CT_TILED_NPARAMS_2D, "CT_TILED_NPARAMS_2D is the list's length");

static double out_count(const ct_tc_shape *s)
{
    return (double)s->b * (double)s->cout * (double)s->oh * (double)s->ow;
}

/* A tiled candidate's derived sizes: tiled_sizes.cuh's expressions, which
 * the macros of the same names in tiled.conv2dc.cu.in are. */
typedef struct tiled_geom {
    long long toh, tow, tiles, ncg, cpt, ipb, items, cc, nch, units, nt, lv, nl, pitch, s_in, s_w, taps;
    long long oy, work, nbuf;
} tiled_geom;

static void tiled_geometry(const ct_tc_shape *s, const tiled2_values *q, tiled_geom *g)
{
    const long long oh = s->oh, ow = s->ow, cout = s->cout, cin = s->cin;
    const long long kh = s->kh, kw = s->kw, h = s->h, w = s->w;
    const long long ox = q->OUT_X, th = q->TILE_OH, tw = q->TILE_OW, cpt = q->COUT_PER_THREAD;
    const long long block = q->BLOCK_SIZE;
    const int image = q->STAGE == 1;
    g->oy = q->OUT_Y;
    g->toh = TILED2_TILE(oh, th, g->oy);
    g->tow = TILED2_TILE(ow, tw, ox);
    g->tiles = TILED2_TILES(oh, g->toh, TILED_CDIV(ow, g->tow));
    g->ncg = TILED2_NCG(cout, cpt);
    g->cpt = TILED2_CPT(cout, g->ncg);
    g->ipb = q->IMGS_PER_BLOCK;
    g->items = TILED2_ITEMS(g->ipb, g->toh / g->oy, g->tow / ox);
    g->cc = TILED_REQ(cin, (long long)q->CIN_CHUNK);
    g->nch = TILED2_NCH(cin, g->cc);
    g->units = TILED2_UNITS(g->nch, g->items, g->ncg);
    g->nt = TILED2_NT(block, g->units);
    g->work = TILED2_WORK(s->b, g->ipb, g->tiles);
    g->nbuf = TILED2_NBUF(q->PIPE);
    g->lv = TILED2_LV(ox, w, image);
    g->nl = TILED2_NL(TILED2_NWIN(ox, kw), g->lv);
    const long long sh = TILED2_SH(g->toh, kh);
    if (image) {
        g->pitch = w;
        g->s_in = TILED2_S_IN_IMAGE(g->ipb, g->cc, h * w, TILED2_LAST_READ(sh, w, g->tow, ox, g->nl));
    } else {
        g->pitch = TILED2_PITCH(q->ROW_PAD, TILED2_PITCH0(g->tow, ox, g->nl, g->lv), g->tow);
        g->s_in = TILED2_S_IN_TILE(g->ipb, g->cc, sh, g->pitch);
    }
    g->taps = TILED2_TAPS(cin, kh, kw);
    g->s_w = q->WEIGHT_PLACEMENT == 1 ? g->taps * TILED2_COUTP(g->ncg, g->cpt) : 0;
}

/* A bound on the fully unrolled FMAs of one loop body: past it, code size
 * (16 bytes an instruction, 200 KB at this bound) and NVRTC time grow with
 * nothing left to gain. The seed layers' winners unroll about 1100 and
 * 1200; a 10368-FMA body compiled in 2.9 s. */
#define MAX_UNROLLED_FMAS 12288
/* Constant weights unroll the filter rows too: NVRTC took 4 to 98 s on such
 * bodies of 9408 FMAs (the 7x7x3 stem with 64 output channels per thread
 * loop) against under 1.5 s at 4096, and those candidates never won. */
#define MAX_UNROLLED_CONST_FMAS 4096

/* Whether p's mode is valid (no padding): the image stage needs it. The
 * kind reads the family's field by name, as code outside a family does. */
static int mode_valid(const ct_problem *p)
{
    const int i = ct_field_find(p->family, "mode");
    return i >= 0 && p->dims[i] == ct_field_choice(&p->family->fields[i], "valid");
}

static int tiled2_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                            char *why, size_t len)
{
    (void)t;
    const int valid = mode_valid(s->p);
    const tiled2_values q = tiled2_get(c);
    const long block = q.BLOCK_SIZE, ox = q.OUT_X, ipb = q.IMGS_PER_BLOCK, placement = q.WEIGHT_PLACEMENT;
    const long ciu = q.CI_UNROLL, minb = q.MIN_BLOCKS, oy = q.OUT_Y, gpb = q.GROUPS_PER_BLOCK, pipe = q.PIPE;
    if (ox < 1 || ox > 16 || oy < 1 || oy > 16 || ipb < 1 || ipb > 64 || ciu < 0 || minb < 1 || q.TILE_OH < 0 ||
        q.TILE_OW < 0 || q.COUT_PER_THREAD < 0 || q.CIN_CHUNK < 0 || gpb < 1 || gpb > 1024 || pipe < 0 ||
        pipe > 1 || (block != 0 && (block < 32 || block % 32 != 0))) {
        snprintf(why, len, "OUT_X and OUT_Y in 1..16, IMGS_PER_BLOCK in 1..64, GROUPS_PER_BLOCK in 1..1024, "
                 "PIPE 0 or 1, BLOCK_SIZE 0 or a multiple of 32, MIN_BLOCKS >= 1, the rest >= 0");
        return 1;
    }
    tiled_geom g;
    tiled_geometry(s, &q, &g);
    const int image_fits = valid && g.tiles == 1;
    if (q.STAGE == 1 && !image_fits) {
        snprintf(why, len, "STAGE=image copies whole images as they lie in memory: valid mode and no tiles only");
        return 1;
    }
    /* Tiles cost a halo of extra reads and copies; they pay off when whole
     * images do not fit in shared memory twice over, or when the batch is
     * too small to fill the GPU with blocks. */
    if (g.tiles > 1 && ct_cdiv(s->b, g.ipb) >= 1024 &&
        8LL * g.nbuf * g.ipb * g.cc * (s->oh + s->kh - 1) * (s->ow + s->kw - 1) <=
            lim->max_smem_per_block) {
        snprintf(why, len, "whole images fit in shared memory and the batch fills the GPU: no tiles");
        return 1;
    }
    /* Where the image layout applies, its contiguous 16-byte copies beat
     * the per-element copy of the padded tile, so that is not tried. */
    if (q.STAGE == 0 && image_fits) {
        snprintf(why, len, "valid mode with whole images stages them with STAGE=image");
        return 1;
    }
    /* Chunked, a thread's channel group is its thread index, which would
     * turn every constant weight into a load. */
    if (g.nch > 1 && g.ncg > 1 && placement == 0) {
        snprintf(why, len, "CIN_CHUNK with constant weights needs all output channels in one thread");
        return 1;
    }
    if (g.nt > lim->max_threads_per_block) {
        snprintf(why, len, "BLOCK_SIZE=%lld exceeds the device's %d threads", g.nt, lim->max_threads_per_block);
        return 1;
    }
    if (g.nt > ct_rup(g.units, 32)) {
        snprintf(why, len, "BLOCK_SIZE=%lld leaves whole warps idle: the block has %lld work units", g.nt,
                 g.units);
        return 1;
    }
    /* FMAs spent on tile padding (rows and columns rounded up to OUT_Y and
     * OUT_X), on channel groups past Cout and on idle lanes of the last
     * pass over a work item: a candidate that throws away more than 15% of
     * its arithmetic loses to one that does not on a compute-bound layer. Small
     * problems (under 4096 output pixels per channel) may have nothing
     * better, so they keep every candidate. */
    const double useful = out_count(s);
    const double slots_per_item = (g.nch > 1 ? (double)g.nt : (double)(ct_cdiv(g.items, g.nt) * g.nt)) *
                                  (double)(ox * oy * g.cpt * (g.nch > 1 ? 1 : g.ncg));
    const double eff = useful / ((double)g.work * slots_per_item);
    if (eff < 0.85 && useful / (double)s->cout >= 4096) {
        snprintf(why, len, "only %.0f%% of the FMAs computed are outputs (tile padding, channel groups, idle lanes)",
                 100.0 * eff);
        return 1;
    }
    if (g.nch > 1 && g.nt < g.units) {
        snprintf(why, len, "CIN_CHUNK=%lld needs a thread per pixel group x channel group (%lld), not %lld",
                 g.cc, g.units, g.nt);
        return 1;
    }
    const long long wbytes = 4 * (s->cout * g.taps + (s->bias ? s->cout : 0));
    if (wbytes > lim->const_bytes) {
        snprintf(why, len, "weights and bias of %lld bytes do not fit in %d bytes of constant memory", wbytes,
                 lim->const_bytes);
        return 1;
    }
    /* The staged input is dynamic shared memory (the launch opts in past
     * 48 KiB); the shared weights are static, which stops at 48 KiB. */
    const long long smem = 4 * (g.nbuf * g.s_in + g.s_w);
    if (4 * g.s_w > 48 * 1024 || smem > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of shared memory (%lld of them static weights) exceed the device's %d "
                 "(48 KiB static)", smem, 4 * g.s_w, lim->max_smem_per_block);
        return 1;
    }
    /* Chunked, the channel groups are threads, not unrolled iterations. */
    /* Shared weights keep the filter-row loop a loop. */
    const long long body = placement == 0 ? (g.nch > 1 ? g.cpt : s->cout) * g.taps * ox * oy
                                          : (ciu ? ciu : g.cc) * s->kw * g.cpt * ox * oy;
    const int max_body = placement == 0 ? MAX_UNROLLED_CONST_FMAS : MAX_UNROLLED_FMAS;
    if (body > max_body) {
        snprintf(why, len, "%lld FMAs in one unrolled loop body exceed %d", body, max_body);
        return 1;
    }
    /* Accumulators, the input window, shared weights (ptxas keeps about
     * two taps' worth in flight) and about 16 for addresses, checked
     * against ptxas on the seed shapes: more than the launch bounds leave
     * would spill. */
    const long long regs = g.cpt * ox * oy + oy * g.nl + (placement == 1 ? 2 * ct_rup(g.cpt, 4) : 0) + 16;
    return ct_regs_exceed(lim, regs, g.nt, minb, why, len);
}

static void tiled2_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    (void)t;
    tiled2_values q = tiled2_get(c);
    if (q.OUT_Y > s->oh)
        q.OUT_Y = (long)s->oh;
    tiled_geom g;
    tiled_geometry(s, &q, &g);
    /* Store the effective tile and channel group, so requests that yield
     * the same kernel collapse; the macros map these values to themselves. */
    q.TILE_OH = g.toh >= s->oh ? 0 : (long)g.toh;
    q.TILE_OW = g.tow >= s->ow ? 0 : (long)g.tow;
    q.COUT_PER_THREAD = g.ncg == 1 ? 0 : (long)g.cpt;
    if (q.IMGS_PER_BLOCK > s->b)
        q.IMGS_PER_BLOCK = (long)s->b;
    if (q.CIN_CHUNK >= s->cin)
        q.CIN_CHUNK = 0;
    tiled_geometry(s, &q, &g);
    if (q.GROUPS_PER_BLOCK > g.work)
        q.GROUPS_PER_BLOCK = (long)g.work;
    /* A second buffer only helps a block with a second stage. */
    if (q.GROUPS_PER_BLOCK == 1 && g.nch == 1)
        q.PIPE = 0;
    /* The image layout has no row padding. */
    if (q.STAGE == 1)
        q.ROW_PAD = 0;
    if (q.WEIGHT_PLACEMENT == 0 || q.CI_UNROLL >= g.cc)
        q.CI_UNROLL = 0;
    if (q.ROW_PAD) {
        tiled_geom padded;
        tiled_geometry(s, &q, &padded);
        q.ROW_PAD = 0;
        tiled_geometry(s, &q, &g);
        if (padded.pitch != g.pitch)
            q.ROW_PAD = 1;
    }
    tiled_geometry(s, &q, &g);
    if (q.BLOCK_SIZE && q.BLOCK_SIZE == TILED2_AUTO_NT(g.units))
        q.BLOCK_SIZE = 0;
    tiled2_put(c, &q);
}

static void tiled2_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    (void)t;
    const tiled2_values q = tiled2_get(c);
    tiled_geom g;
    tiled_geometry(s, &q, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)ct_cdiv(g.work, q.GROUPS_PER_BLOCK);
    l->block[0] = (unsigned)g.nt;
    l->smem_bytes = (unsigned)(4 * g.nbuf * g.s_in);
    l->grid[1] = l->grid[2] = 1;
    l->block[1] = l->block[2] = 1;
}

const ct_kernel_kind ct_kind_tiled2 = {.name = "tiled", .layouts = CT_LAYOUT_DEFAULT_ONLY,
                                       .constrain = tiled2_constrain, .normalize = tiled2_normalize,
                                       .launch = tiled2_launch};
