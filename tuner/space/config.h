/* config.h - measurement and verification settings, and the value lists of
 * every template's parameters, from INI files.
 *
 * The built-in configs/default.ini, configs/FAMILY.ini and the kernel kinds'
 * templates/kernels/K/values.ini are loaded first; a user's --config FILE
 * then overrides any key. Sections: [measure], [verify], [tune],
 * [space.TEMPLATE] and [kernel.K] (keys are parameter names, values
 * comma-separated lists; a [kernel.K] list is every template of kind K's,
 * and a template's own [space.TEMPLATE] list wins over it within a file).
 * An unknown section or key, a malformed line or a bad value is an error
 * naming the file and line. */
#ifndef CT_CONFIG_H
#define CT_CONFIG_H

#include "params.h"
#include "problem.h"
#include "status.h"

typedef struct ct_settings {
    int warmup;                 /* untimed runs before timing                  */
    int min_reps;               /* timed runs: at least this many ...          */
    int max_reps;               /* ... and at most this many                  */
    double min_time_ms;         /* ... until this much GPU time is covered     */
    double tolerance;           /* pass if relative L2 error <= tolerance      */
    unsigned long long seed;    /* inputs and sampling; 0 draws one per run    */
    int jobs;                   /* compile threads; 0 = all cores              */
    int max_candidates;         /* beyond this, sample the space at random     */
    double timeout_s;           /* watchdog: a candidate silent this long hangs */
    double retime_spread;       /* re-time when (p90-p10)/median exceeds this  */
    double race_factor;         /* stop timing after min_reps a candidate this
                                   many times slower than the best; 0 = never */
    int l2_flush;               /* 1: flush L2 before every timed execution    */
    int retime_top;             /* re-time this many best at the end of a run  */
} ct_settings;

typedef struct ct_space_list {
    const ct_template *tmpl;
    const ct_param_def *def;
    int nvals;
    long vals[CT_MAX_VALUES];
} ct_space_list;

/* Lists of all families together, one per template parameter: the
 * built-in configs hold 250, so room for many more kernels. */
#define CT_MAX_SPACE_LISTS 1024

typedef struct ct_config {
    ct_settings s;
    int nlists;
    ct_space_list lists[CT_MAX_SPACE_LISTS];
} ct_config;

/* Built-in defaults: the configs/ INI files embedded in the binary. */
ct_status ct_config_init(ct_config *c, ct_err *e);

/* Apply INI text (name is used in messages) on top of c. On error c is
 * unchanged. */
ct_status ct_config_apply_text(ct_config *c, const char *text, const char *name, ct_err *e);
ct_status ct_config_apply_file(ct_config *c, const char *path, ct_err *e);

/* The value list of a template's parameter, or NULL when none is set. */
const ct_space_list *ct_config_list(const ct_config *c, const ct_template *t, const char *param);

/* Settings as a JSON object (stored with each tuning run). */
void ct_settings_json(const ct_settings *s, char *buf, size_t len);

#endif
