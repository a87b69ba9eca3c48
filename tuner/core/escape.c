/* escape.c - escaping foreign text for generated files (escape.h). */
#include "escape.h"

#include <stdio.h>
#include <string.h>

/* Writes the escaped form of the byte c (followed by the byte next) into
 * buf, at most 8 bytes, and returns its length. */
typedef size_t (*esc_fn)(unsigned char c, unsigned char next, char *buf);

static int printable(unsigned char c)
{
    return c >= 0x20 && c < 0x7f;
}

static size_t hex(unsigned char c, char *buf)
{
    return (size_t)snprintf(buf, 8, "\\x%02x", c);
}

static size_t c_comment(unsigned char c, unsigned char next, char *buf)
{
    if (!printable(c) || c == '\\' || (c == '?' && next == '?'))
        return hex(c, buf);
    buf[0] = (char)c;
    return 1;
}

static size_t c_string(unsigned char c, unsigned char next, char *buf)
{
    (void)next;
    if (c == '"' || c == '\\' || c == '?') {
        buf[0] = '\\';
        buf[1] = (char)c;
        return 2;
    }
    if (!printable(c))
        return (size_t)snprintf(buf, 8, "\\%03o", c);
    buf[0] = (char)c;
    return 1;
}

static size_t py_string(unsigned char c, unsigned char next, char *buf)
{
    (void)next;
    if (c == '"' || c == '\\') {
        buf[0] = '\\';
        buf[1] = (char)c;
        return 2;
    }
    if (!printable(c))
        return hex(c, buf);
    buf[0] = (char)c;
    return 1;
}

/* The escaped text; where the whole does not fit, as much as fits with
 * "..." and the NUL after it, so the cut never splits an escape. */
static const char *escape(const char *in, char *out, size_t len, esc_fn esc)
{
    if (len == 0)
        return out;
    const unsigned char *s = (const unsigned char *)(in ? in : "");
    char buf[8];
    size_t total = 0;
    for (const unsigned char *p = s; *p; p++)
        total += esc(p[0], p[1], buf);
    const size_t room = total < len ? len - 1 : len >= 4 ? len - 4 : 0;
    size_t o = 0;
    for (const unsigned char *p = s; *p; p++) {
        const size_t n = esc(p[0], p[1], buf);
        if (o + n > room)
            break;
        memcpy(out + o, buf, n);
        o += n;
    }
    if (total >= len && len >= 4) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
    return out;
}

const char *ct_esc_c_comment(const char *in, char *out, size_t len)
{
    return escape(in, out, len, c_comment);
}

const char *ct_esc_c_string(const char *in, char *out, size_t len)
{
    return escape(in, out, len, c_string);
}

const char *ct_esc_py_string(const char *in, char *out, size_t len)
{
    return escape(in, out, len, py_string);
}
