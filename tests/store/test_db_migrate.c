/* test_db_migrate.c - schema versions, the migration runner, and files
 * convtune must refuse without touching them: an empty version-0 file is
 * initialised; a newer user_version, a truncated database and a text file
 * are refused (CT_ERR_DB, on open or at the latest on the first query) and
 * left byte for byte as they were, with no -wal, -shm or -journal file left
 * behind. The runner is exercised on a step list of its own through
 * ct_db_migrate_steps: steps run in order, from the file's version only,
 * all or nothing. ct_db_check on good and damaged files. No GPU. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "check.h"
#include "db.h"

#include <ftw.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PROBLEM "conv1d:1000000:2047:valid"

static char tmpdir[] = "/tmp/ct_test_db_migrate_XXXXXX";

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb; (void)flag; (void)ftw;
    return remove(path);
}

static int exists(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
}

static char *in_tmp(const char *name)
{
    static char buf[4][600];
    static int k;
    char *p = buf[k++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", tmpdir, name);
    return p;
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;
    *len = 0;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)n + 1);
        if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
        *len = (size_t)n;
    }
    fclose(f);
    return buf;
}

static int write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int bad = len && fwrite(data, 1, len, f) != len;
    bad |= fclose(f) != 0;
    return bad ? -1 : 0;
}

/* No journal, WAL or shared-memory file next to path. */
static int no_side_files(const char *path)
{
    static const char *const sfx[] = { "-wal", "-shm", "-journal" };
    char side[700];
    for (int i = 0; i < 3; i++) {
        snprintf(side, sizeof side, "%s%s", path, sfx[i]);
        if (exists(side)) {
            fprintf(stderr, "left behind: %s\n", side);
            return 0;
        }
    }
    return 1;
}

/* One integer from SQL run on path through the plain SQLite API. */
static long long scalar(const char *path, const char *sql)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *s = NULL;
    long long v = -1;
    if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(h, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
        v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(h);
    return v;
}

static int exec_sql(const char *path, const char *sql)
{
    sqlite3 *h = NULL;
    int rc = sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(h, sql, NULL, NULL, NULL);
    sqlite3_close(h);
    return rc;
}

static int count_cb(const ct_result *r, void *user)
{
    (void)r;
    ++*(long long *)user;
    return 0;
}

/* A real convtune database with n candidates, long error texts included so
 * that it spans many pages. Returns 0 on success. */
static int make_db(const char *path, int n)
{
    ct_db *db = NULL;
    ct_err e = { "" };
    ct_device_info d = { .name = "NVIDIA Migration Test GPU", .cc_major = 9, .sm_count = 132,
                         .driver_version = 13000, .nvrtc_major = 13, .fma_tflops = 60 };
    long long dev, prob, run;
    int ok = ct_db_open(path, 1, &db, &e) == CT_OK &&
             ct_db_device_upsert(db, &d, &dev, &e) == CT_OK &&
             ct_db_problem_upsert(db, "conv1d", PROBLEM, 8.2e9, 8e6, &prob, &e) == CT_OK &&
             ct_db_run_begin(db, prob, dev, "{\"seed\":7}", &run, &e) == CT_OK;
    for (int i = 0; ok && i < n; i++) {
        ct_result r;
        ct_result_init(&r);
        snprintf(r.tmpl, sizeof r.tmpl, "conv1d_tiled");
        snprintf(r.template_hash, sizeof r.template_hash, "0123456789abcdef");
        snprintf(r.params_json, sizeof r.params_json, "{\"BLOCK_SIZE\":%d}", 32 + i);
        if (i % 3) {
            r.status = CT_RS_OK;
            r.median_us = 50.0 + i;
            r.relerr = 1e-7;
        } else {
            r.status = CT_RS_COMPILE_FAILED;
            r.relerr = -1;
            for (size_t k = 0; k + 1 < sizeof r.error; k++)
                r.error[k] = (char)('a' + (i + (int)k) % 26);
        }
        ok = ct_db_candidate_add(db, run, &r, &e) == CT_OK;
    }
    if (ok)
        ok = ct_db_run_end(db, run, "ok", &e) == CT_OK;
    CHECK_MSG(ok, "make_db %s: %s", path, e.msg);
    ct_db_close(db);
    return ok ? 0 : -1;
}

/* Open must be refused with CT_ERR_DB, the message containing frag (if
 * given), both with and without create; the file keeps its bytes and gets no
 * side files. */
static void expect_refused(const char *path, const char *frag)
{
    size_t len = 0, len2 = 0;
    unsigned char *before = slurp(path, &len), *after;
    CHECK_MSG(before != NULL, "cannot read %s", path);
    for (int create = 0; create <= 1; create++) {
        ct_db *db = NULL;
        ct_err e = { "" };
        ct_status st = ct_db_open(path, create, &db, &e);
        CHECK_MSG(st == CT_ERR_DB, "%s (create %d): status %d, expected %d: %s", path, create,
                  (int)st, (int)CT_ERR_DB, e.msg);
        CHECK(db == NULL);
        if (db)
            ct_db_close(db);
        CHECK_MSG(strncmp(e.msg, "DB: ", 4) == 0 && strstr(e.msg, path) != NULL,
                  "message does not name the file: %s", e.msg);
        if (frag)
            CHECK_MSG(strstr(e.msg, frag) != NULL, "message lacks '%s': %s", frag, e.msg);
    }
    after = slurp(path, &len2);
    CHECK_MSG(before && after && len == len2 && memcmp(before, after, len) == 0,
              "%s changed (%zu bytes before, %zu after)", path, len, len2);
    CHECK(no_side_files(path));
    free(before);
    free(after);
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */

/* Version 0 and empty: an open without create (a reader: query, db check)
 * finds nothing yet (a writer may be creating it) and writes nothing; an
 * open with create initialises it. */
static void test_version0(void)
{
    const char *zero = in_tmp("zero_bytes.db");
    const char *blank = in_tmp("blank_sqlite.db");
    ct_db *db = NULL;
    ct_err e = { "" };

    CHECK(write_file(zero, "", 0) == 0);
    /* A valid SQLite file with user_version 0 and no schema objects left. */
    CHECK(exec_sql(blank, "CREATE TABLE tmp (x); DROP TABLE tmp;") == SQLITE_OK);
    CHECK(scalar(blank, "SELECT user_version FROM pragma_user_version") == 0);
    const char *paths[] = { zero, blank };
    static const char *const said[] = {
        "holds nothing yet (an empty file; another convtune may be creating it)",
        "holds nothing yet (an empty SQLite database; another convtune may be creating it)",
    };
    for (int i = 0; i < 2; i++) {
        struct stat before, after;
        CHECK(stat(paths[i], &before) == 0);
        CHECK(ct_db_open(paths[i], 0, &db, &e) == CT_ERR_NOT_FOUND && db == NULL);
        CHECK_MSG(strstr(e.msg, said[i]) != NULL, "%s: %s", paths[i], e.msg);
        CHECK(stat(paths[i], &after) == 0 && after.st_size == before.st_size);
        CHECK(scalar(paths[i], "SELECT user_version FROM pragma_user_version") == 0);

        CHECK_MSG(ct_db_open(paths[i], 1, &db, &e) == CT_OK, "%s: %s", paths[i], e.msg);
        long long n = -1;
        if (db) {
            n = 0;
            CHECK(ct_db_query(db, NULL, count_cb, &n, &e) == CT_OK);
            char rep[256];
            CHECK(ct_db_check(db, rep, sizeof rep, &e) == CT_OK);
            CHECK_STR(rep, "ok");
            ct_db_close(db);
            db = NULL;
        }
        CHECK(n == 0);
        CHECK(scalar(paths[i], "SELECT user_version FROM pragma_user_version") == 4);
        CHECK(scalar(paths[i], "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name"
                               " IN ('devices', 'problems', 'runs', 'candidates')") == 4);
    }
}

/* A newer schema (a real convtune file whose user_version went up). */
static void test_newer(void)
{
    const char *path = in_tmp("newer.db");
    CHECK(make_db(path, 20) == 0);
    CHECK(exec_sql(path, "PRAGMA user_version = 5") == SQLITE_OK);
    CHECK(scalar(path, "SELECT user_version FROM pragma_user_version") == 5);
    CHECK(no_side_files(path));
    expect_refused(path, "newer");
}

/* Half a database: refused at open, or the first query fails with
 * CT_ERR_DB; the file is never written. Cut at a page boundary and not. */
static void test_truncated(void)
{
    const char *good = in_tmp("good.db");
    CHECK(make_db(good, 400) == 0);
    size_t len = 0;
    unsigned char *full = slurp(good, &len);
    CHECK_MSG(full && len >= 64 * 1024, "the filled database is only %zu bytes", len);
    if (!full)
        return;
    ct_db *db = NULL;
    ct_err e = { "" };
    char rep[4096];
    CHECK(ct_db_open(good, 0, &db, &e) == CT_OK);
    if (db) {
        CHECK(ct_db_check(db, rep, sizeof rep, &e) == CT_OK);
        CHECK_STR(rep, "ok");
        ct_db_close(db);
    }

    const size_t cuts[] = { len / 2, len / 2 + 1234 };
    for (int c = 0; c < 2; c++) {
        const char *path = in_tmp(c ? "truncated_odd.db" : "truncated.db");
        CHECK(write_file(path, full, cuts[c]) == 0);
        db = NULL;
        memset(&e, 0, sizeof e);
        ct_status st = ct_db_open(path, 0, &db, &e);
        const char *where = "open";
        if (st == CT_OK) {
            long long n = 0;
            where = "query";
            st = ct_db_query(db, NULL, count_cb, &n, &e);
            ct_err ce = { "" };
            rep[0] = '\0';
            CHECK(ct_db_check(db, rep, sizeof rep, &ce) == CT_ERR_DB);
            CHECK_MSG(strcmp(rep, "ok") != 0 && rep[0], "check of %s: [%s]", path, rep);
            CHECK_MSG(strstr(ce.msg, "integrity check"), "%s", ce.msg);
            ct_db_close(db);
        }
        CHECK_MSG(st == CT_ERR_DB, "%s: %s gave %d: %s", path, where, (int)st, e.msg);
        CHECK_MSG(strstr(e.msg, "malformed") || strstr(e.msg, "corrupt") ||
                  strstr(e.msg, "not a convtune database"), "unclear: %s", e.msg);
        printf("truncated to %zu of %zu bytes: refused on %s: %s\n", cuts[c], len, where, e.msg);
        size_t now = 0;
        unsigned char *after = slurp(path, &now);
        CHECK_MSG(after && now == cuts[c] && memcmp(after, full, now) == 0, "%s changed", path);
        CHECK(no_side_files(path));
        free(after);
    }

    /* One page in the middle zeroed, the size kept: SQLite can still read
     * the schema, so open may succeed; ct_db_check must then find it. */
    const char *path = in_tmp("zeroed_page.db");
    size_t page = 4096, mid = (len / page / 2) * page;
    memset(full + mid, 0, page);
    CHECK(write_file(path, full, len) == 0);
    db = NULL;
    ct_status st = ct_db_open(path, 0, &db, &e);
    if (st == CT_OK) {
        rep[0] = '\0';
        st = ct_db_check(db, rep, sizeof rep, &e);
        CHECK_MSG(strstr(rep, "integrity_check: "), "%s", rep);
        printf("zeroed page at %zu: open ok, check: %s\n", mid, rep);
        ct_db_close(db);
    }
    CHECK_MSG(st == CT_ERR_DB, "%s: %d: %s", path, (int)st, e.msg);
    size_t now = 0;
    unsigned char *after = slurp(path, &now);
    CHECK_MSG(after && now == len && memcmp(after, full, now) == 0, "%s changed", path);
    CHECK(no_side_files(path));
    free(after);
    free(full);
}

/* Text is not a database, short or long. */
static void test_text(void)
{
    const char *shortp = in_tmp("short.txt");
    const char *longp = in_tmp("notes.db");
    CHECK(write_file(shortp, "hi\n", 3) == 0);
    char text[6000] = "";
    while (strlen(text) + 64 < sizeof text)
        strcat(text, "These are my notes, not a database. Line after line.\n");
    CHECK(write_file(longp, text, strlen(text)) == 0);
    expect_refused(shortp, "not a convtune database");
    expect_refused(longp, "not a convtune database");
}

/* The migration runner on its own step list, through ct_db_migrate_steps. */
static void test_runner(void)
{
    const char *path = in_tmp("runner.db");
    ct_db *db = NULL;
    ct_err e = { "" };

    CHECK(make_db(path, 5) == 0);
    CHECK(exec_sql(path, "PRAGMA user_version = 1") == SQLITE_OK);
    CHECK(ct_db_open(path, 0, &db, &e) == CT_OK);
    if (!db)
        return;
    /* Step 0 must be skipped (the file is at version 1); 2 alters what 1
     * created and 3 indexes what 2 added, so only this order works. */
    static const char *const steps[] = {
        "CREATE TABLE must_not_run (x);",
        "CREATE TABLE extra (a INTEGER NOT NULL); INSERT INTO extra (a) VALUES (1);",
        "ALTER TABLE extra ADD COLUMN b TEXT NOT NULL DEFAULT 'two'; UPDATE extra SET a = a + 1;",
        "CREATE INDEX extra_b ON extra (b); INSERT INTO extra (a, b) VALUES (3, 'three');",
        "INSERT INTO extra (a, b) VALUES (4, 'four');",
    };
    CHECK_MSG(ct_db_migrate_steps(db, steps, 5, &e) == CT_OK, "%s", e.msg);
    /* A failing step: nothing of the run stays, the version neither. */
    static const char *const bad[] = {
        "", "", "", "", "",
        "CREATE TABLE half_done (x);",
        "INSERT INTO no_such_table VALUES (1);",
    };
    CHECK(ct_db_migrate_steps(db, bad, 7, &e) == CT_ERR_DB);
    CHECK_MSG(strstr(e.msg, "version 6 to 7") && strstr(e.msg, "no_such_table"), "%s", e.msg);
    /* Fewer steps than the file's version: a newer schema. */
    CHECK(ct_db_migrate_steps(db, steps, 2, &e) == CT_ERR_DB);
    CHECK_MSG(strstr(e.msg, "newer") != NULL, "%s", e.msg);
    /* The data is still readable through the API. */
    long long n = 0;
    CHECK(ct_db_query(db, NULL, count_cb, &n, &e) == CT_OK && n == 5);
    ct_db_close(db);

    CHECK(scalar(path, "SELECT user_version FROM pragma_user_version") == 5);
    CHECK(scalar(path, "SELECT count(*) FROM sqlite_master WHERE name = 'must_not_run'") == 0);
    CHECK(scalar(path, "SELECT count(*) FROM sqlite_master WHERE name = 'half_done'") == 0);
    CHECK(scalar(path, "SELECT count(*) FROM sqlite_master WHERE name = 'extra_b'") == 1);
    sqlite3 *h = NULL;
    sqlite3_stmt *s = NULL;
    CHECK(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
    CHECK(sqlite3_prepare_v2(h, "SELECT group_concat(a || b, ',') FROM (SELECT a, b FROM extra"
                                " ORDER BY a)", -1, &s, NULL) == SQLITE_OK);
    CHECK(sqlite3_step(s) == SQLITE_ROW);
    CHECK_STR((const char *)sqlite3_column_text(s, 0), "2two,3three,4four");
    sqlite3_finalize(s);
    sqlite3_close(h);

    /* This build knows versions up to 4: the upgraded file (5) is now "newer". */
    expect_refused(path, "newer");
}

static int tc_cb(const ct_result *r, void *user)
{
    *(double *)user = r->tc_half_tflops;
    return 0;
}

/* The columns of version 4 (how a time was measured), dropped to make an
 * older file. */
#define DROP_TIMING                                                                        \
    " ALTER TABLE candidates DROP COLUMN ci_lo_us; ALTER TABLE candidates DROP COLUMN ci_hi_us;" \
    " ALTER TABLE candidates DROP COLUMN timing; ALTER TABLE candidates DROP COLUMN batch;"

/* A version-1 file (before the half tensor-core ceiling): a reader leaves
 * it byte for byte as it was and reads the new column as absent; a writer
 * upgrades it to the current version, keeping its rows, and stores the
 * ceiling. */
static void test_version1(void)
{
    const char *path = in_tmp("v1.db");
    ct_err e = { "" };
    ct_db *db = NULL;
    CHECK(make_db(path, 7) == 0);
    CHECK(exec_sql(path, "ALTER TABLE devices DROP COLUMN tc_half_tflops; ALTER TABLE candidates DROP COLUMN code_hash;" DROP_TIMING
                         " PRAGMA user_version = 1") == SQLITE_OK);
    CHECK(scalar(path, "SELECT user_version FROM pragma_user_version") == 1);
    size_t len = 0, len2 = 0;
    unsigned char *before = slurp(path, &len), *after;

    double tc = 1;
    long long n = 0;
    CHECK_MSG(ct_db_open(path, 0, &db, &e) == CT_OK, "%s", e.msg);
    CHECK(ct_db_query(db, NULL, count_cb, &n, &e) == CT_OK && n == 7);
    CHECK(ct_db_query(db, NULL, tc_cb, &tc, &e) == CT_OK && isnan(tc));
    ct_device_info d = { .name = "NVIDIA Migration Test GPU", .cc_major = 9, .driver_version = 13000,
                         .nvrtc_major = 13 };
    double fma = 0;
    tc = 1;
    CHECK(ct_db_device_ceilings(db, &d, &fma, &tc, NULL, NULL, &e) == CT_OK && fma == 60 && tc == 0);
    ct_db_close(db);
    db = NULL;
    after = slurp(path, &len2);
    CHECK_MSG(before && after && len == len2 && !memcmp(before, after, len), "reading wrote to a version-1 file");
    free(before);
    free(after);

    CHECK_MSG(ct_db_open(path, 1, &db, &e) == CT_OK, "%s", e.msg);
    d.tc_half_tflops = 640.5;
    long long dev = 0;
    CHECK(ct_db_device_upsert(db, &d, &dev, &e) == CT_OK);
    n = 0;
    CHECK(ct_db_query(db, NULL, count_cb, &n, &e) == CT_OK && n == 7);
    CHECK(ct_db_query(db, NULL, tc_cb, &tc, &e) == CT_OK && tc == 640.5);
    ct_db_close(db);
    CHECK(scalar(path, "SELECT user_version FROM pragma_user_version") == 4);
    CHECK(scalar(path, "SELECT count(*) FROM devices WHERE tc_half_tflops = 640.5 AND fma_tflops = 60") == 1);
    CHECK(scalar(path, "SELECT count(*) FROM candidates WHERE code_hash IS NULL") == 7);
}

static int code_cb(const ct_result *r, void *user)
{
    int *n = user;
    n[0]++;
    n[1] += r->code_hash[0] != '\0';
    n[2] += strcmp(r->code_hash, "00000000c0dec0de") == 0;
    return 0;
}

/* A version-2 file (before code hashes): a reader leaves it as it was and
 * reads every code hash as absent; a writer adds the column (NULL in the old
 * rows, which are then judged on their template hash) and can fill it. */
static void test_version2(void)
{
    const char *path = in_tmp("v2.db");
    ct_err e = { "" };
    ct_db *db = NULL;
    CHECK(make_db(path, 4) == 0);
    CHECK(exec_sql(path, "ALTER TABLE candidates DROP COLUMN code_hash;" DROP_TIMING " PRAGMA user_version = 2") == SQLITE_OK);
    size_t len = 0, len2 = 0;
    unsigned char *before = slurp(path, &len), *after;
    int n[3] = {0, 0, 0};
    CHECK_MSG(ct_db_open(path, 0, &db, &e) == CT_OK, "%s", e.msg);
    CHECK(ct_db_query(db, NULL, code_cb, n, &e) == CT_OK && n[0] == 4 && n[1] == 0);
    ct_db_close(db);
    db = NULL;
    after = slurp(path, &len2);
    CHECK_MSG(before && after && len == len2 && !memcmp(before, after, len), "reading wrote to a version-2 file");
    free(before);
    free(after);

    CHECK_MSG(ct_db_open(path, 1, &db, &e) == CT_OK, "%s", e.msg);
    const long long ids[] = {2, 3};
    const char codes[2][17] = {"00000000c0dec0de", "00000000c0dec0de"};
    CHECK_MSG(ct_db_candidates_set_code_hash(db, ids, codes, 2, &e) == CT_OK, "%s", e.msg);
    /* A hash once set stays: a second fill changes nothing. */
    const char other[1][17] = {"ffffffffffffffff"};
    CHECK(ct_db_candidates_set_code_hash(db, ids, other, 1, &e) == CT_OK);
    memset(n, 0, sizeof n);
    CHECK(ct_db_query(db, NULL, code_cb, n, &e) == CT_OK && n[0] == 4 && n[1] == 2 && n[2] == 2);
    ct_db_close(db);
    CHECK(scalar(path, "SELECT user_version FROM pragma_user_version") == 4);
}

static int timing_cb(const ct_result *r, void *user)
{
    int *n = user;
    n[0]++;
    n[1] += r->timing[0] != '\0' || !isnan(r->ci_lo_us) || !isnan(r->ci_hi_us) || r->batch != -1;
    n[2] += !strcmp(r->timing, "graph") && r->batch == n[3] && r->ci_lo_us <= r->median_us &&
            r->median_us <= r->ci_hi_us;
    return 0;
}

/* A version-3 file (before the timing method and confidence interval): a
 * reader leaves it as it was and reads them as absent; a writer adds the
 * columns (NULL in the old rows) and stores and re-times them. */
static void test_version3(void)
{
    const char *path = in_tmp("v3.db");
    ct_err e = { "" };
    ct_db *db = NULL;
    CHECK(make_db(path, 5) == 0);
    CHECK(exec_sql(path, DROP_TIMING " PRAGMA user_version = 3") == SQLITE_OK);
    size_t len = 0, len2 = 0;
    unsigned char *before = slurp(path, &len), *after;
    int n[4] = {0, 0, 0, 0};
    CHECK_MSG(ct_db_open(path, 0, &db, &e) == CT_OK, "%s", e.msg);
    CHECK(ct_db_query(db, NULL, timing_cb, n, &e) == CT_OK && n[0] == 5 && n[1] == 0);
    ct_db_close(db);
    db = NULL;
    after = slurp(path, &len2);
    CHECK_MSG(before && after && len == len2 && !memcmp(before, after, len), "reading wrote to a version-3 file");
    free(before);
    free(after);

    /* A writer upgrades it; a new measurement keeps its method and interval. */
    CHECK_MSG(ct_db_open(path, 1, &db, &e) == CT_OK, "%s", e.msg);
    long long dev = 0, prob = 0, run = 0, id = 0;
    ct_device_info d = { .name = "NVIDIA Migration Test GPU", .cc_major = 9, .sm_count = 132,
                         .driver_version = 13000, .nvrtc_major = 13, .fma_tflops = 60 };
    CHECK(ct_db_device_upsert(db, &d, &dev, &e) == CT_OK);
    CHECK(ct_db_problem_upsert(db, "conv1d", PROBLEM, 8.2e9, 8e6, &prob, &e) == CT_OK);
    CHECK(ct_db_run_begin(db, prob, dev, "{\"seed\":8}", &run, &e) == CT_OK);
    ct_result r;
    ct_result_init(&r);
    snprintf(r.tmpl, sizeof r.tmpl, "conv1d_tiled");
    snprintf(r.template_hash, sizeof r.template_hash, "0123456789abcdef");
    snprintf(r.params_json, sizeof r.params_json, "{\"BLOCK_SIZE\":%d}", 999);
    r.status = CT_RS_OK;
    r.median_us = 3.75 + rand() % 100;
    r.min_us = r.median_us * 0.98;
    r.max_us = r.median_us * 1.1;
    r.ci_lo_us = r.median_us * 0.99;
    r.ci_hi_us = r.median_us * 1.01;
    r.reps = 20;
    r.batch = n[3] = 2 + rand() % 500;
    snprintf(r.timing, sizeof r.timing, "graph");
    CHECK_MSG(ct_db_candidate_add_id(db, run, &r, &id, &e) == CT_OK, "%s", e.msg);
    memset(n, 0, 3 * sizeof n[0]);
    CHECK(ct_db_query(db, NULL, timing_cb, n, &e) == CT_OK && n[0] == 6 && n[1] == 1 && n[2] == 1);
    /* A re-timing replaces them; an unknown method is refused. */
    r.median_us *= 0.5;
    r.ci_lo_us *= 0.5;
    r.ci_hi_us *= 0.5;
    r.batch = n[3] = n[3] + 1;
    CHECK_MSG(ct_db_candidate_retime(db, id, &r, &e) == CT_OK, "%s", e.msg);
    memset(n, 0, 3 * sizeof n[0]);
    CHECK(ct_db_query(db, NULL, timing_cb, n, &e) == CT_OK && n[0] == 6 && n[1] == 1 && n[2] == 1);
    snprintf(r.timing, sizeof r.timing, "guess");
    CHECK(ct_db_candidate_retime(db, id, &r, &e) != CT_OK);
    ct_db_close(db);
    CHECK(scalar(path, "SELECT user_version FROM pragma_user_version") == 4);
    CHECK(scalar(path, "SELECT count(*) FROM candidates WHERE timing IS NULL AND batch IS NULL") == 5);
}

/* ct_db_check reports foreign-key problems too, and cuts a long report. */
static void test_check_report(void)
{
    const char *path = in_tmp("orphans.db");
    CHECK(make_db(path, 30) == 0);
    /* Candidates whose run is gone (written behind convtune's back, with
     * foreign keys off as in a plain sqlite3 shell). */
    CHECK(exec_sql(path, "PRAGMA foreign_keys = OFF; DELETE FROM runs;") == SQLITE_OK);
    ct_db *db = NULL;
    ct_err e = { "" };
    CHECK(ct_db_open(path, 0, &db, &e) == CT_OK);
    if (!db)
        return;
    char rep[8192], tiny[120];
    CHECK(ct_db_check(db, rep, sizeof rep, &e) == CT_ERR_DB);
    CHECK_MSG(strstr(rep, "foreign_key_check: candidates row 1 refers to a missing row of runs"),
              "%s", rep);
    CHECK_MSG(strstr(e.msg, "30 problems") && strstr(e.msg, path), "%s", e.msg);
    CHECK(ct_db_check(db, tiny, sizeof tiny, &e) == CT_ERR_DB);
    CHECK_MSG(strlen(tiny) < sizeof tiny && strstr(tiny, "(more problems not shown)"), "%s", tiny);
    CHECK(ct_db_check(db, NULL, 0, &e) == CT_ERR_DB);
    ct_db_close(db);
}

int main(void)
{
    srand((unsigned)time(NULL));
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_version0();
    test_newer();
    test_truncated();
    test_text();
    test_runner();
    test_version1();
    test_version2();
    test_version3();
    test_check_report();
    nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    CHECK_DONE();
}
