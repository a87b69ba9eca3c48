/* test_cli_conventions.c - the conventions a user of any command line
 * expects, on the real binary (CT_BINARY) in a fresh temporary directory
 * (the helpers of test_cli.c): `-o -` is standard output where one file is
 * written and refused where a pair is; nothing named "-" is ever created.
 * No GPU: compile uses NVRTC only, report and db export read a fixture
 * database. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "check.h"
#include "db.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
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
    tl_rm_rf(base);
    CHECK_DONE();
}
