/* search_quality.c - how close the guided searches get to the best of a
 * space, replayed from measurements, without a GPU.
 *
 * Input: a database holding the measured times of one problem on one device:
 * an exhaustive run, or (--measured) whatever runs measured it, such as the
 * traces of bench/search_bench.py imported with `convtune db import`. With
 * --measured the space is cut to the candidates the database holds a
 * verified time for, so that every proposal has a time; the optimum is then
 * the best measured, and the figures compare strategies on that subset, not
 * on the whole space. For each strategy, budget and seed the search runs
 * over the space, each candidate it proposes "measured" by looking up its
 * stored time (16 proposals at a time, each batch reported before the
 * next). The model strategy fits its models on --train (default --db): the
 * guide leaves out the problem's own rows on the device, so one database of
 * a whole grid serves every problem, leave one out. The output is a Markdown
 * table of the best time found against the optimum, and of the model
 * strategy's closeness claims (the tuner's figure for each winner, floored
 * at the timing noise) that held against it.
 *
 * --impute keeps the whole space instead: a candidate without a stored time
 * gets the geometric mean of the times of its nearest measured neighbours
 * of the same template (those fewest parameters away); templates with
 * nothing measured leave the space. A synthetic landscape: the measured
 * times where the runs went and a smooth fill around them, so that a search
 * can go where the runs did not and pay for it, where --measured only
 * offers it what they found. No imputed time is below the fastest measured
 * of its neighbours, so the optimum is a measured one: a random deviation
 * per candidate, as wide as the fill's own error, would put the tails of
 * thousands of draws below every measured time, and the optimum would be
 * one of those.
 *
 * usage: search_quality --db DB --problem SPEC [--config FILE] [--arch sm_90]
 *                       [--fraction 0.2 | --budgets 50,150] [--seeds 10]
 *                       [--template NAME] [--measured | --impute]
 *                       [--strategies anneal,random,model] [--train DB] [--sms N]
 *                       [--window W] [--step S]
 * --window: the proposals in flight (default: the tuner's for the budget and
 * 16 compile threads, ct_search_window); --step: the results that come back
 * before the search proposes again (default 4).
 * --sms: the device's SM count, for the rules a device's space applies
 * (tc16gktcl's split-K of a grid of four waves or more refused): a run's
 * space on the GPU had them, and the cost model's features of the waves;
 * 0 (the default): none, as `convtune space` without a device. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "closeness.h"
#include "config.h"
#include "db.h"
#include "guide.h"
#include "runner.h"
#include "search.h"
#include "timing.h"

typedef struct measured {
    char key[600];
    double us;
} measured;

typedef struct table {
    measured *v;
    int n, cap;
    char device[128];
} table;

static int collect(const ct_result *r, void *user)
{
    table *t = user;
    if (r->status != CT_RS_OK)
        return 0;
    if (!t->device[0])
        snprintf(t->device, sizeof t->device, "%s", r->device);
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 1024;
        t->v = realloc(t->v, (size_t)t->cap * sizeof *t->v);
    }
    snprintf(t->v[t->n].key, sizeof t->v[t->n].key, "%s %s", r->tmpl, r->params_json);
    t->v[t->n].us = r->median_us;
    t->n++;
    return 0;
}

/* By key, then time: bsearch may land on any of a key's entries, so
 * duplicates (one candidate measured by several runs) are folded into the
 * first, fastest one after sorting (fold_keys). */
static int cmp_key(const void *a, const void *b)
{
    const measured *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->us > y->us) - (x->us < y->us);
}

static int fold_keys(measured *v, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (k == 0 || strcmp(v[k - 1].key, v[i].key))
            v[k++] = v[i];
    return k;
}

static int cmp_key_only(const void *a, const void *b)
{
    return strcmp(((const measured *)a)->key, ((const measured *)b)->key);
}

/* Parameters of a and b that differ (same template). */
static int distance(const ct_candidate *a, const ct_candidate *b)
{
    int d = 0;
    for (int k = 0; k < a->params.n; k++)
        d += a->params.values[k] != b->params.values[k];
    return d;
}

/* The mean log time of the measured candidates of i's template (us > 0)
 * fewest parameters from i, or NAN where there is none. */
static double nearest_log(const ct_space *sp, const double *us, int i)
{
    int dmin = 1 << 30, n = 0;
    double sum = 0;
    for (int j = 0; j < sp->n; j++) {
        if (j == i || !(us[j] > 0) || sp->cand[j].tmpl != sp->cand[i].tmpl)
            continue;
        int d = distance(&sp->cand[i], &sp->cand[j]);
        if (d < dmin)
            dmin = d, n = 0, sum = 0;
        if (d == dmin)
            sum += log(us[j]), n++;
    }
    return n ? sum / n : NAN;
}

/* --impute: times for the candidates without one (us <= 0), as the header
 * says; those of templates with nothing measured stay at -1. Returns how
 * many were imputed. */
static int impute(const ct_space *sp, double *us)
{
    double *out = malloc(((size_t)sp->n + 1) * sizeof *out);
    int n = 0;
    for (int i = 0; i < sp->n; i++) {
        double l = us[i] > 0 ? NAN : nearest_log(sp, us, i);
        out[i] = isfinite(l) ? exp(l) : us[i];
        n += isfinite(l);
    }
    memcpy(us, out, (size_t)sp->n * sizeof *us);
    free(out);
    return n;
}

/* The best time a search of strategy st with budget finds over sp, each
 * candidate's time from us[] (<= 0: failed), the model's guide fitted on
 * train (model strategy only; its waves counted on sms SMs). window: the proposals in flight, as the
 * tuner keeps them (ct_search_window: proposed, not yet judged); results
 * come back oldest first, step at a time, and the search proposes again
 * after each step, so that a proposal knows only what the tuner's would
 * have known. Replayed with every result back before the next proposal,
 * conv1dc:4:512's 150 candidates came within 5% in 23 of 30 seeds, where
 * the tuner's (window 64) had come to 80% and 84% of the best. */
static double replay(const ct_space *sp, const ct_problem *p, const double *us, ct_strategy st, int budget,
                     unsigned long long seed, ct_db *train, const char *device, int sms, int window, int step,
                     double *claim_pct)
{
    ct_search *s = ct_search_new(sp, st, budget, seed);
    ct_guide *g = NULL;
    ct_err e;
    if (st == CT_SEARCH_MODEL && train && ct_guide_new(train, p, sp, device, 9, sms, seed, &g, &e) != CT_OK)
        g = NULL;
    int *fifo = malloc((size_t)sp->n * sizeof *fifo), head = 0, tail = 0, n;
    double best = INFINITY;
    for (;;) {
        if (tail - head < window) {
            if (g)
                ct_guide_steer(g, s, -1, 16);
            n = ct_search_next(s, fifo + tail, window - (tail - head));
            tail += n > 0 ? n : 0;
        }
        if (head == tail)
            break;
        for (int k = 0; k < step && head < tail; k++, head++) {
            const int i = fifo[head];
            double t = us[i];
            if (t > 0 && !sp->cand[i].tmpl->is_baseline && t < best)
                best = t;
            ct_search_report(s, i, t);
            if (g)
                ct_guide_observe(g, i, t, NAN, NAN);
        }
    }
    /* The tuner's closeness claim for this winner, as it would word it:
     * the model's figure, floored at the timing noise (-1: none). */
    *claim_pct = -1;
    if (g && isfinite(best)) {
        ct_closeness cl;
        ct_guide_closeness(g, s, best, 0, 0, &cl);
        ct_closeness_noise_floor(&cl, CT_CLOSE_NOISE_PCT);
        if (cl.basis != CT_CLOSE_NONE)
            *claim_pct = cl.within_pct;
    }
    free(fifo);
    ct_guide_free(g);
    ct_search_free(s);
    return best;
}

int main(int argc, char **argv)
{
    const char *db_path = NULL, *spec = NULL, *config = NULL, *arch = "sm_90", *only = NULL, *budgets = NULL;
    const char *strategies = "anneal,random", *train_path = NULL;
    double fraction = 0.2;
    int seeds = 10, measured_only = 0, imputed = 0, sms = 0, window = 0, step = 4;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--measured") || !strcmp(argv[i], "--impute")) {
            measured_only = 1 + !strcmp(argv[i], "--impute");
            continue;
        }
        if (i + 1 >= argc)
            break;
        if (!strcmp(argv[i], "--db")) db_path = argv[++i];
        else if (!strcmp(argv[i], "--problem")) spec = argv[++i];
        else if (!strcmp(argv[i], "--config")) config = argv[++i];
        else if (!strcmp(argv[i], "--arch")) arch = argv[++i];
        else if (!strcmp(argv[i], "--fraction")) fraction = atof(argv[++i]);
        else if (!strcmp(argv[i], "--budgets")) budgets = argv[++i];
        else if (!strcmp(argv[i], "--seeds")) seeds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--template")) only = argv[++i];
        else if (!strcmp(argv[i], "--strategies")) strategies = argv[++i];
        else if (!strcmp(argv[i], "--train")) train_path = argv[++i];
        else if (!strcmp(argv[i], "--sms")) sms = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--window")) window = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--step")) step = atoi(argv[++i]);
        else i++;
    }
    if (!db_path || !spec) {
        fprintf(stderr, "usage: search_quality --db DB --problem SPEC [--config FILE] [--arch sm_90] "
                        "[--fraction 0.2 | --budgets 50,150] [--seeds 10] [--template NAME] [--measured | --impute] "
                        "[--strategies anneal,random,model] [--train DB] [--sms 132] [--window 16] [--step 4]\n");
        return 2;
    }
    ct_err e;
    ct_problem p;
    ct_config c;
    ct_limits lim;
    ct_db *db, *train = NULL;
    ct_space sp;
    const ct_status arch_ok = ct_limits_for_arch(arch, &lim, &e);
    lim.sm_count = sms;   /* --sms: the device's rules (split-K's waves) as a run's space had them */
    if (arch_ok != CT_OK || ct_problem_parse(spec, &p, &e) || ct_config_init(&c, &e) ||
        (config && ct_config_apply_file(&c, config, &e)) || ct_db_open(db_path, 0, &db, &e) ||
        ct_space_build(&p, &c, &lim, only, &sp, &e)) {
        fprintf(stderr, "search_quality: %s\n", e.msg);
        return 1;
    }
    table t = {0};
    ct_query q = {.problem = p.canonical};
    if (ct_db_query(db, &q, collect, &t, &e) != CT_OK) {
        fprintf(stderr, "search_quality: %s\n", e.msg);
        return 1;
    }
    qsort(t.v, (size_t)t.n, sizeof *t.v, cmp_key);
    t.n = fold_keys(t.v, t.n);
    /* Time of every space candidate (the fastest stored, over the runs); a
     * candidate the runs did not verify counts as a failure (-1), or with
     * --measured leaves the space; with --impute it gets a time from its
     * neighbours, and leaves the space where it cannot (baselines stay). */
    double *us = calloc((size_t)sp.n + 1, sizeof *us);
    int found = 0, keep = 0, all = sp.n;
    for (int i = 0; i < sp.n; i++) {
        measured m;
        char params[512];
        ct_params_to_json(&sp.cand[i].params, sp.cand[i].tmpl->params, sp.cand[i].tmpl->nparams, params,
                          sizeof params);
        snprintf(m.key, sizeof m.key, "%s %s", sp.cand[i].tmpl->name, params);
        measured *hit = bsearch(&m, t.v, (size_t)t.n, sizeof *t.v, cmp_key_only);
        us[i] = hit ? hit->us : -1;
        found += hit != NULL;
    }
    if (measured_only == 2)
        imputed = impute(&sp, us);
    for (int i = 0; i < sp.n; i++) {
        if ((measured_only == 1 && us[i] == -1) ||
            (measured_only == 2 && !(us[i] > 0) && !sp.cand[i].tmpl->is_baseline))
            continue;
        /* Cut in place: the candidates are values, and ct_space_free frees
         * each one's own memory, which a kept one still owns. */
        ct_candidate x = sp.cand[keep];
        sp.cand[keep] = sp.cand[i];
        sp.cand[i] = x;
        us[keep++] = us[i];
    }
    sp.n = keep;
    double opt = INFINITY;
    for (int i = 0; i < sp.n; i++)
        if (us[i] > 0 && !sp.cand[i].tmpl->is_baseline && us[i] < opt)
            opt = us[i];
    if (strstr(strategies, "model")) {
        if (!train_path || !strcmp(train_path, db_path))
            train = db;
        else if (ct_db_open(train_path, 0, &train, &e) != CT_OK) {
            fprintf(stderr, "search_quality: %s\n", e.msg);
            return 1;
        }
    }
    char imp[160] = "";
    if (measured_only == 2)
        snprintf(imp, sizeof imp, ", %d imputed from their neighbours (%d replayed)", imputed, sp.n);
    printf("Space of `%s` on %s: %d candidates, %d with a stored time%s%s; optimum %.2f us.\n"
           "Each search replayed on those times, 16 proposals at a time.\n\n",
           p.canonical, t.device, all, found, measured_only == 1 ? " (the space replayed: these alone)" : "", imp,
           opt);
    printf("| strategy | budget | seeds within 5%% | median over optimum | worst | closeness claims held |\n"
           "| --- | --- | --- | --- | --- | --- |\n");
    char list[256];
    snprintf(list, sizeof list, "%s", budgets ? budgets : "");
    int nb = 0, bv[16];
    for (char *tok = strtok(list, ","); tok && nb < 16; tok = strtok(NULL, ","))
        bv[nb++] = atoi(tok);
    if (!nb)
        bv[nb++] = (int)(fraction * sp.n);
    double *over = malloc((size_t)(seeds > 0 ? seeds : 1) * sizeof *over);
    char slist[256];
    snprintf(slist, sizeof slist, "%s", strategies);
    char *save = NULL;
    for (char *name = strtok_r(slist, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        ct_strategy st;
        if (ct_strategy_parse(name, &st, &e) != CT_OK) {
            fprintf(stderr, "search_quality: %s\n", e.msg);
            return 2;
        }
        for (int b = 0; b < nb; b++) {
            int wins = 0, claims = 0, held = 0;
            double cv[1024];
            for (int seed = 1; seed <= seeds; seed++) {
                double claim;
                double best = replay(&sp, &p, us, st, bv[b], (unsigned long long)seed, train, t.device, sms,
                                     window > 0 ? window : ct_search_window(bv[b], 16), step > 0 ? step : 1, &claim);
                over[seed - 1] = 100 * (best / opt - 1);
                wins += best <= 1.05 * opt;
                if (claim >= 0) {
                    if (claims < 1024)
                        cv[claims] = claim;
                    claims++;
                    held += over[seed - 1] <= claim + 1e-9;
                }
            }
            qsort(over, (size_t)seeds, sizeof *over, ct_cmp_double);
            int nc = claims < 1024 ? claims : 1024;
            qsort(cv, (size_t)nc, sizeof *cv, ct_cmp_double);
            char med[32] = "";
            if (nc)
                snprintf(med, sizeof med, " (median claim %.1f%%)", cv[nc / 2]);
            printf("| %s | %d | %d of %d | %+.1f%% | %+.1f%% | %d of %d%s |\n", name, bv[b], wins, seeds,
                   over[seeds / 2], over[seeds - 1], held, claims, med);
        }
    }
    free(over);
    if (train && train != db)
        ct_db_close(train);
    ct_db_close(db);
    free(us);
    free(t.v);
    sp.n = all;
    ct_space_free(&sp);
    return 0;
}
