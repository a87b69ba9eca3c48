/* ffma_conv.c - parameters, sizes, constraints and launch geometry of the
 * kind ffma (ffma_conv.h); the derived sizes are ffma_sizes.cuh's, which
 * ct_conv_ffma.cuh expands too. */
#include "ffma_conv.h"
#include "ffma_sizes.cuh"
#include "tc_shape.h"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

/* Each parameter once, in list order. */
#define FF_ALL(X)                                                                                           \
    X(TILE_M, 64, CT_RANGE(4, 256), "output channels of a group per block tile (a power of two)")          \
    X(TILE_N, 128, CT_RANGE(4, 512), "output pixels (image, row, column) per block tile (a power of two)")  \
    X(THREAD_M, 8, CT_RANGE(4, 8), "output channels per thread, in runs of 4 (4 or 8)")                    \
    X(THREAD_N, 8, CT_RANGE(4, 8), "output pixels per thread, in runs of 4 (4 or 8)")                      \
    X(CHUNK_K, 8, CT_RANGE(1, 64), "reduction terms (input channel x tap) staged at a time, two stages "   \
                                   "(a power of two)")

const ct_param_def ct_ffma_params[CT_FFMA_NPARAMS] = CT_PARAM_TABLE(FF_ALL);
_Static_assert(CT_PARAM_COUNT(FF_ALL) == CT_FFMA_NPARAMS, "CT_FFMA_NPARAMS is the list's length");
CT_PARAM_UNION(ff, FF_ALL)

/* Unrolled FMAs of one chunk (instruction cache, NVRTC time). */
#define FF_MAX_BODY 1024
#define FF_STATIC_SMEM (48 * 1024)
#define FF_MAX_INDEX 2147483647LL

static ff_values ff_get(const ct_template *t, const ct_params *c)
{
    ff_values q;
    for (int i = 0; i < CT_FFMA_NPARAMS; i++)
        q.v[i] = ct_param_read(c, &ct_ffma_params[i]);
    (void)t;
    return q;
}

/* The template's derived sizes: ffma_sizes.cuh's expressions, which the
 * kernel's FF_* macros of the same names are. */
typedef struct ff_geom {
    long long tx, ty, nt, minb, al, bl, ntiles, mtiles, smem, regs;
} ff_geom;

static void ff_geometry(const ct_tc_shape *s, const ff_values *q, ff_geom *g)
{
    memset(g, 0, sizeof *g);
    if (q->THREAD_M < 1 || q->THREAD_N < 1 || q->CHUNK_K < 1)
        return;
    const long long coutg = s->cout / ct_tc_ngroups(s), n = s->b * s->oh * s->ow;
    g->tx = FFMA_TX(q->TILE_N, q->THREAD_N), g->ty = FFMA_TY(q->TILE_M, q->THREAD_M);
    g->nt = FFMA_NT(g->tx, g->ty);
    if (g->nt < 1)
        return;
    g->al = FFMA_AL(q->TILE_M, q->CHUNK_K, g->nt);
    g->bl = FFMA_BL(q->TILE_N, q->CHUNK_K, g->nt);
    g->regs = FFMA_REGS(q->THREAD_M, q->THREAD_N, g->al, g->bl);
    g->minb = FFMA_MINB(FFMA_MINB_R(g->regs, g->nt), g->nt);
    g->ntiles = FFMA_CDIV(n, q->TILE_N);
    g->mtiles = FFMA_CDIV(coutg, q->TILE_M);
    g->smem = FFMA_SMEM(q->CHUNK_K, q->TILE_M, q->TILE_N);
}

static int pow2(long v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

/* Refused: depthwise layers (their own templates), architectures with
 * tensor cores for the type (sm_80 on), tiles that are not powers of two or
 * whose threads do not divide the copies, blocks outside 64 .. 512
 * threads, registers or shared memory that do not fit, tiles mostly past
 * the layer, 32-bit indices that would overflow. */
static int ff_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len)
{
    /* Read first: a candidate of another template is noticed whatever the
     * layer (test_params). */
    const ff_values q = ff_get(t, c);
    const long long gr = ct_tc_ngroups(s);
    if (gr == s->cin && s->cout == s->cin) {
        snprintf(why, len, "%s: a depthwise layer (groups = Cin = Cout = %lld) has its own templates", t->name,
                 s->cin);
        return 1;
    }
    if (lim->cc_major >= 8) {
        snprintf(why, len, "%s is for GPUs without tensor cores for the layer's type (sm_75): from sm_80 the "
                 "tensor-core templates take it (convtune tune --arch-limit sm_75 measures it on a newer GPU)",
                 t->name);
        return 1;
    }
    if (!pow2(q.TILE_M) || !pow2(q.TILE_N) || !pow2(q.CHUNK_K) || (q.THREAD_M != 4 && q.THREAD_M != 8) ||
        (q.THREAD_N != 4 && q.THREAD_N != 8) || q.TILE_M < q.THREAD_M || q.TILE_N < q.THREAD_N) {
        snprintf(why, len, "TILE_M, TILE_N and CHUNK_K are powers of two, THREAD_M and THREAD_N 4 or 8 and at "
                 "most their tiles");
        return 1;
    }
    ff_geom g;
    ff_geometry(s, &q, &g);
    if (g.nt < 64 || g.nt > 512 || g.nt > lim->max_threads_per_block) {
        snprintf(why, len, "%lld threads per block: outside 64 .. 512", g.nt);
        return 1;
    }
    if (g.nt % q.CHUNK_K != 0 || g.al < 1 || g.bl < 1) {
        snprintf(why, len, "%lld threads do not share a chunk's copies evenly (CHUNK_K=%ld must divide them "
                 "and TILE_M x CHUNK_K, TILE_N x CHUNK_K be multiples of them)", g.nt, q.CHUNK_K);
        return 1;
    }
    if (q.CHUNK_K * q.THREAD_M * q.THREAD_N > FF_MAX_BODY) {
        snprintf(why, len, "CHUNK_K x THREAD_M x THREAD_N = %ld unrolled FMAs exceed %d",
                 q.CHUNK_K * q.THREAD_M * q.THREAD_N, FF_MAX_BODY);
        return 1;
    }
    /* Static shared memory; and as many blocks as the launch bounds ask
     * for (two at most) must fit an SM (1 KiB each reserved), or the
     * registers they were sized for idle (sm_75: 64 KiB an SM). */
    const long long want = g.minb < 2 ? g.minb : 2;
    if (g.smem > FF_STATIC_SMEM || g.smem > lim->max_smem_per_block ||
        want * (g.smem + 1024) > lim->max_smem_per_sm) {
        snprintf(why, len, "%lld bytes of shared memory per block: %lld blocks do not fit the device's %d per SM "
                 "(48 KiB static per block)", g.smem, want, lim->max_smem_per_sm);
        return 1;
    }
    if (ct_regs_exceed(lim, g.regs, g.nt, (long)g.minb, why, len))
        return 1;
    /* FMAs spent past the group's channels and past the last pixel: more
     * than a quarter thrown away loses to a smaller tile on a layer large
     * enough to have one (2^18 outputs). */
    const long long coutg = s->cout / gr, n = s->b * s->oh * s->ow;
    const double eff = (double)coutg / (double)(g.mtiles * q.TILE_M) * (double)n / (double)(g.ntiles * q.TILE_N);
    if (eff < 0.75 && (double)s->cout * (double)n >= 262144.0) {
        snprintf(why, len, "only %.0f%% of the block tiles' outputs are in the layer (under 75%%)", 100.0 * eff);
        return 1;
    }
    if (s->b * s->cin * s->h * s->w > FF_MAX_INDEX || s->b * s->cout * s->oh * s->ow > FF_MAX_INDEX ||
        g.ntiles > FF_MAX_INDEX || g.mtiles > 65535 || gr > 65535) {
        snprintf(why, len, "the layer exceeds 32-bit indices or the grid (%lld pixel tiles, %lld channel tiles, "
                 "%lld groups)", g.ntiles, g.mtiles, gr);
        return 1;
    }
    return 0;
}

/* Every candidate is its own kernel: the tile sizes are powers of two the
 * constraints check, not rounded. */
static void ff_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    (void)t, (void)s, (void)c;
}

/* Pixel tiles (x) x channel tiles (y) x groups (z), static shared memory. */
static void ff_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    const ff_values q = ff_get(t, c);
    ff_geom g;
    ff_geometry(s, &q, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.ntiles;
    l->grid[1] = (unsigned)g.mtiles;
    l->grid[2] = (unsigned)ct_tc_ngroups(s);
    l->block[0] = (unsigned)g.nt;
    l->block[1] = l->block[2] = 1;
}

const ct_kernel_kind ct_kind_ffma = {.name = "ffma", .layouts = CT_LAYOUT_BOTH, .any_layer = 1,
                                     .constrain = ff_constrain, .normalize = ff_normalize, .launch = ff_launch};
