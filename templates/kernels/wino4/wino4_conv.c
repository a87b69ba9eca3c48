/* wino4_conv.c - parameters, sizes, constraints, launch geometry and the
 * executor (FPRE=1: the prep kernel, then the main kernel) of the kind
 * wino4 (wino4_conv.h); the derived sizes are wino4_sizes.cuh's, which the
 * W4_* macros of ct_conv_wino4.cuh expand too. */
#include "wino4_conv.h"
#include "intmath.h"
#include "tc_shape.h"
#include "wino4_sizes.cuh"
#include "ws_exec.h"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

/* Each parameter once, in list order. */
#define W4_ALL(X)                                                                                            \
    X(TILE_M, 32, CT_RANGE(4, 256), "output channels of a group per block (a power of two)")                \
    X(TILE_N, 16, CT_RANGE(4, 256), "4x4 output tiles per block (a power of two)")                          \
    X(THREAD_M, 8, CT_RANGE(4, 8), "output channels per thread of one transform position, runs of 4 (4 or 8)") \
    X(THREAD_N, 4, CT_RANGE(4, 8), "tiles per thread of one transform position, runs of 4 (4 or 8)")        \
    X(CHUNK_K, 4, CT_RANGE(1, 64), "input channels staged at a time, transformed (a power of two)")          \
    X(PREFETCH, 0, CT_RANGE(0, 1), "1: the next chunk's patches and filters loaded into registers during "   \
                                   "this chunk's products; 0: after them (fewer registers)")                \
    X(STAGES, 1, CT_RANGE(1, 2), "shared stages: 1 (two barriers a chunk) or 2 (one; the transforming warps "  \
                                 "fall behind while the others compute)")                                  \
    X(MIN_BLOCKS, 1, CT_RANGE(1, 2), "blocks an SM the launch bounds ask for (2: one block's loads and "     \
                                     "transforms overlap another's products, in fewer registers)")         \
    X(FPRE, 0, CT_ADDED_INT(0), "1: a prep kernel transforms every filter once a call into a workspace laid "  \
                                "out as the stages want it, the blocks copy it (0 or 1; 0: each block "    \
                                "transforms the filters it stages)")

const ct_param_def ct_wino4_params[CT_WINO4_NPARAMS] = CT_PARAM_TABLE(W4_ALL);
_Static_assert(CT_PARAM_COUNT(W4_ALL) == CT_WINO4_NPARAMS, "CT_WINO4_NPARAMS is the list's length");
CT_PARAM_UNION(w4, W4_ALL)

/* Unrolled FMAs of one chunk (instruction cache, NVRTC time). */
#define W4_MAX_BODY 1024
#define W4_MAX_INDEX 2147483647LL

static w4_values w4_get(const ct_template *t, const ct_params *c)
{
    w4_values q;
    for (int i = 0; i < CT_WINO4_NPARAMS; i++)
        q.v[i] = ct_param_read(c, &ct_wino4_params[i]);
    (void)t;
    return q;
}

/* The template's derived sizes: its W4_* macros, wino4_sizes.cuh's
 * expressions. */
typedef struct w4_geom {
    long long tiles, tx, ty, nt, pi, pw, regs, ntiles, mtiles, stage, epl, smem;
    long long nch, ws;   /* chunks of a group; FPRE=1: the workspace's floats (0 without) */
} w4_geom;

static void w4_geometry(const ct_tc_shape *s, const w4_values *q, w4_geom *g)
{
    memset(g, 0, sizeof *g);
    if (q->THREAD_M < 1 || q->THREAD_N < 1 || q->CHUNK_K < 1)
        return;
    const long long coutg = s->cout / ct_tc_ngroups(s);
    g->tiles = WINO4_NTL(s->b, WINO4_TILES_OF(s->oh), WINO4_TILES_OF(s->ow));
    g->tx = WINO4_TX(q->TILE_N, q->THREAD_N), g->ty = WINO4_TY(q->TILE_M, q->THREAD_M);
    g->nt = WINO4_NT(WINO4_TS(g->tx, g->ty));
    if (g->nt < 1)
        return;
    g->pi = WINO4_PI(q->CHUNK_K, q->TILE_N, g->nt);
    /* FPRE=1: the float4 of U' a thread copies, where it transformed
     * filters. */
    g->pw = q->FPRE ? WINO4_UI(q->CHUNK_K, q->TILE_M, g->tx * g->ty) : WINO4_PW(q->CHUNK_K, q->TILE_M, g->nt);
    /* The sums, one k's fragments, a patch's 36 raw or transformed values
     * (live through its transform whether prefetched or not), and with
     * PREFETCH the filters and about 24 for indices and the loop, without
     * it 12 (ptxas -v on sm_75: 8 x 4 sums of 576 threads fit 96 registers
     * without spills at PREFETCH=0, spill 52 bytes at 1; 8 x 8 of 288
     * threads spill 300 bytes in 96). FPRE=1 prefetches 4 floats a
     * float4 of U' it copies. */
    g->regs = q->THREAD_M * q->THREAD_N + q->THREAD_M + q->THREAD_N + 36 * g->pi +
              (q->PREFETCH ? (q->FPRE ? 4 : 9) * g->pw + 12 : 12);
    g->ntiles = WINO4_NTILES(g->tiles, q->TILE_N);
    g->mtiles = WINO4_MTILES(coutg, q->TILE_M);
    g->nch = WINO4_CDIV(s->cin / ct_tc_ngroups(s), q->CHUNK_K);
    /* 36 planes of U and V, CHUNK_K rows of the block's channels (and 4)
     * and tiles each, each plane padded, the stages and the tile table:
     * dynamic shared memory; with FPRE U's rows are unpadded (copied
     * 16 bytes at a time, no k-fastest stores). */
    const long long upl = q->FPRE ? WINO4_UPLF(q->CHUNK_K, q->TILE_M, g->ty) : WINO4_UPL(q->CHUNK_K, q->TILE_M, g->ty);
    g->stage = WINO4_STAGE(upl, WINO4_VPL(q->CHUNK_K, q->TILE_N, g->tx));
    g->ws = q->FPRE ? WINO4_UWS(ct_tc_ngroups(s), g->mtiles, g->nch, q->CHUNK_K, q->TILE_M) : 0;
    g->epl = WINO4_EPL(g->ty, WINO4_EP(q->TILE_N));
    g->smem = WINO4_SMEM(q->STAGES, g->stage, q->TILE_N);
}

static int pow2(long v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

/* Refused: layers other than 3x3 of stride 1 and dilation 1, depthwise
 * layers, architectures with tensor cores for the type (sm_80 on), tiles
 * that are not powers of two, positions of other than 8 or 16 threads,
 * registers or shared memory that do not fit, blocks mostly past the
 * layer, 32-bit indices that would overflow. */
static int w4_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len)
{
    /* Read first: a candidate of another template is noticed whatever the
     * layer (test_params). */
    const w4_values q = w4_get(t, c);
    const long long gr = ct_tc_ngroups(s);
    if (s->kh != 3 || s->kw != 3 || s->sy != 1 || s->sx != 1 || s->dy != 1 || s->dx != 1) {
        snprintf(why, len, "%s computes 3x3 layers of stride 1 and dilation 1 (F(4x4,3x3))", t->name);
        return 1;
    }
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
        (q.THREAD_N != 4 && q.THREAD_N != 8) || q.TILE_M < q.THREAD_M || q.TILE_N < q.THREAD_N ||
        (q.PREFETCH != 0 && q.PREFETCH != 1) || (q.STAGES != 1 && q.STAGES != 2) || q.MIN_BLOCKS < 1 ||
        q.MIN_BLOCKS > 2 || (q.FPRE != 0 && q.FPRE != 1)) {
        snprintf(why, len, "TILE_M, TILE_N and CHUNK_K are powers of two, THREAD_M and THREAD_N 4 or 8 and at most "
                 "their tiles, PREFETCH and FPRE 0 or 1, STAGES and MIN_BLOCKS 1 or 2");
        return 1;
    }
    w4_geom g;
    w4_geometry(s, &q, &g);
    if (g.tx * g.ty != 8 && g.tx * g.ty != 16) {
        snprintf(why, len, "%lld threads a transform position: 8 or 16 (36 positions, whole warps)", g.tx * g.ty);
        return 1;
    }
    if (g.nt > lim->max_threads_per_block) {
        snprintf(why, len, "%lld threads per block exceed the device's %d", g.nt, lim->max_threads_per_block);
        return 1;
    }
    if (q.CHUNK_K * q.THREAD_M * q.THREAD_N > W4_MAX_BODY) {
        snprintf(why, len, "CHUNK_K x THREAD_M x THREAD_N = %ld unrolled FMAs exceed %d",
                 q.CHUNK_K * q.THREAD_M * q.THREAD_N, W4_MAX_BODY);
        return 1;
    }
    /* The epilogue's 36 planes of TY rows of TILE_N + 1 sums reuse the
     * stages. */
    if (36 * g.epl > q.STAGES * g.stage) {
        snprintf(why, len, "the output transform's %lld floats exceed the stages' %lld (a larger CHUNK_K)",
                 36 * g.epl, q.STAGES * g.stage);
        return 1;
    }
    if (g.smem > lim->max_smem_per_block || q.MIN_BLOCKS * (g.smem + 1024) > lim->max_smem_per_sm) {
        snprintf(why, len, "%lld bytes of shared memory per block: %ld blocks do not fit the device's %d per "
                 "block and %d per SM", g.smem, q.MIN_BLOCKS, lim->max_smem_per_block, lim->max_smem_per_sm);
        return 1;
    }
    if (ct_regs_exceed(lim, g.regs, g.nt, q.MIN_BLOCKS, why, len))
        return 1;
    /* Sums past the group's channels, tiles past the layer and tile
     * outputs past its edge: more than a third thrown away loses to a
     * smaller block or the wino kind on a layer of 2^18 outputs or more. */
    const long long coutg = s->cout / gr;
    const double eff = (double)coutg / (double)(g.mtiles * q.TILE_M) *
                       (double)g.tiles / (double)(g.ntiles * q.TILE_N) *
                       (double)(s->oh * s->ow) / (double)(16 * WINO4_TILES_OF(s->oh) * WINO4_TILES_OF(s->ow));
    if (eff < 0.66 && (double)s->cout * (double)s->b * (double)s->oh * (double)s->ow >= 262144.0) {
        snprintf(why, len, "only %.0f%% of the block's sums are outputs of the layer (under 66%%)", 100.0 * eff);
        return 1;
    }
    if (s->b * s->cin * s->h * s->w > W4_MAX_INDEX || s->b * s->cout * s->oh * s->ow > W4_MAX_INDEX ||
        s->cout * (s->cin / gr) * 9 > W4_MAX_INDEX || g.ws > W4_MAX_INDEX || g.ntiles > W4_MAX_INDEX ||
        g.mtiles > 65535 || gr > 65535) {
        snprintf(why, len, "the layer exceeds 32-bit indices or the grid (%lld tile blocks, %lld channel blocks, "
                 "%lld groups)", g.ntiles, g.mtiles, gr);
        return 1;
    }
    return 0;
}

/* PREFETCH=1 where a group's input channels are one chunk loads nothing
 * during products: the kernel of PREFETCH=0, and stored as it. */
static void w4_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    w4_values q = w4_get(t, c);
    if (q.PREFETCH != 1 || q.CHUNK_K < s->cin / ct_tc_ngroups(s))
        return;
    q.PREFETCH = 0;
    for (int i = 0; i < CT_WINO4_NPARAMS; i++)
        if (!strcmp(ct_wino4_params[i].name, "PREFETCH"))
            ct_params_write(c, &ct_wino4_params[i], 1, &q.PREFETCH);
}

/* Tile blocks (x) x channel blocks (y) x groups (z), the stages and tile
 * table in dynamic shared memory (the main kernel's; FPRE's prep is
 * w4_prep's). */
static void w4_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    const w4_values q = w4_get(t, c);
    w4_geom g;
    w4_geometry(s, &q, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.ntiles;
    l->grid[1] = (unsigned)g.mtiles;
    l->grid[2] = (unsigned)ct_tc_ngroups(s);
    l->block[0] = (unsigned)g.nt;
    l->block[1] = l->block[2] = 1;
    l->smem_bytes = (unsigned)g.smem;
}

/* FPRE=1: the prep kernel, one thread a filter of the workspace (every
 * group, channel block and chunk, the rows past the layer's zeros), and
 * the workspace's bytes; 0 (no prep) at FPRE=0. */
static long long w4_prep(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    const w4_values q = w4_get(t, c);
    w4_geom g;
    w4_geometry(s, &q, &g);
    return ct_ws_prep_items(g.ws / 36, WINO4_PREP_NT, g.ws * (long long)sizeof(float), l);
}

const ct_kernel_kind ct_kind_wino4 = {.name = "wino4", .layouts = CT_LAYOUT_BOTH, .any_layer = 1,
                                      .constrain = w4_constrain, .normalize = w4_normalize,
                                      .launch = w4_launch, .prep = w4_prep};

/* The executor: FPRE=0 one launch on every buffer, as a single-kernel
 * template; FPRE=1 <W4_NAME>_fprep from the weights into its workspace, then
 * the main kernel reading that in their place (ws_exec.c's launches and
 * launcher text). */
CT_WS_DIRECT_EXECUTOR(ct_wino4_exec, "_fprep", "W4_CAT");
