/* family_conv2dc.c - multi-channel 2D convolution of a batch of images, as a
 * CNN layer computes it (PyTorch Conv2d: NCHW input, OIHW weights):
 *
 *   out[b][co][y][x] = bias[co] + sum_{ci<Cin, i<KH, j<KW}
 *                      in[b][ci][y + i - PH][x + j - PW] * w[co][ci][i][j]
 *
 * with the input taken as zero outside the image. Modes: valid (PH = PW = 0,
 * (H-KH+1) x (W-KW+1) outputs) and same (PH = (KH-1)/2, PW = (KW-1)/2, H x W
 * outputs, PyTorch's padding='same'). Seed 003 (a Fashion-MNIST CNN) is the
 * origin: a batch of small images, few channels, so every output channel of a
 * pixel can be accumulated in one thread. */
#include "problem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MODE_VALID = 0, MODE_SAME = 1 };
static const char *const mode_names[] = {"valid", "same"};

enum { DIM_B, DIM_CIN, DIM_H, DIM_W, DIM_COUT, DIM_KH, DIM_KW, DIM_BIAS };

/* Every buffer stays below 2^31 elements so that kernels index with int. */
#define MAX_ELEMS 2147483647LL

static const char *const field_names[] = {
    "B (batch)", "Cin (input channels)", "H (image height)", "W (image width)",
    "Cout (output channels)", "KH (filter height)", "KW (filter width)",
};

static long long pad_h(const ct_problem *p)
{
    return p->mode == MODE_SAME ? (p->dims[DIM_KH] - 1) / 2 : 0;
}

static long long pad_w(const ct_problem *p)
{
    return p->mode == MODE_SAME ? (p->dims[DIM_KW] - 1) / 2 : 0;
}

static long long out_h(const ct_problem *p)
{
    return p->mode == MODE_SAME ? p->dims[DIM_H] : p->dims[DIM_H] - p->dims[DIM_KH] + 1;
}

static long long out_w(const ct_problem *p)
{
    return p->mode == MODE_SAME ? p->dims[DIM_W] : p->dims[DIM_W] - p->dims[DIM_KW] + 1;
}

/* Product of four sizes, or -1 past MAX_ELEMS (each factor is already at
 * most MAX_ELEMS, so the division test cannot overflow). */
static long long elems4(long long a, long long b, long long c, long long d)
{
    const long long f[4] = {a, b, c, d};
    long long v = 1;
    for (int i = 0; i < 4; i++) {
        if (v > MAX_ELEMS / f[i])
            return -1;
        v *= f[i];
    }
    return v;
}

static ct_status parse(const char *fields, ct_problem *p, ct_err *e)
{
    char buf[160];
    if (strlen(fields) >= sizeof buf)
        return ct_fail(e, CT_ERR_USAGE, "too long");
    strcpy(buf, fields);
    char *f[9];
    int n = 0;
    char *s = buf;
    for (;;) {
        char *c = strchr(s, ':');
        if (n == 9)
            return ct_fail(e, CT_ERR_USAGE, "too many fields");
        f[n++] = s;
        if (!c)
            break;
        *c = '\0';
        s = c + 1;
    }
    for (int i = 0; i < 7; i++) {
        if (i >= n)
            return ct_fail(e, CT_ERR_USAGE, "missing field %s", field_names[i]);
        ct_status rc = ct_parse_size(f[i], field_names[i], MAX_ELEMS, &p->dims[i], e);
        if (rc != CT_OK)
            return rc;
    }
    p->mode = MODE_VALID;
    p->dims[DIM_BIAS] = 0;
    int k = 7;
    if (k < n && strcmp(f[k], "bias") != 0) {
        int found = 0;
        for (int m = 0; m < 2; m++)
            if (strcmp(f[k], mode_names[m]) == 0) {
                p->mode = m;
                found = 1;
            }
        if (!found)
            return ct_fail(e, CT_ERR_USAGE, "MODE must be valid or same (then optionally bias), got '%s'", f[k]);
        k++;
    }
    if (k < n) {
        if (strcmp(f[k], "bias") != 0)
            return ct_fail(e, CT_ERR_USAGE, "the field after MODE must be bias, got '%s'", f[k]);
        p->dims[DIM_BIAS] = 1;
        k++;
    }
    if (k < n)
        return ct_fail(e, CT_ERR_USAGE, "too many fields: '%s' after bias", f[k]);
    if (p->mode == MODE_VALID && p->dims[DIM_KH] > p->dims[DIM_H])
        return ct_fail(e, CT_ERR_USAGE, "KH (filter height) = %lld is larger than H (image height) = %lld in valid mode",
                       p->dims[DIM_KH], p->dims[DIM_H]);
    if (p->mode == MODE_VALID && p->dims[DIM_KW] > p->dims[DIM_W])
        return ct_fail(e, CT_ERR_USAGE, "KW (filter width) = %lld is larger than W (image width) = %lld in valid mode",
                       p->dims[DIM_KW], p->dims[DIM_W]);
    const long long *d = p->dims;
    if (elems4(d[DIM_B], d[DIM_CIN], d[DIM_H], d[DIM_W]) < 0)
        return ct_fail(e, CT_ERR_USAGE, "input of B*Cin*H*W = %lld*%lld*%lld*%lld elements exceeds 2^31-1",
                       d[DIM_B], d[DIM_CIN], d[DIM_H], d[DIM_W]);
    if (elems4(d[DIM_COUT], d[DIM_CIN], d[DIM_KH], d[DIM_KW]) < 0)
        return ct_fail(e, CT_ERR_USAGE, "weight of Cout*Cin*KH*KW = %lld*%lld*%lld*%lld elements exceeds 2^31-1",
                       d[DIM_COUT], d[DIM_CIN], d[DIM_KH], d[DIM_KW]);
    if (elems4(d[DIM_B], d[DIM_COUT], out_h(p), out_w(p)) < 0)
        return ct_fail(e, CT_ERR_USAGE, "output of B*Cout*OH*OW = %lld*%lld*%lld*%lld elements exceeds 2^31-1",
                       d[DIM_B], d[DIM_COUT], out_h(p), out_w(p));
    return CT_OK;
}

static void canonical(const ct_problem *p, char *buf, size_t len)
{
    const long long *d = p->dims;
    snprintf(buf, len, "conv2dc:%lld:%lld:%lld:%lld:%lld:%lld:%lld:%s%s", d[DIM_B], d[DIM_CIN], d[DIM_H], d[DIM_W],
             d[DIM_COUT], d[DIM_KH], d[DIM_KW], mode_names[p->mode], d[DIM_BIAS] ? ":bias" : "");
}

static double out_count(const ct_problem *p)
{
    return (double)p->dims[DIM_B] * (double)p->dims[DIM_COUT] * (double)out_h(p) * (double)out_w(p);
}

static double flops(const ct_problem *p)
{
    /* Taps on the zero padding still cost an FMA in every direct kernel;
     * the bias adds are not counted, as in the usual convention. */
    return 2.0 * out_count(p) * (double)p->dims[DIM_CIN] * (double)p->dims[DIM_KH] * (double)p->dims[DIM_KW];
}

static double bytes(const ct_problem *p)
{
    const long long *d = p->dims;
    double in = (double)d[DIM_B] * (double)d[DIM_CIN] * (double)d[DIM_H] * (double)d[DIM_W];
    double w = (double)d[DIM_COUT] * (double)d[DIM_CIN] * (double)d[DIM_KH] * (double)d[DIM_KW];
    double bias = d[DIM_BIAS] ? (double)d[DIM_COUT] : 0.0;
    return 4.0 * (in + w + bias + out_count(p));
}

static int buffers(const ct_problem *p, ct_buffer *b)
{
    const long long *d = p->dims;
    int n = 0;
    b[n++] = (ct_buffer){.name = "in", .count = (size_t)(d[DIM_B] * d[DIM_CIN] * d[DIM_H] * d[DIM_W])};
    b[n++] = (ct_buffer){.name = "weight", .count = (size_t)(d[DIM_COUT] * d[DIM_CIN] * d[DIM_KH] * d[DIM_KW]),
                         .symbol = "c_weight"};
    if (d[DIM_BIAS])
        b[n++] = (ct_buffer){.name = "bias", .count = (size_t)d[DIM_COUT], .symbol = "c_bias"};
    b[n++] = (ct_buffer){.name = "out", .count = (size_t)(d[DIM_B] * d[DIM_COUT] * out_h(p) * out_w(p)),
                         .is_output = 1};
    return n;
}

static int defines(const ct_problem *p, ct_define *d)
{
    const long long *v = p->dims;
    d[0] = (ct_define){"CONV_B", v[DIM_B]};
    d[1] = (ct_define){"CONV_CIN", v[DIM_CIN]};
    d[2] = (ct_define){"CONV_H", v[DIM_H]};
    d[3] = (ct_define){"CONV_W", v[DIM_W]};
    d[4] = (ct_define){"CONV_COUT", v[DIM_COUT]};
    d[5] = (ct_define){"CONV_KH", v[DIM_KH]};
    d[6] = (ct_define){"CONV_KW", v[DIM_KW]};
    d[7] = (ct_define){"CONV_OH", out_h(p)};
    d[8] = (ct_define){"CONV_OW", out_w(p)};
    d[9] = (ct_define){"CONV_PH", pad_h(p)};
    d[10] = (ct_define){"CONV_PW", pad_w(p)};
    d[11] = (ct_define){"CONV_BIAS", v[DIM_BIAS]};
    return 12;
}

static void reference(const ct_problem *p, const float *const *in, double *out)
{
    const long long *d = p->dims;
    const long long nb = d[DIM_B], cin = d[DIM_CIN], h = d[DIM_H], w = d[DIM_W], cout = d[DIM_COUT];
    const long long kh = d[DIM_KH], kw = d[DIM_KW], oh = out_h(p), ow = out_w(p);
    const long long ph = pad_h(p), pw = pad_w(p);
    const float *x = in[0], *wt = in[1], *bias = d[DIM_BIAS] ? in[2] : NULL;
    for (long long b = 0; b < nb; b++)
        for (long long co = 0; co < cout; co++)
            for (long long y = 0; y < oh; y++)
                for (long long xo = 0; xo < ow; xo++) {
                    /* Clip the filter window to the image once per output. */
                    long long i0 = ph - y > 0 ? ph - y : 0, i1 = h + ph - y < kh ? h + ph - y : kh;
                    long long j0 = pw - xo > 0 ? pw - xo : 0, j1 = w + pw - xo < kw ? w + pw - xo : kw;
                    double acc = bias ? (double)bias[co] : 0.0;
                    for (long long ci = 0; ci < cin; ci++) {
                        const float *plane = x + (b * cin + ci) * h * w;
                        const float *f = wt + (co * cin + ci) * kh * kw;
                        for (long long i = i0; i < i1; i++)
                            for (long long j = j0; j < j1; j++)
                                acc += (double)plane[(y + i - ph) * w + xo + j - pw] * (double)f[i * kw + j];
                    }
                    out[((b * cout + co) * oh + y) * ow + xo] = acc;
                }
}

/* The same reference, as C source for exported self-tests. */
static const char reference_c[] =
    "static void ct_reference(const float *const *in, double *out)\n"
    "{\n"
    "    const float *x = in[0], *wt = in[1];\n"
    "    for (long long b = 0; b < CONV_B; b++)\n"
    "        for (long long co = 0; co < CONV_COUT; co++)\n"
    "            for (long long y = 0; y < CONV_OH; y++)\n"
    "                for (long long xo = 0; xo < CONV_OW; xo++) {\n"
    "                    double acc = 0.0;\n"
    "#if CONV_BIAS\n"
    "                    acc = (double)in[2][co];\n"
    "#endif\n"
    "                    for (long long ci = 0; ci < CONV_CIN; ci++)\n"
    "                        for (long long i = 0; i < CONV_KH; i++)\n"
    "                            for (long long j = 0; j < CONV_KW; j++) {\n"
    "                                long long yy = y + i - CONV_PH, xx = xo + j - CONV_PW;\n"
    "                                if (yy >= 0 && yy < CONV_H && xx >= 0 && xx < CONV_W)\n"
    "                                    acc += (double)x[((b * CONV_CIN + ci) * CONV_H + yy) * CONV_W + xx] *\n"
    "                                           (double)wt[((co * CONV_CIN + ci) * CONV_KH + i) * CONV_KW + j];\n"
    "                            }\n"
    "                    out[((b * CONV_COUT + co) * CONV_OH + y) * CONV_OW + xo] = acc;\n"
    "                }\n"
    "}\n";

static const ct_param_def naive_params[] = {
    {.name = "BLOCK_SIZE", .help = "threads per block"},
};

static const ct_template templates[] = {
    {.name = "conv2dc_naive", .summary = "one thread per output element, all from global memory (baseline)",
     .is_baseline = 1, .params = naive_params, .nparams = 1},
};

static int constrain(const ct_problem *p, const ct_template *t, const ct_params *c,
                     const ct_limits *lim, char *why, size_t len)
{
    (void)p;
    (void)t;
    long block = ct_params_get(c, "BLOCK_SIZE", 256);
    if (block < 32 || block % 32 != 0 || block > lim->max_threads_per_block) {
        snprintf(why, len, "BLOCK_SIZE=%ld is not a multiple of 32 within the device's %d threads",
                 block, lim->max_threads_per_block);
        return 1;
    }
    return 0;
}

static void geometry(const ct_problem *p, const ct_template *t, const ct_params *c, ct_launch *l)
{
    (void)t;
    long block = ct_params_get(c, "BLOCK_SIZE", 256);
    long long nout = (long long)out_count(p);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)((nout + block - 1) / block);
    l->grid[1] = l->grid[2] = 1;
    l->block[0] = (unsigned)block;
    l->block[1] = l->block[2] = 1;
}

const ct_family ct_family_conv2dc = {
    .name = "conv2dc",
    .grammar = "conv2dc:B:Cin:H:W:Cout:KH:KW[:valid|same][:bias]",
    .summary = "multi-channel 2D convolution of a batch of images (CNN layer, NCHW, OIHW weights)",
    .parse = parse,
    .canonical = canonical,
    .flops = flops,
    .bytes = bytes,
    .buffers = buffers,
    .defines = defines,
    .reference = reference,
    .templates = templates,
    .ntemplates = (int)(sizeof templates / sizeof templates[0]),
    .constrain = constrain,
    .geometry = geometry,
    .reference_c = reference_c,
};
