// ct_conv_tc16gk.cuh: a channels-last (NHWC) convolution layer in bf16 or
// f16 on Hopper's warpgroup mma (wgmma.mma_async, sm_90a), the weights
// streamed along the reduction with the input. Included by
// conv2dc_tc16gkcl after its problem macros (conv2dc_tclayer.cuh).
//
// The GEMM and the operand layouts are ct_conv_tc16g.cuh's (their sizes,
// the k-steps and the epilogue's packing in ct_conv_tc16g_core.cuh):
// C[co][pixel] = sum over (tap, c) of W[co][tap][c] * X[pixel + tap][c],
// A (weights) as [k / 8][co][8], B (the haloed input tile) as one plane of
// 16-byte pixel rows per 8 channels, a warpgroup's output rows one wgmma's
// N (FLAT, stride 1 down) or one wgmma per row. What differs is where the
// weights live. tc16g keeps a block's weights for all input channels
// resident and walks tiles against them: 147 KB for 64 output channels of
// a 128-channel 3x3 layer, which leaves room for small tiles only. Here a
// block computes one image tile for BM output channels and walks the
// input channels CIN_CHUNK at a time; each chunk's weights (BM x KHW x CK)
// and input planes are copied by cp.async STAGES - 2 chunks ahead, and the
// tensor cores work on chunk ch while the block transposes chunk ch + 1's
// weights.
//
// Per chunk ch (stage ch % STAGES: raw weights, then B; A in two buffers):
//   wait for chunk ch's copies; wgmma.wait_group 1 (chunk ch - 2's steps
//   done: its A buffer and stage are free, ch - 1's may still run);
//   barrier; copies of chunk ch + STAGES - 2 into stage (ch - 2) % STAGES;
//   chunk ch's weights transposed from its raw rows into A(ch % 2); proxy
//   fence, barrier; chunk ch's wgmma steps issued and committed.
//
// The weights are OIHW, [co][c][tap]: a row's run of a chunk is contiguous
// and is copied as it lies ([row][c][tap], rows RKP elements apart: the
// 8-element pad puts 8 consecutive rows' 16-byte loads in distinct banks).
// A thread's transpose item is 8 channels of one row: 8 x KHW elements
// read as KHW 16-byte loads, rearranged in registers (byte permutes, all
// positions compile-time constants) and written as KHW 16-byte stores,
// one per tap, consecutive threads consecutive rows (no bank conflicts).
//
// Tuning macros:
//   WG_M        warpgroups along the output channels (64 each)
//   WG_N        warpgroups along the tile's rows (TILE_OH / WG_N each)
//   TILE_OH     output rows of the block's image tile
//   TILE_OW     output columns of the tile (a wgmma's N is at most 256)
//   CIN_CHUNK   input channels of a chunk (a multiple of 16)
//   STAGES      chunk stages (3 to 6): copies run STAGES - 2 chunks ahead
//   MIN_BLOCKS  minimum resident blocks per SM (__launch_bounds__)
#define TC_RPW TC16G_RPW(0, TILE_OH, WG_N)      // rows per warpgroup
#define TC_CK CIN_CHUNK                         // a chunk: TC_SB and TC_SA are its B and A
#include "ct_conv_tc16g_core.cuh"
// The element-size sizes (tc16gk_sizes.cuh, which the tuner's model reads
// too), of 2-byte elements.
#include "tc16gk_sizes.cuh"

#define TC_NCH TC16GK_NCH(TC_CIN, TC_CK)        // chunks; the last one's channels past Cin are zeros
#define TC_RKP TC16GK_RKP(TC_CK, TC_KHW, 2)     // a raw row in shared memory, elements
#define TC_SR TC16GK_SR(TC_BM, TC_RKP, 2)       // a chunk's raw weights, bytes
#define TC_ST TC16GK_ST(TC_SR, TC_SB)           // a stage, bytes
#define TC_LOOK (STAGES - 2)

// Chunk ch's copies into stage st (one commit group): input piece (p, c)
// is channels ci0 + c .. + 7 of tile pixel p, into plane c / 8; raw piece
// e of row m is elements e .. e + 7 of the row's run from channel ci0.
// Zeros outside the image, past the channels and past Cout; addresses of
// what is not read stay inside the tensors. in: the tile's image and the
// group's first channel; weight: the group's first row.
__device__ __forceinline__ void tc16gk_copy(unsigned char *st, const tc16_bits *__restrict__ in,
                                            const tc16_bits *__restrict__ weight, int co0, int iy0, int ix0,
                                            int ci0)
{
    constexpr int per = TC_CK / 8;
#pragma unroll 4
    for (int i = threadIdx.x; i < TC_IS * per; i += TC_NT) {
        const int p = i / per, c = i % per * 8;
        const int iy = iy0 + p / TC_IW, ix = ix0 + p % TC_IW;
        const bool ok = iy >= 0 && iy < TC_H && ix >= 0 && ix < TC_W && (TC_CIN % TC_CK == 0 || ci0 + c < TC_CIN);
        tc16_cp<8>(reinterpret_cast<tc16_bits *>(st + TC_SR + c / 8 * TC_PB + p * 16),
                   ok ? in + ((long long)iy * TC_W + ix) * TC_CIN_ALL + ci0 + c : in, ok);
    }
    constexpr int wper = TC_CK * TC_KHW / 8;
    tc16_bits *raw = reinterpret_cast<tc16_bits *>(st);
#pragma unroll 4
    for (int i = threadIdx.x; i < TC_BM * wper; i += TC_NT) {
        const int m = i / wper, e = i % wper * 8;
        const bool ok = co0 + m < TC_COUT && (TC_CIN % TC_CK == 0 || ci0 * TC_KHW + e < TC_RK);
        tc16_cp<8>(raw + m * TC_RKP + e, ok ? weight + (long long)(co0 + m) * TC_RK + ci0 * TC_KHW + e : weight, ok);
    }
    tc16_cp_commit();
}

// The landed raw weights of stage st into A buffer a, [tap][c / 8][row][8].
// Element e of an item's run (channel e / KHW, tap e % KHW) is half e % 2
// of word e / 2; an output word is channels 2j and 2j + 1 of one tap.
__device__ __forceinline__ void tc16gk_transpose(unsigned char *a, const unsigned char *st)
{
    constexpr int c8 = TC_CK / 8;
#pragma unroll 1
    for (int i = threadIdx.x; i < TC_BM * c8; i += TC_NT) {
        const int m = i % TC_BM, o = i / TC_BM;
        const uint4 *r = reinterpret_cast<const uint4 *>(st + (m * TC_RKP + o * 8 * TC_KHW) * 2);
        unsigned w[4 * TC_KHW];
#pragma unroll
        for (int v = 0; v < TC_KHW; ++v) {
            const uint4 x = r[v];
            w[4 * v] = x.x, w[4 * v + 1] = x.y, w[4 * v + 2] = x.z, w[4 * v + 3] = x.w;
        }
#pragma unroll
        for (int tap = 0; tap < TC_KHW; ++tap) {
            unsigned q[4];
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const int e0 = 2 * j * TC_KHW + tap, e1 = e0 + TC_KHW;
                q[j] = __byte_perm(w[e0 / 2], w[e1 / 2], (e0 % 2 ? 0x32 : 0x10) | (e1 % 2 ? 0x7600 : 0x5400));
            }
            *reinterpret_cast<uint4 *>(a + ((tap * c8 + o) * TC_BM + m) * 16) = make_uint4(q[0], q[1], q[2], q[3]);
        }
    }
}

extern "C" __global__ void __launch_bounds__(TC_NT, MIN_BLOCKS)
TC_NAME(const ct_elem *__restrict__ in_, const ct_elem *__restrict__ weight_,
#if TC_BIAS
        const ct_elem *__restrict__ bias,
#endif
        ct_elem *__restrict__ out_)
{
    extern __shared__ __align__(128) unsigned char tc_sm[];
    const int tile = blockIdx.x % (TC_TY * TC_TX), b = blockIdx.x / (TC_TY * TC_TX);
    const int oy0 = tile / TC_TX * TILE_OH, ox0 = tile % TC_TX * TILE_OW;
    const int grp = blockIdx.y / TC_NCT, co0 = blockIdx.y % TC_NCT * TC_BM;
    const tc16_bits *in =
        reinterpret_cast<const tc16_bits *>(in_) + (long long)b * TC_H * TC_W * TC_CIN_ALL + grp * TC_CIN;
    const tc16_bits *weight = reinterpret_cast<const tc16_bits *>(weight_) + (long long)grp * TC_COUT * TC_RK;
    const int iy0 = oy0 * TC_SY - TC_PH, ix0 = ox0 - TC_PW;
    const int wg = threadIdx.x / 128, wgm = wg % WG_M, wgn = wg / WG_M;
    unsigned char *const stg = tc_sm + 2 * TC_SA;   // the stages, after A's two buffers

#pragma unroll
    for (int k = 0; k < TC_LOOK; ++k) {
        if (k < TC_NCH)
            tc16gk_copy(stg + k * TC_ST, in, weight, co0, iy0, ix0, k * TC_CK);
        else
            tc16_cp_commit();
    }

    float acc[TC_NW][TC_WN / 2];
#pragma unroll
    for (int rr = 0; rr < TC_NW; ++rr) {
#pragma unroll
        for (int e = 0; e < TC_WN / 2; ++e)
            acc[rr][e] = 0.0f;
        tc16_wg_hold<TC_WN / 2>(acc[rr]);
    }
#pragma unroll 1
    for (int ch = 0; ch < TC_NCH; ++ch) {
        unsigned char *st = stg + ch % STAGES * TC_ST;
        tc16_cp_wait<TC_LOOK - 1>();
        tc16_proxy_fence();
        tc16_wg_wait1();
        __syncthreads();
        if (ch + TC_LOOK < TC_NCH)
            tc16gk_copy(stg + (ch + TC_LOOK) % STAGES * TC_ST, in, weight, co0, iy0, ix0, (ch + TC_LOOK) * TC_CK);
        else
            tc16_cp_commit();
        unsigned char *a = tc_sm + ch % 2 * TC_SA;
        tc16gk_transpose(a, st);
        tc16_proxy_fence();
        __syncthreads();
        tc16_wg_fence();
        // The descriptors' bases opaque, as tc16g's: no step's is computed
        // ahead into registers. Every step adds (acc starts at zero).
        const unsigned long long da0 = tc16_opaque(tc16_wgdesc(a + wgm * 64 * 16, TC_BM * 16, 128));
        const unsigned long long db0 =
            tc16_opaque(tc16_wgdesc(st + TC_SR + wgn * TC_RPW * TC_SY * TC_IW * 16, TC_PB, 128));
        tc16g_steps<false>(acc, da0, db0);
        tc16_wg_commit();
    }
    tc16_wg_wait0();
#pragma unroll
    for (int rr = 0; rr < TC_NW; ++rr)
        tc16_wg_hold<TC_WN / 2>(acc[rr]);
    tc16_cp_wait<0>();

    // Epilogue: acc[rr][4j..] holds channels 16w + g (+8) of this
    // warpgroup's 64, columns 8j + 2t (+1) of chain rr; the bias added in
    // fp32, one rounding; staged as [pixel][channel] over the stages (every
    // warpgroup's steps are done: barrier), then 16-byte stores.
    float bv[2];
    tc16g_bias(bv, TC_BIAS_ARG, grp, co0, wgm);
    unsigned pk[TC_NW][TC_WN / 4];
    tc16g_pack(acc, bv, pk);
    __syncthreads();
    tc16_bits *so = reinterpret_cast<tc16_bits *>(tc_sm);
    tc16g_stage(so, pk, wgn * TC_RPW, wgm);
    __syncthreads();
    constexpr int per = TC_BM / TC_OVEC;
    ct_elem *out = out_ + (long long)b * TC_OH * TC_OW * TC_COUT_ALL + grp * TC_COUT + co0;
#pragma unroll 2
    for (int i = threadIdx.x; i < TILE_OH * TILE_OW * per; i += TC_NT) {
        const int n = i / per, c = i % per * TC_OVEC;
        const int oy = oy0 + n / TILE_OW, ox = ox0 + n % TILE_OW;
        if (oy >= TC_OH || ox >= TC_OW || co0 + c >= TC_COUT)
            continue;
        const tc16_bits *s = so + n * TC_OP + c;
        tc16g_store(reinterpret_cast<tc16_bits *>(out) + ((long long)oy * TC_OW + ox) * TC_COUT_ALL + c, s);
    }
}
