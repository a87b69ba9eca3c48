/* test_cli_db.c - `convtune db check` as a user meets it: the real binary
 * (CT_BINARY) run as a child process in a fresh temporary directory, with
 * HOME and XDG_DATA_HOME pointed into it and CONVTUNE_DB unset (the helpers
 * are those of test_cli.c).
 *
 * A good database: exit 0, stdout "ok". A damaged one (a zeroed page, rows
 * whose run is gone): exit 5, the problems on stdout, one line on stderr.
 * Junk, text, a newer schema: exit 5, one line on stderr. A missing
 * database: exit 6, nothing created. Usage errors: exit 2. Every row also
 * checks that the command changed nothing in the directory: a check never
 * writes. No GPU. */
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

#define CT_CLI_TEST_NAME "cli_db"
#include "cli_common.h"

/* ------------------------------------------------------------------------ */
/* The rows                                                                 */

typedef struct row {
    const char *args[MAX_ARGS];
    int code;
    const char *out;         /* exact stdout, or NULL: see out_has */
    const char *out_has;     /* substring of stdout (NULL: stdout must be empty) */
    const char *err_has;     /* substring of the one stderr line (NULL: stderr empty) */
} row;

static const row rows[] = {
    /* a good database, given and by default ($XDG_DATA_HOME/convtune/convtune.db) */
    {{"db", "check", "--db", "{W}/good.db"}, 0, "ok\n", NULL, NULL},
    {{"db", "check"}, 6, NULL, NULL, "xdg/convtune/convtune.db does not exist"},
    {{"db", "check", "--db", "{W}/empty.db"}, 0, "ok\n", NULL, NULL},
    /* damaged: the problems on stdout, one line on stderr */
    {{"db", "check", "--db", "{W}/zeroed.db"}, 5, NULL, "integrity_check: ", "failed the integrity check"},
    {{"db", "check", "--db", "{W}/orphans.db"}, 5, NULL,
     "foreign_key_check: candidates row 1 refers to a missing row of runs", "failed the integrity check (30 problems)"},
    /* not (or no longer) a convtune database: refused at open, untouched */
    {{"db", "check", "--db", "{W}/junk.db"}, 5, NULL, NULL, "is not a convtune database"},
    {{"db", "check", "--db", "{W}/notes.txt"}, 5, NULL, NULL, "is not a convtune database"},
    {{"db", "check", "--db", "{W}/truncated.db"}, 5, NULL, NULL, "corrupt"},
    {{"db", "check", "--db", "{W}/newer.db"}, 5, NULL, NULL, "newer than this convtune supports"},
    {{"db", "check", "--db", "{W}/other.db"}, 5, NULL, NULL, "holds other tables"},
    /* missing: nothing created, not even the directory */
    {{"db", "check", "--db", "{W}/missing.db"}, 6, NULL, NULL, "{W}/missing.db does not exist"},
    {{"db", "check", "--db", "{W}/no/such/dir/x.db"}, 6, NULL, NULL, "does not exist"},
    {{"db", "check", "--db", "{W}"}, 5, NULL, NULL, "is a directory"},
    /* usage */
    {{"db"}, 2, NULL, NULL, "db needs a subcommand"},
    {{"db", "chek", "--db", "{W}/good.db"}, 2, NULL, NULL, "unknown db subcommand 'chek'"},
    {{"db", "check", "{W}/good.db"}, 2, NULL, NULL, "takes no file argument"},
    {{"db", "check", "--db"}, 2, NULL, NULL, "needs a value"},
    {{"db", "check", "--bogus"}, 2, NULL, NULL, "unknown option '--bogus'"},
    /* help */
    {{"db", "check", "--help"}, 0, NULL, "usage: convtune db check [--db PATH]", NULL},
    {{"db", "--help"}, 0, NULL, "  check [--db PATH]", NULL},
    {{"--help"}, 0, NULL, "convtune db check [--db PATH]", NULL},
};

static void check_rows(void)
{
    int nrows = (int)(sizeof rows / sizeof rows[0]);
    for (int i = 0; i < nrows; i++) {
        const row *rw = &rows[i];
        char cmd[2048];
        char *before = snapshot(work);
        result r;
        run_ct(rw->args, &r, cmd, sizeof cmd);
        char *after = snapshot(work);
        CHECK_MSG(r.code == rw->code, "%s: exit %d, expected %d; stdout: %s; stderr: %s", cmd, r.code,
                  rw->code, r.out, r.err);
        if (rw->out)
            CHECK_MSG(!strcmp(r.out, rw->out), "%s: stdout [%s], expected [%s]", cmd, r.out, rw->out);
        else if (rw->out_has)
            CHECK_MSG(strstr(r.out, rw->out_has) != NULL, "%s: stdout [%s] lacks [%s]", cmd, r.out,
                      rw->out_has);
        else
            CHECK_MSG(r.outlen == 0, "%s: stdout not empty: [%s]", cmd, r.out);
        if (rw->err_has) {
            char *want = expand(rw->err_has);
            CHECK_MSG(r.errlen > 1 && count_char(r.err, r.errlen, '\n') == 1 && r.err[r.errlen - 1] == '\n',
                      "%s: stderr is not exactly one line: [%s]", cmd, r.err);
            CHECK_MSG(!strncmp(r.err, "convtune: ", 10), "%s: stderr [%s] lacks 'convtune: '", cmd, r.err);
            CHECK_MSG(strstr(r.err, want) != NULL, "%s: stderr [%s] lacks [%s]", cmd, r.err, want);
            free(want);
        } else {
            CHECK_MSG(r.errlen == 0, "%s: stderr not empty: [%s]", cmd, r.err);
        }
        CHECK_MSG(!strcmp(before, after), "%s: the directory changed:\n--- before\n%s--- after\n%s", cmd,
                  before, after);
        free(before);
        free(after);
        result_free(&r);
    }
    printf("db check rows: %d run\n", nrows);
}

/* ------------------------------------------------------------------------ */
/* Readers write nothing                                                    */

/* A copy of the fixture database in rollback (DELETE) journal mode, as
 * `sqlite3 .backup` and VACUUM INTO make it: query, export, db export and
 * db check leave it byte for byte as it was, its time included, and make no
 * -wal, -shm or -journal beside it (D008 to D010). Only a writer switches a
 * database to WAL. */
static void check_readers_leave_delete_mode(void)
{
    char path[700], copy[700], cmd[2048], sqltext[1600];
    wpath(path, sizeof path, "deletemode.db");
    wpath(copy, sizeof copy, "fixture.db");
    snprintf(sqltext, sizeof sqltext, "VACUUM INTO '%s'", path);
    size_t n0 = 0, n1 = 0;
    char *fixture = slurp(CT_SOURCE_DIR "/tests/fixtures/report.db", &n0);   /* the source tree is not opened */
    CHECK(fixture && write_file(copy, fixture, n0) == 0);
    free(fixture);
    sqlite3 *h = NULL;
    CHECK(sqlite3_open_v2(copy, &h, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
          sqlite3_exec(h, sqltext, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(h);
    char *before = slurp(path, &n0);
    CHECK(before && n0 > 100 && before[18] == 1 && before[19] == 1);   /* rollback journal, not WAL */
    struct stat sb0, sb1;
    CHECK(stat(path, &sb0) == 0);
    static const char *const readers[][MAX_ARGS] = {
        {"query", "--db", "{W}/deletemode.db", "--all"},
        {"query", "--db", "{W}/deletemode.db", "--nearest", "conv1d:16:4:right"},
        {"export", "--problem", "conv1d:15:4:right", "--db", "{W}/deletemode.db", "-o", "{W}/dm.cu"},
        {"db", "export", "--db", "{W}/deletemode.db"},
        {"db", "check", "--db", "{W}/deletemode.db"},
    };
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++) {
        result r;
        run_ct(readers[i], &r, cmd, sizeof cmd);
        CHECK_MSG(r.code == 0, "%s: exit %d: %s", cmd, r.code, r.err);
        result_free(&r);
        char *after = slurp(path, &n1);
        CHECK_MSG(after && n1 == n0 && !memcmp(before, after, n0), "%s rewrote the DELETE-journal database", cmd);
        free(after);
        CHECK(stat(path, &sb1) == 0);
        CHECK_MSG(sb1.st_mtim.tv_sec == sb0.st_mtim.tv_sec && sb1.st_mtim.tv_nsec == sb0.st_mtim.tv_nsec,
                  "%s changed the database's time", cmd);
        static const char *const side[] = {"deletemode.db-wal", "deletemode.db-shm", "deletemode.db-journal"};
        for (size_t k = 0; k < 3; k++) {
            char sp[700];
            wpath(sp, sizeof sp, side[k]);
            CHECK_MSG(!exists(sp), "%s left %s", cmd, side[k]);
        }
    }
    free(before);
}

/* ------------------------------------------------------------------------ */
/* Setup                                                                    */

static int sql(const char *name, const char *text)
{
    char path[700];
    sqlite3 *h = NULL;
    wpath(path, sizeof path, name);
    int rc = sqlite3_open(path, &h);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(h, text, NULL, NULL, NULL);
    sqlite3_close(h);
    return rc == SQLITE_OK ? 0 : -1;
}

/* Copy of name with bytes [from, from + n) zeroed, or cut to n bytes (from < 0). */
static int damaged_copy(const char *name, const char *copy, long from, size_t n)
{
    char src[700], dst[700];
    size_t len = 0;
    wpath(src, sizeof src, name);
    wpath(dst, sizeof dst, copy);
    char *data = slurp(src, &len);
    if (!data)
        return -1;
    int rc;
    if (from < 0) {
        rc = write_file(dst, data, n < len ? n : len);
    } else {
        if ((size_t)from + n <= len)
            memset(data + from, 0, n);
        rc = write_file(dst, data, len);
    }
    free(data);
    return rc;
}

static int setup(void)
{
    char path[700];
    if (cli_make_work() != 0)
        return -1;

    if (make_db("good.db", 100) || make_db("empty.db", 0) || make_db("orphans.db", 30) ||
        make_db("newer.db", 3))
        return -1;
    /* rows whose run is gone, written with foreign keys off (a plain sqlite3 shell) */
    if (sql("orphans.db", "PRAGMA foreign_keys = OFF; DELETE FROM runs;") ||
        sql("newer.db", "PRAGMA user_version = 7;") ||
        sql("other.db", "CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('keep me');"))
        return -1;
    wpath(path, sizeof path, "good.db");
    size_t len = 0;
    char *good = slurp(path, &len);
    free(good);
    if (!good || len < 16 * 4096)
        return -1;
    /* a zeroed page in the middle (size kept), and the first half only */
    if (damaged_copy("good.db", "zeroed.db", (long)(len / 4096 / 2 * 4096), 4096) ||
        damaged_copy("good.db", "truncated.db", -1, len / 2))
        return -1;

    unsigned char junk[4096];
    uint32_t x = 0x2545f491u;
    for (size_t i = 0; i < sizeof junk; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        junk[i] = (unsigned char)x;
    }
    wpath(path, sizeof path, "junk.db");
    if (write_file(path, junk, sizeof junk) != 0)
        return -1;
    wpath(path, sizeof path, "notes.txt");
    static const char notes[] = "shopping: bread, milk\nnot a database at all\n";
    return write_file(path, notes, sizeof notes - 1);
}

int main(void)
{
    if (setup() != 0)
        return cli_setup_failed();
    check_rows();
    check_readers_leave_delete_mode();
    /* (the snapshots say so already; spelled out for the missing paths) */
    static const char *const never[] = {"missing.db", "no", "xdg/convtune", "good.db-wal", "good.db-shm"};
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++) {
        char path[700];
        wpath(path, sizeof path, never[i]);
        CHECK_MSG(!exists(path), "%s exists", path);
    }
    tl_rm_rf(base);
    CHECK_DONE();
}
