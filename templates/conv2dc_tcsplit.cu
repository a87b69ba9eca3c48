// conv2dc_tcsplit: conv2dc_tc with the input channels split over the
// grid's z dimension, each split writing its partial sums to a workspace
// that a second kernel adds up with the bias: for layers with few output
// tiles and long reductions. See ct_conv_tc.cuh. Needs sm_80 or later.
#define TC_NAME conv2dc_tcsplit
#define TC_SPLIT 1
#define TC_B CONV_B
#define TC_CIN CONV_CIN
#define TC_H CONV_H
#define TC_W CONV_W
#define TC_COUT CONV_COUT
#define TC_KH CONV_KH
#define TC_KW CONV_KW
#define TC_OH CONV_OH
#define TC_OW CONV_OW
#define TC_PH CONV_PH
#define TC_PW CONV_PW
#define TC_SY 1
#define TC_SX 1
#define TC_DY 1
#define TC_DX 1
#define TC_BIAS CONV_BIAS
#include "ct_conv_tc.cuh"
