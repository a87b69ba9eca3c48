/* shard.c - fixed candidate lists and their shards (shard.h). */
#include "shard.h"
#include "text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SHARDS 100000

static int parse_num(const char *s, const char *end, long *out)
{
    if (s == end || *s < '0' || *s > '9')
        return 0;
    char *stop;
    errno = 0;
    long v = strtol(s, &stop, 10);
    if (errno || stop != end || v > MAX_SHARDS)
        return 0;
    *out = v;
    return 1;
}

ct_status ct_shard_parse(const char *text, ct_shard *out, ct_err *e)
{
    const char *slash = strchr(text, '/');
    long i, n;
    if (!slash || !parse_num(text, slash, &i) || !parse_num(slash + 1, slash + 1 + strlen(slash + 1), &n) || n < 1 ||
        i >= n)
        return ct_fail(e, CT_ERR_USAGE, "--shard: bad value '%s' (expected I/N with 0 <= I < N <= %d, e.g. 0/4)",
                       ct_echo(text, (char[CT_ECHO_LEN]){0}, CT_ECHO_LEN), MAX_SHARDS);
    out->index = (int)i;
    out->count = (int)n;
    return CT_OK;
}

ct_status ct_shard_from_slurm(ct_shard *out, int *found, ct_err *e)
{
    const char *id = getenv("SLURM_ARRAY_TASK_ID"), *count = getenv("SLURM_ARRAY_TASK_COUNT"),
               *min = getenv("SLURM_ARRAY_TASK_MIN");
    *found = 0;
    if (!id || !*id)
        return CT_OK;
    long vi, vn, vmin = 0;
    if (!count || !parse_num(id, id + strlen(id), &vi) || !parse_num(count, count + strlen(count), &vn) ||
        (min && *min && !parse_num(min, min + strlen(min), &vmin)))
        return ct_fail(e, CT_ERR_USAGE, "SLURM_ARRAY_TASK_ID=%s with SLURM_ARRAY_TASK_COUNT=%s: expected integers "
                       "(or give --shard I/N)", id, count ? count : "(unset)");
    /* Task ids are those of --array=A-B (from A); a stepped or sparse array
     * (--array=0-6:2, --array=1,5) has ids that are not 0..COUNT-1. */
    if (vn < 1 || vi < vmin || vi - vmin >= vn)
        return ct_fail(e, CT_ERR_USAGE, "SLURM_ARRAY_TASK_ID=%s is not one of %ld tasks numbered from %ld: use a "
                       "contiguous array (--array=0-%ld) or give --shard I/N", id, vn, vmin, vn - 1);
    out->index = (int)(vi - vmin);
    out->count = (int)vn;
    *found = 1;
    return CT_OK;
}

/* The two messages ct_shard_apply gives too: one rule, two places. */
#define ANNEAL_REFUSED "a guided search (anneal) chooses from measurements, so its candidates are not known " \
                       "beforehand: use --strategy random or exhaustive to shard or precompile"
#define SEED_NEEDED "needs --seed N, the same in every shard and in the tuning run (without one each run draws " \
                    "its own)"

ct_status ct_shard_check(ct_strategy strategy, unsigned long long seed, const ct_shard *sh, ct_err *e)
{
    if (sh->count <= 1)
        return CT_OK;
    if (strategy == CT_SEARCH_ANNEAL || strategy == CT_SEARCH_MODEL)
        return ct_fail(e, CT_ERR_USAGE, ANNEAL_REFUSED);
    if (strategy == CT_SEARCH_RANDOM && seed == 0)
        return ct_fail(e, CT_ERR_USAGE, "a random sample dealt to shards " SEED_NEEDED);
    return CT_OK;
}

ct_status ct_shard_apply(ct_space *sp, ct_strategy strategy, int budget, unsigned long long seed,
                         const ct_shard *sh, ct_shard_plan *plan, ct_err *e)
{
    /* Unsharded, auto is what a tuning run makes of it: guided when the
     * space exceeds the budget. A sharded run samples instead. */
    if (strategy == CT_SEARCH_AUTO && sp->n > budget && sh->count <= 1)
        return ct_fail(e, CT_ERR_USAGE, "%d candidates exceed the budget %d, so a tuning run would search them "
                       "guided (anneal), choosing from measurements: give --strategy random --seed N here and to "
                       "the tuning run", sp->n, budget);
    if (strategy == CT_SEARCH_AUTO)
        strategy = sp->n <= budget ? CT_SEARCH_EXHAUSTIVE : CT_SEARCH_RANDOM;
    if (strategy == CT_SEARCH_ANNEAL || strategy == CT_SEARCH_MODEL)
        return ct_fail(e, CT_ERR_USAGE, ANNEAL_REFUSED);
    /* The sample, and the order the shards are dealt from, follow the seed. */
    if (strategy == CT_SEARCH_RANDOM && (budget < sp->n || sh->count > 1) && seed == 0)
        return ct_fail(e, CT_ERR_USAGE, "a random sample (%d of %d candidates) " SEED_NEEDED,
                       budget < sp->n ? budget : sp->n, sp->n);
    ct_search *s = ct_search_new(sp, strategy, budget, seed);
    int *idx = malloc(((size_t)sp->n + 1) * sizeof *idx);
    ct_candidate *keep = malloc(((size_t)sp->n + 1) * sizeof *keep);
    if (!s || !idx || !keep) {
        ct_search_free(s);
        free(idx);
        free(keep);
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    }
    /* The run's proposals, in order: a fixed strategy needs no reports. */
    int total = 0, got;
    while (total < sp->n && (got = ct_search_next(s, idx + total, sp->n - total)) > 0)
        total += got;
    int kept = 0;
    for (int pos = 0; pos < total; pos++)
        if (sh->count <= 1 || pos % sh->count == sh->index)
            keep[kept++] = sp->cand[idx[pos]];
    memcpy(sp->cand, keep, (size_t)kept * sizeof *keep);
    sp->n = kept;
    ct_search_free(s);
    free(idx);
    free(keep);
    plan->strategy = strategy;
    plan->total = total;
    plan->kept = kept;
    return CT_OK;
}
