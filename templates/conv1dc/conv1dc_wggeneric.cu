// conv1dc_wggeneric: the fallback kernel of the wgrad selector of a family
// export (`convtune export --family conv1dc --pass wgrad`): dweight, the
// weight gradient (cout x cin/groups x k), from in and dout, and with bias 1
// the cout bias gradients after it, for any layer at run time; the kernel
// is ct_pass_generic.cuh's (rows summed in fp32, rows in fp64), the layer a
// 2D one of height 1.
#define CT_PG_PASS 2
#define CT_PG_NAME conv1dc_wggeneric
#include "ct_pass_generic.cuh"

#if !defined(__CUDACC_RTC__)
#include "conv1dc_pgeneric.cuh"

// The selector's host side (family_export.h): the forward selector's
// arguments in field order, bias a key (whether dweight holds db after dW).
static void conv1dc_wggeneric_canonical(long long *b, long long *cin, long long *l, long long *cout, long long *k,
                                        int *pad, int *causal, int *stride, int *dil, int *groups, int *bias,
                                        int *layout)
{
    (void)b, (void)cin, (void)l, (void)cout, (void)pad, (void)stride, (void)groups, (void)bias, (void)layout;
    conv1dc_pg_canonical(*k, causal, dil);
}

static int conv1dc_wggeneric_accepts(long long b, long long cin, long long l, long long cout, long long k, int pad,
                                     int causal, int stride, int dil, int groups, int bias, int layout)
{
    long long lout, before;
    return (bias == 0 || bias == 1) &&
           conv1dc_pg_layer(b, cin, l, cout, k, pad, causal, stride, dil, groups, layout, &lout, &before) &&
           cout * (cin / groups) * k <= 2147483647LL - cout;   // dW, then db
}

static int conv1dc_wggeneric_launch(const ct_elem *in, const ct_elem *dout, ct_elem *dweight, long long b,
                                    long long cin, long long l, long long cout, long long k, int pad, int causal,
                                    int stride, int dil, int groups, int bias, int layout, unsigned block,
                                    cudaStream_t stream)
{
    long long lout, before;
    conv1dc_pg_layer(b, cin, l, cout, k, pad, causal, stride, dil, groups, layout, &lout, &before);
    const long long n = cout * (cin / groups) * k + (bias ? cout : 0);
    conv1dc_wggeneric<<<ct_pg_blocks(n, block), block, 0, stream>>>(
        in, dout, dweight, (int)b, (int)cin, 1, (int)l, (int)cout, 1, (int)k, 1, (int)lout, 0, (int)before, 1, stride,
        1, dil, groups, bias, layout);
    return (int)cudaGetLastError();
}
#endif
