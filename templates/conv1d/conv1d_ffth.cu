// conv1d_ffth: conv1d_fft for bf16 and f16 problems (CT_DTYPE 1 or 2).
//
// The same overlap-save pipeline and parameters as conv1d_fft (see there),
// with its kernel names, so one executor runs both: the gather widens the
// input and mask elements to float as it writes the rows, the transforms
// and the spectrum product stay fp32 in cuFFT, and the scatter rounds each
// output once to the element type.
//
// Problem macros: CONV_N, CONV_K, CONV_OUT, CONV_OFF, CT_DTYPE.
// Tuning macros: FFT_SIZE, BLOCK_SIZE.
#include "ct_dtype.cuh"

#define FFT_S (FFT_SIZE - CONV_K + 1)                 // outputs per segment
#define FFT_CS (FFT_SIZE / 2 + 1)                     // complex bins per row
#define FFT_RS (2 * FFT_CS)                           // floats per row (in-place layout)
#define FFT_NSEG ((CONV_OUT + FFT_S - 1) / FFT_S)

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
conv1d_fft_gather(const ct_elem *__restrict__ in, const ct_elem *__restrict__ mask, float *__restrict__ buf)
{
    const long long total = (long long)(FFT_NSEG + 1) * FFT_SIZE;
    for (long long i = (long long)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < total;
         i += (long long)gridDim.x * BLOCK_SIZE) {
        const long long row = i / FFT_SIZE;
        const int t = (int)(i - row * FFT_SIZE);
        const long long g = row * FFT_S + t - CONV_OFF;
        const bool have = row < FFT_NSEG ? g >= 0 && g < CONV_N : t < CONV_K;
        buf[row * FFT_RS + t] = have ? ct_ldg(row < FFT_NSEG ? in + g : mask + t) : 0.0f;
    }
}

// X *= conj(M) / FFT_SIZE for every segment's spectrum X; M is the last row.
extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
conv1d_fft_multiply(float2 *__restrict__ spec)
{
    const float scale = 1.0f / FFT_SIZE;
    const float2 *__restrict__ m = spec + (long long)FFT_NSEG * FFT_CS;
    for (long long i = (long long)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < (long long)FFT_NSEG * FFT_CS;
         i += (long long)gridDim.x * BLOCK_SIZE) {
        const float2 x = spec[i], w = m[i % FFT_CS];
        spec[i] = make_float2((x.x * w.x + x.y * w.y) * scale, (x.y * w.x - x.x * w.y) * scale);
    }
}

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
conv1d_fft_scatter(const float *__restrict__ buf, ct_elem *__restrict__ out)
{
    for (long long i = (long long)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < CONV_OUT;
         i += (long long)gridDim.x * BLOCK_SIZE) {
        const long long row = i / FFT_S;
        ct_st(out + i, buf[row * FFT_RS + (i - row * FFT_S)]);
    }
}
