// conv2dc_tc: the conv2dc layer as an implicit GEMM on the tensor cores at
// fp32 accuracy (3xTF32); see ct_conv_tc.cuh for the method and the tuning
// macros. Needs sm_80 or later.
#define TC_NAME conv2dc_tc
#include "conv2dc_tclayer.cuh"
#include "ct_conv_tc.cuh"
