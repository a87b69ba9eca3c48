/* conv_pass.h - the training passes of a convolution layer (conv1dc,
 * conv2dc), as PyTorch's convolution_backward defines them for the layer
 * the problem's other fields describe (its forward sizes, stride,
 * dilation, padding, groups, layout and type):
 *
 *   dgrad  in: dy (the forward output's shape and layout), w (O(I/G)HW)
 *          out: dx (the forward input's shape and layout)
 *          dx[b][g*Cin/G + c][yy][xx] = sum over co of group g, i, j with
 *          yy = y*SH + i*DH - PH, xx = x*SW + j*DW - PW of dy[b][co][y][x] * w[co][c][i][j]
 *   wgrad  in: x, dy    out: dW (O(I/G)HW), followed by db (Cout) with bias
 *          dW[co][c][i][j] = sum over b, y, x of dy[b][co][y][x] * x[b][g*Cin/G + c][yy][xx]
 *          db[co] = sum over b, y, x of dy[b][co][y][x]
 *
 * A bias changes no input gradient, so a dgrad problem has none (its key
 * drops the field). Both passes cost the forward pass's multiply-adds. */
#ifndef CT_CONV_PASS_H
#define CT_CONV_PASS_H

#include <stddef.h>

#include "kernel_kind.h"
#include "problem.h"
#include "tc_shape.h"

extern const char *const ct_pass_names[CT_NPASSES];   /* "fwd", "dgrad", "wgrad" */

/* The field every layer family declares, a bare token after the layout. */
#define CT_PASS_FIELD                                                                                             \
    {"pass", CT_FIELD_CHOICE,                                                                                     \
     "fwd: the forward convolution (default); dgrad: the input gradient dx from dy and the weights; wgrad: the " \
     "weight gradient dW (then db, with bias) from x and dy",                                                     \
     ct_pass_names, CT_NPASSES}

/* Elements of the forward layer's input x, weights and output y. */
long long ct_pass_x_count(const ct_tc_shape *s);
long long ct_pass_w_count(const ct_tc_shape *s);
long long ct_pass_y_count(const ct_tc_shape *s);

/* The buffers of a dgrad or wgrad problem, in kernel-argument order
 * (above); returns how many. weight_symbol is the __constant__ array a
 * template may declare for dgrad's weights (NULL: none). */
int ct_pass_buffers(const ct_tc_shape *s, const char *weight_symbol, ct_buffer *b);

/* Elements each pass reads and writes once, times the element size. */
double ct_pass_bytes(const ct_tc_shape *s, size_t elem_size);

/* The fp64 CPU reference of a dgrad or wgrad problem: in[] its input
 * buffers, out the output's count (channels_last: NLC/NHWC activations). */
void ct_pass_reference(const ct_tc_shape *s, int channels_last, const float *const *in, double *out);

/* 1 with the reason when t's kind does not compute pass. */
int ct_pass_excluded(const ct_template *t, int pass, char *why, size_t len);

/* C source of the passes' reference for exported self-tests, read after a
 * family's prefix has defined CTP_B, CTP_CIN, CTP_H, CTP_W, CTP_COUT,
 * CTP_KH, CTP_KW, CTP_OH, CTP_OW, CTP_PH, CTP_PW, CTP_SH, CTP_SW, CTP_DH,
 * CTP_DW, CTP_GROUPS, CTP_BIAS and CTP_X(b, c, y, x), CTP_Y(b, c, y, x)
 * (element indices of x and dy); defines ct_reference for CONV_PASS 1 or 2. */
#define CT_PASS_REFERENCE_C                                                                                   \
    "static void ct_reference(const float *const *in, double *out)\n"                                         \
    "{\n"                                                                                                     \
    "    const long long cg = CTP_CIN / CTP_GROUPS, og = CTP_COUT / CTP_GROUPS;\n"                            \
    "    const long long nw = CTP_COUT * cg * CTP_KH * CTP_KW;\n"                                             \
    "#if CONV_PASS == 1\n"                                                                                    \
    "    const float *dy = in[0], *wt = in[1];\n"                                                             \
    "    for (long long k = 0; k < CTP_B * CTP_CIN * CTP_H * CTP_W; k++)\n"                                   \
    "        out[k] = 0.0;\n"                                                                                 \
    "#else\n"                                                                                                 \
    "    const float *x = in[0], *dy = in[1];\n"                                                              \
    "    for (long long k = 0; k < nw + (CTP_BIAS ? CTP_COUT : 0); k++)\n"                                   \
    "        out[k] = 0.0;\n"                                                                                 \
    "#endif\n"                                                                                                \
    "    for (long long b = 0; b < CTP_B; b++)\n"                                                             \
    "        for (long long co = 0; co < CTP_COUT; co++)\n"                                                   \
    "            for (long long y = 0; y < CTP_OH; y++)\n"                                                    \
    "                for (long long xo = 0; xo < CTP_OW; xo++) {\n"                                           \
    "                    const double g = (double)dy[CTP_Y(b, co, y, xo)];\n"                                 \
    "#if CONV_PASS == 2 && CTP_BIAS\n"                                                                        \
    "                    out[nw + co] += g;\n"                                                                \
    "#endif\n"                                                                                                \
    "                    for (long long c = 0; c < cg; c++)\n"                                                \
    "                        for (long long i = 0; i < CTP_KH; i++)\n"                                        \
    "                            for (long long j = 0; j < CTP_KW; j++) {\n"                                  \
    "                                const long long yy = y * CTP_SH + i * CTP_DH - CTP_PH;\n"                \
    "                                const long long xx = xo * CTP_SW + j * CTP_DW - CTP_PW;\n"               \
    "                                const long long wi = ((co * cg + c) * CTP_KH + i) * CTP_KW + j;\n"       \
    "                                if (yy < 0 || yy >= CTP_H || xx < 0 || xx >= CTP_W)\n"                   \
    "                                    continue;\n"                                                         \
    "#if CONV_PASS == 1\n"                                                                                    \
    "                                out[CTP_X(b, co / og * cg + c, yy, xx)] += g * (double)wt[wi];\n"        \
    "#else\n"                                                                                                 \
    "                                out[wi] += g * (double)x[CTP_X(b, co / og * cg + c, yy, xx)];\n"         \
    "#endif\n"                                                                                                \
    "                            }\n"                                                                         \
    "                }\n"                                                                                     \
    "}\n"

#endif
