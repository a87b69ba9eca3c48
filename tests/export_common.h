/* export_common.h - helpers shared by the tests of family exports, database
 * export/import and the consumer project: databases filled through the ct_db
 * API with results whose parameters the family admits, and (from the test
 * library) files and child processes with captured output and a time limit. */
#ifndef CT_EXPORT_COMMON_H
#define CT_EXPORT_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "lib/files.h"
#include "lib/proc.h"
#include "compile.h"
#include "config.h"
#include "db.h"
#include "params.h"
#include "problem.h"
#include "runner.h"

/* Files and children: the test library's (tests/lib/files.h, proc.h), under
 * the names these tests use. */
typedef tl_result tc_result;
#define tc_slurp tl_slurp
#define tc_write_text tl_write_text
#define tc_exists tl_exists
#define tc_rm_rf tl_rm_rf
#define tc_which tl_which
#define tc_result_free tl_result_free
#define tc_one_line tl_one_line

/* Run argv (argv[0] a path or a name on PATH) in cwd with stdin from
 * /dev/null and stdout/stderr captured through files in capdir; killed after
 * timeout_s seconds. */
static inline void tc_run(char *const *argv, const char *cwd, const char *capdir, int timeout_s, tc_result *r)
{
    tl_run_opts o = {.cwd = cwd, .capdir = capdir, .timeout_s = timeout_s};
    tl_run(argv, &o, r);
}

/* ------------------------------------------------------------------------ */
/* Databases                                                                */

/* The content hash of templates/NAME.cu as built in. */
static inline void tc_template_hash(const char *name, char out[17])
{
    char *src = NULL;
    ct_err e;
    out[0] = '\0';
    if (ct_template_source(name, NULL, &src, &e) == CT_OK)
        ct_hash_hex(src, out);
    free(src);
}

typedef struct tc_param {
    const char *name;
    long value;
} tc_param;

/* The JSON parameters of template tmpl for problem spec: the first value of
 * each built-in list, then the overrides, normalised as the tuner does; the
 * result must pass the family's constraints on sm_90. */
static inline int tc_params(const char *spec, const char *tmpl, const tc_param *over, int nover, char *json,
                            size_t len)
{
    static ct_config cfg;
    static int have_cfg;
    ct_err e = {""};
    ct_problem p;
    if (!have_cfg) {
        CHECK_MSG(ct_config_init(&cfg, &e) == CT_OK, "built-in config: %s", e.msg);
        have_cfg = 1;
    }
    if (ct_problem_parse(spec, &p, &e) != CT_OK) {
        CHECK_MSG(0, "%s: %s", spec, e.msg);
        return 0;
    }
    const ct_template *t = ct_template_find(p.family, tmpl);
    CHECK_MSG(t != NULL, "no template %s", tmpl);
    if (!t)
        return 0;
    ct_params c;
    memset(&c, 0, sizeof c);
    for (int k = 0; k < t->nparams; k++) {
        const ct_space_list *l = ct_config_list(&cfg, t, t->params[k].name);
        ct_params_set(&c, t->params[k].name, l && l->nvals ? l->vals[0] : 0, NULL);
    }
    for (int i = 0; i < nover; i++) {
        CHECK_MSG(ct_params_get(&c, over[i].name, -12345) != -12345, "%s has no parameter %s", tmpl, over[i].name);
        ct_params_set(&c, over[i].name, over[i].value, NULL);
    }
    if (p.family->normalize)
        p.family->normalize(&p, t, &c);
    ct_limits lim;
    char why[256] = "";
    CHECK(ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
    int bad = p.family->constrain(&p, t, &c, &lim, why, sizeof why);
    CHECK_MSG(!bad, "%s %s: parameters rejected: %s", spec, tmpl, why);
    CHECK(ct_params_to_json(&c, t->params, t->nparams, json, len) == CT_OK);
    return !bad;
}

static inline ct_record tc_rec(const char *tmpl, const char *hash, const char *params, const char *status,
                               double us, double relerr)
{
    ct_record r;
    memset(&r, 0, sizeof r);
    snprintf(r.tmpl, sizeof r.tmpl, "%s", tmpl);
    snprintf(r.template_hash, sizeof r.template_hash, "%s", hash);
    snprintf(r.params, sizeof r.params, "%s", params);
    snprintf(r.status, sizeof r.status, "%s", status);
    if (strcmp(status, "ok") != 0)
        snprintf(r.error, sizeof r.error, "%s: relative error %g above the tolerance", status, relerr);
    if (us > 0) {
        r.median_us = us;
        r.min_us = us * 0.97;
        r.max_us = us * 1.04;
        r.spread = 0.07;
        r.reps = 200;
        r.registers = 48;
        r.smem_bytes = 4 * 1024;
    }
    r.relerr = relerr;
    r.compile_ms = 80;
    return r;
}

/* A device as the tuner stores it. */
static inline ct_device_info tc_device(const char *name, const char *uuid, int cc_major, int cc_minor, int driver)
{
    ct_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "%s", name);
    snprintf(d.uuid, sizeof d.uuid, "%s", uuid);
    d.cc_major = cc_major;
    d.cc_minor = cc_minor;
    d.sm_count = 132;
    d.driver_version = driver;
    d.nvrtc_major = 13;
    d.nvrtc_minor = 0;
    d.fma_tflops = 60.0;
    d.bandwidth_gbs = 3000.0;
    d.launch_us = 2.5;
    return d;
}

/* One run of problem spec on device d with the given candidates, into the
 * open database. */
static inline int tc_add_run(ct_db *db, const ct_device_info *d, const char *spec, const ct_record *recs, int n)
{
    ct_err e = {""};
    ct_problem p;
    long long dev, prob, run;
    int ok = ct_problem_parse(spec, &p, &e) == CT_OK &&
             ct_db_device_upsert(db, d, &dev, &e) == CT_OK &&
             ct_db_problem_upsert(db, p.family->name, p.canonical, p.family->flops(&p), p.family->bytes(&p), &prob,
                                  &e) == CT_OK &&
             ct_db_run_begin(db, prob, dev, "{\"tolerance\":1e-05,\"seed\":7}", &run, &e) == CT_OK;
    for (int i = 0; ok && i < n; i++)
        ok = ct_db_candidate_add(db, run, &recs[i], &e) == CT_OK;
    if (ok)
        ok = ct_db_run_end(db, run, "ok", &e) == CT_OK;
    CHECK_MSG(ok, "storing %s on %s: %s", spec, d->name, e.msg);
    return ok;
}

#endif
