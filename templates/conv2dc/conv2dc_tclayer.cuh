// conv2dc_tclayer.cuh: the conv2dc problem macros mapped onto the TC_* macros of
// ct_conv_tc.cuh, for conv2dc_tc and conv2dc_tcsplit (which define TC_NAME first).
#include "conv2dc_layer.cuh"
#define TC_B CONV_B
#define TC_CIN CONV_CING
#define TC_GROUPS CONV_GROUPS
#define TC_H CONV_H
#define TC_W CONV_W
#define TC_COUT CONV_COUTG
#define TC_KH CONV_KH
#define TC_KW CONV_KW
#define TC_OH CONV_OH
#define TC_OW CONV_OW
#define TC_PH CONV_PH
#define TC_PW CONV_PW
#define TC_SY CONV_SH
#define TC_SX CONV_SW
#define TC_DY CONV_DH
#define TC_DX CONV_DW
#define TC_BIAS CONV_BIAS
