/* json.h - the one JSON reader (strict, RFC 8259) and the one JSON writer.
 *
 * Reader: `db import` files, stored parameters, query output checks.
 * The whole text is parsed into a tree of ct_json values. Strict means:
 * exactly one value with only JSON whitespace around it, no comments, no
 * trailing commas, no duplicate object keys, no raw control characters in
 * strings, valid UTF-8 only, escapes as the RFC lists them with surrogate
 * pairs matched, no \u0000 (strings are C strings), numbers in the RFC's
 * grammar and finite as doubles, and at most CT_JSON_MAX_DEPTH nested
 * arrays and objects. A failure is one message naming line and column:
 *     "JSON: line 3, column 14: expected ':' after an object key"
 *
 * Every value records where it is in the text (start, end), so a caller can
 * copy a nested object out byte for byte (import keeps a record's params
 * text exactly as exported). */
#ifndef CT_JSON_H
#define CT_JSON_H

#include <stddef.h>
#include <stdio.h>
#include "status.h"

#define CT_JSON_MAX_DEPTH 64

typedef enum ct_json_type {
    CT_JSON_NULL,
    CT_JSON_BOOL,
    CT_JSON_NUMBER,
    CT_JSON_STRING,
    CT_JSON_ARRAY,
    CT_JSON_OBJECT
} ct_json_type;

typedef struct ct_json ct_json;
struct ct_json {
    ct_json_type type;
    int boolean;                /* BOOL: 0 or 1 */
    double number;              /* NUMBER: its value */
    int is_integer;             /* NUMBER: written without fraction or exponent and fits */
    long long integer;          /*   ... in a long long, which is then its value */
    char *str;                  /* STRING: decoded UTF-8, NUL-terminated */
    size_t n;                   /* STRING: bytes in str; ARRAY/OBJECT: members */
    ct_json **items;            /* ARRAY: elements; OBJECT: values */
    char **keys;                /* OBJECT: keys (decoded), in text order */
    size_t start, end;          /* the value is text[start, end) */
    int line, col;              /* where it starts, 1-based */
};

/* Parse text[0, len) (it need not be NUL-terminated). On success *out is
 * the root, to be released with ct_json_free. On failure *out is NULL, e
 * holds the message and the status is CT_ERR_USAGE (bad input) or
 * CT_ERR_INTERNAL (out of memory). */
ct_status ct_json_parse(const char *text, size_t len, ct_json **out, ct_err *e);

void ct_json_free(ct_json *v);

/* The value of key in an object, or NULL (also when v is not an object). */
const ct_json *ct_json_get(const ct_json *v, const char *key);

/* "null", "boolean", "number", "string", "array" or "object". */
const char *ct_json_type_name(ct_json_type t);

/* Length of the valid UTF-8 sequence at s[0, avail) (1..4), or 0 if the
 * bytes are not one (RFC 3629: overlong forms, surrogates and values past
 * U+10FFFF are invalid). Continuation bytes are read in order and a NUL is
 * never one, so a NUL-terminated string may pass SIZE_MAX as avail. */
int ct_utf8_len(const unsigned char *s, size_t avail);

/* Write NUL-terminated s as a JSON string: quotes, backslashes and control
 * characters escaped, invalid UTF-8 bytes as U+FFFD, so the output always
 * parses. */
void ct_json_write_string(FILE *f, const char *s);

/* The writer: objects, arrays, strings, numbers, written as they come to a
 * FILE or into a buffer, with the commas and the separators of one style:
 * compact ({"a":1,"b":2}) or spaced ({"a": 1, "b": 2}, query output).
 * key is a member's name inside an object and NULL elsewhere.
 *
 *     ct_jw w;
 *     ct_jw_file(&w, stdout, 0);
 *     ct_jw_object(&w, NULL);
 *     ct_jw_string(&w, "problem", p);
 *     ct_jw_number(&w, "median_us", "%.4f", us);
 *     ct_jw_end(&w);
 */
typedef struct ct_jw {
    FILE *f;                           /* the sink, or NULL for buf */
    char *buf;
    size_t len, used;                  /* used > len - 1: the buffer was too small */
    int spaced;
    int depth;
    char close[CT_JSON_MAX_DEPTH];     /* '}' or ']' of each open container */
    unsigned char members[CT_JSON_MAX_DEPTH];  /* something written in it */
} ct_jw;

void ct_jw_file(ct_jw *w, FILE *f, int spaced);
/* Into buf (always NUL-terminated); ct_jw_fits says whether it was big enough. */
void ct_jw_buffer(ct_jw *w, char *buf, size_t len, int spaced);
int ct_jw_fits(const ct_jw *w);

void ct_jw_object(ct_jw *w, const char *key);
void ct_jw_array(ct_jw *w, const char *key);
void ct_jw_end(ct_jw *w);               /* closes the innermost object or array */
void ct_jw_string(ct_jw *w, const char *key, const char *s);
void ct_jw_string_or_null(ct_jw *w, const char *key, const char *s);   /* "" is null */
void ct_jw_int(ct_jw *w, const char *key, long long v);
void ct_jw_uint(ct_jw *w, const char *key, unsigned long long v);
/* v with a printf format for one double ("%.4f"); null when not finite. */
void ct_jw_number(ct_jw *w, const char *key, const char *fmt, double v);
void ct_jw_null(ct_jw *w, const char *key);
/* A value that is already JSON text (a stored object, byte for byte). */
void ct_jw_raw(ct_jw *w, const char *key, const char *json);

#endif
