// replay_dw.h: what the CPU replays of the depthwise forward kernels
// (dw_replay.cpp, dwcl_replay.cpp, dwp_replay.cpp) share, included after the
// device code: rp_elem, the element type of the buffers (ct_elem for bf16
// and f16, float for fp32, where ct_dtype.cuh may not be included), random
// inputs rounded to it, and the fp64 reference of a depthwise layer whose
// planes are H x W (a conv1dc layer: H = 1) in any layout, given the
// element index of input and output (b, c, y, x).
#ifndef REPLAY_DW_H
#define REPLAY_DW_H
#if CT_DTYPE
typedef ct_elem rp_elem;
static float rp_ld(const ct_elem *p) { return ct_ld(p); }
static void rp_st(ct_elem *p, float v) { ct_st(p, v); }
#else
typedef float rp_elem;
static float rp_ld(const float *p) { return *p; }
static void rp_st(float *p, float v) { *p = v; }
#endif

// Random values in [-0.5, 0.5] in the element type, and the values read
// back (what the kernel sees).
static void rp_fill(std::vector<float> &v, std::vector<rp_elem> &e, long long n)
{
    v.resize(n), e.resize(n);
    for (long long k = 0; k < n; ++k) {
        rp_st(&e[k], (float)rand() / RAND_MAX - 0.5f);
        v[k] = rp_ld(&e[k]);
    }
}

// The element index of (b, c, y, x) in planes of h x w, c planes an item
// (NCHW, NCL: one row).
static auto rp_planes(int c, int h, int w)
{
    return [=](int b, int cc, int y, int x) { return (((long long)b * c + cc) * h + y) * w + x; };
}

// The layer of a replay: sizes, padding before, stride, dilation, bias.
struct rp_dw_layer {
    int b, c, h, w, oh, ow, kh, kw, ph, pw, sy, sx, dy, dx, bias;
};

// out(b, c, y, x) = bias[c] + sum over the taps of in * w[c][i][j], in fp64;
// xi and yi give the element index of input and output (b, c, y, x).
template <class XI, class YI>
static std::vector<double> rp_dw_reference(const rp_dw_layer &L, const std::vector<float> &x,
                                           const std::vector<float> &w, const std::vector<float> &bias, XI xi, YI yi)
{
    std::vector<double> ref((size_t)L.b * L.c * L.oh * L.ow, 0.0);
    for (int b = 0; b < L.b; ++b)
        for (int c = 0; c < L.c; ++c)
            for (int y = 0; y < L.oh; ++y)
                for (int xo = 0; xo < L.ow; ++xo) {
                    double s = L.bias ? (double)bias[c] : 0.0;
                    for (int i = 0; i < L.kh; ++i)
                        for (int j = 0; j < L.kw; ++j) {
                            const int yy = y * L.sy + i * L.dy - L.ph, xx = xo * L.sx + j * L.dx - L.pw;
                            if (yy >= 0 && yy < L.h && xx >= 0 && xx < L.w)
                                s += (double)x[xi(b, c, yy, xx)] * (double)w[(c * L.kh + i) * L.kw + j];
                        }
                    ref[yi(b, c, y, xo)] = s;
                }
    return ref;
}

// The kernel's output read back as float, checked against ref.
static int rp_check(const std::vector<rp_elem> &oute, const std::vector<double> &ref)
{
    std::vector<float> out(oute.size());
    for (size_t k = 0; k < oute.size(); ++k)
        out[k] = rp_ld(&oute[k]);
    return ct_replay_check(out, ref, CT_DTYPE ? 1e-2 : 1e-5);
}
#endif
