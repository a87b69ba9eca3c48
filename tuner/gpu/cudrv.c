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

static void load_once(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        load_rc = ct_fail(&load_err, CT_ERR_NO_GPU,
                          "no NVIDIA driver found (cannot load libcuda.so.1); this command needs a GPU");
        return;
    }
    /* Each entry point is looked up under the name cuda.h maps it to
     * (cuMemAlloc -> cuMemAlloc_v2), so its ABI is exactly the prototype we
     * compile against. cuGetProcAddress by base name is not: for CUDA 13 it
     * returns cuCtxSynchronize_v2(CUcontext) for cuCtxSynchronize(void). */
#define CT_XSTR(x) CT_STR(x)
#define CT_STR(x) #x
#define CT_DRV_RESOLVE(name)                                                             \
    {                                                                                    \
        void *fn = dlsym(h, CT_XSTR(name));                                              \
        if (!fn) {                                                                       \
            load_rc = ct_fail(&load_err, CT_ERR_NO_GPU,                                  \
                              "the NVIDIA driver lacks %s (CUDA %d.%d API); update the driver", \
                              CT_XSTR(name), CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10); \
            return;                                                                      \
        }                                                                                \
        memcpy(&drv.name, &fn, sizeof fn);                                               \
    }
    CT_DRV_FN(CT_DRV_RESOLVE)
#undef CT_DRV_RESOLVE
    CUresult r = drv.cuInit(0);
    if (r == CUDA_ERROR_NO_DEVICE) {
        load_rc = ct_fail(&load_err, CT_ERR_NO_GPU, "the NVIDIA driver reports no CUDA device");
        return;
    }
    if (r == CUDA_ERROR_STUB_LIBRARY) {
        /* The toolkit's link-time stub (lib64/stubs) was found before the
         * driver's library, usually through LD_LIBRARY_PATH. */
        Dl_info info;
        const char *where = "";
        void *fn;
        memcpy(&fn, &drv.cuInit, sizeof fn);
        if (dladdr(fn, &info) && info.dli_fname)
            where = info.dli_fname;
        load_rc = ct_fail(&load_err, CT_ERR_NO_GPU,
                          "the CUDA toolkit's stub libcuda.so.1%s%s%s was loaded instead of the NVIDIA driver's; "
                          "remove the stubs folder from LD_LIBRARY_PATH (or the ld.so configuration) so that the "
                          "driver's libcuda.so.1 is found", *where ? " (" : "", where, *where ? ")" : "");
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
