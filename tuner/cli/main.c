/* main.c - the convtune command line. Parses arguments, calls the library,
 * prints its one-line error and exits with its status code. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "compile.h"
#include "worker.h"

static const char usage_head[] =
    "usage: convtune [tune] --problem SPEC [options]   tune a problem on a GPU\n"
    "       convtune space --problem SPEC [--arch sm_XY]  show its parameter space\n"
    "       convtune compile --problem SPEC --arch sm_XY [--param NAME=VALUE ...]\n"
    "       convtune precompile --problem SPEC --arch sm_XY [--shard I/N]   fill the cache\n"
    "       convtune retime --problem SPEC --top N   re-time the best on one GPU\n"
    "       convtune query [--problem SPEC] [--device NAME] [--format table|csv|json]\n"
    "       convtune export --problem SPEC [--device NAME] [-o FILE] [--force]\n"
    "       convtune export --family F [--dtype T] [--device NAME] [-o FILE] [--force]  every size + selector\n"
    "       convtune export ... --torch [-o DIR]   a PyTorch module next to the .cu\n"
    "       convtune query --nearest SPEC [--device NAME]   what the selector would pick\n"
    "       convtune report [--problem SPEC ...] [-o FILE.html]   HTML report with plots\n"
    "       convtune db export|import ...   move records between databases\n"
    "       convtune db check [--db PATH]   SQLite integrity and foreign-key check\n"
    "       convtune COMMAND --help | --help | --version\n"
    "\n";

/* Printed after the families, which come from the registry. */
static const char usage_tail[] =
    "  Sizes are positive integers, also in exact scientific notation (1e6).\n"
    "\n"
    "Exit codes: 0 ok, 1 internal error, 2 usage, 3 config, 4 no GPU or driver,\n"
    "  5 database, 6 nothing found, 7 file I/O, 8 compile error, 9 CUDA error,\n"
    "  10 no candidate passed verification.\n";

/* text, word-wrapped to 79 columns; lines after the first start at column
 * indent, the first continues at column col. */
static void wrap(FILE *f, const char *text, int col, int indent)
{
    for (const char *w = text; *w;) {
        while (*w == ' ')
            w++;
        int n = (int)strcspn(w, " ");
        if (!n)
            break;
        if (col > indent && col + 1 + n > 79) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", n, w);
        col += n;
        w += n;
    }
    fputc('\n', f);
}

/* Each family's grammar, summary and fields, from the registry. */
static void usage_main(FILE *f)
{
    fputs(usage_head, f);
    fputs("Problems:\n", f);
    const ct_family *const *fams = ct_families();
    for (int i = 0; fams[i]; i++) {
        const ct_family *fam = fams[i];
        fprintf(f, "  %s\n      ", fam->grammar);
        wrap(f, fam->summary, 6, 6);
        char sizes[512] = "";
        size_t o = 0;
        for (int d = 0; d < fam->nfields && o < sizeof sizes; d++)
            if (fam->fields[d].kind == CT_FIELD_SIZE)
                o += (size_t)snprintf(sizes + o, sizeof sizes - o, "%s%s (%s)", o ? ", " : "", fam->fields[d].name,
                                      fam->fields[d].help);
        fputs("      ", f);
        wrap(f, sizes, 6, 6);
        for (int d = 0; d < fam->nfields; d++)
            if (fam->fields[d].kind != CT_FIELD_SIZE) {
                int col = fprintf(f, "      %-4s  ", fam->fields[d].name);
                wrap(f, fam->fields[d].help, col, col);
            }
    }
    fputs(usage_tail, f);
}

int main(int argc, char **argv)
{
    /* The GPU worker a tuning run starts (worker.h); not a user command. */
    if (argc == 3 && !strcmp(argv[1], "__worker")) {
        char *end;
        long fd = strtol(argv[2], &end, 10);
        if (*end || fd < 0 || fd > 65535)
            return CT_ERR_USAGE;
        return ct_worker_serve((int)fd);
    }
    if (argc > 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "help"))) {
        say(0, "%s takes no other argument ('%s')", argv[1], ECHO(argv[2]));
        return CT_ERR_USAGE;
    }
    if (argc >= 2 && !strcmp(argv[1], "--version")) {
        printf("convtune %s (NVRTC %d.%d)\n", CONVTUNE_VERSION, ct_nvrtc_version() / 1000,
               ct_nvrtc_version() % 1000 / 10);
        return 0;
    }
    ct_db_on_wait(db_waiting);
    if (argc >= 2 && !strcmp(argv[1], "db"))
        return cmd_db(argc, argv);
    static const struct {
        const char *name;
        int (*fn)(const args *);
        const char *usage;
        unsigned long opts;     /* the options it takes; any other is refused */
        unsigned long repeats;  /* those it takes more than once (--param always) */
    } cmds[] = {
        {"tune", cmd_tune, usage_tune,
         OPT(PROBLEM) | OPT(GPU) | OPT(DB) | OPT(CONFIG) | OPT(TEMPLATES) | OPT(TEMPLATE) | OPT(SEED) |
             OPT(STRATEGY) | OPT(BUDGET) | OPT(TIME) | OPT(JSON) | OPT(FRESH) | OPT(NO_CACHE) |
             OPT(REMEASURE) | OPT(VERBOSE) | OPT(SHARD) | OPT(PROBLEMS) | OPT(ARCH_LIMIT), 0},
        {"precompile", cmd_precompile, usage_precompile,
         OPT(PROBLEM) | OPT(ARCH) | OPT(SHARD) | OPT(BUDGET) | OPT(STRATEGY) | OPT(SEED) | OPT(CONFIG) |
             OPT(TEMPLATES) | OPT(TEMPLATE), 0},
        {"retime", cmd_retime, usage_retime,
         OPT(PROBLEM) | OPT(TOP) | OPT(GPU) | OPT(DB) | OPT(CONFIG) | OPT(TEMPLATES) | OPT(NO_CACHE), 0},
        {"space", cmd_space, usage_space,
         OPT(PROBLEM) | OPT(ARCH) | OPT(TEMPLATE) | OPT(CONFIG) | OPT(LIST) | OPT(ARCH_LIMIT), 0},
        {"compile", cmd_compile, usage_compile,
         OPT(PROBLEM) | OPT(ARCH) | OPT(TEMPLATE) | OPT(PARAM) | OPT(OUT) | OPT(FORCE) | OPT(TEMPLATES) |
             OPT(CONFIG) | OPT(ARCH_LIMIT), 0},
        {"query", cmd_query, usage_query,
         OPT(PROBLEM) | OPT(DEVICE) | OPT(FAMILY) | OPT(ALL) | OPT(WINNERS) | OPT(FORMAT) | OPT(DB) |
             OPT(NEAREST), 0},
        {"export", cmd_export, usage_export,
         OPT(PROBLEM) | OPT(FAMILY) | OPT(DEVICE) | OPT(OUT) | OPT(FORCE) | OPT(DB) | OPT(CONFIG) |
             OPT(TEMPLATES) | OPT(TORCH) | OPT(DTYPE) | OPT(PASS), 0},
        {"report", cmd_report, usage_report,
         OPT(PROBLEM) | OPT(FAMILY) | OPT(DEVICE) | OPT(DB) | OPT(OUT) | OPT(FORMAT) | OPT(FORCE), OPT(PROBLEM)},
    };
    int start = 1, which = 0;
    if (argc >= 2 && argv[1][0] != '-') {
        which = -1;
        for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
            if (!strcmp(argv[1], cmds[i].name))
                which = (int)i;
        if (!strcmp(argv[1], "help")) {
            usage_main(stdout);
            return 0;
        }
        if (which < 0) {
            say(0, "unknown command '%s' (see convtune --help)", ECHO(argv[1]));
            return CT_ERR_USAGE;
        }
        start = 2;
    }
    if (argc < 2) {
        /* One line, like every other error; the usage is one --help away. */
        say(0, "no command or --problem given; try 'convtune --help'");
        return CT_ERR_USAGE;
    }
    args a;
    if (!parse_args(argc, argv, start, cmds[which].repeats, &a))
        return CT_ERR_USAGE;
    if (a.npos) {
        say(0, "unknown option '%s' (see convtune --help)", ECHO(a.pos[0]));
        return CT_ERR_USAGE;
    }
    if (a.help) {
        if (start == 1)
            usage_main(stdout);
        else
            fputs(cmds[which].usage, stdout);
        return 0;
    }
    int r = check_options(&a, cmds[which].opts, cmds[which].name);
    return r ? r : cmds[which].fn(&a);
}
