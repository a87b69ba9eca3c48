// conv1dc_pgeneric.cuh: the host side the pass selectors of `convtune
// export --family conv1dc --pass P` share (conv1dc_dggeneric.cu,
// conv1dc_wggeneric.cu; family_export.h says what each defines): the
// layer's rules and canonical spelling, as conv1dc_generic.cu has them for
// the forward selector (a pass problem is its forward layer's, plus the
// pass: tuner/families/conv1dc parses both alike). Host code: the templates
// include it behind !__CUDACC_RTC__, after ct_pass_generic.cuh, whose
// kernels see the layer as a 2D layer of height 1.

// Outputs, and the zeros before the input (pad, or causal: the dilated
// filter's span less one).
static long long conv1dc_pg_lout(long long l, long long k, int pad, int causal, int stride, int dil, long long *before)
{
    const long long span = (long long)dil * (k - 1) + 1;
    *before = causal ? span - 1 : pad;
    const long long room = l + (causal ? span - 1 : 2LL * pad) - span;
    return room < 0 ? 0 : room / stride + 1;
}

// a*b*c below 2^31 (each factor at least 1).
static int conv1dc_pg_fits(long long a, long long b, long long c)
{
    const long long max = 2147483647LL;
    return a <= max / b && a * b <= max / c;
}

// Whether the values are a conv1dc layer (conv1dc_generic.cu's accepts: the
// grammar's rules), and its output length in *lout and the zeros before the
// input in *before when so.
static int conv1dc_pg_layer(long long b, long long cin, long long l, long long cout, long long k, int pad, int causal,
                            int stride, int dil, int groups, int layout, long long *lout, long long *before)
{
    const long long max = 2147483647LL;
    if (b < 1 || cin < 1 || l < 1 || cout < 1 || k < 1 || b > max || cin > max || l > max || cout > max ||
        k > max || pad < 0 || causal < 0 || causal > 1 || (causal && pad) || stride < 1 || dil < 1 || groups < 1 ||
        cin % groups || cout % groups || layout < 0 || layout > 1)
        return 0;
    const long long span = (long long)dil * (k - 1) + 1;
    if (pad >= span || l + 2 * span > max)
        return 0;
    *lout = conv1dc_pg_lout(l, k, pad, causal, stride, dil, before);
    return *lout >= 1 && conv1dc_pg_fits(b, cin, l) && conv1dc_pg_fits(cout, cin / groups, k) &&
           conv1dc_pg_fits(b, cout, *lout);
}

// The spelling of a layer that convtune's parse gives it (the taps of a
// one-tap kernel coincide), as conv1dc_generic.cu's canonical.
static void conv1dc_pg_canonical(long long k, int *causal, int *dil)
{
    if (k == 1) {
        *causal = 0;
        *dil = 1;
    }
}
