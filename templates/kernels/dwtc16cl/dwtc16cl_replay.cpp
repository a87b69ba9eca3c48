// dwtc16cl_replay.cpp: a replay of ct_dwtc16_fwd.cuh on the CPU, without a
// GPU: the header itself is compiled by a host C++20 compiler (CT_REPLAY),
// CUDA emulated by ../replay_shim.h (a std::thread per thread of a block,
// the dynamic shared memory one array), and ldmatrix.x4 and mma.sync
// m16n8k16 emulated here from the PTX ISA's fragment layouts: every thread
// of the block leaves its address (ldmatrix) or its fragments (mma) in a
// slot, and after a barrier of its warp each thread takes its part from
// its warp's slots (the kernel's ldmatrix and mma calls are uniform over
// a warp; PIPE's producer warps make none). PIPE's named barriers are
// std::barriers of the block's threads (9: of the consumer warps):
// bar.sync arrives and waits, bar.arrive arrives.
// The output is compared with an fp64 reference in relative L2: 1e-2
// (each output is rounded once to bf16 or f16). The output starts as NaN
// and each block's shared memory too, so an element never written, or a
// staged word never stored and then read, fails. The layer and the tuning
// macros are -D flags (dwtc16cl_replay.sh runs a battery of odd layers).
#include "replay_shim.h"
#include <cassert>
#include <cstdint>
#define CT_REPLAY 1
#include "ct_dtype.cuh"

#define RP_SMEM_WORDS (1 << 20)
alignas(16) static float smem[RP_SMEM_WORDS];
typedef unsigned short tc16_bits;

static unsigned rp_a[1024][4], rp_b[1024][2];
static const tc16_bits *rp_p[1024];

static unsigned rp_tid() { return threadIdx.x + g_block_x * (threadIdx.y + g_block_y * threadIdx.z); }

// A barrier of each warp (32 threads: the kernel's blocks are whole
// warps) and the named barriers 1..8; each phase of them completes, so
// that the next block finds them at a phase's start.
static std::optional<std::barrier<>> rp_wbar[32], rp_nbar[10];
static void rp_warp_sync() { rp_wbar[rp_tid() / 32]->arrive_and_wait(); }
static void td_rp_bar_sync(int id) { rp_nbar[id]->arrive_and_wait(); }
static void td_rp_bar_arrive(int id) { (void)rp_nbar[id]->arrive(); }

// __shfl_sync of a whole warp: v of lane src.
static unsigned td_rp_shfl(unsigned v, int src)
{
    static unsigned slot[1024];
    const unsigned tid = rp_tid();
    slot[tid] = v;
    rp_warp_sync();
    const unsigned r = slot[(tid & ~31u) + ((unsigned)src & 31u)];
    rp_warp_sync();
    return r;
}

// The float of the 16-bit element in half h (0 low, 1 high) of word w.
static float rp_half(unsigned w, int h)
{
    const unsigned short bits = (unsigned short)(h ? w >> 16 : w & 0xffffu);
    ct_elem e;
    memcpy(&e, &bits, sizeof bits);
    return ct_ld(&e);
}

// ldmatrix.x4: lane l gives the address of row l % 8 of matrix l / 8 (16
// bytes, 16-byte aligned); lane 4g + t receives the word t (elements 2t,
// 2t + 1) of row g of each matrix.
static void tc16_ldsm4(unsigned *r, const tc16_bits *p)
{
    const unsigned tid = rp_tid();
    assert((reinterpret_cast<uintptr_t>(p) & 15) == 0);
    rp_p[tid] = p;
    rp_warp_sync();
    const unsigned base = tid & ~31u, lane = tid & 31u, g = lane / 4, t = lane % 4;
    for (int i = 0; i < 4; ++i)
        memcpy(&r[i], rp_p[base + 8 * i + g] + 2 * t, 4);
    rp_warp_sync();
}

// ldmatrix.x2: lanes 0..15 give the rows of two matrices; lane 4g + t
// receives the word t of row g of each.
static void tc16_ldsm2(unsigned *r, const tc16_bits *p)
{
    const unsigned tid = rp_tid();
    assert((reinterpret_cast<uintptr_t>(p) & 15) == 0);
    rp_p[tid] = p;
    rp_warp_sync();
    const unsigned base = tid & ~31u, lane = tid & 31u, g = lane / 4, t = lane % 4;
    for (int i = 0; i < 2; ++i)
        memcpy(&r[i], rp_p[base + 8 * i + g] + 2 * t, 4);
    rp_warp_sync();
}

// d += A x B of the thread's warp (tc16_mma of ct_mma16.cuh): A 16 x 16
// (row g, g + 8 at K 2t..2t+1 in a[0], a[1]; K 2t+8..2t+9 in a[2], a[3]),
// B 16 x 8 (K 2t..2t+1 and 2t+8..2t+9 of column g in b[0], b[1]), D rows
// g, g + 8 at columns 2t, 2t + 1.
static void tc16_mma(float *d, const unsigned *a, const unsigned *b)
{
    const unsigned tid = rp_tid();
    for (int k = 0; k < 4; ++k)
        rp_a[tid][k] = a[k];
    rp_b[tid][0] = b[0], rp_b[tid][1] = b[1];
    rp_warp_sync();
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
    rp_warp_sync();
    for (int e = 0; e < 4; ++e)
        d[e] += out[e];
}

#define TD_NAME kmain
#define LY_CIN LY_C
#define LY_COUT LY_C
#define LY_GROUPS LY_C
#define LY_CL 1
#define LY_PASS 0
#define LY_SX 1
#include "ct_dwtc16_fwd.cuh"
static_assert(TD_SMEM_WORDS <= RP_SMEM_WORDS, "the replay's shared memory");

static ct_elem toe(float v) { ct_elem e; ct_st(&e, v); return e; }
#define XI(b, c, y, x) ((((long long)(b) * LY_H + (y)) * LY_W + (x)) * LY_C + (c))
#define YI(b, c, y, x) ((((long long)(b) * LY_OH + (y)) * LY_OW + (x)) * LY_C + (c))
int main()
{
    srand(11);
    const long long nx = (long long)LY_B * LY_H * LY_W * LY_C, ny = (long long)LY_B * LY_OH * LY_OW * LY_C;
    const long long nw = (long long)LY_C * LY_KH * LY_KW;
    std::vector<float> x(nx), w(nw), bias(LY_C);
    std::vector<ct_elem> xe(nx), we(nw), be(LY_C);
    for (long long k = 0; k < nx; ++k) { xe[k] = toe((float)rand() / RAND_MAX - 0.5f); x[k] = ct_ld(&xe[k]); }
    for (long long k = 0; k < nw; ++k) { we[k] = toe((float)rand() / RAND_MAX - 0.5f); w[k] = ct_ld(&we[k]); }
    for (long long k = 0; k < LY_C; ++k) { be[k] = toe((float)rand() / RAND_MAX - 0.5f); bias[k] = ct_ld(&be[k]); }
    std::vector<double> ref(ny, 0.0);
    for (int b = 0; b < LY_B; ++b) for (int c = 0; c < LY_C; ++c) for (int y = 0; y < LY_OH; ++y) for (int xo = 0; xo < LY_OW; ++xo) {
        double s = LY_BIAS ? (double)bias[c] : 0.0;
        for (int i = 0; i < LY_KH; ++i) for (int j = 0; j < LY_KW; ++j) {
            const int yy = y * LY_SY + i * LY_DY - LY_PH, xx = xo + j * LY_DX - LY_PW;
            if (yy < 0 || yy >= LY_H || xx < 0 || xx >= LY_W) continue;
            s += (double)x[XI(b, c, yy, xx)] * (double)w[(c * LY_KH + i) * LY_KW + j];
        }
        ref[YI(b, c, y, xo)] = s;
    }
    std::vector<ct_elem> oute(ny, toe(NAN));
    for (auto &w : rp_wbar)
        w.emplace(32);
    for (auto &n : rp_nbar)
        n.emplace(TD_NTHR);
    rp_nbar[9].emplace(32 * WARPS);   // PIPE=2's consumers
    ct_replay_grid((unsigned)(TD_NSPLIT * TD_NCG), 1, 1, TD_NTHR, 1, 1, [&] {
        if (threadIdx.x == 0)
            for (int k = 0; k < TD_SMEM_WORDS; ++k)
                smem[k] = NAN;
        __syncthreads();
#if LY_BIAS
        kmain(xe.data(), we.data(), be.data(), oute.data());
#else
        kmain(xe.data(), we.data(), oute.data());
#endif
    });
    std::vector<float> out(ny);
    for (long long k = 0; k < ny; ++k) out[k] = ct_ld(&oute[k]);
#ifdef RP_DEBUG
    for (long long k = 0; k < ny; ++k) printf("%lld: %g %g\n", k, out[k], ref[k]);
#endif
    return ct_replay_check(out, ref, 1e-2);
}
