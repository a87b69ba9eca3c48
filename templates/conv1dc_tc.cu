// conv1dc_tc: the conv1dc layer as an implicit GEMM on the tensor cores at
// fp32 accuracy (3xTF32), as a 2D layer of height 1; see ct_conv_tc.cuh for
// the method and the tuning macros (TILE_OH is 1). Needs sm_80 or later.
#define TC_NAME conv1dc_tc
#define TC_B CONV_B
#define TC_CIN CONV_CIN
#define TC_H 1
#define TC_W CONV_L
#define TC_COUT CONV_COUT
#define TC_KH 1
#define TC_KW CONV_K
#define TC_OH 1
#define TC_OW CONV_LOUT
#define TC_PH 0
#define TC_PW CONV_PAD
#define TC_SY 1
#define TC_SX 1
#define TC_DY 1
#define TC_DX 1
#define TC_BIAS CONV_BIAS
#define TILE_OH 1
#include "ct_conv_tc.cuh"
