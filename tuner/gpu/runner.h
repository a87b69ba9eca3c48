/* runner.h - a GPU, a problem's device buffers and reference, and the
 * verification and timing of one compiled candidate. */
#ifndef CT_RUNNER_H
#define CT_RUNNER_H

#include <stddef.h>

#include "compile.h"
#include "config.h"
#include "cudrv.h"
#include "device.h"
#include "problem.h"
#include "result.h"

typedef struct ct_gpu {
    const ct_drv *d;
    CUdevice dev;
    CUcontext ctx;
    int ordinal;
    int device_count;          /* devices the driver shows this process */
    ct_limits lim;
    ct_device_info info;       /* ceilings filled by ct_gpu_measure_ceilings */
    char arch[16];             /* "sm_90" */
    size_t total_mem;
    int l2_bytes;
    struct ct_nvml *nvml;      /* clock and temperature readings; NULL without NVML */
} ct_gpu;

/* Open device `ordinal` (retaining its primary context) and read its limits. */
ct_status ct_gpu_open(int ordinal, ct_gpu *g, ct_err *e);
void ct_gpu_close(ct_gpu *g);

/* Measure the fp32 FMA rate, the half tensor-core rate (mma.sync with fp32
 * accumulation: bf16 m16n8k16 from sm_80, f16 m16n8k8 on sm_75, none
 * before), the device-memory bandwidth (bytes read plus written by a copy
 * kernel) and the time of an empty launch, with kernels compiled through
 * NVRTC, into g->info. */
ct_status ct_gpu_measure_ceilings(ct_gpu *g, ct_err *e);

/* Whether a device of this compute capability has a half mma.sync to
 * measure (sm_75 and later). */
int ct_gpu_has_half_mma(int cc_major, int cc_minor);

/* Limits assumed for an offline compile for arch (no GPU present). */
ct_status ct_limits_for_arch(const char *arch, ct_limits *lim, ct_err *e);

/* Restrict lim (a device's or an architecture's) to what arch also allows
 * (--arch-limit): its compute capability, and the smaller of each size,
 * so that the space holds only kernels a GPU of arch admits while they
 * are compiled for, and measured on, the device at hand. An arch newer
 * than lim's is refused: its kernels would not run here. */
ct_status ct_limits_restrict(ct_limits *lim, const char *arch, ct_err *e);

/* Encode the tensor map td (tmap.h) of the buffer at device address base
 * into *map (64-byte aligned) with the driver's cuTensorMapEncodeTiled:
 * what the runner passes after a kernel's buffers, and executors of
 * several launches (ws_exec.h) encode for their main kernel. */
CUresult ct_tmap_encode(const ct_drv *d, const ct_tmap_desc *td, CUdeviceptr base, CUtensorMap *map);

typedef struct ct_workload {
    const ct_problem *p;
    int nbufs, out_index;
    ct_buffer bufs[CT_MAX_BUFS];
    CUdeviceptr dev[CT_MAX_BUFS];
    ct_dtype dtype;            /* the problem's: device buffers hold ct_dtype_size() bytes an element */
    float *host[CT_MAX_BUFS];  /* inputs as uploaded (rounded to dtype); the output's slot holds the last result */
    double *ref;               /* fp64 reference output */
    int ref_on_gpu;            /* 1 when the GPU fp64 kernel produced ref */
    CUdeviceptr flush;         /* L2 flush buffer (0 if it could not be had) */
    size_t flush_bytes;
    double race_us;            /* timing may stop after min_reps above this; 0 = never */
    /* Called between verification and timing with the host time the
     * verification took (the worker's watchdog extends its deadline). */
    void (*on_verified)(void *user, double verify_ms);
    void *hook_user;
} ct_workload;

/* Allocate the problem's buffers (refusing, before allocating, a problem that
 * does not fit in free device memory), fill the inputs with uniform random
 * values in [-1, 1) from seed, or copy them from inputs[] when not NULL, and
 * compute the fp64 reference (CPU for small problems, the family's
 * <family>_ref64 kernel otherwise). */
ct_status ct_workload_create(ct_gpu *g, const ct_problem *p, unsigned long long seed,
                             const float *const *inputs, const char *templates_dir,
                             ct_workload *w, ct_err *e);
void ct_workload_free(ct_gpu *g, ct_workload *w);

/* Recompute w->ref with the family's fp64 GPU kernel "<family>_ref64" (one
 * thread per output). ct_workload_create uses it for large problems; the
 * tests check it against the CPU reference on small ones. */
ct_status ct_reference_gpu(ct_gpu *g, ct_workload *w, const char *templates_dir, ct_err *e);

/* Load bin, check it against the device's limits, run it once on a
 * NaN-filled output and verify it against the reference, then time it, into
 * the measured fields (group M of CT_RESULT_FIELDS) and the conditions of
 * out; its other fields are left alone. Returns CT_OK whenever the
 * candidate was judged (whatever the outcome); an error return means the
 * GPU itself is no longer usable. */
ct_status ct_run_candidate(ct_gpu *g, ct_workload *w, const ct_template *t,
                           const ct_params *c, const ct_binary *bin, const ct_settings *s,
                           ct_result *out, ct_err *e);

/* Relative L2 error of out against ref (n elements); +inf when out has a
 * NaN or infinity. */
double ct_relerr(const float *out, const double *ref, size_t n);

#endif
