/* gpu_common.h - helpers shared by the GPU tests: skip without a GPU, a
 * scratch directory, running the convtune binary. */
#ifndef CT_GPU_COMMON_H
#define CT_GPU_COMMON_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"
#include "runner.h"

/* Exit with CTest's skip code when no driver or device is present: a GPU
 * test must never pass vacuously. */
static inline void gpu_or_skip(ct_gpu *g)
{
    ct_err e;
    ct_status rc = ct_gpu_open(0, g, &e);
    if (rc == CT_ERR_NO_GPU) {
        printf("SKIPPED: %s\n", e.msg);
        exit(CT_TEST_SKIP);
    }
    if (rc != CT_OK) {
        fprintf(stderr, "cannot open GPU 0: %s\n", e.msg);
        exit(1);
    }
}

static char scratch[256];

static inline const char *scratch_dir(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/convtune-gputest-XXXXXX");
    if (!mkdtemp(scratch)) {
        perror("mkdtemp");
        exit(1);
    }
    return scratch;
}

/* Run a shell command line built with printf formatting; its output goes to
 * the test log. Returns the exit status. */
static inline int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int sh(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    printf("$ %s\n", cmd);
    fflush(stdout);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

#endif
