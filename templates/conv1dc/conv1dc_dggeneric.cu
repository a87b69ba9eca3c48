// conv1dc_dggeneric: the fallback kernel of the dgrad selector of a family
// export (`convtune export --family conv1dc --pass dgrad`): din, the input
// gradient (the forward input's shape and layout), from dout (the forward
// output's) and the weights, for any layer at run time; the kernel is
// ct_pass_generic.cuh's, the layer a 2D one of height 1. A bias changes no
// input gradient: the selector has no bias argument.
#define CT_PG_PASS 1
#define CT_PG_NAME conv1dc_dggeneric
#include "ct_pass_generic.cuh"

#if !defined(__CUDACC_RTC__)
#include "conv1dc_pgeneric.cuh"

// The selector's host side (family_export.h): the forward selector's
// arguments but bias, in field order.
static void conv1dc_dggeneric_canonical(long long *b, long long *cin, long long *l, long long *cout, long long *k,
                                        int *pad, int *causal, int *stride, int *dil, int *groups, int *layout)
{
    (void)b, (void)cin, (void)l, (void)cout, (void)pad, (void)stride, (void)groups, (void)layout;
    conv1dc_pg_canonical(*k, causal, dil);
}

static int conv1dc_dggeneric_accepts(long long b, long long cin, long long l, long long cout, long long k, int pad,
                                     int causal, int stride, int dil, int groups, int layout)
{
    long long lout, before;
    return conv1dc_pg_layer(b, cin, l, cout, k, pad, causal, stride, dil, groups, layout, &lout, &before);
}

static int conv1dc_dggeneric_launch(const ct_elem *dout, const ct_elem *weight, ct_elem *din, long long b,
                                    long long cin, long long l, long long cout, long long k, int pad, int causal,
                                    int stride, int dil, int groups, int layout, unsigned block, cudaStream_t stream)
{
    long long lout, before;
    conv1dc_pg_layer(b, cin, l, cout, k, pad, causal, stride, dil, groups, layout, &lout, &before);
    conv1dc_dggeneric<<<ct_pg_blocks(b * cin * l, block), block, 0, stream>>>(
        dout, weight, din, (int)b, (int)cin, 1, (int)l, (int)cout, 1, (int)k, 1, (int)lout, 0, (int)before, 1, stride,
        1, dil, groups, layout);
    return (int)cudaGetLastError();
}
#endif
