// Seed 002 in bf16 through conv1dc_tc16wb, one configuration (build.sh's -D
// flags): %globaltimer at the kernel's phases (stamp.py), per block, after
// back-to-back launches (the weights in L2, as in the benchmark).
#include "layer.h"
#define TC_NAME kt
#include "ct_conv_tc16wb_ts.cuh"
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_bf16.h>
int main()
{
    const int n = 1024 * 1024 * 5;
    __nv_bfloat16 *x, *w, *b, *o;
    cudaMalloc(&x, 8192 * 2); cudaMalloc(&w, n * 2); cudaMalloc(&b, 2048); cudaMalloc(&o, 8192 * 2);
    std::vector<__nv_bfloat16> h(n); for (int i = 0; i < n; i++) h[i] = __float2bfloat16((int)((long long)i * 7919 % 1000) / 1000.0f - 0.5f);
    cudaMemcpy(w, h.data(), n * 2, cudaMemcpyHostToDevice); cudaMemcpy(x, h.data(), 8192 * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(b, h.data(), 2048, cudaMemcpyHostToDevice);
    dim3 grid(1, TC_NCT, CLUSTER_K);
    int smem = 2 * (TC_ISM + TC_NTOT * TC_KP);
    cudaFuncSetAttribute(kt, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    const int nb = grid.y * grid.z;
    for (int rep = 0; rep < 3; rep++) {
        for (int i = 0; i < 30; i++) kt<<<grid, TC_NT, smem>>>(x, w, b, o);
        cudaDeviceSynchronize();
        std::vector<unsigned long long> ts(1024 * 8);
        cudaMemcpyFromSymbol(ts.data(), tc_ts, ts.size() * 8);
        unsigned long long t0 = ~0ull;
        for (int i = 0; i < nb; i++) t0 = std::min(t0, ts[i * 8]);
        printf("%s rep %d (%s):", NAMESTR, rep, cudaGetErrorString(cudaGetLastError()));
        const char *ph[] = {"start", "im2col done", "first piece landed", "mma steps done", "end"};
        for (int k = 0; k < 5; k++) {
            if (WSRC && k == 2)
                continue;
            std::vector<double> v; for (int i = 0; i < nb; i++) v.push_back((ts[i * 8 + k] - t0) / 1e3);
            std::sort(v.begin(), v.end());
            printf("  %s %.2f/%.2f/%.2f", ph[k], v[0], v[v.size() / 2], v.back());
        }
        printf(" us (min/median/max over %d blocks)\n", nb);
    }
    return 0;
}
