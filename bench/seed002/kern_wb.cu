// seed 002 in bf16 through ct_conv_tc16wb.cuh, one configuration per object
#include "layer.h"
#include "ct_conv_tc16wb.cuh"
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
static long long mx(long long a, long long b) { return a > b ? a : b; }
extern "C" void CAT(TC_NAME, _geom)(int *grid, int *block, int *smem)
{
    grid[0] = 1; grid[1] = TC_NCT * TC_GROUPS; grid[2] = CLUSTER_K;
    *block = TC_NT;
    *smem = (int)mx(2LL * (TC_ISM + TC_NTOT * TC_KP), 4LL * (WARPS_K + (CLUSTER_K > 1)) * TC_NOUT);
}
