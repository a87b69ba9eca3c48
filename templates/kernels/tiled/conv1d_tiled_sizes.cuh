// conv1d_tiled_sizes.cuh: the tap chunking and staged input tile of
// conv1d_tiled (the conv1d family's tiled template, templates/conv1d), one
// set of expressions for the kernel (conv1d_tiled.cu includes this file where
// these lines stood) and for the family's C model (family_conv1d.c includes
// it too and expands the macros over local variables named as the template's
// macros: KCHUNK, KP, TILE_OUT). The lines are the template's own, token for
// token, and the file has no include guard: the expanded source that the code
// hash covers (tuner/build/codehash.h) is the one of before, so stored results
// keep their code hashes and test_fold's pre-fold texts still give the same.
#define KCH (KCHUNK < KP ? KCHUNK : KP)
#define KCH4 (((KCH) + 3) / 4 * 4)
#define NCHUNK ((KP + KCH - 1) / KCH)
#define TILE_IN (TILE_OUT + KCH4)
