/* search.c - exhaustive, random and annealing search over a space. */
#include "search.h"
#include "costmodel.h"
#include "text.h"
#include "timing.h"

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
    /* model */
    int front;                 /* end of the baselines and one candidate per template in order */
    double *mu, *sd;           /* predicted log time and spread; mu NULL: no model */
    double *cost;              /* expected seconds per candidate; NULL: no time limit */
    double *pcost;             /* the expected cost each proposal was charged */
    double remaining, pending; /* seconds left; expected seconds of proposals not reported */
    double *score;             /* gain (per second) of each candidate */
    int dirty;                 /* scores to recompute: new predictions or costs */
    double score_best;         /* the best log time the scores were computed against */
    /* templates: a share of the proposals each (template_weight) */
    int *tix;                  /* per candidate: its index in sp->stats, -1 for none */
    int *tleft, *tn, *tcur;    /* per template: not proposed, reported ok, cursor into order */
    double *tbest;             /* per template: best log time reported, INFINITY before one */
    double *tw;                /* per template: the weights of the last draw */
    /* The model's error on the run's own candidates, each predicted when
     * it was proposed (before its time was known). */
    double *pmu;               /* per candidate: the prediction it was proposed with, NAN for none */
};

/* Every EXPLORE_EVERY-th proposal of the model strategy explores (a draw by
 * template weight): the model was fitted on other problems and may be
 * wrong about this one. */
#define EXPLORE_EVERY 5
#define EARLY_WINDOW 32
/* What the model strategy's proposals are, in turn (after the baselines,
 * one candidate of every template and the starting points): 'E' a draw by
 * template weight (the exploration above), 'L' a neighbour of one of the
 * LOCAL_TOP fastest measured (near_the_best), 'P' the same with two
 * parameters moved at once (pair_step), 'M' the candidate of the best
 * score. Two steps in five from the best points: on seed 003's layer the
 * model alone settled 10% above a configuration one step from its third
 * best (H200, 2026-11-27). One of the two moves a pair: on conv1dc:4:512 a
 * run of 150 candidates ended 19% above a configuration two steps from its
 * best (H100, 2026-11-28); replayed on that grid's records with the rest of
 * the space filled in from them (search_quality --impute), 150 candidates
 * came within 5% in 9 of 10 seeds with pairs and 3 of 10 without, and at
 * 150 and 600 candidates no grid problem's median was worse by more than
 * 0.2% (docs/BENCHMARKS.md, run 10). */
static const char MODEL_TURNS[EXPLORE_EVERY + 1] = "LMPME";
#define LOCAL_TOP 4

/* How the guided searches share their proposals between templates (an
 * algorithm each: tiled, tensor-core, FFT ...). A template's weight is
 * exp(-gap / TEMPLATE_TAU), where gap is how much slower (in log time) its
 * best is than the best of any template, less an optimism bonus of
 * TEMPLATE_BONUS / sqrt(its verified count), at least TEMPLATE_FLOOR; one
 * not yet measured weighs 1. So a template 10% slower keeps about two
 * thirds of its share, one twice as slow about a twentieth: a space where
 * the fast algorithm is a small minority of the candidates (seed 003's
 * layer: the tiled kernels are 8% of them, at 300 us against the tensor-core
 * kernels' 500 us) is searched where its winner is, where a uniform sample
 * spent nine tenths of a short run on the slower algorithms. The floor and
 * the bonus keep a template that looked poor at first (an FFT size, say)
 * in play. */
#define TEMPLATE_TAU 0.223
#define TEMPLATE_BONUS 0.3
#define TEMPLATE_FLOOR 0.02

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
    s->tix = malloc(((size_t)sp->n + 1) * sizeof *s->tix);
    size_t nt = (size_t)sp->ntemplates + 1;
    s->tleft = calloc(nt, sizeof *s->tleft);
    s->tn = calloc(nt, sizeof *s->tn);
    s->tcur = calloc(nt, sizeof *s->tcur);
    s->tbest = malloc(nt * sizeof *s->tbest);
    s->tw = malloc(nt * sizeof *s->tw);
    if (!s->proposed || !s->time || !s->order || !s->starts || !s->tix || !s->tleft || !s->tn || !s->tcur ||
        !s->tbest || !s->tw) {
        ct_search_free(s);
        return NULL;
    }
    for (int k = 0; k < sp->ntemplates; k++)
        s->tbest[k] = INFINITY;
    for (int i = 0; i < sp->n; i++) {
        s->tix[i] = -1;
        for (int k = 0; k < sp->ntemplates && s->tix[i] < 0; k++)
            if (sp->stats[k].tmpl == sp->cand[i].tmpl)
                s->tix[i] = k;
        if (s->tix[i] >= 0)
            s->tleft[s->tix[i]]++;
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
    free(s->tix);
    free(s->tleft);
    free(s->tn);
    free(s->tcur);
    free(s->tbest);
    free(s->tw);
    free(s->pmu);
    free(s);
}

ct_strategy ct_search_strategy(const ct_search *s)
{
    return s->strategy;
}

int ct_search_window(int budget, int nthreads)
{
    const int tenth = budget / 10;
    return tenth < nthreads ? nthreads : tenth > 4 * nthreads ? 4 * nthreads : tenth;
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

static void propose(ct_search *s, int i, int *idx, int *n)
{
    if (s->pmu)
        s->pmu[i] = s->mu ? s->mu[i] : NAN;
    if (s->cost && s->pcost) {
        s->pcost[i] = s->cost[i];
        s->pending += s->cost[i];
    }
    s->proposed[i] = 1;
    s->nproposed++;
    if (s->tix[i] >= 0)
        s->tleft[s->tix[i]]--;
    idx[(*n)++] = i;
}

/* Template k's share of the proposals (TEMPLATE_TAU above); 0 when it has
 * nothing left to propose or is a baseline. */
static double template_weight(const ct_search *s, int k)
{
    const ct_template *t = s->sp->stats[k].tmpl;
    if (!t || t->is_baseline || s->tleft[k] <= 0)
        return 0;
    if (s->tn[k] == 0)
        return 1;
    double best = INFINITY;
    for (int j = 0; j < s->sp->ntemplates; j++)
        if (s->tbest[j] < best)
            best = s->tbest[j];
    double gap = s->tbest[k] - TEMPLATE_BONUS / sqrt((double)s->tn[k]) - best;
    double w = gap > 0 ? exp(-gap / TEMPLATE_TAU) : 1;
    return w > TEMPLATE_FLOOR ? w : TEMPLATE_FLOOR;
}

/* A template drawn by weight, or -1 when none has candidates left. measured:
 * only templates with a verified candidate (whose incumbent to move from). */
static int pick_template(ct_search *s, int measured)
{
    double sum = 0;
    const int nt = s->sp->ntemplates;
    for (int k = 0; k < nt; k++)
        sum += s->tw[k] = measured && s->tn[k] == 0 ? 0 : template_weight(s, k);
    if (!(sum > 0))
        return -1;
    double u = uniform(s) * sum;
    int last = -1;
    for (int k = 0; k < nt; k++)
        if (s->tw[k] > 0) {
            last = k;
            if ((u -= s->tw[k]) <= 0)
                return k;
        }
    return last;   /* rounding */
}

/* The fastest measured candidate of a template drawn by weight among those
 * with one, or -1. */
static int template_incumbent(ct_search *s)
{
    int k = pick_template(s, 1);
    if (k < 0)
        return -1;
    int best = -1;
    for (int i = 0; i < s->sp->n; i++)
        if (s->tix[i] == k && s->time[i] > 0 && (best < 0 || s->time[i] < s->time[best]))
            best = i;
    return best;
}

/* The next candidate of the shuffled order from *cursor, of template k (any
 * template when k < 0), not proposed and of expected cost at most room_s, or
 * -1. The cursor moves past what can never be proposed again (proposed
 * candidates, other templates'); candidates passed over for their cost stay
 * available. */
static int next_fitting(ct_search *s, int *cursor, int k, double room_s)
{
    while (*cursor < s->norder &&
           (s->proposed[s->order[*cursor]] || (k >= 0 && s->tix[s->order[*cursor]] != k)))
        (*cursor)++;
    for (int j = *cursor; j < s->norder; j++) {
        int i = s->order[j];
        if (!s->proposed[i] && (k < 0 || s->tix[i] == k) && (!s->cost || s->cost[i] <= room_s))
            return i;
    }
    return -1;
}

/* A candidate of a template drawn by weight, at random within it, whose
 * expected cost fits room_s; -1 when none does. */
static int draw_by_template(ct_search *s, double room_s)
{
    for (int tries = 0; tries < 4; tries++) {
        int k = pick_template(s, 0);
        if (k < 0)
            return -1;
        int i = next_fitting(s, &s->tcur[k], k, room_s);
        if (i >= 0)
            return i;
    }
    return -1;
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

/* An unproposed candidate of c's template, drawn at random, that differs
 * from it at exactly two parameters, each by one value up or down in the
 * values the template's candidates take, whose expected cost fits room_s;
 * -1 when there is none. A kernel's best configuration often sits where two
 * parameters move together and the configurations one parameter away in
 * between are slower or not admissible: the input channels staged with the
 * output channels a block computes (conv1dc:4:512's winner, from the 150th
 * candidate's best), a tile's rows with its columns. */
static int pair_step(ct_search *s, int c, double room_s)
{
    const ct_space *sp = s->sp;
    const ct_candidate *x = &sp->cand[c];
    const int np = x->params.n;
    long below[CT_MAX_PARAMS], above[CT_MAX_PARAMS];
    int hb[CT_MAX_PARAMS] = {0}, ha[CT_MAX_PARAMS] = {0};
    for (int i = 0; i < sp->n; i++) {
        const ct_candidate *y = &sp->cand[i];
        if (y->tmpl != x->tmpl || y->params.n != np)
            continue;
        for (int k = 0; k < np; k++) {
            long v = y->params.values[k], vx = x->params.values[k];
            if (v < vx && (!hb[k] || v > below[k]))
                below[k] = v, hb[k] = 1;
            if (v > vx && (!ha[k] || v < above[k]))
                above[k] = v, ha[k] = 1;
        }
    }
    int pick = -1;
    unsigned long long seen = 0;
    for (int i = 0; i < sp->n; i++) {
        const ct_candidate *y = &sp->cand[i];
        if (i == c || y->tmpl != x->tmpl || y->params.n != np || s->proposed[i] || (s->cost && s->cost[i] > room_s))
            continue;
        int diff = 0, adjacent = 1;
        for (int k = 0; k < np && diff <= 2; k++) {
            long v = y->params.values[k];
            if (v == x->params.values[k])
                continue;
            diff++;
            adjacent &= (hb[k] && v == below[k]) || (ha[k] && v == above[k]);
        }
        if (diff == 2 && adjacent && rnd(s, ++seen) == 0)   /* reservoir: each kept with chance 1/seen */
            pick = i;
    }
    return pick;
}

/* An unproposed neighbour (one parameter one step away; pairs: two,
 * pair_step) of one of the LOCAL_TOP fastest candidates measured, drawn at
 * random, whose expected cost fits room_s; -1 when there is none. A ridge
 * model of log time is a smooth bowl in each parameter and misses the
 * interactions that make a kernel's best configuration (outputs per thread
 * with channels per thread, say), so the model strategy also steps from its
 * best points, as the anneal search does. */
static int near_the_best(ct_search *s, double room_s, int pairs)
{
    int top[LOCAL_TOP], ntop = 0;
    for (int i = 0; i < s->sp->n; i++) {
        if (!(s->time[i] > 0) || s->sp->cand[i].tmpl->is_baseline)
            continue;
        int j;
        if (ntop < LOCAL_TOP)
            j = ntop++;
        else if (s->time[i] < s->time[top[LOCAL_TOP - 1]])
            j = LOCAL_TOP - 1;
        else
            continue;
        while (j > 0 && s->time[top[j - 1]] > s->time[i]) {
            top[j] = top[j - 1];
            j--;
        }
        top[j] = i;
    }
    int nb[2 * CT_MAX_PARAMS];
    for (int tries = 0; tries < ntop; tries++) {
        int from = top[(int)rnd(s, (unsigned long long)ntop)];
        if (pairs) {
            int i = pair_step(s, from, room_s);
            if (i >= 0)
                return i;
            continue;
        }
        int m = neighbours(s, from, nb, 2 * CT_MAX_PARAMS), free = 0;
        for (int j = 0; j < m; j++)
            if (!s->proposed[nb[j]] && (!s->cost || s->cost[nb[j]] <= room_s))
                nb[free++] = nb[j];
        if (free)
            return nb[rnd(s, (unsigned long long)free)];
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
        char turn = MODEL_TURNS[s->nproposed % EXPLORE_EVERY];
        if (turn == 'E')
            pick = draw_by_template(s, room(s));
        else if (turn == 'L' || turn == 'P')
            pick = near_the_best(s, room(s), turn == 'P');
        if (pick < 0) {
            /* The model's score, times its template's weight: what the run
             * measured of a template overrides a model that keeps finding
             * new candidates of it fast (a fit on other problems can
             * extrapolate far below what the template runs here). */
            double r = room(s), ps = 0;
            for (int k = 0; k < sp->ntemplates; k++)
                s->tw[k] = template_weight(s, k);
            /* In the shuffled order: equal scores (a template predicted
             * by its mean) are taken at random, not by list position. */
            for (int j = 0; j < s->norder; j++) {
                int i = s->order[j];
                if (s->proposed[i] || s->score[i] < 0 || (s->cost && s->cost[i] > r))
                    continue;
                double sc = s->score[i] * (s->tix[i] >= 0 ? s->tw[s->tix[i]] : 1);
                if (pick < 0 || sc > ps)
                    pick = i, ps = sc;
            }
        }
        if (pick < 0)
            pick = next_fitting(s, &s->next, -1, room(s));
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
    if (!annealing(s)) {
        while (n < max && s->nproposed < s->budget && s->next < s->norder) {
            int i = s->order[s->next++];
            if (!s->proposed[i])
                propose(s, i, idx, &n);
        }
        return n;
    }
    /* Until results come back the search knows nothing of this problem: at
     * most EARLY_WINDOW proposals, or twice as many as were reported, await
     * results (the caller's window bounds them after that), so that the
     * first measurements steer the next picks. */
    int cap = 2 * s->nreported > EARLY_WINDOW ? 2 * s->nreported : EARLY_WINDOW;
    if (max > cap - (s->nproposed - s->nreported))
        max = cap - (s->nproposed - s->nreported);
    if (max <= 0)
        return 0;
    /* The warm-up: the baselines and one candidate of every template (the
     * front of the order), then candidates drawn by template weight. */
    while (n < max && s->nproposed < s->warmup) {
        while (s->next < s->front && s->proposed[s->order[s->next]])
            s->next++;
        int i = s->next < s->front ? s->order[s->next++] : draw_by_template(s, INFINITY);
        if (i < 0)
            break;
        propose(s, i, idx, &n);
    }
    if (n > 0)
        return n;
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
     * of a template drawn by weight: a template whose best is a little
     * slower than another template's best is still searched locally, so an
     * algorithm sampled at a poor setting (an FFT size, say) can still win. */
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
         * monotone in time): another of its candidates at random. */
        if (st == 1 && n == before && n < max && s->nproposed < s->budget) {
            int i = next_fitting(s, &s->tcur[s->tix[states[st]]], s->tix[states[st]], INFINITY);
            if (i >= 0)
                propose(s, i, idx, &n);
        }
    }
    /* Every neighbourhood exhausted: a candidate drawn by template weight. */
    if (n == 0 && s->nproposed < s->budget) {
        int i = draw_by_template(s, INFINITY);
        if (i < 0)
            i = next_fitting(s, &s->next, -1, INFINITY);
        if (i >= 0)
            propose(s, i, idx, &n);
    }
    return n;
}

void ct_search_report(ct_search *s, int idx, double median_us)
{
    s->time[idx] = median_us > 0 ? median_us : -1;
    s->nreported++;
    int k = s->tix[idx];
    if (k >= 0 && median_us > 0) {
        s->tn[k]++;
        if (log(median_us) < s->tbest[k])
            s->tbest[k] = log(median_us);
    }
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
    if (!s->pmu) {
        if (!(s->pmu = malloc(((size_t)s->sp->n + 1) * sizeof *s->pmu)))
            return;
        for (int i = 0; i < s->sp->n; i++)
            s->pmu[i] = NAN;
    }
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

double ct_search_model_error(const ct_search *s, int *n)
{
    /* Robust: 1.4826 times the median absolute error (the standard
     * deviation where the errors are normal), so that a few wild misses (a
     * template the model thought fast) do not swamp the typical error. */
    *n = 0;
    if (!s->pmu)
        return NAN;
    double *e = malloc(((size_t)s->sp->n + 1) * sizeof *e);
    if (!e)
        return NAN;
    for (int i = 0; i < s->sp->n; i++)
        if (isfinite(s->pmu[i]) && s->time[i] > 0 && !s->sp->cand[i].tmpl->is_baseline)
            e[(*n)++] = fabs(log(s->time[i]) - s->pmu[i]);
    double r = NAN;
    if (*n) {
        qsort(e, (size_t)*n, sizeof *e, ct_cmp_double);
        r = 1.4826 * (*n % 2 ? e[*n / 2] : 0.5 * (e[*n / 2 - 1] + e[*n / 2]));
    }
    free(e);
    return r;
}
