/* test_cli.c - the convtune command line as a user meets it: the real binary
 * (CT_BINARY) run as a child process in a fresh temporary directory, with
 * HOME and XDG_DATA_HOME pointed into it and CONVTUNE_DB unset.
 *
 * A table of bad inputs checks the exit code, that stderr is exactly one
 * line naming the problem, that stdout stays empty, and that the failing
 * command changed nothing in the temporary directory (names, sizes and
 * contents of every file). Positive rows check help, space, offline
 * compile and the query output formats on a database filled through the
 * ct_db API, including filters that look like SQL. No GPU needed. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "check.h"
#include "db.h"
#include "problem.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CT_CLI_TEST_NAME "cli"
#include "cli_common.h"

/* ------------------------------------------------------------------------ */
/* The bad-input table                                                      */

/* code 4 (no GPU) rows run only where libcuda.so.1 cannot load */

#define OKP "conv1d:1000:31"   /* a valid problem */

static const bad_row bad_rows[] = {
    /* problem strings through space --problem */
    {{"space", "--problem", "junk"}, 2, "unknown family 'junk'"},
    {{"space", "--problem", "conv1d:0:3"}, 2, "must be positive"},
    {{"space", "--problem", "conv1d:-5:3"}, 2, "must be positive"},
    {{"space", "--problem", "conv1d:99999999999999999999999:3"}, 2, "too large"},
    {{"space", "--problem", "conv1d:3e9:3"}, 2, "too large"},
    {{"space", "--problem", "conv1d:1e1000:3"}, 2, "too large"},
    {{"space", "--problem", "conv1d:1.5e0:3"}, 2, "must be an integer"},
    {{"space", "--problem", "conv1d:1e-1:3"}, 2, "must be an integer"},
    {{"space", "--problem", "conv1d:abc:3"}, 2, "must be a positive integer"},
    {{"space", "--problem", "conv1d:10:3e"}, 2, "empty exponent"},
    {{"space", "--problem", "conv1d:10:"}, 2, "is empty"},
    {{"space", "--problem", "conv1d:10:20"}, 2, "longer than N"},
    {{"space", "--problem", "conv1d:10:20:valid"}, 2, "longer than N"},
    {{"space", "--problem", "conv1d:1000"}, 2, "missing field K"},
    {{"space", "--problem", "conv1d"}, 2, "missing fields"},
    {{"space", "--problem", ""}, 2, "empty problem string"},
    {{"space", "--problem", "conv1d:1000:3:same:extra"}, 2, "too many fields"},
    {{"space", "--problem", "conv9d:64:3"}, 2, "unknown family 'conv9d'"},
    {{"space", "--problem", "conv1d:1000:3:full"}, 2, "MODE must be valid, same or right"},
    {{"space", "--problem", "conv1d:1000:3:"}, 2, "MODE must be"},
    {{"space"}, 2, "--problem SPEC is required"},
    /* the same through tune --problem: parsed before any GPU is looked for */
    {{"tune", "--problem", "junk"}, 2, "unknown family"},
    {{"tune", "--problem", "conv1d:0:3"}, 2, "must be positive"},
    {{"tune", "--problem", "conv1d:-1:3"}, 2, "must be positive"},
    {{"tune", "--problem", "conv1d:1e30:3"}, 2, "too large"},
    {{"tune", "--problem", "conv1d:1.5e0:3"}, 2, "must be an integer"},
    {{"tune", "--problem", "conv1d:10:11"}, 2, "longer than N"},
    {{"tune", "--problem", "conv1d:1000"}, 2, "missing field K"},
    {{"tune", "--problem", "conv1d:1000:3:same:x"}, 2, "too many fields"},
    {{"tune", "--problem", "fft:1000:3"}, 2, "unknown family 'fft'"},
    {{"tune", "--problem", "conv1d:1000:3:mirror"}, 2, "MODE must be"},
    {{"--problem", "conv1d:0:3"}, 2, "must be positive"},     /* implicit tune */
    {{"tune"}, 2, "--problem SPEC is required"},
    /* commands and options */
    {{"frobnicate"}, 2, "unknown command 'frobnicate'"},
    {{"space", "--problem", OKP, "--frob"}, 2, "unknown option '--frob'"},
    {{"query", "-x"}, 2, "unknown option '-x'"},
    {{"space", "--problem"}, 2, "option --problem needs a value"},
    {{"query", "--db"}, 2, "option --db needs a value"},
    {{"compile", "--problem", OKP, "--arch", "sm_90", "--param"}, 2, "option --param needs a value"},
    {{"tune", "--problem", OKP, "--gpu"}, 2, "option --gpu needs a value"},
    {{"tune", "--problem", OKP, "--gpu", "-1"}, 2, "--gpu: bad value '-1'"},
    {{"tune", "--problem", OKP, "--gpu", "abc"}, 2, "--gpu: bad value 'abc'"},
    {{"tune", "--problem", OKP, "--gpu", "1024"}, 2, "--gpu: bad value '1024'"},
    {{"tune", "--problem", OKP, "--seed", "0"}, 2, "--seed: bad value '0'"},
    {{"tune", "--problem", OKP, "--max-candidates", "1x"}, 2, "--max-candidates: bad value"},
    /* compile */
    {{"compile", "--problem", OKP}, 2, "compile needs --arch"},
    {{"compile", "--problem", OKP, "--arch", "sm_7"}, 2, "sm_7"},
    {{"compile", "--problem", OKP, "--arch", "gfx90a"}, 2, "gfx90a"},
    {{"space", "--problem", OKP, "--arch", "gfx90a"}, 2, "gfx90a"},
    {{"compile", "--problem", OKP, "--arch", "sm_90", "--param", "NOPE=1"}, 2, "--param NOPE=1"},
    {{"compile", "--problem", OKP, "--arch", "sm_90", "--param", "VEC_WIDTH"}, 2, "expected NAME=VALUE"},
    {{"compile", "--problem", OKP, "--arch", "sm_90", "--param", "MASK_PLACEMENT=texture"}, 2,
     "bad value 'texture'"},
    {{"compile", "--problem", OKP, "--arch", "sm_90", "--param", "KCHUNK=12abc"}, 2, "bad value '12abc'"},
    {{"compile", "--problem", OKP, "--arch", "sm_90", "--param", "VEC_WIDTH=4", "--param",
      "OUTPUTS_PER_THREAD=6"}, 2, "OUTPUTS_PER_THREAD=6"},
    {{"compile", "--problem", OKP, "--arch", "sm_90", "--param", "BLOCK_SIZE=100"}, 2, "BLOCK_SIZE=100"},
    {{"compile", "--problem", OKP, "--arch", "sm_90", "--template", "conv1d_wino"}, 2, "no template 'conv1d_wino'"},
    {{"compile", "--problem", OKP, "--arch", "sm_90", "--template", "conv1d_naive", "--param",
      "MASK_PLACEMENT=shared"}, 2, "a parameter of conv1d_naive"},
    {{"compile", "--problem", OKP, "--arch", "sm_90", "-o", "{W}/nodir/x.cubin"}, 7, "compile: directory {W}/nodir does not exist"},
    /* configuration files */
    {{"space", "--problem", OKP, "--config", "missing.ini"}, 3, "missing.ini"},
    {{"space", "--problem", OKP, "--config", "{W}/malformed.ini"}, 3, "{W}/malformed.ini:3: malformed line"},
    {{"space", "--problem", OKP, "--config", "{W}/unknown_key.ini"}, 3, "{W}/unknown_key.ini:2: [measure]: unknown key 'nope'"},
    {{"space", "--problem", OKP, "--config", "{W}/bad_value.ini"}, 3, "{W}/bad_value.ini:3: [measure] warmup: bad value 'lots'"},
    {{"space", "--problem", OKP, "--config", "{W}/unknown_section.ini"}, 3, "{W}/unknown_section.ini:1: unknown section [bogus]"},
    {{"space", "--problem", OKP, "--config", "{W}/unknown_template.ini"}, 3, "{W}/unknown_template.ini:1: unknown template"},
    {{"space", "--problem", OKP, "--config", "{W}/bad_list.ini"}, 3, "{W}/bad_list.ini:3: [space.conv1d_tiled] parameter VEC_WIDTH: bad value 'wide'"},
    {{"space", "--problem", OKP, "--config", "{W}/unknown_param.ini"}, 3, "{W}/unknown_param.ini:2: [space.conv1d_tiled]: unknown parameter 'NOPE'"},
    {{"tune", "--problem", OKP, "--config", "{W}/bad_value.ini"}, 3, "{W}/bad_value.ini:3:"},
    {{"export", "--problem", OKP, "--config", "{W}/unknown_key.ini"}, 3, "{W}/unknown_key.ini:2:"},
    /* query / export and the database */
    {{"query", "--format", "xml"}, 2, "unknown output format 'xml'"},
    {{"query", "--format", "JSON"}, 2, "unknown output format 'JSON'"},
    {{"query", "--problem", "conv1d:0:1"}, 2, "must be positive"},
    {{"query", "--db", "{W}/missing.db"}, 6, "does not exist"},
    {{"query", "--db", "{W}/no/such/dir/x.db"}, 6, "does not exist"},
    {{"export", "--problem", OKP, "--db", "{W}/missing.db"}, 6, "does not exist"},
    {{"query"}, 6, "{W}/xdg/convtune/convtune.db does not exist"},   /* default path */
    {{"export", "--problem", OKP}, 6, "does not exist"},
    {{"query", "--db", "{W}/junk.db"}, 5, "not a convtune database"},
    {{"query", "--db", "{W}/junk.db", "--all", "--format", "json"}, 5, "not a convtune database"},
    {{"export", "--problem", OKP, "--db", "{W}/junk.db"}, 5, "not a convtune database"},
    {{"query", "--db", "{W}/other.db"}, 5, "not a convtune database"},
    {{"query", "--db", "{W}/home"}, 5, "is a directory"},
    {{"export", "--problem", "conv1d:3000:37:same", "--db", "{W}/empty.db"}, 6, "no verified result"},
    {{"export", "--problem", "conv1d:3000:37:same", "--db", "{W}/cli.db"}, 6, "no verified result"},
    {{"export", "--problem", "conv1d:4096:7:same", "--db", "{W}/cli.db"}, 6, "no verified result"},
    {{"export", "--problem", OKP, "--db", "{W}/cli.db", "--device", "No Such GPU"}, 6, "on that device"},
    /* no driver: only where libcuda.so.1 cannot be loaded */
    {{"tune", "--problem", "conv1d:1e6:2047"}, 4, "no NVIDIA driver"},
    {{"tune", "--problem", "conv1d:1e6:2047", "--db", "{W}/new/tuned.db"}, 4, "no NVIDIA driver"},
    /* --baseline is taken (the GPU is what is missing) */
    {{"tune", "--problem", "conv1d:1e6:2047", "--baseline", "none"}, 4, "no NVIDIA driver"},
    {{"tune", "--problem", "conv2dc:2:8:16:16:8:3:3:same", "--baseline", "cudnn"}, 4, "no NVIDIA driver"},
};

static void check_bad_rows(int have_driver)
{
    int nrows = (int)(sizeof bad_rows / sizeof bad_rows[0]), ran = 0, skipped = 0;
    for (int i = 0; i < nrows; i++) {
        if (bad_rows[i].code == 4 && have_driver) {
            skipped++;
            continue;
        }
        check_bad(&bad_rows[i]);
        ran++;
    }
    printf("bad-input rows: %d run", ran);
    if (skipped)
        printf(", %d skipped (libcuda.so.1 loads here, so 'no NVIDIA driver' cannot be checked)", skipped);
    printf("\n");
}

/* ------------------------------------------------------------------------ */
/* Positive rows                                                            */

static void check_ok(const char *const *args, const char *want_out, int dir_unchanged)
{
    char cmd[2048];
    char *before = snapshot(work);
    result r;
    run_ct(args, &r, cmd, sizeof cmd);
    char *after = snapshot(work);
    CHECK_MSG(r.code == 0, "%s: exit %d; stderr: %s", cmd, r.code, r.err);
    CHECK_MSG(r.outlen > 0, "%s: empty stdout", cmd);
    CHECK_MSG(r.errlen == 0, "%s: stderr not empty: %s", cmd, r.err);
    if (want_out)
        CHECK_MSG(strstr(r.out, want_out) != NULL, "%s: stdout lacks [%s]:\n%s", cmd, want_out, r.out);
    if (dir_unchanged)
        CHECK_MSG(!strcmp(before, after), "%s: the directory changed:\n--- before\n%s--- after\n%s", cmd,
                  before, after);
    free(before);
    free(after);
    result_free(&r);
}

static void check_help_and_space(void)
{
    static const char *const helps[][4] = {
        {"--help"}, {"-h"}, {"--version"}, {"help"}, {"tune", "--help"}, {"space", "--help"},
        {"compile", "--help"}, {"query", "--help"}, {"export", "--help"}, {"query", "-h"},
    };
    static const char *const want[] = {
        "Exit codes", "Exit codes", "convtune ", "Exit codes", "usage: convtune [tune]",
        "usage: convtune space", "usage: convtune compile", "usage: convtune query",
        "usage: convtune export", "usage: convtune query",
    };
    for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++)
        check_ok(helps[i], want[i], 1);
    /* The usage text comes from the registry: every family's grammar. */
    for (const ct_family *const *f = ct_families(); *f; f++)
        check_ok((const char *const[]){"--help", NULL}, (*f)->grammar, 1);
    check_ok((const char *const[]){"space", "--problem", "conv1d:1e6:2047", NULL}, "admissible", 1);
    check_ok((const char *const[]){"space", "--problem", "conv1d:1e6:2047", NULL},
             "problem conv1d:1000000:2047:valid", 1);
    check_ok((const char *const[]){"space", "--problem", "conv1d:4096:7:same", "--arch", "sm_75", NULL},
             "on sm_75", 1);
    check_ok((const char *const[]){"space", "--problem", "conv1d:1000:31:puzzle", "--template",
                                   "conv1d_naive", "--list", NULL},
             "conv1d_naive BLOCK_SIZE=", 1);
    /* a valid user config is accepted and its lists are used */
    check_ok((const char *const[]){"space", "--problem", OKP, "--config", "{W}/good.ini", NULL},
             "64, 96", 1);
}

static void check_compile(void)
{
    char path[700];
    size_t n = 0;
    char *data;

    snprintf(path, sizeof path, "%s/out.cubin", work);
    check_ok((const char *const[]){"compile", "--problem", OKP, "--arch", "sm_75", "-o", "{W}/out.cubin", NULL},
             "out.cubin", 0);
    data = slurp(path, &n);
    CHECK_MSG(data && n > 64 && !memcmp(data, "\x7f" "ELF", 4), "%s is not an ELF file", path);
    free(data);
    unlink(path);

    snprintf(path, sizeof path, "%s/out.ptx", work);
    check_ok((const char *const[]){"compile", "--problem", OKP, "--arch", "compute_90", "--param",
                                   "MASK_PLACEMENT=shared", "-o", "{W}/out.ptx", NULL},
             "MASK_PLACEMENT=shared,", 0);
    data = slurp(path, &n);
    CHECK_MSG(data && n == strlen(data), "%s: missing or not text", path);
    CHECK_MSG(data && (strstr(data, ".target sm_90") || strstr(data, ".version")), "%s: not PTX", path);
    free(data);
    unlink(path);

    /* default output name, in the current directory */
    snprintf(path, sizeof path, "%s/conv1d_naive.cubin", work);
    check_ok((const char *const[]){"compile", "--problem", "conv1d:4096:7:same", "--arch", "sm_90",
                                   "--template", "conv1d_naive", NULL},
             "conv1d_naive.cubin", 0);
    data = slurp(path, &n);
    CHECK_MSG(data && n > 64 && !memcmp(data, "\x7f" "ELF", 4), "%s is not an ELF file", path);
    free(data);
    unlink(path);
}

/* ------------------------------------------------------------------------ */
/* Query on a database filled through the API                              */

#define GPU_A "Test GPU A"
#define GPU_B "Other GPU B"
#define P1 "conv1d:1000:31:valid"
#define P2 "conv1d:4096:7:same"

static ct_result mkrec(const char *tmpl, const char *params, const char *status, double us, const char *error)
{
    ct_result r;
    ct_result_init(&r);
    snprintf(r.tmpl, sizeof r.tmpl, "%s", tmpl);
    snprintf(r.template_hash, sizeof r.template_hash, "0123456789abcdef");
    snprintf(r.params_json, sizeof r.params_json, "%s", params);
    ct_result_status_parse(status, &r.status);
    snprintf(r.error, sizeof r.error, "%s", error ? error : "");
    r.median_us = us;
    r.min_us = us > 0 ? us * 0.98 : 0;
    r.max_us = us > 0 ? us * 1.03 : 0;
    r.spread = us > 0 ? 0.05 : 0;
    r.reps = us > 0 ? 20 : 0;
    r.relerr = strcmp(status, "ok") == 0 ? 1e-7 : strcmp(status, "wrong_result") == 0 ? 0.5 : -1;
    r.registers = 40;
    r.compile_ms = 12.5;
    return r;
}

static int fill_db(const char *path)
{
    ct_db *db = NULL;
    ct_err e = {""};
    long long da, db_, p1, p2, r1, r2, r3;
    ct_device_info a = {.name = GPU_A, .cc_major = 9, .cc_minor = 0, .sm_count = 132,
                        .driver_version = 13000, .nvrtc_major = 13, .fma_tflops = 50, .bandwidth_gbs = 3000};
    ct_device_info b = {.name = GPU_B, .cc_major = 8, .cc_minor = 0, .sm_count = 108,
                        .driver_version = 13000, .nvrtc_major = 13};
    int ok = ct_db_open(path, 1, &db, &e) == CT_OK &&
             ct_db_device_upsert(db, &a, &da, &e) == CT_OK &&
             ct_db_device_upsert(db, &b, &db_, &e) == CT_OK &&
             ct_db_problem_upsert(db, "conv1d", P1, 61e3, 8e3, &p1, &e) == CT_OK &&
             ct_db_problem_upsert(db, "conv1d", P2, 57e3, 33e3, &p2, &e) == CT_OK &&
             ct_db_run_begin(db, p1, da, "{\"seed\":1}", &r1, &e) == CT_OK &&
             ct_db_run_begin(db, p1, db_, NULL, &r2, &e) == CT_OK &&
             ct_db_run_begin(db, p2, da, NULL, &r3, &e) == CT_OK;
    ct_result recs[] = {
        mkrec("conv1d_tiled", "{\"BLOCK_SIZE\":128,\"OUTPUTS_PER_THREAD\":8}", "ok", 10.0, NULL),
        mkrec("conv1d_naive", "{\"BLOCK_SIZE\":256}", "ok", 20.0, NULL),
        mkrec("conv1d_tiled", "{\"BLOCK_SIZE\":64,\"OUTPUTS_PER_THREAD\":4}", "wrong_result", 5.0,
              "relative error 0.5 above tolerance"),
        mkrec("conv1d_tiled", "{\"BLOCK_SIZE\":32}", "compile_failed", 0, "NVRTC: error: boom"),
    };
    for (size_t i = 0; ok && i < sizeof recs / sizeof recs[0]; i++)
        ok = ct_db_candidate_add(db, r1, &recs[i], &e) == CT_OK;
    ct_result rb = mkrec("conv1d_naive", "{\"BLOCK_SIZE\":512}", "ok", 15.0, NULL);
    ct_result rc = mkrec("conv1d_tiled", "{\"BLOCK_SIZE\":64}", "wrong_result", 3.0, "NaN in output");
    if (ok)
        ok = ct_db_candidate_add(db, r2, &rb, &e) == CT_OK && ct_db_candidate_add(db, r3, &rc, &e) == CT_OK &&
             ct_db_run_end(db, r1, "ok", &e) == CT_OK;
    CHECK_MSG(ok, "filling %s: %s", path, e.msg);
    ct_db_close(db);
    return ok;
}

/* Rows of a table through the sqlite3 C API; -1 on error. Opened
 * read-write (a read-only connection would leave the -wal and -shm files of a
 * WAL database behind), but only read. */
static long long count_rows(const char *path, const char *table)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *s = NULL;
    char sql[128];
    long long n = -1;
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(h, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(h);
    return n;
}

static void db_counts(const char *path, long long out[4])
{
    static const char *const tables[4] = {"devices", "problems", "runs", "candidates"};
    for (int i = 0; i < 4; i++)
        out[i] = count_rows(path, tables[i]);
}

/* A strict little JSON reader: the text must be one array of objects. For
 * each object it records whether it has the keys the query output promises
 * (problem, device, template, status as strings, params as an object) and
 * its status value. Returns the number of objects, or -1 on bad JSON. Its
 * strings have the size of the reader's (JSTR): a value read is kept whole. */
#define JSTR 200
typedef struct jrow {
    int has_problem, has_device, has_template, params_object;
    char status[JSTR], problem[JSTR], tmpl[JSTR], device[JSTR];
} jrow;

typedef struct jp {
    const char *p;
    int bad;
} jp;

static void j_ws(jp *j)
{
    while (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r')
        j->p++;
}

static void j_value(jp *j, int depth, char *type);

/* A string; its decoded text (ASCII escapes only) into out when given. */
static void j_string(jp *j, char *out, size_t cap)
{
    size_t n = 0;
    if (*j->p != '"') {
        j->bad = 1;
        return;
    }
    j->p++;
    while (*j->p != '"') {
        char c = *j->p;
        if ((unsigned char)c < 0x20) {
            j->bad = 1;
            return;
        }
        if (c == '\\') {
            j->p++;
            const char *esc = strchr("\"\\/bfnrtu", *j->p);
            if (!*j->p || !esc) {
                j->bad = 1;
                return;
            }
            if (*j->p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!j->p[i] || !strchr("0123456789abcdefABCDEF", j->p[i])) {
                        j->bad = 1;
                        return;
                    }
                j->p += 4;
                c = '?';
            } else {
                c = *j->p == 'n' ? '\n' : *j->p == 't' ? '\t' : *j->p;
            }
        }
        if (out && n + 1 < cap)
            out[n++] = c;
        j->p++;
    }
    j->p++;
    if (out)
        out[n] = '\0';
}

static void j_number(jp *j)
{
    const char *s = j->p;
    if (*j->p == '-')
        j->p++;
    if (*j->p == '0')
        j->p++;
    else if (*j->p >= '1' && *j->p <= '9')
        while (*j->p >= '0' && *j->p <= '9')
            j->p++;
    else
        j->bad = 1;
    if (*j->p == '.') {
        j->p++;
        if (!(*j->p >= '0' && *j->p <= '9'))
            j->bad = 1;
        while (*j->p >= '0' && *j->p <= '9')
            j->p++;
    }
    if (*j->p == 'e' || *j->p == 'E') {
        j->p++;
        if (*j->p == '+' || *j->p == '-')
            j->p++;
        if (!(*j->p >= '0' && *j->p <= '9'))
            j->bad = 1;
        while (*j->p >= '0' && *j->p <= '9')
            j->p++;
    }
    if (j->p == s)
        j->bad = 1;
}

/* An object; when r is given, the top-level keys are recorded in it. */
static void j_object(jp *j, int depth, jrow *r)
{
    j->p++;
    j_ws(j);
    if (*j->p == '}') {
        j->p++;
        return;
    }
    for (;;) {
        char key[64] = "", type = 0, sval[JSTR] = "";
        j_ws(j);
        j_string(j, key, sizeof key);
        j_ws(j);
        if (j->bad || *j->p != ':') {
            j->bad = 1;
            return;
        }
        j->p++;
        j_ws(j);
        const char *vstart = j->p;
        j_value(j, depth + 1, &type);
        if (j->bad)
            return;
        if (r && type == 's') {
            jp again = {vstart, 0};
            j_string(&again, sval, sizeof sval);
        }
        if (r) {
            if (!strcmp(key, "problem") && type == 's') {
                r->has_problem = 1;
                snprintf(r->problem, sizeof r->problem, "%s", sval);
            } else if (!strcmp(key, "device") && type == 's') {
                r->has_device = 1;
                snprintf(r->device, sizeof r->device, "%s", sval);
            } else if (!strcmp(key, "template") && type == 's') {
                r->has_template = 1;
                snprintf(r->tmpl, sizeof r->tmpl, "%s", sval);
            } else if (!strcmp(key, "params")) {
                r->params_object = type == 'o';
            } else if (!strcmp(key, "status") && type == 's') {
                snprintf(r->status, sizeof r->status, "%s", sval);
            }
        }
        j_ws(j);
        if (*j->p == '}') {
            j->p++;
            return;
        }
        if (*j->p != ',') {
            j->bad = 1;
            return;
        }
        j->p++;
    }
}

static void j_array(jp *j, int depth, jrow *rows, int maxrows, int *nrows)
{
    j->p++;
    j_ws(j);
    if (*j->p == ']') {
        j->p++;
        return;
    }
    for (;;) {
        j_ws(j);
        if (rows && *j->p == '{') {
            jrow tmp;
            memset(&tmp, 0, sizeof tmp);
            j_object(j, depth + 1, &tmp);
            if (*nrows < maxrows)
                rows[*nrows] = tmp;
            (*nrows)++;
        } else if (rows) {
            j->bad = 1;      /* the query output is an array of objects only */
        } else {
            char t;
            j_value(j, depth + 1, &t);
        }
        if (j->bad)
            return;
        j_ws(j);
        if (*j->p == ']') {
            j->p++;
            return;
        }
        if (*j->p != ',') {
            j->bad = 1;
            return;
        }
        j->p++;
    }
}

static void j_value(jp *j, int depth, char *type)
{
    if (depth > 40) {
        j->bad = 1;
        return;
    }
    j_ws(j);
    *type = *j->p;
    switch (*j->p) {
    case '{': *type = 'o'; j_object(j, depth, NULL); break;
    case '[': *type = 'a'; j_array(j, depth, NULL, 0, NULL); break;
    case '"': *type = 's'; j_string(j, NULL, 0); break;
    case 't': *type = 'b'; if (strncmp(j->p, "true", 4)) j->bad = 1; else j->p += 4; break;
    case 'f': *type = 'b'; if (strncmp(j->p, "false", 5)) j->bad = 1; else j->p += 5; break;
    case 'n': *type = 'l'; if (strncmp(j->p, "null", 4)) j->bad = 1; else j->p += 4; break;
    default:  *type = 'n'; j_number(j); break;
    }
}

static int json_rows(const char *text, jrow *rows, int maxrows)
{
    jp j = {text, 0};
    int n = 0;
    j_ws(&j);
    if (*j.p != '[')
        return -1;
    j_array(&j, 0, rows, maxrows, &n);
    j_ws(&j);
    return j.bad || *j.p ? -1 : n;
}

/* Run a query that must succeed without touching the directory; returns
 * its stdout (malloc'd). */
static char *query_ok(const char *const *args, const char *cmd_note)
{
    char cmd[2048];
    char *before = snapshot(work);
    result r;
    run_ct(args, &r, cmd, sizeof cmd);
    char *after = snapshot(work);
    CHECK_MSG(r.code == 0, "%s: exit %d; stderr: %s", cmd, r.code, r.err);
    CHECK_MSG(r.errlen == 0, "%s: stderr not empty: %s", cmd, r.err);
    CHECK_MSG(!strcmp(before, after), "%s (%s): the directory changed:\n--- before\n%s--- after\n%s", cmd,
              cmd_note, before, after);
    free(before);
    free(after);
    char *out = r.out;
    r.out = NULL;
    result_free(&r);
    return out;
}

static void check_query(void)
{
    char dbpath[700];
    snprintf(dbpath, sizeof dbpath, "%s/cli.db", work);
    long long c0[4], c1[4];
    db_counts(dbpath, c0);
    CHECK(c0[0] == 2 && c0[1] == 2 && c0[2] == 3 && c0[3] == 6);

    /* Filters that look like SQL are values, never SQL: no rows (exit 6,
     * one line saying nothing matched, nothing on stdout), no change. */
    static const char *const hostile[][2] = {
        {"--device", "x' OR '1'='1"},
        {"--device", "x\" OR \"1\"=\"1"},
        {"--device", "'; DROP TABLE candidates; --"},
        {"--device", "%"},
        {"--device", "_"},
        {"--device", "GPU A' --"},
    };
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++)
        for (int all = 0; all < 2; all++)
            check_bad(&(bad_row){{"query", "--db", "{W}/cli.db", hostile[i][0], hostile[i][1], "--format", "json",
                                  all ? "--all" : "--winners"},
                                 6, "nothing stored matches --device"});
    db_counts(dbpath, c1);
    CHECK_MSG(!memcmp(c0, c1, sizeof c0), "row counts changed: %lld %lld %lld %lld -> %lld %lld %lld %lld",
              c0[0], c0[1], c0[2], c0[3], c1[0], c1[1], c1[2], c1[3]);

    /* JSON: winners only by default, one per (problem, device) with an ok one */
    jrow rows[16];
    char *out = query_ok((const char *const[]){"query", "--db", "{W}/cli.db", "--format", "json", NULL}, "json");
    int n = json_rows(out, rows, 16);
    CHECK_MSG(n == 2, "json winners: %d rows (expected 2):\n%s", n, out);
    for (int i = 0; i < n && i < 16; i++) {
        CHECK(rows[i].has_problem && rows[i].has_device && rows[i].has_template && rows[i].params_object);
        CHECK_STR(rows[i].status, "ok");
        CHECK_STR(rows[i].problem, P1);
    }
    if (n == 2) {
        /* sorted by device name: "Other GPU B" before "Test GPU A" */
        CHECK_STR(rows[0].device, GPU_B);
        CHECK_STR(rows[0].tmpl, "conv1d_naive");
        CHECK_STR(rows[1].device, GPU_A);
        CHECK_STR(rows[1].tmpl, "conv1d_tiled");   /* the 10 us one, not the 5 us wrong result */
    }
    CHECK(!strstr(out, "wrong_result") && !strstr(out, "compile_failed"));
    free(out);

    /* --all: every candidate, failed ones with their error */
    out = query_ok((const char *const[]){"query", "--db", "{W}/cli.db", "--all", "--format", "json", NULL}, "all");
    n = json_rows(out, rows, 16);
    CHECK_MSG(n == 6, "json --all: %d rows (expected 6):\n%s", n, out);
    int nok = 0, nwrong = 0, nfailed = 0;
    for (int i = 0; i < n && i < 16; i++) {
        CHECK(rows[i].has_problem && rows[i].has_device && rows[i].has_template && rows[i].params_object);
        nok += !strcmp(rows[i].status, "ok");
        nwrong += !strcmp(rows[i].status, "wrong_result");
        nfailed += !strcmp(rows[i].status, "compile_failed");
    }
    CHECK(nok == 3 && nwrong == 2 && nfailed == 1);
    CHECK(strstr(out, "NVRTC: error: boom") != NULL);
    free(out);

    /* filters that do match */
    out = query_ok((const char *const[]){"query", "--db", "{W}/cli.db", "--device", "other gpu", "--format",
                                         "json", NULL}, "device substring");
    n = json_rows(out, rows, 16);
    CHECK_MSG(n == 1 && !strcmp(rows[0].device, GPU_B), "--device 'other gpu': %s", out);
    free(out);
    out = query_ok((const char *const[]){"query", "--db", "{W}/cli.db", "--problem", "conv1d:4096:7:same",
                                         "--all", "--format", "json", NULL}, "problem");
    n = json_rows(out, rows, 16);
    CHECK_MSG(n == 1 && !strcmp(rows[0].status, "wrong_result"), "--problem P2 --all: %s", out);
    free(out);
    /* P2 has no winner: "nothing stored matches", exit 6 (a bad_rows row) */
    out = query_ok((const char *const[]){"query", "--db", "{W}/cli.db", "--problem", "conv1d:1e3:31",
                                         "--format", "json", "--family", "conv1d", NULL}, "problem sci");
    CHECK_MSG(json_rows(out, rows, 16) == 2, "--problem conv1d:1e3:31: %s", out);
    free(out);

    /* CSV: a header and one line per winner */
    out = query_ok((const char *const[]){"query", "--db", "{W}/cli.db", "--format", "csv", NULL}, "csv");
    CHECK_MSG(!strncmp(out, "problem,device,arch,template,params,status,median_us,", 53), "csv header: %s", out);
    CHECK_MSG(count_char(out, strlen(out), '\n') == 3, "csv: expected header + 2 lines:\n%s", out);
    CHECK(strstr(out, "\n" P1 "," GPU_B ",sm_80,conv1d_naive,\"{\"\"BLOCK_SIZE\"\":512}\",ok,15,") != NULL);
    CHECK(strstr(out, "\n" P1 "," GPU_A ",sm_90,conv1d_tiled,") != NULL);
    free(out);
    out = query_ok((const char *const[]){"query", "--db", "{W}/cli.db", "--format", "csv", "--all", NULL}, "csv all");
    CHECK_MSG(count_char(out, strlen(out), '\n') == 7, "csv --all: expected header + 6 lines:\n%s", out);
    CHECK(strstr(out, ",wrong_result,") != NULL);
    free(out);

    /* table (the default format): the rows, then a blank line, the legend
     * of the ratios and one line for the pairs without a cuDNN baseline
     * (none is stored here). */
    out = query_ok((const char *const[]){"query", "--db", "{W}/cli.db", NULL}, "table");
    CHECK_MSG(!strncmp(out, "problem", 7) && count_char(out, strlen(out), '\n') == 3 + 3 && strstr(out, GPU_A) &&
              !strstr(out, "wrong_result") &&
              strstr(out, "\n\nvs_cuDNN: ") &&
              strstr(out, "\ncuDNN_us none: no cuDNN baseline stored (2 of the 2 problem/device pairs above)\n"),
              "table:\n%s", out);
    free(out);
    out = query_ok((const char *const[]){"query", "--db", "{W}/cli.db", "--all", NULL}, "table all");
    CHECK_MSG(count_char(out, strlen(out), '\n') == 7 + 3 && strstr(out, "wrong_result") &&
              strstr(out, "compile_failed") &&
              strstr(out, "\ncuDNN_us none: no cuDNN baseline stored (3 of the 3 problem/device pairs above)\n"),
              "table --all:\n%s", out);
    free(out);

    db_counts(dbpath, c1);
    CHECK(!memcmp(c0, c1, sizeof c0));
}

/* ------------------------------------------------------------------------ */
/* Setup                                                                    */

static int setup(void)
{
    char path[700];
    if (cli_make_work() != 0)
        return -1;

    put("malformed.ini", "[measure]\nwarmup = 3\nthis line has no equals sign\n");
    put("unknown_key.ini", "[measure]\nnope = 1\n");
    put("bad_value.ini", "; a comment\n[measure]\nwarmup = lots\n");
    put("unknown_section.ini", "[bogus]\nkey = 1\n");
    put("unknown_template.ini", "[space.conv1d_wino]\nBLOCK_SIZE = 64\n");
    put("bad_list.ini", "[space.conv1d_tiled]\nBLOCK_SIZE = 64\nVEC_WIDTH = 4, wide\n");
    put("unknown_param.ini", "[space.conv1d_tiled]\nNOPE = 1\n");
    put("good.ini", "[space.conv1d_tiled]\nBLOCK_SIZE = 64, 96\n[verify]\ntolerance = 1e-4\n");

    /* junk bytes that are not a database */
    unsigned char junk[4096];
    uint32_t x = 0x12345678u;
    for (size_t i = 0; i < sizeof junk; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        junk[i] = (unsigned char)x;
    }
    snprintf(path, sizeof path, "%s/junk.db", work);
    if (write_file(path, junk, sizeof junk) != 0)
        return -1;

    /* another program's SQLite database */
    sqlite3 *h = NULL;
    snprintf(path, sizeof path, "%s/other.db", work);
    if (sqlite3_open(path, &h) != SQLITE_OK ||
        sqlite3_exec(h, "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);"
                        "INSERT INTO notes (text) VALUES ('keep me');", NULL, NULL, NULL) != SQLITE_OK) {
        sqlite3_close(h);
        return -1;
    }
    sqlite3_close(h);

    /* an empty convtune database and a filled one */
    ct_db *db = NULL;
    ct_err e = {""};
    snprintf(path, sizeof path, "%s/empty.db", work);
    if (ct_db_open(path, 1, &db, &e) != CT_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return -1;
    }
    ct_db_close(db);
    snprintf(path, sizeof path, "%s/cli.db", work);
    return fill_db(path) ? 0 : -1;
}

int main(void)
{
    if (setup() != 0)
        return cli_setup_failed();
    int have_driver = driver_loadable();
    if (have_driver)
        printf("note: libcuda.so.1 loads in this process; the 'no NVIDIA driver' rows are skipped\n");

    char *junk_before = NULL;
    size_t junk_len = 0;
    char junk_path[700];
    snprintf(junk_path, sizeof junk_path, "%s/junk.db", work);
    junk_before = slurp(junk_path, &junk_len);

    /* The run helper drops LeakSanitizer's "Unable to get registers"
     * line (tests/lib/proc.c) and nothing else around it. */
    char *const noisy[] = {(char *)"sh", (char *)"-c",
                           (char *)"printf '==7==Unable to get registers from thread 6.\\nconvtune: a\\n"
                                   "==7==Unable to get registers from thread 6, twice.\\n' >&2",
                           NULL};
    result nr;
    run_argv(noisy, &nr);
    CHECK_MSG(!strcmp(nr.err, "convtune: a\n==7==Unable to get registers from thread 6, twice.\n"), "[%s]", nr.err);
    result_free(&nr);

    check_bad_rows(have_driver);
    check_help_and_space();
    check_compile();
    check_query();

    size_t len = 0;
    char *junk_after = slurp(junk_path, &len);
    CHECK_MSG(junk_before && junk_after && len == junk_len && !memcmp(junk_before, junk_after, len),
              "junk.db changed");
    free(junk_before);
    free(junk_after);
    char path[700];
    snprintf(path, sizeof path, "%s/missing.db", work);
    CHECK(!exists(path));
    snprintf(path, sizeof path, "%s/xdg/convtune", work);
    CHECK(!exists(path));
    snprintf(path, sizeof path, "%s/generated", work);
    CHECK(!exists(path));

    tl_rm_rf(base);
    CHECK_DONE();
}
