// conv2dc_as2d.cuh: the layer under the names every layer family gives it
// (LY_*), so that one kernel source serves conv1dc (a 2D layer of height 1,
// conv1dc_as2d.cuh) and conv2dc. The sizes are the forward layer's: x is
// B x CIN x H x W, y (the forward output, dy in the passes) B x COUT x OH x
// OW, each in the layout; the weights COUT x CING x KH x KW in both.
// LY_PASS: 0 the forward pass, 1 dgrad, 2 wgrad (CONV_PASS).
#include "conv2dc_layer.cuh"
#include "conv2dc_layout.cuh"
#ifndef CONV_PASS
#define CONV_PASS 0
#endif
#define LY_B CONV_B
#define LY_CIN CONV_CIN
#define LY_COUT CONV_COUT
#define LY_GROUPS CONV_GROUPS
#define LY_CING CONV_CING
#define LY_COUTG CONV_COUTG
#define LY_H CONV_H
#define LY_W CONV_W
#define LY_KH CONV_KH
#define LY_KW CONV_KW
#define LY_OH CONV_OH
#define LY_OW CONV_OW
#define LY_PH CONV_PH
#define LY_PW CONV_PW
#define LY_SY CONV_SH
#define LY_SX CONV_SW
#define LY_DY CONV_DH
#define LY_DX CONV_DW
#define LY_BIAS CONV_BIAS
#define LY_CL CONV_CHANNELS_LAST
#define LY_PASS CONV_PASS
#define LY_X_AT(b, c, y, x) CONV_IN_AT(b, c, y, x)
#define LY_Y_AT(b, c, y, x) CONV_OUT_AT(b, c, y, x)
