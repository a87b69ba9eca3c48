// replay_pass.h: the frame of a CPU replay of any pass of any dense,
// grouped or depthwise layer (K_replay.cpp of templates/kernels/gemmbwd,
// passnaive, ffma, wino): the layer's LY_* names that FAMILY_as2d.cuh would
// give (the layer itself, LY_B ... LY_PASS, are -D flags; LY_CL picks NHWC
// or NCHW), the device header REPLAY_KERNEL compiled through
// replay_shim.h, and struct replay_pass: random inputs rounded to the
// element type, an fp64 reference of the pass (forward y with its bias
// where LY_BIAS; conv_pass.h's formulas: dgrad dx, wgrad dW then db with
// LY_BIAS), an output NaN-filled so that an element never written fails,
// and the check: relative L2 within 1e-5 for fp32, 1e-2 for bf16 and f16
// (their outputs are rounded once).
#ifndef REPLAY_PASS_H
#define REPLAY_PASS_H
#include "replay_shim.h"
#define LY_CING (LY_CIN / LY_GROUPS)
#define LY_COUTG (LY_COUT / LY_GROUPS)
#if LY_CL
#define LY_X_AT(b, c, y, x) ((((long long)(b) * LY_H + (y)) * LY_W + (x)) * LY_CIN + (c))
#define LY_Y_AT(b, c, y, x) ((((long long)(b) * LY_OH + (y)) * LY_OW + (x)) * LY_COUT + (c))
#else
#define LY_X_AT(b, c, y, x) ((((long long)(b) * LY_CIN + (c)) * LY_H + (y)) * LY_W + (x))
#define LY_Y_AT(b, c, y, x) ((((long long)(b) * LY_COUT + (c)) * LY_OH + (y)) * LY_OW + (x))
#endif
#include REPLAY_KERNEL

struct replay_pass {
    static constexpr long long nx = (long long)LY_B * LY_CIN * LY_H * LY_W;
    static constexpr long long ny = (long long)LY_B * LY_COUT * LY_OH * LY_OW;
    static constexpr long long nw = (long long)LY_COUT * LY_CING * LY_KH * LY_KW;
    static constexpr long long nout = LY_PASS == 0 ? ny : LY_PASS == 1 ? nx : nw + (LY_BIAS ? LY_COUT : 0);
    std::vector<float> x, dy, w, bias;   // dy for the gradients, bias for the forward pass
    std::vector<ct_elem> xe, dye, we, be, oute;
    std::vector<double> ref;

    static ct_elem elem(float v)
    {
        ct_elem e;
        ct_st(&e, v);
        return e;
    }
    // Random values in [-0.5, 0.5], and their element-type copies: v keeps
    // the rounded value, so the reference sees what the kernel reads.
    static void fill(std::vector<float> &v, std::vector<ct_elem> &e, long long n)
    {
        v.resize(n), e.resize(n);
        for (long long k = 0; k < n; ++k) {
            e[k] = elem((float)rand() / RAND_MAX - 0.5f);
            v[k] = ct_ld(&e[k]);
        }
    }
    replay_pass() : oute(nout, elem(NAN)), ref(nout, 0.0)
    {
        srand(13);
#if LY_PASS == 0
        fill(x, xe, nx), fill(w, we, nw), fill(bias, be, LY_COUT);
#else
        fill(x, xe, nx), fill(dy, dye, ny), fill(w, we, nw);
#endif
        for (int b = 0; b < LY_B; ++b)
            for (int co = 0; co < LY_COUT; ++co)
                for (int y = 0; y < LY_OH; ++y)
                    for (int xo = 0; xo < LY_OW; ++xo) {
                        const double g = LY_PASS == 0 ? 0.0 : dy[LY_Y_AT(b, co, y, xo)];
                        if (LY_PASS == 0 && LY_BIAS)
                            ref[LY_Y_AT(b, co, y, xo)] = bias[co];
                        if (LY_PASS == 2 && LY_BIAS)
                            ref[nw + co] += g;
                        const int c0 = co / LY_COUTG * LY_CING;
                        for (int cl = 0; cl < LY_CING; ++cl)
                            for (int i = 0; i < LY_KH; ++i)
                                for (int j = 0; j < LY_KW; ++j) {
                                    const int yy = y * LY_SY + i * LY_DY - LY_PH, xx = xo * LY_SX + j * LY_DX - LY_PW;
                                    if (yy < 0 || yy >= LY_H || xx < 0 || xx >= LY_W)
                                        continue;
                                    const long long wi = ((long long)(co * LY_CING + cl) * LY_KH + i) * LY_KW + j;
                                    if (LY_PASS == 0)
                                        ref[LY_Y_AT(b, co, y, xo)] += (double)x[LY_X_AT(b, c0 + cl, yy, xx)] * w[wi];
                                    else if (LY_PASS == 1)
                                        ref[LY_X_AT(b, c0 + cl, yy, xx)] += g * w[wi];
                                    else
                                        ref[wi] += g * x[LY_X_AT(b, c0 + cl, yy, xx)];
                                }
                    }
    }
    int check() const
    {
        std::vector<float> out(nout);
        for (long long k = 0; k < nout; ++k)
            out[k] = ct_ld(&oute[k]);
        return ct_replay_check(out, ref, CT_DTYPE ? 1e-2 : 1e-5);
    }
};
#endif
