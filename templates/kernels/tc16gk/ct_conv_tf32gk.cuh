// ct_conv_tf32gk.cuh: conv2dc_tc16gkcl for a tf32 problem (CT_TF32: fp32
// tensors, products of operands rounded to TF32, verified to 2^-10): the
// kernel of ct_conv_tc16gk.cuh with 4-byte elements, on wgmma m64nNk8 with
// TF32 operands (sm_90a). Included by the template in place of
// ct_conv_tc16gk.cuh when CT_TF32 is defined, so the half types' code (and
// code hashes) are untouched.
//
// The same GEMM, pipeline and operand roles; what the element size
// changes (a core matrix is still 8 rows of 16 bytes, now 4 elements of K):
//   A (weights): [k / 4][co][4], k = tap * CK + c; core matrices adjacent
//     along K BM x 16 bytes apart (LBO), along M 128 (SBO).
//   B (the haloed input tile): [c / 4][pixel][4], one plane of 16-byte
//     pixel rows per 4 channels (LBO the plane, SBO 128).
//   A wgmma step is 8 of K (two planes, two A core matrices along K):
//     KHW x CK / 8 steps a chunk.
//   The raw weight rows are padded by 4 elements (16 bytes), and a
//     transpose item is 4 channels of one row: KHW 16-byte loads, KHW
//     16-byte stores, no byte permutes.
//   Outputs are staged in fp32 (pitch BM + 4) and stored 4, 2 or 1 a
//     thread.
// Rounding: wgmma would read an fp32 operand as TF32 by truncation, a bias
// toward zero in every product. So the transpose rounds the weights to
// TF32 to nearest (cvt.rna), and each thread rounds in place the input
// pieces it copied, once its copies of the chunk have landed (a thread's
// own cp.async writes are visible to it after its wait_group), before the
// proxy fence and barrier that hand the chunk to the tensor cores.
//
// Tuning macros as ct_conv_tc16gk.cuh's.
#include "ct_dtype.cuh"
#include "ct_wgmma_tf32.cuh"

#ifndef TC_GROUPS
#define TC_GROUPS 1
#endif
#define TC_CIN_ALL (TC_CIN * TC_GROUPS)
#define TC_COUT_ALL (TC_COUT * TC_GROUPS)
// The sizes of any element size (tc16g_sizes.cuh, which tc16gk_conv.c
// reads too); 4-byte elements' own below (tc16gk_sizes.cuh's, which it
// reads too).
#include "tc16g_sizes.cuh"
#include "tc16gk_sizes.cuh"
#define TC_CDIV(a, b) TC16G_CDIV(a, b)
#define TC_RUP(a, b) TC16G_RUP(a, b)

#define TC_RPW TC16G_RPW(0, TILE_OH, WG_N)      // rows per warpgroup
#define TC_CK CIN_CHUNK
#define TC_BM TC16G_BM(WG_M)
#define TC_NT TC16G_NT(WG_M, WG_N)
#define TC_FLAT (TC_SY == 1)                    // one wgmma over a warpgroup's rows (ct_conv_tc16g_core.cuh)
#if TC_FLAT
#define TC_NW 1
#define TC_WN TC16G_WN_FLAT(TC_RPW, TC_IW, TILE_OW)
#else
#define TC_NW TC_RPW
#define TC_WN TC16G_WN_ROW(TILE_OW)
#endif
#define TC_KHW TC16G_KHW(TC_KH, TC_KW)
#define TC_KSTEPS (TC_KHW * TC_CK / TC16GK_KSTEP(4)) // k-steps of 8 a chunk
#define TC_IH TC16G_IH(TILE_OH, TC_SY, TC_KH, TC_DY)
#define TC_IW TC16G_IW(TILE_OW, TC_KW, TC_DX)
#define TC_IS (TC_IH * TC_IW)
#define TC_PPX TC16G_PPX(TC_IS)                 // plane pixels: odd; a run ends at most 7 past the tile
#define TC_PB TC16G_PB(TC_PPX)                  // plane bytes
#define TC_SB TC16GK_SB(TC_CK, 4, TC_PB)        // the planes of a chunk, bytes
#define TC_SA TC16GK_SA(TC_BM, TC_KHW, TC_CK, 4) // A of a chunk, bytes
#define TC_OP TC16GK_OP(TC_BM, 4)               // staged output pixel pitch, floats
#define TC_RK (TC_CIN * TC_KHW)                 // a raw weight row, elements
#define TC_TY TC_CDIV(TC_OH, TILE_OH)
#define TC_TX TC_CDIV(TC_OW, TILE_OW)
#define TC_NCT TC_CDIV(TC_COUT, TC_BM)
#define TC_OVEC (TC_COUT % 4 == 0 ? 4 : TC_COUT % 2 == 0 ? 2 : 1)
#define TC_NCH TC16GK_NCH(TC_CIN, TC_CK)        // chunks; the last one's channels past Cin are zeros
#define TC_RKP TC16GK_RKP(TC_CK, TC_KHW, 4)     // a raw row in shared memory, elements
#define TC_SR TC16GK_SR(TC_BM, TC_RKP, 4)       // a chunk's raw weights, bytes
#define TC_ST TC16GK_ST(TC_SR, TC_SB)           // a stage, bytes
#define TC_LOOK (STAGES - 2)

// Chunk ch's copies into stage st (one commit group): input piece (p, c)
// is channels ci0 + c .. + 3 of tile pixel p, into plane c / 4; raw piece
// e of row m is elements e .. e + 3 of the row's run from channel ci0.
// Zeros outside the image, past the channels and past Cout; addresses of
// what is not read stay inside the tensors.
__device__ __forceinline__ void tg_copy(unsigned char *st, const float *__restrict__ in,
                                        const float *__restrict__ weight, int co0, int iy0, int ix0, int ci0)
{
    constexpr int per = TC_CK / 4;
#pragma unroll 4
    for (int i = threadIdx.x; i < TC_IS * per; i += TC_NT) {
        const int p = i / per, c = i % per * 4;
        const int iy = iy0 + p / TC_IW, ix = ix0 + p % TC_IW;
        const bool ok = iy >= 0 && iy < TC_H && ix >= 0 && ix < TC_W && (TC_CIN % TC_CK == 0 || ci0 + c < TC_CIN);
        tg_cp16(st + TC_SR + c / 4 * TC_PB + p * 16, ok ? in + ((long long)iy * TC_W + ix) * TC_CIN_ALL + ci0 + c : in,
                ok);
    }
    constexpr int wper = TC_CK * TC_KHW / 4;
#pragma unroll 4
    for (int i = threadIdx.x; i < TC_BM * wper; i += TC_NT) {
        const int m = i / wper, e = i % wper * 4;
        const bool ok = co0 + m < TC_COUT && (TC_CIN % TC_CK == 0 || ci0 * TC_KHW + e < TC_RK);
        tg_cp16(st + (m * TC_RKP + e) * 4, ok ? weight + (long long)(co0 + m) * TC_RK + ci0 * TC_KHW + e : weight, ok);
    }
    tg_cp_commit();
}

// The input pieces this thread copied into stage st (tg_copy's loop),
// rounded to TF32 in place.
__device__ __forceinline__ void tg_round_input(unsigned char *st)
{
    constexpr int per = TC_CK / 4;
#pragma unroll 4
    for (int i = threadIdx.x; i < TC_IS * per; i += TC_NT) {
        const int p = i / per, c = i % per * 4;
        uint4 *q = reinterpret_cast<uint4 *>(st + TC_SR + c / 4 * TC_PB + p * 16);
        uint4 v = *q;
        v.x = tg_rna(v.x), v.y = tg_rna(v.y), v.z = tg_rna(v.z), v.w = tg_rna(v.w);
        *q = v;
    }
}

// The landed raw weights of stage st into A buffer a, [tap][c / 4][row][4],
// rounded to TF32: item (m, o) is channels 4o .. 4o + 3 of row m, word
// c * KHW + tap of its run.
__device__ __forceinline__ void tg_transpose(unsigned char *a, const unsigned char *st)
{
    constexpr int c4 = TC_CK / 4;
#pragma unroll 1
    for (int i = threadIdx.x; i < TC_BM * c4; i += TC_NT) {
        const int m = i % TC_BM, o = i / TC_BM;
        const uint4 *r = reinterpret_cast<const uint4 *>(st + (m * TC_RKP + o * 4 * TC_KHW) * 4);
        unsigned w[4 * TC_KHW];
#pragma unroll
        for (int v = 0; v < TC_KHW; ++v) {
            const uint4 x = r[v];
            w[4 * v] = x.x, w[4 * v + 1] = x.y, w[4 * v + 2] = x.z, w[4 * v + 3] = x.w;
        }
#pragma unroll
        for (int tap = 0; tap < TC_KHW; ++tap)
            *reinterpret_cast<uint4 *>(a + ((tap * c4 + o) * TC_BM + m) * 16) =
                make_uint4(tg_rna(w[tap]), tg_rna(w[TC_KHW + tap]), tg_rna(w[2 * TC_KHW + tap]),
                           tg_rna(w[3 * TC_KHW + tap]));
    }
}

// The k-steps of a chunk into acc, one wgmma per step and chain; a step's
// descriptors are its bases' (da0: A at this warpgroup's 64 rows; db0: B
// at its first row) plus a constant in 16-byte units. Every step adds.
__device__ __forceinline__ void tg_steps(float (*acc)[TC_WN / 2], unsigned long long da0, unsigned long long db0)
{
#pragma unroll
    for (int s = 0; s < TC_KSTEPS; ++s) {
        const int tap = s / (TC_CK / 8), q = s % (TC_CK / 8);
        const unsigned oa = (tap * (TC_CK / 4) + 2 * q) * TC_BM;
#pragma unroll
        for (int rr = 0; rr < TC_NW; ++rr) {
            const int p0 = (rr * TC_SY + tap / TC_KW * TC_DY) * TC_IW + tap % TC_KW * TC_DX;
            tg_wgmma<TC_WN>(acc[rr], da0, oa, db0, 2 * q * TC_PB / 16 + p0, 1);
        }
    }
}

extern "C" __global__ void __launch_bounds__(TC_NT, MIN_BLOCKS)
TC_NAME(const float *__restrict__ in_, const float *__restrict__ weight_,
#if TC_BIAS
        const float *__restrict__ bias,
#endif
        float *__restrict__ out_)
{
    extern __shared__ __align__(128) unsigned char tc_sm[];
    const int tile = blockIdx.x % (TC_TY * TC_TX), b = blockIdx.x / (TC_TY * TC_TX);
    const int oy0 = tile / TC_TX * TILE_OH, ox0 = tile % TC_TX * TILE_OW;
    const int grp = blockIdx.y / TC_NCT, co0 = blockIdx.y % TC_NCT * TC_BM;
    const float *in = in_ + (long long)b * TC_H * TC_W * TC_CIN_ALL + grp * TC_CIN;
    const float *weight = weight_ + (long long)grp * TC_COUT * TC_RK;
    const int iy0 = oy0 * TC_SY - TC_PH, ix0 = ox0 - TC_PW;
    const int wg = threadIdx.x / 128, wgm = wg % WG_M, wgn = wg / WG_M;
    unsigned char *const stg = tc_sm + 2 * TC_SA;   // the stages, after A's two buffers

#pragma unroll
    for (int k = 0; k < TC_LOOK; ++k) {
        if (k < TC_NCH)
            tg_copy(stg + k * TC_ST, in, weight, co0, iy0, ix0, k * TC_CK);
        else
            tg_cp_commit();
    }

    float acc[TC_NW][TC_WN / 2];
#pragma unroll
    for (int rr = 0; rr < TC_NW; ++rr) {
#pragma unroll
        for (int e = 0; e < TC_WN / 2; ++e)
            acc[rr][e] = 0.0f;
        tg_wg_hold<TC_WN / 2>(acc[rr]);
    }
#pragma unroll 1
    for (int ch = 0; ch < TC_NCH; ++ch) {
        unsigned char *st = stg + ch % STAGES * TC_ST;
        tg_cp_wait<TC_LOOK - 1>();
        tg_proxy_fence();
        tg_wg_wait1();
        __syncthreads();
        if (ch + TC_LOOK < TC_NCH)
            tg_copy(stg + (ch + TC_LOOK) % STAGES * TC_ST, in, weight, co0, iy0, ix0, (ch + TC_LOOK) * TC_CK);
        else
            tg_cp_commit();
        unsigned char *a = tc_sm + ch % 2 * TC_SA;
        tg_transpose(a, st);
        tg_round_input(st);
        tg_proxy_fence();
        __syncthreads();
        tg_wg_fence();
        const unsigned long long da0 = tg_opaque(tg_wgdesc(a + wgm * 64 * 16, TC_BM * 16, 128));
        const unsigned long long db0 =
            tg_opaque(tg_wgdesc(st + TC_SR + wgn * TC_RPW * TC_SY * TC_IW * 16, TC_PB, 128));
        tg_steps(acc, da0, db0);
        tg_wg_commit();
    }
    tg_wg_wait0();
#pragma unroll
    for (int rr = 0; rr < TC_NW; ++rr)
        tg_wg_hold<TC_WN / 2>(acc[rr]);
    tg_cp_wait<0>();

    // Epilogue: acc[rr][4j..] holds channels 16w + g (+8) of this
    // warpgroup's 64, columns 8j + 2t (+1) of chain rr. Every accumulator
    // is read once, unconditionally, with the bias (ct_conv_tc16g_core.cuh's
    // tc16g_pack says why); then staged as [pixel][channel] over the stages
    // (every warpgroup's steps are done: barrier) and stored OVEC floats a
    // thread.
    const int w = threadIdx.x / 32 % 4, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    float bv[2] = {0.0f, 0.0f};
#if TC_BIAS
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int co = co0 + wgm * 64 + 16 * w + g + 8 * h;
        bv[h] = co < TC_COUT ? __ldg(bias + grp * TC_COUT + co) : 0.0f;
    }
#endif
    float o[TC_NW][TC_WN / 2];
#pragma unroll
    for (int rr = 0; rr < TC_NW; ++rr)
#pragma unroll
        for (int e = 0; e < TC_WN / 2; ++e)
            o[rr][e] = acc[rr][e] + bv[e / 2 % 2];
    __syncthreads();
    float *so = reinterpret_cast<float *>(tc_sm);
    const int rw0 = wgn * TC_RPW;
#pragma unroll
    for (int rr = 0; rr < TC_NW; ++rr)
#pragma unroll
        for (int j = 0; j < TC_WN / 8; ++j)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int n = 8 * j + 2 * t + e;
                const int re = TC_FLAT ? n / TC_IW : rr, xe = TC_FLAT ? n % TC_IW : n;
                if (xe < TILE_OW && re < TC_RPW)
#pragma unroll
                    for (int h = 0; h < 2; ++h)
                        so[((rw0 + re) * TILE_OW + xe) * TC_OP + wgm * 64 + 16 * w + g + 8 * h] = o[rr][4 * j + 2 * h + e];
            }
    __syncthreads();
    constexpr int per = TC_BM / TC_OVEC;
    float *out = out_ + (long long)b * TC_OH * TC_OW * TC_COUT_ALL + grp * TC_COUT + co0;
#pragma unroll 2
    for (int i = threadIdx.x; i < TILE_OH * TILE_OW * per; i += TC_NT) {
        const int n = i / per, c = i % per * TC_OVEC;
        const int oy = oy0 + n / TILE_OW, ox = ox0 + n % TILE_OW;
        if (oy >= TC_OH || ox >= TC_OW || co0 + c >= TC_COUT)
            continue;
        const float *s = so + n * TC_OP + c;
        float *d = out + ((long long)oy * TC_OW + ox) * TC_COUT_ALL + c;
#if TC_OVEC == 4
        *reinterpret_cast<float4 *>(d) = *reinterpret_cast<const float4 *>(s);
#elif TC_OVEC == 2
        *reinterpret_cast<float2 *>(d) = *reinterpret_cast<const float2 *>(s);
#else
        *d = *s;
#endif
    }
}
