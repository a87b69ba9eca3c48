// conv2dc_pgeneric.cuh: the host side the pass selectors of `convtune
// export --family conv2dc --pass P` share (conv2dc_dggeneric.cu,
// conv2dc_wggeneric.cu; family_export.h says what each defines): the
// layer's rules and canonical spelling, as conv2dc_generic.cu has them for
// the forward selector (a pass problem is its forward layer's, plus the
// pass: tuner/families/conv2dc parses both alike). Host code: the templates
// include it behind !__CUDACC_RTC__, after ct_pass_generic.cuh.

// a*b*c*d when every factor is positive and the product below 2^31, else -1.
static long long conv2dc_pg_elems(long long a, long long b, long long c, long long d)
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

// Output size of one dimension and the zeros before it, -1 when none: mode
// 0 valid, 1 same (stride 1 only), 2 pad with pad below the dilated filter.
static long long conv2dc_pg_out(long long n, long long k, int mode, long long pad, long long s, long long d,
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

// The spelling of a layer that convtune's parse gives it (conv2dc_generic.cu's
// canonical, which follows tuner/families/conv2dc).
static void conv2dc_pg_canonical(long long kh, long long kw, int *mode, int *ph, int *pw, int sh, int sw, int *dh,
                                 int *dw)
{
    if (kh == 1)
        *dh = 1;
    if (kw == 1)
        *dw = 1;
    if (*mode != 2)
        return;
    if (*ph == 0 && *pw == 0)
        *mode = 0;
    else if (sh == 1 && sw == 1 && kh % 2 == 1 && kw % 2 == 1 && *ph == *dh * (kh - 1) / 2 &&
             *pw == *dw * (kw - 1) / 2)
        *mode = 1;
    if (*mode != 2)
        *ph = *pw = 0;
}

// Whether the values are a conv2dc layer (the grammar's rules: at least one
// output, groups dividing cin and cout, every buffer below 2^31 elements,
// layout 0 or 1); its output size in *oh, *ow and the zeros before in *bh,
// *bw when so.
static int conv2dc_pg_layer(long long b, long long cin, long long h, long long w, long long cout, long long kh,
                            long long kw, int mode, int ph, int pw, int sh, int sw, int dh, int dw, int groups,
                            int layout, long long *oh, long long *ow, long long *bh, long long *bw)
{
    if (mode < 0 || mode > 2 || sh < 1 || sw < 1 || dh < 1 || dw < 1 || groups < 1 || cin % groups || cout % groups ||
        layout < 0 || layout > 1)
        return 0;
    *oh = conv2dc_pg_out(h, kh, mode, ph, sh, dh, bh);
    *ow = conv2dc_pg_out(w, kw, mode, pw, sw, dw, bw);
    return *oh > 0 && *ow > 0 && conv2dc_pg_elems(b, cin, h, w) > 0 && conv2dc_pg_elems(cout, cin / groups, kh, kw) > 0 &&
           conv2dc_pg_elems(b, cout, *oh, *ow) > 0;
}
