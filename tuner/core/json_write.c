/* json_write.c - the JSON writer of json.h: every JSON convtune prints or
 * stores goes through it, so escaping and separators are decided once. */
#include "json.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

static void put(ct_jw *w, const char *s, size_t n)
{
    if (w->f) {
        fwrite(s, 1, n, w->f);
        return;
    }
    if (w->len && w->used < w->len - 1) {
        size_t room = w->len - 1 - w->used;
        memcpy(w->buf + w->used, s, n < room ? n : room);
        w->buf[w->used + (n < room ? n : room)] = '\0';
    }
    w->used += n;
}

static void puts_(ct_jw *w, const char *s)
{
    put(w, s, strlen(s));
}

static void putf(ct_jw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(ct_jw *w, const char *fmt, ...)
{
    char b[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    put(w, b, n < 0 ? 0 : (size_t)n < sizeof b ? (size_t)n : sizeof b - 1);
}

static void escaped(ct_jw *w, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    put(w, "\"", 1);
    while (*p) {
        int n = ct_utf8_len(p, SIZE_MAX);
        if (n == 0) {
            puts_(w, "\\ufffd");
            p++;
            continue;
        }
        switch (*p) {
        case '"':  puts_(w, "\\\""); break;
        case '\\': puts_(w, "\\\\"); break;
        case '\n': puts_(w, "\\n"); break;
        case '\r': puts_(w, "\\r"); break;
        case '\t': puts_(w, "\\t"); break;
        case '\b': puts_(w, "\\b"); break;
        case '\f': puts_(w, "\\f"); break;
        default:
            if (*p < 0x20)
                putf(w, "\\u%04x", *p);
            else
                put(w, (const char *)p, (size_t)n);
        }
        p += n;
    }
    put(w, "\"", 1);
}

void ct_json_write_string(FILE *f, const char *s)
{
    ct_jw w;
    ct_jw_file(&w, f, 0);
    escaped(&w, s);
}

void ct_jw_file(ct_jw *w, FILE *f, int spaced)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    w->spaced = spaced;
}

void ct_jw_buffer(ct_jw *w, char *buf, size_t len, int spaced)
{
    memset(w, 0, sizeof *w);
    w->buf = buf;
    w->len = len;
    w->spaced = spaced;
    if (len)
        buf[0] = '\0';
}

int ct_jw_fits(const ct_jw *w)
{
    return w->f || (w->len && w->used < w->len);
}

/* The comma before a value and its key. */
static void begin_value(ct_jw *w, const char *key)
{
    if (w->depth > 0) {
        if (w->members[w->depth - 1])
            puts_(w, w->spaced ? ", " : ",");
        w->members[w->depth - 1] = 1;
    }
    if (key) {
        escaped(w, key);
        puts_(w, w->spaced ? ": " : ":");
    }
}

static void open_(ct_jw *w, const char *key, char open, char close)
{
    begin_value(w, key);
    put(w, &open, 1);
    if (w->depth < CT_JSON_MAX_DEPTH) {
        w->close[w->depth] = close;
        w->members[w->depth] = 0;
        w->depth++;
    }
}

void ct_jw_object(ct_jw *w, const char *key)
{
    open_(w, key, '{', '}');
}

void ct_jw_array(ct_jw *w, const char *key)
{
    open_(w, key, '[', ']');
}

void ct_jw_end(ct_jw *w)
{
    if (w->depth > 0) {
        w->depth--;
        put(w, &w->close[w->depth], 1);
    }
}

void ct_jw_string(ct_jw *w, const char *key, const char *s)
{
    begin_value(w, key);
    escaped(w, s ? s : "");
}

void ct_jw_string_or_null(ct_jw *w, const char *key, const char *s)
{
    if (!s || !*s)
        ct_jw_null(w, key);
    else
        ct_jw_string(w, key, s);
}

void ct_jw_int(ct_jw *w, const char *key, long long v)
{
    begin_value(w, key);
    putf(w, "%lld", v);
}

void ct_jw_uint(ct_jw *w, const char *key, unsigned long long v)
{
    begin_value(w, key);
    putf(w, "%llu", v);
}

void ct_jw_number(ct_jw *w, const char *key, const char *fmt, double v)
{
    if (!isfinite(v)) {
        ct_jw_null(w, key);
        return;
    }
    begin_value(w, key);
    char b[64];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    snprintf(b, sizeof b, fmt, v);
#pragma GCC diagnostic pop
    puts_(w, b);
}

void ct_jw_null(ct_jw *w, const char *key)
{
    begin_value(w, key);
    puts_(w, "null");
}

void ct_jw_raw(ct_jw *w, const char *key, const char *json)
{
    begin_value(w, key);
    puts_(w, json);
}
