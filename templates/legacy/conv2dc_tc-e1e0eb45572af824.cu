// conv2dc_tc: the conv2dc layer as an implicit GEMM on the tensor cores at
// fp32 accuracy (3xTF32); see ct_conv_tc.cuh for the method and the tuning
// macros. Needs sm_80 or later.
#define TC_NAME conv2dc_tc
// conv2dc_tclayer.cuh: the conv2dc problem macros mapped onto the TC_* macros of
// ct_conv_tc.cuh, for conv2dc_tc and conv2dc_tcsplit (which define TC_NAME first).
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
#define TC_B CONV_B
#define TC_CIN CONV_CING
#define TC_GROUPS CONV_GROUPS
#define TC_H CONV_H
#define TC_W CONV_W
#define TC_COUT CONV_COUTG
#define TC_KH CONV_KH
#define TC_KW CONV_KW
#define TC_OH CONV_OH
#define TC_OW CONV_OW
#define TC_PH CONV_PH
#define TC_PW CONV_PW
#define TC_SY CONV_SH
#define TC_SX CONV_SW
#define TC_DY CONV_DH
#define TC_DX CONV_DW
#define TC_BIAS CONV_BIAS
// ct_conv_tc.cuh: a convolution layer as an implicit GEMM on the tensor
// cores, at fp32 accuracy (3xTF32). Included by the conv*_tc templates, which
// map their problem macros onto the TC_* ones below; exports inline it, so an
// exported file stays standalone.
//
//   out[b][co][oy][ox] = bias[co] + sum_{ci,i,j} w[co][ci][i][j] *
//                        in[b][ci][oy*SY - PH + i*DY][ox*SX - PW + j*DX]
//
// is C = A * X with M = Cout, N = B x OH x OW, K = Cin x KH x KW; A is the
// weight tensor as PyTorch stores it and X the im2col of the input, which is
// never built. A block owns BM output channels x a TOH x TOW tile of output
// pixels of one image and walks the input channels CK at a time. Per chunk
// it stages (cp.async, two buffers with PIPE) the BM x CK*KH*KW weights and
// the CK input planes of the tile with their halo, so each input value is
// copied once per chunk, not once per tap. The K index within a chunk is
// either channel-major (kk = ci*KH*KW + tap: least padding when Cin is small)
// or tap-major (kk = tap*CK + ci: the 4 K-lanes of an mma fragment then read
// 4 planes whose pitch is 8 banks apart, conflict-free); a table in shared
// memory maps kk to its offset in the staged planes.
//
// Each warp computes a WM x WN tile with mma.sync m16n8k8 TF32 (weight
// fragments by ldmatrix). 3xTF32: every operand x is split in registers
// into big = x with its 13 low mantissa bits cleared (a TF32 value) and
// small = x - big (exact in fp32; the tensor cores read its top 19 bits),
// and big*big + big*small + small*big is accumulated in fp32: the dropped
// small*small term and the truncation of small are each below 2^-20 of a
// product (3 * 2^-20 in all, tests/test_tc_conv.c checks it), so
// the products have fp32 accuracy (CUTLASS's "fast accurate" mode), not
// TF32's 2^-11. The sums too: the tensor cores truncate when they add to
// their accumulator, so each mma group starts from zero and the running sum
// is kept with round-to-nearest adds (Ootomo and Yokota, 2022); a long
// reduction accumulated on the tensor cores alone misses 1e-5 (2.5e-5 seen
// at K = 3584 on an H100).
//
// With CT_TF32 (a problem of element type tf32: fp32 tensors, verified to
// a relative L2 error of 2^-10) the kernel is single-pass: each operand is
// rounded to TF32 to nearest (cvt.rna.tf32.f32; the tensor cores' own
// truncation would bias every product toward zero) and one mma per step
// accumulates straight into the sums. No split, a third of the mmas, no
// group sums (ACC_STEPS is meaningless there, and normalised to 1): the
// truncating adds of the tensor cores cost at most about 2^-23 per step,
// far inside the tolerance (tests/families/test_tc_conv.c models both).
// A compile-time switch: the tuner defines CT_TF32 (1) for tf32 problems
// only; undefined, it is 0 to the preprocessor.
//
// With TC_GROUPS > 1 (a grouped layer) TC_CIN and TC_COUT are the channels
// of one group and the grid's y dimension walks the groups' channel tiles:
// each group is its own GEMM on its slice of the input, weights and output.
//
// With CONV_CHANNELS_LAST (nhwc, nlc) the activations are [B][H][W][C]:
// the same GEMM, the input planes staged from channel-innermost memory
// (consecutive threads copy consecutive channels of a pixel, so a warp's
// copies are contiguous) and the outputs written to [b][oy][ox][co].
//
// With TC_SPLIT the grid's z dimension splits the input channels: split z
// adds its share into its own slice of the output argument (a workspace of
// SPLIT_K x the output), and TC_NAME##_reduce adds the slices and the bias.
//
// Problem macros (from the including template): TC_B, TC_CIN, TC_H, TC_W,
// TC_COUT, TC_KH, TC_KW, TC_OH, TC_OW, TC_PH, TC_PW, TC_SY, TC_SX, TC_DY,
// TC_DX, TC_BIAS, TC_NAME (the kernel's name), TC_GROUPS (1 if undefined).
// Tuning macros:
//   COUT_TILE     BM, output channels per block (WARPS_M x a multiple of 16)
//   TILE_OH       TOH, output rows per block
//   TILE_OW       TOW, output columns per block (TOH x TOW pixels, rounded up to
//                 WARPS_N x a multiple of 8 GEMM columns)
//   WARPS_M       warps along the output channels
//   WARPS_N       warps along the pixels
//   CIN_CHUNK     input channels staged at a time
//   KORDER        0: channel-major K within a chunk, 1: tap-major
//   PIPE          1: two buffers, the next chunk copied during this one
//   ACC_STEPS     mma steps (of 8) summed on the tensor cores before each add
//                 to the fp32 accumulators (1, 2 or 4; 1 with CT_TF32)
//   SPLIT_K       (TC_SPLIT only) number of input-channel splits
//   MIN_BLOCKS    minimum resident blocks per SM (__launch_bounds__)

#ifndef TC_GROUPS
#define TC_GROUPS 1
#endif
#if defined(CONV_CHANNELS_LAST) && CONV_CHANNELS_LAST
#define TC_CL 1
#else
#define TC_CL 0
#endif
#define TC_CIN_ALL (TC_CIN * TC_GROUPS)
#define TC_COUT_ALL (TC_COUT * TC_GROUPS)
#define TC_CDIV(a, b) (((a) + (b) - 1) / (b))
#define TC_RUP(a, b) (TC_CDIV(a, b) * (b))

#define TC_NPIX (TILE_OH * TILE_OW)
#define TC_BN TC_RUP(TC_NPIX, 8 * WARPS_N)     // columns past TC_NPIX are idle
#define TC_BM COUT_TILE
#define TC_NT (32 * WARPS_M * WARPS_N)
#define TC_WM (TC_BM / WARPS_M)
#define TC_WN (TC_BN / WARPS_N)
#define TC_MF (TC_WM / 16)
#define TC_NF (TC_WN / 8)
#define TC_CK (CIN_CHUNK < TC_CIN ? CIN_CHUNK : TC_CIN)
#define TC_NCH TC_CDIV(TC_CIN, TC_CK)
#define TC_KHW (TC_KH * TC_KW)
#define TC_KCR (TC_CK * TC_KHW)              // real K values of a chunk
#define TC_KC TC_RUP(TC_KCR, 8 * ACC_STEPS)  // padded to whole groups of mma steps
#define TC_AP (TC_KC + 4)                    // = 4 mod 8: conflict-free ldmatrix rows
#define TC_IH ((TILE_OH - 1) * TC_SY + (TC_KH - 1) * TC_DY + 1)
#define TC_IW ((TILE_OW - 1) * TC_SX + (TC_KW - 1) * TC_DX + 1)
#define TC_PLANE (TC_RUP(TC_IH * TC_IW, 32) + 8) // = 8 mod 32: conflict-free tap-major B
#define TC_SA (TC_BM * TC_AP)
#define TC_SB (TC_CK * TC_PLANE)
#define TC_STAGE (TC_SA + TC_SB)
#define TC_NBUF (PIPE ? 2 : 1)
#define TC_TY TC_CDIV(TC_OH, TILE_OH)
#define TC_TX TC_CDIV(TC_OW, TILE_OW)
#ifndef TC_SPLIT
#define TC_NSPLIT 1
#else
#define TC_NSPLIT SPLIT_K
#endif
#define TC_NCT TC_CDIV(TC_COUT, TC_BM)          // channel tiles of a group
#define TC_OUT_COUNT ((long long)TC_B * TC_COUT_ALL * TC_OH * TC_OW)

// Shared memory (dynamic, sized by tc_conv.c): TC_NBUF stages of TC_STAGE
// floats, then the TC_KC ints of the kk -> offset table.

// Weights copied 16 bytes at a time: channel-major chunks keep 4
// consecutive K values contiguous in memory and in shared memory, and rows
// and chunks start on 16 bytes.
#define TC_AVEC (KORDER == 0 && (TC_CIN * TC_KHW) % 4 == 0 && TC_KCR % 4 == 0 ? 4 : 1)

__device__ __forceinline__ void tc_copy(float *dst, const float *src, bool ok)
{
#if __CUDA_ARCH__ >= 800
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(ok ? 4 : 0) : "memory");
#else
    *dst = ok ? __ldg(src) : 0.0f;
#endif
}

__device__ __forceinline__ void tc_commit()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

template <int N>
__device__ __forceinline__ void tc_wait()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

__device__ __forceinline__ void tc_copy16(float *dst, const float *src, bool ok)
{
#if __CUDA_ARCH__ >= 800
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(ok ? 16 : 0) : "memory");
#else
    *reinterpret_cast<float4 *>(dst) = ok ? __ldg(reinterpret_cast<const float4 *>(src)) : make_float4(0, 0, 0, 0);
#endif
}

// x = big + small: big is x truncated to TF32, small the exact rest.
__device__ __forceinline__ void tc_split(unsigned x, unsigned &big, unsigned &small)
{
    big = x & 0xffffe000u;
    small = __float_as_uint(__uint_as_float(x) - __uint_as_float(big));
}

#if CT_TF32
// x rounded to TF32, to nearest with ties away from zero (the low 13 bits
// of the result are zero; the tensor cores would read them as truncation).
__device__ __forceinline__ unsigned tc_rna(unsigned x)
{
    unsigned r = x;
#if __CUDA_ARCH__ >= 800
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(__uint_as_float(x)));
#endif
    return r;
}
#endif

// d += a * b for one 16x8x8 tile (fragments in the PTX ISA's layout).
__device__ __forceinline__ void tc_mma(float *d, const unsigned *a, const unsigned *b)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

// An A fragment (16 rows x 8 K of 32-bit values) as four 8x8 b16
// matrices: lane l gives the address of row l % 16, K offset 4 * (l / 16).
__device__ __forceinline__ void tc_ldmatrix(unsigned *a, const float *p)
{
#if __CUDA_ARCH__ >= 800
    const unsigned s = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(s));
#endif
}

// Issue the copies of input-channel chunk ch into one stage.
__device__ __forceinline__ void tc_stage(float *s, const float *__restrict__ in, const float *__restrict__ weight,
                                         int b, int co0, int iy0, int ix0, int ch)
{
    const int ci0 = ch * TC_CK;
    float *sa = s, *sb = s + TC_SA;
    // Weights: global order within a chunk (coalesced), stored at kk.
#pragma unroll 4
    for (int idx = threadIdx.x; idx < TC_BM * TC_KCR / TC_AVEC; idx += TC_NT) {
        const int m = idx / (TC_KCR / TC_AVEC), q = idx % (TC_KCR / TC_AVEC) * TC_AVEC;
        const int kk = KORDER ? (q % TC_KHW) * TC_CK + q / TC_KHW : q;
        const bool ok = co0 + m < TC_COUT && (TC_CIN % TC_CK == 0 || ci0 + q / TC_KHW < TC_CIN);
        const float *src = ok ? weight + ((long long)(co0 + m) * TC_CIN + ci0) * TC_KHW + q : weight;
        if (TC_AVEC == 4)
            tc_copy16(sa + m * TC_AP + kk, src, ok);
        else
            tc_copy(sa + m * TC_AP + kk, src, ok);
    }
    // Input planes of the tile with their halo; zeros outside the image.
    // Channels last: the channel varies fastest over the threads.
#pragma unroll 4
    for (int idx = threadIdx.x; idx < TC_CK * TC_IH * TC_IW; idx += TC_NT) {
#if TC_CL
        const int c = idx % TC_CK, r = idx / TC_CK / TC_IW, x = idx / TC_CK % TC_IW;
#else
        const int c = idx / (TC_IH * TC_IW), r = idx % (TC_IH * TC_IW) / TC_IW, x = idx % TC_IW;
#endif
        const int iy = iy0 + r, ix = ix0 + x;
        const bool ok = (TC_CIN % TC_CK == 0 || ci0 + c < TC_CIN) && iy >= 0 && iy < TC_H && ix >= 0 && ix < TC_W;
#if TC_CL
        const long long at = (((long long)b * TC_H + iy) * TC_W + ix) * TC_CIN_ALL + ci0 + c;
#else
        const long long at = (((long long)b * TC_CIN_ALL + ci0 + c) * TC_H + iy) * TC_W + ix;
#endif
        tc_copy(sb + c * TC_PLANE + r * TC_IW + x, ok ? in + at : in, ok);
    }
}

extern "C" __global__ void __launch_bounds__(TC_NT, MIN_BLOCKS)
TC_NAME(const float *__restrict__ in, const float *__restrict__ weight,
#if TC_BIAS && !defined(TC_SPLIT)
        const float *__restrict__ bias,
#endif
        float *__restrict__ out)
{
    extern __shared__ __align__(16) float tc_smem[];
    int *s_koff = reinterpret_cast<int *>(tc_smem + TC_NBUF * TC_STAGE);

    const int tile = blockIdx.x % (TC_TY * TC_TX), b = blockIdx.x / (TC_TY * TC_TX);
    const int oy0 = tile / TC_TX * TILE_OH, ox0 = tile % TC_TX * TILE_OW;
    // This block's group: its input channels, weights and outputs.
    const int grp = blockIdx.y / TC_NCT, co0 = blockIdx.y % TC_NCT * TC_BM;
    in += TC_CL ? (long long)grp * TC_CIN : (long long)grp * TC_CIN * TC_H * TC_W;
    weight += (long long)grp * TC_COUT * TC_CIN * TC_KHW;
    const int iy0 = oy0 * TC_SY - TC_PH, ix0 = ox0 * TC_SX - TC_PW;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int wm = warp % WARPS_M, wn = warp / WARPS_M, g = lane / 4, t = lane % 4;

    // This split's chunks.
    const int ch0 = (int)((long long)blockIdx.z * TC_NCH / TC_NSPLIT);
    const int ch1 = (int)((long long)(blockIdx.z + 1) * TC_NCH / TC_NSPLIT);

    // kk -> offset of its (channel, tap) in a staged chunk; padding K values
    // point at offset 0 and meet zero weights.
    for (int kk = threadIdx.x; kk < TC_KC; kk += TC_NT) {
        int off = 0;
        if (kk < TC_KCR) {
            const int c = KORDER ? kk % TC_CK : kk / TC_KHW, tap = KORDER ? kk / TC_CK : kk % TC_KHW;
            off = c * TC_PLANE + tap / TC_KW * TC_DY * TC_IW + tap % TC_KW * TC_DX;
        }
        s_koff[kk] = off;
    }
#if TC_KC > TC_KCR
    // The weights' padding columns of every buffer are zeroed once:
    // staging never writes them.
    for (int idx = threadIdx.x; idx < TC_NBUF * TC_BM * (TC_KC - TC_KCR); idx += TC_NT) {
        const int h = idx / (TC_BM * (TC_KC - TC_KCR)), r = idx % (TC_BM * (TC_KC - TC_KCR));
        tc_smem[h * TC_STAGE + r / (TC_KC - TC_KCR) * TC_AP + TC_KCR + r % (TC_KC - TC_KCR)] = 0.0f;
    }
#endif

    // Offsets of this lane's fragment columns in a staged plane.
    int noff[TC_NF];
#pragma unroll
    for (int f = 0; f < TC_NF; ++f) {
        const int n = wn * TC_WN + f * 8 + g;
        noff[f] = n < TC_NPIX ? n / TILE_OW * TC_SY * TC_IW + n % TILE_OW * TC_SX : 0;
    }
    const int arow = (wm * TC_WM + lane % 16) * TC_AP + lane / 16 * 4;

    // acc: the running sums; d: the current group of ACC_STEPS mma steps
    // (3xTF32 only: a tf32 kernel's mmas add into acc). CT_TF32 is left
    // undefined for fp32 problems, so their code (and code hash) is that of
    // before.
#if CT_TF32
    float acc[TC_MF][TC_NF][4];
#pragma unroll
    for (int i = 0; i < TC_MF; ++i)
#pragma unroll
        for (int j = 0; j < TC_NF; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r)
                acc[i][j][r] = 0.0f;
#else
    float acc[TC_MF][TC_NF][4], d[TC_MF][TC_NF][4];
#pragma unroll
    for (int i = 0; i < TC_MF; ++i)
#pragma unroll
        for (int j = 0; j < TC_NF; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r)
                acc[i][j][r] = d[i][j][r] = 0.0f;
#endif

    if (ch0 < ch1)
        tc_stage(tc_smem, in, weight, b, co0, iy0, ix0, ch0);
    tc_commit();
    int buf = 0;
#pragma unroll 1
    for (int ch = ch0; ch < ch1; ++ch) {
        const float *st = tc_smem + buf * TC_STAGE;
#if PIPE
        if (ch + 1 < ch1)
            tc_stage(tc_smem + (buf ^ 1) * TC_STAGE, in, weight, b, co0, iy0, ix0, ch + 1);
        tc_commit();
        tc_wait<1>();
#else
        tc_wait<0>();
#endif
        __syncthreads();
        const float *sa = st + arow;
        const float *sb = st + TC_SA;
#pragma unroll 1
        for (int ks = 0; ks < TC_KC / 8; ks += ACC_STEPS) {
#pragma unroll
            for (int s = 0; s < ACC_STEPS; ++s) {
                const int k0 = s_koff[(ks + s) * 8 + t], k1 = s_koff[(ks + s) * 8 + t + 4];
#if CT_TF32
                // One mma of the operands rounded to TF32, into the sums.
                unsigned ar[TC_MF][4], br[TC_NF][2];
#pragma unroll
                for (int i = 0; i < TC_MF; ++i) {
                    tc_ldmatrix(ar[i], sa + i * 16 * TC_AP + (ks + s) * 8);
#pragma unroll
                    for (int r = 0; r < 4; ++r)
                        ar[i][r] = tc_rna(ar[i][r]);
                }
#pragma unroll
                for (int j = 0; j < TC_NF; ++j) {
                    br[j][0] = tc_rna(__float_as_uint(sb[noff[j] + k0]));
                    br[j][1] = tc_rna(__float_as_uint(sb[noff[j] + k1]));
                }
#pragma unroll
                for (int i = 0; i < TC_MF; ++i)
#pragma unroll
                    for (int j = 0; j < TC_NF; ++j)
                        tc_mma(acc[i][j], ar[i], br[j]);
#else
                unsigned ab[TC_MF][4], as[TC_MF][4], bb[TC_NF][2], bs[TC_NF][2];
#pragma unroll
                for (int i = 0; i < TC_MF; ++i) {
                    tc_ldmatrix(ab[i], sa + i * 16 * TC_AP + (ks + s) * 8);
#pragma unroll
                    for (int r = 0; r < 4; ++r)
                        tc_split(ab[i][r], ab[i][r], as[i][r]);
                }
#pragma unroll
                for (int j = 0; j < TC_NF; ++j) {
                    tc_split(__float_as_uint(sb[noff[j] + k0]), bb[j][0], bs[j][0]);
                    tc_split(__float_as_uint(sb[noff[j] + k1]), bb[j][1], bs[j][1]);
                }
#pragma unroll
                for (int i = 0; i < TC_MF; ++i)
#pragma unroll
                    for (int j = 0; j < TC_NF; ++j) {
                        tc_mma(d[i][j], as[i], bb[j]);
                        tc_mma(d[i][j], ab[i], bs[j]);
                        tc_mma(d[i][j], ab[i], bb[j]);
                    }
#endif
            }
#if !CT_TF32
            // The tensor cores add into their accumulator rounding toward
            // zero, an error that grows with every step added to a large
            // running sum; so they sum only ACC_STEPS steps from zero, and
            // the running sum is kept by ordinary (round-to-nearest) adds.
#pragma unroll
            for (int i = 0; i < TC_MF; ++i)
#pragma unroll
                for (int j = 0; j < TC_NF; ++j)
#pragma unroll
                    for (int r = 0; r < 4; ++r) {
                        acc[i][j][r] += d[i][j][r];
                        d[i][j][r] = 0.0f;
                    }
#endif
        }
        // Every warp is done with this stage before it is refilled.
        __syncthreads();
#if PIPE
        buf ^= 1;
#else
        if (ch + 1 < ch1) {
            tc_stage(tc_smem, in, weight, b, co0, iy0, ix0, ch + 1);
            tc_commit();
        }
#endif
    }

#ifdef TC_SPLIT
    out += (long long)blockIdx.z * TC_OUT_COUNT;
#endif
#pragma unroll
    for (int i = 0; i < TC_MF; ++i)
#pragma unroll
        for (int r2 = 0; r2 < 2; ++r2) {
            const int co = co0 + wm * TC_WM + i * 16 + g + 8 * r2;
            if (co >= TC_COUT)
                continue;
#if TC_BIAS && !defined(TC_SPLIT)
            const float bv = __ldg(bias + grp * TC_COUT + co);
#else
            const float bv = 0.0f;
#endif
#if TC_CL
            // [b][oy][ox][channel]: pixel (oy, ox) at o + (oy * OW + ox) * COUT_ALL
            float *o = out + (long long)b * TC_OH * TC_OW * TC_COUT_ALL + grp * TC_COUT + co;
#define TC_OUT_AT(oy, ox) ((long long)((oy) * TC_OW + (ox)) * TC_COUT_ALL)
#else
            float *o = out + ((long long)b * TC_COUT_ALL + grp * TC_COUT + co) * TC_OH * TC_OW;
#define TC_OUT_AT(oy, ox) ((oy) * TC_OW + (ox))
#endif
#pragma unroll
            for (int j = 0; j < TC_NF; ++j)
#pragma unroll
                for (int r1 = 0; r1 < 2; ++r1) {
                    const int n = wn * TC_WN + j * 8 + 2 * t + r1;
                    const int oy = oy0 + n / TILE_OW, ox = ox0 + n % TILE_OW;
                    if (n < TC_NPIX && oy < TC_OH && ox < TC_OW)
                        o[TC_OUT_AT(oy, ox)] = acc[i][j][2 * r2 + r1] + bv;
                }
#undef TC_OUT_AT
        }
}

#ifdef TC_SPLIT
#define TC_CAT2(a, b) a##b
#define TC_CAT(a, b) TC_CAT2(a, b)
// Sum of the SPLIT_K partial outputs plus the bias, 4 outputs a thread
// where the count allows 16-byte accesses.
extern "C" __global__ void __launch_bounds__(256)
TC_CAT(TC_NAME, _reduce)(const float *__restrict__ ws,
#if TC_BIAS
                         const float *__restrict__ bias,
#endif
                         float *__restrict__ out)
{
    const long long i = (long long)blockIdx.x * 256 + threadIdx.x;
    if (TC_OUT_COUNT % 4 == 0) {
        if (i >= TC_OUT_COUNT / 4)
            return;
        float4 s = reinterpret_cast<const float4 *>(ws)[i];
#pragma unroll
        for (int z = 1; z < SPLIT_K; ++z) {
            const float4 v = reinterpret_cast<const float4 *>(ws + z * TC_OUT_COUNT)[i];
            s.x += v.x; s.y += v.y; s.z += v.z; s.w += v.w;
        }
#if TC_BIAS
        // output i's channel: i / plane % COUT_ALL, or i % COUT_ALL channels last
        const long long plane = TC_CL ? 1 : (long long)TC_OH * TC_OW;
        s.x += __ldg(bias + (4 * i) / plane % TC_COUT_ALL);
        s.y += __ldg(bias + (4 * i + 1) / plane % TC_COUT_ALL);
        s.z += __ldg(bias + (4 * i + 2) / plane % TC_COUT_ALL);
        s.w += __ldg(bias + (4 * i + 3) / plane % TC_COUT_ALL);
#endif
        reinterpret_cast<float4 *>(out)[i] = s;
    } else {
        if (i >= TC_OUT_COUNT)
            return;
        float s = ws[i];
#pragma unroll
        for (int z = 1; z < SPLIT_K; ++z)
            s += ws[z * TC_OUT_COUNT + i];
#if TC_BIAS
        s += __ldg(bias + i / (TC_CL ? 1LL : (long long)TC_OH * TC_OW) % TC_COUT_ALL);
#endif
        out[i] = s;
    }
}
#endif
