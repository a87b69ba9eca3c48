// conv2dc_tc16gcl: the conv2dc layer in bf16 or f16, channels-last (NHWC),
// on Hopper's warpgroup mma (wgmma, sm_90a), weights resident per block;
// see ct_conv_tc16g.cuh. Needs compute capability 9.0.
#define TC_NAME conv2dc_tc16gcl
#define TC_CL 1
#include "conv2dc_tclayer.cuh"
#include "ct_conv_tc16g.cuh"
