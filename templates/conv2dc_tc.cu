// conv2dc_tc: the conv2dc layer as an implicit GEMM on the tensor cores at
// fp32 accuracy (3xTF32); see ct_conv_tc.cuh for the method and the tuning
// macros. Needs sm_80 or later.
#define TC_NAME conv2dc_tc
#define TC_B CONV_B
#define TC_CIN CONV_CIN
#define TC_H CONV_H
#define TC_W CONV_W
#define TC_COUT CONV_COUT
#define TC_KH CONV_KH
#define TC_KW CONV_KW
#define TC_OH CONV_OH
#define TC_OW CONV_OW
#define TC_PH CONV_PH
#define TC_PW CONV_PW
#define TC_SY 1
#define TC_SX 1
#define TC_DY 1
#define TC_DX 1
#define TC_BIAS CONV_BIAS
#include "ct_conv_tc.cuh"
