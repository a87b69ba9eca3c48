// conv1dc_ref64: the trusted reference on the GPU, in fp64, for problems too
// large for the CPU reference. Inputs are CT_DTYPE elements (ct_dtype.cuh),
// read exactly. Deliberately the simplest possible loop; the
// test suite checks the CPU reference it mirrors against a brute force.
// A training pass (CONV_PASS 1 dgrad, 2 wgrad) has its own: ct_pass_ref64.cuh.
#if defined(CONV_PASS) && CONV_PASS
#include "conv1dc_as2d.cuh"
#define PR_NAME conv1dc_ref64
#include "ct_pass_ref64.cuh"
#else
#include "conv1dc_layer.cuh"
#include "conv1dc_layout.cuh"
#include "ct_dtype.cuh"

extern "C" __global__ void conv1dc_ref64(const ct_elem *__restrict__ in,
                                         const ct_elem *__restrict__ weight,
#if CONV_BIAS
                                         const ct_elem *__restrict__ bias,
#endif
                                         double *__restrict__ out)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long long)CONV_B * CONV_COUT * CONV_LOUT)
        return;
#if CONV_CHANNELS_LAST
    const long long co = i % CONV_COUT;
    const long long t = (i / CONV_COUT) % CONV_LOUT;
#else
    const long long t = i % CONV_LOUT;
    const long long co = (i / CONV_LOUT) % CONV_COUT;
#endif
    const long long b = i / ((long long)CONV_LOUT * CONV_COUT);
    const long long c0 = co / CONV_COUTG * CONV_CING;
#if CONV_BIAS
    double acc = (double)ct_ld(&bias[co]);
#else
    double acc = 0.0;
#endif
    for (long long c = 0; c < CONV_CING; ++c)
        for (long long k = 0; k < CONV_K; ++k) {
            const long long x = t * CONV_STRIDE + k * CONV_DIL - CONV_PAD;
            if (x >= 0 && x < CONV_L)
                acc += (double)ct_ld(&in[CONV_IN_AT(b, c0 + c, x)]) *
                       (double)ct_ld(&weight[(co * CONV_CING + c) * CONV_K + k]);
        }
    out[i] = acc;
}
#endif
