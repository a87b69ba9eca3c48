/* gpus.h - one tuning run on several GPUs of one host.
 *
 * Each GPU gets its own supervised worker (worker.h) and a thread of the
 * tuning process that drives it. The run deals each compiled candidate to
 * the next GPU that becomes free, so a slow candidate on one GPU never
 * holds up the others, and takes back each outcome with the GPU that
 * measured it (each GPU is its own device row in the database). A fault in
 * a candidate costs only its worker, as on one GPU; a GPU whose worker
 * cannot be restarted at all leaves the run (its candidate goes to
 * another), and the others go on. Only GPUs of one model may be mixed: the
 * timings of different models are not comparable, and the space was built
 * for one set of limits.
 *
 * One GPU is the same machinery with one lane: a candidate is dealt and its
 * outcome taken back at once. */
#ifndef CT_GPUS_H
#define CT_GPUS_H

#include <stdio.h>

#include "compile_pool.h"
#include "db.h"
#include "worker.h"

#define CT_MAX_GPUS 16

/* "N", "N,M,..." (distinct ordinals 0..1023) or "all" (*n = -1). Anything
 * else is CT_ERR_USAGE: "--gpu: bad value 'X' (...)". */
ct_status ct_gpus_parse(const char *text, int *ordinals, int *n, ct_err *e);

typedef struct ct_gpus ct_gpus;

/* Start a worker on each of ordinals[0..n) (n == -1: every GPU the driver
 * shows), in parallel, with spec's other fields. dev gets the first GPU's
 * description. GPUs of different models are refused; notes (a GPU leaving
 * the run) go to log. */
ct_status ct_gpus_start(const ct_worker_spec *spec, const int *ordinals, int n, FILE *log, ct_gpus **out,
                        ct_worker_device *dev, ct_err *e);

int ct_gpus_count(const ct_gpus *g);
int ct_gpus_ordinal(const ct_gpus *g, int k);
const ct_worker_device *ct_gpus_device(const ct_gpus *g, int k);
/* The first GPU's worker: the end-of-run re-timing uses one GPU for all. */
ct_worker *ct_gpus_worker(ct_gpus *g, int k);

/* Each GPU's device row: stored ceilings, or measured now in its worker
 * (all in parallel; remeasure forces it; a line on out names each GPU
 * measured), then upserted; device_ids[k] is GPU k's row. */
ct_status ct_gpus_devices(ct_gpus *g, ct_db *db, int remeasure, FILE *out, long long *device_ids, ct_err *e);

/* Buffers and reference in every worker, in parallel. */
ct_status ct_gpus_workload(ct_gpus *g, ct_err *e);

/* A finished candidate: the job, its outcome, the GPU (index k) that
 * measured it. job is NULL when none is finished. */
typedef struct ct_gpus_done {
    ct_compile_job *job;
    ct_result oc;              /* the measured fields and conditions */
    int gpu;
} ct_gpus_done;

/* Deal job (compiled, of template index tmpl; race_us as ct_worker_run) to
 * the next free GPU; then, while a GPU is still free, return at once with
 * done->job NULL, else wait for an outcome and return it. job NULL only
 * waits for the next outcome (done->job NULL when no GPU is busy). An error
 * means no GPU is left in the run. */
ct_status ct_gpus_run(ct_gpus *g, ct_compile_job *job, int tmpl, double race_us, ct_gpus_done *done, ct_err *e);

/* Candidates dealt and not yet taken back. */
int ct_gpus_busy(ct_gpus *g);

/* Worker processes started over all GPUs (1 per GPU + restarts). */
int ct_gpus_starts(const ct_gpus *g);

/* "GPU 0: 301, GPU 1: 299" (candidates measured by each), for the report. */
void ct_gpus_summary(ct_gpus *g, char *buf, size_t len);

/* Stop the workers and the threads. NULL is fine. */
void ct_gpus_stop(ct_gpus *g);

#endif
