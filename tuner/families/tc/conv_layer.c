/* conv_layer.c - options shared by the convolution layer families. */
#include "conv_layer.h"
#include "problem.h"

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
