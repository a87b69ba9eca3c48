/* search_quality.c - how close the guided search gets to the exhaustive
 * optimum, replayed from measurements.
 *
 * Input: a database holding an exhaustive tuning run of one problem on one
 * device. For each seed, the annealing search is run over the same space with
 * a budget of a fraction of it, and every candidate it proposes is "measured"
 * by looking up the time the exhaustive run stored for it. The output is a
 * Markdown table of the best time found against the optimum.
 *
 * usage: search_quality --db DB --problem SPEC [--config FILE] [--arch sm_90]
 *                       [--fraction 0.2] [--seeds 10] [--template NAME] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "db.h"
#include "runner.h"
#include "search.h"

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

static int cmp_key(const void *a, const void *b)
{
    return strcmp(((const measured *)a)->key, ((const measured *)b)->key);
}

int main(int argc, char **argv)
{
    const char *db_path = NULL, *spec = NULL, *config = NULL, *arch = "sm_90", *only = NULL;
    double fraction = 0.2;
    int seeds = 10;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--db")) db_path = argv[i + 1];
        else if (!strcmp(argv[i], "--problem")) spec = argv[i + 1];
        else if (!strcmp(argv[i], "--config")) config = argv[i + 1];
        else if (!strcmp(argv[i], "--arch")) arch = argv[i + 1];
        else if (!strcmp(argv[i], "--fraction")) fraction = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--seeds")) seeds = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--template")) only = argv[i + 1];
    }
    if (!db_path || !spec) {
        fprintf(stderr, "usage: search_quality --db DB --problem SPEC [--config FILE] [--arch sm_90] "
                        "[--fraction 0.2] [--seeds 10]\n");
        return 2;
    }
    ct_err e;
    ct_problem p;
    ct_config c;
    ct_limits lim;
    ct_db *db;
    ct_space sp;
    if (ct_problem_parse(spec, &p, &e) || ct_config_init(&c, &e) || (config && ct_config_apply_file(&c, config, &e)) ||
        ct_limits_for_arch(arch, &lim, &e) || ct_db_open(db_path, 0, &db, &e) ||
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
    ct_db_close(db);
    qsort(t.v, (size_t)t.n, sizeof *t.v, cmp_key);
    /* Time of every space candidate; a candidate the exhaustive run did not
     * verify counts as a failure. Several runs of one candidate: the first. */
    double *us = calloc((size_t)sp.n, sizeof *us);
    double opt = INFINITY;
    int found = 0;
    for (int i = 0; i < sp.n; i++) {
        measured m;
        char params[512];
        ct_params_to_json(&sp.cand[i].params, sp.cand[i].tmpl->params, sp.cand[i].tmpl->nparams, params,
                          sizeof params);
        snprintf(m.key, sizeof m.key, "%s %s", sp.cand[i].tmpl->name, params);
        measured *hit = bsearch(&m, t.v, (size_t)t.n, sizeof *t.v, cmp_key);
        us[i] = hit ? hit->us : -1;
        found += hit != NULL;
        if (hit && !sp.cand[i].tmpl->is_baseline && hit->us < opt)
            opt = hit->us;
    }
    int budget = (int)(fraction * sp.n);
    printf("Space of `%s` on %s: %d candidates, %d measured by the exhaustive run; optimum %.2f us.\n"
           "Guided search (anneal) with a budget of %d candidates (%.0f%%), replayed on those measurements:\n\n",
           p.canonical, t.device, sp.n, found, opt, budget, 100 * fraction);
    printf("| seed | anneal best (us) | over optimum | random best (us) | over optimum |\n| --- | --- | --- | --- | --- |\n");
    int wins = 0, rwins = 0;
    int *idx = malloc((size_t)sp.n * sizeof *idx);
    for (int seed = 1; seed <= seeds; seed++) {
        double best[2] = {INFINITY, INFINITY};
        for (int k = 0; k < 2; k++) {
            ct_search *s = ct_search_new(&sp, k ? CT_SEARCH_RANDOM : CT_SEARCH_ANNEAL, budget, (unsigned long long)seed);
            int n;
            while ((n = ct_search_next(s, idx, 32)) > 0)
                for (int i = 0; i < n; i++) {
                    if (us[idx[i]] > 0 && !sp.cand[idx[i]].tmpl->is_baseline && us[idx[i]] < best[k])
                        best[k] = us[idx[i]];
                    ct_search_report(s, idx[i], us[idx[i]]);
                }
            ct_search_free(s);
        }
        wins += best[0] <= 1.05 * opt;
        rwins += best[1] <= 1.05 * opt;
        printf("| %d | %.2f | %+.1f%% | %.2f | %+.1f%% |\n", seed, best[0], 100 * (best[0] / opt - 1), best[1],
               100 * (best[1] / opt - 1));
    }
    printf("\nWithin 5%% of the optimum: anneal in %d of %d seeds, random sampling in %d of %d.\n", wins, seeds,
           rwins, seeds);
    free(idx);
    free(us);
    free(t.v);
    ct_space_free(&sp);
    return 0;
}
