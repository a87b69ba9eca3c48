// conv1dc_tc16: the conv1dc layer in bf16 or f16 as an implicit GEMM on the
// tensor cores (mma.sync m16n8k16, ldmatrix, fp32 sums), as a 2D layer of
// height 1; see ct_conv_tc16.cuh for the method and the tuning macros
// (TILE_OH is 1). Needs sm_80.
#define TC_NAME conv1dc_tc16
#include "conv1dc_tclayer.cuh"
#include "ct_conv_tc16.cuh"
