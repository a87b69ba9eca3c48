/* family_conv1dc.c - multi-channel 1D convolution layer (PyTorch Conv1d, NCL
 * or channels-last NLC activations, weights O(I/G)K in both, zero padding,
 * stride S, dilation D, G groups, optional bias):
 *
 *   out[b][co][t] = bias[co] + sum_{c<Cin/G, k<K} in[b][g*Cin/G + c][t*S + k*D - P] * w[co][c][k],
 *   g = co / (Cout/G)
 *
 * with in = 0 outside [0, L). pad=P puts P zeros on both sides, causal puts
 * (K-1)*D before and none after; LOUT is PyTorch's floor((L + zeros -
 * D*(K-1) - 1) / S) + 1.
 * The seed shape (U-Net layer of seed 002: 1024 -> 1024 channels, length 4,
 * K = 5) reuses each weight only B * LOUT times, so the tuned template is a
 * weight-streaming kernel rather than a register-blocked sliding window. */
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

enum { DIM_B, DIM_CIN, DIM_L, DIM_COUT, DIM_K, DIM_PAD, DIM_CAUSAL, DIM_STRIDE, DIM_DIL, DIM_GROUPS, DIM_BIAS,
       DIM_LAYOUT, DIM_PASS, DIM_DTYPE, NFIELDS };
static const char *const layout_names[] = {"ncl", "nlc"};
static const ct_field fields[NFIELDS] = {
    [DIM_B] = {"B", CT_FIELD_SIZE, "batch"},
    [DIM_CIN] = {"Cin", CT_FIELD_SIZE, "input channels"},
    [DIM_L] = {"L", CT_FIELD_SIZE, "input length"},
    [DIM_COUT] = {"Cout", CT_FIELD_SIZE, "output channels"},
    [DIM_K] = {"K", CT_FIELD_SIZE, "kernel taps"},
    [DIM_PAD] = {"pad", CT_FIELD_INT, "zeros on both sides of the input (pad=P, default 0, at most (K-1) x dilation)"},
    [DIM_CAUSAL] = {"causal", CT_FIELD_FLAG, "(K-1) x dilation zeros before the input and none after, instead of pad"},
    [DIM_STRIDE] = {"stride", CT_FIELD_INT, "step between output positions (stride=S, default 1)"},
    [DIM_DIL] = {"dilation", CT_FIELD_INT, "step between the taps (dilation=D, default 1)"},
    [DIM_GROUPS] = {"groups", CT_FIELD_INT, "groups of channels convolved apart (groups=G dividing Cin and Cout, "
                                            "default 1; G = Cin = Cout is depthwise)"},
    [DIM_BIAS] = {"bias", CT_FIELD_FLAG, "add a bias per output channel"},
    [DIM_LAYOUT] = {"layout", CT_FIELD_CHOICE, "ncl: input B x Cin x L, output B x Cout x LOUT (default); nlc: "
                                               "channels last, input B x L x Cin, output B x LOUT x Cout",
                    layout_names, 2},
    [DIM_PASS] = CT_PASS_FIELD,
    [DIM_DTYPE] = CT_DTYPE_FIELD_TF32,
};

/* Every buffer stays below 2^31 elements, so that kernels index with int;
 * the same bound on L + 2P keeps every padded position an int too. */
#define MAX_ELEMS 2147483647LL

/* Zeros before the input: the pad, or the causal (K-1) x D. */
static long long pad_left(const ct_problem *p)
{
    return p->dims[DIM_CAUSAL] ? (p->dims[DIM_K] - 1) * p->dims[DIM_DIL] : p->dims[DIM_PAD];
}

static long long lout_of(const ct_problem *p)
{
    return ct_layer_out(p->dims[DIM_L], pad_left(p), p->dims[DIM_CAUSAL] ? 0 : p->dims[DIM_PAD], p->dims[DIM_K],
                        p->dims[DIM_STRIDE], p->dims[DIM_DIL]);
}

/* Input channels each output channel sums over. */
static long long cin_per_group(const ct_problem *p)
{
    return p->dims[DIM_CIN] / p->dims[DIM_GROUPS];
}

static long long in_count(const ct_problem *p)
{
    return p->dims[DIM_B] * p->dims[DIM_CIN] * p->dims[DIM_L];
}

static long long weight_count(const ct_problem *p)
{
    return p->dims[DIM_COUT] * cin_per_group(p) * p->dims[DIM_K];
}

static long long out_count(const ct_problem *p)
{
    return p->dims[DIM_B] * p->dims[DIM_COUT] * lout_of(p);
}

/* a * b * c <= MAX_ELEMS for positive factors each <= MAX_ELEMS, without
 * overflowing on the way. */
static int fits(long long a, long long b, long long c)
{
    if (a > MAX_ELEMS / b)
        return 0;
    return a * b <= MAX_ELEMS / c;
}

/* The optional fields in the grammar's order: the keyed ones, then the
 * choice fields written as a bare value (bare_fields, in order). */
static const char *const opt_names[] = {"pad=P or causal", "stride", "dilation", "groups", "bias"};
#define NKEYED ((int)(sizeof opt_names / sizeof opt_names[0]))
static const int bare_fields[] = {DIM_LAYOUT, DIM_PASS};
#define NBARE ((int)(sizeof bare_fields / sizeof bare_fields[0]))
static const ct_layer_opts opts = {opt_names, NKEYED, fields, bare_fields, NBARE,
                                   "pad=P or causal, stride=S, dilation=D, groups=G, bias"};

static ct_status parse_option(const char *tok, ct_problem *p, int *last, ct_err *e)
{
    long long v[2];
    int rank;
    ct_status rc = CT_OK;
    if (strcmp(tok, "causal") == 0) {
        rank = 0;
        p->dims[DIM_CAUSAL] = 1;
    } else if (strncmp(tok, "pad", 3) == 0) {
        rank = 0;
        if (tok[3] != '=')
            return ct_fail(e, CT_ERR_USAGE, "malformed pad field '%s', expected pad=P", tok);
        rc = ct_layer_values(tok, "pad", 0, 1, v, e);
        p->dims[DIM_PAD] = v[0];
    } else if (strncmp(tok, "stride", 6) == 0) {
        rank = 1;
        rc = ct_layer_values(tok, "stride", 0, 0, v, e);
        p->dims[DIM_STRIDE] = v[0];
    } else if (strncmp(tok, "dilation", 8) == 0) {
        rank = 2;
        rc = ct_layer_values(tok, "dilation", 0, 0, v, e);
        p->dims[DIM_DIL] = v[0];
    } else if (strncmp(tok, "groups", 6) == 0) {
        rank = 3;
        rc = ct_layer_values(tok, "groups", 0, 0, v, e);
        p->dims[DIM_GROUPS] = v[0];
    } else if (strcmp(tok, "bias") == 0) {
        rank = 4;
        p->dims[DIM_BIAS] = 1;
    } else if (!ct_layer_bare(&opts, tok, p->dims, &rank, &rc, e)) {
        return ct_layer_unknown(&opts, tok, *last, e);
    }
    if (rc != CT_OK)
        return rc;
    return ct_layer_order_opts(&opts, rank, last, tok, e);
}

static ct_status parse(const char *text, ct_problem *p, ct_err *e)
{
    char buf[160], *f[5 + NKEYED + NBARE];
    int n = ct_split_fields(text, buf, sizeof buf, f, 5 + NKEYED + NBARE, e);
    if (n < 0)
        return CT_ERR_USAGE;
    if (n < 5)
        return ct_fail(e, CT_ERR_USAGE, "missing field %s (%s)", fields[n].name, fields[n].help);
    for (int i = DIM_B; i <= DIM_K; i++) {
        ct_status rc = ct_parse_field_size(&fields[i], f[i], MAX_ELEMS, &p->dims[i], e);
        if (rc != CT_OK)
            return rc;
    }
    p->dims[DIM_STRIDE] = p->dims[DIM_DIL] = p->dims[DIM_GROUPS] = 1;
    int last = -1;
    for (int i = 5; i < n; i++) {
        ct_status rc = parse_option(f[i], p, &last, e);
        if (rc != CT_OK)
            return rc;
    }
    long long *d = p->dims;
    if (d[DIM_PASS] == CT_PASS_DGRAD)
        d[DIM_BIAS] = 0;   /* a bias changes no input gradient: one key for the layer's dgrad */
    /* Taps that coincide: one key per layer (conv1dc_generic_canonical in
     * the generic template does the same to the exported selector's
     * arguments). */
    if (d[DIM_K] == 1) {
        d[DIM_CAUSAL] = 0;
        d[DIM_DIL] = 1;
    }
    const long long l = d[DIM_L], k = d[DIM_K], pad = d[DIM_PAD], dil = d[DIM_DIL], g = d[DIM_GROUPS];
    const long long span = (k - 1) * dil + 1;
    if (pad >= span) {
        if (dil == 1)
            return ct_fail(e, CT_ERR_USAGE,
                           "pad = %lld must be less than K (kernel taps) = %lld: edge outputs would see only padding",
                           pad, k);
        return ct_fail(e, CT_ERR_USAGE,
                       "pad = %lld must be less than K (kernel taps) = %lld dilated by %lld, a span of %lld: edge "
                       "outputs would see only padding", pad, k, dil, span);
    }
    if (d[DIM_CIN] % g != 0 || d[DIM_COUT] % g != 0)
        return ct_fail(e, CT_ERR_USAGE, "groups = %lld must divide Cin (input channels) = %lld and Cout (output "
                       "channels) = %lld", g, d[DIM_CIN], d[DIM_COUT]);
    const long long padded = l + (d[DIM_CAUSAL] ? span - 1 : 2 * pad);
    if (padded > MAX_ELEMS)
        return ct_fail(e, CT_ERR_USAGE, "L (input length) + its padding = %lld exceeds %lld", padded, MAX_ELEMS);
    if (lout_of(p) < 1 && dil == 1)
        return ct_fail(e, CT_ERR_USAGE,
                       "K (kernel taps) = %lld is longer than the padded input L + 2 * pad = %lld", k, l + 2 * pad);
    if (lout_of(p) < 1)   /* the span is what does not fit, not K */
        return ct_fail(e, CT_ERR_USAGE, "the dilated filter spans %lld taps (K=%lld, dilation=%lld), longer than the "
                       "padded input L + 2 * pad = %lld", span, k, dil, l + 2 * pad);
    if (!fits(d[DIM_B], d[DIM_CIN], l))
        return ct_fail(e, CT_ERR_USAGE, "input B x Cin x L has 2^31 elements or more");
    if (!fits(d[DIM_COUT], d[DIM_CIN] / g, k))
        return ct_fail(e, CT_ERR_USAGE, "weight Cout x Cin x K / groups has 2^31 elements or more");
    if (!fits(d[DIM_B], d[DIM_COUT], lout_of(p)))
        return ct_fail(e, CT_ERR_USAGE, "output B x Cout x LOUT has 2^31 elements or more");
    return CT_OK;
}

/* The defaults (stride, dilation, groups 1) are left out, so that layers
 * written before these fields existed keep their keys. */
static void canonical(const ct_problem *p, char *buf, size_t len)
{
    const long long *d = p->dims;
    int n = d[DIM_CAUSAL] ? snprintf(buf, len, "conv1dc:%lld:%lld:%lld:%lld:%lld:causal", d[DIM_B], d[DIM_CIN],
                                     d[DIM_L], d[DIM_COUT], d[DIM_K])
                          : snprintf(buf, len, "conv1dc:%lld:%lld:%lld:%lld:%lld:pad=%lld", d[DIM_B], d[DIM_CIN],
                                     d[DIM_L], d[DIM_COUT], d[DIM_K], d[DIM_PAD]);
    static const int opt[] = {DIM_STRIDE, DIM_DIL, DIM_GROUPS};
    for (int i = 0; i < 3; i++)
        if (d[opt[i]] != 1 && n > 0 && (size_t)n < len)
            n += snprintf(buf + n, len - (size_t)n, ":%s=%lld", fields[opt[i]].name, d[opt[i]]);
    if (d[DIM_BIAS] && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ":bias");
    for (int i = 0; i < NBARE; i++)
        if (d[bare_fields[i]] != 0 && n > 0 && (size_t)n < len)
            n += snprintf(buf + n, len - (size_t)n, ":%s", fields[bare_fields[i]].choices[d[bare_fields[i]]]);
}

static double flops(const ct_problem *p)
{
    /* Taps on padding count too: every direct kernel pays for them. */
    return 2.0 * (double)out_count(p) * (double)cin_per_group(p) * (double)p->dims[DIM_K];
}

static ct_tc_shape tc_shape(const ct_problem *p);

static double bytes(const ct_problem *p)
{
    const double esz = (double)ct_dtype_size(ct_problem_dtype(p));
    if (p->dims[DIM_PASS] != CT_PASS_FWD) {
        const ct_tc_shape s = tc_shape(p);
        return ct_pass_bytes(&s, (size_t)esz);
    }
    return esz * ((double)in_count(p) + (double)weight_count(p) + (p->dims[DIM_BIAS] ? (double)p->dims[DIM_COUT] : 0.0) +
                  (double)out_count(p));
}

static int buffers(const ct_problem *p, ct_buffer *b)
{
    if (p->dims[DIM_PASS] != CT_PASS_FWD) {
        const ct_tc_shape s = tc_shape(p);
        return ct_pass_buffers(&s, NULL, b);
    }
    int n = 0;
    b[n++] = (ct_buffer){.name = "in", .count = (size_t)in_count(p)};
    b[n++] = (ct_buffer){.name = "weight", .count = (size_t)weight_count(p)};
    if (p->dims[DIM_BIAS])
        b[n++] = (ct_buffer){.name = "bias", .count = (size_t)p->dims[DIM_COUT], .symbol = "c_bias"};
    b[n++] = (ct_buffer){.name = "out", .count = (size_t)out_count(p), .is_output = 1};
    return n;
}

static int defines(const ct_problem *p, ct_define *d)
{
    d[0] = (ct_define){"CONV_B", p->dims[DIM_B]};
    d[1] = (ct_define){"CONV_CIN", p->dims[DIM_CIN]};
    d[2] = (ct_define){"CONV_L", p->dims[DIM_L]};
    d[3] = (ct_define){"CONV_COUT", p->dims[DIM_COUT]};
    d[4] = (ct_define){"CONV_K", p->dims[DIM_K]};
    d[5] = (ct_define){"CONV_PAD", pad_left(p)};
    d[6] = (ct_define){"CONV_LOUT", lout_of(p)};
    d[7] = (ct_define){"CONV_BIAS", p->dims[DIM_BIAS]};
    /* Only where they are not 1 (templates default them), so that the
     * layers before these fields compile and export as they did. */
    int n = 8;
    if (p->dims[DIM_STRIDE] != 1)
        d[n++] = (ct_define){"CONV_STRIDE", p->dims[DIM_STRIDE]};
    if (p->dims[DIM_DIL] != 1)
        d[n++] = (ct_define){"CONV_DIL", p->dims[DIM_DIL]};
    if (p->dims[DIM_GROUPS] != 1)
        d[n++] = (ct_define){"CONV_GROUPS", p->dims[DIM_GROUPS]};
    if (p->dims[DIM_LAYOUT] != 0)
        d[n++] = (ct_define){"CONV_CHANNELS_LAST", 1};
    if (p->dims[DIM_PASS] != CT_PASS_FWD)
        d[n++] = (ct_define){"CONV_PASS", p->dims[DIM_PASS]};
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
    "#ifndef CONV_STRIDE\n#define CONV_STRIDE 1\n#endif\n" \
    "#ifndef CONV_DIL\n#define CONV_DIL 1\n#endif\n" \
    "#ifndef CONV_GROUPS\n#define CONV_GROUPS 1\n#endif\n" \
    "#if CONV_CHANNELS_LAST /* nlc: input B x L x Cin, output B x LOUT x Cout */\n" \
    "#define CT_IN(b, c, x) (((b) * CONV_L + (x)) * CONV_CIN + (c))\n" \
    "#define CT_OUT(b, c, t) (((b) * CONV_LOUT + (t)) * CONV_COUT + (c))\n" \
    "#else\n" \
    "#define CT_IN(b, c, x) (((b) * CONV_CIN + (c)) * CONV_L + (x))\n" \
    "#define CT_OUT(b, c, t) (((b) * CONV_COUT + (c)) * CONV_LOUT + (t))\n" \
    "#endif\n"

static const char reference_c[] =
    REF_PREAMBLE
    "static void ct_reference(const float *const *in, double *out)\n"
    "{\n"
    "    const long long cg = CONV_CIN / CONV_GROUPS, og = CONV_COUT / CONV_GROUPS;\n"
    "    for (long long b = 0; b < CONV_B; b++)\n"
    "        for (long long co = 0; co < CONV_COUT; co++)\n"
    "            for (long long t = 0; t < CONV_LOUT; t++) {\n"
    "                double acc = 0.0;\n"
    "#if CONV_BIAS\n"
    "                acc = (double)in[2][co];\n"
    "#endif\n"
    "                for (long long c = 0; c < cg; c++)\n"
    "                    for (long long k = 0; k < CONV_K; k++) {\n"
    "                        long long x = t * CONV_STRIDE + k * CONV_DIL - CONV_PAD;\n"
    "                        if (x >= 0 && x < CONV_L)\n"
    "                            acc += (double)in[0][CT_IN(b, co / og * cg + c, x)] *\n"
    "                                   (double)in[1][(co * cg + c) * CONV_K + k];\n"
    "                    }\n"
    "                out[CT_OUT(b, co, t)] = acc;\n"
    "            }\n"
    "}\n";

/* A training pass's reference (conv_pass.h) over the same macros, the
 * layer named as conv_pass.h's CTP_* names. */
static const char pass_reference_c[] =
    REF_PREAMBLE
    "#define CTP_B CONV_B\n#define CTP_CIN CONV_CIN\n#define CTP_H 1\n#define CTP_W CONV_L\n"
    "#define CTP_COUT CONV_COUT\n#define CTP_KH 1\n#define CTP_KW CONV_K\n#define CTP_OH 1\n"
    "#define CTP_OW CONV_LOUT\n#define CTP_PH 0\n#define CTP_PW CONV_PAD\n#define CTP_SH 1\n"
    "#define CTP_SW CONV_STRIDE\n#define CTP_DH 1\n#define CTP_DW CONV_DIL\n#define CTP_GROUPS CONV_GROUPS\n"
    "#define CTP_BIAS CONV_BIAS\n#define CTP_X(b, c, y, x) CT_IN(b, c, x)\n#define CTP_Y(b, c, y, t) CT_OUT(b, c, t)\n"
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
    {.name = "conv1dc_naive", .summary = "one thread per output, all from global memory (baseline)",
     .is_baseline = 1, .dtypes = CT_DTYPES_ALL, .params = naive_params, .nparams = CT_PARAM_COUNT(NAIVE_PARAMS),
     .kind = &naive_kind},
    CT_KERNEL(conv1dc, tiled),
    CT_KERNEL(conv1dc, gemm),
    CT_KERNEL(conv1dc, tc),
    CT_KERNEL(conv1dc, tcsplit),
    CT_KERNEL(conv1dc, tc16),
    CT_KERNEL(conv1dc, tc16w),
    CT_KERNEL(conv1dc, tc16wb),
    CT_KERNEL(conv1dc, tc16cl),
    CT_KERNEL(conv1dc, dw),
    CT_DWH_ENTRY(conv1dc),
    CT_KERNEL(conv1dc, simt),
    CT_SIMTH_ENTRY(conv1dc),
    CT_KERNEL(conv1dc, dgnaive),
    CT_KERNEL(conv1dc, wgnaive),
    CT_KERNEL(conv1dc, dgdwcl),
    CT_KERNEL(conv1dc, wgdwcl),
    CT_KERNEL(conv1dc, dgdw),
    CT_KERNEL(conv1dc, wgdw),
    CT_KERNEL(conv1dc, dgsimt),
    CT_KERNEL(conv1dc, wgsimt),
    CT_KERNEL(conv1dc, dwcl),
    CT_DWCLH_ENTRY(conv1dc),
    CT_KERNEL(conv1dc, dwtcl),
    CT_KERNEL(conv1dc, tc16gktcl),
    CT_KERNEL(conv1dc, wgdw16cl),
    CT_KERNEL(conv1dc, dwtc16cl),
};

/* The layer as the tensor-core templates see it: 2D of height 1. */
static ct_tc_shape tc_shape(const ct_problem *p)
{
    const long long *d = p->dims;
    return (ct_tc_shape){.b = d[DIM_B], .cin = d[DIM_CIN], .h = 1, .w = d[DIM_L], .cout = d[DIM_COUT], .kh = 1,
                         .kw = d[DIM_K], .oh = 1, .ow = lout_of(p), .ph = 0, .pw = pad_left(p), .sy = 1,
                         .sx = d[DIM_STRIDE], .dy = 1, .dx = d[DIM_DIL], .groups = d[DIM_GROUPS],
                         .bias = (int)d[DIM_BIAS], .pass = (int)d[DIM_PASS], .p = p};
}

static long long ceil_div(long long a, long long b)
{
    return (a + b - 1) / b;
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
    return ct_layer_plain_only(t->name, d[DIM_STRIDE] != 1 || d[DIM_DIL] != 1, d[DIM_GROUPS], why, len);
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

static int naive_kind_constrain(const ct_template *t, const ct_tc_shape *sh, const ct_params *c,
                                const ct_limits *lim, char *why, size_t len)
{
    (void)t, (void)sh;
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
    const long block = naive_get(c).BLOCK_SIZE;
    l->grid[0] = (unsigned)ceil_div(out_count(s->p), block);
    l->grid[1] = l->grid[2] = 1;
    l->block[0] = (unsigned)block;
    l->block[1] = l->block[2] = 1;
}

/* The naive template reads and writes both layouts, any layer. */
static const ct_kernel_kind naive_kind = {.name = "naive", .layouts = CT_LAYOUT_BOTH, .any_layer = 1,
                                          .constrain = naive_kind_constrain, .normalize = naive_kind_normalize,
                                          .launch = naive_kind_launch};

/* The output length, in the PyTorch module's arguments. */
#define PY_LOUT "(l + ((k - 1) * dilation if causal else 2 * pad) - dilation * (k - 1) - 1) // stride + 1"

/* The selectors of `export --family conv1dc` and their generic kernels:
 * the forward layer's, bias NULL for a layer without one, and one per
 * training pass (conv_pass.h, family_export.h's variants), whose arguments
 * are the same fields, bias aside. */
static const char *const sel_buffers[] = {"in", "weight", "bias", "out"};
#define SEL_ARGS(...)                                                                                               \
    {.name = "b", .kind = CT_SEL_SIZE, .help = "batch"},                                                           \
    {.name = "cin", .kind = CT_SEL_SIZE, .help = "input channels"},                                                \
    {.name = "l", .kind = CT_SEL_SIZE, .help = "input length"},                                                    \
    {.name = "cout", .kind = CT_SEL_SIZE, .help = "output channels"},                                              \
    {.name = "k", .kind = CT_SEL_SIZE, .help = "kernel taps"},                                                     \
    {.name = "pad", .kind = CT_SEL_KEY, .help = "zero padding on both sides, less than (k-1)*dilation+1"},         \
    {.name = "causal", .kind = CT_SEL_KEY, .help = "1: (k-1)*dilation zeros before, none after (pad 0)"},          \
    {.name = "stride", .kind = CT_SEL_KEY, .help = "step between outputs", .dflt = 1},                             \
    {.name = "dilation", .kind = CT_SEL_KEY, .help = "step between taps", .dflt = 1},                              \
    {.name = "groups", .kind = CT_SEL_KEY, .help = "channel groups, dividing cin and cout", .dflt = 1},            \
    __VA_ARGS__,                                                                                                    \
    {.name = "layout", .kind = CT_SEL_KEY, .help = "ncl: in b x cin x l, out b x cout x lout; nlc (channels "     \
     "last): in b x l x cin, out b x lout x cout", .choices = layout_names, .nchoices = 2}
static const ct_sel_arg sel_args[] = {
    SEL_ARGS({.name = "bias", .kind = CT_SEL_BUFFER, .help = "whether the layer adds a bias"})};
static const ct_sel_arg dg_args[] = {
    SEL_ARGS({.name = "bias", .kind = CT_SEL_FIXED, .help = "none: a bias changes no input gradient"})};
static const ct_sel_arg wg_args[] = {SEL_ARGS(
    {.name = "bias", .kind = CT_SEL_KEY, .help = "1: dweight holds the cout bias gradients after the weight gradients"})};
/* The input's dimensions in each layout (family_export.h). */
static const char *const sel_shapes[] = {"b,cin,l|b,l,cin", "cout,cing,k", "cout"};

/* The selector's arguments are the fields, in field order (family_export.h). */
_Static_assert(sizeof sel_args / sizeof sel_args[0] == DIM_PASS, "one selector argument per field before the pass");
_Static_assert(sizeof dg_args == sizeof sel_args && sizeof wg_args == sizeof sel_args, "the passes' too");

/* The passes' selectors: no PyTorch module yet (the autograd op is its own
 * work). */
static const char *const dg_buffers[] = {"dout", "weight", "din"};
static const char *const wg_buffers[] = {"in", "dout", "dweight"};
static const ct_family_export dg_export = {
    .generic = "conv1dc_dggeneric", .buffers = dg_buffers, .nbuffers = 3, .args = dg_args, .nargs = DIM_PASS,
    .canonical = 1,
    .summary = "the input gradient (pass dgrad): din (the forward input's shape and layout) from dout (the forward "
               "output's) and the weights"};
static const ct_family_export wg_export = {
    .generic = "conv1dc_wggeneric", .buffers = wg_buffers, .nbuffers = 3, .args = wg_args, .nargs = DIM_PASS,
    .canonical = 1,
    .summary = "the weight gradient (pass wgrad): dweight (cout x cin/groups x k, then cout bias gradients when "
               "bias is 1) from in and dout"};
static const ct_family_export family_export;
static const ct_family_export *const pass_exports[CT_NPASSES] = {&family_export, &dg_export, &wg_export};

static const ct_family_export family_export = {
    .generic = "conv1dc_generic",
    .buffers = sel_buffers,
    .nbuffers = 4,
    .args = sel_args,
    .nargs = DIM_PASS,    /* the pass and element type are no arguments: each pass has its selector, of one type */
    .shapes = sel_shapes,
    /* Weights of another cin / groups give no output, which the module refuses. */
    .out_shape = "((b, cout, " PY_LOUT ") if layout == 0 else (b, " PY_LOUT ", cout)) if sizes[\"cing\"] * groups == cin else (0,)",
    .shape_key = "layout",
    .canonical = 1,
    .variant = "pass",
    .variants = pass_exports,
    .nvariants = CT_NPASSES,
};

const ct_family ct_family_conv1dc = {
    .name = "conv1dc",
    .grammar = "conv1dc:B:Cin:L:Cout:K[:pad=P|causal][:stride=S][:dilation=D][:groups=G][:bias][:ncl|nlc][:dgrad|wgrad][:bf16|f16|tf32]",
    .summary = "multi-channel 1D convolution layer (PyTorch Conv1d, NCL or channels-last NLC, zero padding, "
               "optional bias)",
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
