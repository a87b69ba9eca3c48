/* nvrtcdl.c - dlopen of NVRTC (nvrtcdl.h). */
#include "nvrtcdl.h"

#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ct_nvrtc lib;
static ct_status load_rc = CT_ERR_INTERNAL;
static ct_err load_err;
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define CT_XSTR(x) CT_STR(x)
#define CT_STR(x) #x

static void load_once(void)
{
    char soname[32], in_toolkit[1100];
    snprintf(soname, sizeof soname, "libnvrtc.so.%d", CUDA_VERSION / 1000);
    /* The toolkit's folder as the linker saw it (what an RPATH to it gave
     * before): a toolkit outside the loader's search path still works. */
    snprintf(in_toolkit, sizeof in_toolkit, "%s/%s", CT_CUDA_LIB_DIR, soname);
    const char *names[] = {getenv("CONVTUNE_NVRTC"), soname, in_toolkit, "libnvrtc.so"};
    void *h = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !h; i++)
        if (names[i] && *names[i])
            h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        load_rc = ct_fail(&load_err, CT_ERR_COMPILE,
                          "NVRTC not found (%s, also in %s); install the CUDA Toolkit's NVRTC, add its lib folder "
                          "to LD_LIBRARY_PATH or set CONVTUNE_NVRTC to the library", soname, CT_CUDA_LIB_DIR);
        return;
    }
#define SYM(field, name)                                                                     \
    {                                                                                        \
        void *fn = dlsym(h, CT_XSTR(name));                                                  \
        if (!fn) {                                                                           \
            load_rc = ct_fail(&load_err, CT_ERR_COMPILE, "NVRTC lacks %s", CT_XSTR(name));  \
            return;                                                                          \
        }                                                                                    \
        memcpy(&lib.field, &fn, sizeof fn);                                                  \
    }
    SYM(version, nvrtcVersion)
    SYM(error_string, nvrtcGetErrorString)
    SYM(create, nvrtcCreateProgram)
    SYM(compile, nvrtcCompileProgram)
    SYM(log_size, nvrtcGetProgramLogSize)
    SYM(log, nvrtcGetProgramLog)
    SYM(cubin_size, nvrtcGetCUBINSize)
    SYM(cubin, nvrtcGetCUBIN)
    SYM(ptx_size, nvrtcGetPTXSize)
    SYM(ptx, nvrtcGetPTX)
    SYM(destroy, nvrtcDestroyProgram)
#undef SYM
    load_rc = CT_OK;
}

ct_status ct_nvrtc_load(const ct_nvrtc **out, ct_err *e)
{
    pthread_once(&once, load_once);
    if (load_rc != CT_OK) {
        if (e)
            *e = load_err;
        return load_rc;
    }
    *out = &lib;
    return CT_OK;
}
