// conv1dc_naive: the baseline every speedup is reported against.
// One thread per output element, input and weights read from global memory,
// as the first kernel of seed 002 would be without its per-block staging:
//   out[b][co][t] = bias[co] + sum_{c, k} in[b][g*CING + c][t*STRIDE + k*DIL - CONV_PAD] * w[co][c][k],
//   g = co / COUTG
//
// Problem macros (set by convtune): CONV_B, CONV_CIN, CONV_L, CONV_COUT,
// CONV_K, CONV_PAD, CONV_LOUT, CONV_BIAS, CT_DTYPE (the element type; sums in
// fp32), and where not 1 CONV_STRIDE,
// CONV_DIL, CONV_GROUPS, CONV_CHANNELS_LAST (layout nlc: consecutive
// threads take consecutive output channels). Tuning macros: BLOCK_SIZE.
#include "conv1dc_layer.cuh"
#include "conv1dc_layout.cuh"
#include "ct_dtype.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
conv1dc_naive(const ct_elem *__restrict__ in, const ct_elem *__restrict__ weight,
#if CONV_BIAS
              const ct_elem *__restrict__ bias,
#endif
              ct_elem *__restrict__ out)
{
    // Every buffer holds fewer than 2^31 elements (the family's parser checks).
    const unsigned i = blockIdx.x * BLOCK_SIZE + threadIdx.x;
    if (i >= (unsigned)(CONV_B * CONV_COUT * CONV_LOUT))
        return;
#if CONV_CHANNELS_LAST
    const int co = i % CONV_COUT;
    const int t = (i / CONV_COUT) % CONV_LOUT;
#else
    const int t = i % CONV_LOUT;
    const int co = (i / CONV_LOUT) % CONV_COUT;
#endif
    const int b = i / (CONV_LOUT * CONV_COUT);
    const int c0 = co / CONV_COUTG * CONV_CING;
#if CONV_BIAS
    float acc = ct_ld(&bias[co]);
#else
    float acc = 0.0f;
#endif
    for (int c = 0; c < CONV_CING; ++c)
        for (int k = 0; k < CONV_K; ++k) {
            const int x = t * CONV_STRIDE + k * CONV_DIL - CONV_PAD;
            if (x >= 0 && x < CONV_L)
                acc += ct_ld(&in[CONV_IN_AT(b, c0 + c, x)]) * ct_ld(&weight[(co * CONV_CING + c) * CONV_K + k]);
        }
    ct_st(&out[i], acc);
}
