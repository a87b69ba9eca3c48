// conv2dc_tc16wb: the conv2dc layer in bf16 or f16 with at most 16 output
// pixels, whole weight rows as the B operand of mma.sync m16n8k16 (copied
// by the bulk copy engine or loaded into registers) against an im2col
// built from input planes in registers; see ct_conv_tc16wb.cuh. Needs sm_90.
#define TC_NAME conv2dc_tc16wb
#include "conv2dc_tclayer.cuh"
#include "ct_conv_tc16wb.cuh"
