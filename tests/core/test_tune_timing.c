/* test_tune_timing.c - the timing plan and the median's confidence interval
 * (timing.h), on random inputs: a short execution is batched to about
 * CT_BATCH_TARGET_US and never past CT_BATCH_MAX; a slow one gets fewer
 * samples, never fewer than CT_SLOW_MIN_REPS, its first execution one of
 * them (not under an L2 flush), and its warm-up is capped;
 * racing may decide after fewer samples of batches; the interval holds
 * the median, is made of samples, reaches 95% coverage
 * (exact binomial sums in long double against the code's logarithms, and a
 * simulation) and is the narrowest that does; the words tune prints, and
 * which stored times a resumed run takes again. No GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "resume.h"
#include "timing.h"
#include "tune_report.h"

static unsigned long long rng;

static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static void plans(void)
{
    for (int t = 0; t < 20000; t++) {
        /* probes from 0.5 us to 2 s, log-uniform */
        double probe = 0.5 * pow(4e6, uniform());
        int warmup = (int)(uniform() * 10), min_reps = 1 + (int)(uniform() * 50);
        int max_reps = min_reps + (int)(uniform() * 3000), can = uniform() < 0.8;
        ct_timing_plan p;
        ct_timing_plan_make(warmup, min_reps, max_reps, probe, can, &p);
        CHECK(p.max_reps == max_reps && p.min_reps >= 1 && p.min_reps <= p.max_reps);
        if (!can || probe >= CT_BATCH_BELOW_US) {
            CHECK_MSG(p.batch == 1, "probe %g can %d batch %d", probe, can, p.batch);
        } else {
            CHECK_MSG(p.batch >= 2 && p.batch <= CT_BATCH_MAX, "probe %g batch %d", probe, p.batch);
            /* the largest batch within the target, unless at a bound */
            CHECK_MSG(p.batch == 2 || p.batch * probe <= CT_BATCH_TARGET_US * (1 + 1e-12), "probe %g batch %d",
                      probe, p.batch);
            CHECK_MSG(p.batch == CT_BATCH_MAX || (p.batch + 1) * probe > CT_BATCH_TARGET_US, "probe %g batch %d",
                      probe, p.batch);
            CHECK(p.warmup == (warmup > 0));
        }
        double sample_ms = probe * p.batch / 1e3;
        if (p.batch == 1) {
            CHECK(p.warmup <= (warmup > 1 ? warmup - 1 : 0));
            CHECK(p.warmup * sample_ms <= CT_WARMUP_MAX_MS || p.warmup == 0);
        }
        if (!p.slow) {
            CHECK_MSG(p.min_reps == min_reps, "probe %g min_reps %d of %d", probe, p.min_reps, min_reps);
            CHECK(min_reps * sample_ms <= CT_SLOW_TARGET_MS || min_reps <= CT_SLOW_MIN_REPS ||
                  ceil(CT_SLOW_TARGET_MS / sample_ms) >= min_reps);
        } else {
            CHECK(p.min_reps < min_reps && p.min_reps >= CT_SLOW_MIN_REPS);
            /* enough samples to cover the target, one fewer would not */
            CHECK(p.min_reps == CT_SLOW_MIN_REPS || p.min_reps * sample_ms >= CT_SLOW_TARGET_MS * (1 - 1e-12));
            CHECK(p.min_reps == CT_SLOW_MIN_REPS || (p.min_reps - 1) * sample_ms < CT_SLOW_TARGET_MS);
        }
        /* the first execution is a sample only of a slow, unbatched, unflushed one */
        CHECK(p.probe_sample == (p.slow && p.batch == 1 && can));
        /* racing decides after min_reps samples, or fewer batched ones */
        CHECK(p.race_after >= 1 && p.race_after <= p.min_reps);
        CHECK(p.race_after == (p.batch > 1 && p.min_reps > CT_RACE_BATCHED_SAMPLES ? CT_RACE_BATCHED_SAMPLES
                                                                                    : p.min_reps));
        /* a slower probe never gets more samples */
        ct_timing_plan q;
        ct_timing_plan_make(warmup, min_reps, max_reps, probe * 1.5, can, &q);
        CHECK(q.batch > 1 || p.batch > 1 || q.min_reps <= p.min_reps);
    }
    /* seed 003's wgrad baseline: 0.3 s a call under the default settings */
    ct_timing_plan p;
    ct_timing_plan_make(3, 20, 2000, 3e5, 1, &p);
    CHECK(p.batch == 1 && p.slow && p.min_reps == CT_SLOW_MIN_REPS && p.warmup == 0 && p.probe_sample);
    /* with an L2 flush its first execution is not a sample (no memset before it) */
    ct_timing_plan_make(3, 20, 2000, 3e5, 0, &p);
    CHECK(p.batch == 1 && p.slow && p.min_reps == CT_SLOW_MIN_REPS && !p.probe_sample);
    /* not measured: the settings as given */
    ct_timing_plan_make(3, 20, 2000, 0, 1, &p);
    CHECK(p.batch == 1 && !p.slow && p.min_reps == 20 && p.warmup == 2);
    ct_timing_plan_make(3, 20, 2000, NAN, 1, &p);
    CHECK(p.batch == 1 && !p.slow && p.min_reps == 20);
}

/* 1 - 2 P(X <= l), X ~ Binomial(n, 1/2), summed exactly in long double
 * (n <= 60 keeps every term normal). */
static long double coverage_exact(int n, int l)
{
    long double c = 1, s = 0;
    for (int i = 0; i <= l; i++) {
        s += c;
        c = c * (n - i) / (i + 1);
    }
    return 1 - 2 * s / powl(2, n);
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static void intervals(void)
{
    static float v[4000];
    for (int t = 0; t < 400; t++) {
        int n = 1 + (int)(uniform() * (t < 300 ? 60 : 4000));
        for (int i = 0; i < n; i++)
            v[i] = (float)(1 + 10 * uniform());
        qsort(v, (size_t)n, sizeof *v, cmp_float);
        double lo, hi, cov;
        ct_median_ci(v, n, &lo, &hi, &cov);
        double med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
        CHECK_MSG(lo <= med && med <= hi, "n %d: [%g, %g] median %g", n, lo, hi, med);
        /* Random floats repeat now and then (thousands drawn from 2^23 a
         * binade), so lo may equal several samples: any one of them whose
         * mirror is hi will do. */
        int l = -1;
        for (int i = 0; i < n && l < 0; i++)
            if ((float)lo == v[i] && (float)hi == v[n - 1 - i])
                l = i;
        CHECK_MSG(l >= 0 && (float)hi == v[n - 1 - l], "n %d: [%g, %g] are not symmetric samples", n, lo, hi);
        if (n >= 6)
            CHECK_MSG(cov >= 0.95, "n %d coverage %g", n, cov);
        if (n <= 60 && l >= 0) {
            long double ex = coverage_exact(n, l);
            CHECK_MSG(fabsl(ex - cov) < 1e-9, "n %d l %d: coverage %g, exact %Lg", n, l, cov, ex);
            /* the narrowest: dropping one more sample each side falls short */
            if (n >= 6 && l + 1 < n - 2 - l)
                CHECK_MSG(coverage_exact(n, l + 1) < 0.95L, "n %d l %d is not the narrowest", n, l);
        }
    }
    /* the textbook case: 20 samples, the 6th and 15th */
    for (int i = 0; i < 20; i++)
        v[i] = (float)(i + 1);
    double lo, hi;
    ct_median_ci(v, 20, &lo, &hi, NULL);
    CHECK(lo == 6 && hi == 15);
    /* simulation: the interval holds the true median of a skewed law */
    int held = 0, trials = 4000;
    for (int t = 0; t < trials; t++) {
        int n = 25;
        for (int i = 0; i < n; i++)
            v[i] = (float)-log(1 - uniform());   /* exponential: median ln 2 */
        qsort(v, (size_t)n, sizeof *v, cmp_float);
        ct_median_ci(v, n, &lo, &hi, NULL);
        held += lo <= log(2.0) && log(2.0) <= hi;
    }
    CHECK_MSG(held >= 0.93 * trials, "held %d of %d", held, trials);
    ct_median_ci(v, 0, &lo, &hi, NULL);
    CHECK(isnan(lo) && isnan(hi));
}

static void descriptions(void)
{
    char b[64];
    int n = 2 + (int)(uniform() * 500);
    char want[64];
    snprintf(want, sizeof want, "graph of %d launches", n);
    CHECK_STR(ct_timing_describe(CT_TIMING_GRAPH, n, b, sizeof b), want);
    snprintf(want, sizeof want, "%d calls back to back", n);
    CHECK_STR(ct_timing_describe(CT_TIMING_CALLS, n, b, sizeof b), want);
    CHECK_STR(ct_timing_describe(CT_TIMING_EVENTS, 1, b, sizeof b), "events per launch");
    CHECK_STR(ct_timing_describe(NULL, 1, b, sizeof b), "");
    CHECK_STR(ct_timing_describe("other", 1, b, sizeof b), "");
}

/* The words of tune, retime and --verbose (tune_report.h). */
static void words(void)
{
    ct_result r;
    char b[128], want[128];
    ct_result_init(&r);
    CHECK_STR(ct_tune_timing_text(&r, b, sizeof b), "");   /* no time */
    r.median_us = 1 + 100 * uniform();
    CHECK_STR(ct_tune_timing_text(&r, b, sizeof b), "events per launch");   /* stored before schema 4 */
    r.batch = 2 + (int)(uniform() * 500);
    r.ci_lo_us = r.median_us * 0.99;
    r.ci_hi_us = r.median_us * 1.02;
    snprintf(r.timing, sizeof r.timing, "%s", CT_TIMING_GRAPH);
    snprintf(want, sizeof want, "graph of %d launches, 95%% CI %.2f-%.2f us", r.batch, r.ci_lo_us, r.ci_hi_us);
    CHECK_STR(ct_tune_timing_text(&r, b, sizeof b), want);
}

/* Which stored times a resumed run takes again (resume.h). */
static void stale(void)
{
    ct_result r;
    ct_result_init(&r);
    r.status = CT_RS_OK;
    r.median_us = CT_BATCH_BELOW_US * uniform();
    CHECK(ct_resume_stale(&r));   /* short, timed before batching */
    snprintf(r.timing, sizeof r.timing, "%s", uniform() < 0.5 ? CT_TIMING_EVENTS : CT_TIMING_GRAPH);
    CHECK(!ct_resume_stale(&r));   /* timed since */
    r.timing[0] = '\0';
    r.median_us = CT_BATCH_BELOW_US * (1 + uniform());
    CHECK(!ct_resume_stale(&r));   /* long: events per launch then and now */
    r.median_us = NAN;
    r.status = CT_RS_WRONG_RESULT;
    CHECK(!ct_resume_stale(&r));   /* an outcome without a time stays */
}

int main(void)
{
    const char *env = getenv("CT_TEST_SEED");   /* a failed run's seed repeats it */
    rng = env && *env ? strtoull(env, NULL, 0) : (unsigned long long)time(NULL) * 2654435761ull | 1;
    printf("seed %llu (set CT_TEST_SEED to repeat)\n", rng);
    plans();
    intervals();
    descriptions();
    words();
    stale();
    CHECK_DONE();
}
