/* search.c - exhaustive, random and annealing search over a space. */
#include "search.h"
#include "costmodel.h"
#include "text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct ct_search {
    const ct_space *sp;
    ct_strategy strategy;
    int budget;
    unsigned long long rng;
    unsigned char *proposed;   /* per candidate */
    double *time;              /* measured median, 0 = not yet, <0 failed */
    int nproposed, nreported;
    int *order;                /* exhaustive/random: the sequence to propose */
    int norder, next;
    /* anneal */
    int current;               /* index of the state, -1 before one exists */
    double temperature;
    int *starts;
    int nstarts;
    int warmup;                /* random samples before annealing begins */
    int rr;                    /* round-robin over templates for their incumbents */
    /* model */
    int front;                 /* end of the baselines and one candidate per template in order */
    double *mu, *sd;           /* predicted log time and spread; mu NULL: no model */
    double *cost;              /* expected seconds per candidate; NULL: no time limit */
    double *pcost;             /* the expected cost each proposal was charged */
    double remaining, pending; /* seconds left; expected seconds of proposals not reported */
    double *score;             /* gain (per second) of each candidate */
    int dirty;                 /* scores to recompute: new predictions or costs */
    double score_best;         /* the best log time the scores were computed against */
};

/* Every EXPLORE_EVERY-th proposal of the model strategy is a random one:
 * the model was fitted on other problems and may be wrong about this one. */
#define EXPLORE_EVERY 5
#define EARLY_WINDOW 32

ct_status ct_strategy_parse(const char *text, ct_strategy *out, ct_err *e)
{
    static const char *const names[] = {"auto", "exhaustive", "random", "anneal", "model"};
    for (int i = 0; i < 5; i++)
        if (strcasecmp(text, names[i]) == 0) {
            *out = (ct_strategy)i;
            return CT_OK;
        }
    return ct_fail(e, CT_ERR_USAGE, "--strategy: unknown strategy '%s' (auto, exhaustive, random, anneal, model)",
                   ct_echo(text, (char[CT_ECHO_LEN]){0}, CT_ECHO_LEN));
}

const char *ct_strategy_name(ct_strategy s)
{
    static const char *const names[] = {"auto", "exhaustive", "random sample", "anneal (guided)",
                                         "model (learned cost model)"};
    return names[s];
}

static unsigned long long rnd(ct_search *s, unsigned long long n)
{
    return n ? ct_rand_next(&s->rng) % n : 0;
}

static double uniform(ct_search *s)
{
    return (double)(ct_rand_next(&s->rng) >> 11) / 9007199254740992.0;
}

ct_search *ct_search_new(const ct_space *sp, ct_strategy strategy, int budget, unsigned long long seed)
{
    ct_search *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->sp = sp;
    s->rng = seed;
    s->budget = budget < sp->n ? budget : sp->n;
    if (strategy == CT_SEARCH_AUTO)
        strategy = sp->n <= budget ? CT_SEARCH_EXHAUSTIVE : CT_SEARCH_ANNEAL;
    s->strategy = strategy;
    s->proposed = calloc((size_t)sp->n + 1, 1);
    s->time = calloc((size_t)sp->n + 1, sizeof *s->time);
    s->order = malloc(((size_t)sp->n + 1) * sizeof *s->order);
    s->starts = malloc(((size_t)sp->n + 1) * sizeof *s->starts);
    if (!s->proposed || !s->time || !s->order || !s->starts) {
        ct_search_free(s);
        return NULL;
    }
    /* Baselines first in every strategy: speedups are reported against them. */
    for (int i = 0; i < sp->n; i++)
        if (sp->cand[i].tmpl->is_baseline)
            s->order[s->norder++] = i;
    int nb = s->norder;
    for (int i = 0; i < sp->n; i++)
        if (!sp->cand[i].tmpl->is_baseline)
            s->order[s->norder++] = i;
    if (strategy != CT_SEARCH_EXHAUSTIVE) {
        /* Fisher-Yates over the non-baseline part. */
        for (int i = s->norder - 1; i > nb; i--) {
            int j = nb + (int)rnd(s, (unsigned long long)(i - nb + 1));
            int t = s->order[i];
            s->order[i] = s->order[j];
            s->order[j] = t;
        }
    }
    /* Every template (every algorithm) early in the order: a small one, such
     * as the FFT template beside thousands of direct kernels, would otherwise
     * rarely be sampled and annealing could never reach it, since neighbours
     * share a template. */
    int front = nb;
    for (int i = nb; i < s->norder; i++) {
        const ct_template *t = sp->cand[s->order[i]].tmpl;
        int seen = 0;
        for (int j = nb; j < front && !seen; j++)
            seen = sp->cand[s->order[j]].tmpl == t;
        if (!seen) {
            int x = s->order[front];
            s->order[front++] = s->order[i];
            s->order[i] = x;
        }
    }
    s->front = front;
    s->current = -1;
    s->temperature = 0.05;
    /* The guided search first spends a tenth of its budget (at least 8) on a
     * random sample to find good regions. */
    s->warmup = nb + (s->budget / 10 > 8 ? s->budget / 10 : 8);
    if (s->warmup > s->budget)
        s->warmup = s->budget;
    return s;
}

void ct_search_free(ct_search *s)
{
    if (!s)
        return;
    free(s->proposed);
    free(s->time);
    free(s->order);
    free(s->starts);
    free(s->mu);
    free(s->sd);
    free(s->cost);
    free(s->pcost);
    free(s->score);
    free(s);
}

ct_strategy ct_search_strategy(const ct_search *s)
{
    return s->strategy;
}

int ct_search_budget(const ct_search *s)
{
    return s->budget;
}

static int equal_values(const ct_params *a, const ct_params *b)
{
    int n = 0;
    for (int i = 0; i < a->n; i++)
        if (ct_params_get(b, a->names[i], -999999) == a->values[i])
            n++;
    return n;
}

void ct_search_add_start(ct_search *s, const ct_template *t, const ct_params *p)
{
    int best = -1, best_eq = -1;
    for (int i = 0; i < s->sp->n; i++) {
        if (s->sp->cand[i].tmpl != t)
            continue;
        int eq = equal_values(&s->sp->cand[i].params, p);
        if (eq > best_eq) {
            best_eq = eq;
            best = i;
        }
    }
    if (best >= 0 && s->nstarts < s->sp->n)
        s->starts[s->nstarts++] = best;
}

/* Candidates of the same template that differ from c in exactly one
 * parameter, by one step in that parameter's list order (the space keeps
 * list order within a parameter, so "one step" is the next value that
 * occurs). Writes up to max indices. */
static int neighbours(const ct_search *s, int c, int *out, int max)
{
    const ct_space *sp = s->sp;
    const ct_candidate *x = &sp->cand[c];
    const int np = x->params.n;
    /* One pass over the space: a candidate equal to x but at one parameter
     * k is a neighbour candidate for that k; per k, the nearest values
     * below and above x's (the first such candidate on a tie). */
    int lo[CT_MAX_PARAMS], hi[CT_MAX_PARAMS];
    long vlo[CT_MAX_PARAMS], vhi[CT_MAX_PARAMS];
    for (int k = 0; k < np; k++)
        lo[k] = hi[k] = -1, vlo[k] = vhi[k] = 0;
    for (int i = 0; i < sp->n; i++) {
        const ct_candidate *y = &sp->cand[i];
        if (i == c || y->tmpl != x->tmpl || y->params.n != np)
            continue;
        int k = -1, diff = 0;
        for (int j = 0; j < np && diff <= 1; j++)
            if (y->params.values[j] != x->params.values[j])
                diff++, k = j;
        if (diff != 1)
            continue;
        const long vx = x->params.values[k], vy = y->params.values[k];
        if (vy < vx && (lo[k] < 0 || vy > vlo[k]))
            lo[k] = i, vlo[k] = vy;
        if (vy > vx && (hi[k] < 0 || vy < vhi[k]))
            hi[k] = i, vhi[k] = vy;
    }
    int n = 0;
    for (int k = 0; k < np && n < max; k++) {
        if (lo[k] >= 0 && n < max)
            out[n++] = lo[k];
        if (hi[k] >= 0 && n < max)
            out[n++] = hi[k];
    }
    return n;
}

static int best_measured(const ct_search *s)
{
    int best = -1;
    for (int i = 0; i < s->sp->n; i++)
        if (s->time[i] > 0 && !s->sp->cand[i].tmpl->is_baseline && (best < 0 || s->time[i] < s->time[best]))
            best = i;
    return best;
}

/* The fastest measured candidate of the rr-th non-baseline template that
 * has one (advancing rr), or -1. */
static int template_incumbent(ct_search *s)
{
    const ct_space *sp = s->sp;
    for (int tries = 0; tries < sp->ntemplates; tries++) {
        const ct_template *t = sp->stats[s->rr++ % sp->ntemplates].tmpl;
        if (!t || t->is_baseline)
            continue;
        int best = -1;
        for (int i = 0; i < sp->n; i++)
            if (sp->cand[i].tmpl == t && s->time[i] > 0 && (best < 0 || s->time[i] < s->time[best]))
                best = i;
        if (best >= 0)
            return best;
    }
    return -1;
}

static void propose(ct_search *s, int i, int *idx, int *n)
{
    if (s->cost && s->pcost) {
        s->pcost[i] = s->cost[i];
        s->pending += s->cost[i];
    }
    s->proposed[i] = 1;
    s->nproposed++;
    idx[(*n)++] = i;
}

/* Whether the annealing search proposes: its own strategy, and the
 * model's without a model. */
static int annealing(const ct_search *s)
{
    return s->strategy == CT_SEARCH_ANNEAL || (s->strategy == CT_SEARCH_MODEL && !s->mu);
}

/* The expected seconds a proposal may still cost under the time limit. */
static double room(const ct_search *s)
{
    return s->cost ? s->remaining - s->pending : INFINITY;
}

/* The next candidate of the shuffled order not proposed whose expected
 * cost fits, or -1. Candidates passed over for their cost stay available. */
static int next_in_order(ct_search *s)
{
    while (s->next < s->norder && s->proposed[s->order[s->next]])
        s->next++;
    double r = room(s);
    for (int k = s->next; k < s->norder; k++) {
        int i = s->order[k];
        if (!s->proposed[i] && (!s->cost || s->cost[i] <= r))
            return i;
    }
    return -1;
}

static int model_next(ct_search *s, int *idx, int max)
{
    int n = 0;
    /* Baselines and one candidate of every template, whatever the model
     * says: speedups are against the baseline, and a template without
     * data has no prediction to be chosen by. */
    const ct_space *sp = s->sp;
    for (; n < max && s->nproposed < s->budget && s->next < s->front; s->next++) {
        int i = s->order[s->next];
        /* Under a time limit a template's first candidate waits when its
         * expected cost does not fit (it may be chosen later). */
        if (!s->proposed[i] && (sp->cand[i].tmpl->is_baseline || !s->cost || s->cost[i] <= room(s)))
            propose(s, i, idx, &n);
    }
    /* The winners of the nearest tuned problems (ct_search_add_start):
     * measured, not predicted. */
    for (int k = 0; k < s->nstarts && n < max && s->nproposed < s->budget; k++) {
        int i = s->starts[k];
        if (!s->proposed[i] && (!s->cost || s->cost[i] <= room(s)))
            propose(s, i, idx, &n);
    }
    double best = INFINITY;
    for (int i = 0; i < sp->n; i++)
        if (s->time[i] > 0 && !sp->cand[i].tmpl->is_baseline && log(s->time[i]) < best)
            best = log(s->time[i]);
    if (!isfinite(best))   /* nothing measured yet: improve on the best prediction */
        for (int i = 0; i < sp->n; i++)
            if (isfinite(s->mu[i]) && s->mu[i] < best)
                best = s->mu[i];
    /* Spaces run to 100,000 candidates: scores only when they change. */
    if (s->dirty || best != s->score_best)
        for (int i = 0; i < sp->n; i++)
            s->score[i] = isfinite(s->mu[i]) ? ct_cm_expected_gain(s->mu[i], s->sd[i], best) /
                                                   (s->cost ? (s->cost[i] > 1e-6 ? s->cost[i] : 1e-6) : 1.0)
                                             : -1;
    s->dirty = 0;
    s->score_best = best;
    /* Until results come back the predictions are another problem's:
     * at most EARLY_WINDOW proposals, or twice as many as were reported,
     * await results, so that the first measurements (each template's
     * scale on this problem) steer the next picks; enough to keep a
     * compile pool of 16 threads busy. */
    int cap = 2 * s->nreported > EARLY_WINDOW ? 2 * s->nreported : EARLY_WINDOW;
    while (n < max && s->nproposed < s->budget && s->nproposed - s->nreported < cap) {
        int pick = -1;
        if (s->nproposed % EXPLORE_EVERY == EXPLORE_EVERY - 1)
            pick = next_in_order(s);
        if (pick < 0) {
            double r = room(s);
            for (int i = 0; i < sp->n; i++)
                if (!s->proposed[i] && s->score[i] >= 0 && (!s->cost || s->cost[i] <= r) &&
                    (pick < 0 || s->score[i] > s->score[pick]))
                    pick = i;
        }
        if (pick < 0)
            pick = next_in_order(s);
        if (pick < 0)
            break;
        propose(s, pick, idx, &n);
    }
    return n;
}

int ct_search_next(ct_search *s, int *idx, int max)
{
    int n = 0;
    if (s->strategy == CT_SEARCH_MODEL && s->mu)
        return model_next(s, idx, max);
    if (!annealing(s) || s->nproposed < s->warmup) {
        int limit = annealing(s) ? s->warmup : s->budget;
        while (n < max && s->nproposed < limit && s->next < s->norder) {
            int i = s->order[s->next++];
            if (!s->proposed[i])
                propose(s, i, idx, &n);
        }
        if (n > 0 || !annealing(s))
            return n;
    }
    /* The caller bounds how many proposals await results (its window), so
     * annealing always proposes from measurements at most that old. */
    for (int k = 0; k < s->nstarts && n < max && s->nproposed < s->budget; k++)
        if (!s->proposed[s->starts[k]])
            propose(s, s->starts[k], idx, &n);
    if (n > 0)
        return n;
    int best = best_measured(s);
    if (best < 0)
        best = s->order[s->next < s->norder ? s->next : 0];
    if (s->current < 0 || s->time[s->current] <= 0)
        s->current = best;
    int nb[2 * CT_MAX_PARAMS];
    /* Neighbours of the current state, of the best so far, and of the best
     * of one template in turn: a template whose best is slower than another
     * template's best is still searched locally, so an algorithm sampled at
     * a poor setting (an FFT size, say) can still win. */
    int states[3] = {s->current, template_incumbent(s), best};
    /* Each state gets a share of the batch, so one neighbourhood cannot
     * crowd out the others. */
    int share = (max + 2) / 3;
    for (int st = 0; st < 3 && n < max; st++) {
        if (states[st] < 0)
            continue;
        int m = neighbours(s, states[st], nb, 2 * CT_MAX_PARAMS);
        for (int t = m - 1; t > 0; t--) {   /* random order among them */
            int j = (int)rnd(s, (unsigned long long)t + 1);
            int x = nb[t];
            nb[t] = nb[j];
            nb[j] = x;
        }
        int limit = st == 2 ? max : (n + share < max ? n + share : max);
        int before = n;
        for (int j = 0; j < m && n < limit && s->nproposed < s->budget; j++)
            if (!s->proposed[nb[j]])
                propose(s, nb[j], idx, &n);
        /* A template's incumbent at a local minimum (FFT sizes are not
         * monotone in time): try another of its candidates at random. */
        if (st == 1 && n == before && n < max && s->nproposed < s->budget) {
            const ct_template *t = s->sp->cand[states[st]].tmpl;
            int cnt = 0;
            for (int i = 0; i < s->sp->n; i++)
                cnt += s->sp->cand[i].tmpl == t && !s->proposed[i];
            if (cnt > 0) {
                int pick = (int)rnd(s, (unsigned long long)cnt);
                for (int i = 0; i < s->sp->n; i++)
                    if (s->sp->cand[i].tmpl == t && !s->proposed[i] && pick-- == 0) {
                        propose(s, i, idx, &n);
                        break;
                    }
            }
        }
    }
    /* A neighbourhood exhausted: jump to a random unmeasured candidate. */
    while (n == 0 && s->nproposed < s->budget && s->next < s->norder) {
        int i = s->order[s->next++];
        if (!s->proposed[i])
            propose(s, i, idx, &n);
    }
    return n;
}

void ct_search_report(ct_search *s, int idx, double median_us)
{
    s->time[idx] = median_us > 0 ? median_us : -1;
    s->nreported++;
    if (s->pcost) {
        s->pending -= s->pcost[idx];
        s->pcost[idx] = 0;
    }
    if (!annealing(s) || median_us <= 0 || s->sp->cand[idx].tmpl->is_baseline)
        return;
    /* Metropolis step on relative time, with a geometric cooling schedule. */
    if (s->current < 0 || s->time[s->current] <= 0) {
        s->current = idx;
    } else {
        double delta = (median_us - s->time[s->current]) / s->time[s->current];
        if (delta < 0 || uniform(s) < exp(-delta / s->temperature))
            s->current = idx;
    }
    s->temperature *= 0.97;
    if (s->temperature < 1e-4)
        s->temperature = 1e-4;
}

/* A copy of n doubles into *dst (allocated once). */
static int copy_into(double **dst, const double *src, int n)
{
    if (!*dst && !(*dst = malloc((size_t)(n > 0 ? n : 1) * sizeof **dst)))
        return -1;
    memcpy(*dst, src, (size_t)n * sizeof **dst);
    return 0;
}

void ct_search_set_model(ct_search *s, const double *mu, const double *sd)
{
    if (!mu) {
        free(s->mu);
        s->mu = NULL;
        return;
    }
    if (!s->score && !(s->score = malloc(((size_t)s->sp->n + 1) * sizeof *s->score)))
        return;
    if (copy_into(&s->sd, sd, s->sp->n) != 0 || copy_into(&s->mu, mu, s->sp->n) != 0) {
        free(s->mu);
        s->mu = NULL;
    }
    s->dirty = 1;
}

int ct_search_has_model(const ct_search *s)
{
    return s->mu != NULL;
}

void ct_search_set_costs(ct_search *s, const double *cost, double remaining_s)
{
    if (!cost) {
        s->dirty |= s->cost != NULL;
        free(s->cost);
        s->cost = NULL;
        return;
    }
    if (!s->pcost && !(s->pcost = calloc((size_t)s->sp->n + 1, sizeof *s->pcost)))
        return;
    if (!s->cost || memcmp(s->cost, cost, (size_t)s->sp->n * sizeof *cost) != 0) {
        if (copy_into(&s->cost, cost, s->sp->n) != 0)
            return;
        s->dirty = 1;
    }
    s->remaining = remaining_s;
}

double ct_search_time(const ct_search *s, int idx)
{
    return s->time[idx];
}
