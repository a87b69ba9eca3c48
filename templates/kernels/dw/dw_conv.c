/* dw_conv.c - parameters, sizes, constraints and geometry of the depthwise
 * templates conv1dc_dw and conv2dc_dw (dw.conv1dc.cu.in and dw.conv2dc.cu.in
 * beside it); the derived sizes are dw1_sizes.cuh's and dw2_sizes.cuh's,
 * which the templates expand too. */
#include "dw_conv.h"
#include "dw2_sizes.cuh"
#include "intmath.h"

#include <stdio.h>
#include <string.h>

/* After the headers: its macros have short names and no include guard. */
#include "dw1_sizes.cuh"

CT_FAMILY_CODE

#define DW1_PARAMS(X)                                                                                       \
    X(BLOCK_SIZE, 256, CT_THREADS(0), "threads per block")                                                  \
    X(CHANNELS_PER_BLOCK, 1, CT_INT(0), "rows (batch item, channel) per block, BLOCK_SIZE/CHANNELS_PER_BLOCK " \
                                        "threads each")                                                     \
    X(OUT_PER_THREAD, 4, CT_RANGE(1, 32), "consecutive outputs per thread (one register window of inputs)")    \
    X(VEC, 4, CT_INT(0), "floats per load and store (1, 2, 4; stride 1 with aligned rows only)")
const ct_param_def ct_dw_params_1d[CT_DW_NPARAMS_1D] = CT_PARAM_TABLE(DW1_PARAMS);
CT_PARAM_VALUES(dw1, DW1_PARAMS, ct_dw_params_1d)
_Static_assert(CT_PARAM_COUNT(DW1_PARAMS) == CT_DW_NPARAMS_1D, "CT_DW_NPARAMS_1D is the 1D list's length");

#define DW2_PARAMS(X)                                                                                       \
    X(OUT_X, 4, CT_RANGE(1, 16), "consecutive outputs of a row per thread (sliding window)")                \
    X(OUT_Y, 1, CT_RANGE(1, 16), "consecutive output rows per thread")                                      \
    X(TILE_OH, 0, CT_INT(0), "output rows per block tile (0: the whole plane)")                             \
    X(TILE_OW, 0, CT_INT(0), "output columns per block tile (0: the whole plane)")
const ct_param_def ct_dw_params_2d[CT_DW_NPARAMS_2D] = CT_PARAM_TABLE(DW2_PARAMS);
CT_PARAM_VALUES(dw2, DW2_PARAMS, ct_dw_params_2d)
_Static_assert(CT_PARAM_COUNT(DW2_PARAMS) == CT_DW_NPARAMS_2D, "CT_DW_NPARAMS_2D is the 2D list's length");

/* A bound on the unrolled FMAs of one loop body (instruction cache, NVRTC time). */
#define DW_MAX_BODY 4096
#define DW_MAX_GRID 2147483647LL

/* The 1D template's derived sizes: dw1_sizes.cuh's macros, expanded over
 * locals named as the template's macros they read. */
typedef struct dw1_geom {
    long long block, cpb, opt, vec, tpr, ntiles, rows, blocks, nw, window;
} dw1_geom;

static void dw1_geometry(const ct_tc_shape *s, const dw1_values *q, dw1_geom *g)
{
    memset(g, 0, sizeof *g);
    g->block = q->BLOCK_SIZE, g->cpb = q->CHANNELS_PER_BLOCK, g->opt = q->OUT_PER_THREAD, g->vec = q->VEC;
    if (g->block < 1 || g->cpb < 1 || g->opt < 1 || g->vec < 1)
        return;
    const long long CONV_B = s->b, CONV_CIN = s->cin, CONV_LOUT = s->ow, CONV_K = s->kw, CONV_PAD = s->pw,
                    CONV_STRIDE = s->sx, CONV_DIL = s->dx;
    const long long BLOCK_SIZE = g->block, CHANNELS_PER_BLOCK = g->cpb, OUT_PER_THREAD = g->opt, VEC = g->vec;
    g->tpr = TPR;
    g->rows = ROWS;
    /* No thread a row (CHANNELS_PER_BLOCK over BLOCK_SIZE): no tile; the
     * constraints refuse it, but the sizes are computed before they look. */
    g->ntiles = g->tpr > 0 ? NTILES : 0;
    /* The kernel's blockIdx.x: tile fastest, then CHANNELS_PER_BLOCK rows. */
    g->blocks = ct_cdiv(g->rows, g->cpb) * g->ntiles;
    g->nw = NW;
    /* Vector loads read NV vectors a window; scalar loads skip the
     * positions no tap reads: at most OPT x K. */
    g->window = g->vec > 1 ? NV * VEC : g->nw < OPT * CONV_K ? g->nw : OPT * CONV_K;
}

/* VEC > 1 needs stride 1 and rows, outputs and windows on VEC boundaries. */
static int dw1_vec_ok(const ct_tc_shape *s, long vec, long opt)
{
    return vec == 1 || (s->sx == 1 && s->w % vec == 0 && s->ow % vec == 0 && opt % vec == 0);
}

static int dw1_constrain(const ct_tc_shape *s, const ct_params *c, const ct_limits *lim, char *why, size_t len)
{
    const dw1_values q = dw1_get(c);
    dw1_geom g;
    dw1_geometry(s, &q, &g);
    if (g.block < 32 || g.block % 32 != 0 || g.block > lim->max_threads_per_block) {
        snprintf(why, len, "BLOCK_SIZE=%lld is not a multiple of 32 within the device's %d threads", g.block,
                 lim->max_threads_per_block);
        return 1;
    }
    if (g.cpb < 1 || g.block % g.cpb != 0 || g.opt < 1 || g.opt > 32 ||
        (g.vec != 1 && g.vec != 2 && g.vec != 4)) {
        snprintf(why, len, "CHANNELS_PER_BLOCK must divide BLOCK_SIZE, OUT_PER_THREAD in 1..32, VEC 1, 2 or 4");
        return 1;
    }
    if (!dw1_vec_ok(s, (long)g.vec, (long)g.opt)) {
        snprintf(why, len, "VEC=%lld needs stride 1 and L, LOUT and OUT_PER_THREAD multiples of it", g.vec);
        return 1;
    }
    if (g.opt * s->kw > DW_MAX_BODY) {
        snprintf(why, len, "OUT_PER_THREAD x K = %lld unrolled FMAs exceed %d", g.opt * s->kw, DW_MAX_BODY);
        return 1;
    }
    /* Whole warps without a row or an output: on a layer big enough to
     * have a choice, another shape of block does better. */
    const int idle = g.cpb > g.rows || g.tpr > ct_rup(ct_cdiv(s->ow, g.opt), 32);
    if (idle && (double)g.rows * (double)s->ow >= 65536.0) {
        snprintf(why, len, "CHANNELS_PER_BLOCK=%lld rows of %lld threads leave whole warps idle on %lld rows of "
                 "%lld outputs", g.cpb, g.tpr, g.rows, s->ow);
        return 1;
    }
    /* Taps, the window, the accumulators and about 16 for addresses. */
    if (ct_regs_exceed(lim, s->kw + g.window + g.opt + 16, g.block, 1, why, len))
        return 1;
    if (g.blocks > DW_MAX_GRID) {
        snprintf(why, len, "%lld blocks exceed the grid limit", g.blocks);
        return 1;
    }
    return 0;
}

static void dw1_normalize(const ct_tc_shape *s, ct_params *c)
{
    dw1_values q = dw1_get(c);
    if (q.OUT_PER_THREAD > s->ow)
        q.OUT_PER_THREAD = (long)s->ow;
    /* The widest load the layer allows, up to the one asked for. */
    while (q.VEC > 1 && !dw1_vec_ok(s, q.VEC, q.OUT_PER_THREAD))
        q.VEC /= 2;
    dw1_put(c, &q);
}

/* The 2D template's derived sizes: dw2_sizes.cuh's expressions, which
 * conv2dc_dw.cu's macros of the same names are. */
typedef struct dw2_geom {
    long long ox, oy, toh, tow, nty, ntx, nitems, nt, nwl, kwp, smem, blocks;
} dw2_geom;

static void dw2_geometry(const ct_tc_shape *s, const dw2_values *q, dw2_geom *g)
{
    memset(g, 0, sizeof *g);
    g->ox = q->OUT_X, g->oy = q->OUT_Y;
    if (g->ox < 1 || g->oy < 1)
        return;
    g->toh = DW2_TILE(s->oh, (long long)q->TILE_OH, g->oy);
    g->tow = DW2_TILE(s->ow, (long long)q->TILE_OW, g->ox);
    g->nty = DW2_CDIV(s->oh, g->toh);
    g->ntx = DW2_CDIV(s->ow, g->tow);
    g->nitems = DW2_ITEMS(g->toh, g->tow, g->oy, g->ox);
    g->nt = DW2_THREADS(g->nitems);
    g->nwl = DW2_RUP(DW2_NWX(g->ox, s->sx, s->kw, s->dx), DW2_LV(g->ox, s->sx));
    const long long sih = DW2_SIH(g->toh, s->sy, s->kh, s->dy);
    const long long pitch = DW2_PITCH(g->tow, g->ox, s->sx, g->nwl);
    g->kwp = DW2_KWP(s->kw);
    g->smem = 4 * (sih * pitch + s->kh * g->kwp);
    g->blocks = s->b * s->cin * g->nty * g->ntx;
}

static int dw2_constrain(const ct_tc_shape *s, const ct_params *c, const ct_limits *lim, char *why, size_t len)
{
    const dw2_values q = dw2_get(c);
    if (q.OUT_X < 1 || q.OUT_X > 16 || q.OUT_Y < 1 || q.OUT_Y > 16) {
        snprintf(why, len, "OUT_X and OUT_Y in 1..16");
        return 1;
    }
    dw2_geom g;
    dw2_geometry(s, &q, &g);
    if (g.nt > lim->max_threads_per_block) {
        snprintf(why, len, "a tile of %lld x %lld outputs needs %lld threads, over the device's %d", g.toh, g.tow,
                 g.nt, lim->max_threads_per_block);
        return 1;
    }
    if (g.smem > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of staged input and filter exceed the device's %d of shared memory", g.smem,
                 lim->max_smem_per_block);
        return 1;
    }
    /* Outputs past the plane (tiles rounded up to OUT_Y and OUT_X) and idle
     * lanes of the last warp: more than 15% of the FMAs thrown away loses to
     * another tile on planes big enough to have a choice. */
    const double useful = (double)s->oh * (double)s->ow;
    const double eff = useful / ((double)(g.nty * g.ntx * g.nt) * (double)(g.ox * g.oy));
    if (eff < 0.85 && useful >= 4096) {
        snprintf(why, len, "only %.0f%% of the FMAs computed are outputs (tile padding, idle lanes)", 100.0 * eff);
        return 1;
    }
    if (g.oy * g.ox * s->kw > DW_MAX_BODY) {
        snprintf(why, len, "OUT_Y x OUT_X x KW = %lld unrolled FMAs exceed %d", g.oy * g.ox * s->kw, DW_MAX_BODY);
        return 1;
    }
    /* Accumulators, one window, one filter row and about 20 for addresses. */
    if (ct_regs_exceed(lim, g.ox * g.oy + g.nwl + g.kwp + 20, g.nt, 1, why, len))
        return 1;
    if (g.blocks > DW_MAX_GRID) {
        snprintf(why, len, "%lld blocks exceed the grid limit", g.blocks);
        return 1;
    }
    return 0;
}

static void dw2_normalize(const ct_tc_shape *s, ct_params *c)
{
    dw2_values q = dw2_get(c);
    if (q.OUT_X < 1 || q.OUT_Y < 1)
        return;
    if (q.OUT_Y > s->oh)
        q.OUT_Y = (long)s->oh;
    if (q.OUT_X > s->ow)
        q.OUT_X = (long)s->ow;
    /* Store the effective tile, so that requests giving the same kernel
     * collapse, where the template's macros map it to itself. */
    dw2_geom g, again;
    dw2_geometry(s, &q, &g);
    dw2_values e = q;
    e.TILE_OH = g.toh >= s->oh ? 0 : (long)g.toh;
    e.TILE_OW = g.tow >= s->ow ? 0 : (long)g.tow;
    dw2_geometry(s, &e, &again);
    if (again.toh == g.toh && again.tow == g.tow)
        q = e;
    dw2_put(c, &q);
}

int ct_dw_layer_excluded(const ct_template *t, const ct_tc_shape *s, char *why, size_t len)
{
    if (s->groups == s->cin && s->cout == s->cin)
        return 0;
    snprintf(why, len, "%s convolves each channel with its own filter: groups = Cin = Cout (depthwise) only, "
             "not groups = %lld of Cin = %lld, Cout = %lld", t->name, s->groups < 1 ? 1 : s->groups, s->cin,
             s->cout);
    return 1;
}

static int dw1_hook_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c,
                              const ct_limits *lim, char *why, size_t len)
{
    if (ct_dw_layer_excluded(t, s, why, len))
        return 1;
    return dw1_constrain(s, c, lim, why, len);
}

static int dw2_hook_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c,
                              const ct_limits *lim, char *why, size_t len)
{
    if (ct_dw_layer_excluded(t, s, why, len))
        return 1;
    return dw2_constrain(s, c, lim, why, len);
}

static void dw1_hook_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    (void)t;
    dw1_normalize(s, c);
}

static void dw2_hook_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    (void)t;
    dw2_normalize(s, c);
}

static void dw1_hook_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    (void)t;
    memset(l, 0, sizeof *l);
    const dw1_values q = dw1_get(c);
    dw1_geom g;
    dw1_geometry(s, &q, &g);
    l->grid[0] = (unsigned)g.blocks;
    l->block[0] = (unsigned)g.block;
    l->grid[1] = l->grid[2] = 1;
    l->block[1] = l->block[2] = 1;
}

static void dw2_hook_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    (void)t;
    memset(l, 0, sizeof *l);
    const dw2_values q = dw2_get(c);
    dw2_geom g;
    dw2_geometry(s, &q, &g);
    l->grid[0] = (unsigned)g.blocks;
    l->block[0] = (unsigned)g.nt;
    l->smem_bytes = (unsigned)g.smem;
    l->grid[1] = l->grid[2] = 1;
    l->block[1] = l->block[2] = 1;
}

#define DW_KIND .layouts = CT_LAYOUT_DEFAULT_ONLY, .any_layer = 1
const ct_kernel_kind ct_kind_dw1 = {.name = "dw", DW_KIND, .constrain = dw1_hook_constrain,
                                    .normalize = dw1_hook_normalize, .launch = dw1_hook_launch};
const ct_kernel_kind ct_kind_dw2 = {.name = "dw", DW_KIND, .constrain = dw2_hook_constrain,
                                    .normalize = dw2_hook_normalize, .launch = dw2_hook_launch};
