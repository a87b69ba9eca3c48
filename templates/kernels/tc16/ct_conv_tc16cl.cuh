// ct_conv_tc16cl.cuh: the half-precision implicit GEMM of ct_conv_tc16.cuh
// for channels-last activations (NHWC, NLC; weights OIHW as always), used
// by the conv*_tc16cl templates after their problem macros. The shared
// memory layout and the mma steps are those of ct_conv_tc16_core.cuh.
//
// Channels-last memory already holds the input tile as [pixel][c], the
// layout the B fragments are read from, so each pixel's CK channels of a
// chunk are copied by cp.async in 16-byte pieces (8, 4 or 2 bytes where
// the group's channel count is not a multiple of 8; one element at a time
// through registers where it is odd), zero-filled outside the image and
// past the channels: no register transpose. The weights (OIHW: channel-
// major) are copied the same way as they lie, [row][c][tap], into a raw
// area of the stage and transposed there into [row][tap][c] by the block
// once they have landed, shared memory to shared memory: no global loads
// held in registers, so STAGES - 1 chunks' copies of both operands are in
// flight during a chunk's mma steps without costing registers.
//
// The outputs are staged in shared memory as [pixel][channel] and written
// a pixel's COUT_TILE channels at a time with 16-byte stores (narrower
// where the group's output channels are not a multiple of 8).
//
// Tuning macros: COUT_TILE, TILE_OH, TILE_OW, WARPS_M, WARPS_N, CIN_CHUNK,
// MIN_BLOCKS as ct_conv_tc16.cuh, and
//   STAGES        shared-memory stages of the chunk loop (1, 2, 3 or 4)
#include "ct_conv_tc16_core.cuh"

#define TC_NST TC16_NST(TC_NCH, STAGES)
#define TC_OP TC16_OP(TC_BM)                    // staged output pixel pitch

// Chunk ch's copies into stage st (one commit group): input piece v of
// tile pixel p is channels ci0 + v * IVEC.. of image pixel (iy0 + p / IW,
// ix0 + p % IW); raw weight piece e of row m is elements e * WVEC.. of the
// row's [c][tap] run from channel ci0. Addresses of what is not read stay
// inside the tensors.
__device__ __forceinline__ void tc16_copy(tc16_bits *st, const tc16_bits *__restrict__ in,
                                          const tc16_bits *__restrict__ weight, int co0, int iy0, int ix0, int ci0)
{
    constexpr int iper = TC_CK / TC_IVEC;
#pragma unroll 4
    for (int i = threadIdx.x; i < TC_IS * iper; i += TC_NT) {
        const int p = i / iper, c = i % iper * TC_IVEC;
        const int iy = iy0 + p / TC_IW, ix = ix0 + p % TC_IW;
        const bool ok = iy >= 0 && iy < TC_H && ix >= 0 && ix < TC_W && (TC_CIN % TC_CK == 0 || ci0 + c < TC_CIN);
        tc16_cp<TC_IVEC>(st + TC_SA + p * TC_CP + c,
                         ok ? in + ((long long)iy * TC_W + ix) * TC_CIN_ALL + ci0 + c : in, ok);
    }
    tc16_wcopy(st, weight, co0, ci0);
    tc16_cp_commit();
}

extern "C" __global__ void __launch_bounds__(TC_NT, MIN_BLOCKS)
TC_NAME(const ct_elem *__restrict__ in_, const ct_elem *__restrict__ weight_,
#if TC_BIAS
        const ct_elem *__restrict__ bias,
#endif
        ct_elem *__restrict__ out_)
{
    extern __shared__ __align__(16) tc16_bits tc_smem[];
    const tc16_bits *in = reinterpret_cast<const tc16_bits *>(in_);
    const tc16_bits *weight = reinterpret_cast<const tc16_bits *>(weight_);

    const int tile = blockIdx.x % (TC_TY * TC_TX), b = blockIdx.x / (TC_TY * TC_TX);
    const int oy0 = tile / TC_TX * TILE_OH, ox0 = tile % TC_TX * TILE_OW;
    const int grp = blockIdx.y / TC_NCT, co0 = blockIdx.y % TC_NCT * TC_BM;
    in += (long long)b * TC_H * TC_W * TC_CIN_ALL + grp * TC_CIN;
    weight += (long long)grp * TC_COUT * TC_CIN * TC_KHW;
    const int iy0 = oy0 * TC_SY - TC_PH, ix0 = ox0 * TC_SX - TC_PW;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int wm = warp % WARPS_M, wn = warp / WARPS_M, g = lane / 4, t = lane % 4;

    // ldmatrix rows as ct_conv_tc16.cuh.
    const int arow = (wm * TC_WM + lane % 16) * TC_AP + lane / 16 * 8;
    int boff[(TC_NF + 1) / 2];
#pragma unroll
    for (int jj = 0; jj < (TC_NF + 1) / 2; ++jj) {
        const int n = wn * TC_WN + jj * 16 + lane % 8 + lane / 16 * 8;
        boff[jj] = TC_SA + (n < TC_NPIX ? (n / TILE_OW * TC_SY * TC_IW + n % TILE_OW * TC_SX) * TC_CP : 0) +
                   lane / 8 % 2 * 8;
    }

    float acc[TC_MF][TC_NF][4];
#pragma unroll
    for (int i = 0; i < TC_MF; ++i)
#pragma unroll
        for (int j = 0; j < TC_NF; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r)
                acc[i][j][r] = 0.0f;

    // Stage ch % NST holds chunk ch. Iteration ch waits for chunk ch's
    // copies (one group per chunk, empty past the last, so wait_group
    // NST - 2 leaves exactly those complete), transposes its weights, and
    // issues chunk ch + NST - 1's copies into the stage chunk ch - 1 was
    // read from: the first barrier follows every warp's mma steps on it,
    // the second makes the transposed weights visible.
#pragma unroll
    for (int k = 0; k < TC_NST - 1; ++k)
        tc16_copy(tc_smem + k * TC_CLSTAGE, in, weight, co0, iy0, ix0, k * TC_CK);
#pragma unroll 1
    for (int ch = 0; ch < TC_NCH; ++ch) {
        tc16_bits *st = tc_smem + ch % TC_NST * TC_CLSTAGE;
        if (TC_NST == 1) {
            if (ch > 0)
                __syncthreads();   // every warp is done with the previous chunk
            tc16_copy(st, in, weight, co0, iy0, ix0, ch * TC_CK);
            tc16_cp_wait<0>();
        } else {
            tc16_cp_wait<TC_NST == 1 ? 0 : TC_NST - 2>();
        }
        __syncthreads();
        tc16_wtranspose(st);
        if (TC_NST > 1) {
            if (ch + TC_NST - 1 < TC_NCH)
                tc16_copy(tc_smem + (ch + TC_NST - 1) % TC_NST * TC_CLSTAGE, in, weight, co0, iy0, ix0,
                          (ch + TC_NST - 1) * TC_CK);
            else
                tc16_cp_commit();
        }
        __syncthreads();
        tc16_chunk(st, arow, boff, acc);
    }
    tc16_cp_wait<0>();

    // Epilogue: acc[i][j] holds rows (channels) g and g+8, columns (pixels)
    // 2t and 2t+1 of its 16x8 tile; bias added in fp32, one rounding, into
    // shared memory as [pixel][channel] (stages no longer read: barrier).
    __syncthreads();
#pragma unroll
    for (int i = 0; i < TC_MF; ++i)
#pragma unroll
        for (int r2 = 0; r2 < 2; ++r2) {
            const int cl = wm * TC_WM + i * 16 + g + 8 * r2;
#if TC_BIAS
            const float bv = co0 + cl < TC_COUT ? ct_ldg(bias + grp * TC_COUT + co0 + cl) : 0.0f;
#else
            const float bv = 0.0f;
#endif
#pragma unroll
            for (int j = 0; j < TC_NF; ++j)
#pragma unroll
                for (int r1 = 0; r1 < 2; ++r1)
                    ct_st(reinterpret_cast<ct_elem *>(tc_smem) + (wn * TC_WN + j * 8 + 2 * t + r1) * TC_OP + cl,
                          acc[i][j][2 * r2 + r1] + bv);
        }
    __syncthreads();
    // Each pixel's channels co0.. are contiguous in memory: OVEC at a time.
    constexpr int per = TC_BM / TC_OVEC;
    ct_elem *out = out_ + (long long)b * TC_OH * TC_OW * TC_COUT_ALL + grp * TC_COUT + co0;
#pragma unroll 2
    for (int i = threadIdx.x; i < TC_NPIX * per; i += TC_NT) {
        const int n = i / per, c = i % per * TC_OVEC;
        const int oy = oy0 + n / TILE_OW, ox = ox0 + n % TILE_OW;
        if (oy >= TC_OH || ox >= TC_OW || co0 + c >= TC_COUT)
            continue;
        const tc16_bits *s = tc_smem + n * TC_OP + c;
        tc16_bits *d = reinterpret_cast<tc16_bits *>(out) + ((long long)oy * TC_OW + ox) * TC_COUT_ALL + c;
#if TC_OVEC == 8
        *reinterpret_cast<uint4 *>(d) = *reinterpret_cast<const uint4 *>(s);
#elif TC_OVEC == 4
        *reinterpret_cast<uint2 *>(d) = *reinterpret_cast<const uint2 *>(s);
#elif TC_OVEC == 2
        *reinterpret_cast<unsigned *>(d) = *reinterpret_cast<const unsigned *>(s);
#else
        *d = *s;
#endif
    }
}
