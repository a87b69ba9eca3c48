/* fft_conv.h - the cuFFT overlap-save template of the conv1d family,
 * conv1d_fft, and its bf16/f16 entry conv1d_ffth (fft.conv1d.cu.in beside
 * it, conv1d's own code): the executor, the parameters and the
 * constraints. */
#ifndef CT_FFT_CONV_H
#define CT_FFT_CONV_H

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

/* conv1d's template of this kind (CT_KERNEL in kernel_kind.h); conv1d has
 * no kernel kinds: its own code calls ct_conv1d_fft_constrain. */
#define CT_FFT_conv1d .summary = "overlap-save FFT correlation through cuFFT (cost independent of K)"
#define CT_KERNEL_fft(nm, family)                                                                          \
    {.name = nm, CT_FFT_##family, .params = ct_conv1d_fft_params,                                          \
     .nparams = CT_PARAM_COUNT(CT_CONV1D_FFT_PARAMS), .exec = &ct_conv1d_fft_exec, .kernel = "fft"}

/* The bf16/f16 entry FAMILY_ffth (the family's line after the half tiled
 * entry): the CT_DTYPE branch of FAMILY_fft.cu, half gather and scatter,
 * fp32 transforms. */
#define CT_FFTH_ENTRY(family)                                                                               \
    {.name = #family "_ffth", .summary = #family "_fft for bf16/f16: half gather and scatter, fp32 cuFFT "  \
                                         "transforms",                                                      \
     .dtypes = CT_DTYPES_HALF, .params = ct_conv1d_fft_params, .nparams = CT_PARAM_COUNT(CT_CONV1D_FFT_PARAMS), \
     .exec = &ct_conv1d_fft_exec, .source = #family "_fft", .kernel = "fft"}

#endif
