/* conv1d_fft.h - the cuFFT overlap-save executor of the conv1d family. */
#ifndef CT_CONV1D_FFT_H
#define CT_CONV1D_FFT_H

#include "executor.h"

extern const ct_executor ct_conv1d_fft_exec;

/* The FFT template's constraints: 0 when admissible, else why. */
int ct_conv1d_fft_constrain(const ct_problem *p, const ct_params *c, const ct_limits *lim, char *why,
                            size_t len);

#endif
