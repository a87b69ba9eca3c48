// conv2d_generic: the fallback kernel of a multi-size export (`convtune
// export --family conv2d`). It is not tuned and not part of any tuning
// space: the sizes are kernel arguments instead of compile-time macros, so
// one compiled kernel serves every problem the export has no tuned instance
// for.
//
//   out[b][y][x] = sum_{i<kh, j<kw} in[b][y + i - ph][x + j - pw] * f[i][j],
//   in = 0 outside the h x w image; valid: ph = pw = 0, (h-kh+1) x (w-kw+1)
//   outputs; same: ph = (kh-1)/2, pw = (kw-1)/2, h x w outputs
//
// One thread per output pixel (row-major within an image, so neighbouring
// threads read neighbouring inputs through the read-only cache), the block's
// pixels of one batch item. The filter is staged in shared memory one chunk
// of taps at a time and read as broadcasts. Each chunk is summed on its own
// and then added, so fp32 rounding grows with the chunk length and the
// number of chunks rather than with the whole filter.
#include "ct_dtype.cuh"

#define CT_G2_SMEM 4096   // filter taps staged at a time (16 KiB)

extern "C" __global__ void conv2d_generic(const ct_elem *__restrict__ in, const ct_elem *__restrict__ f,
                                          ct_elem *__restrict__ out, int nb, int h, int w, int kh, int kw, int oh,
                                          int ow, int ph, int pw)
{
    __shared__ float fs[CT_G2_SMEM];
    const long long npix = (long long)oh * ow;   // below 2^31: the output is
    const int taps = kh * kw, hw = h * w;
    const int ntile = (int)((npix + blockDim.x - 1) / blockDim.x);
    for (int b = blockIdx.z; b < nb; b += gridDim.z)
        for (int tile = blockIdx.x; tile < ntile; tile += gridDim.x) {
            const long long tl = (long long)tile * blockDim.x + threadIdx.x;
            const bool active = tl < npix;
            const int t = active ? (int)tl : 0;
            const int y = t / ow, x = t - (t / ow) * ow;
            const ct_elem *img = in + (size_t)b * hw;
            float acc = 0.0f;
            for (long long r0l = 0; r0l < taps; r0l += CT_G2_SMEM) {   // 64-bit: taps may be near 2^31
                const int r0 = (int)r0l, len = min(CT_G2_SMEM, taps - r0);
                __syncthreads();   // every thread is done with the previous chunk
                for (int r = threadIdx.x; r < len; r += blockDim.x)
                    fs[r] = ct_ldg(f + r0 + r);
                __syncthreads();
                if (!active)
                    continue;
                float part = 0.0f;
                int i = r0 / kw, j = r0 - (r0 / kw) * kw;
                for (int r = 0; r < len; r++) {
                    const int iy = y + i - ph, ix = x + j - pw;
                    const float v = iy >= 0 && iy < h && ix >= 0 && ix < w ? ct_ldg(img + iy * w + ix) : 0.0f;
                    part = fmaf(v, fs[r], part);
                    if (++j == kw) {
                        j = 0;
                        i++;
                    }
                }
                acc += part;
            }
            if (active)
                ct_st(&out[(size_t)b * npix + t], acc);
        }
}

#if !defined(__CUDACC_RTC__)
// The host side of the selector of `convtune export --family conv2d`
// (family_export.h): whether the sizes are a conv2d problem (the grammar's
// rules: a batch of at most 65535, mode 0 valid or 1 same, the filter inside
// the image when valid, every buffer below 2^31 elements), and the launch
// with block threads per block.
static int conv2d_generic_accepts(long long b, long long h, long long w, long long kh, long long kw, int mode)
{
    const long long max = 2147483647LL;
    if (b < 1 || h < 1 || w < 1 || kh < 1 || kw < 1 || b > 65535 || h > max || w > max || kh > max || kw > max ||
        mode < 0 || mode > 1 || (mode == 0 && (kh > h || kw > w)))
        return 0;
    return h <= max / w && b <= max / (h * w) && kh <= max / kw;
}

static int conv2d_generic_launch(const ct_elem *in, const ct_elem *filter, ct_elem *out, long long b, long long h,
                                 long long w, long long kh, long long kw, int mode, unsigned block, cudaStream_t stream)
{
    const long long oh = mode ? h : h - kh + 1, ow = mode ? w : w - kw + 1;
    const long long ph = mode ? (kh - 1) / 2 : 0, pw = mode ? (kw - 1) / 2 : 0;
    const dim3 grid((unsigned)((oh * ow + block - 1) / block), 1, (unsigned)b);
    conv2d_generic<<<grid, block, 0, stream>>>(in, filter, out, (int)b, (int)h, (int)w, (int)kh, (int)kw, (int)oh,
                                               (int)ow, (int)ph, (int)pw);
    return (int)cudaGetLastError();
}
#endif
