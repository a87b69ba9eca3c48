// conv1d_naive: the baseline every speedup is reported against.
// One thread per output, input and mask read from global memory, as in the
// first kernel of seed 000:  out[i] = sum_j x[i + j - CONV_OFF] * mask[j],
// x taken as zero outside [0, CONV_N).
//
// Problem macros (set by convtune): CONV_N input length, CONV_K taps,
// CONV_OUT outputs, CONV_OFF left padding. Tuning macros: BLOCK_SIZE.

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
conv1d_naive(const float *__restrict__ in, const float *__restrict__ mask,
             float *__restrict__ out)
{
    const long long i = (long long)blockIdx.x * BLOCK_SIZE + threadIdx.x;
    if (i >= CONV_OUT)
        return;
    float acc = 0.0f;
    for (int j = 0; j < CONV_K; ++j) {
        const long long x = i + j - CONV_OFF;
        if (x >= 0 && x < CONV_N)
            acc += in[x] * mask[j];
    }
    out[i] = acc;
}
