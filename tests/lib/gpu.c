/* gpu.c - see gpu.h. */
#include "gpu.h"

#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void tl_gpu_or_skip(ct_gpu *g)
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

const char *tl_scratch_dir(void)
{
    static char scratch[256];
    snprintf(scratch, sizeof scratch, "/tmp/convtune-gputest-XXXXXX");
    if (!mkdtemp(scratch)) {
        perror("mkdtemp");
        exit(1);
    }
    return scratch;
}

int tl_sh(const char *fmt, ...)
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
