/* cli_help.c - the command table and what is generated from it and from
 * the option table (cli_args.c): `convtune --help`, `convtune man` (a
 * roff man page) and `convtune completion bash|zsh`. One table each, so a
 * new command or option reaches the parser, the refusals, "did you mean",
 * the page and the completions at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"

extern const char usage_completion[], usage_man[];

const cli_command cli_commands[] = {
    {"tune", cmd_tune, usage_tune,
     OPT(PROBLEM) | OPT(GPU) | OPT(DB) | OPT(CONFIG) | OPT(TEMPLATES) | OPT(TEMPLATE) | OPT(SEED) | OPT(STRATEGY) |
         OPT(BUDGET) | OPT(TIME) | OPT(JSON) | OPT(FRESH) | OPT(NO_CACHE) | OPT(REMEASURE) | OPT(VERBOSE) |
         OPT(SHARD) | OPT(PROBLEMS) | OPT(ARCH_LIMIT) | OPT(BASELINE), 0, "tune a problem on a GPU (the default command)"},
    {"precompile", cmd_precompile, usage_precompile,
     OPT(PROBLEM) | OPT(ARCH) | OPT(SHARD) | OPT(BUDGET) | OPT(STRATEGY) | OPT(SEED) | OPT(CONFIG) | OPT(TEMPLATES) |
         OPT(TEMPLATE), 0, "compile a run's candidates into the cache, no GPU"},
    {"retime", cmd_retime, usage_retime,
     OPT(PROBLEM) | OPT(TOP) | OPT(GPU) | OPT(DB) | OPT(CONFIG) | OPT(TEMPLATES) | OPT(NO_CACHE), 0,
     "time the best stored candidates again on one GPU"},
    {"space", cmd_space, usage_space,
     OPT(PROBLEM) | OPT(ARCH) | OPT(TEMPLATE) | OPT(CONFIG) | OPT(LIST) | OPT(FORMAT) | OPT(ARCH_LIMIT),
     0, "show a problem's parameter space, no GPU"},
    {"compile", cmd_compile, usage_compile,
     OPT(PROBLEM) | OPT(ARCH) | OPT(TEMPLATE) | OPT(PARAM) | OPT(OUT) | OPT(FORCE) | OPT(TEMPLATES) | OPT(CONFIG) |
         OPT(CANDIDATE) | OPT(ARCH_LIMIT), 0, "compile one candidate offline with NVRTC, no GPU"},
    {"query", cmd_query, usage_query,
     OPT(PROBLEM) | OPT(DEVICE) | OPT(FAMILY) | OPT(ALL) | OPT(WINNERS) | OPT(FORMAT) | OPT(DB) | OPT(NEAREST), 0,
     "print stored results, or what a family selector picks"},
    {"export", cmd_export, usage_export,
     OPT(PROBLEM) | OPT(FAMILY) | OPT(DEVICE) | OPT(OUT) | OPT(FORCE) | OPT(DB) | OPT(CONFIG) | OPT(TEMPLATES) |
         OPT(TORCH) | OPT(DTYPE) | OPT(PASS), 0, "write a stored winner (or a family) as .cu and .h"},
    {"report", cmd_report, usage_report,
     OPT(PROBLEM) | OPT(FAMILY) | OPT(DEVICE) | OPT(DB) | OPT(OUT) | OPT(FORMAT) | OPT(FORCE), OPT(PROBLEM),
     "write an HTML report of what tuning stored"},
    {"completion", cmd_completion, usage_completion, OPT(OUT) | OPT(FORCE), 0,
     "print the bash or zsh completion script"},
    {"man", cmd_man, usage_man, OPT(OUT) | OPT(FORCE), 0, "print this manual page (roff)"},
};
const int cli_ncommands = (int)(sizeof cli_commands / sizeof cli_commands[0]);

const char usage_completion[] =
    "usage: convtune completion bash|zsh [-o FILE] [--force]\n"
    "Print the shell completion script of convtune: commands, each command's\n"
    "options, and the values of --format, --strategy, --dtype, --pass, --arch and\n"
    "--family. bash: `source <(convtune completion bash)`, or install it as\n"
    "share/bash-completion/completions/convtune; zsh: install it as _convtune in a\n"
    "folder of $fpath (cmake --install does both).\n";

const char usage_man[] =
    "usage: convtune man [-o FILE] [--force]\n"
    "Print the manual page convtune(1) in roff, made from the same tables as\n"
    "--help: `convtune man | man -l -` shows it (cmake --install puts it in\n"
    "share/man/man1).\n";

static const char usage_head[] =
    "usage: convtune [tune] --problem SPEC [options]   tune a problem on a GPU\n"
    "       convtune space --problem SPEC [--arch sm_XY] [--format json]  its parameter space\n"
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
    "       convtune completion bash|zsh | man   shell completion, manual page\n"
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
static void usage_problems(FILE *f)
{
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
}

void usage_main(FILE *f)
{
    fputs(usage_head, f);
    usage_problems(f);
    fputs(usage_tail, f);
}

/* ------------------------------------------------------------------------ */
/* Values an option's completion offers                                     */

/* The values of option bit for command cmd ("db export" for a
 * subcommand), space-separated, or NULL when there is no fixed list. */
static const char *option_values(int bit, const char *cmd, char *buf, size_t len)
{
    static const struct {
        const char *cmd;
        const char *values;
    } formats[] = {
        {"space", "table json"}, {"query", "table csv json"}, {"report", "html csv"},
        {"db export", "json csv"}, {"db import", "json csv"},
    };
    switch (bit) {
    case OPT_FORMAT:
        for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
            if (!strcmp(cmd, formats[i].cmd))
                return formats[i].values;
        return NULL;
    case OPT_STRATEGY:
        return "auto exhaustive random anneal model";
    case OPT_PASS:
        return "fwd dgrad wgrad";
    case OPT_BASELINE:
        return "cudnn none";
    case OPT_ARCH:
        return "sm_75 sm_80 sm_86 sm_89 sm_90 compute_75 compute_80 compute_86 compute_89 compute_90";
    case OPT_DTYPE: {
        size_t o = 0;
        buf[0] = '\0';
        for (int i = 0; i < CT_NDTYPES && o < len; i++)
            o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "", ct_dtype_names[i]);
        return buf;
    }
    case OPT_FAMILY: {
        size_t o = 0;
        buf[0] = '\0';
        const ct_family *const *fams = ct_families();
        for (int i = 0; fams[i] && o < len; i++)
            o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "", fams[i]->name);
        return buf;
    }
    default:
        return NULL;
    }
}

/* Whether option bit takes a file (1) or a folder (2) as its value. */
static int option_path(int bit)
{
    return bit == OPT_OUT || bit == OPT_DB || bit == OPT_CONFIG ? 1 : bit == OPT_TEMPLATES ? 2 : 0;
}

/* The spellings of the options in mask, space-separated, into buf. */
static const char *option_words(unsigned long mask, char *buf, size_t len)
{
    size_t o = 0;
    cli_opt_info oi;
    buf[0] = '\0';
    for (int i = 0; opt_info(i, &oi) && o < len; i++)
        if ((mask | OPT(HELP)) & (1UL << oi.bit)) {
            o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? " " : "", oi.name);
            if (oi.alias && o < len)
                o += (size_t)snprintf(buf + o, len - o, " %s", oi.alias);
        }
    return buf;
}

/* ------------------------------------------------------------------------ */
/* bash                                                                     */

/* One `case` arm per command, in the form `NAME) opts="...";;`. */
static void bash_case_arms(FILE *f, const cli_command *cmds, int n, const char *indent)
{
    for (int i = 0; i < n; i++) {
        char words[1024];
        fprintf(f, "%s%s) opts=\"%s\";;\n", indent, cmds[i].name, option_words(cmds[i].opts, words, sizeof words));
    }
}

static void completion_bash(FILE *f)
{
    char buf[512];
    cli_opt_info oi;
    fputs("# bash completion for convtune; generated by `convtune completion bash` from the tables\n"
          "# of its --help. Load it with: source <(convtune completion bash)\n"
          "_convtune() {\n"
          "    COMPREPLY=()\n"
          "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
          "    local cmd=tune sub=\"\" opts=\"\"\n"
          "    if (( COMP_CWORD > 1 )) && [[ ${COMP_WORDS[1]} != -* ]]; then cmd=\"${COMP_WORDS[1]}\"; fi\n"
          "    if [[ $cmd == db ]] && (( COMP_CWORD > 2 )); then sub=\"${COMP_WORDS[2]}\"; fi\n"
          "    local where=\"$cmd\"; [[ -n $sub ]] && where=\"db $sub\"\n",
          f);
    /* the value of the option before the cursor */
    fputs("    case \"$prev\" in\n", f);
    for (int i = 0; opt_info(i, &oi); i++) {
        if (!oi.meta)
            continue;
        const char *alias = oi.alias ? oi.alias : NULL;
        int path = option_path(oi.bit);
        if (path) {
            fprintf(f, "        %s%s%s) COMPREPLY=($(compgen -%c -- \"$cur\")); return;;\n", oi.name,
                    alias ? "|" : "", alias ? alias : "", path == 2 ? 'd' : 'f');
            continue;
        }
        /* --format: the values differ per command */
        int any = 0;
        for (int c = 0; c < cli_ncommands + cli_ndb_commands; c++) {
            char where[64];
            const cli_command *cc = c < cli_ncommands ? &cli_commands[c] : &cli_db_commands[c - cli_ncommands];
            snprintf(where, sizeof where, "%s%s", c < cli_ncommands ? "" : "db ", cc->name);
            const char *v = option_values(oi.bit, where, buf, sizeof buf);
            if (!v || !(cc->opts & (1UL << oi.bit)))
                continue;
            if (!any)
                fprintf(f, "        %s%s%s)\n            case \"$where\" in\n", oi.name, alias ? "|" : "",
                        alias ? alias : "");
            fprintf(f, "                \"%s\") COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); return;;\n", where, v);
            any = 1;
        }
        if (any)
            fputs("            esac\n            return;;\n", f);
        else
            fprintf(f, "        %s%s%s) return;;\n", oi.name, alias ? "|" : "", alias ? alias : "");
    }
    fputs("    esac\n", f);
    /* the command, the db subcommand, then the options of either */
    fputs("    if (( COMP_CWORD == 1 )) && [[ $cur != -* ]]; then\n        COMPREPLY=($(compgen -W \"", f);
    for (int i = 0; i < cli_ncommands; i++)
        fprintf(f, "%s ", cli_commands[i].name);
    fputs("db help --help --version\" -- \"$cur\"))\n        return\n    fi\n"
          "    if [[ $cmd == db ]] && (( COMP_CWORD == 2 )); then\n        COMPREPLY=($(compgen -W \"",
          f);
    for (int i = 0; i < cli_ndb_commands; i++)
        fprintf(f, "%s%s", i ? " " : "", cli_db_commands[i].name);
    fputs(" --help\" -- \"$cur\"))\n        return\n    fi\n"
          "    if [[ $cmd == completion ]] && (( COMP_CWORD == 2 )); then\n"
          "        COMPREPLY=($(compgen -W \"bash zsh\" -- \"$cur\"))\n        return\n    fi\n"
          "    case \"$where\" in\n",
          f);
    bash_case_arms(f, cli_commands, cli_ncommands, "        ");
    for (int i = 0; i < cli_ndb_commands; i++) {
        char words[1024];
        fprintf(f, "        \"db %s\") opts=\"%s\";;\n", cli_db_commands[i].name,
                option_words(cli_db_commands[i].opts, words, sizeof words));
    }
    fputs("    esac\n"
          "    (( COMP_CWORD == 1 )) && opts+=\" --version\"\n"
          "    [[ $cmd == db && ( $sub == import ) ]] && [[ $cur != -* ]] && COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "    [[ $cur == -* || -z $cur ]] && COMPREPLY+=($(compgen -W \"$opts\" -- \"$cur\"))\n"
          "}\n"
          "complete -F _convtune convtune\n",
          f);
}

/* ------------------------------------------------------------------------ */
/* zsh                                                                      */

/* s with the characters that end or break a zsh description dropped
 * (brackets, quotes, backslashes, and colons too where colon, as in
 * _describe's NAME:TEXT). */
static const char *zsh_text(const char *s, int colon, char *buf, size_t len)
{
    size_t o = 0;
    for (; *s && o + 1 < len; s++)
        if (!strchr("[]'\\\"`$", *s) && !(colon && *s == ':'))
            buf[o++] = *s;
    buf[o] = '\0';
    return buf;
}

/* The _arguments specs of the options of cmd (where: the name the value
 * table knows it by), one per line. */
static void zsh_specs(FILE *f, unsigned long mask, unsigned long repeats, const char *where)
{
    cli_opt_info oi;
    for (int i = 0; opt_info(i, &oi); i++) {
        if (!((mask | OPT(HELP)) & (1UL << oi.bit)))
            continue;
        char help[256], vals[512], action[600];
        zsh_text(oi.help, 0, help, sizeof help);
        const char *v = oi.meta ? option_values(oi.bit, where, vals, sizeof vals) : NULL;
        int path = option_path(oi.bit);
        if (!oi.meta)
            action[0] = '\0';
        else if (path)
            snprintf(action, sizeof action, ":%s:%s", oi.meta, path == 2 ? "_files -/" : "_files");
        else if (v)
            snprintf(action, sizeof action, ":%s:(%s)", oi.meta, v);
        else
            snprintf(action, sizeof action, ":%s: ", oi.meta);
        const char *rep = oi.bit == OPT_PARAM || (repeats & (1UL << oi.bit)) ? "*" : "";
        for (int k = 0; k < 2; k++) {
            const char *name = k ? oi.alias : oi.name;
            if (name)
                fprintf(f, "        '%s%s[%s]%s' \\\n", rep, name, help, action);
        }
    }
}

static void completion_zsh(FILE *f)
{
    char s[256];
    fputs("#compdef convtune\n"
          "# zsh completion for convtune; generated by `convtune completion zsh` from the tables\n"
          "# of its --help. Install it as _convtune in a folder of $fpath.\n"
          "_convtune() {\n"
          "    local -a cmds subs\n"
          "    cmds=(\n",
          f);
    for (int i = 0; i < cli_ncommands; i++)
        fprintf(f, "        '%s:%s'\n", cli_commands[i].name, zsh_text(cli_commands[i].summary, 1, s, sizeof s));
    fputs("        'db:move records between databases, or check one'\n        'help:the general usage'\n    )\n"
          "    subs=(\n",
          f);
    for (int i = 0; i < cli_ndb_commands; i++)
        fprintf(f, "        '%s:%s'\n", cli_db_commands[i].name, zsh_text(cli_db_commands[i].summary, 1, s, sizeof s));
    fputs("    )\n"
          "    local cmd=tune\n"
          "    if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then\n"
          "        _describe -t commands 'convtune command' cmds\n        return\n    fi\n"
          "    if [[ $words[2] != -* ]]; then\n"
          "        cmd=$words[2]\n        shift words\n        (( CURRENT-- ))\n    fi\n"
          "    if [[ $cmd == db ]]; then\n"
          "        if (( CURRENT == 2 )); then\n"
          "            _describe -t commands 'db subcommand' subs\n            return\n        fi\n"
          "        cmd=\"db $words[2]\"\n        shift words\n        (( CURRENT-- ))\n    fi\n"
          "    case $cmd in\n",
          f);
    for (int c = 0; c < cli_ncommands + cli_ndb_commands; c++) {
        const cli_command *cc = c < cli_ncommands ? &cli_commands[c] : &cli_db_commands[c - cli_ncommands];
        char where[64];
        snprintf(where, sizeof where, "%s%s", c < cli_ncommands ? "" : "db ", cc->name);
        fprintf(f, "    '%s')\n        _arguments \\\n", where);
        zsh_specs(f, cc->opts, cc->repeats, where);
        if (!strcmp(where, "completion"))
            fputs("        '1:shell:(bash zsh)'\n", f);
        else if (!strcmp(where, "db import"))
            fputs("        '*:file:_files'\n", f);
        else
            fputs("        && return 0\n", f);
        fputs("        ;;\n", f);
    }
    fputs("    esac\n}\n_convtune \"$@\"\n", f);
}

/* ------------------------------------------------------------------------ */
/* The manual page                                                          */

/* text in roff: backslashes as \e, minus signs as \-, and a line that
 * starts with a dot or quote protected by \&, in a no-fill block. */
static void roff_block(FILE *f, const char *text)
{
    fputs(".nf\n", f);
    int bol = 1;
    for (const char *c = text; *c; c++) {
        if (bol && (*c == '.' || *c == '\''))
            fputs("\\&", f);
        if (*c == '\\')
            fputs("\\e", f);
        else if (*c == '-')
            fputs("\\-", f);
        else
            fputc(*c, f);
        bol = *c == '\n';
    }
    if (!bol)
        fputc('\n', f);
    fputs(".fi\n", f);
}

/* One word in roff (minus signs escaped). */
static void roff_word(FILE *f, const char *w)
{
    for (; *w; w++)
        if (*w == '-')
            fputs("\\-", f);
        else if (*w == '\\')
            fputs("\\e", f);
        else
            fputc(*w, f);
}

static void man_page(FILE *f)
{
    fprintf(f, ".TH CONVTUNE 1 \"\" \"convtune %s\" \"User Commands\"\n", CONVTUNE_VERSION);
    fputs(".SH NAME\nconvtune \\- autotuner and code generator for CUDA convolution kernels\n"
          ".SH SYNOPSIS\n",
          f);
    roff_block(f, usage_head);
    fputs(".SH DESCRIPTION\nconvtune generates candidate kernels for a convolution problem from its templates,\n"
          "compiles them with NVRTC, verifies each against an fp64 reference, times the verified\n"
          "ones on the GPU and stores every result in SQLite; it then exports the winner as a\n"
          "standalone .cu file with a C header. space, compile and precompile need no GPU.\n"
          ".SH COMMANDS\n",
          f);
    for (int i = 0; i < cli_ncommands; i++) {
        fputs(".SS ", f);
        roff_word(f, cli_commands[i].name);
        fputc('\n', f);
        roff_block(f, cli_commands[i].usage);
    }
    for (int i = 0; i < cli_ndb_commands; i++) {
        fputs(".SS db ", f);
        roff_word(f, cli_db_commands[i].name);
        fputc('\n', f);
        roff_block(f, cli_db_commands[i].usage);
    }
    fputs(".SH OPTIONS\n", f);
    cli_opt_info oi;
    for (int i = 0; opt_info(i, &oi); i++) {
        fputs(".TP\n.B ", f);
        roff_word(f, oi.name);
        if (oi.alias) {
            fputs(", ", f);
            roff_word(f, oi.alias);
        }
        if (oi.meta) {
            fputs(" \\fI", f);
            roff_word(f, oi.meta);
            fputs("\\fR", f);
        }
        fputc('\n', f);
        roff_word(f, oi.help);
        fputs(" (", f);
        int n = 0;
        for (int c = 0; c < cli_ncommands + cli_ndb_commands; c++) {
            const cli_command *cc = c < cli_ncommands ? &cli_commands[c] : &cli_db_commands[c - cli_ncommands];
            if (!((cc->opts | OPT(HELP)) & (1UL << oi.bit)))
                continue;
            fputs(n++ ? ", " : "", f);
            if (c >= cli_ncommands)
                fputs("db ", f);
            roff_word(f, cc->name);
        }
        fputs(")\n", f);
    }
    fputs(".SH PROBLEMS\n", f);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m) {
        usage_problems(m);
        fclose(m);
        roff_block(f, text);
        free(text);
    }
    fputs(".SH EXIT STATUS\n", f);
    roff_block(f, strstr(usage_tail, "Exit codes"));
    fputs(".SH ENVIRONMENT\n.TP\n.B CONVTUNE_DB\nthe default database\n.TP\n.B CONVTUNE_CACHE\n"
          "the binary cache folder\n.TP\n.B CONVTUNE_DB_TIMEOUT\nseconds to wait for another writer\n"
          ".SH SEE ALSO\nREADME.md of the convtune source, docs/NAMING.md for the kernel names.\n",
          f);
}

/* ------------------------------------------------------------------------ */
/* The commands                                                             */

/* gen(f) to stdout, or atomically to -o FILE ("-": stdout). */
static int write_out(const args *a, const char *cmd, void (*gen)(FILE *))
{
    if (!a->out || out_is_stdout(a)) {
        gen(stdout);
        return fflush(stdout) != 0 || ferror(stdout) ? say(CT_ERR_IO, "%s: cannot write to standard output", cmd) : 0;
    }
    ct_outfile o;
    ct_err e;
    ct_status rc = ct_outfile_check(a->out, a->force, cmd, &e);
    if (rc == CT_OK)
        rc = ct_outfile_open(&o, a->out, ".convtune-help-", cmd, &e);
    if (rc != CT_OK)
        return die(rc, e.msg);
    gen(o.f);
    if ((rc = ct_outfile_close(&o, &e)) == CT_OK)
        rc = ct_outfile_commit(&o, &e);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

int cmd_completion(const args *a)
{
    if (a->npos != 1 || (strcmp(a->pos[0], "bash") && strcmp(a->pos[0], "zsh")))
        return say(CT_ERR_USAGE, "completion needs one shell: bash or zsh (convtune completion bash)");
    return write_out(a, "completion", !strcmp(a->pos[0], "bash") ? completion_bash : completion_zsh);
}

int cmd_man(const args *a)
{
    if (a->npos)
        return say(CT_ERR_USAGE, "man takes no argument ('%s')", ECHO(a->pos[0]));
    return write_out(a, "man", man_page);
}
