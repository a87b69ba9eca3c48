/* timer.h - timing one candidate's executions on the GPU.
 *
 * The first execution is timed alone; its time sets the plan (timing.h): a
 * short one is timed in samples of many executions (a CUDA graph of
 * launches for a single kernel, calls back to back for an executor), so
 * that its time is the GPU's and not the host's launch rate; a slow one
 * with fewer samples. */
#ifndef CT_TIMER_H
#define CT_TIMER_H

#include <stddef.h>

#include "config.h"
#include "cudrv.h"
#include "problem.h"
#include "result.h"

/* One kernel launch with its geometry and arguments. */
typedef struct ct_kernel_call {
    const ct_drv *d;
    CUfunction f;
    const ct_launch *l;
    void **args;
} ct_kernel_call;

/* Launch k (a ct_kernel_call) on the default stream. */
CUresult ct_kernel_call_run(void *k);

/* The most launches of one execution a graph repeats (a prep, the main
 * kernel, a split-K reduce). */
#define CT_MAX_CALLS 4

/* One execution of a candidate, enqueued on the default stream; ncalls > 0
 * when that execution is exactly the launches calls[0 .. ncalls - 1] in
 * order (a single kernel; a prep, the main kernel and split-K's reduce): a
 * CUDA graph can then repeat it. */
typedef struct ct_launcher {
    CUresult (*run)(void *ctx);
    void *ctx;
    int ncalls;
    const ct_kernel_call *calls[CT_MAX_CALLS];
} ct_launcher;

/* What a timing may do beyond launching: evict L2 before each execution
 * (flush != 0; every execution then has its own events), stop early for a
 * candidate that cannot win (race_us > 0). */
typedef struct ct_timing_opts {
    CUdeviceptr flush;
    size_t flush_words;
    double race_us;
} ct_timing_opts;

/* Time executions of run on the current context of driver d with settings
 * s (to may be NULL): fills o's timing
 * fields (median, min, max, spread, reps, confidence interval, method,
 * batch), o->cond.raced, slow and l2_flushed, and its status ("ok", or
 * "crashed"/"launch_failed"); returns an error only when the GPU context
 * is lost. */
ct_status ct_time_launcher(const ct_drv *d, const ct_launcher *run, const ct_settings *s, const ct_timing_opts *to,
                           ct_result *o, ct_err *e);

/* Record status and detail in o. */
void ct_timer_set_status(ct_result *o, ct_result_status status, const char *detail);

/* A failed launch or synchronisation: record it in o; a sticky error also
 * means the context is gone, which returns CT_ERR_CUDA. */
ct_status ct_timer_launch_error(ct_result *o, CUresult r, const char *what, ct_err *e);

#endif
