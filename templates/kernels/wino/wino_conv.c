/* wino_conv.c - parameters, sizes, constraints, launch geometry and the
 * executor (FPRE=1: the prep kernel, then the main kernel) of the kind
 * wino (wino_conv.h); the derived sizes are wino_sizes.cuh's, which
 * ct_conv_wino.cuh expands too. */
#include "wino_conv.h"
#include "tc_shape.h"
#include "wino_sizes.cuh"
#include "ws_exec.h"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

/* Each parameter once, in list order. */
#define WN_ALL(X)                                                                                            \
    X(TILE_M, 32, CT_RANGE(4, 256), "output channels of a group per block (a power of two)")                \
    X(TILE_N, 32, CT_RANGE(4, 512), "2x2 output tiles per block (a power of two)")                          \
    X(THREAD_M, 8, CT_RANGE(4, 8), "output channels per thread of one transform position, runs of 4 (4 or 8)") \
    X(THREAD_N, 8, CT_RANGE(4, 8), "tiles per thread of one transform position, runs of 4 (4 or 8)")        \
    X(CHUNK_K, 8, CT_RANGE(1, 64), "input channels staged at a time, transformed (a power of two)")         \
    X(STAGES, 1, CT_RANGE(1, 2), "shared stages: 1 (two barriers a chunk) or 2 (one; warps drift apart, "   \
                                 "one's transforms overlapping another's products)")                       \
    X(MIN_BLOCKS, 1, CT_RANGE(1, 2), "blocks an SM the launch bounds ask for at least (2: one block's "      \
                                     "transforms overlap another's products, in fewer registers)")         \
    X(FPRE, 0, CT_ADDED_INT(0), "1: a prep kernel transforms every filter once a call into a workspace laid "  \
                                "out as the stages want it, the blocks copy it (0 or 1; 0: each block "    \
                                "transforms the filters it stages)")

const ct_param_def ct_wino_params[CT_WINO_NPARAMS] = CT_PARAM_TABLE(WN_ALL);
_Static_assert(CT_PARAM_COUNT(WN_ALL) == CT_WINO_NPARAMS, "CT_WINO_NPARAMS is the list's length");
CT_PARAM_UNION(wn, WN_ALL)

/* Unrolled FMAs of one chunk (instruction cache, NVRTC time). */
#define WN_MAX_BODY 1024
#define WN_MAX_INDEX 2147483647LL

static wn_values wn_get(const ct_template *t, const ct_params *c)
{
    wn_values q;
    for (int i = 0; i < CT_WINO_NPARAMS; i++)
        q.v[i] = ct_param_read(c, &ct_wino_params[i]);
    (void)t;
    return q;
}

/* The template's derived sizes: wino_sizes.cuh's expressions, which the
 * kernel's WN_* macros of the same names are. */
typedef struct wn_geom {
    long long tiles, tx, ty, nt, pi, pw, regs, minb, ntiles, mtiles, stage, smem;
    long long fregs, ws;   /* registers of the filter items; FPRE=1: the workspace's floats (0 without) */
} wn_geom;

static void wn_geometry(const ct_tc_shape *s, const wn_values *q, wn_geom *g)
{
    memset(g, 0, sizeof *g);
    if (q->THREAD_M < 1 || q->THREAD_N < 1 || q->CHUNK_K < 1)
        return;
    const long long coutg = s->cout / ct_tc_ngroups(s);
    g->tiles = s->b * WINO_TILES_OF(s->oh) * WINO_TILES_OF(s->ow);
    g->tx = WINO_TX(q->TILE_N, q->THREAD_N), g->ty = WINO_TY(q->TILE_M, q->THREAD_M);
    g->nt = WINO_NT(g->tx, g->ty);
    if (g->nt < 1)
        return;
    g->pi = WINO_PI(q->CHUNK_K, q->TILE_N, g->nt);
    /* FPRE=1: the float4 of U a thread copies, where it gathered filters;
     * U's k rows unpadded (copied 16 bytes at a time). */
    if (q->FPRE) {
        g->pw = WINO_UI(q->CHUNK_K, q->TILE_M, g->tx * g->ty);
        g->regs = WINO_REGSF(q->THREAD_M, q->THREAD_N, g->pi, g->pw);
        g->fregs = 4 * g->pw;
    } else {
        g->pw = WINO_PW(q->CHUNK_K, q->TILE_M, g->nt);
        g->regs = WINO_REGS(q->THREAD_M, q->THREAD_N, g->pi, g->pw);
        g->fregs = 9 * g->pw;
    }
    g->ntiles = WINO_CDIV(g->tiles, q->TILE_N);
    g->mtiles = WINO_CDIV(coutg, q->TILE_M);
    const long long upl = q->FPRE ? WINO_UPLF(q->CHUNK_K, q->TILE_M) : WINO_UPL(q->CHUNK_K, q->TILE_M);
    g->stage = WINO_STAGE(upl, WINO_VPL(q->CHUNK_K, q->TILE_N));
    g->ws = q->FPRE ? WINO_UWS(ct_tc_ngroups(s), g->mtiles, WINO_CDIV(s->cin / ct_tc_ngroups(s), q->CHUNK_K),
                               q->CHUNK_K, q->TILE_M)
                    : 0;
    g->smem = WINO_SMEM(q->STAGES, g->stage, q->TILE_N);
    g->minb = WINO_MINB_D(WINO_MINB(WINO_MINB_A(WINO_MINB_R(g->regs, g->nt), (long long)q->MIN_BLOCKS), g->nt),
                          g->smem);
}

static int pow2(long v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

/* Refused: layers other than 3x3 of stride 1 and dilation 1, depthwise
 * layers, architectures with tensor cores for the type (sm_80 on), tiles
 * that are not powers of two, blocks outside 64 .. 512 threads, registers
 * or shared memory that do not fit, blocks mostly past the layer, 32-bit
 * indices that would overflow. */
static int wn_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len)
{
    /* Read first: a candidate of another template is noticed whatever the
     * layer (test_params). */
    const wn_values q = wn_get(t, c);
    const long long gr = ct_tc_ngroups(s);
    if (s->kh != 3 || s->kw != 3 || s->sy != 1 || s->sx != 1 || s->dy != 1 || s->dx != 1) {
        snprintf(why, len, "%s computes 3x3 layers of stride 1 and dilation 1 (F(2x2,3x3))", t->name);
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
        (q.FPRE != 0 && q.FPRE != 1)) {
        snprintf(why, len, "TILE_M, TILE_N and CHUNK_K are powers of two, THREAD_M and THREAD_N 4 or 8 and at "
                 "most their tiles, FPRE 0 or 1");
        return 1;
    }
    wn_geom g;
    wn_geometry(s, &q, &g);
    if (g.nt < 64 || g.nt > 512 || g.nt > lim->max_threads_per_block) {
        snprintf(why, len, "%lld threads per block (16 transform positions x %lld): outside 64 .. 512", g.nt,
                 g.tx * g.ty);
        return 1;
    }
    if (q.CHUNK_K * q.THREAD_M * q.THREAD_N > WN_MAX_BODY) {
        snprintf(why, len, "CHUNK_K x THREAD_M x THREAD_N = %ld unrolled FMAs exceed %d",
                 q.CHUNK_K * q.THREAD_M * q.THREAD_N, WN_MAX_BODY);
        return 1;
    }
    /* The epilogue's 16 planes of TY rows of TILE_N + 1 sums reuse the
     * stage. */
    const long long epl = WINO_EPL(g.ty, WINO_EP(q.TILE_N));
    if (16 * epl > g.stage) {
        snprintf(why, len, "the output transform's %lld floats exceed the stage's %lld (a larger CHUNK_K)",
                 16 * epl, g.stage);
        return 1;
    }
    const long long want = g.minb < 2 ? g.minb : 2;
    if (g.smem > lim->max_smem_per_block || want * (g.smem + 1024) > lim->max_smem_per_sm) {
        snprintf(why, len, "%lld bytes of shared memory per block: %lld blocks do not fit the device's %d per "
                 "block and %d per SM", g.smem, want, lim->max_smem_per_block, lim->max_smem_per_sm);
        return 1;
    }
    /* MIN_BLOCKS above the estimate's share: the sums, one k's fragments,
     * the raw loads and 20 (ptxas fits the 8 x 8 sums of 256 threads in
     * 128 registers without spills) must fit what it leaves, in a block of
     * no more channels than tiles (at 64 x 16 ptxas spills 20 to 48 bytes
     * on sm_75 and sm_80). Blocks of 512 threads, whose launch bounds
     * leave 128 registers whatever MIN_BLOCKS, take the same tighter
     * estimate: 64 x 32 and 32 x 64 of 8 x 8 fit 128 with at most 48 bytes
     * of spills (ptxas -v, sm_75 and sm_90), 16 warps an SM where 256
     * threads of 137 registers leave 8. */
    const long long tight = q.THREAD_M * q.THREAD_N + q.THREAD_M + q.THREAD_N + 16 * g.pi + g.fregs + 20;
    if (q.MIN_BLOCKS >= 2 && g.minb == q.MIN_BLOCKS && q.TILE_M > q.TILE_N) {
        snprintf(why, len, "MIN_BLOCKS=%ld: a block of more channels (%ld) than tiles (%ld) spills in the "
                 "registers it leaves", q.MIN_BLOCKS, q.TILE_M, q.TILE_N);
        return 1;
    }
    if (ct_regs_exceed(lim, g.regs < tight || (q.MIN_BLOCKS < 2 && g.nt < 512) ? g.regs : tight, g.nt, (long)g.minb,
                       why, len))
        return 1;
    /* Sums past the group's channels, tiles past the layer and tile
     * outputs past its edge: more than a quarter thrown away loses to a
     * smaller block on a layer of 2^18 outputs or more. */
    const long long coutg = s->cout / gr;
    const double eff = (double)coutg / (double)(g.mtiles * q.TILE_M) *
                       (double)g.tiles / (double)(g.ntiles * q.TILE_N) *
                       (double)(s->oh * s->ow) / (double)(4 * WINO_TILES_OF(s->oh) * WINO_TILES_OF(s->ow));
    if (eff < 0.75 && (double)s->cout * (double)s->b * (double)s->oh * (double)s->ow >= 262144.0) {
        snprintf(why, len, "only %.0f%% of the block's sums are outputs of the layer (under 75%%)", 100.0 * eff);
        return 1;
    }
    if (s->b * s->cin * s->h * s->w > WN_MAX_INDEX || s->b * s->cout * s->oh * s->ow > WN_MAX_INDEX ||
        s->cout * (s->cin / gr) * 9 > WN_MAX_INDEX || g.ws > WN_MAX_INDEX || g.ntiles > WN_MAX_INDEX ||
        g.mtiles > 65535 || gr > 65535) {
        snprintf(why, len, "the layer exceeds 32-bit indices or the grid (%lld tile blocks, %lld channel blocks, "
                 "%lld groups)", g.ntiles, g.mtiles, gr);
        return 1;
    }
    return 0;
}

/* The tile sizes are powers of two the constraints check, not rounded;
 * MIN_BLOCKS=2 where the register estimate already asks for two blocks or
 * more, or where the block's shared memory is dynamic (one block an SM),
 * is the kernel of MIN_BLOCKS=1, and stored as it. */
static void wn_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    wn_values q = wn_get(t, c);
    if (q.MIN_BLOCKS <= 1)
        return;
    wn_values one = q;
    one.MIN_BLOCKS = 1;
    wn_geom g;
    wn_geometry(s, &one, &g);
    if (g.nt >= 1 && (g.minb >= q.MIN_BLOCKS || WINO_DYN(g.smem))) {
        q.MIN_BLOCKS = 1;
        for (int i = 0; i < CT_WINO_NPARAMS; i++)
            if (!strcmp(ct_wino_params[i].name, "MIN_BLOCKS"))
                ct_params_write(c, &ct_wino_params[i], 1, &q.MIN_BLOCKS);
    }
}

/* Tile blocks (x) x channel blocks (y) x groups (z); static shared memory
 * up to 48 KiB, dynamic above (sized here). */
static void wn_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    const wn_values q = wn_get(t, c);
    wn_geom g;
    wn_geometry(s, &q, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.ntiles;
    l->grid[1] = (unsigned)g.mtiles;
    l->grid[2] = (unsigned)ct_tc_ngroups(s);
    l->block[0] = (unsigned)g.nt;
    l->block[1] = l->block[2] = 1;
    l->smem_bytes = WINO_DYN(g.smem) ? (unsigned)g.smem : 0u;
}

/* FPRE=1: the prep kernel, one thread a filter of the workspace (every
 * group, channel block and chunk, the rows past the layer's zeros), and
 * the workspace's bytes; 0 (no prep) at FPRE=0. */
static long long wn_prep(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    const wn_values q = wn_get(t, c);
    wn_geom g;
    wn_geometry(s, &q, &g);
    return ct_ws_prep_items(g.ws / 16, WINO_PREP_NT, g.ws * (long long)sizeof(float), l);
}

const ct_kernel_kind ct_kind_wino = {.name = "wino", .layouts = CT_LAYOUT_BOTH, .any_layer = 1,
                                     .constrain = wn_constrain, .normalize = wn_normalize, .launch = wn_launch,
                                     .prep = wn_prep};

/* The executor: FPRE=0 one launch on every buffer, as a single-kernel
 * template; FPRE=1 <WN_NAME>_fprep from the weights into its workspace, then
 * the main kernel reading that in their place (ws_exec.c's launches and
 * launcher text). */
CT_WS_DIRECT_EXECUTOR(ct_wino_exec, "_fprep", "WN_CAT");
