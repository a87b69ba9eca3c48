// dw_replay.cpp: a replay of the dw kind's kernels on the CPU, without a
// GPU: the family's template file itself (dw.conv1dc.cu.in for conv1dc_dw
// and its bf16/f16 branch conv1dc_dwh, REPLAY_2D 0; dw.conv2dc.cu.in for
// conv2dc_dw, fp32, REPLAY_2D 1) is compiled by a host C++20 compiler, CUDA
// emulated by ../replay_shim.h, and the result is compared with an fp64
// reference of the depthwise layer in relative L2: 1e-5 for fp32, 1e-2 for
// bf16 and f16 (their outputs are rounded once). Outputs start as NaN, so
// an element never written fails. The layer (CONV_* as the family defines
// them) and the tuning macros are -D flags (dw_replay.sh runs a battery of
// odd layers); the grid is the one dw_conv.c launches, from the template's
// own macros.
#if REPLAY_2D
#define REPLAY_DYNAMIC_SMEM 65536
#endif
#include "replay_shim.h"
#if REPLAY_2D
#include "dw.conv2dc.cu.in"
#define RP_H CONV_H
#define RP_W CONV_W
#define RP_OH CONV_OH
#define RP_OW CONV_OW
#define RP_KH CONV_KH
#define RP_KW CONV_KW
#define RP_PH CONV_PH
#define RP_PW CONV_PW
#define RP_SY CONV_SH
#define RP_SX CONV_SW
#define RP_DY CONV_DH
#define RP_DX CONV_DW
#define RP_KERNEL conv2dc_dw
typedef float rp_elem;
static float rp_ld(const float *p) { return *p; }
static void rp_st(float *p, float v) { *p = v; }
#else
#include "dw.conv1dc.cu.in"
#define RP_H 1
#define RP_W CONV_L
#define RP_OH 1
#define RP_OW CONV_LOUT
#define RP_KH 1
#define RP_KW CONV_K
#define RP_PH 0
#define RP_PW CONV_PAD
#define RP_SY 1
#define RP_SX CONV_STRIDE
#define RP_DY 1
#define RP_DX CONV_DIL
#if CT_DTYPE
#define RP_KERNEL conv1dc_dwh
typedef ct_elem rp_elem;
static float rp_ld(const ct_elem *p) { return ct_ld(p); }
static void rp_st(ct_elem *p, float v) { ct_st(p, v); }
#else
#define RP_KERNEL conv1dc_dw
typedef float rp_elem;
static float rp_ld(const float *p) { return *p; }
static void rp_st(float *p, float v) { *p = v; }
#endif
#endif

// Random values in [-0.5, 0.5] in the element type, and the values read back
// (what the kernel sees).
static void rp_fill(std::vector<float> &v, std::vector<rp_elem> &e, long long n)
{
    v.resize(n), e.resize(n);
    for (long long k = 0; k < n; ++k) {
        rp_st(&e[k], (float)rand() / RAND_MAX - 0.5f);
        v[k] = rp_ld(&e[k]);
    }
}

int main()
{
    srand(17);
    const long long planes = (long long)CONV_B * CONV_CIN;
    const long long nx = planes * RP_H * RP_W, ny = planes * RP_OH * RP_OW, nw = (long long)CONV_CIN * RP_KH * RP_KW;
    std::vector<float> x, w, bias;
    std::vector<rp_elem> xe, we, be;
    rp_fill(x, xe, nx), rp_fill(w, we, nw), rp_fill(bias, be, CONV_CIN);
    std::vector<double> ref(ny, 0.0);
    for (long long pl = 0; pl < planes; ++pl) {
        const int c = (int)(pl % CONV_CIN);
        for (int y = 0; y < RP_OH; ++y)
            for (int xo = 0; xo < RP_OW; ++xo) {
                double s = CONV_BIAS ? (double)bias[c] : 0.0;
                for (int i = 0; i < RP_KH; ++i)
                    for (int j = 0; j < RP_KW; ++j) {
                        const int yy = y * RP_SY + i * RP_DY - RP_PH, xx = xo * RP_SX + j * RP_DX - RP_PW;
                        if (yy >= 0 && yy < RP_H && xx >= 0 && xx < RP_W)
                            s += (double)x[(pl * RP_H + yy) * RP_W + xx] * (double)w[(c * RP_KH + i) * RP_KW + j];
                    }
                ref[(pl * RP_OH + y) * RP_OW + xo] = s;
            }
    }
    std::vector<rp_elem> oute(ny);
    for (auto &o : oute)
        rp_st(&o, NAN);
#if REPLAY_2D
    static_assert(S_IN + S_W <= REPLAY_DYNAMIC_SMEM, "the replay's shared memory is too small");
    const unsigned blocks = (unsigned)(planes * NTY * NTX), threads = NT;
#else
    const unsigned blocks = (unsigned)(((ROWS + CHANNELS_PER_BLOCK - 1) / CHANNELS_PER_BLOCK) * NTILES);
    const unsigned threads = BLOCK_SIZE;
#endif
    ct_replay_grid(blocks, 1, 1, threads, 1, 1, [&] {
#if CONV_BIAS
        RP_KERNEL(xe.data(), we.data(), be.data(), oute.data());
#else
        RP_KERNEL(xe.data(), we.data(), oute.data());
#endif
    });
    std::vector<float> out(ny);
    for (long long k = 0; k < ny; ++k)
        out[k] = rp_ld(&oute[k]);
    return ct_replay_check(out, ref, CT_DTYPE ? 1e-2 : 1e-5);
}
