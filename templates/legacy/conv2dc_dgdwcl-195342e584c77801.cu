// conv2dc_dgdwcl: the input gradient (dgrad) of a depthwise conv2dc layer
// in the channels-last layout, every element type; see ct_dwcl_bwd.cuh.
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
#define DB_NAME conv2dc_dgdwcl
// ct_dwcl_bwd.cuh: the training passes of a depthwise layer (groups = Cin =
// Cout) in the channels-last layout (NHWC, and NLC as a 2D layer of height
// 1), read through the LY_* names of FAMILY_as2d.cuh: one source for
// conv1dc and conv2dc, every element type (fp32 sums), any stride,
// dilation and padding.
//
// Both passes stream: a thread owns VEC consecutive channels (one 16-, 8-,
// 4- or 2-byte load along C, a warp covering consecutive channels of a
// pixel and then the next pixels, all contiguous in NHWC) and a run of
// POS_PER_THREAD consecutive positions along W, walked CHUNK positions at a
// time: each step loads only the window entries no earlier step loaded, so
// a thread reads each of its entries once and the register window slides
// (the compiler renames the registers of a fully unrolled run). Entries no
// tap reads (stride, dilation) are never loaded. Taps and sums are fp32.
//
// dgrad (DB_NAME(dout, weight, din)): dx[b][yy][xx][c] = sum over i, j of
//   dy[b][y][x][c] * w[c][i][j], y = (yy + PH - i*DY) / SY, x = (xx + PW -
//   j*DX) / SX where both divide (no zero insertion). A block stages the
//   taps of its CHANNEL_THREADS x VEC channels in shared memory, tap-major,
//   so that a row's KW x VEC taps are vector loads; a thread walks the
//   filter rows i at run time (rows that do not divide are skipped) and,
//   per row, its run's dy window along x: with the run's start a multiple
//   of SX (POS_PER_THREAD % SX == 0), which taps meet which window entry is
//   known at compile time.
//
// wgrad (DB_NAME(in, dout, ws), then DB_REDUCE_NAME(ws, dweight)): a thread
//   owns VEC channels and the KW taps of ROWS_PER_THREAD filter rows i =
//   g x ROWS_PER_THREAD + r (g = threadIdx.y, the row group; rows past KH
//   of the last group idle), so its sums are ROWS x KW x VEC registers;
//   threadIdx.z is one of WORKERS threads that share a channel slice and a
//   row group. A worker walks ITEMS runs (b, y, a run of POS_PER_THREAD
//   outputs of row y), consecutive workers taking consecutive runs, so that
//   the row groups and the workers read the same dy and overlapping x rows
//   from L1 at about the same time. Each run loads its dy once (each dy
//   vector feeds ROWS x KW x VEC FMAs) and, per filter row, the x window
//   ((P-1) x SX + (KW-1) x DX + 1 entries) once, sliding it in registers.
//   The bias gradient is the g = 0 threads' sum of dy.
//
//   Accuracy (fp32 problems within 1e-5 of fp64 over 16k-100k-term sums):
//   a thread sums at most ITEMS x POS_PER_THREAD products in fp32; the
//   WORKERS sums of a block are added in fp32 in worker order (shared
//   memory, one tap at a time); each block writes its partial sums to its
//   slice of the workspace (ws[split][tap][c], then ws[split][KH*KW][c] for
//   the bias), and the reduce kernel adds the splits of each weight in
//   fp64 in a fixed order (8 interleaved chains, then the chains in order).
//   No atomics: every run gives the same bits.
//
//   With DY_ROWS > 1 (2D register blocking, W2_* below) an item is DY_ROWS
//   dy rows x a run, and each x row the thread loads feeds every pair of dy
//   row and filter row it meets; ITEMS counts dy row runs (ITEMS / DY_ROWS
//   items a worker), so the fp32 sums' bound is the same.
//
// Tuning macros: VEC, CHANNEL_THREADS, POS_PER_THREAD, CHUNK, and
// POS_THREADS (dgrad) or WORKERS, ITEMS, ROWS_PER_THREAD, DY_ROWS (wgrad)
// (dwclbwd_conv.c).
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
// ct_vec_io.cuh: moves of VEC consecutive channels of a channels-last
// tensor (NHWC, NLC) between memory and float registers, for the kernels
// whose thread owns VEC channels (templates/kernels/dwclf, dwclbwd): one
// load or store of at most 16 bytes along C, elements widened to float when
// they leave global memory and rounded once when they are stored, so that
// every element type (ct_dtype.cuh) runs the fp32 arithmetic.
//
// VEC (1, 2, 4 or 8) is the including kernel's tuning macro; the pointers
// are VEC-element aligned (the kernel asserts that VEC divides C).
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

#ifndef CT_VEC_IO_CUH
#define CT_VEC_IO_CUH

static_assert(VEC == 1 || VEC == 2 || VEC == 4 || VEC == 8, "VEC is 1, 2, 4 or 8");
static_assert(VEC * sizeof(ct_elem) <= 16, "a vector of channels is one load of at most 16 bytes");

// The VEC channels at p (VEC-element aligned) in one load, widened to float.
__device__ __forceinline__ void ct_vec_load(float (&v)[VEC], const ct_elem *__restrict__ p)
{
#if CT_DTYPE == CT_DTYPE_F32
#if VEC == 4
    const float4 q = __ldg(reinterpret_cast<const float4 *>(p));
    v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
#elif VEC == 2
    const float2 q = __ldg(reinterpret_cast<const float2 *>(p));
    v[0] = q.x; v[1] = q.y;
#else
    v[0] = __ldg(p);
#endif
#else
#if VEC == 8
    __align__(16) ct_elem2 h[4];
    *reinterpret_cast<uint4 *>(h) = __ldg(reinterpret_cast<const uint4 *>(p));
#elif VEC == 4
    __align__(8) ct_elem2 h[2];
    *reinterpret_cast<uint2 *>(h) = __ldg(reinterpret_cast<const uint2 *>(p));
#elif VEC == 2
    __align__(4) ct_elem2 h[1];
    *reinterpret_cast<unsigned *>(h) = __ldg(reinterpret_cast<const unsigned *>(p));
#endif
#if VEC >= 2
#pragma unroll
    for (int k = 0; k < VEC / 2; ++k) {
        const float2 f = ct_ld2(&h[k]);
        v[2 * k] = f.x;
        v[2 * k + 1] = f.y;
    }
#else
    v[0] = ct_ldg(p);
#endif
#endif
}

// ct_vec_load where ok, zeros elsewhere (padding, positions past the layer).
__device__ __forceinline__ void ct_vec_load_or_zero(float (&v)[VEC], const ct_elem *__restrict__ p, bool ok)
{
    if (ok) {
        ct_vec_load(v, p);
    } else {
#pragma unroll
        for (int e = 0; e < VEC; ++e)
            v[e] = 0.0f;
    }
}

// The store of VEC channels, rounded once to the element type.
__device__ __forceinline__ void ct_vec_store_rounded(ct_elem *p, const float (&v)[VEC])
{
#if CT_DTYPE == CT_DTYPE_F32
#if VEC == 4
    *reinterpret_cast<float4 *>(p) = make_float4(v[0], v[1], v[2], v[3]);
#elif VEC == 2
    *reinterpret_cast<float2 *>(p) = make_float2(v[0], v[1]);
#else
    *p = v[0];
#endif
#elif VEC >= 2
    __align__(16) ct_elem2 h[VEC / 2];
#pragma unroll
    for (int k = 0; k < VEC / 2; ++k)
        ct_st2(&h[k], make_float2(v[2 * k], v[2 * k + 1]));
#if VEC == 8
    *reinterpret_cast<uint4 *>(p) = *reinterpret_cast<const uint4 *>(h);
#elif VEC == 4
    *reinterpret_cast<uint2 *>(p) = *reinterpret_cast<const uint2 *>(h);
#else
    *reinterpret_cast<unsigned *>(p) = *reinterpret_cast<const unsigned *>(h);
#endif
#else
    ct_st(p, v[0]);
#endif
}

// VEC floats from shared memory (VEC-float aligned).
__device__ __forceinline__ void ct_vec_load_shared(float (&v)[VEC], const float *p)
{
#if VEC >= 4
#pragma unroll
    for (int k = 0; k < VEC / 4; ++k) {
        const float4 q = reinterpret_cast<const float4 *>(p)[k];
        v[4 * k] = q.x; v[4 * k + 1] = q.y; v[4 * k + 2] = q.z; v[4 * k + 3] = q.w;
    }
#elif VEC == 2
    const float2 q = *reinterpret_cast<const float2 *>(p);
    v[0] = q.x; v[1] = q.y;
#else
    v[0] = *p;
#endif
}

#endif

static_assert(LY_CL, "channels-last (nhwc, nlc) layers only");
static_assert(LY_GROUPS == LY_CIN && LY_COUT == LY_CIN, "depthwise layers only");
static_assert(LY_CIN % VEC == 0, "VEC must divide the channels (aligned vectors)");
static_assert(POS_PER_THREAD % CHUNK == 0, "CHUNK must divide POS_PER_THREAD");

#define DB_C LY_CIN
#define DB_P POS_PER_THREAD
#define DB_NCV (DB_C / VEC)                                     // channel vectors of a pixel
#define DB_CT CHANNEL_THREADS
#define DB_NCB ((DB_NCV + DB_CT - 1) / DB_CT)                  // channel slices
#define DB_CW (DB_CT * VEC)                                     // channels of a slice
#define DB_TAPS (LY_KH * LY_KW)

// Floor division and its remainder, for window offsets that may be negative.
__device__ __forceinline__ constexpr int db_fdiv(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
__device__ __forceinline__ constexpr int db_fmod(int a, int b) { return a - db_fdiv(a, b) * b; }

#if LY_PASS == 1
// ---- dgrad ----

static_assert(DB_P % LY_SX == 0, "a run starts at a multiple of the stride");
#define DG_NRUN ((LY_W + DB_P - 1) / DB_P)                      // runs of a row of dx
#define DG_RUNS ((long long)LY_B * LY_H * DG_NRUN)
#define DG_WLO db_fdiv(LY_PW - (LY_KW - 1) * LY_DX, LY_SX)      // dy column of window entry 0, past xx0 / SX
#define DG_NWIN (db_fdiv(DB_P - 1 + LY_PW, LY_SX) - DG_WLO + 1) // window entries of a run

// The last window entry the positions of step ch read.
__device__ __forceinline__ constexpr int dg_hi(int ch) { return db_fdiv((ch + 1) * CHUNK - 1 + LY_PW, LY_SX) - DG_WLO; }

// Whether a tap reads window entry t (others are never loaded).
__device__ __forceinline__ constexpr bool dg_used(int t)
{
    for (int k = 0; k < DB_P; ++k)
        for (int j = 0; j < LY_KW; ++j) {
            const int n = k + LY_PW - j * LY_DX;
            if (db_fmod(n, LY_SX) == 0 && db_fdiv(n, LY_SX) - DG_WLO == t)
                return true;
        }
    return false;
}

extern "C" __global__ void __launch_bounds__(CHANNEL_THREADS * POS_THREADS)
DB_NAME(const ct_elem *__restrict__ dout, const ct_elem *__restrict__ weight, ct_elem *__restrict__ din)
{
    __shared__ __align__(16) float s_w[DB_TAPS * DB_CW];   // [tap][channel of the slice]
    const int cb = blockIdx.x % DB_NCB;
    const int tid = threadIdx.y * CHANNEL_THREADS + threadIdx.x;
    // Read in the weights' order (coalesced), written tap-major.
    for (int e = tid; e < DB_TAPS * DB_CW; e += CHANNEL_THREADS * POS_THREADS) {
        const int tap = e % DB_TAPS, cl = e / DB_TAPS, c = cb * DB_CW + cl;
        s_w[tap * DB_CW + cl] = c < DB_C ? ct_ldg(weight + (long long)c * DB_TAPS + tap) : 0.0f;
    }
    __syncthreads();
    const int cv = cb * CHANNEL_THREADS + threadIdx.x;
    const long long run = (long long)(blockIdx.x / DB_NCB) * POS_THREADS + threadIdx.y;
    if (cv >= DB_NCV || run >= DG_RUNS)
        return;
    const int xr = (int)(run % DG_NRUN);
    const int yy = (int)(run / DG_NRUN % LY_H);
    const int b = (int)(run / ((long long)DG_NRUN * LY_H));
    const int xx0 = xr * DB_P, c0 = cv * VEC, cl0 = threadIdx.x * VEC;
    const int ox0 = xx0 / LY_SX + DG_WLO;   // dy column of window entry 0 (xx0 is a multiple of SX)

    float acc[DB_P][VEC];
#pragma unroll
    for (int k = 0; k < DB_P; ++k)
#pragma unroll
        for (int e = 0; e < VEC; ++e)
            acc[k][e] = 0.0f;

#pragma unroll 1
    for (int i = 0; i < LY_KH; ++i) {
        const int ny = yy + LY_PH - i * LY_DY;
        if (ny < 0 || ny % LY_SY != 0 || ny / LY_SY >= LY_OH)
            continue;
        const ct_elem *row = dout + ((long long)b * LY_OH + ny / LY_SY) * LY_OW * DB_C + c0;
        float wt[LY_KW][VEC];
#pragma unroll
        for (int j = 0; j < LY_KW; ++j)
            ct_vec_load_shared(wt[j], &s_w[(i * LY_KW + j) * DB_CW + cl0]);
        float win[DG_NWIN][VEC];
#pragma unroll
        for (int ch = 0; ch < DB_P / CHUNK; ++ch) {
            // Constant trip counts, so that every loop unrolls and each
            // test folds once the enclosing ones are unrolled.
#pragma unroll
            for (int t = 0; t < DG_NWIN; ++t)
                if (t > (ch == 0 ? -1 : dg_hi(ch - 1)) && t <= dg_hi(ch) &&
                    ((LY_SX == 1 && LY_DX == 1) || dg_used(t))) {
                    const int ox = ox0 + t;
                    ct_vec_load_or_zero(win[t], row + (long long)ox * DB_C, ox >= 0 && ox < LY_OW);
                }
#pragma unroll
            for (int o = 0; o < CHUNK; ++o)
#pragma unroll
                for (int j = 0; j < LY_KW; ++j) {
                    const int k = ch * CHUNK + o;
                    const int n = k + LY_PW - j * LY_DX;
                    if (db_fmod(n, LY_SX) == 0) {
                        const int t = db_fdiv(n, LY_SX) - DG_WLO;
#pragma unroll
                        for (int e = 0; e < VEC; ++e)
                            acc[k][e] = fmaf(wt[j][e], win[t][e], acc[k][e]);
                    }
                }
        }
    }
    ct_elem *dst = din + ((long long)b * LY_H + yy) * LY_W * DB_C + c0;
#pragma unroll
    for (int k = 0; k < DB_P; ++k)
        if (xx0 + k < LY_W)
            ct_vec_store_rounded(dst + (long long)(xx0 + k) * DB_C, acc[k]);
}

#elif LY_PASS == 2
// ---- wgrad ----

#define WG_NRUN ((LY_OW + DB_P - 1) / DB_P)                     // runs of a row of dy
#define WG_RY DY_ROWS                                           // dy rows of an item (2D blocking past 1)
#define WG_NTY ((LY_OH + WG_RY - 1) / WG_RY)                    // items along the dy rows
#define WG_ITEMS ((long long)LY_B * WG_NTY * WG_NRUN)           // items of a channel slice
#define WG_IT (ITEMS / WG_RY)                                   // items of a worker (ITEMS counts dy row runs)
#define WG_PER_SPLIT ((long long)WORKERS * WG_IT)
#define WG_NSPLIT ((WG_ITEMS + WG_PER_SPLIT - 1) / WG_PER_SPLIT)
#define WG_NWX ((DB_P - 1) * LY_SX + (LY_KW - 1) * LY_DX + 1)   // x window entries of a run
#define WG_ROWS (DB_TAPS + (LY_BIAS ? 1 : 0))                   // workspace rows of a split (taps, bias)
#define WG_COUNT ((long long)WG_ROWS * DB_C)                    // workspace floats of a split
#define WG_R ROWS_PER_THREAD                                    // filter rows of a thread
#define WG_NRG ((LY_KH + WG_R - 1) / WG_R)                      // row groups: block y
static_assert(ROWS_PER_THREAD >= 1 && ROWS_PER_THREAD <= LY_KH, "ROWS_PER_THREAD in 1..KH");
static_assert(DY_ROWS >= 1 && DY_ROWS <= LY_OH, "DY_ROWS in 1..OH");
static_assert(ITEMS % DY_ROWS == 0 && ITEMS >= DY_ROWS, "ITEMS is a multiple of DY_ROWS");

// The last x window entry the positions of step ch read.
__device__ __forceinline__ constexpr int wg_hi(int ch) { return ((ch + 1) * CHUNK - 1) * LY_SX + (LY_KW - 1) * LY_DX; }

// Whether a tap reads x window entry t (others are never loaded).
__device__ __forceinline__ constexpr bool wg_used(int t)
{
    for (int k = 0; k < DB_P; ++k)
        for (int j = 0; j < LY_KW; ++j)
            if (k * LY_SX + j * LY_DX == t)
                return true;
    return false;
}

#if DY_ROWS > 1
// 2D register blocking (DY_ROWS > 1): an item is DY_ROWS dy rows x a run
// of POS_PER_THREAD positions. Its x rows are the offsets u = a x SY + r x
// DY of dy row a and filter row r (rows no pair meets are never loaded):
// each x row slides a circular window of W2_NB slots in registers, and at
// each dy position the thread loads the DY_ROWS dy vectors and the SX new
// entries of each x row, then adds DY_ROWS x ROWS x KW x VEC products: an x
// entry feeds every (a, r) pair of its row, a dy vector every filter row.
// The run is a runtime loop of unrolled periods of W2_PER positions (W2_PER
// x SX = W2_NB: the slot of an entry is a constant within the period), so
// a long run pays the window's first entries once, not per position.
#define W2_SPAN ((LY_KW - 1) * LY_DX + 1)                      // x entries one position's taps span
#define W2_PER ((W2_SPAN + LY_SX - 1) / LY_SX)                 // positions of an unrolled period
#define W2_NB (W2_PER * LY_SX)                                 // slots of an x row's window
#define W2_NU ((WG_RY - 1) * LY_SY + (WG_R - 1) * LY_DY + 1)   // x row offsets of an item
static_assert(DB_P % W2_PER == 0 || DB_P < W2_PER, "a run is whole periods, or one shorter period");

// Whether x row offset u meets a pair of dy row a and filter row r.
__device__ __forceinline__ constexpr bool w2_row_used(int u)
{
    for (int a = 0; a < WG_RY; ++a)
        for (int r = 0; r < WG_R; ++r)
            if (a * LY_SY + r * LY_DY == u)
                return true;
    return false;
}

// Whether the x entry o columns past position k's first (k x SX) is read by
// a tap of position k or a later one (o - j x DX a multiple of SX, >= 0):
// entries no tap reads (stride, dilation) are never loaded.
__device__ __forceinline__ constexpr bool w2_need(int o)
{
    for (int j = 0; j < LY_KW; ++j)
        if (o - j * LY_DX >= 0 && (o - j * LY_DX) % LY_SX == 0)
            return true;
    return false;
}

// Position k's loads (k may be past the run: its dy is then zero): the
// DY_ROWS dy vectors (nd) and the SX new entries k x SX + W2_SPAN - SX + q
// of each x row a pair meets (nx[u][q]; those no tap reads are skipped).
// xb, dyb: the item's element offsets of x at (its row offset 0, column
// xc0) and of dy at (its first row, column x0).
__device__ __forceinline__ void w2_fetch(float (&nd)[WG_RY][VEC], float (&nx)[W2_NU][LY_SX][VEC],
                                         const ct_elem *__restrict__ in, const ct_elem *__restrict__ dout,
                                         long long xb, long long dyb, int xc0, int x0, int k,
                                         const bool (&xok)[W2_NU], const bool (&dok)[WG_RY])
{
#pragma unroll
    for (int q = 0; q < LY_SX; ++q) {
        const int o = W2_SPAN - LY_SX + q;
        if (w2_need(o)) {
            const int t = k * LY_SX + o;
            const bool cok = xc0 + t >= 0 && xc0 + t < LY_W;
#pragma unroll
            for (int u = 0; u < W2_NU; ++u)
                if (w2_row_used(u))
                    ct_vec_load_or_zero(nx[u][q], in + xb + ((long long)u * LY_W + t) * DB_C, cok && xok[u]);
        }
    }
    const bool pok = k < DB_P && x0 + k < LY_OW;
#pragma unroll
    for (int a = 0; a < WG_RY; ++a)
        ct_vec_load_or_zero(nd[a], dout + dyb + ((long long)a * LY_OW + k) * DB_C, pok && dok[a]);
}
#endif

// The block's WORKERS sums of VEC channels (v), added in worker order into
// the w = 0 threads' result; every thread of the block calls it.
__device__ __forceinline__ void wg_block_sum(float *s_red, float (&v)[VEC], int w, int slot)
{
    __syncthreads();   // the previous round's reads are done
#pragma unroll
    for (int e = 0; e < VEC; ++e)
        s_red[(w * WG_NRG * DB_CT + slot) * VEC + e] = v[e];
    __syncthreads();
    if (w == 0)
        for (int o = 1; o < WORKERS; ++o)
#pragma unroll
            for (int e = 0; e < VEC; ++e)
                v[e] += s_red[(o * WG_NRG * DB_CT + slot) * VEC + e];
}

// A thread owns VEC channels and the KW taps of WG_R filter rows (i = g *
// WG_R + r, those under KH): each dy vector it loads feeds WG_R x KW x VEC
// FMAs, and each filter row slides its own x window in registers.
extern "C" __global__ void __launch_bounds__(CHANNEL_THREADS * WG_NRG * WORKERS)
DB_NAME(const ct_elem *__restrict__ in, const ct_elem *__restrict__ dout, float *__restrict__ ws)
{
    __shared__ __align__(16) float s_red[WORKERS * WG_NRG * DB_CT * VEC];
    const int split = blockIdx.x, cb = blockIdx.y;
    const int g = threadIdx.y, w = threadIdx.z;
    const int cv = cb * CHANNEL_THREADS + threadIdx.x;
    const bool live = cv < DB_NCV;   // threads past the channels join the block sums only
    const int c0 = (live ? cv : 0) * VEC;
    const bool bias = LY_BIAS && g == 0;

    float acc[WG_R][LY_KW][VEC], accb[VEC];
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
        accb[e] = 0.0f;
#pragma unroll
        for (int r = 0; r < WG_R; ++r)
#pragma unroll
            for (int j = 0; j < LY_KW; ++j)
                acc[r][j][e] = 0.0f;
    }

#if DY_ROWS == 1
#pragma unroll 1
    for (int it = 0; it < WG_IT && live; ++it) {
        const long long item = split * WG_PER_SPLIT + (long long)it * WORKERS + w;
        if (item >= WG_ITEMS)
            break;
        const int xr = (int)(item % WG_NRUN);
        const int y = (int)(item / WG_NRUN % LY_OH);
        const int b = (int)(item / ((long long)WG_NRUN * LY_OH));
        const int x0 = xr * DB_P;
        const int xc0 = x0 * LY_SX - LY_PW;   // x column of window entry 0
        // The x row of each of the thread's filter rows, and whether it is
        // inside the layer (a padding row or a row past KH adds nothing).
        bool rowok[WG_R], anyok = false;
        long long xoff[WG_R];
#pragma unroll
        for (int r = 0; r < WG_R; ++r) {
            const int i = g * WG_R + r;
            const int yy = y * LY_SY + i * LY_DY - LY_PH;
            rowok[r] = i < LY_KH && yy >= 0 && yy < LY_H;
            xoff[r] = rowok[r] ? (((long long)b * LY_H + yy) * LY_W * DB_C + c0) : 0;
            anyok = anyok || rowok[r];
        }
        if (!anyok && !bias)
            continue;
        const ct_elem *drow = dout + ((long long)b * LY_OH + y) * LY_OW * DB_C + c0;
        if (!anyok) {   // padding rows only: the bias alone
#pragma unroll
            for (int k = 0; k < DB_P; ++k) {
                float d[VEC];
                ct_vec_load_or_zero(d, drow + (long long)(x0 + k) * DB_C, x0 + k < LY_OW);
#pragma unroll
                for (int e = 0; e < VEC; ++e)
                    accb[e] += d[e];
            }
            continue;
        }
        float xw[WG_R][WG_NWX][VEC];
#pragma unroll
        for (int ch = 0; ch < DB_P / CHUNK; ++ch) {
            float d[CHUNK][VEC];
#pragma unroll
            for (int o = 0; o < CHUNK; ++o) {
                const int k = ch * CHUNK + o;
                ct_vec_load_or_zero(d[o], drow + (long long)(x0 + k) * DB_C, x0 + k < LY_OW);
            }
#pragma unroll
            for (int r = 0; r < WG_R; ++r) {
                if (!rowok[r])
                    continue;
                const ct_elem *xrow = in + xoff[r];
#pragma unroll
                for (int t = 0; t < WG_NWX; ++t)
                    if (t > (ch == 0 ? -1 : wg_hi(ch - 1)) && t <= wg_hi(ch) &&
                        ((LY_SX == 1 && LY_DX == 1) || wg_used(t))) {
                        const int xc = xc0 + t;
                        ct_vec_load_or_zero(xw[r][t], xrow + (long long)xc * DB_C, xc >= 0 && xc < LY_W);
                    }
#pragma unroll
                for (int o = 0; o < CHUNK; ++o) {
                    const int k = ch * CHUNK + o;
#pragma unroll
                    for (int j = 0; j < LY_KW; ++j)
#pragma unroll
                        for (int e = 0; e < VEC; ++e)
                            acc[r][j][e] = fmaf(d[o][e], xw[r][k * LY_SX + j * LY_DX][e], acc[r][j][e]);
                }
            }
            if (bias)
#pragma unroll
                for (int o = 0; o < CHUNK; ++o)
#pragma unroll
                    for (int e = 0; e < VEC; ++e)
                        accb[e] += d[o][e];
        }
    }

#else
#pragma unroll 1
    for (int it = 0; it < WG_IT && live; ++it) {
        const long long item = split * WG_PER_SPLIT + (long long)it * WORKERS + w;
        if (item >= WG_ITEMS)
            break;
        const int xr = (int)(item % WG_NRUN);
        const int y0 = (int)(item / WG_NRUN % WG_NTY) * WG_RY;
        const int b = (int)(item / ((long long)WG_NRUN * WG_NTY));
        const int x0 = xr * DB_P;
        const int xc0 = x0 * LY_SX - LY_PW;                        // x column of window entry 0
        const int yy0 = y0 * LY_SY + g * WG_R * LY_DY - LY_PH;    // x row of offset u = 0
        // Element offsets of x at (row yy0, column xc0) and of dy at (row
        // y0, column x0); rows and columns outside the layer are never read.
        const long long xb = (((long long)b * LY_H + yy0) * LY_W + xc0) * DB_C + c0;
        const long long dyb = (((long long)b * LY_OH + y0) * LY_OW + x0) * DB_C + c0;
        bool xok[W2_NU], dok[WG_RY];
#pragma unroll
        for (int u = 0; u < W2_NU; ++u)
            xok[u] = yy0 + u >= 0 && yy0 + u < LY_H;
#pragma unroll
        for (int a = 0; a < WG_RY; ++a)
            dok[a] = y0 + a < LY_OH;
        float xw[W2_NU][W2_NB][VEC];
        // The entries position 0's taps read before its own step's loads.
#pragma unroll
        for (int t = 0; t < W2_SPAN - LY_SX; ++t)
            if (w2_need(t)) {
                const bool cok = xc0 + t >= 0 && xc0 + t < LY_W;
#pragma unroll
                for (int u = 0; u < W2_NU; ++u)
                    if (w2_row_used(u))
                        ct_vec_load_or_zero(xw[u][t], in + xb + ((long long)u * LY_W + t) * DB_C, cok && xok[u]);
            }
        // Position 0's loads; each step then issues the next position's
        // before its own FMAs, so that they are in flight meanwhile.
        float nd[WG_RY][VEC], nx[W2_NU][LY_SX][VEC];
        w2_fetch(nd, nx, in, dout, xb, dyb, xc0, x0, 0, xok, dok);
#pragma unroll 1
        for (int k0 = 0; k0 < DB_P && x0 + k0 < LY_OW; k0 += W2_PER) {
#pragma unroll
            for (int s = 0; s < W2_PER; ++s) {
                if (DB_P < W2_PER && s >= DB_P)
                    continue;   // a run shorter than a period: its steps only
                const int k = k0 + s;
                // The step's new x entries (k x SX + o) into their slots, its
                // dy vectors, then position k + 1's loads.
                float d[WG_RY][VEC];
#pragma unroll
                for (int q = 0; q < LY_SX; ++q)
                    if (w2_need(W2_SPAN - LY_SX + q))
#pragma unroll
                        for (int u = 0; u < W2_NU; ++u)
                            if (w2_row_used(u))
#pragma unroll
                                for (int e = 0; e < VEC; ++e)
                                    xw[u][db_fmod(s * LY_SX + W2_SPAN - LY_SX + q, W2_NB)][e] = nx[u][q][e];
#pragma unroll
                for (int a = 0; a < WG_RY; ++a)
#pragma unroll
                    for (int e = 0; e < VEC; ++e)
                        d[a][e] = nd[a][e];
                w2_fetch(nd, nx, in, dout, xb, dyb, xc0, x0, k + 1, xok, dok);
#pragma unroll
                for (int a = 0; a < WG_RY; ++a)
#pragma unroll
                    for (int r = 0; r < WG_R; ++r)
#pragma unroll
                        for (int j = 0; j < LY_KW; ++j) {
                            const float(&xv)[VEC] = xw[a * LY_SY + r * LY_DY][(s * LY_SX + j * LY_DX) % W2_NB];
#pragma unroll
                            for (int e = 0; e < VEC; ++e)
                                acc[r][j][e] = fmaf(d[a][e], xv[e], acc[r][j][e]);
                        }
                if (bias)
#pragma unroll
                    for (int a = 0; a < WG_RY; ++a)
#pragma unroll
                        for (int e = 0; e < VEC; ++e)
                            accb[e] += d[a][e];
            }
        }
    }
#endif

    // The block's sums, tap by tap, then the split's partial sums into ws.
    float *part = ws + (long long)split * WG_COUNT + c0;
    const int slot = g * DB_CT + threadIdx.x;
#pragma unroll
    for (int r = 0; r < WG_R; ++r) {
        const int i = g * WG_R + r;
#pragma unroll
        for (int j = 0; j < LY_KW; ++j) {
            wg_block_sum(s_red, acc[r][j], w, slot);
            if (w == 0 && live && i < LY_KH)
#pragma unroll
                for (int e = 0; e < VEC; ++e)
                    part[(long long)(i * LY_KW + j) * DB_C + e] = acc[r][j][e];
        }
    }
#if LY_BIAS
    wg_block_sum(s_red, accb, w, slot);
    if (w == 0 && live && g == 0)
#pragma unroll
        for (int e = 0; e < VEC; ++e)
            part[(long long)DB_TAPS * DB_C + e] = accb[e];
#endif
}

// dweight[c][tap] (then dbias[c]) = the splits' partial sums ws[s][tap][c]
// added in fp64 in a fixed order: a block of 256 threads takes 32
// consecutive entries (a warp reads 128 contiguous bytes of a split); its 8
// warps sum the splits s = g, g + 8, ... of them in split order, then warp
// 0 adds the 8 sums in warp order. Many short chains keep the loads of
// every split in flight, where one thread per weight would wait on a
// chain of hundreds of dependent loads.
#define WG_RED_GROUPS 8
extern "C" __global__ void __launch_bounds__(256)
DB_REDUCE_NAME(const float *__restrict__ ws, ct_elem *__restrict__ dweight)
{
    __shared__ double s_sum[WG_RED_GROUPS][32];
    const int lane = threadIdx.x % 32, g = threadIdx.x / 32;
    const long long o = (long long)blockIdx.x * 32 + lane;
    double sum = 0.0;
    if (o < WG_COUNT)
#pragma unroll 4
        for (long long s = g; s < WG_NSPLIT; s += WG_RED_GROUPS)
            sum += (double)ws[s * WG_COUNT + o];
    s_sum[g][lane] = sum;
    __syncthreads();
    if (g != 0 || o >= WG_COUNT)
        return;
    for (int k = 1; k < WG_RED_GROUPS; ++k)
        sum += s_sum[k][lane];
    const long long tap = o / DB_C, c = o % DB_C;
    ct_st(dweight + (tap < DB_TAPS ? c * DB_TAPS + tap : (long long)DB_TAPS * DB_C + c), (float)sum);
}
#endif
