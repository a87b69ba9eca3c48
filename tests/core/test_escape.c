/* test_escape.c - the escapers of generated text (tuner/core/escape.h) on
 * random byte strings and hostile ones: the output is printable ASCII, holds
 * nothing that ends its context (a quote in a string, "??" or a backslash
 * in a comment), decodes back to the input by the target language's rules,
 * and a cut output ends in "..." with a decodable prefix of the input. */
#include <stdint.h>

#include "check.h"
#include "escape.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static unsigned next_byte(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 56);
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                                                                      : -1;
}

/* Decodes out by the rules of lang ('c' comment, 's' C string, 'p' Python)
 * into dec; returns 0 on a sequence the language would read otherwise. */
static int decode(char lang, const char *out, char *dec, size_t *n)
{
    size_t o = 0;
    for (const char *p = out; *p;) {
        if (*p != '\\') {
            dec[o++] = *p++;
            continue;
        }
        p++;
        if (*p == 'x' && hexval(p[1]) >= 0 && hexval(p[2]) >= 0 && (lang == 'c' || lang == 'p')) {
            dec[o++] = (char)(hexval(p[1]) * 16 + hexval(p[2]));
            p += 3;
        } else if (lang == 's' && p[0] >= '0' && p[0] <= '3' && p[1] >= '0' && p[1] <= '7' && p[2] >= '0' &&
                   p[2] <= '7') {
            dec[o++] = (char)((p[0] - '0') * 64 + (p[1] - '0') * 8 + (p[2] - '0'));
            p += 3;
        } else if (lang != 'c' && (*p == '"' || *p == '\\' || (lang == 's' && *p == '?'))) {
            dec[o++] = *p++;
        } else {
            return 0;
        }
    }
    *n = o;
    return 1;
}

static const char *escaped(char lang, const char *in, char *out, size_t len)
{
    return lang == 'c' ? ct_esc_c_comment(in, out, len) : lang == 's' ? ct_esc_c_string(in, out, len)
                                                                      : ct_esc_py_string(in, out, len);
}

/* The properties every escaped text must have in its context. */
static void check_one(char lang, const char *in, size_t inlen, size_t outlen)
{
    char out[4096], dec[4096];
    const char *r = escaped(lang, in, out, outlen);
    CHECK(r == out);
    const size_t len = strlen(out);
    CHECK_MSG(len < outlen, "%c: %zu bytes in a buffer of %zu", lang, len, outlen);
    for (size_t i = 0; i < len; i++)
        CHECK_MSG(out[i] >= 0x20 && out[i] < 0x7f, "%c: byte 0x%02x at %zu", lang, (unsigned char)out[i], i);
    /* An unescaped quote ends a string; "??" can make a trigraph. */
    for (size_t i = 0; i < len; i++) {
        if (lang != 'c' && out[i] == '"') {
            size_t bs = 0;
            while (bs < i && out[i - 1 - bs] == '\\')
                bs++;
            CHECK_MSG(bs % 2 == 1, "%c: bare quote at %zu in [%s]", lang, i, out);
        }
        if (lang == 'c' && i + 1 < len)
            CHECK_MSG(!(out[i] == '?' && out[i + 1] == '?'), "comment: ?? at %zu", i);
    }
    /* The whole text where it fits; otherwise a prefix of it that ends
     * between escapes, then "...". */
    char full[4096];
    escaped(lang, in, full, sizeof full);
    size_t n = 0;
    if (strlen(full) < outlen) {
        CHECK_STR(out, full);
        CHECK_MSG(decode(lang, out, dec, &n) && n == inlen && !memcmp(dec, in, n), "%c: [%s] decodes otherwise",
                  lang, out);
        return;
    }
    CHECK_MSG(len >= 3 && !strcmp(out + len - 3, "..."), "%c: cut [%s] without ...", lang, out);
    out[len - 3] = '\0';
    CHECK_MSG(!strncmp(full, out, len - 3), "%c: cut [%s] is not a prefix of the whole", lang, out);
    CHECK_MSG(decode(lang, out, dec, &n) && n <= inlen && !memcmp(dec, in, n), "%c: cut [%s] splits an escape",
              lang, out);
}

int main(void)
{
    static const char *const hostile[] = {
        "H100\"\"\"\nopen(\"PWNED\",\"w\")\n\"\"\"",
        "ends in a backslash \\",
        "trigraph ?\?/\nint pwned;",
        "*/ #error PWNED /*",
        "\"); system(\"id\"); //",
        "<script>alert('x')</script>",
        "tab\tcr\rdel\x7f bytes \xc3\xa9\xff\x80",
        "?\?\?/?\?\?",
        "",
    };
    const char langs[] = {'c', 's', 'p'};
    for (size_t h = 0; h < sizeof hostile / sizeof hostile[0]; h++)
        for (int l = 0; l < 3; l++)
            for (size_t outlen = 8; outlen <= 1024; outlen = outlen * 2 + 1)
                check_one(langs[l], hostile[h], strlen(hostile[h]), outlen);
    /* Random bytes (no NUL) of random lengths, cut and uncut. */
    for (int t = 0; t < 3000; t++) {
        char in[200];
        const size_t n = next_byte() % 199;
        for (size_t i = 0; i < n; i++) {
            unsigned b;
            do
                b = next_byte();
            while (!b);
            in[i] = (char)b;
        }
        in[n] = '\0';
        check_one(langs[t % 3], in, n, t % 2 ? 1000 : 8 + next_byte() % 100);
    }
    /* The escapes people read: a quote, a backslash and a newline. */
    char out[64];
    CHECK_STR(ct_esc_py_string("a\"b\\c\nd", out, sizeof out), "a\\\"b\\\\c\\x0ad");
    CHECK_STR(ct_esc_c_string("a\"b\\c\n?1", out, sizeof out), "a\\\"b\\\\c\\012\\?1");
    CHECK_STR(ct_esc_c_comment("x\\ ?\?/ y\n", out, sizeof out), "x\\x5c \\x3f?/ y\\x0a");
    CHECK_STR(ct_esc_c_comment("NVIDIA H100 80GB HBM3", out, sizeof out), "NVIDIA H100 80GB HBM3");
    CHECK_STR(ct_esc_py_string("abcdefghijklmnop", out, 10), "abcdef...");
    CHECK_STR(ct_esc_c_string("\"\"\"\"\"\"", out, 10), "\\\"\\\"\\\"...");
    CHECK_DONE();
}
