// conv2dc_ref64: the trusted reference on the GPU, in fp64, for problems too
// large for the CPU reference. Deliberately the simplest possible loop; the
// test suite checks the CPU reference it mirrors against a brute-force one.

extern "C" __global__ void conv2dc_ref64(const float *__restrict__ in,
                                         const float *__restrict__ weight,
#if CONV_BIAS
                                         const float *__restrict__ bias,
#endif
                                         double *__restrict__ out)
{
    const long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (o >= (long long)CONV_B * CONV_COUT * CONV_OH * CONV_OW)
        return;
    const long long x = o % CONV_OW;
    const long long y = o / CONV_OW % CONV_OH;
    const long long co = o / ((long long)CONV_OW * CONV_OH) % CONV_COUT;
    const long long b = o / ((long long)CONV_OW * CONV_OH * CONV_COUT);
#if CONV_BIAS
    double acc = (double)bias[co];
#else
    double acc = 0.0;
#endif
    for (long long ci = 0; ci < CONV_CIN; ++ci)
        for (long long i = 0; i < CONV_KH; ++i)
            for (long long j = 0; j < CONV_KW; ++j) {
                const long long yy = y + i - CONV_PH, xx = x + j - CONV_PW;
                if (yy >= 0 && yy < CONV_H && xx >= 0 && xx < CONV_W)
                    acc += (double)in[((b * CONV_CIN + ci) * CONV_H + yy) * CONV_W + xx] *
                           (double)weight[((co * CONV_CIN + ci) * CONV_KH + i) * CONV_KW + j];
            }
    out[o] = acc;
}
