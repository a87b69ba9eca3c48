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

/* The options: name, alias, bit, where a value goes (flags set an int,
 * value options a string; the numeric ones are converted below), the
 * value's name (NULL for a flag) and a line of help. The parser, "did you
 * mean", the man page and the shell completions all read this table. */
typedef struct opt_def {
    const char *name, *alias;
    int bit;
    size_t flag_off, str_off;    /* offsetof into args, or NOFF */
    const char *meta, *help;
} opt_def;

#define NOFF ((size_t)-1)
#define FLAG(n, al, b, field, h) {n, al, OPT_##b, offsetof(args, field), NOFF, NULL, h}
#define STR(n, al, b, field, m, h) {n, al, OPT_##b, NOFF, offsetof(args, field), m, h}
#define NUM(n, al, b, m, h) {n, al, OPT_##b, NOFF, NOFF, m, h}

static const opt_def opts[] = {
    FLAG("--help", "-h", HELP, help, "print the command's usage"),
    FLAG("--list", NULL, LIST, list, "print every admissible candidate"),
    FLAG("--all", NULL, ALL, all, "every candidate, failed ones too"),
    {"--winners", NULL, OPT_WINNERS, NOFF, NOFF, NULL, "the winner of each problem and device (default)"},
    FLAG("--force", NULL, FORCE, force, "replace an existing output file"),
    FLAG("--remeasure", NULL, REMEASURE, remeasure, "measure the device ceilings again"),
    FLAG("--json", NULL, JSON, json, "print one JSON summary on stdout"),
    FLAG("--no-cache", NULL, NO_CACHE, no_cache, "compile everything, bypassing the binary cache"),
    FLAG("--fresh", NULL, FRESH, fresh, "measure again what earlier runs stored"),
    FLAG("--verbose", "-v", VERBOSE, verbose, "one line per candidate on stderr"),
    FLAG("--torch", NULL, TORCH, torch, "also write a PyTorch module (family modules: ops with autograd)"),
    STR("--shard", NULL, SHARD, shard, "I/N", "only shard I of N of the run's candidates"),
    STR("--problem", NULL, PROBLEM, problem, "SPEC", "the problem, e.g. conv1d:1e6:2047"),
    STR("--db", NULL, DB, db, "PATH", "the database (default $CONVTUNE_DB or the XDG data dir)"),
    STR("--config", NULL, CONFIG, config, "FILE", "settings and value lists overriding configs/*.ini"),
    STR("--templates", NULL, TEMPLATES, templates, "DIR", "read templates from DIR"),
    STR("--template", NULL, TEMPLATE, only, "NAME", "only this template"),
    STR("--arch", NULL, ARCH, arch, "ARCH", "target architecture: sm_XY (CUBIN) or compute_XY (PTX)"),
    STR("--device", NULL, DEVICE, device, "NAME", "results of this device (a substring of its name)"),
    STR("--family", NULL, FAMILY, family, "F", "the problems of family F"),
    STR("--nearest", NULL, NEAREST, nearest, "SPEC", "what the selector of a family export picks for SPEC"),
    STR("--format", NULL, FORMAT, format, "FMT", "output format (table, csv, json, html: as the command takes)"),
    STR("--dtype", NULL, DTYPE, dtype, "T", "element type of a family export: f32, bf16 or f16"),
    STR("--pass", NULL, PASS, pass, "P", "training pass of a family export: fwd, dgrad or wgrad"),
    STR("-o", "--output", OUT, out, "FILE", "output file (- for stdout where one file is written)"),
    STR("--strategy", NULL, STRATEGY, strategy, "S", "search: auto, exhaustive, random, anneal or model"),
    NUM("--gpu", NULL, GPU, "N", "device ordinal; N,M,... or all for several GPUs"),
    NUM("--seed", NULL, SEED, "N", "inputs and sampling seed"),
    NUM("--budget", "--max-candidates", BUDGET, "N", "measure at most N candidates"),
    NUM("--time", NULL, TIME, "SECONDS", "stop proposing candidates after this long"),
    NUM("--param", NULL, PARAM, "NAME=VALUE", "a parameter's value (repeatable)"),
    NUM("--top", NULL, TOP, "N", "the N best verified candidates"),
    STR("--candidate", NULL, CANDIDATE, candidate, "LINE", "a line of space --list: template and parameters"),
    STR("--problems", NULL, PROBLEMS, problems_file, "FILE", "tune each problem of FILE, one per line"),
    STR("--arch-limit", NULL, ARCH_LIMIT, arch_limit, "sm_XY", "only the kernels an older architecture admits too"),
    STR("--baseline", NULL, BASELINE, baseline, "B", "the vendor baseline timed beside the winner: cudnn (default) or none"),
};

const cli_opt_info *opt_info(int i, cli_opt_info *out)
{
    if (i < 0 || i >= (int)(sizeof opts / sizeof opts[0]))
        return NULL;
    out->name = opts[i].name;
    out->alias = opts[i].alias;
    out->bit = opts[i].bit;
    out->meta = opts[i].meta;
    out->help = opts[i].help;
    return out;
}

/* The optimal string alignment distance between a and b (insertions,
 * deletions, substitutions and swaps of two neighbours, each 1): the
 * swap counts once, so "qurey" is 1 from "query". Words longer than 63
 * characters are far from everything. */
static int edit_distance(const char *a, const char *b)
{
    enum { W = 64 };
    const int n = (int)strlen(a), m = (int)strlen(b);
    if (n >= W || m >= W)
        return W;
    int d[W][W];
    for (int i = 0; i <= n; i++)
        d[i][0] = i;
    for (int j = 0; j <= m; j++)
        d[0][j] = j;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++) {
            int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c)
                c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c)
                c = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
                c = d[i - 2][j - 2] + 1;
            d[i][j] = c;
        }
    return d[n][m];
}

const char *nearest_name(const char *word, const char *const *names, int n)
{
    /* Near enough to be a slip: one edit per three letters (dashes not
     * counted), so "-x" suggests nothing and "--probelm" --problem. */
    size_t core = strspn(word, "-");
    const int len = (int)strlen(word + core);
    const char *best = NULL;
    int bd = 3 * len + 1;
    for (int i = 0; i < n; i++) {
        if (!names[i])
            continue;
        int dist = edit_distance(word, names[i]);
        if (dist > 0 && 3 * dist <= len && dist < bd) {
            bd = dist;
            best = names[i];
        }
    }
    return best;
}

int say_unknown(const char *kind, const char *word, const char *const *names, int n, const char *help)
{
    const char *near = nearest_name(word, names, n);
    if (near)
        return say(CT_ERR_USAGE, "unknown %s '%s'; did you mean '%s'? (see %s)", kind, ECHO(word), near, help);
    return say(CT_ERR_USAGE, "unknown %s '%s' (see %s)", kind, ECHO(word), help);
}

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
int parse_args(int argc, char **argv, int start, unsigned long repeats, unsigned long allowed, args *a)
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
            /* The nearest of the options this command takes (and --help). */
            const char *names[2 * sizeof opts / sizeof opts[0]];
            int nn = 0;
            for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++)
                if ((allowed | OPT(HELP)) & (1UL << opts[k].bit)) {
                    names[nn++] = opts[k].name;
                    names[nn++] = opts[k].alias;
                }
            /* argv[1..start) are the command words, known good by now */
            char help[128];
            snprintf(help, sizeof help, "convtune%s%s%s%s --help", start > 1 ? " " : "", start > 1 ? argv[1] : "",
                     start > 2 ? " " : "", start > 2 ? argv[2] : "");
            say_unknown("option", o, names, nn, help);
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

int baseline_none(const args *a, int *none)
{
    *none = a->baseline && !strcmp(a->baseline, "none");
    if (!a->baseline || *none || !strcmp(a->baseline, "cudnn"))
        return 0;
    say(0, "--baseline: bad value '%s' (expected cudnn or none)", ECHO(a->baseline));
    return CT_ERR_USAGE;
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

int out_is_stdout(const args *a)
{
    return a->out && !strcmp(a->out, "-");
}

int refuse_stdout_pair(const args *a, const char *cmd, const char *what)
{
    if (!out_is_stdout(a))
        return 0;
    return say(CT_ERR_USAGE, "%s writes %s: standard output (-o -) cannot hold them; give -o %s", cmd, what,
               a->torch ? "DIR" : "FILE.cu");
}
