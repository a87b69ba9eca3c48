/* family_conv2dc.c - multi-channel 2D convolution of a batch of images, as a
 * CNN layer computes it (PyTorch Conv2d: NCHW or channels-last NHWC
 * activations, OIHW weights in both):
 *
 *   out[b][co][y][x] = bias[co] + sum_{c<Cin/G, i<KH, j<KW}
 *                      in[b][g*Cin/G + c][y*SH + i*DH - PH][x*SW + j*DW - PW] * w[co][c][i][j],
 *   g = co / (Cout/G)
 *
 * with the input taken as zero outside the image: stride SH x SW, dilation
 * DH x DW, G groups (weights O(I/G)HW), as PyTorch's Conv2d. Modes: valid
 * (no padding), same (stride 1 only, as PyTorch: DH*(KH-1)/2 zeros before
 * and the rest after, H x W outputs) and pad=PH,PW (PH, PW zeros on both
 * sides); OH = floor((H + zeros - DH*(KH-1) - 1) / SH) + 1. Seed 003 (a Fashion-MNIST CNN) is the
 * origin: a batch of small images, few channels, so every output channel of a
 * pixel can be accumulated in one thread. */
#include "problem.h"
#include "family_export.h"
#include "tc_shape.h"
#include "conv_layer.h"
#include "conv_pass.h"
#include "ct_kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CT_FAMILY_CODE

enum { MODE_VALID = 0, MODE_SAME = 1, MODE_PAD = 2 };
static const char *const mode_names[] = {"valid", "same", "pad"};

enum { DIM_B, DIM_CIN, DIM_H, DIM_W, DIM_COUT, DIM_KH, DIM_KW, DIM_MODE, DIM_PH, DIM_PW, DIM_SH, DIM_SW, DIM_DH,
       DIM_DW, DIM_GROUPS, DIM_BIAS, DIM_LAYOUT, DIM_PASS, DIM_DTYPE, NFIELDS };
static const char *const layout_names[] = {"nchw", "nhwc"};
static const ct_field fields[NFIELDS] = {
    [DIM_B] = {"B", CT_FIELD_SIZE, "batch"},
    [DIM_CIN] = {"Cin", CT_FIELD_SIZE, "input channels"},
    [DIM_H] = {"H", CT_FIELD_SIZE, "image height"},
    [DIM_W] = {"W", CT_FIELD_SIZE, "image width"},
    [DIM_COUT] = {"Cout", CT_FIELD_SIZE, "output channels"},
    [DIM_KH] = {"KH", CT_FIELD_SIZE, "filter height"},
    [DIM_KW] = {"KW", CT_FIELD_SIZE, "filter width"},
    [DIM_MODE] = {"mode", CT_FIELD_CHOICE,
                  "valid: no padding (default); same: H x W outputs, D*(K-1)/2 zeros before and the rest "
                  "after, as PyTorch's padding='same' (stride 1); pad=PH,PW: zeros on both sides",
                  mode_names, 3},
    [DIM_PH] = {"PH", CT_FIELD_INT, "rows of zeros above and below (pad=PH,PW only)"},
    [DIM_PW] = {"PW", CT_FIELD_INT, "columns of zeros left and right (pad=PH,PW only)"},
    [DIM_SH] = {"SH", CT_FIELD_INT, "vertical stride (stride=S or stride=SH,SW, default 1)"},
    [DIM_SW] = {"SW", CT_FIELD_INT, "horizontal stride"},
    [DIM_DH] = {"DH", CT_FIELD_INT, "vertical dilation (dilation=D or dilation=DH,DW, default 1)"},
    [DIM_DW] = {"DW", CT_FIELD_INT, "horizontal dilation"},
    [DIM_GROUPS] = {"groups", CT_FIELD_INT, "groups of channels convolved apart (groups=G dividing Cin and Cout, "
                                            "default 1; G = Cin = Cout is depthwise)"},
    [DIM_BIAS] = {"bias", CT_FIELD_FLAG, "add a bias per output channel"},
    [DIM_LAYOUT] = {"layout", CT_FIELD_CHOICE, "nchw: input B x Cin x H x W, output B x Cout x OH x OW (default); "
                                               "nhwc: channels last, input B x H x W x Cin, output B x OH x OW x Cout",
                    layout_names, 2},
    [DIM_PASS] = CT_PASS_FIELD,
    [DIM_DTYPE] = CT_DTYPE_FIELD_TF32,
};

/* Every buffer stays below 2^31 elements so that kernels index with int. */
#define MAX_ELEMS 2147483647LL

/* Zeros before the first row and column. */
static long long pad_h(const ct_problem *p)
{
    const long long *d = p->dims;
    return d[DIM_MODE] == MODE_SAME ? d[DIM_DH] * (d[DIM_KH] - 1) / 2 : d[DIM_PH];
}

static long long pad_w(const ct_problem *p)
{
    const long long *d = p->dims;
    return d[DIM_MODE] == MODE_SAME ? d[DIM_DW] * (d[DIM_KW] - 1) / 2 : d[DIM_PW];
}

static long long out_h(const ct_problem *p)
{
    const long long *d = p->dims;
    return d[DIM_MODE] == MODE_SAME ? d[DIM_H]
                                    : ct_layer_out(d[DIM_H], d[DIM_PH], d[DIM_PH], d[DIM_KH], d[DIM_SH], d[DIM_DH]);
}

static long long out_w(const ct_problem *p)
{
    const long long *d = p->dims;
    return d[DIM_MODE] == MODE_SAME ? d[DIM_W]
                                    : ct_layer_out(d[DIM_W], d[DIM_PW], d[DIM_PW], d[DIM_KW], d[DIM_SW], d[DIM_DW]);
}

/* Input channels each output channel sums over. */
static long long cin_g(const ct_problem *p)
{
    return p->dims[DIM_CIN] / p->dims[DIM_GROUPS];
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

/* The optional fields in the grammar's order: the keyed ones, then the
 * choice fields written as a bare value (bare_fields, in order). */
static const char *const opt_names[] = {"MODE (valid, same or pad=P)", "stride", "dilation", "groups", "bias"};
#define NKEYED ((int)(sizeof opt_names / sizeof opt_names[0]))
static const int bare_fields[] = {DIM_LAYOUT, DIM_PASS};
#define NBARE ((int)(sizeof bare_fields / sizeof bare_fields[0]))
static const ct_layer_opts opts = {opt_names, NKEYED, fields, bare_fields, NBARE,
                                   "stride=S, dilation=D, groups=G, bias"};

static ct_status parse_option(const char *tok, ct_problem *p, int *last, ct_err *e)
{
    long long *d = p->dims, v[2] = {1, 1};
    int rank, m = ct_field_choice(&fields[DIM_MODE], tok);
    ct_status rc = CT_OK;
    if (m == MODE_VALID || m == MODE_SAME) {
        rank = 0;
        d[DIM_MODE] = m;
    } else if (strncmp(tok, "pad", 3) == 0) {
        rank = 0;
        d[DIM_MODE] = MODE_PAD;
        rc = ct_layer_values(tok, "pad", 1, 1, v, e);
        d[DIM_PH] = v[0], d[DIM_PW] = v[1];
    } else if (strncmp(tok, "stride", 6) == 0) {
        rank = 1;
        rc = ct_layer_values(tok, "stride", 1, 0, v, e);
        d[DIM_SH] = v[0], d[DIM_SW] = v[1];
    } else if (strncmp(tok, "dilation", 8) == 0) {
        rank = 2;
        rc = ct_layer_values(tok, "dilation", 1, 0, v, e);
        d[DIM_DH] = v[0], d[DIM_DW] = v[1];
    } else if (strncmp(tok, "groups", 6) == 0) {
        rank = 3;
        rc = ct_layer_values(tok, "groups", 0, 0, v, e);
        d[DIM_GROUPS] = v[0];
    } else if (strcmp(tok, "bias") == 0) {
        rank = 4;
        d[DIM_BIAS] = 1;
    } else if (!ct_layer_bare(&opts, tok, d, &rank, &rc, e)) {
        if (*last < 0)
            return ct_fail(e, CT_ERR_USAGE, "MODE must be valid, same or pad=P (then optionally stride=S, dilation=D, "
                                            "groups=G, bias, a layout nchw or nhwc, a pass dgrad or wgrad), got '%s'", tok);
        return ct_layer_unknown(&opts, tok, *last, e);
    }
    if (rc != CT_OK)
        return rc;
    return ct_layer_order_opts(&opts, rank, last, tok, e);
}

/* One key per layer: padding that is another mode's is written as that
 * mode, and a dilation of a one-tap dimension is no dilation. The exported
 * selector does the same to its arguments (conv2dc_generic_canonical in the
 * generic template), so it finds a layer in any spelling as query --nearest
 * does. */
static void canonicalize(long long *d)
{
    if (d[DIM_KH] == 1)
        d[DIM_DH] = 1;
    if (d[DIM_KW] == 1)
        d[DIM_DW] = 1;
    if (d[DIM_MODE] != MODE_PAD)
        return;
    if (d[DIM_PH] == 0 && d[DIM_PW] == 0)
        d[DIM_MODE] = MODE_VALID;
    else if (d[DIM_SH] == 1 && d[DIM_SW] == 1 && d[DIM_KH] % 2 == 1 && d[DIM_KW] % 2 == 1 &&
             d[DIM_PH] == d[DIM_DH] * (d[DIM_KH] - 1) / 2 && d[DIM_PW] == d[DIM_DW] * (d[DIM_KW] - 1) / 2)
        d[DIM_MODE] = MODE_SAME;
    if (d[DIM_MODE] != MODE_PAD)
        d[DIM_PH] = d[DIM_PW] = 0;
}

static ct_status parse(const char *text, ct_problem *p, ct_err *e)
{
    char buf[160], *f[7 + NKEYED + NBARE];
    int n = ct_split_fields(text, buf, sizeof buf, f, 7 + NKEYED + NBARE, e);
    if (n < 0)
        return CT_ERR_USAGE;
    for (int i = DIM_B; i <= DIM_KW; i++) {
        if (i >= n)
            return ct_fail(e, CT_ERR_USAGE, "missing field %s (%s)", fields[i].name, fields[i].help);
        ct_status rc = ct_parse_field_size(&fields[i], f[i], MAX_ELEMS, &p->dims[i], e);
        if (rc != CT_OK)
            return rc;
    }
    long long *d = p->dims;
    d[DIM_MODE] = MODE_VALID;
    d[DIM_SH] = d[DIM_SW] = d[DIM_DH] = d[DIM_DW] = d[DIM_GROUPS] = 1;
    int last = -1;
    for (int k = 7; k < n; k++) {
        ct_status rc = parse_option(f[k], p, &last, e);
        if (rc != CT_OK)
            return rc;
    }
    if (d[DIM_PASS] == CT_PASS_DGRAD)
        d[DIM_BIAS] = 0;   /* a bias changes no input gradient: one key for the layer's dgrad */
    if (d[DIM_MODE] == MODE_SAME && (d[DIM_SH] > 1 || d[DIM_SW] > 1))
        return ct_fail(e, CT_ERR_USAGE, "same is refused with a stride = %lld,%lld above 1 (as PyTorch refuses "
                       "padding='same' for strided convolutions): give pad=P", d[DIM_SH], d[DIM_SW]);
    canonicalize(d);
    static const char *const kname[2] = {"KH (filter height)", "KW (filter width)"};
    static const char *const iname[2] = {"H (image height)", "W (image width)"};
    for (int a = 0; a < 2; a++) {
        const long long k = d[DIM_KH + a], dil = d[DIM_DH + a], pad = d[DIM_PH + a], n_in = d[DIM_H + a];
        const long long span = (k - 1) * dil + 1;
        if (pad >= span)
            return ct_fail(e, CT_ERR_USAGE, "pad = %lld must be less than %s = %lld%s: edge outputs would see "
                           "only padding", pad, kname[a], span, dil > 1 ? " dilated" : "");
        char room[96];
        if (d[DIM_MODE] == MODE_VALID)
            snprintf(room, sizeof room, "%s = %lld in valid mode", iname[a], n_in);
        else
            snprintf(room, sizeof room, "%s + 2 * pad = %lld", iname[a], n_in + 2 * pad);
        if (d[DIM_MODE] != MODE_SAME && span > n_in + 2 * pad && dil == 1)
            return ct_fail(e, CT_ERR_USAGE, "%s = %lld is larger than %s", kname[a], k, room);
        if (d[DIM_MODE] != MODE_SAME && span > n_in + 2 * pad)   /* the span does not fit, not the filter */
            return ct_fail(e, CT_ERR_USAGE, "the dilated filter spans %lld (%.2s=%lld, dilation=%lld), larger than %s",
                           span, kname[a], k, dil, room);
    }
    if (d[DIM_CIN] % d[DIM_GROUPS] != 0 || d[DIM_COUT] % d[DIM_GROUPS] != 0)
        return ct_fail(e, CT_ERR_USAGE, "groups = %lld must divide Cin (input channels) = %lld and Cout (output "
                       "channels) = %lld", d[DIM_GROUPS], d[DIM_CIN], d[DIM_COUT]);
    if (elems4(d[DIM_B], d[DIM_CIN], d[DIM_H], d[DIM_W]) < 0)
        return ct_fail(e, CT_ERR_USAGE, "input of B*Cin*H*W = %lld*%lld*%lld*%lld elements exceeds 2^31-1",
                       d[DIM_B], d[DIM_CIN], d[DIM_H], d[DIM_W]);
    if (elems4(d[DIM_COUT], cin_g(p), d[DIM_KH], d[DIM_KW]) < 0)
        return ct_fail(e, CT_ERR_USAGE, "weight of Cout*Cin*KH*KW/groups = %lld*%lld*%lld*%lld elements exceeds "
                       "2^31-1", d[DIM_COUT], cin_g(p), d[DIM_KH], d[DIM_KW]);
    if (elems4(d[DIM_B], d[DIM_COUT], out_h(p), out_w(p)) < 0)
        return ct_fail(e, CT_ERR_USAGE, "output of B*Cout*OH*OW = %lld*%lld*%lld*%lld elements exceeds 2^31-1",
                       d[DIM_B], d[DIM_COUT], out_h(p), out_w(p));
    return CT_OK;
}

/* "V" or "V,W" of a pair of fields: one value when both are equal. */
static int put_pair(char *buf, size_t len, const char *key, long long a, long long b)
{
    return a == b ? snprintf(buf, len, ":%s=%lld", key, a) : snprintf(buf, len, ":%s=%lld,%lld", key, a, b);
}

/* The defaults (stride, dilation, groups 1) are left out, so that layers
 * written before these fields existed keep their keys. */
static void canonical(const ct_problem *p, char *buf, size_t len)
{
    const long long *d = p->dims;
    int n = snprintf(buf, len, "conv2dc:%lld:%lld:%lld:%lld:%lld:%lld:%lld", d[DIM_B], d[DIM_CIN], d[DIM_H],
                     d[DIM_W], d[DIM_COUT], d[DIM_KH], d[DIM_KW]);
#define ROOM (n > 0 && (size_t)n < len)
    if (ROOM)
        n += d[DIM_MODE] == MODE_PAD ? put_pair(buf + n, len - (size_t)n, "pad", d[DIM_PH], d[DIM_PW])
                                     : snprintf(buf + n, len - (size_t)n, ":%s", mode_names[d[DIM_MODE]]);
    if (ROOM && (d[DIM_SH] != 1 || d[DIM_SW] != 1))
        n += put_pair(buf + n, len - (size_t)n, "stride", d[DIM_SH], d[DIM_SW]);
    if (ROOM && (d[DIM_DH] != 1 || d[DIM_DW] != 1))
        n += put_pair(buf + n, len - (size_t)n, "dilation", d[DIM_DH], d[DIM_DW]);
    if (ROOM && d[DIM_GROUPS] != 1)
        n += snprintf(buf + n, len - (size_t)n, ":groups=%lld", d[DIM_GROUPS]);
    if (ROOM && d[DIM_BIAS])
        n += snprintf(buf + n, len - (size_t)n, ":bias");
    for (int i = 0; i < NBARE; i++)
        if (ROOM && d[bare_fields[i]] != 0)
            n += snprintf(buf + n, len - (size_t)n, ":%s", fields[bare_fields[i]].choices[d[bare_fields[i]]]);
#undef ROOM
}

static double out_count(const ct_problem *p)
{
    return (double)p->dims[DIM_B] * (double)p->dims[DIM_COUT] * (double)out_h(p) * (double)out_w(p);
}

static double flops(const ct_problem *p)
{
    /* Taps on the zero padding still cost an FMA in every direct kernel;
     * the bias adds are not counted, as in the usual convention. */
    return 2.0 * out_count(p) * (double)cin_g(p) * (double)p->dims[DIM_KH] * (double)p->dims[DIM_KW];
}

static ct_tc_shape tc_shape(const ct_problem *p);

static double bytes(const ct_problem *p)
{
    const long long *d = p->dims;
    if (d[DIM_PASS] != CT_PASS_FWD) {
        const ct_tc_shape s = tc_shape(p);
        return ct_pass_bytes(&s, ct_dtype_size(ct_problem_dtype(p)));
    }
    double in = (double)d[DIM_B] * (double)d[DIM_CIN] * (double)d[DIM_H] * (double)d[DIM_W];
    double w = (double)d[DIM_COUT] * (double)cin_g(p) * (double)d[DIM_KH] * (double)d[DIM_KW];
    double bias = d[DIM_BIAS] ? (double)d[DIM_COUT] : 0.0;
    return (double)ct_dtype_size(ct_problem_dtype(p)) * (in + w + bias + out_count(p));
}

static int buffers(const ct_problem *p, ct_buffer *b)
{
    const long long *d = p->dims;
    if (d[DIM_PASS] != CT_PASS_FWD) {
        const ct_tc_shape s = tc_shape(p);
        return ct_pass_buffers(&s, "c_weight", b);
    }
    int n = 0;
    b[n++] = (ct_buffer){.name = "in", .count = (size_t)(d[DIM_B] * d[DIM_CIN] * d[DIM_H] * d[DIM_W])};
    b[n++] = (ct_buffer){.name = "weight", .count = (size_t)(d[DIM_COUT] * cin_g(p) * d[DIM_KH] * d[DIM_KW]),
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
    /* Only where they are not 1 (templates default them), so that the
     * layers before these fields compile and export as they did. */
    static const struct {
        int dim;
        const char *name;
    } opt[] = {{DIM_SH, "CONV_SH"}, {DIM_SW, "CONV_SW"}, {DIM_DH, "CONV_DH"}, {DIM_DW, "CONV_DW"},
               {DIM_GROUPS, "CONV_GROUPS"}};
    int n = 12;
    for (int i = 0; i < 5; i++)
        if (v[opt[i].dim] != 1)
            d[n++] = (ct_define){opt[i].name, v[opt[i].dim]};
    if (v[DIM_LAYOUT] != 0)
        d[n++] = (ct_define){"CONV_CHANNELS_LAST", 1};
    if (v[DIM_PASS] != CT_PASS_FWD)
        d[n++] = (ct_define){"CONV_PASS", v[DIM_PASS]};
    return n;
}

static void reference(const ct_problem *p, const float *const *in, double *out)
{
    const ct_tc_shape s = tc_shape(p);
    if (s.pass != CT_PASS_FWD)
        ct_pass_reference(&s, (int)p->dims[DIM_LAYOUT], in, out);
    else
        ct_layer_reference(&s, (int)p->dims[DIM_LAYOUT], in, out);
}

/* The same references, as C source for exported self-tests: the layout
 * and defaults both read, then the forward pass. */
#define REF_PREAMBLE \
    "#ifndef CONV_SH\n#define CONV_SH 1\n#endif\n#ifndef CONV_SW\n#define CONV_SW 1\n#endif\n" \
    "#ifndef CONV_DH\n#define CONV_DH 1\n#endif\n#ifndef CONV_DW\n#define CONV_DW 1\n#endif\n" \
    "#ifndef CONV_GROUPS\n#define CONV_GROUPS 1\n#endif\n" \
    "#if CONV_CHANNELS_LAST /* nhwc: input B x H x W x Cin, output B x OH x OW x Cout */\n" \
    "#define CT_IN(b, c, y, x) ((((b) * CONV_H + (y)) * CONV_W + (x)) * CONV_CIN + (c))\n" \
    "#define CT_OUT(b, c, y, x) ((((b) * CONV_OH + (y)) * CONV_OW + (x)) * CONV_COUT + (c))\n" \
    "#else\n" \
    "#define CT_IN(b, c, y, x) ((((b) * CONV_CIN + (c)) * CONV_H + (y)) * CONV_W + (x))\n" \
    "#define CT_OUT(b, c, y, x) ((((b) * CONV_COUT + (c)) * CONV_OH + (y)) * CONV_OW + (x))\n" \
    "#endif\n"

static const char reference_c[] =
    REF_PREAMBLE
    "static void ct_reference(const float *const *in, double *out)\n"
    "{\n"
    "    const float *x = in[0], *wt = in[1];\n"
    "    const long long cg = CONV_CIN / CONV_GROUPS, og = CONV_COUT / CONV_GROUPS;\n"
    "    for (long long b = 0; b < CONV_B; b++)\n"
    "        for (long long co = 0; co < CONV_COUT; co++)\n"
    "            for (long long y = 0; y < CONV_OH; y++)\n"
    "                for (long long xo = 0; xo < CONV_OW; xo++) {\n"
    "                    double acc = 0.0;\n"
    "#if CONV_BIAS\n"
    "                    acc = (double)in[2][co];\n"
    "#endif\n"
    "                    for (long long c = 0; c < cg; c++)\n"
    "                        for (long long i = 0; i < CONV_KH; i++)\n"
    "                            for (long long j = 0; j < CONV_KW; j++) {\n"
    "                                long long yy = y * CONV_SH + i * CONV_DH - CONV_PH;\n"
    "                                long long xx = xo * CONV_SW + j * CONV_DW - CONV_PW;\n"
    "                                if (yy >= 0 && yy < CONV_H && xx >= 0 && xx < CONV_W)\n"
    "                                    acc += (double)x[CT_IN(b, co / og * cg + c, yy, xx)] *\n"
    "                                           (double)wt[((co * cg + c) * CONV_KH + i) * CONV_KW + j];\n"
    "                            }\n"
    "                    out[CT_OUT(b, co, y, xo)] = acc;\n"
    "                }\n"
    "}\n";

/* A training pass's reference (conv_pass.h) over the same macros, the
 * layer named as conv_pass.h's CTP_* names. */
static const char pass_reference_c[] =
    REF_PREAMBLE
    "#define CTP_B CONV_B\n#define CTP_CIN CONV_CIN\n#define CTP_H CONV_H\n#define CTP_W CONV_W\n"
    "#define CTP_COUT CONV_COUT\n#define CTP_KH CONV_KH\n#define CTP_KW CONV_KW\n#define CTP_OH CONV_OH\n"
    "#define CTP_OW CONV_OW\n#define CTP_PH CONV_PH\n#define CTP_PW CONV_PW\n#define CTP_SH CONV_SH\n"
    "#define CTP_SW CONV_SW\n#define CTP_DH CONV_DH\n#define CTP_DW CONV_DW\n#define CTP_GROUPS CONV_GROUPS\n"
    "#define CTP_BIAS CONV_BIAS\n#define CTP_X CT_IN\n#define CTP_Y CT_OUT\n"
    CT_PASS_REFERENCE_C;

static const char *reference_c_for(const ct_problem *p)
{
    return p->dims[DIM_PASS] != CT_PASS_FWD ? pass_reference_c : reference_c;
}

#define NAIVE_PARAMS(X) X(BLOCK_SIZE, 256, CT_THREADS(0), "threads per block")
CT_PARAM_LIST(naive, NAIVE_PARAMS)

/* The family's own kind, the baseline's (its hooks below); the others are
 * the layer families' shared ones. */
static const ct_kernel_kind naive_kind;

static const ct_template templates[] = {
    {.name = "conv2dc_naive", .summary = "one thread per output element, all from global memory (baseline)",
     .is_baseline = 1, .dtypes = CT_DTYPES_ALL, .params = naive_params, .nparams = CT_PARAM_COUNT(NAIVE_PARAMS),
     .kind = &naive_kind},
    CT_KERNEL(conv2dc, tiled),
    CT_KERNEL(conv2dc, tc),
    CT_KERNEL(conv2dc, tcsplit),
    CT_KERNEL(conv2dc, tc16),
    CT_KERNEL(conv2dc, tc16w),
    CT_KERNEL(conv2dc, tc16wb),
    CT_KERNEL(conv2dc, tc16cl),
    CT_KERNEL(conv2dc, tc16rcl),
    CT_KERNEL(conv2dc, tc16g),
    CT_KERNEL(conv2dc, tc16gcl),
    CT_KERNEL(conv2dc, tc16gkcl),
    CT_KERNEL(conv2dc, dw),
    CT_KERNEL(conv2dc, dwp),
    CT_DWPH_ENTRY(conv2dc),
    CT_KERNEL(conv2dc, simt),
    CT_SIMTH_ENTRY(conv2dc),
    CT_KERNEL(conv2dc, dgnaive),
    CT_KERNEL(conv2dc, wgnaive),
    CT_KERNEL(conv2dc, dgdwcl),
    CT_KERNEL(conv2dc, wgdwcl),
    CT_KERNEL(conv2dc, dgdw),
    CT_KERNEL(conv2dc, wgdw),
    CT_KERNEL(conv2dc, dgsimt),
    CT_KERNEL(conv2dc, wgsimt),
    CT_KERNEL(conv2dc, dwtcl),
    CT_KERNEL(conv2dc, tc16gktcl),
    CT_KERNEL(conv2dc, ffma),
    CT_KERNEL(conv2dc, wino),
    CT_KERNEL(conv2dc, wgdw16cl),
    CT_KERNEL(conv2dc, wino4),
    CT_KERNEL(conv2dc, dwtc16cl),
};

/* The layer as the tensor-core templates see it. */
static ct_tc_shape tc_shape(const ct_problem *p)
{
    const long long *d = p->dims;
    return (ct_tc_shape){.b = d[DIM_B], .cin = d[DIM_CIN], .h = d[DIM_H], .w = d[DIM_W], .cout = d[DIM_COUT],
                         .kh = d[DIM_KH], .kw = d[DIM_KW], .oh = out_h(p), .ow = out_w(p), .ph = pad_h(p),
                         .pw = pad_w(p), .sy = d[DIM_SH], .sx = d[DIM_SW], .dy = d[DIM_DH], .dx = d[DIM_DW],
                         .groups = d[DIM_GROUPS], .bias = (int)d[DIM_BIAS], .pass = (int)d[DIM_PASS], .p = p};
}

/* The layer fields a template cannot compute exclude it, before any
 * parameter is looked at: the layouts its kind reads, and a strided,
 * dilated or grouped layer for a kind that computes only plain ones. */
static int layer_excluded(const ct_problem *p, const ct_template *t, char *why, size_t len)
{
    const long long *d = p->dims;
    if (ct_pass_excluded(t, (int)d[DIM_PASS], why, len))
        return 1;
    if (ct_layer_layout_excluded(t->name, &fields[DIM_LAYOUT], d[DIM_LAYOUT], t->kind->layouts, why, len))
        return 1;
    if (t->kind->any_layer)
        return 0;
    return ct_layer_plain_only(t->name, d[DIM_SH] != 1 || d[DIM_SW] != 1 || d[DIM_DH] != 1 || d[DIM_DW] != 1, d[DIM_GROUPS], why, len);
}

static int constrain(const ct_problem *p, const ct_template *t, const ct_params *c,
                     const ct_limits *lim, char *why, size_t len)
{
    if (layer_excluded(p, t, why, len))
        return 1;
    const ct_tc_shape sh = tc_shape(p);
    return t->kind->constrain(t, &sh, c, lim, why, len);
}

static void normalize(const ct_problem *p, const ct_template *t, ct_params *c)
{
    const ct_tc_shape sh = tc_shape(p);
    t->kind->normalize(t, &sh, c);
}

static void geometry(const ct_problem *p, const ct_template *t, const ct_params *c, ct_launch *l)
{
    const ct_tc_shape sh = tc_shape(p);
    t->kind->launch(t, &sh, c, l);
}

static int tensor_maps(const ct_problem *p, const ct_template *t, const ct_params *c, ct_tmap_desc *out)
{
    if (!t->kind->tensor_maps)
        return 0;
    const ct_tc_shape sh = tc_shape(p);
    return t->kind->tensor_maps(t, &sh, c, out);
}

static long long prep(const ct_problem *p, const ct_template *t, const ct_params *c, ct_launch *l)
{
    if (!t->kind->prep)
        return 0;
    const ct_tc_shape sh = tc_shape(p);
    return t->kind->prep(t, &sh, c, l);
}

/* ---- the family's own kind: naive (the others are in templates/kernels) ---- */

static int naive_kind_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c,
                                const ct_limits *lim, char *why, size_t len)
{
    (void)t, (void)s;
    const long block = naive_get(c).BLOCK_SIZE;
    if (block < 32 || block % 32 != 0 || block > lim->max_threads_per_block) {
        snprintf(why, len, "BLOCK_SIZE=%ld is not a multiple of 32 within the device's %d threads",
                 block, lim->max_threads_per_block);
        return 1;
    }
    return 0;
}

static void naive_kind_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    (void)t, (void)s, (void)c;
}

static void naive_kind_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    (void)t;
    memset(l, 0, sizeof *l);
    long block = naive_get(c).BLOCK_SIZE;
    l->grid[0] = (unsigned)(((long long)out_count(s->p) + block - 1) / block);
    l->block[0] = (unsigned)block;
    l->grid[1] = l->grid[2] = 1;
    l->block[1] = l->block[2] = 1;
}

/* The naive template reads and writes both layouts, any layer. */
static const ct_kernel_kind naive_kind = {.name = "naive", .layouts = CT_LAYOUT_BOTH, .any_layer = 1,
                                          .constrain = naive_kind_constrain, .normalize = naive_kind_normalize,
                                          .launch = naive_kind_launch};

/* The output's height and width, in the PyTorch module's arguments. */
#define PY_OHW "*((h, w) if mode == 1 else ((h + 2 * ph - dh * (kh - 1) - 1) // sh + 1, (w + 2 * pw - dw * (kw - 1) " \
               "- 1) // sw + 1))"

/* The selectors of `export --family conv2dc` and their generic kernels:
 * the forward layer's, bias NULL for a layer without one, and one per
 * training pass (conv_pass.h, family_export.h's variants), whose arguments
 * are the same fields, bias aside. */
static const char *const sel_buffers[] = {"in", "weight", "bias", "out"};
#define SEL_ARGS(...)                                                                                               \
    {.name = "b", .kind = CT_SEL_SIZE, .help = "batch"},                                                           \
    {.name = "cin", .kind = CT_SEL_SIZE, .help = "input channels"},                                                \
    {.name = "h", .kind = CT_SEL_SIZE, .help = "image height"},                                                    \
    {.name = "w", .kind = CT_SEL_SIZE, .help = "image width"},                                                     \
    {.name = "cout", .kind = CT_SEL_SIZE, .help = "output channels"},                                              \
    {.name = "kh", .kind = CT_SEL_SIZE, .help = "filter height"},                                                  \
    {.name = "kw", .kind = CT_SEL_SIZE, .help = "filter width"},                                                   \
    {.name = "mode", .kind = CT_SEL_KEY, .help = "valid, same (stride 1) or pad (ph, pw)", .choices = mode_names,  \
     .nchoices = 3},                                                                                                \
    {.name = "ph", .kind = CT_SEL_KEY, .help = "rows of zeros above and below (mode pad; else 0)"},                \
    {.name = "pw", .kind = CT_SEL_KEY, .help = "columns of zeros left and right (mode pad; else 0)"},              \
    {.name = "sh", .kind = CT_SEL_KEY, .help = "vertical stride", .dflt = 1},                                      \
    {.name = "sw", .kind = CT_SEL_KEY, .help = "horizontal stride", .dflt = 1},                                    \
    {.name = "dh", .kind = CT_SEL_KEY, .help = "vertical dilation", .dflt = 1},                                    \
    {.name = "dw", .kind = CT_SEL_KEY, .help = "horizontal dilation", .dflt = 1},                                  \
    {.name = "groups", .kind = CT_SEL_KEY, .help = "channel groups, dividing cin and cout", .dflt = 1},            \
    __VA_ARGS__,                                                                                                    \
    {.name = "layout", .kind = CT_SEL_KEY, .help = "nchw: in b x cin x h x w, out b x cout x oh x ow; nhwc "      \
     "(channels last): in b x h x w x cin, out b x oh x ow x cout", .choices = layout_names, .nchoices = 2}
static const ct_sel_arg sel_args[] = {
    SEL_ARGS({.name = "bias", .kind = CT_SEL_BUFFER, .help = "whether the layer adds a bias"})};
static const ct_sel_arg dg_args[] = {
    SEL_ARGS({.name = "bias", .kind = CT_SEL_FIXED, .help = "none: a bias changes no input gradient"})};
static const ct_sel_arg wg_args[] = {SEL_ARGS(
    {.name = "bias", .kind = CT_SEL_KEY, .help = "1: dweight holds the cout bias gradients after the weight gradients"})};
/* The input's dimensions in each layout (family_export.h). */
static const char *const sel_shapes[] = {"b,cin,h,w|b,h,w,cin", "cout,cing,kh,kw", "cout"};

/* The selector's arguments are the fields, in field order (family_export.h). */
_Static_assert(sizeof sel_args / sizeof sel_args[0] == DIM_PASS, "one selector argument per field before the pass");
_Static_assert(sizeof dg_args == sizeof sel_args && sizeof wg_args == sizeof sel_args, "the passes' too");

/* The passes' selectors: no PyTorch module yet (the autograd op is its own
 * work). */
static const char *const dg_buffers[] = {"dout", "weight", "din"};
static const char *const wg_buffers[] = {"in", "dout", "dweight"};
static const ct_family_export dg_export = {
    .generic = "conv2dc_dggeneric", .buffers = dg_buffers, .nbuffers = 3, .args = dg_args, .nargs = DIM_PASS,
    .canonical = 1,
    .summary = "the input gradient (pass dgrad): din (the forward input's shape and layout) from dout (the forward "
               "output's) and the weights"};
static const ct_family_export wg_export = {
    .generic = "conv2dc_wggeneric", .buffers = wg_buffers, .nbuffers = 3, .args = wg_args, .nargs = DIM_PASS,
    .canonical = 1,
    .summary = "the weight gradient (pass wgrad): dweight (cout x cin/groups x kh x kw, then cout bias gradients "
               "when bias is 1) from in and dout"};
static const ct_family_export family_export;
static const ct_family_export *const pass_exports[CT_NPASSES] = {&family_export, &dg_export, &wg_export};

static const ct_family_export family_export = {
    .generic = "conv2dc_generic",
    .buffers = sel_buffers,
    .nbuffers = 4,
    .args = sel_args,
    .nargs = DIM_PASS,    /* the pass and element type are no arguments: each pass has its selector, of one type */
    .shapes = sel_shapes,
    /* Weights of another cin / groups give no output, which the module refuses. */
    .out_shape = "((b, cout, " PY_OHW ") if layout == 0 else (b, " PY_OHW ", cout)) if sizes[\"cing\"] * groups == "
                 "cin else (0,)",
    .shape_key = "layout",
    .canonical = 1,
    .variant = "pass",
    .variants = pass_exports,
    .nvariants = CT_NPASSES,
};

const ct_family ct_family_conv2dc = {
    .name = "conv2dc",
    .grammar = "conv2dc:B:Cin:H:W:Cout:KH:KW[:valid|same|pad=P|pad=PH,PW][:stride=S|stride=SH,SW]"
               "[:dilation=D|dilation=DH,DW][:groups=G][:bias][:nchw|nhwc][:dgrad|wgrad][:bf16|f16|tf32]",
    .summary = "multi-channel 2D convolution of a batch of images (CNN layer, NCHW or channels-last NHWC, OIHW "
               "weights)",
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
    .tensor_maps = tensor_maps,
    .prep = prep,
    .reference_c = reference_c,
    .reference_c_for = reference_c_for,
    .family_export = &family_export,
};
