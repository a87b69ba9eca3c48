// conv2d_ref64: the trusted reference on the GPU, in fp64, for problems too
// large for the CPU reference. Inputs are CT_DTYPE elements (ct_dtype.cuh),
// read exactly. Deliberately the simplest possible loop, one
// thread per output in a 1-D launch; the test suite checks the CPU reference
// against a brute-force one on small problems.
#include "ct_dtype.cuh"

extern "C" __global__ void conv2d_ref64(const ct_elem *__restrict__ in,
                                        const ct_elem *__restrict__ filter,
                                        double *__restrict__ out)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long long)CONV_B * CONV_OH * CONV_OW)
        return;
    const long long x = i % CONV_OW;
    const long long y = (i / CONV_OW) % CONV_OH;
    const long long b = i / ((long long)CONV_OW * CONV_OH);
    double acc = 0.0;
    for (long long r = 0; r < CONV_KH; ++r) {
        const long long yy = y + r - CONV_PH;
        if (yy < 0 || yy >= CONV_H)
            continue;
        for (long long c = 0; c < CONV_KW; ++c) {
            const long long xx = x + c - CONV_PW;
            if (xx >= 0 && xx < CONV_W)
                acc += (double)ct_ld(&in[(b * CONV_H + yy) * CONV_W + xx]) * (double)ct_ld(&filter[r * CONV_KW + c]);
        }
    }
    out[i] = acc;
}
