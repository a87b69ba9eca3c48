// conv2dc_naive: the baseline every speedup is reported against.
// One thread per output element, input, weights and bias read from global
// memory:
//   out[b][co][y][x] = bias[co] + sum_{c,i,j} in[b][g*CING + c][y*SH + i*DH - PH][x*SW + j*DW - PW]
//                      * w[co][c][i][j],   g = co / COUTG
// with the input taken as zero outside the image.
//
// Problem macros (set by convtune): CONV_B, CONV_CIN, CONV_H, CONV_W,
// CONV_COUT, CONV_KH, CONV_KW, CONV_OH, CONV_OW, CONV_PH, CONV_PW, CONV_BIAS,
// CT_DTYPE (the element type; sums in fp32),
// and where not 1 CONV_SH, CONV_SW, CONV_DH, CONV_DW, CONV_GROUPS,
// CONV_CHANNELS_LAST (layout nhwc: consecutive threads take consecutive
// output channels). Tuning macros: BLOCK_SIZE.
#include "conv2dc_layer.cuh"
#include "conv2dc_layout.cuh"
#include "ct_dtype.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
conv2dc_naive(const ct_elem *__restrict__ in, const ct_elem *__restrict__ weight,
#if CONV_BIAS
              const ct_elem *__restrict__ bias,
#endif
              ct_elem *__restrict__ out)
{
    // Every buffer is below 2^31 elements, but the last block's indices may
    // pass that before the bounds test.
    const long long o = (long long)blockIdx.x * BLOCK_SIZE + threadIdx.x;
    if (o >= (long long)CONV_B * CONV_COUT * CONV_OH * CONV_OW)
        return;
#if CONV_CHANNELS_LAST
    const int co = (int)(o % CONV_COUT);
    const int x = (int)(o / CONV_COUT % CONV_OW);
    const int y = (int)(o / ((long long)CONV_COUT * CONV_OW) % CONV_OH);
#else
    const int x = (int)(o % CONV_OW);
    const int y = (int)(o / CONV_OW % CONV_OH);
    const int co = (int)(o / ((long long)CONV_OW * CONV_OH) % CONV_COUT);
#endif
    const int b = (int)(o / ((long long)CONV_OW * CONV_OH * CONV_COUT));
    const int c0 = co / CONV_COUTG * CONV_CING;
#if CONV_BIAS
    float acc = ct_ld(&bias[co]);
#else
    float acc = 0.0f;
#endif
    for (int c = 0; c < CONV_CING; ++c)
        for (int i = 0; i < CONV_KH; ++i) {
            const int yy = y * CONV_SH + i * CONV_DH - CONV_PH;
            if (yy < 0 || yy >= CONV_H)
                continue;
            for (int j = 0; j < CONV_KW; ++j) {
                const int xx = x * CONV_SW + j * CONV_DW - CONV_PW;
                if (xx >= 0 && xx < CONV_W)
                    acc += ct_ld(&in[CONV_IN_AT(b, c0 + c, yy, xx)]) *
                           ct_ld(&weight[((co * CONV_CING + c) * CONV_KH + i) * CONV_KW + j]);
            }
        }
    ct_st(&out[o], acc);
}
