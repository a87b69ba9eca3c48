/* cli_common.h - running the real convtune binary from a test: a scratch
 * directory that is HOME and XDG_DATA_HOME of the children, the binary run
 * with captured stdout and stderr and a timeout, argument templates ({W} is
 * the scratch directory), and refusals checked against snapshots of the
 * directory tree (nothing changed). The files and processes underneath are
 * the test library's (files.h, proc.h beside this header); the old names stay.
 *
 * Include once per test, after defining CT_CLI_TEST_NAME (a word used in the
 * scratch directory's name) and including check.h and the system headers
 * test_cli.c lists. */
#ifndef CT_CLI_COMMON_H
#define CT_CLI_COMMON_H

#include <dlfcn.h>

#include "files.h"
#include "proc.h"

#define CLI_UNUSED __attribute__((unused))

static char base[] = "/tmp/ct_test_" CT_CLI_TEST_NAME "_XXXXXX";
static char work[512];      /* cwd, HOME and XDG_DATA_HOME of the children */
static char **child_env;

#define RUN_TIMEOUT_S 60

typedef tl_result result;
#define result_free tl_result_free
#define slurp tl_slurp
#define write_file tl_write_file
#define exists tl_exists
#define snapshot tl_snapshot
#define count_char tl_count_char

/* What the next runs add to the child: environment entries ("NAME=value",
 * NULL-terminated, replacing child_env's of the same name), a user id to
 * switch to (when >= 0; needs root) and a file size limit in bytes (when
 * > 0, with SIGXFSZ ignored so a write fails with EFBIG as on a full disk). */
static const char *run_env[4];
static long run_uid = -1;
static long run_fsize;

/* Run argv (argv[0] a path or a name looked up in PATH) in the work
 * directory, its output captured outside it, stdin from /dev/null. */
static void run_argv(char *const *argv, result *r)
{
    static char *const no_env[] = {NULL};
    tl_run_opts o = {.cwd = work, .capdir = base, .envp = child_env ? child_env : no_env, .env = run_env,
                     .timeout_s = RUN_TIMEOUT_S, .uid = run_uid > 0 ? run_uid : 0, .fsize = run_fsize};
    tl_run(argv, &o, r);
}

/* A file name longer than any path convtune accepts (1023 characters):
 * "{L}" in an argument. */
#define LONG_NAME_LEN 1100

/* Expand "{W}" in s to the work directory and "{L}" to LONG_NAME_LEN
 * letters (malloc'd). */
static char *expand(const char *s)
{
    size_t cap = strlen(s) + 1, wl = strlen(work);
    for (const char *p = s; (p = strstr(p, "{W}")); p += 3)
        cap += wl;
    for (const char *p = s; (p = strstr(p, "{L}")); p += 3)
        cap += LONG_NAME_LEN;
    char *out = malloc(cap), *o = out;
    while (*s) {
        if (!strncmp(s, "{W}", 3)) {
            memcpy(o, work, wl);
            o += wl;
            s += 3;
        } else if (!strncmp(s, "{L}", 3)) {
            memset(o, 'L', LONG_NAME_LEN);
            o += LONG_NAME_LEN;
            s += 3;
        } else {
            *o++ = *s++;
        }
    }
    *o = '\0';
    return out;
}

#define MAX_ARGS 24

/* Run convtune with the arguments args (NULL-terminated, "{W}" expanded). */
static void run_ct(const char *const *args, result *r, char *cmdline, size_t cmdlen)
{
    char *argv[MAX_ARGS + 2];
    int n = 0;
    argv[n++] = (char *)CT_BINARY;
    size_t o = (size_t)snprintf(cmdline, cmdlen, "convtune");
    for (int i = 0; args[i] && n <= MAX_ARGS; i++) {
        argv[n++] = expand(args[i]);
        if (o < cmdlen)
            o += (size_t)snprintf(cmdline + o, cmdlen - o, " '%s'", args[i]);
    }
    argv[n] = NULL;
    run_argv(argv, r);
    for (int i = 1; i < n; i++)
        free(argv[i]);
}

/* ------------------------------------------------------------------------ */
/* The work directory and a database to work on                             */

/* base (mkdtemp), its work directory with home and xdg in it, the capture
 * files and the children's environment; -1 on failure. */
static CLI_UNUSED int cli_make_work(void)
{
    tl_workdir w;
    if (tl_workdir_make(&w, CT_CLI_TEST_NAME) != 0)
        return -1;
    /* The same template, so the same length. */
    if (strlen(w.base) >= sizeof base || strlen(w.work) >= sizeof work)
        return -1;
    memcpy(base, w.base, strlen(w.base) + 1);
    memcpy(work, w.work, strlen(w.work) + 1);
    child_env = w.env;
    return 0;
}

/* main's way out when setup failed: say so, remove what was made, exit 1. */
static CLI_UNUSED int cli_setup_failed(void)
{
    fprintf(stderr, "setup failed\n");
    if (base[strlen(base) - 1] != 'X')
        tl_rm_rf(base);
    return 1;
}

static CLI_UNUSED int wpath(char *buf, size_t len, const char *name)
{
    return tl_path(buf, len, work, name);
}

/* The work directory's file name with the text text. */
static CLI_UNUSED void put(const char *name, const char *text)
{
    char path[700];
    wpath(path, sizeof path, name);
    CHECK_MSG(write_file(path, text, strlen(text)) == 0, "cannot write %s", path);
}

/* As name, good with the n-th occurrence (1-based) of from replaced by to:
 * a file that differs from a valid one in one place. */
static CLI_UNUSED void put_variant(const char *name, const char *good, int nth, const char *from, const char *to)
{
    const char *p = good;
    for (int i = 0; p && i < nth; i++)
        p = strstr(i ? p + 1 : p, from);
    CHECK_MSG(p != NULL, "%s: occurrence %d of %s not found", name, nth, from);
    if (!p)
        return;
    size_t pre = (size_t)(p - good), fl = strlen(from), tl = strlen(to);
    char *s = malloc(strlen(good) - fl + tl + 1);
    memcpy(s, good, pre);
    memcpy(s + pre, to, tl);
    strcpy(s + pre + tl, p + fl);
    put(name, s);
    free(s);
}

/* A convtune database in the work directory with n compile_failed
 * candidates of conv1d_naive (BLOCK_SIZE 32, 64, ...: each a valid record)
 * with long error texts, through the API. */
static CLI_UNUSED int make_db(const char *name, int n)
{
    char path[700];
    ct_db *db = NULL;
    ct_err e = {""};
    ct_device_info d = {.name = "NVIDIA CLI Check GPU", .cc_major = 9, .sm_count = 132,
                        .driver_version = 13000, .nvrtc_major = 13};
    long long dev, prob, run;
    wpath(path, sizeof path, name);
    int ok = ct_db_open(path, 1, &db, &e) == CT_OK && ct_db_device_upsert(db, &d, &dev, &e) == CT_OK &&
             ct_db_problem_upsert(db, "conv1d", "conv1d:4096:31:valid", 2.5e5, 3.3e4, &prob, &e) == CT_OK &&
             ct_db_run_begin(db, prob, dev, NULL, &run, &e) == CT_OK;
    for (int i = 0; ok && i < n; i++) {
        ct_result r;
        ct_result_init(&r);
        snprintf(r.tmpl, sizeof r.tmpl, "conv1d_naive");
        snprintf(r.params_json, sizeof r.params_json, "{\"BLOCK_SIZE\":%d}", 32 * (i + 1));
        r.status = CT_RS_COMPILE_FAILED;
        for (size_t k = 0; k + 1 < sizeof r.error; k++)
            r.error[k] = (char)('a' + (i + (int)k) % 26);
        r.relerr = -1;
        ok = ct_db_candidate_add(db, run, &r, &e) == CT_OK;
    }
    CHECK_MSG(ok, "filling %s: %s", path, e.msg);
    ct_db_close(db);
    return ok ? 0 : -1;
}

/* ------------------------------------------------------------------------ */
/* Bad input                                                                */

/* Whether this process can load the driver library (then the rows that
 * expect "no NVIDIA driver" cannot be checked). */
static CLI_UNUSED int driver_loadable(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW);
    if (h) {
        dlclose(h);
        return 1;
    }
    return 0;
}

/* A command that must be refused: its exit code and a substring of the one
 * line on stderr ("{W}" expanded). */
typedef struct bad_row {
    const char *args[MAX_ARGS];
    int code;
    const char *want;
} bad_row;

/* Run one bad row: the exit code, exactly one stderr line with the
 * "convtune: " prefix naming the problem, nothing on stdout, and the work
 * directory unchanged (names, sizes, contents). */
static CLI_UNUSED void check_bad(const bad_row *rw)
{
    char cmd[4096];
    char *before = snapshot(work);
    result r;
    run_ct(rw->args, &r, cmd, sizeof cmd);
    char *after = snapshot(work);
    char *want = expand(rw->want);
    CHECK_MSG(r.code == rw->code, "%s: exit %d, expected %d; stderr: %s", cmd, r.code, rw->code, r.err);
    CHECK_MSG(r.errlen > 1 && count_char(r.err, r.errlen, '\n') == 1 && r.err[r.errlen - 1] == '\n',
              "%s: stderr is not exactly one line: [%s]", cmd, r.err);
    CHECK_MSG(strstr(r.err, want) != NULL, "%s: stderr [%s] lacks [%s]", cmd, r.err, want);
    CHECK_MSG(!strncmp(r.err, "convtune: ", 10), "%s: stderr [%s] lacks the 'convtune: ' prefix", cmd, r.err);
    CHECK_MSG(r.outlen == 0, "%s: stdout not empty: [%s]", cmd, r.out);
    CHECK_MSG(!strcmp(before, after), "%s: the directory changed:\n--- before\n%s--- after\n%s", cmd, before,
              after);
    free(want);
    free(before);
    free(after);
    result_free(&r);
}

#endif
