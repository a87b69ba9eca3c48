/* tune.c - the tuning pipeline. */
#include "tune.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compile.h"
#include "problem.h"
#include "runner.h"
#include "space.h"

typedef struct job {
    const ct_candidate *cand;
    ct_binary bin;
    ct_status rc;
    ct_err err;
    int done;
} job;

typedef struct pool {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    job *jobs;
    int njobs, next;
    int stop;
    const ct_problem *p;
    const char *arch;
    const char **sources;      /* per template index in the family */
    ct_define defs[CT_MAX_DEFINES];
    int ndefs;
} pool;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int template_index(const ct_problem *p, const ct_template *t)
{
    return (int)(t - p->family->templates);
}

/* Compile threads take candidates in order, so the GPU loop, which also goes
 * in order, waits only for the compile of the very next candidate. */
static void *compile_worker(void *arg)
{
    pool *pl = arg;
    for (;;) {
        pthread_mutex_lock(&pl->mu);
        if (pl->stop || pl->next >= pl->njobs) {
            pthread_mutex_unlock(&pl->mu);
            return NULL;
        }
        job *j = &pl->jobs[pl->next++];
        pthread_mutex_unlock(&pl->mu);
        const ct_template *t = j->cand->tmpl;
        j->rc = ct_nvrtc_compile(pl->sources[template_index(pl->p, t)], t->name, pl->arch, pl->defs,
                                 pl->ndefs, &j->cand->params, &j->bin, &j->err);
        pthread_mutex_lock(&pl->mu);
        j->done = 1;
        pthread_cond_broadcast(&pl->cv);
        pthread_mutex_unlock(&pl->mu);
    }
}

static int cmp_rec(const void *a, const void *b)
{
    const ct_record *x = a, *y = b;
    return (x->median_us > y->median_us) - (x->median_us < y->median_us);
}

static void print_row(FILE *f, int rank, const ct_record *r, double baseline_us, const ct_gpu *g)
{
    double tflops = r->flops / r->median_us / 1e6;
    char pct[16] = "-";
    if (g->info.fma_tflops > 0)
        snprintf(pct, sizeof pct, "%.0f%%", 100.0 * tflops / g->info.fma_tflops);
    char sp[16] = "-";
    if (baseline_us > 0)
        snprintf(sp, sizeof sp, "%.1fx", baseline_us / r->median_us);
    fprintf(f, "  %4d %11.2f %8.2f %6s %8s %9.1e  %s %s\n", rank, r->median_us, tflops, pct, sp, r->relerr,
            r->tmpl, r->params);
}

ct_status ct_tune(const ct_tune_opts *o, ct_tune_result *res, ct_err *e)
{
    memset(res, 0, sizeof *res);
    const ct_config *cfg = o->cfg;
    ct_problem prob;
    ct_status rc = ct_problem_parse(o->problem, &prob, e);
    if (rc != CT_OK)
        return rc;
    const ct_family *fam = prob.family;
    const ct_problem *p = &prob;

    ct_gpu g;
    rc = ct_gpu_open(o->gpu, &g, e);
    if (rc != CT_OK)
        return rc;
    ct_db *db = NULL;
    ct_space sp = {0};
    ct_workload w = {0};
    int have_w = 0;
    char *sources[16] = {0};
    char hashes[16][17];
    pool pl = {0};
    pthread_t *threads = NULL;
    int nthreads = 0;
    ct_record *okrecs = NULL;
    int nok = 0;
    long long run_id = 0, device_id = 0, problem_id = 0;
    double t_start = now_s(), t_gpu = 0, t_wait = 0;
    unsigned long long seed = cfg->s.seed;
    if (seed == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (unsigned long long)ts.tv_nsec ^ ((unsigned long long)ts.tv_sec << 20) ^ (unsigned long long)getpid();
    }

    rc = ct_db_open(o->db_path, 1, &db, e);
    if (rc != CT_OK)
        goto out;
    /* Ceilings are measured once per device and driver, then reused. */
    if (o->remeasure || ct_db_device_ceilings(db, &g.info, &g.info.fma_tflops, &g.info.bandwidth_gbs,
                                              &g.info.launch_us, NULL) != CT_OK) {
        fprintf(o->out, "measuring the ceilings of %s ...\n", g.info.name);
        if ((rc = ct_gpu_measure_ceilings(&g, e)) != CT_OK)
            goto out;
    }
    if ((rc = ct_db_device_upsert(db, &g.info, &device_id, e)) != CT_OK)
        goto out;
    if ((rc = ct_db_problem_upsert(db, fam->name, p->canonical, fam->flops(p), fam->bytes(p), &problem_id, e)) != CT_OK)
        goto out;

    if ((rc = ct_space_build(p, cfg, &g.lim, o->only_template, &sp, e)) != CT_OK)
        goto out;
    long long full = 0, admissible = 0;
    for (int i = 0; i < sp.ntemplates; i++) {
        full += sp.stats[i].full;
        admissible += sp.stats[i].admissible;
    }
    const char *strategy = "exhaustive";
    if (sp.n > cfg->s.max_candidates) {
        ct_space_sample(&sp, cfg->s.max_candidates, seed);
        strategy = "random sample";
    }
    if (sp.n == 0) {
        rc = ct_fail(e, CT_ERR_NO_RESULT, "no admissible candidate for %s on %s", p->canonical, g.info.name);
        goto out;
    }

    fprintf(o->out, "convtune: %s on %s (%s, %d SMs)\n", p->canonical, g.info.name, g.arch, g.info.sm_count);
    fprintf(o->out, "  ceilings: %.1f TFLOP/s fp32 FMA, %.0f GB/s memory, %.1f us empty launch\n",
            g.info.fma_tflops, g.info.bandwidth_gbs, g.info.launch_us);
    fprintf(o->out, "  problem: %.3g GFLOP, %.3g MB; floor %.2f us (FMA) / %.2f us (memory)\n",
            fam->flops(p) / 1e9, fam->bytes(p) / 1e6, fam->flops(p) / (g.info.fma_tflops * 1e6),
            fam->bytes(p) / (g.info.bandwidth_gbs * 1e3));
    fprintf(o->out, "  space: %lld combinations, %lld admissible, %d to tune (%s, seed %llu)\n", full,
            admissible, sp.n, strategy, seed);
    fflush(o->out);

    for (int i = 0; i < fam->ntemplates; i++) {
        if ((rc = ct_template_source(fam->templates[i].name, o->templates_dir, &sources[i], e)) != CT_OK)
            goto out;
        ct_hash_hex(sources[i], hashes[i]);
    }
    if ((rc = ct_workload_create(&g, p, seed, NULL, o->templates_dir, &w, e)) != CT_OK)
        goto out;
    have_w = 1;
    char settings[512];
    ct_settings run_settings = cfg->s;
    run_settings.seed = seed;
    ct_settings_json(&run_settings, settings, sizeof settings);
    if ((rc = ct_db_run_begin(db, problem_id, device_id, settings, &run_id, e)) != CT_OK)
        goto out;

    pl.jobs = calloc((size_t)sp.n, sizeof *pl.jobs);
    okrecs = calloc((size_t)sp.n, sizeof *okrecs);
    if (!pl.jobs || !okrecs) {
        rc = ct_fail(e, CT_ERR_INTERNAL, "out of memory");
        goto out;
    }
    for (int i = 0; i < sp.n; i++)
        pl.jobs[i].cand = &sp.cand[i];
    pl.njobs = sp.n;
    pl.p = p;
    pl.arch = g.arch;
    pl.sources = (const char **)sources;
    pl.ndefs = fam->defines(p, pl.defs);
    pthread_mutex_init(&pl.mu, NULL);
    pthread_cond_init(&pl.cv, NULL);
    nthreads = cfg->s.jobs > 0 ? cfg->s.jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (nthreads < 1)
        nthreads = 1;
    if (nthreads > sp.n)
        nthreads = sp.n;
    threads = calloc((size_t)nthreads, sizeof *threads);
    for (int i = 0; threads && i < nthreads; i++)
        if (pthread_create(&threads[i], NULL, compile_worker, &pl) != 0)
            nthreads = i;
    if (!threads || nthreads == 0) {
        rc = ct_fail(e, CT_ERR_INTERNAL, "cannot start compile threads");
        nthreads = 0;
        goto out;
    }

    int progress = isatty(fileno(stderr)) && !o->verbose;
    int nfail = 0;
    double compile_ms_total = 0;
    for (int i = 0; i < sp.n; i++) {
        job *j = &pl.jobs[i];
        double tw = now_s();
        pthread_mutex_lock(&pl.mu);
        while (!j->done)
            pthread_cond_wait(&pl.cv, &pl.mu);
        pthread_mutex_unlock(&pl.mu);
        t_wait += now_s() - tw;
        const ct_template *t = j->cand->tmpl;
        ct_record rec;
        memset(&rec, 0, sizeof rec);
        snprintf(rec.tmpl, sizeof rec.tmpl, "%s", t->name);
        memcpy(rec.template_hash, hashes[template_index(p, t)], 17);
        ct_params_to_json(&j->cand->params, t->params, t->nparams, rec.params, sizeof rec.params);
        rec.compile_ms = j->bin.compile_ms;
        rec.relerr = -1;
        compile_ms_total += j->bin.compile_ms;
        ct_outcome oc;
        if (j->rc != CT_OK) {
            snprintf(rec.status, sizeof rec.status, "compile_failed");
            snprintf(rec.error, sizeof rec.error, "%.511s", j->err.msg);
        } else {
            double tg = now_s();
            ct_status rr = ct_run_candidate(&g, &w, t, &j->cand->params, &j->bin, &cfg->s, &oc, e);
            t_gpu += now_s() - tg;
            snprintf(rec.status, sizeof rec.status, "%s", oc.status);
            snprintf(rec.error, sizeof rec.error, "%s", oc.error);
            rec.median_us = oc.median_us;
            rec.min_us = oc.min_us;
            rec.max_us = oc.max_us;
            rec.spread = oc.spread;
            rec.reps = oc.reps;
            rec.relerr = oc.relerr;
            rec.registers = oc.registers;
            rec.smem_bytes = oc.smem_bytes;
            rec.local_bytes = oc.local_bytes;
            if (rr != CT_OK) {
                /* Store what we learned, then stop: the context is gone. */
                ct_db_candidate_add(db, run_id, &rec, NULL);
                rc = rr;
                goto out;
            }
        }
        ct_binary_free(&j->bin);
        if ((rc = ct_db_candidate_add(db, run_id, &rec, e)) != CT_OK)
            goto out;
        if (strcmp(rec.status, "ok") == 0) {
            rec.flops = fam->flops(p);
            rec.bytes = fam->bytes(p);
            okrecs[nok++] = rec;
            if (t->is_baseline && (res->baseline_us == 0 || rec.median_us < res->baseline_us))
                res->baseline_us = rec.median_us;
        } else {
            nfail++;
        }
        if (o->verbose)
            fprintf(stderr, "[%d/%d] %-14s %10.2f us  relerr %.1e  %s %s%s%s\n", i + 1, sp.n, rec.status,
                    rec.median_us, rec.relerr, rec.tmpl, rec.params, rec.error[0] ? "  " : "", rec.error);
        else if (progress) {
            double best = 0;
            for (int k = 0; k < nok; k++)
                if (best == 0 || okrecs[k].median_us < best)
                    best = okrecs[k].median_us;
            double el = now_s() - t_start;
            fprintf(stderr, "\r  %d/%d candidates, %d failed, best %.2f us, %.0f s left   ", i + 1, sp.n,
                    nfail, best, el / (i + 1) * (sp.n - i - 1));
        }
    }
    if (progress)
        fprintf(stderr, "\n");
    res->tuned = sp.n;
    res->counts_ok = nok;
    res->counts_failed = nfail;
    ct_db_run_end(db, run_id, nok ? "done" : "no_result", NULL);
    run_id = 0;
    double elapsed = now_s() - t_start;
    fprintf(o->out, "  tuned %d candidates in %.1f s (%.1f/s): %d verified, %d failed; "
            "compile %.1f s on %d threads, GPU %.1f s, waited for the compiler %.1f s\n",
            sp.n, elapsed, sp.n / elapsed, nok, nfail, compile_ms_total / 1e3, nthreads, t_gpu, t_wait);
    if (nok == 0) {
        rc = ct_fail(e, CT_ERR_NO_RESULT, "no candidate of %s passed verification", p->canonical);
        goto out;
    }
    qsort(okrecs, (size_t)nok, sizeof *okrecs, cmp_rec);
    fprintf(o->out, "  rank   median_us  TFLOP/s  %%FMA  speedup    relerr  template params\n");
    for (int i = 0; i < nok && i < 5; i++)
        print_row(o->out, i + 1, &okrecs[i], res->baseline_us, &g);
    for (int i = 0; i < nok; i++)
        if (ct_template_find(fam, okrecs[i].tmpl)->is_baseline) {
            fprintf(o->out, "  naive baseline:\n");
            print_row(o->out, i + 1, &okrecs[i], res->baseline_us, &g);
            break;
        }
    res->winner = okrecs[0];
    fprintf(o->out, "winner: %s %s: %.2f us, %.2f TFLOP/s, %.0f GB/s", okrecs[0].tmpl, okrecs[0].params,
            okrecs[0].median_us, okrecs[0].flops / okrecs[0].median_us / 1e6,
            okrecs[0].bytes / okrecs[0].median_us / 1e3);
    if (res->baseline_us > 0)
        fprintf(o->out, ", %.1fx the naive kernel", res->baseline_us / okrecs[0].median_us);
    fprintf(o->out, "\nexport: convtune export --problem %s\n", p->canonical);
out:
    if (threads) {
        pthread_mutex_lock(&pl.mu);
        pl.stop = 1;
        pthread_mutex_unlock(&pl.mu);
        for (int i = 0; i < nthreads; i++)
            pthread_join(threads[i], NULL);
        free(threads);
        pthread_mutex_destroy(&pl.mu);
        pthread_cond_destroy(&pl.cv);
    }
    if (pl.jobs) {
        for (int i = 0; i < pl.njobs; i++)
            ct_binary_free(&pl.jobs[i].bin);
        free(pl.jobs);
    }
    if (run_id && db)
        ct_db_run_end(db, run_id, "failed", NULL);
    free(okrecs);
    for (int i = 0; i < 16; i++)
        free(sources[i]);
    if (have_w)
        ct_workload_free(&g, &w);
    ct_space_free(&sp);
    if (db)
        ct_db_close(db);
    ct_gpu_close(&g);
    return rc;
}
