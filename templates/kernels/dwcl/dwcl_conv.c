/* dwcl_conv.c - parameters, sizes, constraints and geometry of the
 * channels-last depthwise template conv1dc_dwcl (dwcl.conv1dc.cu.in beside
 * it) and of its bf16/f16 entry conv1dc_dwclh; the derived sizes are
 * dwcl_sizes.cuh's, which the template expands too. */
#include "dwcl_conv.h"
#include "intmath.h"

#include <stdio.h>
#include <string.h>

/* After the headers: its macros have short names and no include guard. */
#include "dwcl_sizes.cuh"

CT_FAMILY_CODE

#define DWCL1_PARAMS(X)                                                                                      \
    X(VEC, 4, CT_INT(0), "consecutive channels per thread, one vector load and store along C (1, 2, 4)")     \
    X(CHANNEL_THREADS, 64, CT_THREADS(0), "threads of a block along the channels (block x)")                  \
    X(POS_THREADS, 4, CT_THREADS(0), "threads of a block along the positions (block y)")                     \
    X(POS_PER_THREAD, 16, CT_INT(0), "consecutive output positions per thread, the input window carried "   \
                                     "in registers from one to the next")                                    \
    X(CHUNK, 4, CT_INT(0), "positions computed per unrolled step (divides POS_PER_THREAD): the loads of "    \
                           "a step are all in flight together")
const ct_param_def ct_dwcl_params_1d[CT_DWCL_NPARAMS_1D] = CT_PARAM_TABLE(DWCL1_PARAMS);
CT_PARAM_VALUES(dwcl1, DWCL1_PARAMS, ct_dwcl_params_1d)
_Static_assert(CT_PARAM_COUNT(DWCL1_PARAMS) == CT_DWCL_NPARAMS_1D, "CT_DWCL_NPARAMS_1D is the list's length");

/* A bound on the unrolled FMAs of one step (instruction cache, NVRTC time). */
#define DWCL_MAX_BODY 4096
#define DWCL_MAX_GRID 2147483647LL

/* The template's derived sizes: dwcl_sizes.cuh's macros, expanded over
 * locals named as the template's macros they read. */
typedef struct dwcl_geom {
    long long vec, ct, pt, ppt, chunk, ncv, ncb, run, npb, nwc, blocks, threads;
} dwcl_geom;

static void dwcl_geometry(const ct_tc_shape *s, const dwcl1_values *q, dwcl_geom *g)
{
    memset(g, 0, sizeof *g);
    g->vec = q->VEC, g->ct = q->CHANNEL_THREADS, g->pt = q->POS_THREADS, g->ppt = q->POS_PER_THREAD;
    g->chunk = q->CHUNK;
    if (g->vec < 1 || g->ct < 1 || g->pt < 1 || g->ppt < 1 || g->chunk < 1)
        return;
    const long long CONV_CIN = s->cin, CONV_LOUT = s->ow, CONV_K = s->kw, CONV_STRIDE = s->sx, CONV_DIL = s->dx;
    const long long VEC = g->vec, CHANNEL_THREADS = g->ct, POS_THREADS = g->pt, POS_PER_THREAD = g->ppt,
                    CHUNK = g->chunk;
    g->threads = g->ct * g->pt;
    /* Whole vectors: the constraints refuse a VEC that does not divide Cin
     * before they read these, and normalize halves it until it does. */
    g->ncv = NCV;
    g->ncb = NCB;
    g->run = RUN;
    g->npb = NPB;
    g->nwc = NWC;
    /* The kernel's blockIdx.x: channel block fastest, then position block,
     * then batch item. */
    g->blocks = g->ncb * g->npb * s->b;
}

static int dwcl_constrain(const ct_tc_shape *s, const ct_params *c, const ct_limits *lim, char *why, size_t len)
{
    const dwcl1_values q = dwcl1_get(c);
    dwcl_geom g;
    dwcl_geometry(s, &q, &g);
    if ((g.vec != 1 && g.vec != 2 && g.vec != 4) || g.ct < 1 || g.pt < 1 || g.ppt < 1 || g.ppt > 256 ||
        g.chunk < 1 || g.chunk > 16 || g.ppt % g.chunk != 0) {
        snprintf(why, len, "VEC 1, 2 or 4, POS_PER_THREAD in 1..256, CHUNK in 1..16 dividing POS_PER_THREAD");
        return 1;
    }
    if (s->cin % g.vec != 0) {
        snprintf(why, len, "VEC=%lld must divide Cin = %lld (aligned vectors of channels)", g.vec, s->cin);
        return 1;
    }
    if (g.threads % 32 != 0 || g.threads > lim->max_threads_per_block) {
        snprintf(why, len, "CHANNEL_THREADS x POS_THREADS = %lld threads is not a multiple of 32 within the "
                 "device's %d", g.threads, lim->max_threads_per_block);
        return 1;
    }
    /* Threads past the channels or the positions: on a layer big enough to
     * have a choice, another block shape does better. */
    const double slots = (double)(g.ncb * g.ct * g.vec) * (double)(g.npb * g.run);
    const double eff = (double)s->cin * (double)s->ow / slots;
    if (eff < 0.85 && (double)s->cin * (double)s->ow * (double)s->b >= 65536.0) {
        snprintf(why, len, "only %.0f%% of the block's channel x position slots exist (Cin %lld, LOUT %lld)",
                 100.0 * eff, s->cin, s->ow);
        return 1;
    }
    if (g.chunk * s->kw * g.vec > DWCL_MAX_BODY) {
        snprintf(why, len, "CHUNK x K x VEC = %lld unrolled FMAs exceed %d", g.chunk * s->kw * g.vec, DWCL_MAX_BODY);
        return 1;
    }
    /* The window, the taps, the accumulators and about 20 for addresses. */
    if (ct_regs_exceed(lim, (g.nwc + s->kw + 1) * g.vec + 20, g.threads, 1, why, len))
        return 1;
    if (g.blocks > DWCL_MAX_GRID) {
        snprintf(why, len, "%lld blocks exceed the grid limit", g.blocks);
        return 1;
    }
    return 0;
}

int ct_dwcl_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim, char *why,
                      size_t len)
{
    if (s->groups != s->cin || s->cout != s->cin) {
        snprintf(why, len, "%s convolves each channel with its own taps: groups = Cin = Cout only (here groups = "
                 "%lld, Cin = %lld, Cout = %lld)", t->name, s->groups, s->cin, s->cout);
        return 1;
    }
    return dwcl_constrain(s, c, lim, why, len);
}

void ct_dwcl_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    (void)t;
    dwcl1_values q = dwcl1_get(c);
    if (q.POS_PER_THREAD > s->ow)
        q.POS_PER_THREAD = (long)s->ow;
    if (q.CHUNK > q.POS_PER_THREAD)
        q.CHUNK = q.POS_PER_THREAD;
    /* The widest vector of channels the layer allows, up to the one asked for. */
    while (q.VEC > 1 && s->cin % q.VEC != 0)
        q.VEC /= 2;
    dwcl1_put(c, &q);
}

void ct_dwcl_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    (void)t;
    const dwcl1_values q = dwcl1_get(c);
    dwcl_geom g;
    dwcl_geometry(s, &q, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.blocks;
    l->grid[1] = l->grid[2] = 1;
    l->block[0] = (unsigned)g.ct;
    l->block[1] = (unsigned)g.pt;
    l->block[2] = 1;
}

const ct_kernel_kind ct_kind_dwcl = {.name = "dwcl", .layouts = CT_LAYOUT_CL_ONLY, .any_layer = 1,
                                     .constrain = ct_dwcl_constrain, .normalize = ct_dwcl_normalize,
                                     .launch = ct_dwcl_launch};
