/* worker.h - candidates run in a supervised worker process.
 *
 * An illegal address or a misaligned access in one candidate is sticky: the
 * CUDA context, and in practice the process, is unusable afterwards, and a
 * kernel that never terminates blocks its process for good. So the tuning
 * process never touches the GPU itself. It starts a worker (the convtune
 * binary re-executed as `convtune __worker`), which opens the GPU, builds the
 * problem's buffers and reference once and then verifies and times one
 * candidate binary after another, sent over a socket pair. The supervisor
 * waits for each answer under a wall-clock watchdog; a worker that dies or
 * misses its deadline is killed, the candidate is recorded as crashed or
 * timed_out, and the next candidate gets a fresh worker. */
#ifndef CT_WORKER_H
#define CT_WORKER_H

#include <stddef.h>

#include "compile.h"
#include "config.h"
#include "cudnn_base.h"
#include "device.h"
#include "problem.h"
#include "runner.h"

typedef struct ct_worker ct_worker;

typedef struct ct_worker_spec {
    const char *exe;           /* the convtune binary to run as the worker */
    int gpu;                   /* device ordinal */
    const ct_problem *problem; /* copied; the worker process parses its canonical string */
    unsigned long long seed;   /* of the random inputs */
    const char *templates_dir; /* NULL: built-in templates (for the reference kernel) */
    ct_settings settings;      /* measurement and watchdog settings */
} ct_worker_spec;

/* What the worker found when it opened the GPU. */
typedef struct ct_worker_device {
    ct_device_info info;
    ct_limits lim;
    char arch[16];
    size_t total_mem;
    int device_count;          /* GPUs the driver shows the worker (for --gpu all) */
} ct_worker_device;

/* Start a worker and open the GPU in it; dev receives the device's
 * description. Errors opening the GPU (no driver, index out of range) come
 * back with the worker's status and message. */
ct_status ct_worker_start(const ct_worker_spec *spec, ct_worker **w, ct_worker_device *dev, ct_err *e);

/* Measure the device's ceilings in the worker (into dev->info). */
ct_status ct_worker_ceilings(ct_worker *w, ct_worker_device *dev, ct_err *e);

/* Allocate the buffers and compute the reference in the worker. */
ct_status ct_worker_workload(ct_worker *w, ct_err *e);

/* Verify and time one candidate into the measured fields and conditions
 * of o (its other fields are left alone). Each worker may be driven from its
 * own thread (one per GPU), never one worker from two threads at once.
 * race_us > 0 lets the worker stop timing,
 * after min_reps, a candidate whose median is already above race_us. Returns
 * CT_OK whenever the candidate was judged, faults and hangs included (the
 * worker is replaced before the next candidate); an error means no worker
 * could be (re)started. */
ct_status ct_worker_run(ct_worker *w, int template_index, const ct_params *c, const ct_binary *bin,
                        double race_us, ct_result *o, ct_err *e);

/* Time the cuDNN baseline on the worker's workload (cudnn_base.h) into o.
 * An error when the worker could not answer, or lost its GPU context doing
 * it (it is replaced before the next request); what kept cuDNN from the
 * problem is o's reason, not an error. */
ct_status ct_worker_cudnn(ct_worker *w, ct_cudnn_outcome *o, ct_err *e);

/* Workers started so far (1 + restarts after faults). */
int ct_worker_starts(const ct_worker *w);

void ct_worker_stop(ct_worker *w);

/* The worker side: serve requests on fd until told to quit. Returns the
 * process exit code. */
int ct_worker_serve(int fd);

#endif
