// conv2dc_tc16w: the conv2dc layer in bf16 or f16 with few output pixels,
// the weights streamed into mma.sync m16n8k16 fragments (16-byte loads)
// against an im2col of the input in shared memory; see ct_conv_tc16w.cuh.
// Needs sm_80.
#define TC_NAME conv2dc_tc16w
#include "conv2dc_tclayer.cuh"
#include "ct_conv_tc16w.cuh"
