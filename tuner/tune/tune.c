/* tune.c - the tuning pipeline.
 *
 * The search proposes batches of candidates; a pool of threads compiles
 * them (or finds them in the binary cache) while the GPU verifies and times
 * the ones already compiled, in proposal order; every outcome is committed to
 * the database as soon as it is known and reported back to the search. */
#include "tune.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "compile.h"
#include "compile_pool.h"
#include "gpus.h"
#include "json.h"
#include "problem.h"
#include "retime.h"
#include "runner.h"
#include "search.h"
#include "space.h"
#include "worker.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_rec(const void *a, const void *b)
{
    const ct_result *x = a, *y = b;
    return (x->median_us > y->median_us) - (x->median_us < y->median_us);
}

/* A record's parameters for people: JSON text. */
static const char *params_text(const ct_result *r, char *buf, size_t len)
{
    if (ct_result_params_text(r, buf, len, NULL) != CT_OK)
        snprintf(buf, len, "?");
    return buf;
}

static void print_row(FILE *f, int rank, const ct_result *r, double baseline_us, const ct_gpu *g)
{
    char params[512];
    double tflops = r->flops / r->median_us / 1e6;
    char pct[16] = "-";
    if (g->info.fma_tflops > 0)
        snprintf(pct, sizeof pct, "%.0f%%", 100.0 * tflops / g->info.fma_tflops);
    char sp[16] = "-";
    if (baseline_us > 0)
        snprintf(sp, sizeof sp, "%.1fx", baseline_us / r->median_us);
    fprintf(f, "  %4d %11.2f %8.2f %6s %8s %9.1e  %s %s\n", rank, r->median_us, tflops, pct, sp, r->relerr,
            r->tmpl, params_text(r, params, sizeof params));
}

/* Winners of the nearest tuned problems of the family, as starting points
 * of a guided search. */
typedef struct near_ctx {
    const ct_problem *p;
    const char *device;
    struct {
        double dist;
        ct_result rec;
    } best[3];
    int n;
    /* The rows come grouped by problem: each stored problem is parsed once. */
    char last[sizeof ((ct_problem *)0)->canonical];
    double last_dist;              /* of the last problem, -1 when unusable */
} near_ctx;

/* The selector's distance; a winner that differs in fields other than sizes
 * (another mode, pad or bias) still makes a useful start, one unit further
 * away per such field: q takes p's value in those before it is measured. */
static double start_distance(const ct_problem *p, ct_problem *q)
{
    const ct_family *f = p->family;
    if (q->family != f)
        return -1;
    int differ = 0;
    for (int i = 0; i < f->nfields; i++)
        if (f->fields[i].kind != CT_FIELD_SIZE && q->dims[i] != p->dims[i]) {
            q->dims[i] = p->dims[i];
            differ++;
        }
    double l = ct_problem_distance(q, p);
    return l < 0 ? -1 : sqrt(l * l + differ);
}

static int near_cb(const ct_result *r, void *user)
{
    near_ctx *x = user;
    if (x->device && strcmp(r->device, x->device) != 0)
        return 0;
    if (strcmp(r->problem, x->last) != 0) {
        snprintf(x->last, sizeof x->last, "%s", r->problem);
        ct_problem q;
        x->last_dist = ct_problem_parse(r->problem, &q, NULL) == CT_OK ? start_distance(x->p, &q) : -1;
    }
    double d = x->last_dist;
    if (d < 0)
        return 0;
    int slot = x->n < 3 ? x->n++ : -1;
    if (slot < 0) {
        slot = 0;
        for (int i = 1; i < 3; i++)
            if (x->best[i].dist > x->best[slot].dist)
                slot = i;
        if (x->best[slot].dist <= d)
            return 0;
    }
    x->best[slot].dist = d;
    x->best[slot].rec = *r;
    return 0;
}

static void add_nearest_starts(ct_db *db, const ct_problem *p, const char *device, ct_search *srch, FILE *out)
{
    near_ctx x = {.p = p, .device = device};
    ct_query q = {.family = p->family->name, .winners_only = 1};
    if (ct_db_query(db, &q, near_cb, &x, NULL) != CT_OK)
        return;
    for (int i = 0; i < x.n; i++) {
        const ct_result *r = &x.best[i].rec;
        const ct_template *t = ct_template_find(p->family, r->tmpl);
        if (!t || !r->params_ok)
            continue;
        ct_search_add_start(srch, t, &r->params);
        fprintf(out, "  starting near %s (log-size distance %.2f): %s %s\n", r->problem, x.best[i].dist, t->name,
                r->params_json);
    }
}

/* Outcomes stored by earlier runs on this very device row (same name, UUID,
 * driver and NVRTC) for the current template sources: a resumed run reuses
 * them instead of compiling and measuring again. Sorted by key. */
typedef struct stored {
    char key[600];
    ct_result rec;
} stored;

typedef struct stored_set {
    stored *v;
    int n, cap;
    const char (*hashes)[17];
    const ct_family *fam;
} stored_set;

static void stored_key(const char *tmpl, const ct_params *c, char *key, size_t len)
{
    int n = snprintf(key, len, "%s ", tmpl);
    if (n < 0 || (size_t)n >= len || ct_params_to_key(c, key + n, len - (size_t)n) != CT_OK)
        key[0] = '\0';
}

static int stored_cb(const ct_result *r, void *user)
{
    stored_set *s = user;
    const ct_template *t = ct_template_find(s->fam, r->tmpl);
    if (!t || !r->params_ok || strcmp(r->template_hash, s->hashes[t - s->fam->templates]) != 0)
        return 0;   /* measured with another version of the template */
    if (s->n == s->cap) {
        int nc = s->cap ? 2 * s->cap : 256;
        stored *nv = realloc(s->v, (size_t)nc * sizeof *nv);
        if (!nv)
            return 1;
        s->v = nv;
        s->cap = nc;
    }
    stored_key(r->tmpl, &r->params, s->v[s->n].key, sizeof s->v[s->n].key);
    s->v[s->n].rec = *r;
    s->n++;
    return 0;
}

static int cmp_stored(const void *a, const void *b)
{
    return strcmp(((const stored *)a)->key, ((const stored *)b)->key);
}


/* The measurement conditions of a run: clocks, temperatures, re-timings. */
static void note_conditions(ct_tune_result *res, const ct_conditions *oc)
{
    res->retimed += oc->retimed;
    res->raced += oc->raced;
    for (int i = 0; i < 2; i++) {
        if (oc->sm_mhz[i] > 0) {
            if (res->sm_mhz_min < 0 || oc->sm_mhz[i] < res->sm_mhz_min)
                res->sm_mhz_min = oc->sm_mhz[i];
            if (oc->sm_mhz[i] > res->sm_mhz_max)
                res->sm_mhz_max = oc->sm_mhz[i];
        }
        if (oc->temp_c[i] >= 0) {
            if (res->temp_c_min < 0 || oc->temp_c[i] < res->temp_c_min)
                res->temp_c_min = oc->temp_c[i];
            if (oc->temp_c[i] > res->temp_c_max)
                res->temp_c_max = oc->temp_c[i];
        }
    }
}

/* One candidate's conditions for the --verbose line. */
static const char *conditions_text(const ct_result *r)
{
    static char buf[160];
    const ct_conditions *oc = &r->cond;
    buf[0] = '\0';
    if (r->status != CT_RS_OK)
        return buf;
    snprintf(buf, sizeof buf, "  [SM %d->%d MHz, %d->%d C, %d reps%s%s%s]", oc->sm_mhz[0], oc->sm_mhz[1],
             oc->temp_c[0], oc->temp_c[1], r->reps, oc->raced ? ", raced" : "",
             oc->retimed ? ", re-timed" : "", oc->l2_flushed ? ", L2 flushed" : "");
    return buf;
}

/* Re-time the best few verified candidates back to back, under the same
 * conditions, before naming the winner: their first timings may be minutes
 * and degrees apart. Updates okrecs (and the stored rows) in place. */
static void retime_best(ct_worker *wk, ct_compile_pool *pl, ct_db *db, const ct_problem *p, int ntop, ct_result *okrecs,
                        FILE *out, ct_tune_result *res)
{
    int done = 0;
    for (int i = 0; i < ntop; i++) {
        ct_result *r = &okrecs[i];
        ct_result oc;
        if (ct_retime_one(wk, pl, p, r, &oc)) {
            note_conditions(res, &oc.cond);
            if (r->id)
                ct_db_candidate_retime(db, r->id, r, NULL);
            done++;
        }
    }
    if (done)
        fprintf(out, "  re-timed the best %d together before naming the winner\n", done);
}

/* The --json summary on stdout. */
static void print_json(FILE *f, const ct_problem *p, const ct_gpu *g, const char *strategy, unsigned long long seed,
                       int budget, const int *counts, const ct_tune_result *res, int nok, int l2_flush)
{
    ct_jw j;
    ct_jw_file(&j, f, 0);
    ct_jw_object(&j, NULL);
    ct_jw_string(&j, "problem", p->canonical);
    ct_jw_string(&j, "device", g->info.name);
    ct_jw_string(&j, "arch", g->arch);
    ct_jw_string(&j, "strategy", strategy);
    ct_jw_uint(&j, "seed", seed);
    ct_jw_int(&j, "budget", budget);
    ct_jw_int(&j, "candidates", res->tuned);
    ct_jw_object(&j, "counts");
    for (int i = 0; i < CT_RS_COUNT; i++)
        ct_jw_int(&j, ct_result_status_name((ct_result_status)i), counts[i]);
    ct_jw_end(&j);
    ct_jw_int(&j, "cache_hits", res->cache_hits);
    ct_jw_int(&j, "reused", res->reused);
    ct_jw_object(&j, "measurement");
    ct_jw_string(&j, "l2", l2_flush ? "flushed" : "warm");
    ct_jw_int(&j, "retimed", res->retimed);
    ct_jw_int(&j, "raced", res->raced);
    ct_jw_int(&j, "worker_starts", res->worker_starts);
    ct_jw_array(&j, "sm_mhz");
    ct_jw_int(&j, NULL, res->sm_mhz_min);
    ct_jw_int(&j, NULL, res->sm_mhz_max);
    ct_jw_end(&j);
    ct_jw_array(&j, "temp_c");
    ct_jw_int(&j, NULL, res->temp_c_min);
    ct_jw_int(&j, NULL, res->temp_c_max);
    ct_jw_end(&j);
    ct_jw_end(&j);
    if (nok) {
        const ct_result *w = &res->winner;
        char params[512];
        double tflops = w->flops / w->median_us / 1e6;
        ct_jw_object(&j, "winner");
        ct_jw_string(&j, "template", w->tmpl);
        ct_jw_raw(&j, "params", params_text(w, params, sizeof params));
        ct_jw_number(&j, "median_us", "%.4f", w->median_us);
        ct_jw_number(&j, "tflops", "%.4f", tflops);
        ct_jw_number(&j, "pct_fma", "%.2f", g->info.fma_tflops > 0 ? 100 * tflops / g->info.fma_tflops : 0);
        ct_jw_number(&j, "gbs", "%.2f", w->bytes / w->median_us / 1e3);
        ct_jw_number(&j, "relerr", "%.3g", w->relerr);
        ct_jw_end(&j);
    } else {
        ct_jw_null(&j, "winner");
    }
    ct_jw_string_or_null(&j, "baseline_only", res->baseline_only);
    ct_jw_number(&j, "baseline_us", "%.4f", res->baseline_us);
    ct_jw_number(&j, "speedup", "%.3f", nok && res->baseline_us > 0 ? res->baseline_us / res->winner.median_us : 0);
    ct_jw_object(&j, "time");
    ct_jw_number(&j, "wall_s", "%.3f", res->wall_s);
    ct_jw_number(&j, "compile_cpu_s", "%.3f", res->compile_s);
    ct_jw_number(&j, "verify_s", "%.3f", res->verify_s);
    ct_jw_number(&j, "time_s", "%.3f", res->time_s);
    ct_jw_number(&j, "store_s", "%.3f", res->store_s);
    ct_jw_number(&j, "candidates_per_s", "%.2f", res->wall_s > 0 ? res->tuned / res->wall_s : 0);
    ct_jw_end(&j);
    ct_jw_end(&j);
    fputc('\n', f);
}

/* Why a run's winner is its baseline: the tuned templates' constraints
 * admitted nothing (one reason each), or what became of their candidates. */
static void note_baseline_only(const ct_space *sp, const int *counts, int tuned_ok, ct_tune_result *res)
{
    char *b = res->baseline_only;
    size_t len = sizeof res->baseline_only, n = 0;
    int tuned = 0;
    for (int i = 0; i < sp->ntemplates; i++) {
        const ct_space_stats *st = &sp->stats[i];
        if (st->tmpl->is_baseline)
            continue;
        tuned += st->admissible > 0;
        if (st->admissible == 0 && n < len)
            n += (size_t)snprintf(b + n, len - n, "%s%s admits no candidate (%s)", n ? "; " : "", st->tmpl->name,
                                  st->example_reject[0] ? st->example_reject : "no value lists");
    }
    if (n == 0 && !tuned)
        snprintf(b, len, "no tuned template was part of the run");
    else if (tuned_ok > 0 && n < len)
        snprintf(b + n, len - n, "%sits %d verified tuned candidates were all slower", n ? "; " : "", tuned_ok);
    else if (tuned && n < len) {
        n += (size_t)snprintf(b + n, len - n, "%sno tuned candidate passed (failures in this run: ", n ? "; " : "");
        for (int i = 1, first = 1; i < CT_RS_COUNT && n < len; i++)
            if (counts[i]) {
                n += (size_t)snprintf(b + n, len - n, "%s%d %s", first ? "" : ", ", counts[i],
                                      ct_result_status_name((ct_result_status)i));
                first = 0;
            }
        if (n < len)
            snprintf(b + n, len - n, ")");
    }
}

ct_status ct_tune(const ct_tune_opts *o, ct_tune_result *res, ct_err *e)
{
    memset(res, 0, sizeof *res);
    const ct_config *cfg = o->cfg;
    /* With --json the report goes to stderr and stdout carries only JSON. */
    FILE *out = o->json ? stderr : o->out;
    const ct_problem *p = o->problem;
    const ct_family *fam = p->family;
    ct_status rc;
    ct_strategy strategy = CT_SEARCH_AUTO;
    if (o->strategy && (rc = ct_strategy_parse(o->strategy, &strategy, e)) != CT_OK)
        return rc;

    /* The GPU is opened only in the worker process (worker.h); g holds
     * what the worker reported, for the space and the report. */
    ct_gpu g;
    memset(&g, 0, sizeof g);
    ct_gpus *gs = NULL;
    ct_worker_device wdev;
    ct_db *db = NULL;
    ct_space sp = {0};
    ct_search *srch = NULL;
    char *sources[16] = {0};
    char hashes[16][17];
    ct_compile_pool pl = {0};
    int have_pool = 0;
    pthread_t *threads = NULL;
    int nthreads = 0;
    ct_result *okrecs = NULL;
    int *batch = NULL;
    stored_set prior = {0};
    int nok = 0, counts[CT_RS_COUNT] = {0};
    long long run_id = 0, problem_id = 0;
    long long run_ids[CT_MAX_GPUS] = {0}, device_ids[CT_MAX_GPUS] = {0};   /* per GPU; [0] is run_id's */
    double t_start = now_s();
    unsigned long long seed = cfg->s.seed;
    if (seed == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (unsigned long long)ts.tv_nsec ^ ((unsigned long long)ts.tv_sec << 20) ^ (unsigned long long)getpid();
    }
    res->sm_mhz_min = res->sm_mhz_max = res->temp_c_min = res->temp_c_max = -1;
    ct_worker_spec ws = {.exe = o->worker_exe ? o->worker_exe : "/proc/self/exe", .gpu = o->gpu,
                         .problem = p, .seed = seed, .templates_dir = o->templates_dir,
                         .settings = cfg->s};
    ws.settings.seed = seed;
    /* Before the database is touched: a bad --gpu leaves no file behind. */
    int one_gpu = o->gpu;
    if ((rc = ct_gpus_start(&ws, o->ngpus ? o->gpus : &one_gpu, o->ngpus ? o->ngpus : 1, stderr, &gs, &wdev, e)) !=
        CT_OK)
        goto out;
    g.info = wdev.info;
    g.lim = wdev.lim;
    snprintf(g.arch, sizeof g.arch, "%s", wdev.arch);
    g.total_mem = wdev.total_mem;

    rc = ct_db_open(o->db_path, 1, &db, e);
    if (rc != CT_OK)
        goto out;
    if ((rc = ct_gpus_devices(gs, db, o->remeasure, out, device_ids, e)) != CT_OK)
        goto out;
    g.info = ct_gpus_device(gs, 0)->info;
    if ((rc = ct_db_problem_upsert(db, fam->name, p->canonical, fam->flops(p), fam->bytes(p), &problem_id, e)) != CT_OK)
        goto out;

    if ((rc = ct_space_build(p, cfg, &g.lim, o->only_template, &sp, e)) != CT_OK)
        goto out;
    long long full = 0, admissible = 0;
    for (int i = 0; i < sp.ntemplates; i++) {
        full += sp.stats[i].full;
        admissible += sp.stats[i].admissible;
    }
    if (sp.n == 0) {
        rc = ct_fail(e, CT_ERR_NO_RESULT, "no admissible candidate for %s on %s", p->canonical, g.info.name);
        goto out;
    }
    ct_shard_plan shard_plan = {0};
    if (o->shard.count > 1) {
        /* The shard's part of a fixed list, measured as it is. */
        if ((rc = ct_shard_apply(&sp, strategy, cfg->s.max_candidates, cfg->s.seed, &o->shard, &shard_plan, e)) !=
            CT_OK)
            goto out;
        if (sp.n == 0) {
            rc = ct_fail(e, CT_ERR_NO_RESULT, "shard %d/%d of %s has no candidate (the run has %d)", o->shard.index,
                         o->shard.count, p->canonical, shard_plan.total);
            goto out;
        }
        strategy = CT_SEARCH_EXHAUSTIVE;
    }
    srch = ct_search_new(&sp, strategy, cfg->s.max_candidates, seed);
    batch = malloc((size_t)sp.n * sizeof *batch);
    if (!srch || !batch) {
        rc = ct_fail(e, CT_ERR_INTERNAL, "out of memory");
        goto out;
    }
    const char *strategy_name = ct_strategy_name(ct_search_strategy(srch));

    fprintf(out, "convtune: %s on %s (%s, %d SMs)\n", p->canonical, g.info.name, g.arch, g.info.sm_count);
    fprintf(out, "  ceilings: %.1f TFLOP/s fp32 FMA, %.0f GB/s memory, %.1f us empty launch\n",
            g.info.fma_tflops, g.info.bandwidth_gbs, g.info.launch_us);
    fprintf(out, "  problem: %.3g GFLOP, %.3g MB; floor %.2f us (FMA) / %.2f us (memory)\n",
            fam->flops(p) / 1e9, fam->bytes(p) / 1e6, fam->flops(p) / (g.info.fma_tflops * 1e6),
            fam->bytes(p) / (g.info.bandwidth_gbs * 1e3));
    fprintf(out, "  space: %lld combinations, %lld admissible; search: %s, budget %d candidates%s, seed %llu\n",
            full, admissible, strategy_name, ct_search_budget(srch),
            o->time_limit_s > 0 ? " or the time limit" : "", seed);
    if (o->shard.count > 1)
        fprintf(out, "  shard %d/%d: %d of the %d candidates of a %s run (budget %d%s)\n", o->shard.index,
                o->shard.count, sp.n, shard_plan.total, ct_strategy_name(shard_plan.strategy), cfg->s.max_candidates,
                shard_plan.strategy == CT_SEARCH_RANDOM ? ", the seed above" : "");
    if (ct_gpus_count(gs) > 1) {
        fprintf(out, "  GPUs:");
        for (int k = 0; k < ct_gpus_count(gs); k++)
            fprintf(out, "%s %d", k ? "," : "", ct_gpus_ordinal(gs, k));
        fprintf(out, " (%d x %s), candidates dealt to each as it becomes free; the best re-timed on GPU %d\n",
                ct_gpus_count(gs), g.info.name, ct_gpus_ordinal(gs, 0));
    }
    if (ct_search_strategy(srch) == CT_SEARCH_ANNEAL)
        add_nearest_starts(db, p, g.info.name, srch, out);
    fflush(out);

    for (int i = 0; i < fam->ntemplates; i++) {
        if ((rc = ct_template_source(fam->templates[i].name, o->templates_dir, &sources[i], e)) != CT_OK)
            goto out;
        ct_hash_hex(sources[i], hashes[i]);
    }
    if (!o->fresh) {
        prior.hashes = (const char (*)[17])hashes;
        prior.fam = fam;
        for (int k = 0; k < ct_gpus_count(gs); k++) {
            ct_query pq = {.problem = p->canonical, .device_id = device_ids[k]};
            if ((rc = ct_db_query(db, &pq, stored_cb, &prior, e)) != CT_OK)
                goto out;
        }
        qsort(prior.v, (size_t)prior.n, sizeof *prior.v, cmp_stored);
        if (prior.n)
            fprintf(out, "  resuming: %d outcomes stored by earlier runs on this device are reused "
                         "(--fresh measures again)\n", prior.n);
    }
    if ((rc = ct_gpus_workload(gs, e)) != CT_OK)
        goto out;
    char settings[600];
    ct_settings run_settings = cfg->s;
    run_settings.seed = seed;
    ct_settings_json(&run_settings, settings, sizeof settings);
    for (int k = 0; k < ct_gpus_count(gs); k++) {
        if ((rc = ct_db_run_begin(db, problem_id, device_ids[k], settings, &run_ids[k], e)) != CT_OK)
            goto out;
        run_id = run_ids[0];
    }

    pl.jobs = calloc((size_t)sp.n, sizeof *pl.jobs);
    okrecs = calloc((size_t)sp.n, sizeof *okrecs);
    if (!pl.jobs || !okrecs) {
        rc = ct_fail(e, CT_ERR_INTERNAL, "out of memory");
        goto out;
    }
    ct_compile_pool_init(&pl, p, g.arch, (const char *const *)sources, o->cache_dir);
    pthread_mutex_init(&pl.mu, NULL);
    pthread_cond_init(&pl.cv, NULL);
    have_pool = 1;
    nthreads = cfg->s.jobs > 0 ? cfg->s.jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (nthreads < 1)
        nthreads = 1;
    threads = calloc((size_t)nthreads, sizeof *threads);
    for (int i = 0; threads && i < nthreads; i++)
        if (pthread_create(&threads[i], NULL, ct_compile_worker, &pl) != 0)
            nthreads = i;
    if (!threads || nthreads == 0) {
        rc = ct_fail(e, CT_ERR_INTERNAL, "cannot start compile threads");
        nthreads = 0;
        goto out;
    }

    int progress = isatty(fileno(stderr)) && !o->verbose;
    int nfail = 0, done = 0, stopped_by_time = 0;
    double best_us = 0;   /* fastest verified median so far */
    double compile_ms_total = 0, t_verify = 0, t_time = 0, t_store = 0;
    /* Jobs are processed in proposal order from a FIFO that the search tops
     * up whenever fewer than `window` are waiting: the compile pool runs
     * ahead of the GPU, and a guided search proposes from results at most
     * one window old. */
    int window = ct_search_strategy(srch) == CT_SEARCH_ANNEAL ? 4 * nthreads : sp.n;
    int head = 0, exhausted = 0;
    for (;;) {
        while (!exhausted && pl.njobs - head < window) {
            if (o->time_limit_s > 0 && now_s() - t_start > o->time_limit_s) {
                stopped_by_time = 1;
                exhausted = 1;
                break;
            }
            int nb = ct_search_next(srch, batch, window - (pl.njobs - head));
            if (nb == 0) {
                exhausted = pl.njobs == head && !ct_gpus_busy(gs);   /* else: proposals wait for results */
                break;
            }
            /* Candidates measured before are reported from the database. */
            int keep = 0;
            for (int i = 0; i < nb; i++) {
                const ct_candidate *cd = &sp.cand[batch[i]];
                stored q;
                stored_key(cd->tmpl->name, &cd->params, q.key, sizeof q.key);
                const stored *hit =
                    prior.n ? bsearch(&q, prior.v, (size_t)prior.n, sizeof *prior.v, cmp_stored) : NULL;
                if (!hit) {
                    batch[keep++] = batch[i];
                    continue;
                }
                int ok = hit->rec.status == CT_RS_OK;
                ct_search_report(srch, batch[i], ok ? hit->rec.median_us : 0);
                res->reused++;
                done++;
                if (hit->rec.status >= 0)
                    counts[hit->rec.status]++;
                if (ok) {
                    okrecs[nok++] = hit->rec;
                    if (best_us == 0 || hit->rec.median_us < best_us)
                        best_us = hit->rec.median_us;
                    if (cd->tmpl->is_baseline && (res->baseline_us == 0 || hit->rec.median_us < res->baseline_us))
                        res->baseline_us = hit->rec.median_us;
                } else {
                    nfail++;
                }
            }
            pthread_mutex_lock(&pl.mu);
            for (int i = 0; i < keep; i++)
                pl.jobs[pl.njobs++] = (ct_compile_job){.cand = &sp.cand[batch[i]], .idx = batch[i]};
            pthread_cond_broadcast(&pl.cv);
            pthread_mutex_unlock(&pl.mu);
        }
        if (head == pl.njobs && !ct_gpus_busy(gs)) {
            if (exhausted)
                break;
            continue;   /* every proposal was a reused one: ask again */
        }
        /* The time budget also ends a queue filled before it ran out; what
         * the GPUs are measuring is still taken back and stored. */
        if (o->time_limit_s > 0 && now_s() - t_start > o->time_limit_s) {
            stopped_by_time = exhausted = 1;
            if (!ct_gpus_busy(gs))
                break;
            head = pl.njobs;
        }
        {
            /* NULL: nothing left to deal, take back what a GPU measured. */
            ct_compile_job *j = head < pl.njobs ? &pl.jobs[head++] : NULL;
            pthread_mutex_lock(&pl.mu);
            while (j && !j->done)
                pthread_cond_wait(&pl.cv, &pl.mu);
            pthread_mutex_unlock(&pl.mu);
            ct_gpus_done gd = {.job = j};
            if (!j || j->rc == CT_OK) {
                /* Racing: a candidate already race_factor times slower than
                 * the best after min_reps is not timed further. */
                double race_us = cfg->s.race_factor > 0 && best_us > 0 ? best_us * cfg->s.race_factor : 0;
                if ((rc = ct_gpus_run(gs, j, j ? ct_template_index(p, j->cand->tmpl) : 0, race_us, &gd, e)) != CT_OK)
                    goto out;
                if (!gd.job)
                    continue;   /* a GPU is still free: deal it the next candidate */
                j = gd.job;
            }
            const ct_template *t = j->cand->tmpl;
            ct_result rec;
            char cond[160] = "";
            ct_result_init(&rec);
            snprintf(rec.family, sizeof rec.family, "%s", fam->name);
            snprintf(rec.tmpl, sizeof rec.tmpl, "%s", t->name);
            memcpy(rec.template_hash, hashes[ct_template_index(p, t)], 17);
            ct_result_set_params(&rec, &j->cand->params);
            rec.flops = fam->flops(p);
            rec.bytes = fam->bytes(p);
            /* A binary from the cache took no compile time: none is stored. */
            rec.compile_ms = j->bin.compile_ms > 0 ? j->bin.compile_ms : NAN;
            compile_ms_total += j->bin.compile_ms;
            res->cache_hits += j->cache_hit;
            if (j->rc != CT_OK) {
                rec.status = CT_RS_COMPILE_FAILED;
                snprintf(rec.error, sizeof rec.error, "%.511s", j->err.msg);
            } else {
                ct_result_take_measured(&rec, &gd.oc);
                note_conditions(res, &rec.cond);
                t_verify += rec.cond.verify_ms / 1e3;
                t_time += rec.cond.time_ms / 1e3;
                snprintf(cond, sizeof cond, "%s", conditions_text(&rec));
            }
            ct_binary_free(&j->bin);
            double ts = now_s();
            if ((rc = ct_db_candidate_add_id(db, run_ids[gd.gpu], &rec, &rec.id, e)) != CT_OK)
                goto out;
            t_store += now_s() - ts;
            done++;
            if (rec.status >= 0)
                counts[rec.status]++;
            int ok = rec.status == CT_RS_OK;
            ct_search_report(srch, j->idx, ok ? rec.median_us : 0);
            if (ok) {
                okrecs[nok++] = rec;
                if (best_us == 0 || rec.median_us < best_us)
                    best_us = rec.median_us;
                if (t->is_baseline && (res->baseline_us == 0 || rec.median_us < res->baseline_us))
                    res->baseline_us = rec.median_us;
            } else {
                nfail++;
            }
            if (o->verbose) {
                char params[512];
                fprintf(stderr, "[%d/%d] %-14s %10.2f us  relerr %.1e  %s %s%s%s%s\n", done, ct_search_budget(srch),
                        ct_result_status_name(rec.status), isnan(rec.median_us) ? 0.0 : rec.median_us,
                        isnan(rec.relerr) ? -1.0 : rec.relerr,
                        rec.tmpl, params_text(&rec, params, sizeof params), cond, rec.error[0] ? "  " : "",
                        rec.error);
            } else if (progress) {
                char params[512];
                const ct_result *best = NULL;
                for (int k = 0; k < nok; k++)
                    if (!best || okrecs[k].median_us < best->median_us)
                        best = &okrecs[k];
                double el = now_s() - t_start;
                int left = ct_search_budget(srch) - done;
                fprintf(stderr, "\r\033[K  %d/%d, %d failed, best %.2f us %s %.60s, ~%.0f s left", done,
                        ct_search_budget(srch), nfail, best ? best->median_us : 0.0, best ? best->tmpl : "",
                        best ? params_text(best, params, sizeof params) : "", left > 0 ? el / done * left : 0.0);
            }
        }
    }
    if (progress)
        fprintf(stderr, "\n");
    res->tuned = done;
    res->counts_ok = nok;
    res->counts_failed = nfail;
    for (int k = 0; k < ct_gpus_count(gs); k++)
        ct_db_run_end(db, run_ids[k], nok ? "done" : "no_result", NULL);
    run_id = 0;
    res->wall_s = now_s() - t_start;
    res->compile_s = compile_ms_total / 1e3;
    res->verify_s = t_verify;
    res->time_s = t_time;
    res->store_s = t_store;
    fprintf(out, "  tuned %d candidates in %.1f s (%.1f/s)%s: %d verified, %d failed", done, res->wall_s,
            done / res->wall_s, stopped_by_time ? ", stopped by the time limit" : "", nok, nfail);
    if (res->reused)
        fprintf(out, "; %d of them reused from earlier runs", res->reused);
    fputc('\n', out);
    if (ct_gpus_count(gs) > 1) {
        char per[400];
        ct_gpus_summary(gs, per, sizeof per);
        fprintf(out, "  measured per GPU: %s\n", per);
    }
    fprintf(out, "  time split: compile %.1f s of CPU on %d threads (%d from the cache), verify %.1f s, "
            "time %.1f s, store %.1f s\n", res->compile_s, nthreads, res->cache_hits, t_verify, t_time, t_store);
    if (nok == 0) {
        if (o->json)
            print_json(o->out, p, &g, strategy_name, seed, ct_search_budget(srch), counts, res, 0, cfg->s.l2_flush);
        rc = ct_fail(e, CT_ERR_NO_RESULT, "no candidate of %s passed verification", p->canonical);
        goto out;
    }
    qsort(okrecs, (size_t)nok, sizeof *okrecs, cmp_rec);
    if (cfg->s.retime_top > 1 && nok > 1) {
        retime_best(ct_gpus_worker(gs, 0), &pl, db, p, cfg->s.retime_top < nok ? cfg->s.retime_top : nok, okrecs, out,
                    res);
        qsort(okrecs, (size_t)nok, sizeof *okrecs, cmp_rec);
    }
    res->worker_starts = ct_gpus_starts(gs);
    /* Kept with the run for `convtune report`: the conditions it was timed under. */
    char cond[240];
    {
        ct_jw j;
        ct_jw_buffer(&j, cond, sizeof cond, 0);
        ct_jw_object(&j, NULL);
        ct_jw_array(&j, "sm_mhz");
        ct_jw_int(&j, NULL, res->sm_mhz_min);
        ct_jw_int(&j, NULL, res->sm_mhz_max);
        ct_jw_end(&j);
        ct_jw_array(&j, "temp_c");
        ct_jw_int(&j, NULL, res->temp_c_min);
        ct_jw_int(&j, NULL, res->temp_c_max);
        ct_jw_end(&j);
        ct_jw_string(&j, "l2", cfg->s.l2_flush ? "flushed" : "warm");
        ct_jw_int(&j, "retimed", res->retimed);
        ct_jw_int(&j, "raced", res->raced);
        ct_jw_int(&j, "worker_starts", res->worker_starts);
        ct_jw_end(&j);
    }
    for (int k = 0; k < ct_gpus_count(gs); k++)
        ct_db_run_note(db, run_ids[k], "conditions", cond, NULL);
    fprintf(out, "  measurement: L2 %s; %d timing%s re-taken for a wide spread, %d stopped early as losers; "
                 "worker processes %d", cfg->s.l2_flush ? "flushed before every timed execution" : "warm (not flushed)",
            res->retimed, res->retimed == 1 ? "" : "s", res->raced, res->worker_starts);
    if (res->sm_mhz_min > 0)
        fprintf(out, "; SM clock %d-%d MHz, %d-%d C", res->sm_mhz_min, res->sm_mhz_max, res->temp_c_min,
                res->temp_c_max);
    fputc('\n', out);
    fprintf(out, "  rank   median_us  TFLOP/s  %%FMA  speedup    relerr  template params\n");
    for (int i = 0; i < nok && i < 5; i++)
        print_row(out, i + 1, &okrecs[i], res->baseline_us, &g);
    for (int i = 0; i < nok; i++)
        if (ct_template_find(fam, okrecs[i].tmpl)->is_baseline) {
            fprintf(out, "  naive baseline:\n");
            print_row(out, i + 1, &okrecs[i], res->baseline_us, &g);
            break;
        }
    res->winner = okrecs[0];
    if (ct_template_find(fam, okrecs[0].tmpl)->is_baseline) {
        int tuned_ok = 0;
        for (int i = 0; i < nok; i++)
            tuned_ok += !ct_template_find(fam, okrecs[i].tmpl)->is_baseline;
        note_baseline_only(&sp, counts, tuned_ok, res);
        fprintf(out, "  only the baseline was measured: %s\n", res->baseline_only);
    }
    char wparams[512];
    fprintf(out, "winner: %s %s: %.2f us, %.2f TFLOP/s, %.0f GB/s", okrecs[0].tmpl,
            params_text(&okrecs[0], wparams, sizeof wparams),
            okrecs[0].median_us, okrecs[0].flops / okrecs[0].median_us / 1e6,
            okrecs[0].bytes / okrecs[0].median_us / 1e3);
    if (res->baseline_us > 0)
        fprintf(out, ", %.1fx the naive kernel", res->baseline_us / okrecs[0].median_us);
    fprintf(out, "\nexport: convtune export --problem %s\n", p->canonical);
    if (o->json)
        print_json(o->out, p, &g, strategy_name, seed, ct_search_budget(srch), counts, res, nok, cfg->s.l2_flush);
out:
    if (have_pool) {
        pthread_mutex_lock(&pl.mu);
        pl.closed = 1;
        pl.next = pl.njobs;   /* drop what was not started */
        pthread_cond_broadcast(&pl.cv);
        pthread_mutex_unlock(&pl.mu);
        for (int i = 0; i < nthreads; i++)
            pthread_join(threads[i], NULL);
        pthread_mutex_destroy(&pl.mu);
        pthread_cond_destroy(&pl.cv);
    }
    free(threads);
    if (pl.jobs) {
        for (int i = 0; i < pl.njobs; i++)
            ct_binary_free(&pl.jobs[i].bin);
        free(pl.jobs);
    }
    for (int k = 0; run_id && db && k < CT_MAX_GPUS; k++)
        if (run_ids[k])
            ct_db_run_end(db, run_ids[k], "failed", NULL);
    free(okrecs);
    free(batch);
    free(prior.v);
    for (int i = 0; i < 16; i++)
        free(sources[i]);
    ct_gpus_stop(gs);
    ct_search_free(srch);
    ct_space_free(&sp);
    if (db)
        ct_db_close(db);
    return rc;
}
