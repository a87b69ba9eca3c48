// conv1dc_tc: the conv1dc layer as an implicit GEMM on the tensor cores at
// fp32 accuracy (3xTF32), as a 2D layer of height 1; see ct_conv_tc.cuh for
// the method and the tuning macros (TILE_OH is 1). Needs sm_80 or later.
#define TC_NAME conv1dc_tc
#include "conv1dc_tclayer.cuh"
#include "ct_conv_tc.cuh"
