/* test_json.c - the strict JSON reader (json.c) behind `convtune db import`:
 * values, spans, escapes and UTF-8, and the inputs it must refuse, each with
 * a message naming line and column. No GPU. */
#include "check.h"
#include "json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ct_json *parse_ok(const char *text)
{
    ct_json *v = NULL;
    ct_err e = {""};
    ct_status st = ct_json_parse(text, strlen(text), &v, &e);
    CHECK_MSG(st == CT_OK && v, "parse [%s]: %s", text, e.msg);
    return v;
}

/* text must be refused with CT_ERR_USAGE and a message containing want. */
static void parse_bad_n(const char *text, size_t len, const char *want)
{
    ct_json *v = (ct_json *)1;
    ct_err e = {""};
    ct_status st = ct_json_parse(text, len, &v, &e);
    CHECK_MSG(st == CT_ERR_USAGE, "[%.*s] accepted (status %d)", (int)len, text, (int)st);
    CHECK_MSG(v == NULL, "[%.*s]: *out not NULL on failure", (int)len, text);
    CHECK_MSG(strncmp(e.msg, "JSON: line ", 11) == 0, "[%.*s]: message [%s] lacks the position", (int)len, text,
              e.msg);
    CHECK_MSG(strstr(e.msg, want) != NULL, "[%.*s]: message [%s] lacks [%s]", (int)len, text, e.msg, want);
    CHECK_MSG(strchr(e.msg, '\n') == NULL, "[%.*s]: message is not one line", (int)len, text);
}

static void parse_bad(const char *text, const char *want)
{
    parse_bad_n(text, strlen(text), want);
}

static void values(void)
{
    ct_json *v = parse_ok(" {\"a\": [1, -2.5e3, 0, true, false, null, \"x\"], \"b\": {}, \"c\": [] }\n");
    if (!v)
        return;
    CHECK(v->type == CT_JSON_OBJECT && v->n == 3);
    CHECK_STR(v->keys[0], "a");
    CHECK_STR(v->keys[2], "c");
    const ct_json *a = ct_json_get(v, "a");
    CHECK(a && a->type == CT_JSON_ARRAY && a->n == 7);
    if (a && a->n == 7) {
        CHECK(a->items[0]->type == CT_JSON_NUMBER && a->items[0]->is_integer && a->items[0]->integer == 1);
        CHECK(a->items[1]->number == -2500.0 && !a->items[1]->is_integer);
        CHECK(a->items[2]->is_integer && a->items[2]->integer == 0);
        CHECK(a->items[3]->type == CT_JSON_BOOL && a->items[3]->boolean == 1);
        CHECK(a->items[4]->type == CT_JSON_BOOL && a->items[4]->boolean == 0);
        CHECK(a->items[5]->type == CT_JSON_NULL);
        CHECK(a->items[6]->type == CT_JSON_STRING && a->items[6]->n == 1);
        CHECK_STR(a->items[6]->str, "x");
    }
    const ct_json *b = ct_json_get(v, "b");
    CHECK(b && b->type == CT_JSON_OBJECT && b->n == 0);
    CHECK(ct_json_get(v, "nope") == NULL);
    CHECK(ct_json_get(a, "a") == NULL);       /* not an object */
    CHECK(ct_json_get(NULL, "a") == NULL);
    ct_json_free(v);

    /* scalars at the top level */
    v = parse_ok("42");
    CHECK(v && v->is_integer && v->integer == 42 && v->number == 42.0);
    ct_json_free(v);
    v = parse_ok("\"\"");
    CHECK(v && v->type == CT_JSON_STRING && v->n == 0 && v->str && v->str[0] == '\0');
    ct_json_free(v);

    /* numbers: exact doubles, integers up to the long long range */
    v = parse_ok("[0.1, 1e-7, 9223372036854775807, 9223372036854775808, -0, 1E+2, 123.456e-2]");
    if (v && v->n == 7) {
        CHECK(v->items[0]->number == 0.1);
        CHECK(v->items[1]->number == 1e-7);
        CHECK(v->items[2]->is_integer && v->items[2]->integer == 9223372036854775807LL);
        CHECK(!v->items[3]->is_integer && v->items[3]->number == 9223372036854775808.0);
        CHECK(v->items[4]->is_integer && v->items[4]->integer == 0);
        CHECK(v->items[5]->number == 100.0 && !v->items[5]->is_integer);
        CHECK(fabs(v->items[6]->number - 1.23456) < 1e-15);
    }
    ct_json_free(v);

    /* escapes and UTF-8 */
    v = parse_ok("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t \\u00e9 \\u20AC \\ud83d\\ude00 \xc3\xa9\"");
    CHECK(v && v->type == CT_JSON_STRING);
    if (v) {
        CHECK_STR(v->str, "a\"b\\c/d\b\f\n\r\t \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc3\xa9");
        CHECK(v->n == strlen(v->str));
    }
    ct_json_free(v);

    /* spans: a nested value can be copied out byte for byte */
    const char *text = "{\"params\": {\"BLOCK_SIZE\":128,\"MASK\":\"shared\"} , \"x\" :1}";
    v = parse_ok(text);
    const ct_json *pp = ct_json_get(v, "params");
    CHECK(pp && pp->type == CT_JSON_OBJECT);
    if (pp) {
        CHECK(pp->end > pp->start);
        CHECK(pp->end - pp->start == strlen("{\"BLOCK_SIZE\":128,\"MASK\":\"shared\"}"));
        CHECK(strncmp(text + pp->start, "{\"BLOCK_SIZE\":128,\"MASK\":\"shared\"}", pp->end - pp->start) == 0);
        CHECK(pp->line == 1 && pp->col == 12);
    }
    const ct_json *x = ct_json_get(v, "x");
    CHECK(x && x->start == strlen(text) - 2 && x->end == strlen(text) - 1);
    ct_json_free(v);

    /* positions on later lines */
    v = parse_ok("[\n  1,\n  \"two\"\n]");
    CHECK(v && v->n == 2 && v->items[1]->line == 3 && v->items[1]->col == 3);
    ct_json_free(v);

    /* the text need not be NUL-terminated */
    char buf[8] = {'[', '1', ']', 'x', 'x', 'x', 'x', 'x'};
    ct_json *w = NULL;
    ct_err e;
    CHECK(ct_json_parse(buf, 3, &w, &e) == CT_OK && w && w->n == 1);
    ct_json_free(w);

    /* nesting up to the limit is fine */
    char deep[2 * CT_JSON_MAX_DEPTH + 1];
    for (int i = 0; i < CT_JSON_MAX_DEPTH; i++) {
        deep[i] = '[';
        deep[2 * CT_JSON_MAX_DEPTH - 1 - i] = ']';
    }
    deep[2 * CT_JSON_MAX_DEPTH] = '\0';
    ct_json_free(parse_ok(deep));

    CHECK_STR(ct_json_type_name(CT_JSON_OBJECT), "object");
    CHECK_STR(ct_json_type_name(CT_JSON_NUMBER), "number");
    ct_json_free(NULL);
}

static void refusals(void)
{
    parse_bad("", "empty input");
    parse_bad("  \n ", "empty input");
    parse_bad("convtune", "unexpected character");
    parse_bad("problem,device\nx,y\n", "unexpected character");
    parse_bad("{", "expected a string as object key");
    parse_bad("[", "unexpected end of input");
    parse_bad("[1,]", "trailing comma in an array");
    parse_bad("{\"a\":1,}", "trailing comma in an object");
    parse_bad("[1 2]", "expected ',' or ']'");
    parse_bad("{\"a\" 1}", "expected ':'");
    parse_bad("{\"a\":1 \"b\":2}", "expected ',' or '}'");
    parse_bad("{a:1}", "expected a string as object key");
    parse_bad("{'a':1}", "expected a string as object key");
    parse_bad("{\"a\":1,\"a\":2}", "duplicate object key");
    parse_bad("[1] [2]", "unexpected text after");
    parse_bad("[1] x", "unexpected text after");
    parse_bad("nul", "unknown literal");
    parse_bad("True", "unexpected character");
    parse_bad("nullx", "unexpected text after");
    parse_bad("// c\n1", "unexpected character");
    parse_bad("[1] /* c */", "unexpected text after");
    /* numbers */
    parse_bad("01", "leading zero");
    parse_bad("-", "expected a digit");
    parse_bad("+1", "unexpected character");
    parse_bad("1.", "after the decimal point");
    parse_bad(".5", "unexpected character");
    parse_bad("1e", "exponent");
    parse_bad("1e+", "exponent");
    parse_bad("1e400", "out of range");
    parse_bad("-1e400", "out of range");
    parse_bad("NaN", "unexpected character");
    parse_bad("Infinity", "unexpected character");
    parse_bad("0x10", "unexpected text after");
    /* strings */
    parse_bad("\"abc", "unterminated string");
    parse_bad("\"abc\\", "unterminated string");
    parse_bad("\"a\tb\"", "control character");
    parse_bad("\"a\nb\"", "control character");
    parse_bad("\"\\x41\"", "invalid escape");
    parse_bad("\"\\u12\"", "four hexadecimal digits");
    parse_bad("\"\\u12G4\"", "four hexadecimal digits");
    parse_bad("\"\\ud83d\"", "unpaired");
    parse_bad("\"\\ud83d\\u0041\"", "unpaired");
    parse_bad("\"\\ude00\"", "unpaired");
    parse_bad("\"\\u0000\"", "\\u0000");
    parse_bad("\"\xff\"", "invalid UTF-8");
    parse_bad("\"\xc3\"", "invalid UTF-8");
    parse_bad("\"\xc0\xaf\"", "invalid UTF-8");               /* overlong '/' */
    parse_bad("\"\xed\xa0\x80\"", "invalid UTF-8");           /* a surrogate */
    parse_bad("\"\xf4\x90\x80\x80\"", "invalid UTF-8");       /* past U+10FFFF */
    parse_bad_n("[\"a\0b\"]", 7, "control character");        /* a NUL byte */
    parse_bad_n("[1]\0", 4, "unexpected text after");
    parse_bad("\xef\xbb\xbf[1]", "unexpected character");     /* no BOM */
    /* the position: line and column of the offending byte */
    parse_bad("{\n  \"a\": 1,\n  \"b\" 2\n}", "line 3, column 7");
    parse_bad("[1,\n2,\n]", "line 3, column 1");
    parse_bad("{\"k\":1,\n \"k\":2}", "line 2, column 2: duplicate object key");

    /* too deep: refused, not a stack overflow */
    size_t n = 100000;
    char *deep = malloc(n + 1);
    if (deep) {
        memset(deep, '[', n);
        deep[n] = '\0';
        parse_bad(deep, "nested too deeply");
        memset(deep, '{', n);
        parse_bad(deep, "expected a string as object key");
        for (size_t i = 0; i + 5 <= n; i += 5)
            memcpy(deep + i, "{\"a\":", 5);
        deep[n - n % 5] = '\0';
        parse_bad(deep, "nested too deeply");
        free(deep);
    }
    char over[2 * (CT_JSON_MAX_DEPTH + 1) + 1];
    for (int i = 0; i <= CT_JSON_MAX_DEPTH; i++) {
        over[i] = '[';
        over[2 * CT_JSON_MAX_DEPTH + 1 - i] = ']';
    }
    over[2 * (CT_JSON_MAX_DEPTH + 1)] = '\0';
    parse_bad(over, "nested too deeply");

    /* a NULL text is an internal error, not a crash */
    ct_json *v = NULL;
    ct_err e;
    CHECK(ct_json_parse(NULL, 0, &v, &e) == CT_ERR_INTERNAL && v == NULL);
}

/* Every prefix of a valid document must be refused (never read past the
 * given length), and every prefix-and-a-byte must not crash. */
static void truncations(void)
{
    const char *doc = "{\"records\":[{\"a\":\"\\u00e9\\ud83d\\ude00x\",\"b\":-1.5e-3,\"c\":[true,false,null]}]}";
    size_t len = strlen(doc);
    for (size_t i = 0; i < len; i++) {
        char *copy = malloc(i ? i : 1);
        memcpy(copy, doc, i);
        ct_json *v = NULL;
        ct_err e;
        CHECK_MSG(ct_json_parse(copy, i, &v, &e) == CT_ERR_USAGE && v == NULL, "prefix of %zu bytes accepted", i);
        free(copy);
    }
    ct_json_free(parse_ok(doc));
}

int main(void)
{
    values();
    refusals();
    truncations();
    CHECK_DONE();
}
