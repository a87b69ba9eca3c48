/* retime.h - timing the best candidates again, back to back on one GPU.
 *
 * First timings may be minutes, degrees and GPUs apart: a run on several
 * GPUs, or shards tuned on several nodes and merged, measured each
 * candidate once wherever it was dealt. Re-timing the best few together on
 * one GPU, under the same conditions, makes the choice of the winner
 * independent of where each was first measured. A tuning run does it before
 * naming its winner; `convtune retime` does it on a merged database before
 * export. */
#ifndef CT_RETIME_H
#define CT_RETIME_H

#include <stdio.h>

#include "compile_pool.h"
#include "config.h"
#include "db.h"
#include "worker.h"

/* Compile r (through pl: from its cache when there) and time it again on
 * wk. 1 when it verified and was timed: r's measured fields are the new ones and *oc the whole outcome; 0
 * otherwise (r unchanged). */
int ct_retime_one(ct_worker *wk, ct_compile_pool *pl, const ct_problem *p, ct_result *r, ct_result *oc);

typedef struct ct_retime_opts {
    const ct_problem *problem; /* parsed once, by the caller */
    int top;                   /* how many of the best */
    int gpu;                   /* device ordinal */
    const char *db_path;       /* an existing database */
    const char *templates_dir; /* NULL: the built-in templates */
    const char *cache_dir;     /* NULL: compile without the cache */
    const ct_config *cfg;      /* measurement settings */
    FILE *out;
    const char *worker_exe;
} ct_retime_opts;

/* Re-time the top verified candidates of the problem stored for GPUs of the
 * model of GPU o->gpu (any of their device rows: the shards of a merged
 * database), back to back on that GPU, and store the new timings in their
 * rows; prints them, old and new, and the winner. CT_ERR_NOT_FOUND when the
 * database holds no verified candidate of the problem for that model. */
ct_status ct_retime(const ct_retime_opts *o, ct_err *e);

#endif
