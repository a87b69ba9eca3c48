// dwcl_sizes.cuh: the derived sizes of conv1dc_dwcl (and of its bf16/f16
// entry conv1dc_dwclh), one set of expressions for the kernel
// (dwcl.conv1dc.cu.in includes this file where these lines stood) and for
// its C model (dwcl_conv.c includes it too and expands the macros over local
// variables named as the template's macros: CONV_CIN, CONV_LOUT, CONV_K,
// CONV_STRIDE, CONV_DIL, VEC, CHANNEL_THREADS, POS_THREADS, POS_PER_THREAD,
// CHUNK). The lines are the template's own, token for token, and the file has
// no include guard: the expanded source that the code hash covers
// (tuner/build/codehash.h) is the one of before, so stored results keep their
// code hashes and test_fold's pre-fold texts still give the same ones.
#define NCV (CONV_CIN / VEC)                                     // channel vectors of a row
#define NCB ((NCV + CHANNEL_THREADS - 1) / CHANNEL_THREADS)      // blocks across the channels
#define RUN (POS_THREADS * POS_PER_THREAD)                       // positions per block
#define NPB ((CONV_LOUT + RUN - 1) / RUN)                        // blocks along the positions
#define NWC ((CHUNK - 1) * CONV_STRIDE + (CONV_K - 1) * CONV_DIL + 1)   // rows of a step's window
#define STEP (CHUNK * CONV_STRIDE)                               // rows between two steps' windows
#define KEEP (NWC > STEP ? NWC - STEP : 0)                       // rows a step hands to the next
