// conv1dc_dwh: conv1dc_dw for bf16 and f16 layers (CT_DTYPE 1 or 2).
//
// The same rows, tiles and register windows as conv1dc_dw (see there): a
// VEC-wide load brings VEC elements (8, 4 or 2 bytes) widened to float
// (ct_half_io.cuh), the taps, window and sums are fp32, and each output
// (vector) is rounded once when stored.
//
// Problem macros: those of conv1dc_dw and CT_DTYPE. Tuning macros:
// BLOCK_SIZE, CHANNELS_PER_BLOCK, OUT_PER_THREAD, VEC
// (tuner/families/tc/dw_conv.c).
#include "ct_half_io.cuh"
#include "conv1dc_layer.cuh"

#define TPR (BLOCK_SIZE / CHANNELS_PER_BLOCK)          // threads per row
#define OPT OUT_PER_THREAD
#define ROWS (CONV_B * CONV_CIN)
#define TILE (TPR * OPT)                              // outputs of a row per block
#define NTILES ((CONV_LOUT + TILE - 1) / TILE)
#define NW ((OPT - 1) * CONV_STRIDE + (CONV_K - 1) * CONV_DIL + 1)   // the window's span
// Aligned loads: t0 is a multiple of VEC, so the window's first input
// t0 - CONV_PAD sits LEAD floats past an aligned address for every thread.
#define LEAD ((VEC - CONV_PAD % VEC) % VEC)
#define NV ((LEAD + NW + VEC - 1) / VEC)              // vectors per window

static_assert(CONV_GROUPS == CONV_CIN && CONV_COUT == CONV_CIN, "depthwise layers only");
static_assert(BLOCK_SIZE % CHANNELS_PER_BLOCK == 0, "CHANNELS_PER_BLOCK must divide BLOCK_SIZE");
static_assert(VEC == 1 || (CONV_STRIDE == 1 && CONV_L % VEC == 0 && CONV_LOUT % VEC == 0 && OPT % VEC == 0),
              "vector loads need stride 1 and aligned rows and windows");

// Whether some output o < OPT reads window position u through some tap:
// the positions no tap reads (stride or dilation > 1) are not loaded.
__device__ __forceinline__ constexpr bool dw_used(int u)
{
    for (int o = 0; o < OPT; ++o) {
        const int r = u - o * CONV_STRIDE;
        if (r >= 0 && r % CONV_DIL == 0 && r / CONV_DIL < CONV_K)
            return true;
    }
    return false;
}

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
conv1dc_dwh(const ct_elem *__restrict__ in, const ct_elem *__restrict__ weight,
#if CONV_BIAS
            const ct_elem *__restrict__ bias,
#endif
            ct_elem *__restrict__ out)
{
    const int tile = blockIdx.x % NTILES;
    const int row = (blockIdx.x / NTILES) * CHANNELS_PER_BLOCK + threadIdx.x / TPR;
    const int t0 = tile * TILE + (threadIdx.x % TPR) * OPT;
    if (row >= ROWS || t0 >= CONV_LOUT)
        return;
    const int c = row % CONV_CIN;

    float w[CONV_K];
#pragma unroll
    for (int k = 0; k < CONV_K; ++k)
        w[k] = ct_ldg(weight + c * CONV_K + k);

    const ct_elem *src = in + (long long)row * CONV_L;
    const int x0 = t0 * CONV_STRIDE - CONV_PAD;       // input of window position 0
#if VEC > 1
    // x[LEAD + u] is input x0 + u. L is a multiple of VEC, so each aligned
    // vector lies wholly inside the row or wholly on padding.
    float x[NV * VEC];
    const int a0 = x0 - LEAD;
#pragma unroll
    for (int v = 0; v < NV; ++v) {
        const int a = a0 + v * VEC;
        if (a >= 0 && a < CONV_L) {
            ct_ldg_elems<VEC>(&x[v * VEC], src + a);
        } else {
#pragma unroll
            for (int e = 0; e < VEC; ++e)
                x[v * VEC + e] = 0.0f;
        }
    }
#else
    float x[NW];
#pragma unroll
    for (int u = 0; u < NW; ++u) {
        if (dw_used(u)) {
            const int p = x0 + u;
            x[u] = p >= 0 && p < CONV_L ? ct_ldg(src + p) : 0.0f;
        } else {
            x[u] = 0.0f;
        }
    }
#endif

#if CONV_BIAS
    const float b0 = ct_ldg(bias + c);
#else
    const float b0 = 0.0f;
#endif
    float acc[OPT];
#pragma unroll
    for (int o = 0; o < OPT; ++o) {
        acc[o] = b0;
#pragma unroll
        for (int k = 0; k < CONV_K; ++k)
            acc[o] = fmaf(w[k], x[LEAD + o * CONV_STRIDE + k * CONV_DIL], acc[o]);
    }

    ct_elem *dst = out + (long long)row * CONV_LOUT + t0;
#if VEC > 1
    // LOUT is a multiple of VEC: a vector is wholly stored or wholly past the end.
#pragma unroll
    for (int v = 0; v < OPT / VEC; ++v) {
        if (t0 + v * VEC < CONV_LOUT)
            ct_stg_elems<VEC>(dst + v * VEC, &acc[v * VEC]);
    }
#else
#pragma unroll
    for (int o = 0; o < OPT; ++o)
        if (t0 + o < CONV_LOUT)
            ct_st(dst + o, acc[o]);
#endif
}
