// dwcl_replay.cpp: a replay of conv1dc_dwcl (fp32) and its bf16/f16 branch
// conv1dc_dwclh on the CPU, without a GPU: the template file itself
// (dwcl.conv1dc.cu.in, the text the build embeds as conv1dc_dwcl.cu) is
// compiled by a host C++20 compiler, CUDA emulated by ../replay_shim.h, on
// the grid dwcl_conv.c launches, and the result is compared with an fp64
// reference of the depthwise NLC layer in relative L2: 1e-5 for fp32, 1e-2
// for bf16 and f16. Outputs start as NaN, so an element never written
// fails. The layer (CONV_* as the family defines them) and the tuning
// macros are -D flags (dwcl_replay.sh runs a battery of odd layers);
// ../replay_dw.h holds the elements and the reference.
#include "replay_shim.h"
#include "dwcl.conv1dc.cu.in"
#if CT_DTYPE
#define RP_KERNEL conv1dc_dwclh
#else
#define RP_KERNEL conv1dc_dwcl
#endif
#include "replay_dw.h"

int main()
{
    srand(19);
    const rp_dw_layer L = {CONV_B, CONV_CIN, 1, CONV_L, 1, CONV_LOUT, 1, CONV_K, 0, CONV_PAD, 1, CONV_STRIDE, 1,
                           CONV_DIL, CONV_BIAS};
    std::vector<float> x, w, bias;
    std::vector<rp_elem> xe, we, be;
    rp_fill(x, xe, (long long)L.b * L.w * L.c), rp_fill(w, we, (long long)L.c * L.kw), rp_fill(bias, be, L.c);
    const std::vector<double> ref = rp_dw_reference(
        L, x, w, bias, [](int b, int c, int, int xx) { return (long long)CONV_IN_AT(b, c, xx); },
        [](int b, int c, int, int t) { return (long long)CONV_OUT_AT(b, c, t); });
    std::vector<rp_elem> oute(ref.size());
    for (auto &o : oute)
        rp_st(&o, NAN);
    ct_replay_grid((unsigned)(CONV_B * NPB * NCB), 1, 1, CHANNEL_THREADS, POS_THREADS, 1, [&] {
#if CONV_BIAS
        RP_KERNEL(xe.data(), we.data(), be.data(), oute.data());
#else
        RP_KERNEL(xe.data(), we.data(), oute.data());
#endif
    });
    return rp_check(oute, ref);
}
