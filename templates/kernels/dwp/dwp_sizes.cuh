// dwp_sizes.cuh: the derived sizes of conv2dc_dwp (and of its bf16/f16
// entry conv2dc_dwph), one set of expressions for the kernel
// (dwp.conv2dc.cu.in includes this file where these lines stood) and for its
// C model (dwp_conv.c includes it too and expands the macros over local
// variables named as the template's macros: the layer's CONV_* and the
// candidate's OUT_X, OUT_Y, PLANES, VEC). The lines are the template's own,
// token for token, and the file has no include guard: the expanded source
// that the code hash covers (tuner/build/codehash.h) is the one of before, so
// stored results keep their code hashes and test_fold's pre-fold texts still
// give the same ones.
#define DW_CDIV(a, b) (((a) + (b) - 1) / (b))
#define DW_RUP(a, b) (DW_CDIV(a, b) * (b))
#define DW_MAX(a, b) ((a) > (b) ? (a) : (b))
#define NPLANES (CONV_B * CONV_CIN)
#define STAGES (PLANES > 1 ? 2 : 1)
#define NIY DW_CDIV(CONV_OH, OUT_Y)                   // items down the plane
#define NIX DW_CDIV(CONV_OW, OUT_X)                   // items along a row
#define NITEMS (NIY * NIX)
#define LEAD (VEC == 4 ? (4 - CONV_PW % 4) % 4 : 0)   // frame columns before the left halo
#define STEP (OUT_X * CONV_SW)                        // columns between items' windows
#define LV (LEAD % 4 == 0 && STEP % 4 == 0 ? 4 : LEAD % 2 == 0 && STEP % 2 == 0 ? 2 : 1)
#define NWX ((OUT_X - 1) * CONV_SW + (CONV_KW - 1) * CONV_DW + 1)
#define NWL DW_RUP(NWX, LV)
#define NR ((OUT_Y - 1) * CONV_SH + (CONV_KH - 1) * CONV_DH + 1)   // input rows of an item
// The frame: every row and column an item reads, and the whole plane.
#define SIH DW_MAX((NIY * OUT_Y - 1) * CONV_SH + (CONV_KH - 1) * CONV_DH + 1, CONV_PH + CONV_H)
#define PITCH DW_RUP(DW_MAX(LEAD + (NIX - 1) * STEP + NWL, LEAD + CONV_PW + CONV_W), 4)
#define S_IN (SIH * PITCH)
#define KWP DW_RUP(CONV_KW, 4)
#define S_W (CONV_KH * KWP)
#define BUF (S_IN + S_W)                              // floats, a multiple of 4
