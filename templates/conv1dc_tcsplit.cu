// conv1dc_tcsplit: conv1dc_tc (as a 2D layer of height 1) with the input channels split over the
// grid's z dimension, each split writing its partial sums to a workspace
// that a second kernel adds up with the bias: for layers with few output
// tiles and long reductions. See ct_conv_tc.cuh. Needs sm_80 or later.
#define TC_NAME conv1dc_tcsplit
#define TC_SPLIT 1
#define TC_B CONV_B
#define TC_CIN CONV_CIN
#define TC_H 1
#define TC_W CONV_L
#define TC_COUT CONV_COUT
#define TC_KH 1
#define TC_KW CONV_K
#define TC_OH 1
#define TC_OW CONV_LOUT
#define TC_PH 0
#define TC_PW CONV_PAD
#define TC_SY 1
#define TC_SX 1
#define TC_DY 1
#define TC_DX 1
#define TC_BIAS CONV_BIAS
#define TILE_OH 1
#include "ct_conv_tc.cuh"
