// dw_replay.cpp: a replay of the dw kind's kernels on the CPU, without a
// GPU: the family's template file itself (dw.conv1dc.cu.in for conv1dc_dw
// and its bf16/f16 branch conv1dc_dwh, REPLAY_2D 0; dw.conv2dc.cu.in for
// conv2dc_dw, fp32, REPLAY_2D 1) is compiled by a host C++20 compiler, CUDA
// emulated by ../replay_shim.h, and the result is compared with an fp64
// reference of the depthwise layer in relative L2: 1e-5 for fp32, 1e-2 for
// bf16 and f16 (their outputs are rounded once). Outputs start as NaN, so
// an element never written fails. The layer (CONV_* as the family defines
// them) and the tuning macros are -D flags (dw_replay.sh runs a battery of
// odd layers); the grid is the one dw_conv.c launches, from the template's
// own macros. ../replay_dw.h holds the elements and the reference.
#if REPLAY_2D
#define REPLAY_DYNAMIC_SMEM 65536
#endif
#include "replay_shim.h"
#if REPLAY_2D
#include "dw.conv2dc.cu.in"
#define RP_KERNEL conv2dc_dw
// The layer as planes of H x W (NCHW).
#define RP_LAYER                                                                                         \
    {CONV_B, CONV_CIN, CONV_H, CONV_W, CONV_OH, CONV_OW, CONV_KH, CONV_KW, CONV_PH, CONV_PW, CONV_SH,     \
     CONV_SW, CONV_DH, CONV_DW, CONV_BIAS}
#else
#include "dw.conv1dc.cu.in"
#if CT_DTYPE
#define RP_KERNEL conv1dc_dwh
#else
#define RP_KERNEL conv1dc_dw
#endif
// The layer as planes of 1 x L (NCL).
#define RP_LAYER {CONV_B, CONV_CIN, 1, CONV_L, 1, CONV_LOUT, 1, CONV_K, 0, CONV_PAD, 1, CONV_STRIDE, 1, CONV_DIL, CONV_BIAS}
#endif
#include "replay_dw.h"

int main()
{
    srand(17);
    const rp_dw_layer L = RP_LAYER;
    const long long planes = (long long)L.b * L.c;
    std::vector<float> x, w, bias;
    std::vector<rp_elem> xe, we, be;
    rp_fill(x, xe, planes * L.h * L.w), rp_fill(w, we, (long long)L.c * L.kh * L.kw), rp_fill(bias, be, L.c);
    const std::vector<double> ref =
        rp_dw_reference(L, x, w, bias, rp_planes(L.c, L.h, L.w), rp_planes(L.c, L.oh, L.ow));
    std::vector<rp_elem> oute(ref.size());
    for (auto &o : oute)
        rp_st(&o, NAN);
#if REPLAY_2D
    static_assert(S_IN + S_W <= REPLAY_DYNAMIC_SMEM, "the replay's shared memory is too small");
    const unsigned blocks = (unsigned)(planes * NTY * NTX), threads = NT;
#else
    const unsigned blocks = (unsigned)(((ROWS + CHANNELS_PER_BLOCK - 1) / CHANNELS_PER_BLOCK) * NTILES);
    const unsigned threads = BLOCK_SIZE;
#endif
    ct_replay_grid(blocks, 1, 1, threads, 1, 1, [&] {
#if CONV_BIAS
        RP_KERNEL(xe.data(), we.data(), be.data(), oute.data());
#else
        RP_KERNEL(xe.data(), we.data(), oute.data());
#endif
    });
    return rp_check(oute, ref);
}
