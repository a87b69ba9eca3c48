/* tune.h - one tuning run: generate the space, compile candidates on a pool
 * of threads while the GPU verifies and times the ones already compiled,
 * store every outcome, report the winner. */
#ifndef CT_TUNE_H
#define CT_TUNE_H

#include <stdio.h>

#include "config.h"
#include "db.h"
#include "problem.h"
#include "gpus.h"
#include "shard.h"
#include "status.h"
#include "tune_result.h"

typedef struct ct_tune_opts {
    const ct_problem *problem; /* parsed once, by the caller */
    const char *strategy;      /* auto, exhaustive, random, anneal; NULL = [tune] strategy */
    double time_limit_s;       /* stop proposing candidates after this long; 0 = none */
    const char *cache_dir;     /* compiled-binary cache; NULL = no cache */
    int json;                  /* summary as JSON on stdout, the report on stderr */
    int fresh;                 /* re-measure candidates already stored for this device */
    int gpu;                   /* device ordinal, when ngpus is 0 */
    int gpus[CT_MAX_GPUS];     /* several GPUs of one model (gpus.h) */
    int ngpus;                 /* 0: gpu alone; -1: every GPU */
    ct_shard shard;            /* count > 1: measure only this shard (shard.h) */
    const char *db_path;
    const char *templates_dir; /* NULL: the templates built into the binary */
    const char *only_template; /* NULL: every template of the family */
    const ct_config *cfg;
    int remeasure;             /* measure the device ceilings again */
    int verbose;               /* one line per candidate on stderr */
    FILE *out;                 /* summary */
    const char *worker_exe;    /* convtune binary run as the GPU worker ("/proc/self/exe") */
    const char *arch_limit;    /* NULL, or sm_XY: only the kernels that architecture admits (ct_limits_restrict) */
    int no_cudnn;              /* --baseline none: no cuDNN timing beside the winner */
} ct_tune_opts;

ct_status ct_tune(const ct_tune_opts *o, ct_tune_result *res, ct_err *e);

#endif
