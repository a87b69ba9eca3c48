/* export_run.h - what the export tests that run convtune and nvcc share
 * (test_export_*.c): a scratch directory, the binary and tools run in it
 * with captured output and a time limit, the compile of an export with its
 * header, the one-line refusal check and text checks. Include once per test, after
 * export_common.h, having defined CT_EXPORT_TEST_NAME (a word of the
 * scratch directory's name). */
#ifndef CT_EXPORT_RUN_H
#define CT_EXPORT_RUN_H

#include <stdarg.h>

#include "export_common.h"

#define TIMEOUT_S 300

static char base[] = "/tmp/ct_test_" CT_EXPORT_TEST_NAME "_XXXXXX";
static char work[512];     /* base/work: the children's working directory */

/* base and work made; 0 (after saying why) when they cannot be. */
static inline int scratch_dirs(void)
{
    if (!mkdtemp(base)) {
        perror("mkdtemp");
        return 0;
    }
    snprintf(work, sizeof work, "%s/work", base);
    if (mkdir(work, 0700) != 0) {
        perror("mkdir");
        return 0;
    }
    return 1;
}

static inline void path_in(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", work, name);
}

/* The scratch database t.db in the work directory, made and opened for
 * writing; NULL (the failed check counted) when it does not open. */
static inline ct_db *scratch_db(void)
{
    char dbpath[600];
    path_in(dbpath, sizeof dbpath, "t.db");
    ct_db *db = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_db_open(dbpath, 1, &db, &e) == CT_OK, "%s: %s", dbpath, e.msg);
    return db;
}

/* convtune ARGS... (NULL-terminated) in the work directory. */
static inline void convtune(tc_result *r, ...)
{
    va_list ap;
    va_start(ap, r);
    tc_convtune_v(work, base, TIMEOUT_S, r, ap);
    va_end(ap);
}

/* A command that must fail with code, one stderr line containing want and
 * nothing on stdout. */
static inline void fails(tc_result *r, int code, const char *want, const char *what)
{
    CHECK_MSG(r->code == code, "%s: exit %d, expected %d; stderr: %s", what, r->code, code, r->err);
    CHECK_MSG(tc_one_line(r), "%s: stderr is not one line: [%s]", what, r->err);
    CHECK_MSG(strstr(r->err, want) != NULL, "%s: stderr [%s] lacks [%s]", what, r->err, want);
    CHECK_MSG(r->outlen == 0, "%s: stdout not empty: %s", what, r->out);
    tc_result_free(r);
}

/* A tool (nvcc, gcc, python3) in the work directory; its exit status, its
 * output printed when it failed. */
static inline int run_tool(const char *what, char *const *argv)
{
    tc_result r;
    tc_run(argv, work, base, TIMEOUT_S, &r);
    int code = r.code;
    if (code != 0)
        fprintf(stderr, "%s -> %d:\n%s%s\n", what, code, r.out, r.err);
    tc_result_free(&r);
    return code;
}

/* nvcc -c cu for arch (a -gencode or -arch flag) into obj, warnings as
 * errors, with the export's header h included first: one compile checks
 * that the .cu builds and that it agrees with its header. Its exit status
 * (run_tool). */
static inline int nvcc_with_header(const char *arch, const char *h, const char *cu, const char *obj)
{
    char *nv[] = {"nvcc", (char *)arch, "-Werror=all-warnings", "-include", (char *)h, "-c", (char *)cu, "-o",
                  (char *)obj, NULL};
    return run_tool("nvcc -include H -c CU", nv);
}

/* Whether nvcc is on PATH; where not, a failed check: the toolkit's
 * compiler is a prerequisite of the tests that compile exports. */
static inline int nvcc_on_path(void)
{
    char path[600];
    const int have = tc_which("nvcc", path, sizeof path);
    CHECK_MSG(have, "nvcc is not on PATH: the CUDA toolkit's compiler is a prerequisite of these tests");
    return have;
}

static inline int contains(const char *s, const char *want, const char *file)
{
    int ok = s && strstr(s, want) != NULL;
    CHECK_MSG(ok, "%s lacks [%s]", file, want);
    return ok;
}

static inline void lacks(const char *s, const char *bad, const char *file)
{
    CHECK_MSG(s && !strstr(s, bad), "%s holds [%s]", file, bad);
}

#endif
