// conv2dc_generic: the fallback kernel of a multi-size export (`convtune
// export --family conv2dc`). It is not tuned and not part of any tuning
// space: the sizes are kernel arguments instead of compile-time macros, so
// one compiled kernel serves every layer the export has no tuned instance for.
//
//   out[b][co][y][x] = bias[co] + sum_{c<cin/g, i<kh, j<kw} in[b][gi*cin/g + c][y*sh + i*dh - ph][x*sw + j*dw - pw]
//                      * w[co][c][i][j],   gi = co / (cout/g)
//   in = 0 outside the h x w image, bias NULL for none; valid: no padding;
//   same (stride 1): dh*(kh-1)/2 zeros before (dw*(kw-1)/2 on the left), h x w
//   outputs; pad: ph, pw zeros on both sides; layout 0 (nchw) as written, 1
//   (nhwc, channels last): in[b][y][x][c] and out[b][y][x][co], the weights as above
//
// A block is `rows` rows of `tt` threads: tt a multiple of 32 dividing the
// block, the smallest that covers an output image (or the whole block), so
// small images leave few threads idle. Row g computes CT_G2C_COT output
// channels at tt consecutive output pixels (row-major) of one batch item. The
// weights of the block's rows * CT_G2C_COT channels are staged in shared
// memory one chunk of taps (ci, i, j flattened) at a time and read as
// broadcasts; each input, read through the read-only cache, feeds CT_G2C_COT
// multiply-adds (with groups, a thread whose channels straddle two groups
// loads each channel's input on its own). Each chunk is summed on its own and then added, so fp32
// rounding grows with the chunk length and the number of chunks rather than
// with the whole reduction.
#include "ct_dtype.cuh"

#define CT_G2C_COT 4
#define CT_G2C_SMEM 8192   // floats of staged weights (32 KiB)

// Threads per row (tt) and rows per block for a block of `block` threads.
__host__ __device__ static inline void conv2dc_generic_rows(int block, long long npix, int *tt, int *rows)
{
    const int nw = block / 32;
    int m = (int)(((npix < block ? npix : block) + 31) / 32);
    while (nw % m)
        m++;
    *tt = 32 * m;
    *rows = nw / m;
}

extern "C" __global__ void conv2dc_generic(const ct_elem *__restrict__ in, const ct_elem *__restrict__ w,
                                           const ct_elem *__restrict__ bias, ct_elem *__restrict__ out, int nb, int cin,
                                           int h, int wd, int cout, int kh, int kw, int oh, int ow, int ph, int pw,
                                           int sh, int sw, int dh, int dw, int groups, int layout)
{
    // Element steps of an input channel and pixel, an output channel and pixel.
    const int ic = layout ? 1 : h * wd, ip = layout ? cin : 1, oc = layout ? 1 : oh * ow, op = layout ? cout : 1;
    __shared__ __align__(16) float ws[CT_G2C_SMEM];
    const long long npix = (long long)oh * ow;   // below 2^31: the output is
    int tt, rows;
    conv2dc_generic_rows((int)blockDim.x, npix, &tt, &rows);
    const int row = (int)threadIdx.x / tt, lane = (int)threadIdx.x % tt;
    const int chans = rows * CT_G2C_COT;   // output channels per block
    const int rc = CT_G2C_SMEM / chans;    // taps per chunk
    const int cing = cin / groups, coutg = cout / groups;
    const int area = kh * kw, taps = cing * area, hw = h * wd;
    const int ntile = (int)((npix + tt - 1) / tt);
    const int ngroup = (int)(((long long)cout + chans - 1) / chans);
    for (int b = blockIdx.z; b < nb; b += gridDim.z)
        for (int cg = blockIdx.y; cg < ngroup; cg += gridDim.y)
            for (int tile = blockIdx.x; tile < ntile; tile += gridDim.x) {
                const long long tl = (long long)tile * tt + lane;
                const bool active = tl < npix;
                const int t = active ? (int)tl : 0;
                const int y = t / ow, x = t - (t / ow) * ow;
                const int co0 = cg * chans + row * CT_G2C_COT;
                // Each channel's input planes, relative to those of co0's group.
                int goff[CT_G2C_COT];
                bool mixed = false;
#pragma unroll
                for (int c = 0; c < CT_G2C_COT; c++) {
                    const int co = min(co0 + c, cout - 1);
                    goff[c] = (co / coutg - min(co0, cout - 1) / coutg) * cing * ic;
                    mixed |= goff[c] != 0;
                }
                float acc[CT_G2C_COT];
#pragma unroll
                for (int c = 0; c < CT_G2C_COT; c++)
                    acc[c] = 0.0f;
                for (long long r0l = 0; r0l < taps; r0l += rc) {   // 64-bit: taps may be near 2^31
                    const int r0 = (int)r0l, len = min(rc, taps - r0);
                    __syncthreads();   // every thread is done with the previous chunk
                    for (int q = threadIdx.x; q < len * chans; q += blockDim.x) {
                        const int c = q / len, r = q - c * len;   // consecutive threads, consecutive taps
                        const int co = cg * chans + c;
                        ws[r * chans + c] = co < cout ? ct_ldg(w + (size_t)co * taps + r0 + r) : 0.0f;
                    }
                    __syncthreads();
                    if (!active)
                        continue;
                    float part[CT_G2C_COT];
#pragma unroll
                    for (int c = 0; c < CT_G2C_COT; c++)
                        part[c] = 0.0f;
                    const int ci = r0 / area, rem = r0 - ci * area;
                    int i = rem / kw, j = rem - (rem / kw) * kw;
                    const ct_elem *plane = in + (size_t)b * cin * hw + (size_t)(min(co0, cout - 1) / coutg * cing + ci) * ic;
                    const float *wr = ws + row * CT_G2C_COT;
                    for (int r = 0; r < len; r++, wr += chans) {
                        const int iy = y * sh + i * dh - ph, ix = x * sw + j * dw - pw;
                        const bool in_img = iy >= 0 && iy < h && ix >= 0 && ix < wd;
                        const int at = (iy * wd + ix) * ip;
                        const float v = in_img ? ct_ldg(plane + at) : 0.0f;
#pragma unroll
                        for (int c = 0; c < CT_G2C_COT; c++)
                            part[c] = fmaf(mixed && in_img ? ct_ldg(plane + goff[c] + at) : v, wr[c], part[c]);
                        if (++j == kw) {
                            j = 0;
                            if (++i == kh) {
                                i = 0;
                                plane += ic;
                            }
                        }
                    }
#pragma unroll
                    for (int c = 0; c < CT_G2C_COT; c++)
                        acc[c] += part[c];
                }
                if (!active)
                    continue;
#pragma unroll
                for (int c = 0; c < CT_G2C_COT; c++) {
                    const int co = co0 + c;
                    if (co < cout)
                        ct_st(&out[(size_t)b * cout * npix + (size_t)co * oc + (size_t)t * op],
                              acc[c] + (bias ? ct_ldg(bias + co) : 0.0f));
                }
            }
}

#if !defined(__CUDACC_RTC__)
// The host side of the selector of `convtune export --family conv2dc`
// (family_export.h): whether the sizes are a conv2dc problem (the grammar's
// rules: mode 0 valid, 1 same (stride 1 only) or 2 pad with ph, pw below the
// dilated filter, at least one output, groups dividing cin and cout, every
// buffer below 2^31 elements, layout 0 or 1), and the launch with block
// threads per block.
static long long conv2dc_generic_elems(long long a, long long b, long long c, long long d)
{
    const long long f[4] = {a, b, c, d}, max = 2147483647LL;
    long long v = 1;
    for (int i = 0; i < 4; i++) {
        if (f[i] < 1 || v > max / f[i])
            return -1;
        v *= f[i];
    }
    return v;
}

// Output size of one dimension and the zeros before it, -1 when none.
static long long conv2dc_generic_out(long long n, long long k, int mode, long long pad, long long s, long long d,
                                     long long *before)
{
    const long long span = d * (k - 1) + 1;
    *before = mode == 1 ? d * (k - 1) / 2 : mode == 2 ? pad : 0;
    if (pad < 0 || (mode != 2 && pad != 0) || (mode == 2 && pad >= span))
        return -1;
    if (mode == 1)
        return s == 1 ? n : -1;
    const long long room = n + 2 * *before - span;
    return room < 0 ? -1 : room / s + 1;
}

// The spelling of a layer that convtune's parse gives it (its canonicalize
// in tuner/families/conv2dc, which this must follow): the selector's pick
// compares requests in it with its canonical table (family_export.h).
static void conv2dc_generic_canonical(long long *b, long long *cin, long long *h, long long *w, long long *cout,
                                      long long *kh, long long *kw, int *mode, int *ph, int *pw, int *sh, int *sw,
                                      int *dh, int *dw, int *groups, int *layout)
{
    (void)b, (void)cin, (void)h, (void)w, (void)cout, (void)groups, (void)layout;
    if (*kh == 1)
        *dh = 1;
    if (*kw == 1)
        *dw = 1;
    if (*mode != 2)
        return;
    if (*ph == 0 && *pw == 0)
        *mode = 0;
    else if (*sh == 1 && *sw == 1 && *kh % 2 == 1 && *kw % 2 == 1 && *ph == *dh * (*kh - 1) / 2 &&
             *pw == *dw * (*kw - 1) / 2)
        *mode = 1;
    if (*mode != 2)
        *ph = *pw = 0;
}

static int conv2dc_generic_accepts(long long b, long long cin, long long h, long long w, long long cout, long long kh,
                                   long long kw, int mode, int ph, int pw, int sh, int sw, int dh, int dw, int groups,
                                   int layout)
{
    long long bh, bw;
    if (mode < 0 || mode > 2 || sh < 1 || sw < 1 || dh < 1 || dw < 1 || groups < 1 || cin % groups || cout % groups ||
        layout < 0 || layout > 1)
        return 0;
    const long long oh = conv2dc_generic_out(h, kh, mode, ph, sh, dh, &bh);
    const long long ow = conv2dc_generic_out(w, kw, mode, pw, sw, dw, &bw);
    return oh > 0 && ow > 0 && conv2dc_generic_elems(b, cin, h, w) > 0 &&
           conv2dc_generic_elems(cout, cin / groups, kh, kw) > 0 && conv2dc_generic_elems(b, cout, oh, ow) > 0;
}

static int conv2dc_generic_launch(const ct_elem *in, const ct_elem *weight, const ct_elem *bias, ct_elem *out, long long b,
                                  long long cin, long long h, long long w, long long cout, long long kh, long long kw,
                                  int mode, int ph, int pw, int sh, int sw, int dh, int dw, int groups, int layout,
                                  unsigned block, cudaStream_t stream)
{
    long long bh, bw;
    const long long oh = conv2dc_generic_out(h, kh, mode, ph, sh, dh, &bh);
    const long long ow = conv2dc_generic_out(w, kw, mode, pw, sw, dw, &bw);
    int tt, rows;
    conv2dc_generic_rows((int)block, oh * ow, &tt, &rows);
    const long long chans = (long long)rows * CT_G2C_COT;
    const long long gx = (oh * ow + tt - 1) / tt, gy = (cout + chans - 1) / chans;
    const dim3 grid((unsigned)gx, (unsigned)(gy < 65535 ? gy : 65535), (unsigned)(b < 65535 ? b : 65535));
    conv2dc_generic<<<grid, block, 0, stream>>>(in, weight, bias, out, (int)b, (int)cin, (int)h, (int)w, (int)cout,
                                                (int)kh, (int)kw, (int)oh, (int)ow, (int)bh, (int)bw, sh, sw, dh, dw,
                                                groups, layout);
    return (int)cudaGetLastError();
}
#endif
