/* conv1d_fft.h - the cuFFT overlap-save executor of the conv1d family. */
#ifndef CT_CONV1D_FFT_H
#define CT_CONV1D_FFT_H

#include "executor.h"

extern const ct_executor ct_conv1d_fft_exec;

/* The FFT template's parameters (its table is defined in conv1d_fft.c). */
#define CT_CONV1D_FFT_PARAMS(X)                                                                     \
    X(FFT_SIZE, 4096, CT_INT(0), "FFT length of each overlap-save segment (a power of two)")        \
    X(BLOCK_SIZE, 256, CT_THREADS(32), "threads per block of the gather, multiply and scatter kernels")
extern const ct_param_def ct_conv1d_fft_params[CT_PARAM_COUNT(CT_CONV1D_FFT_PARAMS)];
CT_PARAM_VALUES(conv1d_fft, CT_CONV1D_FFT_PARAMS, ct_conv1d_fft_params)

/* The FFT template's constraints: 0 when admissible, else why. */
int ct_conv1d_fft_constrain(const ct_problem *p, const ct_params *c, const ct_limits *lim, char *why,
                            size_t len);

#endif
