// conv1d_naive: the baseline every speedup is reported against.
// One thread per output, input and mask read from global memory, as in the
// first kernel of seed 000:  out[i] = sum_j x[i + j - CONV_OFF] * mask[j],
// x taken as zero outside [0, CONV_N).
//
// Problem macros (set by convtune): CONV_N input length, CONV_K taps,
// CONV_OUT outputs, CONV_OFF left padding, CT_DTYPE the element type (sums in
// fp32 whatever it is). Tuning macros: BLOCK_SIZE.
#include "ct_dtype.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
conv1d_naive(const ct_elem *__restrict__ in, const ct_elem *__restrict__ mask,
             ct_elem *__restrict__ out)
{
    const long long i = (long long)blockIdx.x * BLOCK_SIZE + threadIdx.x;
    if (i >= CONV_OUT)
        return;
    float acc = 0.0f;
    for (int j = 0; j < CONV_K; ++j) {
        const long long x = i + j - CONV_OFF;
        if (x >= 0 && x < CONV_N)
            acc += ct_ld(&in[x]) * ct_ld(&mask[j]);
    }
    ct_st(&out[i], acc);
}
