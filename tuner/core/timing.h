/* timing.h - how a candidate's time is measured: the plan of a timing
 * (executions per sample, warm-up, repetitions) from the time of its first
 * execution, the confidence interval of a median, and the method's name.
 *
 * Pure arithmetic, so it is tested without a GPU; the runner
 * (tuner/gpu/timer.c) carries the plan out. */
#ifndef CT_TIMING_H
#define CT_TIMING_H

#include <stddef.h>

/* A single execution shorter than this is timed in batches: an event pair
 * around each launch of a short kernel measures the host's launch rate, not
 * the GPU. Well above where that matters (tens of microseconds), so that
 * the best few of a problem, timed again together, are timed one way: at
 * this length the gap between launches is a fraction of a percent. */
#define CT_BATCH_BELOW_US 500.0
/* A batch of executions lasts about this long. */
#define CT_BATCH_TARGET_US 1000.0
#define CT_BATCH_MAX 512
/* A candidate whose min_reps samples would take longer than this is timed
 * with fewer: a slow baseline must not spend a --time budget alone ... */
#define CT_SLOW_TARGET_MS 200.0
/* ... but never with fewer samples than this. */
#define CT_SLOW_MIN_REPS 3
/* Warm-up beyond the first (timed) execution stops after this much time. */
#define CT_WARMUP_MAX_MS 50.0
/* Racing (a candidate that cannot win stops early) decides after min_reps
 * samples, or after this many when each is a batch: a batch already
 * averages a millisecond of launches, and a loser is race_factor slower. */
#define CT_RACE_BATCHED_SAMPLES 5

/* How a sample is taken; the texts are stored with each measurement. */
#define CT_TIMING_EVENTS "events"   /* one execution between two events */
#define CT_TIMING_GRAPH "graph"     /* a CUDA graph of `batch` launches */
#define CT_TIMING_CALLS "calls"     /* `batch` calls back to back between two events */

typedef struct ct_timing_plan {
    int batch;       /* executions per sample (1: one per event pair) */
    int warmup;      /* untimed samples after the first execution (1 batch, or
                        the settings' warmup less one, capped at CT_WARMUP_MAX_MS) */
    int min_reps;    /* samples: at least this many ... */
    int max_reps;    /* ... and at most this many */
    int race_after;  /* samples after which racing may stop it (<= min_reps) */
    int slow;        /* 1 when min_reps was lowered for a slow candidate */
    int probe_sample; /* 1 when the first execution is the first of the
                        min_reps samples: a slow one's, unbatched, without
                        an L2 flush (its start-up costs are a negligible
                        part of it, and each execution saved is a long one) */
} ct_timing_plan;

/* The plan of a timing whose first execution took probe_us (with the
 * settings' warmup, min_reps and max_reps, max_reps >= min_reps >= 1);
 * can_batch is 0 when every execution needs its own events (an L2 flush
 * before each). */
void ct_timing_plan_make(int warmup, int min_reps, int max_reps, double probe_us, int can_batch,
                         ct_timing_plan *p);

/* The distribution-free confidence interval of the median of n sorted
 * samples: [v[l], v[n - 1 - l]] with the largest l whose binomial coverage
 * is still at least 95%, or [min, max] (l = 0), which covers less than 95%
 * (1 - 2^(1-n)) below 6 samples. The coverage achieved goes to *coverage
 * when not NULL; n = 0 gives NaN bounds. */
void ct_median_ci(const float *sorted, int n, double *lo, double *hi, double *coverage);

/* Ascending order of two doubles, for qsort: the medians and quantiles of
 * times and errors (the search's model error, the report's boxes, the
 * search-quality replays). */
int ct_cmp_double(const void *a, const void *b);

/* The method for people: "graph of 263 launches", "40 calls back to back",
 * "events per launch"; "" for an unknown method. */
const char *ct_timing_describe(const char *method, int batch, char *buf, size_t len);

#endif
