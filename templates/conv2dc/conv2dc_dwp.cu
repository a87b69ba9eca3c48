// conv2dc_dwp: a depthwise Conv2d layer (groups = Cin = Cout), whole planes
// per warp, the next plane's copy in flight while the current one computes.
//
//   out[b][c][y][x] = bias[c] + sum_{i<KH, j<KW} in[b][c][y*SH + i*DH - PH][x*SW + j*DW - PW] * w[c][i][j]
//
// Each warp is independent (no block barrier): it convolves PLANES planes
// (b * C + c) in turn. A plane and its filter are staged in the warp's
// shared-memory buffer by cp.async, into a frame whose zero halo is written
// once, so a plane costs one DRAM read and no bounds test; with PLANES > 1
// the warp has two buffers and copies plane k + 1 while it computes plane k.
// Small planes make the warp the right team: a block of several warps would
// wait at its barriers for the slowest plane copy.
//
// A lane computes OUT_Y x OUT_X outputs of the plane (several such items in
// turn when the plane has more than 32). It walks the staged input rows its
// outputs read: each row's window of (OUT_X - 1) * SW + (KW - 1) * DW + 1
// floats is loaded into registers once and serves all OUT_Y output rows,
// each with its own filter row, whose taps come four at a time from shared
// memory (the same address in every lane: a broadcast). So per input row,
// about NWL / 4 + OUT_Y * KW / 4 shared loads feed OUT_Y * KW * OUT_X FMAs.
//
// Problem macros: CONV_B, CONV_CIN, CONV_H, CONV_W, CONV_COUT, CONV_KH,
// CONV_KW, CONV_OH, CONV_OW, CONV_PH, CONV_PW, CONV_BIAS, and where not 1
// CONV_SH, CONV_SW, CONV_DH, CONV_DW, CONV_GROUPS.
// Tuning macros:
//   OUT_X, OUT_Y   outputs per lane along a row and down a column
//   WARPS          warps per block (each its own pipeline)
//   PLANES         planes per warp, in turn (two buffers when more than 1)
//   VEC            4: the plane's rows land 16-byte aligned (16-byte copies,
//                  W % 4 == 0; windows then start LEAD floats off alignment);
//                  1: windows aligned, 4-byte copies
// The sizes below mirror tuner/families/tc/dwp_conv.c.
//
// bf16 and f16 (conv2dc_dwph): the same warps, planes, frames, items and
// parameters, with the plane and filter widened to float as they are
// staged: the frame in shared memory is fp32, so an item's FMA loop is the
// fp32 one, and each output is rounded once when stored (ct_half_io.cuh).
// cp.async copies bytes and cannot widen, and has no 2-byte size for odd
// planes, so the staging is ordinary loads (VEC = 4: one 8-byte load of 4
// elements and one 16-byte shared store; VEC = 1: element by element), a
// few in flight per lane. It takes the warp's turn: the next plane's
// latency is hidden by the other warps of the SM rather than under this
// warp's FMAs, and one buffer is used (the launch sizes shared memory as
// for conv2dc_dwp; with PLANES > 1 the second lies idle, and PLANES only
// amortises the frame's zeros). Halves of the bytes to move make the copy
// a smaller part of a plane's time than in fp32.
//
// One source for every element type: CT_DTYPE (defined by the tuner for
// bf16 = 1 and f16 = 2 problems only, so 0 for fp32) picks conv2dc_dwp's fp32 code
// or the half-type code of its entry conv2dc_dwph (tuner/families). The two
// branches are kept token for token as the two templates were before they
// were folded, so the code, the PTX and the code hash of every stored
// result stay what they were (tests/test_fold.c checks the PTX).
#if CT_DTYPE
#include "ct_half_io.cuh"
#endif
#include "conv2dc_layer.cuh"

#define DW_CDIV(a, b) (((a) + (b) - 1) / (b))
#define DW_RUP(a, b) (DW_CDIV(a, b) * (b))
#define DW_MAX(a, b) ((a) > (b) ? (a) : (b))
#define NPLANES (CONV_B * CONV_CIN)
#define STAGES (PLANES > 1 ? 2 : 1)
#define NIY DW_CDIV(CONV_OH, OUT_Y)                   // items down the plane
#define NIX DW_CDIV(CONV_OW, OUT_X)                   // items along a row
#define NITEMS (NIY * NIX)
#define LEAD (VEC == 4 ? (4 - CONV_PW % 4) % 4 : 0)   // frame columns before the left halo
#define STEP (OUT_X * CONV_SW)                        // columns between items' windows
#define LV (LEAD % 4 == 0 && STEP % 4 == 0 ? 4 : LEAD % 2 == 0 && STEP % 2 == 0 ? 2 : 1)
#define NWX ((OUT_X - 1) * CONV_SW + (CONV_KW - 1) * CONV_DW + 1)
#define NWL DW_RUP(NWX, LV)
#define NR ((OUT_Y - 1) * CONV_SH + (CONV_KH - 1) * CONV_DH + 1)   // input rows of an item
// The frame: every row and column an item reads, and the whole plane.
#define SIH DW_MAX((NIY * OUT_Y - 1) * CONV_SH + (CONV_KH - 1) * CONV_DH + 1, CONV_PH + CONV_H)
#define PITCH DW_RUP(DW_MAX(LEAD + (NIX - 1) * STEP + NWL, LEAD + CONV_PW + CONV_W), 4)
#define S_IN (SIH * PITCH)
#define KWP DW_RUP(CONV_KW, 4)
#define S_W (CONV_KH * KWP)
#define BUF (S_IN + S_W)                              // floats, a multiple of 4

static_assert(CONV_GROUPS == CONV_CIN && CONV_COUT == CONV_CIN, "depthwise layers only");
#if CT_DTYPE
static_assert(VEC == 1 || CONV_W % 4 == 0, "4-element loads need whole 4-element rows");
#else
static_assert(VEC == 1 || CONV_W % 4 == 0, "16-byte copies need whole 16-byte rows");

template <int V>
__device__ __forceinline__ void lds_vec(float *d, const float *p)
{
    if (V == 4) {
        const float4 v = *reinterpret_cast<const float4 *>(p);
        d[0] = v.x; d[1] = v.y; d[2] = v.z; d[3] = v.w;
    } else if (V == 2) {
        const float2 v = *reinterpret_cast<const float2 *>(p);
        d[0] = v.x; d[1] = v.y;
    } else {
        d[0] = *p;
    }
}

template <int N>
__device__ __forceinline__ void dwp_copy(float *dst, const float *src)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    if (N == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(d), "l"(src) : "memory");
}

__device__ __forceinline__ void dwp_commit()
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int N>
__device__ __forceinline__ void dwp_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}
#endif

// Zeros everywhere the copies never write: the halo and the filter's
// columns past KW. Once per buffer; the copies leave them alone.
// Zeros everywhere the staging never writes: the halo and the filter's
// columns past KW. Once per warp; the staging leaves them alone.
__device__ __forceinline__ void dwp_frame(float *b, int lane)
{
    for (int e = lane; e < BUF; e += 32) {
        bool copied;
        if (e < S_IN) {
            const int r = e / PITCH - CONV_PH, q = e % PITCH - LEAD - CONV_PW;
            copied = r >= 0 && r < CONV_H && q >= 0 && q < CONV_W;
        } else {
            copied = (e - S_IN) % KWP < CONV_KW;
        }
        if (!copied)
            b[e] = 0.0f;
    }
}

#if CT_DTYPE
// Plane p and its filter widened into buffer b (over the zeros of the frame).
__device__ __forceinline__ void dwph_stage(float *b, const ct_elem *__restrict__ in,
                                           const ct_elem *__restrict__ weight, int p, int lane)
#else
// Starts the copy of plane p and its filter into buffer b: one group.
__device__ __forceinline__ void dwp_issue(float *b, const float *__restrict__ in, const float *__restrict__ weight,
                                          int p, int lane)
#endif
{
#if CT_DTYPE
    const ct_elem *src = in + (long long)p * (CONV_H * CONV_W);
#else
    const float *src = in + (long long)p * (CONV_H * CONV_W);
#endif
    float *dst = b + CONV_PH * PITCH + LEAD + CONV_PW;
#if VEC == 4
#if CT_DTYPE
#pragma unroll 4
    for (int e = lane; e < CONV_H * CONV_W / 4; e += 32) {
        float v[4];
        ct_ldg_elems<4>(v, src + 4 * e);
        *reinterpret_cast<float4 *>(dst + (e / (CONV_W / 4)) * PITCH + (e % (CONV_W / 4)) * 4) =
            make_float4(v[0], v[1], v[2], v[3]);
    }
#else
    for (int e = lane; e < CONV_H * CONV_W / 4; e += 32)
        dwp_copy<16>(dst + (e / (CONV_W / 4)) * PITCH + (e % (CONV_W / 4)) * 4, src + 4 * e);
#endif
#else
#if CT_DTYPE
#pragma unroll 4
#endif
    for (int e = lane; e < CONV_H * CONV_W; e += 32)
#if CT_DTYPE
        dst[(e / CONV_W) * PITCH + e % CONV_W] = ct_ldg(src + e);
#else
        dwp_copy<4>(dst + (e / CONV_W) * PITCH + e % CONV_W, src + e);
#endif
#endif
#if CT_DTYPE
    const ct_elem *w = weight + (long long)(p % CONV_CIN) * (CONV_KH * CONV_KW);
#else
    const float *w = weight + (long long)(p % CONV_CIN) * (CONV_KH * CONV_KW);
#endif
    for (int e = lane; e < CONV_KH * CONV_KW; e += 32)
#if CT_DTYPE
        b[S_IN + (e / CONV_KW) * KWP + e % CONV_KW] = ct_ldg(w + e);
#else
        dwp_copy<4>(b + S_IN + (e / CONV_KW) * KWP + e % CONV_KW, w + e);
    dwp_commit();
#endif
}

// The OUT_Y x OUT_X outputs of item `it` of the plane staged in b.
#if CT_DTYPE
__device__ __forceinline__ void dwp_item(const float *b, int it, float b0, ct_elem *__restrict__ dst)
#else
__device__ __forceinline__ void dwp_item(const float *b, int it, float b0, float *__restrict__ dst)
#endif
{
    const int ty = it / NIX, tx = it % NIX;
    float acc[OUT_Y][OUT_X];
#pragma unroll
    for (int a = 0; a < OUT_Y; ++a)
#pragma unroll
        for (int o = 0; o < OUT_X; ++o)
            acc[a][o] = b0;
    const float *base = b + (ty * OUT_Y * CONV_SH) * PITCH + LEAD + tx * STEP;
    const float *taps = b + S_IN;
    // Unrolled whole where the body stays small: the row tests fold away.
#if CONV_KH * CONV_KW * OUT_Y * OUT_X <= 2048
#pragma unroll
#else
#pragma unroll 1
#endif
    for (int r = 0; r < NR; ++r) {
        float win[NWL];
#pragma unroll
        for (int u = 0; u < NWL; u += LV)
#if CT_DTYPE
            ct_lds<LV>(&win[u], base + r * PITCH + u);
#else
            lds_vec<LV>(&win[u], base + r * PITCH + u);
#endif
#pragma unroll
        for (int a = 0; a < OUT_Y; ++a) {
            // Output row a reads this input row through filter row d / DH
            // (the same for every lane: a uniform branch).
            const int d = r - a * CONV_SH;
            if (d >= 0 && d < CONV_KH * CONV_DH && d % CONV_DH == 0) {
                const float *wr = taps + (d / CONV_DH) * KWP;
#pragma unroll
                for (int jq = 0; jq < KWP; jq += 4) {
                    float t[4];
#if CT_DTYPE
                    ct_lds<4>(t, wr + jq);
#else
                    lds_vec<4>(t, wr + jq);
#endif
#pragma unroll
                    for (int jj = 0; jj < 4; ++jj)
                        if (jq + jj < CONV_KW) {
#pragma unroll
                            for (int o = 0; o < OUT_X; ++o)
                                acc[a][o] = fmaf(t[jj], win[o * CONV_SW + (jq + jj) * CONV_DW], acc[a][o]);
                        }
                }
            }
        }
    }
    const int x0 = tx * OUT_X;
#pragma unroll
    for (int a = 0; a < OUT_Y; ++a) {
        const int y = ty * OUT_Y + a;
        if (y >= CONV_OH)
            break;
#if CT_DTYPE
        ct_elem *row = dst + y * CONV_OW + x0;
#else
        float *row = dst + y * CONV_OW + x0;
#endif
        if (CONV_OW % 4 == 0 && OUT_X % 4 == 0 && x0 + OUT_X <= CONV_OW) {
#pragma unroll
            for (int o = 0; o < OUT_X; o += 4)
#if CT_DTYPE
                ct_stg_elems<4>(row + o, &acc[a][o]);
#else
                *reinterpret_cast<float4 *>(row + o) = make_float4(acc[a][o], acc[a][o + 1], acc[a][o + 2],
                                                                   acc[a][o + 3]);
#endif
        } else {
#pragma unroll
            for (int o = 0; o < OUT_X; ++o)
                if (x0 + o < CONV_OW)
#if CT_DTYPE
                    ct_st(row + o, acc[a][o]);
#else
                    row[o] = acc[a][o];
#endif
        }
    }
}

extern "C" __global__ void __launch_bounds__(32 * WARPS)
#if CT_DTYPE
conv2dc_dwph(const ct_elem *__restrict__ in, const ct_elem *__restrict__ weight,
#else
conv2dc_dwp(const float *__restrict__ in, const float *__restrict__ weight,
#endif
#if CONV_BIAS
#if CT_DTYPE
             const ct_elem *__restrict__ bias,
#else
            const float *__restrict__ bias,
#endif
#endif
#if CT_DTYPE
             ct_elem *__restrict__ out)
#else
            float *__restrict__ out)
#endif
{
    extern __shared__ __align__(16) float smem[];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int first = (blockIdx.x * WARPS + warp) * PLANES;
    if (first >= NPLANES)
        return;
    const int n = NPLANES - first < PLANES ? NPLANES - first : PLANES;
    float *buf = smem + warp * (STAGES * BUF);
#if CT_DTYPE
    dwp_frame(buf, lane);
#else
#pragma unroll
    for (int s = 0; s < STAGES; ++s)
        dwp_frame(buf + s * BUF, lane);
    dwp_issue(buf, in, weight, first, lane);
#endif
    for (int k = 0; k < n; ++k) {
        const int p = first + k;
#if CT_DTYPE
        dwph_stage(buf, in, weight, p, lane);
        // Every lane's stores (and zeros) visible to the whole warp.
#else
        float *cur = buf + (k % STAGES) * BUF;
        if (STAGES == 2) {
            // The other buffer was released by the __syncwarp ending k - 1.
            if (k + 1 < n)
                dwp_issue(buf + ((k + 1) % STAGES) * BUF, in, weight, p + 1, lane);
            else
                dwp_commit();
            dwp_wait<1>();
        } else {
            dwp_wait<0>();
        }
        // Every lane's copies (and zeros) visible to the whole warp.
#endif
        __syncwarp();
#if CONV_BIAS
#if CT_DTYPE
        const float b0 = ct_ldg(bias + p % CONV_CIN);
#else
        const float b0 = __ldg(bias + p % CONV_CIN);
#endif
#else
        const float b0 = 0.0f;
#endif
#if CT_DTYPE
        ct_elem *dst = out + (long long)p * (CONV_OH * CONV_OW);
#else
        float *dst = out + (long long)p * (CONV_OH * CONV_OW);
#endif
        for (int it = lane; it < NITEMS; it += 32)
#if CT_DTYPE
            dwp_item(buf, it, b0, dst);
        // The buffer is read until here before the next plane overwrites it.
#else
            dwp_item(cur, it, b0, dst);
#endif
        __syncwarp();
#if !CT_DTYPE
        if (STAGES == 1 && k + 1 < n)
            dwp_issue(buf, in, weight, p + 1, lane);
#endif
    }
}
