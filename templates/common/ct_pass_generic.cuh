// ct_pass_generic.cuh: the run-time-size kernels of a layer's training
// passes (tuner/families/tc/conv_pass.h), the fallback of the pass
// selectors of `convtune export --family F --pass P` (templates/F/
// F_dggeneric.cu and F_wggeneric.cu define CT_PG_PASS and CT_PG_NAME, then
// include this). Not tuned and in no tuning space: the sizes are kernel
// arguments, so one compiled kernel serves every layer the export has no
// tuned instance for.
//
// The layer is named as a 2D layer by its forward sizes (a conv1dc layer is
// one of height 1: h = kh = oh = 1, ph = 0, sh = dh = 1): x is nb x cin x h
// x w and dy nb x cout x oh x ow, each in the layout (0: channels first,
// NCHW / NCL; 1: channels last, NHWC / NLC), the weights cout x cin/groups x
// kh x kw in both; ph, pw the zeros before the input (those after follow
// from oh, ow), sh, sw the strides, dh, dw the dilations. Every buffer is
// below 2^31 elements (the selector's accepts refuses others).
//
// One thread per output element (grid-stride), everything from global
// memory, as the passes' naive baselines (templates/kernels/passnaive):
//
// dgrad, CT_PG_NAME(dout, weight, din, ...): each input element gathers the
// outputs whose windows hold it, y = (yy + ph - i*dh) / sh where that
// divides (no zero insertion for a stride), summing cout/groups*kh*kw
// products in fp32, as the forward pass sums cin/groups*kh*kw.
//
// wgrad, CT_PG_NAME(in, dout, dweight, ..., bias, layout): each weight, and
// with bias each of the cout bias gradients after them, sums nb*oh*ow
// products: a row of ow products in fp32, the rows in fp64, so that the
// error of an fp32 sum grows with the row's length, not with the whole
// reduction's (16,384 to 100,352 terms on the layers this pass is for); the
// result is rounded once to the element type.
//
// Every element type through ct_dtype.cuh (CT_DTYPE): loads to float, one
// rounding at the store.
#include "ct_dtype.cuh"

// The element index of (b, c, y, x) in a batch of nc x ny x nx activations.
__device__ __forceinline__ long long ct_pg_at(int layout, int b, int c, int y, int x, int nc, int ny, int nx)
{
    return layout ? (((long long)b * ny + y) * nx + x) * nc + c : (((long long)b * nc + c) * ny + y) * nx + x;
}

#if CT_PG_PASS == 1
extern "C" __global__ void CT_PG_NAME(const ct_elem *__restrict__ dout, const ct_elem *__restrict__ weight,
                                      ct_elem *__restrict__ din, int nb, int cin, int h, int w, int cout, int kh,
                                      int kw, int oh, int ow, int ph, int pw, int sh, int sw, int dh, int dw,
                                      int groups, int layout)
{
    const long long n = (long long)nb * cin * h * w;
    const int cing = cin / groups, coutg = cout / groups;
    for (long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x; o < n;
         o += (long long)gridDim.x * blockDim.x) {
        // din[o]'s coordinates: consecutive threads, consecutive elements
        int c, xx, yy;
        if (layout) {
            c = (int)(o % cin);
            xx = (int)(o / cin % w);
            yy = (int)(o / ((long long)cin * w) % h);
        } else {
            xx = (int)(o % w);
            yy = (int)(o / w % h);
            c = (int)(o / ((long long)w * h) % cin);
        }
        const int b = (int)(o / ((long long)w * h * cin));
        const int g = c / cing, cl = c - g * cing;
        float acc = 0.0f;
        for (int co = g * coutg; co < (g + 1) * coutg; ++co) {
            const ct_elem *wr = weight + ((long long)co * cing + cl) * kh * kw;
            for (int i = 0; i < kh; ++i) {
                const int ny = yy + ph - i * dh;   // y * sh: the output row whose tap i reads row yy
                if (ny < 0 || ny % sh != 0 || ny / sh >= oh)
                    continue;
                for (int j = 0; j < kw; ++j) {
                    const int nx = xx + pw - j * dw;
                    if (nx < 0 || nx % sw != 0 || nx / sw >= ow)
                        continue;
                    acc += ct_ldg(&dout[ct_pg_at(layout, b, co, ny / sh, nx / sw, cout, oh, ow)]) *
                           ct_ldg(&wr[i * kw + j]);
                }
            }
        }
        ct_st(&din[o], acc);
    }
}
#elif CT_PG_PASS == 2
extern "C" __global__ void CT_PG_NAME(const ct_elem *__restrict__ in, const ct_elem *__restrict__ dout,
                                      ct_elem *__restrict__ dweight, int nb, int cin, int h, int w, int cout,
                                      int kh, int kw, int oh, int ow, int ph, int pw, int sh, int sw, int dh, int dw,
                                      int groups, int bias, int layout)
{
    const int cing = cin / groups, coutg = cout / groups;
    const long long nw = (long long)cout * cing * kh * kw;
    const long long n = nw + (bias ? cout : 0);
    for (long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x; o < n;
         o += (long long)gridDim.x * blockDim.x) {
        double total = 0.0;
        if (o >= nw) {   // the bias gradient: dout summed over everything but its channel
            const int co = (int)(o - nw);
            for (int b = 0; b < nb; ++b)
                for (int y = 0; y < oh; ++y) {
                    float row = 0.0f;
                    for (int x = 0; x < ow; ++x)
                        row += ct_ldg(&dout[ct_pg_at(layout, b, co, y, x, cout, oh, ow)]);
                    total += row;
                }
            ct_st(&dweight[o], (float)total);
            continue;
        }
        // dweight[o] is weight (co, cl, i, j), which reads input channel c
        const int j = (int)(o % kw), i = (int)(o / kw % kh);
        const int cl = (int)(o / ((long long)kw * kh) % cing);
        const int co = (int)(o / ((long long)kw * kh * cing));
        const int c = co / coutg * cing + cl;
        for (int b = 0; b < nb; ++b)
            for (int y = 0; y < oh; ++y) {
                const int yy = y * sh + i * dh - ph;
                if (yy < 0 || yy >= h)
                    continue;
                float row = 0.0f;
                for (int x = 0; x < ow; ++x) {
                    const int xx = x * sw + j * dw - pw;
                    if (xx >= 0 && xx < w)
                        row += ct_ldg(&dout[ct_pg_at(layout, b, co, y, x, cout, oh, ow)]) *
                               ct_ldg(&in[ct_pg_at(layout, b, c, yy, xx, cin, h, w)]);
                }
                total += row;
            }
        ct_st(&dweight[o], (float)total);
    }
}
#endif

#if !defined(__CUDACC_RTC__)
// Blocks of block threads covering n elements, one thread each (the kernels
// stride over the grid, so the cap only lengthens each thread's loop).
static inline unsigned ct_pg_blocks(long long n, unsigned block)
{
    const long long g = (n + block - 1) / block;
    return (unsigned)(g < 1 ? 1 : g < 2147483647LL ? g : 2147483647LL);
}
#endif
