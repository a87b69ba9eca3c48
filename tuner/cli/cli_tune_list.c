/* cli_tune_list.c - `convtune tune --problems FILE`: tune a list of problems
 * (one per line, as the PyTorch runtime's problems() writes them for a
 * model's layers), one after the other on the same GPU(s) and options.
 *
 * The whole list is read and parsed before anything runs: a bad line is one
 * error naming the file and line, and nothing is tuned. A problem that the
 * database already holds a verified winner of is skipped (the run is
 * resumable: interrupted, it starts again where it stopped), unless --fresh
 * or --remeasure asks again. Each problem prints one progress line; the
 * tuning runs' own output goes to stderr with --verbose only. A table of
 * every problem closes the run. The exit status is 0 when every problem has
 * a winner, else the status of the first one that failed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "runner.h"
#include "search.h"
#include "tune.h"

#define CT_LIST_MAX 512

typedef struct list_row {
    ct_problem p;
    int line;
    int status;                /* -1 not run, -2 held already, 0 tuned now, else the failing exit status */
    ct_tune_result res;
    char err[300];
} list_row;

/* The file's problems: blank lines and lines starting with '#' skipped, the
 * rest trimmed and parsed; a problem given twice (in any spelling) once. */
static int read_list(const char *path, list_row **rows, int *n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return say(CT_ERR_IO, "--problems %s: %s", ECHO(path), strerror(errno));
    *rows = calloc(CT_LIST_MAX, sizeof **rows);
    *n = 0;
    if (!*rows) {
        fclose(f);
        return say(CT_ERR_INTERNAL, "out of memory");
    }
    char line[1024];
    int ln = 0, rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        ln++;
        if (!strchr(line, '\n') && !feof(f)) {
            rc = say(CT_ERR_USAGE, "%s:%d: line longer than %zu characters", ECHO(path), ln, sizeof line - 2);
            break;
        }
        char *s = line, *end;
        while (*s == ' ' || *s == '\t')
            s++;
        end = s + strlen(s);
        while (end > s && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        if (!*s || *s == '#')
            continue;
        if (*n == CT_LIST_MAX) {
            rc = say(CT_ERR_USAGE, "%s:%d: more than %d problems in one list; split it", ECHO(path), ln, CT_LIST_MAX);
            break;
        }
        ct_err e;
        list_row *r = &(*rows)[*n];
        if (ct_problem_parse(s, &r->p, &e) != CT_OK) {
            rc = say(CT_ERR_USAGE, "%s:%d: %s", ECHO(path), ln, e.msg);
            break;
        }
        int dup = 0;
        for (int i = 0; i < *n && !dup; i++)
            dup = !strcmp((*rows)[i].p.canonical, r->p.canonical);
        if (!dup) {
            r->line = ln;
            r->status = -1;
            (*n)++;
        }
    }
    if (!rc && ferror(f))
        rc = say(CT_ERR_IO, "--problems %s: read error", ECHO(path));
    fclose(f);
    if (!rc && *n == 0)
        rc = say(CT_ERR_USAGE, "--problems %s: no problem in the file", ECHO(path));
    if (rc) {
        free(*rows);
        *rows = NULL;
    }
    return rc;
}

/* Whether the database at path holds a verified winner of p (any device). */
static int held(const char *path, const ct_problem *p)
{
    ct_db *db = NULL;
    ct_err e;
    if (ct_db_open(path, 0, &db, &e) != CT_OK)
        return 0;
    ct_result r;
    const int found = ct_db_best(db, p->canonical, NULL, &r, &e) == CT_OK;
    ct_db_close(db);
    return found;
}

static void summary(const list_row *rows, int n)
{
    printf("\n%-4s %-60s %-22s %12s %10s  %s\n", "#", "problem", "winner", "median us", "x naive", "status");
    for (int i = 0; i < n; i++) {
        const list_row *r = &rows[i];
        const ct_result *w = &r->res.winner;
        const char *st = r->status == 0 ? "tuned" : r->status == -2 ? "held already" : r->status < 0 ? "not run"
                                                                                                     : r->err;
        if (r->status == 0)
            printf("%-4d %-60s %-22s %12.3f %9.2fx  %s\n", i + 1, r->p.canonical, w->tmpl, w->median_us,
                   r->res.baseline_us > 0 && w->median_us > 0 ? r->res.baseline_us / w->median_us : 0.0, st);
        else
            printf("%-4d %-60s %-22s %12s %10s  %s\n", i + 1, r->p.canonical, "-", "-", "-", st);
    }
}

int cmd_tune_list(const args *a)
{
    if (a->problem)
        return say(CT_ERR_USAGE, "--problems FILE and --problem SPEC: give one (a list, or one problem)");
    if (a->shard || a->json)
        return say(CT_ERR_USAGE, "%s does not apply to --problems (tune a list on one machine, with its table)",
                   a->shard ? "--shard" : "--json");
    char dbpath[CT_DB_PATH_MAX], cache[CT_PATH_MAX];
    const char *cdir;
    int r;
    if ((r = db_path(a, dbpath, sizeof dbpath)) || (r = cache_dir(a, cache, sizeof cache, &cdir)))
        return r;
    ct_strategy st = CT_SEARCH_AUTO;
    ct_err e;
    if (a->strategy && ct_strategy_parse(a->strategy, &st, &e) != CT_OK)
        return die(CT_ERR_USAGE, e.msg);
    ct_limits al;
    if (a->arch_limit && ct_limits_for_arch(a->arch_limit, &al, &e) != CT_OK)
        return die(CT_ERR_USAGE, e.msg);
    list_row *rows;
    int n;
    if ((r = read_list(a->problems_file, &rows, &n)))
        return r;
    ct_tune_opts base = {.gpu = a->gpu, .ngpus = a->ngpus, .shard = {.index = 0, .count = 0}, .db_path = dbpath,
                         .templates_dir = a->templates, .only_template = a->only, .remeasure = a->remeasure,
                         .verbose = a->verbose, .strategy = a->strategy, .time_limit_s = a->time_limit,
                         .cache_dir = cdir, .worker_exe = "/proc/self/exe", .fresh = a->fresh,
                         .arch_limit = a->arch_limit,
                         .no_cudnn = a->baseline && !strcmp(a->baseline, "none")};   /* checked by cmd_tune */
    memcpy(base.gpus, a->gpus, sizeof base.gpus);
    FILE *quiet = a->verbose ? stderr : fopen("/dev/null", "w");
    if (!quiet) {
        free(rows);
        return say(CT_ERR_IO, "cannot open /dev/null: %s", strerror(errno));
    }
    int first_fail = 0, tuned = 0, skipped = 0;
    for (int i = 0; i < n; i++) {
        list_row *row = &rows[i];
        if (!a->fresh && !a->remeasure && held(dbpath, &row->p)) {
            row->status = -2;
            skipped++;
            printf("[%d/%d] %s: held already, skipped\n", i + 1, n, row->p.canonical);
            fflush(stdout);
            continue;
        }
        ct_config cfg;
        if ((r = load_config(a, &cfg)) || (r = search_budget(a, &cfg)) || (r = check_gpu_run(a, &row->p, dbpath))) {
            row->status = r;
            snprintf(row->err, sizeof row->err, "refused (exit %d)", r);
        } else {
            ct_tune_opts o = base;
            o.problem = &row->p;
            o.cfg = &cfg;
            o.out = quiet;
            o.json = 0;
            ct_status rc = ct_tune(&o, &row->res, &e);
            if (rc == CT_OK) {
                row->status = 0;
                tuned++;
            } else {
                row->status = (int)rc;
                snprintf(row->err, sizeof row->err, "failed: %.280s", e.msg);
            }
        }
        if (row->status == 0)
            printf("[%d/%d] %s: %s %.3f us (%.2fx naive), %d verified, %.0f s\n", i + 1, n, row->p.canonical,
                   row->res.winner.tmpl, row->res.winner.median_us,
                   row->res.baseline_us > 0 ? row->res.baseline_us / row->res.winner.median_us : 0.0,
                   row->res.counts_ok, row->res.wall_s);
        else
            printf("[%d/%d] %s: %s\n", i + 1, n, row->p.canonical, row->err);
        fflush(stdout);
        if (row->status > 0 && !first_fail)
            first_fail = row->status;
        /* No GPU, a database that cannot be written: every other problem
         * would fail alike; stop here, the rest not run. */
        if (row->status == CT_ERR_NO_GPU || row->status == CT_ERR_DB || row->status == CT_ERR_IO)
            break;
    }
    summary(rows, n);
    printf("%d tuned, %d held already, %d failed or not run, of %d\n", tuned, skipped, n - tuned - skipped, n);
    if (quiet != stderr)
        fclose(quiet);
    free(rows);
    return first_fail;
}
