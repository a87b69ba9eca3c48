/* cudnn_map.c - problems as cuDNN convolution descriptors (cudnn_map.h). */
#include "cudnn_map.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static long long val(const ct_problem *p, const char *name)
{
    return ct_problem_value(p, name);
}

/* Zeros before and after one dimension; 0 with the reason when they
 * differ (what is padded is named by dim). */
static int even_pad(long long before, long long after, const char *how, const char *dim, int *pad, char *why,
                    size_t len)
{
    if (before != after) {
        snprintf(why, len, "%s pads %s unevenly (%lld zero%s before, %lld after): cuDNN pads both sides alike",
                 how, dim, before, before == 1 ? "" : "s", after);
        return 0;
    }
    *pad = (int)before;
    return 1;
}

static long long out_len(long long n, long long pad, long long k, long long s, long long d)
{
    return (n + 2 * pad - d * (k - 1) - 1) / s + 1;
}

int ct_cudnn_map(const ct_problem *p, ct_cudnn_conv *m, char *why, size_t len)
{
    const char *fam = p->family->name;
    memset(m, 0, sizeof *m);
    m->dtype = ct_problem_dtype(p);
    m->stride_h = m->stride_w = m->dil_h = m->dil_w = m->groups = 1;
    m->h = m->r = m->oh = 1;
    m->buf_bias = -1;
    long long n, c, h = 1, w, k, r = 1, s;
    if (!strcmp(fam, "conv1d")) {
        n = 1, c = 1, k = 1, w = val(p, "N"), s = val(p, "K");
        const long long mode = val(p, "mode");   /* valid, same, right */
        const long long before = mode == 1 ? (s - 1) / 2 : 0, after = mode == 0 ? 0 : s - 1 - before;
        if (!even_pad(before, after, mode == 1 ? "padding 'same' with an even mask" : "mode 'right'", "the signal",
                      &m->pad_w, why, len))
            return 0;
    } else if (!strcmp(fam, "conv2d")) {
        n = val(p, "B"), c = 1, k = 1, h = val(p, "H"), w = val(p, "W"), r = val(p, "KH"), s = val(p, "KW");
        const int same = val(p, "mode") == 1;
        if (!even_pad(same ? (r - 1) / 2 : 0, same ? r - 1 - (r - 1) / 2 : 0, "padding 'same' with an even filter",
                      "the rows", &m->pad_h, why, len) ||
            !even_pad(same ? (s - 1) / 2 : 0, same ? s - 1 - (s - 1) / 2 : 0, "padding 'same' with an even filter",
                      "the columns", &m->pad_w, why, len))
            return 0;
    } else if (!strcmp(fam, "conv1dc")) {
        n = val(p, "B"), c = val(p, "Cin"), w = val(p, "L"), k = val(p, "Cout"), s = val(p, "K");
        m->stride_w = (int)val(p, "stride");
        m->dil_w = (int)val(p, "dilation");
        m->groups = (int)val(p, "groups");
        if (val(p, "causal") == 1) {
            const long long before = (s - 1) * m->dil_w;
            snprintf(why, len, "causal padding (%lld zero%s before, none after): cuDNN pads both sides alike",
                     before, before == 1 ? "" : "s");
            return 0;
        }
        m->pad_w = (int)val(p, "pad");
    } else if (!strcmp(fam, "conv2dc")) {
        n = val(p, "B"), c = val(p, "Cin"), h = val(p, "H"), w = val(p, "W"), k = val(p, "Cout");
        r = val(p, "KH"), s = val(p, "KW");
        m->stride_h = (int)val(p, "SH"), m->stride_w = (int)val(p, "SW");
        m->dil_h = (int)val(p, "DH"), m->dil_w = (int)val(p, "DW");
        m->groups = (int)val(p, "groups");
        const long long mode = val(p, "mode");   /* valid, same, pad=PH,PW */
        if (mode == 1) {
            const long long sh = m->dil_h * (r - 1), sw = m->dil_w * (s - 1);
            if (!even_pad(sh / 2, sh - sh / 2, "padding 'same' with an even span", "the rows", &m->pad_h, why, len) ||
                !even_pad(sw / 2, sw - sw / 2, "padding 'same' with an even span", "the columns", &m->pad_w, why,
                          len))
                return 0;
        } else if (mode == 2) {
            m->pad_h = (int)val(p, "PH"), m->pad_w = (int)val(p, "PW");
        }
    } else {
        snprintf(why, len, "family %s is no convolution cuDNN computes", fam);
        return 0;
    }
    const long long pass = val(p, "pass"), layout = val(p, "layout");
    m->pass = pass > 0 ? (int)pass : 0;
    m->channels_last = layout == 1;
    m->bias = val(p, "bias") == 1;
    const long long oh = out_len(h, m->pad_h, r, m->stride_h, m->dil_h);
    const long long ow = out_len(w, m->pad_w, s, m->stride_w, m->dil_w);
    /* The families keep every buffer below 2^31 elements, so each size and
     * stride fits cuDNN's int; checked all the same. */
    const long long sizes[] = {n, c, h, w, k, r, s, oh, ow, n * c * h * w, n * k * oh * ow};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (sizes[i] < 1 || sizes[i] > INT_MAX) {
            snprintf(why, len, "a size (%lld) outside cuDNN's int range", sizes[i]);
            return 0;
        }
    m->n = (int)n, m->c = (int)c, m->h = (int)h, m->w = (int)w;
    m->k = (int)k, m->r = (int)r, m->s = (int)s, m->oh = (int)oh, m->ow = (int)ow;
    if (m->channels_last) {
        const int xs[4] = {m->h * m->w * m->c, 1, m->w * m->c, m->c};
        const int ys[4] = {m->oh * m->ow * m->k, 1, m->ow * m->k, m->k};
        memcpy(m->x_stride, xs, sizeof xs);
        memcpy(m->y_stride, ys, sizeof ys);
    } else {
        const int xs[4] = {m->c * m->h * m->w, m->h * m->w, m->w, 1};
        const int ys[4] = {m->k * m->oh * m->ow, m->oh * m->ow, m->ow, 1};
        memcpy(m->x_stride, xs, sizeof xs);
        memcpy(m->y_stride, ys, sizeof ys);
    }
    /* The buffers in kernel-argument order (the families' buffers()). */
    if (m->pass == 1) {          /* dgrad: dy, w -> dx */
        m->buf_y = 0, m->buf_w = 1, m->buf_x = 2;
    } else if (m->pass == 2) {   /* wgrad: x, dy -> dW (then db) */
        m->buf_x = 0, m->buf_y = 1, m->buf_w = 2;
    } else {                     /* forward: x, w, [bias], y */
        m->buf_x = 0, m->buf_w = 1;
        m->buf_bias = m->bias ? 2 : -1;
        m->buf_y = m->bias ? 3 : 2;
    }
    return 1;
}
