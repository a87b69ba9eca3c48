/* cudrv.h - the CUDA Driver API, loaded at run time from libcuda.so.1.
 *
 * Nothing links against libcuda, so every command that needs no GPU runs on
 * a machine without an NVIDIA driver; the first command that needs one gets
 * CT_ERR_NO_GPU with "no NVIDIA driver found". Entry points are resolved
 * under the versioned names cuda.h maps them to, so their signatures match
 * the prototypes we compile against. */
#ifndef CT_CUDRV_H
#define CT_CUDRV_H

#include <cuda.h>

#include "status.h"

#define CT_DRV_FN(X)                                                     \
    X(cuInit) X(cuDriverGetVersion) X(cuDeviceGetCount) X(cuDeviceGet)   \
    X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDeviceTotalMem)      \
    X(cuDeviceGetUuid) X(cuDevicePrimaryCtxRetain)                       \
    X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent) X(cuCtxSynchronize) \
    X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction)         \
    X(cuModuleGetGlobal) X(cuFuncGetAttribute) X(cuFuncSetAttribute)     \
    X(cuLaunchKernel) X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD)         \
    X(cuMemcpyDtoH) X(cuMemcpyDtoD) X(cuMemsetD16) X(cuMemsetD32)       \
    X(cuMemsetD32Async)                                                  \
    X(cuMemGetInfo)                                                      \
    X(cuEventCreate) X(cuEventRecord) X(cuEventSynchronize)              \
    X(cuEventElapsedTime) X(cuEventDestroy) X(cuStreamSynchronize)       \
    X(cuGraphCreate) X(cuGraphAddKernelNode) X(cuGraphInstantiate)       \
    X(cuGraphLaunch) X(cuGraphExecDestroy) X(cuGraphDestroy)             \
    X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamBeginCapture)        \
    X(cuStreamEndCapture) X(cuTensorMapEncodeTiled)                      \
    X(cuGetErrorName) X(cuGetErrorString)

typedef struct ct_drv {
#define CT_DRV_FIELD(name) __typeof__(&name) name;
    CT_DRV_FN(CT_DRV_FIELD)
#undef CT_DRV_FIELD
} ct_drv;

/* Load libcuda.so.1 and cuInit(0) once; later calls return the same table.
 * CT_ERR_NO_GPU when the library is absent or reports no device. */
ct_status ct_drv_load(const ct_drv **out, ct_err *e);

/* Message for a failed Driver API call: "call: NAME (code): text". */
ct_status ct_drv_fail(ct_err *e, CUresult r, const char *call);

/* Evaluate a Driver API call through table d; on failure record its text and
 * code in e and return CT_ERR_CUDA from the enclosing function (which must
 * have no cleanup pending; use CU_TRY with a label otherwise). */
#define CU_CHECK(d, e, call) do { CUresult ct_r_ = (d)->call; \
    if (ct_r_ != CUDA_SUCCESS) return ct_drv_fail((e), ct_r_, #call); } while (0)

/* Same, but sets rc and jumps to label for cleanup. */
#define CU_TRY(d, e, rc, label, call) do { CUresult ct_r_ = (d)->call; \
    if (ct_r_ != CUDA_SUCCESS) { (rc) = ct_drv_fail((e), ct_r_, #call); goto label; } } while (0)

#endif
