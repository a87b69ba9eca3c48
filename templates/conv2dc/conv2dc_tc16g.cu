// conv2dc_tc16g: the conv2dc layer in bf16 or f16 (NCHW) on Hopper's
// warpgroup mma (wgmma, sm_90a), weights resident per block, each tile's
// rows transposed in shared memory; see ct_conv_tc16g.cuh. Needs compute
// capability 9.0.
#define TC_NAME conv2dc_tc16g
#define TC_CL 0
#include "conv2dc_tclayer.cuh"
#include "ct_conv_tc16g.cuh"
