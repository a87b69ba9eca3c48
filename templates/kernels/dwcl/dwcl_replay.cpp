// dwcl_replay.cpp: a replay of conv1dc_dwcl (fp32) and its bf16/f16 branch
// conv1dc_dwclh on the CPU, without a GPU: the template file itself
// (dwcl.conv1dc.cu.in, the text the build embeds as conv1dc_dwcl.cu) is
// compiled by a host C++20 compiler, CUDA emulated by ../replay_shim.h, on
// the grid dwcl_conv.c launches, and the result is compared with an fp64
// reference of the depthwise NLC layer in relative L2: 1e-5 for fp32, 1e-2
// for bf16 and f16. Outputs start as NaN, so an element never written
// fails. The layer (CONV_* as the family defines them) and the tuning
// macros are -D flags (dwcl_replay.sh runs a battery of odd layers).
#include "replay_shim.h"
#include "dwcl.conv1dc.cu.in"
#if CT_DTYPE
#define RP_KERNEL conv1dc_dwclh
typedef ct_elem rp_elem;
static float rp_ld(const ct_elem *p) { return ct_ld(p); }
static void rp_st(ct_elem *p, float v) { ct_st(p, v); }
#else
#define RP_KERNEL conv1dc_dwcl
typedef float rp_elem;
static float rp_ld(const float *p) { return *p; }
static void rp_st(float *p, float v) { *p = v; }
#endif

// Random values in [-0.5, 0.5] in the element type, and the values read back.
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
    srand(19);
    const long long nx = (long long)CONV_B * CONV_L * CONV_CIN, ny = (long long)CONV_B * CONV_LOUT * CONV_CIN;
    std::vector<float> x, w, bias;
    std::vector<rp_elem> xe, we, be;
    rp_fill(x, xe, nx), rp_fill(w, we, (long long)CONV_CIN * CONV_K), rp_fill(bias, be, CONV_CIN);
    std::vector<double> ref(ny, 0.0);
    for (int b = 0; b < CONV_B; ++b)
        for (int t = 0; t < CONV_LOUT; ++t)
            for (int c = 0; c < CONV_CIN; ++c) {
                double s = CONV_BIAS ? (double)bias[c] : 0.0;
                for (int k = 0; k < CONV_K; ++k) {
                    const int xx = t * CONV_STRIDE + k * CONV_DIL - CONV_PAD;
                    if (xx >= 0 && xx < CONV_L)
                        s += (double)x[CONV_IN_AT(b, c, xx)] * (double)w[c * CONV_K + k];
                }
                ref[CONV_OUT_AT(b, c, t)] = s;
            }
    std::vector<rp_elem> oute(ny);
    for (auto &o : oute)
        rp_st(&o, NAN);
    ct_replay_grid((unsigned)(CONV_B * NPB * NCB), 1, 1, CHANNEL_THREADS, POS_THREADS, 1, [&] {
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
