// ct_vec_io.cuh: moves of VEC consecutive channels of a channels-last
// tensor (NHWC, NLC) between memory and float registers, for the kernels
// whose thread owns VEC channels (templates/kernels/dwclf, dwclbwd): one
// load or store of at most 16 bytes along C, elements widened to float when
// they leave global memory and rounded once when they are stored, so that
// every element type (ct_dtype.cuh) runs the fp32 arithmetic.
//
// VEC (1, 2, 4 or 8) is the including kernel's tuning macro; the pointers
// are VEC-element aligned (the kernel asserts that VEC divides C).
#include "ct_dtype.cuh"

#ifndef CT_VEC_IO_CUH
#define CT_VEC_IO_CUH

static_assert(VEC == 1 || VEC == 2 || VEC == 4 || VEC == 8, "VEC is 1, 2, 4 or 8");
static_assert(VEC * sizeof(ct_elem) <= 16, "a vector of channels is one load of at most 16 bytes");

// The VEC channels at p (VEC-element aligned) in one load, widened to float.
__device__ __forceinline__ void ct_vec_load(float (&v)[VEC], const ct_elem *__restrict__ p)
{
#if CT_DTYPE == CT_DTYPE_F32
#if VEC == 4
    const float4 q = __ldg(reinterpret_cast<const float4 *>(p));
    v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
#elif VEC == 2
    const float2 q = __ldg(reinterpret_cast<const float2 *>(p));
    v[0] = q.x; v[1] = q.y;
#else
    v[0] = __ldg(p);
#endif
#else
#if VEC == 8
    __align__(16) ct_elem2 h[4];
    *reinterpret_cast<uint4 *>(h) = __ldg(reinterpret_cast<const uint4 *>(p));
#elif VEC == 4
    __align__(8) ct_elem2 h[2];
    *reinterpret_cast<uint2 *>(h) = __ldg(reinterpret_cast<const uint2 *>(p));
#elif VEC == 2
    __align__(4) ct_elem2 h[1];
    *reinterpret_cast<unsigned *>(h) = __ldg(reinterpret_cast<const unsigned *>(p));
#endif
#if VEC >= 2
#pragma unroll
    for (int k = 0; k < VEC / 2; ++k) {
        const float2 f = ct_ld2(&h[k]);
        v[2 * k] = f.x;
        v[2 * k + 1] = f.y;
    }
#else
    v[0] = ct_ldg(p);
#endif
#endif
}

// ct_vec_load where ok, zeros elsewhere (padding, positions past the layer).
__device__ __forceinline__ void ct_vec_load_or_zero(float (&v)[VEC], const ct_elem *__restrict__ p, bool ok)
{
    if (ok) {
        ct_vec_load(v, p);
    } else {
#pragma unroll
        for (int e = 0; e < VEC; ++e)
            v[e] = 0.0f;
    }
}

// The store of VEC channels, rounded once to the element type.
__device__ __forceinline__ void ct_vec_store_rounded(ct_elem *p, const float (&v)[VEC])
{
#if CT_DTYPE == CT_DTYPE_F32
#if VEC == 4
    *reinterpret_cast<float4 *>(p) = make_float4(v[0], v[1], v[2], v[3]);
#elif VEC == 2
    *reinterpret_cast<float2 *>(p) = make_float2(v[0], v[1]);
#else
    *p = v[0];
#endif
#elif VEC >= 2
    __align__(16) ct_elem2 h[VEC / 2];
#pragma unroll
    for (int k = 0; k < VEC / 2; ++k)
        ct_st2(&h[k], make_float2(v[2 * k], v[2 * k + 1]));
#if VEC == 8
    *reinterpret_cast<uint4 *>(p) = *reinterpret_cast<const uint4 *>(h);
#elif VEC == 4
    *reinterpret_cast<uint2 *>(p) = *reinterpret_cast<const uint2 *>(h);
#else
    *reinterpret_cast<unsigned *>(p) = *reinterpret_cast<const unsigned *>(h);
#endif
#else
    ct_st(p, v[0]);
#endif
}

// VEC floats from shared memory (VEC-float aligned).
__device__ __forceinline__ void ct_vec_load_shared(float (&v)[VEC], const float *p)
{
#if VEC >= 4
#pragma unroll
    for (int k = 0; k < VEC / 4; ++k) {
        const float4 q = reinterpret_cast<const float4 *>(p)[k];
        v[4 * k] = q.x; v[4 * k + 1] = q.y; v[4 * k + 2] = q.z; v[4 * k + 3] = q.w;
    }
#elif VEC == 2
    const float2 q = *reinterpret_cast<const float2 *>(p);
    v[0] = q.x; v[1] = q.y;
#else
    v[0] = *p;
#endif
}

#endif
