// conv2dc_simt: any conv2dc layer (stride, dilation, padding, groups) on the
// FMA units in fp32, for every architecture from sm_75; see ct_conv_simt.cuh
// for the method and the tuning macros.
#include "conv2dc_layer.cuh"
#define SM_NAME conv2dc_simt
#define SM_B CONV_B
#define SM_GROUPS CONV_GROUPS
#define SM_CING CONV_CING
#define SM_COUTG CONV_COUTG
#define SM_H CONV_H
#define SM_W CONV_W
#define SM_KH CONV_KH
#define SM_KW CONV_KW
#define SM_OH CONV_OH
#define SM_OW CONV_OW
#define SM_PH CONV_PH
#define SM_PW CONV_PW
#define SM_SY CONV_SH
#define SM_SX CONV_SW
#define SM_DY CONV_DH
#define SM_DX CONV_DW
#define SM_BIAS CONV_BIAS
#include "ct_conv_simt.cuh"
