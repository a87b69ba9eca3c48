/* conformance_rows.h - the one family-specific part of test_conformance.c:
 * the definition every family is checked against, and one row per family
 * (examples with their canonical strings, refusals, odd shapes). Included by
 * test_conformance.c alone; a table, kept apart so that the checks read in
 * one file and the rows in another. */
#ifndef CONFORMANCE_ROWS_H
#define CONFORMANCE_ROWS_H

/* Every family computes, with zeros outside the input,
 *
 *   out[b][co][y][x] = bias[co]
 *       + sum over c < Cin/G, i < KH, j < KW of
 *         in[b][g*Cin/G + c][y*SY + i*DY - PH][x*SX + j*DX - PW] * w[co][c][i][j],   g = co / (Cout/G)
 *
 * for y < OH, x < OW; a family without channels, batch, a second dimension
 * or a bias has 1 (or no bias) there, and stride SY x SX, dilation DY x DX
 * and G groups are 1 where the row leaves them 0. Buffers: in, w, bias when
 * present, out. A problem written with a channels-last layout (":nlc",
 * ":nhwc" last) has its input in[b][y][x][c] and its output out[b][y][x][co]
 * instead; the weights stay w[co][c][i][j]. A row of the table names the
 * fields it sets (.kh = KH, .ph = PH, .sy = SY, ...); those it leaves out
 * are 0. */
typedef struct geometry {
    long long b, cin, h, w, cout, kh, kw, ph, pw, oh, ow;
    int bias;
    long long sy, sx, dy, dx, groups;
} geometry;

typedef struct example {
    const char *spec, *canonical;
    int sample;   /* 1: its templates' samples are compiled */
} example;

typedef struct refusal {
    const char *spec;
    const char *field;   /* what the message must name: the field at fault */
    const char *also;    /* NULL, or more the message must say */
} refusal;

typedef struct odd_shape {
    const char *spec;
    geometry g;
} odd_shape;

#define MAX_EXAMPLES 48

typedef struct family_row {
    const char *family;
    /* Candidates compiled per template, problem and architecture, each
     * architecture drawing others (lib/sample.h), for one example per
     * template and architecture, drawn each run among those it has
     * candidates for (every example on every architecture with
     * CONVTUNE_TEST_FULL=1). */
    int per_template;
    example examples[MAX_EXAMPLES];
    refusal refusals[56];
    odd_shape odd[20];
} family_row;

/* clang-format off */
static const family_row rows[] = {
    {.family = "conv1d", .per_template = 2,
     .examples =
     {{"conv1d:1e6:2047", "conv1d:1000000:2047:valid", 1},
      {"conv1d:1e6:2047:f16", "conv1d:1000000:2047:valid:f16", 1},
      {"conv1d:1000:31:same:bf16", "conv1d:1000:31:same:bf16", 1},
      {"conv1d:1000:31:same", "conv1d:1000:31:same", 1},
      {"conv1d:15:4:right", "conv1d:15:4:right", 1},
      {"conv1d:100000000:3", "conv1d:100000000:3:valid", 1},
      {"conv1d:15:4:puzzle", "conv1d:15:4:right", 0},
      {"conv1d:2.5e3:3", "conv1d:2500:3:valid", 0},
      {"conv1d:5:5", "conv1d:5:5:valid", 0},
      {"conv1d:5:6:same", "conv1d:5:6:same", 0},
      {"conv1d:2e9:3", "conv1d:2000000000:3:valid", 0}},
     .refusals =
     {{"conv1d", "missing", NULL},
      {"conv1d:10:3:f16:same", "element type 'f16'", "last"},
      {"conv1d:10:3:bf16:f16", "element type", "twice"},
      {"conv1d:10:3:fp16", "element type 'fp16'", "unknown"},
      {"conv1d:10", "K (mask taps)", "missing"},
      {"conv1d:0:3", "N (input length)", "positive"},
      {"conv1d:-5:3", "N (input length)", "positive"},
      {"conv1d:10:0", "K (mask taps)", "positive"},
      {"conv1d:1.5e0:1", "N (input length)", "integer"},
      {"conv1d:10:2.5", "K (mask taps)", "integer"},
      {"conv1d:2000000001:3", "N (input length)", "too large"},
      {"conv1d:10:3000000000:same", "K (mask taps)", "too large"},
      {"conv1d:abc:3", "N (input length)", "abc"},
      {"conv1d::3", "N (input length)", NULL},
      {"conv1d:10:3:diagonal", "MODE", "diagonal"},
      {"conv1d:10:3:", "MODE", NULL},
      {"conv1d:10:3:valid:x", "too many fields", NULL},
      {"conv1d:5:6", "K (mask taps)", "N (input length)"}},
     .odd =
     {{"conv1d:17:5",
       {.b = 1, .cin = 1, .h = 1, .w = 17, .cout = 1, .kh = 1, .kw = 5, .oh = 1, .ow = 13}},
      {"conv1d:17:5:same",
       {.b = 1, .cin = 1, .h = 1, .w = 17, .cout = 1, .kh = 1, .kw = 5, .pw = 2, .oh = 1, .ow = 17}},
      {"conv1d:17:6:same",
       {.b = 1, .cin = 1, .h = 1, .w = 17, .cout = 1, .kh = 1, .kw = 6, .pw = 2, .oh = 1, .ow = 17}},
      {"conv1d:17:5:right",
       {.b = 1, .cin = 1, .h = 1, .w = 17, .cout = 1, .kh = 1, .kw = 5, .oh = 1, .ow = 17}},
      {"conv1d:3:9:same",
       {.b = 1, .cin = 1, .h = 1, .w = 3, .cout = 1, .kh = 1, .kw = 9, .pw = 4, .oh = 1, .ow = 3}},
      {"conv1d:4:11:right",
       {.b = 1, .cin = 1, .h = 1, .w = 4, .cout = 1, .kh = 1, .kw = 11, .oh = 1, .ow = 4}},
      {"conv1d:1:1",
       {.b = 1, .cin = 1, .h = 1, .w = 1, .cout = 1, .kh = 1, .kw = 1, .oh = 1, .ow = 1}},
      {"conv1d:1000:97",
       {.b = 1, .cin = 1, .h = 1, .w = 1000, .cout = 1, .kh = 1, .kw = 97, .oh = 1, .ow = 904}}}},

    {.family = "conv1dc", .per_template = 1,
     .examples =
     {{"conv1dc:1:1024:4:1024:5:pad=2:bias", "conv1dc:1:1024:4:1024:5:pad=2:bias", 1},
      {"conv1dc:1:1024:4:1024:5:pad=2:bias:bf16", "conv1dc:1:1024:4:1024:5:pad=2:bias:bf16", 1},
      {"conv1dc:2:6:37:6:5:pad=2:stride=3:groups=2:f16", "conv1dc:2:6:37:6:5:pad=2:stride=3:groups=2:f16", 1},
      {"conv1dc:3:40:29:24:4:pad=1:stride=2:bias:f16", "conv1dc:3:40:29:24:4:pad=1:stride=2:bias:f16", 1},
      {"conv1dc:8:64:1000:128:3:pad=1", "conv1dc:8:64:1000:128:3:pad=1", 1},
      {"conv1dc:1:3:17:5:1", "conv1dc:1:3:17:5:1:pad=0", 1},
      {"conv1dc:2:7:33:9:7:pad=3:bias", "conv1dc:2:7:33:9:7:pad=3:bias", 1},
      {"conv1dc:16:512:64:256:5:pad=2:bias", "conv1dc:16:512:64:256:5:pad=2:bias", 1},
      {"conv1dc:1:1:1:1:1", "conv1dc:1:1:1:1:1:pad=0", 1},
      {"conv1dc:3:5:11:6:4:pad=2:bias", "conv1dc:3:5:11:6:4:pad=2:bias", 1},
      {"conv1dc:1:1.024e3:4:1024:5:pad=2:bias", "conv1dc:1:1024:4:1024:5:pad=2:bias", 0},
      {"conv1dc:1:3:17:5:2:pad=00", "conv1dc:1:3:17:5:2:pad=0", 0},
      {"conv1dc:2:7:33:9:7:bias", "conv1dc:2:7:33:9:7:pad=0:bias", 0},
      {"conv1dc:1:2:3:2:7:pad=2", "conv1dc:1:2:3:2:7:pad=2", 0},
      {"conv1dc:1:1:2147483647:1:1", "conv1dc:1:1:2147483647:1:1:pad=0", 0},
      {"conv1dc:8:64:1000:64:4:causal:groups=64", "conv1dc:8:64:1000:64:4:causal:groups=64", 1},
      {"conv1dc:3:12:101:18:3:pad=8:stride=1:dilation=8:groups=3:bias",
       "conv1dc:3:12:101:18:3:pad=8:dilation=8:groups=3:bias", 1},
      {"conv1dc:2:6:37:6:5:pad=2:stride=3", "conv1dc:2:6:37:6:5:pad=2:stride=3", 1},
      {"conv1dc:2:6:37:6:1:causal:dilation=4", "conv1dc:2:6:37:6:1:pad=0", 0},
      /* channels last */
      {"conv1dc:8:64:1000:64:4:causal:groups=64:nlc", "conv1dc:8:64:1000:64:4:causal:groups=64:nlc", 1},
      {"conv1dc:2:12:41:12:3:pad=2:stride=2:dilation=2:groups=12:bias:nlc",
       "conv1dc:2:12:41:12:3:pad=2:stride=2:dilation=2:groups=12:bias:nlc", 1},
      {"conv1dc:3:12:101:18:3:pad=8:dilation=8:groups=3:bias:nlc",
       "conv1dc:3:12:101:18:3:pad=8:dilation=8:groups=3:bias:nlc", 1},
      {"conv1dc:2:6:37:6:5:pad=2:stride=3:ncl", "conv1dc:2:6:37:6:5:pad=2:stride=3", 0},
      /* channels last in half precision: the layout, then the type */
      {"conv1dc:2:12:41:12:3:pad=2:groups=12:bias:nlc:bf16", "conv1dc:2:12:41:12:3:pad=2:groups=12:bias:nlc:bf16", 1},
      {"conv1dc:2:6:37:6:5:pad=2:stride=3:ncl:f16", "conv1dc:2:6:37:6:5:pad=2:stride=3:f16", 0},
      /* channels-last half layers for conv1dc_tc16cl: every copy width */
      {"conv1dc:3:37:29:22:5:pad=2:stride=2:bias:nlc:f16", "conv1dc:3:37:29:22:5:pad=2:stride=2:bias:nlc:f16", 1},
      {"conv1dc:2:48:101:36:3:pad=8:dilation=8:groups=3:nlc:bf16",
       "conv1dc:2:48:101:36:3:pad=8:dilation=8:groups=3:nlc:bf16", 1},
      /* conv1dc_tc16gktcl: TMA-fed wgmma, causal, strided, odd channels */
      {"conv1dc:3:40:301:24:5:causal:stride=2:bias:nlc:f16", "conv1dc:3:40:301:24:5:causal:stride=2:bias:nlc:f16", 1},
      /* conv1dc_dwclh: strided, dilated channels-last depthwise in f16 */
      {"conv1dc:2:12:41:12:3:pad=2:stride=2:dilation=2:groups=12:nlc:f16",
       "conv1dc:2:12:41:12:3:pad=2:stride=2:dilation=2:groups=12:nlc:f16", 1},
      /* conv1dc_dwh: causal K = 4 on the vector path with bias, odd strided
       * and dilated rows */
      {"conv1dc:2:16:64:16:4:causal:groups=16:bias:bf16", "conv1dc:2:16:64:16:4:causal:groups=16:bias:bf16", 1},
      {"conv1dc:3:7:61:7:5:pad=4:stride=3:dilation=2:groups=7:f16",
       "conv1dc:3:7:61:7:5:pad=4:stride=3:dilation=2:groups=7:f16", 1},
      /* the training passes: each pass kernel's layers (conv_pass.h) */
      {"conv1dc:2:16:64:16:4:causal:groups=16:bias:wgrad", "conv1dc:2:16:64:16:4:causal:groups=16:bias:wgrad", 1},
      {"conv1dc:2:16:64:16:4:causal:groups=16:bias:dgrad:bf16", "conv1dc:2:16:64:16:4:causal:groups=16:dgrad:bf16",
       1},
      {"conv1dc:2:12:41:12:3:pad=2:stride=2:groups=12:nlc:dgrad",
       "conv1dc:2:12:41:12:3:pad=2:stride=2:groups=12:nlc:dgrad", 1},
      {"conv1dc:2:12:41:12:3:pad=2:groups=12:bias:nlc:wgrad:f16",
       "conv1dc:2:12:41:12:3:pad=2:groups=12:bias:nlc:wgrad:f16", 1},
      {"conv1dc:2:6:37:8:5:pad=2:stride=3:groups=2:dgrad", "conv1dc:2:6:37:8:5:pad=2:stride=3:groups=2:dgrad", 1},
      {"conv1dc:2:6:37:8:5:pad=2:stride=3:groups=2:bias:wgrad",
       "conv1dc:2:6:37:8:5:pad=2:stride=3:groups=2:bias:wgrad", 1},
      {"conv1dc:2:6:37:8:5:pad=2:fwd", "conv1dc:2:6:37:8:5:pad=2", 0}},
     .refusals =
     {{"conv1dc", "missing", NULL},
      {"conv1dc:1:4:8:4:3:bf16:bias", "element type 'bf16'", "last"},
      {"conv1dc:1", "Cin (input channels)", "missing"},
      {"conv1dc:1:4:8:4", "K (kernel taps)", "missing"},
      {"conv1dc:0:4:8:4:3", "B (batch)", "positive"},
      {"conv1dc:1:0:8:4:3", "Cin (input channels)", "positive"},
      {"conv1dc:1:4:0:4:3", "L (input length)", "positive"},
      {"conv1dc:1:4:8:0:3", "Cout (output channels)", "positive"},
      {"conv1dc:1:4:8:4:0", "K (kernel taps)", "positive"},
      {"conv1dc:1:4:x8:4:3", "L (input length)", "x8"},
      {"conv1dc:1:4:8:4:3.5", "K (kernel taps)", "integer"},
      {"conv1dc:1:4:8:4:", "K (kernel taps)", NULL},
      {"conv1dc:1:1:2:1:5", "K (kernel taps)", "longer than the padded input"},
      {"conv1dc:1:1:8:1:3:pad=3", "pad", "must be less than K"},
      {"conv1dc:1:4:8:4:3:bias:bias", "bias", "given twice"},
      {"conv1dc:1:4:8:4:3:pad=1:pad=1", "pad", "given twice"},
      {"conv1dc:1:4:8:4:3:bias:pad=1", "pad", "must come before bias"},
      {"conv1dc:1:4:8:4:3:strides=2", "stride", "malformed"},
      {"conv1dc:1:4:8:4:3:stide=2", "stide=2", "unknown field"},
      {"conv1dc:1:4:8:4:3:stride=0", "stride", "positive"},
      {"conv1dc:1:4:8:4:3:stride=2,2", "stride", "one value"},
      {"conv1dc:1:4:8:4:3:dilation=x", "dilation", "'x'"},
      {"conv1dc:1:6:8:4:3:groups=4", "groups", "must divide"},
      {"conv1dc:1:4:8:6:3:groups=4", "groups", "must divide"},
      {"conv1dc:1:4:8:4:3:pad=7:dilation=3", "pad", "dilated by 3"},
      {"conv1dc:1:4:8:4:3:causal:pad=1", "pad=P or causal", "given twice"},
      {"conv1dc:1:4:8:4:3:groups=2:stride=2", "stride", "must come before groups"},
      {"conv1dc:1:4:8:4:3:dilation=5", "dilated filter", "(K=3, dilation=5), longer than the padded input"},
      {"conv1dc:1:4:8:4:3:pad", "pad", "malformed"},
      {"conv1dc:1:4:8:4:3:pad=", "pad", "empty"},
      {"conv1dc:1:4:8:4:3:pad=-1", "pad", "positive"},
      {"conv1dc:1:4:8:4:3:pad=1:bias:bias", "bias", "given twice"},
      {"conv1dc:1:4:8:4:3:pad=1:stride=1:dilation=1:groups=1:bias:x", "'x'", "unknown field"},
      {"conv1dc:1:4:8:4:3:pad=1:stride=1:dilation=1:groups=1:bias:nlc:wgrad:x", "too many fields", NULL},
      {"conv1dc:1:4:8:4:3:nlc:dgrad:x", "too many fields", "after pass"},
      {"conv1dc:1:4:8:4:3:nlc:x", "unknown field 'x'", "a pass (fwd, dgrad, wgrad)"},
      {"conv1dc:1:4:8:4:3:wgrad:nlc", "layout", "must come before pass"},
      {"conv1dc:1:4:8:4:3:dgrad:dgrad", "pass", "given twice"},
      {"conv1dc:1:4:8:4:3:nhwc", "layout", "'nhwc'"},
      {"conv1dc:1:4:8:4:3:nlc:nlc", "layout", "given twice"},
      {"conv1dc:1:4:8:4:3:nlc:ncl", "layout", "given twice"},
      {"conv1dc:1:4:8:4:3:nlc:bias", "bias", "must come before layout"},
      {"conv1dc:1:4:8:4:3:nlc:causal", "pad=P or causal", "must come before layout"},
      {"conv1dc:1:4:8:4:3:bias:f16:nlc", "element type 'f16'", "last"},
      {"conv1dc:1:4:8:4:3:NLC", "'NLC'", "unknown field"},
      {"conv1dc:1:65536:32768:1:1", "input B x Cin x L", NULL},
      {"conv1dc:1:65536:1:32768:1", "weight Cout x Cin x K", NULL},
      {"conv1dc:65536:1:1:32768:1", "output B x Cout x LOUT", NULL},
      {"conv1dc:1:1:1:1:3e9", "K (kernel taps)", "too large"}},
     .odd =
     {{"conv1dc:1:3:17:5:1",
       {.b = 1, .cin = 3, .h = 1, .w = 17, .cout = 5, .kh = 1, .kw = 1, .oh = 1, .ow = 17}},
      {"conv1dc:2:7:33:9:7:pad=3:bias",
       {.b = 2, .cin = 7, .h = 1, .w = 33, .cout = 9, .kh = 1, .kw = 7, .pw = 3, .oh = 1, .ow = 33, .bias = 1}},
      {"conv1dc:1:1:1:1:1",
       {.b = 1, .cin = 1, .h = 1, .w = 1, .cout = 1, .kh = 1, .kw = 1, .oh = 1, .ow = 1}},
      {"conv1dc:3:5:11:6:4:pad=2",
       {.b = 3, .cin = 5, .h = 1, .w = 11, .cout = 6, .kh = 1, .kw = 4, .pw = 2, .oh = 1, .ow = 12}},
      {"conv1dc:1:37:4:13:5:pad=2:bias",
       {.b = 1, .cin = 37, .h = 1, .w = 4, .cout = 13, .kh = 1, .kw = 5, .pw = 2, .oh = 1, .ow = 4, .bias = 1}},
      {"conv1dc:5:9:70:3:3:pad=1:bias",
       {.b = 5, .cin = 9, .h = 1, .w = 70, .cout = 3, .kh = 1, .kw = 3, .pw = 1, .oh = 1, .ow = 70, .bias = 1}},
      {"conv1dc:1:2:3:2:7:pad=2:bias",
       {.b = 1, .cin = 2, .h = 1, .w = 3, .cout = 2, .kh = 1, .kw = 7, .pw = 2, .oh = 1, .ow = 1, .bias = 1}},
      {"conv1dc:3:33:19:5:1:bias",
       {.b = 3, .cin = 33, .h = 1, .w = 19, .cout = 5, .kh = 1, .kw = 1, .oh = 1, .ow = 19, .bias = 1}},
      /* causal: (K-1)*D zeros before, none after; stride, dilation, groups */
      {"conv1dc:2:6:19:6:4:causal:groups=6",
       {.b = 2, .cin = 6, .h = 1, .w = 19, .cout = 6, .kh = 1, .kw = 4, .pw = 3, .oh = 1, .ow = 19,
        .sy = 1, .sx = 1, .dy = 1, .dx = 1, .groups = 6}},
      {"conv1dc:1:4:23:6:3:causal:dilation=3:groups=2:bias",
       {.b = 1, .cin = 4, .h = 1, .w = 23, .cout = 6, .kh = 1, .kw = 3, .pw = 6, .oh = 1, .ow = 23,
        .bias = 1, .sy = 1, .sx = 1, .dy = 1, .dx = 3, .groups = 2}},
      {"conv1dc:2:3:20:5:4:causal:stride=3",
       {.b = 2, .cin = 3, .h = 1, .w = 20, .cout = 5, .kh = 1, .kw = 4, .pw = 3, .oh = 1, .ow = 7,
        .sy = 1, .sx = 3, .dy = 1, .dx = 1, .groups = 1}},
      {"conv1dc:2:5:31:4:3:pad=4:stride=2:dilation=3",
       {.b = 2, .cin = 5, .h = 1, .w = 31, .cout = 4, .kh = 1, .kw = 3, .pw = 4, .oh = 1, .ow = 17,
        .sy = 1, .sx = 2, .dy = 1, .dx = 3, .groups = 1}},
      {"conv1dc:1:6:17:9:5:pad=1:stride=4:groups=3:bias",
       {.b = 1, .cin = 6, .h = 1, .w = 17, .cout = 9, .kh = 1, .kw = 5, .pw = 1, .oh = 1, .ow = 4,
        .bias = 1, .sy = 1, .sx = 4, .dy = 1, .dx = 1, .groups = 3}},
      /* channels last */
      {"conv1dc:2:6:19:6:4:causal:groups=6:nlc",
       {.b = 2, .cin = 6, .h = 1, .w = 19, .cout = 6, .kh = 1, .kw = 4, .pw = 3, .oh = 1, .ow = 19,
        .sy = 1, .sx = 1, .dy = 1, .dx = 1, .groups = 6}},
      {"conv1dc:1:4:23:6:3:causal:dilation=3:groups=2:bias:nlc",
       {.b = 1, .cin = 4, .h = 1, .w = 23, .cout = 6, .kh = 1, .kw = 3, .pw = 6, .oh = 1, .ow = 23,
        .bias = 1, .sy = 1, .sx = 1, .dy = 1, .dx = 3, .groups = 2}},
      {"conv1dc:1:6:17:9:5:pad=1:stride=4:groups=3:bias:nlc",
       {.b = 1, .cin = 6, .h = 1, .w = 17, .cout = 9, .kh = 1, .kw = 5, .pw = 1, .oh = 1, .ow = 4,
        .bias = 1, .sy = 1, .sx = 4, .dy = 1, .dx = 1, .groups = 3}},
      {"conv1dc:3:5:11:6:4:pad=2:nlc",
       {.b = 3, .cin = 5, .h = 1, .w = 11, .cout = 6, .kh = 1, .kw = 4, .pw = 2, .oh = 1, .ow = 12}}}},

    {.family = "conv2d", .per_template = 2,
     .examples =
     {{"conv2d:16:2048:2048:11:11:same", "conv2d:16:2048:2048:11:11:same", 1},
      {"conv2d:16:2048:2048:11:11:same:f16", "conv2d:16:2048:2048:11:11:same:f16", 1},
      {"conv2d:2:30:31:3:5:bf16", "conv2d:2:30:31:3:5:valid:bf16", 1},
      {"conv2d:1:1000:1000:3:3:valid", "conv2d:1:1000:1000:3:3:valid", 1},
      {"conv2d:4:513:257:5:7:same", "conv2d:4:513:257:5:7:same", 1},
      {"conv2d:1:7:9:1:1", "conv2d:1:7:9:1:1:valid", 1},
      {"conv2d:2:31:33:31:1:valid", "conv2d:2:31:33:31:1:valid", 1},
      {"conv2d:1.6e1:2.048e3:2048:11:11:same", "conv2d:16:2048:2048:11:11:same", 0},
      {"conv2d:1:1e3:1000:3:3", "conv2d:1:1000:1000:3:3:valid", 0},
      {"conv2d:1:5:6:5:6", "conv2d:1:5:6:5:6:valid", 0},
      {"conv2d:2:3:4:9:8:same", "conv2d:2:3:4:9:8:same", 0},
      {"conv2d:65535:1:1:1:1", "conv2d:65535:1:1:1:1:valid", 0},
      {"conv2d:1:1:2147483647:1:1", "conv2d:1:1:2147483647:1:1:valid", 0}},
     .refusals =
     {{"conv2d", "missing", NULL},
      {"conv2d:1:8:8:3:3:f16:same", "element type 'f16'", "last"},
      {"conv2d:1:8:8:3:3:same:f64", "element type 'f64'", "unknown"},
      {"conv2d:1", "H (image height)", "missing"},
      {"conv2d:1:10:10:3", "KW (filter width)", "missing"},
      {"conv2d:1:10:10:3:3:valid:x", "too many fields", NULL},
      {"conv2d:0:10:10:3:3", "B (batch)", "positive"},
      {"conv2d:1:0:10:3:3", "H (image height)", "positive"},
      {"conv2d:1:10:0:3:3", "W (image width)", "positive"},
      {"conv2d:1:10:10:0:3", "KH (filter height)", "positive"},
      {"conv2d:1:10:10:3:-3", "KW (filter width)", "positive"},
      {"conv2d:x:10:10:3:3", "B (batch)", "'x'"},
      {"conv2d:1:10:1.5:3:3", "W (image width)", "integer"},
      {"conv2d:1:10:10:3:0x3", "KW (filter width)", NULL},
      {"conv2d::10:10:3:3", "B (batch)", "empty"},
      {"conv2d:1:10:10:3:3:full", "MODE", "full"},
      {"conv2d:1:10:10:3:3:", "MODE", NULL},
      {"conv2d:1:10:10:11:3", "KH (filter height)", "H (image height)"},
      {"conv2d:1:10:9:3:10:valid", "KW (filter width)", "valid"},
      {"conv2d:65536:10:10:3:3", "B (batch)", "too large"},
      {"conv2d:1:1:1e10:1:1", "W (image width)", "too large"},
      {"conv2d:1:46341:46341:1:1", "B x H x W", "2^31"},
      {"conv2d:1:2:2:50000:50000:same", "KH x KW", "2^31"}},
     .odd =
     {{"conv2d:1:7:9:1:1",
       {.b = 1, .cin = 1, .h = 7, .w = 9, .cout = 1, .kh = 1, .kw = 1, .oh = 7, .ow = 9}},
      {"conv2d:2:13:11:3:5",
       {.b = 2, .cin = 1, .h = 13, .w = 11, .cout = 1, .kh = 3, .kw = 5, .oh = 11, .ow = 7}},
      {"conv2d:2:13:11:3:5:same",
       {.b = 2, .cin = 1, .h = 13, .w = 11, .cout = 1, .kh = 3, .kw = 5, .ph = 1, .pw = 2, .oh = 13, .ow = 11}},
      {"conv2d:3:9:10:4:6:same",
       {.b = 3, .cin = 1, .h = 9, .w = 10, .cout = 1, .kh = 4, .kw = 6, .ph = 1, .pw = 2, .oh = 9, .ow = 10}},
      {"conv2d:2:3:4:9:8:same",
       {.b = 2, .cin = 1, .h = 3, .w = 4, .cout = 1, .kh = 9, .kw = 8, .ph = 4, .pw = 3, .oh = 3, .ow = 4}},
      {"conv2d:1:5:6:5:6",
       {.b = 1, .cin = 1, .h = 5, .w = 6, .cout = 1, .kh = 5, .kw = 6, .oh = 1, .ow = 1}},
      {"conv2d:2:31:33:31:1:valid",
       {.b = 2, .cin = 1, .h = 31, .w = 33, .cout = 1, .kh = 31, .kw = 1, .oh = 1, .ow = 33}},
      {"conv2d:1:1:40:1:7:same",
       {.b = 1, .cin = 1, .h = 1, .w = 40, .cout = 1, .kh = 1, .kw = 7, .pw = 3, .oh = 1, .ow = 40}}}},

    {.family = "conv2dc", .per_template = 1,
     .examples =
     {{"conv2dc:10000:1:28:28:12:7:7:valid", "conv2dc:10000:1:28:28:12:7:7:valid", 1},
      {"conv2dc:32:64:56:56:64:3:3:same:bf16", "conv2dc:32:64:56:56:64:3:3:same:bf16", 1},
      {"conv2dc:2:6:9:9:4:3:3:pad=1,2:stride=2,3:groups=2:bias:f16",
       "conv2dc:2:6:9:9:4:3:3:pad=1,2:stride=2,3:groups=2:bias:f16", 1},
      /* few pixels (the weight-streaming tc16w) and odd sizes in each type */
      {"conv2dc:2:64:5:3:48:3:3:same:bias:bf16", "conv2dc:2:64:5:3:48:3:3:same:bias:bf16", 1},
      /* at most 16 pixels (conv2dc_tc16wb, sm_90) */
      {"conv2dc:1:128:4:4:72:3:3:pad=1:stride=2:groups=2:f16", "conv2dc:1:128:4:4:72:3:3:pad=1:stride=2:groups=2:f16",
       1},
      {"conv2dc:3:24:13:11:40:3:3:same:dilation=2:groups=2:f16",
       "conv2dc:3:24:13:11:40:3:3:same:dilation=2:groups=2:f16", 1},
      {"conv2dc:10000:12:22:22:12:3:3", "conv2dc:10000:12:22:22:12:3:3:valid", 1},
      {"conv2dc:1:3:17:13:5:3:3:same:bias", "conv2dc:1:3:17:13:5:3:3:same:bias", 1},
      {"conv2dc:2:4:9:9:3:1:1:valid", "conv2dc:2:4:9:9:3:1:1:valid", 1},
      {"conv2dc:3:2:30:31:7:5:5:bias", "conv2dc:3:2:30:31:7:5:5:valid:bias", 1},
      {"conv2dc:3:7:12:11:5:3:3:same:bias", "conv2dc:3:7:12:11:5:3:3:same:bias", 1},
      {"conv2dc:1e4:1:28:28:12:7:7", "conv2dc:10000:1:28:28:12:7:7:valid", 0},
      {"conv2dc:1:1:5:5:1:5:5", "conv2dc:1:1:5:5:1:5:5:valid", 0},
      {"conv2dc:1:1:3:2:1:6:4:same", "conv2dc:1:1:3:2:1:6:4:same", 0},
      {"conv2dc:1:1:1:2147483647:1:1:1", "conv2dc:1:1:1:2147483647:1:1:1:valid", 0},
      {"conv2dc:2:8:13:11:8:7:7:same:groups=8", "conv2dc:2:8:13:11:8:7:7:same:groups=8", 1},
      {"conv2dc:2:3:23:21:8:7:7:pad=3:stride=2:bias", "conv2dc:2:3:23:21:8:7:7:pad=3:stride=2:bias", 1},
      {"conv2dc:2:12:9:10:8:3:3:same:groups=4", "conv2dc:2:12:9:10:8:3:3:same:groups=4", 1},
      {"conv2dc:1:4:17:15:6:3:2:pad=2,1:stride=2,3:dilation=2,3:groups=2",
       "conv2dc:1:4:17:15:6:3:2:pad=2,1:stride=2,3:dilation=2,3:groups=2", 1},
      {"conv2dc:1:2:9:9:2:3:3:pad=1", "conv2dc:1:2:9:9:2:3:3:same", 0},
      {"conv2dc:1:2:9:9:2:3:3:pad=0,0:stride=1,1:dilation=1", "conv2dc:1:2:9:9:2:3:3:valid", 0},
      {"conv2dc:1:2:9:9:2:3:3:pad=2:dilation=2", "conv2dc:1:2:9:9:2:3:3:same:dilation=2", 0},
      {"conv2dc:1:2:9:9:2:1:3:pad=0,1:dilation=4,1", "conv2dc:1:2:9:9:2:1:3:same", 0},
      /* channels last */
      {"conv2dc:2:8:13:11:8:7:7:same:groups=8:nhwc", "conv2dc:2:8:13:11:8:7:7:same:groups=8:nhwc", 1},
      {"conv2dc:1:4:17:15:6:3:2:pad=2,1:stride=2,3:dilation=2,3:groups=2:bias:nhwc",
       "conv2dc:1:4:17:15:6:3:2:pad=2,1:stride=2,3:dilation=2,3:groups=2:bias:nhwc", 1},
      {"conv2dc:2:8:13:11:8:7:7:same:groups=8:bias:nhwc:f16", "conv2dc:2:8:13:11:8:7:7:same:groups=8:bias:nhwc:f16", 1},
      {"conv2dc:3:7:12:11:5:3:3:same:nchw:bf16", "conv2dc:3:7:12:11:5:3:3:same:bf16", 0},
      /* channels-last half layers for conv2dc_tc16cl: the targets, odd copy widths */
      {"conv2dc:32:64:56:56:64:3:3:same:nhwc:bf16", "conv2dc:32:64:56:56:64:3:3:same:nhwc:bf16", 1},
      {"conv2dc:3:20:13:11:42:3:3:same:dilation=2:groups=2:bias:nhwc:f16",
       "conv2dc:3:20:13:11:42:3:3:same:dilation=2:groups=2:bias:nhwc:f16", 1},
      {"conv2dc:2:19:15:17:21:5:2:pad=2,1:stride=2:nhwc:bf16", "conv2dc:2:19:15:17:21:5:2:pad=2,1:stride=2:nhwc:bf16",
       1},
      /* NCHW half layers for conv2dc_tc16 and tc16g (wgmma): the
       * target (16-byte raw rows), an odd width (one-element pieces) and a
       * width of 4 mod 8 strided down (a wgmma per row) */
      {"conv2dc:32:64:56:56:64:3:3:same:bf16", "conv2dc:32:64:56:56:64:3:3:same:bf16", 1},
      {"conv2dc:2:19:15:17:21:5:2:pad=2,1:bf16", "conv2dc:2:19:15:17:21:5:2:pad=2,1:bf16", 1},
      {"conv2dc:2:24:9:12:40:3:3:pad=1:stride=2,1:bias:f16", "conv2dc:2:24:9:12:40:3:3:pad=1:stride=2,1:bias:f16", 1},
      /* conv2dc_dwph: a plane on the 4-element path with bias, an odd one
       * strided and dilated */
      {"conv2dc:2:8:16:20:8:7:7:same:groups=8:bias:bf16", "conv2dc:2:8:16:20:8:7:7:same:groups=8:bias:bf16", 1},
      {"conv2dc:2:6:13:11:6:5:3:pad=2,1:stride=2:dilation=2,1:groups=6:f16",
       "conv2dc:2:6:13:11:6:5:3:pad=2,1:stride=2:dilation=2,1:groups=6:f16", 1},
      /* the training passes: each pass kernel's layers (conv_pass.h) */
      {"conv2dc:2:8:13:11:8:5:5:same:groups=8:bias:wgrad", "conv2dc:2:8:13:11:8:5:5:same:groups=8:bias:wgrad", 1},
      {"conv2dc:2:8:13:11:8:3:3:pad=1:stride=2:groups=8:dgrad:f16",
       "conv2dc:2:8:13:11:8:3:3:pad=1:stride=2:groups=8:dgrad:f16", 1},
      {"conv2dc:2:12:9:10:12:7:7:same:groups=12:nhwc:dgrad:bf16",
       "conv2dc:2:12:9:10:12:7:7:same:groups=12:nhwc:dgrad:bf16", 1},
      {"conv2dc:2:12:9:10:12:3:3:pad=1:stride=2:groups=12:bias:nhwc:wgrad",
       "conv2dc:2:12:9:10:12:3:3:pad=1:stride=2:groups=12:bias:nhwc:wgrad", 1},
      {"conv2dc:2:6:9:11:8:3:2:pad=1,0:stride=2,3:dilation=2,1:groups=2:bias:dgrad",
       "conv2dc:2:6:9:11:8:3:2:pad=1,0:stride=2,3:dilation=2,1:groups=2:dgrad", 1},
      {"conv2dc:2:6:9:11:8:3:3:same:groups=2:bias:wgrad:bf16", "conv2dc:2:6:9:11:8:3:3:same:groups=2:bias:wgrad:bf16",
       1},
      /* conv2dc_wgdw16cl: a channels-last depthwise bf16 weight gradient */
      {"conv2dc:2:16:9:10:16:5:5:same:groups=16:bias:nhwc:wgrad:bf16",
       "conv2dc:2:16:9:10:16:5:5:same:groups=16:bias:nhwc:wgrad:bf16", 1}},
     .refusals =
     {{"conv2dc", "missing", NULL},
      {"conv2dc:1:4:8:8:4:3:3:bf16:same:bf16", "element type", "twice"},
      {"conv2dc:", "B (batch)", NULL},
      {"conv2dc:10:1:28", "W (image width)", "missing"},
      {"conv2dc:10:1:28:28:12:7", "KW (filter width)", "missing"},
      {"conv2dc:0:1:28:28:12:7:7", "B (batch)", "positive"},
      {"conv2dc:10:0:28:28:12:7:7", "Cin (input channels)", "positive"},
      {"conv2dc:10:1:-28:28:12:7:7", "H (image height)", "positive"},
      {"conv2dc:10:1:28:-1:12:7:7", "W (image width)", "positive"},
      {"conv2dc:10:1:28:28:0:7:7", "Cout (output channels)", "positive"},
      {"conv2dc:10:1:28:28:12:0:7", "KH (filter height)", "positive"},
      {"conv2dc:10:1:28:28:12:7:x7", "KW (filter width)", "x7"},
      {"conv2dc:10:1:28:28:12:7.5:7", "KH (filter height)", "integer"},
      {"conv2dc:10:1:28:28:12::7", "KH (filter height)", NULL},
      {"conv2dc:10:1:6:28:12:7:7", "KH (filter height)", "H (image height)"},
      {"conv2dc:10:1:28:6:12:7:7:valid", "KW (filter width)", "W (image width)"},
      {"conv2dc:10:1:28:28:12:7:7:full", "MODE", "full"},
      {"conv2dc:10:1:28:28:12:7:7:", "MODE", NULL},
      {"conv2dc:10:1:28:28:12:7:7:same:nobias", "bias", "nobias"},
      {"conv2dc:10:1:28:28:12:7:7:same:bias:x", "'x'", "unknown field"},
      {"conv2dc:10:1:28:28:12:7:7:same:bias:nhwc:wgrad:x", "too many fields", "after pass"},
      {"conv2dc:10:1:28:28:12:7:7:same:bias:nhwc:x", "unknown field 'x'", "a pass (fwd, dgrad, wgrad)"},
      {"conv2dc:10:1:28:28:12:7:7:same:dgrad:nchw", "layout", "must come before pass"},
      {"conv2dc:1:4:9:9:4:3:3:nlc", "layout", "'nlc'"},
      {"conv2dc:1:4:9:9:4:3:3:nhwc:same", "MODE", "must come before layout"},
      {"conv2dc:1:4:9:9:4:3:3:same:nhwc:nchw", "layout", "given twice"},
      {"conv2dc:1:4:9:9:4:3:3:nhwc:groups=2", "groups", "must come before layout"},
      {"conv2dc:1:4:9:9:4:3:3:same:bf16:nhwc", "element type 'bf16'", "last"},
      {"conv2dc:1e5:100:100:100:12:3:3", "input", "B*Cin*H*W"},
      {"conv2dc:1:100:100:100:100000:30:30:same", "weight", "Cout*Cin*KH*KW"},
      {"conv2dc:100000:1:100:100:1000:1:1", "output", "B*Cout*OH*OW"},
      {"conv2dc:1:1:2147483648:1:1:1:1", "H (image height)", "too large"},
      {"conv2dc:1:4:9:9:4:3:3:same:stride=2", "same", "stride"},
      {"conv2dc:1:4:9:9:4:3:3:pad=1:stride=0", "stride", "positive"},
      {"conv2dc:1:4:9:9:4:3:3:pad=1,1,1", "pad", "integer"},
      {"conv2dc:1:4:9:9:4:3:3:pad=3", "pad", "must be less than KH"},
      {"conv2dc:1:4:9:9:4:3:3:pad=1:dilation=2,y", "dilation", "'y'"},
      {"conv2dc:1:4:9:9:6:3:3:groups=4", "groups", "must divide"},
      {"conv2dc:1:6:9:9:4:3:3:groups=4", "groups", "must divide"},
      {"conv2dc:1:4:9:9:4:3:3:groups=2:dilation=2", "dilation", "must come before groups"},
      {"conv2dc:1:4:9:9:4:3:3:stride=2:same", "MODE", "must come before stride"},
      {"conv2dc:1:4:9:9:4:3:3:valid:dilation=5", "dilated filter", "(KH=3, dilation=5)"},
      {"conv2dc:1:4:9:9:4:3:3:strid=2", "MODE", "strid=2"},
      {"conv2dc:1:4:9:9:4:3:3:valid:groups", "groups", "malformed"}},
     .odd =
     {{"conv2dc:1:3:17:13:5:3:3:same:bias",
       {.b = 1, .cin = 3, .h = 17, .w = 13, .cout = 5, .kh = 3, .kw = 3, .ph = 1, .pw = 1, .oh = 17, .ow = 13,
        .bias = 1}},
      {"conv2dc:2:4:9:9:3:1:1:valid",
       {.b = 2, .cin = 4, .h = 9, .w = 9, .cout = 3, .kh = 1, .kw = 1, .oh = 9, .ow = 9}},
      {"conv2dc:3:2:30:31:7:5:5:valid:bias",
       {.b = 3, .cin = 2, .h = 30, .w = 31, .cout = 7, .kh = 5, .kw = 5, .oh = 26, .ow = 27, .bias = 1}},
      {"conv2dc:1:1:1:1:1:1:1",
       {.b = 1, .cin = 1, .h = 1, .w = 1, .cout = 1, .kh = 1, .kw = 1, .oh = 1, .ow = 1}},
      {"conv2dc:3:2:7:5:4:4:6:same",
       {.b = 3, .cin = 2, .h = 7, .w = 5, .cout = 4, .kh = 4, .kw = 6, .ph = 1, .pw = 2, .oh = 7, .ow = 5}},
      {"conv2dc:1:2:3:2:3:6:4:same:bias",
       {.b = 1, .cin = 2, .h = 3, .w = 2, .cout = 3, .kh = 6, .kw = 4, .ph = 2, .pw = 1, .oh = 3, .ow = 2, .bias = 1}},
      {"conv2dc:2:5:11:7:3:2:3:valid",
       {.b = 2, .cin = 5, .h = 11, .w = 7, .cout = 3, .kh = 2, .kw = 3, .oh = 10, .ow = 5}},
      {"conv2dc:1:1:5:5:2:5:5:valid:bias",
       {.b = 1, .cin = 1, .h = 5, .w = 5, .cout = 2, .kh = 5, .kw = 5, .oh = 1, .ow = 1, .bias = 1}},
      {"conv2dc:2:3:6:9:2:1:1:same:bias",
       {.b = 2, .cin = 3, .h = 6, .w = 9, .cout = 2, .kh = 1, .kw = 1, .oh = 6, .ow = 9, .bias = 1}},
      /* depthwise, grouped, strided, dilated, asymmetric padding */
      {"conv2dc:2:4:11:9:4:5:5:same:groups=4:bias",
       {.b = 2, .cin = 4, .h = 11, .w = 9, .cout = 4, .kh = 5, .kw = 5, .ph = 2, .pw = 2, .oh = 11, .ow = 9,
        .bias = 1, .sy = 1, .sx = 1, .dy = 1, .dx = 1, .groups = 4}},
      {"conv2dc:1:6:10:9:9:3:3:same:groups=3",
       {.b = 1, .cin = 6, .h = 10, .w = 9, .cout = 9, .kh = 3, .kw = 3, .ph = 1, .pw = 1, .oh = 10, .ow = 9,
        .sy = 1, .sx = 1, .dy = 1, .dx = 1, .groups = 3}},
      {"conv2dc:2:3:15:13:4:7:7:pad=3:stride=2:bias",
       {.b = 2, .cin = 3, .h = 15, .w = 13, .cout = 4, .kh = 7, .kw = 7, .ph = 3, .pw = 3, .oh = 8, .ow = 7,
        .bias = 1, .sy = 2, .sx = 2, .dy = 1, .dx = 1, .groups = 1}},
      {"conv2dc:1:2:13:12:3:3:4:same:dilation=2,3",
       {.b = 1, .cin = 2, .h = 13, .w = 12, .cout = 3, .kh = 3, .kw = 4, .ph = 2, .pw = 4, .oh = 13, .ow = 12,
        .sy = 1, .sx = 1, .dy = 2, .dx = 3, .groups = 1}},
      {"conv2dc:1:4:17:15:6:3:2:pad=2,1:stride=2,3:dilation=2,3:groups=2",
       {.b = 1, .cin = 4, .h = 17, .w = 15, .cout = 6, .kh = 3, .kw = 2, .ph = 2, .pw = 1, .oh = 9, .ow = 5,
        .sy = 2, .sx = 3, .dy = 2, .dx = 3, .groups = 2}},
      {"conv2dc:2:2:9:8:2:3:3:valid:stride=3,2:groups=2",
       {.b = 2, .cin = 2, .h = 9, .w = 8, .cout = 2, .kh = 3, .kw = 3, .oh = 3, .ow = 3,
        .sy = 3, .sx = 2, .dy = 1, .dx = 1, .groups = 2}},
      /* channels last */
      {"conv2dc:2:4:11:9:4:5:5:same:groups=4:bias:nhwc",
       {.b = 2, .cin = 4, .h = 11, .w = 9, .cout = 4, .kh = 5, .kw = 5, .ph = 2, .pw = 2, .oh = 11, .ow = 9,
        .bias = 1, .sy = 1, .sx = 1, .dy = 1, .dx = 1, .groups = 4}},
      {"conv2dc:1:4:17:15:6:3:2:pad=2,1:stride=2,3:dilation=2,3:groups=2:nhwc",
       {.b = 1, .cin = 4, .h = 17, .w = 15, .cout = 6, .kh = 3, .kw = 2, .ph = 2, .pw = 1, .oh = 9, .ow = 5,
        .sy = 2, .sx = 3, .dy = 2, .dx = 3, .groups = 2}},
      {"conv2dc:2:3:6:9:2:1:1:same:bias:nhwc",
       {.b = 2, .cin = 3, .h = 6, .w = 9, .cout = 2, .kh = 1, .kw = 1, .oh = 6, .ow = 9, .bias = 1}},
      {"conv2dc:3:2:7:5:4:4:6:same:nhwc",
       {.b = 3, .cin = 2, .h = 7, .w = 5, .cout = 4, .kh = 4, .kw = 6, .ph = 1, .pw = 2, .oh = 7, .ow = 5}}}},
};
/* clang-format on */

#endif
