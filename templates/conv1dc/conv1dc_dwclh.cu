// conv1dc_dwclh: conv1dc_dwcl for bf16 and f16 layers (CT_DTYPE 1 or 2).
//
// The same stream over channels-last rows and parameters as conv1dc_dwcl
// (see there): a thread's VEC channels arrive in one 8-, 4- or 2-byte load
// and are widened to float (ct_half_io.cuh), the window, weights, bias and
// sums are fp32, and each output vector is rounded once when stored.
//
// Problem macros: those of conv1dc_dwcl and CT_DTYPE. Tuning macros: VEC,
// CHANNEL_THREADS, POS_THREADS, POS_PER_THREAD, CHUNK.
#include "ct_half_io.cuh"
#include "conv1dc_layer.cuh"
#include "conv1dc_layout.cuh"

#define NCV (CONV_CIN / VEC)                                     // channel vectors of a row
#define NCB ((NCV + CHANNEL_THREADS - 1) / CHANNEL_THREADS)      // blocks across the channels
#define RUN (POS_THREADS * POS_PER_THREAD)                       // positions per block
#define NPB ((CONV_LOUT + RUN - 1) / RUN)                        // blocks along the positions
#define NWC ((CHUNK - 1) * CONV_STRIDE + (CONV_K - 1) * CONV_DIL + 1)   // rows of a step's window
#define STEP (CHUNK * CONV_STRIDE)                               // rows between two steps' windows
#define KEEP (NWC > STEP ? NWC - STEP : 0)                       // rows a step hands to the next

static_assert(CONV_CHANNELS_LAST, "channels-last (nlc) layers only");
static_assert(CONV_GROUPS == CONV_CIN && CONV_COUT == CONV_CIN, "depthwise layers only");
static_assert(VEC == 1 || VEC == 2 || VEC == 4, "VEC is 1, 2 or 4");
static_assert(CONV_CIN % VEC == 0, "VEC must divide the channels (aligned vectors)");
static_assert(POS_PER_THREAD % CHUNK == 0, "CHUNK must divide POS_PER_THREAD");

// Whether window row u of a step is read by a tap of this step or, carried,
// of a later one: rows no tap reads (stride or dilation > 1) are not loaded.
__device__ __forceinline__ constexpr bool dwcl_used(int u)
{
    for (int r = u; r >= 0; r -= STEP)
        for (int o = 0; o < CHUNK; ++o) {
            const int d = r - o * CONV_STRIDE;
            if (d >= 0 && d % CONV_DIL == 0 && d / CONV_DIL < CONV_K)
                return true;
        }
    return false;
}

// The VEC channels of input row x (zeros outside [0, L)).
__device__ __forceinline__ void dwcl_load(float (&v)[VEC], const ct_elem *__restrict__ src, int x)
{
    if (x < 0 || x >= CONV_L) {
#pragma unroll
        for (int e = 0; e < VEC; ++e)
            v[e] = 0.0f;
        return;
    }
    ct_ldg_elems<VEC>(v, src + x * CONV_CIN);
}

extern "C" __global__ void __launch_bounds__(CHANNEL_THREADS * POS_THREADS)
conv1dc_dwclh(const ct_elem *__restrict__ in, const ct_elem *__restrict__ weight,
#if CONV_BIAS
              const ct_elem *__restrict__ bias,
#endif
              ct_elem *__restrict__ out)
{
    const int cb = blockIdx.x % NCB;
    const int pb = (blockIdx.x / NCB) % NPB;
    const int b = blockIdx.x / (NCB * NPB);
    const int cv = cb * CHANNEL_THREADS + threadIdx.x;
    const int t0 = pb * RUN + threadIdx.y * POS_PER_THREAD;
    if (cv >= NCV || t0 >= CONV_LOUT)
        return;
    const int c0 = cv * VEC;

    float w[CONV_K][VEC];
#pragma unroll
    for (int e = 0; e < VEC; ++e)
#pragma unroll
        for (int k = 0; k < CONV_K; ++k)
            w[k][e] = ct_ldg(weight + (c0 + e) * CONV_K + k);
    float b0[VEC];
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
#if CONV_BIAS
        b0[e] = ct_ldg(bias + c0 + e);
#else
        b0[e] = 0.0f;
#endif
    }

    // Every buffer holds fewer than 2^31 elements (the family's parser checks).
    const ct_elem *src = in + b * CONV_L * CONV_CIN + c0;
    ct_elem *dst = out + b * CONV_LOUT * CONV_COUT + c0;
    int x0 = t0 * CONV_STRIDE - CONV_PAD;   // input row of window row 0
    float x[NWC][VEC];
#pragma unroll
    for (int u = 0; u < NWC; ++u)
#pragma unroll
        for (int e = 0; e < VEC; ++e)
            x[u][e] = 0.0f;
#pragma unroll
    for (int u = 0; u < KEEP; ++u)
        if (dwcl_used(u))
            dwcl_load(x[u], src, x0 + u);

    for (int t = t0; t < t0 + POS_PER_THREAD && t < CONV_LOUT; t += CHUNK) {
#pragma unroll
        for (int u = KEEP; u < NWC; ++u)
            if (dwcl_used(u))
                dwcl_load(x[u], src, x0 + u);
#pragma unroll
        for (int o = 0; o < CHUNK; ++o) {
            float acc[VEC];
#pragma unroll
            for (int e = 0; e < VEC; ++e) {
                acc[e] = b0[e];
#pragma unroll
                for (int k = 0; k < CONV_K; ++k)
                    acc[e] = fmaf(w[k][e], x[o * CONV_STRIDE + k * CONV_DIL][e], acc[e]);
            }
            if (t + o < CONV_LOUT) {
                ct_stg_elems<VEC>(dst + (t + o) * CONV_COUT, acc);
            }
        }
#pragma unroll
        for (int u = 0; u < KEEP; ++u)
#pragma unroll
            for (int e = 0; e < VEC; ++e)
                x[u][e] = x[u + STEP][e];
        x0 += STEP;
    }
}
