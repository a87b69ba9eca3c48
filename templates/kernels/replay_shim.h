// replay_shim.h: the CUDA a kernel folder's CPU replay (K_replay.cpp, run
// by K_replay.sh through replay_lib.sh) needs to compile a device header
// as host C++20 and run it without a GPU: CUDA's qualifiers defined away,
// every thread of a block a std::thread (blockIdx, threadIdx thread-local;
// static shared memory a static array, __syncthreads a std::barrier, a warp
// shuffle an exchange through memory between two barriers; dynamic shared
// memory, REPLAY_DYNAMIC_SMEM, a global array), the blocks of
// a grid one after another. A thread that returns leaves the barrier
// (arrive_and_drop), as an exited GPU thread no longer holds a block's
// barriers back. bf16 and f16 need CUDA's headers (cuda_bf16.h and
// cuda_fp16.h have host conversions); fp32 needs none.
//
// Include it before the device header; ct_replay_grid runs a kernel.
#ifndef REPLAY_SHIM_H
#define REPLAY_SHIM_H
#include "replay_std.h"
#if CT_DTYPE
#include "replay_cuda.h"
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
static inline float __uint_as_float(unsigned u) { float f; memcpy(&f, &u, sizeof f); return f; }
static inline unsigned __float_as_uint(float f) { unsigned u; memcpy(&u, &f, sizeof u); return u; }
#endif
template <class T> static inline T __ldg(const T *p) { return *p; }
static std::barrier<> *g_bar;
static unsigned g_block_x, g_block_y;   // the block's extents, for a thread's linear index
#define __syncthreads() g_bar->arrive_and_wait()
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#undef __shared__
#ifdef REPLAY_DYNAMIC_SMEM
// A kernel whose shared memory is one dynamic array, extern __shared__
// float smem[] (ct_gemmbwd.cuh): that declaration names this array of
// REPLAY_DYNAMIC_SMEM floats, which the blocks use one after another.
#define __shared__
alignas(16) float smem[REPLAY_DYNAMIC_SMEM];
#else
#define __shared__ static
#endif

// __shfl_xor_sync(mask, v, m) of a whole block (every thread calls it, as
// every lane of a full warp does): v of the thread whose index differs by
// the bits of m (within its warp for m < 32).
template <class T> static T ct_replay_shfl_xor(T v, unsigned m)
{
    static T slot[1024];
    const unsigned t = threadIdx.x + g_block_x * (threadIdx.y + g_block_y * threadIdx.z);
    slot[t] = v;
    g_bar->arrive_and_wait();
    const T r = slot[t ^ m];
    g_bar->arrive_and_wait();
    return r;
}
#define __shfl_xor_sync(mask, v, m) ct_replay_shfl_xor((v), (unsigned)(m))

// Runs kernel() (a lambda calling the kernel with its arguments) on a grid
// of gx x gy x gz blocks of tx x ty x tz threads, block x fastest. The
// threads are made once and walk the blocks together: between two blocks
// they meet at a barrier of the whole set, whose completion step makes the
// next block's barrier (threads that returned early left the last one).
template <class F>
static void ct_replay_grid(unsigned gx, unsigned gy, unsigned gz, unsigned tx, unsigned ty, unsigned tz, F kernel)
{
    const long nt = (long)tx * ty * tz;
    std::optional<std::barrier<>> block_bar;
    auto next_block = [&]() noexcept { block_bar.emplace(nt), g_bar = &*block_bar; };
    std::barrier<decltype(next_block)> all(nt, next_block);
    g_block_x = tx, g_block_y = ty;
    std::vector<std::thread> th;
    for (unsigned z = 0; z < tz; ++z)
        for (unsigned y = 0; y < ty; ++y)
            for (unsigned x = 0; x < tx; ++x)
                th.emplace_back([=, &all, &block_bar] {
                    threadIdx.x = x, threadIdx.y = y, threadIdx.z = z;
                    for (unsigned bz = 0; bz < gz; ++bz)
                        for (unsigned by = 0; by < gy; ++by)
                            for (unsigned bx = 0; bx < gx; ++bx) {
                                all.arrive_and_wait();
                                blockIdx.x = bx, blockIdx.y = by, blockIdx.z = bz;
                                kernel();
                                block_bar->arrive_and_drop();
                            }
                });
    for (auto &t : th)
        t.join();
}

// Relative L2 error of out against the fp64 ref, and elements left NaN
// (never written): prints one line, returns 0 where rel <= tol and every
// element was written.
static int ct_replay_check(const std::vector<float> &out, const std::vector<double> &ref, double tol)
{
    double e2 = 0, r2 = 0;
    long long bad = 0;
    for (size_t k = 0; k < out.size(); ++k) {
        if (std::isnan(out[k])) {
            ++bad;
            continue;
        }
        e2 += (out[k] - ref[k]) * (out[k] - ref[k]);
        r2 += ref[k] * ref[k];
    }
    const double rel = std::sqrt(e2 / (r2 > 0 ? r2 : 1));
    const int ok = rel <= tol && bad == 0;
    printf("%s rel %.3g unwritten %lld\n", ok ? "OK  " : "FAIL", rel, bad);
    return ok ? 0 : 1;
}
#endif
