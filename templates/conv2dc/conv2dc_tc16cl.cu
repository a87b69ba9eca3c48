// conv2dc_tc16cl: the conv2dc layer in bf16 or f16, channels-last (nhwc),
// as an implicit GEMM on the tensor cores (mma.sync m16n8k16, ldmatrix,
// fp32 sums); see ct_conv_tc16cl.cuh for the method and the tuning macros.
// Needs sm_80.
#define TC_NAME conv2dc_tc16cl
#include "conv2dc_tclayer.cuh"
#include "ct_conv_tc16cl.cuh"
