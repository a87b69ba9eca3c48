/* test_db.c - the SQLite store (db.c) on a fresh database in a temporary
 * directory: storing, queries, refusals, the default path. The query output
 * formats are test_format.c's. No GPU. */
#include "db_common.h"


static void test_queries(ct_db *db, ids *t)
{
    static rows rs;
    ct_err e = { "" };
    ct_result best;

    /* Everything is stored, failed candidates included. */
    CHECK(query(db, NULL, NULL, NULL, 0, 0, &rs) == t->total);

    /* P1: H100 rows first (name order), ok ones fastest first, then failures. */
    CHECK(query(db, P1, NULL, NULL, 0, 0, &rs) == 11);
    CHECK_STR(rs.r[0].device, H100);
    CHECK(close_to(rs.r[0].median_us, 733.25) && close_to(rs.r[1].median_us, 733.25));
    CHECK(rs.r[0].id < rs.r[1].id);
    t->fastest_ok_a = rs.r[0].id;
    int seen_failed = 0, i;
    for (i = 0; i < rs.n && strcmp(rs.r[i].device, H100) == 0; i++) {
        int ok = rs.r[i].status == CT_RS_OK;
        if (!ok)
            seen_failed = 1;
        CHECK_MSG(!(ok && seen_failed), "ok row %d after a failed one", i);
        if (i > 0 && ok)
            CHECK(rs.r[i].median_us >= rs.r[i - 1].median_us);
    }
    CHECK(i == 9);
    for (; i < rs.n; i++)
        CHECK_STR(rs.r[i].device, H200);

    /* Round trip of every field of one row. */
    const ct_result *w = &rs.r[0];
    CHECK(w->run_id == t->run_a1);
    CHECK_STR(w->problem, P1);
    CHECK_STR(w->family, "conv1d");
    CHECK_STR(w->arch, "sm_90");
    CHECK_STR(w->tmpl, "conv1d_tiled");
    CHECK(strlen(w->template_hash) == 16);
    CHECK_STR(w->params_json, "{\"BLOCK_SIZE\":128,\"TILE\":16}");
    CHECK_STR(ct_result_status_name(w->status), "ok");
    CHECK_STR(w->error, "");
    CHECK(close_to(w->min_us, 733.25 * 0.97) && close_to(w->max_us, 733.25 * 1.05));
    CHECK(close_to(w->spread, (733.25 * 1.05 - 733.25 * 0.97) / 733.25));
    CHECK(w->reps >= 17 && w->reps < 30);
    CHECK(close_to(w->relerr, 2.9e-7));
    CHECK(w->registers >= 32 && w->smem_bytes >= 1024 && w->compile_ms > 41);
    CHECK(close_to(w->flops, 4.094e9) && close_to(w->bytes, 8.0082e6));
    CHECK(close_to(w->fma_tflops, 51.73) && close_to(w->bandwidth_gbs, 3105.25));
    CHECK(strlen(w->created_at) == 20 && w->created_at[10] == 'T' && w->created_at[19] == 'Z');

    /* Failed rows: absent times and an unchecked relerr read as NaN, absent counts as -1. */
    int found_odd = 0;
    for (i = 0; i < rs.n; i++) {
        if (rs.r[i].status == CT_RS_COMPILE_FAILED) {
            found_odd = 1;
            CHECK_STR(rs.r[i].error, ODD_ERROR);
            CHECK(isnan(rs.r[i].median_us) && isnan(rs.r[i].min_us) && rs.r[i].reps == -1);
            CHECK(isnan(rs.r[i].relerr));
        }
        if (rs.r[i].status == CT_RS_WRONG_RESULT)
            CHECK(close_to(rs.r[i].relerr, 0.37) && close_to(rs.r[i].median_us, 120.25));
    }
    CHECK(found_odd);

    /* Winners: one per (problem, device), never the faster wrong result. */
    CHECK(query(db, P1, NULL, NULL, 1, 0, &rs) == 2);
    CHECK(rs.r[0].id == t->fastest_ok_a && close_to(rs.r[0].median_us, 733.25));
    CHECK_STR(ct_result_status_name(rs.r[0].status), "ok");
    CHECK_STR(rs.r[1].device, H200);
    CHECK(close_to(rs.r[1].median_us, 512.75));
    CHECK(query(db, NULL, NULL, NULL, 1, 0, &rs) == 3);      /* P2 has no ok row */
    for (i = 0; i < rs.n; i++)
        CHECK_STR(ct_result_status_name(rs.r[i].status), "ok");
    CHECK(query(db, P2, NULL, NULL, 1, 0, &rs) == 0);
    CHECK(query(db, P2, NULL, NULL, 0, 0, &rs) == 1);
    CHECK(query(db, P1, NULL, NULL, 0, 1, &rs) == 6);        /* ok_only */

    /* Device filters: exact, case-insensitive substring, no match. */
    CHECK(query(db, P1, H200, NULL, 0, 0, &rs) == 2);
    CHECK(query(db, P1, "h100", NULL, 0, 0, &rs) == 9);
    CHECK(query(db, NULL, "nvidia", NULL, 0, 0, &rs) == t->total);
    CHECK(query(db, NULL, "A100", NULL, 0, 0, &rs) == 0);
    CHECK(query(db, NULL, NULL, "conv1d", 0, 0, &rs) == t->total);
    CHECK(query(db, NULL, NULL, "conv2d", 0, 0, &rs) == 0);

    /* The odd problem string is matched exactly through a bound parameter. */
    CHECK(query(db, P3, NULL, NULL, 0, 0, &rs) == 1);
    CHECK_STR(rs.r[0].problem, P3);
    CHECK_STR(rs.r[0].arch, "sm_89");
    CHECK(isnan(rs.r[0].relerr));
    CHECK(isnan(rs.r[0].fma_tflops) && isnan(rs.r[0].bandwidth_gbs));

    /* A callback asking to stop ends the query without an error. */
    {
        int calls = 0;
        CHECK(ct_db_query(db, NULL, stop_after_two, &calls, &e) == CT_OK);
        CHECK(calls == 2);
        CHECK(ct_db_query(db, NULL, NULL, NULL, &e) != CT_OK);
    }

    /* best: over all devices, on a device (substring), none. */
    CHECK(ct_db_best(db, P1, NULL, &best, &e) == CT_OK);
    CHECK_STR(best.device, H200);
    CHECK(close_to(best.median_us, 512.75));
    CHECK(ct_db_best(db, P1, "", &best, &e) == CT_OK && close_to(best.median_us, 512.75));
    CHECK(ct_db_best(db, P1, "h100", &best, &e) == CT_OK);
    CHECK(best.id == t->fastest_ok_a);
    CHECK_STR(best.params_json, "{\"BLOCK_SIZE\":128,\"TILE\":16}");
    CHECK(ct_db_best(db, P1, H200, &best, &e) == CT_OK && close_to(best.median_us, 512.75));
    CHECK(ct_db_best(db, P2, NULL, &best, &e) == CT_ERR_NOT_FOUND);
    CHECK(ct_db_best(db, P1, "B200", &best, &e) == CT_ERR_NOT_FOUND);
    CHECK(ct_db_best(db, "conv1d:1:1:valid", NULL, &best, &e) == CT_ERR_NOT_FOUND);

    /* baseline: the later run's measurement, per device. */
    double base = 0;
    CHECK(ct_db_baseline_us(db, P1, H100, "conv1d_naive", &base, &e) == CT_OK);
    CHECK(close_to(base, 2210.9));
    CHECK(ct_db_baseline_us(db, P1, H200, "conv1d_naive", &base, &e) == CT_ERR_NOT_FOUND);
    CHECK(ct_db_baseline_us(db, P2, H100, "conv1d_naive", &base, &e) == CT_ERR_NOT_FOUND);
    CHECK(ct_db_baseline_us(db, P1, H100, "conv1d_tiled", &base, &e) == CT_OK);

    /* Hostile filters match nothing and change nothing. */
    const char *evil[] = {
        "x' OR '1'='1", "\"; DROP TABLE candidates; --", "'; DELETE FROM runs; --",
        "%", "_", "1) OR (1=1",
    };
    for (size_t k = 0; k < sizeof evil / sizeof evil[0]; k++) {
        CHECK(query(db, evil[k], NULL, NULL, 0, 0, &rs) == 0);
        CHECK(query(db, NULL, evil[k], NULL, 0, 0, &rs) == 0);
        CHECK(query(db, NULL, NULL, evil[k], 0, 0, &rs) == 0);
        CHECK(query(db, evil[k], evil[k], evil[k], 1, 1, &rs) == 0);
        CHECK(ct_db_best(db, evil[k], NULL, &best, &e) == CT_ERR_NOT_FOUND);
        CHECK(ct_db_best(db, P1, evil[k], &best, &e) == CT_ERR_NOT_FOUND);
        CHECK(ct_db_baseline_us(db, P1, evil[k], "conv1d_naive", &base, &e) == CT_ERR_NOT_FOUND);
        CHECK(ct_db_baseline_us(db, P1, H100, evil[k], &base, &e) == CT_ERR_NOT_FOUND);
    }
    CHECK(query(db, NULL, NULL, NULL, 0, 0, &rs) == t->total);
}

/* The statuses of result.h are those the schema allows, in its order: the
 * candidate_status check of the stored table lists the same texts. */
static void test_statuses(const char *path)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *s = NULL;
    char sql[4096] = "";
    CHECK(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
    if (sqlite3_prepare_v2(h, "SELECT sql FROM sqlite_master WHERE name = 'candidates'", -1, &s, NULL) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
        snprintf(sql, sizeof sql, "%s", (const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    sqlite3_close(h);
    const char *list = strstr(sql, "status IN (");
    CHECK_MSG(list != NULL, "no status list in the schema: %s", sql);
    int n = 0;
    for (const char *p = list ? strchr(list, '(') : NULL; p && *p != ')'; n++) {
        const char *q = strchr(p, '\''), *end = q ? strchr(q + 1, '\'') : NULL;
        if (!end)
            break;
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(end - q - 1), q + 1);
        ct_result_status st = CT_RS_UNSET;
        CHECK_MSG(ct_result_status_parse(name, &st) && st == (ct_result_status)n, "schema status %d: %s", n, name);
        CHECK_STR(ct_result_status_name(st), name);
        p = end + 1;
        while (*p == ',' || *p == ' ' || *p == '\n')
            p++;
    }
    CHECK_MSG(n == CT_RS_COUNT, "the schema lists %d statuses, result.h %d", n, CT_RS_COUNT);
    ct_result_status st;
    CHECK(!ct_result_status_parse("sort_of_ok", &st) && !ct_result_status_parse("", &st));
    CHECK_STR(ct_result_status_name(CT_RS_UNSET), "");
    CHECK(strstr(ct_result_status_list(), "ok, compile_failed, ") == ct_result_status_list());
    CHECK(strstr(ct_result_status_list(), " or wrong_result") != NULL);
}

/* The tables are all there, looked at from outside through SQLite. */
static void check_tables_intact(const char *path, int want_candidates)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *s = NULL;
    CHECK(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
    CHECK(sqlite3_prepare_v2(h,
        "SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN"
        " ('devices','problems','runs','candidates')), (SELECT count(*) FROM candidates),"
        " (SELECT count(*) FROM runs), (SELECT user_version FROM pragma_user_version),"
        " (SELECT journal_mode FROM pragma_journal_mode)", -1, &s, NULL) == SQLITE_OK);
    CHECK(sqlite3_step(s) == SQLITE_ROW);
    CHECK(sqlite3_column_int(s, 0) == 4);
    CHECK(sqlite3_column_int(s, 1) == want_candidates);
    CHECK(sqlite3_column_int(s, 2) == 5);
    CHECK(sqlite3_column_int(s, 3) == 4);
    CHECK_STR((const char *)sqlite3_column_text(s, 4), "wal");
    sqlite3_finalize(s);
    sqlite3_close(h);
}

static void test_refusals(void)
{
    char path[512], side[600];
    unsigned char junk[8192];
    ct_err e = { "" };
    ct_db *db = NULL;
    sqlite3 *h = NULL;
    size_t len = 0;
    unsigned char *before;

    /* Random bytes: refused, untouched, no WAL or journal file left. */
    snprintf(path, sizeof path, "%s/junk.db", tmpdir);
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (unsigned char)rng();
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(junk, 1, sizeof junk, f) == sizeof junk);
    if (f)
        fclose(f);
    for (int create = 0; create <= 1; create++) {
        CHECK(ct_db_open(path, create, &db, &e) == CT_ERR_DB);
        CHECK(db == NULL);
        CHECK_MSG(strstr(e.msg, "not a convtune database") && strstr(e.msg, path), "%s", e.msg);
    }
    CHECK(same_bytes(path, junk, sizeof junk));
    snprintf(side, sizeof side, "%s-wal", path);
    CHECK(!exists(side));
    snprintf(side, sizeof side, "%s-journal", path);
    CHECK(!exists(side));

    /* A newer schema: refused with "newer", untouched. */
    snprintf(path, sizeof path, "%s/newer.db", tmpdir);
    CHECK(sqlite3_open(path, &h) == SQLITE_OK);
    CHECK(sqlite3_exec(h, "CREATE TABLE candidates (id INTEGER PRIMARY KEY, future TEXT);"
                          "INSERT INTO candidates (future) VALUES ('from v99');"
                          "PRAGMA user_version = 99;", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(h);
    before = slurp(path, &len);
    CHECK(before != NULL);
    CHECK(ct_db_open(path, 1, &db, &e) == CT_ERR_DB);
    CHECK_MSG(strstr(e.msg, "newer") && strstr(e.msg, "99"), "%s", e.msg);
    CHECK(before && same_bytes(path, before, len));
    free(before);

    /* Another program's database (user_version 0 with tables): refused. */
    snprintf(path, sizeof path, "%s/other.db", tmpdir);
    CHECK(sqlite3_open(path, &h) == SQLITE_OK);
    CHECK(sqlite3_exec(h, "CREATE TABLE recipes (name TEXT, minutes INTEGER);"
                          "INSERT INTO recipes VALUES ('soup', 35);", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(h);
    before = slurp(path, &len);
    CHECK(ct_db_open(path, 1, &db, &e) == CT_ERR_DB);
    CHECK_MSG(strstr(e.msg, "not a convtune database") != NULL, "%s", e.msg);
    CHECK(before && same_bytes(path, before, len));
    free(before);

    /* A version that claims to be ours without our tables: refused. */
    snprintf(path, sizeof path, "%s/impostor.db", tmpdir);
    CHECK(sqlite3_open(path, &h) == SQLITE_OK);
    CHECK(sqlite3_exec(h, "CREATE TABLE t (x); PRAGMA user_version = 1;", NULL, NULL, NULL)
          == SQLITE_OK);
    sqlite3_close(h);
    CHECK(ct_db_open(path, 0, &db, &e) == CT_ERR_DB);

    /* A directory is not a database. */
    CHECK(ct_db_open(tmpdir, 1, &db, &e) == CT_ERR_DB);

    /* Missing with create == 0: not found, and nothing is created. */
    snprintf(path, sizeof path, "%s/absent/deeper/convtune.db", tmpdir);
    CHECK(ct_db_open(path, 0, &db, &e) == CT_ERR_NOT_FOUND);
    CHECK(db == NULL);
    CHECK_MSG(strstr(e.msg, path) != NULL, "%s", e.msg);
    snprintf(side, sizeof side, "%s/absent", tmpdir);
    CHECK(!exists(side));
    CHECK(ct_db_open("", 1, &db, &e) != CT_OK);
}

static void test_default_path(void)
{
    char buf[256], tiny[8];
    ct_err e = { "" };
    setenv("CONVTUNE_DB", "/data/x/tune.db", 1);
    setenv("XDG_DATA_HOME", "/xdg", 1);
    setenv("HOME", "/home/someone", 1);
    CHECK(ct_db_default_path(buf, sizeof buf, &e) == CT_OK);
    CHECK_STR(buf, "/data/x/tune.db");
    unsetenv("CONVTUNE_DB");
    CHECK(ct_db_default_path(buf, sizeof buf, &e) == CT_OK);
    CHECK_STR(buf, "/xdg/convtune/convtune.db");
    setenv("XDG_DATA_HOME", "relative/dir", 1);      /* ignored, per the XDG spec */
    CHECK(ct_db_default_path(buf, sizeof buf, &e) == CT_OK);
    CHECK_STR(buf, "/home/someone/.local/share/convtune/convtune.db");
    unsetenv("XDG_DATA_HOME");
    CHECK(ct_db_default_path(buf, sizeof buf, &e) == CT_OK);
    CHECK_STR(buf, "/home/someone/.local/share/convtune/convtune.db");
    CHECK(ct_db_default_path(tiny, sizeof tiny, &e) == CT_ERR_DB);
    unsetenv("HOME");
    CHECK(ct_db_default_path(buf, sizeof buf, &e) == CT_ERR_DB);
}

/* ------------------------------------------------------------------------ */

int main(void)
{
    char path[512];
    ct_err e = { "" };
    ct_db *db = NULL, *db2 = NULL;
    static ids t;
    ct_status st;

    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    rng_state ^= (uint32_t)getpid();

    /* A fresh database in directories that do not exist yet. */
    snprintf(path, sizeof path, "%s/a/b/convtune.db", tmpdir);
    st = ct_db_open(path, 1, &db, &e);
    CHECK_MSG(st == CT_OK, "open: %s", e.msg);
    if (st == CT_OK) {
        test_store(db, &t);
        test_queries(db, &t);

        /* A second connection sees the first one's writes and can add its own. */
        CHECK(ct_db_open(path, 0, &db2, &e) == CT_OK);
        if (db2) {
            ct_result r = cand("conv1d_naive", "{\"BLOCK_SIZE\":512}", "ok", 2299.5, 1e-7);
            add(db2, t.run_b1, &r, &t);
            double base = 0;
            CHECK(ct_db_baseline_us(db, P1, H200, "conv1d_naive", &base, &e) == CT_OK);
            CHECK(close_to(base, 2299.5));
            ct_db_close(db2);
        }
        ct_db_close(db);
        db = NULL;
        check_tables_intact(path, t.total);
        test_statuses(path);

        /* Reopening keeps everything. */
        st = ct_db_open(path, 0, &db, &e);
        CHECK_MSG(st == CT_OK, "reopen: %s", e.msg);
        if (st == CT_OK) {
            rows *rs = malloc(sizeof *rs);
            CHECK(rs && query(db, NULL, NULL, NULL, 0, 0, rs) == t.total);
            free(rs);
            ct_result best;
            CHECK(ct_db_best(db, P1, "H100", &best, &e) == CT_OK && best.id == t.fastest_ok_a);
            ct_db_close(db);
        }
    }

    test_refusals();
    test_default_path();
    ct_db_close(NULL);

    nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    CHECK_DONE();
}
