/* cli.h - the command handlers of the convtune command line (cli_*.c),
 * shared by main.c. Each handler parses nothing itself: main.c and cmd_db
 * fill an args from argv, the handler prints its one-line error and returns
 * the exit status. */
#ifndef CT_CLI_H
#define CT_CLI_H

#include "config.h"
#include "db.h"
#include "gpus.h"
#include "problem.h"
#include "shard.h"
#include "text.h"

/* Every option, one bit each: a command lists those it takes (cmd_opts)
 * and any other one given is refused, naming it. */
enum {
    OPT_HELP, OPT_LIST, OPT_ALL, OPT_WINNERS, OPT_FORCE, OPT_REMEASURE, OPT_JSON, OPT_NO_CACHE, OPT_FRESH,
    OPT_VERBOSE, OPT_PROBLEM, OPT_DB, OPT_CONFIG, OPT_TEMPLATES, OPT_TEMPLATE, OPT_ARCH, OPT_DEVICE,
    OPT_FAMILY, OPT_NEAREST, OPT_FORMAT, OPT_OUT, OPT_STRATEGY, OPT_GPU, OPT_SEED, OPT_BUDGET, OPT_TIME,
    OPT_PARAM, OPT_TORCH, OPT_SHARD, OPT_TOP, OPT_DTYPE, OPT_PASS, OPT_CANDIDATE, OPT_PROBLEMS, OPT_ARCH_LIMIT,
    OPT_BASELINE, OPT_COUNT
};
#define OPT(x) (1UL << OPT_##x)

#define CT_MAX_PROBLEM_ARGS 64

typedef struct args {
    const char *problem, *db, *config, *templates, *only, *arch, *device, *family, *format, *out;
    const char *arch_limit;    /* tune, space: --arch-limit sm_XY (ct_limits_restrict) */
    const char *params[CT_MAX_PARAMS];
    int nparams;
    int gpu, list, all, force, remeasure, verbose, help, json, no_cache, fresh, torch;
    int gpus[CT_MAX_GPUS], ngpus;   /* --gpu N,M,... (ngpus -1: all); gpu is the first */
    const char *shard;         /* --shard I/N */
    int top;                   /* retime --top N */
    long long seed, max_candidates;
    int have_seed, have_max;
    const char *strategy;
    double time_limit;
    const char *nearest;       /* query --nearest SPEC */
    const char *dtype;         /* export --family F --dtype T */
    const char *pass;          /* export --family F --pass P */
    const char *problems_file; /* tune --problems FILE */
    const char *candidate;     /* compile --candidate 'TEMPLATE NAME=VALUE,...' (a space --list line) */
    const char *baseline;      /* tune --baseline cudnn|none (baseline_none) */
    const char *problems[CT_MAX_PROBLEM_ARGS];  /* every --problem, where the command repeats it (report) */
    int nproblems;
    const char *pos[256];      /* arguments that are not options (db import FILE...) */
    int npos;
    unsigned long given;       /* OPT() bits of the options given */
    const char *spelled[OPT_COUNT];   /* each as the user wrote it, for messages */
} args;

/* One option as the parser knows it: its name, alias (or NULL), OPT_ bit,
 * the name of its value (NULL for a flag) and a line of help. */
typedef struct cli_opt_info {
    const char *name, *alias, *meta, *help;
    int bit;
} cli_opt_info;
/* The i-th option (0, 1, ...) into out, or NULL past the last. */
const cli_opt_info *opt_info(int i, cli_opt_info *out);

/* A command: its name, handler, usage (its --help), the options it takes
 * (OPT() bits; any other is refused) and those it takes more than once
 * (--param always). main.c dispatches through cli_commands, cmd_db through
 * cli_db_commands; --help, the man page and the completions read them. */
typedef struct cli_command {
    const char *name;
    int (*fn)(const struct args *);
    const char *usage;
    unsigned long opts, repeats;
    const char *summary;       /* one line for the man page and zsh */
} cli_command;
extern const cli_command cli_commands[], cli_db_commands[];
extern const int cli_ncommands, cli_ndb_commands;
/* The general usage (convtune --help): commands, problems, exit codes. */
void usage_main(FILE *f);
/* convtune completion bash|zsh and convtune man (cli_help.c). */
int cmd_completion(const struct args *a);
int cmd_man(const struct args *a);

/* The one error line: "convtune: " and the message, its control
 * characters escaped (text.h), on stderr; returns rc. die(rc, msg) is
 * say(rc, "%s", msg). */
int say(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int die(ct_status rc, const char *msg);
/* A user's text as a message quotes it: bounded and escaped (ct_echo), in
 * a buffer that lives to the end of the enclosing block. */
#define ECHO(s) ct_echo((s), (char[CT_ECHO_LEN]){0}, CT_ECHO_LEN)
/* The ct_db_on_wait hook: one line on stderr while another writer holds
 * the database, so a long wait is not a silent hang. */
void db_waiting(const char *path);
/* Fill a from argv[start..]; 0 (after printing the one-line error) on an
 * unknown option (naming the nearest of those in allowed, OPT() bits), a
 * missing or bad value, or an option given twice (flags included) that is
 * neither --param nor in repeats (OPT() bits). */
int parse_args(int argc, char **argv, int start, unsigned long repeats, unsigned long allowed, args *a);
/* The name among names[0..n) (NULL entries skipped) nearest to word by
 * edit distance, when near enough to be a slip of the keyboard; else NULL. */
const char *nearest_name(const char *word, const char *const *names, int n);
/* "unknown KIND 'WORD'; did you mean 'NAME'? (see HELP)", the suggestion
 * only where nearest_name finds one; returns CT_ERR_USAGE. */
int say_unknown(const char *kind, const char *word, const char *const *names, int n, const char *help);
/* 0 when every option given is in allowed (OPT() bits; --help always is);
 * otherwise prints "CMD does not take OPTION" and returns CT_ERR_USAGE. */
int check_options(const args *a, unsigned long allowed, const char *cmd);
int load_config(const args *a, ct_config *c);
int need_problem(const args *a, ct_problem *p);
/* need_problem, then load_config: what tune, space and export start with. */
/* Whether tune's --baseline is none (1 into *none) or cudnn, the default
 * (0); CT_ERR_USAGE after the one-line error for any other value. */
int baseline_none(const args *a, int *none);
int need_problem_config(const args *a, ct_problem *p, ct_config *c);
/* The database path (--db, else the default) into path; a --db that does
 * not fit is refused, never shortened. 0 or the exit status after the
 * one-line error. */
#define CT_DB_PATH_MAX 1024
int db_path(const args *a, char *path, size_t len);
/* The binary cache of tune and retime (cache.h) into dir, *out = dir; none
 * (*out NULL) with --no-cache or no folder to put it in. A path that does
 * not fit is refused: 0 or the exit status after the one-line error. */
int cache_dir(const args *a, char *dir, size_t len, const char **out);
/* 0 when the database at path can be written or does not exist yet (it
 * is created then); otherwise the one-line error of ct_db_check_writable
 * (what a writer's open refuses, checked without opening anything, before
 * a GPU is looked for) and its exit status. */
int db_writable(const char *path);
/* tune's and retime's checks before the GPU (cli_tune.c): 0 or the exit
 * status after the one-line error. */
int check_gpu_run(const args *a, const ct_problem *p, const char *dbpath);
/* Open the database for reading (ct_db_open without create). */
int open_existing_db(const args *a, ct_db **db);
/* Whether -o is "-", standard output: what a command writing one file
 * (compile, report, db export) writes there; one writing a pair (export)
 * refuses it (refuse_stdout_pair). */
int out_is_stdout(const args *a);
/* CT_ERR_USAGE after the one-line error when -o is "-" for cmd, which
 * writes what (several files); 0 otherwise. */
int refuse_stdout_pair(const args *a, const char *cmd, const char *what);

extern const char usage_tune[], usage_space[], usage_compile[], usage_query[], usage_export[];
extern const char usage_precompile[], usage_retime[], usage_report[];
int cmd_tune(const args *a);
/* tune --problems FILE (cli_tune_list.c). */
int cmd_tune_list(const args *a);

int cmd_space(const args *a);
int cmd_compile(const args *a);
int cmd_query(const args *a);
int cmd_export(const args *a);
int cmd_precompile(const args *a);
int cmd_retime(const args *a);
/* report: --problem repeats; the page or the CSV written atomically. */
int cmd_report(const args *a);
/* The shard of this process: --shard, else a Slurm array task's (saying so
 * on stderr), else none (count 0). 0 or the exit status after the error. */
int shard_of(const args *a, ct_shard *sh);
/* Check --strategy; an explicit exhaustive search with no --budget gets an
 * unbounded one (cfg). 0 or the exit status after the error. */
int search_budget(const args *a, ct_config *cfg);
int cmd_db(int argc, char **argv);

#endif
