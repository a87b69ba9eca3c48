/* shard.h - one run's candidates split over independent processes.
 *
 * A cluster tunes one problem as a job array: each task compiles or
 * measures one shard of the candidates of the same run (problem, config,
 * strategy, budget, seed), into its own database, and the shards' databases
 * are merged afterwards (db import). That needs a candidate list known
 * before anything is measured, so a sharded run (and precompile) searches
 * exhaustively or samples at random, never guided: a guided search chooses
 * from measurements no other shard sees. The list is the proposals of the
 * unsharded run in order; shard I of N takes positions I, I+N, I+2N, ...:
 * the shards' union is the run's list and no two shards share a candidate,
 * whatever N is. */
#ifndef CT_SHARD_H
#define CT_SHARD_H

#include "search.h"
#include "space.h"

typedef struct ct_shard {
    int index, count;          /* count 0: the whole list (no sharding) */
} ct_shard;

/* "I/N" with 0 <= I < N <= 100000; anything else is CT_ERR_USAGE. */
ct_status ct_shard_parse(const char *text, ct_shard *out, ct_err *e);

/* The shard of a Slurm job array task: SLURM_ARRAY_TASK_ID minus
 * SLURM_ARRAY_TASK_MIN (0 when unset) of SLURM_ARRAY_TASK_COUNT. *found is
 * 0 when the variables are not set (not an array task); malformed or
 * inconsistent values are CT_ERR_USAGE naming them. */
ct_status ct_shard_from_slurm(ct_shard *out, int *found, ct_err *e);

/* What a fixed list was drawn as, for the report. */
typedef struct ct_shard_plan {
    ct_strategy strategy;      /* exhaustive or random */
    int total;                 /* candidates of the whole run */
    int kept;                  /* of them, in this shard */
} ct_shard_plan;

/* Reduce sp to the candidates of shard sh (count 0: all of them) of the
 * run that searches sp with strategy, budget and seed, in proposal order.
 * Auto is exhaustive when the space fits the budget; beyond it, a sharded
 * run samples at random, and an unsharded one (count 0 or 1: precompile for
 * a plain tuning run) is refused, since that run would be guided. A guided
 * strategy is refused, and so is a random sample with seed 0 (a run draws
 * its own seed then, so no other process can know its list). */
/* What ct_shard_apply refuses of a sharded run (count > 1) that needs no
 * space, so that a tuning run refuses it before looking for a GPU: a
 * guided strategy, and a random sample with seed 0. */
ct_status ct_shard_check(ct_strategy strategy, unsigned long long seed, const ct_shard *sh, ct_err *e);

ct_status ct_shard_apply(ct_space *sp, ct_strategy strategy, int budget, unsigned long long seed,
                         const ct_shard *sh, ct_shard_plan *plan, ct_err *e);

#endif
