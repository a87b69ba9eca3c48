// conv1dc_dw: a depthwise Conv1d layer (groups = Cin = Cout) as a stream.
//
//   out[b][c][t] = bias[c] + sum_{k<K} in[b][c][t*S + k*D - CONV_PAD] * w[c][k]
//
// Each output reads K inputs and each input feeds at most K outputs, so at
// small K (the causal K = 2..4 of Mamba-style blocks) the kernel moves 8
// bytes per output and does 2K flops: it is bound by memory, and its job is
// to read every input once from DRAM and to keep enough loads in flight.
// The rows (b, c) are independent. A block owns CHANNELS_PER_BLOCK rows and
// one tile of each; a thread owns OUT_PER_THREAD consecutive outputs of one
// row, holds its channel's K taps in registers (loaded once), loads the
// window of inputs those outputs need into registers once (VEC-wide aligned
// loads at stride 1, single loads of the positions some tap reads
// otherwise) and slides the taps over it. Neighbouring threads' windows
// overlap by (K-1)*D inputs, which L1 serves. Consecutive blocks walk along
// one row, so the halo between tiles hits in L2.
//
// Problem macros: CONV_B, CONV_CIN, CONV_L, CONV_COUT, CONV_K, CONV_PAD,
// CONV_LOUT, CONV_BIAS, and where not 1 CONV_STRIDE, CONV_DIL, CONV_GROUPS.
// Tuning macros:
//   BLOCK_SIZE          threads per block
//   CHANNELS_PER_BLOCK  rows per block (BLOCK_SIZE / CHANNELS_PER_BLOCK threads each)
//   OUT_PER_THREAD      consecutive outputs per thread
//   VEC                 floats per load and store (1, 2, 4; > 1 needs stride 1,
//                       and L, LOUT and OUT_PER_THREAD multiples of VEC)
// conv1dc_layer.cuh: the layer fields convtune defines only where they are
// not 1 (CONV_STRIDE, CONV_DIL, CONV_GROUPS), so that templates that read
// them see 1 otherwise. CONV_PAD is the zeros before the input (causal:
// (K-1) x CONV_DIL).
#ifndef CONV_STRIDE
#define CONV_STRIDE 1
#endif
#ifndef CONV_DIL
#define CONV_DIL 1
#endif
#ifndef CONV_GROUPS
#define CONV_GROUPS 1
#endif
#define CONV_CING (CONV_CIN / CONV_GROUPS)     // input channels of a group
#define CONV_COUTG (CONV_COUT / CONV_GROUPS)   // output channels of a group

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
conv1dc_dw(const float *__restrict__ in, const float *__restrict__ weight,
#if CONV_BIAS
           const float *__restrict__ bias,
#endif
           float *__restrict__ out)
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
        w[k] = __ldg(weight + c * CONV_K + k);

    const float *src = in + (long long)row * CONV_L;
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
#if VEC == 4
            const float4 q = __ldg(reinterpret_cast<const float4 *>(src + a));
            x[v * 4] = q.x; x[v * 4 + 1] = q.y; x[v * 4 + 2] = q.z; x[v * 4 + 3] = q.w;
#else
            const float2 q = __ldg(reinterpret_cast<const float2 *>(src + a));
            x[v * 2] = q.x; x[v * 2 + 1] = q.y;
#endif
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
            x[u] = p >= 0 && p < CONV_L ? __ldg(src + p) : 0.0f;
        } else {
            x[u] = 0.0f;
        }
    }
#endif

#if CONV_BIAS
    const float b0 = __ldg(bias + c);
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

    float *dst = out + (long long)row * CONV_LOUT + t0;
#if VEC > 1
    // LOUT is a multiple of VEC: a vector is wholly stored or wholly past the end.
#pragma unroll
    for (int v = 0; v < OPT / VEC; ++v) {
        if (t0 + v * VEC < CONV_LOUT) {
#if VEC == 4
            *reinterpret_cast<float4 *>(dst + v * 4) =
                make_float4(acc[v * 4], acc[v * 4 + 1], acc[v * 4 + 2], acc[v * 4 + 3]);
#else
            *reinterpret_cast<float2 *>(dst + v * 2) = make_float2(acc[v * 2], acc[v * 2 + 1]);
#endif
        }
    }
#else
#pragma unroll
    for (int o = 0; o < OPT; ++o)
        if (t0 + o < CONV_LOUT)
            dst[o] = acc[o];
#endif
}
