// conv1dc_simt: any conv1dc layer (stride, dilation, padding or causal,
// groups) on the FMA units in fp32, for every architecture from sm_75, as a
// 2D layer of height 1; see ct_conv_simt.cuh for the method and the tuning
// macros (OUT_Y and TILE_OH are 1).
#include "conv1dc_layer.cuh"
#define SM_NAME conv1dc_simt
#define SM_B CONV_B
#define SM_GROUPS CONV_GROUPS
#define SM_CING CONV_CING
#define SM_COUTG CONV_COUTG
#define SM_H 1
#define SM_W CONV_L
#define SM_KH 1
#define SM_KW CONV_K
#define SM_OH 1
#define SM_OW CONV_LOUT
#define SM_PH 0
#define SM_PW CONV_PAD
#define SM_SY 1
#define SM_SX CONV_STRIDE
#define SM_DY 1
#define SM_DX CONV_DIL
#define SM_BIAS CONV_BIAS
#define OUT_Y 1
#define TILE_OH 1
#include "ct_conv_simt.cuh"
