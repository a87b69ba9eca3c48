// conv1d_tiledh: conv1d_tiled for bf16 and f16 problems (CT_DTYPE 1 or 2).
//
//   out[i] = sum_{j<CONV_K} x[i + j - CONV_OFF] * mask[j],  x = 0 outside [0, CONV_N)
//
// The same register blocking, sliding window, chunking and parameters as
// conv1d_tiled (see there). Elements are widened to float as they leave
// global memory (the staged tile and a shared mask hold floats), the window
// and the sums are fp32, and each output is rounded once when stored
// (ct_half_io.cuh). A constant-memory mask holds the elements as the caller
// gave them and is widened per tap, once for OUTPUTS_PER_THREAD FMAs.
//
// Problem macros: CONV_N, CONV_K, CONV_OUT, CONV_OFF, CT_DTYPE.
// Tuning macros: BLOCK_SIZE, OUTPUTS_PER_THREAD, MASK_PLACEMENT, MASK_PAD,
// ALIGN, STAGE_INPUT, VEC_WIDTH, UNROLL, KCHUNK, MIN_BLOCKS (conv1d_tiled's).
#include "ct_half_io.cuh"

#define R OUTPUTS_PER_THREAD
#define VW VEC_WIDTH
#define TILE_OUT (BLOCK_SIZE * R)
#define KSTEP (R * UNROLL)
#if MASK_PAD
#define KP (((CONV_K + KSTEP - 1) / KSTEP) * KSTEP)
#else
#define KP CONV_K
#endif
#define KCH (KCHUNK < KP ? KCHUNK : KP)
#define KCH4 (((KCH) + 3) / 4 * 4)
#define NCHUNK ((KP + KCH - 1) / KCH)
#define TILE_IN (TILE_OUT + KCH4)
// Tiles start at out0 - CONV_OFF + kc, which is this far past a multiple of 4.
#define SHIFT ((4 - (CONV_OFF % 4)) % 4)

#define CT_STR(x) #x
#define CT_PRAGMA(x) _Pragma(CT_STR(x))
#define CT_UNROLL(n) CT_PRAGMA(unroll n)

#if MASK_PLACEMENT == 0
// Zero-initialised at module load, so padded taps past CONV_K are zero.
__constant__ __align__(ALIGN) ct_elem c_mask[(KP + 3) / 4 * 4];
#define CT_SYMBOL_c_mask 1   // tells an exported launcher to fill c_mask
#endif

enum { SRC_SHARED = 0, SRC_GLOBAL = 1, SRC_GLOBAL_CHECKED = 2 };

template <int SRC, int NV>
__device__ __forceinline__ void window(float *d, const float *xs, const ct_elem *in, long long xg)
{
    if (SRC == SRC_SHARED)
        ct_lds<NV>(d, xs);
    else if (SRC == SRC_GLOBAL)
        ct_ldg_elems<NV>(d, in + xg);
    else
        ct_ldg_elems_checked<NV>(d, in, xg, CONV_N);
}

// NV taps from tap kabs: NV new inputs into the window, NV * R FMAs, then
// the window slides by NV.
template <int SRC, int NV>
__device__ __forceinline__ void step(float (&w)[R + VW], float (&acc)[R], const float *xs,
                                     const ct_elem *in, long long xg, const float *ms,
                                     const ct_elem *mask, int kabs)
{
    window<SRC, NV>(&w[R], xs, in, xg);
    float m[NV];
#if MASK_PLACEMENT == 0
#pragma unroll
    for (int v = 0; v < NV; ++v)
        m[v] = ct_ld(&c_mask[kabs + v]);
#elif MASK_PLACEMENT == 1
    ct_lds<NV>(m, ms);
#else
    ct_ldg_elems<NV>(m, mask + kabs);
#endif
#pragma unroll
    for (int v = 0; v < NV; ++v)
#pragma unroll
        for (int r = 0; r < R; ++r)
            acc[r] = fmaf(m[v], w[r + v], acc[r]);
#pragma unroll
    for (int i = 0; i < R; ++i)
        w[i] = w[i + NV];
}

// Taps kc .. kc+klen-1 of this thread's R outputs.
template <int SRC>
__device__ __forceinline__ void run_chunk(float (&acc)[R], const float *xs, const ct_elem *in,
                                          long long xg, const float *ms, const ct_elem *mask,
                                          int kc, int klen)
{
    float w[R + VW];
#pragma unroll
    for (int i = 0; i < R; i += VW)
        window<SRC, VW>(&w[i], xs + i, in, xg + i);
    int k = 0;
    CT_UNROLL(R / VW * UNROLL)
    for (; k + VW <= klen; k += VW)
        step<SRC, VW>(w, acc, xs + R + k, in, xg + R + k, ms + k, mask, kc + k);
    for (; k < klen; ++k)
        step<SRC, 1>(w, acc, xs + R + k, in, xg + R + k, ms + k, mask, kc + k);
}

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
conv1d_tiledh(const ct_elem *__restrict__ in, const ct_elem *__restrict__ mask,
              ct_elem *__restrict__ out)
{
#if STAGE_INPUT
    __shared__ __align__(ALIGN) float s_in[TILE_IN];
#endif
#if MASK_PLACEMENT == 1
    __shared__ __align__(ALIGN) float s_mask[KCH4];
    const float *ms = s_mask;
#else
    const float *ms = nullptr;
#endif
    const int t = threadIdx.x;
    const long long out0 = (long long)blockIdx.x * TILE_OUT;
#if !STAGE_INPUT
    const bool inside = out0 - CONV_OFF >= 0 &&
                        out0 + TILE_OUT + KP - 1 - CONV_OFF < (long long)CONV_N;
#endif
    float acc[R];
#pragma unroll
    for (int r = 0; r < R; ++r)
        acc[r] = 0.0f;

#pragma unroll 1
    for (int c = 0; c < NCHUNK; ++c) {
        const int kc = c * KCH;
        const int klen = (c == NCHUNK - 1) ? (KP - kc) : KCH;
#if STAGE_INPUT || MASK_PLACEMENT == 1
        if (c > 0)
            __syncthreads();
#endif
#if STAGE_INPUT
        // x[g0 .. g0+TILE_IN) as floats, four elements a load from the
        // aligned address just below g0, zeros outside the input.
        const long long ga = out0 - CONV_OFF + kc - SHIFT;
        for (int q = t; q < (TILE_IN + SHIFT + 3) / 4; q += BLOCK_SIZE) {
            const long long g = ga + 4LL * q;
            float v[4];
            if (g >= 0 && g + 3 < CONV_N)
                ct_ldg_elems<4>(v, in + g);
            else
                ct_ldg_elems_checked<4>(v, in, g, CONV_N);
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const int idx = 4 * q + j - SHIFT;
                if (idx >= 0 && idx < TILE_IN)
                    s_in[idx] = v[j];
            }
        }
#endif
#if MASK_PLACEMENT == 1
        for (int i = t; i < KCH4; i += BLOCK_SIZE)
            s_mask[i] = (i < klen && kc + i < CONV_K) ? ct_ldg(mask + kc + i) : 0.0f;
#endif
#if STAGE_INPUT || MASK_PLACEMENT == 1
        __syncthreads();
#endif
#if STAGE_INPUT
        run_chunk<SRC_SHARED>(acc, s_in + t * R, in, 0, ms, mask, kc, klen);
#else
        const long long xg = out0 + (long long)t * R - CONV_OFF + kc;
        if (inside)
            run_chunk<SRC_GLOBAL>(acc, nullptr, in, xg, ms, mask, kc, klen);
        else
            run_chunk<SRC_GLOBAL_CHECKED>(acc, nullptr, in, xg, ms, mask, kc, klen);
#endif
    }

    const long long o = out0 + (long long)t * R;
    if (R % 4 == 0 && o + R <= CONV_OUT) {
#pragma unroll
        for (int r = 0; r + 4 <= R; r += 4)
            ct_stg_elems<4>(out + o + r, &acc[r]);
    } else {
#pragma unroll
        for (int r = 0; r < R; ++r)
            if (o + r < CONV_OUT)
                ct_st(out + o + r, acc[r]);
    }
}
