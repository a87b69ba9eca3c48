/* gpu.h - what the GPU tests share: skip without a GPU, a scratch
 * directory, shell commands with their output in the test log. */
#ifndef CT_TL_GPU_H
#define CT_TL_GPU_H

#include "runner.h"

/* Open GPU 0 into g, or exit with CTest's skip code when no driver or
 * device is present: a GPU test must never pass vacuously. Any other
 * failure exits 1. */
void tl_gpu_or_skip(ct_gpu *g);

/* A new directory under /tmp (exits 1 when it cannot be made). */
const char *tl_scratch_dir(void);

/* Run a shell command line built with printf formatting; its output goes to
 * the test log. Returns the exit status. */
int tl_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
