/* device.h - what identifies a device and what convtune measured on it:
 * the GPU stage fills it (runner, worker), the store keys its device rows by
 * it. Here, below both, so that the GPU stage needs nothing of the store. */
#ifndef CT_DEVICE_H
#define CT_DEVICE_H

typedef struct ct_device_info {
    char name[128];            /* "NVIDIA H100 80GB HBM3" */
    char uuid[64];             /* "GPU-xxxxxxxx-...", may be empty */
    int cc_major, cc_minor;
    int sm_count;
    int driver_version;        /* cuDriverGetVersion, e.g. 13000 */
    int nvrtc_major, nvrtc_minor;
    double fma_tflops;         /* measured fp32 FMA ceiling, 0 if not measured */
    double bandwidth_gbs;      /* measured device memory ceiling (read+write), 0 if not */
    double launch_us;          /* measured empty-kernel launch time, 0 if not */
    double tc_half_tflops;     /* measured half tensor-core (mma.sync, fp32 sums) ceiling, 0 if not */
} ct_device_info;

#endif
