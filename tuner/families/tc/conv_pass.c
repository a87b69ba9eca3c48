/* conv_pass.c - the training passes of a convolution layer (conv_pass.h). */
#include "conv_pass.h"

#include <stdio.h>
#include <string.h>

const char *const ct_pass_names[CT_NPASSES] = {"fwd", "dgrad", "wgrad"};

long long ct_pass_x_count(const ct_tc_shape *s)
{
    return s->b * s->cin * s->h * s->w;
}

long long ct_pass_w_count(const ct_tc_shape *s)
{
    return s->cout * (s->cin / ct_tc_ngroups(s)) * s->kh * s->kw;
}

long long ct_pass_y_count(const ct_tc_shape *s)
{
    return s->b * s->cout * s->oh * s->ow;
}

int ct_pass_buffers(const ct_tc_shape *s, const char *weight_symbol, ct_buffer *b)
{
    const size_t x = (size_t)ct_pass_x_count(s), w = (size_t)ct_pass_w_count(s), y = (size_t)ct_pass_y_count(s);
    if (s->pass == CT_PASS_DGRAD) {
        b[0] = (ct_buffer){.name = "dout", .count = y};
        b[1] = (ct_buffer){.name = "weight", .count = w, .symbol = weight_symbol};
        b[2] = (ct_buffer){.name = "din", .count = x, .is_output = 1};
        return 3;
    }
    b[0] = (ct_buffer){.name = "in", .count = x};
    b[1] = (ct_buffer){.name = "dout", .count = y};
    b[2] = (ct_buffer){.name = "dweight", .count = w + (s->bias ? (size_t)s->cout : 0), .is_output = 1};
    return 3;
}

double ct_pass_bytes(const ct_tc_shape *s, size_t elem_size)
{
    const double bias = s->pass == CT_PASS_WGRAD && s->bias ? (double)s->cout : 0.0;
    return (double)elem_size *
           ((double)ct_pass_x_count(s) + (double)ct_pass_w_count(s) + (double)ct_pass_y_count(s) + bias);
}

void ct_pass_reference(const ct_tc_shape *s, int channels_last, const float *const *in, double *out)
{
    const long long h = s->h, w = s->w, cin = s->cin, cout = s->cout, kh = s->kh, kw = s->kw, oh = s->oh, ow = s->ow;
    const long long groups = ct_tc_ngroups(s), cg = cin / groups, og = cout / groups;
    const long long nw = ct_pass_w_count(s);
    /* Element steps of a channel and a pixel, of x and of dy. */
    const long long ic = channels_last ? 1 : h * w, ip = channels_last ? cin : 1;
    const long long oc = channels_last ? 1 : oh * ow, op = channels_last ? cout : 1;
    const int dgrad = s->pass == CT_PASS_DGRAD;
    const float *dy = dgrad ? in[0] : in[1], *wt = dgrad ? in[1] : NULL, *x = dgrad ? NULL : in[0];
    const long long nout = dgrad ? ct_pass_x_count(s) : nw + (s->bias ? cout : 0);
    for (long long k = 0; k < nout; k++)
        out[k] = 0.0;
    /* The forward loop nest, each product scattered to the gradient it
     * feeds: the same taps the forward reference reads, clipped alike. */
    for (long long b = 0; b < s->b; b++)
        for (long long co = 0; co < cout; co++)
            for (long long y = 0; y < oh; y++)
                for (long long xo = 0; xo < ow; xo++) {
                    const double g = (double)dy[b * cout * oh * ow + co * oc + (y * ow + xo) * op];
                    if (!dgrad && s->bias)
                        out[nw + co] += g;
                    const long long y0 = y * s->sy - s->ph, x0 = xo * s->sx - s->pw;
                    long long i0 = y0 < 0 ? (-y0 + s->dy - 1) / s->dy : 0, i1 = y0 >= h ? 0 : (h - 1 - y0) / s->dy + 1;
                    long long j0 = x0 < 0 ? (-x0 + s->dx - 1) / s->dx : 0, j1 = x0 >= w ? 0 : (w - 1 - x0) / s->dx + 1;
                    i1 = i1 < kh ? i1 : kh;
                    j1 = j1 < kw ? j1 : kw;
                    for (long long c = 0; c < cg; c++) {
                        const long long plane = b * cin * h * w + (co / og * cg + c) * ic;
                        const long long f = (co * cg + c) * kh * kw;
                        for (long long i = i0; i < i1; i++)
                            for (long long j = j0; j < j1; j++) {
                                const long long xi = plane + ((y0 + i * s->dy) * w + x0 + j * s->dx) * ip;
                                if (dgrad)
                                    out[xi] += g * (double)wt[f + i * kw + j];
                                else
                                    out[f + i * kw + j] += g * (double)x[xi];
                            }
                    }
                }
}

int ct_pass_excluded(const ct_template *t, int pass, char *why, size_t len)
{
    if (ct_kind_computes(t, pass))
        return 0;
    char have[64] = "";
    size_t n = 0;
    for (int q = 0; q < CT_NPASSES; q++)
        if (ct_kind_computes(t, q) && n < sizeof have)
            n += (size_t)snprintf(have + n, sizeof have - n, "%s%s", n ? ", " : "", ct_pass_names[q]);
    snprintf(why, len, "%s computes the %s pass%s only, not %s", t->name, have, strchr(have, ',') ? "es" : "",
             ct_pass_names[pass]);
    return 1;
}
