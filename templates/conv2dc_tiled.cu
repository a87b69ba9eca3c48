// conv2dc_tiled: register-blocked multi-channel 2D convolution (the ideas of
// seed 003, each one a tuning parameter).
//
//   out[b][co][y][x] = bias[co] + sum_{ci,i,j} in[b][ci][y+i-PH][x+j-PW] * w[co][ci][i][j]
//
// A block owns IMGS_PER_BLOCK images x one tile of TOH x TOW output pixels
// (the whole image by default) and stages that part of its input, every
// channel and the halo, in shared memory with zeros for the padding. A
// thread then owns OUT_X consecutive pixels of one row and CPT output
// channels: each filter row of each input channel is read once from shared
// memory into a window of OUT_X + KW - 1 registers (vector loads) and feeds
// KW * OUT_X * CPT FMAs. With the weights in constant memory every loop over
// the filter and the channels is fully unrolled, so each weight is a
// compile-time offset that the FMA reads straight from the constant bank;
// with shared weights, laid out [ci][i][j][co] so that one vector load brings
// several output channels' weights, the input-channel loop can stay a loop.
// A block's pixels are handed out to its threads row by row, so a warp stores
// a contiguous run of each output plane.
//
// Problem macros: CONV_B, CONV_CIN, CONV_H, CONV_W, CONV_COUT, CONV_KH,
// CONV_KW, CONV_OH, CONV_OW, CONV_PH, CONV_PW, CONV_BIAS.
// Tuning macros:
//   BLOCK_SIZE        threads per block; 0: one pixel group per thread
//                     (the block's groups rounded up to a warp, at most 1024)
//   OUT_X             consecutive output pixels of a row per thread
//   COUT_PER_THREAD   output channels accumulated per thread (0: all)
//   IMGS_PER_BLOCK    images per block
//   TILE_OH, TILE_OW  output tile per block (0: the whole image); tiles are
//                     balanced, TILE_OW rounded up to a multiple of OUT_X
//   WEIGHT_PLACEMENT  0 constant memory, 1 shared memory
//   CI_UNROLL         input channels per unrolled iteration with shared
//                     weights (0: all); constant weights unroll them all
//   ROW_PAD           1: pad the staged rows so that a warp's pixels on
//                     consecutive rows fall in consecutive banks
//   MIN_BLOCKS        minimum resident blocks per SM (__launch_bounds__)
//   CIN_CHUNK         input channels staged at a time (0: all). With more
//                     than one chunk every thread owns exactly one pixel
//                     group x channel group (the host checks that the block
//                     has enough threads), keeps its accumulators across
//                     the chunks and the block re-stages the next chunk
//                     between two barriers; a last chunk may be partial.

#ifndef CIN_CHUNK
#define CIN_CHUNK 0
#endif
#define CT_CDIV(a, b) (((a) + (b) - 1) / (b))
#define CT_RUP(a, b) (CT_CDIV(a, b) * (b))
#define CT_STR(x) #x
#define CT_PRAGMA(x) _Pragma(CT_STR(x))
#define CT_UNROLL(n) CT_PRAGMA(unroll n)

#define TOH_REQ (TILE_OH == 0 || TILE_OH >= CONV_OH ? CONV_OH : TILE_OH)
#define TOH CT_CDIV(CONV_OH, CT_CDIV(CONV_OH, TOH_REQ))
#define TOW_REQ (TILE_OW == 0 || TILE_OW >= CONV_OW ? CONV_OW : TILE_OW)
#define TOW CT_RUP(CT_CDIV(CONV_OW, CT_CDIV(CONV_OW, TOW_REQ)), OUT_X)
#define XG (TOW / OUT_X)                    // pixel groups per tile row
#define TILES_X CT_CDIV(CONV_OW, TOW)
#define TILES (CT_CDIV(CONV_OH, TOH) * TILES_X)
#define CPT_REQ (COUT_PER_THREAD == 0 || COUT_PER_THREAD >= CONV_COUT ? CONV_COUT : COUT_PER_THREAD)
#define NCG CT_CDIV(CONV_COUT, CPT_REQ)     // output channel groups
#define CPT CT_CDIV(CONV_COUT, NCG)
#define IPB IMGS_PER_BLOCK
#define ITEMS (IPB * TOH * XG)              // pixel groups per block
#define CC (CIN_CHUNK == 0 || CIN_CHUNK >= CONV_CIN ? CONV_CIN : CIN_CHUNK)   // channels per chunk
#define NCH CT_CDIV(CONV_CIN, CC)           // chunks
#define UNITS (NCH > 1 ? ITEMS * NCG : ITEMS) // work units handed to threads
#define NT (BLOCK_SIZE ? BLOCK_SIZE : (CT_RUP(UNITS, 32) < 1024 ? CT_RUP(UNITS, 32) : 1024))

// Shared-memory input: IPB x CC x SH rows x PITCH floats. A thread reads NL
// floats from column xg*OUT_X of a row, LV at a time; the last NL - NWIN
// are never used but must lie inside the array.
#define LV (OUT_X % 4 == 0 ? 4 : OUT_X % 2 == 0 ? 2 : 1)
#define NWIN (OUT_X + CONV_KW - 1)
#define NL CT_RUP(NWIN, LV)
#define SH (TOH + CONV_KH - 1)
#define SW (TOW + CONV_KW - 1)
#define PITCH0 CT_RUP(TOW - OUT_X + NL, LV)
#define PITCH (ROW_PAD ? PITCH0 + ((TOW - PITCH0) % 32 + 32) % 32 : PITCH0)
#define CH_PITCH (SH * PITCH)
#define IMG_PITCH (CC * CH_PITCH)
#define S_IN (IPB * IMG_PITCH)

// Shared weights: [ci][i][j][co], co padded so every group's vector loads
// stay inside; WV weights per load.
#define COUTP CT_RUP(NCG * CPT, 4)
#define WV (NCG == 1 || CPT % 4 == 0 ? 4 : CPT % 2 == 0 ? 2 : 1)
#define NWV CT_CDIV(CPT, WV)
#define TAPS (CONV_CIN * CONV_KH * CONV_KW)

// Output stores: SV floats per instruction when every row start allows it.
#define SV (OUT_X % 4 == 0 && CONV_OW % 4 == 0 ? 4 : OUT_X % 2 == 0 && CONV_OW % 2 == 0 ? 2 : 1)

#if WEIGHT_PLACEMENT == 0
__constant__ float c_weight[CONV_COUT * TAPS];
#define CT_SYMBOL_c_weight 1   // tells an exported launcher to fill c_weight
#endif
#if CONV_BIAS
__constant__ float c_bias[CONV_COUT];
#define CT_SYMBOL_c_bias 1
#endif

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

// Copy channels c0 .. c0 + CC - 1 of the block's input (zeros outside the
// images and past the last channel) and, with shared weights and wts set,
// the weights in [tap][co] order.
__device__ __forceinline__ void stage(float *s_in, float *s_w, const float *__restrict__ in,
                                      const float *__restrict__ weight, int b0, int y0, int x0, int c0,
                                      bool wts)
{
#pragma unroll 1
    for (int idx = threadIdx.x; idx < S_IN / PITCH * SW; idx += NT) {
        const int c = idx % SW, rest = idx / SW;
        const int r = rest % SH, plane = rest / SH;   // plane = m * CC + cc
        const int b = b0 + plane / CC, ci = c0 + plane % CC;
        const int gy = y0 - CONV_PH + r, gx = x0 - CONV_PW + c;
        float v = 0.0f;
        if (b < CONV_B && (CONV_CIN % CC == 0 || ci < CONV_CIN) && gy >= 0 && gy < CONV_H && gx >= 0 && gx < CONV_W)
            v = __ldg(in + ((b * CONV_CIN + ci) * CONV_H + gy) * CONV_W + gx);
        s_in[plane * CH_PITCH + r * PITCH + c] = v;
    }
#if WEIGHT_PLACEMENT == 1
#pragma unroll 1
    for (int idx = wts ? (int)threadIdx.x : TAPS * COUTP; idx < TAPS * COUTP; idx += NT) {
        const int co = idx % COUTP, tap = idx / COUTP;
        s_w[idx] = co < CONV_COUT ? __ldg(weight + co * TAPS + tap) : 0.0f;
    }
#endif
}

// All taps of input channel ci, staged as channel cc of its chunk, for one
// pixel group and one channel group.
__device__ __forceinline__ void channel(float (&acc)[CPT][OUT_X], const float *srow, const float *s_w,
                                        int cc, int ci, int cg)
{
    // Unrolled, ptxas would hoist every shared weight load of the channel
    // into registers and spill.
#if WEIGHT_PLACEMENT == 0
#pragma unroll
#else
#pragma unroll 1
#endif
    for (int i = 0; i < CONV_KH; ++i) {
        float win[NL];
#pragma unroll
        for (int k = 0; k < NL; k += LV)
            load_vec<LV>(&win[k], srow + cc * CH_PITCH + i * PITCH + k);
#pragma unroll
        for (int j = 0; j < CONV_KW; ++j) {
            const int tap = (ci * CONV_KH + i) * CONV_KW + j;
            float w[NWV * WV];
#if WEIGHT_PLACEMENT == 0
#pragma unroll
            for (int c = 0; c < CPT; ++c) {
                const int co = cg * CPT + c;
                w[c] = co < CONV_COUT ? c_weight[co * TAPS + tap] : 0.0f;
            }
#else
#pragma unroll
            for (int v = 0; v < NWV; ++v)
                load_vec<WV>(&w[v * WV], s_w + tap * COUTP + cg * CPT + v * WV);
#endif
#pragma unroll
            for (int c = 0; c < CPT; ++c)
#pragma unroll
                for (int x = 0; x < OUT_X; ++x)
                    acc[c][x] = fmaf(win[x + j], w[c], acc[c][x]);
        }
    }
}

extern "C" __global__ void __launch_bounds__(NT, MIN_BLOCKS)
conv2dc_tiled(const float *__restrict__ in, const float *__restrict__ weight,
#if CONV_BIAS
              const float *__restrict__ bias,
#endif
              float *__restrict__ out)
{
    __shared__ __align__(16) float s_in[S_IN];
#if WEIGHT_PLACEMENT == 1
    __shared__ __align__(16) float s_w[TAPS * COUTP];
#else
    float *const s_w = nullptr;
#endif
    const int tile = blockIdx.x % TILES;
    const int b0 = blockIdx.x / TILES * IPB;
    const int y0 = tile / TILES_X * TOH, x0 = tile % TILES_X * TOW;
    stage(s_in, s_w, in, weight, b0, y0, x0, 0, true);
    __syncthreads();

#if NCH > 1
    {
        const int it = threadIdx.x % ITEMS, cg = NCG == 1 ? 0 : threadIdx.x / ITEMS;
        const int xg = it % XG, ty = it / XG % TOH, m = it / (XG * TOH);
        const int b = b0 + m, y = y0 + ty, xo = x0 + xg * OUT_X;
        const bool active = threadIdx.x < ITEMS * NCG && b < CONV_B && y < CONV_OH;
        const float *srow = s_in + m * IMG_PITCH + ty * PITCH + xg * OUT_X;
        float acc[CPT][OUT_X];
#pragma unroll
        for (int c = 0; c < CPT; ++c) {
#if CONV_BIAS
            const float bv = cg * CPT + c < CONV_COUT ? c_bias[cg * CPT + c] : 0.0f;
#else
            const float bv = 0.0f;
#endif
#pragma unroll
            for (int x = 0; x < OUT_X; ++x)
                acc[c][x] = bv;
        }
        // With constant weights the chunks are unrolled too, so that every
        // weight stays a compile-time constant-bank offset.
#if WEIGHT_PLACEMENT == 0
#pragma unroll
#else
#pragma unroll 1
#endif
        for (int ch = 0; ch < NCH; ++ch) {
            if (ch > 0) {
                __syncthreads();
                stage(s_in, s_w, in, weight, b0, y0, x0, ch * CC, false);
                __syncthreads();
            }
            if (active) {
#if WEIGHT_PLACEMENT == 0 || CI_UNROLL == 0
#pragma unroll
#else
                CT_UNROLL(CI_UNROLL)
#endif
                for (int cc = 0; cc < CC; ++cc) {
                    if (CONV_CIN % CC != 0 && ch * CC + cc >= CONV_CIN)
                        break;
                    channel(acc, srow, s_w, cc, ch * CC + cc, cg);
                }
            }
        }
        if (active) {
#pragma unroll
            for (int c = 0; c < CPT; ++c) {
                const int co = cg * CPT + c;
                if (co >= CONV_COUT)
                    break;
                float *o = out + ((b * CONV_COUT + co) * CONV_OH + y) * CONV_OW + xo;
#pragma unroll
                for (int x = 0; x < OUT_X; x += SV) {
                    if (xo + x >= CONV_OW)
                        break;
                    if (SV == 4)
                        *reinterpret_cast<float4 *>(o + x) =
                            make_float4(acc[c][x], acc[c][x + 1 < OUT_X ? x + 1 : x],
                                        acc[c][x + 2 < OUT_X ? x + 2 : x], acc[c][x + 3 < OUT_X ? x + 3 : x]);
                    else if (SV == 2)
                        *reinterpret_cast<float2 *>(o + x) = make_float2(acc[c][x], acc[c][x + 1 < OUT_X ? x + 1 : x]);
                    else
                        o[x] = acc[c][x];
                }
            }
        }
    }
#else

#pragma unroll 1
    for (int it = threadIdx.x; it < ITEMS; it += NT) {
        const int xg = it % XG, ty = it / XG % TOH, m = it / (XG * TOH);
        const int b = b0 + m, y = y0 + ty, xo = x0 + xg * OUT_X;
        if (b >= CONV_B || y >= CONV_OH)
            continue;
        const float *srow = s_in + m * IMG_PITCH + ty * PITCH + xg * OUT_X;
#if WEIGHT_PLACEMENT == 0
#pragma unroll
#else
#pragma unroll 1
#endif
        for (int cg = 0; cg < NCG; ++cg) {
            float acc[CPT][OUT_X];
#pragma unroll
            for (int c = 0; c < CPT; ++c) {
#if CONV_BIAS
                const float bv = cg * CPT + c < CONV_COUT ? c_bias[cg * CPT + c] : 0.0f;
#else
                const float bv = 0.0f;
#endif
#pragma unroll
                for (int x = 0; x < OUT_X; ++x)
                    acc[c][x] = bv;
            }
#if WEIGHT_PLACEMENT == 0 || CI_UNROLL == 0
#pragma unroll
#else
            CT_UNROLL(CI_UNROLL)
#endif
            for (int ci = 0; ci < CONV_CIN; ++ci)
                channel(acc, srow, s_w, ci, ci, cg);

#pragma unroll
            for (int c = 0; c < CPT; ++c) {
                const int co = cg * CPT + c;
                if (co >= CONV_COUT)
                    break;
                float *o = out + ((b * CONV_COUT + co) * CONV_OH + y) * CONV_OW + xo;
#pragma unroll
                for (int x = 0; x < OUT_X; x += SV) {
                    if (xo + x >= CONV_OW)
                        break;
                    if (SV == 4)
                        *reinterpret_cast<float4 *>(o + x) =
                            make_float4(acc[c][x], acc[c][x + 1 < OUT_X ? x + 1 : x],
                                        acc[c][x + 2 < OUT_X ? x + 2 : x], acc[c][x + 3 < OUT_X ? x + 3 : x]);
                    else if (SV == 2)
                        *reinterpret_cast<float2 *>(o + x) = make_float2(acc[c][x], acc[c][x + 1 < OUT_X ? x + 1 : x]);
                    else
                        o[x] = acc[c][x];
                }
            }
        }
    }
#endif
}
