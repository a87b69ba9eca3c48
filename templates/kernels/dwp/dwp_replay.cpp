// dwp_replay.cpp: a replay of conv2dc_dwph, the bf16/f16 branch of
// conv2dc_dwp's template file (dwp.conv2dc.cu.in, the text the build embeds
// as conv2dc_dwp.cu), on the CPU, without a GPU: compiled by a host C++20
// compiler, CUDA emulated by ../replay_shim.h (__syncwarp as the block's
// barrier: a superset of the warp's), on the grid dwp_conv.c launches, the
// result compared with an fp64 reference of the depthwise layer in relative
// L2 within 1e-2 (outputs rounded once to bf16 or f16). Outputs start as
// NaN, so an element never written fails. The fp32 branch stages by
// cp.async (inline PTX), which a host compiler cannot run: it is checked by
// NVRTC compiles and on a GPU. The layer (CONV_* as the family defines
// them) and the tuning macros are -D flags (dwp_replay.sh).
#define REPLAY_DYNAMIC_SMEM 131072
#include "replay_shim.h"
#define __syncwarp() __syncthreads()
#if !CT_DTYPE
#error "the fp32 branch stages by cp.async: replay bf16 (CT_DTYPE=1) or f16 (2)"
#endif
#include "dwp.conv2dc.cu.in"

// Random values in [-0.5, 0.5] as elements, and the values read back.
static void rp_fill(std::vector<float> &v, std::vector<ct_elem> &e, long long n)
{
    v.resize(n), e.resize(n);
    for (long long k = 0; k < n; ++k) {
        ct_st(&e[k], (float)rand() / RAND_MAX - 0.5f);
        v[k] = ct_ld(&e[k]);
    }
}

int main()
{
    srand(23);
    const long long nx = (long long)NPLANES * CONV_H * CONV_W, ny = (long long)NPLANES * CONV_OH * CONV_OW;
    std::vector<float> x, w, bias;
    std::vector<ct_elem> xe, we, be;
    rp_fill(x, xe, nx), rp_fill(w, we, (long long)CONV_CIN * CONV_KH * CONV_KW), rp_fill(bias, be, CONV_CIN);
    std::vector<double> ref(ny, 0.0);
    for (long long pl = 0; pl < NPLANES; ++pl) {
        const int c = (int)(pl % CONV_CIN);
        for (int y = 0; y < CONV_OH; ++y)
            for (int xo = 0; xo < CONV_OW; ++xo) {
                double s = CONV_BIAS ? (double)bias[c] : 0.0;
                for (int i = 0; i < CONV_KH; ++i)
                    for (int j = 0; j < CONV_KW; ++j) {
                        const int yy = y * CONV_SH + i * CONV_DH - CONV_PH, xx = xo * CONV_SW + j * CONV_DW - CONV_PW;
                        if (yy >= 0 && yy < CONV_H && xx >= 0 && xx < CONV_W)
                            s += (double)x[(pl * CONV_H + yy) * CONV_W + xx] * (double)w[(c * CONV_KH + i) * CONV_KW + j];
                    }
                ref[(pl * CONV_OH + y) * CONV_OW + xo] = s;
            }
    }
    std::vector<ct_elem> oute(ny);
    for (auto &o : oute)
        ct_st(&o, NAN);
    static_assert(WARPS * STAGES * BUF <= REPLAY_DYNAMIC_SMEM, "the replay's shared memory is too small");
    const unsigned blocks = (unsigned)DW_CDIV(DW_CDIV(NPLANES, PLANES), WARPS);
    ct_replay_grid(blocks, 1, 1, 32 * WARPS, 1, 1, [&] {
#if CONV_BIAS
        conv2dc_dwph(xe.data(), we.data(), be.data(), oute.data());
#else
        conv2dc_dwph(xe.data(), we.data(), oute.data());
#endif
    });
    std::vector<float> out(ny);
    for (long long k = 0; k < ny; ++k)
        out[k] = ct_ld(&oute[k]);
    return ct_replay_check(out, ref, 1e-2);
}
