// conv1dc_tclayer.cuh: the conv1dc problem macros mapped onto the TC_* macros of
// ct_conv_tc.cuh, for conv1dc_tc and conv1dc_tcsplit (which define TC_NAME first).
#include "conv1dc_layer.cuh"
#define TC_B CONV_B
#define TC_CIN CONV_CING
#define TC_GROUPS CONV_GROUPS
#define TC_H 1
#define TC_W CONV_L
#define TC_COUT CONV_COUTG
#define TC_KH 1
#define TC_KW CONV_K
#define TC_OH 1
#define TC_OW CONV_LOUT
#define TC_PH 0
#define TC_PW CONV_PAD
#define TC_SY 1
#define TC_SX CONV_STRIDE
#define TC_DY 1
#define TC_DX CONV_DIL
#define TC_BIAS CONV_BIAS
#define TILE_OH 1
