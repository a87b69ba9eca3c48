// conv1dc_tcsplit: conv1dc_tc (as a 2D layer of height 1) with the input channels split over the
// grid's z dimension, each split writing its partial sums to a workspace
// that a second kernel adds up with the bias: for layers with few output
// tiles and long reductions. See ct_conv_tc.cuh. Needs sm_80 or later.
#define TC_NAME conv1dc_tcsplit
#define TC_SPLIT 1
#include "conv1dc_tclayer.cuh"
#include "ct_conv_tc.cuh"
