// conv1dc_gemm: a multi-channel 1D convolution layer as an implicit GEMM, for
// the layers where arithmetic, not the weight stream, sets the time (many
// batch items or positions per weight).
//
//   out[b][co][t] = bias[co] + sum_{ci,k} w[co][ci][k] * in[b][ci][t + k - PAD]
//
// is C = A * X with A = the weights (Cout x Cin*K, row-major as PyTorch
// stores them) and X the im2col of the input, never built: a block owns
// COUT_TILE output channels x T_TILE positions of one batch item and walks
// the input channels CIN_CHUNK at a time. For each chunk it stages the
// weights transposed ([ci][k][co], so that a thread's output channels are
// one vector load) and the input rows with their halo (zeros for the
// padding) in shared memory. A thread owns COUT_PER_THREAD channels x
// T_PER_THREAD consecutive positions: per input channel it reads one window
// of T_PER_THREAD + K - 1 inputs into registers, and each of the K taps then
// costs one vector load of weights for COUT_PER_THREAD * T_PER_THREAD FMAs.
// Staging is cp.async from sm_80 (no register round trip); with PIPE the
// next chunk is copied while this one is computed.
//
// Problem macros: CONV_B, CONV_CIN, CONV_L, CONV_COUT, CONV_K, CONV_PAD,
// CONV_LOUT, CONV_BIAS.
// Tuning macros:
//   COUT_TILE         output channels per block
//   T_TILE            output positions per block
//   COUT_PER_THREAD   output channels per thread (divides COUT_TILE)
//   T_PER_THREAD      consecutive positions per thread (divides T_TILE)
//   CIN_CHUNK         input channels staged at a time
//   PIPE              1: two buffers, the next chunk copied during this one
//   MIN_BLOCKS        minimum resident blocks per SM (__launch_bounds__)

#define CT_CDIV(a, b) (((a) + (b) - 1) / (b))
#define CT_RUP(a, b) (CT_CDIV(a, b) * (b))

#define BM COUT_TILE
#define BN T_TILE
#define TM COUT_PER_THREAD
#define TN T_PER_THREAD
#define CK (CIN_CHUNK < CONV_CIN ? CIN_CHUNK : CONV_CIN)
#define NCH CT_CDIV(CONV_CIN, CK)
#define TX (BN / TN)                      // threads along the positions
#define NT ((BM / TM) * TX)
#define TILES_T CT_CDIV(CONV_LOUT, BN)
#define TILES_C CT_CDIV(CONV_COUT, BM)
#define NBUF (PIPE ? 2 : 1)

// Input rows: XW staged values (tile plus halo) at pitch XP; a thread reads
// NL values from column tx*TN, LV at a time, the last NL - NWIN unused.
#define LV (TN % 4 == 0 ? 4 : TN % 2 == 0 ? 2 : 1)
#define NWIN (TN + CONV_K - 1)
#define NL CT_RUP(NWIN, LV)
#define XW (BN + CONV_K - 1)
#define XP CT_RUP(BN - TN + NL, 4)
// Weights: [ci*K + k][co], WV per load.
#define WV (TM % 4 == 0 ? 4 : TM % 2 == 0 ? 2 : 1)
#define S_W (CK * CONV_K * BM)
#define S_X (CK * XP)

template <int N>
__device__ __forceinline__ void load_vec(float *d, const float *p)
{
    if (N == 4) {
        const float4 v = *reinterpret_cast<const float4 *>(p);
        d[0] = v.x; d[1] = v.y; d[2] = v.z; d[3] = v.w;
    } else if (N == 2) {
        const float2 v = *reinterpret_cast<const float2 *>(p);
        d[0] = v.x; d[1] = v.y;
    } else {
        d[0] = *p;
    }
}

// One float from global src to shared dst, zero when !ok (src must still be
// a valid address). Asynchronous from sm_80: complete after copy_wait.
__device__ __forceinline__ void copy_async(float *dst, const float *src, bool ok)
{
#if __CUDA_ARCH__ >= 800
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(ok ? 4 : 0) : "memory");
#else
    *dst = ok ? __ldg(src) : 0.0f;
#endif
}

__device__ __forceinline__ void copy_commit()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

template <int N>
__device__ __forceinline__ void copy_wait()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

// Issue the copy of input-channel chunk ch: weights transposed, input rows
// with halo, zeros past the channels, the output channels and the input.
__device__ __forceinline__ void stage(float *s_w, float *s_x, const float *__restrict__ in,
                                      const float *__restrict__ weight, int b, int co0, int t0, int ch)
{
    const int ci0 = ch * CK;
#pragma unroll 4
    for (int idx = threadIdx.x; idx < S_W; idx += NT) {
        const int co = idx / (CK * CONV_K), r = idx % (CK * CONV_K);
        const bool ok = co0 + co < CONV_COUT && (CONV_CIN % CK == 0 || ci0 + r / CONV_K < CONV_CIN);
        copy_async(s_w + r * BM + co, ok ? weight + ((co0 + co) * CONV_CIN + ci0) * CONV_K + r : weight, ok);
    }
#pragma unroll 4
    for (int idx = threadIdx.x; idx < CK * XW; idx += NT) {
        const int c = idx / XW, j = idx % XW;
        const int x = t0 - CONV_PAD + j;
        const bool ok = (CONV_CIN % CK == 0 || ci0 + c < CONV_CIN) && x >= 0 && x < CONV_L;
        copy_async(s_x + c * XP + j, ok ? in + (b * CONV_CIN + ci0 + c) * CONV_L + x : in, ok);
    }
}

extern "C" __global__ void __launch_bounds__(NT, MIN_BLOCKS)
conv1dc_gemm(const float *__restrict__ in, const float *__restrict__ weight,
#if CONV_BIAS
             const float *__restrict__ bias,
#endif
             float *__restrict__ out)
{
    __shared__ __align__(16) float s_w[NBUF][S_W];
    __shared__ __align__(16) float s_x[NBUF][S_X];
    const int tt = blockIdx.x % TILES_T, rest = blockIdx.x / TILES_T;
    const int co0 = rest % TILES_C * BM, b = rest / TILES_C;
    const int t0 = tt * BN;
    const int tx = threadIdx.x % TX, ty = threadIdx.x / TX;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i) {
#if CONV_BIAS
        const int co = co0 + ty * TM + i;
        const float bv = co < CONV_COUT ? __ldg(bias + co) : 0.0f;
#else
        const float bv = 0.0f;
#endif
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = bv;
    }

    stage(s_w[0], s_x[0], in, weight, b, co0, t0, 0);
    copy_commit();
    int buf = 0;
#pragma unroll 1
    for (int ch = 0; ch < NCH; ++ch) {
#if PIPE
        if (ch + 1 < NCH)
            stage(s_w[buf ^ 1], s_x[buf ^ 1], in, weight, b, co0, t0, ch + 1);
        copy_commit();
        copy_wait<1>();
#else
        copy_wait<0>();
#endif
        __syncthreads();
        const float *xw = s_x[buf] + tx * TN;
        const float *ww = s_w[buf] + ty * TM;
        // Zero-filled weights make a partial last chunk add nothing.
#pragma unroll
        for (int c = 0; c < CK; ++c) {
            float win[NL];
#pragma unroll
            for (int k = 0; k < NL; k += LV)
                load_vec<LV>(&win[k], xw + c * XP + k);
#pragma unroll
            for (int k = 0; k < CONV_K; ++k) {
                float a[TM];
#pragma unroll
                for (int v = 0; v < TM; v += WV)
                    load_vec<WV>(&a[v], ww + (c * CONV_K + k) * BM + v);
#pragma unroll
                for (int i = 0; i < TM; ++i)
#pragma unroll
                    for (int j = 0; j < TN; ++j)
                        acc[i][j] = fmaf(a[i], win[j + k], acc[i][j]);
            }
        }
        // Every thread is done with this buffer before it is refilled.
        __syncthreads();
#if PIPE
        buf ^= 1;
#else
        if (ch + 1 < NCH) {
            stage(s_w[0], s_x[0], in, weight, b, co0, t0, ch + 1);
            copy_commit();
        }
#endif
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int co = co0 + ty * TM + i;
        if (co >= CONV_COUT)
            break;
        float *o = out + (b * CONV_COUT + co) * CONV_LOUT + t0 + tx * TN;
#pragma unroll
        for (int j = 0; j < TN; ++j)
            if (t0 + tx * TN + j < CONV_LOUT)
                o[j] = acc[i][j];
    }
}
