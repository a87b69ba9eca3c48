// conv1dc_layout.cuh: the activations' layout, for the templates that
// compute both (the others' constraints exclude channels-last layers).
// CONV_CHANNELS_LAST is defined (1) only for the channels-last layout nlc.
// Element index of input (b, c, x) and output (b, co, t): ncl [B][C][L],
// nlc [B][L][C]. The weights are [Cout][Cin/G][K] in both.
#ifndef CONV_CHANNELS_LAST
#define CONV_CHANNELS_LAST 0
#endif
#if CONV_CHANNELS_LAST
#define CONV_IN_AT(b, c, x) (((b) * CONV_L + (x)) * CONV_CIN + (c))
#define CONV_OUT_AT(b, co, t) (((b) * CONV_LOUT + (t)) * CONV_COUT + (co))
#else
#define CONV_IN_AT(b, c, x) (((b) * CONV_CIN + (c)) * CONV_L + (x))
#define CONV_OUT_AT(b, co, t) (((b) * CONV_COUT + (co)) * CONV_LOUT + (t))
#endif
