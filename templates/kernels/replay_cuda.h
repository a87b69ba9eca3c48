// replay_cuda.h: replay_std.h and CUDA's headers, which a bf16 or f16
// replay includes (replay_shim.h: their host conversions); precompiled as
// replay_std.h is, for the replays of a half type.
#ifndef REPLAY_CUDA_H
#define REPLAY_CUDA_H
#include "replay_std.h"
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif
