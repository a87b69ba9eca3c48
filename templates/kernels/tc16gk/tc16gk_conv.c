/* tc16gk_conv.c - parameters, sizes, constraints and launch geometry of
 * the kernel kind tc16gkcl (ct_conv_tc16gk.cuh, beside it; for a tf32
 * problem ct_conv_tf32gk.cuh, 4-byte elements). The sizes of any element
 * size are tc16g_sizes.cuh's, the element-size ones tc16gk_sizes.cuh's,
 * which both headers expand too. */
#include "tc16gk_conv.h"
#include "intmath.h"
#include "tc16g_sizes.cuh"
#include "tc16gk_sizes.cuh"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

#define T16GK_LIST(X)                                                                                         \
    X(WG_M, 1, CT_INT(0), "warpgroups along the output channels, 64 each")                                  \
    X(WG_N, 1, CT_INT(0), "warpgroups along the tile's rows (dividing TILE_OH)")                            \
    X(TILE_OH, 7, CT_INT(0), "output rows of a block's image tile")                                          \
    X(TILE_OW, 28, CT_INT(0), "output columns of the tile (a wgmma covers a warpgroup's rows: N <= 256)")   \
    X(CIN_CHUNK, 16, CT_INT(0), "input channels a chunk (a multiple of 16; tf32: of 8): its weights and "   \
                                "input planes are one stage")                                               \
    X(STAGES, 4, CT_INT(0), "chunk stages, 3 to 6: copies run STAGES - 2 chunks ahead")                      \
    X(MIN_BLOCKS, 1, CT_INT(0), "minimum resident blocks per SM (__launch_bounds__)")
const ct_param_def ct_tc16gk_params[CT_TC16GK_NPARAMS] = CT_PARAM_TABLE(T16GK_LIST);
_Static_assert(CT_PARAM_COUNT(T16GK_LIST) == CT_TC16GK_NPARAMS, "CT_TC16GK_NPARAMS is the list's length");
CT_PARAM_VALUES(t16gk, T16GK_LIST, ct_tc16gk_params)

/* The largest wgmma N the wrappers (ct_wgmma.cuh) are written for; the
 * most unrolled wgmma steps of a chunk. */
#define T16GK_MAX_N 256
#define T16GK_MAX_STEPS 64

/* A tf32 problem (fp32 elements, TF32 wgmma: ct_conv_tf32gk.cuh), else a
 * half one. */
static int is_tf32(const ct_tc_shape *s)
{
    return s->p && ct_problem_dtype(s->p) == CT_DTYPE_TF32;
}

void ct_tc16gk_geometry_of(const ct_tc_shape *layer, const ct_params *c, ct_tc16gk_geom *g)
{
    const ct_tc_shape one = ct_tc_per_group(layer), *s = &one;
    const t16gk_values q = t16gk_get(c);
    memset(g, 0, sizeof *g);
    g->wg_m = q.WG_M, g->wg_n = q.WG_N, g->toh = q.TILE_OH, g->tow = q.TILE_OW, g->ck = q.CIN_CHUNK;
    g->stages = q.STAGES, g->minb = q.MIN_BLOCKS;
    if (g->wg_m < 1 || g->wg_n < 1 || g->toh < 1 || g->tow < 1 || g->ck < 1 || g->stages < 1)
        return;
    /* tf32: 4-byte elements, 4 to a core matrix's row, k8 steps; half
     * types: 2 bytes, 8, k16. */
    g->elem = is_tf32(layer) ? 4 : 2;
    g->kstep = TC16GK_KSTEP(g->elem);
    g->bm = TC16G_BM(g->wg_m);
    g->nt = TC16G_NT(g->wg_m, g->wg_n);
    g->rpw = TC16G_RPW(0, g->toh, g->wg_n);
    g->ih = TC16G_IH(g->toh, s->sy, s->kh, s->dy);
    g->iw = TC16G_IW(g->tow, s->kw, s->dx);
    /* Stride 1 down: one wgmma over a warpgroup's rows (FLAT); else one
     * per row. */
    g->nw = s->sy == 1 ? 1 : g->rpw;
    g->wgn = s->sy == 1 ? TC16G_WN_FLAT(g->rpw, g->iw, g->tow) : TC16G_WN_ROW(g->tow);
    g->nch = TC16GK_NCH(s->cin, g->ck);
    g->khw = TC16G_KHW(s->kh, s->kw);
    g->ppx = TC16G_PPX(g->ih * g->iw);
    /* The planes, A and the output pitch: the half types' from the core
     * they share with tc16g (ct_conv_tc16g_core.cuh's TC16G_*), tf32's
     * its own. */
    const long long pb = TC16G_PB(g->ppx);
    const int half = g->elem == 2;
    g->sb = half ? TC16G_SB(g->ck, pb) : TC16GK_SB(g->ck, g->elem, pb);
    g->sa = half ? TC16G_SA(g->bm, g->khw, g->ck) : TC16GK_SA(g->bm, g->khw, g->ck, g->elem);
    const long long op = half ? TC16G_OP(g->bm) : TC16GK_OP(g->bm, g->elem);
    g->rkp = TC16GK_RKP(g->ck, g->khw, g->elem);
    g->sr = TC16GK_SR(g->bm, g->rkp, g->elem);
    g->st = TC16GK_ST(g->sr, g->sb);
    g->so = TC16GK_SO(g->toh, g->tow, op, g->elem);
    /* Two A buffers and the stages; the staged outputs overlay them. */
    g->smem_bytes = TC16GK_SMEM(g->sa, g->stages, g->st, g->so);
    g->ntiles = s->b * ct_cdiv(s->oh, g->toh) * ct_cdiv(s->ow, g->tow);
    g->grid_x = g->ntiles;
    g->grid_y = ct_cdiv(s->cout, g->bm) * ct_tc_ngroups(layer);
    /* The accumulators (N / 2 a chain), as many again packed for the
     * epilogue, about 40 more (ptxas: 225 at N = 208, 3x3, chunks of 16). */
    g->regs = g->nw * g->wgn + 40;
}

static int shape_refused(const ct_tc_shape *s, const ct_tc16gk_geom *g, char *why, size_t len)
{
    if (s->sx != 1) {
        snprintf(why, len, "a wgmma operand is a run of consecutive input pixels: stride 1 along the width "
                 "only (here %lld)", s->sx);
        return 1;
    }
    if (s->cin % (16 / g->elem) != 0) {
        snprintf(why, len, "16-byte copies of a pixel's channels need Cin/groups = %lld to be a multiple of %lld",
                 s->cin, 16 / g->elem);
        return 1;
    }
    if (g->khw > CT_TC16GK_MAX_TAPS) {
        snprintf(why, len, "%lld taps: a transpose item holds 8 channels of all taps in registers (at most %d)",
                 g->khw, CT_TC16GK_MAX_TAPS);
        return 1;
    }
    return 0;
}

/* The share of the tensor-core work that is useful: the tile's fit, the
 * output channel tiles, the last chunk's padding (as tc16r_conv.c). */
static double useful(const ct_tc_shape *s, const ct_tc16gk_geom *g)
{
    const double pix = (double)(s->oh * s->ow) /
                       ((double)(ct_cdiv(s->oh, g->toh) * ct_cdiv(s->ow, g->tow)) * (double)(g->nw * g->wgn) *
                        (double)g->wg_n);
    const double chan = (double)s->cout / (double)ct_rup(s->cout, g->bm);
    const double red = (double)s->cin / (double)(g->nch * g->ck);
    return pix * chan * red;
}

int ct_tc16gk_constrain(const ct_template *t, const ct_tc_shape *layer, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len)
{
    (void)t;
    if (lim->cc_major != 9 || lim->cc_minor != 0) {
        snprintf(why, len, "wgmma is an sm_90a instruction: compute capability 9.0 only (here %d.%d)",
                 lim->cc_major, lim->cc_minor);
        return 1;
    }
    const ct_tc_shape one = ct_tc_per_group(layer), *s = &one;
    if (ct_tc_depthwise_refused(s, why, len))
        return 1;
    ct_tc16gk_geom g;
    ct_tc16gk_geometry_of(layer, c, &g);
    /* A chunk is whole wgmma k-steps: 16 channels (half types), 8 (tf32,
     * whose chunks take twice the bytes: 8 leaves room for more stages). */
    if (g.wg_m < 1 || g.wg_n < 1 || g.toh < 1 || g.tow < 1 || g.minb < 1 || g.ck < g.kstep || g.ck % g.kstep != 0 ||
        g.stages < 3 || g.stages > 6) {
        snprintf(why, len, "WG_M, WG_N, tiles and MIN_BLOCKS >= 1, CIN_CHUNK a multiple of %lld, STAGES 3 to 6",
                 g.kstep);
        return 1;
    }
    if (shape_refused(s, &g, why, len))
        return 1;
    if (g.toh % g.wg_n != 0) {
        snprintf(why, len, "WG_N=%lld does not divide TILE_OH=%lld", g.wg_n, g.toh);
        return 1;
    }
    if (g.toh > s->oh || g.tow > s->ow) {
        snprintf(why, len, "a %lldx%lld tile exceeds the %lldx%lld output", g.toh, g.tow, s->oh, s->ow);
        return 1;
    }
    if (g.wgn > T16GK_MAX_N) {
        snprintf(why, len, "a wgmma N of %lld (TILE_OW %lld, %lld rows a warpgroup) exceeds %d", g.wgn, g.tow,
                 g.rpw, T16GK_MAX_N);
        return 1;
    }
    if (g.wg_m * g.wg_n > 4 || g.nt > lim->max_threads_per_block) {
        snprintf(why, len, "%lld warpgroups: 4 at most, within the device's %d threads", g.wg_m * g.wg_n,
                 lim->max_threads_per_block);
        return 1;
    }
    if (g.wg_m > 1 && g.bm >= 2 * ct_rup(s->cout, 64)) {
        snprintf(why, len, "WG_M=%lld covers twice the %lld output channels", g.wg_m, s->cout);
        return 1;
    }
    if (g.ck > ct_rup(s->cin, g.kstep)) {
        snprintf(why, len, "CIN_CHUNK=%lld exceeds the %lld input channels rounded up to %lld", g.ck, s->cin,
                 g.kstep);
        return 1;
    }
    if (g.khw * g.ck / g.kstep * g.nw > T16GK_MAX_STEPS) {
        snprintf(why, len, "%lld unrolled wgmma steps a chunk exceed %d", g.khw * g.ck / g.kstep * g.nw,
                 T16GK_MAX_STEPS);
        return 1;
    }
    const double eff = useful(s, &g);
    if (eff < 0.6 && (double)s->b * (double)s->oh * (double)s->ow >= 4096.0 && s->cout >= 32) {
        snprintf(why, len, "only %.0f%% of the tensor-core work is useful", 100 * eff);
        return 1;
    }
    if (g.smem_bytes > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of shared memory (%lld stages of %lld channels) exceed the device's %d",
                 g.smem_bytes, g.stages, g.ck, lim->max_smem_per_block);
        return 1;
    }
    if (g.grid_x > 2147483647LL || g.grid_y > 65535) {
        snprintf(why, len, "the grid exceeds the device's limits");
        return 1;
    }
    return ct_regs_exceed(lim, g.regs, g.nt, g.minb, why, len);
}

void ct_tc16gk_normalize(const ct_template *t, const ct_tc_shape *layer, ct_params *c)
{
    (void)t;
    const ct_tc_shape one = ct_tc_per_group(layer), *s = &one;
    t16gk_values q = t16gk_get(c);
    if (q.TILE_OW > s->ow)
        q.TILE_OW = (long)s->ow;
    if (q.TILE_OH > s->oh)
        q.TILE_OH = (long)s->oh;
    /* Stages past the chunks stay empty: the most that are used. */
    if (q.CIN_CHUNK >= 8) {
        const long most = (long)ct_cdiv(s->cin, q.CIN_CHUNK) + 2;
        if (q.STAGES > most && most >= 3)
            q.STAGES = most;
    }
    t16gk_put(c, &q);
}

void ct_tc16gk_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    (void)t;
    ct_tc16gk_geom g;
    ct_tc16gk_geometry_of(s, c, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.grid_x;
    l->grid[1] = (unsigned)g.grid_y;
    l->grid[2] = 1;
    l->block[0] = (unsigned)g.nt;
    l->block[1] = l->block[2] = 1;
    l->smem_bytes = (unsigned)g.smem_bytes;
}

const ct_kernel_kind ct_kind_tc16gkcl = {.name = "tc16gkcl", .layouts = CT_LAYOUT_CL_ONLY, .any_layer = 1, .wgmma = 1,
                                         .constrain = ct_tc16gk_constrain, .normalize = ct_tc16gk_normalize,
                                         .launch = ct_tc16gk_launch};
