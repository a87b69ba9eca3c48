// conv2dc_tc16rcl: the conv2dc layer in bf16 or f16, channels-last (NHWC),
// as an implicit GEMM (mma.sync) with a block's weights resident across
// TILES image tiles: input tiles copied by cp.async as they lie, outputs in
// 16-byte stores; see ct_conv_tc16r.cuh. Needs sm_80.
#define TC_NAME conv2dc_tc16rcl
#include "conv2dc_tclayer.cuh"
#include "ct_conv_tc16r.cuh"
