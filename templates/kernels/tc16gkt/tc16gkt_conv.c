/* tc16gkt_conv.c - parameters, sizes, constraints, launch geometry, the
 * input tensor map and the executor (split-K: two launches and a
 * workspace) of the kernel kind tc16gktcl (ct_conv_tc16gkt.cuh, beside it;
 * for a tf32 or fp32 problem ct_conv_tf32gkt.cuh, 4-byte elements, fp32 by
 * 3xTF32); the derived sizes are tc16gkt_sizes.cuh's, which both headers
 * expand too. */
#include "tc16gkt_conv.h"
#include "export.h"
#include "intmath.h"
#include "tc16gkt_sizes.cuh"
#include "ws_exec.h"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

#define T16GKT_LIST(X)                                                                                        \
    X(WG_M, 1, CT_INT(0), "consumer warpgroups along the output channels, 64 each")                         \
    X(WG_N, 1, CT_INT(0), "consumer warpgroups along the tile's pixels, sharing the weights (WG_M x WG_N <= 2)") \
    X(TILE_OH, 8, CT_INT(0), "output rows of a block's image tile")                                          \
    X(TILE_OW, 16, CT_INT(0), "output columns of the tile (TILE_OH x TILE_OW / WG_N pixels: a wgmma's N, a "  \
                              "multiple of 8 up to 256)")                                                   \
    X(STAGES, 4, CT_INT(0), "input stages of the pipeline (k-blocks of one tap and 64 channels in flight)") \
    X(SETMAXNREG, 0, CT_INT(0), "1: the producer warpgroup hands registers to the consumers (setmaxnreg, "   \
                                "WG_M 2)")                                                             \
    X(A_BUFS, 2, CT_INT(0), "weight buffers of a chunk's taps: 2, or 1 where two do not fit (the consumers "  \
                            "then drain each chunk before the next is transposed)")                     \
    X(ROWS, 0, CT_INT(0), "1: one TMA box a filter column, its KH taps' rows in one (TILE_OW a multiple of 8); " \
                          "0: one box a tap")                                                          \
    X(MIN_BLOCKS, 1, CT_INT(0), "resident blocks an SM (__launch_bounds__): 2 overlaps a block's first weight "  \
                                "transpose with another's wgmma steps")                                   \
    X(SPLIT_K, 1, CT_ADDED_INT(1), "split-K: slices of whole channel chunks over the grid's z, each writing fp32 " \
                                   "partial sums to a workspace that a second kernel adds in a fixed order with "  \
                                   "the bias (small grids, long reductions); 1: one kernel")                 \
    X(WPRE, 0, CT_ADDED_INT(0), "1: a prep kernel lays the weights out once a call as the swizzled A buffers' "  \
                                "images, each chunk's fetched by one bulk copy; 2: the same images, a "       \
                                "k-block's taps copied into its input stage (no A buffers); 0: every block's " \
                                "producer warps transpose its chunks' OIHW weights")
const ct_param_def ct_tc16gkt_params[CT_TC16GKT_NPARAMS] = CT_PARAM_TABLE(T16GKT_LIST);
_Static_assert(CT_PARAM_COUNT(T16GKT_LIST) == CT_TC16GKT_NPARAMS, "CT_TC16GKT_NPARAMS is the list's length");
CT_PARAM_VALUES(t16gkt, T16GKT_LIST, ct_tc16gkt_params)

/* A k-block's channels: one 128-byte swizzle row of 16-bit elements (of
 * fp32 ones for tf32: ct_elem_bytes, ct_chunk). */
#define T16GKT_CK 64
/* Bytes of the barriers: full and empty per stage, per A buffer. */
#define T16GKT_BARS(stages) (8 * (2 * (stages) + 4))
/* The dynamic shared memory's slack for aligning the buffers to 1024. */
#define T16GKT_ALIGN 1024
/* The fewest k-blocks a split's slice may have. */
#define T16GKT_MIN_SLICE 3

/* A tf32 or fp32 problem (fp32 tensors, TF32 wgmma: ct_conv_tf32gkt.cuh)
 * has 4-byte elements, a half-type one 2. */
static long long ct_elem_bytes(const ct_tc_shape *s)
{
    return s->p && !ct_dtype_is_half(ct_problem_dtype(s->p)) ? 4 : 2;
}

/* The images of each A buffer and B stage: an fp32 problem's kernel
 * (3xTF32, CT_TF32X3) keeps the operands' small parts in a second one. */
static long long ct_images(const ct_tc_shape *s)
{
    return s->p && ct_problem_dtype(s->p) == CT_DTYPE_F32 ? 2 : 1;
}

/* The channels of a 128-byte swizzle row: a chunk, a box's inner extent. */
static long long ct_chunk(const ct_tc_shape *s)
{
    return 128 / ct_elem_bytes(s);
}

void ct_tc16gkt_geometry_of(const ct_tc_shape *layer, const ct_params *c, ct_tc16gkt_geom *g)
{
    const ct_tc_shape one = ct_tc_per_group(layer), *s = &one;
    const t16gkt_values q = t16gkt_get(c);
    memset(g, 0, sizeof *g);
    g->wg_m = q.WG_M, g->toh = q.TILE_OH, g->tow = q.TILE_OW, g->stages = q.STAGES, g->setmaxnreg = q.SETMAXNREG;
    g->abufs = q.A_BUFS, g->rows = q.ROWS, g->minb = q.MIN_BLOCKS, g->wg_n = q.WG_N, g->split = q.SPLIT_K;
    g->wpre = q.WPRE;
    if (g->wg_m < 1 || g->wg_n < 1 || g->toh < 1 || g->tow < 1 || g->stages < 1 || g->split < 1)
        return;
    /* The kernels' TG_* sizes, tc16gkt_sizes.cuh's expressions. */
    g->bm = TGKT_BM(g->wg_m);
    g->n = TGKT_N(g->toh, g->tow);
    g->nw = TGKT_NW(g->n, g->wg_n);
    g->nc = TGKT_NC(g->wg_m, g->wg_n);
    g->nt = TGKT_NT(g->nc);
    g->khw = TGKT_KHW(s->kh, s->kw);
    g->elem = ct_elem_bytes(layer);
    g->ck = ct_chunk(layer);
    g->nch = TGKT_NCH(s->cin, g->ck);
    g->kpc = TGKT_KPC(g->rows, s->kw, g->khw);
    g->nkb = TGKT_NKB(g->nch, g->kpc);
    /* Slice z of a split holds chunks z NCH / SPLIT_K .. (z + 1) NCH /
     * SPLIT_K - 1: the smallest has floor(NCH / SPLIT_K). */
    g->slice_nkb = g->nch / g->split * g->kpc;
    /* With ROWS a box holds a filter column's KH taps, DY / SY rows apart
     * (the constraints refuse ROWS where SY does not divide DY). */
    g->boxh = TGKT_BOXH(g->rows && s->dy % s->sy == 0, g->toh, s->kh, s->dy / s->sy);
    g->sb = TGKT_SB(g->boxh, g->tow);
    g->wsa = TGKT_SA(g->khw, g->bm);
    g->so = TGKT_SO(g->n, TGKT_OP(g->bm), g->elem);
    g->images = ct_images(layer);
    /* WPRE=2: no A buffers, a k-block's A in each input stage (one image:
     * the constraints refuse WPRE with 3xTF32's two). */
    g->sa = g->wpre == 2 ? 0 : g->wsa;
    g->sak = g->wpre == 2 ? TGKT_SAK(g->rows ? s->kh : 1, g->bm) : 0;
    g->bar = g->wpre == 2 ? TGKT_BAR(1, g->stages * g->sak, g->stages, g->sb, g->so)
                          : TGKT_BAR(g->abufs, g->images * g->sa, g->stages, g->images * g->sb, g->so);
    g->smem_bytes = T16GKT_ALIGN + g->bar + T16GKT_BARS(g->stages);
    g->grid_x = s->b * ct_cdiv(s->oh, g->toh) * ct_cdiv(s->ow, g->tow);
    g->grid_y = ct_cdiv(s->cout, g->bm) * ct_tc_ngroups(layer);
    g->grid_z = g->split;
    g->wp_units = g->wpre ? TGKT_WP_UNITS(ct_tc_ngroups(layer), ct_cdiv(s->cout, g->bm), g->nch) : 0;
    g->wp_bytes = g->wp_units * g->wsa;
    /* A consumer thread: the accumulators (N / 2), as many again halved
     * when packed, about 40 more; 3xTF32's small parts of the chunks it
     * rounds 8 more (ptxas: 167 registers where tf32 takes 163 at N 256). */
    g->regs = g->nw / 2 + g->nw / 4 + 40 + (g->images == 2 ? 8 : 0);
}

void ct_tc16gkt_input_map(const ct_tc_shape *s, const ct_params *c, int dtype, ct_tmap_desc *m)
{
    const t16gkt_values q = t16gkt_get(c);
    const long long cin_all = s->cin;   /* the whole layer's: every group's channels */
    const long long es = ct_elem_bytes(s);
    memset(m, 0, sizeof *m);
    m->buf = 0;
    m->rank = 4;
    m->dtype = dtype;
    m->dims[0] = (unsigned long long)cin_all;
    m->dims[1] = (unsigned long long)s->w;
    m->dims[2] = (unsigned long long)s->h;
    m->dims[3] = (unsigned long long)s->b;
    m->strides[0] = (unsigned long long)(cin_all * es);
    m->strides[1] = (unsigned long long)(cin_all * es * s->w);
    m->strides[2] = (unsigned long long)(cin_all * es * s->w * s->h);
    m->box[0] = (unsigned)ct_chunk(s);
    m->box[1] = (unsigned)(q.TILE_OW * s->sx);
    const long long rstep = s->dy % s->sy == 0 ? s->dy / s->sy : 0;
    m->box[2] = (unsigned)((q.ROWS ? q.TILE_OH + (s->kh - 1) * rstep : q.TILE_OH) * s->sy);
    m->box[3] = 1;
    m->estrides[0] = 1;
    m->estrides[1] = (unsigned)s->sx;
    m->estrides[2] = (unsigned)s->sy;
    m->estrides[3] = 1;
    m->swizzle = 128;
}

/* Layers the copies cannot express, before any parameter is looked at. */
static int shape_refused(const ct_tc_shape *layer, const ct_tc_shape *s, long long khw, char *why, size_t len)
{
    const long long cin_all = s->cin * ct_tc_ngroups(layer), es = ct_elem_bytes(layer), ck = ct_chunk(layer);
    if (es == 4 && s->cin % 4 != 0) {
        snprintf(why, len, "TMA needs 16-byte pixel rows and the weights' 16-byte loads 16-byte runs: "
                 "Cin/groups = %lld is not a multiple of 4 (fp32, tf32)", s->cin);
        return 1;
    }
    if (es == 4 && ct_tc_ngroups(layer) > 1 && s->cin % ck != 0) {
        snprintf(why, len, "groups of %lld input channels: the last 32-channel box of a group would read the next "
                 "group's channels (grouped fp32 and tf32 layers need Cin/groups a multiple of 32)", s->cin);
        return 1;
    }
    if (es == 2 && s->cin % 8 != 0) {
        snprintf(why, len, "TMA needs 16-byte pixel rows and the weights' 16-byte loads 16-byte runs: "
                 "Cin/groups = %lld is not a multiple of 8", s->cin);
        return 1;
    }
    if (es == 2 && ct_tc_ngroups(layer) > 1 && s->cin % T16GKT_CK != 0) {
        snprintf(why, len, "groups of %lld input channels: the last 64-channel box of a group would read the next "
                 "group's channels (grouped layers need Cin/groups a multiple of 64)", s->cin);
        return 1;
    }
    if (s->sx > 8 || s->sy > 8) {
        snprintf(why, len, "a stride of %lldx%lld: a TMA element stride is at most 8", s->sy, s->sx);
        return 1;
    }
    if (khw > CT_TC16GKT_MAX_TAPS) {
        snprintf(why, len, "%lld taps: a transpose item holds 8 channels of all taps in registers (at most %d)",
                 khw, CT_TC16GKT_MAX_TAPS);
        return 1;
    }
    if (cin_all * s->w * s->h * s->b * es >= (1LL << 40) || s->h + s->ph + s->oh * s->sy >= (1LL << 31) ||
        s->w + s->pw + s->ow * s->sx >= (1LL << 31)) {
        snprintf(why, len, "the input exceeds what a tensor map addresses (strides under 2^40 bytes, 32-bit "
                 "coordinates)");
        return 1;
    }
    return 0;
}

/* The share of the tensor-core work that is useful: the tile's fit, the
 * output channel tiles, the last chunk's padding. */
static double useful(const ct_tc_shape *s, const ct_tc16gkt_geom *g)
{
    const double pix = (double)(s->oh * s->ow) / (double)(ct_cdiv(s->oh, g->toh) * g->toh * ct_cdiv(s->ow, g->tow) *
                                                         g->tow);
    const double chan = (double)s->cout / (double)ct_rup(s->cout, g->bm);
    const double red = (double)s->cin / (double)(g->nch * g->ck);
    return pix * chan * red;
}

int ct_tc16gkt_constrain(const ct_template *t, const ct_tc_shape *layer, const ct_params *c, const ct_limits *lim,
                         char *why, size_t len)
{
    (void)t;
    if (lim->cc_major != 9 || lim->cc_minor != 0) {
        snprintf(why, len, "wgmma and setmaxnreg are sm_90a instructions: compute capability 9.0 only (here %d.%d)",
                 lim->cc_major, lim->cc_minor);
        return 1;
    }
    const ct_tc_shape one = ct_tc_per_group(layer), *s = &one;
    if (ct_tc_depthwise_refused(s, why, len))
        return 1;
    ct_tc16gkt_geom g;
    ct_tc16gkt_geometry_of(layer, c, &g);
    if (shape_refused(layer, s, s->kh * s->kw, why, len))
        return 1;
    if (g.wg_m < 1 || g.wg_m > 2 || g.wg_n < 1 || g.wg_n > 2 || g.toh < 1 || g.tow < 1 || g.stages < 2 ||
        g.stages > 8 ||
        (g.setmaxnreg != 0 && g.setmaxnreg != 1) || g.abufs < 1 || g.abufs > 2 || g.rows < 0 || g.rows > 1 ||
        g.minb < 1 || g.minb > 2 || g.split < 1 || g.split > CT_TC16GKT_MAX_SPLIT || g.wpre < 0 || g.wpre > 2) {
        snprintf(why, len, "WG_M, WG_N, A_BUFS and MIN_BLOCKS 1 or 2, tiles >= 1, STAGES 2 to 8, SETMAXNREG, "
                 "ROWS 0 or 1, WPRE 0 to 2, SPLIT_K 1 to %d", CT_TC16GKT_MAX_SPLIT);
        return 1;
    }
    if (g.wpre && g.images == 2) {
        snprintf(why, len, "WPRE=%lld lays the weights out as one image; fp32's 3xTF32 reads two (the big and the "
                 "small parts): WPRE=0 only", g.wpre);
        return 1;
    }
    if (g.nc > 2) {
        snprintf(why, len, "WG_M x WG_N = %lld consumer warpgroups: 2 at most", g.nc);
        return 1;
    }
    if (g.n % (8 * g.wg_n) != 0 || g.nw > 256) {
        snprintf(why, len, "a %lldx%lld tile over %lld warpgroups is %lld pixels each: a wgmma's N is a multiple of 8 "
                 "up to 256", g.toh, g.tow, g.wg_n, g.n / g.wg_n);
        return 1;
    }
    if (g.nw < 64 && s->oh * s->ow >= 64) {
        snprintf(why, len, "%lld pixels a warpgroup: a wgmma of N under 64 spends its time reading the weights (the "
                 "image has %lld pixels)", g.nw, s->oh * s->ow);
        return 1;
    }
    if (g.rows && (g.tow % 8 != 0 || s->dy % s->sy != 0)) {
        snprintf(why, len, "ROWS=1 needs TILE_OW a multiple of 8 (each tap's rows 1024-aligned) and the dilation "
                 "down (%lld) a multiple of the stride (%lld)", s->dy, s->sy);
        return 1;
    }
    if (g.tow * s->sx > 256 || g.boxh * s->sy > 256) {
        snprintf(why, len, "a TMA box traverses at most 256 elements a dimension (TILE_OW x stride %lld, %lld rows "
                 "x stride %lld)", g.tow * s->sx, g.boxh, g.boxh * s->sy);
        return 1;
    }
    /* A tile past the output computes zeros the epilogue drops (8x8 tiles
     * of a 7x7 output keep N a multiple of 8); 8 rows or columns past it
     * are a whole wasted step. */
    if (g.toh >= s->oh + 8 || g.tow >= s->ow + 8) {
        snprintf(why, len, "a %lldx%lld tile exceeds the %lldx%lld output by 8 or more", g.toh, g.tow, s->oh,
                 s->ow);
        return 1;
    }
    if (g.minb == 2 && g.setmaxnreg) {
        snprintf(why, len, "SETMAXNREG with MIN_BLOCKS 1 only (it moves registers within one block's share)");
        return 1;
    }
    if (g.minb == 2 && 2 * (g.smem_bytes + 1024) > lim->max_smem_per_sm) {
        snprintf(why, len, "two blocks of %lld bytes of shared memory exceed the SM's %d", g.smem_bytes,
                 lim->max_smem_per_sm);
        return 1;
    }
    if (g.setmaxnreg && g.nc != 2) {
        snprintf(why, len, "SETMAXNREG with two consumer warpgroups only: one has 255 registers already");
        return 1;
    }
    if (g.wg_m > 1 && g.bm >= 2 * ct_rup(s->cout, 64)) {
        snprintf(why, len, "WG_M=%lld covers twice the %lld output channels", g.wg_m, s->cout);
        return 1;
    }
    if (g.stages > g.nkb && g.stages > 2) {
        snprintf(why, len, "STAGES=%lld exceeds the %lld k-blocks (chunks x taps)", g.stages, g.nkb);
        return 1;
    }
    /* A split pays a workspace round trip and a second launch; each slice
     * must still fill its pipeline: at least STAGES k-blocks, and 3. */
    if (g.split > g.nch) {
        snprintf(why, len, "SPLIT_K=%lld exceeds the %lld channel chunks", g.split, g.nch);
        return 1;
    }
    if (g.split > 1 && (g.slice_nkb < g.stages || g.slice_nkb < T16GKT_MIN_SLICE)) {
        snprintf(why, len, "SPLIT_K=%lld leaves a slice %lld k-blocks (chunks x %lld): fewer than STAGES=%lld or %d",
                 g.split, g.slice_nkb, g.kpc, g.stages, T16GKT_MIN_SLICE);
        return 1;
    }
    const double eff = useful(s, &g);
    if (eff < 0.6 && (double)s->b * (double)s->oh * (double)s->ow >= 4096.0 && s->cout >= 32) {
        snprintf(why, len, "only %.0f%% of the tensor-core work is useful", 100 * eff);
        return 1;
    }
    if (g.smem_bytes > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of shared memory (A %lld x %lld, %lld stages of %lld%s) exceed the device's %d",
                 g.smem_bytes, g.sa, g.sa ? g.abufs : 0, g.stages, g.sb + g.sak,
                 g.images == 2 ? ", each twice for 3xTF32" : "", lim->max_smem_per_block);
        return 1;
    }
    if (g.abufs == 1 && g.nch > 1 && g.smem_bytes + g.images * g.sa <= lim->max_smem_per_block) {
        snprintf(why, len, "A_BUFS=1 where two A buffers fit (%lld bytes): one drains the pipeline every chunk",
                 g.smem_bytes + g.images * g.sa);
        return 1;
    }
    /* Split-K is for grids that leave SMs idle: four waves of blocks or
     * more leave little idle time, and a split would add its workspace
     * traffic and second launch to that. */
    if (g.split > 1 && lim->sm_count > 0 && g.grid_x * g.grid_y >= 4LL * lim->sm_count * g.minb) {
        snprintf(why, len, "SPLIT_K=%lld of a grid of %lld blocks, four waves on %d SMs already", g.split,
                 g.grid_x * g.grid_y, lim->sm_count);
        return 1;
    }
    if (g.grid_x > 2147483647LL || g.grid_y > 65535 || g.grid_z > 65535) {
        snprintf(why, len, "the grid exceeds the device's limits");
        return 1;
    }
    /* A consumer's registers: with setmaxnreg its share of what the
     * producer gives up (all but 40 when it only issues copies), else the
     * launch's cap. */
    const long long cap = TGKT_REGCAP(g.nt, g.minb);
    const long long prod = g.wpre ? TGKT_WP_PROD_REGS : TGKT_PROD_REGS(g.khw);
    const long long have = g.setmaxnreg ? TGKT_CONS_REGS(cap, g.nc, prod) : cap;
    if (g.regs > have) {
        snprintf(why, len, "about %lld registers a consumer thread exceed the %lld it gets (%lld threads)", g.regs,
                 have, g.nt);
        return 1;
    }
    return 0;
}

void ct_tc16gkt_normalize(const ct_template *t, const ct_tc_shape *layer, ct_params *c)
{
    (void)t;
    t16gkt_values q = t16gkt_get(c);
    /* A 1D layer (conv1dc's, a 2D one of one output row): rows of one. */
    if (layer->oh == 1 && layer->kh == 1)
        q.TILE_OH = 1;
    if (q.WG_M * q.WG_N != 2)
        q.SETMAXNREG = 0;
    /* One chunk needs one weight buffer (its drain is the end); WPRE=2 has
     * none (its stages hold the weights), and A_BUFS=2 keeps it from
     * draining at every chunk. */
    if (ct_cdiv(ct_tc_per_group(layer).cin, ct_chunk(layer)) == 1)
        q.A_BUFS = 1;
    else if (q.WPRE == 2)
        q.A_BUFS = 2;
    /* fp32's 3xTF32 reads two images of the weights and the prep writes
     * one: WPRE is 0 there (the constraints say why for a record that
     * names it), which keeps fp32's space as it was. */
    if (ct_images(layer) == 2)
        q.WPRE = 0;
    /* One filter row: a column is one tap. */
    if (layer->kh == 1)
        q.ROWS = 0;
    /* A split's time is its largest slice, ceil(NCH / SPLIT_K) chunks: the
     * fewest slices of that size (one chunk: no split). */
    const long nch = (long)ct_cdiv(ct_tc_per_group(layer).cin, ct_chunk(layer));
    if (q.SPLIT_K > nch)
        q.SPLIT_K = nch;
    if (q.SPLIT_K > 1)
        q.SPLIT_K = (nch + (nch + q.SPLIT_K - 1) / q.SPLIT_K - 1) / ((nch + q.SPLIT_K - 1) / q.SPLIT_K);
    t16gkt_put(c, &q);
}

void ct_tc16gkt_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    (void)t;
    ct_tc16gkt_geom g;
    ct_tc16gkt_geometry_of(s, c, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.grid_x;
    l->grid[1] = (unsigned)g.grid_y;
    l->grid[2] = (unsigned)g.grid_z;
    l->block[0] = (unsigned)g.nt;
    l->block[1] = l->block[2] = 1;
    l->smem_bytes = (unsigned)g.smem_bytes;
}

long long ct_tc16gkt_prep(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    (void)t;
    ct_tc16gkt_geom g;
    ct_tc16gkt_geometry_of(s, c, &g);
    memset(l, 0, sizeof *l);
    if (!g.wpre)
        return 0;
    l->grid[0] = (unsigned)(g.wp_units / ct_tc_ngroups(s) * TGKT_WP_BLOCKS(g.bm));
    l->grid[1] = (unsigned)ct_tc_ngroups(s);
    l->grid[2] = 1;
    l->block[0] = TGKT_WP_THREADS;
    l->block[1] = l->block[2] = 1;
    return g.wp_bytes;
}

int ct_tc16gkt_tensor_maps(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_tmap_desc *out)
{
    (void)t;
    /* A tf32 layer's tensor is fp32 (the TMA copies it raw; the kernel rounds). */
    const int dt = s->p ? (int)ct_problem_dtype(s->p) : CT_DTYPE_BF16;
    ct_tc16gkt_input_map(s, c, dt == CT_DTYPE_TF32 ? CT_DTYPE_F32 : dt, &out[0]);
    return 1;
}

/* ---- the executor: one launch (SPLIT_K 1, the kernel on every buffer and
 * the tensor map, as a single-kernel template), or the main kernel into a
 * workspace and the reduce adding the slices and the bias into the output;
 * the launches are ws_exec.c's, the export's host code is this file's. ---- */

static unsigned reduce_grid(long long count)
{
    long long items = count % 4 == 0 ? count / 4 : count;
    return (unsigned)ct_cdiv(items, 256);
}

/* WPRE=1: <TC_NAME>_wprep turns the weights (buffer 1) into the A images
 * the main kernel reads in their place. */
static const ct_ws_prep wprep = {.suffix = "_wprep", .src = 1};

static const ct_ws_exec split_ws = {.exec = &ct_tc16gkt_exec, .split_axis = 2, .always = 0, .bias = 1,
                                    .reduce_grid = reduce_grid, .what = "split-K workspace", .tmaps = 1,
                                    .direct = 1, .prep = &wprep};

static ct_status split_setup(const ct_problem *p, const ct_params *c, const ct_drv *d, CUmodule mod,
                             const CUdeviceptr *bufs, void **out, ct_err *e)
{
    return ct_ws_setup(&split_ws, p, c, d, mod, bufs, out, e);
}

/* Host code of the export: the tensor map encoded at every call; with a
 * split the workspace made on the first call and kept (<sym>_release()
 * frees it), the main kernel into it and the reduce (by the template's
 * TC_CAT: a family export renames the main kernel by a macro per problem,
 * and the reduce's name is pasted from it); without, the one launch of a
 * single-kernel template. With WPRE the prep kernel first, at every call
 * (the weights may change between calls), into its own kept workspace,
 * which the main kernel then reads for the weights. */
static void split_emit(FILE *f, const ct_problem *p, const ct_params *c, const char *sym, const char *signature)
{
    const ct_template *t = ct_ws_template(p, &ct_tc16gkt_exec);
    ct_buffer b[CT_MAX_BUFS];
    const int nb = p->family->buffers(p, b);
    const long long count = (long long)ct_problem_output_count(p);
    const char *name = t ? t->name : "missing_template";
    const int split = t16gkt_get(c).SPLIT_K > 1;
    ct_launch pl;
    const long long pbytes = t && p->family->prep ? p->family->prep(p, t, c, &pl) : 0;
    const char *in_cast = ct_dtype_is_half(ct_problem_dtype(p)) ? "(const ct_elem *)" : "";
    const char *out_cast = ct_dtype_is_half(ct_problem_dtype(p)) ? "(ct_elem *)" : "";
    fprintf(f, "#include <cuda.h>\n");
    if (split || pbytes > 0) {
        fprintf(f, "// Workspaces, made on the first call (not thread-safe: call once from one\n"
                   "// thread first, or guard the first call).\n");
        if (split)
            fprintf(f, "static float *ct_ws;   // the split-K slices\n");
        if (pbytes > 0)
            fprintf(f, "static void *ct_wp;    // the weights as the kernel's A buffer images, every call\n");
        fprintf(f, "\nextern \"C\" void %s_release(void)\n{\n", sym);
        if (split)
            fprintf(f, "    cudaFree(ct_ws);\n    ct_ws = 0;\n");
        if (pbytes > 0)
            fprintf(f, "    cudaFree(ct_wp);\n    ct_wp = 0;\n");
        fprintf(f, "}\n\n");
    } else {
        fprintf(f, "// Nothing is kept between calls.\nextern \"C\" void %s_release(void)\n{\n}\n\n", sym);
    }
    fprintf(f, "extern \"C\" %s\n{\n", signature);
    const int ntm = t ? ct_export_emit_tensor_maps(f, p, t, c) : 0;
    if (split)
        fprintf(f, "    if (!ct_ws) {\n"
                   "        cudaError_t err = cudaMalloc((void **)&ct_ws, (size_t)CT_GRID_Z * %lldULL * sizeof(float));\n"
                   "        if (err != cudaSuccess)\n            return (int)err;\n    }\n",
                count);
    if (pbytes > 0)
        fprintf(f, "    if (!ct_wp) {\n        cudaError_t err = cudaMalloc(&ct_wp, %lldULL);\n"
                   "        if (err != cudaSuccess)\n            return (int)err;\n    }\n"
                   "    TC_CAT(%s, _wprep)<<<dim3(%u, %u), %u, 0, stream>>>(%s%s, (ct_elem *)ct_wp);\n",
                pbytes, name, pl.grid[0], pl.grid[1], pl.block[0], in_cast, b[1].name);
    ct_export_emit_smem_optin(f, name);
    fprintf(f, "    %s<<<dim3(CT_GRID_X, CT_GRID_Y, CT_GRID_Z), CT_BLOCK_X, CT_SMEM_BYTES, stream>>>(%s%s, ", name,
            in_cast, b[0].name);
    if (pbytes > 0)
        fprintf(f, "(const ct_elem *)ct_wp, ");
    else
        fprintf(f, "%s%s, ", in_cast, b[1].name);
    if (split)
        fprintf(f, "ct_ws");
    else if (nb == 4)
        fprintf(f, "%s%s, %s%s", in_cast, b[2].name, out_cast, b[nb - 1].name);
    else
        fprintf(f, "%s%s", out_cast, b[nb - 1].name);
    for (int i = 0; i < ntm; i++)
        fprintf(f, ", ct_tmaps[%d]", i);
    fprintf(f, ");\n");
    if (split)
        fprintf(f, "    TC_CAT(%s, _reduce)<<<%u, 256, 0, stream>>>(ct_ws, %s%s%s%s%s);\n", name,
                reduce_grid(count), nb == 4 ? in_cast : "", nb == 4 ? b[2].name : "", nb == 4 ? ", " : "", out_cast,
                b[nb - 1].name);
    fprintf(f, "    return (int)cudaGetLastError();\n}\n");
}

const ct_executor ct_tc16gkt_exec = {
    .library = "CUDA runtime",
    .link_flags = "",
    .setup = split_setup,
    .run = ct_ws_run,
    .teardown = ct_ws_teardown,
    .resources = ct_ws_resources,
    .emit_launcher = split_emit,
    .calls = ct_ws_calls,
};

const ct_kernel_kind ct_kind_tc16gktcl = {.name = "tc16gktcl", .layouts = CT_LAYOUT_CL_ONLY, .any_layer = 1,
                                          .wgmma = 1, .constrain = ct_tc16gkt_constrain,
                                          .normalize = ct_tc16gkt_normalize, .launch = ct_tc16gkt_launch,
                                          .tensor_maps = ct_tc16gkt_tensor_maps, .prep = ct_tc16gkt_prep};
