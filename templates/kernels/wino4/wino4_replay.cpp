// wino4_replay.cpp: a replay of ct_conv_wino4.cuh on the CPU, without a GPU:
// the header itself is compiled by a host C++20 compiler, CUDA emulated by
// ../replay_shim.h (a std::thread per thread of a block, blocks one after
// another), launched on the grid wino4_conv.c gives it
// (tile blocks x channel tiles x groups),
// through ../replay_pass.h's forward pass: random inputs, an fp64
// reference, outputs NaN-filled so that an element never written fails,
// relative L2 within 1e-5 for fp32 (F(4x4,3x3)'s larger transforms round
// more than F(2x2,3x3)'s: the error is printed), 1e-2 for bf16 and f16.
// The layer (LY_B ... LY_CL, as FAMILY_as2d.cuh names it) and the tuning
// macros are -D flags (wino4_replay.sh runs a battery of odd layers); bf16
// and f16 need CUDA's headers. With FPRE=1 the prep kernel runs first, on
// a NaN-filled workspace (a slot the main kernel reads unwritten fails).
#define W4_NAME kmain
#define REPLAY_DYNAMIC_SMEM 65536   // floats: every case's stages, some past a device's limit
#define REPLAY_KERNEL "ct_conv_wino4.cuh"
#include "replay_pass.h"

static_assert(STAGES * W4_STAGE + 4 * TILE_N <= REPLAY_DYNAMIC_SMEM, "the case's stages fit the replay's array");

int main()
{
    replay_pass r;
#if FPRE
    static_assert(WINO4_UWS(LY_GROUPS, W4_MTILES, W4_NCH, CHUNK_K, TILE_M) == 36LL * W4_NFILT, "the model's workspace");
    std::vector<float> uw(36LL * W4_NFILT, NAN);
    ct_replay_grid(W4_CDIV(W4_NFILT, WINO4_PREP_NT), 1, 1, WINO4_PREP_NT, 1, 1,
                   [&] { kmain_fprep(r.we.data(), uw.data()); });
    const float *wk = uw.data();
#else
    const ct_elem *wk = r.we.data();
#endif
    ct_replay_grid(W4_NTILES, W4_MTILES, LY_GROUPS, W4_NT, 1, 1, [&] {
#if LY_BIAS
        kmain(r.xe.data(), wk, r.be.data(), r.oute.data());
#else
        kmain(r.xe.data(), wk, r.oute.data());
#endif
    });
    return r.check();
}
