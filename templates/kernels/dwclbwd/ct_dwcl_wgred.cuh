// ct_dwcl_wgred.cuh: the second kernel of the depthwise weight gradients
// (ct_dwcl_bwd.cuh's wgdwcl, ../dw16bwd/ct_dw16_wgrad.cuh's wgdw16cl), one
// source for both: it adds the splits' partial sums of a workspace of
// WG_NSPLIT x WG_COUNT floats (ws[split][tap][c], the taps then the bias
// row, DB_TAPS taps of DB_C channels) in fp64 into dW (then db), named
// DB_REDUCE_NAME. The including header defines those macros.
// dweight[c][tap] (then dbias[c]) = the splits' partial sums ws[s][tap][c]
// added in fp64 in a fixed order: a block of 256 threads takes 32
// consecutive entries (a warp reads 128 contiguous bytes of a split); its 8
// warps sum the splits s = g, g + 8, ... of them in split order, then warp
// 0 adds the 8 sums in warp order. Many short chains keep the loads of
// every split in flight, where one thread per weight would wait on a
// chain of hundreds of dependent loads.
#define WG_RED_GROUPS 8
extern "C" __global__ void __launch_bounds__(256)
DB_REDUCE_NAME(const float *__restrict__ ws, ct_elem *__restrict__ dweight)
{
    __shared__ double s_sum[WG_RED_GROUPS][32];
    const int lane = threadIdx.x % 32, g = threadIdx.x / 32;
    const long long o = (long long)blockIdx.x * 32 + lane;
    double sum = 0.0;
    if (o < WG_COUNT)
#pragma unroll 4
        for (long long s = g; s < WG_NSPLIT; s += WG_RED_GROUPS)
            sum += (double)ws[s * WG_COUNT + o];
    s_sum[g][lane] = sum;
    __syncthreads();
    if (g != 0 || o >= WG_COUNT)
        return;
    for (int k = 1; k < WG_RED_GROUPS; ++k)
        sum += s_sum[k][lane];
    const long long tap = o / DB_C, c = o % DB_C;
    ct_st(dweight + (tap < DB_TAPS ? c * DB_TAPS + tap : (long long)DB_TAPS * DB_C + c), (float)sum);
}
