/* gemm_conv.c - parameters, sizes, constraints and geometry of the
 * conv1dc gemm template (gemm_conv.h, gemm.conv1dc.cu.in beside it). */
#include "gemm_conv.h"
#include "gemm_sizes.cuh"
#include "tc_shape.h"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

#define GEMM_PARAMS(X)                                                                                        \
    X(COUT_TILE, 64, CT_INT(0), "output channels per block")                                                  \
    X(T_TILE, 64, CT_INT(0), "output positions per block (one batch item)")                                   \
    X(COUT_PER_THREAD, 4, CT_INT(0), "output channels per thread (divides COUT_TILE)")                        \
    X(T_PER_THREAD, 4, CT_INT(0), "consecutive output positions per thread (divides T_TILE)")                 \
    X(CIN_CHUNK, 8, CT_INT(0), "input channels staged in shared memory at a time")                            \
    X(PIPE, 0, CT_INT(0), "1: two shared buffers, the next chunk copied (cp.async) during this one")          \
    X(MIN_BLOCKS, 1, CT_INT(0), "minimum resident blocks per SM (__launch_bounds__)")
const ct_param_def ct_gemm_params[CT_GEMM_NPARAMS] = CT_PARAM_TABLE(GEMM_PARAMS);
_Static_assert(CT_PARAM_COUNT(GEMM_PARAMS) == CT_GEMM_NPARAMS, "the list's length");
CT_PARAM_VALUES(gemm, GEMM_PARAMS, ct_gemm_params)

/* The gemm template's derived sizes: gemm_sizes.cuh's expressions, which
 * the macros of gemm.conv1dc.cu.in are. */
typedef struct gemm_shape {
    long bm, bn, tm, tn, ck, pipe, minb;
    long long nt, tiles, lv, nl, smem;
} gemm_shape;

static void gemm_shape_of(const ct_tc_shape *s, const ct_params *c, gemm_shape *g)
{
    const long long k = s->kw;
    const gemm_values q = gemm_get(c);
    g->bm = q.COUT_TILE;
    g->bn = q.T_TILE;
    g->tm = q.COUT_PER_THREAD;
    g->tn = q.T_PER_THREAD;
    g->ck = (long)GEMM_CK((long long)q.CIN_CHUNK, s->cin);
    g->pipe = q.PIPE;
    g->minb = q.MIN_BLOCKS;
    g->nt = g->tm > 0 && g->tn > 0 ? GEMM_NT((long long)g->bm, g->tm, GEMM_TX(g->bn, g->tn)) : 0;
    g->tiles = g->bm > 0 && g->bn > 0 ? GEMM_TILES_T(s->ow, g->bn) * GEMM_TILES_C(s->cout, g->bm) * s->b : 0;
    g->lv = GEMM_LV(g->tn);
    g->nl = GEMM_NL(GEMM_NWIN(g->tn, k), g->lv);
    const long long xp = GEMM_XP(g->bn, g->tn, g->nl);
    g->smem = 4LL * GEMM_NBUF(g->pipe) * (GEMM_S_W(g->ck, k, g->bm) + GEMM_S_X(g->ck, xp));
}

static int gemm_constrain(const ct_tc_shape *s, const ct_params *c, const ct_limits *lim, char *why, size_t len)
{
    gemm_shape g;
    gemm_shape_of(s, c, &g);
    if (g.bm < 1 || g.bn < 1 || g.tm < 1 || g.tn < 1 || g.tm > 16 || g.tn > 16 || g.bm % g.tm != 0 ||
        g.bn % g.tn != 0 || g.ck < 1 || g.pipe < 0 || g.pipe > 1 || g.minb < 1) {
        snprintf(why, len, "COUT_PER_THREAD and T_PER_THREAD in 1..16 dividing COUT_TILE and T_TILE, "
                 "CIN_CHUNK >= 1, PIPE 0 or 1, MIN_BLOCKS >= 1");
        return 1;
    }
    if (g.nt < 32 || g.nt % 32 != 0 || g.nt > lim->max_threads_per_block) {
        snprintf(why, len, "(COUT_TILE/COUT_PER_THREAD) x (T_TILE/T_PER_THREAD) = %lld threads is not a "
                 "multiple of 32 within the device's %d", g.nt, lim->max_threads_per_block);
        return 1;
    }
    /* Tiles past Cout or Lout compute outputs nobody stores: on a layer big
     * enough to have a choice, more than 15% of them is never the fastest. */
    const long long lout = s->ow, cout = s->cout;
    const double eff = (double)lout / (double)(GEMM_TILES_T(lout, g.bn) * g.bn) * (double)cout /
                       (double)(GEMM_TILES_C(cout, g.bm) * g.bm);
    if (eff < 0.85 && (double)(s->b * s->cout * s->ow) >= 65536.0) {
        snprintf(why, len, "only %.0f%% of the tiles' outputs exist (Lout %lld, Cout %lld)", 100.0 * eff, lout,
                 cout);
        return 1;
    }
    if (g.smem > 48 * 1024 || g.smem > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of shared memory exceed 48 KiB", g.smem);
        return 1;
    }
    const long long k = s->kw;
    const long long body = g.ck * k * g.tm * g.tn;
    if (body > 8192) {
        snprintf(why, len, "CIN_CHUNK x K x COUT_PER_THREAD x T_PER_THREAD = %lld unrolled FMAs", body);
        return 1;
    }
    /* Accumulators, the window, one tap's weights and about 24 for
     * addresses. */
    const long long regs = (long long)g.tm * g.tn + g.nl + g.tm + 24;
    if (ct_regs_exceed(lim, regs, g.nt, g.minb, why, len))
        return 1;
    if (g.tiles > 2147483647LL) {
        snprintf(why, len, "%lld blocks exceed the grid limit", g.tiles);
        return 1;
    }
    return 0;
}


static int gemm_kind_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c,
                               const ct_limits *lim, char *why, size_t len)
{
    (void)t;
    return gemm_constrain(s, c, lim, why, len);
}

static void gemm_kind_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    (void)t;
    const long long cin = s->cin;
    gemm_values q = gemm_get(c);
    /* A chunk of every channel is one stage: no second buffer. */
    if (q.CIN_CHUNK >= cin) {
        q.CIN_CHUNK = (long)cin;
        q.PIPE = 0;
    }
    gemm_put(c, &q);
}

static void gemm_kind_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    (void)t;
    memset(l, 0, sizeof *l);
    gemm_shape g;
    gemm_shape_of(s, c, &g);
    l->grid[0] = (unsigned)g.tiles;
    l->grid[1] = l->grid[2] = 1;
    l->block[0] = (unsigned)g.nt;
    l->block[1] = l->block[2] = 1;
}

const ct_kernel_kind ct_kind_gemm = {.name = "gemm", .layouts = CT_LAYOUT_DEFAULT_ONLY,
                                     .constrain = gemm_kind_constrain, .normalize = gemm_kind_normalize,
                                     .launch = gemm_kind_launch};
