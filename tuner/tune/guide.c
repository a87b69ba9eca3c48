/* guide.c - the cost and compile-time models of a tuning run (guide.h). */
#include "guide.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "costmodel.h"

/* A template's refit waits for this many new measurements of it, or for a
 * quarter more than it had: spaces run to 100,000 candidates, and each
 * refit predicts every candidate of the template. */
#define REFIT_EVERY 4
#define COSTS_EVERY 8
/* Measuring seconds assumed per candidate before one was measured. */
#define MEASURE_PRIOR_S 0.1

typedef struct tdata {
    int fb_nrun;        /* nrun when the fallback predictions were made */
    double *X, *y;      /* rows: the stored ones first, then the run's */
    int n, cap, d;
    int nstored, offered;   /* stored rows kept; offered (the reservoir's count) */
    int nrun, since_fit;
    ct_cm_model m;
    double offset, sd;  /* the run's mean residual (shrunk), the spread predictions get */
} tdata;

struct ct_guide {
    const ct_problem *p;
    const ct_space *sp;
    char device[128];
    int cc_major;
    int sms;            /* the device's SM count, for the waves' features (0: none) */
    unsigned long long rng;
    tdata *td;          /* per template of sp->stats */
    int *cand_t;        /* template index of each candidate */
    int *by_t, *t_start;  /* the candidates by template: by_t[t_start[t] .. t_start[t + 1]) */
    double *F;          /* features of each candidate, CT_CM_MAXF apart */
    double *mu, *sd, *cost;
    ct_compcost *cc;
    double measure_sum;
    int measure_n, stored, have_data;
    /* Spaces run to 100,000 candidates: predictions are handed over when
     * they changed, costs recomputed every COSTS_EVERY observations or a
     * quarter more than the last time. */
    int version, pushed, costs_at, costs_valid;
    /* The stored row's problem, parsed once per run of rows. */
    char last[160];
    ct_problem lastp;
    int last_ok;
};

static int tmpl_index(const ct_space *sp, const ct_template *t)
{
    for (int i = 0; i < sp->ntemplates; i++)
        if (sp->stats[i].tmpl == t)
            return i;
    return -1;
}

static int tmpl_named(const ct_space *sp, const char *name)
{
    for (int i = 0; i < sp->ntemplates; i++)
        if (sp->stats[i].tmpl && strcmp(sp->stats[i].tmpl->name, name) == 0)
            return i;
    return -1;
}

/* Room for one more row of td; its index, or -1. */
static int row_slot(tdata *td)
{
    if (td->n == td->cap) {
        int cap = td->cap ? 2 * td->cap : 64;
        double *X = realloc(td->X, (size_t)cap * CT_CM_MAXF * sizeof *X);
        if (!X)
            return -1;
        td->X = X;
        double *y = realloc(td->y, (size_t)cap * sizeof *y);
        if (!y)
            return -1;
        td->y = y;
        td->cap = cap;
    }
    return td->n++;
}

/* One stored verified candidate: a training row (a reservoir sample past
 * CT_GUIDE_ROWS) and, for this problem, a compile time. */
static int take_stored(const ct_result *r, void *user)
{
    ct_guide *g = user;
    if (r->status != CT_RS_OK || !(r->median_us > 0) || r->cc_major != g->cc_major || !r->params_ok)
        return 0;
    int ti = tmpl_named(g->sp, r->tmpl);
    if (ti < 0)
        return 0;
    const ct_template *t = g->sp->stats[ti].tmpl;
    int same_problem = strcmp(r->problem, g->p->canonical) == 0;
    if (same_problem && strcmp(r->device, g->device) == 0)
        return 0;   /* resumed by the run, and observed then */
    if (same_problem && r->compile_ms > 0)
        ct_compcost_add(g->cc, t, &r->params, r->compile_ms / 1e3);
    if (strcmp(r->problem, g->last) != 0) {
        ct_err e;
        snprintf(g->last, sizeof g->last, "%s", r->problem);
        g->last_ok = ct_problem_parse(r->problem, &g->lastp, &e) == CT_OK && g->lastp.family == g->p->family;
    }
    if (!g->last_ok)
        return 0;
    tdata *td = &g->td[ti];
    int k;
    if (td->nstored < CT_GUIDE_ROWS) {
        if ((k = row_slot(td)) < 0)
            return 0;
        td->nstored++;
        g->stored++;
    } else {
        k = (int)(ct_rand_next(&g->rng) % (unsigned long long)(td->offered + 1));
        if (k >= CT_GUIDE_ROWS)
            k = -1;
    }
    td->offered++;
    if (k >= 0) {
        td->d = ct_cm_features(&g->lastp, t, &r->params, g->sms, td->X + (size_t)k * CT_CM_MAXF);
        td->y[k] = log(r->median_us);
    }
    return 0;
}

ct_status ct_guide_new(ct_db *db, const ct_problem *p, const ct_space *sp, const char *device, int cc_major,
                       int sms, unsigned long long seed, ct_guide **out, ct_err *e)
{
    *out = NULL;
    ct_guide *g = calloc(1, sizeof *g);
    if (!g)
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    size_t n = (size_t)sp->n + 1;
    g->p = p;
    g->sp = sp;
    g->cc_major = cc_major;
    g->sms = sms;
    g->rng = seed ^ 0x5DEECE66DULL;
    snprintf(g->device, sizeof g->device, "%s", device ? device : "");
    g->td = calloc((size_t)sp->ntemplates + 1, sizeof *g->td);
    g->cand_t = calloc(n, sizeof *g->cand_t);
    g->by_t = calloc(n, sizeof *g->by_t);
    g->t_start = calloc((size_t)sp->ntemplates + 2, sizeof *g->t_start);
    g->F = calloc(n * CT_CM_MAXF, sizeof *g->F);
    g->mu = malloc(n * sizeof *g->mu);
    g->sd = calloc(n, sizeof *g->sd);
    g->cost = calloc(n, sizeof *g->cost);
    g->cc = ct_compcost_new(sp);
    if (!g->td || !g->cand_t || !g->by_t || !g->t_start || !g->F || !g->mu || !g->sd || !g->cost || !g->cc) {
        ct_guide_free(g);
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    }
    for (int i = 0; i < sp->n; i++) {
        g->cand_t[i] = tmpl_index(sp, sp->cand[i].tmpl);
        int d = ct_cm_features(p, sp->cand[i].tmpl, &sp->cand[i].params, g->sms, g->F + (size_t)i * CT_CM_MAXF);
        if (g->cand_t[i] >= 0)
            g->td[g->cand_t[i]].d = d;
        g->mu[i] = NAN;
        if (g->cand_t[i] >= 0)
            g->t_start[g->cand_t[i] + 1]++;
    }
    for (int t = 0; t < sp->ntemplates; t++)
        g->t_start[t + 1] += g->t_start[t];
    int *fill = calloc((size_t)sp->ntemplates + 1, sizeof *fill);
    if (!fill) {
        ct_guide_free(g);
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    }
    for (int i = 0; i < sp->n; i++)
        if (g->cand_t[i] >= 0)
            g->by_t[g->t_start[g->cand_t[i]] + fill[g->cand_t[i]]++] = i;
    free(fill);
    if (db) {
        ct_query q = {.family = p->family->name, .ok_only = 1};
        ct_status rc = ct_db_query(db, &q, take_stored, g, e);
        if (rc != CT_OK) {
            ct_guide_free(g);
            return rc;
        }
    }
    for (int t = 0; t < sp->ntemplates; t++)
        g->have_data |= g->td[t].nstored >= CT_GUIDE_MIN_ROWS;
    *out = g;
    return CT_OK;
}

void ct_guide_free(ct_guide *g)
{
    if (!g)
        return;
    for (int t = 0; g->td && t < g->sp->ntemplates; t++) {
        free(g->td[t].X);
        free(g->td[t].y);
    }
    free(g->td);
    free(g->cand_t);
    free(g->by_t);
    free(g->t_start);
    free(g->F);
    free(g->mu);
    free(g->sd);
    free(g->cost);
    ct_compcost_free(g->cc);
    free(g);
}

int ct_guide_stored_rows(const ct_guide *g)
{
    return g->stored;
}

int ct_guide_has_data(const ct_guide *g)
{
    return g->have_data;
}

const ct_compcost *ct_guide_compcost(const ct_guide *g)
{
    return g->cc;
}

void ct_guide_observe(ct_guide *g, int idx, double median_us, double compile_s, double measure_s)
{
    if (idx < 0 || idx >= g->sp->n)
        return;
    const ct_candidate *c = &g->sp->cand[idx];
    if (compile_s > 0 && isfinite(compile_s))
        ct_compcost_add(g->cc, c->tmpl, &c->params, compile_s);
    if (measure_s > 0 && isfinite(measure_s)) {
        g->measure_sum += measure_s;
        g->measure_n++;
    }
    int ti = g->cand_t[idx];
    if (ti < 0 || !(median_us > 0))
        return;
    tdata *td = &g->td[ti];
    int k = row_slot(td);
    if (k < 0)
        return;
    memcpy(td->X + (size_t)k * CT_CM_MAXF, g->F + (size_t)idx * CT_CM_MAXF, CT_CM_MAXF * sizeof *td->X);
    td->y[k] = log(median_us);
    td->nrun++;
    td->since_fit++;
}

/* Fit template ti on its rows: the stored ones weigh 1, the run's enough
 * to count for a third; then the run's mean residual and spread. */
static void fit_one(ct_guide *g, int ti)
{
    tdata *td = &g->td[ti];
    td->since_fit = 0;
    if (td->n < CT_GUIDE_MIN_ROWS || td->d <= 0)
        return;
    double *X = malloc((size_t)td->n * td->d * sizeof *X), *w = malloc((size_t)td->n * sizeof *w);
    if (!X || !w) {
        free(X), free(w);
        return;
    }
    double wr = td->nrun ? td->nstored / (2.0 * td->nrun) : 1.0;
    if (wr < 3)
        wr = 3;
    for (int i = 0; i < td->n; i++) {
        memcpy(X + (size_t)i * td->d, td->X + (size_t)i * CT_CM_MAXF, (size_t)td->d * sizeof *X);
        w[i] = i < td->nstored ? 1.0 : wr;
    }
    ct_cm_model m;
    if (ct_cm_fit(&m, X, td->y, w, td->n, td->d, 1.0) == 0) {
        td->m = m;
        double sum = 0, sq = 0;
        for (int i = td->nstored; i < td->n; i++)
            sum += td->y[i] - ct_cm_predict(&m, X + (size_t)i * td->d);
        td->offset = sum / (td->nrun + 2.0);
        for (int i = td->nstored; i < td->n; i++) {
            double r = td->y[i] - ct_cm_predict(&m, X + (size_t)i * td->d) - td->offset;
            sq += r * r;
        }
        /* The fit's spread, moving toward the spread of the run's own
         * residuals as they accumulate. */
        /* In-sample residuals understate the error by the degrees of
         * freedom the heavily weighted run rows used (at most half of them
         * counted, as in ct_cm_fit). */
        int act = 0;
        for (int j = 0; j < td->d; j++)
            act += m.scale[j] > 0;
        double dof = td->nrun - (act < td->nrun / 2 ? act : td->nrun / 2);
        double rs2 = td->nrun > 1 ? sq / (dof > 1 ? dof : 1) : 0;
        td->sd = sqrt((4 * m.resid_sd * m.resid_sd + td->nrun * rs2) / (4.0 + td->nrun));
        if (td->sd < 0.02)
            td->sd = 0.02;
    }
    free(X), free(w);
}

/* A template with too few rows for a model but measured by the run: its
 * candidates are predicted as the run's mean log time of it, with a wide
 * spread (at least FALLBACK_SD, a factor of 1.65 either way), so that the
 * search may still try them and the closeness estimate counts them. */
#define FALLBACK_SD 0.5

static void fallback_one(ct_guide *g, int t)
{
    tdata *td = &g->td[t];
    if (td->nrun == 0 || td->nrun == td->fb_nrun)
        return;
    td->fb_nrun = td->nrun;
    g->version++;
    double sum = 0, sq = 0;
    for (int i = td->nstored; i < td->n; i++)
        sum += td->y[i];
    double mean = sum / td->nrun;
    for (int i = td->nstored; i < td->n; i++)
        sq += (td->y[i] - mean) * (td->y[i] - mean);
    double sd = td->nrun > 1 ? sqrt(sq / (td->nrun - 1)) : 0;
    for (int k = g->t_start[t]; k < g->t_start[t + 1]; k++) {
        g->mu[g->by_t[k]] = mean;
        g->sd[g->by_t[k]] = sd > FALLBACK_SD ? sd : FALLBACK_SD;
    }
}

void ct_guide_fit(ct_guide *g, int all)
{
    const ct_space *sp = g->sp;
    for (int t = 0; t < sp->ntemplates; t++) {
        tdata *td = &g->td[t];
        if (td->n < CT_GUIDE_MIN_ROWS) {
            fallback_one(g, t);
            continue;
        }
        int due = td->m.n == 0 ? td->n >= CT_GUIDE_MIN_ROWS && (td->since_fit > 0 || td->nstored == td->n)
                               : td->since_fit >= (all ? 1 : REFIT_EVERY > td->nrun / 4 ? REFIT_EVERY : td->nrun / 4);
        if (!due)
            continue;
        fit_one(g, t);
        g->version++;
        for (int k = g->t_start[t]; td->m.n > 0 && k < g->t_start[t + 1]; k++) {
            int i = g->by_t[k];
            g->mu[i] = ct_cm_predict(&td->m, g->F + (size_t)i * CT_CM_MAXF) + td->offset;
            g->sd[i] = td->sd;
        }
    }
}

void ct_guide_steer(ct_guide *g, ct_search *s, double remaining_s, int nthreads)
{
    if (!g->have_data)
        return;
    ct_guide_fit(g, 0);
    if (g->version != g->pushed || !ct_search_has_model(s)) {
        ct_search_set_model(s, g->mu, g->sd);
        g->pushed = g->version;
    }
    if (remaining_s < 0)
        return;
    int seen = g->measure_n + ct_compcost_total(g->cc);
    if (!g->costs_valid || seen - g->costs_at >= (COSTS_EVERY > g->costs_at / 4 ? COSTS_EVERY : g->costs_at / 4)) {
        double measure = g->measure_n ? g->measure_sum / g->measure_n : MEASURE_PRIOR_S;
        for (int i = 0; i < g->sp->n; i++) {
            const ct_candidate *c = &g->sp->cand[i];
            double comp = ct_compcost_estimate(g->cc, c->tmpl, &c->params, NULL) / (nthreads > 0 ? nthreads : 1);
            g->cost[i] = comp > measure ? comp : measure;
        }
        g->costs_valid = 1;
        g->costs_at = seen;
    }
    ct_search_set_costs(s, g->cost, remaining_s);
}

void ct_guide_closeness(ct_guide *g, const ct_search *s, double winner_us, int since_best, double since_best_s,
                        ct_closeness *out)
{
    ct_guide_fit(g, 1);
    /* Models fitted on the run's own measurements alone extrapolate from
     * a few points of one problem: no basis for a figure. */
    int any = g->have_data;
    const char *why = any ? NULL : g->stored ? "too few stored measurements of these templates for a model"
                                             : "no verified candidates of these templates stored on this "
                                               "architecture to fit a model on";
    ct_closeness_estimate(s, g->sp, any ? g->mu : NULL, g->sd, why, winner_us, since_best, since_best_s, out);
}
