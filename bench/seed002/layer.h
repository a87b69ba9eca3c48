// Seed 002 in bf16 (conv1dc:1:1024:4:1024:5:pad=2:bias:bf16) as the tensor-core
// templates' TC_* problem macros, for kern_wb.cu, kern_w.cu and tl.cu.
#define CT_DTYPE 1
#define TC_B 1
#define TC_CIN 1024
#define TC_H 1
#define TC_W 4
#define TC_COUT 1024
#define TC_KH 1
#define TC_KW 5
#define TC_OH 1
#define TC_OW 4
#define TC_PH 0
#define TC_PW 2
#define TC_SY 1
#define TC_SX 1
#define TC_DY 1
#define TC_DX 1
#define TC_BIAS 1
