// conv1dc_layer.cuh: the layer fields convtune defines only where they are
// not 1 (CONV_STRIDE, CONV_DIL, CONV_GROUPS), so that templates that read
// them see 1 otherwise. CONV_PAD is the zeros before the input (causal:
// (K-1) x CONV_DIL).
#ifndef CONV_STRIDE
#define CONV_STRIDE 1
#endif
#ifndef CONV_DIL
#define CONV_DIL 1
#endif
#ifndef CONV_GROUPS
#define CONV_GROUPS 1
#endif
#define CONV_CING (CONV_CIN / CONV_GROUPS)     // input channels of a group
#define CONV_COUTG (CONV_COUT / CONV_GROUPS)   // output channels of a group
