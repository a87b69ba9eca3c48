// conv1dc_simt: any conv1dc layer (stride, dilation, padding or causal,
// groups) on the FMA units in fp32, for every architecture from sm_75, as a
// 2D layer of height 1; see ct_conv_simt.cuh for the method and the tuning
// macros (OUT_Y and TILE_OH are 1).
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
#if CT_DTYPE != 0   // the half-type entry, conv1dc_simth
#define SM_NAME conv1dc_simth
#else
#define SM_NAME conv1dc_simt
#endif
#define SM_B CONV_B
#define SM_GROUPS CONV_GROUPS
#define SM_CING CONV_CING
#define SM_COUTG CONV_COUTG
#define SM_H 1
#define SM_W CONV_L
#define SM_KH 1
#define SM_KW CONV_K
#define SM_OH 1
#define SM_OW CONV_LOUT
#define SM_PH 0
#define SM_PW CONV_PAD
#define SM_SY 1
#define SM_SX CONV_STRIDE
#define SM_DY 1
#define SM_DX CONV_DIL
#define SM_BIAS CONV_BIAS
#ifdef CONV_CHANNELS_LAST
#define SM_CL CONV_CHANNELS_LAST
#endif
#define OUT_Y 1
#define TILE_OH 1
// ct_conv_simt.cuh: a convolution layer of any stride, dilation, padding and
// groups on the FMA units (fp32, any architecture from sm_75). Included by
// conv1dc_simt and conv2dc_simt, which map their problem macros onto the SM_*
// ones below (a 1D layer is a 2D one of height 1); exports inline it.
//
//   out[b][co][oy][ox] = bias[co] + sum_{ci<CING, i, j} w[co][ci][i][j] *
//                        in[b][g*CING + ci][oy*SY - PH + i*DY][ox*SX - PW + j*DX],  g = co / COUTG
//
// A group's COUTG output channels are cut into slices of CPT channels; a
// thread owns one slice x OUT_Y x OUT_X outputs (OUT_X consecutive along a
// row) and sums over its group's CING input channels only. A block owns
// COUT_SLICES consecutive slices (several whole groups when a group has fewer
// slices, so that a grouped layer with few channels per group still fills a
// block) x one TOH x TOW output tile of one image, and walks the input
// channels of its groups CC at a time: per chunk it stages (cp.async from
// sm_80, two buffers with PIPE) the haloed input tile of every group's CC
// channels, zeros outside the image, and the weights of its slices laid out
// [cc][i][j][co] so that a thread's CPT weights of a tap are one vector load,
// the same address for the whole warp (a broadcast) since a warp's lanes are
// consecutive pixel groups of one slice. Per input channel and filter row a
// thread loads one window of NWX = (OUT_X-1)*SX + (KW-1)*DX + 1 floats per
// output row (vector loads where OUT_X*SX allows), then per tap CPT weights,
// and does OUT_Y x OUT_X x CPT FMAs on them: stride and dilation are only
// the compile-time offsets o*SX + j*DX into the window.
//
// Channels last (SM_CL, NHWC/NLC; admitted below sm_80, where no tensor-core
// kernel reads it in fp32): the same staged tile, copied one float at a time
// with consecutive threads on consecutive channels (coalesced reads; a
// channel's tile is padded to 4 mod 32 floats so that their shared stores
// spread over the banks), and each thread's outputs stored along its
// channels (vectors where the group's channels allow).
//
// bf16 and f16 (CT_DTYPE 1, 2; the entry FAMILY_simth, bf16 below sm_80,
// where no tensor-core kernel takes bf16): the same kernel computing
// in fp32, each element widened as an ordinary load stages it (one at a
// time; cp.async cannot widen), each output rounded once as it is stored.
//
// Problem macros: SM_NAME (the kernel), SM_B, SM_GROUPS, SM_CING, SM_COUTG
// (channels of one group), SM_H, SM_W, SM_KH, SM_KW, SM_OH, SM_OW, SM_PH,
// SM_PW (zeros before the first row and column), SM_SY, SM_SX, SM_DY, SM_DX,
// SM_BIAS, SM_CL (0 or undefined: NCHW/NCL).
// Tuning macros (the effective values are those of tuner/families/tc/
// simt_conv.c, which normalises candidates to them):
//   OUT_X, OUT_Y      outputs per thread along a row and down a column
//   COUT_PER_THREAD   output channels per thread (balanced over the group)
//   COUT_SLICES       slices per block: a divisor of the group's slices, or
//                     a multiple of them (whole groups)
//   TILE_OH, TILE_OW  output tile per block (0: the whole plane)
//   CIN_CHUNK         input channels of a group staged at a time (0: all)
//   PIPE              1: two buffers, the next chunk copied during this one

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

#define SM_CDIV(a, b) (((a) + (b) - 1) / (b))
#define SM_RUP(a, b) (SM_CDIV(a, b) * (b))
#define SM_STR(x) #x
#define SM_PRAGMA(x) _Pragma(SM_STR(x))
#define SM_UNROLL(n) SM_PRAGMA(unroll n)
#ifndef SM_CL
#define SM_CL 0
#endif
#define SM_CIN (SM_CING * SM_GROUPS)
#define SM_COUT (SM_COUTG * SM_GROUPS)

// Output channels: NCG slices of CPT per group, the last one maybe partial.
#define SM_CPT_REQ (COUT_PER_THREAD < SM_COUTG ? COUT_PER_THREAD : SM_COUTG)
#define SM_NCG SM_CDIV(SM_COUTG, SM_CPT_REQ)
#define SM_CPT SM_CDIV(SM_COUTG, SM_NCG)
#define SM_NSL COUT_SLICES
#define SM_GPB (SM_NSL >= SM_NCG ? SM_NSL / SM_NCG : 1)   // groups staged per block
#define SM_NCB SM_CDIV(SM_GROUPS * SM_NCG, SM_NSL)        // channel blocks

// Output tiles, balanced, rounded up to whole threads.
#define SM_TOH_REQ (TILE_OH == 0 || TILE_OH >= SM_OH ? SM_OH : TILE_OH)
#define SM_TOW_REQ (TILE_OW == 0 || TILE_OW >= SM_OW ? SM_OW : TILE_OW)
#define SM_TOH SM_RUP(SM_CDIV(SM_OH, SM_CDIV(SM_OH, SM_TOH_REQ)), OUT_Y)
#define SM_TOW SM_RUP(SM_CDIV(SM_OW, SM_CDIV(SM_OW, SM_TOW_REQ)), OUT_X)
#define SM_NTY SM_CDIV(SM_OH, SM_TOH)
#define SM_NTX SM_CDIV(SM_OW, SM_TOW)
#define SM_XG (SM_TOW / OUT_X)                            // pixel groups along a tile row
#define SM_PIX ((SM_TOH / OUT_Y) * SM_XG)                 // pixel groups of a tile
#define SM_NT SM_RUP(SM_PIX * SM_NSL, 32)
// A block's copy and compute do not overlap: two blocks and 16 warps per SM
// at least (the host keeps SM_NT <= 512).
#define SM_MINB (SM_NT >= 256 ? 2 : 512 / SM_NT)

#define SM_CC (CIN_CHUNK == 0 || CIN_CHUNK >= SM_CING ? SM_CING : CIN_CHUNK)
#define SM_NCH SM_CDIV(SM_CING, SM_CC)
#define SM_NBUF (PIPE ? 2 : 1)
#define SM_KHW (SM_KH * SM_KW)

// The staged tile: SIH rows of PITCH floats per channel, column u holding
// input column ox0*SX - PW + u. Copies move LVG floats where every tile's
// first column and every row start are LVG-aligned in memory.
#define SM_STEP (OUT_X * SM_SX)
#define SM_NWX ((OUT_X - 1) * SM_SX + (SM_KW - 1) * SM_DX + 1)
#define SM_LV (SM_STEP % 4 == 0 ? 4 : SM_STEP % 2 == 0 ? 2 : 1)
#define SM_NWL SM_RUP(SM_NWX, SM_LV)
#define SM_SIH ((SM_TOH - 1) * SM_SY + (SM_KH - 1) * SM_DY + 1)
#define SM_PITCH SM_RUP((SM_XG - 1) * SM_STEP + SM_NWL, 4)
#define SM_ALIGNED(n) (SM_W % (n) == 0 && SM_PW % (n) == 0 && (SM_NTX == 1 || (SM_TOW * SM_SX) % (n) == 0))
#define SM_LVG (SM_CL || CT_DTYPE != 0 ? 1 : SM_ALIGNED(4) ? 4 : SM_ALIGNED(2) ? 2 : 1)
// Floats per staged channel (channels last: the next 4 mod 32, see above).
#define SM_CHP (SM_CL ? SM_RUP(SM_SIH * SM_PITCH - 4, 32) + 4 : SM_SIH * SM_PITCH)
#define SM_S_IN (SM_GPB * SM_CC * SM_CHP)
// Weights [cc][i][j][co of the block], co padded to 4.
#define SM_WP SM_RUP(SM_NSL * SM_CPT, 4)
#define SM_S_W (SM_CC * SM_KHW * SM_WP)
#define SM_STAGE (SM_S_IN + SM_S_W)
#define SM_WV (SM_CPT % 4 == 0 ? 4 : SM_CPT % 2 == 0 ? 2 : 1)
// Output vectors along a row (NCHW) or the channels (channels last, CV);
// bf16/f16 outputs are rounded and stored one at a time.
#define SM_SV (CT_DTYPE != 0 ? 1 : OUT_X % 4 == 0 && SM_OW % 4 == 0 ? 4 : OUT_X % 2 == 0 && SM_OW % 2 == 0 ? 2 : 1)
#define SM_CV (CT_DTYPE != 0 ? 1 : SM_CPT % 4 == 0 && SM_COUTG % 4 == 0 ? 4 : SM_CPT % 2 == 0 && SM_COUTG % 2 == 0 ? 2 : 1)

// Fully unrolled bodies up to this many FMAs (NVRTC time, instruction cache).
#define SM_ROW_FMAS (SM_KW * SM_CPT * OUT_Y * OUT_X)
#define SM_IUNROLL (SM_KH * SM_ROW_FMAS <= 1024 ? SM_KH : 1)
#define SM_CUNROLL (SM_IUNROLL * SM_ROW_FMAS * 2 <= 1024 ? 2 : 1)

template <int N>
__device__ __forceinline__ void sm_lds(float *d, const float *p)
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

// N floats from global src (a valid address even when !ok) to shared dst,
// zeros when !ok; asynchronous from sm_80, complete after sm_wait. bf16 and
// f16: one element (N is 1), widened through a register.
template <int N>
__device__ __forceinline__ void sm_copy(float *dst, const ct_elem *src, bool ok)
{
#if CT_DTYPE != 0
    *dst = ok ? ct_ldg(src) : 0.0f;
#elif __CUDA_ARCH__ >= 800
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    if (N == 4)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(ok ? 16 : 0) : "memory");
    else if (N == 2)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(d), "l"(src), "r"(ok ? 8 : 0) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(ok ? 4 : 0) : "memory");
#else
    if (N == 4)
        *reinterpret_cast<float4 *>(dst) = ok ? __ldg(reinterpret_cast<const float4 *>(src)) : make_float4(0, 0, 0, 0);
    else if (N == 2)
        *reinterpret_cast<float2 *>(dst) = ok ? __ldg(reinterpret_cast<const float2 *>(src)) : make_float2(0, 0);
    else
        *dst = ok ? __ldg(src) : 0.0f;
#endif
}

__device__ __forceinline__ void sm_commit()
{
#if __CUDA_ARCH__ >= 800 && CT_DTYPE == 0
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

template <int N>
__device__ __forceinline__ void sm_wait()
{
#if __CUDA_ARCH__ >= 800 && CT_DTYPE == 0
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

// Issue the copy of chunk k (the block's groups' input channels k*CC ..,
// and their weights) into s.
__device__ __forceinline__ void sm_stage(float *s, const ct_elem *__restrict__ in, const ct_elem *__restrict__ weight,
                                         int b, int iy0, int ix0, int g0, int slot0, int k)
{
    constexpr int NU = SM_PITCH / SM_LVG;
#if SM_CL
    // Channel fastest: a warp reads runs of consecutive channels of a pixel.
    constexpr int NCH = SM_GPB * SM_CC;
#pragma unroll 4
    for (int idx = threadIdx.x; idx < NCH * SM_SIH * NU; idx += SM_NT) {
        const int ch = idx % NCH, rest = idx / NCH;         // ch = gl * CC + cc
        const int u = rest % NU, r = rest / NU;
        const int g = g0 + ch / SM_CC, ci = k * SM_CC + ch % SM_CC;
        const int gy = iy0 + r, gx = ix0 + u;
        const bool ok = (SM_GROUPS % SM_GPB == 0 || g < SM_GROUPS) && (SM_CING % SM_CC == 0 || ci < SM_CING) &&
                        gy >= 0 && gy < SM_H && gx >= 0 && gx < SM_W;
        sm_copy<1>(s + ch * SM_CHP + r * SM_PITCH + u,
                   ok ? in + ((long long)(b * SM_H + gy) * SM_W + gx) * SM_CIN + g * SM_CING + ci : in, ok);
    }
#else
#pragma unroll 4
    for (int idx = threadIdx.x; idx < SM_GPB * SM_CC * SM_SIH * NU; idx += SM_NT) {
        const int u = idx % NU, rest = idx / NU;
        const int r = rest % SM_SIH, ch = rest / SM_SIH;   // ch = gl * CC + cc
        const int g = g0 + ch / SM_CC, ci = k * SM_CC + ch % SM_CC;
        const int gy = iy0 + r, gx = ix0 + u * SM_LVG;
        const bool ok = (SM_GROUPS % SM_GPB == 0 || g < SM_GROUPS) && (SM_CING % SM_CC == 0 || ci < SM_CING) &&
                        gy >= 0 && gy < SM_H && gx >= 0 && gx < SM_W;
        sm_copy<SM_LVG>(s + ch * SM_CHP + r * SM_PITCH + u * SM_LVG,
                        ok ? in + ((long long)(b * SM_CIN + g * SM_CING + ci) * SM_H + gy) * SM_W + gx : in, ok);
    }
#endif
    // Weights: consecutive threads read consecutive taps of one channel.
    float *s_w = s + SM_S_IN;
    constexpr int RUN = SM_CC * SM_KHW;
#pragma unroll 2
    for (int idx = threadIdx.x; idx < SM_NSL * SM_CPT * RUN; idx += SM_NT) {
        const int t = idx % RUN, col = idx / RUN;           // col = slice * CPT + c
        const int slot = slot0 + col / SM_CPT, g = slot / SM_NCG, co = slot % SM_NCG * SM_CPT + col % SM_CPT;
        const int ci = k * SM_CC + t / SM_KHW;
        const bool ok = g < SM_GROUPS && co < SM_COUTG && (SM_CING % SM_CC == 0 || ci < SM_CING);
        sm_copy<1>(s_w + t * SM_WP + col,
                   ok ? weight + ((long long)(g * SM_COUTG + co) * SM_CING + k * SM_CC) * SM_KHW + t : weight, ok);
    }
}

// One staged chunk: src is the thread's first window in the tile of its
// group's first channel, w its slice's weights of the chunk's first tap.
__device__ __forceinline__ void sm_chunk(float (&acc)[SM_CPT][OUT_Y][OUT_X], const float *src, const float *w)
{
    SM_UNROLL(SM_CUNROLL)
    for (int cc = 0; cc < SM_CC; ++cc) {
        SM_UNROLL(SM_IUNROLL)
        for (int i = 0; i < SM_KH; ++i) {
            float win[OUT_Y][SM_NWL];
#pragma unroll
            for (int a = 0; a < OUT_Y; ++a)
#pragma unroll
                for (int u = 0; u < SM_NWL; u += SM_LV)
                    sm_lds<SM_LV>(&win[a][u], src + cc * SM_CHP + (a * SM_SY + i * SM_DY) * SM_PITCH + u);
#pragma unroll
            for (int j = 0; j < SM_KW; ++j) {
                float wr[SM_RUP(SM_CPT, SM_WV)];
#pragma unroll
                for (int c = 0; c < SM_CPT; c += SM_WV)
                    sm_lds<SM_WV>(&wr[c], w + ((cc * SM_KH + i) * SM_KW + j) * SM_WP + c);
#pragma unroll
                for (int c = 0; c < SM_CPT; ++c)
#pragma unroll
                    for (int a = 0; a < OUT_Y; ++a)
#pragma unroll
                        for (int o = 0; o < OUT_X; ++o)
                            acc[c][a][o] = fmaf(win[a][o * SM_SX + j * SM_DX], wr[c], acc[c][a][o]);
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(SM_NT, SM_MINB)
SM_NAME(const ct_elem *__restrict__ in, const ct_elem *__restrict__ weight,
#if SM_BIAS
        const ct_elem *__restrict__ bias,
#endif
        ct_elem *__restrict__ out)
{
    // SM_NBUF stages of SM_STAGE floats, dynamic (the launch opts in past 48 KiB).
    extern __shared__ __align__(16) float smem[];
    const int cb = blockIdx.x % SM_NCB, rest = blockIdx.x / SM_NCB;
    const int tile = rest % (SM_NTY * SM_NTX), b = rest / (SM_NTY * SM_NTX);
    const int oy0 = tile / SM_NTX * SM_TOH, ox0 = tile % SM_NTX * SM_TOW;
    const int iy0 = oy0 * SM_SY - SM_PH, ix0 = ox0 * SM_SX - SM_PW;
    const int slot0 = cb * SM_NSL, g0 = slot0 / SM_NCG;

    const int tid = threadIdx.x;
    const int pix = tid % SM_PIX, sl = tid / SM_PIX;
    const int slot = slot0 + sl, g = slot / SM_NCG, cg = slot % SM_NCG;
    const int ty = pix / SM_XG, xg = pix % SM_XG;
    const bool active = sl < SM_NSL && g < SM_GROUPS;

    float acc[SM_CPT][OUT_Y][OUT_X];
#pragma unroll
    for (int c = 0; c < SM_CPT; ++c) {
#if SM_BIAS
        const int co = cg * SM_CPT + c;
        const float bv = active && co < SM_COUTG ? ct_ldg(bias + g * SM_COUTG + co) : 0.0f;
#else
        const float bv = 0.0f;
#endif
#pragma unroll
        for (int a = 0; a < OUT_Y; ++a)
#pragma unroll
            for (int o = 0; o < OUT_X; ++o)
                acc[c][a][o] = bv;
    }

    sm_stage(smem, in, weight, b, iy0, ix0, g0, slot0, 0);
    sm_commit();
    const int win0 = (g - g0) * SM_CC * SM_CHP + ty * OUT_Y * SM_SY * SM_PITCH + xg * SM_STEP;
#pragma unroll 1
    for (int k = 0; k < SM_NCH; ++k) {
        float *s = smem + (PIPE ? (k & 1) * SM_STAGE : 0);
#if PIPE
        // The other buffer was released by the barrier that ended chunk k-1.
        if (k + 1 < SM_NCH)
            sm_stage(smem + ((k + 1) & 1) * SM_STAGE, in, weight, b, iy0, ix0, g0, slot0, k + 1);
        sm_commit();
        sm_wait<1>();
#else
        sm_wait<0>();
#endif
        __syncthreads();
        if (active)
            sm_chunk(acc, s + win0, s + SM_S_IN + sl * SM_CPT);
        __syncthreads();
#if !PIPE
        if (k + 1 < SM_NCH) {
            sm_stage(smem, in, weight, b, iy0, ix0, g0, slot0, k + 1);
            sm_commit();
        }
#endif
    }
    if (!active)
        return;

    const int xo = ox0 + xg * OUT_X;
#if SM_CL
    // Per output pixel, the thread's channels: CV at a time, aligned (CV
    // divides the group's channels and the slice's first one).
#pragma unroll
    for (int a = 0; a < OUT_Y; ++a) {
        const int y = oy0 + ty * OUT_Y + a;
        if (y >= SM_OH)
            break;
#pragma unroll
        for (int x = 0; x < OUT_X; ++x) {
            if (xo + x >= SM_OW)
                break;
            ct_elem *o = out + ((long long)(b * SM_OH + y) * SM_OW + xo + x) * SM_COUT + g * SM_COUTG;
#pragma unroll
            for (int c = 0; c < SM_CPT; c += SM_CV) {
                const int co = cg * SM_CPT + c;
                if (co >= SM_COUTG)
                    break;
                if (SM_CV == 4)
                    *reinterpret_cast<float4 *>(o + co) =
                        make_float4(acc[c][a][x], acc[c + 1 < SM_CPT ? c + 1 : c][a][x],
                                    acc[c + 2 < SM_CPT ? c + 2 : c][a][x], acc[c + 3 < SM_CPT ? c + 3 : c][a][x]);
                else if (SM_CV == 2)
                    *reinterpret_cast<float2 *>(o + co) = make_float2(acc[c][a][x], acc[c + 1 < SM_CPT ? c + 1 : c][a][x]);
                else
                    ct_st(o + co, acc[c][a][x]);
            }
        }
    }
#else
#pragma unroll
    for (int c = 0; c < SM_CPT; ++c) {
        const int co = cg * SM_CPT + c;
        if (co >= SM_COUTG)
            break;
#pragma unroll
        for (int a = 0; a < OUT_Y; ++a) {
            const int y = oy0 + ty * OUT_Y + a;
            if (y >= SM_OH)
                break;
            ct_elem *o = out + ((long long)(b * SM_COUT + g * SM_COUTG + co) * SM_OH + y) * SM_OW + xo;
            const float *v = acc[c][a];
#pragma unroll
            for (int x = 0; x < OUT_X; x += SM_SV) {
                if (xo + x >= SM_OW)
                    break;
                if (SM_SV == 4)
                    *reinterpret_cast<float4 *>(o + x) = make_float4(v[x], v[x + 1 < OUT_X ? x + 1 : x],
                                                                     v[x + 2 < OUT_X ? x + 2 : x],
                                                                     v[x + 3 < OUT_X ? x + 3 : x]);
                else if (SM_SV == 2)
                    *reinterpret_cast<float2 *>(o + x) = make_float2(v[x], v[x + 1 < OUT_X ? x + 1 : x]);
                else
                    ct_st(o + x, v[x]);
            }
        }
    }
#endif
}
