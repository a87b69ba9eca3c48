// dwclf_replay.cpp: a replay of ct_dwcl_fwd.cuh on the CPU, without a GPU:
// the header itself is compiled by a host C++20 compiler with CUDA's
// qualifiers defined away, every thread of a block is a std::thread (shared
// memory a static array, __syncthreads a std::barrier), blocks run one after
// another, and the result is compared with an fp64 reference of the layer
// in relative L2: 1e-5 for fp32, 1e-2 for bf16 and f16 (their outputs are
// rounded once). Outputs start as NaN, so an element never written fails.
// The layer and the tuning macros are -D flags (dwclf_replay.sh runs a
// battery of odd layers); bf16 and f16 need CUDA's headers (cuda_bf16.h,
// cuda_fp16.h have host conversions).
#include <barrier>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
#if CT_DTYPE
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
struct dim3h { unsigned x = 0, y = 0, z = 0; };
thread_local dim3h threadIdx_, blockIdx_;
#define threadIdx threadIdx_
#define blockIdx blockIdx_
#else
struct dim3 { unsigned x = 0, y = 0, z = 0; };
thread_local dim3 threadIdx, blockIdx;
struct float4 { float x, y, z, w; };
struct float2 { float x, y; };
struct uint4 { unsigned x, y, z, w; };
struct uint2 { unsigned x, y; };
static inline float4 make_float4(float a, float b, float c, float d) { return {a, b, c, d}; }
static inline float2 make_float2(float a, float b) { return {a, b}; }
#endif
template <class T> static inline T __ldg(const T *p) { return *p; }
static std::barrier<> *g_bar;
#define __syncthreads() g_bar->arrive_and_wait()
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(x)
#define __align__(n) __attribute__((aligned(n)))
#define __shared__ static
#define DF_NAME kmain
#define LY_CIN LY_C
#define LY_COUT LY_C
#define LY_GROUPS LY_C
#define LY_CL 1
#include "ct_dwcl_fwd.cuh"

static void run_block(unsigned bx, unsigned tx, unsigned ty, void (*fn)(void *), void *arg)
{
    std::barrier<> bar((long)(tx * ty));
    g_bar = &bar;
    std::vector<std::thread> th;
    for (unsigned y = 0; y < ty; ++y)
        for (unsigned x = 0; x < tx; ++x)
            th.emplace_back([=] { blockIdx.x = bx; threadIdx.x = x; threadIdx.y = y; fn(arg); });
    for (auto &t : th) t.join();
}
static ct_elem toe(float v) { ct_elem e; ct_st(&e, v); return e; }
struct bufs { const ct_elem *x, *w, *b; ct_elem *y; };
#if LY_BIAS
static void body(void *p) { bufs *q = (bufs *)p; kmain(q->x, q->w, q->b, q->y); }
#else
static void body(void *p) { bufs *q = (bufs *)p; kmain(q->x, q->w, q->y); }
#endif
#define XI(b, c, y, x) ((((long long)(b) * LY_H + (y)) * LY_W + (x)) * LY_C + (c))
#define YI(b, c, y, x) ((((long long)(b) * LY_OH + (y)) * LY_OW + (x)) * LY_C + (c))
int main()
{
    srand(11);
    const long long nx = (long long)LY_B * LY_H * LY_W * LY_C, ny = (long long)LY_B * LY_OH * LY_OW * LY_C;
    const long long nw = (long long)LY_C * LY_KH * LY_KW;
    std::vector<float> x(nx), w(nw), bias(LY_C);
    for (auto &v : x) v = (float)rand() / RAND_MAX - 0.5f;
    for (auto &v : w) v = (float)rand() / RAND_MAX - 0.5f;
    for (auto &v : bias) v = (float)rand() / RAND_MAX - 0.5f;
    std::vector<ct_elem> xe(nx), we(nw), be(LY_C);
    for (long long k = 0; k < nx; ++k) { xe[k] = toe(x[k]); x[k] = ct_ld(&xe[k]); }
    for (long long k = 0; k < nw; ++k) { we[k] = toe(w[k]); w[k] = ct_ld(&we[k]); }
    for (long long k = 0; k < LY_C; ++k) { be[k] = toe(bias[k]); bias[k] = ct_ld(&be[k]); }
    std::vector<double> ref(ny, 0.0);
    for (int b = 0; b < LY_B; ++b) for (int c = 0; c < LY_C; ++c) for (int y = 0; y < LY_OH; ++y) for (int xo = 0; xo < LY_OW; ++xo) {
        double s = LY_BIAS ? (double)bias[c] : 0.0;
        for (int i = 0; i < LY_KH; ++i) for (int j = 0; j < LY_KW; ++j) {
            const int yy = y * LY_SY + i * LY_DY - LY_PH, xx = xo * LY_SX + j * LY_DX - LY_PW;
            if (yy < 0 || yy >= LY_H || xx < 0 || xx >= LY_W) continue;
            s += (double)x[XI(b, c, yy, xx)] * (double)w[(c * LY_KH + i) * LY_KW + j];
        }
        ref[YI(b, c, y, xo)] = s;
    }
    std::vector<ct_elem> oute(ny, toe(NAN));
    bufs q{xe.data(), we.data(), be.data(), oute.data()};
    const long long nb = DF_NCB * ((DF_NGRP + ITEMS - 1) / ITEMS);
    for (long long bx = 0; bx < nb; ++bx) run_block((unsigned)bx, CHANNEL_THREADS, POS_THREADS, body, &q);
    double e2 = 0, r2 = 0; long long bad = 0;
    for (long long k = 0; k < ny; ++k) {
        const float o = ct_ld(&oute[k]);
        if (std::isnan(o)) { ++bad; continue; }
        e2 += (o - ref[k]) * (o - ref[k]); r2 += ref[k] * ref[k];
    }
    const double rel = std::sqrt(e2 / (r2 > 0 ? r2 : 1));
    const double tol = CT_DTYPE ? 1e-2 : 1e-5;
    printf("%s rel %.3g unwritten %lld\n", (rel <= tol && bad == 0) ? "OK  " : "FAIL", rel, bad);
    return rel <= tol && bad == 0 ? 0 : 1;
}
