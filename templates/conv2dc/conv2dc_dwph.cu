// conv2dc_dwph: conv2dc_dwp for bf16 and f16 layers (CT_DTYPE 1 or 2).
//
// The same warps, planes, frames and items as conv2dc_dwp (see there), with
// the plane and filter widened to float as they are staged: the frame in
// shared memory is fp32, so an item's FMA loop is conv2dc_dwp's, and each
// output is rounded once when stored (ct_half_io.cuh).
//
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
// Problem macros: those of conv2dc_dwp and CT_DTYPE. Tuning macros: OUT_X,
// OUT_Y, WARPS, PLANES, VEC (tuner/families/tc/dwp_conv.c).
#include "ct_half_io.cuh"
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
static_assert(VEC == 1 || CONV_W % 4 == 0, "4-element loads need whole 4-element rows");

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

// Plane p and its filter widened into buffer b (over the zeros of the frame).
__device__ __forceinline__ void dwph_stage(float *b, const ct_elem *__restrict__ in,
                                           const ct_elem *__restrict__ weight, int p, int lane)
{
    const ct_elem *src = in + (long long)p * (CONV_H * CONV_W);
    float *dst = b + CONV_PH * PITCH + LEAD + CONV_PW;
#if VEC == 4
#pragma unroll 4
    for (int e = lane; e < CONV_H * CONV_W / 4; e += 32) {
        float v[4];
        ct_ldg_elems<4>(v, src + 4 * e);
        *reinterpret_cast<float4 *>(dst + (e / (CONV_W / 4)) * PITCH + (e % (CONV_W / 4)) * 4) =
            make_float4(v[0], v[1], v[2], v[3]);
    }
#else
#pragma unroll 4
    for (int e = lane; e < CONV_H * CONV_W; e += 32)
        dst[(e / CONV_W) * PITCH + e % CONV_W] = ct_ldg(src + e);
#endif
    const ct_elem *w = weight + (long long)(p % CONV_CIN) * (CONV_KH * CONV_KW);
    for (int e = lane; e < CONV_KH * CONV_KW; e += 32)
        b[S_IN + (e / CONV_KW) * KWP + e % CONV_KW] = ct_ldg(w + e);
}

// The OUT_Y x OUT_X outputs of item `it` of the plane staged in b.
__device__ __forceinline__ void dwp_item(const float *b, int it, float b0, ct_elem *__restrict__ dst)
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
            ct_lds<LV>(&win[u], base + r * PITCH + u);
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
                    ct_lds<4>(t, wr + jq);
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
        ct_elem *row = dst + y * CONV_OW + x0;
        if (CONV_OW % 4 == 0 && OUT_X % 4 == 0 && x0 + OUT_X <= CONV_OW) {
#pragma unroll
            for (int o = 0; o < OUT_X; o += 4)
                ct_stg_elems<4>(row + o, &acc[a][o]);
        } else {
#pragma unroll
            for (int o = 0; o < OUT_X; ++o)
                if (x0 + o < CONV_OW)
                    ct_st(row + o, acc[a][o]);
        }
    }
}

extern "C" __global__ void __launch_bounds__(32 * WARPS)
conv2dc_dwph(const ct_elem *__restrict__ in, const ct_elem *__restrict__ weight,
#if CONV_BIAS
             const ct_elem *__restrict__ bias,
#endif
             ct_elem *__restrict__ out)
{
    extern __shared__ __align__(16) float smem[];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int first = (blockIdx.x * WARPS + warp) * PLANES;
    if (first >= NPLANES)
        return;
    const int n = NPLANES - first < PLANES ? NPLANES - first : PLANES;
    float *buf = smem + warp * (STAGES * BUF);
    dwp_frame(buf, lane);
    for (int k = 0; k < n; ++k) {
        const int p = first + k;
        dwph_stage(buf, in, weight, p, lane);
        // Every lane's stores (and zeros) visible to the whole warp.
        __syncwarp();
#if CONV_BIAS
        const float b0 = ct_ldg(bias + p % CONV_CIN);
#else
        const float b0 = 0.0f;
#endif
        ct_elem *dst = out + (long long)p * (CONV_OH * CONV_OW);
        for (int it = lane; it < NITEMS; it += 32)
            dwp_item(buf, it, b0, dst);
        // The buffer is read until here before the next plane overwrites it.
        __syncwarp();
    }
}
