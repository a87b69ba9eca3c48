/* test_guide.c - the model strategy's models read from a database, without
 * a GPU: synthetic times of three conv1d problems stored on an sm_90
 * device steer the search on a fourth problem to a near-optimal candidate
 * and give a closeness figure; a device of another architecture, or an
 * empty database, gives no model (the search anneals, proposal for
 * proposal); the problem's own rows on the run's device are left to the
 * run; stored compile times seed the compile-time model. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "files.h"
#include "guide.h"
#include "runner.h"

#define DEV_A "NVIDIA H100 80GB HBM3"
#define DEV_B "NVIDIA H200"

static ct_space space_of(const char *spec, ct_problem *p, ct_config *c)
{
    ct_err e;
    ct_limits lim;
    ct_space sp;
    CHECK(ct_config_init(c, &e) == CT_OK);
    CHECK(ct_problem_parse(spec, p, &e) == CT_OK);
    CHECK(ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
    CHECK(ct_space_build(p, c, &lim, NULL, &sp, &e) == CT_OK);
    return sp;
}

/* Synthetic time: FLOPs times bowls in the log of the main parameters. */
static double truth(const ct_problem *p, const ct_candidate *c)
{
    double scale = p->family->flops(p) / 1e9;
    if (c->tmpl->is_baseline)
        return 50 * scale;
    if (c->tmpl->exec)
        return 3 * scale;
    double r = log2((double)ct_params_get(&c->params, "OUTPUTS_PER_THREAD", 1) + 1);
    double b = log2((double)ct_params_get(&c->params, "BLOCK_SIZE", 128) + 1);
    double t = scale * (1 + 0.3 * pow(r - 4, 2)) * (1 + 0.2 * pow(b - 7.5, 2));
    return t * (ct_params_get(&c->params, "STAGE_INPUT", 1) ? 1.0 : 1.3);
}

/* Store a sample (one in every) of the candidates of spec, timed by truth,
 * as a run on device dev; the count stored. */
static int store(ct_db *db, const char *spec, long long dev, int every)
{
    ct_problem p;
    ct_config c;
    ct_err e;
    ct_space sp = space_of(spec, &p, &c);
    long long pid = 0, run = 0;
    CHECK(ct_db_problem_upsert(db, "conv1d", p.canonical, p.family->flops(&p), p.family->bytes(&p), &pid, &e) ==
          CT_OK);
    CHECK(ct_db_run_begin(db, pid, dev, NULL, &run, &e) == CT_OK);
    int n = 0;
    for (int i = 0; i < sp.n; i += every) {
        ct_result r;
        ct_result_init(&r);
        snprintf(r.family, sizeof r.family, "conv1d");
        snprintf(r.tmpl, sizeof r.tmpl, "%s", sp.cand[i].tmpl->name);
        ct_result_set_params(&r, &sp.cand[i].params);
        r.status = CT_RS_OK;
        r.median_us = r.min_us = r.max_us = truth(&p, &sp.cand[i]);
        r.reps = 20;
        r.flops = p.family->flops(&p);
        r.bytes = p.family->bytes(&p);
        r.compile_ms = 3000;
        CHECK_MSG(ct_db_candidate_add(db, run, &r, &e) == CT_OK, "%s", e.msg);
        n++;
    }
    CHECK(ct_db_run_end(db, run, "done", &e) == CT_OK);
    ct_space_free(&sp);
    return n;
}

/* A search of budget proposals steered by g (NULL: none) against truth;
 * the best time found, the proposals in seq. */
static double search(ct_guide *g, const ct_space *sp, const ct_problem *p, ct_strategy st, int budget, int *seq)
{
    ct_search *s = ct_search_new(sp, st, budget, 21);
    int *idx = malloc((size_t)sp->n * sizeof *idx), k, n = 0;
    double best = INFINITY;
    for (;;) {
        if (g)
            ct_guide_steer(g, s, -1, 4);
        if ((k = ct_search_next(s, idx, 8)) == 0)
            break;
        for (int i = 0; i < k; i++) {
            double t = truth(p, &sp->cand[idx[i]]);
            if (!sp->cand[idx[i]].tmpl->is_baseline)
                best = fmin(best, t);
            seq[n++] = idx[i];
            ct_search_report(s, idx[i], t);
            if (g)
                ct_guide_observe(g, idx[i], t, 2.0, 0.05);
        }
    }
    CHECK(n == budget);
    if (g && st == CT_SEARCH_MODEL && ct_guide_has_data(g)) {
        CHECK(ct_search_has_model(s));
        ct_closeness cl;
        ct_guide_closeness(g, s, best, 3, 1.0, &cl);
        printf("closeness: %s\n", cl.text);
        CHECK(cl.basis == CT_CLOSE_MODEL && cl.within_pct >= 0 && cl.judged == budget);
    }
    free(idx);
    ct_search_free(s);
    return best;
}

int main(void)
{
    char dir[] = "/tmp/ct_test_guide_XXXXXX", path[256];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/t.sqlite", dir);
    ct_db *db = NULL;
    ct_err e;
    CHECK(ct_db_open(path, 1, &db, &e) == CT_OK);
    ct_device_info a = {.name = DEV_A, .cc_major = 9, .driver_version = 13000};
    ct_device_info b = {.name = DEV_B, .cc_major = 9, .driver_version = 13000};
    long long da = 0, dbid = 0;
    CHECK(ct_db_device_upsert(db, &a, &da, &e) == CT_OK && ct_db_device_upsert(db, &b, &dbid, &e) == CT_OK);

    ct_problem p;
    ct_config c;
    ct_space sp = space_of("conv1d:1e6:2047", &p, &c);
    int *seq = malloc((size_t)sp.n * sizeof *seq), *seq2 = malloc((size_t)sp.n * sizeof *seq2);
    double opt = INFINITY;
    for (int i = 0; i < sp.n; i++)
        if (!sp.cand[i].tmpl->is_baseline)
            opt = fmin(opt, truth(&p, &sp.cand[i]));

    /* An empty database: no model, the anneal search proposal for proposal. */
    ct_guide *g = NULL;
    CHECK(ct_guide_new(db, &p, &sp, DEV_A, 9, 132, 1, &g, &e) == CT_OK);
    CHECK(!ct_guide_has_data(g) && ct_guide_stored_rows(g) == 0);
    search(g, &sp, &p, CT_SEARCH_MODEL, 60, seq);
    search(NULL, &sp, &p, CT_SEARCH_ANNEAL, 60, seq2);
    CHECK(memcmp(seq, seq2, 60 * sizeof *seq) == 0);
    ct_closeness cl;
    ct_search *s0 = ct_search_new(&sp, CT_SEARCH_RANDOM, 10, 1);
    ct_guide_closeness(g, s0, 1.0, 0, 0, &cl);
    CHECK(cl.basis == CT_CLOSE_NONE && strstr(cl.text, "no basis"));
    ct_search_free(s0);
    ct_guide_free(g);

    /* Three problems stored on device A; the target's own rows on B. */
    int stored = store(db, "conv1d:2e5:511", da, 12) + store(db, "conv1d:5e5:1023", da, 12) +
                 store(db, "conv1d:2e6:255", da, 12);
    int own = store(db, "conv1d:1e6:2047", dbid, 50);
    CHECK(stored > 300 && own > 10);

    /* Another architecture: nothing to learn from. */
    CHECK(ct_guide_new(db, &p, &sp, DEV_A, 8, 132, 1, &g, &e) == CT_OK);
    CHECK(!ct_guide_has_data(g));
    ct_guide_free(g);

    /* On B the target's rows are the run's own (resumed): left out. On A
     * they are another device's measurements: learnt from, with their
     * compile times. */
    CHECK(ct_guide_new(db, &p, &sp, DEV_B, 9, 132, 1, &g, &e) == CT_OK);
    CHECK_MSG(ct_guide_stored_rows(g) == stored, "%d rows, %d stored", ct_guide_stored_rows(g), stored);
    ct_compcost_basis basis;
    ct_compcost_estimate(ct_guide_compcost(g), sp.cand[0].tmpl, &sp.cand[0].params, &basis);
    CHECK(basis == CT_CC_PRIOR);
    ct_guide_free(g);
    CHECK(ct_guide_new(db, &p, &sp, DEV_A, 9, 132, 1, &g, &e) == CT_OK);
    CHECK(ct_guide_has_data(g) && ct_guide_stored_rows(g) == stored + own);
    double est = ct_compcost_estimate(ct_guide_compcost(g), sp.cand[0].tmpl, &sp.cand[0].params, &basis);
    CHECK_MSG(basis != CT_CC_PRIOR && fabs(est - 3.0) < 1e-6, "%g", est);

    /* Steered by the stored times, 40 proposals get within 5%. */
    double best = search(g, &sp, &p, CT_SEARCH_MODEL, 40, seq);
    printf("model search: %.4f against the optimum %.4f\n", best, opt);
    CHECK(best <= 1.05 * opt);
    /* Only admissible candidates, each once. */
    for (int i = 0; i < 40; i++)
        for (int j = 0; j < i; j++)
            CHECK(seq[i] != seq[j]);
    ct_guide_free(g);

    free(seq);
    free(seq2);
    ct_space_free(&sp);
    ct_db_close(db);
    tl_rm_rf(dir);
    CHECK_DONE();
}
