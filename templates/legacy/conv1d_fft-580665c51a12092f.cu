// conv1d_fft: overlap-save FFT correlation. Its cost per output does not grow
// with K, so it beats every direct kernel once the mask is long.
//
// The input is cut into NSEG overlapping segments of FFT_SIZE samples, each
// giving S = FFT_SIZE - CONV_K + 1 outputs free of wrap-around; the mask,
// zero-padded to FFT_SIZE, travels as one more row of the same batch. With
// X = FFT(segment) and M = FFT(mask), the circular correlation is
// IFFT(X * conj(M)) / FFT_SIZE, whose first S samples are the outputs:
//   gather    segments and mask into rows of the in-place R2C layout
//   cuFFT     R2C, batch NSEG + 1 (in place)
//   multiply  X *= conj(M) / FFT_SIZE
//   cuFFT     C2R, batch NSEG (in place)
//   scatter   the first S samples of each row to the output
//
// Problem macros: CONV_N, CONV_K, CONV_OUT, CONV_OFF.
// Tuning macros: FFT_SIZE (a power of two > CONV_K), BLOCK_SIZE (threads of
// the three kernels).

#define FFT_S (FFT_SIZE - CONV_K + 1)                 // outputs per segment
#define FFT_CS (FFT_SIZE / 2 + 1)                     // complex bins per row
#define FFT_RS (2 * FFT_CS)                           // floats per row (in-place layout)
#define FFT_NSEG ((CONV_OUT + FFT_S - 1) / FFT_S)

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
conv1d_fft_gather(const float *__restrict__ in, const float *__restrict__ mask, float *__restrict__ buf)
{
    const long long total = (long long)(FFT_NSEG + 1) * FFT_SIZE;
    for (long long i = (long long)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < total;
         i += (long long)gridDim.x * BLOCK_SIZE) {
        const long long row = i / FFT_SIZE;
        const int t = (int)(i - row * FFT_SIZE);
        float v;
        if (row < FFT_NSEG) {
            const long long g = row * FFT_S + t - CONV_OFF;
            v = (g >= 0 && g < CONV_N) ? __ldg(in + g) : 0.0f;
        } else {
            v = t < CONV_K ? __ldg(mask + t) : 0.0f;
        }
        buf[row * FFT_RS + t] = v;
    }
}

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
conv1d_fft_multiply(float2 *__restrict__ spec)
{
    const float scale = 1.0f / FFT_SIZE;
    const float2 *__restrict__ m = spec + (long long)FFT_NSEG * FFT_CS;
    const long long total = (long long)FFT_NSEG * FFT_CS;
    for (long long i = (long long)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < total;
         i += (long long)gridDim.x * BLOCK_SIZE) {
        const long long row = i / FFT_CS;
        const int f = (int)(i - row * FFT_CS);
        const float2 x = spec[i], w = m[f];
        spec[i] = make_float2((x.x * w.x + x.y * w.y) * scale, (x.y * w.x - x.x * w.y) * scale);
    }
}

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
conv1d_fft_scatter(const float *__restrict__ buf, float *__restrict__ out)
{
    for (long long i = (long long)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < CONV_OUT;
         i += (long long)gridDim.x * BLOCK_SIZE) {
        const long long row = i / FFT_S;
        out[i] = buf[row * FFT_RS + (i - row * FFT_S)];
    }
}
