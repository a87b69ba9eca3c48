"""ct_conv_tc16wb.cuh with %globaltimer stamps (thread 0 of each block) at its
phases, for tl.cu: start, im2col done, first weight piece landed, mma steps
done (warp 0), end. Usage: stamp.py TEMPLATE OUT."""
import sys

src = open(sys.argv[1]).read()


def put(after, stamp):
    global src
    if after not in src:
        sys.exit(f"stamp.py: the template no longer has [{after[:60]}]")
    src = src.replace(after, after + stamp, 1)


put("    extern __shared__ __align__(128) tc16_bits tc_smem[];\n", "    TS(0);\n")
put("            *reinterpret_cast<uint4 *>(im + n * TC_KP + loc) = zero;\n    }\n    __syncthreads();\n", "    TS(1);\n")
put("            while (!tc16wb_try_wait(&bar[waited], 0))\n                ;\n", "            if (waited == 0) TS(2);\n")
src = src.replace("    // The warps' partial sums, [wk][m][n] in fp32", "    TS(3);\n    // The warps' partial sums, [wk][m][n] in fp32", 1)
end = "    tc16wb_cluster_sync();   // the other blocks may still read this one's sums\n#endif\n}"
put(end[:-1], "    __syncthreads();\n    TS(4);\n")
src = src.replace('#include "ct_mma16.cuh"', '''#include "ct_mma16.cuh"
__device__ unsigned long long tc_ts[1024 * 8];
__device__ __forceinline__ unsigned long long tc_gtime()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
    return t;
}
#define TS(k) do { if (threadIdx.x == 0) tc_ts[(blockIdx.y * gridDim.z + blockIdx.z) * 8 + (k)] = tc_gtime(); } while (0)''', 1)
open(sys.argv[2], "w").write(src)
