// dwclf_replay.cpp: a replay of ct_dwcl_fwd.cuh on the CPU, without a GPU:
// the header itself is compiled by a host C++20 compiler, CUDA emulated by
// ../replay_shim.h (a std::thread per thread of a block, blocks one after
// another), and the result is compared with an fp64 reference of the layer
// in relative L2: 1e-5 for fp32, 1e-2 for bf16 and f16 (their outputs are
// rounded once). Outputs start as NaN, so an element never written fails.
// The layer and the tuning macros are -D flags (dwclf_replay.sh runs a
// battery of odd layers); bf16 and f16 need CUDA's headers (cuda_bf16.h,
// cuda_fp16.h have host conversions).
#include "replay_shim.h"
#define DF_NAME kmain
#define LY_CIN LY_C
#define LY_COUT LY_C
#define LY_GROUPS LY_C
#define LY_CL 1
#include "ct_dwcl_fwd.cuh"

static ct_elem toe(float v) { ct_elem e; ct_st(&e, v); return e; }
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
    const long long nb = DF_NCB * ((DF_NGRP + ITEMS - 1) / ITEMS);
    ct_replay_grid((unsigned)nb, 1, 1, CHANNEL_THREADS, POS_THREADS, 1, [&] {
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
