// dw16bwd_replay.cpp: a replay of ct_dw16_wgrad.cuh on the CPU, without a
// GPU: the header itself is compiled by a host C++20 compiler (CT_REPLAY),
// CUDA emulated by ../replay_shim.h (a std::thread per thread of a block,
// the dynamic shared memory one array), and mma.sync m16n8k16 emulated
// here from the PTX ISA's fragment layouts: every thread of the block
// leaves its fragments in a slot, and after a barrier each thread adds
// its four outputs from its warp's slots (the kernel's mma calls are
// uniform over the block). The weight and bias gradients (then the
// reduce kernel's fp64 sums of the splits) are compared with an fp64
// reference in relative L2: 1e-2 (each output is rounded once to bf16 or
// f16). Outputs and the workspace start as NaN, so an element never
// written fails. The layer and the tuning macros are -D flags
// (dw16bwd_replay.sh runs a battery of odd layers).
#include "replay_shim.h"
#include <cassert>
#include <cstdint>
#define CT_REPLAY 1
#include "ct_dtype.cuh"

// The dynamic shared memory, shared by a block's threads (the reduce
// kernel's static arrays are static, so shared too: REPLAY_DYNAMIC_SMEM
// would make them per thread).
#define RP_SMEM_WORDS (1 << 20)
alignas(16) static float smem[RP_SMEM_WORDS];

static unsigned rp_a[1024][4], rp_b[1024][2];

// The float of the 16-bit element in half h (0 low, 1 high) of word w.
static float rp_half(unsigned w, int h)
{
    const unsigned short bits = (unsigned short)(h ? w >> 16 : w & 0xffffu);
    ct_elem e;
    memcpy(&e, &bits, sizeof bits);
    return ct_ld(&e);
}

// d += A x B of the thread's warp: A 16 x 16 (row g, g + 8 at K 2t..2t+1
// in a[0], a[1]; K 2t+8..2t+9 in a[2], a[3]), B 16 x 8 (K 2t..2t+1 and
// 2t+8..2t+9 of column g in b[0], b[1]), D rows g, g + 8 at columns 2t,
// 2t + 1 (lane 4g + t, lower K in the low half of a word).
static void tc16_mma(float *d, const unsigned *a, const unsigned *b)
{
    const unsigned tid = threadIdx.x + g_block_x * (threadIdx.y + g_block_y * threadIdx.z);
    for (int k = 0; k < 4; ++k)
        rp_a[tid][k] = a[k];
    rp_b[tid][0] = b[0], rp_b[tid][1] = b[1];
    g_bar->arrive_and_wait();
    const unsigned base = tid & ~31u, lane = tid & 31u, g = lane / 4, t = lane % 4;
    auto A = [&](int m, int k) {
        return rp_half(rp_a[base + 4 * (m % 8) + (k % 8) / 2][(m >= 8 ? 1 : 0) + (k >= 8 ? 2 : 0)], k % 2);
    };
    auto B = [&](int k, int n) { return rp_half(rp_b[base + 4 * n + (k % 8) / 2][k >= 8 ? 1 : 0], k % 2); };
    float out[4];
    for (int e = 0; e < 4; ++e) {
        const int m = (int)g + 8 * (e / 2), n = 2 * (int)t + e % 2;
        float s = 0.0f;
        for (int k = 0; k < 16; ++k)
            s += A(m, k) * B(k, n);
        out[e] = s;
    }
    g_bar->arrive_and_wait();
    for (int e = 0; e < 4; ++e)
        d[e] += out[e];
}

// ASYNC's copies (ct_mma16.cuh's cp.async) complete at once here; the
// kernel's barriers order them as on the GPU.
typedef unsigned short tc16_bits;
template <int V> static void tc16_cp(tc16_bits *d, const tc16_bits *s, bool ok)
{
    assert((reinterpret_cast<uintptr_t>(d) & (2 * V - 1)) == 0 && (reinterpret_cast<uintptr_t>(s) & (2 * V - 1)) == 0);
    for (int k = 0; k < V; ++k)
        d[k] = ok ? s[k] : (tc16_bits)0;
}
static void tc16_cp_commit() {}
template <int N> static void tc16_cp_wait() {}

// __shfl_down_sync(mask, v, d) of a whole block (every thread calls it,
// as every lane of a full warp does): v of the lane d further in the
// warp, or the thread's own v past the warp's end.
static unsigned rp_shfl_down(unsigned v, unsigned d)
{
    static unsigned slot[1024];
    const unsigned t = threadIdx.x + g_block_x * (threadIdx.y + g_block_y * threadIdx.z);
    slot[t] = v;
    g_bar->arrive_and_wait();
    const unsigned r = t % 32 + d < 32 ? slot[t + d] : v;
    g_bar->arrive_and_wait();
    return r;
}
#define __shfl_down_sync(mask, v, d) rp_shfl_down((v), (unsigned)(d))

#define WT_NAME kmain
#define WT_REDUCE_NAME kreduce
#define LY_CIN LY_C
#define LY_COUT LY_C
#define LY_GROUPS LY_C
#define LY_CL 1
#define LY_PASS 2
#define LY_SY 1
#define LY_SX 1
#include "ct_dw16_wgrad.cuh"
static_assert(WT_SMEM_WORDS <= RP_SMEM_WORDS, "the replay's shared memory");

static ct_elem toe(float v) { ct_elem e; ct_st(&e, v); return e; }
#define XI(b, c, y, x) ((((long long)(b) * LY_H + (y)) * LY_W + (x)) * LY_C + (c))
#define YI(b, c, y, x) ((((long long)(b) * LY_OH + (y)) * LY_OW + (x)) * LY_C + (c))
int main()
{
    srand(11);
    const long long nx = (long long)LY_B * LY_H * LY_W * LY_C, ny = (long long)LY_B * LY_OH * LY_OW * LY_C;
    const long long nw = (long long)LY_C * LY_KH * LY_KW;
    std::vector<float> x(nx), dy(ny);
    std::vector<ct_elem> xe(nx), dye(ny);
    for (long long k = 0; k < nx; ++k) { xe[k] = toe((float)rand() / RAND_MAX - 0.5f); x[k] = ct_ld(&xe[k]); }
    for (long long k = 0; k < ny; ++k) { dye[k] = toe((float)rand() / RAND_MAX - 0.5f); dy[k] = ct_ld(&dye[k]); }
    const long long nout = nw + (LY_BIAS ? LY_C : 0);
    std::vector<double> ref(nout, 0.0);
    for (int b = 0; b < LY_B; ++b) for (int c = 0; c < LY_C; ++c) for (int y = 0; y < LY_OH; ++y) for (int xo = 0; xo < LY_OW; ++xo) {
        const double g = dy[YI(b, c, y, xo)];
        if (LY_BIAS) ref[nw + c] += g;
        for (int i = 0; i < LY_KH; ++i) for (int j = 0; j < LY_KW; ++j) {
            const int yy = y + i * LY_DY - LY_PH, xx = xo + j * LY_DX - LY_PW;
            if (yy < 0 || yy >= LY_H || xx < 0 || xx >= LY_W) continue;
            ref[(c * LY_KH + i) * LY_KW + j] += g * x[XI(b, c, yy, xx)];
        }
    }
    for (float &v : smem)
        v = NAN;   // staging must write every word a fragment reads: NaN would reach a kept sum
    std::vector<ct_elem> oute(nout, toe(NAN));
    std::vector<float> ws(WT_NSPLIT * WT_COUNT, NAN);
    // Each block starts on NaN shared memory: a row that a block reads
    // without staging it (a ring's) would otherwise hold the last block's.
    ct_replay_grid(WT_NSPLIT, WT_NCG, 1, WT_NTHR, 1, 1, [&] {
        if (threadIdx.x == 0)
            for (int k = 0; k < WT_SMEM_WORDS; ++k)
                smem[k] = NAN;
        __syncthreads();
        kmain(xe.data(), dye.data(), ws.data());
    });
    ct_replay_grid((WT_COUNT + 31) / 32, 1, 1, 256, 1, 1, [&] { kreduce(ws.data(), oute.data()); });
    std::vector<float> out(nout);
    for (long long k = 0; k < nout; ++k) out[k] = ct_ld(&oute[k]);
#ifdef RP_DEBUG
    for (long long k = 0; k < nout; ++k) printf("%lld: %g %g\n", k, out[k], ref[k]);
#endif
    return ct_replay_check(out, ref, 1e-2);
}
