// ct_conv_tc16.cuh: a convolution layer in bf16 or f16 (CT_DTYPE 1 or 2) as
// an implicit GEMM on the tensor cores, fp32 accumulation. Included by the
// conv*_tc16 templates after their problem macros (conv*_tclayer.cuh); the
// layer, the GEMM and the block's tile are those of ct_conv_tc.cuh:
//
//   C = A * X, M = Cout, N = B x OH x OW, K = Cin x KH x KW,
//
// a block owning BM output channels x a TOH x TOW tile of output pixels of
// one image, walking the input channels CK at a time (CK a multiple of 16).
//
// What differs is the operands' layout in shared memory. mma.sync m16n8k16
// takes each operand as pairs of K-consecutive 16-bit values, and ldmatrix
// reads a fragment as rows of 8 K-consecutive values, 16 bytes each. So the
// K order within a chunk is tap-major (kk = tap * CK + c) and both operands
// are stored channel-innermost: the weights as [co][tap][c] (row pitch
// KHW*CK + 8) and the haloed input tile as [pixel][c] (pitch CK + 8). A
// fragment of B is then 8 pixels' rows of 8 channels at one tap, found by
// ldmatrix from per-lane row addresses (the implicit im2col: stride and
// dilation are in those addresses), and one of A 16 weight rows. Both
// pitches are an odd multiple of 4 words, so the 8 rows of a phase fall in
// distinct banks (stride 1; a horizontal stride of 2 costs a 2-way conflict).
//
// NCHW keeps channels apart in memory, so the chunk's copy transposes: each
// thread loads the channels of one weight tap or one input pixel (16-bit
// loads, coalesced along the taps and the pixels), packs them in pairs and
// stores 16 bytes at a time (cp.async cannot transpose). With PREFETCH the
// loads of chunk ch+1 are issued into registers before the mma steps of
// chunk ch and stored into the second buffer after them, so global latency
// hides behind the tensor-core work, at the cost of registers.
//
// Problem macros as ct_conv_tc.cuh (TC_B, TC_CIN and TC_COUT per group,
// TC_GROUPS, TC_H, TC_W, TC_KH, TC_KW, TC_OH, TC_OW, TC_PH, TC_PW, TC_SY,
// TC_SX, TC_DY, TC_DX, TC_BIAS, TC_NAME) and CT_DTYPE.
// Tuning macros:
//   COUT_TILE     BM, output channels per block (WARPS_M x a multiple of 16)
//   TILE_OH       TOH, output rows per block
//   TILE_OW       TOW, output columns per block (TOH x TOW pixels, rounded up
//                 to WARPS_N x a multiple of 8 GEMM columns)
//   WARPS_M       warps along the output channels
//   WARPS_N       warps along the pixels
//   CIN_CHUNK     CK, input channels staged at a time (16, 32, 48 or 64)
//   PREFETCH      1: two buffers, the next chunk's loads in registers during
//                 this one's mma steps; 0: one buffer, copied between barriers
//                 (the weights by cp.async during the mma steps, see below)
//   MIN_BLOCKS    minimum resident blocks per SM (__launch_bounds__)
#include "ct_conv_tc16_core.cuh"
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
    in += ((long long)b * TC_CIN_ALL + grp * TC_CIN) * TC_H * TC_W;
    weight += (long long)grp * TC_COUT * TC_CIN * TC_KHW;
    const int iy0 = oy0 * TC_SY - TC_PH, ix0 = ox0 * TC_SX - TC_PW;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int wm = warp % WARPS_M, wn = warp / WARPS_M, g = lane / 4, t = lane % 4;

    // This lane's ldmatrix rows: A, row lane % 16 of the warp's m-fragment
    // at K offset 8 (lane / 16); B, pixel (lane % 8) + 8 (lane / 16) of an
    // n-fragment pair at channel offset 8 ((lane / 8) % 2). Idle pixels read
    // pixel 0 and are never stored.
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

#if PREFETCH
    // Chunk ch + 1 is loaded into registers before the mma steps of chunk
    // ch and stored into the other buffer after them (last read before the
    // previous barrier).
    unsigned wr[TC_WR][TC_CK / 2], ir[TC_IR][TC_CK / 2];
#pragma unroll
    for (int r = 0; r < TC_WR; ++r)
        tc16_wload(wr[r], weight, co0, 0, threadIdx.x + r * TC_NT);
#pragma unroll
    for (int r = 0; r < TC_IR; ++r)
        tc16_iload(ir[r], in, iy0, ix0, 0, threadIdx.x + r * TC_NT);
#pragma unroll 1
    for (int ch = 0; ch < TC_NCH; ++ch) {
        tc16_bits *st = tc_smem + ch % 2 * TC_STAGE;
#pragma unroll
        for (int r = 0; r < TC_WR; ++r)
            tc16_wstore(st, threadIdx.x + r * TC_NT, wr[r]);
#pragma unroll
        for (int r = 0; r < TC_IR; ++r)
            tc16_istore(st, threadIdx.x + r * TC_NT, ir[r]);
        __syncthreads();
        if (ch + 1 < TC_NCH) {
#pragma unroll
            for (int r = 0; r < TC_WR; ++r)
                tc16_wload(wr[r], weight, co0, (ch + 1) * TC_CK, threadIdx.x + r * TC_NT);
#pragma unroll
            for (int r = 0; r < TC_IR; ++r)
                tc16_iload(ir[r], in, iy0, ix0, (ch + 1) * TC_CK, threadIdx.x + r * TC_NT);
        }
        tc16_chunk(st, arow, boff, acc);
    }
#else
    // One stage and a raw weight area after it. The weights of chunk ch + 1
    // are copied by cp.async as they lie while chunk ch's mma steps run
    // (ct_conv_tc16cl.cuh's copy), and transposed from there after the
    // barrier that ends those steps, while this thread's input loads of
    // chunk ch + 1 are in flight: the input alone goes through registers,
    // in column pairs where it can (TC_IPAIR), two slots' loads at a time where their registers fit the budget of
    // MIN_BLOCKS blocks (tc16_conv.c estimates the same).
    tc16_wcopy(tc_smem, weight, co0, 0);
    tc16_cp_commit();
#pragma unroll 1
    for (int ch = 0; ch < TC_NCH; ++ch) {
        tc16_cp_wait<0>();
        __syncthreads();   // every warp is done with the previous chunk; chunk ch's raw weights landed
        constexpr int step = TC_ISTEP;
#pragma unroll 1
        for (int r = 0; r < TC_IRX; r += step) {
#if TC_IPAIR
            unsigned lo[step][TC_CK / 2], hi[step][TC_CK / 2];
#pragma unroll
            for (int u = 0; u < step; ++u)
                if (r + u < TC_IRX)
                    tc16_iload2(lo[u], hi[u], in, iy0, ix0, ch * TC_CK, threadIdx.x + (r + u) * TC_NT);
            if (r == 0)
                tc16_wtranspose(tc_smem);
#pragma unroll
            for (int u = 0; u < step; ++u)
                if (r + u < TC_IRX)
                    tc16_istore2(tc_smem, threadIdx.x + (r + u) * TC_NT, lo[u], hi[u]);
#else
            unsigned v[step][TC_CK / 2];
#pragma unroll
            for (int u = 0; u < step; ++u)
                if (r + u < TC_IRX)
                    tc16_iload(v[u], in, iy0, ix0, ch * TC_CK, threadIdx.x + (r + u) * TC_NT);
            if (r == 0)
                tc16_wtranspose(tc_smem);
#pragma unroll
            for (int u = 0; u < step; ++u)
                if (r + u < TC_IRX)
                    tc16_istore(tc_smem, threadIdx.x + (r + u) * TC_NT, v[u]);
#endif
        }
        __syncthreads();   // the chunk is staged; the raw area is free
        if (ch + 1 < TC_NCH) {
            tc16_wcopy(tc_smem, weight, co0, (ch + 1) * TC_CK);
            tc16_cp_commit();
        }
        tc16_chunk(tc_smem, arow, boff, acc);
    }
#endif

    // Epilogue: acc[i][j] holds rows g and g+8, columns 2t and 2t+1 of its
    // 16x8 tile; the bias is added in fp32, then one rounding to the type.
#pragma unroll
    for (int i = 0; i < TC_MF; ++i)
#pragma unroll
        for (int r2 = 0; r2 < 2; ++r2) {
            const int co = co0 + wm * TC_WM + i * 16 + g + 8 * r2;
            if (co >= TC_COUT)
                continue;
#if TC_BIAS
            const float bv = ct_ldg(bias + grp * TC_COUT + co);
#else
            const float bv = 0.0f;
#endif
            ct_elem *o = out_ + ((long long)b * TC_COUT_ALL + grp * TC_COUT + co) * TC_OH * TC_OW;
#pragma unroll
            for (int j = 0; j < TC_NF; ++j)
#pragma unroll
                for (int r1 = 0; r1 < 2; ++r1) {
                    const int n = wn * TC_WN + j * 8 + 2 * t + r1;
                    const int oy = oy0 + n / TILE_OW, ox = ox0 + n % TILE_OW;
                    if (n < TC_NPIX && oy < TC_OH && ox < TC_OW)
                        ct_st(o + oy * TC_OW + ox, acc[i][j][2 * r2 + r1] + bv);
                }
        }
}
