// passnaive_replay.cpp: a replay of ct_pass_naive.cuh (dgnaive, wgnaive)
// on the CPU, without a GPU, through ../replay_pass.h: the layer, the pass
// and BLOCK_SIZE are -D flags (passnaive_replay.sh runs a battery of odd
// layers), one thread per output element as the host launches it.
#define PN_NAME kmain
#define REPLAY_KERNEL "ct_pass_naive.cuh"
#include "replay_pass.h"

int main()
{
    replay_pass r;
    const unsigned blocks = (unsigned)((r.nout + BLOCK_SIZE - 1) / BLOCK_SIZE);
#if LY_PASS == 1
    ct_replay_grid(blocks, 1, 1, BLOCK_SIZE, 1, 1, [&] { kmain(r.dye.data(), r.we.data(), r.oute.data()); });
#else
    ct_replay_grid(blocks, 1, 1, BLOCK_SIZE, 1, 1, [&] { kmain(r.xe.data(), r.dye.data(), r.oute.data()); });
#endif
    return r.check();
}
