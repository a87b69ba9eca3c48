// seed 002 in bf16 through ct_conv_tc16w.cuh (build.sh: the eighth session's winners), one configuration per object
#include "layer.h"
#include "ct_conv_tc16w.cuh"
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
static long long mx(long long a, long long b) { return a > b ? a : b; }
extern "C" void CAT(TC_NAME, _geom)(int *grid, int *block, int *smem)
{
    grid[0] = TC_CDIV(TC_NTOT, TILE_N); grid[1] = TC_NCT; grid[2] = CLUSTER_K;
    *block = TC_NT;
    *smem = (int)mx(2LL * TILE_N * TC_KP, 4LL * WARPS_K * TC_BM * TILE_N);
}
