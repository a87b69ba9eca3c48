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
#include <stdarg.h>
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
#include "compile.h"
#include "config.h"
#include "db.h"
#include "files.h"
#include "params.h"
#include "problem.h"
#include "proc.h"
#include "runner.h"

/* Files and children: the test library's (files.h, proc.h), under
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

/* convtune (the binary under test) with the arguments in ap, a
 * NULL-terminated list of strings (at most 22), run as tc_run runs a tool. */
static inline void tc_convtune_v(const char *cwd, const char *capdir, int timeout_s, tc_result *r, va_list ap)
{
    char *argv[24];
    int n = 0;
    argv[n++] = (char *)CT_BINARY;
    for (char *a; n < 23 && (a = va_arg(ap, char *)) != NULL;)
        argv[n++] = a;
    argv[n] = NULL;
    tc_run(argv, cwd, capdir, timeout_s, r);
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

static inline ct_result tc_rec(const char *tmpl, const char *hash, const char *params, const char *status,
                               double us, double relerr)
{
    ct_result r;
    ct_result_init(&r);
    snprintf(r.tmpl, sizeof r.tmpl, "%s", tmpl);
    snprintf(r.template_hash, sizeof r.template_hash, "%s", hash);
    snprintf(r.params_json, sizeof r.params_json, "%s", params);
    CHECK_MSG(ct_result_status_parse(status, &r.status), "no status %s", status);
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

/* A verified result of spec by template tmpl at the first value of each
 * parameter (tc_params), median us, relative error 1e-3. */
static inline ct_result tc_first_values(const char *spec, const char *tmpl, double us)
{
    char hash[17], params[512] = "{}";
    tc_template_hash(tmpl, hash);
    tc_params(spec, tmpl, NULL, 0, params, sizeof params);
    return tc_rec(tmpl, hash, params, "ok", us, 1e-3);
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
static inline int tc_add_run(ct_db *db, const ct_device_info *d, const char *spec, const ct_result *recs, int n)
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

/* ------------------------------------------------------------------------ */
/* A family export of every family                                          */

/* Two tuned problems of a family (problems[0] with the family's tiled
 * template at the first value of each list, problems[1] with its naive one),
 * and three sizes to ask the selector about: one next to problems[0] (graded
 * nearest_size, to problems[0]), and one in a mode, pad or bias with nothing
 * tuned (graded generic). row is the start of problems[0]'s row in the
 * selector's table. */
typedef struct tc_family_case {
    const char *family;
    const char *problems[2];
    const char *templates[2];
    const char *nearby, *untuned;
    const char *row;
    const char *over;          /* problems[0]'s parameters: NAME=VALUE,... over the first values */
    /* Another spelling of problems[0] and of nearby, where the family has
     * one (conv2dc: pad=1 for a 3x3 same at stride 1), else NULL: the
     * selector must find the same rows as for the canonical spelling. */
    const char *spelled[2];
} tc_family_case;

static const tc_family_case tc_family_cases[] = {
    {"conv1d", {"conv1d:3000:37:same", "conv1d:4096:7:valid"}, {"conv1d_tiled", "conv1d_naive"},
     "conv1d:5000:40:same", "conv1d:300:5:right", "{3000LL, 37LL, 1, 128u, ",
     "BLOCK_SIZE=128,OUTPUTS_PER_THREAD=8,MASK_PLACEMENT=0,MASK_PAD=1,STAGE_INPUT=1,VEC_WIDTH=4,UNROLL=4", {NULL, NULL}},
    {"conv1dc", {"conv1dc:2:8:64:16:3:pad=1:bias", "conv1dc:1:16:100:8:5"}, {"conv1dc_tiled", "conv1dc_naive"},
     "conv1dc:2:8:70:16:3:pad=1:bias", "conv1dc:2:8:64:16:3:pad=2", "{2LL, 8LL, 64LL, 16LL, 3LL, 1, 0, 1, 1, 1, 1, 0, 128u, ",
     "BLOCK_SIZE=128,COUT_PER_BLOCK=4", {NULL, NULL}},
    {"conv2d", {"conv2d:2:40:50:5:3:same", "conv2d:1:64:64:3:3:same"}, {"conv2d_tiled", "conv2d_naive"},
     "conv2d:2:41:50:5:3:same", "conv2d:1:30:30:3:3:valid", "{2LL, 40LL, 50LL, 5LL, 3LL, 1, 256u, ",
     "BLOCK_X=32,BLOCK_Y=8,OUT_X=4,OUT_Y=8,FILTER_PLACEMENT=0,KH_STEP=5", {NULL, NULL}},
    {"conv2dc", {"conv2dc:2:3:20:24:8:3:3:same:bias", "conv2dc:1:4:16:16:6:3:3:valid"},
     {"conv2dc_tiled", "conv2dc_naive"}, "conv2dc:2:3:21:24:8:3:3:same:bias", "conv2dc:1:4:16:16:6:3:3:same",
     "{2LL, 3LL, 20LL, 24LL, 8LL, 3LL, 3LL, 1, 0, 0, 1, 1, 1, 1, 1, 1, ", "STAGE=0",
     {"conv2dc:2:3:20:24:8:3:3:pad=1:bias", "conv2dc:2:3:21:24:8:3:3:pad=1,1:bias"}},
};
#define TC_NFAMILY_CASES ((int)(sizeof tc_family_cases / sizeof tc_family_cases[0]))

/* The half exports the consumer is built for (consumer_build) and run
 * with (gpu_consumer): every family once, in one of the two half types,
 * so that both types and every family's generic kernel in a half type run. */
typedef struct tc_half_case {
    const char *family, *dtype;
} tc_half_case;

static const tc_half_case tc_half_cases[] = {
    {"conv1d", "bf16"}, {"conv1dc", "f16"}, {"conv2d", "f16"}, {"conv2dc", "bf16"}};
#define TC_NHALF_CASES ((int)(sizeof tc_half_cases / sizeof tc_half_cases[0]))

/* A database at path with fc's two problems tuned on d. */
static inline int tc_family_db(const char *path, const ct_device_info *d, const tc_family_case *fc)
{
    ct_db *db = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_db_open(path, 1, &db, &e) == CT_OK, "%s: %s", path, e.msg);
    if (!db)
        return 0;
    int ok = 1;
    for (int i = 0; i < 2 && ok; i++) {
        char hash[17], params[512];
        tc_template_hash(fc->templates[i], hash);
        tc_param over[16];
        char names[16][32];
        int nover = 0;
        for (const char *o = i == 0 ? fc->over : ""; *o && nover < 16; nover++) {
            long v = 0;
            int used = 0;
            if (sscanf(o, "%31[A-Z_0-9]=%ld%n", names[nover], &v, &used) != 2)
                break;
            over[nover] = (tc_param){names[nover], v};
            o += used + (o[used] == ',');
        }
        ok = tc_params(fc->problems[i], fc->templates[i], over, nover, params, sizeof params);
        const ct_result r[] = {tc_rec(fc->templates[i], hash, params, "ok", 5.0 + i, 1e-7)};
        ok = ok && tc_add_run(db, d, fc->problems[i], r, 1);
    }
    ct_db_close(db);
    return ok;
}

#endif
