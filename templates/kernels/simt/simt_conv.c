/* simt_conv.c - parameters, sizes, constraints and geometry of the SIMT
 * templates (ct_conv_simt.cuh via conv1dc_simt and
 * conv2dc_simt); the derived sizes are simt_sizes.cuh's, which
 * ct_conv_simt.cuh expands too. */
#include "simt_conv.h"
#include "intmath.h"
#include "simt_sizes.cuh"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

/* Each parameter once, in list order; the 1D template lacks the rows. */
#define SIMT_X(X) X(OUT_X, 4, CT_RANGE(1, 16), "consecutive outputs of a row per thread (one register window)")
#define SIMT_Y(X) X(OUT_Y, 1, CT_RANGE(1, 16), "consecutive output rows per thread")
#define SIMT_C(X)                                                                                          \
    X(COUT_PER_THREAD, 4, CT_RANGE(1, 32), "output channels of a group per thread (balanced over the group)") \
    X(COUT_SLICES, 1, CT_RANGE(1, 1024), "slices of COUT_PER_THREAD channels per block; more than a group " \
                                          "has takes whole groups")
#define SIMT_TH(X) X(TILE_OH, 0, CT_INT(0), "output rows per block tile (0: the whole plane)")
#define SIMT_REST(X)                                                                                       \
    X(TILE_OW, 0, CT_INT(0), "output columns per block tile (0: the whole row)")                           \
    X(CIN_CHUNK, 0, CT_INT(0), "input channels of a group staged at a time (0: all)")                      \
    X(PIPE, 0, CT_RANGE(0, 1), "1: two shared buffers, the next chunk copied (cp.async) during this one")
#define SIMT_ALL(X) SIMT_X(X) SIMT_Y(X) SIMT_C(X) SIMT_TH(X) SIMT_REST(X)

const ct_param_def ct_simt_params_2d[CT_SIMT_NPARAMS_2D] = CT_PARAM_TABLE(SIMT_ALL);
const ct_param_def ct_simt_params_1d[CT_SIMT_NPARAMS_1D] = {SIMT_X(CT_PARAM_DEF) SIMT_C(CT_PARAM_DEF)
                                                                SIMT_REST(CT_PARAM_DEF)};
_Static_assert(CT_PARAM_COUNT(SIMT_ALL) == CT_SIMT_NPARAMS_2D, "CT_SIMT_NPARAMS_2D is the 2D list's length");
CT_PARAM_UNION(simt, SIMT_ALL)

/* A bound on the FMAs of one unrolled filter row (KW x CPT x OUT_Y x
 * OUT_X); the template unrolls further only up to the same count, so no
 * body exceeds it and NVRTC stays under about a second. */
#define SIMT_MAX_ROW 1024
#define SIMT_MAX_GRID 2147483647LL

/* A candidate of t: the 1D template has OUT_Y = 1 and one row per tile. */
static simt_values simt_get(const ct_template *t, const ct_params *c)
{
    simt_values q;
    ct_params_read_part(c, t->params, t->nparams, ct_simt_params_2d, CT_SIMT_NPARAMS_2D, CT_PARAM_DFLT, q.v);
    return q;
}

static void simt_put(const ct_template *t, ct_params *c, const simt_values *q)
{
    ct_params_write_part(c, t->params, t->nparams, ct_simt_params_2d, CT_SIMT_NPARAMS_2D, q->v);
}

/* The template's derived sizes: simt_sizes.cuh's expressions, which the
 * SM_* macros of ct_conv_simt.cuh are. */
typedef struct simt_geom {
    long long ox, oy, cing, coutg, ncg, cpt, nsl, gpb, ncb, toh, tow, nty, ntx, xg, pix, nt, minb, cc, nch, nbuf;
    long long step, nwx, lv, nwl, sih, pitch, chp, s_in, wp, s_w, stage, smem, blocks, wv;
} simt_geom;

/* Whether s is channels last (NHWC, NLC): the problem's layout field. */
static int simt_cl(const ct_tc_shape *s)
{
    return s->p && ct_problem_value(s->p, "layout") != 0;
}

static void simt_geometry(const ct_tc_shape *s, const simt_values *q, simt_geom *g)
{
    memset(g, 0, sizeof *g);
    g->ox = q->OUT_X, g->oy = q->OUT_Y;
    if (g->ox < 1 || g->oy < 1 || q->COUT_PER_THREAD < 1 || q->COUT_SLICES < 1)
        return;
    g->cing = s->cin / ct_tc_ngroups(s), g->coutg = s->cout / ct_tc_ngroups(s);
    g->ncg = SIMT_NCG(g->coutg, SIMT_CPT_REQ((long long)q->COUT_PER_THREAD, g->coutg));
    g->cpt = SIMT_CPT(g->coutg, g->ncg);
    g->nsl = q->COUT_SLICES;
    g->gpb = SIMT_GPB(g->nsl, g->ncg);
    g->ncb = SIMT_NCB(ct_tc_ngroups(s), g->ncg, g->nsl);
    g->toh = SIMT_TILE(s->oh, (long long)q->TILE_OH, g->oy);
    g->tow = SIMT_TILE(s->ow, (long long)q->TILE_OW, g->ox);
    g->nty = SIMT_CDIV(s->oh, g->toh), g->ntx = SIMT_CDIV(s->ow, g->tow);
    g->xg = SIMT_XG(g->tow, g->ox);
    g->pix = SIMT_PIX(g->toh, g->oy, g->xg);
    g->nt = SIMT_NT(g->pix, g->nsl);
    g->minb = SIMT_MINB(g->nt);
    g->cc = SIMT_REQ(g->cing, (long long)q->CIN_CHUNK);
    g->nch = SIMT_NCH(g->cing, g->cc);
    g->nbuf = SIMT_NBUF(q->PIPE);
    g->step = SIMT_STEP(g->ox, s->sx);
    g->nwx = SIMT_NWX(g->ox, s->sx, s->kw, s->dx);
    g->lv = SIMT_LV(g->step);
    g->nwl = SIMT_NWL(g->nwx, g->lv);
    g->sih = SIMT_SIH(g->toh, s->sy, s->kh, s->dy);
    g->pitch = SIMT_PITCH(g->xg, g->step, g->nwl);
    g->chp = SIMT_CHP(simt_cl(s), g->sih, g->pitch);
    g->s_in = SIMT_S_IN(g->gpb, g->cc, g->chp);
    g->wp = SIMT_WP(g->nsl, g->cpt);
    g->s_w = SIMT_S_W(g->cc, s->kh * s->kw, g->wp);
    g->stage = SIMT_STAGE(g->s_in, g->s_w);
    g->smem = SIMT_SMEM(g->nbuf, g->stage);
    g->blocks = SIMT_BLOCKS(s->b, g->nty, g->ntx, g->ncb);
    g->wv = SIMT_WV(g->cpt);
}

/* FMA clocks per shared-memory wavefront of OUT_Y x OUT_X outputs x CPT
 * channels per thread (see ct_simt_constrain). */
static double simt_ratio(const ct_tc_shape *s, long long ox, long long oy, long long cpt)
{
    const long long step = SIMT_STEP(ox, s->sx), lv = SIMT_LV(step);
    const long long nwl = SIMT_NWL(SIMT_NWX(ox, s->sx, s->kw, s->dx), lv);
    const long long wv = SIMT_WV(cpt);
    return (double)(oy * ox * s->kw * cpt) / 4.0 / (double)(oy * nwl + s->kw * ct_cdiv(cpt, wv));
}

/* Stride 1, dilation 1 and one group are the tiled and GEMM templates'
 * (constant-bank weights, row reuse, no per-group indexing) from sm_80,
 * where the 3xTF32 tensor-core kernels take them; before sm_80 (a T4,
 * sm_75) they have no fp32 tensor cores and the tiled kernel only suits
 * few channels, so this FFMA GEMM takes dense layers too. Depthwise
 * layers have their own templates. */
static int simt_layer_excluded(const ct_template *t, const ct_tc_shape *s, const ct_limits *lim, char *why,
                               size_t len)
{
    const long long gr = ct_tc_ngroups(s);
    if (gr == s->cin && s->cout == s->cin) {
        snprintf(why, len, "%s: a depthwise layer (groups = Cin = Cout = %lld) has its own templates", t->name,
                 s->cin);
        return 1;
    }
    if (simt_cl(s) && lim->cc_major >= 8) {
        snprintf(why, len, "%s reads channels last below sm_80 only: from sm_80 the 3xTF32 tensor-core templates "
                 "take those layers", t->name);
        return 1;
    }
    if (gr == 1 && s->sx == 1 && s->sy == 1 && s->dx == 1 && s->dy == 1 && lim->cc_major >= 8) {
        snprintf(why, len, "%s is for strided, dilated or grouped layers from sm_80: the tiled and tensor-core "
                 "templates take stride 1, dilation 1 and one group", t->name);
        return 1;
    }
    return 0;
}

static int simt_ranges(const simt_values *q, char *why, size_t len)
{
    if (q->OUT_X < 1 || q->OUT_X > 16 || q->OUT_Y < 1 || q->OUT_Y > 16 || q->COUT_PER_THREAD < 1 ||
        q->COUT_PER_THREAD > 32 || q->COUT_SLICES < 1 || q->COUT_SLICES > 1024 || q->TILE_OH < 0 ||
        q->TILE_OW < 0 || q->CIN_CHUNK < 0 || q->PIPE < 0 || q->PIPE > 1) {
        snprintf(why, len, "OUT_X and OUT_Y in 1..16, COUT_PER_THREAD in 1..32, COUT_SLICES in 1..1024, PIPE 0 "
                 "or 1, tiles and CIN_CHUNK >= 0");
        return 1;
    }
    return 0;
}

int ct_simt_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                      char *why, size_t len)
{
    if (simt_layer_excluded(t, s, lim, why, len))
        return 1;
    const simt_values q = simt_get(t, c);
    if (simt_ranges(&q, why, len))
        return 1;
    simt_geom g;
    simt_geometry(s, &q, &g);
    /* A block holds whole groups or a whole share of one group's slices. */
    if (g.nsl % g.ncg != 0 && g.ncg % g.nsl != 0) {
        snprintf(why, len, "COUT_SLICES=%lld neither divides nor is a multiple of a group's %lld slices of %lld "
                 "channels", g.nsl, g.ncg, g.cpt);
        return 1;
    }
    /* A block's copy and compute do not overlap, so the launch bounds ask
     * for two blocks and 16 warps per SM at least; under two warps a block
     * has too few copies in flight (on layers of 2^18 outputs or more, which
     * have larger blocks to choose). */
    const double useful = (double)s->b * (double)s->cout * (double)s->oh * (double)s->ow;
    if (g.nt > 512 || g.nt > lim->max_threads_per_block || (g.nt < 64 && useful >= 262144.0)) {
        snprintf(why, len, "%lld threads per block: outside 64 .. 512 (two resident blocks per SM, enough copies in flight)", g.nt);
        return 1;
    }
    /* FMAs spent on tile padding, channels past a group, groups past the
     * layer and idle lanes: more than 20% thrown away loses to another
     * shape of block on planes big enough to have one (4096 outputs; odd
     * planes lose some to each of the first three). */
    const double eff = useful / ((double)g.blocks * (double)g.nt * (double)(g.cpt * g.oy * g.ox));
    if (eff < 0.8 && (double)s->oh * (double)s->ow >= 4096) {
        snprintf(why, len, "only %.0f%% of the FMAs computed are outputs (tile padding, channel slices, idle "
                 "lanes)", 100.0 * eff);
        return 1;
    }
    /* Per channel and filter row a warp spends OUT_Y x NWL shared-memory
     * wavefronts on windows and KW x CPT / WV on (broadcast) weights, and
     * OUT_Y x OUT_X x KW x CPT / 4 clocks of an SM's FMA pipes. A candidate
     * bound by shared memory loses to one that is not, where the layer
     * allows one: the bar is half the ratio of 8 outputs (4 x 2 in 2D) x 8
     * channels per thread, which fits the registers, capped at 1. */
    const double bar = simt_ratio(s, s->oh > 1 ? 4 : 8, s->oh > 1 ? 2 : 1, g.coutg < 8 ? g.coutg : 8) / 2;
    const double ratio = simt_ratio(s, g.ox, g.oy, g.cpt);
    if (ratio < (bar < 1 ? bar : 1)) {
        snprintf(why, len, "shared-memory bound: %.2f FMA clocks per wavefront of loads, under %.2f", ratio,
                 bar < 1 ? bar : 1);
        return 1;
    }
    /* Each staged input value feeds the block's channels of its group; under
     * 32 of them (where the group has more) its copy and the L2 traffic of
     * reading it again for the next channel block rival the FMAs. */
    const long long per_group = g.nsl * g.cpt < g.coutg ? g.nsl * g.cpt : g.coutg;
    if (per_group < (g.coutg < 32 ? g.coutg : 32)) {
        snprintf(why, len, "a block computes %lld of a group's %lld output channels from each staged input, under "
                 "32", per_group, g.coutg);
        return 1;
    }
    if (s->kw * g.cpt * g.oy * g.ox > SIMT_MAX_ROW) {
        snprintf(why, len, "KW x COUT_PER_THREAD x OUT_Y x OUT_X = %lld unrolled FMAs exceed %d",
                 s->kw * g.cpt * g.oy * g.ox, SIMT_MAX_ROW);
        return 1;
    }
    /* Two blocks per SM at least, for the copy of one to overlap the other's
     * FMAs (1 KiB each is reserved by the system); where an SM has under
     * 96 KiB (sm_75: 64) a haloed tile of a large or dilated filter may need
     * it all. */
    const int two = lim->max_smem_per_sm >= 96 * 1024;
    if (g.smem > lim->max_smem_per_block || (two && 2 * (g.smem + 1024) > lim->max_smem_per_sm)) {
        snprintf(why, len, "%lld bytes of shared memory per block: two blocks do not fit the device's %d per SM "
                 "(%d per block)", g.smem, lim->max_smem_per_sm, lim->max_smem_per_block);
        return 1;
    }
    /* A chunk under 4 channels costs two barriers per channel: only for
     * haloed tiles so large that 4 channels do not fit. */
    if (g.cc < 4 && g.cc < g.cing) {
        simt_values four = q;
        four.CIN_CHUNK = 4;
        simt_geom g4;
        simt_geometry(s, &four, &g4);
        if (g4.smem <= lim->max_smem_per_block && (!two || 2 * (g4.smem + 1024) <= lim->max_smem_per_sm)) {
            snprintf(why, len, "CIN_CHUNK=%lld: chunks of 4 channels fit in shared memory", g.cc);
            return 1;
        }
    }
    /* Accumulators, the windows, one tap's weights and about 20 for
     * addresses. */
    if (ct_regs_exceed(lim, g.cpt * g.oy * g.ox + g.oy * g.nwl + g.cpt + 20, g.nt, g.minb, why, len))
        return 1;
    if (g.blocks > SIMT_MAX_GRID) {
        snprintf(why, len, "%lld blocks exceed the grid limit", g.blocks);
        return 1;
    }
    return 0;
}

void ct_simt_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    simt_values q = simt_get(t, c);
    char why[160];
    if (simt_ranges(&q, why, sizeof why))
        return;
    if (q.OUT_Y > s->oh)
        q.OUT_Y = (long)s->oh;
    if (q.OUT_X > s->ow)
        q.OUT_X = (long)s->ow;
    simt_geom g;
    simt_geometry(s, &q, &g);
    /* Store the effective sizes, so that requests giving the same kernel
     * collapse; the template's macros map each of them to itself. */
    q.COUT_PER_THREAD = (long)g.cpt;
    /* The nearest count at or below the one asked for that the block can
     * hold: whole groups (at most all of them), or a divisor of a group's
     * slices. */
    long nsl = q.COUT_SLICES < ct_tc_ngroups(s) * g.ncg ? q.COUT_SLICES : (long)(ct_tc_ngroups(s) * g.ncg);
    if (nsl >= g.ncg)
        nsl -= nsl % (long)g.ncg;
    else
        while (g.ncg % nsl != 0)
            nsl--;
    q.COUT_SLICES = nsl;
    q.CIN_CHUNK = g.nch == 1 ? 0 : (long)ct_cdiv(g.cing, g.nch);
    if (g.nch == 1)
        q.PIPE = 0;
    simt_values e = q;
    e.TILE_OH = g.toh >= s->oh ? 0 : (long)g.toh;
    e.TILE_OW = g.tow >= s->ow ? 0 : (long)g.tow;
    simt_geom again;
    simt_geometry(s, &e, &again);
    if (again.toh == g.toh && again.tow == g.tow)
        q = e;
    simt_put(t, c, &q);
}

void ct_simt_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    const simt_values q = simt_get(t, c);
    simt_geom g;
    simt_geometry(s, &q, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.blocks;
    l->block[0] = (unsigned)g.nt;
    l->smem_bytes = (unsigned)g.smem;
    l->grid[1] = l->grid[2] = 1;
    l->block[1] = l->block[2] = 1;
}

const ct_kernel_kind ct_kind_simt = {.name = "simt", .layouts = CT_LAYOUT_BOTH, .any_layer = 1,
                                     .constrain = ct_simt_constrain, .normalize = ct_simt_normalize,
                                     .launch = ct_simt_launch};

/* The bf16 entry: before sm_80 only (from sm_80 the tensor-core kernels
 * compute bf16 layers), then as the fp32 one. */
static int simth_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                           char *why, size_t len)
{
    if (lim->cc_major >= 8) {
        snprintf(why, len, "%s is for sm_75 (no bf16 mma): from sm_80 the tensor-core templates take bf16 "
                 "layers", t->name);
        return 1;
    }
    return ct_simt_constrain(t, s, c, lim, why, len);
}

const ct_kernel_kind ct_kind_simth = {.name = "simth", .layouts = CT_LAYOUT_BOTH, .any_layer = 1,
                                      .constrain = simth_constrain, .normalize = ct_simt_normalize,
                                      .launch = ct_simt_launch};
