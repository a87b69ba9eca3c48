/* cufftdl.c - dlopen of cuFFT. */
#include "cufftdl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static ct_cufft lib;
static ct_status load_rc = CT_ERR_INTERNAL;
static ct_err load_err;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load_once(void)
{
    const char *names[] = {getenv("CONVTUNE_CUFFT"), "libcufft.so.12", "libcufft.so.11", "libcufft.so"};
    void *h = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !h; i++)
        if (names[i] && *names[i])
            h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        load_rc = ct_fail(&load_err, CT_ERR_NO_GPU,
                          "cuFFT not found (libcufft.so.12); install the CUDA Toolkit's cuFFT or set CONVTUNE_CUFFT");
        return;
    }
#define SYM(field, name)                                                                        \
    {                                                                                           \
        void *fn = dlsym(h, name);                                                              \
        if (!fn) {                                                                              \
            load_rc = ct_fail(&load_err, CT_ERR_NO_GPU, "cuFFT lacks %s", name);                \
            return;                                                                             \
        }                                                                                       \
        memcpy(&lib.field, &fn, sizeof fn);                                                     \
    }
    SYM(create, "cufftCreate")
    SYM(plan_many, "cufftPlanMany")
    SYM(exec_r2c, "cufftExecR2C")
    SYM(exec_c2r, "cufftExecC2R")
    SYM(set_stream, "cufftSetStream")
    SYM(destroy, "cufftDestroy")
    SYM(get_version, "cufftGetVersion")
#undef SYM
    load_rc = CT_OK;
}

ct_status ct_cufft_load(const ct_cufft **out, ct_err *e)
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

const char *ct_cufft_error(cufftResult r)
{
    switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED (out of device memory)";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    default: return "cuFFT error";
    }
}
