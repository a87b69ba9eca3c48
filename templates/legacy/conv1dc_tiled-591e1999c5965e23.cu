// conv1dc_tiled: a Conv1d layer as a weight stream.
//
//   out[b][co][t] = bias[co] + sum_{ci, k} in[b][ci][t + k - CONV_PAD] * w[co][ci][k]
//
// For the U-Net layers of seed 002 (1024 x 1024 channels, length 4) each
// weight is used only B * LOUT times and the input is tiny, so the kernel is
// bound by reading the weights once. A group of BLOCK_SIZE / COUT_PER_BLOCK
// threads owns one output channel and walks its weight row (Cin * K
// contiguous floats) in steps of CHANNELS_PER_THREAD channels per thread:
// each step is CHANNELS_PER_THREAD * K contiguous floats, read with VEC-wide
// loads, and the matching input rows come straight from global memory, where
// the whole input stays in L1/L2. UNROLL steps are loaded before any of them
// is used, so that enough 16-byte loads are in flight to cover the latency of
// HBM. Each thread keeps partial sums for BATCH_PER_BLOCK x OUT_TILE outputs
// of its channel, reduced across the group at the end.
//
// When one tile covers all outputs, every input position a tap reads is known
// at compile time: taps on padding vanish from the code, rows are read with
// vector loads, and there are no bounds checks. Otherwise each thread reads
// an OUT_TILE + K - 1 window with checks (correct for any L, slower).
//
// Problem macros: CONV_B, CONV_CIN, CONV_L, CONV_COUT, CONV_K, CONV_PAD,
// CONV_LOUT, CONV_BIAS.
// Tuning macros:
//   BLOCK_SIZE           threads per block
//   COUT_PER_BLOCK       output channels per block (groups of BLOCK_SIZE / COUT_PER_BLOCK threads)
//   CHANNELS_PER_THREAD  consecutive input channels per thread per step
//   VEC                  floats per weight load (1, 2, 4)
//   UNROLL               steps loaded before their FMAs
//   OUT_TILE             output positions per block
//   BATCH_PER_BLOCK      batch items sharing each loaded weight
//   REDUCTION            0 warp shuffles + shared memory, 1 shared-memory tree,
//                        2 warp shuffles + shared-memory atomics

#define GROUP (BLOCK_SIZE / COUT_PER_BLOCK)
#define CPT CHANNELS_PER_THREAD
#define TILE OUT_TILE
#define BPB BATCH_PER_BLOCK
#define WSTEP (CPT * CONV_K)                        // weights per step
#define NT ((CONV_LOUT + TILE - 1) / TILE)          // output tiles
#define NBT ((CONV_B + BPB - 1) / BPB)              // batch tiles
#define NCB (CONV_CIN / CPT)                        // whole steps per weight row
#define NACC (BPB * TILE)
#define XFULL (NT == 1)
#if XFULL
#define XN CONV_L                                   // the row's real inputs
#define XV (CONV_L % 4 == 0 ? 4 : CONV_L % 2 == 0 ? 2 : 1)
#else
#define XN (TILE + CONV_K - 1)                      // the tile's window, padding included
#endif
#define LANES (GROUP < 32 ? GROUP : 32)
#define BATCH_EXACT (CONV_B % BPB == 0)

static_assert((GROUP & (GROUP - 1)) == 0 && GROUP * COUT_PER_BLOCK == BLOCK_SIZE,
              "COUT_PER_BLOCK must split the block into power-of-two groups");
static_assert(WSTEP % VEC == 0 && (CONV_CIN * CONV_K) % VEC == 0, "weight loads must stay aligned");

template <int V>
__device__ __forceinline__ void ldg_vec(float *d, const float *p)
{
    if (V == 4) {
        const float4 v = __ldg(reinterpret_cast<const float4 *>(p));
        d[0] = v.x; d[1] = v.y; d[2] = v.z; d[3] = v.w;
    } else if (V == 2) {
        const float2 v = __ldg(reinterpret_cast<const float2 *>(p));
        d[0] = v.x; d[1] = v.y;
    } else {
        d[0] = __ldg(p);
    }
}

// Weights of NC channels from ci (wp points at w[co][ci][0]) and the inputs
// those channels need for the block's batch items and output tile.
template <int NC, int V>
__device__ __forceinline__ void load_step(float (&w)[WSTEP], float (&x)[BPB][CPT][XN], const float *wp,
                                          const float *__restrict__ in, int b0, int ci, int t0)
{
#pragma unroll
    for (int f = 0; f < NC * CONV_K; f += V)
        ldg_vec<V>(&w[f], wp + f);
#pragma unroll
    for (int bb = 0; bb < BPB; ++bb) {
        const bool bok = BATCH_EXACT || b0 + bb < CONV_B;
#pragma unroll
        for (int c = 0; c < NC; ++c) {
            const float *row = in + ((long long)(b0 + bb) * CONV_CIN + ci + c) * CONV_L;
#if XFULL
            (void)t0;
#pragma unroll
            for (int j = 0; j < XN; j += XV) {
                if (bok) {
                    ldg_vec<XV>(&x[bb][c][j], row + j);
                } else {
#pragma unroll
                    for (int v = 0; v < XV; ++v)
                        x[bb][c][j + v] = 0.0f;
                }
            }
#else
#pragma unroll
            for (int u = 0; u < XN; ++u) {
                const int p = t0 + u - CONV_PAD;
                x[bb][c][u] = (bok && p >= 0 && p < CONV_L) ? __ldg(row + p) : 0.0f;
            }
#endif
        }
    }
}

template <int NC>
__device__ __forceinline__ void compute_step(float (&acc)[BPB][TILE], const float (&w)[WSTEP],
                                             const float (&x)[BPB][CPT][XN])
{
#pragma unroll
    for (int c = 0; c < NC; ++c)
#pragma unroll
        for (int k = 0; k < CONV_K; ++k)
#pragma unroll
            for (int bb = 0; bb < BPB; ++bb)
#pragma unroll
                for (int t = 0; t < TILE; ++t) {
#if XFULL
                    // Known at compile time: taps on padding generate no code.
                    const int pos = t + k - CONV_PAD;
                    if (pos < 0 || pos >= CONV_L)
                        continue;
                    acc[bb][t] = fmaf(w[c * CONV_K + k], x[bb][c][pos], acc[bb][t]);
#else
                    acc[bb][t] = fmaf(w[c * CONV_K + k], x[bb][c][t + k], acc[bb][t]);
#endif
                }
}

// Accumulator n (batch item n / TILE, position n % TILE) of channel co.
__device__ __forceinline__ void store(float *__restrict__ out, const float *__restrict__ bias, int co,
                                      int b0, int t0, int n, float v)
{
    const int b = b0 + n / TILE, t = t0 + n % TILE;
    if (b < CONV_B && t < CONV_LOUT) {
#if CONV_BIAS
        v += __ldg(bias + co);
#else
        (void)bias;
#endif
        out[((long long)b * CONV_COUT + co) * CONV_LOUT + t] = v;
    }
}

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
conv1dc_tiled(const float *__restrict__ in, const float *__restrict__ weight,
#if CONV_BIAS
              const float *__restrict__ bias,
#endif
              float *__restrict__ out)
{
#if !CONV_BIAS
    const float *bias = nullptr;
#endif
    const int tid = threadIdx.x;
    const int grp = tid / GROUP, gt = tid % GROUP, lane = tid % 32;
    // Tiles of one output channel are adjacent, so they share its weights in L2.
    int bid = blockIdx.x;
    const int t0 = (bid % NT) * TILE;
    bid /= NT;
    const int b0 = (bid % NBT) * BPB;
    const int co = (bid / NBT) * COUT_PER_BLOCK + grp;
    const bool active = co < CONV_COUT;

#if REDUCTION == 2
    __shared__ float s_sum[COUT_PER_BLOCK][NACC];
    for (int i = tid; i < COUT_PER_BLOCK * NACC; i += BLOCK_SIZE)
        (&s_sum[0][0])[i] = 0.0f;
    __syncthreads();
#endif

    float acc[BPB][TILE];
#pragma unroll
    for (int bb = 0; bb < BPB; ++bb)
#pragma unroll
        for (int t = 0; t < TILE; ++t)
            acc[bb][t] = 0.0f;

    if (active) {
        const float *wrow = weight + (long long)co * (CONV_CIN * CONV_K);
#pragma unroll 1
        for (int s0 = gt; s0 < NCB; s0 += GROUP * UNROLL) {
            float w[UNROLL][WSTEP];
            float x[UNROLL][BPB][CPT][XN];
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                const int s = s0 + u * GROUP;
                if (u == 0 || s < NCB)
                    load_step<CPT, VEC>(w[u], x[u], wrow + s * WSTEP, in, b0, s * CPT, t0);
            }
#pragma unroll
            for (int u = 0; u < UNROLL; ++u)
                if (u == 0 || s0 + u * GROUP < NCB)
                    compute_step<CPT>(acc, w[u], x[u]);
        }
#if CONV_CIN % CPT != 0
        // The last Cin % CPT channels, one per thread.
        for (int ci = NCB * CPT + gt; ci < CONV_CIN; ci += GROUP) {
            float w[WSTEP];
            float x[BPB][CPT][XN];
            load_step<1, 1>(w, x, wrow + ci * CONV_K, in, b0, ci, t0);
            compute_step<1>(acc, w, x);
        }
#endif
    }

#if REDUCTION == 1
    __shared__ float s_red[NACC][BLOCK_SIZE];
#pragma unroll
    for (int n = 0; n < NACC; ++n)
        s_red[n][tid] = acc[n / TILE][n % TILE];
    __syncthreads();
#pragma unroll 1
    for (int s = GROUP / 2; s > 0; s >>= 1) {
        if (gt < s) {
#pragma unroll
            for (int n = 0; n < NACC; ++n)
                s_red[n][tid] += s_red[n][tid + s];
        }
        __syncthreads();
    }
    if (active)
        for (int n = gt; n < NACC; n += GROUP)
            store(out, bias, co, b0, t0, n, s_red[n][grp * GROUP]);
#else
    // Butterfly within the group's lanes: every lane ends with the sums.
#pragma unroll
    for (int n = 0; n < NACC; ++n)
#pragma unroll
        for (int off = LANES / 2; off > 0; off >>= 1)
            acc[n / TILE][n % TILE] += __shfl_xor_sync(0xffffffffu, acc[n / TILE][n % TILE], off);
#if REDUCTION == 2
    if (lane % LANES == 0) {
#pragma unroll
        for (int n = 0; n < NACC; ++n)
            atomicAdd(&s_sum[grp][n], acc[n / TILE][n % TILE]);
    }
    __syncthreads();
    if (active)
        for (int n = gt; n < NACC; n += GROUP)
            store(out, bias, co, b0, t0, n, s_sum[grp][n]);
#elif GROUP <= 32
    (void)lane;
    if (active) {
#pragma unroll
        for (int n = 0; n < NACC; ++n)
            if (n % GROUP == gt)
                store(out, bias, co, b0, t0, n, acc[n / TILE][n % TILE]);
    }
#else
    __shared__ float s_red[BLOCK_SIZE / 32][NACC];
    if (lane == 0) {
#pragma unroll
        for (int n = 0; n < NACC; ++n)
            s_red[tid / 32][n] = acc[n / TILE][n % TILE];
    }
    __syncthreads();
    if (active)
        for (int n = gt; n < NACC; n += GROUP) {
            float v = 0.0f;
#pragma unroll
            for (int wi = 0; wi < GROUP / 32; ++wi)
                v += s_red[grp * (GROUP / 32) + wi][n];
            store(out, bias, co, b0, t0, n, v);
        }
#endif
#endif
}
