/* conv_layer.c - options shared by the convolution layer families. */
#include "conv_layer.h"
#include "problem.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* "0", "00": zero, which ct_parse_size refuses as a size. */
static ct_status value(const char *text, const char *key, int zero_ok, long long *out, ct_err *e)
{
    const char *s = text;
    while (*s == '0')
        s++;
    if (zero_ok && *s == '\0' && s != text) {
        *out = 0;
        return CT_OK;
    }
    return ct_parse_size(text, key, 2147483647LL, out, e);
}

ct_status ct_layer_values(const char *tok, const char *key, int two, int zero_ok, long long out[2], ct_err *e)
{
    const size_t n = strlen(key);
    if (strncmp(tok, key, n) != 0 || tok[n] != '=')
        return ct_fail(e, CT_ERR_USAGE, "malformed %s field '%s', expected %s=%s", key, tok, key,
                       two ? "V or V,W" : "V");
    char buf[64];
    if (strlen(tok + n + 1) >= sizeof buf)
        return ct_fail(e, CT_ERR_USAGE, "%s is too large: '%s'", key, tok);
    strcpy(buf, tok + n + 1);
    char *comma = strchr(buf, ',');
    if (comma && !two)
        return ct_fail(e, CT_ERR_USAGE, "%s takes one value, got '%s'", key, tok);
    if (comma)
        *comma = '\0';
    ct_status rc = value(buf, key, zero_ok, &out[0], e);
    if (rc != CT_OK)
        return rc;
    out[1] = out[0];
    return comma ? value(comma + 1, key, zero_ok, &out[1], e) : CT_OK;
}

ct_status ct_layer_order(const char *const *names, int rank, int *last, const char *tok, ct_err *e)
{
    (void)tok;
    if (rank == *last)
        return ct_fail(e, CT_ERR_USAGE, "%s given twice", names[rank]);
    if (rank < *last)
        return ct_fail(e, CT_ERR_USAGE, "%s must come before %s", names[rank], names[*last]);
    *last = rank;
    return CT_OK;
}

long long ct_layer_out(long long n, long long before, long long after, long long k, long long s, long long d)
{
    const long long span = n + before + after - d * (k - 1);
    return span < 1 ? 0 : (span - 1) / s + 1;
}

int ct_layer_plain_only(const char *tmpl, int strided, long long groups, char *why, size_t len)
{
    if (strided) {
        snprintf(why, len, "%s slides a window of consecutive taps over consecutive outputs: stride and "
                 "dilation 1 only", tmpl);
        return 1;
    }
    if (groups > 1) {
        snprintf(why, len, "%s sums every output channel over every input channel: groups = 1 only", tmpl);
        return 1;
    }
    return 0;
}

int ct_layer_bare(const ct_layer_opts *o, const char *tok, long long *dims, int *rank, ct_status *rc, ct_err *e)
{
    static const char *const layouts[] = {"ncl", "nlc", "nchw", "nhwc"};
    for (int i = 0; i < o->nbare; i++) {
        const ct_field *fd = &o->fields[o->bare[i]];
        *rank = o->nkeyed + i;
        *rc = CT_OK;
        const int m = ct_field_choice(fd, tok);
        if (m >= 0) {
            dims[o->bare[i]] = m;
            return 1;
        }
        for (size_t k = 0; k < sizeof layouts / sizeof layouts[0] && strcmp(fd->name, "layout") == 0; k++)
            if (strcmp(tok, layouts[k]) == 0) {
                *rc = ct_fail(e, CT_ERR_USAGE, "%s must be %s or %s here, got '%s'", fd->name, fd->choices[0],
                              fd->choices[1], tok);
                return 1;
            }
    }
    return 0;
}

ct_status ct_layer_unknown(const ct_layer_opts *o, const char *tok, int last, ct_err *e)
{
    if (last == o->nkeyed + o->nbare - 1)
        return ct_fail(e, CT_ERR_USAGE, "too many fields: '%s' after %s", tok, o->fields[o->bare[o->nbare - 1]].name);
    char also[256];
    size_t n = 0;
    also[0] = '\0';
    for (int i = 0; i < o->nbare && n < sizeof also; i++) {
        const ct_field *fd = &o->fields[o->bare[i]];
        n += (size_t)snprintf(also + n, sizeof also - n, ", a %s (", fd->name);
        for (int c = 0; c < fd->nchoices && n < sizeof also; c++)
            n += (size_t)snprintf(also + n, sizeof also - n, "%s%s", c ? ", " : "", fd->choices[c]);
        if (n < sizeof also)
            n += (size_t)snprintf(also + n, sizeof also - n, ")");
    }
    return ct_fail(e, CT_ERR_USAGE, "unknown field '%s', expected %s%s", tok, o->expected, also);
}

ct_status ct_layer_order_opts(const ct_layer_opts *o, int rank, int *last, const char *tok, ct_err *e)
{
    const char *names[CT_MAX_FIELDS];
    for (int i = 0; i < o->nkeyed + o->nbare && i < CT_MAX_FIELDS; i++)
        names[i] = i < o->nkeyed ? o->keyed[i] : o->fields[o->bare[i - o->nkeyed]].name;
    return ct_layer_order(names, rank, last, tok, e);
}

int ct_layer_layout_excluded(const char *tmpl, const ct_field *layout, long long value, int reads, char *why,
                             size_t len)
{
    const int cl_only = reads == CT_LAYOUT_CL_ONLY;
    if (reads == CT_LAYOUT_BOTH || !value == !cl_only)
        return 0;
    char want[16], got[16];
    snprintf(want, sizeof want, "%s", layout->choices[cl_only ? 1 : 0]);
    snprintf(got, sizeof got, "%s", layout->choices[value ? 1 : 0]);
    for (char *c = want; *c; c++)
        *c = (char)toupper((unsigned char)*c);
    for (char *c = got; *c; c++)
        *c = (char)toupper((unsigned char)*c);
    snprintf(why, len, "%s reads and writes %s only, not %s", tmpl, want, got);
    return 1;
}

void ct_layer_reference(const ct_tc_shape *s, int channels_last, const float *const *in, double *out)
{
    const long long h = s->h, w = s->w, cin = s->cin, cout = s->cout, kh = s->kh, kw = s->kw, oh = s->oh, ow = s->ow;
    const long long dh = s->dy, dw = s->dx, groups = s->groups > 1 ? s->groups : 1;
    const long long cg = cin / groups, og = cout / groups;
    /* Element steps of a channel and a pixel, input and output. */
    const long long ic = channels_last ? 1 : h * w, ip = channels_last ? cin : 1;
    const long long oc = channels_last ? 1 : oh * ow, op = channels_last ? cout : 1;
    const float *x = in[0], *wt = in[1], *bias = s->bias ? in[2] : NULL;
    for (long long b = 0; b < s->b; b++)
        for (long long co = 0; co < cout; co++)
            for (long long y = 0; y < oh; y++)
                for (long long xo = 0; xo < ow; xo++) {
                    /* Clip the filter window to the image once per output:
                     * taps i0 <= i < i1 and j0 <= j < j1 fall inside. */
                    const long long y0 = y * s->sy - s->ph, x0 = xo * s->sx - s->pw;
                    long long i0 = y0 < 0 ? (-y0 + dh - 1) / dh : 0, i1 = y0 >= h ? 0 : (h - 1 - y0) / dh + 1;
                    long long j0 = x0 < 0 ? (-x0 + dw - 1) / dw : 0, j1 = x0 >= w ? 0 : (w - 1 - x0) / dw + 1;
                    i1 = i1 < kh ? i1 : kh;
                    j1 = j1 < kw ? j1 : kw;
                    double acc = bias ? (double)bias[co] : 0.0;
                    for (long long c = 0; c < cg; c++) {
                        const float *plane = x + b * cin * h * w + (co / og * cg + c) * ic;
                        const float *f = wt + (co * cg + c) * kh * kw;
                        for (long long i = i0; i < i1; i++)
                            for (long long j = j0; j < j1; j++)
                                acc += (double)plane[((y0 + i * dh) * w + x0 + j * dw) * ip] * (double)f[i * kw + j];
                    }
                    out[b * cout * oh * ow + co * oc + (y * ow + xo) * op] = acc;
                }
}
