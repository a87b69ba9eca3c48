/* gpu_common.h - the GPU tests' helpers, now in the test library
 * (tests/lib/gpu.h); the old names stay for the tests that use them. */
#ifndef CT_GPU_COMMON_H
#define CT_GPU_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"
#include "lib/gpu.h"

#define gpu_or_skip tl_gpu_or_skip
#define scratch_dir tl_scratch_dir
#define sh tl_sh

#endif
