/* gpu_common.h - the GPU tests' helpers under the names the GPU tests use
 * (the functions are gpu.h's). */
#ifndef CT_GPU_COMMON_H
#define CT_GPU_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"
#include "gpu.h"

#define gpu_or_skip tl_gpu_or_skip
#define scratch_dir tl_scratch_dir
#define sh tl_sh

#endif
