// conv2dc_tiled: register-blocked multi-channel 2D convolution (the ideas of
// seed 003, each one a tuning parameter).
//
//   out[b][co][y][x] = bias[co] + sum_{ci,i,j} in[b][ci][y+i-PH][x+j-PW] * w[co][ci][i][j]
//
// A block works through GROUPS_PER_BLOCK work items, each IMGS_PER_BLOCK
// images x one tile of TOH x TOW output pixels (the whole image by default),
// and stages each item's input, every channel and the halo, in shared memory
// with zeros for the padding. A thread owns OUT_Y x OUT_X pixels (OUT_X
// consecutive along a row, on OUT_Y consecutive rows) and CPT output
// channels: each filter row of each input channel is read from shared memory
// into a window of OUT_X + KW - 1 registers per output row (vector loads) and
// feeds KW * OUT_Y * OUT_X * CPT FMAs. With the weights in constant memory
// every loop over the filter and the channels is fully unrolled, so each
// weight is a compile-time offset that the FMA reads straight from the
// constant bank; with shared weights, laid out [ci][i][j][co] so that one
// vector load brings several output channels' weights, the input-channel loop
// can stay a loop. A block's pixels are handed out to its threads row by row,
// so a warp stores a contiguous run of each output plane.
//
// Staging costs no thread a stall: on sm_80 and later it is cp.async (the
// copy engine writes shared memory directly, zero-filling the padding), so a
// thread issues its share of the copy back to back instead of waiting for
// each load. STAGE 1 (valid mode, whole images) keeps the global layout in
// shared memory (a row pitch of W), so an item is one contiguous run per
// image, copied 16 bytes at a time. With PIPE the next item (or the next
// input-channel chunk) is copied into a second buffer while this one is
// computed.
//
// Problem macros: CONV_B, CONV_CIN, CONV_H, CONV_W, CONV_COUT, CONV_KH,
// CONV_KW, CONV_OH, CONV_OW, CONV_PH, CONV_PW, CONV_BIAS.
// Tuning macros:
//   BLOCK_SIZE        threads per block; 0: one pixel group per thread
//                     (the block's groups rounded up to a warp, at most 1024)
//   OUT_X             consecutive output pixels of a row per thread
//   OUT_Y             consecutive output rows per thread
//   COUT_PER_THREAD   output channels accumulated per thread (0: all)
//   IMGS_PER_BLOCK    images per work item
//   TILE_OH, TILE_OW  output tile per work item (0: the whole image); tiles
//                     are balanced, then rounded up to OUT_Y rows and OUT_X
//                     columns
//   WEIGHT_PLACEMENT  0 constant memory, 1 shared memory
//   CI_UNROLL         input channels per unrolled iteration with shared
//                     weights (0: all); constant weights unroll them all
//   ROW_PAD           1: pad the staged rows so that a warp's pixels on
//                     consecutive rows fall in consecutive banks (STAGE 0)
//   MIN_BLOCKS        minimum resident blocks per SM (__launch_bounds__)
//   CIN_CHUNK         input channels staged at a time (0: all). With more
//                     than one chunk every thread owns exactly one pixel
//                     group x channel group (the host checks that the block
//                     has enough threads) and keeps its accumulators across
//                     the chunks; a last chunk may be partial
//   STAGE             0: padded tile layout, any mode; 1: the global layout
//                     (valid mode, whole images only)
//   PIPE              1: two buffers, the next stage copied during this one
//   GROUPS_PER_BLOCK  work items per block, one after another

#ifndef CIN_CHUNK
#define CIN_CHUNK 0
#endif
#ifndef OUT_Y
#define OUT_Y 1
#endif
#ifndef STAGE
#define STAGE 0
#endif
#ifndef PIPE
#define PIPE 0
#endif
#ifndef GROUPS_PER_BLOCK
#define GROUPS_PER_BLOCK 1
#endif
#define CT_CDIV(a, b) (((a) + (b) - 1) / (b))
#define CT_RUP(a, b) (CT_CDIV(a, b) * (b))
#define CT_MAX(a, b) ((a) > (b) ? (a) : (b))
#define CT_STR(x) #x
#define CT_PRAGMA(x) _Pragma(CT_STR(x))
#define CT_UNROLL(n) CT_PRAGMA(unroll n)

#define TOH_REQ (TILE_OH == 0 || TILE_OH >= CONV_OH ? CONV_OH : TILE_OH)
#define TOH CT_RUP(CT_CDIV(CONV_OH, CT_CDIV(CONV_OH, TOH_REQ)), OUT_Y)
#define TOW_REQ (TILE_OW == 0 || TILE_OW >= CONV_OW ? CONV_OW : TILE_OW)
#define TOW CT_RUP(CT_CDIV(CONV_OW, CT_CDIV(CONV_OW, TOW_REQ)), OUT_X)
#define XG (TOW / OUT_X)                    // pixel groups per tile row
#define YG (TOH / OUT_Y)                    // pixel-group rows per tile
#define TILES_X CT_CDIV(CONV_OW, TOW)
#define TILES (CT_CDIV(CONV_OH, TOH) * TILES_X)
#define CPT_REQ (COUT_PER_THREAD == 0 || COUT_PER_THREAD >= CONV_COUT ? CONV_COUT : COUT_PER_THREAD)
#define NCG CT_CDIV(CONV_COUT, CPT_REQ)     // output channel groups
#define CPT CT_CDIV(CONV_COUT, NCG)
#define IPB IMGS_PER_BLOCK
#define ITEMS (IPB * YG * XG)               // pixel groups per work item
#define CC (CIN_CHUNK == 0 || CIN_CHUNK >= CONV_CIN ? CONV_CIN : CIN_CHUNK)   // channels per chunk
#define NCH CT_CDIV(CONV_CIN, CC)           // chunks
#define UNITS (NCH > 1 ? ITEMS * NCG : ITEMS) // work units handed to threads
#define NT (BLOCK_SIZE ? BLOCK_SIZE : (CT_RUP(UNITS, 32) < 1024 ? CT_RUP(UNITS, 32) : 1024))
#define WORK (CT_CDIV(CONV_B, IPB) * TILES) // work items of the whole problem
#define NBUF (PIPE ? 2 : 1)

// Shared-memory input (dynamic, NBUF buffers of S_IN floats): IPB x CC planes of SH rows x PITCH floats. A thread
// reads NL floats from column xg*OUT_X of a row, LV at a time; the last
// NL - NWIN are never used but must lie inside the buffer.
#if STAGE == 1
#define LV (OUT_X % 4 == 0 && CONV_W % 4 == 0 ? 4 : OUT_X % 2 == 0 && CONV_W % 2 == 0 ? 2 : 1)
#else
#define LV (OUT_X % 4 == 0 ? 4 : OUT_X % 2 == 0 ? 2 : 1)
#endif
#define NWIN (OUT_X + CONV_KW - 1)
#define NL CT_RUP(NWIN, LV)
#define SH (TOH + CONV_KH - 1)
#define SW (TOW + CONV_KW - 1)
#if STAGE == 1
// The image as it lies in global memory. Rows past the image (TOH rounded
// up) and the window's overhang read the next plane or the slack at the end:
// only outputs that are never stored use them.
#define PITCH CONV_W
#define CH_PITCH (CONV_H * CONV_W)
#define IMG_PITCH (CC * CH_PITCH)
#define LAST_READ ((SH - 1) * PITCH + TOW - OUT_X + NL)
#define S_IN CT_RUP((IPB * CC - 1) * CH_PITCH + CT_MAX(LAST_READ, CH_PITCH), 4)
#define SV_IN ((CONV_H * CONV_W) % 4 == 0 ? 4 : (CONV_H * CONV_W) % 2 == 0 ? 2 : 1)
#else
#define PITCH0 CT_RUP(TOW - OUT_X + NL, LV)
#define PITCH (ROW_PAD ? PITCH0 + ((TOW - PITCH0) % 32 + 32) % 32 : PITCH0)
#define CH_PITCH (SH * PITCH)
#define IMG_PITCH (CC * CH_PITCH)
#define S_IN (IPB * IMG_PITCH)
#endif

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

// N floats from global src to shared dst, zeros when !ok (src must still be
// a valid address). Asynchronous from sm_80: complete after copy_wait.
template <int N>
__device__ __forceinline__ void copy_async(float *dst, const float *src, bool ok)
{
#if __CUDA_ARCH__ >= 800
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    const int n = ok ? 4 * N : 0;
    if (N == 4)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(n) : "memory");
    else if (N == 2)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(d), "l"(src), "r"(n) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(n) : "memory");
#else
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (ok)
        load_vec<N>(v, src);
#pragma unroll
    for (int k = 0; k < N; ++k)
        dst[k] = v[k];
#endif
}

__device__ __forceinline__ void copy_commit()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// Wait until at most N committed copy groups are still in flight.
template <int N>
__device__ __forceinline__ void copy_wait()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

// Issue the copy of input channels c0 .. c0 + CC - 1 of work item w (zeros
// outside the images and past the last channel) into s_in.
__device__ __forceinline__ void stage(float *s_in, const float *__restrict__ in, int w, int c0)
{
    const int tile = w % TILES, b0 = w / TILES * IPB;
#if STAGE == 1
    (void)tile;
    // One contiguous run of CC planes per image.
    constexpr int SEGV = CC * CONV_H * CONV_W / SV_IN;
#pragma unroll 4
    for (int idx = threadIdx.x; idx < IPB * SEGV; idx += NT) {
        const int m = idx / SEGV, off = idx % SEGV * SV_IN;
        const int b = b0 + m;
        const bool ok = b < CONV_B && (CONV_CIN % CC == 0 || c0 + off / (CONV_H * CONV_W) < CONV_CIN);
        copy_async<SV_IN>(s_in + m * IMG_PITCH + off, ok ? in + (b * CONV_CIN + c0) * (CONV_H * CONV_W) + off : in,
                          ok);
    }
#else
    const int y0 = tile / TILES_X * TOH, x0 = tile % TILES_X * TOW;
#pragma unroll 4
    for (int idx = threadIdx.x; idx < IPB * CC * SH * SW; idx += NT) {
        const int c = idx % SW, rest = idx / SW;
        const int r = rest % SH, plane = rest / SH;   // plane = m * CC + cc
        const int b = b0 + plane / CC, ci = c0 + plane % CC;
        const int gy = y0 - CONV_PH + r, gx = x0 - CONV_PW + c;
        const bool ok = b < CONV_B && (CONV_CIN % CC == 0 || ci < CONV_CIN) && gy >= 0 && gy < CONV_H && gx >= 0 &&
                        gx < CONV_W;
        copy_async<1>(s_in + plane * CH_PITCH + r * PITCH + c,
                      ok ? in + ((b * CONV_CIN + ci) * CONV_H + gy) * CONV_W + gx : in, ok);
    }
#endif
}

// All taps of input channel ci, staged as channel cc of its chunk, for one
// pixel group (srow: its first row and column in the item's image) and one
// channel group.
__device__ __forceinline__ void channel(float (&acc)[CPT][OUT_Y][OUT_X], const float *srow, const float *s_w,
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
        float win[OUT_Y][NL];
#pragma unroll
        for (int oy = 0; oy < OUT_Y; ++oy)
#pragma unroll
            for (int k = 0; k < NL; k += LV)
                load_vec<LV>(&win[oy][k], srow + cc * CH_PITCH + (i + oy) * PITCH + k);
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
                for (int oy = 0; oy < OUT_Y; ++oy)
#pragma unroll
                    for (int x = 0; x < OUT_X; ++x)
                        acc[c][oy][x] = fmaf(win[oy][x + j], w[c], acc[c][oy][x]);
        }
    }
}

__device__ __forceinline__ void init_acc(float (&acc)[CPT][OUT_Y][OUT_X], int cg)
{
#pragma unroll
    for (int c = 0; c < CPT; ++c) {
#if CONV_BIAS
        const float bv = cg * CPT + c < CONV_COUT ? c_bias[cg * CPT + c] : 0.0f;
#else
        const float bv = 0.0f;
#endif
#pragma unroll
        for (int oy = 0; oy < OUT_Y; ++oy)
#pragma unroll
            for (int x = 0; x < OUT_X; ++x)
                acc[c][oy][x] = bv;
    }
    (void)cg;
}

__device__ __forceinline__ void store_acc(const float (&acc)[CPT][OUT_Y][OUT_X], float *__restrict__ out, int b,
                                          int y, int xo, int cg)
{
#pragma unroll
    for (int c = 0; c < CPT; ++c) {
        const int co = cg * CPT + c;
        if (co >= CONV_COUT)
            break;
#pragma unroll
        for (int oy = 0; oy < OUT_Y; ++oy) {
            if (y + oy >= CONV_OH)
                break;
            float *o = out + ((b * CONV_COUT + co) * CONV_OH + y + oy) * CONV_OW + xo;
#pragma unroll
            for (int x = 0; x < OUT_X; x += SV) {
                if (xo + x >= CONV_OW)
                    break;
                const float *a = acc[c][oy];
                if (SV == 4)
                    *reinterpret_cast<float4 *>(o + x) =
                        make_float4(a[x], a[x + 1 < OUT_X ? x + 1 : x], a[x + 2 < OUT_X ? x + 2 : x],
                                    a[x + 3 < OUT_X ? x + 3 : x]);
                else if (SV == 2)
                    *reinterpret_cast<float2 *>(o + x) = make_float2(a[x], a[x + 1 < OUT_X ? x + 1 : x]);
                else
                    o[x] = a[x];
            }
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
    // NBUF * S_IN floats, dynamic: more than 48 KiB needs the opt-in that
    // the launcher makes.
    extern __shared__ __align__(16) float s_buf[];
#if WEIGHT_PLACEMENT == 1
    __shared__ __align__(16) float s_w[TAPS * COUTP];
#pragma unroll 1
    for (int idx = threadIdx.x; idx < TAPS * COUTP; idx += NT) {
        const int co = idx % COUTP, tap = idx / COUTP;
        s_w[idx] = co < CONV_COUT ? __ldg(weight + co * TAPS + tap) : 0.0f;
    }
#else
    float *const s_w = nullptr;
    (void)weight;
#endif
    const int w0 = blockIdx.x * GROUPS_PER_BLOCK;
    const int nw = WORK - w0 < GROUPS_PER_BLOCK ? WORK - w0 : GROUPS_PER_BLOCK;
    stage(s_buf, in, w0, 0);
    copy_commit();
    int buf = 0;

#pragma unroll 1
    for (int k = 0; k < nw; ++k) {
        const int w = w0 + k;
        const int tile = w % TILES, b0 = w / TILES * IPB;
        const int y0 = tile / TILES_X * TOH, x0 = tile % TILES_X * TOW;
#if NCH > 1
        // One unit per thread, its accumulators kept across the chunks.
        const int it = threadIdx.x % ITEMS, cg = NCG == 1 ? 0 : threadIdx.x / ITEMS;
        const int xg = it % XG, ty = it / XG % YG, m = it / (XG * YG);
        const int b = b0 + m, y = y0 + ty * OUT_Y, xo = x0 + xg * OUT_X;
        const bool active = threadIdx.x < ITEMS * NCG && b < CONV_B && y < CONV_OH;
        float acc[CPT][OUT_Y][OUT_X];
        init_acc(acc, cg);
#endif
        // With constant weights the chunks are unrolled, so that every
        // weight stays a compile-time constant-bank offset.
#if WEIGHT_PLACEMENT == 0
#pragma unroll
#else
#pragma unroll 1
#endif
        for (int ch = 0; ch < NCH; ++ch) {
#if PIPE
            // Prefetch the next stage into the other buffer; an empty group
            // when there is none keeps the wait count uniform.
            if (ch + 1 < NCH)
                stage(s_buf + (buf ^ 1) * S_IN, in, w, (ch + 1) * CC);
            else if (k + 1 < nw)
                stage(s_buf + (buf ^ 1) * S_IN, in, w + 1, 0);
            copy_commit();
            copy_wait<1>();
#else
            copy_wait<0>();
#endif
            __syncthreads();
            const float *s_in = s_buf + buf * S_IN;
#if NCH > 1
            if (active) {
                const float *srow = s_in + m * IMG_PITCH + ty * OUT_Y * PITCH + xg * OUT_X;
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
#else
#pragma unroll 1
            for (int it = threadIdx.x; it < ITEMS; it += NT) {
                const int xg = it % XG, ty = it / XG % YG, m = it / (XG * YG);
                const int b = b0 + m, y = y0 + ty * OUT_Y, xo = x0 + xg * OUT_X;
                if (b >= CONV_B || y >= CONV_OH)
                    continue;
                const float *srow = s_in + m * IMG_PITCH + ty * OUT_Y * PITCH + xg * OUT_X;
#if WEIGHT_PLACEMENT == 0
#pragma unroll
#else
#pragma unroll 1
#endif
                for (int cg = 0; cg < NCG; ++cg) {
                    float acc[CPT][OUT_Y][OUT_X];
                    init_acc(acc, cg);
#if WEIGHT_PLACEMENT == 0 || CI_UNROLL == 0
#pragma unroll
#else
                    CT_UNROLL(CI_UNROLL)
#endif
                    for (int ci = 0; ci < CONV_CIN; ++ci)
                        channel(acc, srow, s_w, ci, ci, cg);
                    store_acc(acc, out, b, y, xo, cg);
                }
            }
#endif
            // Every thread is done with this buffer before it is refilled.
            __syncthreads();
#if PIPE
            buf ^= 1;
#else
            if (ch + 1 < NCH)
                stage(s_buf, in, w, (ch + 1) * CC);
            else if (k + 1 < nw)
                stage(s_buf, in, w + 1, 0);
            copy_commit();
#endif
        }
#if NCH > 1
        if (active)
            store_acc(acc, out, b, y, xo, cg);
#endif
    }
}
