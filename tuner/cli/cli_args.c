/* cli_args.c - option parsing and the helpers every command handler uses. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "cli.h"
#include "text.h"

void db_waiting(const char *path)
{
    say(0, "waiting for %s: the database is busy (another convtune is writing it)", path);
}

int say(int rc, const char *fmt, ...)
{
    char msg[4096], line[4 * sizeof msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* Whatever a message quotes, it stays one line: a newline in a user's
     * text is shown as \n, like every control character. */
    size_t o = 0;
    for (const char *c = msg; *c && o + 5 < sizeof line; c++) {
        if ((unsigned char)*c < 0x20 || *c == 0x7f) {
            const char one[2] = {*c, '\0'};
            char esc[8];
            o += (size_t)snprintf(line + o, sizeof line - o, "%s", ct_echo(one, esc, sizeof esc));
        } else {
            line[o++] = *c;
        }
    }
    line[o] = '\0';
    fprintf(stderr, "convtune: %s\n", line);
    return rc;
}

int die(ct_status rc, const char *msg)
{
    return say((int)rc, "%s", msg);
}

static int parse_int_arg(const char *opt, const char *v, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) {
        say(0, "%s: bad value '%s' (expected an integer in %lld..%lld)", opt, ECHO(v), lo, hi);
        return 0;
    }
    *out = x;
    return 1;
}

/* The options: name, alias, bit, and where a value goes (flags set an int,
 * value options a string; the numeric ones are converted below). */
typedef struct opt_def {
    const char *name, *alias;
    int bit;
    size_t flag_off, str_off;    /* offsetof into args, or NOFF */
} opt_def;

#define NOFF ((size_t)-1)
#define FLAG(n, al, b, field) {n, al, OPT_##b, offsetof(args, field), NOFF}
#define STR(n, al, b, field) {n, al, OPT_##b, NOFF, offsetof(args, field)}
#define NUM(n, al, b) {n, al, OPT_##b, NOFF, NOFF}

static const opt_def opts[] = {
    FLAG("--help", "-h", HELP, help),         FLAG("--list", NULL, LIST, list),
    FLAG("--all", NULL, ALL, all),            {"--winners", NULL, OPT_WINNERS, NOFF, NOFF},
    FLAG("--force", NULL, FORCE, force),      FLAG("--remeasure", NULL, REMEASURE, remeasure),
    FLAG("--json", NULL, JSON, json),         FLAG("--no-cache", NULL, NO_CACHE, no_cache),
    FLAG("--fresh", NULL, FRESH, fresh),      FLAG("--verbose", "-v", VERBOSE, verbose),
    FLAG("--torch", NULL, TORCH, torch),      STR("--shard", NULL, SHARD, shard),
    STR("--problem", NULL, PROBLEM, problem), STR("--db", NULL, DB, db),
    STR("--config", NULL, CONFIG, config),    STR("--templates", NULL, TEMPLATES, templates),
    STR("--template", NULL, TEMPLATE, only),  STR("--arch", NULL, ARCH, arch),
    STR("--device", NULL, DEVICE, device),    STR("--family", NULL, FAMILY, family),
    STR("--nearest", NULL, NEAREST, nearest), STR("--format", NULL, FORMAT, format),
    STR("--dtype", NULL, DTYPE, dtype),      STR("--pass", NULL, PASS, pass),
    STR("--problems", NULL, PROBLEMS, problems_file),
    STR("--arch-limit", NULL, ARCH_LIMIT, arch_limit),
    STR("-o", "--output", OUT, out),          STR("--strategy", NULL, STRATEGY, strategy),
    NUM("--gpu", NULL, GPU),                  NUM("--seed", NULL, SEED),
    NUM("--budget", "--max-candidates", BUDGET), NUM("--time", NULL, TIME),
    NUM("--param", NULL, PARAM),              NUM("--top", NULL, TOP),
};

static const opt_def *find_opt(const char *o)
{
    for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++)
        if (!strcmp(o, opts[k].name) || (opts[k].alias && !strcmp(o, opts[k].alias)))
            return &opts[k];
    return NULL;
}

/* Options shared by all commands; unknown options are usage errors, and so
 * is an option given twice, a flag as much as one with a value (only
 * --param, and what the command lists in repeats, may repeat): which one
 * was meant cannot be guessed, and a doubled flag is a script's mistake. */
int parse_args(int argc, char **argv, int start, unsigned long repeats, args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = start; i < argc; i++) {
        const char *o = argv[i];
        const opt_def *d = find_opt(o);
        if (!d) {
            const int maxpos = (int)(sizeof a->pos / sizeof a->pos[0]);
            if ((o[0] != '-' || !strcmp(o, "-")) && a->npos < maxpos) {
                a->pos[a->npos++] = o;   /* only `db import FILE` takes one; the others refuse it */
                continue;
            }
            if (o[0] != '-' || !strcmp(o, "-"))
                return say(0, "too many file arguments (at most %d in one command; give the rest to another)",
                           maxpos);
            say(0, "unknown option '%s' (see convtune --help)", ECHO(o));
            return 0;
        }
        if ((a->given & (1UL << d->bit)) && !((repeats | OPT(PARAM)) & (1UL << d->bit))) {
            say(0, "option %s given twice", o);
            return 0;
        }
        a->given |= 1UL << d->bit;
        a->spelled[d->bit] = o;
        if (d->flag_off != NOFF) {
            *(int *)((char *)a + d->flag_off) = 1;
            continue;
        }
        if (d->bit == OPT_WINNERS) {
            a->all = 0;
            continue;
        }
        if (i + 1 >= argc) {
            say(0, "option %s needs a value", o);
            return 0;
        }
        const char *v = argv[++i];
        if (d->bit == OPT_PROBLEM) {   /* repeated only where repeats allows it (report) */
            if (a->nproblems >= CT_MAX_PROBLEM_ARGS) {
                say(0, "at most %d --problem options", a->nproblems);
                return 0;
            }
            a->problems[a->nproblems++] = v;
        }
        /* An empty folder or file is an unset variable in a script, not
         * "the built-in templates" or "no config". */
        if (!*v && (d->bit == OPT_TEMPLATES || d->bit == OPT_CONFIG)) {
            say(0, "option %s: empty path", o);
            return 0;
        }
        if (d->str_off != NOFF) {
            if (!*(const char **)((char *)a + d->str_off))   /* the first of a repeated one */
                *(const char **)((char *)a + d->str_off) = v;
            continue;
        }
        long long x;
        switch (d->bit) {
        case OPT_GPU: {
            ct_err e;
            if (ct_gpus_parse(v, a->gpus, &a->ngpus, &e) != CT_OK) {
                say(0, "%s", e.msg);
                return 0;
            }
            a->gpu = a->ngpus > 0 ? a->gpus[0] : 0;
            break;
        }
        case OPT_TOP:
            if (!parse_int_arg(o, v, 1, 1000, &x))
                return 0;
            a->top = (int)x;
            break;
        case OPT_SEED:
            if (!parse_int_arg(o, v, 1, (long long)9e18, &a->seed))
                return 0;
            a->have_seed = 1;
            break;
        case OPT_BUDGET:
            if (!parse_int_arg(o, v, 1, 1000000, &a->max_candidates))
                return 0;
            a->have_max = 1;
            break;
        case OPT_TIME:
            if (!parse_int_arg(o, v, 1, 1000000, &x))
                return 0;
            a->time_limit = (double)x;
            break;
        default:   /* OPT_PARAM */
            if (a->nparams >= CT_MAX_PARAMS) {
                say(0, "too many --param options");
                return 0;
            }
            a->params[a->nparams++] = v;
        }
    }
    return 1;
}

int check_options(const args *a, unsigned long allowed, const char *cmd)
{
    unsigned long extra = a->given & ~(allowed | OPT(HELP));
    for (int b = 0; b < OPT_COUNT; b++)
        if (extra & (1UL << b)) {
            say(0, "%s does not take %s (see convtune %s --help)", cmd, a->spelled[b], cmd);
            return CT_ERR_USAGE;
        }
    return 0;
}

int load_config(const args *a, ct_config *c)
{
    ct_err e;
    char path[CT_PATH_MAX];
    ct_status rc = a->config ? ct_path_copy(path, sizeof path, a->config, "--config", CT_ERR_USAGE, &e) : CT_OK;
    if (rc == CT_OK)
        rc = ct_config_init(c, &e);
    if (rc == CT_OK && a->config)
        rc = ct_config_apply_file(c, path, &e);
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
        say(0, "--problem SPEC is required (e.g. --problem conv1d:1e6:2047)");
        return CT_ERR_USAGE;
    }
    ct_err e;
    ct_status rc = ct_problem_parse(a->problem, p, &e);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

int need_problem_config(const args *a, ct_problem *p, ct_config *c)
{
    int r = need_problem(a, p);
    return r ? r : load_config(a, c);
}

int db_path(const args *a, char *path, size_t len)
{
    ct_err e;
    ct_status rc = a->db ? ct_path_copy(path, len, a->db, "--db", CT_ERR_USAGE, &e)
                         : ct_db_default_path(path, len, &e);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

int cache_dir(const args *a, char *dir, size_t len, const char **out)
{
    ct_err e;
    *out = NULL;
    if (a->no_cache)
        return 0;
    ct_status rc = ct_cache_default_dir(dir, len, &e);
    if (rc == CT_OK)
        *out = dir;
    return rc == CT_ERR_USAGE ? die(rc, e.msg) : 0;
}

int db_writable(const char *path)
{
    ct_err e;
    ct_status rc = ct_db_check_writable(path, &e);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

int open_existing_db(const args *a, ct_db **db)
{
    char path[CT_DB_PATH_MAX];
    ct_err e;
    int r = db_path(a, path, sizeof path);
    if (r)
        return r;
    ct_status rc = ct_db_open(path, 0, db, &e);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}
