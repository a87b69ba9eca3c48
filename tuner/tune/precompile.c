/* precompile.c - a run's candidates into the binary cache (precompile.h). */
#include "precompile.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compile_pool.h"
#include "runner.h"
#include "space.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

ct_status ct_precompile(const ct_precompile_opts *o, ct_precompile_result *res, ct_err *e)
{
    memset(res, 0, sizeof *res);
    double t0 = now_s();
    const ct_problem p = *o->problem;
    ct_limits lim;
    ct_strategy strategy = CT_SEARCH_AUTO;
    ct_status rc = CT_OK;
    if (strncmp(o->arch, "sm_", 3) != 0)
        rc = ct_fail(e, CT_ERR_USAGE, "precompile: --arch must be sm_XY, the GPUs' architecture (got '%s')", o->arch);
    if (rc == CT_OK)
        rc = ct_limits_for_arch(o->arch, &lim, e);
    if (rc == CT_OK && o->strategy)
        rc = ct_strategy_parse(o->strategy, &strategy, e);
    if (rc != CT_OK)
        return rc;
    ct_space sp = {0};
    ct_family_sources src = {0};
    ct_compile_pool pl = {0};
    if ((rc = ct_space_build(&p, o->cfg, &lim, o->only_template, &sp, e)) != CT_OK)
        goto out;
    if (sp.n == 0) {
        rc = ct_fail(e, CT_ERR_NO_RESULT, "no admissible candidate for %s on %s", p.canonical, o->arch);
        goto out;
    }
    ct_shard_plan plan;
    if ((rc = ct_shard_apply(&sp, strategy, o->cfg->s.max_candidates, o->cfg->s.seed, &o->shard, &plan, e)) != CT_OK)
        goto out;
    res->total = plan.total;
    res->candidates = sp.n;
    if ((rc = ct_family_sources_load(p.family, o->templates_dir, &src, e)) != CT_OK)
        goto out;
    ct_compile_pool_init(&pl, &p, o->arch, (const char *const *)src.text, o->cache_dir);
    if (sp.n && !(pl.jobs = calloc((size_t)sp.n, sizeof *pl.jobs))) {
        rc = ct_fail(e, CT_ERR_INTERNAL, "out of memory");
        goto out;
    }
    for (int i = 0; i < sp.n; i++)
        pl.jobs[pl.njobs++] = (ct_compile_job){.cand = &sp.cand[i], .idx = i};
    /* The CPUs this process may use (a batch job's share of a node). */
    cpu_set_t set;
    long ncpu = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
    res->threads = o->cfg->s.jobs > 0 ? o->cfg->s.jobs : ncpu > 0 ? (int)ncpu : 1;
    if (res->threads > pl.njobs)
        res->threads = pl.njobs > 0 ? pl.njobs : 1;
    ct_compile_all(&pl, res->threads);
    const char *first_failure = NULL;
    for (int i = 0; i < pl.njobs; i++) {
        ct_compile_job *j = &pl.jobs[i];
        res->cache_hits += j->cache_hit;
        res->compiled += j->rc == CT_OK && !j->cache_hit;
        res->compile_failed += j->rc != CT_OK;
        res->store_failed += j->cache_failed;
        res->compile_s += j->bin.compile_ms / 1e3;
        if (j->rc != CT_OK && !first_failure)
            first_failure = j->err.msg;
    }
    res->wall_s = now_s() - t0;
    if (o->out) {
        fprintf(o->out, "precompile: %s for %s", p.canonical, o->arch);
        if (o->shard.count > 1)
            fprintf(o->out, ", shard %d/%d: %d of the %d candidates", o->shard.index, o->shard.count, res->candidates,
                    res->total);
        else
            fprintf(o->out, ": %d candidates", res->candidates);
        fprintf(o->out, " (%s", ct_strategy_name(plan.strategy));
        if (plan.strategy == CT_SEARCH_RANDOM)
            fprintf(o->out, ", seed %llu", o->cfg->s.seed);
        fprintf(o->out, ", budget %d)\n", o->cfg->s.max_candidates);
        fprintf(o->out, "  %d compiled, %d already in the cache, %d failed to compile; %.1f s of CPU on %d "
                        "threads in %.1f s (%.1f candidates/s)\n", res->compiled, res->cache_hits,
                res->compile_failed, res->compile_s, res->threads, res->wall_s,
                res->wall_s > 0 ? res->candidates / res->wall_s : 0.0);
        if (first_failure)
            fprintf(o->out, "  e.g. failed: %.300s\n", first_failure);
        fprintf(o->out, "  cache: %s\n", o->cache_dir);
    }
    if (res->store_failed)
        rc = ct_fail(e, CT_ERR_IO, "precompile: %d of %d binaries could not be stored in the cache %s (full, "
                     "read-only or not a folder?)", res->store_failed, res->compiled, o->cache_dir);
out:
    if (pl.jobs) {
        for (int i = 0; i < pl.njobs; i++)
            ct_binary_free(&pl.jobs[i].bin);
        free(pl.jobs);
    }
    ct_family_sources_free(&src);
    ct_space_free(&sp);
    return rc;
}
