/* cli.h - the command handlers of the convtune command line (cli_*.c),
 * shared by main.c. Each handler parses nothing itself: main.c and cmd_db
 * fill an args from argv, the handler prints its one-line error and returns
 * the exit status. */
#ifndef CT_CLI_H
#define CT_CLI_H

#include "config.h"
#include "db.h"
#include "problem.h"

typedef struct args {
    const char *problem, *db, *config, *templates, *only, *arch, *device, *family, *format, *out;
    const char *params[CT_MAX_PARAMS];
    int nparams;
    int gpu, list, all, force, remeasure, verbose, help, json, no_cache, fresh;
    long long seed, max_candidates;
    int have_seed, have_max;
    const char *strategy;
    double time_limit;
    const char *nearest;       /* query --nearest SPEC */
    const char *pos[4];        /* arguments that are not options (db import FILE) */
    int npos;
} args;

int die(ct_status rc, const char *msg);
int parse_args(int argc, char **argv, int start, args *a);
int load_config(const args *a, ct_config *c);
int need_problem(const args *a, ct_problem *p);
int open_existing_db(const args *a, ct_db **db);

extern const char usage_tune[], usage_space[], usage_compile[], usage_query[], usage_export[];
int cmd_tune(const args *a);
int cmd_space(const args *a);
int cmd_compile(const args *a);
int cmd_query(const args *a);
int cmd_export(const args *a);
int cmd_db(int argc, char **argv);

#endif
