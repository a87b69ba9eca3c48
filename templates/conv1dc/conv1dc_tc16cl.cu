// conv1dc_tc16cl: the conv1dc layer in bf16 or f16, channels-last (nlc),
// as an implicit GEMM on the tensor cores (mma.sync m16n8k16, ldmatrix,
// fp32 sums), a 2D layer of height 1; see ct_conv_tc16cl.cuh for the
// method and the tuning macros (TILE_OH is 1). Needs sm_80.
#define TC_NAME conv1dc_tc16cl
#include "conv1dc_tclayer.cuh"
#include "ct_conv_tc16cl.cuh"
