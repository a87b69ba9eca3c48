/* precompile.h - compile a tuning run's candidates into the binary cache
 * ahead of the run, with no GPU: on the CPU nodes of a cluster, one shard
 * per job array task, into a cache on a shared filesystem (cache.h makes
 * its writers safe). A later run of the same problem, config, strategy,
 * budget and seed on a GPU of that architecture finds every binary there. */
#ifndef CT_PRECOMPILE_H
#define CT_PRECOMPILE_H

#include <stdio.h>

#include "config.h"
#include "problem.h"
#include "shard.h"

typedef struct ct_precompile_opts {
    const ct_problem *problem;  /* parsed once, by the caller */
    const char *arch;          /* sm_XY: the GPUs' architecture */
    const char *strategy;      /* NULL: auto */
    const ct_config *cfg;      /* budget (max_candidates), seed, jobs, value lists */
    ct_shard shard;            /* count 0: the whole list */
    const char *templates_dir; /* NULL: the built-in templates */
    const char *only_template; /* NULL: every template */
    const char *cache_dir;     /* required */
    FILE *out;                 /* the summary */
} ct_precompile_opts;

typedef struct ct_precompile_result {
    int total;                 /* candidates of the whole run */
    int candidates;            /* of them, this shard's */
    int compiled, cache_hits, compile_failed, store_failed;
    double compile_s, wall_s;  /* CPU time of the compiles, elapsed time */
    int threads;
} ct_precompile_result;

/* Compile this shard's candidates into the cache. A candidate that does not
 * compile is counted (the tuning run stores it as compile_failed); one
 * that compiled but could not be stored makes the result CT_ERR_IO. */
ct_status ct_precompile(const ct_precompile_opts *o, ct_precompile_result *res, ct_err *e);

#endif
