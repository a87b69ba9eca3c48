/* text.c - user text into fixed buffers and messages (text.h). */
#include "text.h"

#include <stdio.h>
#include <string.h>

ct_status ct_path_join(char *buf, size_t len, const char *a, const char *b, const char *what, ct_status code,
                       ct_err *e)
{
    const char *x = a ? a : "", *y = b ? b : "";
    size_t n = strlen(x) + strlen(y);
    if (len == 0)
        return ct_fail(e, CT_ERR_INTERNAL, "%s: no buffer for the path", what);
    buf[0] = '\0';
    if (n >= len) {
        char head[CT_ECHO_LEN];
        char first[41];
        snprintf(first, sizeof first, "%s%s", x, y);
        return ct_fail(e, code, "%s: path too long (%zu characters, at most %zu): %s...", what, n, len - 1,
                       ct_echo(first, head, sizeof head));
    }
    memcpy(buf, x, strlen(x));
    memcpy(buf + strlen(x), y, strlen(y) + 1);
    return CT_OK;
}

ct_status ct_path_copy(char *buf, size_t len, const char *path, const char *what, ct_status code, ct_err *e)
{
    return ct_path_join(buf, len, path, NULL, what, code, e);
}

const char *ct_echo(const char *text, char *buf, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    int n = 0;
    if (len == 0)
        return buf;
    for (const unsigned char *s = (const unsigned char *)(text ? text : ""); *s; s++) {
        char esc[5];
        size_t k = 0;
        const int lead = (*s & 0xC0) != 0x80;   /* cut between characters, never inside one */
        if (lead && n++ == CT_ECHO_MAX) {
            if (o + 4 <= len) {
                memcpy(buf + o, "...", 3);
                o += 3;
            }
            break;
        }
        if (*s == '\n' || *s == '\t' || *s == '\r' || *s == '\\') {
            esc[k++] = '\\';
            esc[k++] = *s == '\n' ? 'n' : *s == '\t' ? 't' : *s == '\r' ? 'r' : '\\';
        } else if (*s < 0x20 || *s == 0x7f) {
            esc[k++] = '\\';
            esc[k++] = 'x';
            esc[k++] = hex[*s >> 4];
            esc[k++] = hex[*s & 15];
        } else {
            esc[k++] = (char)*s;   /* UTF-8 passes: a terminal shows it */
        }
        if (o + k + 1 > len)
            break;
        memcpy(buf + o, esc, k);
        o += k;
    }
    buf[o] = '\0';
    return buf;
}
