// conv2dc_ref64: the trusted reference on the GPU, in fp64, for problems too
// large for the CPU reference. Inputs are CT_DTYPE elements (ct_dtype.cuh),
// read exactly. Deliberately the simplest possible loop; the
// test suite checks the CPU reference it mirrors against a brute-force one.
// A training pass (CONV_PASS 1 dgrad, 2 wgrad) has its own: ct_pass_ref64.cuh.
#if defined(CONV_PASS) && CONV_PASS
#include "conv2dc_as2d.cuh"
#define PR_NAME conv2dc_ref64
#include "ct_pass_ref64.cuh"
#else
#include "conv2dc_layer.cuh"
#include "conv2dc_layout.cuh"
#include "ct_dtype.cuh"

extern "C" __global__ void conv2dc_ref64(const ct_elem *__restrict__ in,
                                         const ct_elem *__restrict__ weight,
#if CONV_BIAS
                                         const ct_elem *__restrict__ bias,
#endif
                                         double *__restrict__ out)
{
    const long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (o >= (long long)CONV_B * CONV_COUT * CONV_OH * CONV_OW)
        return;
#if CONV_CHANNELS_LAST
    const long long co = o % CONV_COUT;
    const long long x = o / CONV_COUT % CONV_OW;
    const long long y = o / ((long long)CONV_COUT * CONV_OW) % CONV_OH;
#else
    const long long x = o % CONV_OW;
    const long long y = o / CONV_OW % CONV_OH;
    const long long co = o / ((long long)CONV_OW * CONV_OH) % CONV_COUT;
#endif
    const long long b = o / ((long long)CONV_OW * CONV_OH * CONV_COUT);
    const long long c0 = co / CONV_COUTG * CONV_CING;
#if CONV_BIAS
    double acc = (double)ct_ld(&bias[co]);
#else
    double acc = 0.0;
#endif
    for (long long c = 0; c < CONV_CING; ++c)
        for (long long i = 0; i < CONV_KH; ++i)
            for (long long j = 0; j < CONV_KW; ++j) {
                const long long yy = y * CONV_SH + i * CONV_DH - CONV_PH, xx = x * CONV_SW + j * CONV_DW - CONV_PW;
                if (yy >= 0 && yy < CONV_H && xx >= 0 && xx < CONV_W)
                    acc += (double)ct_ld(&in[CONV_IN_AT(b, c0 + c, yy, xx)]) *
                           (double)ct_ld(&weight[((co * CONV_CING + c) * CONV_KH + i) * CONV_KW + j]);
            }
    out[o] = acc;
}
#endif
