/* test_text.c - user text into fixed buffers and messages (text.h) and the
 * paths made from the environment: a path is copied whole or refused with
 * "path too long", never cut; a quoted text is bounded and escaped, one
 * line whatever it holds; the cache folder ignores a relative
 * XDG_CACHE_HOME (the XDG spec) and refuses a CONVTUNE_CACHE that does not
 * fit (probe cases S023, S024). No GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "check.h"
#include "text.h"

static void paths(void)
{
    char buf[16];
    ct_err e;
    CHECK(ct_path_copy(buf, sizeof buf, "abc", "--x", CT_ERR_USAGE, &e) == CT_OK && !strcmp(buf, "abc"));
    CHECK(ct_path_join(buf, sizeof buf, "/a", "/b.db", "--x", CT_ERR_USAGE, &e) == CT_OK && !strcmp(buf, "/a/b.db"));
    /* 15 characters fit in 16 bytes; 16 do not, and nothing is kept */
    CHECK(ct_path_copy(buf, sizeof buf, "123456789012345", "--x", CT_ERR_USAGE, &e) == CT_OK);
    CHECK(ct_path_copy(buf, sizeof buf, "1234567890123456", "--db", CT_ERR_USAGE, &e) == CT_ERR_USAGE && !buf[0]);
    CHECK_MSG(!strcmp(e.msg, "--db: path too long (16 characters, at most 15): 1234567890123456..."), "[%s]", e.msg);
    CHECK(ct_path_join(buf, sizeof buf, "/0123456789", "/cubin", "HOME", CT_ERR_IO, &e) == CT_ERR_IO && !buf[0]);
    CHECK_MSG(strstr(e.msg, "HOME: path too long (17 characters, at most 15)"), "[%s]", e.msg);
    /* the quoted head of a hostile path stays one line */
    CHECK(ct_path_copy(buf, sizeof buf, "a\nb\tc\033ddddddddddddddddd", "-o", CT_ERR_IO, &e) == CT_ERR_IO);
    CHECK_MSG(!strchr(e.msg, '\n') && strstr(e.msg, "a\\nb\\tc\\x1bd"), "[%s]", e.msg);
}

static void echo(void)
{
    char out[CT_ECHO_LEN];
    CHECK(!strcmp(ct_echo("conv1d:10:3", out, sizeof out), "conv1d:10:3"));
    CHECK(!strcmp(ct_echo("a\nb\\c\r\x7f", out, sizeof out), "a\\nb\\\\c\\r\\x7f"));
    CHECK(!strcmp(ct_echo(NULL, out, sizeof out), ""));
    /* 100,000 digits: the first CT_ECHO_MAX and "..." */
    size_t n = 100000;
    char *big = malloc(n + 1);
    memset(big, '1', n);
    big[n] = '\0';
    ct_echo(big, out, sizeof out);
    CHECK_MSG(strlen(out) == CT_ECHO_MAX + 3 && !strcmp(out + CT_ECHO_MAX, "..."), "[%s]", out);
    /* exactly CT_ECHO_MAX characters: no "..." */
    big[CT_ECHO_MAX] = '\0';
    CHECK(!strcmp(ct_echo(big, out, sizeof out), big));
    /* every one a control character: each escaped to 4, all of it fits */
    memset(big, '\001', n);
    ct_echo(big, out, sizeof out);
    CHECK_MSG(strlen(out) == CT_ECHO_MAX * 4 + 3 && !strncmp(out, "\\x01\\x01", 8), "[%s]", out);
    /* a UTF-8 character is never cut in two (two bytes each here) */
    for (size_t i = 0; i + 1 < n; i += 2)
        memcpy(big + i, "\xc3\xa9", 2);
    big[n - 1] = '\0';
    ct_echo(big, out, sizeof out);
    CHECK_MSG(strlen(out) == CT_ECHO_MAX * 2 + 3 && (unsigned char)out[CT_ECHO_MAX * 2 - 1] == 0xa9, "[%s]", out);
    /* a small buffer: cut at a whole escape, terminated */
    char small[5];
    CHECK_MSG(!strcmp(ct_echo("ab\ncd", small, sizeof small), "ab\\n"), "[%s]", small);
    free(big);
}

static void cache_dir(void)
{
    char dir[CT_PATH_MAX], big[1100];
    ct_err e;
    unsetenv("CONVTUNE_CACHE");
    setenv("HOME", "/home/u", 1);
    /* S023: a relative XDG_CACHE_HOME is ignored */
    setenv("XDG_CACHE_HOME", "relcache", 1);
    CHECK(ct_cache_default_dir(dir, sizeof dir, &e) == CT_OK);
    CHECK_MSG(!strcmp(dir, "/home/u/.cache/convtune/cubin"), "relative XDG_CACHE_HOME used: %s", dir);
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    CHECK(ct_cache_default_dir(dir, sizeof dir, &e) == CT_OK && !strcmp(dir, "/xdg/convtune/cubin"));
    setenv("CONVTUNE_CACHE", "/shared/cubin", 1);
    CHECK(ct_cache_default_dir(dir, sizeof dir, &e) == CT_OK && !strcmp(dir, "/shared/cubin"));
    /* S024: a CONVTUNE_CACHE that does not fit is refused, not cut */
    memset(big, 'c', sizeof big - 1);
    big[0] = '/';
    big[sizeof big - 1] = '\0';
    setenv("CONVTUNE_CACHE", big, 1);
    CHECK(ct_cache_default_dir(dir, sizeof dir, &e) == CT_ERR_USAGE);
    CHECK_MSG(strstr(e.msg, "CONVTUNE_CACHE: path too long (1099 characters, at most 1023)"), "[%s]", e.msg);
    /* nor an XDG_CACHE_HOME that only overflows with /convtune/cubin */
    unsetenv("CONVTUNE_CACHE");
    big[1015] = '\0';
    setenv("XDG_CACHE_HOME", big, 1);
    CHECK(ct_cache_default_dir(dir, sizeof dir, &e) == CT_ERR_USAGE && strstr(e.msg, "XDG_CACHE_HOME: path too long"));
    unsetenv("XDG_CACHE_HOME");
    unsetenv("HOME");
    CHECK(ct_cache_default_dir(dir, sizeof dir, &e) == CT_ERR_IO);
}

int main(void)
{
    paths();
    echo();
    cache_dir();
    CHECK_DONE();
}
