// conv2dc_ffma: a dense or grouped conv2dc layer as an FFMA implicit GEMM
// in the SGEMM structure (fp32; bf16 widened as it loads); see
// ct_conv_ffma.cuh for the method and the tuning macros.
// conv2dc_as2d.cuh: the layer under the names every layer family gives it
// (LY_*), so that one kernel source serves conv1dc (a 2D layer of height 1,
// conv1dc_as2d.cuh) and conv2dc. The sizes are the forward layer's: x is
// B x CIN x H x W, y (the forward output, dy in the passes) B x COUT x OH x
// OW, each in the layout; the weights COUT x CING x KH x KW in both.
// LY_PASS: 0 the forward pass, 1 dgrad, 2 wgrad (CONV_PASS).
// conv2dc_layer.cuh: the layer fields convtune defines only where they are
// not 1 (stride CONV_SH x CONV_SW, dilation CONV_DH x CONV_DW, CONV_GROUPS
// groups), so that templates that read them see 1 otherwise.
#ifndef CONV_SH
#define CONV_SH 1
#endif
#ifndef CONV_SW
#define CONV_SW 1
#endif
#ifndef CONV_DH
#define CONV_DH 1
#endif
#ifndef CONV_DW
#define CONV_DW 1
#endif
#ifndef CONV_GROUPS
#define CONV_GROUPS 1
#endif
#define CONV_CING (CONV_CIN / CONV_GROUPS)     // input channels of a group
#define CONV_COUTG (CONV_COUT / CONV_GROUPS)   // output channels of a group
// conv2dc_layout.cuh: the activations' layout, for the templates that
// compute both (the others' constraints exclude channels-last layers).
// CONV_CHANNELS_LAST is defined (1) only for the channels-last layout nhwc.
// Element index of input (b, c, y, x) and output (b, co, y, x): nchw
// [B][C][H][W], nhwc [B][H][W][C]. The weights are [Cout][Cin/G][KH][KW] in
// both.
#ifndef CONV_CHANNELS_LAST
#define CONV_CHANNELS_LAST 0
#endif
#if CONV_CHANNELS_LAST
#define CONV_IN_AT(b, c, y, x) ((((b) * CONV_H + (y)) * CONV_W + (x)) * CONV_CIN + (c))
#define CONV_OUT_AT(b, co, y, x) ((((b) * CONV_OH + (y)) * CONV_OW + (x)) * CONV_COUT + (co))
#else
#define CONV_IN_AT(b, c, y, x) ((((b) * CONV_CIN + (c)) * CONV_H + (y)) * CONV_W + (x))
#define CONV_OUT_AT(b, co, y, x) ((((b) * CONV_COUT + (co)) * CONV_OH + (y)) * CONV_OW + (x))
#endif
#ifndef CONV_PASS
#define CONV_PASS 0
#endif
#define LY_B CONV_B
#define LY_CIN CONV_CIN
#define LY_COUT CONV_COUT
#define LY_GROUPS CONV_GROUPS
#define LY_CING CONV_CING
#define LY_COUTG CONV_COUTG
#define LY_H CONV_H
#define LY_W CONV_W
#define LY_KH CONV_KH
#define LY_KW CONV_KW
#define LY_OH CONV_OH
#define LY_OW CONV_OW
#define LY_PH CONV_PH
#define LY_PW CONV_PW
#define LY_SY CONV_SH
#define LY_SX CONV_SW
#define LY_DY CONV_DH
#define LY_DX CONV_DW
#define LY_BIAS CONV_BIAS
#define LY_CL CONV_CHANNELS_LAST
#define LY_PASS CONV_PASS
#define LY_X_AT(b, c, y, x) CONV_IN_AT(b, c, y, x)
#define LY_Y_AT(b, c, y, x) CONV_OUT_AT(b, c, y, x)
#define FF_NAME conv2dc_ffma
// ct_conv_ffma.cuh: the forward pass of a dense or grouped layer as an
// implicit GEMM on the FMA units in the classic SGEMM structure (fp32 FFMA,
// every architecture from sm_75; bf16/f16 elements widened as they load).
// Included by FAMILY_ffma through FAMILY_as2d.cuh (the layer as LY_*
// macros, a conv1dc layer a 2D one of height 1); exports inline it.
//
// Per group g the GEMM is out[m][n] = sum_k A[m][k] * B[k][n] with
//   m = an output channel of the group (M = COUTG),
//   n = an output pixel (b, oy, ox), N = B x OH x OW,
//   k = an (input channel of the group, tap) pair, K = CING x KH x KW,
//       ordered ci-major (ci, i, j) in NCHW, where consecutive k are
//       consecutive taps of one plane, and tap-major (i, j, ci) in NHWC,
//       where consecutive k are consecutive channels of one pixel,
//   A[m][k] = w[g*COUTG + m][ci][i][j],
//   B[k][n] = x[b][g*CING + ci][oy*SY - PH + i*DY][ox*SX - PW + j*DX]
//             (0 outside the image): the im2col matrix, never stored.
// A block owns a TILE_M x TILE_N tile of out (blockIdx.y: the channel
// tile, blockIdx.x: the pixel tile, blockIdx.z: the group) and walks K in
// chunks of CHUNK_K. Each chunk's A (TILE_M x CHUNK_K) and B (CHUNK_K x
// TILE_N) slices are gathered from global memory by all threads into
// registers (the im2col done by the loading threads: each thread has one k
// of a chunk, split into its channel and tap by constant divisions once,
// and the same pixels in every chunk, whose base offset and first input
// row and column are one 128-bit read of a table the block builds once;
// a gathered element costs that read, two bounds tests and a load), then
// stored k-major into shared memory: two buffers, so that the next chunk's
// loads are in flight during this chunk's FMAs and one barrier a chunk
// suffices. Rows are padded by 4 floats, which keeps the 16-byte fragment
// loads aligned and spreads the k-fastest stores over the banks.
//
// A thread owns THREAD_M x THREAD_N outputs in registers: THREAD_M / 4
// runs of 4 channels, TILE_M / (THREAD_M / 4) apart, and THREAD_N / 4 runs
// of 4 pixels, likewise; per k it loads its A and B fragments as 128-bit
// shared loads (a warp is 8 x 4 threads of the tile's grid, so a load
// reads 8 or 4 consecutive 16-byte runs of one row, each shared by 4 or 8
// lanes: one wavefront, no bank conflicts) and does the THREAD_M x THREAD_N
// outer product, fully unrolled over the chunk. The outputs are stored as
// 4-wide vectors where the layout allows: along the pixels in NCHW (OH x
// OW a multiple of 4), along the channels in NHWC (COUTG a multiple of 4).
//
// Problem macros (FAMILY_as2d.cuh): LY_B, LY_CIN, LY_COUT, LY_GROUPS,
// LY_CING, LY_COUTG, LY_H, LY_W, LY_KH, LY_KW, LY_OH, LY_OW, LY_PH, LY_PW,
// LY_SY, LY_SX, LY_DY, LY_DX, LY_BIAS, LY_CL; FF_NAME the kernel's name.
// Tuning macros (powers of two; the host's constraints, ffma_conv.c, keep
// every compiled candidate inside these rules):
//   TILE_M, TILE_N   the block tile: output channels x output pixels
//   THREAD_M         output channels per thread (4 or 8)
//   THREAD_N         output pixels per thread (4 or 8)
//   CHUNK_K          reduction terms staged per chunk (8 or 16)
// Indices are 32-bit: the host refuses layers of 2^31 elements or more.

// ct_dtype.cuh - the element type of a problem's buffers, for templates.
//
// CT_DTYPE is the problem's ct_dtype (tuner/core/problem.h): 0 f32, 1 bf16,
// 2 f16. The tuner defines it for bf16 and f16 problems only, so the kernels
// and exports of f32 problems are those of before; here it defaults to 0.
// Inputs, weights, bias and outputs are ct_elem in memory; kernels load them
// to float (ct_ld), sum in fp32 and round once when they store (ct_st, round
// to nearest even); ct_ldg loads through the read-only cache. The pair forms move two neighbouring elements as one
// 32-bit word (64-bit for f32) and need its alignment.
#ifndef CT_DTYPE_CUH
#define CT_DTYPE_CUH

#ifndef CT_DTYPE
#define CT_DTYPE 0
#endif
#define CT_DTYPE_F32 0
#define CT_DTYPE_BF16 1
#define CT_DTYPE_F16 2

#if CT_DTYPE == CT_DTYPE_BF16
#include <cuda_bf16.h>
typedef __nv_bfloat16 ct_elem;
typedef __nv_bfloat162 ct_elem2;
__device__ __forceinline__ float ct_ld(const ct_elem *p) { return __bfloat162float(*p); }
__device__ __forceinline__ void ct_st(ct_elem *p, float v) { *p = __float2bfloat16_rn(v); }
__device__ __forceinline__ float ct_ldg(const ct_elem *p) { return __bfloat162float(__ldg(p)); }
__device__ __forceinline__ float2 ct_ld2(const ct_elem2 *p) { return __bfloat1622float2(*p); }
__device__ __forceinline__ void ct_st2(ct_elem2 *p, float2 v) { *p = __float22bfloat162_rn(v); }
#elif CT_DTYPE == CT_DTYPE_F16
#include <cuda_fp16.h>
typedef __half ct_elem;
typedef __half2 ct_elem2;
__device__ __forceinline__ float ct_ld(const ct_elem *p) { return __half2float(*p); }
__device__ __forceinline__ void ct_st(ct_elem *p, float v) { *p = __float2half_rn(v); }
__device__ __forceinline__ float ct_ldg(const ct_elem *p) { return __half2float(__ldg(p)); }
__device__ __forceinline__ float2 ct_ld2(const ct_elem2 *p) { return __half22float2(*p); }
__device__ __forceinline__ void ct_st2(ct_elem2 *p, float2 v) { *p = __float22half2_rn(v); }
#elif CT_DTYPE == CT_DTYPE_F32
typedef float ct_elem;
typedef float2 ct_elem2;
__device__ __forceinline__ float ct_ld(const ct_elem *p) { return *p; }
__device__ __forceinline__ void ct_st(ct_elem *p, float v) { *p = v; }
__device__ __forceinline__ float ct_ldg(const ct_elem *p) { return __ldg(p); }
__device__ __forceinline__ float2 ct_ld2(const ct_elem2 *p) { return *p; }
__device__ __forceinline__ void ct_st2(ct_elem2 *p, float2 v) { *p = v; }
#else
#error "CT_DTYPE must be 0 (f32), 1 (bf16) or 2 (f16)"
#endif

#endif

#define FF_CDIV(a, b) (((a) + (b) - 1) / (b))
#define FF_KHW (LY_KH * LY_KW)
#define FF_K (LY_CING * FF_KHW)
#define FF_OHW (LY_OH * LY_OW)
#define FF_N (LY_B * FF_OHW)
#define FF_TX (TILE_N / THREAD_N)                  // threads along the pixels
#define FF_TY (TILE_M / THREAD_M)                  // threads along the channels
#define FF_NT (FF_TX * FF_TY)
// A warp's threads: WX along the pixels (8, fewer where TX is smaller, more
// where TY is), WY = 32 / WX along the channels.
#define FF_WX0 (FF_TX < 8 ? FF_TX : 8)
#define FF_WX (FF_WX0 * FF_TY >= 32 ? FF_WX0 : 32 / FF_TY)
#define FF_WY (32 / FF_WX)
#define FF_RM (THREAD_M / 4)
#define FF_RN (THREAD_N / 4)
#define FF_NCH FF_CDIV(FF_K, CHUNK_K)
#define FF_MTILES FF_CDIV(LY_COUTG, TILE_M)        // grid y
#define FF_NTILES FF_CDIV(FF_N, TILE_N)            // grid x
#define FF_AP (TILE_M + 4)                         // floats per k row of the A stage
#define FF_BP (TILE_N + 4)                         // and of the B stage
#define FF_AL (TILE_M * CHUNK_K / FF_NT)           // A elements a thread loads per chunk
#define FF_BL (TILE_N * CHUNK_K / FF_NT)           // B elements
// Registers a thread needs (the sums, two k's fragments, the next chunk's
// loads with the B addresses, about 24 for indices and the loop; ffma_conv.c
// has the same estimate): the launch bounds ask for as many blocks an SM as
// leave that many, at most 1024 threads (sm_75). An SM's 64K registers are
// four schedulers' 16K, each holding whole warps: FF_WPS warps a scheduler.
#define FF_REGS (THREAD_M * THREAD_N + 2 * (THREAD_M + THREAD_N) + FF_AL + 2 * FF_BL + 24)
#define FF_WPS (512 / ((FF_REGS + 7) / 8 * 8))
#define FF_MINB_R (FF_WPS * 128 / FF_NT)
#define FF_MINB (FF_MINB_R < 1 ? 1 : FF_MINB_R > 1024 / FF_NT ? 1024 / FF_NT : FF_MINB_R)
static_assert(FF_NT % 32 == 0 && FF_TX % FF_WX == 0 && FF_TY % FF_WY == 0, "whole warps of WX x WY threads");
static_assert(FF_NT % CHUNK_K == 0 && FF_AL * FF_NT == TILE_M * CHUNK_K && FF_BL * FF_NT == TILE_N * CHUNK_K,
              "the threads share a chunk's copies evenly");
static_assert((THREAD_M == 4 || THREAD_M == 8) && (THREAD_N == 4 || THREAD_N == 8), "runs of 4 a thread");
// A pixel past the layer: its first row so far outside that every tap misses.
#define FF_NOWHERE (-(1 << 24))
// Vector stores: 4 pixels (NCHW) or 4 channels (NHWC) of fp32.
#define FF_V4 (CT_DTYPE == 0 && (LY_CL ? LY_COUTG % 4 == 0 : FF_OHW % 4 == 0))

// A pixel's base offset into its group's input (image, first row and
// column folded in; a tap adds ff_koff) and its first input row and column.
struct __align__(16) ff_pix {
    int base, iy, ix, pad;
};

// Reduction index k of the group -> its offset into the input from a
// pixel's base, its row and column offsets, and its offset in the weights
// of one output channel (layout order above).
__device__ __forceinline__ void ff_ksplit(int k, int &off, int &ky, int &kx, int &woff)
{
#if LY_CL
    const int tap = k / LY_CING, ci = k - tap * LY_CING;
#else
    const int ci = k / FF_KHW, tap = k - ci * FF_KHW;
#endif
    const int i = tap / LY_KW, j = tap - i * LY_KW;
    ky = i * LY_DY;
    kx = j * LY_DX;
#if LY_CL
    off = (ky * LY_W + kx) * LY_CIN + ci;
#else
    off = (ci * LY_H + ky) * LY_W + kx;
#endif
#if LY_CL
    woff = ci * FF_KHW + tap;
#else
    woff = k;   // the weights' own order
#endif
}

// Chunk c's A and B elements of this thread into ra, rb (zeros outside the
// layer). Every thread has one k of the chunk for all its elements (one
// split of k a chunk), and fixed channels (A) and pixels (B) across
// chunks. A: consecutive threads on consecutive k of a channel (a run of
// its weights). B: NCHW consecutive threads on consecutive pixels (a row
// of the image: coalesced), NHWC on consecutive k (channels of a pixel).
#define FF_BKL (LY_CL ? tid % CHUNK_K : tid / (FF_NT / CHUNK_K))       // B: the thread's k
#define FF_BNL(r) (LY_CL ? tid / CHUNK_K + (r) * (FF_NT / CHUNK_K) : tid % (FF_NT / CHUNK_K) + (r) * (FF_NT / CHUNK_K))
__device__ __forceinline__ void ff_load(float (&ra)[FF_AL], float (&rb)[FF_BL], const ct_elem *__restrict__ xg,
                                        const ct_elem *__restrict__ wg, const ff_pix *pix, int m0, int c)
{
    const int tid = threadIdx.x;
    {
        // One pointer a chunk; the elements at constant offsets from it.
        const int k = c * CHUNK_K + tid % CHUNK_K, ma = m0 + tid / CHUNK_K;
        int off, ky, kx, woff;
        ff_ksplit(k, off, ky, kx, woff);
        const ct_elem *wa = wg + ma * FF_K + woff;
#pragma unroll
        for (int r = 0; r < FF_AL; ++r) {
            const bool ok = (FF_K % CHUNK_K == 0 || k < FF_K) &&
                            (LY_COUTG % TILE_M == 0 || ma + r * (FF_NT / CHUNK_K) < LY_COUTG);
            ra[r] = ok ? ct_ldg(wa + r * (FF_NT / CHUNK_K) * FF_K) : 0.0f;
        }
    }
    {
        const int k = c * CHUNK_K + FF_BKL;
        int off, ky, kx, woff;
        ff_ksplit(k, off, ky, kx, woff);
        const ct_elem *xb = xg + off;
#pragma unroll
        for (int r = 0; r < FF_BL; ++r) {
            const ff_pix p = pix[FF_BNL(r)];
            const bool ok = (FF_K % CHUNK_K == 0 || k < FF_K) && (unsigned)(p.iy + ky) < (unsigned)LY_H &&
                            (unsigned)(p.ix + kx) < (unsigned)LY_W;
            rb[r] = ok ? ct_ldg(xb + p.base) : 0.0f;
        }
    }
}

// The registers of ff_load into a stage, k-major.
__device__ __forceinline__ void ff_store(float *sa, float *sb, const float (&ra)[FF_AL], const float (&rb)[FF_BL])
{
    const int tid = threadIdx.x;
#pragma unroll
    for (int r = 0; r < FF_AL; ++r)
        sa[(tid % CHUNK_K) * FF_AP + tid / CHUNK_K + r * (FF_NT / CHUNK_K)] = ra[r];
#pragma unroll
    for (int r = 0; r < FF_BL; ++r)
        sb[FF_BKL * FF_BP + FF_BNL(r)] = rb[r];
}

extern "C" __global__ void __launch_bounds__(FF_NT, FF_MINB)
FF_NAME(const ct_elem *__restrict__ in, const ct_elem *__restrict__ weight,
#if LY_BIAS
        const ct_elem *__restrict__ bias,
#endif
        ct_elem *__restrict__ out)
{
    __shared__ __align__(16) float s_a[2][CHUNK_K * FF_AP];
    __shared__ __align__(16) float s_b[2][CHUNK_K * FF_BP];
    __shared__ ff_pix s_pix[TILE_N];

    const int tid = threadIdx.x;
    const int n0 = blockIdx.x * TILE_N, m0 = blockIdx.y * TILE_M, g = blockIdx.z;
#if LY_CL
    const ct_elem *xg = in + g * LY_CING;
#else
    const ct_elem *xg = in + g * LY_CING * LY_H * LY_W;
#endif
    const ct_elem *wg = weight + g * LY_COUTG * FF_K;

    for (int t = tid; t < TILE_N; t += FF_NT) {
        const int n = n0 + t < FF_N ? n0 + t : 0;
        const int b = n / FF_OHW, p = n - b * FF_OHW;
        const int oy = p / LY_OW, ox = p - oy * LY_OW;
        ff_pix q;
        q.pad = 0;
        q.iy = oy * LY_SY - LY_PH;
        q.ix = ox * LY_SX - LY_PW;
#if LY_CL
        q.base = ((b * LY_H + q.iy) * LY_W + q.ix) * LY_CIN;
#else
        q.base = (b * LY_CIN * LY_H + q.iy) * LY_W + q.ix;
#endif
        if (n0 + t >= FF_N)
            q.iy = FF_NOWHERE;
        s_pix[t] = q;
    }

    // A warp covers WX x WY threads of the TX x TY grid: its 128-bit
    // fragment loads of a k touch WX (B) and WY (A) runs of 16 bytes, one
    // wavefront each.
    const int lane = tid % 32, warp = tid / 32;
    const int tx = lane % FF_WX + FF_WX * (warp % (FF_TX / FF_WX));
    const int ty = lane / FF_WX + FF_WY * (warp / (FF_TX / FF_WX));
    float acc[THREAD_M][THREAD_N];
#pragma unroll
    for (int r = 0; r < FF_RM; ++r)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
#if LY_BIAS
            const int co = m0 + r * FF_TY * 4 + ty * 4 + e;
            const float bv = co < LY_COUTG ? ct_ldg(bias + g * LY_COUTG + co) : 0.0f;
#else
            const float bv = 0.0f;
#endif
#pragma unroll
            for (int j = 0; j < THREAD_N; ++j)
                acc[r * 4 + e][j] = bv;
        }
    __syncthreads();

    float ra[FF_AL], rb[FF_BL];
    ff_load(ra, rb, xg, wg, s_pix, m0, 0);
    ff_store(s_a[0], s_b[0], ra, rb);
    __syncthreads();
#pragma unroll 1
    for (int c = 0; c < FF_NCH; ++c) {
        if (c + 1 < FF_NCH)
            ff_load(ra, rb, xg, wg, s_pix, m0, c + 1);
        const float *sa = s_a[c & 1] + ty * 4, *sb = s_b[c & 1] + tx * 4;
#pragma unroll
        for (int kk = 0; kk < CHUNK_K; ++kk) {
            float a[THREAD_M], bb[THREAD_N];
#pragma unroll
            for (int r = 0; r < FF_RM; ++r) {
                const float4 v = *reinterpret_cast<const float4 *>(sa + kk * FF_AP + r * FF_TY * 4);
                a[r * 4] = v.x, a[r * 4 + 1] = v.y, a[r * 4 + 2] = v.z, a[r * 4 + 3] = v.w;
            }
#pragma unroll
            for (int s = 0; s < FF_RN; ++s) {
                const float4 v = *reinterpret_cast<const float4 *>(sb + kk * FF_BP + s * FF_TX * 4);
                bb[s * 4] = v.x, bb[s * 4 + 1] = v.y, bb[s * 4 + 2] = v.z, bb[s * 4 + 3] = v.w;
            }
#pragma unroll
            for (int i = 0; i < THREAD_M; ++i)
#pragma unroll
                for (int j = 0; j < THREAD_N; ++j)
                    acc[i][j] = fmaf(a[i], bb[j], acc[i][j]);
        }
        // The other stage was released by the barrier that ended chunk c-1.
        if (c + 1 < FF_NCH)
            ff_store(s_a[(c + 1) & 1], s_b[(c + 1) & 1], ra, rb);
        __syncthreads();
    }

#pragma unroll
    for (int r = 0; r < FF_RM; ++r)
#pragma unroll
        for (int s = 0; s < FF_RN; ++s) {
            const int cb = m0 + r * FF_TY * 4 + ty * 4;   // first of 4 channels
            const int nb = n0 + s * FF_TX * 4 + tx * 4;   // first of 4 pixels
#if LY_CL
            // Per pixel, its 4 channels: one vector where COUTG % 4 == 0.
#pragma unroll
            for (int f = 0; f < 4; ++f) {
                const int n = nb + f;
                if (n >= FF_N)
                    break;
                ct_elem *o = out + (long long)n * LY_COUT + g * LY_COUTG + cb;
                if (FF_V4) {
                    if (cb < LY_COUTG)
                        *reinterpret_cast<float4 *>(o) =
                            make_float4(acc[r * 4][s * 4 + f], acc[r * 4 + 1][s * 4 + f], acc[r * 4 + 2][s * 4 + f],
                                        acc[r * 4 + 3][s * 4 + f]);
                } else {
#pragma unroll
                    for (int e = 0; e < 4; ++e)
                        if (cb + e < LY_COUTG)
                            ct_st(o + e, acc[r * 4 + e][s * 4 + f]);
                }
            }
#else
            // Per channel, its 4 pixels: one vector where OH x OW % 4 == 0
            // (the 4 then lie in one image, in a row of memory).
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int co = cb + e;
                if (co >= LY_COUTG)
                    break;
                const long long plane = (long long)g * LY_COUTG + co;
                if (FF_V4) {
                    if (nb < FF_N) {
                        const int b = nb / FF_OHW, p = nb - b * FF_OHW;
                        *reinterpret_cast<float4 *>(out + ((long long)b * LY_COUT + plane) * FF_OHW + p) =
                            make_float4(acc[r * 4 + e][s * 4], acc[r * 4 + e][s * 4 + 1], acc[r * 4 + e][s * 4 + 2],
                                        acc[r * 4 + e][s * 4 + 3]);
                    }
                } else {
#pragma unroll
                    for (int f = 0; f < 4; ++f) {
                        const int n = nb + f;
                        if (n >= FF_N)
                            break;
                        const int b = n / FF_OHW, p = n - b * FF_OHW;
                        ct_st(out + ((long long)b * LY_COUT + plane) * FF_OHW + p, acc[r * 4 + e][s * 4 + f]);
                    }
                }
            }
#endif
        }
}
