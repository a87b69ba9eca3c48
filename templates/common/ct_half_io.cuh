// ct_half_io.cuh - vector moves of bf16/f16 elements widened to float, for
// the half-type branches (#if CT_DTYPE) of the direct templates folded into
// one source (conv1d_tiled.cu for conv1d_tiledh, conv2d_tiled.cu, ...).
//
// These branches keep the register windows and shared-memory tiles of the
// fp32 code in float: elements are widened once, when they leave global
// memory, so the multiply-add loops are the fp32 ones; each output is
// rounded once, when it is stored. The fp32 branches do not include it.
#include "ct_dtype.cuh"

#ifndef CT_HALF_IO_CUH
#define CT_HALF_IO_CUH

#if CT_DTYPE == CT_DTYPE_F32
#error "ct_half_io.cuh serves bf16 and f16 problems; fp32 has its own templates"
#endif

// NV floats from shared memory (NV * 4-byte aligned).
template <int NV>
__device__ __forceinline__ void ct_lds(float *d, const float *p)
{
    if (NV == 4) {
        const float4 v = *reinterpret_cast<const float4 *>(p);
        d[0] = v.x; d[1] = v.y; d[2] = v.z; d[3] = v.w;
    } else if (NV == 2) {
        const float2 v = *reinterpret_cast<const float2 *>(p);
        d[0] = v.x; d[1] = v.y;
    } else {
#pragma unroll
        for (int i = 0; i < NV; ++i)
            d[i] = p[i];
    }
}

// NV elements through the read-only cache in one load (NV * 2-byte aligned),
// widened to float.
template <int NV>
__device__ __forceinline__ void ct_ldg_elems(float *d, const ct_elem *p)
{
    if (NV == 4) {
        __align__(8) ct_elem2 h[2];
        *reinterpret_cast<uint2 *>(h) = __ldg(reinterpret_cast<const uint2 *>(p));
        const float2 a = ct_ld2(&h[0]), b = ct_ld2(&h[1]);
        d[0] = a.x; d[1] = a.y; d[2] = b.x; d[3] = b.y;
    } else if (NV == 2) {
        __align__(4) ct_elem2 h;
        *reinterpret_cast<unsigned *>(&h) = __ldg(reinterpret_cast<const unsigned *>(p));
        const float2 a = ct_ld2(&h);
        d[0] = a.x; d[1] = a.y;
    } else {
#pragma unroll
        for (int i = 0; i < NV; ++i)
            d[i] = ct_ldg(p + i);
    }
}

// Elements g .. g+NV-1 of a buffer of n elements, zero outside it.
template <int NV>
__device__ __forceinline__ void ct_ldg_elems_checked(float *d, const ct_elem *p, long long g, long long n)
{
#pragma unroll
    for (int i = 0; i < NV; ++i)
        d[i] = (g + i >= 0 && g + i < n) ? ct_ldg(p + g + i) : 0.0f;
}

// NV outputs rounded to the element type, stored in one instruction
// (NV * 2-byte aligned).
template <int NV>
__device__ __forceinline__ void ct_stg_elems(ct_elem *p, const float *v)
{
    if (NV == 4) {
        __align__(8) ct_elem2 h[2];
        ct_st2(&h[0], make_float2(v[0], v[1]));
        ct_st2(&h[1], make_float2(v[2], v[3]));
        *reinterpret_cast<uint2 *>(p) = *reinterpret_cast<const uint2 *>(h);
    } else if (NV == 2) {
        ct_st2(reinterpret_cast<ct_elem2 *>(p), make_float2(v[0], v[1]));
    } else {
#pragma unroll
        for (int i = 0; i < NV; ++i)
            ct_st(p + i, v[i]);
    }
}

#endif
