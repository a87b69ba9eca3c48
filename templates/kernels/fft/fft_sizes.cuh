// fft_sizes.cuh: the derived sizes of conv1d_fft, one set of expressions for
// the kernels (fft.conv1d.cu.in includes this file where these lines stood)
// and for the executor (fft_conv.c includes it too and expands the macros
// over local variables named as the template's macros: FFT_SIZE, CONV_K and
// CONV_OUT). The lines are the template's own, token for token, and the file
// has no include guard: the expanded source that the code hash covers
// (tuner/build/codehash.h) is the one of before, so stored results keep their
// code hashes and test_fold's pre-fold texts still give the same ones.
#define FFT_S (FFT_SIZE - CONV_K + 1)                 // outputs per segment
#define FFT_CS (FFT_SIZE / 2 + 1)                     // complex bins per row
#define FFT_RS (2 * FFT_CS)                           // floats per row (in-place layout)
#define FFT_NSEG ((CONV_OUT + FFT_S - 1) / FFT_S)     // segments (the mask is one more row)
