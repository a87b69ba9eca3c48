/* family_conv2d.c - 2D cross-correlation of a batch of single-channel images
 * with one filter (seed 004).
 *
 *   out[b][y][x] = sum_{i<KH, j<KW} in[b][y + i - PH][x + j - PW] * f[i][j],
 *   in = 0 outside the H x W image
 *
 * Modes: valid (PH = PW = 0, (H-KH+1) x (W-KW+1) outputs) and same (PyTorch's
 * padding='same': PH = (KH-1)/2, PW = (KW-1)/2, H x W outputs). */
#include "problem.h"
#include "family_export.h"
#include "conv2d_tiled_sizes.cuh"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CT_FAMILY_CODE

enum { MODE_VALID = 0, MODE_SAME = 1 };
static const char *const mode_names[] = {"valid", "same"};

enum { DIM_B, DIM_H, DIM_W, DIM_KH, DIM_KW, DIM_MODE, DIM_DTYPE, NFIELDS };
static const ct_field fields[NFIELDS] = {
    [DIM_B] = {"B", CT_FIELD_SIZE, "batch"},
    [DIM_H] = {"H", CT_FIELD_SIZE, "image height"},
    [DIM_W] = {"W", CT_FIELD_SIZE, "image width"},
    [DIM_KH] = {"KH", CT_FIELD_SIZE, "filter height"},
    [DIM_KW] = {"KW", CT_FIELD_SIZE, "filter width"},
    [DIM_MODE] = {"mode", CT_FIELD_CHOICE,
                  "valid: (H-KH+1) x (W-KW+1) outputs (default); same: H x W outputs, (K-1)/2 zeros "
                  "before and the rest after, as PyTorch's padding='same'",
                  mode_names, 2},
    [DIM_DTYPE] = CT_DTYPE_FIELD,
};

/* Kernels index every buffer with int: no buffer may reach 2^31 elements. */
#define MAX_ELEMS 2147483647LL
/* The batch is the grid's z dimension. */
#define MAX_BATCH 65535LL
#define MAX_GRID_Y 65535LL

/* Fully unrolled multiply-adds per thread and filter-row group of the tiled
 * template (OUT_X * OUT_Y * KW * rows): past this the kernel outgrows the
 * instruction cache and NVRTC takes seconds per candidate. */
#define MAX_UNROLLED_FMAS 4096
/* Registers a tiled thread may plausibly keep live (accumulators, one window
 * row, addresses) without spilling. */
#define MAX_LIVE_REGS 200
/* Registers a tiled thread needs beyond accumulators and the window. */
#define REG_OVERHEAD 24
#define STATIC_SMEM_MAX (48 * 1024)

static long long pad_h(const ct_problem *p)
{
    return p->dims[DIM_MODE] == MODE_SAME ? (p->dims[DIM_KH] - 1) / 2 : 0;
}

static long long pad_w(const ct_problem *p)
{
    return p->dims[DIM_MODE] == MODE_SAME ? (p->dims[DIM_KW] - 1) / 2 : 0;
}

static long long out_h(const ct_problem *p)
{
    return p->dims[DIM_MODE] == MODE_VALID ? p->dims[DIM_H] - p->dims[DIM_KH] + 1 : p->dims[DIM_H];
}

static long long out_w(const ct_problem *p)
{
    return p->dims[DIM_MODE] == MODE_VALID ? p->dims[DIM_W] - p->dims[DIM_KW] + 1 : p->dims[DIM_W];
}

/* a * b <= limit, for positive a and b, without overflowing. */
static int product_fits(long long a, long long b, long long limit)
{
    return a <= limit / b;
}

static ct_status parse(const char *text, ct_problem *p, ct_err *e)
{
    char buf[128], *f[6];
    int n = ct_split_fields(text, buf, sizeof buf, f, 6, e);
    if (n < 0)
        return CT_ERR_USAGE;
    if (n < 5)
        return ct_fail(e, CT_ERR_USAGE, "missing field %s (%s)", fields[n].name, fields[n].help);
    for (int i = DIM_B; i <= DIM_KW; i++) {
        ct_status rc = ct_parse_field_size(&fields[i], f[i], i == DIM_B ? MAX_BATCH : MAX_ELEMS, &p->dims[i], e);
        if (rc != CT_OK)
            return rc;
    }
    p->dims[DIM_MODE] = MODE_VALID;
    if (n == 6) {
        int m = ct_field_choice(&fields[DIM_MODE], f[5]);
        if (m < 0)
            return ct_fail(e, CT_ERR_USAGE, "MODE must be valid or same, got '%s'", f[5]);
        p->dims[DIM_MODE] = m;
    }
    const long long b = p->dims[DIM_B], h = p->dims[DIM_H], w = p->dims[DIM_W];
    const long long kh = p->dims[DIM_KH], kw = p->dims[DIM_KW];
    if (p->dims[DIM_MODE] == MODE_VALID && kh > h)
        return ct_fail(e, CT_ERR_USAGE, "KH (filter height) = %lld is larger than H (image height) = %lld in valid mode",
                       kh, h);
    if (p->dims[DIM_MODE] == MODE_VALID && kw > w)
        return ct_fail(e, CT_ERR_USAGE, "KW (filter width) = %lld is larger than W (image width) = %lld in valid mode",
                       kw, w);
    /* The output is never larger than the input, so the input bounds both. */
    if (!product_fits(h, w, MAX_ELEMS) || !product_fits(b, h * w, MAX_ELEMS))
        return ct_fail(e, CT_ERR_USAGE,
                       "B x H x W = %lld x %lld x %lld input elements reach 2^31; kernels index with int, "
                       "so every buffer must stay below 2^31 elements", b, h, w);
    if (!product_fits(kh, kw, MAX_ELEMS))
        return ct_fail(e, CT_ERR_USAGE,
                       "KH x KW = %lld x %lld filter taps reach 2^31; kernels index with int, "
                       "so every buffer must stay below 2^31 elements", kh, kw);
    return CT_OK;
}

static void canonical(const ct_problem *p, char *buf, size_t len)
{
    snprintf(buf, len, "conv2d:%lld:%lld:%lld:%lld:%lld:%s", p->dims[DIM_B], p->dims[DIM_H],
             p->dims[DIM_W], p->dims[DIM_KH], p->dims[DIM_KW], mode_names[p->dims[DIM_MODE]]);
}

static double outputs_of(const ct_problem *p)
{
    return (double)p->dims[DIM_B] * (double)out_h(p) * (double)out_w(p);
}

static double flops(const ct_problem *p)
{
    /* Taps that fall on padding still cost an FMA in every direct kernel. */
    return 2.0 * outputs_of(p) * (double)p->dims[DIM_KH] * (double)p->dims[DIM_KW];
}

static double bytes(const ct_problem *p)
{
    double in = (double)p->dims[DIM_B] * (double)p->dims[DIM_H] * (double)p->dims[DIM_W];
    const double esz = (double)ct_dtype_size(ct_problem_dtype(p));
    return esz * (in + (double)p->dims[DIM_KH] * (double)p->dims[DIM_KW] + outputs_of(p));
}

static int buffers(const ct_problem *p, ct_buffer *b)
{
    b[0] = (ct_buffer){.name = "in",
                       .count = (size_t)(p->dims[DIM_B] * p->dims[DIM_H] * p->dims[DIM_W])};
    b[1] = (ct_buffer){.name = "filter", .count = (size_t)(p->dims[DIM_KH] * p->dims[DIM_KW]),
                       .symbol = "c_filter"};
    b[2] = (ct_buffer){.name = "out", .count = (size_t)(p->dims[DIM_B] * out_h(p) * out_w(p)),
                       .is_output = 1};
    return 3;
}

static int defines(const ct_problem *p, ct_define *d)
{
    d[0] = (ct_define){"CONV_B", p->dims[DIM_B]};
    d[1] = (ct_define){"CONV_H", p->dims[DIM_H]};
    d[2] = (ct_define){"CONV_W", p->dims[DIM_W]};
    d[3] = (ct_define){"CONV_KH", p->dims[DIM_KH]};
    d[4] = (ct_define){"CONV_KW", p->dims[DIM_KW]};
    d[5] = (ct_define){"CONV_OH", out_h(p)};
    d[6] = (ct_define){"CONV_OW", out_w(p)};
    d[7] = (ct_define){"CONV_PH", pad_h(p)};
    d[8] = (ct_define){"CONV_PW", pad_w(p)};
    return 9;
}

static void reference(const ct_problem *p, const float *const *in, double *out)
{
    const long long nb = p->dims[DIM_B], h = p->dims[DIM_H], w = p->dims[DIM_W];
    const long long kh = p->dims[DIM_KH], kw = p->dims[DIM_KW];
    const long long ph = pad_h(p), pw = pad_w(p), oh = out_h(p), ow = out_w(p);
    for (long long b = 0; b < nb; b++) {
        const float *img = in[0] + b * h * w;
        for (long long y = 0; y < oh; y++) {
            /* Only the filter rows and columns that land inside the image. */
            long long i0 = ph - y > 0 ? ph - y : 0;
            long long i1 = h + ph - y < kh ? h + ph - y : kh;
            for (long long x = 0; x < ow; x++) {
                long long j0 = pw - x > 0 ? pw - x : 0;
                long long j1 = w + pw - x < kw ? w + pw - x : kw;
                double acc = 0.0;
                for (long long i = i0; i < i1; i++) {
                    const float *row = img + (y + i - ph) * w;
                    const float *frow = in[1] + i * kw;
                    for (long long j = j0; j < j1; j++)
                        acc += (double)row[x + j - pw] * (double)frow[j];
                }
                out[(b * oh + y) * ow + x] = acc;
            }
        }
    }
}

/* The same reference, as C source for exported self-tests. */
static const char reference_c[] =
    "static void ct_reference(const float *const *in, double *out)\n"
    "{\n"
    "    for (long long b = 0; b < CONV_B; b++)\n"
    "        for (long long y = 0; y < CONV_OH; y++)\n"
    "            for (long long x = 0; x < CONV_OW; x++) {\n"
    "                double acc = 0.0;\n"
    "                for (long long i = 0; i < CONV_KH; i++) {\n"
    "                    long long yy = y + i - CONV_PH;\n"
    "                    if (yy < 0 || yy >= CONV_H)\n"
    "                        continue;\n"
    "                    for (long long j = 0; j < CONV_KW; j++) {\n"
    "                        long long xx = x + j - CONV_PW;\n"
    "                        if (xx >= 0 && xx < CONV_W)\n"
    "                            acc += (double)in[0][(b * CONV_H + yy) * CONV_W + xx] *\n"
    "                                   (double)in[1][i * CONV_KW + j];\n"
    "                    }\n"
    "                }\n"
    "                out[(b * CONV_OH + y) * CONV_OW + x] = acc;\n"
    "            }\n"
    "}\n";

static const char *const placement_names[] = {"constant", "shared"};

#define NAIVE_PARAMS(X)                                                  \
    X(BLOCK_X, 32, CT_THREADS(0), "threads per block along a row")       \
    X(BLOCK_Y, 8, CT_THREADS(0), "threads per block along a column")
CT_PARAM_LIST(naive, NAIVE_PARAMS)

#define TILED_PARAMS(X)                                                                                  \
    X(BLOCK_X, 32, CT_THREADS(0), "threads per block along a row")                                       \
    X(BLOCK_Y, 8, CT_THREADS(0), "threads per block along a column")                                     \
    X(OUT_X, 4, CT_INT(0), "consecutive outputs per thread along a row (register blocking)")             \
    X(OUT_Y, 4, CT_INT(0), "outputs per thread along a column (register blocking)")                      \
    X(FILTER_PLACEMENT, 0, CT_SYMBOLS(placement_names), "where the filter is read from")                 \
    X(KH_STEP, 64, CT_INT(0), "filter rows per unrolled group (KH: fully unrolled)")                     \
    X(VEC, 4, CT_INT(0), "floats per shared-memory load of the window (1, 2, 4)")                        \
    X(SMEM_PAD, 0, CT_INT(0), "floats of padding per row of the staged tile")                            \
    X(MIN_BLOCKS, 1, CT_INT(0), "minimum resident blocks per SM (__launch_bounds__)")
CT_PARAM_LIST(tiled, TILED_PARAMS)

static const ct_template templates[] = {
    {.name = "conv2d_naive", .summary = "one thread per output, all from global memory (baseline)",
     .is_baseline = 1, .dtypes = CT_DTYPES_ALL, .params = naive_params, .nparams = CT_PARAM_COUNT(NAIVE_PARAMS)},
    {.name = "conv2d_tiled",
     .summary = "shared-memory tile with halo, OUT_Y x OUT_X outputs per thread, sliding row windows",
     .params = tiled_params, .nparams = CT_PARAM_COUNT(TILED_PARAMS)},
    /* The half types' entry of the same kernel, its code the CT_DTYPE
     * branch of conv2d_tiled.cu (docs/PROBLEMS.md "Half precision"): same parameters
     * and constraints. */
    {.name = "conv2d_tiledh",
     .summary = "conv2d_tiled for bf16/f16: tile widened to float as it is staged, fp32 sums",
     .dtypes = CT_DTYPES_HALF, .params = tiled_params, .nparams = CT_PARAM_COUNT(TILED_PARAMS),
     .source = "conv2d_tiled"},
};

/* The tiled template's shapes: conv2d_tiled_sizes.cuh's expressions, which
 * conv2d_tiled.cu expands too (here over locals named as its macros). */
typedef struct tiled_shape {
    long bx, by, ox, oy, vec, pad, khs, minb, placement;
    long long nwin;      /* window registers per row, a multiple of VEC  */
    long long tile_w;    /* staged columns                               */
    long long tile_h;    /* staged rows                                  */
    long long smem;      /* static shared memory, bytes                  */
    long long unrolled;  /* FMAs in the unrolled groups (main and tail)  */
} tiled_shape;

static void tiled_shape_of(const ct_problem *p, const ct_params *c, tiled_shape *s)
{
    const long long kh = p->dims[DIM_KH], kw = p->dims[DIM_KW];
    const tiled_values q = tiled_get(c);
    s->bx = q.BLOCK_X;
    s->by = q.BLOCK_Y;
    s->ox = q.OUT_X;
    s->oy = q.OUT_Y;
    s->vec = q.VEC;
    s->pad = q.SMEM_PAD;
    s->khs = q.KH_STEP;
    s->minb = q.MIN_BLOCKS;
    s->placement = q.FILTER_PLACEMENT;
    const long long CONV_KH = kh, CONV_KW = kw, BLOCK_X = s->bx, BLOCK_Y = s->by, OUT_X = s->ox, OUT_Y = s->oy;
    const long long SMEM_PAD = s->pad, KH_STEP = s->khs;
    const long long VEC = s->vec > 0 ? s->vec : 1;   /* the constraints reject VEC < 1 after this */
    s->nwin = NWIN;
    s->tile_w = TILE_W;
    s->tile_h = TILE_H;
    /* s_in (TILE_W a multiple of VEC wherever the check is reached: OUT_X
     * is, checked first), 16 bytes for s_filter's alignment, s_filter. */
    s->smem = 4 * TILE_H * PITCH + 16;
    if (s->placement == 1)
        s->smem += 4 * CONV_KH * KW4;
    s->unrolled = OUT_X * OUT_Y * CONV_KW * (KHS + (KHS > 0 ? CONV_KH % KHS : 0));
}

static int check_block(const ct_problem *p, long bx, long by, long long tile_oh,
                       const ct_limits *lim, char *why, size_t len)
{
    long long threads = (long long)bx * by;
    if (bx < 1 || by < 1 || threads % 32 != 0 || threads > lim->max_threads_per_block) {
        snprintf(why, len, "BLOCK_X x BLOCK_Y = %ld x %ld is not a multiple of 32 threads within the device's %d",
                 bx, by, lim->max_threads_per_block);
        return 1;
    }
    if ((out_h(p) + tile_oh - 1) / tile_oh > MAX_GRID_Y) {
        snprintf(why, len, "%lld output rows need more than %lld blocks of %lld rows along the grid's y",
                 out_h(p), MAX_GRID_Y, tile_oh);
        return 1;
    }
    return 0;
}

static int constrain(const ct_problem *p, const ct_template *t, const ct_params *c,
                     const ct_limits *lim, char *why, size_t len)
{
    if (t->is_baseline) {
        const naive_values q = naive_get(c);
        return check_block(p, q.BLOCK_X, q.BLOCK_Y, q.BLOCK_Y, lim, why, len);
    }
    tiled_shape s;
    tiled_shape_of(p, c, &s);
    if (s.ox < 1 || s.oy < 1 || s.khs < 1 || s.minb < 1 || s.pad < 0 || s.placement < 0 || s.placement > 1) {
        snprintf(why, len, "OUT_X, OUT_Y, KH_STEP and MIN_BLOCKS must be positive, SMEM_PAD not negative");
        return 1;
    }
    if (check_block(p, s.bx, s.by, (long long)s.by * s.oy, lim, why, len))
        return 1;
    if (s.vec != 1 && s.vec != 2 && s.vec != 4) {
        snprintf(why, len, "VEC=%ld must be 1, 2 or 4", s.vec);
        return 1;
    }
    if (s.ox % s.vec != 0 || s.pad % s.vec != 0) {
        snprintf(why, len, "OUT_X=%ld and SMEM_PAD=%ld must be multiples of VEC=%ld for aligned window loads",
                 s.ox, s.pad, s.vec);
        return 1;
    }
    if (s.placement == 0 &&
        p->dims[DIM_KH] * p->dims[DIM_KW] * (long long)ct_dtype_size(ct_problem_dtype(p)) > lim->const_bytes) {
        snprintf(why, len, "a %lld x %lld filter does not fit in %d bytes of constant memory",
                 p->dims[DIM_KH], p->dims[DIM_KW], lim->const_bytes);
        return 1;
    }
    if (s.unrolled > MAX_UNROLLED_FMAS) {
        snprintf(why, len, "OUT_X x OUT_Y x KW x unrolled filter rows = %lld FMAs of straight-line code exceed %d",
                 s.unrolled, MAX_UNROLLED_FMAS);
        return 1;
    }
    long long regs = (long long)s.ox * s.oy + s.nwin + REG_OVERHEAD;
    if (regs > MAX_LIVE_REGS) {
        snprintf(why, len, "%ld x %ld accumulators and a %lld-float window need about %lld registers (at most %d)",
                 s.oy, s.ox, s.nwin, regs, MAX_LIVE_REGS);
        return 1;
    }
    long long threads = (long long)s.bx * s.by;
    if (regs * threads * s.minb > lim->regs_per_sm || threads * s.minb > 2048) {
        snprintf(why, len, "MIN_BLOCKS=%ld blocks of %lld threads at about %lld registers do not fit one SM",
                 s.minb, threads, regs);
        return 1;
    }
    /* The runner does not raise the dynamic shared-memory limit, so the
     * tile lives in static shared memory, which stops at 48 KiB. */
    if (s.smem > STATIC_SMEM_MAX || s.smem > lim->max_smem_per_block) {
        snprintf(why, len, "a %lld x %lld tile takes %lld bytes of static shared memory, over the 48 KiB limit",
                 s.tile_h, s.tile_w, s.smem);
        return 1;
    }
    if (s.smem * s.minb > lim->max_smem_per_sm) {
        snprintf(why, len, "MIN_BLOCKS=%ld blocks of %lld bytes of shared memory do not fit one SM",
                 s.minb, s.smem);
        return 1;
    }
    return 0;
}

static void normalize(const ct_problem *p, const ct_template *t, ct_params *c)
{
    if (t->is_baseline)
        return;
    tiled_values q = tiled_get(c);
    /* Any step of at least KH unrolls every filter row: one kernel. */
    if (q.KH_STEP > p->dims[DIM_KH])
        q.KH_STEP = (long)p->dims[DIM_KH];
    /* When a warp stages and reads within one tile row, row padding cannot
     * change its banks. */
    if (q.BLOCK_X % 32 == 0)
        q.SMEM_PAD = 0;
    tiled_put(c, &q);
}

static void geometry(const ct_problem *p, const ct_template *t, const ct_params *c, ct_launch *l)
{
    long bx, by;
    long long tw, th;
    if (t->is_baseline) {
        const naive_values q = naive_get(c);
        tw = bx = q.BLOCK_X;
        th = by = q.BLOCK_Y;
    } else {
        const tiled_values q = tiled_get(c);
        const long long BLOCK_X = q.BLOCK_X, BLOCK_Y = q.BLOCK_Y, OUT_X = q.OUT_X, OUT_Y = q.OUT_Y;
        bx = q.BLOCK_X;
        by = q.BLOCK_Y;
        tw = TILE_OW;
        th = TILE_OH;
    }
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)((out_w(p) + tw - 1) / tw);
    l->grid[1] = (unsigned)((out_h(p) + th - 1) / th);
    l->grid[2] = (unsigned)p->dims[DIM_B];
    l->block[0] = (unsigned)bx;
    l->block[1] = (unsigned)by;
    l->block[2] = 1;
}

/* The selector of `export --family conv2d` and its generic kernel. */
static const char *const sel_buffers[] = {"in", "filter", "out"};
static const ct_sel_arg sel_args[] = {
    {.name = "b", .kind = CT_SEL_SIZE, .help = "batch"},
    {.name = "h", .kind = CT_SEL_SIZE, .help = "image height"},
    {.name = "w", .kind = CT_SEL_SIZE, .help = "image width"},
    {.name = "kh", .kind = CT_SEL_SIZE, .help = "filter height"},
    {.name = "kw", .kind = CT_SEL_SIZE, .help = "filter width"},
    {.name = "mode", .kind = CT_SEL_KEY, .help = "valid or same", .choices = mode_names, .nchoices = 2},
};
static const char *const sel_shapes[] = {"b,h,w", "kh,kw"};

/* The selector's arguments are the fields, in field order (family_export.h). */
_Static_assert(sizeof sel_args / sizeof sel_args[0] == DIM_DTYPE, "one selector argument per field but the last");

static const ct_family_export family_export = {
    .generic = "conv2d_generic",
    .buffers = sel_buffers,
    .nbuffers = 3,
    .args = sel_args,
    .nargs = DIM_DTYPE,   /* the element type is no argument: a family export holds one */
    .shapes = sel_shapes,
    .out_shape = "(b, h - kh + 1, w - kw + 1) if mode == 0 else (b, h, w)",
};

const ct_family ct_family_conv2d = {
    .name = "conv2d",
    .grammar = "conv2d:B:H:W:KH:KW[:valid|same][:bf16|f16]",
    .summary = "2D cross-correlation of B single-channel H x W images with one KH x KW filter",
    .fields = fields,
    .nfields = NFIELDS,
    .parse = parse,
    .canonical = canonical,
    .flops = flops,
    .bytes = bytes,
    .buffers = buffers,
    .defines = defines,
    .reference = reference,
    .normalize = normalize,
    .templates = templates,
    .ntemplates = (int)(sizeof templates / sizeof templates[0]),
    .constrain = constrain,
    .geometry = geometry,
    .reference_c = reference_c,
    .family_export = &family_export,
};
