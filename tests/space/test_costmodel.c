/* test_costmodel.c - the learned cost model, the model strategy, the
 * compile-time bookkeeping and the closeness estimate, without a GPU:
 *   - the ridge fit recovers a planted linear function;
 *   - fitted on synthetic times of three conv1d problems, the model ranks a
 *     fourth problem's candidates (a planted ranking it never saw) and the
 *     model strategy finds a near-optimal one in few proposals;
 *   - with the device's SM count, the launch features learn times that
 *     step with the grid's waves;
 *   - the model strategy only reorders the admissible list (every index
 *     once, within the budget) and without a model is the anneal search;
 *   - under a time limit, the expected costs proposed stay within it;
 *   - compile-time means update, unseen classes and templates fall back;
 *   - the closeness estimate's three cases. */
#include <math.h>

#include "check.h"
#include "closeness.h"
#include "compcost.h"
#include "costmodel.h"
#include "runner.h"
#include "search.h"

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

static double uniform(unsigned long long *rng)
{
    return (double)(ct_rand_next(rng) >> 11) / 9007199254740992.0;
}

/* Synthetic kernel time: proportional to the problem's FLOPs, a bowl in
 * each parameter's log value whose bottom for outputs per thread moves
 * with the problem's size, and a hash ripple of +-3% for noise. */
static double truth(const ct_problem *p, const ct_candidate *c)
{
    double scale = p->family->flops(p) / 1e9;
    if (c->tmpl->is_baseline)
        return 50 * scale;
    if (c->tmpl->exec)
        return 3 * scale * (1 + ct_params_get(&c->params, "FFT_SIZE", 4096) / 1e6);
    double lf = log2(p->family->flops(p));
    double r = log2((double)ct_params_get(&c->params, "OUTPUTS_PER_THREAD", 1) + 1);
    double b = log2((double)ct_params_get(&c->params, "BLOCK_SIZE", 128) + 1);
    double t = scale;
    t *= 1 + 0.3 * pow(r - (2.0 + (lf - 30) / 4), 2);
    t *= 1 + 0.2 * pow(b - 7.5, 2);
    t *= ct_params_get(&c->params, "STAGE_INPUT", 1) ? 1.0 : 1.3;
    t *= 1 + 0.04 * ct_params_get(&c->params, "UNROLL", 1);
    unsigned long long h = 1469598103934665603ULL;
    for (int i = 0; i < c->params.n; i++)
        h = (h ^ (unsigned long long)c->params.values[i]) * 1099511628211ULL;
    t *= 1 + 0.03 * ((double)(h % 2001) / 1000.0 - 1.0);
    return t;
}

static void test_ridge(void)
{
    enum { N = 300, D = 5 };
    static double X[N * D], y[N];
    double beta[D] = {0.5, -1.25, 2.0, 0.0, 0.75};
    unsigned long long rng = 11;
    for (int i = 0; i < N; i++) {
        y[i] = 3.0;
        for (int j = 0; j < D; j++) {
            X[i * D + j] = 10 * uniform(&rng) - 5;
            y[i] += beta[j] * X[i * D + j];
        }
        y[i] += 0.01 * (uniform(&rng) - 0.5);
    }
    ct_cm_model m;
    CHECK(ct_cm_fit(&m, X, y, NULL, N, D, 1.0) == 0);
    double worst = 0;
    for (int i = 0; i < N; i++)
        worst = fmax(worst, fabs(ct_cm_predict(&m, X + i * D) - y[i]));
    CHECK_MSG(worst < 0.1, "worst error %g", worst);
    CHECK(m.resid_sd >= 0.02 && m.resid_sd < 0.05);
    double x0[D] = {0};
    CHECK(fabs(ct_cm_predict(&m, x0) - 3.0) < 0.1);
    /* A constant feature takes no weight; too few rows fit nothing. */
    for (int i = 0; i < N; i++)
        X[i * D + 3] = 7;
    CHECK(ct_cm_fit(&m, X, y, NULL, N, D, 1.0) == 0 && m.w[3] == 0 && m.scale[3] == 0);
    CHECK(ct_cm_fit(&m, X, y, NULL, 1, D, 1.0) != 0 && m.n == 0 && isnan(ct_cm_predict(&m, X)));
}

/* Spearman's rank correlation of a and b (n values, no ties expected). */
static double spearman(const double *a, const double *b, int n)
{
    double *ra = malloc((size_t)n * sizeof *ra), *rb = malloc((size_t)n * sizeof *rb);
    for (int i = 0; i < n; i++) {
        ra[i] = rb[i] = 0;
        for (int j = 0; j < n; j++) {
            ra[i] += a[j] < a[i];
            rb[i] += b[j] < b[i];
        }
    }
    double d2 = 0;
    for (int i = 0; i < n; i++)
        d2 += (ra[i] - rb[i]) * (ra[i] - rb[i]);
    free(ra), free(rb);
    return 1 - 6 * d2 / ((double)n * ((double)n * n - 1));
}

/* One run of strategy st over sp against truth; the best non-baseline time
 * found, the proposals in seq (when not NULL), their count in *count. */
static double run(const ct_space *sp, const ct_problem *p, ct_strategy st, int budget, unsigned long long seed,
                  const double *mu, const double *sd, int *seq, int *count)
{
    ct_search *s = ct_search_new(sp, st, budget, seed);
    CHECK(s != NULL);
    if (mu)
        ct_search_set_model(s, mu, sd);
    int *idx = malloc((size_t)sp->n * sizeof *idx), k, n = 0;
    unsigned char *seen = calloc((size_t)sp->n, 1);
    double best = INFINITY;
    while ((k = ct_search_next(s, idx, 8)) > 0)
        for (int i = 0; i < k; i++) {
            CHECK(idx[i] >= 0 && idx[i] < sp->n);
            CHECK_MSG(!seen[idx[i]], "candidate %d proposed twice", idx[i]);
            seen[idx[i]] = 1;
            if (seq)
                seq[n] = idx[i];
            n++;
            double t = truth(p, &sp->cand[idx[i]]);
            if (!sp->cand[idx[i]].tmpl->is_baseline)
                best = fmin(best, t);
            ct_search_report(s, idx[i], t);
        }
    *count = n;
    free(idx);
    free(seen);
    ct_search_free(s);
    return best;
}

/* Fit one model per template of target on synthetic times of a third of
 * the candidates of the training problems; predictions into mu and sd. */
typedef double (*truth_fn)(const ct_problem *p, const ct_candidate *c);

static void fit_models(const char *const *train, int ntrain, const ct_problem *tp, const ct_space *target,
                       truth_fn truth, int sms, double *mu, double *sd)
{
    for (int t = 0; t < target->ntemplates; t++) {
        const ct_template *tm = target->stats[t].tmpl;
        int cap = 1 << 16, n = 0, d = 0;
        double *X = malloc((size_t)cap * CT_CM_MAXF * sizeof *X), *y = malloc((size_t)cap * sizeof *y);
        unsigned long long rng = 5 + (unsigned long long)t;
        for (int k = 0; k < ntrain; k++) {
            ct_problem p;
            ct_config c;
            ct_space sp = space_of(train[k], &p, &c);
            for (int i = 0; i < sp.n && n < cap; i++) {
                if (sp.cand[i].tmpl != tm || uniform(&rng) > 0.33)
                    continue;
                d = ct_cm_features(&p, tm, &sp.cand[i].params, sms, X + (size_t)n * d);
                y[n++] = log(truth(&p, &sp.cand[i]));
            }
            ct_space_free(&sp);
        }
        ct_cm_model m = {0};
        if (n >= 12)
            CHECK(ct_cm_fit(&m, X, y, NULL, n, d, 1.0) == 0);
        double x[CT_CM_MAXF];
        for (int i = 0; i < target->n; i++)
            if (target->cand[i].tmpl == tm) {
                CHECK(ct_cm_features(tp, tm, &target->cand[i].params, sms, x) == d || n == 0);
                mu[i] = m.n ? ct_cm_predict(&m, x) : NAN;
                sd[i] = m.resid_sd;
            }
        free(X);
        free(y);
    }
}

static void test_model_search(void)
{
    static const char *const train[] = {"conv1d:2e5:511", "conv1d:5e5:1023", "conv1d:2e6:255"};
    ct_problem p;
    ct_config c;
    ct_space sp = space_of("conv1d:1e6:2047", &p, &c);
    CHECK(sp.n > 1000);
    double *mu = malloc((size_t)sp.n * sizeof *mu), *sd = malloc((size_t)sp.n * sizeof *sd);
    double *a = malloc((size_t)sp.n * sizeof *a), *b = malloc((size_t)sp.n * sizeof *b);
    fit_models(train, 3, &p, &sp, truth, 132, mu, sd);

    /* The planted ranking, among the direct kernels, recovered. */
    int n = 0;
    double opt = INFINITY;
    for (int i = 0; i < sp.n; i++) {
        if (sp.cand[i].tmpl->is_baseline)
            continue;
        opt = fmin(opt, truth(&p, &sp.cand[i]));
        if (!sp.cand[i].tmpl->exec && isfinite(mu[i]) && n < 3000) {
            a[n] = mu[i];
            b[n++] = log(truth(&p, &sp.cand[i]));
        }
    }
    double rho = spearman(a, b, n);
    printf("rank correlation of predicted and planted times over %d candidates: %.3f\n", n, rho);
    CHECK(n > 500 && rho > 0.8);

    /* The model strategy: within 5% of the optimum with 40 proposals in at
     * least 8 of 10 seeds; random sampling for comparison. */
    int wins = 0, rwins = 0, count;
    int *seq = malloc((size_t)sp.n * sizeof *seq), *seq2 = malloc((size_t)sp.n * sizeof *seq2);
    for (unsigned long long seed = 1; seed <= 10; seed++) {
        double m = run(&sp, &p, CT_SEARCH_MODEL, 40, seed, mu, sd, seq, &count);
        CHECK(count == 40);
        double r = run(&sp, &p, CT_SEARCH_RANDOM, 40, seed, NULL, NULL, NULL, &count);
        wins += m <= 1.05 * opt;
        rwins += r <= 1.05 * opt;
        printf("seed %llu: model %.4f (%.1f%% over the optimum), random %.1f%% over\n", seed, m,
               100 * (m / opt - 1), 100 * (r / opt - 1));
    }
    printf("model within 5%% in %d of 10 seeds, random in %d (40 of %d candidates)\n", wins, rwins, sp.n);
    CHECK(wins >= 8);

    /* Baselines first; every candidate of a large budget once. */
    run(&sp, &p, CT_SEARCH_MODEL, sp.n, 3, mu, sd, seq, &count);
    CHECK(count == sp.n);
    CHECK(sp.cand[seq[0]].tmpl->is_baseline);

    /* No model: the anneal search, proposal for proposal. */
    int count2;
    run(&sp, &p, CT_SEARCH_MODEL, 200, 9, NULL, NULL, seq, &count);
    run(&sp, &p, CT_SEARCH_ANNEAL, 200, 9, NULL, NULL, seq2, &count2);
    CHECK(count == 200 && count2 == 200 && memcmp(seq, seq2, 200 * sizeof *seq) == 0);
    /* A model with no prediction at all: the shuffled order, every
     * candidate still reachable. */
    for (int i = 0; i < sp.n; i++)
        a[i] = NAN;
    run(&sp, &p, CT_SEARCH_MODEL, sp.n, 4, a, sd, seq, &count);
    CHECK(count == sp.n);

    /* Under a time limit the expected cost of what is proposed, reported
     * or pending, stays within the limit. */
    unsigned long long rng = 77;
    double T = 25;
    for (int i = 0; i < sp.n; i++)
        b[i] = sp.cand[i].tmpl->is_baseline ? 0.01 : 0.05 + 3 * uniform(&rng);
    ct_search *s = ct_search_new(&sp, CT_SEARCH_MODEL, sp.n, 5);
    ct_search_set_model(s, mu, sd);
    double spent = 0, proposed_cost = 0;
    int k, total = 0, *idx = malloc((size_t)sp.n * sizeof *idx);
    for (;;) {
        ct_search_set_costs(s, b, T - spent);
        if ((k = ct_search_next(s, idx, 4)) == 0)
            break;
        for (int i = 0; i < k; i++)
            proposed_cost += b[idx[i]];
        for (int i = 0; i < k; i++) {
            spent += b[idx[i]];
            ct_search_report(s, idx[i], truth(&p, &sp.cand[idx[i]]));
        }
        total += k;
    }
    printf("time limit %.0f s: %d proposals of expected cost %.2f s\n", T, total, proposed_cost);
    CHECK(total > 10 && proposed_cost <= T + 1e-9 && proposed_cost > T / 2);
    ct_search_free(s);

    free(idx), free(seq), free(seq2), free(mu), free(sd), free(a), free(b);
    ct_space_free(&sp);
}

/* truth() on a GPU of 132 SMs that runs a block an SM at a time: the
 * grid's partial last wave costs a whole one. */
static double truth_waves(const ct_problem *p, const ct_candidate *c)
{
    ct_launch l;
    memset(&l, 0, sizeof l);
    p->family->geometry(p, c->tmpl, &c->params, &l);
    double w = (double)l.grid[0] * (l.grid[1] ? l.grid[1] : 1) * (l.grid[2] ? l.grid[2] : 1) / 132.0;
    return truth(p, c) * (c->tmpl->is_baseline || c->tmpl->exec ? 1.0 : ceil(w) / w);
}

/* The rank correlation of the predictions of target's direct kernels,
 * fitted on train's times from t with the waves counted on sms SMs, with
 * their planted times. */
static double waves_rho(const char *const *train, int ntrain, const char *target, int sms)
{
    ct_problem p;
    ct_config c;
    ct_space sp = space_of(target, &p, &c);
    double *mu = malloc((size_t)sp.n * sizeof *mu), *sd = malloc((size_t)sp.n * sizeof *sd);
    double *a = malloc((size_t)sp.n * sizeof *a), *b = malloc((size_t)sp.n * sizeof *b);
    fit_models(train, ntrain, &p, &sp, truth_waves, sms, mu, sd);
    int n = 0;
    for (int i = 0; i < sp.n; i++)
        if (!sp.cand[i].tmpl->is_baseline && !sp.cand[i].tmpl->exec && isfinite(mu[i])) {
            a[n] = mu[i];
            b[n++] = log(truth_waves(&p, &sp.cand[i]));
        }
    double rho = n > 100 ? spearman(a, b, n) : -1;
    free(mu), free(sd), free(a), free(b);
    ct_space_free(&sp);
    return rho;
}

/* Times that step with the grid's waves: the launch features with the SM
 * count learn them, which the parameters' features alone cannot. */
static void test_waves(void)
{
    static const char *const train[] = {"conv1d:6e4:255", "conv1d:1.5e5:511", "conv1d:3e5:127"};
    double with = waves_rho(train, 3, "conv1d:1e5:1023", 132), without = waves_rho(train, 3, "conv1d:1e5:1023", 0);
    printf("waves: rank correlation %.3f with the SM count, %.3f without\n", with, without);
    CHECK(with > 0.9 && 1 - with < 0.5 * (1 - without));   /* the rank disagreement at least halved */
}

static void test_plan(void)
{
    enum { N = 200 };
    double gain[N], cost[N];
    int order[N];
    unsigned long long rng = 3;
    for (int i = 0; i < N; i++) {
        gain[i] = uniform(&rng);
        cost[i] = 0.1 + 5 * uniform(&rng);
    }
    for (double budget = 0; budget <= 100; budget += 12.5) {
        int k = ct_cm_plan(gain, cost, N, budget, order);
        double sum = 0;
        for (int i = 0; i < k; i++)
            sum += cost[order[i]];
        CHECK_MSG(sum <= budget, "plan of %g s costs %g s", budget, sum);
        for (int i = 1; i < k; i++)
            CHECK(gain[order[i - 1]] / cost[order[i - 1]] >= gain[order[i]] / cost[order[i]]);
        /* Greedy leaves no candidate out that would still fit. */
        for (int i = 0; i < N; i++) {
            int in = 0;
            for (int j = 0; j < k; j++)
                in |= order[j] == i;
            CHECK(in || sum + cost[i] > budget);
        }
    }
}

static void test_compcost(void)
{
    ct_problem p;
    ct_config c;
    ct_space sp = space_of("conv1d:1e6:2047", &p, &c);
    ct_compcost *m = ct_compcost_new(&sp);
    CHECK(m != NULL);
    ct_compcost_basis basis;
    const ct_candidate *x = NULL, *y = NULL, *z = NULL;
    for (int i = 0; i < sp.n; i++) {
        if (x && sp.cand[i].tmpl != x->tmpl && !z)
            z = &sp.cand[i];
        if (sp.cand[i].tmpl->is_baseline || sp.cand[i].tmpl->exec || !sp.cand[i].tmpl->nparams)
            continue;
        if (!x)
            x = &sp.cand[i];
        else if (sp.cand[i].tmpl == x->tmpl && !y &&
                 ct_params_get(&sp.cand[i].params, x->tmpl->params[0].name, 0) !=
                     ct_params_get(&x->params, x->tmpl->params[0].name, 0))
            y = &sp.cand[i];
    }
    CHECK(x && y && z);
    if (!x || !y || !z)
        return;
    /* Nothing seen: the prior. */
    CHECK(fabs(ct_compcost_estimate(m, x->tmpl, &x->params, &basis) - CT_COMPCOST_PRIOR_S) < 1e-12 &&
          basis == CT_CC_PRIOR);
    /* One template seen: its geometric mean, for any of its candidates. */
    ct_compcost_add(m, x->tmpl, &x->params, 2.0);
    ct_compcost_add(m, x->tmpl, &x->params, 8.0);
    CHECK(ct_compcost_count(m, x->tmpl) == 2);
    CHECK(fabs(ct_compcost_estimate(m, x->tmpl, &x->params, &basis) - 4.0) < 1e-9 && basis == CT_CC_TEMPLATE);
    /* Another template falls back to the mean over all. */
    CHECK(fabs(ct_compcost_estimate(m, z->tmpl, &z->params, &basis) - 4.0) < 1e-9 && basis == CT_CC_GLOBAL);
    /* A second class of the first parameter: the classes move apart, the
     * template's mean updates, an unseen value keeps the mean. */
    ct_compcost_add(m, y->tmpl, &y->params, 0.5);
    double tmean = exp((log(2.0) + log(8.0) + log(0.5)) / 3);
    double ex = ct_compcost_estimate(m, x->tmpl, &x->params, &basis);
    double ey = ct_compcost_estimate(m, y->tmpl, &y->params, &basis);
    CHECK(basis == CT_CC_CLASS);
    CHECK_MSG(ex > tmean && ey < tmean, "x %g, y %g, template %g", ex, ey, tmean);
    ct_params other = x->params;
    for (int k = 0; k < other.n; k++)
        other.values[k] = 987654;   /* a value no class has */
    CHECK(fabs(ct_compcost_estimate(m, x->tmpl, &other, &basis) - tmean) < 1e-9 && basis == CT_CC_TEMPLATE);
    /* Many compiles of one class: its estimate tends to their mean. */
    for (int i = 0; i < 200; i++)
        ct_compcost_add(m, y->tmpl, &y->params, 0.5);
    ey = ct_compcost_estimate(m, y->tmpl, &y->params, NULL);
    CHECK_MSG(ey < 0.6 && ey >= 0.5 * exp(-1), "%g", ey);
    /* Non-positive and non-finite times are ignored. */
    int before = ct_compcost_count(m, x->tmpl);
    ct_compcost_add(m, x->tmpl, &x->params, 0);
    ct_compcost_add(m, x->tmpl, &x->params, NAN);
    CHECK(ct_compcost_count(m, x->tmpl) == before);
    ct_compcost_free(m);
    ct_space_free(&sp);
}

static void test_closeness(void)
{
    ct_problem p;
    ct_config c;
    ct_space sp = space_of("conv1d:1e6:2047", &p, &c);
    double *mu = malloc((size_t)sp.n * sizeof *mu), *sd = malloc((size_t)sp.n * sizeof *sd);
    ct_search *s = ct_search_new(&sp, CT_SEARCH_RANDOM, 50, 1);
    int *idx = malloc((size_t)sp.n * sizeof *idx), k;
    double w = INFINITY;
    while ((k = ct_search_next(s, idx, 16)) > 0)
        for (int i = 0; i < k; i++) {
            double t = truth(&p, &sp.cand[idx[i]]);
            w = fmin(w, t);
            ct_search_report(s, idx[i], t);
        }
    ct_closeness cl;
    ct_closeness_estimate(s, &sp, NULL, NULL, NULL, w, 10, 3.0, &cl);
    CHECK(cl.basis == CT_CLOSE_NONE && cl.within_pct < 0 && cl.judged == 50 && cl.admissible == sp.n);
    CHECK(strstr(cl.text, "no basis") && strstr(cl.text, "50 of"));
    ct_closeness_noise_floor(&cl, CT_CLOSE_NOISE_PCT);   /* no figure to floor */
    CHECK(cl.within_pct < 0 && cl.noise_pct == 0);
    /* Predicted far slower than the winner: about 0%. */
    for (int i = 0; i < sp.n; i++) {
        mu[i] = log(w) + 3;
        sd[i] = 0.1;
    }
    ct_closeness_estimate(s, &sp, mu, sd, NULL, w, 10, 3.0, &cl);
    CHECK(cl.basis == CT_CLOSE_MODEL && cl.within_pct >= 0 && cl.within_pct < 0.5);
    /* Predicted as fast as the winner: a figure that grows with the spread. */
    for (int i = 0; i < sp.n; i++)
        mu[i] = log(w);
    ct_closeness_estimate(s, &sp, mu, sd, NULL, w, 10, 3.0, &cl);
    double narrow = cl.within_pct;
    for (int i = 0; i < sp.n; i++)
        sd[i] = 0.3;
    ct_closeness_estimate(s, &sp, mu, sd, NULL, w, 10, 3.0, &cl);
    CHECK_MSG(narrow > 10 && cl.within_pct > narrow, "%g then %g", narrow, cl.within_pct);
    CHECK(strstr(cl.text, "estimated within") && strstr(cl.text, "(model"));
    /* A candidate without prediction: no basis. */
    mu[sp.n - 1] = NAN;
    if (ct_search_time(s, sp.n - 1) == 0) {
        ct_closeness_estimate(s, &sp, mu, sd, NULL, w, 10, 3.0, &cl);
        CHECK(cl.basis == CT_CLOSE_NONE && cl.unpredicted == 1);
    }
    char json[300];
    ct_closeness_json(&cl, json, sizeof json);
    CHECK(strstr(json, "\"judged\":50"));
    ct_search_free(s);
    /* Everything judged: the best of the space. */
    s = ct_search_new(&sp, CT_SEARCH_EXHAUSTIVE, sp.n, 1);
    while ((k = ct_search_next(s, idx, 64)) > 0)
        for (int i = 0; i < k; i++)
            ct_search_report(s, idx[i], truth(&p, &sp.cand[idx[i]]));
    ct_closeness_estimate(s, &sp, NULL, NULL, NULL, w, 0, 0, &cl);
    CHECK(cl.basis == CT_CLOSE_ALL && cl.within_pct == 0 && cl.noise_pct == 0);
    /* The timing noise between processes floors it, and the sentence and
     * the JSON say so; a higher figure is left as it is. */
    ct_closeness_noise_floor(&cl, CT_CLOSE_NOISE_PCT);
    CHECK(cl.within_pct == CT_CLOSE_NOISE_PCT && cl.noise_pct == CT_CLOSE_NOISE_PCT);
    CHECK_MSG(strstr(cl.text, "all ") && strstr(cl.text, "timing noise"), "%s", cl.text);
    ct_closeness_json(&cl, json, sizeof json);
    CHECK_MSG(strstr(json, "\"within_pct\":2.50") && strstr(json, "\"noise_pct\":2.50"), "%s", json);
    ct_closeness_noise_floor(&cl, 0.5);
    CHECK(cl.within_pct == CT_CLOSE_NOISE_PCT);
    ct_search_free(s);
    /* A confident model (spread 0.02) that was wrong about the run's own
     * candidates, each predicted before it was measured: its error on
     * them widens every spread, so the claim is no longer about 0%. */
    s = ct_search_new(&sp, CT_SEARCH_MODEL, 60, 1);
    for (int i = 0; i < sp.n; i++) {
        mu[i] = log(truth(&p, &sp.cand[i])) + 0.5;   /* everything predicted 65% slower than it runs */
        sd[i] = 0.02;
    }
    ct_search_set_model(s, mu, sd);
    w = INFINITY;
    while ((k = ct_search_next(s, idx, 16)) > 0)
        for (int i = 0; i < k; i++) {
            double t = truth(&p, &sp.cand[idx[i]]);
            if (!sp.cand[idx[i]].tmpl->is_baseline)
                w = fmin(w, t);
            ct_search_report(s, idx[i], t);
        }
    int nerr;
    double err = ct_search_model_error(s, &nerr);
    CHECK_MSG(nerr >= 40 && fabs(err - 1.4826 * 0.5) < 1e-9, "%d checked, error %g", nerr, err);
    ct_closeness_estimate(s, &sp, mu, sd, NULL, w, 10, 3.0, &cl);
    CHECK_MSG(cl.basis == CT_CLOSE_MODEL && cl.within_pct > 20, "wrong model's claim %g%%", cl.within_pct);
    double wide = cl.within_pct;
    ct_closeness_noise_floor(&cl, CT_CLOSE_NOISE_PCT);
    CHECK(cl.within_pct == wide && cl.noise_pct == 0 && !strstr(cl.text, "noise"));
    ct_search_free(s);
    free(idx), free(mu), free(sd);
    ct_space_free(&sp);
}

int main(void)
{
    test_ridge();
    test_plan();
    test_compcost();
    test_closeness();
    test_model_search();
    test_waves();
    CHECK_DONE();
}
