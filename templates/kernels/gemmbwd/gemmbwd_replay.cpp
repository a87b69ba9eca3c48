// gemmbwd_replay.cpp: a replay of ct_gemmbwd.cuh (dgsimt, wgsimt) on the
// CPU, without a GPU, through ../replay_pass.h: the layer, the pass and the
// tuning macros are -D flags (gemmbwd_replay.sh runs a battery of odd
// layers), launched as gemmbwd_conv.c's executor launches them: the main
// kernel on its grid (SPLIT slices on blockIdx.z), then with SPLIT > 1 the
// fp64 reduce kernel over the workspace, on wg_reduce_grid's grid (a warp
// per element under 65536 elements, a thread per element above). Shared
// memory and the workspace start as NaN, so a read of anything not staged
// or written shows in the result.
#define GB_NAME kmain
#define GB_REDUCE_NAME kreduce
#define REPLAY_DYNAMIC_SMEM (1 << 16)
#define REPLAY_KERNEL "ct_gemmbwd.cuh"
#include "replay_pass.h"
#include <algorithm>

int main()
{
    replay_pass r;
    std::fill(smem, smem + REPLAY_DYNAMIC_SMEM, NAN);
#if LY_PASS == 1
    static_assert(DG_S_DY + DG_S_W <= REPLAY_DYNAMIC_SMEM, "the block's shared memory fits the replay's");
    const unsigned blocks = DG_NCB * DG_NTY * DG_NTX * LY_B, threads = DG_NT;
    const ct_elem *a = r.dye.data(), *b = r.we.data();
#else
    static_assert(WG_S_DY + WG_S_X <= REPLAY_DYNAMIC_SMEM && WG_RS * WG_OWN * WG_E <= REPLAY_DYNAMIC_SMEM,
                  "the block's shared memory fits the replay's");
    const unsigned blocks = WG_NGS * WG_NMB * WG_NNB, threads = WG_NT;
    const ct_elem *a = r.xe.data(), *b = r.dye.data();
#endif
    static_assert(GB_TOTAL == replay_pass::nout, "the pass writes every element of its output");
#if SPLIT == 1
    ct_replay_grid(blocks, 1, 1, threads, 1, 1, [&] { kmain(a, b, r.oute.data()); });
#else
    std::vector<float> ws(SPLIT * GB_TOTAL, NAN);
    ct_replay_grid(blocks, 1, SPLIT, threads, 1, 1, [&] { kmain(a, b, ws.data()); });
    const unsigned rgrid = GB_TOTAL < 65536 ? (GB_TOTAL + 7) / 8 : (GB_TOTAL + 255) / 256;
    ct_replay_grid(rgrid, 1, 1, 256, 1, 1, [&] { kreduce(ws.data(), r.oute.data()); });
#endif
    return r.check();
}
