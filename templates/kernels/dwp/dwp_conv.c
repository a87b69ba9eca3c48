/* dwp_conv.c - parameters, sizes, constraints and geometry of the
 * persistent-warp depthwise 2D template conv2dc_dwp (dwp.conv2dc.cu.in
 * beside it) and of its bf16/f16 entry conv2dc_dwph; the derived sizes are
 * dwp_sizes.cuh's, which the template expands too. */
#include "dwp_conv.h"
#include "dw_conv.h"
#include "intmath.h"

#include <stdio.h>
#include <string.h>

/* After the headers: its macros have short names and no include guard. */
#include "dwp_sizes.cuh"

CT_FAMILY_CODE

#define DWP_PARAMS(X)                                                                                        \
    X(OUT_X, 8, CT_INT(0), "consecutive outputs of a row per lane (one register window per input row)")     \
    X(OUT_Y, 4, CT_INT(0), "consecutive output rows per lane (each window row feeds all of them)")          \
    X(WARPS, 4, CT_WARPS(0), "warps per block, each convolving its own planes")                             \
    X(PLANES, 1, CT_INT(0), "planes per warp in turn (more than 1: two buffers, the next plane copied "      \
                            "during the current one's FMAs)")                                                \
    X(VEC, 1, CT_INT(0), "4: 16-byte copies of the plane (W % 4 == 0), windows off alignment; "             \
                         "1: 4-byte copies, windows 16-byte aligned")
const ct_param_def ct_dwp_params[CT_DWP_NPARAMS] = CT_PARAM_TABLE(DWP_PARAMS);
CT_PARAM_VALUES(dwp, DWP_PARAMS, ct_dwp_params)
_Static_assert(CT_PARAM_COUNT(DWP_PARAMS) == CT_DWP_NPARAMS, "CT_DWP_NPARAMS is the list's length");

/* A bound on the FMAs unrolled in one input row's body (instruction cache,
 * NVRTC time). */
#define DWP_MAX_BODY 4096
#define DWP_MAX_GRID 2147483647LL

/* The template's derived sizes: dwp_sizes.cuh's macros, expanded over
 * locals named as the template's macros they read. */
typedef struct dwp_geom {
    long long planes, stages, niy, nix, items, lead, lv, nwl, sih, pitch, kwp, buf, smem, warps, blocks;
} dwp_geom;

static void dwp_geometry(const ct_tc_shape *s, const dwp_values *q, dwp_geom *g)
{
    memset(g, 0, sizeof *g);
    if (q->OUT_X < 1 || q->OUT_Y < 1 || q->WARPS < 1 || q->PLANES < 1)
        return;
    const long long CONV_B = s->b, CONV_CIN = s->cin, CONV_H = s->h, CONV_W = s->w, CONV_KH = s->kh,
                    CONV_KW = s->kw, CONV_OH = s->oh, CONV_OW = s->ow, CONV_PH = s->ph, CONV_PW = s->pw,
                    CONV_SH = s->sy, CONV_SW = s->sx, CONV_DH = s->dy, CONV_DW = s->dx;
    const long long OUT_X = q->OUT_X, OUT_Y = q->OUT_Y, PLANES = q->PLANES, VEC = q->VEC;
    g->planes = NPLANES;
    g->stages = STAGES;
    g->niy = NIY;
    g->nix = NIX;
    g->items = NITEMS;
    g->lead = LEAD;
    g->lv = LV;
    g->nwl = NWL;
    g->sih = SIH;
    g->pitch = PITCH;
    g->kwp = KWP;
    g->buf = BUF;
    /* Each of a block's WARPS warps has STAGES buffers of BUF floats; warp
     * w of block x takes planes (x WARPS + w) PLANES on. */
    g->smem = 4 * g->buf * g->stages * q->WARPS;
    g->warps = DW_CDIV(g->planes, PLANES);
    g->blocks = DW_CDIV(g->warps, (long long)q->WARPS);
}

/* Before sm_80 (no cp.async): checked before the layer, so that the reason
 * names the architecture on every layer. */
static int dwp_arch_excluded(const ct_limits *lim, char *why, size_t len)
{
    if (lim->cc_major >= 8)
        return 0;
    snprintf(why, len, "cp.async (the plane copies) needs sm_80 or later");
    return 1;
}

static int dwp_constrain(const ct_tc_shape *s, const ct_params *c, const ct_limits *lim, char *why, size_t len)
{
    const dwp_values q = dwp_get(c);
    if (q.OUT_X < 1 || q.OUT_X > 16 || q.OUT_Y < 1 || q.OUT_Y > 16 || q.WARPS < 1 || q.PLANES < 1 ||
        (q.VEC != 1 && q.VEC != 4)) {
        snprintf(why, len, "OUT_X and OUT_Y in 1..16, WARPS and PLANES >= 1, VEC 1 or 4");
        return 1;
    }
    if (q.VEC == 4 && s->w % 4 != 0) {
        snprintf(why, len, "VEC=4 copies whole 16-byte rows: W = %lld is not a multiple of 4", s->w);
        return 1;
    }
    dwp_geom g;
    dwp_geometry(s, &q, &g);
    if (32 * q.WARPS > lim->max_threads_per_block) {
        snprintf(why, len, "%ld warps exceed the device's %d threads", q.WARPS, lim->max_threads_per_block);
        return 1;
    }
    if (g.smem > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of staged planes and filters (%lld warps x %lld buffers) exceed the "
                 "device's %d of shared memory", g.smem, (long long)q.WARPS, g.stages, lim->max_smem_per_block);
        return 1;
    }
    /* Outputs past the plane (items rounded up to OUT_Y x OUT_X) and lanes
     * idle in a warp's last pass over the items: more than 15% of the FMAs
     * thrown away loses to another item shape on planes big enough to have
     * a choice (OUT_X = OUT_Y = 1 always has one). */
    const double useful = (double)s->oh * (double)s->ow;
    const double eff = useful / ((double)ct_rup(g.items, 32) * (double)(q.OUT_X * q.OUT_Y));
    if (eff < 0.85 && useful >= 1024) {
        snprintf(why, len, "only %.0f%% of the FMAs computed are outputs (item padding, idle lanes)", 100.0 * eff);
        return 1;
    }
    /* Under 8 outputs per lane each input row's window feeds too few FMAs
     * (shared loads and loop overhead take the issue slots); on planes big
     * enough for 32 items of 8 a larger item does the same work. */
    if (q.OUT_X * q.OUT_Y < 8 && useful >= 1024) {
        snprintf(why, len, "OUT_X x OUT_Y = %ld outputs per lane: fewer than 8 on a plane of %.0f", q.OUT_X * q.OUT_Y,
                 useful);
        return 1;
    }
    if (q.OUT_Y * q.OUT_X * s->kw > DWP_MAX_BODY) {
        snprintf(why, len, "OUT_Y x OUT_X x KW = %lld unrolled FMAs exceed %d", q.OUT_Y * q.OUT_X * s->kw,
                 DWP_MAX_BODY);
        return 1;
    }
    /* Accumulators, one window, four taps (KWP where the loop unrolls whole
     * and the compiler hoists them) and about 24 for addresses. */
    const long long taps = s->kh * s->kw * q.OUT_Y * q.OUT_X <= 2048 ? g.kwp : 4;
    if (ct_regs_exceed(lim, q.OUT_X * q.OUT_Y + g.nwl + taps + 24, 32 * q.WARPS, 1, why, len))
        return 1;
    if (g.blocks > DWP_MAX_GRID) {
        snprintf(why, len, "%lld blocks exceed the grid limit", g.blocks);
        return 1;
    }
    return 0;
}

/* conv2dc_dwph stages with ordinary loads: no cp.async, any architecture;
 * the architecture before the layer, so that the reason names it on every
 * layer. */
int ct_dwp_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                     char *why, size_t len)
{
    if (t->kind->cp_async && dwp_arch_excluded(lim, why, len))
        return 1;
    if (ct_dw_layer_excluded(t, s, why, len))
        return 1;
    return dwp_constrain(s, c, lim, why, len);
}

void ct_dwp_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    (void)t;
    dwp_values q = dwp_get(c);
    if (q.OUT_X < 1 || q.OUT_Y < 1 || q.WARPS < 1 || q.PLANES < 1)
        return;
    if (q.OUT_Y > s->oh)
        q.OUT_Y = (long)s->oh;
    if (q.OUT_X > s->ow)
        q.OUT_X = (long)s->ow;
    /* More planes per warp than the layer has: one warp does them all. */
    if (q.PLANES > s->b * s->cin)
        q.PLANES = (long)(s->b * s->cin);
    const long long warps = ct_cdiv(s->b * s->cin, q.PLANES);
    if (q.WARPS > warps)
        q.WARPS = (long)warps;
    dwp_put(c, &q);
}

void ct_dwp_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    (void)t;
    const dwp_values q = dwp_get(c);
    dwp_geom g;
    dwp_geometry(s, &q, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.blocks;
    l->block[0] = (unsigned)(32 * q.WARPS);
    l->smem_bytes = (unsigned)g.smem;
    l->grid[1] = l->grid[2] = 1;
    l->block[1] = l->block[2] = 1;
}

#define DWP_KIND .layouts = CT_LAYOUT_DEFAULT_ONLY, .any_layer = 1, .constrain = ct_dwp_constrain, \
                 .normalize = ct_dwp_normalize, .launch = ct_dwp_launch
const ct_kernel_kind ct_kind_dwp = {.name = "dwp", .cp_async = 1, DWP_KIND};
const ct_kernel_kind ct_kind_dwph = {.name = "dwph", DWP_KIND};
