// ct_ceilings: micro-benchmarks convtune runs once per device to know the
// ceilings it reports against (the "% of peak" columns).

// Eight independent FMA chains per thread keep every FP32 pipe busy; the
// result is stored only under a condition the host never makes true, so the
// compiler cannot drop the work.
extern "C" __global__ void ct_fma_peak(float *out, float a, float b, int iters)
{
    float x[8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
        x[i] = threadIdx.x * 1e-3f + i;
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int u = 0; u < 16; ++u) {
#pragma unroll
            for (int i = 0; i < 8; ++i)
                x[i] = fmaf(x[i], a, b);
        }
    }
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < 8; ++i)
        s += x[i];
    if (s == 1234.5678f)
        out[threadIdx.x] = s;
}

// Tensor-core rate of the half types: eight independent accumulator tiles per
// warp (mma.sync latency is hidden across them and the warps of an SM), each
// step 4096 FLOPs per warp: one m16n8k16 bf16 mma (sm_80 and later), or two
// f16 m16n8k8 on sm_75, which has no bf16 mma. Accumulation is fp32, as in
// the tuned templates. Older architectures have no mma.sync: the body is empty
// and the host does not run it. The operands come from arguments so nothing
// folds; the store is as in ct_fma_peak.
#define CT_MMA_CHAINS 8
#define CT_MMA_UNROLL 4
extern "C" __global__ void ct_mma_peak(float *out, unsigned a, unsigned b, int iters)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
    float c[CT_MMA_CHAINS][4];
#pragma unroll
    for (int i = 0; i < CT_MMA_CHAINS; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
            c[i][j] = 0.0f;
    const unsigned a0 = a ^ threadIdx.x, a1 = a + threadIdx.x, a2 = a ^ (threadIdx.x << 16), a3 = a;
    const unsigned b0 = b ^ threadIdx.x, b1 = b;
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int u = 0; u < CT_MMA_UNROLL; ++u) {
#pragma unroll
            for (int i = 0; i < CT_MMA_CHAINS; ++i) {
#if __CUDA_ARCH__ >= 800
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                             "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                             : "+f"(c[i][0]), "+f"(c[i][1]), "+f"(c[i][2]), "+f"(c[i][3])
                             : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
#else
                asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
                             "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                             : "+f"(c[i][0]), "+f"(c[i][1]), "+f"(c[i][2]), "+f"(c[i][3])
                             : "r"(a0), "r"(a1), "r"(b0));
                asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
                             "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                             : "+f"(c[i][0]), "+f"(c[i][1]), "+f"(c[i][2]), "+f"(c[i][3])
                             : "r"(a2), "r"(a3), "r"(b1));
#endif
            }
        }
    }
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < CT_MMA_CHAINS; ++i)
        s += c[i][0] + c[i][1] + c[i][2] + c[i][3];
    if (s == 1234.5678f)
        out[threadIdx.x] = s;
#endif
}

// Grid-stride 16-byte copy: bytes read plus bytes written over its time is
// the device-memory ceiling.
extern "C" __global__ void ct_copy(const float4 *__restrict__ src, float4 *__restrict__ dst,
                                   long long n4)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride)
        dst[i] = src[i];
}

extern "C" __global__ void ct_empty(void) {}
