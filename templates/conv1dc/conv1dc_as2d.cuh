// conv1dc_as2d.cuh: the layer as a 2D layer of height 1 under the names
// every layer family gives it (LY_*, conv2dc_as2d.cuh says what each is):
// W is L, KW is K, OW is LOUT, PW the zeros before the input (causal: (K-1)
// x dilation), SX the stride, DX the dilation.
#include "conv1dc_layer.cuh"
#include "conv1dc_layout.cuh"
#ifndef CONV_PASS
#define CONV_PASS 0
#endif
#define LY_B CONV_B
#define LY_CIN CONV_CIN
#define LY_COUT CONV_COUT
#define LY_GROUPS CONV_GROUPS
#define LY_CING CONV_CING
#define LY_COUTG CONV_COUTG
#define LY_H 1
#define LY_W CONV_L
#define LY_KH 1
#define LY_KW CONV_K
#define LY_OH 1
#define LY_OW CONV_LOUT
#define LY_PH 0
#define LY_PW CONV_PAD
#define LY_SY 1
#define LY_SX CONV_STRIDE
#define LY_DY 1
#define LY_DX CONV_DIL
#define LY_BIAS CONV_BIAS
#define LY_CL CONV_CHANNELS_LAST
#define LY_PASS CONV_PASS
#define LY_X_AT(b, c, y, x) CONV_IN_AT(b, c, x)
#define LY_Y_AT(b, c, y, x) CONV_OUT_AT(b, c, x)
