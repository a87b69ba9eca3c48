/* test_cli_conventions.c - the conventions a user of any command line
 * expects, on the real binary (CT_BINARY) in a fresh temporary directory
 * (the helpers of test_cli.c): `-o -` is standard output where one file is
 * written and refused where a pair is; nothing named "-" is ever created.
 * report refuses to print its page on a terminal (a pseudo-terminal made
 * here) without -o. An unknown command or option names the nearest known
 * one where it is a slip of the keyboard, and only then. A parameter value
 * is spelled the same everywhere: space's value lists, its --list lines
 * and compile's summary use a value's name where it has one. space
 * --format json says what the table says, for programs, and compile
 * --candidate takes a --list line as printed. The bash completion, zsh
 * completion and man page come from the tables the parser uses: each
 * command's options in the completion are exactly those it accepts. No
 * GPU: compile uses NVRTC only, report and db export read a fixture
 * database. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "check.h"
#include "db.h"
#include "json.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CT_CLI_TEST_NAME "cli_conv"
#include "cli_common.h"

#define OKP "conv1d:1000:31"

/* Run args; the result in *r, the command line in cmd. */
static void ct(result *r, char *cmd, size_t len, const char *const *args)
{
    run_ct(args, r, cmd, len);
}

/* args must exit 0 with stdout starting with head (len bytes) and holding
 * at least min bytes; nothing named "-" (or "-.h") appears. */
static void stdout_gets(const char *const *args, const char *head, size_t len, size_t min)
{
    result r;
    char cmd[2048];
    ct(&r, cmd, sizeof cmd, args);
    CHECK_MSG(r.code == 0, "%s: exit %d: %s", cmd, r.code, r.err);
    CHECK_MSG(r.outlen >= min && r.outlen >= len && !memcmp(r.out, head, len),
              "%s: stdout (%zu bytes) does not start with [%.*s]: [%.60s]", cmd, r.outlen, (int)len, head, r.out);
    char dash[700], dashh[700];
    wpath(dash, sizeof dash, "-");
    wpath(dashh, sizeof dashh, "-.h");
    CHECK_MSG(!exists(dash) && !exists(dashh), "%s: created a file named '-'", cmd);
    result_free(&r);
}

/* -o -: the one file on stdout (compile, report, db export); export, which
 * writes a pair (or a folder with --torch), refuses it before reading
 * anything. */
static void check_stdout_dash(void)
{
    stdout_gets((const char *const[]){"compile", "--problem", OKP, "--arch", "sm_90", "-o", "-", NULL}, "\177ELF",
                4, 1000);
    stdout_gets((const char *const[]){"compile", "--problem", OKP, "--arch", "compute_90", "--output", "-", NULL},
                "//", 2, 1000);
    stdout_gets((const char *const[]){"report", "--db", "{W}/report.db", "-o", "-", NULL}, "<!DOCTYPE html>", 15,
                10000);
    stdout_gets((const char *const[]){"report", "--db", "{W}/report.db", "--format", "csv", "-o", "-", NULL},
                "device,", 7, 100);
    stdout_gets((const char *const[]){"db", "export", "--db", "{W}/report.db", "-o", "-", NULL},
                "{\"format\":\"convtune-db\"", 23, 1000);
    static const bad_row bad[] = {
        {{"export", "--problem", OKP, "--db", "{W}/report.db", "-o", "-"}, 2,
         "export writes two files (FILE.cu and its header FILE.h): standard output (-o -) cannot hold them"},
        {{"export", "--family", "conv1d", "--db", "{W}/report.db", "-o", "-"}, 2, "standard output (-o -)"},
        {{"export", "--problem", OKP, "--torch", "-o", "-"}, 2, "give -o DIR"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        check_bad(&bad[i]);
}

/* convtune args with stdout on a new pseudo-terminal and stderr captured
 * into err (len bytes, NUL-terminated); the exit status, -1 when the
 * terminal could not be made. */
static int run_on_tty(const char *const *args, char *err, size_t len)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY), pe[2];
    if (master < 0 || grantpt(master) || unlockpt(master) || !ptsname(master) || pipe(pe)) {
        CHECK_MSG(0, "cannot make a pseudo-terminal: %s", strerror(errno));
        return -1;
    }
    char slave[256];
    snprintf(slave, sizeof slave, "%s", ptsname(master));
    char *argv[MAX_ARGS + 2];
    int n = 0;
    argv[n++] = (char *)CT_BINARY;
    for (int i = 0; args[i] && n <= MAX_ARGS; i++)
        argv[n++] = expand(args[i]);
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        int t = open(slave, O_RDWR | O_NOCTTY);
        if (t < 0 || dup2(t, STDOUT_FILENO) < 0 || dup2(pe[1], STDERR_FILENO) < 0 || chdir(work) != 0)
            _exit(126);
        close(pe[0]);
        close(master);
        execve(argv[0], argv, child_env);
        _exit(127);
    }
    close(pe[1]);
    /* The terminal is drained too: a binary that printed its page there
     * must fail the check, not hang on a full terminal buffer. */
    size_t got = 0;
    struct pollfd pf[2] = {{pe[0], POLLIN, 0}, {master, POLLIN, 0}};
    while (pf[0].fd >= 0 && poll(pf, 2, RUN_TIMEOUT_S * 1000) > 0) {
        char sink[4096];
        if (pf[1].revents && read(master, sink, sizeof sink) <= 0)
            pf[1].fd = -1;
        if (pf[0].revents) {
            ssize_t k = got + 1 < len ? read(pe[0], err + got, len - 1 - got) : read(pe[0], sink, sizeof sink);
            if (k <= 0)
                pf[0].fd = -1;
            else if (got + 1 < len)
                got += (size_t)k;
        }
    }
    err[got] = '\0';
    close(pe[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    close(master);
    for (int i = 1; i < n; i++)
        free(argv[i]);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* report without -o on a terminal: refused in one line naming the way out,
 * nothing written; with -o FILE it writes the file. */
static void check_report_tty(void)
{
    char err[4096];
    char *before = snapshot(work);
    int code = run_on_tty((const char *const[]){"report", "--db", "{W}/report.db", NULL}, err, sizeof err);
    char *after = snapshot(work);
    CHECK_MSG(code == 2, "report on a terminal: exit %d: %s", code, err);
    CHECK_MSG(strstr(err, "convtune: report: standard output is a terminal; pass -o FILE.html or redirect it") ==
                  err && count_char(err, strlen(err), '\n') == 1, "report on a terminal: stderr [%s]", err);
    CHECK_MSG(!strcmp(before, after), "report on a terminal changed the directory");
    free(before);
    free(after);
    code = run_on_tty((const char *const[]){"report", "--db", "{W}/report.db", "-o", "{W}/r.html", NULL}, err,
                      sizeof err);
    char path[700];
    wpath(path, sizeof path, "r.html");
    size_t n = 0;
    char *page = tl_slurp(path, &n);
    CHECK_MSG(code == 0 && page && n > 10000 && !strncmp(page, "<!DOCTYPE html>", 15),
              "report -o on a terminal: exit %d, %zu bytes: %s", code, n, err);
    free(page);
    unlink(path);
}

/* "did you mean": swapped, missing and doubled letters get the nearest
 * command, db subcommand or option of the command; a word far from all
 * of them gets none (no "did you mean" at all). */
static void check_did_you_mean(void)
{
    static const bad_row rows[] = {
        {{"qurey"}, 2, "unknown command 'qurey'; did you mean 'query'? (see convtune --help)"},
        {{"tnue", "--problem", OKP}, 2, "unknown command 'tnue'; did you mean 'tune'?"},
        {{"exportt", "--problem", OKP}, 2, "unknown command 'exportt'; did you mean 'export'?"},
        {{"spac", "--problem", OKP}, 2, "did you mean 'space'?"},
        {{"db", "exprot"}, 2, "unknown db subcommand 'exprot'; did you mean 'export'?"},
        {{"--probelm", OKP}, 2, "unknown option '--probelm'; did you mean '--problem'?"},
        {{"space", "--problme", OKP}, 2,
         "unknown option '--problme'; did you mean '--problem'? (see convtune space --help)"},
        {{"compile", "--problem", OKP, "--arch", "sm_90", "--parm", "X=1"}, 2, "did you mean '--param'?"},
        {{"query", "--fromat", "csv"}, 2, "unknown option '--fromat'; did you mean '--format'?"},
        {{"db", "export", "--fromat", "csv"}, 2, "did you mean '--format'? (see convtune db export --help)"},
        {{"export", "--problem", OKP, "--torhc"}, 2, "did you mean '--torch'?"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        check_bad(&rows[i]);
    /* far from everything: the plain refusal */
    static const char *const far[][4] = {{"frobnicate"}, {"query", "-x"}, {"space", "--zzzzzz", "1"},
                                         {"db", "vacuum"}};
    for (size_t i = 0; i < sizeof far / sizeof far[0]; i++) {
        result r;
        char cmd[512];
        ct(&r, cmd, sizeof cmd, far[i]);
        CHECK_MSG(r.code == 2 && strstr(r.err, "unknown ") && !strstr(r.err, "did you mean"),
                  "%s: exit %d: %s", cmd, r.code, r.err);
        result_free(&r);
    }
    /* an option the command does not take is not suggested for it */
    result r;
    char cmd[512];
    ct(&r, cmd, sizeof cmd, (const char *const[]){"query", "--tourch", NULL});
    CHECK_MSG(r.code == 2 && !strstr(r.err, "--torch"), "%s: %s", cmd, r.err);
    result_free(&r);
}

/* The value list space prints for template tmpl's parameter name (the
 * text between the name and "    #"), into buf; 0 when not found. */
static int space_values(const char *out, const char *tmpl, const char *name, char *buf, size_t len)
{
    char head[200];
    snprintf(head, sizeof head, "\ntemplate %s: ", tmpl);
    const char *t = strstr(out, head), *end = t ? strstr(t + 1, "\ntemplate ") : NULL;
    for (const char *l = t ? strchr(t + 1, '\n') : NULL; l && (!end || l < end); l = strchr(l + 1, '\n')) {
        const char *v = l + 1 + strspn(l + 1, " ");
        size_t nl = strlen(name);
        if (!strncmp(v, name, nl) && v[nl] == ' ') {
            v += nl + strspn(v + nl, " ");
            const char *hash = strstr(v, "    #");
            snprintf(buf, len, ", %.*s,", hash ? (int)(hash - v) : 0, v);
            return hash != NULL;
        }
    }
    return 0;
}

/* Every named value of every `space --list` line is one of the values the
 * same output lists for its parameter, spelled the same (by its name,
 * never its number), and compile's summary line spells a value
 * given by name with that name. */
static void check_one_spelling(void)
{
    result r;
    char cmd[512];
    ct(&r, cmd, sizeof cmd, (const char *const[]){"space", "--problem", OKP, "--list", NULL});
    CHECK_MSG(r.code == 0, "%s: exit %d: %s", cmd, r.code, r.err);
    int lines = 0, named = 0;
    for (char *l = strstr(r.out, "\ntotal admissible: "); l && (l = strchr(l + 1, '\n')) && l[1];) {
        char tmpl[100], pairs[1024];
        if (sscanf(l + 1, "%99s %1023s", tmpl, pairs) != 2)
            break;
        lines++;
        for (char *save = NULL, *kv = strtok_r(pairs, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(kv, '=');
            CHECK_MSG(eq != NULL, "--list line of %s: [%s] is not NAME=VALUE", tmpl, kv);
            if (!eq)
                continue;
            *eq = '\0';
            char vals[1024], want[200];
            CHECK_MSG(space_values(r.out, tmpl, kv, vals, sizeof vals), "no value list of %s %s", tmpl, kv);
            /* A named parameter (its list holds names); a number's value
             * may be normalised to the problem (KCHUNK to K), a name not. */
            if (!strpbrk(vals, "abcdefghijklmnopqrstuvwxyz"))
                continue;
            snprintf(want, sizeof want, ", %s,", eq + 1);
            CHECK_MSG(strstr(vals, want) != NULL, "%s %s=%s is not spelled as in its list [%s]", tmpl, kv, eq + 1,
                      vals);
            named += !strcmp(kv, "MASK_PLACEMENT");
        }
    }
    CHECK_MSG(lines > 100 && named > 100, "space --list: %d lines, %d with MASK_PLACEMENT", lines, named);
    result_free(&r);
    static const char *const places[] = {"constant", "shared", "global"};
    const char *place = places[(unsigned)getpid() % 3];
    char param[64], want[64];
    snprintf(param, sizeof param, "MASK_PLACEMENT=%s", place);
    snprintf(want, sizeof want, ",MASK_PLACEMENT=%s,", place);
    ct(&r, cmd, sizeof cmd, (const char *const[]){"compile", "--problem", OKP, "--arch", "compute_90", "--param",
                                                    param, "-o", "{W}/k.ptx", NULL});
    CHECK_MSG(r.code == 0 && strstr(r.out, want), "%s: exit %d: %s%s", cmd, r.code, r.out, r.err);
    result_free(&r);
    char ptx[700];
    wpath(ptx, sizeof ptx, "k.ptx");
    unlink(ptx);
}

/* space --format json (with --list) against the table of the same run:
 * the templates in order with their admissible counts, the total, each
 * parameter's values spelled as the table lists them, and the candidates
 * as the --list lines, one for one. */
static void check_space_json(void)
{
    static const char *const problems[] = {OKP, "conv2dc:4:8:16:16:8:3:3:same", "conv1dc:2:64:7:64:3:bias"};
    const char *spec = problems[(unsigned)getpid() % 3];
    result t, r;
    char cmd[512];
    ct(&t, cmd, sizeof cmd, (const char *const[]){"space", "--problem", spec, "--list", NULL});
    CHECK_MSG(t.code == 0, "%s: exit %d: %s", cmd, t.code, t.err);
    ct(&r, cmd, sizeof cmd, (const char *const[]){"space", "--problem", spec, "--list", "--format", "json", NULL});
    CHECK_MSG(r.code == 0, "%s: exit %d: %s", cmd, r.code, r.err);
    ct_json *v = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_json_parse(r.out, r.outlen, &v, &e) == CT_OK, "%s: %s", cmd, e.msg);
    const ct_json *tm = v ? ct_json_get(v, "templates") : NULL, *tot = v ? ct_json_get(v, "total_admissible") : NULL;
    const ct_json *cands = v ? ct_json_get(v, "candidates") : NULL, *prob = v ? ct_json_get(v, "problem") : NULL;
    CHECK(tm && tm->type == CT_JSON_ARRAY && tm->n > 0 && tot && tot->is_integer && cands &&
          cands->type == CT_JSON_ARRAY && (long long)cands->n == tot->integer && prob && prob->type == CT_JSON_STRING);
    if (!tm || !tot || !cands || !prob || tm->type != CT_JSON_ARRAY || cands->type != CT_JSON_ARRAY) {
        ct_json_free(v);
        result_free(&t);
        result_free(&r);
        return;
    }
    char want[2048];
    snprintf(want, sizeof want, "problem %s on sm_90: ", prob->str);
    CHECK_MSG(strstr(t.out, want) == t.out, "table starts [%.80s], JSON problem %s", t.out, prob->str);
    snprintf(want, sizeof want, "\ntotal admissible: %lld\n", tot->integer);
    CHECK_MSG(strstr(t.out, want) != NULL, "table lacks [%s]", want);
    const char *at = t.out;
    for (size_t i = 0; i < tm->n; i++) {
        const ct_json *o = tm->items[i], *name = ct_json_get(o, "name"), *adm = ct_json_get(o, "admissible");
        const ct_json *ps = ct_json_get(o, "params");
        CHECK(name && name->type == CT_JSON_STRING && adm && adm->is_integer && ps && ps->type == CT_JSON_ARRAY);
        if (!name || !adm || !ps || name->type != CT_JSON_STRING || ps->type != CT_JSON_ARRAY)
            continue;
        snprintf(want, sizeof want, "\ntemplate %s: ", name->str);
        const char *h = strstr(at, want);
        CHECK_MSG(h != NULL, "table lacks template %s (or not in this order)", name->str);
        at = h ? h + 1 : at;
        for (size_t k = 0; k < ps->n; k++) {
            const ct_json *pn = ct_json_get(ps->items[k], "name"), *vals = ct_json_get(ps->items[k], "values");
            char list[1024], one[1024] = "";
            CHECK(pn && pn->type == CT_JSON_STRING && vals && vals->type == CT_JSON_ARRAY);
            if (!pn || !vals || pn->type != CT_JSON_STRING || vals->type != CT_JSON_ARRAY)
                continue;
            for (size_t q = 0, o2 = 0; q < vals->n && o2 < sizeof one; q++) {
                const ct_json *x = vals->items[q];
                if (x->type == CT_JSON_STRING)
                    o2 += (size_t)snprintf(one + o2, sizeof one - o2, "%s%s", q ? ", " : "", x->str);
                else
                    o2 += (size_t)snprintf(one + o2, sizeof one - o2, "%s%lld", q ? ", " : "", x->integer);
            }
            CHECK_MSG(space_values(t.out, name->str, pn->str, list, sizeof list), "no list of %s", pn->str);
            snprintf(want, sizeof want, ", %s,", one);
            CHECK_MSG(!strcmp(list, want), "%s %s: JSON values [%s], table [%s]", name->str, pn->str, one, list);
        }
        snprintf(want, sizeof want, ", admissible %lld\n", adm->integer);
        const char *next = strstr(at, "\ntemplate ");
        const char *cnt = strstr(at, want);
        CHECK_MSG(cnt && (!next || cnt < next), "%s: table lacks [%s]", name->str, want);
    }
    /* the candidates, in the order of the --list lines */
    const char *line = strstr(t.out, "\ntotal admissible: ");
    line = line ? strchr(line + 1, '\n') : NULL;
    for (size_t i = 0; line && i < cands->n; i++) {
        const ct_json *c = cands->items[i], *tn = ct_json_get(c, "template"), *pp = ct_json_get(c, "params");
        if (!tn || !pp || tn->type != CT_JSON_STRING || pp->type != CT_JSON_OBJECT) {
            CHECK_MSG(0, "candidate %zu malformed", i);
            break;
        }
        size_t o = (size_t)snprintf(want, sizeof want, "\n%s ", tn->str);
        for (size_t k = 0; k < pp->n && o < sizeof want; k++) {
            const ct_json *x = pp->items[k];
            if (x->type == CT_JSON_STRING)
                o += (size_t)snprintf(want + o, sizeof want - o, "%s%s=%s", k ? "," : "", pp->keys[k], x->str);
            else
                o += (size_t)snprintf(want + o, sizeof want - o, "%s%s=%lld", k ? "," : "", pp->keys[k], x->integer);
        }
        snprintf(want + o, sizeof want - o, "\n");
        CHECK_MSG(!strncmp(line, want, strlen(want)), "candidate %zu: JSON %s, table %.200s", i, want, line);
        line = strchr(line + 1, '\n');
    }
    ct_json_free(v);
    result_free(&t);
    result_free(&r);
    static const bad_row bad[] = {
        {{"space", "--problem", OKP, "--format", "csv"}, 2, "space: --format must be table or json, not 'csv'"},
    };
    check_bad(&bad[0]);
}

/* compile --candidate LINE, LINE a random `space --list` line: the
 * summary names the candidate as the line did, as --template and --param
 * spelled out do. The refusals: a pair without '=', with
 * --template or --param, an unknown template, an empty line. */
static void check_candidate_line(void)
{
    result r;
    char cmd[512];
    ct(&r, cmd, sizeof cmd, (const char *const[]){"space", "--problem", OKP, "--template", "conv1d_tiled", "--list",
                                                    NULL});
    CHECK_MSG(r.code == 0, "%s: exit %d: %s", cmd, r.code, r.err);
    int n = 0;
    for (const char *l = strstr(r.out, "\nconv1d_tiled "); l; l = strstr(l + 1, "\nconv1d_tiled "))
        n++;
    CHECK(n > 100);
    const char *l = strstr(r.out, "\nconv1d_tiled ");
    for (int k = n ? (int)((unsigned)getpid() % (unsigned)n) : 0; l && k > 0; k--)
        l = strstr(l + 1, "\nconv1d_tiled ");
    char line[1024] = "";
    if (l)
        snprintf(line, sizeof line, "%.*s", (int)strcspn(l + 1, "\n"), l + 1);
    result_free(&r);
    CHECK(line[0]);
    ct(&r, cmd, sizeof cmd, (const char *const[]){"compile", "--problem", OKP, "--arch", "compute_90", "--candidate",
                                                    line, "-o", "{W}/a.ptx", NULL});
    char want[1200];
    snprintf(want, sizeof want, "a.ptx: %s for compute_90, ", line);
    CHECK_MSG(r.code == 0 && strstr(r.out, want), "%s: exit %d: [%s] lacks [%s]; %s", cmd, r.code, r.out, want, r.err);
    result_free(&r);
    /* the same candidate spelled with --template and --param (more
     * arguments than run_ct takes: the argv is built here) */
    char pb[700];
    wpath(pb, sizeof pb, "b.ptx");
    char *argv[64] = {(char *)CT_BINARY, "compile", "--problem", OKP, "--arch", "compute_90", "--template",
                      "conv1d_tiled", "-o", pb};
    int na = 10;
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", strchr(line, ' ') ? strchr(line, ' ') + 1 : "");
    for (char *save = NULL, *kv = strtok_r(copy, ",", &save); kv && na + 3 < 64; kv = strtok_r(NULL, ",", &save)) {
        argv[na++] = "--param";
        argv[na++] = kv;
    }
    argv[na] = NULL;
    CHECK(na > 20);
    run_argv(argv, &r);
    snprintf(want, sizeof want, "b.ptx: %s for compute_90, ", line);
    CHECK_MSG(r.code == 0 && strstr(r.out, want), "compile --template --param: exit %d: [%s] lacks [%s]; %s", r.code,
              r.out, want, r.err);
    result_free(&r);
    /* Both wrote PTX (not compared byte for byte: NVRTC may number the
     * virtual registers of one input differently from run to run). */
    char pa[700];
    wpath(pa, sizeof pa, "a.ptx");
    size_t na_ = 0, nb = 0;
    char *ta = tl_slurp(pa, &na_), *tb = tl_slurp(pb, &nb);
    CHECK_MSG(ta && tb && na_ > 1000 && nb > 1000 && strstr(ta, ".entry") && strstr(tb, ".entry"),
              "--candidate or --param wrote no PTX");
    free(ta);
    free(tb);
    unlink(pa);
    unlink(pb);
    static const bad_row bad[] = {
        {{"compile", "--problem", OKP, "--arch", "sm_90", "--candidate", "conv1d_tiled BLOCK_SIZE"}, 2,
         "--candidate BLOCK_SIZE: expected NAME=VALUE with NAME a parameter of conv1d_tiled"},
        {{"compile", "--problem", OKP, "--arch", "sm_90", "--candidate", "conv1d_tiled BLOCK_SIZE=64", "--template",
          "conv1d_tiled"}, 2, "give it without --template and --param"},
        {{"compile", "--problem", OKP, "--arch", "sm_90", "--candidate", "conv1d_nope BLOCK_SIZE=64"}, 2,
         "family conv1d has no template 'conv1d_nope'"},
        {{"compile", "--problem", OKP, "--arch", "sm_90", "--candidate", " "}, 2, "--candidate: empty"},
        {{"compile", "--problem", OKP, "--arch", "sm_90", "--candidate", "conv1d_tiled MASK_PLACEMENT=texture"}, 2,
         "bad value 'texture'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        check_bad(&bad[i]);
}

/* A tool run in the work directory: argv, captured. */
static void run_tool(char *const *argv, result *r)
{
    run_argv(argv, r);
}

/* The names of the options the man page lists (".B \-\-name, \-alias
 * \fIMETA\fR"), each with whether it takes a value, into names/valued;
 * their count. */
static int man_options(const char *man, char names[][32], int *valued, int max)
{
    int n = 0;
    const char *o = strstr(man, ".SH OPTIONS\n"), *end = o ? strstr(o, ".SH PROBLEMS") : NULL;
    for (const char *l = o; l && l < end && n < max; l = strchr(l + 1, '\n')) {
        if (strncmp(l, "\n.B ", 4))
            continue;
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(l + 4, "\n"), l + 4);
        const int v = strstr(line, "\\fI") != NULL;
        /* every spelling: "\-\-budget, \-\-max\-candidates \fIN\fR" */
        for (char *save = NULL, *w = strtok_r(line, ", ", &save); w && n < max; w = strtok_r(NULL, ", ", &save)) {
            if (!strncmp(w, "\\fI", 3))
                break;
            size_t k = 0;
            for (const char *c = w; *c && k + 1 < sizeof names[0]; c++)
                if (*c != '\\')
                    names[n][k++] = *c;
            names[n][k] = '\0';
            valued[n++] = v;
        }
    }
    return n;
}

/* completion bash and zsh, man: well-formed, and the options of each
 * command in the bash script are exactly those the command accepts (every
 * option the man page lists is tried on every command: refused with "does
 * not take" exactly when the script leaves it out). */
static void check_completion_man(void)
{
    result r;
    char cmd[512];
    ct(&r, cmd, sizeof cmd, (const char *const[]){"completion", "bash", "-o", "{W}/c.bash", NULL});
    CHECK_MSG(r.code == 0 && r.outlen == 0, "%s: exit %d: %s", cmd, r.code, r.err);
    result_free(&r);
    char script[700];
    wpath(script, sizeof script, "c.bash");
    char *bash = tl_slurp(script, NULL);
    CHECK(bash && strstr(bash, "complete -F _convtune convtune\n"));
    run_tool((char *const[]){"bash", "-n", script, NULL}, &r);
    CHECK_MSG(r.code == 0, "bash -n on the completion: %s", r.err);
    result_free(&r);
    /* what bash offers, as a user's TAB would */
    static const struct {
        const char *words, *want;
    } tabs[] = {
        {"convtune qu", "query"},
        {"convtune spac", "space"},
        {"convtune space --form", "--format"},
        {"convtune space --format ''", "table json"},
        {"convtune report --format ''", "html csv"},
        {"convtune db ex", "export"},
        {"convtune db export --fo", "--force --format"},
        {"convtune compile --cand", "--candidate"},
        {"convtune export --dtype b", "bf16"},
        {"convtune --prob", "--problem --problems"},
        {"convtune completion ''", "bash zsh"},
    };
    for (size_t i = 0; i < sizeof tabs / sizeof tabs[0]; i++) {
        char prog[1200];
        snprintf(prog, sizeof prog, "source '%s'; COMP_WORDS=(%s); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); "
                 "_convtune; echo \"${COMPREPLY[*]}\"", script, tabs[i].words);
        run_tool((char *const[]){"bash", "-c", prog, NULL}, &r);
        char want[200];
        snprintf(want, sizeof want, "%s\n", tabs[i].want);
        CHECK_MSG(r.code == 0 && !strcmp(r.out, want), "TAB after [%s]: [%s], expected [%s] %s", tabs[i].words,
                  r.out, tabs[i].want, r.err);
        result_free(&r);
    }
    /* the man page */
    ct(&r, cmd, sizeof cmd, (const char *const[]){"man", NULL});
    CHECK_MSG(r.code == 0 && !strncmp(r.out, ".TH CONVTUNE 1 ", 15) && strstr(r.out, "\n.SH EXIT STATUS\n") &&
                  strstr(r.out, "\n.SS db export\n"), "%s: exit %d: %.100s %s", cmd, r.code, r.out, r.err);
    char *man = strdup(r.out);
    result_free(&r);
    static char names[128][32];
    static int valued[128];
    const int nopt = man ? man_options(man, names, valued, 128) : 0;
    CHECK_MSG(nopt > 30, "the man page lists %d options", nopt);
    char groff[600];
    if (man && tl_which("groff", groff, sizeof groff)) {
        char page[700];
        wpath(page, sizeof page, "convtune.1");
        put("convtune.1", man);
        run_tool((char *const[]){groff, "-man", "-Tutf8", "-ww", "-z", page, NULL}, &r);
        CHECK_MSG(r.code == 0 && r.errlen == 0, "groff warns on the man page: %s", r.err);
        result_free(&r);
        unlink(page);
    }
    char zsh[600];
    if (tl_which("zsh", zsh, sizeof zsh)) {
        ct(&r, cmd, sizeof cmd, (const char *const[]){"completion", "zsh", "-o", "{W}/_convtune", NULL});
        CHECK(r.code == 0);
        result_free(&r);
        char z[700];
        wpath(z, sizeof z, "_convtune");
        run_tool((char *const[]){zsh, "-n", z, NULL}, &r);
        CHECK_MSG(r.code == 0, "zsh -n on the completion: %s", r.err);
        result_free(&r);
        unlink(z);
    }
    /* every command's arm: NAME) opts="..."; against what it accepts */
    int arms = 0;
    for (const char *a = bash ? strstr(bash, "    case \"$where\" in\n        tune)") : NULL; a;) {
        a = strchr(a, '\n');
        if (!a || strncmp(a + 1, "        ", 8) || !strstr(a, ") opts=\""))
            break;
        a += 9;
        char name[64], list[1024];
        size_t nl = strcspn(a, ")");
        snprintf(name, sizeof name, "%.*s", (int)nl, a);
        const char *q = strstr(a, "opts=\"") + 6;
        snprintf(list, sizeof list, " %.*s ", (int)strcspn(q, "\""), q);
        arms++;
        char *sub = name[0] == '"' ? name + 1 : name;   /* "db export" */
        if (sub != name)
            sub[strlen(sub) - 1] = '\0';
        char word1[64], word2[64] = "";
        if (sscanf(sub, "%63s %63s", word1, word2) < 1)
            continue;
        for (int k = 0; k < nopt; k++) {
            char spaced[4200];
            snprintf(spaced, sizeof spaced, " %s ", names[k]);
            const int listed = strstr(list, spaced) != NULL;
            const char *args[6] = {word1};
            int na = 1;
            if (word2[0])
                args[na++] = word2;
            args[na++] = names[k];
            if (valued[k])
                args[na++] = "1";
            args[na] = NULL;
            if (!strcmp(names[k], "--help") || !strcmp(names[k], "-h"))
                continue;
            /* Every pair is a run of convtune; CI's sanitizer pass
             * (CONVTUNE_TEST_SAMPLE set), where each run costs a quarter of
             * a second, checks a sixth of them, a different sixth for each
             * command (the plain pass checks all). */
            if (getenv("CONVTUNE_TEST_SAMPLE") && (k + arms) % 6 != 0)
                continue;
            ct(&r, cmd, sizeof cmd, args);
            const int refused = strstr(r.err, "does not take") != NULL;
            CHECK_MSG(refused == !listed && !strstr(r.err, "unknown option"),
                      "%s: the completion %s it, the command %s: %s", cmd, listed ? "offers" : "leaves out",
                      refused ? "refuses it" : "takes it", r.err);
            result_free(&r);
        }
    }
    CHECK_MSG(arms >= 13, "%d command arms in the bash completion", arms);
    char stray[700];
    wpath(stray, sizeof stray, "1");
    unlink(stray);
    free(man);
    free(bash);
    unlink(script);
}

/* The work directory with a copy of the report fixture, read-only in
 * every test below (a reader leaves it as it was). */
static int setup(void)
{
    if (cli_make_work() != 0)
        return -1;
    char to[700];
    size_t n = 0;
    char *db = tl_slurp(CT_SOURCE_DIR "/tests/fixtures/report.db", &n);
    wpath(to, sizeof to, "report.db");
    int ok = db && write_file(to, db, n) == 0;
    free(db);
    return ok ? 0 : -1;
}

int main(void)
{
    if (setup() != 0)
        return cli_setup_failed();
    check_stdout_dash();
    check_report_tty();
    check_did_you_mean();
    check_one_spelling();
    check_space_json();
    check_candidate_line();
    check_completion_man();
    tl_rm_rf(base);
    CHECK_DONE();
}
