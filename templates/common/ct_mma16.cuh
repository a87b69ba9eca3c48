// ct_mma16.cuh: the half-precision tensor-core pieces shared by the tc16
// templates (ct_conv_tc16.cuh, ct_conv_tc16w.cuh): elements (ct_elem) are
// moved as their 16-bit patterns, multiplied by mma.sync m16n8k16 with fp32
// accumulators (.bf16 for CT_DTYPE 1, .f16 for CT_DTYPE 2), and converted
// only at the ends (ct_dtype.cuh): the bias to fp32, each output rounded
// once to the type. Needs sm_80 or later.
#ifndef CT_MMA16_CUH
#define CT_MMA16_CUH
#include "ct_dtype.cuh"

#if CT_DTYPE == 1
#define TC16_MMA "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
#elif CT_DTYPE == 2
#define TC16_MMA "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
#else
#error "the tc16 templates are for CT_DTYPE 1 (bf16) or 2 (f16)"
#endif

typedef unsigned short tc16_bits;

// d += a * b for one 16x8x16 tile (fragments in the PTX ISA's layout: a
// holds rows g and g+8 at K 2t..2t+1 and 2t+8..2t+9, b K 2t..2t+1 and
// 2t+8..2t+9 of column g, two elements a register, lower K in the low half).
__device__ __forceinline__ void tc16_mma(float *d, const unsigned *a, const unsigned *b)
{
    asm volatile(TC16_MMA "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Four (x4) or two (x2) 8x8 matrices of 16-bit values: lane l gives the
// address of row l % 8 of matrix l / 8 (16 bytes, 16-byte aligned); lane
// 4g + t receives elements 2t and 2t+1 of row g of each matrix.
__device__ __forceinline__ void tc16_ldsm4(unsigned *r, const tc16_bits *p)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s));
}

__device__ __forceinline__ void tc16_ldsm2(unsigned *r, const tc16_bits *p)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n" : "=r"(r[0]), "=r"(r[1]) : "r"(s));
}

// A 16-bit element of global memory, read through the read-only path; 0
// where ok is false (padding, channels past the layer), so that no NaN
// pattern from outside the tensor reaches the products.
__device__ __forceinline__ unsigned tc16_ld(const tc16_bits *p, bool ok)
{
    return ok ? (unsigned)__ldg(p) : 0u;
}

// V elements from s to d, zeros where ok is false (cp.async src-size 0
// reads nothing); one element goes through a register.
template <int V> __device__ __forceinline__ void tc16_cp(tc16_bits *d, const tc16_bits *s, bool ok)
{
    if (V == 1) {
        *d = ok ? __ldg(s) : (tc16_bits)0;
        return;
    }
    const unsigned a = (unsigned)__cvta_generic_to_shared(d);
    if (V == 8)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(a), "l"(s), "r"(ok ? 16 : 0));
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(a), "l"(s), "n"(2 * V),
                     "r"(ok ? 2 * V : 0));
}

__device__ __forceinline__ void tc16_cp_commit()
{
    asm volatile("cp.async.commit_group;\n" ::);
}

template <int N> __device__ __forceinline__ void tc16_cp_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}
#endif
