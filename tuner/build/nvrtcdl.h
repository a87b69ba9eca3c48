/* nvrtcdl.h - NVRTC, loaded when a command first compiles (dlopen), not
 * when convtune starts: loading the library costs a process about 12 ms and
 * 1,800 page faults, which every `query`, `export`, `space` or refused
 * command paid without compiling anything (the test suite runs convtune
 * thousands of times). */
#ifndef CT_NVRTCDL_H
#define CT_NVRTCDL_H

#include <nvrtc.h>

#include "status.h"

typedef struct ct_nvrtc {
    __typeof__(&nvrtcVersion) version;
    __typeof__(&nvrtcGetErrorString) error_string;
    __typeof__(&nvrtcCreateProgram) create;
    __typeof__(&nvrtcCompileProgram) compile;
    __typeof__(&nvrtcGetProgramLogSize) log_size;
    __typeof__(&nvrtcGetProgramLog) log;
    __typeof__(&nvrtcGetCUBINSize) cubin_size;
    __typeof__(&nvrtcGetCUBIN) cubin;
    __typeof__(&nvrtcGetPTXSize) ptx_size;
    __typeof__(&nvrtcGetPTX) ptx;
    __typeof__(&nvrtcDestroyProgram) destroy;
} ct_nvrtc;

/* Load libnvrtc once: $CONVTUNE_NVRTC, else the soname of the toolkit
 * convtune was built with (libnvrtc.so.13) from the loader's search path,
 * then from that toolkit's library folder, then libnvrtc.so. CT_ERR_COMPILE
 * naming what was tried when none loads. */
ct_status ct_nvrtc_load(const ct_nvrtc **out, ct_err *e);

#endif
