// dw1_sizes.cuh: the derived sizes of conv1dc_dw (and of its bf16/f16 entry
// conv1dc_dwh), one set of expressions for the kernel (dw.conv1dc.cu.in
// includes this file where these lines stood) and for its C model (dw_conv.c
// includes it too and expands the macros over local variables named as the
// template's macros: the layer's CONV_* and the candidate's BLOCK_SIZE,
// CHANNELS_PER_BLOCK, OUT_PER_THREAD, VEC). The lines are the template's own,
// token for token, and the file has no include guard: the expanded source
// that the code hash covers (tuner/build/codehash.h) is the one of before, so
// stored results keep their code hashes and test_fold's pre-fold texts still
// give the same ones. (conv2dc_dw's sizes are dw2_sizes.cuh's.)
#define TPR (BLOCK_SIZE / CHANNELS_PER_BLOCK)          // threads per row
#define OPT OUT_PER_THREAD
#define ROWS (CONV_B * CONV_CIN)
#define TILE (TPR * OPT)                              // outputs of a row per block
#define NTILES ((CONV_LOUT + TILE - 1) / TILE)
#define NW ((OPT - 1) * CONV_STRIDE + (CONV_K - 1) * CONV_DIL + 1)   // the window's span
// Aligned loads: t0 is a multiple of VEC, so the window's first input
// t0 - CONV_PAD sits LEAD floats past an aligned address for every thread.
#define LEAD ((VEC - CONV_PAD % VEC) % VEC)
#define NV ((LEAD + NW + VEC - 1) / VEC)              // vectors per window
