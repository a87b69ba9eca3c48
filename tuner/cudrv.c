/* cudrv.c - dlopen of the driver and resolution of its entry points. */
#include "cudrv.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static ct_drv drv;
static ct_status load_rc = CT_ERR_INTERNAL;
static ct_err load_err;
static pthread_once_t once = PTHREAD_ONCE_INIT;

typedef CUresult (*get_proc_fn)(const char *, void **, int, cuuint64_t,
                                CUdriverProcAddressQueryResult *);

static void load_once(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        load_rc = ct_fail(&load_err, CT_ERR_NO_GPU,
                          "no NVIDIA driver found (cannot load libcuda.so.1); this command needs a GPU");
        return;
    }
    get_proc_fn get_proc = (get_proc_fn)dlsym(h, "cuGetProcAddress_v2");
    if (!get_proc) {
        load_rc = ct_fail(&load_err, CT_ERR_NO_GPU,
                          "the NVIDIA driver is too old (no cuGetProcAddress_v2); CUDA %d.%d or newer is needed",
                          CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
        return;
    }
#define CT_DRV_RESOLVE(name)                                                                    \
    {                                                                                           \
        CUdriverProcAddressQueryResult q;                                                       \
        void *fn = NULL;                                                                        \
        if (get_proc(#name, &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &q) != CUDA_SUCCESS \
            || !fn) {                                                                           \
            load_rc = ct_fail(&load_err, CT_ERR_NO_GPU,                                         \
                              "the NVIDIA driver lacks %s for CUDA %d; update the driver", #name, \
                              CUDA_VERSION);                                                    \
            return;                                                                             \
        }                                                                                       \
        memcpy(&drv.name, &fn, sizeof fn);                                                      \
    }
    CT_DRV_FN(CT_DRV_RESOLVE)
#undef CT_DRV_RESOLVE
    CUresult r = drv.cuInit(0);
    if (r == CUDA_ERROR_NO_DEVICE) {
        load_rc = ct_fail(&load_err, CT_ERR_NO_GPU, "the NVIDIA driver reports no CUDA device");
        return;
    }
    if (r != CUDA_SUCCESS) {
        load_rc = ct_drv_fail(&load_err, r, "cuInit(0)");
        load_rc = CT_ERR_NO_GPU;
        return;
    }
    load_rc = CT_OK;
}

ct_status ct_drv_load(const ct_drv **out, ct_err *e)
{
    pthread_once(&once, load_once);
    if (load_rc != CT_OK) {
        if (e)
            *e = load_err;
        return load_rc;
    }
    *out = &drv;
    return CT_OK;
}

ct_status ct_drv_fail(ct_err *e, CUresult r, const char *call)
{
    const char *name = NULL, *text = NULL;
    if (drv.cuGetErrorName)
        drv.cuGetErrorName(r, &name);
    if (drv.cuGetErrorString)
        drv.cuGetErrorString(r, &text);
    return ct_fail(e, CT_ERR_CUDA, "%s: %s (%d): %s", call, name ? name : "CUDA error", (int)r,
                   text ? text : "unknown");
}
