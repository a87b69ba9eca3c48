/* check.h - the few assertion macros the C tests use. A failed check prints
 * file, line and the expression and makes the test exit non-zero; a test that
 * needs a GPU and finds none exits with CT_TEST_SKIP (CTest's
 * SKIP_RETURN_CODE), never 0. The counters live in the test library
 * (check.c), so its helpers' checks count towards the test's result. */
#ifndef CT_CHECK_H
#define CT_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CT_TEST_SKIP 77

extern int ct_check_failures;
extern int ct_check_count;

#define CHECK(cond) do { ct_check_count++; if (!(cond)) { ct_check_failures++; \
    fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)

#define CHECK_MSG(cond, ...) do { ct_check_count++; if (!(cond)) { ct_check_failures++; \
    fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

#define CHECK_STR(a, b) do { const char *ct_a_ = (a), *ct_b_ = (b); ct_check_count++; \
    if (!ct_a_ || !ct_b_ || strcmp(ct_a_, ct_b_) != 0) { ct_check_failures++; \
    fprintf(stderr, "%s:%d: CHECK_STR failed: \"%s\" != \"%s\"\n", __FILE__, __LINE__, \
            ct_a_ ? ct_a_ : "(null)", ct_b_ ? ct_b_ : "(null)"); } } while (0)

#define CHECK_DONE() do { printf("%d checks, %d failed\n", ct_check_count, ct_check_failures); \
    return ct_check_failures ? 1 : 0; } while (0)

#endif
