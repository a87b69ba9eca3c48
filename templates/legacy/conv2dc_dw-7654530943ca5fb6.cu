// conv2dc_dw: a depthwise Conv2d layer (groups = Cin = Cout).
//
//   out[b][c][y][x] = bias[c] + sum_{i<KH, j<KW} in[b][c][y*SH + i*DH - PH][x*SW + j*DW - PW] * w[c][i][j]
//
// Each channel plane is convolved with its own filter: no reduction over
// channels, so a GEMM has nothing to share and the work is KH*KW FMAs per
// output against one input and one output read. A block owns one tile of
// one plane (the whole plane where TILE_OH / TILE_OW are 0): it stages the
// filter (rows padded to a multiple of 4, zeros past KW) and the input tile
// with its halo (zeros outside the image) in shared memory, then each
// thread computes OUT_Y x OUT_X outputs. For each filter row i it reads the
// row's taps once into registers (16-byte broadcasts) and, for each of its
// OUT_Y output rows, the input row window those OUT_X outputs need (16-byte
// loads where the window is aligned), and slides the taps along it: per
// filter row KW + OUT_Y x window shared loads feed OUT_Y x OUT_X x KW FMAs.
//
// Problem macros: CONV_B, CONV_CIN, CONV_H, CONV_W, CONV_COUT, CONV_KH,
// CONV_KW, CONV_OH, CONV_OW, CONV_PH, CONV_PW, CONV_BIAS, and where not 1
// CONV_SH, CONV_SW, CONV_DH, CONV_DW, CONV_GROUPS.
// Tuning macros:
//   OUT_X, OUT_Y       outputs per thread along a row and down a column
//   TILE_OH, TILE_OW   output tile per block (0: the whole plane); the
//                      effective tile is the same as the tuner's geometry
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

#define DW_CDIV(a, b) (((a) + (b) - 1) / (b))
#define DW_RUP(a, b) (DW_CDIV(a, b) * (b))
// Requested tile, split into equal tiles, rounded up to whole threads.
#define TOH_REQ (TILE_OH == 0 || TILE_OH >= CONV_OH ? CONV_OH : TILE_OH)
#define TOW_REQ (TILE_OW == 0 || TILE_OW >= CONV_OW ? CONV_OW : TILE_OW)
#define TOH DW_RUP(DW_CDIV(CONV_OH, DW_CDIV(CONV_OH, TOH_REQ)), OUT_Y)
#define TOW DW_RUP(DW_CDIV(CONV_OW, DW_CDIV(CONV_OW, TOW_REQ)), OUT_X)
#define NTY DW_CDIV(CONV_OH, TOH)
#define NTX DW_CDIV(CONV_OW, TOW)
#define TX (TOW / OUT_X)                              // threads along a row
#define NITEMS ((TOH / OUT_Y) * TX)
#define NT DW_RUP(NITEMS, 32)                         // threads per block
// The window of OUT_X outputs of one input row, and its loads.
#define NWX ((OUT_X - 1) * CONV_SW + (CONV_KW - 1) * CONV_DW + 1)
#define LV ((OUT_X * CONV_SW) % 4 == 0 ? 4 : (OUT_X * CONV_SW) % 2 == 0 ? 2 : 1)
#define NWL DW_RUP(NWX, LV)
// The staged tile: rows, and a pitch that a 16-byte aligned last window fits.
#define SIH ((TOH - 1) * CONV_SH + (CONV_KH - 1) * CONV_DH + 1)
#define PITCH DW_RUP((TOW - OUT_X) * CONV_SW + NWL, 4)
#define KWP DW_RUP(CONV_KW, 4)
#define S_IN (SIH * PITCH)
#define S_W (CONV_KH * KWP)

static_assert(CONV_GROUPS == CONV_CIN && CONV_COUT == CONV_CIN, "depthwise layers only");

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

extern "C" __global__ void __launch_bounds__(NT)
conv2dc_dw(const float *__restrict__ in, const float *__restrict__ weight,
#if CONV_BIAS
           const float *__restrict__ bias,
#endif
           float *__restrict__ out)
{
    extern __shared__ __align__(16) float smem[];
    float *s_in = smem;                               // [SIH][PITCH]
    float *s_w = smem + S_IN;                         // [KH][KWP]
    const int tid = threadIdx.x;
    const int tile = blockIdx.x % (NTY * NTX);
    const int plane = blockIdx.x / (NTY * NTX);       // b * C + c
    const int c = plane % CONV_CIN;
    const int oy0 = (tile / NTX) * TOH, ox0 = (tile % NTX) * TOW;

    const float *src = in + (long long)plane * (CONV_H * CONV_W);
    const int iy0 = oy0 * CONV_SH - CONV_PH, ix0 = ox0 * CONV_SW - CONV_PW;
    for (int e = tid; e < S_IN; e += NT) {
        const int r = e / PITCH, q = e % PITCH;
        const int gy = iy0 + r, gx = ix0 + q;
        s_in[e] = gy >= 0 && gy < CONV_H && gx >= 0 && gx < CONV_W ? __ldg(src + gy * CONV_W + gx) : 0.0f;
    }
    for (int e = tid; e < S_W; e += NT) {
        const int i = e / KWP, j = e % KWP;
        s_w[e] = j < CONV_KW ? __ldg(weight + (c * CONV_KH + i) * CONV_KW + j) : 0.0f;
    }
    __syncthreads();
    if (tid >= NITEMS)
        return;

    const int ty = tid / TX, tx = tid % TX;
#if CONV_BIAS
    const float b0 = __ldg(bias + c);
#else
    const float b0 = 0.0f;
#endif
    float acc[OUT_Y][OUT_X];
#pragma unroll
    for (int a = 0; a < OUT_Y; ++a)
#pragma unroll
        for (int o = 0; o < OUT_X; ++o)
            acc[a][o] = b0;

    // The thread's first window: output row ty*OUT_Y, column tx*OUT_X of the tile.
    const float *base = s_in + (ty * OUT_Y * CONV_SH) * PITCH + tx * OUT_X * CONV_SW;
#if CONV_KH * CONV_KW * OUT_X * OUT_Y <= 2048
#pragma unroll
#else
#pragma unroll 1
#endif
    for (int i = 0; i < CONV_KH; ++i) {
        float wr[KWP];
#pragma unroll
        for (int j = 0; j < KWP; j += 4)
            lds_vec<4>(&wr[j], s_w + i * KWP + j);
#pragma unroll
        for (int a = 0; a < OUT_Y; ++a) {
            const float *row = base + (a * CONV_SH + i * CONV_DH) * PITCH;
            float win[NWL];
#pragma unroll
            for (int u = 0; u < NWL; u += LV)
                lds_vec<LV>(&win[u], row + u);
#pragma unroll
            for (int j = 0; j < CONV_KW; ++j)
#pragma unroll
                for (int o = 0; o < OUT_X; ++o)
                    acc[a][o] = fmaf(wr[j], win[o * CONV_SW + j * CONV_DW], acc[a][o]);
        }
    }

    float *dst = out + (long long)plane * (CONV_OH * CONV_OW);
#pragma unroll
    for (int a = 0; a < OUT_Y; ++a) {
        const int y = oy0 + ty * OUT_Y + a;
#pragma unroll
        for (int o = 0; o < OUT_X; ++o) {
            const int x = ox0 + tx * OUT_X + o;
            if (y < CONV_OH && x < CONV_OW)
                dst[y * CONV_OW + x] = acc[a][o];
        }
    }
}
