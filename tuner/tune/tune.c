/* tune.c - one tuning run (tune.h), in four phases:
 *   open    the GPUs' workers (before the database: a bad --gpu leaves no
 *           file behind), the database, the device rows and the problem;
 *   plan    the space (a shard's part of it), the search, the stored
 *           outcomes to reuse, the nearby winners to start from, the
 *           workload in each worker, the compile pool;
 *   loop    the search proposes batches into a FIFO that the pool compiles
 *           ahead of the GPUs; each compiled candidate is dealt to the next
 *           free GPU and every outcome is stored as soon as it is known and
 *           reported back to the search;
 *   finish  the best few re-timed together on one GPU, the ranking, the
 *           winner. */
#include "tune.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "codehash.h"
#include "compile.h"
#include "compile_pool.h"
#include "guide.h"
#include "resume.h"
#include "retime.h"
#include "runner.h"
#include "search.h"
#include "space.h"
#include "timing.h"
#include "tune_cudnn.h"
#include "tune_report.h"

typedef struct tune_run {
    const ct_tune_opts *o;
    const ct_config *cfg;
    ct_tune_result *res;
    FILE *out;                     /* the report: stderr under --json */
    const ct_problem *p;
    ct_strategy strategy;
    unsigned long long seed;
    double t_start;
    ct_gpu g;                      /* what the first GPU's worker reported */
    ct_gpus *gs;
    ct_db *db;
    long long problem_id;
    long long run_ids[CT_MAX_GPUS], device_ids[CT_MAX_GPUS];   /* per GPU */
    int runs_open;
    ct_space sp;
    ct_search *srch;
    int *batch;
    ct_family_sources src;         /* every template's source and hash */
    char **canons;                 /* their canonical forms (codehash.h), src.n of them */
    ct_resume prior;
    ct_compile_pool pl;
    pthread_t *threads;
    int nthreads, have_pool;
    /* The loop's state: jobs [head, pl.njobs) wait to be dealt; a guided
     * search proposes from results at most one window old. */
    int head, window, exhausted, stopped_by_time, progress;
    ct_result *okrecs;
    int nok, nfail, done, counts[CT_RS_COUNT];
    double best_us;                /* fastest verified median so far */
    int best_at;                   /* candidates judged when it was found */
    double t_best;                 /* ... and when */
    ct_guide *guide;               /* the model strategy's models (guide.h), or NULL */
    double compile_ms, t_verify, t_time, t_store;
} tune_run;

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

static ct_status run_open(tune_run *r, ct_err *e)
{
    const ct_tune_opts *o = r->o;
    r->seed = r->cfg->s.seed;
    if (r->seed == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        r->seed = (unsigned long long)ts.tv_nsec ^ ((unsigned long long)ts.tv_sec << 20) ^ (unsigned long long)getpid();
    }
    ct_worker_spec ws = {.exe = o->worker_exe ? o->worker_exe : "/proc/self/exe", .gpu = o->gpu, .problem = r->p,
                         .seed = r->seed, .templates_dir = o->templates_dir, .settings = r->cfg->s};
    ws.settings.seed = r->seed;
    int one_gpu = o->gpu;
    ct_worker_device wdev;
    ct_status rc = ct_gpus_start(&ws, o->ngpus ? o->gpus : &one_gpu, o->ngpus ? o->ngpus : 1, stderr, &r->gs, &wdev, e);
    if (rc != CT_OK)
        return rc;
    r->g.lim = wdev.lim;
    if (o->arch_limit && (rc = ct_limits_restrict(&r->g.lim, o->arch_limit, e)) != CT_OK)
        return rc;
    snprintf(r->g.arch, sizeof r->g.arch, "%s", wdev.arch);
    r->g.total_mem = wdev.total_mem;
    if ((rc = ct_db_open(o->db_path, 1, &r->db, e)) != CT_OK ||
        (rc = ct_gpus_devices(r->gs, r->db, o->remeasure, r->out, r->device_ids, e)) != CT_OK)
        return rc;
    r->g.info = ct_gpus_device(r->gs, 0)->info;
    const ct_family *fam = r->p->family;
    return ct_db_problem_upsert(r->db, fam->name, r->p->canonical, fam->flops(r->p), fam->bytes(r->p), &r->problem_id,
                                e);
}

/* The model strategy's models, from what the database holds on this
 * architecture; without any, the search anneals (and says so). */
static ct_status plan_model(tune_run *r, ct_err *e)
{
    ct_status rc = r->guide ? CT_OK
                            : ct_guide_new(r->db, r->p, &r->sp, r->g.info.name, r->g.info.cc_major, r->g.info.sm_count, r->seed, &r->guide, e);
    if (rc != CT_OK)
        return rc;
    if (ct_guide_has_data(r->guide))
        fprintf(r->out, "  cost model: %d verified candidates stored on compute capability %d.x devices; the most "
                        "promising measured first, with steps from the best and draws by template%s\n",
                ct_guide_stored_rows(r->guide), r->g.info.cc_major,
                r->o->time_limit_s > 0 ? ", by expected gain per expected second" : "");
    else
        fprintf(r->out, "  cost model: too few verified candidates of these templates stored on compute capability "
                        "%d.x devices (%d); searching as anneal\n", r->g.info.cc_major, ct_guide_stored_rows(r->guide));
    return CT_OK;
}

static ct_status plan_space(tune_run *r, ct_err *e)
{
    const ct_tune_opts *o = r->o;
    const ct_problem *p = r->p;
    ct_status rc = ct_space_build(p, r->cfg, &r->g.lim, o->only_template, &r->sp, e);
    if (rc != CT_OK)
        return rc;
    if (r->sp.n == 0)
        return ct_fail(e, CT_ERR_NO_RESULT, "no admissible candidate for %s on %s", p->canonical, r->g.info.name);
    ct_shard_plan shard_plan = {0};
    if (o->shard.count > 1) {
        /* The shard's part of a fixed list, measured as it is. */
        if ((rc = ct_shard_apply(&r->sp, r->strategy, r->cfg->s.max_candidates, r->cfg->s.seed, &o->shard,
                                 &shard_plan, e)) != CT_OK)
            return rc;
        if (r->sp.n == 0)
            return ct_fail(e, CT_ERR_NO_RESULT, "shard %d/%d of %s has no candidate (the run has %d)", o->shard.index,
                           o->shard.count, p->canonical, shard_plan.total);
        r->strategy = CT_SEARCH_EXHAUSTIVE;
    }
    /* auto: exhaustive when the space fits the budget; else the model
     * strategy where the database holds enough of this family on this
     * architecture to fit one (on the quick search grids it came within 5%
     * of the best on more layers than annealing), else annealing. */
    if (r->strategy == CT_SEARCH_AUTO && r->sp.n > r->cfg->s.max_candidates) {
        if ((rc = ct_guide_new(r->db, p, &r->sp, r->g.info.name, r->g.info.cc_major, r->g.info.sm_count, r->seed, &r->guide, e)) != CT_OK)
            return rc;
        r->strategy = ct_guide_has_data(r->guide) ? CT_SEARCH_MODEL : CT_SEARCH_ANNEAL;
        if (r->strategy == CT_SEARCH_ANNEAL) {
            ct_guide_free(r->guide);
            r->guide = NULL;
        }
    }
    r->srch = ct_search_new(&r->sp, r->strategy, r->cfg->s.max_candidates, r->seed);
    r->batch = malloc((size_t)r->sp.n * sizeof *r->batch);
    r->okrecs = calloc((size_t)r->sp.n, sizeof *r->okrecs);
    r->pl.jobs = calloc((size_t)r->sp.n, sizeof *r->pl.jobs);
    if (!r->srch || !r->batch || !r->okrecs || !r->pl.jobs)
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    ct_tune_print_header(r->out, p, &r->g, &r->sp, ct_strategy_name(ct_search_strategy(r->srch)),
                         ct_search_budget(r->srch), o->time_limit_s > 0, r->seed);
    char line[1024];
    if (!o->only_template && ct_space_baseline_only(p, &r->sp, &r->g.lim, line, sizeof line))
        fprintf(r->out, "  %s\n", line);
    if (o->arch_limit)
        fprintf(r->out, "  arch limit %s: only the kernels a GPU of %s admits, compiled for this %s\n", o->arch_limit,
                o->arch_limit, r->g.arch);
    if (o->shard.count > 1)
        fprintf(r->out, "  shard %d/%d: %d of the %d candidates of a %s run (budget %d%s)\n", o->shard.index,
                o->shard.count, r->sp.n, shard_plan.total, ct_strategy_name(shard_plan.strategy),
                r->cfg->s.max_candidates, shard_plan.strategy == CT_SEARCH_RANDOM ? ", the seed above" : "");
    int ngpus = ct_gpus_count(r->gs);
    if (ngpus > 1) {
        fprintf(r->out, "  GPUs:");
        for (int k = 0; k < ngpus; k++)
            fprintf(r->out, "%s %d", k ? "," : "", ct_gpus_ordinal(r->gs, k));
        fprintf(r->out, " (%d x %s), candidates dealt to each as it becomes free; the best re-timed on GPU %d\n", ngpus,
                r->g.info.name, ct_gpus_ordinal(r->gs, 0));
    }
    if (ct_search_strategy(r->srch) == CT_SEARCH_MODEL && (rc = plan_model(r, e)) != CT_OK)
        return rc;
    if (ct_search_strategy(r->srch) == CT_SEARCH_ANNEAL || ct_search_strategy(r->srch) == CT_SEARCH_MODEL)
        ct_resume_nearest_starts(r->db, p, r->g.info.name, r->srch, r->out);
    fflush(r->out);
    return CT_OK;
}

static ct_status plan_run(tune_run *r, ct_err *e)
{
    ct_status rc;
    if ((rc = ct_family_sources_load(r->p->family, r->o->templates_dir, &r->src, e)) != CT_OK)
        return rc;
    if (!(r->canons = calloc((size_t)r->src.n, sizeof *r->canons)))
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    for (int i = 0; i < r->src.n; i++)
        if ((rc = ct_code_canonical(r->src.text[i], &r->canons[i], e)) != CT_OK)
            return rc;
    if (!r->o->fresh) {
        if ((rc = ct_resume_load(r->db, r->p, r->device_ids, ct_gpus_count(r->gs), (const char (*)[17])r->src.hash,
                                 (const char *const *)r->canons, r->o->templates_dir, &r->prior, e)) !=
            CT_OK)
            return rc;
        int stale = ct_resume_count_stale(&r->prior);
        if (r->prior.n - stale)
            fprintf(r->out, "  resuming: %d outcomes stored by earlier runs on this device are reused "
                            "(--fresh measures again)\n", r->prior.n - stale);
        if (stale)
            fprintf(r->out, "  resuming: %d stored times under %.0f us, taken with events per launch before "
                            "batching, are taken again\n", stale, CT_BATCH_BELOW_US);
    }
    if ((rc = ct_gpus_workload(r->gs, e)) != CT_OK)
        return rc;
    char settings[600];
    ct_settings run_settings = r->cfg->s;
    run_settings.seed = r->seed;
    ct_settings_json(&run_settings, settings, sizeof settings);
    for (int k = 0; k < ct_gpus_count(r->gs); k++) {
        if ((rc = ct_db_run_begin(r->db, r->problem_id, r->device_ids[k], settings, &r->run_ids[k], e)) != CT_OK)
            return rc;
        r->runs_open = k + 1;
    }

    ct_compile_pool_init(&r->pl, r->p, r->g.arch, (const char *const *)r->src.text, r->o->cache_dir);
    pthread_mutex_init(&r->pl.mu, NULL);
    pthread_cond_init(&r->pl.cv, NULL);
    r->have_pool = 1;
    int n = r->cfg->s.jobs > 0 ? r->cfg->s.jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
    r->threads = calloc((size_t)(n < 1 ? 1 : n), sizeof *r->threads);
    for (int i = 0; r->threads && i < (n < 1 ? 1 : n); i++, r->nthreads++)
        if (pthread_create(&r->threads[i], NULL, ct_compile_worker, &r->pl) != 0)
            break;
    if (!r->threads || r->nthreads == 0)
        return ct_fail(e, CT_ERR_INTERNAL, "cannot start compile threads");
    r->progress = isatty(fileno(stderr)) && !r->o->verbose;
    ct_strategy st = ct_search_strategy(r->srch);
    r->window = st == CT_SEARCH_ANNEAL || st == CT_SEARCH_MODEL
                    ? ct_search_window(ct_search_budget(r->srch), r->nthreads)
                    : r->sp.n;
    return CT_OK;
}

/* One judged candidate, measured now or reused: counts, the search, the
 * verified list, the best and the baseline. */
static void count(tune_run *r, int idx, const ct_template *t, const ct_result *rec)
{
    r->done++;
    if (rec->status >= 0)
        r->counts[rec->status]++;
    int ok = rec->status == CT_RS_OK;
    ct_search_report(r->srch, idx, ok ? rec->median_us : 0);
    if (r->guide)
        ct_guide_observe(r->guide, idx, ok ? rec->median_us : 0, rec->compile_ms / 1e3,
                         (rec->cond.verify_ms + rec->cond.time_ms) / 1e3);
    if (!ok) {
        r->nfail++;
        return;
    }
    r->okrecs[r->nok++] = *rec;
    if (r->best_us == 0 || rec->median_us < r->best_us) {
        r->best_us = rec->median_us;
        r->best_at = r->done;
        r->t_best = now_s();
    }
    if (t->is_baseline && (r->res->baseline_us == 0 || rec->median_us < r->res->baseline_us))
        r->res->baseline_us = rec->median_us;
}

static int time_up(const tune_run *r)
{
    return r->o->time_limit_s > 0 && now_s() - r->t_start > r->o->time_limit_s;
}

/* Top the FIFO up to the window; candidates measured before are judged from
 * the database at once. */
static void propose(tune_run *r)
{
    while (!r->exhausted && r->pl.njobs - r->head < r->window) {
        if (time_up(r)) {
            r->stopped_by_time = r->exhausted = 1;
            return;
        }
        if (r->guide)   /* the time left, never below 0 (-1: no limit) */
            ct_guide_steer(r->guide, r->srch,
                           r->o->time_limit_s > 0 ? fmax(0, r->o->time_limit_s - (now_s() - r->t_start)) : -1,
                           r->nthreads);
        int nb = ct_search_next(r->srch, r->batch, r->window - (r->pl.njobs - r->head));
        if (nb == 0) {
            /* Else a guided search waits for results to propose more. */
            r->exhausted = r->pl.njobs == r->head && !ct_gpus_busy(r->gs);
            return;
        }
        int keep = 0;
        for (int i = 0; i < nb; i++) {
            const ct_candidate *cd = &r->sp.cand[r->batch[i]];
            const ct_result *hit = ct_resume_find(&r->prior, cd->tmpl, &cd->params);
            if (!hit || ct_resume_stale(hit)) {
                r->batch[keep++] = r->batch[i];
                continue;
            }
            r->res->reused++;
            count(r, r->batch[i], cd->tmpl, hit);
        }
        pthread_mutex_lock(&r->pl.mu);
        for (int i = 0; i < keep; i++)
            r->pl.jobs[r->pl.njobs++] = (ct_compile_job){.cand = &r->sp.cand[r->batch[i]], .idx = r->batch[i]};
        pthread_cond_broadcast(&r->pl.cv);
        pthread_mutex_unlock(&r->pl.mu);
    }
}

/* Store and count a job the pool compiled (or failed to) and, when it
 * compiled, a GPU measured (gd). */
static ct_status record(tune_run *r, ct_compile_job *j, const ct_gpus_done *gd, ct_err *e)
{
    const ct_problem *p = r->p;
    const ct_template *t = j->cand->tmpl;
    ct_result rec;
    char cond[256] = "";
    ct_result_init(&rec);
    snprintf(rec.family, sizeof rec.family, "%s", p->family->name);
    snprintf(rec.tmpl, sizeof rec.tmpl, "%s", t->name);
    memcpy(rec.template_hash, r->src.hash[ct_template_index(p, t)], 17);
    ct_result_set_params(&rec, &j->cand->params);
    rec.flops = p->family->flops(p);
    rec.bytes = p->family->bytes(p);
    /* A binary from the cache took no compile time: none is stored. */
    rec.compile_ms = j->bin.compile_ms > 0 ? j->bin.compile_ms : NAN;
    r->compile_ms += j->bin.compile_ms;
    r->res->cache_hits += j->cache_hit;
    if (j->rc != CT_OK) {
        rec.status = CT_RS_COMPILE_FAILED;
        snprintf(rec.error, sizeof rec.error, "%.511s", j->err.msg);
    } else {
        ct_result_take_measured(&rec, &gd->oc);
        ct_tune_note_conditions(r->res, &rec);
        r->t_verify += rec.cond.verify_ms / 1e3;
        r->t_time += rec.cond.time_ms / 1e3;
        ct_tune_conditions_text(&rec, cond, sizeof cond);
    }
    ct_binary_free(&j->bin);
    ct_status rc = ct_code_candidate_hash(r->canons[ct_template_index(p, t)], p, t, &j->cand->params, rec.code_hash,
                                          e);
    if (rc != CT_OK)
        return rc;
    double ts = now_s();
    rc = ct_db_candidate_add_id(r->db, r->run_ids[gd->gpu], &rec, &rec.id, e);
    if (rc != CT_OK)
        return rc;
    r->t_store += now_s() - ts;
    count(r, j->idx, t, &rec);
    if (r->o->verbose) {
        ct_tune_print_candidate(stderr, r->done, ct_search_budget(r->srch), &rec, cond);
    } else if (r->progress) {
        const ct_result *best = NULL;
        for (int k = 0; k < r->nok; k++)
            if (!best || r->okrecs[k].median_us < best->median_us)
                best = &r->okrecs[k];
        ct_tune_print_progress(stderr, r->done, ct_search_budget(r->srch), r->nfail, best, now_s() - r->t_start);
    }
    return CT_OK;
}

/* Propose, deal the next compiled job to a free GPU, take back and store
 * what a GPU finished, until the search and the GPUs are done or the time
 * limit ends it (what the GPUs are measuring then is still taken back). */
static ct_status run_loop(tune_run *r, ct_err *e)
{
    for (;;) {
        propose(r);
        if (r->head == r->pl.njobs && !ct_gpus_busy(r->gs)) {
            if (r->exhausted)
                return CT_OK;
            continue;   /* every proposal was a reused one: ask again */
        }
        if (time_up(r)) {
            r->stopped_by_time = r->exhausted = 1;
            if (!ct_gpus_busy(r->gs))
                return CT_OK;
            r->head = r->pl.njobs;
        }
        /* NULL: nothing left to deal, take back what a GPU measured. */
        ct_compile_job *j = r->head < r->pl.njobs ? &r->pl.jobs[r->head++] : NULL;
        pthread_mutex_lock(&r->pl.mu);
        while (j && !j->done)
            pthread_cond_wait(&r->pl.cv, &r->pl.mu);
        pthread_mutex_unlock(&r->pl.mu);
        ct_gpus_done gd = {.job = j};
        if (!j || j->rc == CT_OK) {
            /* Racing: a candidate already race_factor times slower than the
             * best after min_reps is not timed further. */
            double race_us = r->cfg->s.race_factor > 0 && r->best_us > 0 ? r->best_us * r->cfg->s.race_factor : 0;
            ct_status rc = ct_gpus_run(r->gs, j, j ? ct_template_index(r->p, j->cand->tmpl) : 0, race_us, &gd, e);
            if (rc != CT_OK)
                return rc;
            if (!gd.job)
                continue;   /* a GPU is still free: deal it the next candidate */
        }
        ct_status rc = record(r, gd.job, &gd, e);
        if (rc != CT_OK)
            return rc;
    }
}

/* Re-time the best few verified candidates back to back on the first GPU,
 * under the same conditions, before naming the winner: their first timings
 * may be minutes, degrees and GPUs apart. */
static void retime_best(tune_run *r, int ntop)
{
    int done = 0;
    for (int i = 0; i < ntop; i++) {
        ct_result *rec = &r->okrecs[i], oc;
        if (ct_retime_one(ct_gpus_worker(r->gs, 0), &r->pl, r->p, rec, &oc)) {
            ct_tune_note_conditions(r->res, &oc);
            if (rec->id)
                ct_db_candidate_retime(r->db, rec->id, rec, NULL);
            done++;
        }
    }
    if (done)
        fprintf(r->out, "  re-timed the best %d together before naming the winner\n", done);
    qsort(r->okrecs, (size_t)r->nok, sizeof *r->okrecs, cmp_rec);
}

/* How close the winner may be to the best of the space (closeness.h):
 * from the model strategy's models, or, after another strategy that left
 * candidates unjudged, from models fitted now on the database and the
 * run's measurements. Printed, kept in res and noted with the runs. */
static void finish_closeness(tune_run *r)
{
    ct_tune_result *res = r->res;
    double t_end = r->t_start + res->wall_s;
    int since = r->done - r->best_at;
    double since_s = r->t_best > 0 ? t_end - r->t_best : 0;
    if (!r->guide) {
        ct_closeness_estimate(r->srch, &r->sp, NULL, NULL, NULL, res->winner.median_us, since, since_s,
                              &res->closeness);
        ct_err e;
        if (res->closeness.basis != CT_CLOSE_ALL &&
            ct_guide_new(r->db, r->p, &r->sp, r->g.info.name, r->g.info.cc_major, r->g.info.sm_count, r->seed, &r->guide, &e) == CT_OK)
            for (int i = 0; i < r->sp.n; i++)
                if (ct_search_time(r->srch, i) > 0)
                    ct_guide_observe(r->guide, i, ct_search_time(r->srch, i), NAN, NAN);
    }
    if (r->guide)
        ct_guide_closeness(r->guide, r->srch, res->winner.median_us, since, since_s, &res->closeness);
    /* The winner's own 95% interval where it is wider than the noise
     * between processes (a short kernel's, say). */
    const ct_result *w = &res->winner;
    double noise = CT_CLOSE_NOISE_PCT;
    if (w->ci_lo_us > 0 && w->ci_hi_us > w->ci_lo_us && w->median_us > 0 &&
        100 * (w->ci_hi_us - w->ci_lo_us) / w->median_us > noise)
        noise = 100 * (w->ci_hi_us - w->ci_lo_us) / w->median_us;
    ct_closeness_noise_floor(&res->closeness, noise);
    fprintf(r->out, "  closeness: %s\n", res->closeness.text);
    char note[240];
    ct_closeness_json(&res->closeness, note, sizeof note);
    for (int k = 0; k < ct_gpus_count(r->gs); k++)
        ct_db_run_note(r->db, r->run_ids[k], "closeness", note, NULL);
}

static ct_status run_finish(tune_run *r, ct_err *e)
{
    ct_tune_result *res = r->res;
    const ct_settings *s = &r->cfg->s;
    if (r->progress)
        fprintf(stderr, "\n");
    res->tuned = r->done;
    res->counts_ok = r->nok;
    res->counts_failed = r->nfail;
    for (int k = 0; k < r->runs_open; k++)
        ct_db_run_end(r->db, r->run_ids[k], r->nok ? "done" : "no_result", NULL);
    r->runs_open = 0;
    res->wall_s = now_s() - r->t_start;
    res->compile_s = r->compile_ms / 1e3;
    res->verify_s = r->t_verify;
    res->time_s = r->t_time;
    res->store_s = r->t_store;
    fprintf(r->out, "  tuned %d candidates in %.1f s (%.1f/s)%s: %d verified, %d failed", r->done, res->wall_s,
            r->done / res->wall_s, r->stopped_by_time ? ", stopped by the time limit" : "", r->nok, r->nfail);
    if (res->reused)
        fprintf(r->out, "; %d of them reused from earlier runs", res->reused);
    fputc('\n', r->out);
    if (ct_gpus_count(r->gs) > 1) {
        char per[400];
        ct_gpus_summary(r->gs, per, sizeof per);
        fprintf(r->out, "  measured per GPU: %s\n", per);
    }
    fprintf(r->out, "  time split: compile %.1f s of CPU on %d threads (%d from the cache), verify %.1f s, "
                    "time %.1f s, store %.1f s\n", res->compile_s, r->nthreads, res->cache_hits, r->t_verify,
            r->t_time, r->t_store);
    const char *strategy = ct_strategy_name(ct_search_strategy(r->srch));
    if (r->nok == 0) {
        if (r->o->json)
            ct_tune_print_json(r->o->out, r->p, &r->g, strategy, r->seed, ct_search_budget(r->srch), r->counts, res, 0,
                               s->l2_flush);
        return ct_fail(e, CT_ERR_NO_RESULT, "no candidate of %s passed verification", r->p->canonical);
    }
    qsort(r->okrecs, (size_t)r->nok, sizeof *r->okrecs, cmp_rec);
    if (s->retime_top > 1 && r->nok > 1)
        retime_best(r, s->retime_top < r->nok ? s->retime_top : r->nok);
    /* The vendor baseline, on the GPU and buffers the winner was re-timed
     * on, kept with the run for `report`. */
    if (!r->o->no_cudnn) {
        char note[480];   /* with the settings and conditions, within what a run's settings are read back into */
        ct_tune_cudnn_run(ct_gpus_worker(r->gs, 0), res);
        for (int k = 0; ct_tune_cudnn_note(res, r->okrecs[0].median_us, note, sizeof note) &&
                        k < ct_gpus_count(r->gs); k++)
            ct_db_run_note(r->db, r->run_ids[k], "cudnn", note, NULL);
    }
    res->worker_starts = ct_gpus_starts(r->gs);
    /* Kept with the run for `convtune report`: the conditions it was timed under. */
    char cond[240];
    ct_tune_conditions_json(res, s->l2_flush, cond, sizeof cond);
    for (int k = 0; k < ct_gpus_count(r->gs); k++)
        ct_db_run_note(r->db, r->run_ids[k], "conditions", cond, NULL);
    ct_tune_print_measurement(r->out, res, s->l2_flush);
    res->winner = r->okrecs[0];
    if (ct_template_find(r->p->family, r->okrecs[0].tmpl)->is_baseline) {
        int tuned_ok = 0;
        for (int i = 0; i < r->nok; i++)
            tuned_ok += !ct_template_find(r->p->family, r->okrecs[i].tmpl)->is_baseline;
        ct_tune_note_baseline_only(&r->sp, r->counts, tuned_ok, res);
    }
    finish_closeness(r);
    ct_tune_print_ranking(r->out, r->p, &r->g, r->okrecs, r->nok, res);
    if (r->o->json)
        ct_tune_print_json(r->o->out, r->p, &r->g, strategy, r->seed, ct_search_budget(r->srch), r->counts, res,
                           r->nok, s->l2_flush);
    return CT_OK;
}

static void run_close(tune_run *r)
{
    if (r->have_pool) {
        pthread_mutex_lock(&r->pl.mu);
        r->pl.closed = 1;
        r->pl.next = r->pl.njobs;   /* drop what was not started */
        pthread_cond_broadcast(&r->pl.cv);
        pthread_mutex_unlock(&r->pl.mu);
        for (int i = 0; i < r->nthreads; i++)
            pthread_join(r->threads[i], NULL);
        pthread_mutex_destroy(&r->pl.mu);
        pthread_cond_destroy(&r->pl.cv);
    }
    free(r->threads);
    if (r->pl.jobs) {
        for (int i = 0; i < r->pl.njobs; i++)
            ct_binary_free(&r->pl.jobs[i].bin);
        free(r->pl.jobs);
    }
    for (int k = 0; r->db && k < r->runs_open; k++)
        ct_db_run_end(r->db, r->run_ids[k], "failed", NULL);
    free(r->okrecs);
    free(r->batch);
    ct_resume_free(&r->prior);
    for (int i = 0; r->canons && i < r->src.n; i++)
        free(r->canons[i]);
    free(r->canons);
    ct_family_sources_free(&r->src);
    ct_gpus_stop(r->gs);
    ct_guide_free(r->guide);
    ct_search_free(r->srch);
    ct_space_free(&r->sp);
    if (r->db)
        ct_db_close(r->db);
}

ct_status ct_tune(const ct_tune_opts *o, ct_tune_result *res, ct_err *e)
{
    memset(res, 0, sizeof *res);
    res->sm_mhz_min = res->sm_mhz_max = res->temp_c_min = res->temp_c_max = -1;
    tune_run r = {.o = o, .cfg = o->cfg, .res = res, .out = o->json ? stderr : o->out, .p = o->problem,
                  .strategy = CT_SEARCH_AUTO, .t_start = now_s()};
    if (o->no_cudnn)
        snprintf(res->cudnn.why, sizeof res->cudnn.why, "--baseline none");
    ct_status rc = o->strategy ? ct_strategy_parse(o->strategy, &r.strategy, e) : CT_OK;
    if (rc == CT_OK)
        rc = run_open(&r, e);
    if (rc == CT_OK)
        rc = plan_space(&r, e);
    if (rc == CT_OK)
        rc = plan_run(&r, e);
    if (rc == CT_OK)
        rc = run_loop(&r, e);
    if (rc == CT_OK)
        rc = run_finish(&r, e);
    run_close(&r);
    return rc;
}
