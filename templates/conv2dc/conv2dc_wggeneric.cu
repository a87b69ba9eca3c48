// conv2dc_wggeneric: the fallback kernel of the wgrad selector of a family
// export (`convtune export --family conv2dc --pass wgrad`): dweight, the
// weight gradient (cout x cin/groups x kh x kw), from in and dout, and with
// bias 1 the cout bias gradients after it, for any layer at run time; the
// kernel is ct_pass_generic.cuh's (rows summed in fp32, rows in fp64).
#define CT_PG_PASS 2
#define CT_PG_NAME conv2dc_wggeneric
#include "ct_pass_generic.cuh"

#if !defined(__CUDACC_RTC__)
#include "conv2dc_pgeneric.cuh"

// The selector's host side (family_export.h): the forward selector's
// arguments in field order, bias a key (whether dweight holds db after dW).
static void conv2dc_wggeneric_canonical(long long *b, long long *cin, long long *h, long long *w, long long *cout,
                                        long long *kh, long long *kw, int *mode, int *ph, int *pw, int *sh, int *sw,
                                        int *dh, int *dw, int *groups, int *bias, int *layout)
{
    (void)b, (void)cin, (void)h, (void)w, (void)cout, (void)groups, (void)bias, (void)layout;
    conv2dc_pg_canonical(*kh, *kw, mode, ph, pw, *sh, *sw, dh, dw);
}

static int conv2dc_wggeneric_accepts(long long b, long long cin, long long h, long long w, long long cout,
                                     long long kh, long long kw, int mode, int ph, int pw, int sh, int sw, int dh,
                                     int dw, int groups, int bias, int layout)
{
    long long oh, ow, bh, bw;
    return (bias == 0 || bias == 1) &&
           conv2dc_pg_layer(b, cin, h, w, cout, kh, kw, mode, ph, pw, sh, sw, dh, dw, groups, layout, &oh, &ow, &bh,
                            &bw) &&
           conv2dc_pg_elems(cout, cin / groups, kh, kw) <= 2147483647LL - cout;   // dW, then db
}

static int conv2dc_wggeneric_launch(const ct_elem *in, const ct_elem *dout, ct_elem *dweight, long long b,
                                    long long cin, long long h, long long w, long long cout, long long kh,
                                    long long kw, int mode, int ph, int pw, int sh, int sw, int dh, int dw,
                                    int groups, int bias, int layout, unsigned block, cudaStream_t stream)
{
    long long oh, ow, bh, bw;
    conv2dc_pg_layer(b, cin, h, w, cout, kh, kw, mode, ph, pw, sh, sw, dh, dw, groups, layout, &oh, &ow, &bh, &bw);
    const long long n = cout * (cin / groups) * kh * kw + (bias ? cout : 0);
    conv2dc_wggeneric<<<ct_pg_blocks(n, block), block, 0, stream>>>(
        in, dout, dweight, (int)b, (int)cin, (int)h, (int)w, (int)cout, (int)kh, (int)kw, (int)oh, (int)ow, (int)bh,
        (int)bw, sh, sw, dh, dw, groups, bias, layout);
    return (int)cudaGetLastError();
}
#endif
