// conv1d_generic: the fallback kernel of a multi-size export (`convtune
// export --family conv1d`). It is not tuned and not part of any tuning space:
// the sizes are kernel arguments instead of compile-time macros, so one
// compiled kernel serves every problem size the export has no tuned
// instance for.
//
//   out[i] = sum_{j<k} x[i + j - off] * mask[j],  x = 0 outside [0, n), i < nout
//
// One thread per output in a grid-stride loop, so any grid covers any nout;
// input and mask are read through the read-only cache, as in conv1d_naive.
// Only the taps that fall inside the input are visited.
#include "ct_dtype.cuh"

extern "C" __global__ void conv1d_generic(const ct_elem *__restrict__ in, const ct_elem *__restrict__ mask,
                                          ct_elem *__restrict__ out, long long n, long long k,
                                          long long nout, long long off)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < nout; i += stride) {
        const long long j0 = off - i > 0 ? off - i : 0;          // first tap inside the input
        const long long j1 = n + off - i < k ? n + off - i : k;  // one past the last
        float acc = 0.0f;
        for (long long j = j0; j < j1; ++j)
            acc += ct_ldg(in + (i + j - off)) * ct_ldg(mask + j);
        ct_st(&out[i], acc);
    }
}

#if !defined(__CUDACC_RTC__)
// The host side of the selector of `convtune export --family conv1d`
// (family_export.h): whether (n, k, mode) is a conv1d problem (the grammar's
// rules: sizes 1..2e9, mode 0 valid, 1 same, 2 right, k <= n when valid),
// and the launch with block threads per block.
static int conv1d_generic_accepts(long long n, long long k, int mode)
{
    return n >= 1 && k >= 1 && n <= 2000000000LL && k <= 2000000000LL && mode >= 0 && mode <= 2 &&
           !(mode == 0 && k > n);
}

static int conv1d_generic_launch(const ct_elem *in, const ct_elem *mask, ct_elem *out, long long n, long long k, int mode,
                                 unsigned block, cudaStream_t stream)
{
    const long long nout = mode == 0 ? n - k + 1 : n;
    const long long off = mode == 1 ? (k - 1) / 2 : 0;
    long long blocks = (nout + block - 1) / block;
    if (blocks > 2147483647LL)
        blocks = 2147483647LL;
    conv1d_generic<<<(unsigned)blocks, block, 0, stream>>>(in, mask, out, n, k, nout, off);
    return (int)cudaGetLastError();
}
#endif
