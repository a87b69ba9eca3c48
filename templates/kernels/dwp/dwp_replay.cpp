// dwp_replay.cpp: a replay of conv2dc_dwph, the bf16/f16 branch of
// conv2dc_dwp's template file (dwp.conv2dc.cu.in, the text the build embeds
// as conv2dc_dwp.cu), on the CPU, without a GPU: compiled by a host C++20
// compiler, CUDA emulated by ../replay_shim.h (__syncwarp as the block's
// barrier: a superset of the warp's), on the grid dwp_conv.c launches, the
// result compared with an fp64 reference of the depthwise layer in relative
// L2 within 1e-2 (outputs rounded once to bf16 or f16). Outputs start as
// NaN, so an element never written fails. The fp32 branch stages by
// cp.async (inline PTX), which a host compiler cannot run: it is checked by
// NVRTC compiles and on a GPU. The layer (CONV_* as the family defines
// them) and the tuning macros are -D flags (dwp_replay.sh); ../replay_dw.h
// holds the elements and the reference.
#define REPLAY_DYNAMIC_SMEM 131072
#include "replay_shim.h"
#define __syncwarp() __syncthreads()
#if !CT_DTYPE
#error "the fp32 branch stages by cp.async: replay bf16 (CT_DTYPE=1) or f16 (2)"
#endif
#include "dwp.conv2dc.cu.in"

#include "replay_dw.h"

int main()
{
    srand(23);
    const rp_dw_layer L = {CONV_B, CONV_CIN, CONV_H, CONV_W, CONV_OH, CONV_OW, CONV_KH, CONV_KW,
                           CONV_PH, CONV_PW, CONV_SH, CONV_SW, CONV_DH, CONV_DW, CONV_BIAS};
    std::vector<float> x, w, bias;
    std::vector<rp_elem> xe, we, be;
    rp_fill(x, xe, (long long)NPLANES * L.h * L.w), rp_fill(w, we, (long long)L.c * L.kh * L.kw);
    rp_fill(bias, be, L.c);
    const std::vector<double> ref =
        rp_dw_reference(L, x, w, bias, rp_planes(L.c, L.h, L.w), rp_planes(L.c, L.oh, L.ow));
    std::vector<rp_elem> oute(ref.size());
    for (auto &o : oute)
        rp_st(&o, NAN);
    static_assert(WARPS * STAGES * BUF <= REPLAY_DYNAMIC_SMEM, "the replay's shared memory is too small");
    const unsigned blocks = (unsigned)DW_CDIV(DW_CDIV(NPLANES, PLANES), WARPS);
    ct_replay_grid(blocks, 1, 1, 32 * WARPS, 1, 1, [&] {
#if CONV_BIAS
        conv2dc_dwph(xe.data(), we.data(), be.data(), oute.data());
#else
        conv2dc_dwph(xe.data(), we.data(), oute.data());
#endif
    });
    return rp_check(oute, ref);
}
