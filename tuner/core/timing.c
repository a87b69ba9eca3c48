/* timing.c - timing plans, the median's confidence interval (timing.h). */
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void ct_timing_plan_make(int warmup, int min_reps, int max_reps, double probe_us, int can_batch,
                         ct_timing_plan *p)
{
    p->batch = 1;
    p->slow = 0;
    p->probe_sample = 0;
    p->min_reps = min_reps < 1 ? 1 : min_reps;
    p->max_reps = max_reps < p->min_reps ? p->min_reps : max_reps;
    if (!(probe_us > 0))   /* not measured (or NaN): the settings as given */
        probe_us = 0;
    if (can_batch && probe_us > 0 && probe_us < CT_BATCH_BELOW_US) {
        double n = CT_BATCH_TARGET_US / probe_us;
        p->batch = n >= CT_BATCH_MAX ? CT_BATCH_MAX : n < 2 ? 2 : (int)n;
    }
    /* The first execution was a warm-up too. A batched sample warms up in
     * one (its first graph launch also uploads the graph). */
    double sample_ms = probe_us * p->batch / 1e3;
    p->warmup = p->batch > 1 ? warmup > 0 : warmup > 1 ? warmup - 1 : 0;
    if (p->batch == 1 && sample_ms > 0 && p->warmup * sample_ms > CT_WARMUP_MAX_MS)
        p->warmup = (int)(CT_WARMUP_MAX_MS / sample_ms);
    if (sample_ms > 0 && p->min_reps * sample_ms > CT_SLOW_TARGET_MS) {
        int n = (int)ceil(CT_SLOW_TARGET_MS / sample_ms);
        if (n < CT_SLOW_MIN_REPS)
            n = CT_SLOW_MIN_REPS;
        if (n < p->min_reps) {
            p->min_reps = n;
            p->slow = 1;
        }
    }
    /* Only without a flush: with one, every sample follows a memset that
     * the first execution did not. */
    p->probe_sample = p->slow && p->batch == 1 && can_batch;
    p->race_after = p->batch > 1 && p->min_reps > CT_RACE_BATCHED_SAMPLES ? CT_RACE_BATCHED_SAMPLES : p->min_reps;
}

/* P(X = k) for X ~ Binomial(n, 1/2), through logarithms: 2^-n underflows
 * past n = 1074. */
static double binom_half_pmf(int n, int k)
{
    return exp(lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0) - n * log(2.0));
}

int ct_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void ct_median_ci(const float *sorted, int n, double *lo, double *hi, double *coverage)
{
    if (n <= 0) {
        *lo = *hi = NAN;
        if (coverage)
            *coverage = 0;
        return;
    }
    /* [X(l+1), X(n-l)] (1-based) holds the median unless at most l samples
     * fall below it or at most l above: coverage 1 - 2 P(X <= l). */
    int l = 0;
    double cdf = binom_half_pmf(n, 0);
    while (l + 1 < n - 2 - l) {
        double next = cdf + binom_half_pmf(n, l + 1);
        if (1 - 2 * next < 0.95)
            break;
        cdf = next;
        l++;
    }
    *lo = sorted[l];
    *hi = sorted[n - 1 - l];
    if (coverage)
        *coverage = 1 - 2 * cdf;
}

const char *ct_timing_describe(const char *method, int batch, char *buf, size_t len)
{
    if (!method || !strcmp(method, CT_TIMING_EVENTS))
        snprintf(buf, len, "%s", method ? "events per launch" : "");
    else if (!strcmp(method, CT_TIMING_GRAPH))
        snprintf(buf, len, "graph of %d launches", batch);
    else if (!strcmp(method, CT_TIMING_CALLS))
        snprintf(buf, len, "%d calls back to back", batch);
    else
        buf[0] = '\0';
    return buf;
}
