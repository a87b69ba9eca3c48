// conv1dc_dgdw: the input gradient (dgrad) of a depthwise conv1dc layer,
// NCL, any stride, dilation, padding or causal form, as a 2D layer of
// height 1 (OUT_Y 1, one tile row); see ct_dwbwd.cuh.
// conv1dc_as2d.cuh: the layer as a 2D layer of height 1 under the names
// every layer family gives it (LY_*, conv2dc_as2d.cuh says what each is):
// W is L, KW is K, OW is LOUT, PW the zeros before the input (causal: (K-1)
// x dilation), SX the stride, DX the dilation.
// conv1dc_layer.cuh: the layer fields convtune defines only where they are
// not 1 (CONV_STRIDE, CONV_DIL, CONV_GROUPS), so that templates that read
// them see 1 otherwise. CONV_PAD is the zeros before the input (causal:
// (K-1) x CONV_DIL).
#ifndef CONV_STRIDE
#define CONV_STRIDE 1
#endif
#ifndef CONV_DIL
#define CONV_DIL 1
#endif
#ifndef CONV_GROUPS
#define CONV_GROUPS 1
#endif
#define CONV_CING (CONV_CIN / CONV_GROUPS)     // input channels of a group
#define CONV_COUTG (CONV_COUT / CONV_GROUPS)   // output channels of a group
// conv1dc_layout.cuh: the activations' layout, for the templates that
// compute both (the others' constraints exclude channels-last layers).
// CONV_CHANNELS_LAST is defined (1) only for the channels-last layout nlc.
// Element index of input (b, c, x) and output (b, co, t): ncl [B][C][L],
// nlc [B][L][C]. The weights are [Cout][Cin/G][K] in both.
#ifndef CONV_CHANNELS_LAST
#define CONV_CHANNELS_LAST 0
#endif
#if CONV_CHANNELS_LAST
#define CONV_IN_AT(b, c, x) (((b) * CONV_L + (x)) * CONV_CIN + (c))
#define CONV_OUT_AT(b, co, t) (((b) * CONV_LOUT + (t)) * CONV_COUT + (co))
#else
#define CONV_IN_AT(b, c, x) (((b) * CONV_CIN + (c)) * CONV_L + (x))
#define CONV_OUT_AT(b, co, t) (((b) * CONV_COUT + (co)) * CONV_LOUT + (t))
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
#define LY_H 1
#define LY_W CONV_L
#define LY_KH 1
#define LY_KW CONV_K
#define LY_OH 1
#define LY_OW CONV_LOUT
#define LY_PH 0
#define LY_PW CONV_PAD
#define LY_SY 1
#define LY_SX CONV_STRIDE
#define LY_DY 1
#define LY_DX CONV_DIL
#define LY_BIAS CONV_BIAS
#define LY_CL CONV_CHANNELS_LAST
#define LY_PASS CONV_PASS
#define LY_X_AT(b, c, y, x) CONV_IN_AT(b, c, x)
#define LY_Y_AT(b, c, y, x) CONV_OUT_AT(b, c, x)
#define DB_NAME conv1dc_dgdw
#define OUT_Y 1
#define TILE_OH 0
// ct_dwbwd.cuh: the training passes of a depthwise layer (groups = Cin =
// Cout: one input and one output channel per group), NCHW / NCL, every
// element type, any stride, dilation and padding, through the LY_* names of
// FAMILY_as2d.cuh (a conv1dc layer is a 2D layer of height 1). The sizes
// below mirror templates/kernels/dwbwd/dwbwd_conv.c.
//
// dgdw (DB_NAME(dout, weight, din), LY_PASS 1): the input gradient
//   dx[b][c][yy][xx] = sum_{i,j} dy[b][c][y][x] * w[c][i][j],
//   y = (yy + PH - i*DY) / SY, x likewise, where that divides and lies in range.
// No zero insertion: the input pixels fall in SY x SX phase classes
// (yy % SY, xx % SX), and a phase class reads only the taps whose phase
// matches, the same for every pixel of the class. A block owns one phase
// class of a tile of one plane (b, c): in the class's own grid (m, n),
// yy = py + SY*m, xx = px + SX*n, it is a stride-1 correlation
//   dx[m][n] = sum_{valid i,j} dy[m + ry_i][n + rx_j] * w[i][j],
//   ry_i = (py + PH - i*DY) / SY,  rx_j = (px + PW - j*DX) / SX,
// so the forward kernels' register window applies (conv2dc_dwp.cu): the
// block stages its dy tile with halo (zeros outside the plane) and the
// channel's filter in shared memory; a thread computes OUT_Y x OUT_X pixels
// of the class, walks the staged rows its pixels read, loads each row's
// window of OUT_X + RXMAX - RXMIN values once into registers and slides the
// matching filter rows' taps (broadcast loads) along it. The phase is a
// template argument (one instantiation per class, dg_phase), so which taps
// a class reads and where they fall in the window are constants; with a
// stride of 1 there is one class and this is the flipped-filter correlation.
// SWAP 1 (stride 1, dilation 1) exchanges the roles of the filter and the
// plane: dx[yy][xx] = sum_{u,v} dy[u][v] * w[yy + PH - u][xx + PW - v],
// the filter staged (zeros outside it) as the windowed source and the dy
// plane as the taps: OH*OW products per pixel instead of KH*KW, none of
// them with a zero of the padding (a 31x31 filter on a 16x16 plane: 256
// instead of 961).
//
// wgdw (DB_NAME(in, dout, dweight), LY_PASS 2): the weight gradient
//   dW[c][i][j] = sum_{b,y,x} dy[b][c][y][x] * x[b][c][y*SY + i*DY - PH][x*SX + j*DX - PW],
//   then db[c] = sum_{b,y,x} dy[b][c][y][x] with LY_BIAS.
// A block owns one channel and walks its units (a band of TILE_OH dy rows
// of one batch item), staging each unit's dy rows and the x rows they read
// (zeros outside the plane) in shared memory. Its threads are GROUPS pixel
// groups of tap-tile threads: a thread owns TAP_Y x TAP_X taps (i0.., j0..)
// and the unit's segments (a row of PIX_X dy pixels) of its group; per
// segment it loads the PIX_X dy values (the same in every lane of the
// group: broadcasts) and, per tap row, a register window of (PIX_X - 1)*SX
// + (TAP_X - 1)*DX + 1 x values, and sums TAP_Y x TAP_X x PIX_X products.
// The lanes of a warp are tap tiles of one group (then the next group).
// Accuracy (fp32 within 1e-5 of fp64 on 16k-100k-term sums): a thread sums
// one unit's products in fp32 (a run of at most TILE_OH x OW / GROUPS
// pixels), adds that partial to its total (one term per unit), and the
// block sums the GROUPS totals by a pairwise tree in shared memory, in a
// fixed order: the result does not depend on timing, no atomics.
//
// SPLIT > 1 spreads a channel's units over SPLIT blocks (layers of few
// channels): each stores its sums in a module workspace and the last to
// arrive (an atomic count) adds them in slice order, so the result is
// still independent of timing.
//
// Tuning macros: dgdw OUT_X, OUT_Y, TILE_OH, TILE_OW (in the phase class's
// grid), VEC (4: 16-byte staging loads where aligned), SWAP, STREAM (rows
// of height 1 with no staging: OUT_X items of 4 outputs per thread); wgdw TAP_X,
// TAP_Y, PIX_X, GROUPS, TILE_OH (dy rows per unit), VEC, SPLIT, STREAM (rows
// of height 1 with no staging: GROUPS threads, PIX_X items of 4 a step).
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

#define DB_CDIV(a, b) (((a) + (b) - 1) / (b))
#define DB_RUP(a, b) (DB_CDIV(a, b) * (b))
#define DB_FDIV(a, b) ((a) >= 0 ? (a) / (b) : -((-(a) + (b) - 1) / (b)))   // floor
#define DB_PMOD(a, b) ((a) - DB_FDIV(a, b) * (b))                           // in [0, b)
#define DB_MAX(a, b) ((a) > (b) ? (a) : (b))

static_assert(LY_GROUPS == LY_CIN && LY_COUT == LY_CIN, "depthwise layers only (groups = Cin = Cout)");
static_assert(!LY_CL, "NCHW / NCL only");

template <int V>
__device__ __forceinline__ void db_lds(float *d, const float *p)
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

// Four elements at p (16-byte aligned in fp32, 8-byte in bf16/f16) to float.
__device__ __forceinline__ float4 db_ldg4(const ct_elem *p)
{
#if CT_DTYPE == 0
    return __ldg(reinterpret_cast<const float4 *>(p));
#else
    const uint2 u = __ldg(reinterpret_cast<const uint2 *>(p));
    const float2 a = ct_ld2(reinterpret_cast<const ct_elem2 *>(&u.x));
    const float2 b = ct_ld2(reinterpret_cast<const ct_elem2 *>(&u.y));
    return make_float4(a.x, a.y, b.x, b.y);
#endif
}

// Four floats stored as elements at p (16-byte aligned in fp32, 8 in bf16/f16).
__device__ __forceinline__ void db_st4(ct_elem *p, float a, float b, float c, float d)
{
#if CT_DTYPE == 0
    *reinterpret_cast<float4 *>(p) = make_float4(a, b, c, d);
#else
    ct_elem2 lo, hi;
    ct_st2(&lo, make_float2(a, b));
    ct_st2(&hi, make_float2(c, d));
    uint2 u;
    u.x = *reinterpret_cast<const unsigned *>(&lo);
    u.y = *reinterpret_cast<const unsigned *>(&hi);
    *reinterpret_cast<uint2 *>(p) = u;
#endif
}

// Stages rows x cols of the plane src (rows x width elements) into dst
// (pitch floats a row), the element at (r0 + r, c0 + q) into [r][q], zeros
// outside the plane. With VEC 4, c0 and width are multiples of 4 and cols
// is (16-byte loads of 4 whole elements where they lie in the plane).
template <int ROWS, int COLS, int PITCHV>
__device__ __forceinline__ void db_stage(float *dst, const ct_elem *__restrict__ src, int height, int width, int r0,
                                         int c0, int tid, int nt)
{
#if VEC == 4
    for (int e = tid; e < ROWS * (COLS / 4); e += nt) {
        const int r = e / (COLS / 4), q = (e % (COLS / 4)) * 4;
        const int gy = r0 + r, gx = c0 + q;
        float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (gy >= 0 && gy < height && gx >= 0 && gx < width)   // whole: width % 4 == 0
            v = db_ldg4(src + (long long)gy * width + gx);
        *reinterpret_cast<float4 *>(dst + r * PITCHV + q) = v;
    }
#else
    for (int e = tid; e < ROWS * COLS; e += nt) {
        const int r = e / COLS, q = e % COLS;
        const int gy = r0 + r, gx = c0 + q;
        dst[r * PITCHV + q] = gy >= 0 && gy < height && gx >= 0 && gx < width ? ct_ldg(src + (long long)gy * width + gx)
                                                                             : 0.0f;
    }
#endif
}

#if LY_PASS == 1 && STREAM
// ---- dgdw, STREAM 1: rows (height 1, NCL) streamed with no staging. A
// block owns DS_NT x OUT_X items (4 consecutive outputs each) of one row
// (b, c); thread tid's items are bx*DS_BI + u*DS_NT + tid, u < OUT_X, so a
// warp's loads and stores are contiguous. It issues all its loads first
// (OUT_X x DS_NV 4-element vectors in flight: the memory system stays busy
// without a barrier), then computes and stores each item. An item's window
// is the DS_NV vectors of dy covering [4k + PW - (KW-1)*DX, 4k + 3 + PW];
// the vectors past the item's own are its neighbours' and come from L1.
// Stride 1 with W and OW multiples of 4 (whole aligned vectors, each wholly
// in or out of the row); otherwise (strides, odd widths) each output reads
// its taps' dy elements one by one (cached loads), any stride, dilation and
// padding. Sums of KW products per output, as the staged path.
static_assert(LY_H == 1 && LY_KH == 1 && LY_OH == 1 && LY_PH == 0, "STREAM: rows of height 1");
#define DS_NI DB_CDIV(LY_W, 4)                        // items of a row
#define DS_REQ (TILE_OW == 0 || TILE_OW >= LY_W ? LY_W : TILE_OW)
#define DS_NT DB_RUP(DB_CDIV(DB_CDIV(DS_REQ, 4), OUT_X), 32)
#define DS_BI (DS_NT * OUT_X)                         // items of a block
#define DS_NTX DB_CDIV(DS_NI, DS_BI)                  // blocks of a row
#define DS_V (LY_SX == 1 && LY_W % 4 == 0 && LY_OW % 4 == 0)
#define DS_V0 DB_FDIV(LY_PW - (LY_KW - 1) * LY_DX, 4) // first window vector, from the item's
#define DS_NV (DB_FDIV(3 + LY_PW, 4) - DS_V0 + 1)
#define DS_MINB (DS_NT <= 256 ? 512 / DS_NT : 1)

extern "C" __global__ void __launch_bounds__(DS_NT, DS_MINB)
DB_NAME(const ct_elem *__restrict__ dout, const ct_elem *__restrict__ weight, ct_elem *__restrict__ din)
{
    const int tid = threadIdx.x;
    const int bx = blockIdx.x % DS_NTX;
    const long long plane = blockIdx.x / DS_NTX;  // b * C + c
    const int c = (int)(plane % LY_CIN);
    const ct_elem *dy = dout + plane * LY_OW;
    ct_elem *dx = din + plane * LY_W;
    float w[LY_KW];
#pragma unroll
    for (int j = 0; j < LY_KW; ++j)
        w[j] = ct_ldg(weight + (long long)c * LY_KW + j);
#if DS_V
    float win[OUT_X][DS_NV * 4];
#pragma unroll
    for (int u = 0; u < OUT_X; ++u) {
        const int k = bx * DS_BI + u * DS_NT + tid;
#pragma unroll
        for (int v = 0; v < DS_NV; ++v) {
            const int e = 4 * (k + DS_V0 + v);        // a multiple of 4: the vector wholly in or out
            float4 q = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            if (k < DS_NI && e >= 0 && e < LY_OW)
                q = db_ldg4(dy + e);
            win[u][4 * v] = q.x; win[u][4 * v + 1] = q.y; win[u][4 * v + 2] = q.z; win[u][4 * v + 3] = q.w;
        }
    }
#pragma unroll
    for (int u = 0; u < OUT_X; ++u) {
        const int k = bx * DS_BI + u * DS_NT + tid;
        if (k >= DS_NI)
            break;                                // later items lie further on
        float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
        for (int j = 0; j < LY_KW; ++j)
#pragma unroll
            for (int o = 0; o < 4; ++o)           // dy[4k + o + PW - j*DX]: window index in [0, 4*NV)
                acc[o] = fmaf(w[j], win[u][o + LY_PW - j * LY_DX - 4 * DS_V0], acc[o]);
        db_st4(dx + 4 * k, acc[0], acc[1], acc[2], acc[3]);
    }
#else
#pragma unroll
    for (int u = 0; u < OUT_X; ++u) {
        const int k = bx * DS_BI + u * DS_NT + tid;
        if (k >= DS_NI)
            break;
#pragma unroll
        for (int o = 0; o < 4; ++o) {
            const int xx = 4 * k + o;
            if (xx >= LY_W)
                break;
            float acc = 0.0f;
#pragma unroll
            for (int j = 0; j < LY_KW; ++j) {
                const int t = xx + LY_PW - j * LY_DX;  // SX * the dy column, where it divides
                if (t >= 0 && t % LY_SX == 0 && t / LY_SX < LY_OW)
                    acc = fmaf(w[j], ct_ldg(dy + t / LY_SX), acc);
            }
            ct_st(dx + xx, acc);
        }
    }
#endif
}

#elif LY_PASS == 1
// ---- dgdw. The windowed source S and the taps T: dy and the filter, or
// with SWAP the filter and dy. ry of tap row i is (py + DG_PH - i*DG_TDY) / SY.
#if SWAP
static_assert(LY_SY == 1 && LY_SX == 1 && LY_DY == 1 && LY_DX == 1, "SWAP: stride 1 and dilation 1");
#define DG_TKH LY_OH
#define DG_TKW LY_OW
#define DG_TDY 1
#define DG_TDX 1
#define DG_SRCH LY_KH
#define DG_SRCW LY_KW
#else
#define DG_TKH LY_KH
#define DG_TKW LY_KW
#define DG_TDY LY_DY
#define DG_TDX LY_DX
#define DG_SRCH LY_OH
#define DG_SRCW LY_OW
#endif
#define DG_NPH (LY_SY * LY_SX)
#define DG_MH DB_CDIV(LY_H, LY_SY)                   // rows of the largest phase class
#define DG_MW DB_CDIV(LY_W, LY_SX)
#define DG_RYMIN DB_FDIV(LY_PH - (DG_TKH - 1) * DG_TDY, LY_SY)
#define DG_RYMAX DB_FDIV(LY_SY - 1 + LY_PH, LY_SY)
#define DG_RXMIN DB_FDIV(LY_PW - (DG_TKW - 1) * DG_TDX, LY_SX)
#define DG_RXMAX DB_FDIV(LY_SX - 1 + LY_PW, LY_SX)
#define DG_TOH_REQ (TILE_OH == 0 || TILE_OH >= DG_MH ? DG_MH : TILE_OH)
#define DG_TOW_REQ (TILE_OW == 0 || TILE_OW >= DG_MW ? DG_MW : TILE_OW)
#define DG_TOH DB_RUP(DB_CDIV(DG_MH, DB_CDIV(DG_MH, DG_TOH_REQ)), OUT_Y)
#define DG_TOW DB_RUP(DB_CDIV(DG_MW, DB_CDIV(DG_MW, DG_TOW_REQ)), OUT_X)
#define DG_NTY DB_CDIV(DG_MH, DG_TOH)
#define DG_NTX DB_CDIV(DG_MW, DG_TOW)
#define DG_TX (DG_TOW / OUT_X)
#define DG_NITEMS ((DG_TOH / OUT_Y) * DG_TX)
#define DG_NT DB_RUP(DG_NITEMS, 32)
// Blocks per SM the registers must allow: 16 warps at least (128 registers
// a thread), so that small blocks do not leave an SM a few warps.
#define DG_MINB (DG_NT <= 256 ? 512 / DG_NT : 1)
#define DG_LEAD (VEC == 4 ? DB_PMOD(DG_RXMIN, 4) : 0)   // staged columns before the first read
#define DG_LV (DG_LEAD % 4 == 0 && OUT_X % 4 == 0 ? 4 : DG_LEAD % 2 == 0 && OUT_X % 2 == 0 ? 2 : 1)
#define DG_NWX (OUT_X + DG_RXMAX - DG_RXMIN)
#define DG_NWL DB_RUP(DG_NWX, DG_LV)
#define DG_NR (OUT_Y + DG_RYMAX - DG_RYMIN)            // staged rows a thread reads
#define DG_SIH (DG_TOH + DG_RYMAX - DG_RYMIN)
#define DG_PITCH0 DB_RUP(DG_LEAD + DG_TOW - OUT_X + DG_NWL, 4)
// The pitch padded (by up to 28 floats) so that the threads' rows, OUT_Y *
// PITCH apart, start TOW floats apart modulo 32 banks: the windows of the
// lanes of a warp that span several rows then fall in distinct banks.
#define DG_PK(k) ((OUT_Y * (DG_PITCH0 + 4 * (k)) - DG_TOW) % 32 == 0)
#define DG_PITCH (DG_PITCH0 + 4 * (DG_PK(0) ? 0 : DG_PK(1) ? 1 : DG_PK(2) ? 2 : DG_PK(3) ? 3 : DG_PK(4) ? 4 \
                                  : DG_PK(5) ? 5 : DG_PK(6) ? 6 : DG_PK(7) ? 7 : 0))
#define DG_KWP DB_RUP(DG_TKW, 4)
#define DG_S_IN (DG_SIH * DG_PITCH)
#define DG_S_T (DG_TKH * DG_KWP)
// Unrolled whole where the body stays small: the row tests fold away.
#define DG_UNROLL_ALL (DG_NR * OUT_Y * DG_TKW * OUT_X <= 512)

static_assert(VEC == 1 || (DG_SRCW % 4 == 0 && (DG_NTX == 1 || DG_TOW % 4 == 0)), "VEC 4: whole 4-element rows");

// The OUT_Y x OUT_X pixels of phase class (PY, PX) of thread (ty, tx).
template <int PY, int PX>
__device__ __forceinline__ void dg_phase(const float *s_in, const float *s_t, int ty, int tx,
                                         float (&acc)[OUT_Y][OUT_X])
{
    const float *base = s_in + ty * OUT_Y * DG_PITCH + DG_LEAD + tx * OUT_X;
#if DG_UNROLL_ALL
#pragma unroll
#else
#pragma unroll 1
#endif
    for (int r = 0; r < DG_NR; ++r) {
        float win[DG_NWL];
#pragma unroll
        for (int u = 0; u < DG_NWL; u += DG_LV)
            db_lds<DG_LV>(&win[u], base + r * DG_PITCH + u);
#pragma unroll
        for (int a = 0; a < OUT_Y; ++a) {
            // Pixel row a reads staged row r through tap row id / TDY: the
            // same for every thread of the block (a uniform branch).
            const int id = PY + LY_PH - LY_SY * (r - a + DG_RYMIN);
            if (id >= 0 && id % DG_TDY == 0 && id / DG_TDY < DG_TKH) {
                const float *tr = s_t + (id / DG_TDY) * DG_KWP;
#pragma unroll
                for (int jq = 0; jq < DG_KWP; jq += 4) {
                    float t[4];
                    db_lds<4>(t, tr + jq);
#pragma unroll
                    for (int jj = 0; jj < 4; ++jj) {
                        const int jd = PX + LY_PW - (jq + jj) * DG_TDX;   // SX * rx of tap column jq + jj
                        if (jq + jj < DG_TKW && jd % LY_SX == 0) {
#pragma unroll
                            for (int o = 0; o < OUT_X; ++o)
                                acc[a][o] = fmaf(t[jj], win[o + jd / LY_SX - DG_RXMIN], acc[a][o]);
                        }
                    }
                }
            }
        }
    }
}

// Phase class p's instantiation, found by a chain of constant tests.
template <int P>
struct dg_dispatch {
    static __device__ __forceinline__ void run(int p, const float *s_in, const float *s_t, int ty, int tx,
                                               float (&acc)[OUT_Y][OUT_X])
    {
        if (p == P)
            dg_phase<P / LY_SX, P % LY_SX>(s_in, s_t, ty, tx, acc);
        else
            dg_dispatch<P - 1>::run(p, s_in, s_t, ty, tx, acc);
    }
};
template <>
struct dg_dispatch<0> {
    static __device__ __forceinline__ void run(int, const float *s_in, const float *s_t, int ty, int tx,
                                               float (&acc)[OUT_Y][OUT_X])
    {
        dg_phase<0, 0>(s_in, s_t, ty, tx, acc);
    }
};

extern "C" __global__ void __launch_bounds__(DG_NT, DG_MINB)
DB_NAME(const ct_elem *__restrict__ dout, const ct_elem *__restrict__ weight, ct_elem *__restrict__ din)
{
    extern __shared__ __align__(16) float smem[];
    float *s_in = smem;                   // [SIH][PITCH]: the windowed source tile
    float *s_t = smem + DG_S_IN;          // [TKH][KWP]: the taps, zeros past TKW
    const int tid = threadIdx.x;
    const int tile = blockIdx.x % (DG_NTY * DG_NTX);
    const int rest = blockIdx.x / (DG_NTY * DG_NTX);
    const int phase = rest % DG_NPH;
    const int plane = rest / DG_NPH;      // b * C + c
    const int c = plane % LY_CIN;
    const int py = phase / LY_SX, px = phase % LY_SX;
    const int m0 = (tile / DG_NTX) * DG_TOH, n0 = (tile % DG_NTX) * DG_TOW;
    const ct_elem *dy = dout + (long long)plane * (LY_OH * LY_OW);
    const ct_elem *w = weight + (long long)c * (LY_KH * LY_KW);
#if SWAP
    db_stage<DG_SIH, DG_PITCH, DG_PITCH>(s_in, w, LY_KH, LY_KW, m0 + DG_RYMIN, n0 + DG_RXMIN - DG_LEAD, tid, DG_NT);
    for (int e = tid; e < DG_S_T; e += DG_NT) {
        const int i = e / DG_KWP, j = e % DG_KWP;
        s_t[e] = j < LY_OW ? ct_ldg(dy + i * LY_OW + j) : 0.0f;
    }
#else
    db_stage<DG_SIH, DG_PITCH, DG_PITCH>(s_in, dy, LY_OH, LY_OW, m0 + DG_RYMIN, n0 + DG_RXMIN - DG_LEAD, tid, DG_NT);
    for (int e = tid; e < DG_S_T; e += DG_NT) {
        const int i = e / DG_KWP, j = e % DG_KWP;
        s_t[e] = j < LY_KW ? ct_ldg(w + i * LY_KW + j) : 0.0f;
    }
#endif
    __syncthreads();
    if (tid >= DG_NITEMS)
        return;
    const int ty = tid / DG_TX, tx = tid % DG_TX;
    float acc[OUT_Y][OUT_X];
#pragma unroll
    for (int a = 0; a < OUT_Y; ++a)
#pragma unroll
        for (int o = 0; o < OUT_X; ++o)
            acc[a][o] = 0.0f;
    dg_dispatch<DG_NPH - 1>::run(phase, s_in, s_t, ty, tx, acc);

    ct_elem *dst = din + (long long)plane * (LY_H * LY_W);
    const int x0 = n0 + tx * OUT_X;
#pragma unroll
    for (int a = 0; a < OUT_Y; ++a) {
        const int yy = py + LY_SY * (m0 + ty * OUT_Y + a);
        if (yy >= LY_H)
            break;
        ct_elem *row = dst + yy * LY_W;
        if (LY_SX == 1 && LY_W % 4 == 0 && OUT_X % 4 == 0 && x0 + OUT_X <= LY_W) {
            // x0 is a multiple of 4: whole quads (16 bytes in fp32, 8 in bf16/f16).
#pragma unroll
            for (int o = 0; o < OUT_X; o += 4)
                db_st4(row + x0 + o, acc[a][o], acc[a][o + 1], acc[a][o + 2], acc[a][o + 3]);
        } else if (LY_SX == 1 && LY_W % 2 == 0 && OUT_X % 2 == 0 && x0 + OUT_X <= LY_W) {
            // x0 is even: whole pairs (8 bytes in fp32, 4 in bf16/f16).
#pragma unroll
            for (int o = 0; o < OUT_X; o += 2)
                ct_st2(reinterpret_cast<ct_elem2 *>(row + x0 + o), make_float2(acc[a][o], acc[a][o + 1]));
        } else {
#pragma unroll
            for (int o = 0; o < OUT_X; ++o) {
                const int xx = px + LY_SX * (x0 + o);
                if (xx < LY_W)
                    ct_st(row + xx, acc[a][o]);
            }
        }
    }
}

#elif LY_PASS == 2
// ---- wgdw.
#define WG_NTI DB_CDIV(LY_KH, TAP_Y)
#define WG_NTJ DB_CDIV(LY_KW, TAP_X)
#define WG_TT (WG_NTI * WG_NTJ)                      // tap-tile threads of a group
#define WG_KHP (WG_NTI * TAP_Y)
#define WG_KWP (WG_NTJ * TAP_X)
#define WG_NCH DB_CDIV(LY_OW, PIX_X)                 // segments of a dy row
#define WG_OWP (WG_NCH * PIX_X)
#define WG_BR_REQ (TILE_OH == 0 || TILE_OH >= LY_OH ? LY_OH : TILE_OH)
#define WG_BR DB_CDIV(LY_OH, DB_CDIV(LY_OH, WG_BR_REQ))   // dy rows of a unit
#define WG_NB DB_CDIV(LY_OH, WG_BR)
#define WG_NU (LY_B * WG_NB)                         // units of a channel
#define WG_SEGS (WG_BR * WG_NCH)
#define WG_NTH (WG_TT * GROUPS)
#define WG_NT DB_RUP(WG_NTH, 32)
#define WG_MINB (WG_NT <= 256 ? 512 / WG_NT : 1)   // as DG_MINB
#define WG_LEAD (VEC == 4 ? DB_PMOD(-LY_PW, 4) : 0)  // staged x columns before column -PW
#define WG_LV (WG_LEAD % 4 == 0 && (PIX_X * LY_SX) % 4 == 0 && (TAP_X * LY_DX) % 4 == 0 ? 4 \
               : WG_LEAD % 2 == 0 && (PIX_X * LY_SX) % 2 == 0 && (TAP_X * LY_DX) % 2 == 0 ? 2 : 1)
#define WG_NWX ((PIX_X - 1) * LY_SX + (TAP_X - 1) * LY_DX + 1)
#define WG_NWL DB_RUP(WG_NWX, WG_LV)
#define WG_SIH ((WG_BR - 1) * LY_SY + (WG_KHP - 1) * LY_DY + 1)
#define WG_PITCH DB_RUP(WG_LEAD + (WG_NCH - 1) * PIX_X * LY_SX + (WG_NTJ - 1) * TAP_X * LY_DX + WG_NWL, 4)
#define WG_DYP DB_RUP(WG_OWP, 4)
#define WG_S_X (WG_SIH * WG_PITCH)
#define WG_S_DY (WG_BR * WG_DYP)
#define WG_NTAPS (LY_KH * LY_KW + LY_BIAS)           // results of a channel
#define WG_S_RED (GROUPS * WG_NTAPS)
#if STREAM
#define WG_SMEM DB_MAX(WG_S_RED, WG_NTAPS + 1)      // no staging
#else
#define WG_SMEM DB_MAX(DB_MAX(WG_S_X + WG_S_DY, WG_S_RED), WG_NTAPS + 1)   // + SPLIT's flag
#endif
#define WG_P2 (GROUPS <= 1 ? 1 : GROUPS <= 2 ? 2 : GROUPS <= 4 ? 4 : GROUPS <= 8 ? 8 : GROUPS <= 16 ? 16 \
               : GROUPS <= 32 ? 32 : GROUPS <= 64 ? 64 : GROUPS <= 128 ? 128 : GROUPS <= 256 ? 256 \
               : GROUPS <= 512 ? 512 : 1024)
#define WG_DV (PIX_X % 4 == 0 ? 4 : PIX_X % 2 == 0 ? 2 : 1)

static_assert(VEC == 1 || (LY_W % 4 == 0 && LY_OW % 4 == 0), "VEC 4: whole 4-element rows");
static_assert(SPLIT >= 1 && SPLIT <= WG_NU, "SPLIT: 1 to the channel's units");

#if SPLIT > 1
// A channel's SPLIT blocks' sums, and how many have arrived: module
// variables (zeros when the module loads), so the kernel is one launch; the
// last block to arrive resets its channel's count for the next launch.
// Launches of one module must not overlap (one stream).
__device__ float wg_ws[SPLIT * LY_CIN * WG_NTAPS];
__device__ unsigned wg_cnt[LY_CIN];
#endif

extern "C" __global__ void __launch_bounds__(WG_NT, WG_MINB)
DB_NAME(const ct_elem *__restrict__ in, const ct_elem *__restrict__ dout, ct_elem *__restrict__ dweight)
{
    extern __shared__ __align__(16) float smem[];
    float *s_x = smem;                    // [SIH][PITCH]: x rows of the unit, column 0 is -PW - LEAD
    float *s_dy = smem + WG_S_X;          // [BR][DYP]: the unit's dy rows, zeros past OW
    float *s_red = smem;                  // [GROUPS][NTAPS], after the units
    const int tid = threadIdx.x;
    const int c = blockIdx.x / SPLIT, sp = blockIdx.x % SPLIT;
    const int ulo = (int)((long long)sp * WG_NU / SPLIT), uhi = (int)((long long)(sp + 1) * WG_NU / SPLIT);
    const int g = tid / WG_TT, tt = tid % WG_TT;
    const int i0 = (tt / WG_NTJ) * TAP_Y, j0 = (tt % WG_NTJ) * TAP_X;
    const bool live = tid < WG_NTH;
    float tot[TAP_Y][TAP_X], btot = 0.0f;
#pragma unroll
    for (int a = 0; a < TAP_Y; ++a)
#pragma unroll
        for (int o = 0; o < TAP_X; ++o)
            tot[a][o] = 0.0f;

#if STREAM
    // STREAM 1 (rows of height 1; normalize makes TAP_X = KW, TAP_Y 1: one
    // tap tile, a group a thread): each thread takes items of 4 dy
    // positions of a row, PIX_X of them a step (k = k0 + p*GROUPS + tid, so a
    // warp's loads are contiguous), all their loads issued before the sums;
    // an item's x window is WS_NV vectors from vector k + WS_X0 (stride 1,
    // W and OW multiples of 4: whole aligned vectors), else element loads.
    // A thread sums a row's products in fp32 (at most 4 x
    // CDIV(items, GROUPS) a tap), adds that to its total (one term a row),
    // and the tree below combines the threads as the groups.
    static_assert(LY_H == 1 && LY_KH == 1 && LY_OH == 1 && LY_PH == 0 && TAP_Y == 1 && TAP_X == LY_KW &&
                  WG_TT == 1, "STREAM: rows of height 1, one tap tile");
#define WS_NI DB_CDIV(LY_OW, 4)
#define WS_V (LY_SX == 1 && LY_W % 4 == 0 && LY_OW % 4 == 0)
#define WS_X0 DB_FDIV(-LY_PW, 4)
#define WS_NV (DB_FDIV(3 + (LY_KW - 1) * LY_DX - LY_PW, 4) - WS_X0 + 1)
    for (int u = ulo; u < uhi; ++u) {
        const long long plane = (long long)u * LY_CIN + c;   // units are batch items (one band of 1 row)
        const ct_elem *xrow = in + plane * LY_W, *dyrow = dout + plane * LY_OW;
        float part[LY_KW], bpart = 0.0f;
#pragma unroll
        for (int j = 0; j < LY_KW; ++j)
            part[j] = 0.0f;
        if (live) {
#pragma unroll 1
            for (int k0 = 0; k0 < WS_NI; k0 += WG_NTH * PIX_X) {
                float dv[PIX_X][4];
#if WS_V
                float xw[PIX_X][WS_NV * 4];
#pragma unroll
                for (int p = 0; p < PIX_X; ++p) {
                    const int k = k0 + p * WG_NTH + tid;
                    float4 q = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
                    if (k < WS_NI)
                        q = db_ldg4(dyrow + 4 * k);
                    dv[p][0] = q.x; dv[p][1] = q.y; dv[p][2] = q.z; dv[p][3] = q.w;
#pragma unroll
                    for (int v = 0; v < WS_NV; ++v) {
                        const int e = 4 * (k + WS_X0 + v);   // wholly in or out of the row
                        float4 r = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
                        if (k < WS_NI && e >= 0 && e < LY_W)
                            r = db_ldg4(xrow + e);
                        xw[p][4 * v] = r.x; xw[p][4 * v + 1] = r.y; xw[p][4 * v + 2] = r.z; xw[p][4 * v + 3] = r.w;
                    }
                }
#pragma unroll
                for (int p = 0; p < PIX_X; ++p)
#pragma unroll
                    for (int o = 0; o < 4; ++o) {
                        if (LY_BIAS)
                            bpart += dv[p][o];
#pragma unroll
                        for (int j = 0; j < LY_KW; ++j)   // x[4k + o + j*DX - PW]: window index in [0, 4*NV)
                            part[j] = fmaf(dv[p][o], xw[p][o + j * LY_DX - LY_PW - 4 * WS_X0], part[j]);
                    }
#else
#pragma unroll
                for (int p = 0; p < PIX_X; ++p) {
                    const int k = k0 + p * WG_NTH + tid;
#pragma unroll
                    for (int o = 0; o < 4; ++o)
                        dv[p][o] = k < WS_NI && 4 * k + o < LY_OW ? ct_ldg(dyrow + 4 * k + o) : 0.0f;
                }
#pragma unroll
                for (int p = 0; p < PIX_X; ++p) {
                    const int k = k0 + p * WG_NTH + tid;
#pragma unroll
                    for (int o = 0; o < 4; ++o) {
                        if (LY_BIAS)
                            bpart += dv[p][o];
#pragma unroll
                        for (int j = 0; j < LY_KW; ++j) {
                            const int xx = (4 * k + o) * LY_SX + j * LY_DX - LY_PW;
                            const float xv = k < WS_NI && 4 * k + o < LY_OW && xx >= 0 && xx < LY_W
                                                 ? ct_ldg(xrow + xx) : 0.0f;
                            part[j] = fmaf(dv[p][o], xv, part[j]);
                        }
                    }
                }
#endif
            }
        }
#pragma unroll
        for (int j = 0; j < LY_KW; ++j)
            tot[0][j] += part[j];
        btot += bpart;
    }
#else
    for (int u = ulo; u < uhi; ++u) {
        const int b = u / WG_NB, y0 = (u % WG_NB) * WG_BR;
        const long long plane = (long long)b * LY_CIN + c;
        __syncthreads();                  // the previous unit's reads are done
        db_stage<WG_SIH, WG_PITCH, WG_PITCH>(s_x, in + plane * (LY_H * LY_W), LY_H, LY_W, y0 * LY_SY - LY_PH,
                                             -LY_PW - WG_LEAD, tid, WG_NT);
        // dy rows past OH (the last band) are zeros: they add nothing.
        db_stage<WG_BR, WG_DYP, WG_DYP>(s_dy, dout + plane * (LY_OH * LY_OW), LY_OH, LY_OW, y0, 0, tid, WG_NT);
        __syncthreads();
        if (!live)
            continue;
        float part[TAP_Y][TAP_X], bpart = 0.0f;
#pragma unroll
        for (int a = 0; a < TAP_Y; ++a)
#pragma unroll
            for (int o = 0; o < TAP_X; ++o)
                part[a][o] = 0.0f;
        for (int s = g; s < WG_SEGS; s += GROUPS) {
            const int yr = s / WG_NCH, k = s % WG_NCH;
            float dv[PIX_X];
#pragma unroll
            for (int p = 0; p < PIX_X; p += WG_DV)
                db_lds<WG_DV>(&dv[p], s_dy + yr * WG_DYP + k * PIX_X + p);
            if (LY_BIAS) {
#pragma unroll
                for (int p = 0; p < PIX_X; ++p)
                    bpart += dv[p];
            }
            const float *xr = s_x + (yr * LY_SY + i0 * LY_DY) * WG_PITCH + WG_LEAD + k * PIX_X * LY_SX + j0 * LY_DX;
#pragma unroll
            for (int a = 0; a < TAP_Y; ++a) {
                float win[WG_NWL];
#pragma unroll
                for (int q = 0; q < WG_NWL; q += WG_LV)
                    db_lds<WG_LV>(&win[q], xr + a * LY_DY * WG_PITCH + q);
#pragma unroll
                for (int p = 0; p < PIX_X; ++p)
#pragma unroll
                    for (int o = 0; o < TAP_X; ++o)
                        part[a][o] = fmaf(dv[p], win[p * LY_SX + o * LY_DX], part[a][o]);
            }
        }
#pragma unroll
        for (int a = 0; a < TAP_Y; ++a)
#pragma unroll
            for (int o = 0; o < TAP_X; ++o)
                tot[a][o] += part[a][o];
        btot += bpart;
    }
#endif

    // The groups' totals, then a pairwise tree over the groups (fixed order).
    __syncthreads();
    if (live) {
#pragma unroll
        for (int a = 0; a < TAP_Y; ++a)
#pragma unroll
            for (int o = 0; o < TAP_X; ++o)
                if (i0 + a < LY_KH && j0 + o < LY_KW)
                    s_red[g * WG_NTAPS + (i0 + a) * LY_KW + j0 + o] = tot[a][o];
        if (LY_BIAS && tt == 0)
            s_red[g * WG_NTAPS + WG_NTAPS - 1] = btot;
    }
    __syncthreads();
#pragma unroll 1
    for (int h = WG_P2 / 2; h >= 1; h /= 2) {
        for (int e = tid; e < h * WG_NTAPS; e += WG_NT) {
            const int gg = e / WG_NTAPS;
            if (gg + h < GROUPS)
                s_red[e] += s_red[e + h * WG_NTAPS];
        }
        __syncthreads();
    }
#if SPLIT > 1
    // Deterministic across blocks: each block stores its sums; the last of
    // the channel's blocks to arrive adds the SPLIT sums in slice order.
    float *s_last = s_red + WG_NTAPS;    // free once the tree is done
    float *ws = wg_ws + (long long)c * SPLIT * WG_NTAPS;
    for (int e = tid; e < WG_NTAPS; e += WG_NT)
        ws[sp * WG_NTAPS + e] = s_red[e];
    __threadfence();                      // this thread's sums visible before the count
    __syncthreads();
    if (tid == 0)
        *s_last = atomicAdd(&wg_cnt[c], 1u) == SPLIT - 1 ? 1.0f : 0.0f;
    __syncthreads();
    if (*s_last == 0.0f)
        return;
    __threadfence();
    for (int e = tid; e < WG_NTAPS; e += WG_NT) {
        float v = 0.0f;
#pragma unroll
        for (int k = 0; k < SPLIT; ++k)
            v += __ldcg(ws + k * WG_NTAPS + e);   // from L2: other SMs wrote them
        s_red[e] = v;
    }
    if (tid == 0)
        wg_cnt[c] = 0;
    __syncthreads();
#endif
    for (int e = tid; e < LY_KH * LY_KW; e += WG_NT)
        ct_st(&dweight[(long long)c * (LY_KH * LY_KW) + e], s_red[e]);
    if (LY_BIAS && tid == 0)
        ct_st(&dweight[(long long)LY_CIN * (LY_KH * LY_KW) + c], s_red[WG_NTAPS - 1]);
}
#endif
