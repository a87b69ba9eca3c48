// conv2dc_dggeneric: the fallback kernel of the dgrad selector of a family
// export (`convtune export --family conv2dc --pass dgrad`): din, the input
// gradient (the forward input's shape and layout), from dout (the forward
// output's) and the weights, for any layer at run time; the kernel is
// ct_pass_generic.cuh's. A bias changes no input gradient: the selector
// has no bias argument.
#define CT_PG_PASS 1
#define CT_PG_NAME conv2dc_dggeneric
#include "ct_pass_generic.cuh"

#if !defined(__CUDACC_RTC__)
#include "conv2dc_pgeneric.cuh"

// The selector's host side (family_export.h): the forward selector's
// arguments but bias, in field order.
static void conv2dc_dggeneric_canonical(long long *b, long long *cin, long long *h, long long *w, long long *cout,
                                        long long *kh, long long *kw, int *mode, int *ph, int *pw, int *sh, int *sw,
                                        int *dh, int *dw, int *groups, int *layout)
{
    (void)b, (void)cin, (void)h, (void)w, (void)cout, (void)groups, (void)layout;
    conv2dc_pg_canonical(*kh, *kw, mode, ph, pw, *sh, *sw, dh, dw);
}

static int conv2dc_dggeneric_accepts(long long b, long long cin, long long h, long long w, long long cout,
                                     long long kh, long long kw, int mode, int ph, int pw, int sh, int sw, int dh,
                                     int dw, int groups, int layout)
{
    long long oh, ow, bh, bw;
    return conv2dc_pg_layer(b, cin, h, w, cout, kh, kw, mode, ph, pw, sh, sw, dh, dw, groups, layout, &oh, &ow, &bh,
                            &bw);
}

static int conv2dc_dggeneric_launch(const ct_elem *dout, const ct_elem *weight, ct_elem *din, long long b,
                                    long long cin, long long h, long long w, long long cout, long long kh,
                                    long long kw, int mode, int ph, int pw, int sh, int sw, int dh, int dw,
                                    int groups, int layout, unsigned block, cudaStream_t stream)
{
    long long oh, ow, bh, bw;
    conv2dc_pg_layer(b, cin, h, w, cout, kh, kw, mode, ph, pw, sh, sw, dh, dw, groups, layout, &oh, &ow, &bh, &bw);
    conv2dc_dggeneric<<<ct_pg_blocks(b * cin * h * w, block), block, 0, stream>>>(
        dout, weight, din, (int)b, (int)cin, (int)h, (int)w, (int)cout, (int)kh, (int)kw, (int)oh, (int)ow, (int)bh,
        (int)bw, sh, sw, dh, dw, groups, layout);
    return (int)cudaGetLastError();
}
#endif
