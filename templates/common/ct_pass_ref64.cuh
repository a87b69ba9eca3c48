// ct_pass_ref64.cuh: the trusted fp64 GPU reference of the training passes
// (dgrad, wgrad) of a layer, read through the LY_* names of
// FAMILY_as2d.cuh; FAMILY_ref64.cu includes it for problems with CONV_PASS.
// One thread per output element, the simplest loops, every product and sum
// in fp64; the suite checks the CPU reference it mirrors against brute force.
#include "ct_dtype.cuh"

#if LY_PASS == 1
extern "C" __global__ void PR_NAME(const ct_elem *__restrict__ dout, const ct_elem *__restrict__ weight,
                                   double *__restrict__ din)
{
    const long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (o >= (long long)LY_B * LY_CIN * LY_H * LY_W)
        return;
#if LY_CL
    const long long c = o % LY_CIN, xx = o / LY_CIN % LY_W, yy = o / ((long long)LY_CIN * LY_W) % LY_H;
#else
    const long long xx = o % LY_W, yy = o / LY_W % LY_H, c = o / ((long long)LY_W * LY_H) % LY_CIN;
#endif
    const long long b = o / ((long long)LY_W * LY_H * LY_CIN), g = c / LY_CING, cl = c % LY_CING;
    double acc = 0.0;
    for (long long co = g * LY_COUTG; co < (g + 1) * LY_COUTG; ++co)
        for (long long i = 0; i < LY_KH; ++i)
            for (long long j = 0; j < LY_KW; ++j) {
                const long long ny = yy + LY_PH - i * LY_DY, nx = xx + LY_PW - j * LY_DX;
                if (ny >= 0 && nx >= 0 && ny % LY_SY == 0 && nx % LY_SX == 0 && ny / LY_SY < LY_OH &&
                    nx / LY_SX < LY_OW)
                    acc += (double)ct_ld(&dout[LY_Y_AT(b, co, ny / LY_SY, nx / LY_SX)]) *
                           (double)ct_ld(&weight[((co * LY_CING + cl) * LY_KH + i) * LY_KW + j]);
            }
    din[o] = acc;
}
#else
extern "C" __global__ void PR_NAME(const ct_elem *__restrict__ in, const ct_elem *__restrict__ dout,
                                   double *__restrict__ dweight)
{
    const long long nw = (long long)LY_COUT * LY_CING * LY_KH * LY_KW;
    const long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (o >= nw + (LY_BIAS ? LY_COUT : 0))
        return;
    double acc = 0.0;
    if (o >= nw) {
        for (long long b = 0; b < LY_B; ++b)
            for (long long y = 0; y < LY_OH; ++y)
                for (long long x = 0; x < LY_OW; ++x)
                    acc += (double)ct_ld(&dout[LY_Y_AT(b, o - nw, y, x)]);
        dweight[o] = acc;
        return;
    }
    const long long j = o % LY_KW, i = o / LY_KW % LY_KH, cl = o / ((long long)LY_KW * LY_KH) % LY_CING;
    const long long co = o / ((long long)LY_KW * LY_KH * LY_CING), c = co / LY_COUTG * LY_CING + cl;
    for (long long b = 0; b < LY_B; ++b)
        for (long long y = 0; y < LY_OH; ++y)
            for (long long x = 0; x < LY_OW; ++x) {
                const long long yy = y * LY_SY + i * LY_DY - LY_PH, xx = x * LY_SX + j * LY_DX - LY_PW;
                if (yy >= 0 && yy < LY_H && xx >= 0 && xx < LY_W)
                    acc += (double)ct_ld(&dout[LY_Y_AT(b, co, y, x)]) * (double)ct_ld(&in[LY_X_AT(b, c, yy, xx)]);
            }
    dweight[o] = acc;
}
#endif
