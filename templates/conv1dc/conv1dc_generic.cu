// conv1dc_generic: the fallback kernel of a multi-size export (`convtune
// export --family conv1dc`). It is not tuned and not part of any tuning
// space: the sizes are kernel arguments instead of compile-time macros, so
// one compiled kernel serves every layer the export has no tuned instance for.
//
//   out[b][co][t] = bias[co] + sum_{c<cin/g, j<k} in[b][gi*cin/g + c][t*stride + j*dil - before] * w[co][c][j],
//   gi = co / (cout/g), in = 0 outside [0, l), bias NULL for none; before = pad
//   zeros on both sides, or causal: (k-1)*dil before and none after;
//   lout = (l + zeros - dil*(k-1) - 1) / stride + 1; layout 0 (ncl) as written,
//   1 (nlc, channels last): in[b][x][c] and out[b][t][co], the weights as above
//
// A block is `rows` rows of `tt` threads: tt a multiple of 32 dividing the
// block, the smallest that covers the output length (or the whole block), so
// short outputs leave few threads idle. Row g computes CT_G1_COT output
// channels at tt consecutive positions of one batch item. The weights of the
// block's rows * CT_G1_COT channels are staged in shared memory one chunk of
// taps (ci, j flattened) at a time and read as broadcasts; each input, read
// through the read-only cache, feeds CT_G1_COT multiply-adds (with groups, a
// thread whose channels straddle two groups loads each channel's input on
// its own). Each chunk is
// summed on its own and then added, so fp32 rounding grows with the chunk
// length and the number of chunks rather than with the whole reduction.
#include "ct_dtype.cuh"

#define CT_G1_COT 4
#define CT_G1_SMEM 8192   // floats of staged weights (32 KiB)

// Threads per row (tt) and rows per block for a block of `block` threads.
__host__ __device__ static inline void conv1dc_generic_rows(int block, long long lout, int *tt, int *rows)
{
    const int nw = block / 32;
    int m = (int)(((lout < block ? lout : block) + 31) / 32);
    while (nw % m)
        m++;
    *tt = 32 * m;
    *rows = nw / m;
}

extern "C" __global__ void conv1dc_generic(const ct_elem *__restrict__ in, const ct_elem *__restrict__ w,
                                           const ct_elem *__restrict__ bias, ct_elem *__restrict__ out, int nb, int cin,
                                           int l, int cout, int k, int pad, int lout, int stride,
                                           int dil, int groups, int layout)
{
    // Element steps of an input channel and position, an output channel and position.
    const int sc = layout ? 1 : l, sx = layout ? cin : 1, oc = layout ? 1 : lout, ot = layout ? cout : 1;
    __shared__ __align__(16) float ws[CT_G1_SMEM];
    int tt, rows;
    conv1dc_generic_rows((int)blockDim.x, lout, &tt, &rows);
    const int row = (int)threadIdx.x / tt, lane = (int)threadIdx.x % tt;
    const int chans = rows * CT_G1_COT;   // output channels per block
    const int rc = CT_G1_SMEM / chans;    // taps per chunk
    const int cing = cin / groups, coutg = cout / groups;
    const int taps = cing * k;
    const int ntile = (int)(((long long)lout + tt - 1) / tt);
    const int ngroup = (int)(((long long)cout + chans - 1) / chans);
    for (int b = blockIdx.z; b < nb; b += gridDim.z)
        for (int cg = blockIdx.y; cg < ngroup; cg += gridDim.y)
            for (int tile = blockIdx.x; tile < ntile; tile += gridDim.x) {
                const long long tl = (long long)tile * tt + lane;
                const bool active = tl < lout;
                const int t = active ? (int)tl : 0;
                const int co0 = cg * chans + row * CT_G1_COT;
                // Each channel's input rows, relative to those of co0's group.
                int goff[CT_G1_COT];
                bool mixed = false;
#pragma unroll
                for (int c = 0; c < CT_G1_COT; c++) {
                    const int co = min(co0 + c, cout - 1);
                    goff[c] = (co / coutg - min(co0, cout - 1) / coutg) * cing * sc;
                    mixed |= goff[c] != 0;
                }
                float acc[CT_G1_COT];
#pragma unroll
                for (int c = 0; c < CT_G1_COT; c++)
                    acc[c] = 0.0f;
                for (long long r0l = 0; r0l < taps; r0l += rc) {   // 64-bit: taps may be near 2^31
                    const int r0 = (int)r0l, len = min(rc, taps - r0);
                    __syncthreads();   // every thread is done with the previous chunk
                    for (int i = threadIdx.x; i < len * chans; i += blockDim.x) {
                        const int c = i / len, r = i - c * len;   // consecutive threads, consecutive taps
                        const int co = cg * chans + c;
                        ws[r * chans + c] = co < cout ? ct_ldg(w + (size_t)co * taps + r0 + r) : 0.0f;
                    }
                    __syncthreads();
                    if (!active)
                        continue;
                    float part[CT_G1_COT];
#pragma unroll
                    for (int c = 0; c < CT_G1_COT; c++)
                        part[c] = 0.0f;
                    int ci = r0 / k, j = r0 - ci * k;
                    const ct_elem *x = in + (size_t)b * cin * l + (size_t)(min(co0, cout - 1) / coutg * cing + ci) * sc;
                    const float *wr = ws + row * CT_G1_COT;
                    for (int r = 0; r < len; r++, wr += chans) {
                        const int pos = t * stride + j * dil - pad;
                        const bool inside = pos >= 0 && pos < l;
                        const float v = inside ? ct_ldg(x + pos * sx) : 0.0f;
#pragma unroll
                        for (int c = 0; c < CT_G1_COT; c++)
                            part[c] = fmaf(mixed && inside ? ct_ldg(x + goff[c] + pos * sx) : v, wr[c], part[c]);
                        if (++j == k) {
                            j = 0;
                            x += sc;
                        }
                    }
#pragma unroll
                    for (int c = 0; c < CT_G1_COT; c++)
                        acc[c] += part[c];
                }
                if (!active)
                    continue;
#pragma unroll
                for (int c = 0; c < CT_G1_COT; c++) {
                    const int co = co0 + c;
                    if (co < cout)
                        ct_st(&out[(size_t)b * cout * lout + (size_t)co * oc + (size_t)t * ot],
                              acc[c] + (bias ? ct_ldg(bias + co) : 0.0f));
                }
            }
}

#if !defined(__CUDACC_RTC__)
// The host side of the selector of `convtune export --family conv1dc`
// (family_export.h): whether the sizes are a conv1dc problem (the grammar's
// rules: every buffer below 2^31 elements, 0 <= pad < the dilated filter
// and no pad when causal, groups dividing cin and cout, l + the filter's
// span twice below 2^31, at least one output, layout 0 or 1), and the
// launch with block threads per block.
static int conv1dc_generic_fits(long long a, long long b, long long c)
{
    const long long max = 2147483647LL;
    return a <= max / b && a * b <= max / c;
}

// Outputs, and the zeros before the input.
static long long conv1dc_generic_lout(long long l, long long k, int pad, int causal, int stride, int dil,
                                      long long *before)
{
    const long long span = (long long)dil * (k - 1) + 1;
    *before = causal ? span - 1 : pad;
    const long long room = l + (causal ? span - 1 : 2LL * pad) - span;
    return room < 0 ? 0 : room / stride + 1;
}

// The spelling of a layer that convtune's parse gives it (tuner/families/
// conv1dc, which this must follow: the taps of a one-tap kernel coincide):
// the selector's pick compares requests in it with its canonical table.
static void conv1dc_generic_canonical(long long *b, long long *cin, long long *l, long long *cout, long long *k,
                                      int *pad, int *causal, int *stride, int *dil, int *groups, int *layout)
{
    (void)b, (void)cin, (void)l, (void)cout, (void)pad, (void)stride, (void)groups, (void)layout;
    if (*k == 1) {
        *causal = 0;
        *dil = 1;
    }
}

static int conv1dc_generic_accepts(long long b, long long cin, long long l, long long cout, long long k, int pad,
                                   int causal, int stride, int dil, int groups, int layout)
{
    const long long max = 2147483647LL;
    if (b < 1 || cin < 1 || l < 1 || cout < 1 || k < 1 || b > max || cin > max || l > max || cout > max ||
        k > max || pad < 0 || causal < 0 || causal > 1 || (causal && pad) || stride < 1 || dil < 1 || groups < 1 ||
        cin % groups || cout % groups || layout < 0 || layout > 1)
        return 0;
    const long long span = (long long)dil * (k - 1) + 1;
    if (pad >= span || l + 2 * span > max)
        return 0;
    long long before;
    const long long lout = conv1dc_generic_lout(l, k, pad, causal, stride, dil, &before);
    return lout >= 1 && conv1dc_generic_fits(b, cin, l) && conv1dc_generic_fits(cout, cin / groups, k) &&
           conv1dc_generic_fits(b, cout, lout);
}

static int conv1dc_generic_launch(const ct_elem *in, const ct_elem *weight, const ct_elem *bias, ct_elem *out, long long b,
                                  long long cin, long long l, long long cout, long long k, int pad, int causal,
                                  int stride, int dil, int groups, int layout, unsigned block, cudaStream_t stream)
{
    long long before;
    const long long lout = conv1dc_generic_lout(l, k, pad, causal, stride, dil, &before);
    int tt, rows;
    conv1dc_generic_rows((int)block, lout, &tt, &rows);
    const long long chans = (long long)rows * CT_G1_COT;
    const long long gx = (lout + tt - 1) / tt, gy = (cout + chans - 1) / chans;
    const dim3 grid((unsigned)(gx < 2147483647LL ? gx : 2147483647LL), (unsigned)(gy < 65535 ? gy : 65535),
                    (unsigned)(b < 65535 ? b : 65535));
    conv1dc_generic<<<grid, block, 0, stream>>>(in, weight, bias, out, (int)b, (int)cin, (int)l, (int)cout, (int)k,
                                                (int)before, (int)lout, stride, dil, groups, layout);
    return (int)cudaGetLastError();
}
#endif
