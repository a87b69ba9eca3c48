// conv1d_ref64: the trusted reference on the GPU, in fp64, for problems too
// large for the CPU reference. Inputs are CT_DTYPE elements (ct_dtype.cuh),
// read exactly. Deliberately the simplest possible loop; the
// test suite checks it against the CPU reference on small problems.
#include "ct_dtype.cuh"

extern "C" __global__ void conv1d_ref64(const ct_elem *__restrict__ in,
                                        const ct_elem *__restrict__ mask,
                                        double *__restrict__ out)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= CONV_OUT)
        return;
    double acc = 0.0;
    for (long long j = 0; j < CONV_K; ++j) {
        const long long x = i + j - CONV_OFF;
        if (x >= 0 && x < CONV_N)
            acc += (double)ct_ld(&in[x]) * (double)ct_ld(&mask[j]);
    }
    out[i] = acc;
}
