/* cli_args.c - option parsing and the helpers every command handler uses. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int die(ct_status rc, const char *msg)
{
    fprintf(stderr, "convtune: %s\n", msg);
    return (int)rc;
}

static int parse_int_arg(const char *opt, const char *v, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) {
        fprintf(stderr, "convtune: %s: bad value '%s' (expected an integer in %lld..%lld)\n", opt, v, lo, hi);
        return 0;
    }
    *out = x;
    return 1;
}

/* Options shared by all commands; unknown options are usage errors. */
int parse_args(int argc, char **argv, int start, args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = start; i < argc; i++) {
        const char *o = argv[i];
        const char **dst = NULL;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            a->help = 1;
            continue;
        }
        if (!strcmp(o, "--list")) { a->list = 1; continue; }
        if (!strcmp(o, "--all")) { a->all = 1; continue; }
        if (!strcmp(o, "--winners")) { a->all = 0; continue; }
        if (!strcmp(o, "--force")) { a->force = 1; continue; }
        if (!strcmp(o, "--remeasure")) { a->remeasure = 1; continue; }
        if (!strcmp(o, "--json")) { a->json = 1; continue; }
        if (!strcmp(o, "--no-cache")) { a->no_cache = 1; continue; }
        if (!strcmp(o, "--fresh")) { a->fresh = 1; continue; }
        if (!strcmp(o, "--verbose") || !strcmp(o, "-v")) { a->verbose = 1; continue; }
        if (!strcmp(o, "--problem")) dst = &a->problem;
        else if (!strcmp(o, "--db")) dst = &a->db;
        else if (!strcmp(o, "--config")) dst = &a->config;
        else if (!strcmp(o, "--templates")) dst = &a->templates;
        else if (!strcmp(o, "--template")) dst = &a->only;
        else if (!strcmp(o, "--arch")) dst = &a->arch;
        else if (!strcmp(o, "--device")) dst = &a->device;
        else if (!strcmp(o, "--family")) dst = &a->family;
        else if (!strcmp(o, "--nearest")) dst = &a->nearest;
        else if (!strcmp(o, "--format")) dst = &a->format;
        else if (!strcmp(o, "-o") || !strcmp(o, "--output")) dst = &a->out;
        else if (!strcmp(o, "--strategy")) dst = &a->strategy;
        if (i + 1 >= argc && (dst || !strcmp(o, "--gpu") || !strcmp(o, "--param") ||
                              !strcmp(o, "--seed") || !strcmp(o, "--max-candidates") ||
                              !strcmp(o, "--budget") || !strcmp(o, "--time"))) {
            fprintf(stderr, "convtune: option %s needs a value\n", o);
            return 0;
        }
        if (dst) {
            *dst = argv[++i];
            continue;
        }
        long long v;
        if (!strcmp(o, "--gpu")) {
            if (!parse_int_arg(o, argv[++i], 0, 1023, &v))
                return 0;
            a->gpu = (int)v;
        } else if (!strcmp(o, "--seed")) {
            if (!parse_int_arg(o, argv[++i], 1, (long long)9e18, &a->seed))
                return 0;
            a->have_seed = 1;
        } else if (!strcmp(o, "--max-candidates") || !strcmp(o, "--budget")) {
            if (!parse_int_arg(o, argv[++i], 1, 1000000, &a->max_candidates))
                return 0;
            a->have_max = 1;
        } else if (!strcmp(o, "--time")) {
            if (!parse_int_arg(o, argv[++i], 1, 1000000, &v))
                return 0;
            a->time_limit = (double)v;
        } else if (!strcmp(o, "--param")) {
            if (a->nparams >= CT_MAX_PARAMS) {
                fprintf(stderr, "convtune: too many --param options\n");
                return 0;
            }
            a->params[a->nparams++] = argv[++i];
        } else if ((o[0] != '-' || !strcmp(o, "-")) && a->npos < 4) {
            a->pos[a->npos++] = o;   /* only `db import FILE` takes one; main refuses the rest */
        } else {
            fprintf(stderr, "convtune: unknown option '%s' (see convtune --help)\n", o);
            return 0;
        }
    }
    return 1;
}

int load_config(const args *a, ct_config *c)
{
    ct_err e;
    ct_status rc = ct_config_init(c, &e);
    if (rc == CT_OK && a->config)
        rc = ct_config_apply_file(c, a->config, &e);
    if (rc != CT_OK)
        return die(rc, e.msg);
    if (a->have_seed)
        c->s.seed = (unsigned long long)a->seed;
    if (a->have_max)
        c->s.max_candidates = (int)a->max_candidates;
    return 0;
}

int need_problem(const args *a, ct_problem *p)
{
    if (!a->problem) {
        fprintf(stderr, "convtune: --problem SPEC is required (e.g. --problem conv1d:1e6:2047)\n");
        return CT_ERR_USAGE;
    }
    ct_err e;
    ct_status rc = ct_problem_parse(a->problem, p, &e);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

int open_existing_db(const args *a, ct_db **db)
{
    char path[1024];
    ct_err e;
    if (a->db)
        snprintf(path, sizeof path, "%s", a->db);
    else if (ct_db_default_path(path, sizeof path, &e) != CT_OK)
        return die(CT_ERR_DB, e.msg);
    ct_status rc = ct_db_open(path, 0, db, &e);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}
