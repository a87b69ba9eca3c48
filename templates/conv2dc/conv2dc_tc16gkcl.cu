// conv2dc_tc16gkcl: the conv2dc layer in bf16 or f16, channels-last (NHWC),
// on Hopper's warpgroup mma (wgmma, sm_90a), the weights streamed with the
// input CIN_CHUNK channels at a time; see ct_conv_tc16gk.cuh. Needs compute
// capability 9.0.
#define TC_NAME conv2dc_tc16gkcl
#include "conv2dc_tclayer.cuh"
#include "ct_conv_tc16gk.cuh"
