// ct_pass_naive.cuh: the baselines of the training passes of a layer
// (dgnaive, wgnaive), for every layout, element type and layer form, read
// through the LY_* names of FAMILY_as2d.cuh. One thread per output element,
// everything from global memory, as the forward naive kernels.
//
// dgrad (PN_NAME(dout, weight, din)): each input pixel gathers the outputs
// whose windows hold it: y = (yy + PH - i*DY) / SY where that divides, so a
// strided layer costs no zero insertion; sums of COUTG*KH*KW products in
// fp32, as the forward pass sums CING*KH*KW.
//
// wgrad (PN_NAME(in, dout, dweight)): each weight (then each bias, with
// LY_BIAS) sums B*OH*OW products. A row of OW products is summed in fp32
// and the rows in fp64: the error of a long fp32 sum grows with its length
// (B*OH*OW is 16,384 to 100,352 on the layers this pass is for), a row's
// does not pass 1e-6 of the 1e-5 an fp32 problem is verified to.
//
// Tuning macros: BLOCK_SIZE.
#include "ct_dtype.cuh"

#if LY_PASS == 1
extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
PN_NAME(const ct_elem *__restrict__ dout, const ct_elem *__restrict__ weight, ct_elem *__restrict__ din)
{
    const long long o = (long long)blockIdx.x * BLOCK_SIZE + threadIdx.x;
    if (o >= (long long)LY_B * LY_CIN * LY_H * LY_W)
        return;
#if LY_CL
    const int c = (int)(o % LY_CIN);
    const int xx = (int)(o / LY_CIN % LY_W);
    const int yy = (int)(o / ((long long)LY_CIN * LY_W) % LY_H);
#else
    const int xx = (int)(o % LY_W);
    const int yy = (int)(o / LY_W % LY_H);
    const int c = (int)(o / ((long long)LY_W * LY_H) % LY_CIN);
#endif
    const int b = (int)(o / ((long long)LY_W * LY_H * LY_CIN));
    const int g = c / LY_CING, cl = c % LY_CING;
    float acc = 0.0f;
    for (int co = g * LY_COUTG; co < (g + 1) * LY_COUTG; ++co)
        for (int i = 0; i < LY_KH; ++i) {
            const int ny = yy + LY_PH - i * LY_DY;
            if (ny < 0 || ny % LY_SY != 0 || ny / LY_SY >= LY_OH)
                continue;
            for (int j = 0; j < LY_KW; ++j) {
                const int nx = xx + LY_PW - j * LY_DX;
                if (nx < 0 || nx % LY_SX != 0 || nx / LY_SX >= LY_OW)
                    continue;
                acc += ct_ld(&dout[LY_Y_AT(b, co, ny / LY_SY, nx / LY_SX)]) *
                       ct_ld(&weight[((co * LY_CING + cl) * LY_KH + i) * LY_KW + j]);
            }
        }
    ct_st(&din[o], acc);
}
#elif LY_PASS == 2
extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
PN_NAME(const ct_elem *__restrict__ in, const ct_elem *__restrict__ dout, ct_elem *__restrict__ dweight)
{
    const long long nw = (long long)LY_COUT * LY_CING * LY_KH * LY_KW;
    const long long o = (long long)blockIdx.x * BLOCK_SIZE + threadIdx.x;
    if (o >= nw + (LY_BIAS ? LY_COUT : 0))
        return;
    double total = 0.0;
    if (o >= nw) {   // the bias gradient: dout summed over everything but its channel
        const int co = (int)(o - nw);
        for (int b = 0; b < LY_B; ++b)
            for (int y = 0; y < LY_OH; ++y) {
                float row = 0.0f;
                for (int x = 0; x < LY_OW; ++x)
                    row += ct_ld(&dout[LY_Y_AT(b, co, y, x)]);
                total += row;
            }
        ct_st(&dweight[o], (float)total);
        return;
    }
    const int j = (int)(o % LY_KW), i = (int)(o / LY_KW % LY_KH);
    const int cl = (int)(o / ((long long)LY_KW * LY_KH) % LY_CING);
    const int co = (int)(o / ((long long)LY_KW * LY_KH * LY_CING));
    const int c = co / LY_COUTG * LY_CING + cl;
    for (int b = 0; b < LY_B; ++b)
        for (int y = 0; y < LY_OH; ++y) {
            const int yy = y * LY_SY + i * LY_DY - LY_PH;
            if (yy < 0 || yy >= LY_H)
                continue;
            float row = 0.0f;
            for (int x = 0; x < LY_OW; ++x) {
                const int xx = x * LY_SX + j * LY_DX - LY_PW;
                if (xx >= 0 && xx < LY_W)
                    row += ct_ld(&dout[LY_Y_AT(b, co, y, x)]) * ct_ld(&in[LY_X_AT(b, c, yy, xx)]);
            }
            total += row;
        }
    ct_st(&dweight[o], (float)total);
}
#endif
