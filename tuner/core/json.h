/* json.h - a small, strict JSON reader (RFC 8259) for `convtune db import`.
 *
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
 * parses. The one writer behind every JSON convtune prints. */
void ct_json_write_string(FILE *f, const char *s);

#endif
