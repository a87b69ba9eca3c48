// wino_replay.cpp: a replay of ct_conv_wino.cuh on the CPU, without a GPU:
// the header itself is compiled by a host C++20 compiler, CUDA emulated by
// ../replay_shim.h (a std::thread per thread of a block, blocks one after
// another), launched on the grid wino_conv.c gives it
// (tile blocks x channel tiles x groups),
// through ../replay_pass.h's forward pass: random inputs, an fp64
// reference, outputs NaN-filled so that an element never written fails,
// relative L2 within 1e-5 for fp32, 1e-2 for bf16 and f16 (their outputs
// are rounded once). The layer (LY_B ... LY_CL, as FAMILY_as2d.cuh names
// it) and the tuning macros are -D flags (wino_replay.sh runs a battery of
// odd layers); bf16 and f16 need CUDA's headers. With FPRE=1 the prep
// kernel runs first, on a NaN-filled workspace (a slot the main kernel
// reads unwritten fails).
#define WN_NAME kmain
#define REPLAY_KERNEL "ct_conv_wino.cuh"
// A case of over 48 KiB of shared memory (some past any device's limit)
// runs the kernel's one dynamic array, the shim's REPLAY_DYNAMIC_SMEM
// floats; the others its static arrays.
#include "wino_sizes.cuh"
#if FPRE
#define REPLAY_UPL WINO_UPLF(CHUNK_K, TILE_M)
#else
#define REPLAY_UPL WINO_UPL(CHUNK_K, TILE_M)
#endif
#if WINO_DYN(WINO_SMEM(STAGES, WINO_STAGE(REPLAY_UPL, WINO_VPL(CHUNK_K, TILE_N)), TILE_N))
#define REPLAY_DYNAMIC_SMEM 65536
#endif
#include "replay_pass.h"

#ifdef REPLAY_DYNAMIC_SMEM
static_assert(WN_DYN && STAGES * WN_STAGE + 4 * TILE_N <= REPLAY_DYNAMIC_SMEM, "the case's stages fit the array");
#endif

int main()
{
    replay_pass r;
    static_assert(REPLAY_UPL == WN_UPL, "the replay's plane is the kernel's");
#if FPRE
    static_assert(WINO_UWS(LY_GROUPS, WN_MTILES, WN_NCH, CHUNK_K, TILE_M) == 16LL * WN_NFILT, "the model's workspace");
    std::vector<float> uw(16LL * WN_NFILT, NAN);
    ct_replay_grid(WN_CDIV(WN_NFILT, WINO_PREP_NT), 1, 1, WINO_PREP_NT, 1, 1,
                   [&] { kmain_fprep(r.we.data(), uw.data()); });
    const float *wk = uw.data();
#else
    const ct_elem *wk = r.we.data();
#endif
    ct_replay_grid(WN_NTILES, WN_MTILES, LY_GROUPS, WN_NT, 1, 1, [&] {
#if LY_BIAS
        kmain(r.xe.data(), wk, r.be.data(), r.oute.data());
#else
        kmain(r.xe.data(), wk, r.oute.data());
#endif
    });
    return r.check();
}
