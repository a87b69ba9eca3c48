/* closeness.c - the estimate of how close a run got (closeness.h). */
#include "closeness.h"
#include "costmodel.h"
#include "json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ct_close_basis_name(ct_close_basis b)
{
    return b == CT_CLOSE_ALL ? "all" : b == CT_CLOSE_MODEL ? "model" : "none";
}

typedef struct pred {
    double mu, sd;
} pred;

static int cmp_pred(const void *a, const void *b)
{
    const pred *x = a, *y = b;
    return (x->mu > y->mu) - (x->mu < y->mu);
}

/* The expected count of the n predictions that run faster than log time
 * lt. */
static double expected_faster(const pred *v, int n, double lt)
{
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += ct_cm_phi((lt - v[i].mu) / (v[i].sd > 0 ? v[i].sd : 1e-3));
    return sum;
}

/* The summary's sentence, from the figures. */
static void write_text(ct_closeness *c)
{
    char progress[200], noise[120] = "";
    snprintf(progress, sizeof progress, "%d of %d candidates judged (%.1f%%), the last improvement %d candidates "
             "and %.0f s before the end", c->judged, c->admissible,
             c->admissible ? 100.0 * c->judged / c->admissible : 0.0, c->since_best, c->since_best_s);
    if (c->noise_pct > 0)
        snprintf(noise, sizeof noise, "; within %.1f%%: the timing noise between processes", c->noise_pct);
    if (c->basis == CT_CLOSE_ALL)
        snprintf(c->text, sizeof c->text, "the best of the space as timed: all %d admissible candidates judged%s",
                 c->admissible, noise);
    else if (c->basis == CT_CLOSE_MODEL)
        snprintf(c->text, sizeof c->text, "estimated within %s%.1f%% of the best of the space (model, typical "
                 "error %.0f%%%s); %s", c->beyond ? "more than " : "", c->within_pct, c->spread_pct,
                 c->noise_pct > 0 ? ", floored at the timing noise between processes" : "", progress);
    else
        snprintf(c->text, sizeof c->text, "no basis for an estimate of how close to the best of the space "
                 "(%s); %s", c->why, progress);
}

void ct_closeness_estimate(const ct_search *s, const ct_space *sp, const double *mu, const double *sd,
                           const char *why, double winner_us, int since_best, double since_best_s,
                           ct_closeness *out)
{
    memset(out, 0, sizeof *out);
    out->within_pct = -1;
    out->admissible = sp->n;
    out->since_best = since_best;
    out->since_best_s = since_best_s;
    pred *v = malloc(((size_t)sp->n + 1) * sizeof *v);
    int nv = 0;
    for (int i = 0; i < sp->n; i++) {
        if (ct_search_time(s, i) != 0) {
            out->judged++;
            continue;
        }
        if (!mu || !isfinite(mu[i]))
            out->unpredicted++;
        else if (v)
            v[nv++] = (pred){mu[i], sd[i]};
    }
    /* The spread the model showed on this run's own candidates, each
     * predicted before it was measured: where it was wrong about them, it
     * may be as wrong about the rest (a model fitted on other problems can
     * be confident and far off on this one). */
    int nerr;
    double err = ct_search_model_error(s, &nerr);
    if (nerr >= CT_CLOSE_MIN_CHECKED && isfinite(err))
        for (int i = 0; i < nv; i++)
            if (v[i].sd < err)
                v[i].sd = err;
    if (out->judged == out->admissible) {
        out->basis = CT_CLOSE_ALL;
        out->within_pct = 0;
        write_text(out);
        free(v);
        return;
    }
    if (!mu || out->unpredicted > 0 || !(winner_us > 0) || !v) {
        if (why && *why)
            snprintf(out->why, sizeof out->why, "%s", why);
        else if (!mu)
            snprintf(out->why, sizeof out->why, "no cost model");
        else if (out->unpredicted > 0)
            snprintf(out->why, sizeof out->why, "the model has no data for %d of the candidates not judged",
                     out->unpredicted);
        else
            snprintf(out->why, sizeof out->why, "no winner");
        write_text(out);
        free(v);
        return;
    }
    /* The best-predicted CT_CLOSE_TOP only: the errors of similar
     * candidates go together, and counting each of 100,000 as an
     * independent chance would leave no figure worth giving. */
    qsort(v, (size_t)nv, sizeof *v, cmp_pred);
    if (nv > CT_CLOSE_TOP)
        nv = CT_CLOSE_TOP;
    double sd_sum = 0;
    for (int i = 0; i < nv; i++)
        sd_sum += v[i].sd;
    out->basis = CT_CLOSE_MODEL;
    out->spread_pct = 100 * (exp(nv ? sd_sum / nv : 0) - 1);
    double lw = log(winner_us);
    /* Bisection on log(1 + X/100): the expected count falls as X grows. */
    double lo = 0, hi = log(1 + CT_CLOSE_MAX_PCT / 100);
    if (expected_faster(v, nv, lw) <= CT_CLOSE_EXPECTED) {
        hi = 0;
    } else if (expected_faster(v, nv, lw - hi) > CT_CLOSE_EXPECTED) {
        lo = hi;
    } else {
        for (int it = 0; it < 50; it++) {
            double mid = 0.5 * (lo + hi);
            if (expected_faster(v, nv, lw - mid) > CT_CLOSE_EXPECTED)
                lo = mid;
            else
                hi = mid;
        }
    }
    out->within_pct = 100 * (exp(hi) - 1);
    out->beyond = lo >= log(1 + CT_CLOSE_MAX_PCT / 100);
    write_text(out);
    free(v);
}

void ct_closeness_noise_floor(ct_closeness *c, double noise_pct)
{
    if (c->basis == CT_CLOSE_NONE || !(noise_pct > c->within_pct))
        return;
    c->within_pct = noise_pct;
    c->noise_pct = noise_pct;
    write_text(c);
}

void ct_closeness_write(ct_jw *j, const char *key, const ct_closeness *c, int with_text)
{
    ct_jw_object(j, key);
    ct_jw_string(j, "basis", ct_close_basis_name(c->basis));
    if (c->within_pct >= 0)
        ct_jw_number(j, "within_pct", "%.2f", c->within_pct);
    else
        ct_jw_null(j, "within_pct");
    ct_jw_number(j, "spread_pct", "%.1f", c->spread_pct);
    ct_jw_number(j, "noise_pct", "%.2f", c->noise_pct);
    ct_jw_int(j, "judged", c->judged);
    ct_jw_int(j, "admissible", c->admissible);
    ct_jw_int(j, "since_best", c->since_best);
    ct_jw_number(j, "since_best_s", "%.1f", c->since_best_s);
    if (with_text) {
        ct_jw_string_or_null(j, "why", c->why);
        ct_jw_string(j, "text", c->text);
    }
    ct_jw_end(j);
}

void ct_closeness_json(const ct_closeness *c, char *buf, size_t len)
{
    ct_jw j;
    ct_jw_buffer(&j, buf, len, 0);
    ct_closeness_write(&j, NULL, c, 0);
}
