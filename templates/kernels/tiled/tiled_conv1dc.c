/* tiled_conv1dc.c - parameters, derived sizes, constraints and launch
 * geometry of the conv1dc tiled template (tiled.conv1dc.cu.in beside it),
 * on the layer as a ct_tc_shape of height 1 (w = L, ow = LOUT, kw = K). */
#include "tiled_conv.h"
#include "intmath.h"
#include "tiled_sizes.cuh"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

static const char *const reduction_names[] = {"shuffle", "shared", "atomic"};

#define TILED1_PARAMS(X)                                                                                      \
    X(BLOCK_SIZE, 256, CT_THREADS(0), "threads per block")                                                    \
    X(COUT_PER_BLOCK, 1, CT_INT(0),                                                                           \
      "output channels per block, each reduced by BLOCK_SIZE/COUT_PER_BLOCK threads")                        \
    X(CHANNELS_PER_THREAD, 1, CT_INT(0),                                                                      \
      "consecutive input channels per thread per step (weights CHANNELS_PER_THREAD*K contiguous)")           \
    X(VEC, 1, CT_INT(0), "floats per weight load instruction (1, 2, 4)")                                      \
    X(UNROLL, 1, CT_INT(0), "channel steps whose loads are all issued before their FMAs")                     \
    X(OUT_TILE, 4, CT_INT(0), "output positions per block (accumulators per batch item per thread)")          \
    X(BATCH_PER_BLOCK, 1, CT_INT(0), "batch items sharing each loaded weight")                                \
    X(REDUCTION, 0, CT_SYMBOLS(reduction_names), "cross-thread sum: warp shuffles then shared memory, "       \
                                                 "shared-memory tree, or warp shuffles then shared-memory atomics")
const ct_param_def ct_tiled_params_1d[CT_TILED_NPARAMS_1D] = CT_PARAM_TABLE(TILED1_PARAMS);
CT_PARAM_VALUES(tiled1, TILED1_PARAMS, ct_tiled_params_1d)
_Static_assert(CT_PARAM_COUNT(TILED1_PARAMS) == CT_TILED_NPARAMS_1D, "CT_TILED_NPARAMS_1D is the list's length");

/* The tiled template's derived sizes: tiled_sizes.cuh's expressions, which
 * the macros of tiled.conv1dc.cu.in are. */
typedef struct tiled_shape {
    long block, cpb, group, cpt, vec, unroll, tile, bpb, red;
    long long ncb;        /* whole channel steps per output channel      */
    long long tw;         /* input window per channel (tile + K - 1)     */
    long long xregs;      /* input values each channel step keeps        */
    long long nacc;       /* accumulators per thread                      */
    long long blocks;     /* grid size                                    */
    long long smem;       /* static shared memory of the reduction        */
} tiled_shape;

static void tiled_shape_of(const ct_tc_shape *sh, const ct_params *c, tiled_shape *s)
{
    const long long lout = sh->ow;
    const tiled1_values q = tiled1_get(c);
    s->block = q.BLOCK_SIZE;
    s->cpb = q.COUT_PER_BLOCK;
    s->group = s->cpb > 0 ? TILED1_GROUP(s->block, s->cpb) : 0;
    s->cpt = q.CHANNELS_PER_THREAD;
    s->vec = q.VEC;
    s->unroll = q.UNROLL;
    s->tile = q.OUT_TILE;
    s->bpb = q.BATCH_PER_BLOCK;
    s->red = q.REDUCTION;
    s->ncb = s->cpt > 0 ? TILED1_NCB(sh->cin, s->cpt) : 0;
    s->tw = TILED1_TW(s->tile, sh->kw);
    /* One tile covering the whole output: only the L real inputs of a row are loaded. */
    s->xregs = s->tile > 0 && TILED1_XFULL(TILED1_NT(lout, s->tile)) ? sh->w : s->tw;
    s->nacc = TILED1_NACC((long long)s->bpb, s->tile);
    if (s->cpb > 0 && s->bpb > 0 && s->tile > 0)
        s->blocks = TILED1_BLOCKS(sh->cout, s->cpb, TILED1_NBT(sh->b, s->bpb), TILED1_NT(lout, s->tile));
    else
        s->blocks = 0;
    s->smem = 4 * TILED1_SMEM_FLOATS(s->red, s->nacc, s->block, s->cpb, s->group);
}

static int tiled1_constrain(const ct_template *t, const ct_tc_shape *sh, const ct_params *c, const ct_limits *lim,
                            char *why, size_t len)
{
    (void)t;
    tiled_shape s;
    tiled_shape_of(sh, c, &s);
    const long block = s.block;
    if (block < 32 || block % 32 != 0 || block > lim->max_threads_per_block) {
        snprintf(why, len, "BLOCK_SIZE=%ld is not a multiple of 32 within the device's %d threads",
                 block, lim->max_threads_per_block);
        return 1;
    }
    if (s.cpb < 1 || block % s.cpb != 0 || (s.group & (s.group - 1)) != 0) {
        snprintf(why, len, "COUT_PER_BLOCK=%ld must split BLOCK_SIZE=%ld into power-of-two groups", s.cpb, block);
        return 1;
    }
    if (s.cpt < 1 || s.cpt > 64 || s.unroll < 1 || s.unroll > 16 || s.tile < 1 || s.tile > 256 || s.bpb < 1 ||
        s.bpb > 64 || s.red < 0 || s.red > 2) {
        snprintf(why, len, "CHANNELS_PER_THREAD in 1..64, UNROLL in 1..16, OUT_TILE in 1..256, "
                           "BATCH_PER_BLOCK in 1..64");
        return 1;
    }
    const long long k = sh->kw;
    if ((s.vec != 1 && s.vec != 2 && s.vec != 4) || (s.cpt * k) % s.vec != 0 || (sh->cin * k) % s.vec != 0) {
        snprintf(why, len, "VEC=%ld must be 1, 2 or 4 and divide CHANNELS_PER_THREAD x K and Cin x K "
                 "(aligned weight loads)", s.vec);
        return 1;
    }
    /* More than a warp of threads per output channel with nothing to do. */
    if (s.group > 32 && s.group > ct_cdiv(sh->cin, s.cpt)) {
        snprintf(why, len, "%ld threads per output channel for %lld channel steps leave threads idle",
                 s.group, ct_cdiv(sh->cin, s.cpt));
        return 1;
    }
    long long fmas = s.unroll * s.cpt * k * s.nacc;
    if (fmas > 4096) {
        snprintf(why, len, "UNROLL x CHANNELS_PER_THREAD x K x BATCH_PER_BLOCK x OUT_TILE = %lld FMAs per "
                 "loop iteration would overflow the instruction cache", fmas);
        return 1;
    }
    /* Registers: weights and inputs of every unrolled step, accumulators,
     * and about 24 for addresses and indices. */
    long long regs = s.unroll * s.cpt * (k + s.bpb * s.xregs) + s.nacc + 24;
    long long reg_cap = 65536 / block < 255 ? 65536 / block : 255;
    if (regs > reg_cap) {
        snprintf(why, len, "about %lld registers per thread exceed the %lld that %ld threads per block allow",
                 regs, reg_cap, block);
        return 1;
    }
    if (s.smem > 48 * 1024 || s.smem > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of reduction shared memory exceed 48 KiB", s.smem);
        return 1;
    }
    if (s.blocks > 2147483647LL) {
        snprintf(why, len, "%lld blocks exceed the grid limit", s.blocks);
        return 1;
    }
    return 0;
}

static void tiled1_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    (void)t;
    const long long cin = s->cin, k = s->kw;
    tiled1_values q = tiled1_get(c);
    if (q.CHANNELS_PER_THREAD > cin)
        q.CHANNELS_PER_THREAD = (long)cin;
    const long cpt = q.CHANNELS_PER_THREAD;
    if (q.OUT_TILE > s->ow)
        q.OUT_TILE = (long)s->ow;
    if (q.BATCH_PER_BLOCK > s->b)
        q.BATCH_PER_BLOCK = (long)s->b;
    /* The widest aligned load up to the one asked for. */
    while (q.VEC > 1 && ((cpt * k) % q.VEC != 0 || (cin * k) % q.VEC != 0))
        q.VEC /= 2;
    long group = q.COUT_PER_BLOCK > 0 ? q.BLOCK_SIZE / q.COUT_PER_BLOCK : 0;
    /* Unrolling past a thread's channel steps changes nothing. */
    long long steps = group > 0 && cpt > 0 ? ct_cdiv(cin / cpt, group) : 1;
    if (steps >= 1 && q.UNROLL > steps)
        q.UNROLL = (long)steps;
    /* Within a warp the atomic variant has no second stage: it is the shuffle one. */
    if (group <= 32 && q.REDUCTION == 2)
        q.REDUCTION = 0;
    tiled1_put(c, &q);
}

static void tiled1_launch(const ct_template *t, const ct_tc_shape *sh, const ct_params *c, ct_launch *l)
{
    (void)t;
    memset(l, 0, sizeof *l);
    tiled_shape s;
    tiled_shape_of(sh, c, &s);
    l->grid[0] = (unsigned)s.blocks;
    l->grid[1] = l->grid[2] = 1;
    l->block[0] = (unsigned)s.block;
    l->block[1] = l->block[2] = 1;
}

const ct_kernel_kind ct_kind_tiled1 = {.name = "tiled", .layouts = CT_LAYOUT_DEFAULT_ONLY,
                                       .constrain = tiled1_constrain, .normalize = tiled1_normalize,
                                       .launch = tiled1_launch};
