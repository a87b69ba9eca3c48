/* json.c - the strict JSON reader behind json.h: a recursive-descent parser
 * whose recursion is bounded by CT_JSON_MAX_DEPTH. */
#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *s;
    size_t len, pos;
    int line;
    size_t line_start;          /* offset of the current line's first byte */
    ct_err *e;
    ct_status st;               /* CT_OK until the first failure */
} parser;

static int column(const parser *p, size_t pos)
{
    return (int)(pos - p->line_start) + 1;
}

/* Record the first failure at the current position. */
static void fail(parser *p, const char *what)
{
    if (p->st != CT_OK)
        return;
    p->st = ct_fail(p->e, CT_ERR_USAGE, "JSON: line %d, column %d: %s", p->line, column(p, p->pos), what);
}

static void oom(parser *p)
{
    if (p->st == CT_OK)
        p->st = ct_fail(p->e, CT_ERR_INTERNAL, "JSON: out of memory");
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c == '\n') {
            p->line++;
            p->line_start = p->pos + 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            break;
        }
        p->pos++;
    }
}

static int peek(const parser *p)
{
    return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static ct_json *new_value(parser *p, ct_json_type t)
{
    ct_json *v = calloc(1, sizeof *v);
    if (!v) {
        oom(p);
        return NULL;
    }
    v->type = t;
    v->start = p->pos;
    v->line = p->line;
    v->col = column(p, p->pos);
    return v;
}

void ct_json_free(ct_json *v)
{
    if (!v)
        return;
    if (v->type == CT_JSON_ARRAY || v->type == CT_JSON_OBJECT) {
        for (size_t i = 0; i < v->n; i++) {
            ct_json_free(v->items[i]);
            if (v->keys)
                free(v->keys[i]);
        }
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    free(v);
}

int ct_utf8_len(const unsigned char *s, size_t avail)
{
    unsigned char c = s[0];
    int n;
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if ((size_t)n > avail)
        return 0;
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

static int hex4(const parser *p, size_t at, uint32_t *out)
{
    uint32_t v = 0;
    if (at + 4 > p->len)
        return 0;
    for (int i = 0; i < 4; i++) {
        char c = p->s[at + (size_t)i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (uint32_t)(c - 'A' + 10);
        else
            return 0;
    }
    *out = v;
    return 1;
}

static size_t put_utf8(char *d, uint32_t cp)
{
    if (cp < 0x80) {
        d[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        d[0] = (char)(0xC0 | (cp >> 6));
        d[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        d[0] = (char)(0xE0 | (cp >> 12));
        d[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        d[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    d[0] = (char)(0xF0 | (cp >> 18));
    d[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    d[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    d[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* A string starting at the opening quote; the decoded text is malloc'ed
 * into *out (its length in *outlen). Returns 0 on failure. The decoded
 * form is never longer than the source, so one allocation suffices. */
static int parse_string_raw(parser *p, char **out, size_t *outlen)
{
    size_t i = p->pos + 1, o = 0;
    char *d = NULL;
    /* Find the closing quote first, to size the buffer. */
    size_t j = i;
    while (j < p->len && p->s[j] != '"') {
        if (p->s[j] == '\\')
            j++;
        j++;
    }
    if (j >= p->len) {
        fail(p, "unterminated string");
        return 0;
    }
    d = malloc(j - i + 1);
    if (!d) {
        oom(p);
        return 0;
    }
    while (i < p->len) {
        unsigned char c = (unsigned char)p->s[i];
        if (c == '"')
            break;
        if (c < 0x20) {
            p->pos = i;
            fail(p, "control character in a string (escape it)");
            free(d);
            return 0;
        }
        if (c != '\\') {
            int n = ct_utf8_len((const unsigned char *)p->s + i, p->len - i);
            if (n == 0) {
                p->pos = i;
                fail(p, "invalid UTF-8 in a string");
                free(d);
                return 0;
            }
            memcpy(d + o, p->s + i, (size_t)n);
            o += (size_t)n;
            i += (size_t)n;
            continue;
        }
        /* an escape */
        if (i + 1 >= p->len) {
            p->pos = i;
            fail(p, "unterminated string");
            free(d);
            return 0;
        }
        char x = p->s[i + 1];
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *k = x ? strchr(from, x) : NULL;
        if (k) {
            d[o++] = to[k - from];
            i += 2;
            continue;
        }
        if (x != 'u') {
            p->pos = i;
            fail(p, "invalid escape in a string");
            free(d);
            return 0;
        }
        uint32_t cp, lo;
        if (!hex4(p, i + 2, &cp)) {
            p->pos = i;
            fail(p, "\\u needs four hexadecimal digits");
            free(d);
            return 0;
        }
        size_t used = 6;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (i + 12 > p->len || p->s[i + 6] != '\\' || p->s[i + 7] != 'u' || !hex4(p, i + 8, &lo) ||
                lo < 0xDC00 || lo > 0xDFFF) {
                p->pos = i;
                fail(p, "unpaired UTF-16 surrogate in a \\u escape");
                free(d);
                return 0;
            }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            used = 12;
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            p->pos = i;
            fail(p, "unpaired UTF-16 surrogate in a \\u escape");
            free(d);
            return 0;
        } else if (cp == 0) {
            p->pos = i;
            fail(p, "\\u0000 is not allowed in a string");
            free(d);
            return 0;
        }
        o += put_utf8(d + o, cp);
        i += used;
    }
    d[o] = '\0';
    p->pos = i + 1;     /* past the closing quote */
    *out = d;
    *outlen = o;
    return 1;
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static ct_json *parse_number(parser *p)
{
    size_t b = p->pos, i = p->pos;
    int integral = 1;
    if (i < p->len && p->s[i] == '-')
        i++;
    if (i >= p->len || !is_digit((unsigned char)p->s[i])) {
        p->pos = i;
        fail(p, "expected a digit");
        return NULL;
    }
    if (p->s[i] == '0') {
        i++;
        if (i < p->len && is_digit((unsigned char)p->s[i])) {
            p->pos = i;
            fail(p, "leading zero in a number");
            return NULL;
        }
    } else {
        while (i < p->len && is_digit((unsigned char)p->s[i]))
            i++;
    }
    if (i < p->len && p->s[i] == '.') {
        integral = 0;
        i++;
        if (i >= p->len || !is_digit((unsigned char)p->s[i])) {
            p->pos = i;
            fail(p, "expected a digit after the decimal point");
            return NULL;
        }
        while (i < p->len && is_digit((unsigned char)p->s[i]))
            i++;
    }
    if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
        integral = 0;
        i++;
        if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
            i++;
        if (i >= p->len || !is_digit((unsigned char)p->s[i])) {
            p->pos = i;
            fail(p, "expected a digit in the exponent");
            return NULL;
        }
        while (i < p->len && is_digit((unsigned char)p->s[i]))
            i++;
    }
    /* strtod/strtoll need a terminated copy (the text may not be). */
    char buf[512];
    if (i - b >= sizeof buf) {
        fail(p, "number too long");
        return NULL;
    }
    memcpy(buf, p->s + b, i - b);
    buf[i - b] = '\0';
    ct_json *v = new_value(p, CT_JSON_NUMBER);
    if (!v)
        return NULL;
    errno = 0;
    v->number = strtod(buf, NULL);
    if (!isfinite(v->number)) {
        free(v);
        fail(p, "number out of range");
        return NULL;
    }
    if (integral) {
        errno = 0;
        long long x = strtoll(buf, NULL, 10);
        if (errno == 0) {
            v->is_integer = 1;
            v->integer = x;
        }
    }
    p->pos = i;
    v->end = i;
    return v;
}

static ct_json *parse_value(parser *p, int depth);

/* Append child (and key, for objects) to v; 0 when out of memory. */
static int append(parser *p, ct_json *v, ct_json *child, char *key)
{
    size_t n = v->n + 1;
    ct_json **items = realloc(v->items, n * sizeof *items);
    if (!items) {
        oom(p);
        return 0;
    }
    v->items = items;
    if (v->type == CT_JSON_OBJECT) {
        char **keys = realloc(v->keys, n * sizeof *keys);
        if (!keys) {
            oom(p);
            return 0;
        }
        v->keys = keys;
        v->keys[v->n] = key;
    }
    v->items[v->n] = child;
    v->n = n;
    return 1;
}

static ct_json *parse_container(parser *p, int depth, int is_object)
{
    if (depth >= CT_JSON_MAX_DEPTH) {
        fail(p, "arrays and objects nested too deeply");
        return NULL;
    }
    ct_json *v = new_value(p, is_object ? CT_JSON_OBJECT : CT_JSON_ARRAY);
    if (!v)
        return NULL;
    const char close = is_object ? '}' : ']';
    p->pos++;   /* past [ or { */
    skip_ws(p);
    if (peek(p) == close) {
        p->pos++;
        v->end = p->pos;
        return v;
    }
    for (;;) {
        char *key = NULL;
        size_t keylen = 0;
        skip_ws(p);
        if (is_object) {
            if (peek(p) != '"') {
                fail(p, peek(p) == close ? "trailing comma in an object" : "expected a string as object key");
                goto bad;
            }
            const size_t key_at = p->pos;
            if (!parse_string_raw(p, &key, &keylen))
                goto bad;
            for (size_t i = 0; i < v->n; i++) {
                if (strcmp(v->keys[i], key) == 0) {
                    p->pos = key_at;
                    fail(p, "duplicate object key");
                    free(key);
                    goto bad;
                }
            }
            skip_ws(p);
            if (peek(p) != ':') {
                fail(p, "expected ':' after an object key");
                free(key);
                goto bad;
            }
            p->pos++;
            skip_ws(p);
        } else if (peek(p) == close) {
            fail(p, "trailing comma in an array");
            goto bad;
        }
        ct_json *child = parse_value(p, depth + 1);
        if (!child) {
            free(key);
            goto bad;
        }
        if (!append(p, v, child, key)) {
            ct_json_free(child);
            free(key);
            goto bad;
        }
        skip_ws(p);
        int c = peek(p);
        if (c == ',') {
            p->pos++;
            continue;
        }
        if (c == close) {
            p->pos++;
            v->end = p->pos;
            return v;
        }
        fail(p, is_object ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array");
        goto bad;
    }
bad:
    ct_json_free(v);
    return NULL;
}

static int literal(parser *p, const char *word)
{
    size_t n = strlen(word);
    if (p->pos + n > p->len || memcmp(p->s + p->pos, word, n) != 0)
        return 0;
    /* "nullx" is not null followed by junk that the caller reports better */
    p->pos += n;
    return 1;
}

static ct_json *parse_value(parser *p, int depth)
{
    int c = peek(p);
    ct_json *v;
    switch (c) {
    case '{':
        return parse_container(p, depth, 1);
    case '[':
        return parse_container(p, depth, 0);
    case '"':
        if (!(v = new_value(p, CT_JSON_STRING)))
            return NULL;
        if (!parse_string_raw(p, &v->str, &v->n)) {
            ct_json_free(v);
            return NULL;
        }
        v->end = p->pos;
        return v;
    case 't':
    case 'f':
    case 'n':
        if (!(v = new_value(p, c == 'n' ? CT_JSON_NULL : CT_JSON_BOOL)))
            return NULL;
        if (literal(p, c == 't' ? "true" : c == 'f' ? "false" : "null")) {
            v->boolean = c == 't';
            v->end = p->pos;
            return v;
        }
        free(v);
        fail(p, "unknown literal (expected true, false or null)");
        return NULL;
    case -1:
        fail(p, "unexpected end of input");
        return NULL;
    default:
        if (c == '-' || is_digit(c))
            return parse_number(p);
        fail(p, "unexpected character");
        return NULL;
    }
}

ct_status ct_json_parse(const char *text, size_t len, ct_json **out, ct_err *e)
{
    parser p = {.s = text, .len = len, .line = 1, .e = e, .st = CT_OK};
    *out = NULL;
    if (!text)
        return ct_fail(e, CT_ERR_INTERNAL, "JSON: no text");
    skip_ws(&p);
    if (p.pos >= p.len) {
        fail(&p, "empty input (expected a JSON value)");
        return p.st;
    }
    ct_json *v = parse_value(&p, 0);
    if (v) {
        skip_ws(&p);
        if (p.pos < p.len) {
            fail(&p, "unexpected text after the JSON value");
            ct_json_free(v);
            v = NULL;
        }
    }
    if (!v)
        return p.st != CT_OK ? p.st : ct_fail(e, CT_ERR_INTERNAL, "JSON: parse failed");
    *out = v;
    return CT_OK;
}

const ct_json *ct_json_get(const ct_json *v, const char *key)
{
    if (!v || v->type != CT_JSON_OBJECT || !key)
        return NULL;
    for (size_t i = 0; i < v->n; i++)
        if (strcmp(v->keys[i], key) == 0)
            return v->items[i];
    return NULL;
}

const char *ct_json_type_name(ct_json_type t)
{
    static const char *const names[] = {"null", "boolean", "number", "string", "array", "object"};
    return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}
