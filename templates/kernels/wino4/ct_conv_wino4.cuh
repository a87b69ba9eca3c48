// ct_conv_wino4.cuh: the forward pass of a dense or grouped 3x3 layer of
// stride 1 and dilation 1 by Winograd's F(4x4, 3x3) on the FMA units (fp32
// sums; bf16/f16 elements widened as they load), in one kernel. Included by
// FAMILY_wino4 through FAMILY_as2d.cuh (the layer as LY_* macros).
//
// The output is cut into 4x4 tiles (n: image, tile row, tile column; the
// last row and column of tiles may reach past the output), each computed
// from its 6x6 input patch d (zeros outside the image):
//   V = B^T d B, U = G g G^T (per output and input channel), 6x6 each,
//   M[xi] = sum over the group's input channels of U[xi] * V[xi] (xi: the
//   36 positions of the 6x6 transforms), Y = A^T M A (the 4x4 outputs),
// with the points 0, 1, -1, 2, -2 and infinity:
//   B^T = [4 0 -5 0 1 0; 0 -4 -4 1 1 0; 0 4 -4 -1 1 0; 0 -2 -1 2 1 0;
//          0 2 -1 -2 1 0; 0 4 0 -5 0 1],
//   G = [1/4 0 0; -1/6 -1/6 -1/6; -1/6 1/6 -1/6; 1/24 1/12 1/6;
//        1/24 -1/12 1/6; 0 0 1],
//   A^T = [1 1 1 1 1 0; 0 1 -1 2 -2 0; 0 1 1 4 4 0; 0 1 -1 8 -8 1]:
// 36 multiplies for 16 outputs and an input channel where the direct
// method spends 144 (4x fewer; F(2x2, 3x3), the wino kind, 2.25x), the
// transforms costing additions and a few FMAs by small constants. The
// larger coefficients round more than F(2x2)'s: the replay measures fp32
// against fp64 (relative L2 about 1e-6, within the 1e-5 of fp32).
//
// Per position xi the sum is a GEMM (M = COUTG, N = tiles, K = CING). A
// block owns TILE_M output channels x TILE_N tiles for all 36 positions
// (grid: tile blocks, channel blocks, groups); its threads are 36 sets,
// one per position, of TX x TY threads (8 or 16: a quarter warp reads one
// position's fragments) that each own THREAD_M x THREAD_N sums of their
// position (runs of 4 channels and 4 tiles: 128-bit shared fragment loads,
// outer products unrolled, as the wino and ffma kinds). The block walks
// the input channels CHUNK_K at a time: some threads gather the chunk's
// raw patches (36 elements each), the next ones its 3x3 filters (two sets
// of threads where they fit the block, so that the two transforms run side
// by side, on the warps of the schedulers with fewer products), transform
// them (V = B^T d B, U = G g G^T) and store them into a shared stage, laid
// out [xi][k][m] and [xi][k][n] (the stages in dynamic shared memory: up
// to 64 KiB on sm_75). PREFETCH=1 gathers the next chunk into registers
// during this chunk's products (more registers); PREFETCH=0 after them.
// With STAGES=2 the transforms of the next chunk go into the other stage
// right after a thread's products, one barrier a chunk: the warps that
// transform run behind the others, which move on to the next chunk's
// products. At the end the sums go through shared memory, in rounds of up
// to 4 channels per thread (as many as the stages hold), so that a thread
// can gather the 36 positions of a (channel, tile) and store its 4x4
// outputs, adding bias.
//
// Problem macros (FAMILY_as2d.cuh): LY_B, LY_CIN, LY_COUT, LY_GROUPS,
// LY_CING, LY_COUTG, LY_H, LY_W, LY_OH, LY_OW, LY_PH, LY_PW, LY_BIAS, LY_CL
// (KH = KW = 3, stride and dilation 1: the host refuses other layers);
// W4_NAME the kernel's name. Tuning macros (powers of two; wino4_conv.c
// keeps every compiled candidate inside these rules):
//   TILE_M, TILE_N       the block: output channels x 4x4 output tiles
//   THREAD_M, THREAD_N   sums per thread of its position (4 or 8 each)
//   CHUNK_K              input channels staged at a time
//   PREFETCH             1: the next chunk's loads in flight during the
//                        products; 0: after them
//   STAGES               1: one stage, two barriers a chunk; 2: two
//                        stages, one barrier
//   MIN_BLOCKS           blocks an SM the launch bounds ask for
//   FPRE                 1: the filters transformed once a call by a prep
//                        kernel (W4_NAME_fprep) into a workspace that the
//                        main kernel takes in place of the weights, as the
//                        stage wants U' (its fill 16-byte copies); 0: each
//                        block transforms its filters as it stages them
// Indices are 32-bit: the host refuses layers of 2^31 elements or more.

#include "ct_dtype.cuh"

// The derived sizes (wino4_sizes.cuh, which the tuner's model reads too).
#include "wino4_sizes.cuh"
#define W4_CDIV(a, b) WINO4_CDIV(a, b)
#define W4_TH WINO4_TILES_OF(LY_OH)                // tile rows
#define W4_TW WINO4_TILES_OF(LY_OW)                // tile columns
#define W4_NTL WINO4_NTL(LY_B, W4_TH, W4_TW)       // tiles
#define W4_TX WINO4_TX(TILE_N, THREAD_N)
#define W4_TY WINO4_TY(TILE_M, THREAD_M)
#define W4_TS WINO4_TS(W4_TX, W4_TY)               // threads of one position
#define W4_NT WINO4_NT(W4_TS)
#define W4_RM (THREAD_M / 4)
#define W4_RN (THREAD_N / 4)
#define W4_NCH W4_CDIV(LY_CING, CHUNK_K)
#define W4_MTILES WINO4_MTILES(LY_COUTG, TILE_M)   // grid y
#define W4_NTILES WINO4_NTILES(W4_NTL, TILE_N)     // grid x
#if FPRE
#define W4_AP TILE_M                               // floats per k row of U (copied: no k-fastest stores)
#else
#define W4_AP WINO4_AP(TILE_M)                     // floats per k row of U
#endif
#define W4_BP WINO4_BP(TILE_N)                     // and of V
#if FPRE
#define W4_UPL WINO4_UPLF(CHUNK_K, TILE_M, W4_TY)  // floats per position plane of U
#else
#define W4_UPL WINO4_UPL(CHUNK_K, TILE_M, W4_TY)   // floats per position plane of U
#endif
#define W4_VPL WINO4_VPL(CHUNK_K, TILE_N, W4_TX)   // and of V
#define W4_STAGE WINO4_STAGE(W4_UPL, W4_VPL)
#define W4_EP WINO4_EP(TILE_N)                     // the epilogue's rows
#define W4_EPL WINO4_EPL(W4_TY, W4_EP)             // and planes, per channel of a thread
// Channels of a thread a round of the output transform: as many (4, 2, 1)
// as the stages hold.
#define W4_ER WINO4_ER(W4_EPL, STAGES, W4_STAGE)
#define W4_NP (CHUNK_K * TILE_N)                   // patches a chunk
#define W4_NF (CHUNK_K * TILE_M)                   // filters a chunk
#define W4_PI WINO4_PI(CHUNK_K, TILE_N, W4_NT)     // patches a thread gathers a chunk
#define W4_PW WINO4_PW(CHUNK_K, TILE_M, W4_NT)     // filters
#define W4_NOWHERE (-(1 << 24))
#if FPRE
#define W4_U4 WINO4_U4(CHUNK_K, TILE_M)            // float4 of U' a position and chunk
#define W4_NU (36 * W4_U4)                         // and a chunk
#define W4_UI WINO4_UI(CHUNK_K, TILE_M, W4_TS)     // float4 a thread copies a chunk
#endif

static_assert(W4_NT % 32 == 0 && W4_NT <= 1024, "whole warps, at most 1024 threads");
static_assert(W4_TS % 8 == 0, "a quarter warp reads one position");
static_assert(PREFETCH == 0 || PREFETCH == 1, "PREFETCH 0 or 1");
static_assert(STAGES == 1 || STAGES == 2, "one or two stages");
static_assert((THREAD_M == 4 || THREAD_M == 8) && (THREAD_N == 4 || THREAD_N == 8), "runs of 4 a thread");
static_assert(36 * W4_EPL <= STAGES * W4_STAGE, "the epilogue's planes fit the stages");
static_assert(W4_STAGE % 4 == 0, "the tile table after the stages, 16-byte aligned");
#if FPRE
static_assert(W4_UPL % 4 == 0 && TILE_M % 4 == 0, "U' copied into its planes 16 bytes at a time");
#endif

struct __align__(16) w4_pix {
    int base, iy, ix, pad;
};

// The thread's rank among the block's loaders: patch items go to the
// lowest ranks, filter items to the next ones, so that the two transforms
// run side by side on different warps. Warps are ranked so that the first
// ones sit on the SM's schedulers that hold fewer of the block's warps
// (warp w on scheduler w % 4; 9 warps: 3, 2, 1, 7, 6, 5, then 0, 4, 8):
// a scheduler's load is its warps' products plus the transforms they do.
// Lanes keep their order (coalesced loads).
__device__ __forceinline__ int w4_rank()
{
    constexpr int nw = W4_NT / 32, heavy = nw % 4, light = (4 - heavy) * (nw / 4);
    const int w = threadIdx.x / 32, i = w / 4, sc = w % 4;
    const int rw = sc >= heavy ? i * (4 - heavy) + (3 - sc) : light + i * heavy + (heavy - 1 - sc);
    return rw * 32 + threadIdx.x % 32;
}

// The filter items' rank: the ranks after the patches', wrapping.
__device__ __forceinline__ int w4_frank(int rank)
{
    return (rank + W4_NT - W4_NP % W4_NT) % W4_NT;
}

// The patch item p (k, tile) of a chunk: NCHW consecutive items on
// consecutive tiles, NHWC on consecutive channels (coalesced reads).
__device__ __forceinline__ void w4_pitem(int p, int &kl, int &nl)
{
    kl = LY_CL ? p % CHUNK_K : p / TILE_N;
    nl = LY_CL ? p / CHUNK_K : p % TILE_N;
}

// Chunk c's raw patches (36 elements: rows iy..iy+5, columns ix..ix+5 of
// channel k) and 3x3 filters into registers, zeros outside the layer.
// Patch items by rank, filter items after them (consecutive threads on
// consecutive input channels).
#if FPRE
// With FPRE=1 the filter items are the chunk's float4 of U' (the prep
// kernel's workspace from wg, the block's channels and group): the TS
// threads of a position copy its plane, float4 q0, q0 + TS, ... (q0 the
// thread's place among them), so that a thread's items are a constant
// stride apart in both memories (one address and immediate offsets) and
// consecutive threads read consecutive 16 bytes; every thread copies as
// many (some none where a plane has fewer float4 than TS).
__device__ __forceinline__ void w4_load(float (&rd)[W4_PI][36], float4 (&rg)[W4_UI], const ct_elem *__restrict__ xg,
                                        const float4 *__restrict__ wg, const w4_pix *pix, int m0, int c)
#else
__device__ __forceinline__ void w4_load(float (&rd)[W4_PI][36], float (&rg)[W4_PW][9], const ct_elem *__restrict__ xg,
                                        const ct_elem *__restrict__ wg, const w4_pix *pix, int m0, int c)
#endif
{
    const int rank = w4_rank(), frank = w4_frank(rank);
#pragma unroll
    for (int r = 0; r < W4_PI; ++r) {
        const int p = rank + r * W4_NT;
        if (W4_NP % W4_NT != 0 && p >= W4_NP)
            break;   // no item: w4_store skips it too (whole warps where NP is a multiple of 32)
        int kl, nl;
        w4_pitem(p, kl, nl);
        const int k = c * CHUNK_K + kl;
        const bool live = LY_CING % CHUNK_K == 0 || k < LY_CING;
        const w4_pix q = pix[live ? nl : 0];
#if LY_CL
        const ct_elem *src = xg + q.base + k;
#else
        const ct_elem *src = xg + q.base + k * LY_H * LY_W;
#endif
        bool rok[6], cok[6];
#pragma unroll
        for (int i = 0; i < 6; ++i) {
            rok[i] = live && (unsigned)(q.iy + i) < (unsigned)LY_H;
            cok[i] = (unsigned)(q.ix + i) < (unsigned)LY_W;
        }
#if !LY_CL && CT_DTYPE == 0 && LY_W % 4 == 0 && LY_PW % 4 == 1
        // Columns ix+1 .. ix+4 are a 16-byte aligned group of the row (ix + 1
        // a multiple of 4, rows a multiple of 4 wide), inside the image or
        // outside it whole: one vector load and two scalars a row, half the
        // load instructions (and L1 wavefronts) of six scalars.
#pragma unroll
        for (int i = 0; i < 6; ++i) {
            const float *row = src + i * LY_W;
            const float4 v = rok[i] && cok[1] ? __ldg(reinterpret_cast<const float4 *>(row + 1))
                                              : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            rd[r][i * 6] = rok[i] && cok[0] ? __ldg(row) : 0.0f;
            rd[r][i * 6 + 1] = v.x, rd[r][i * 6 + 2] = v.y, rd[r][i * 6 + 3] = v.z, rd[r][i * 6 + 4] = v.w;
            rd[r][i * 6 + 5] = rok[i] && cok[5] ? __ldg(row + 5) : 0.0f;
        }
#else
#pragma unroll
        for (int i = 0; i < 6; ++i)
#pragma unroll
            for (int j = 0; j < 6; ++j)
                rd[r][i * 6 + j] =
                    rok[i] && cok[j] ? ct_ldg(src + (LY_CL ? (i * LY_W + j) * LY_CIN : i * LY_W + j)) : 0.0f;
#endif
    }
#if FPRE
    (void)m0, (void)frank;
    const int xi = threadIdx.x / W4_TS, q0 = threadIdx.x % W4_TS;
    const float4 *src = wg + c * W4_NU + xi * W4_U4 + q0;
#pragma unroll
    for (int r = 0; r < W4_UI; ++r) {
        if (W4_U4 % W4_TS != 0 && q0 + r * W4_TS >= W4_U4)
            break;
        rg[r] = __ldg(src + r * W4_TS);
    }
#else
#pragma unroll
    for (int r = 0; r < W4_PW; ++r) {
        const int p = frank + r * W4_NT;
        if (W4_NF % W4_NT != 0 && p >= W4_NF)
            break;
        const int kl = p % CHUNK_K, ml = p / CHUNK_K;
        const int k = c * CHUNK_K + kl, m = m0 + ml;
        const bool ok = (LY_CING % CHUNK_K == 0 || k < LY_CING) && (LY_COUTG % TILE_M == 0 || m < LY_COUTG);
        const ct_elem *src = wg + (m * LY_CING + k) * 9;
#pragma unroll
        for (int t = 0; t < 9; ++t)
            rg[r][t] = ok ? ct_ldg(src + t) : 0.0f;
    }
#endif
}

// B^T x of a column or row of 6 (12 operations).
__device__ __forceinline__ void w4_bt(float x0, float x1, float x2, float x3, float x4, float x5, float *y, int s)
{
    const float a = fmaf(-4.0f, x2, x4), b = fmaf(-4.0f, x1, x3);
    const float c = x4 - x2, e = x3 - x1;
    y[0 * s] = fmaf(4.0f, x0, fmaf(-5.0f, x2, x4));
    y[1 * s] = a + b;
    y[2 * s] = a - b;
    y[3 * s] = fmaf(2.0f, e, c);
    y[4 * s] = fmaf(-2.0f, e, c);
    y[5 * s] = fmaf(4.0f, x1, fmaf(-5.0f, x3, x5));
}

// G = D G', D = diag(1/4, -1/6, -1/6, 1/24, 1/24, 1), G' = [1 0 0; 1 1 1;
// 1 -1 1; 1 2 4; 1 -2 4; 0 0 1]: the filters are transformed by G' alone
// (6 operations a column where G takes 10), and since U = D U' D scales
// position (i, j) by d_i d_j, so does every sum over the channels: the
// epilogue applies the scale once a (channel, tile) instead of once a
// filter and chunk.
__device__ __forceinline__ constexpr float w4_d(int i)
{
    return i == 0 ? 0.25f : i <= 2 ? -1.0f / 6.0f : i <= 4 ? 1.0f / 24.0f : 1.0f;
}

// G' x of a column or row of 3.
__device__ __forceinline__ void w4_g(float x0, float x1, float x2, float *y, int s)
{
    const float sum = x0 + x2, t = fmaf(4.0f, x2, x0);
    y[0 * s] = x0;
    y[1 * s] = sum + x1;
    y[2 * s] = sum - x1;
    y[3 * s] = fmaf(2.0f, x1, t);
    y[4 * s] = fmaf(-2.0f, x1, t);
    y[5 * s] = x2;
}

// A^T x of a column or row of 6 (10 operations).
__device__ __forceinline__ void w4_at(float x0, float x1, float x2, float x3, float x4, float x5, float *y, int s)
{
    const float p = x1 + x2, q = x1 - x2, u = x3 + x4, t = x3 - x4;
    y[0 * s] = x0 + p + u;
    y[1 * s] = fmaf(2.0f, t, q);
    y[2 * s] = fmaf(4.0f, u, p);
    y[3 * s] = fmaf(8.0f, t, q) + x5;
}

// The registers of w4_load, transformed (V = B^T d B, U' = G' g G'^T), into
// the stage: U' [xi][k][m], V [xi][k][n].
#if FPRE
__device__ __forceinline__ void w4_store(float *su, float *sv, const float (&rd)[W4_PI][36], const float4 (&rg)[W4_UI])
#else
__device__ __forceinline__ void w4_store(float *su, float *sv, const float (&rd)[W4_PI][36], const float (&rg)[W4_PW][9])
#endif
{
    const int rank = w4_rank(), frank = w4_frank(rank);
#if FPRE
    // U' as it came ([xi][k][m], k rows of TILE_M floats: a plane's rows
    // contiguous) into the thread's position's padded plane, w4_load's
    // items; first, so that their registers are free before the patches'
    // transforms.
    (void)frank;
    {
        const int xi = threadIdx.x / W4_TS, q0 = threadIdx.x % W4_TS;
        float *dst = su + xi * W4_UPL + q0 * 4;
#pragma unroll
        for (int r = 0; r < W4_UI; ++r) {
            if (W4_U4 % W4_TS != 0 && q0 + r * W4_TS >= W4_U4)
                break;
            *reinterpret_cast<float4 *>(dst + r * W4_TS * 4) = rg[r];
        }
    }
#endif
#pragma unroll
    for (int r = 0; r < W4_PI; ++r) {
        const int p = rank + r * W4_NT;
        if (W4_NP % W4_NT != 0 && p >= W4_NP)
            break;
        int kl, nl;
        w4_pitem(p, kl, nl);
        const float *d = rd[r];
        float t[36], v[36];
#pragma unroll
        for (int j = 0; j < 6; ++j)   // B^T d: the columns
            w4_bt(d[j], d[6 + j], d[12 + j], d[18 + j], d[24 + j], d[30 + j], t + j, 6);
#pragma unroll
        for (int i = 0; i < 6; ++i)   // (B^T d) B: the rows
            w4_bt(t[i * 6], t[i * 6 + 1], t[i * 6 + 2], t[i * 6 + 3], t[i * 6 + 4], t[i * 6 + 5], v + i * 6, 1);
#pragma unroll
        for (int x = 0; x < 36; ++x)
            sv[x * W4_VPL + kl * W4_BP + nl] = v[x];
    }
#if !FPRE
#pragma unroll
    for (int r = 0; r < W4_PW; ++r) {
        const int p = frank + r * W4_NT;
        if (W4_NF % W4_NT != 0 && p >= W4_NF)
            break;
        const int kl = p % CHUNK_K, ml = p / CHUNK_K;
        const float *g = rg[r];
        float a[18], u[36];
#pragma unroll
        for (int j = 0; j < 3; ++j)   // G' g: 6 rows of 3
            w4_g(g[j], g[3 + j], g[6 + j], a + j, 3);
#pragma unroll
        for (int i = 0; i < 6; ++i)   // (G' g) G'^T
            w4_g(a[i * 3], a[i * 3 + 1], a[i * 3 + 2], u + i * 6, 1);
#pragma unroll
        for (int x = 0; x < 36; ++x)
            su[x * W4_UPL + kl * W4_AP + ml] = u[x];
    }
#endif
}

#if FPRE
#define W4_CAT2(a, b) a##b
#define W4_CAT(a, b) W4_CAT2(a, b)
#define W4_NFILT (LY_GROUPS * W4_MTILES * W4_NCH * CHUNK_K * TILE_M)   // the workspace's filters (k, m)
// The prep kernel of FPRE=1, launched before the main kernel on every call
// (WINO4_PREP_NT threads a block, one filter each; its name pasted from
// W4_NAME, so that a family export's renaming of the main kernel renames
// it too): U' = G' g G'^T of every filter into the workspace, for group
// g, channel block mb and chunk c the block of 36 x CHUNK_K x TILE_M floats
// at ((g MTILES + mb) NCH + c) x 36 CHUNK_K TILE_M, [xi][k][m]; zeros for
// the channels past the group's (the stage's rows of FPRE=0). The same
// transform as w4_store's, so both compute the same sums.
extern "C" __global__ void __launch_bounds__(WINO4_PREP_NT)
W4_CAT(W4_NAME, _fprep)(const ct_elem *__restrict__ weight, float *__restrict__ uw)
{
    const int i = blockIdx.x * WINO4_PREP_NT + threadIdx.x;
    if (i >= W4_NFILT)
        return;
    const int ml = i % TILE_M, kl = i / TILE_M % CHUNK_K, blk = i / (TILE_M * CHUNK_K);
    const int c = blk % W4_NCH, mb = blk / W4_NCH % W4_MTILES, g = blk / (W4_NCH * W4_MTILES);
    const int k = c * CHUNK_K + kl, m = mb * TILE_M + ml;
    const bool ok = k < LY_CING && m < LY_COUTG;
    const ct_elem *src = weight + ((g * LY_COUTG + (ok ? m : 0)) * LY_CING + (ok ? k : 0)) * 9;
    float gg[9], a[18], u[36];
#pragma unroll
    for (int t = 0; t < 9; ++t)
        gg[t] = ok ? ct_ldg(src + t) : 0.0f;
#pragma unroll
    for (int j = 0; j < 3; ++j)   // G' g: 6 rows of 3
        w4_g(gg[j], gg[3 + j], gg[6 + j], a + j, 3);
#pragma unroll
    for (int r = 0; r < 6; ++r)   // (G' g) G'^T
        w4_g(a[r * 3], a[r * 3 + 1], a[r * 3 + 2], u + r * 6, 1);
    float *dst = uw + blk * 36 * CHUNK_K * TILE_M + kl * TILE_M + ml;   // consecutive threads on consecutive m
#pragma unroll
    for (int x = 0; x < 36; ++x)
        dst[x * CHUNK_K * TILE_M] = u[x];
}
#endif

extern "C" __global__ void __launch_bounds__(W4_NT, MIN_BLOCKS)
W4_NAME(const ct_elem *__restrict__ in,
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
    // The stages, then the tile table (wino4_conv.c's launch sizes them).
    extern __shared__ __align__(16) float smem[];
    float *const s_stage = smem;
    w4_pix *const s_pix = reinterpret_cast<w4_pix *>(smem + STAGES * W4_STAGE);

    const int tid = threadIdx.x;
    const int n0 = blockIdx.x * TILE_N, m0 = blockIdx.y * TILE_M, g = blockIdx.z;
#if LY_CL
    const ct_elem *xg = in + g * LY_CING;
#else
    const ct_elem *xg = in + g * LY_CING * LY_H * LY_W;
#endif
#if FPRE
    const float4 *wg = reinterpret_cast<const float4 *>(uw) + (g * W4_MTILES + blockIdx.y) * W4_NCH * W4_NU;
#else
    const ct_elem *wg = weight + g * LY_COUTG * LY_CING * 9;
#endif

    for (int t = tid; t < TILE_N; t += W4_NT) {
        const int n = n0 + t < W4_NTL ? n0 + t : 0;
        const int b = n / (W4_TH * W4_TW), p = n - b * (W4_TH * W4_TW);
        const int ty = p / W4_TW, tx = p - ty * W4_TW;
        w4_pix q;
        q.pad = 0;
        q.iy = 4 * ty - LY_PH;
        q.ix = 4 * tx - LY_PW;
#if LY_CL
        q.base = ((b * LY_H + q.iy) * LY_W + q.ix) * LY_CIN;
#else
        q.base = (b * LY_CIN * LY_H + q.iy) * LY_W + q.ix;
#endif
        if (n0 + t >= W4_NTL)
            q.iy = W4_NOWHERE;
        s_pix[t] = q;
    }

    // The thread's position and its place in that position's TX x TY grid.
    const int xi = tid / W4_TS, loc = tid % W4_TS;
    const int tx = loc % W4_TX, ty = loc / W4_TX;
    float acc[THREAD_M][THREAD_N];
#pragma unroll
    for (int i = 0; i < THREAD_M; ++i)
#pragma unroll
        for (int j = 0; j < THREAD_N; ++j)
            acc[i][j] = 0.0f;
    __syncthreads();

#if FPRE
    float rd[W4_PI][36];
    float4 rg[W4_UI];
#else
    float rd[W4_PI][36], rg[W4_PW][9];
#endif
    w4_load(rd, rg, xg, wg, s_pix, m0, 0);
    w4_store(s_stage, s_stage + 36 * W4_UPL, rd, rg);
    __syncthreads();
#pragma unroll 1
    for (int c = 0; c < W4_NCH; ++c) {
#if PREFETCH
        if (c + 1 < W4_NCH)
            w4_load(rd, rg, xg, wg, s_pix, m0, c + 1);
#endif
        const float *su = s_stage + (STAGES == 2 ? (c & 1) * W4_STAGE : 0), *sv = su + 36 * W4_UPL;
        const float *pa = su + xi * W4_UPL + ty * 4, *pb = sv + xi * W4_VPL + tx * 4;
#pragma unroll
        for (int kk = 0; kk < CHUNK_K; ++kk) {
            float a[THREAD_M], bb[THREAD_N];
#pragma unroll
            for (int r = 0; r < W4_RM; ++r) {
                const float4 v = *reinterpret_cast<const float4 *>(pa + kk * W4_AP + r * W4_TY * 4);
                a[r * 4] = v.x, a[r * 4 + 1] = v.y, a[r * 4 + 2] = v.z, a[r * 4 + 3] = v.w;
            }
#pragma unroll
            for (int s = 0; s < W4_RN; ++s) {
                const float4 v = *reinterpret_cast<const float4 *>(pb + kk * W4_BP + s * W4_TX * 4);
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
        if (c + 1 < W4_NCH) {
#if !PREFETCH
            w4_load(rd, rg, xg, wg, s_pix, m0, c + 1);
#endif
            float *nu = s_stage + ((c + 1) & 1) * W4_STAGE;
            w4_store(nu, nu + 36 * W4_UPL, rd, rg);
        }
        __syncthreads();
#else
        __syncthreads();   // every thread is done with the stage
        if (c + 1 < W4_NCH) {
#if !PREFETCH
            w4_load(rd, rg, xg, wg, s_pix, m0, c + 1);
#endif
            w4_store(s_stage, s_stage + 36 * W4_UPL, rd, rg);
            __syncthreads();
        }
#endif
    }

    // Output transform, THREAD_M / ER rounds: in a round each thread puts
    // its sums of ER channels (of its runs) in the plane of its position,
    // rows e x TY + ty; then each (row, tile) pair gathers its 36 positions.
    // (Unrolled: the sums stay in registers, indexed by constants.)
    float *const se = s_stage;
#pragma unroll
    for (int q = 0; q < THREAD_M / W4_ER; ++q) {
#pragma unroll
        for (int e = 0; e < W4_ER; ++e)
#pragma unroll
            for (int j = 0; j < THREAD_N; ++j)
                se[xi * W4_ER * W4_EPL + (e * W4_TY + ty) * W4_EP + (j / 4) * W4_TX * 4 + tx * 4 + j % 4] =
                    acc[q * W4_ER + e][j];
        __syncthreads();
        for (int pr = tid; pr < W4_ER * W4_TY * TILE_N; pr += W4_NT) {
            const int rl = pr / TILE_N, nl = pr % TILE_N, n = n0 + nl;
            const int i = q * W4_ER + rl / W4_TY, yl = rl % W4_TY;
            const int co = m0 + (i / 4) * W4_TY * 4 + yl * 4 + i % 4;
            if (n < W4_NTL && co < LY_COUTG) {
                float m[36], s[24], y[16];
#pragma unroll
                for (int x = 0; x < 36; ++x)   // M = D M' D
                    m[x] = se[x * W4_ER * W4_EPL + rl * W4_EP + nl] * (w4_d(x / 6) * w4_d(x % 6));
#pragma unroll
                for (int j = 0; j < 6; ++j)   // A^T M: the columns
                    w4_at(m[j], m[6 + j], m[12 + j], m[18 + j], m[24 + j], m[30 + j], s + j, 6);
#pragma unroll
                for (int r = 0; r < 4; ++r)   // (A^T M) A: the rows
                    w4_at(s[r * 6], s[r * 6 + 1], s[r * 6 + 2], s[r * 6 + 3], s[r * 6 + 4], s[r * 6 + 5], y + r * 4,
                          1);
#if LY_BIAS
                const float bv = ct_ldg(bias + g * LY_COUTG + co);
#else
                const float bv = 0.0f;
#endif
                const int b = n / (W4_TH * W4_TW), p = n - b * (W4_TH * W4_TW);
                const int oy = 4 * (p / W4_TW), ox = 4 * (p - (p / W4_TW) * W4_TW);
#pragma unroll
                for (int r = 0; r < 4; ++r) {
                    const int yy = oy + r;
                    if (yy < LY_OH) {
#if LY_CL
#pragma unroll
                        for (int cc = 0; cc < 4; ++cc)
                            if (ox + cc < LY_OW)
                                ct_st(out + ((long long)(b * LY_OH + yy) * LY_OW + ox + cc) * LY_COUT + g * LY_COUTG +
                                          co,
                                      y[r * 4 + cc] + bv);
#else
                        ct_elem *dst = out + ((long long)(b * LY_COUT + g * LY_COUTG + co) * LY_OH + yy) * LY_OW + ox;
#if CT_DTYPE == 0 && LY_OW % 4 == 0
                        // Whole tile rows, 16-byte aligned: one vector store.
                        *reinterpret_cast<float4 *>(dst) =
                            make_float4(y[r * 4] + bv, y[r * 4 + 1] + bv, y[r * 4 + 2] + bv, y[r * 4 + 3] + bv);
#else
#pragma unroll
                        for (int cc = 0; cc < 4; ++cc)
                            if (ox + cc < LY_OW)
                                ct_st(dst + cc, y[r * 4 + cc] + bv);
#endif
#endif
                    }
                }
            }
        }
        __syncthreads();
    }
}
