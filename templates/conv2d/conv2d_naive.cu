// conv2d_naive: the baseline every speedup is reported against.
// One thread per output, image and filter read from global memory, as in the
// first kernel of seed 004 (with the coalesced mapping of its variant 1:
// threadIdx.x runs along a row):
//   out[b][y][x] = sum_{i,j} in[b][y + i - CONV_PH][x + j - CONV_PW] * f[i][j],
// the image taken as zero outside its CONV_H x CONV_W pixels.
//
// Problem macros (set by convtune): CONV_B, CONV_H, CONV_W, CONV_KH, CONV_KW,
// CONV_OH, CONV_OW, CONV_PH, CONV_PW, CT_DTYPE the element type (sums in fp32
// whatever it is). Tuning macros: BLOCK_X, BLOCK_Y.
// Launch: block (BLOCK_X, BLOCK_Y), grid (ceil(OW/BLOCK_X), ceil(OH/BLOCK_Y), B).
#include "ct_dtype.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK_X * BLOCK_Y)
conv2d_naive(const ct_elem *__restrict__ in, const ct_elem *__restrict__ filter,
             ct_elem *__restrict__ out)
{
    const int x = blockIdx.x * BLOCK_X + threadIdx.x;
    const int y = blockIdx.y * BLOCK_Y + threadIdx.y;
    const int b = blockIdx.z;
    if (x >= CONV_OW || y >= CONV_OH)
        return;
    const ct_elem *img = in + (long long)b * CONV_H * CONV_W;
    float acc = 0.0f;
    for (int i = 0; i < CONV_KH; ++i) {
        const int yy = y + i - CONV_PH;
        if (yy < 0 || yy >= CONV_H)
            continue;
        for (int j = 0; j < CONV_KW; ++j) {
            const int xx = x + j - CONV_PW;
            if (xx >= 0 && xx < CONV_W)
                acc += ct_ld(&img[yy * CONV_W + xx]) * ct_ld(&filter[i * CONV_KW + j]);
        }
    }
    ct_st(&out[((long long)b * CONV_OH + y) * CONV_OW + x], acc);
}
