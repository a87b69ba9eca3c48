// wino_replay.cpp: a replay of ct_conv_wino.cuh on the CPU, without a GPU:
// the header itself is compiled by a host C++20 compiler, CUDA emulated by
// ../replay_shim.h (a std::thread per thread of a block, blocks one after
// another), launched on the grid wino_conv.c gives it (tile blocks x
// channel tiles x groups), and compared with an fp64 reference of the
// forward layer in relative L2: 1e-5 for fp32, 1e-2 for bf16 and f16 (their
// outputs are rounded once). Outputs start as NaN, so an element never
// written fails. The layer (LY_B ... LY_CL, as FAMILY_as2d.cuh names it)
// and the tuning macros are -D flags (wino_replay.sh runs a battery of odd
// layers); bf16 and f16 need CUDA's headers.
#include "replay_shim.h"
#define WN_NAME kmain
#define LY_CING (LY_CIN / LY_GROUPS)
#define LY_COUTG (LY_COUT / LY_GROUPS)
#if LY_CL
#define XI(b, c, y, x) ((((long long)(b) * LY_H + (y)) * LY_W + (x)) * LY_CIN + (c))
#define YI(b, c, y, x) ((((long long)(b) * LY_OH + (y)) * LY_OW + (x)) * LY_COUT + (c))
#else
#define XI(b, c, y, x) ((((long long)(b) * LY_CIN + (c)) * LY_H + (y)) * LY_W + (x))
#define YI(b, c, y, x) ((((long long)(b) * LY_COUT + (c)) * LY_OH + (y)) * LY_OW + (x))
#endif
#include "ct_conv_wino.cuh"

static ct_elem toe(float v) { ct_elem e; ct_st(&e, v); return e; }
static void rand_fill(std::vector<float> &v, std::vector<ct_elem> &e, long long n)
{
    v.resize(n), e.resize(n);
    for (long long k = 0; k < n; ++k) {
        e[k] = toe((float)rand() / RAND_MAX - 0.5f);
        v[k] = ct_ld(&e[k]);
    }
}
int main()
{
    srand(17);
    const long long nx = (long long)LY_B * LY_CIN * LY_H * LY_W, ny = (long long)LY_B * LY_COUT * LY_OH * LY_OW;
    const long long nw = (long long)LY_COUT * LY_CING * LY_KH * LY_KW;
    std::vector<float> x, w, bias;
    std::vector<ct_elem> xe, we, be;
    rand_fill(x, xe, nx), rand_fill(w, we, nw), rand_fill(bias, be, LY_COUT);
    std::vector<double> ref(ny, 0.0);
    for (int b = 0; b < LY_B; ++b) for (int co = 0; co < LY_COUT; ++co) for (int y = 0; y < LY_OH; ++y) for (int xo = 0; xo < LY_OW; ++xo) {
        double s = LY_BIAS ? (double)bias[co] : 0.0;
        const int c0 = co / LY_COUTG * LY_CING;
        for (int cl = 0; cl < LY_CING; ++cl) for (int i = 0; i < LY_KH; ++i) for (int j = 0; j < LY_KW; ++j) {
            const int yy = y * LY_SY + i * LY_DY - LY_PH, xx = xo * LY_SX + j * LY_DX - LY_PW;
            if (yy < 0 || yy >= LY_H || xx < 0 || xx >= LY_W) continue;
            s += (double)x[XI(b, c0 + cl, yy, xx)] * (double)w[((long long)(co * LY_CING + cl) * LY_KH + i) * LY_KW + j];
        }
        ref[YI(b, co, y, xo)] = s;
    }
    std::vector<ct_elem> oute(ny, toe(NAN));
    ct_replay_grid(WN_NTILES, WN_MTILES, LY_GROUPS, WN_NT, 1, 1, [&] {
#if LY_BIAS
        kmain(xe.data(), we.data(), be.data(), oute.data());
#else
        kmain(xe.data(), we.data(), oute.data());
#endif
    });
    std::vector<float> out(ny);
    for (long long k = 0; k < ny; ++k) out[k] = ct_ld(&oute[k]);
    return ct_replay_check(out, ref, CT_DTYPE ? 1e-2 : 1e-5);
}
