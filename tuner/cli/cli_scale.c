/* cli_scale.c - the commands for tuning at scale: precompile (compile a
 * run's candidates into the cache on CPU nodes) and retime (the best of a
 * merged database timed again on one GPU), and the shard of a process. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cli.h"
#include "precompile.h"
#include "retime.h"
#include "search.h"
#include "text.h"

const char usage_precompile[] =
    "usage: convtune precompile --problem SPEC --arch sm_XY [--shard I/N]\n"
    "                           [--budget N] [--strategy S] [--seed N] [--config FILE]\n"
    "                           [--templates DIR] [--template NAME]\n"
    "Compile, with no GPU, the candidates that a tuning run with the same problem,\n"
    "config, strategy, budget and seed will measure, into the binary cache\n"
    "($CONVTUNE_CACHE or the XDG cache dir; safe to share between many processes\n"
    "and hosts). That run then compiles nothing. A guided search (anneal, and\n"
    "auto on a space larger than the budget) is not known in advance: precompile\n"
    "a random sample (--strategy random --seed N) and tune with the same options.\n"
    "--shard I/N compiles shard I of N only (in a Slurm job array, the task's\n"
    "shard by default); the shards together are the whole run.\n";

const char usage_retime[] =
    "usage: convtune retime --problem SPEC [--top N] [--gpu N] [--db PATH]\n"
    "                       [--config FILE] [--templates DIR] [--no-cache]\n"
    "Time the N best verified candidates of the problem again (default [tune]\n"
    "retime_top), back to back on one GPU, and store the new timings: for a\n"
    "database merged from shards or GPUs that measured each candidate elsewhere.\n"
    "Candidates of GPUs of the model of GPU N only. Run it before export.\n";

int shard_of(const args *a, ct_shard *sh)
{
    ct_err e;
    memset(sh, 0, sizeof *sh);
    if (a->shard)
        return ct_shard_parse(a->shard, sh, &e) == CT_OK ? 0 : die(CT_ERR_USAGE, e.msg);
    int found = 0;
    if (ct_shard_from_slurm(sh, &found, &e) != CT_OK)
        return die(CT_ERR_USAGE, e.msg);
    if (found)
        say(0, "shard %d/%d from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (--shard "
                        "overrides)", sh->index, sh->count);
    return 0;
}

int search_budget(const args *a, ct_config *cfg)
{
    ct_strategy st;
    ct_err e;
    if (a->strategy && ct_strategy_parse(a->strategy, &st, &e) != CT_OK)
        return die(CT_ERR_USAGE, e.msg);
    /* An explicit exhaustive search with no budget measures everything. */
    if (a->strategy && st == CT_SEARCH_EXHAUSTIVE && !a->have_max)
        cfg->s.max_candidates = 1000000;
    return 0;
}

int cmd_precompile(const args *a)
{
    ct_problem p;
    ct_config cfg;
    int r = need_problem_config(a, &p, &cfg);
    if (r || (r = search_budget(a, &cfg)))
        return r;
    if (!a->arch)
        return die(CT_ERR_USAGE, "precompile needs --arch sm_XY, the architecture of the GPUs that will tune");
    ct_shard shard;
    if ((r = shard_of(a, &shard)))
        return r;
    char cache[CT_PATH_MAX];
    ct_err e;
    ct_status crc = ct_cache_default_dir(cache, sizeof cache, &e);
    if (crc != CT_OK)
        return die(crc, e.msg);
    ct_precompile_opts o = {.problem = &p, .arch = a->arch, .strategy = a->strategy, .cfg = &cfg,
                            .shard = shard, .templates_dir = a->templates, .only_template = a->only,
                            .cache_dir = cache, .out = stdout};
    ct_precompile_result res;
    ct_status rc = ct_precompile(&o, &res, &e);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

int cmd_retime(const args *a)
{
    ct_problem p;
    ct_config cfg;
    int r = need_problem_config(a, &p, &cfg);
    if (r)
        return r;
    char dbpath[CT_DB_PATH_MAX];
    if ((r = db_path(a, dbpath, sizeof dbpath)))
        return r;
    if (a->ngpus > 1 || a->ngpus < 0)
        return die(CT_ERR_USAGE, "retime: --gpu takes one GPU: the point is to time the best on one");
    if ((r = check_gpu_run(a, &p, dbpath)))
        return r;
    char cache[CT_PATH_MAX];
    const char *cdir;
    if ((r = cache_dir(a, cache, sizeof cache, &cdir)))
        return r;
    ct_retime_opts o = {.problem = &p, .top = a->top ? a->top : cfg.s.retime_top, .gpu = a->gpu,
                        .db_path = dbpath, .templates_dir = a->templates, .cache_dir = cdir, .cfg = &cfg,
                        .out = stdout, .worker_exe = "/proc/self/exe"};
    if (o.top < 1)
        o.top = 1;
    ct_err e;
    ct_status rc = ct_retime(&o, &e);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}
