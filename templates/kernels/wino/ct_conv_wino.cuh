// ct_conv_wino.cuh: the forward pass of a dense or grouped 3x3 layer of
// stride 1 and dilation 1 by Winograd's F(2x2, 3x3) on the FMA units (fp32
// sums; bf16/f16 elements widened as they load), in one kernel. Included by
// FAMILY_wino through FAMILY_as2d.cuh (the layer as LY_* macros).
//
// The output is cut into 2x2 tiles (n: image, tile row, tile column; the
// last row and column of tiles may reach past the output), each computed
// from its 4x4 input patch d (zeros outside the image):
//   V = B^T d B, U = G g G^T (per output and input channel), 4x4 each,
//   M[xi] = sum over the group's input channels of U[xi] * V[xi] (xi: the
//   16 positions of the 4x4 transforms), Y = A^T M A (the 2x2 outputs),
// with B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1], G = [1 0 0; .5 .5 .5;
// .5 -.5 .5; 0 0 1], A^T = [1 1 1 0; 0 1 -1 -1]: 16 multiplies for 4
// outputs and an input channel where the direct method spends 36 (2.25x
// fewer); the transforms cost additions (and halvings of the weights).
//
// Per position xi the sum is a GEMM (M = COUTG, N = tiles, K = CING). A
// block owns TILE_M output channels x TILE_N tiles for all 16 positions
// (grid: tile blocks, channel blocks, groups); its threads are 16 sets,
// one per position, of TX x TY threads that each own THREAD_M x THREAD_N
// sums of their position (runs of 4 channels and 4 tiles, as in the
// ffma kind: 128-bit shared fragment loads, outer products unrolled). The
// block walks the input channels CHUNK_K at a time: every thread gathers
// its share of the chunk's raw patches (16 elements each) and 3x3 filters
// into registers while the previous chunk's products run, then (after a
// barrier) transforms them into the shared stage, laid out [xi][k][m] and
// [xi][k][n]. At the end the sums go through shared memory, in rounds of
// up to 4 channels per thread (as many as the stages hold), so that a
// thread can gather the 16 positions of a (channel, tile) and store its
// 2x2 outputs, adding bias.
//
// Problem macros (FAMILY_as2d.cuh): LY_B, LY_CIN, LY_COUT, LY_GROUPS,
// LY_CING, LY_COUTG, LY_H, LY_W, LY_OH, LY_OW, LY_PH, LY_PW, LY_BIAS, LY_CL
// (KH = KW = 3, stride and dilation 1: the host refuses other layers);
// WN_NAME the kernel's name. Tuning macros (powers of two; wino_conv.c
// keeps every compiled candidate inside these rules):
//   TILE_M, TILE_N       the block: output channels x 2x2 output tiles
//   THREAD_M, THREAD_N   sums per thread of its position (4 or 8 each)
//   CHUNK_K              input channels staged at a time
//   MIN_BLOCKS           blocks an SM the launch bounds ask for at least
//                        (2: a block's transforms overlap another's
//                        products, in fewer registers a thread)
//   STAGES               1: one stage, two barriers a chunk (the next
//                        chunk stored after every thread's products);
//                        2: two stages, one barrier a chunk, so that warps
//                        drift apart and one's transforms overlap
//                        another's products (a block's shared memory
//                        over 48 KiB is one dynamic array)
//   FPRE                 1: the filters transformed once a call by a prep
//                        kernel (WN_NAME_fprep) into a workspace that the
//                        main kernel takes in place of the weights, as the
//                        stage wants U (its fill 16-byte copies); 0: each
//                        block transforms its filters as it stages them
// Indices are 32-bit: the host refuses layers of 2^31 elements or more.

#include "ct_dtype.cuh"

#include "wino_sizes.cuh"

// The derived sizes (wino_sizes.cuh, which the tuner's model reads too).
#define WN_CDIV(a, b) WINO_CDIV(a, b)
#define WN_TH WINO_TILES_OF(LY_OH)                 // tile rows
#define WN_TW WINO_TILES_OF(LY_OW)                 // tile columns
#define WN_NTL (LY_B * WN_TH * WN_TW)              // tiles
#define WN_TX WINO_TX(TILE_N, THREAD_N)
#define WN_TY WINO_TY(TILE_M, THREAD_M)
#define WN_TS (WN_TX * WN_TY)                      // threads of one position
#define WN_NT WINO_NT(WN_TX, WN_TY)
#define WN_RM (THREAD_M / 4)
#define WN_RN (THREAD_N / 4)
#define WN_NCH WN_CDIV(LY_CING, CHUNK_K)
#define WN_MTILES WN_CDIV(LY_COUTG, TILE_M)        // grid y
#define WN_NTILES WN_CDIV(WN_NTL, TILE_N)          // grid x
#if FPRE
#define WN_AP TILE_M                               // floats per k row of U (copied: no k-fastest stores)
#else
#define WN_AP WINO_AP(TILE_M)                      // floats per k row of U
#endif
#define WN_BP WINO_BP(TILE_N)                      // and of V
#if FPRE
#define WN_UPL WINO_UPLF(CHUNK_K, TILE_M)          // floats per position plane of U
#else
#define WN_UPL WINO_UPL(CHUNK_K, TILE_M)           // floats per position plane of U
#endif
#define WN_VPL WINO_VPL(CHUNK_K, TILE_N)           // and of V
#define WN_STAGE WINO_STAGE(WN_UPL, WN_VPL)
#define WN_EP WINO_EP(TILE_N)                      // the epilogue's rows
#define WN_EPL WINO_EPL(WN_TY, WN_EP)              // and planes, per channel of a thread
// Channels of a thread a round of the output transform: as many (4, 2, 1)
// as the stages hold, fewer rounds and barriers.
#define WN_ER (16 * 4 * WN_EPL <= STAGES * WN_STAGE ? 4 : 16 * 2 * WN_EPL <= STAGES * WN_STAGE ? 2 : 1)
#define WN_PI WINO_PI(CHUNK_K, TILE_N, WN_NT)      // patches a thread gathers a chunk
#define WN_PW WINO_PW(CHUNK_K, TILE_M, WN_NT)      // filters
// Registers a thread needs; launch bounds as in ct_conv_ffma.cuh: whole
// warps a scheduler, 1024 threads an SM.
#if FPRE
#define WN_U4 WINO_U4(CHUNK_K, TILE_M)             // float4 of U a position and chunk
#define WN_UI WINO_UI(CHUNK_K, TILE_M, WN_TS)      // float4 a thread copies a chunk
#define WN_REGS WINO_REGSF(THREAD_M, THREAD_N, WN_PI, WN_UI)
#else
#define WN_REGS WINO_REGS(THREAD_M, THREAD_N, WN_PI, WN_PW)
#endif
#define WN_MINB WINO_MINB_D(WINO_MINB(WINO_MINB_A(WINO_MINB_R(WN_REGS, WN_NT), MIN_BLOCKS), WN_NT), WN_SMEM)
#define WN_NOWHERE (-(1 << 24))
#define WN_SMEM WINO_SMEM(STAGES, WN_STAGE, TILE_N)  // bytes: the stages and the tile table
#define WN_DYN WINO_DYN(WN_SMEM)                   // 1: one dynamic array (over 48 KiB)

static_assert(WN_NT % 32 == 0 && WN_NT <= 1024, "whole warps, at most 1024 threads");
static_assert(STAGES == 1 || STAGES == 2, "one or two stages");
static_assert((THREAD_M == 4 || THREAD_M == 8) && (THREAD_N == 4 || THREAD_N == 8), "runs of 4 a thread");
static_assert(16 * WN_EPL <= WN_STAGE, "the epilogue's planes fit the stage");
static_assert(WN_STAGE % 4 == 0, "the tile table after the stages, 16-byte aligned");
#if FPRE
static_assert(WN_UPL % 4 == 0 && TILE_M % 4 == 0, "U copied into its planes 16 bytes at a time");
#endif

struct __align__(16) wn_pix {
    int base, iy, ix, pad;
};

// Chunk c's raw patches (16 elements: rows iy..iy+3, columns ix..ix+3 of
// channel k) and 3x3 filters into registers, zeros outside the layer.
// Patches: NCHW consecutive threads on consecutive tiles, NHWC on
// consecutive channels; filters: consecutive threads on consecutive
// input channels.
#if FPRE
// With FPRE=1 the filter items are the chunk's float4 of U (the prep
// kernel's workspace from wg, the block's channels and group): the TS
// threads of a position copy its plane, float4 q0, q0 + TS, ... (q0 the
// thread's place among them), a constant stride apart in both memories,
// consecutive threads on consecutive 16 bytes.
__device__ __forceinline__ void wn_load(float (&rd)[WN_PI][16], float4 (&rg)[WN_UI], const ct_elem *__restrict__ xg,
                                        const float4 *__restrict__ wg, const wn_pix *pix, int m0, int c)
#else
__device__ __forceinline__ void wn_load(float (&rd)[WN_PI][16], float (&rg)[WN_PW][9], const ct_elem *__restrict__ xg,
                                        const ct_elem *__restrict__ wg, const wn_pix *pix, int m0, int c)
#endif
{
    const int tid = threadIdx.x;
#pragma unroll
    for (int r = 0; r < WN_PI; ++r) {
        const int p = tid + r * WN_NT;
        const int kl = LY_CL ? p % CHUNK_K : p / TILE_N, nl = LY_CL ? p / CHUNK_K : p % TILE_N;
        const int k = c * CHUNK_K + kl;
        const bool live = (CHUNK_K * TILE_N % WN_NT == 0 || p < CHUNK_K * TILE_N) &&
                          (LY_CING % CHUNK_K == 0 || k < LY_CING);
        const wn_pix q = pix[live ? nl : 0];
#if LY_CL
        const ct_elem *src = xg + q.base + k;
#else
        const ct_elem *src = xg + q.base + k * LY_H * LY_W;
#endif
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const bool ok = live && (unsigned)(q.iy + i) < (unsigned)LY_H && (unsigned)(q.ix + j) < (unsigned)LY_W;
                rd[r][i * 4 + j] = ok ? ct_ldg(src + (LY_CL ? (i * LY_W + j) * LY_CIN : i * LY_W + j)) : 0.0f;
            }
    }
#if FPRE
    (void)m0;
    const int xi = tid / WN_TS, q0 = tid % WN_TS;
    const float4 *src = wg + c * 16 * WN_U4 + xi * WN_U4 + q0;
#pragma unroll
    for (int r = 0; r < WN_UI; ++r) {
        if (WN_U4 % WN_TS != 0 && q0 + r * WN_TS >= WN_U4)
            break;
        rg[r] = __ldg(src + r * WN_TS);
    }
#else
#pragma unroll
    for (int r = 0; r < WN_PW; ++r) {
        const int p = tid + r * WN_NT;
        const int kl = p % CHUNK_K, ml = p / CHUNK_K;
        const int k = c * CHUNK_K + kl, m = m0 + ml;
        const bool ok = (CHUNK_K * TILE_M % WN_NT == 0 || p < CHUNK_K * TILE_M) &&
                        (LY_CING % CHUNK_K == 0 || k < LY_CING) && (LY_COUTG % TILE_M == 0 || m < LY_COUTG);
        const ct_elem *src = wg + (m * LY_CING + k) * 9;
#pragma unroll
        for (int t = 0; t < 9; ++t)
            rg[r][t] = ok ? ct_ldg(src + t) : 0.0f;
    }
#endif
}

// The registers of wn_load, transformed (V = B^T d B, U = G g G^T), into
// the stage: U [xi][k][m], V [xi][k][n].
#if FPRE
__device__ __forceinline__ void wn_store(float *su, float *sv, const float (&rd)[WN_PI][16], const float4 (&rg)[WN_UI])
#else
__device__ __forceinline__ void wn_store(float *su, float *sv, const float (&rd)[WN_PI][16], const float (&rg)[WN_PW][9])
#endif
{
    const int tid = threadIdx.x;
#if FPRE
    // U as it came ([xi][k][m], k rows of TILE_M floats: a plane's rows
    // contiguous) into the thread's position's padded plane, wn_load's
    // items; first, so that their registers are free before the patches'
    // transforms.
    {
        const int xi = tid / WN_TS, q0 = tid % WN_TS;
        float *dst = su + xi * WN_UPL + q0 * 4;
#pragma unroll
        for (int r = 0; r < WN_UI; ++r) {
            if (WN_U4 % WN_TS != 0 && q0 + r * WN_TS >= WN_U4)
                break;
            *reinterpret_cast<float4 *>(dst + r * WN_TS * 4) = rg[r];
        }
    }
#endif
#pragma unroll
    for (int r = 0; r < WN_PI; ++r) {
        const int p = tid + r * WN_NT;
        if (CHUNK_K * TILE_N % WN_NT != 0 && p >= CHUNK_K * TILE_N)
            break;
        const int kl = LY_CL ? p % CHUNK_K : p / TILE_N, nl = LY_CL ? p / CHUNK_K : p % TILE_N;
        const float *d = rd[r];
        float t[16], v[16];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            t[0 * 4 + j] = d[0 * 4 + j] - d[2 * 4 + j];
            t[1 * 4 + j] = d[1 * 4 + j] + d[2 * 4 + j];
            t[2 * 4 + j] = d[2 * 4 + j] - d[1 * 4 + j];
            t[3 * 4 + j] = d[1 * 4 + j] - d[3 * 4 + j];
        }
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            v[i * 4 + 0] = t[i * 4 + 0] - t[i * 4 + 2];
            v[i * 4 + 1] = t[i * 4 + 1] + t[i * 4 + 2];
            v[i * 4 + 2] = t[i * 4 + 2] - t[i * 4 + 1];
            v[i * 4 + 3] = t[i * 4 + 1] - t[i * 4 + 3];
        }
#pragma unroll
        for (int x = 0; x < 16; ++x)
            sv[x * WN_VPL + kl * WN_BP + nl] = v[x];
    }
#if !FPRE
#pragma unroll
    for (int r = 0; r < WN_PW; ++r) {
        const int p = tid + r * WN_NT;
        if (CHUNK_K * TILE_M % WN_NT != 0 && p >= CHUNK_K * TILE_M)
            break;
        const int kl = p % CHUNK_K, ml = p / CHUNK_K;
        const float *g = rg[r];
        float a[12], u[16];
#pragma unroll
        for (int j = 0; j < 3; ++j) {   // G g: 4 rows of 3
            a[0 * 3 + j] = g[0 * 3 + j];
            a[1 * 3 + j] = 0.5f * (g[0 * 3 + j] + g[1 * 3 + j] + g[2 * 3 + j]);
            a[2 * 3 + j] = 0.5f * (g[0 * 3 + j] - g[1 * 3 + j] + g[2 * 3 + j]);
            a[3 * 3 + j] = g[2 * 3 + j];
        }
#pragma unroll
        for (int i = 0; i < 4; ++i) {   // (G g) G^T
            u[i * 4 + 0] = a[i * 3 + 0];
            u[i * 4 + 1] = 0.5f * (a[i * 3 + 0] + a[i * 3 + 1] + a[i * 3 + 2]);
            u[i * 4 + 2] = 0.5f * (a[i * 3 + 0] - a[i * 3 + 1] + a[i * 3 + 2]);
            u[i * 4 + 3] = a[i * 3 + 2];
        }
#pragma unroll
        for (int x = 0; x < 16; ++x)
            su[x * WN_UPL + kl * WN_AP + ml] = u[x];
    }
#endif
}

#if FPRE
#define WN_CAT2(a, b) a##b
#define WN_CAT(a, b) WN_CAT2(a, b)
#define WN_NFILT (LY_GROUPS * WN_MTILES * WN_NCH * CHUNK_K * TILE_M)   // the workspace's filters (k, m)
// The prep kernel of FPRE=1, launched before the main kernel on every call
// (WINO_PREP_NT threads a block, one filter each; its name pasted from
// WN_NAME, so that a family export's renaming of the main kernel renames
// it too): U = G g G^T of every filter into the workspace, for group g,
// channel block mb and chunk c the block of 16 x CHUNK_K x TILE_M floats
// at ((g MTILES + mb) NCH + c) x 16 CHUNK_K TILE_M, [xi][k][m]; zeros for
// the channels past the group's (the stage's rows of FPRE=0). The same
// operations as wn_store's, so both compute the same sums.
extern "C" __global__ void __launch_bounds__(WINO_PREP_NT)
WN_CAT(WN_NAME, _fprep)(const ct_elem *__restrict__ weight, float *__restrict__ uw)
{
    const int i = blockIdx.x * WINO_PREP_NT + threadIdx.x;
    if (i >= WN_NFILT)
        return;
    const int ml = i % TILE_M, kl = i / TILE_M % CHUNK_K, blk = i / (TILE_M * CHUNK_K);
    const int c = blk % WN_NCH, mb = blk / WN_NCH % WN_MTILES, g = blk / (WN_NCH * WN_MTILES);
    const int k = c * CHUNK_K + kl, m = mb * TILE_M + ml;
    const bool ok = k < LY_CING && m < LY_COUTG;
    const ct_elem *src = weight + ((g * LY_COUTG + (ok ? m : 0)) * LY_CING + (ok ? k : 0)) * 9;
    float gg[9], a[12], u[16];
#pragma unroll
    for (int t = 0; t < 9; ++t)
        gg[t] = ok ? ct_ldg(src + t) : 0.0f;
#pragma unroll
    for (int j = 0; j < 3; ++j) {   // G g: 4 rows of 3
        a[0 * 3 + j] = gg[0 * 3 + j];
        a[1 * 3 + j] = 0.5f * (gg[0 * 3 + j] + gg[1 * 3 + j] + gg[2 * 3 + j]);
        a[2 * 3 + j] = 0.5f * (gg[0 * 3 + j] - gg[1 * 3 + j] + gg[2 * 3 + j]);
        a[3 * 3 + j] = gg[2 * 3 + j];
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {   // (G g) G^T
        u[r * 4 + 0] = a[r * 3 + 0];
        u[r * 4 + 1] = 0.5f * (a[r * 3 + 0] + a[r * 3 + 1] + a[r * 3 + 2]);
        u[r * 4 + 2] = 0.5f * (a[r * 3 + 0] - a[r * 3 + 1] + a[r * 3 + 2]);
        u[r * 4 + 3] = a[r * 3 + 2];
    }
    float *dst = uw + blk * 16 * CHUNK_K * TILE_M + kl * TILE_M + ml;   // consecutive threads on consecutive m
#pragma unroll
    for (int x = 0; x < 16; ++x)
        dst[x * CHUNK_K * TILE_M] = u[x];
}
#endif

extern "C" __global__ void __launch_bounds__(WN_NT, WN_MINB)
WN_NAME(const ct_elem *__restrict__ in,
#if FPRE
        const float *__restrict__ uw,   // the prep kernel's workspace
#else
        const ct_elem *__restrict__ weight,
#endif
#if LY_BIAS
        const ct_elem *__restrict__ bias,
#endif
        ct_elem *__restrict__ out)
{
#if WN_DYN
    // Over 48 KiB: the stages, then the tile table, in the dynamic shared
    // memory wino_conv.c's launch sizes.
    extern __shared__ __align__(16) float smem[];
    float *const s_stage = smem;
    wn_pix *const s_pix = reinterpret_cast<wn_pix *>(smem + STAGES * WN_STAGE);
#else
    __shared__ __align__(16) float s_stage[STAGES * WN_STAGE];
    __shared__ wn_pix s_pix[TILE_N];
#endif

    const int tid = threadIdx.x;
    const int n0 = blockIdx.x * TILE_N, m0 = blockIdx.y * TILE_M, g = blockIdx.z;
#if LY_CL
    const ct_elem *xg = in + g * LY_CING;
#else
    const ct_elem *xg = in + g * LY_CING * LY_H * LY_W;
#endif
#if FPRE
    const float4 *wg = reinterpret_cast<const float4 *>(uw) + (g * WN_MTILES + blockIdx.y) * WN_NCH * 16 * WN_U4;
#else
    const ct_elem *wg = weight + g * LY_COUTG * LY_CING * 9;
#endif

    for (int t = tid; t < TILE_N; t += WN_NT) {
        const int n = n0 + t < WN_NTL ? n0 + t : 0;
        const int b = n / (WN_TH * WN_TW), p = n - b * (WN_TH * WN_TW);
        const int ty = p / WN_TW, tx = p - ty * WN_TW;
        wn_pix q;
        q.pad = 0;
        q.iy = 2 * ty - LY_PH;
        q.ix = 2 * tx - LY_PW;
#if LY_CL
        q.base = ((b * LY_H + q.iy) * LY_W + q.ix) * LY_CIN;
#else
        q.base = (b * LY_CIN * LY_H + q.iy) * LY_W + q.ix;
#endif
        if (n0 + t >= WN_NTL)
            q.iy = WN_NOWHERE;
        s_pix[t] = q;
    }

    // The thread's position and its place in that position's TX x TY grid
    // (a warp: 8 x 4 of them, or two positions' 4 x 4).
    const int xi = tid / WN_TS, loc = tid % WN_TS;
    const int tx = loc % WN_TX, ty = loc / WN_TX;
    float acc[THREAD_M][THREAD_N];
#pragma unroll
    for (int i = 0; i < THREAD_M; ++i)
#pragma unroll
        for (int j = 0; j < THREAD_N; ++j)
            acc[i][j] = 0.0f;
    __syncthreads();

#if FPRE
    float rd[WN_PI][16];
    float4 rg[WN_UI];
#else
    float rd[WN_PI][16], rg[WN_PW][9];
#endif
    wn_load(rd, rg, xg, wg, s_pix, m0, 0);
    wn_store(s_stage, s_stage + 16 * WN_UPL, rd, rg);
    __syncthreads();
#pragma unroll 1
    for (int c = 0; c < WN_NCH; ++c) {
        if (c + 1 < WN_NCH)
            wn_load(rd, rg, xg, wg, s_pix, m0, c + 1);
        const float *su = s_stage + (STAGES == 2 ? (c & 1) * WN_STAGE : 0), *sv = su + 16 * WN_UPL;
        const float *pa = su + xi * WN_UPL + ty * 4, *pb = sv + xi * WN_VPL + tx * 4;
#pragma unroll
        for (int kk = 0; kk < CHUNK_K; ++kk) {
            float a[THREAD_M], bb[THREAD_N];
#pragma unroll
            for (int r = 0; r < WN_RM; ++r) {
                const float4 v = *reinterpret_cast<const float4 *>(pa + kk * WN_AP + r * WN_TY * 4);
                a[r * 4] = v.x, a[r * 4 + 1] = v.y, a[r * 4 + 2] = v.z, a[r * 4 + 3] = v.w;
            }
#pragma unroll
            for (int s = 0; s < WN_RN; ++s) {
                const float4 v = *reinterpret_cast<const float4 *>(pb + kk * WN_BP + s * WN_TX * 4);
                bb[s * 4] = v.x, bb[s * 4 + 1] = v.y, bb[s * 4 + 2] = v.z, bb[s * 4 + 3] = v.w;
            }
#pragma unroll
            for (int i = 0; i < THREAD_M; ++i)
#pragma unroll
                for (int j = 0; j < THREAD_N; ++j)
                    acc[i][j] = fmaf(a[i], bb[j], acc[i][j]);
        }
#if STAGES == 2
        // The other stage was released by the barrier that ended chunk c-1.
        if (c + 1 < WN_NCH) {
            float *nu = s_stage + ((c + 1) & 1) * WN_STAGE;
            wn_store(nu, nu + 16 * WN_UPL, rd, rg);
        }
        __syncthreads();
#else
        __syncthreads();   // every thread is done with the stage
        if (c + 1 < WN_NCH) {
            wn_store(s_stage, s_stage + 16 * WN_UPL, rd, rg);
            __syncthreads();
        }
#endif
    }

    // Output transform, THREAD_M / ER rounds: in a round each thread puts
    // its sums of ER channels (of its runs) in the plane of its position,
    // rows e x TY + ty; then each (row, tile) pair gathers its 16 positions.
    // (Unrolled: the sums stay in registers, indexed by constants.)
    float *const se = s_stage;
#pragma unroll
    for (int q = 0; q < THREAD_M / WN_ER; ++q) {
#pragma unroll
        for (int e = 0; e < WN_ER; ++e)
#pragma unroll
            for (int j = 0; j < THREAD_N; ++j)
                se[xi * WN_ER * WN_EPL + (e * WN_TY + ty) * WN_EP + (j / 4) * WN_TX * 4 + tx * 4 + j % 4] =
                    acc[q * WN_ER + e][j];
        __syncthreads();
        for (int pr = tid; pr < WN_ER * WN_TY * TILE_N; pr += WN_NT) {
            const int rl = pr / TILE_N, nl = pr % TILE_N, n = n0 + nl;
            const int i = q * WN_ER + rl / WN_TY, yl = rl % WN_TY;
            const int co = m0 + (i / 4) * WN_TY * 4 + yl * 4 + i % 4;
            if (n < WN_NTL && co < LY_COUTG) {
                float m[16];
#pragma unroll
                for (int x = 0; x < 16; ++x)
                    m[x] = se[x * WN_ER * WN_EPL + rl * WN_EP + nl];
                float s0[4], s1[4];
#pragma unroll
                for (int j = 0; j < 4; ++j) {   // A^T M: rows
                    s0[j] = m[0 * 4 + j] + m[1 * 4 + j] + m[2 * 4 + j];
                    s1[j] = m[1 * 4 + j] - m[2 * 4 + j] - m[3 * 4 + j];
                }
#if LY_BIAS
                const float bv = ct_ldg(bias + g * LY_COUTG + co);
#else
                const float bv = 0.0f;
#endif
                const float y[4] = {s0[0] + s0[1] + s0[2] + bv, s0[1] - s0[2] - s0[3] + bv,
                                    s1[0] + s1[1] + s1[2] + bv, s1[1] - s1[2] - s1[3] + bv};
                const int b = n / (WN_TH * WN_TW), p = n - b * (WN_TH * WN_TW);
                const int oy = 2 * (p / WN_TW), ox = 2 * (p - (p / WN_TW) * WN_TW);
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const int yy = oy + e / 2, xx = ox + e % 2;
                    if (yy < LY_OH && xx < LY_OW) {
#if LY_CL
                        ct_st(out + ((long long)(b * LY_OH + yy) * LY_OW + xx) * LY_COUT + g * LY_COUTG + co, y[e]);
#else
                        ct_st(out + ((long long)(b * LY_COUT + g * LY_COUTG + co) * LY_OH + yy) * LY_OW + xx, y[e]);
#endif
                    }
                }
            }
        }
        __syncthreads();
    }
}
