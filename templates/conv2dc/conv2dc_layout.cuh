// conv2dc_layout.cuh: the activations' layout, for the templates that
// compute both (the others' constraints exclude channels-last layers).
// CONV_CHANNELS_LAST is defined (1) only for the channels-last layout nhwc.
// Element index of input (b, c, y, x) and output (b, co, y, x): nchw
// [B][C][H][W], nhwc [B][H][W][C]. The weights are [Cout][Cin/G][KH][KW] in
// both.
#ifndef CONV_CHANNELS_LAST
#define CONV_CHANNELS_LAST 0
#endif
#if CONV_CHANNELS_LAST
#define CONV_IN_AT(b, c, y, x) ((((b) * CONV_H + (y)) * CONV_W + (x)) * CONV_CIN + (c))
#define CONV_OUT_AT(b, co, y, x) ((((b) * CONV_OH + (y)) * CONV_OW + (x)) * CONV_COUT + (co))
#else
#define CONV_IN_AT(b, c, y, x) ((((b) * CONV_CIN + (c)) * CONV_H + (y)) * CONV_W + (x))
#define CONV_OUT_AT(b, co, y, x) ((((b) * CONV_COUT + (co)) * CONV_OH + (y)) * CONV_OW + (x))
#endif
