// conv2d_tiled_sizes.cuh: the block tile, window and staged tile of
// conv2d_tiled (the conv2d family's tiled template, templates/conv2d), one
// set of expressions for the kernel (conv2d_tiled.cu includes this file where
// these lines stood) and for the family's C model (family_conv2d.c includes
// it too and expands the macros over local variables named as the template's
// macros: BLOCK_X, BLOCK_Y, OUT_X, OUT_Y, VEC, SMEM_PAD, KH_STEP, CONV_KH,
// CONV_KW). The lines are the template's own, token for token, and the file
// has no include guard: the expanded source that the code hash covers
// (tuner/build/codehash.h) is the one of before, so stored results keep their
// code hashes and test_fold's pre-fold texts still give the same.
#define NTHREADS (BLOCK_X * BLOCK_Y)
#define TILE_OW (BLOCK_X * OUT_X)
#define TILE_OH (BLOCK_Y * OUT_Y)
// Window registers per input row, whole vectors.
#define NWIN (((OUT_X + CONV_KW - 1 + VEC - 1) / VEC) * VEC)
// Staged columns: the last thread's window ends here (>= TILE_OW + KW - 1).
#define TILE_W ((BLOCK_X - 1) * OUT_X + NWIN)
#define TILE_H (TILE_OH + CONV_KH - 1)
#define PITCH (TILE_W + SMEM_PAD)
#define KHS (KH_STEP < CONV_KH ? KH_STEP : CONV_KH)
// The filter rows in shared memory (FILTER_PLACEMENT 1), padded to 4 taps.
#define KW4 ((CONV_KW + 3) / 4 * 4)
#define STAGE_ROWS ((TILE_H + BLOCK_Y - 1) / BLOCK_Y)
#define STAGE_COLS ((TILE_W + BLOCK_X - 1) / BLOCK_X)
