/* tc_conv.c - parameters, sizes, constraints and the split-K executor of the
 * fp32 tensor-core implicit-GEMM kinds tc and tcsplit (ct_conv_tc.cuh); the
 * derived sizes are tc_sizes.cuh's, which ct_conv_tc.cuh expands too. */
#include "tc_conv.h"
#include "export.h"
#include "intmath.h"
#include "tc_sizes.cuh"
#include "ws_exec.h"

#include <string.h>

CT_FAMILY_CODE

static const char *const korder_names[] = {"chan", "tap"};

/* Each parameter once, in list order; the 1D templates lack the rows, the
 * plain ones the split. */
#define TC_HEAD(X) X(COUT_TILE, 64, CT_INT(0), "output channels per block (WARPS_M x a multiple of 16)")
#define TC_ROWS(X) X(TILE_OH, 1, CT_INT(0), "output rows per block")
#define TC_BODY(X)                                                                                          \
    X(TILE_OW, 8, CT_INT(0), "output columns per block (pixels rounded up to WARPS_N x 8k)")               \
    X(WARPS_M, 2, CT_WARPS(0), "warps along the output channels")                                         \
    X(WARPS_N, 2, CT_WARPS(0), "warps along the output pixels")                                           \
    X(CIN_CHUNK, 8, CT_INT(0), "input channels staged in shared memory at a time")                        \
    X(KORDER, 0, CT_SYMBOLS(korder_names), "reduction order within a chunk: chan (channel-major, least "   \
                                           "padding) or tap (tap-major, conflict-free fragments)")        \
    X(PIPE, 1, CT_INT(0), "1: two shared buffers, the next chunk copied (cp.async) during this one")      \
    X(ACC_STEPS, 1, CT_INT(0), "mma steps summed on the tensor cores before each "                        \
                               "round-to-nearest add to the fp32 sums (1, 2 or 4)")                       \
    X(MIN_BLOCKS, 1, CT_INT(0), "minimum resident blocks per SM (__launch_bounds__)")
#define TC_SPLIT(X) X(SPLIT_K, 1, CT_INT(0), "input-channel splits over the grid, added by a second kernel")
#define TC_ALL(X) TC_HEAD(X) TC_ROWS(X) TC_BODY(X) TC_SPLIT(X)

const ct_param_def ct_tc_params_2d[CT_TC_NPARAMS_2D] = {TC_HEAD(CT_PARAM_DEF) TC_ROWS(CT_PARAM_DEF)
                                                            TC_BODY(CT_PARAM_DEF)};
const ct_param_def ct_tc_split_params_2d[CT_TC_NPARAMS_2D + 1] = CT_PARAM_TABLE(TC_ALL);
const ct_param_def ct_tc_params_1d[CT_TC_NPARAMS_1D] = {TC_HEAD(CT_PARAM_DEF) TC_BODY(CT_PARAM_DEF)};
const ct_param_def ct_tc_split_params_1d[CT_TC_NPARAMS_1D + 1] = {TC_HEAD(CT_PARAM_DEF) TC_BODY(CT_PARAM_DEF)
                                                                      TC_SPLIT(CT_PARAM_DEF)};
_Static_assert(CT_PARAM_COUNT(TC_ALL) == CT_TC_NPARAMS_2D + 1, "CT_TC_NPARAMS_2D is the 2D list's length");

/* Every parameter, in the order of the full list ct_tc_split_params_2d. */
CT_PARAM_UNION(tc, TC_ALL)

/* A tc candidate of template t. A template without TILE_OH (1D) or SPLIT_K
 * (one pass) has its kernel define it as 1, the declared default. */
static tc_values tc_get(const ct_template *t, const ct_params *c)
{
    tc_values q;
    ct_params_read_part(c, t->params, t->nparams, ct_tc_split_params_2d, CT_TC_NPARAMS_2D + 1, CT_PARAM_DFLT, q.v);
    return q;
}

static void tc_put(const ct_template *t, ct_params *c, const tc_values *q)
{
    ct_params_write_part(c, t->params, t->nparams, ct_tc_split_params_2d, CT_TC_NPARAMS_2D + 1, q->v);
}

static void geometry_of(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_tc_geom *g);

void ct_tc_geometry_of(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_tc_geom *g)
{
    const ct_tc_shape one = ct_tc_per_group(s);
    geometry_of(t, &one, c, g);
    g->blocks *= ct_tc_ngroups(s);
}

static void geometry_of(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_tc_geom *g)
{
    const tc_values q = tc_get(t, c);
    memset(g, 0, sizeof *g);
    g->bm = q.COUT_TILE;
    g->toh = q.TILE_OH;
    g->tow = q.TILE_OW;
    g->warps_m = q.WARPS_M;
    g->warps_n = q.WARPS_N;
    g->ck = q.CIN_CHUNK;
    g->korder = q.KORDER;
    g->pipe = q.PIPE;
    g->split = q.SPLIT_K;
    g->minb = q.MIN_BLOCKS;
    g->acc = q.ACC_STEPS;
    if (g->bm < 1 || g->toh < 1 || g->tow < 1 || g->warps_m < 1 || g->warps_n < 1 || g->ck < 1 || g->split < 1 ||
        g->acc < 1)
        return;
    g->ck = TCS_CK(g->ck, s->cin);
    g->bn = TCS_BN(TCS_NPIX(g->toh, g->tow), g->warps_n);
    g->nt = TCS_NT(g->warps_m, g->warps_n);
    g->wm = TCS_WM(g->bm, g->warps_m);
    g->wn = TCS_WN(g->bn, g->warps_n);
    g->mf = TCS_MF(g->wm);
    g->nf = TCS_NF(g->wn);
    g->nch = TCS_NCH(s->cin, g->ck);
    g->khw = TCS_KHW(s->kh, s->kw);
    g->kcr = TCS_KCR(g->ck, g->khw);
    g->kc = TCS_KC(g->kcr, g->acc);
    g->ap = TCS_AP(g->kc);
    g->ih = TCS_IN(g->toh, s->sy, s->kh, s->dy);
    g->iw = TCS_IN(g->tow, s->sx, s->kw, s->dx);
    g->plane = TCS_PLANE(g->ih, g->iw);
    g->stage = TCS_STAGE(TCS_SA(g->bm, g->ap), TCS_SB(g->ck, g->plane));
    g->nbuf = TCS_NBUF(g->pipe);
    g->ty = TCS_TILES_OF(s->oh, g->toh);
    g->tx = TCS_TILES_OF(s->ow, g->tow);
    g->smem_bytes = TCS_SMEM(g->nbuf, g->stage, g->kc);
    g->blocks = s->b * g->ty * g->tx * TCS_NCT(s->cout, g->bm) * g->split;
}

int ct_tc_single_pass(const ct_tc_shape *s)
{
    return s->p && ct_problem_dtype(s->p) == CT_DTYPE_TF32;
}

int ct_tc_constrain(const ct_template *t, const ct_tc_shape *layer, const ct_params *c, const ct_limits *lim,
                    char *why, size_t len)
{
    const ct_tc_shape one = ct_tc_per_group(layer), *s = &one;
    if (lim->cc_major < 8) {
        snprintf(why, len, "TF32 tensor cores (mma.sync m16n8k8) and cp.async need sm_80 or later");
        return 1;
    }
    /* After the architecture test, so that sm_75's reason names it. */
    if (ct_tc_depthwise_refused(s, why, len))
        return 1;
    ct_tc_geom g;
    ct_tc_geometry_of(t, s, c, &g);
    if (g.bm < 16 || g.toh < 1 || g.tow < 1 || g.warps_m < 1 || g.warps_n < 1 || g.ck < 1 || g.korder < 0 ||
        g.korder > 1 || g.pipe < 0 || g.pipe > 1 || g.split < 1 || g.minb < 1 ||
        (g.acc != 1 && g.acc != 2 && g.acc != 4)) {
        snprintf(why, len, "COUT_TILE >= 16, tiles, warps, CIN_CHUNK, SPLIT_K and MIN_BLOCKS >= 1, "
                 "KORDER and PIPE 0 or 1, ACC_STEPS 1, 2 or 4");
        return 1;
    }
    if (g.bm % (16 * g.warps_m) != 0) {
        snprintf(why, len, "COUT_TILE=%lld is not WARPS_M=%lld x a multiple of 16", g.bm, g.warps_m);
        return 1;
    }
    if (g.nt > lim->max_threads_per_block) {
        snprintf(why, len, "%lld warps exceed the device's %d threads", g.nt / 32, lim->max_threads_per_block);
        return 1;
    }
    /* A block tile larger than the layer in some direction while a smaller
     * one covers it: the same work with more idle lanes. */
    if (g.bm > 16 * g.warps_m && g.bm >= 2 * ct_rup(s->cout, 16)) {
        snprintf(why, len, "COUT_TILE=%lld is twice the %lld output channels", g.bm, s->cout);
        return 1;
    }
    if (g.toh > s->oh || g.tow > s->ow) {
        snprintf(why, len, "a %lldx%lld tile exceeds the %lldx%lld output", g.toh, g.tow, s->oh, s->ow);
        return 1;
    }
    /* Idle columns: past the pixels of a tile, past the image in the last
     * tiles, past Cout in the last channel tile, and zero padding of the
     * reduction. More than 40% idle loses to a candidate with a better fit
     * on any layer large enough to have one. */
    const double pix = (double)(s->oh * s->ow) / ((double)(g.ty * g.tx) * (double)g.bn);
    const double chan = (double)s->cout / (double)(TCS_NCT(s->cout, g.bm) * g.bm);
    const double red = (double)s->cin * (double)g.khw / ((double)g.nch * (double)g.kc);
    const double eff = pix * chan * red;
    /* A reduction shorter than 64 (a depthwise or narrow group) has no
     * better fit to lose to: every candidate pads it. */
    if (eff < 0.6 && (double)s->b * (double)s->oh * (double)s->ow >= 4096.0 && s->cout >= 64 &&
        s->cin * g.khw >= 64) {
        snprintf(why, len, "only %.0f%% of the tensor-core work is useful (tile fit %.0f%%, channels %.0f%%, "
                 "reduction %.0f%%)", 100 * eff, 100 * pix, 100 * chan, 100 * red);
        return 1;
    }
    if (g.split > 1 && g.split > g.nch) {
        snprintf(why, len, "SPLIT_K=%lld exceeds the %lld input-channel chunks", g.split, g.nch);
        return 1;
    }
    if (g.smem_bytes > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of shared memory exceed the device's %d", g.smem_bytes,
                 lim->max_smem_per_block);
        return 1;
    }
    if (s->b * g.ty * g.tx > 2147483647LL || TCS_NCT(s->cout, g.bm) * ct_tc_ngroups(layer) > 65535 ||
        g.split > 65535) {
        snprintf(why, len, "the grid exceeds the device's limits");
        return 1;
    }
    /* Accumulators and as many group sums, both halves of one step's A and
     * B fragments, the column offsets and about 32 for addresses and the
     * loop; single-pass (tf32): no group sums, one rounded copy of each
     * fragment. */
    const long long regs = ct_tc_single_pass(layer) ? g.mf * g.nf * 4 + g.mf * 4 + g.nf * 2 + g.nf + 32
                                                    : 2 * g.mf * g.nf * 4 + g.mf * 8 + g.nf * 4 + g.nf + 32;
    return ct_regs_exceed(lim, regs, g.nt, g.minb, why, len);
}

void ct_tc_normalize(const ct_template *t, const ct_tc_shape *layer, ct_params *c)
{
    const ct_tc_shape one = ct_tc_per_group(layer), *s = &one;
    tc_values q = tc_get(t, c);
    /* A tile larger than the output is the output: short sequences and
     * small images take the smallest tile that covers them. */
    if (q.TILE_OW > s->ow)
        q.TILE_OW = (long)s->ow;
    if (q.TILE_OH > s->oh)   /* never true without TILE_OH (1D) */
        q.TILE_OH = (long)s->oh;
    /* One chunk of all channels: no second stage to overlap, no split. */
    if (q.CIN_CHUNK >= s->cin) {
        q.CIN_CHUNK = (long)s->cin;
        q.PIPE = 0;
    }
    /* With one tap or one channel per chunk both orders are the same. */
    if (s->kh * s->kw == 1 || q.CIN_CHUNK == 1)
        q.KORDER = 0;
    /* Single-pass (tf32) mmas add into the sums: no groups to size. */
    if (ct_tc_single_pass(layer))
        q.ACC_STEPS = 1;
    tc_put(t, c, &q);
}

void ct_tc_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    ct_tc_geom g;
    ct_tc_geometry_of(t, s, c, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)(s->b * g.ty * g.tx);
    l->grid[1] = (unsigned)(TCS_NCT(s->cout / ct_tc_ngroups(s), g.bm) * ct_tc_ngroups(s));
    l->grid[2] = (unsigned)g.split;
    l->block[0] = (unsigned)g.nt;
    l->block[1] = l->block[2] = 1;
    l->smem_bytes = (unsigned)g.smem_bytes;
}

const ct_kernel_kind ct_kind_tc = {.name = "tc", .layouts = CT_LAYOUT_BOTH, .any_layer = 1,
                                    .constrain = ct_tc_constrain, .normalize = ct_tc_normalize,
                                    .launch = ct_tc_launch};

float ct_tc_tf32(float x)
{
    unsigned u;
    memcpy(&u, &x, 4);
    u &= 0xffffe000u;
    memcpy(&x, &u, 4);
    return x;
}

void ct_tc_split(float x, float *big, float *small)
{
    *big = ct_tc_tf32(x);
    *small = x - *big;
}

/* ---- the split-K executor: the main kernel into a workspace, then the
 * reduction kernel adding the splits and the bias into the output; the
 * launches are ws_exec.c's, the export's host code is this file's. ---- */

static unsigned reduce_grid(long long count)
{
    long long items = count % 4 == 0 ? count / 4 : count;
    return (unsigned)ct_cdiv(items, 256);
}

/* Workspace and reduce even for SPLIT_K 1: the TC_SPLIT kernel writes its
 * sums to the workspace whatever the split. */
static const ct_ws_exec split_ws = {.exec = &ct_tc_split_exec, .split_axis = 2, .always = 1, .bias = 1,
                                    .reduce_grid = reduce_grid, .what = "split-K workspace"};

static ct_status split_setup(const ct_problem *p, const ct_params *c, const ct_drv *d, CUmodule mod,
                             const CUdeviceptr *bufs, void **out, ct_err *e)
{
    return ct_ws_setup(&split_ws, p, c, d, mod, bufs, out, e);
}

/* Host code of the export: the workspace is made on the first call and
 * kept; <sym>_release() frees it. */
static void split_emit(FILE *f, const ct_problem *p, const ct_params *c, const char *sym, const char *signature)
{
    const ct_template *t = ct_ws_template(p, &ct_tc_split_exec);
    ct_buffer b[CT_MAX_BUFS];
    int nb = p->family->buffers(p, b);
    const long long count = (long long)ct_problem_output_count(p);
    const char *name = t ? t->name : "missing_template";
    (void)c;
    fprintf(f, "// The split-K workspace, made on the first call (not thread-safe: call once\n"
               "// from one thread first, or guard the first call).\nstatic float *ct_ws;\n\n");
    fprintf(f, "extern \"C\" void %s_release(void)\n{\n    cudaFree(ct_ws);\n    ct_ws = 0;\n}\n\n", sym);
    fprintf(f, "extern \"C\" %s\n{\n", signature);
    fprintf(f, "    if (!ct_ws) {\n"
               "        cudaError_t err = cudaMalloc((void **)&ct_ws, (size_t)CT_GRID_Z * %lldULL * sizeof(float));\n"
               "        if (err != cudaSuccess)\n            return (int)err;\n    }\n",
            count);
    ct_export_emit_smem_optin(f, name);
    fprintf(f, "    %s<<<dim3(CT_GRID_X, CT_GRID_Y, CT_GRID_Z), CT_BLOCK_X, CT_SMEM_BYTES, stream>>>(%s, %s, ct_ws);\n",
            name, b[0].name, b[1].name);
    /* The reduction kernel by the template's own TC_CAT (defined with
     * TC_SPLIT): a family export renames the main kernel by a macro per
     * problem, and the reduction's name is pasted from it. */
    fprintf(f, "    TC_CAT(%s, _reduce)<<<%u, 256, 0, stream>>>(ct_ws, %s%s%s);\n", name, reduce_grid(count),
            nb == 4 ? b[2].name : "", nb == 4 ? ", " : "", b[nb - 1].name);
    fprintf(f, "    return (int)cudaGetLastError();\n}\n");
}

const ct_executor ct_tc_split_exec = {
    .library = "CUDA runtime",
    .link_flags = "",
    .setup = split_setup,
    .run = ct_ws_run,
    .teardown = ct_ws_teardown,
    .resources = ct_ws_resources,
    .emit_launcher = split_emit,
};
