/* timer.c - timing a candidate's executions (timer.h). */
#include "timer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

/* Samples queued before the host waits for them. */
#define TIMING_BATCH 64

static int is_sticky(CUresult r)
{
    return r == CUDA_ERROR_ILLEGAL_ADDRESS || r == CUDA_ERROR_MISALIGNED_ADDRESS ||
           r == CUDA_ERROR_LAUNCH_FAILED || r == CUDA_ERROR_ILLEGAL_INSTRUCTION ||
           r == CUDA_ERROR_HARDWARE_STACK_ERROR || r == CUDA_ERROR_INVALID_PC ||
           r == CUDA_ERROR_LAUNCH_TIMEOUT || r == CUDA_ERROR_INVALID_ADDRESS_SPACE ||
           r == CUDA_ERROR_ASSERT || r == CUDA_ERROR_ECC_UNCORRECTABLE;
}

void ct_timer_set_status(ct_result *o, ct_result_status status, const char *detail)
{
    o->status = status;
    snprintf(o->error, sizeof o->error, "%.500s", detail);
}

ct_status ct_timer_launch_error(ct_result *o, CUresult r, const char *what, ct_err *e)
{
    ct_err le;
    ct_drv_fail(&le, r, what);
    ct_timer_set_status(o, is_sticky(r) ? CT_RS_CRASHED : CT_RS_LAUNCH_FAILED, le.msg);
    if (is_sticky(r))
        return ct_fail(e, CT_ERR_CUDA, "the GPU context is lost after a faulting candidate: %s", le.msg);
    return CT_OK;
}

CUresult ct_kernel_call_run(void *ctx)
{
    const ct_kernel_call *k = ctx;
    return k->d->cuLaunchKernel(k->f, k->l->grid[0], k->l->grid[1], k->l->grid[2], k->l->block[0],
                                k->l->block[1], k->l->block[2], k->l->smem_bytes, NULL, k->args, NULL);
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static float median_of(float *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_float);
    return n % 2 ? v[n / 2] : 0.5f * (v[n / 2 - 1] + v[n / 2]);
}

/* The executions of one sample: one graph launch, or batch executions. */
typedef struct sampler {
    const ct_drv *d;
    const ct_launcher *run;
    int batch;
    CUgraphExec graph;
} sampler;

static CUresult sample_run(const sampler *sm)
{
    if (sm->graph)
        return sm->d->cuGraphLaunch(sm->graph, NULL);
    for (int i = 0; i < sm->batch; i++) {
        CUresult r = sm->run->run(sm->run->ctx);
        if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}

static void node_params(const ct_kernel_call *k, CUDA_KERNEL_NODE_PARAMS *kp)
{
    memset(kp, 0, sizeof *kp);   /* no extra, kern or ctx: the current context */
    kp->func = k->f;
    kp->gridDimX = k->l->grid[0];
    kp->gridDimY = k->l->grid[1];
    kp->gridDimZ = k->l->grid[2];
    kp->blockDimX = k->l->block[0];
    kp->blockDimY = k->l->block[1];
    kp->blockDimZ = k->l->block[2];
    kp->sharedMemBytes = k->l->smem_bytes;
    kp->kernelParams = k->args;
}

/* An executable graph of n executions of run's launches (each execution
 * its calls in order), each launch after the previous one, as a caller
 * replaying a graph runs them: the GPU never waits for the host. NULL when
 * the driver refuses any step; nothing has run then, so the caller launches
 * back to back instead. */
static CUgraphExec build_graph(const ct_drv *d, const ct_launcher *run, int n)
{
    CUgraph graph = NULL;
    CUgraphExec exec = NULL;
    CUgraphNode prev = NULL, node = NULL;
    CUDA_KERNEL_NODE_PARAMS kp[CT_MAX_CALLS];
    for (int j = 0; j < run->ncalls; j++)
        node_params(run->calls[j], &kp[j]);
    if (d->cuGraphCreate(&graph, 0) != CUDA_SUCCESS)
        return NULL;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < run->ncalls; j++) {
            if (d->cuGraphAddKernelNode(&node, graph, prev ? &prev : NULL, prev ? 1 : 0, &kp[j]) != CUDA_SUCCESS)
                goto out;
            prev = node;
        }
    if (d->cuGraphInstantiate(&exec, graph, 0) != CUDA_SUCCESS)
        exec = NULL;
out:
    /* The executable graph does not need the graph it was made from. */
    d->cuGraphDestroy(graph);
    return exec;
}

/* Time samples: the first execution alone (it sizes the plan), warm-up,
 * then samples each between its own pair of events, queued TIMING_BATCH at
 * a time so the GPU never waits for the host between them, until both the
 * plan's min_reps and min_time_ms are reached. With an L2 flush, a memset
 * of a buffer twice the L2 size runs between the executions, outside their
 * events. */
ct_status ct_time_launcher(const ct_drv *d, const ct_launcher *run, const ct_settings *s, const ct_timing_opts *to,
                           ct_result *o, ct_err *e)
{
    CUevent ev[2 * TIMING_BATCH] = {0};
    float *times = NULL, *scratch = NULL;
    sampler sm = {.d = d, .run = run, .batch = 1};
    ct_status rc = CT_OK;
    CUresult r;
    const int flush = to && to->flush, racing = to && to->race_us > 0;
    for (int i = 0; i < 2 * TIMING_BATCH; i++)
        CU_TRY(d, e, rc, out, cuEventCreate(&ev[i], CU_EVENT_DEFAULT));
    float probe_ms = 0;
    CU_TRY(d, e, rc, out, cuEventRecord(ev[0], NULL));
    if ((r = run->run(run->ctx)) == CUDA_SUCCESS && (r = d->cuEventRecord(ev[1], NULL)) == CUDA_SUCCESS)
        r = d->cuEventSynchronize(ev[1]);
    if (r != CUDA_SUCCESS) {
        rc = ct_timer_launch_error(o, r, "warm-up launch", e);
        goto out;
    }
    CU_TRY(d, e, rc, out, cuEventElapsedTime(&probe_ms, ev[0], ev[1]));
    ct_timing_plan pl;
    ct_timing_plan_make(s->warmup, s->min_reps, s->max_reps, probe_ms * 1e3, !flush, &pl);
    const char *method = CT_TIMING_EVENTS;
    if (pl.batch > 1) {
        sm.batch = pl.batch;
        method = CT_TIMING_CALLS;
        if (run->ncalls > 0 && run->ncalls <= CT_MAX_CALLS && (sm.graph = build_graph(d, run, pl.batch)) != NULL)
            method = CT_TIMING_GRAPH;
    }
    for (int i = 0; i < pl.warmup; i++)
        if ((r = sample_run(&sm)) != CUDA_SUCCESS) {
            rc = ct_timer_launch_error(o, r, "warm-up launch", e);
            goto out;
        }
    times = malloc((size_t)pl.max_reps * sizeof *times);
    scratch = malloc((size_t)pl.max_reps * sizeof *scratch);
    if (!times || !scratch) {
        rc = ct_fail(e, CT_ERR_INTERNAL, "out of memory");
        goto out;
    }
    double total_ms = 0;
    int reps = 0;
    /* A slow candidate's first execution is its first sample: timing it
     * once more would cost a whole slow call for no better a median. */
    if (pl.probe_sample) {
        times[reps++] = probe_ms;
        total_ms = probe_ms;
    }
    /* Without a flush, one event ends a sample and starts the next. */
    while (reps < pl.max_reps && (reps < pl.min_reps || total_ms < s->min_time_ms)) {
        /* Queue what min_reps and min_time_ms still need, as far as the
         * samples so far tell: queued samples all run, and a slow
         * candidate's TIMING_BATCH would be seconds. A candidate that may
         * race gets only its first race_after, then the decision. */
        double per_ms = reps ? total_ms / reps : probe_ms * pl.batch;
        double need = pl.min_reps - reps;
        if (racing && reps < pl.race_after)
            need = pl.race_after - reps;
        else if (total_ms < s->min_time_ms && per_ms > 0 && (s->min_time_ms - total_ms) / per_ms > need)
            need = ceil((s->min_time_ms - total_ms) / per_ms);
        int nb = need < 1 ? 1 : need < TIMING_BATCH ? (int)need : TIMING_BATCH;
        if (nb > pl.max_reps - reps)
            nb = pl.max_reps - reps;
        if (!flush)
            CU_TRY(d, e, rc, out, cuEventRecord(ev[0], NULL));
        for (int i = 0; i < nb; i++) {
            if (flush) {
                CU_TRY(d, e, rc, out, cuMemsetD32Async(to->flush, (unsigned)(reps + i), to->flush_words, NULL));
                CU_TRY(d, e, rc, out, cuEventRecord(ev[2 * i], NULL));
            }
            if ((r = sample_run(&sm)) != CUDA_SUCCESS) {
                rc = ct_timer_launch_error(o, r, "timed launch", e);
                goto out;
            }
            CU_TRY(d, e, rc, out, cuEventRecord(flush ? ev[2 * i + 1] : ev[i + 1], NULL));
        }
        CUevent last = flush ? ev[2 * nb - 1] : ev[nb];
        if ((r = d->cuEventSynchronize(last)) != CUDA_SUCCESS) {
            rc = ct_timer_launch_error(o, r, "timed launch", e);
            goto out;
        }
        for (int i = 0; i < nb; i++) {
            float ms = 0;
            if (flush)
                CU_TRY(d, e, rc, out, cuEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]));
            else
                CU_TRY(d, e, rc, out, cuEventElapsedTime(&ms, ev[i], ev[i + 1]));
            total_ms += ms;
            times[reps++] = ms / (float)pl.batch;
        }
        /* Racing: race_after samples already show that this one cannot
         * win; timing it for the full min_time_ms would only refine a
         * loser. */
        if (racing && reps >= pl.race_after && reps < pl.max_reps &&
            (reps < pl.min_reps || total_ms < s->min_time_ms)) {
            memcpy(scratch, times, (size_t)reps * sizeof *times);
            if (median_of(scratch, reps) * 1e3 > to->race_us) {
                o->cond.raced = 1;
                break;
            }
        }
    }
    qsort(times, (size_t)reps, sizeof *times, cmp_float);
    o->reps = reps;
    o->min_us = times[0] * 1e3;
    o->max_us = times[reps - 1] * 1e3;
    o->median_us = (reps % 2 ? times[reps / 2] : 0.5f * (times[reps / 2 - 1] + times[reps / 2])) * 1e3;
    /* Spread between the 10th and 90th percentiles: robust to one stall. */
    o->spread = (times[(reps * 9) / 10 < reps ? (reps * 9) / 10 : reps - 1] - times[reps / 10]) * 1e3 /
                o->median_us;
    ct_median_ci(times, reps, &o->ci_lo_us, &o->ci_hi_us, NULL);
    o->ci_lo_us *= 1e3;
    o->ci_hi_us *= 1e3;
    snprintf(o->timing, sizeof o->timing, "%s", method);
    o->batch = pl.batch;
    o->cond.slow = pl.slow;
    o->cond.l2_flushed = flush;
    o->status = CT_RS_OK;
out:
    if (sm.graph)
        d->cuGraphExecDestroy(sm.graph);
    for (int i = 0; i < 2 * TIMING_BATCH; i++)
        if (ev[i])
            d->cuEventDestroy(ev[i]);
    free(times);
    free(scratch);
    return rc;
}
