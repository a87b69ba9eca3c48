/* test_report.c - `convtune report` through the real binary, no GPU and no
 * browser (report_browser.py renders the page): bad inputs get one line on
 * stderr, a non-zero exit and change nothing in the directory; good ones
 * write the page or the CSV atomically, with one section per problem. The
 * data is a copy of tests/fixtures/report.db. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "check.h"
#include "db.h"
#include "params_diff.h"

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

#define CT_CLI_TEST_NAME "report"
#include "cli_common.h"

typedef struct row {
    const char *args[MAX_ARGS];
    int code;
    const char *want;        /* substring of the one stderr line */
} row;

#define FIX "--db", "{W}/fix.db"

static const row bad_rows[] = {
    {{"report", FIX, "--problem", "junk:1"}, 2, "unknown family 'junk'"},
    {{"report", FIX, "--problem", "conv1d:0:3"}, 2, "must be positive"},
    {{"report", FIX, "--problem", "conv1d:5000:7", "-o", "{W}/r.html"}, 6, "nothing stored for conv1d:5000:7"},
    {{"report", "--db", "{W}/empty.db", "-o", "{W}/r.html"}, 6, "holds no results"},
    {{"report", "--db", "{W}/missing.db", "-o", "{W}/r.html"}, 6, "missing.db"},
    {{"report", FIX, "-o", "{W}/nodir/r.html"}, 7, "nodir"},
    {{"report", FIX, "-o", "{W}/old.html"}, 7, "--force"},
    {{"report", FIX, "--family", "conv9d"}, 2, "unknown family 'conv9d'"},
    {{"report", "--db", "{W}/noconv2d.db", "--family", "conv2d", "-o", "{W}/r.html"}, 6,
     "nothing stored for family conv2d"},
    {{"report", FIX, "--family", "conv1d", "--problem", "conv1d:15:4:right"}, 2, "not both"},
    {{"report", FIX, "--format", "pdf"}, 2, "html or csv"},
    {{"report", FIX, "--device", "no such gpu", "-o", "{W}/r.html"}, 6, "matching 'no such gpu'"},
    {{"report", FIX, "--bogus"}, 2, "unknown option '--bogus'"},
    {{"report", FIX, "-o"}, 2, "needs a value"},
};

/* fix.db: the fixture as it is; noconv2d.db: the fixture without its conv2d
 * problems (the fixture holds every family), for a family with nothing
 * stored. */
static void copy_fixture(void)
{
    size_t n = 0;
    char *data = slurp(CT_SOURCE_DIR "/tests/fixtures/report.db", &n);
    char path[700];
    snprintf(path, sizeof path, "%s/fix.db", work);
    CHECK(data && write_file(path, data, n) == 0);
    snprintf(path, sizeof path, "%s/noconv2d.db", work);
    CHECK(data && write_file(path, data, n) == 0);
    free(data);
    sqlite3 *h = NULL;
    CHECK(sqlite3_open(path, &h) == SQLITE_OK);
    CHECK(sqlite3_exec(h, "PRAGMA foreign_keys = ON; DELETE FROM runs WHERE problem_id IN "
                          "(SELECT id FROM problems WHERE family = 'conv2d'); "
                          "DELETE FROM problems WHERE family = 'conv2d';", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(h);
}

/* Number of distinct (problem) values in the fixture, for the section count. */
static int fixture_problems(void)
{
    char path[700];
    snprintf(path, sizeof path, "%s/fix.db", work);
    sqlite3 *h;
    sqlite3_stmt *s;
    int n = -1;
    if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(h, "SELECT count(DISTINCT problem_id) FROM candidates", -1, &s, NULL) == SQLITE_OK) {
        if (sqlite3_step(s) == SQLITE_ROW)
            n = sqlite3_column_int(s, 0);
        sqlite3_finalize(s);
    }
    sqlite3_close(h);
    return n;
}

static int count_str(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* The top-candidates table writes only parameters off the template's
 * declared default: for a random template of every family, a candidate at
 * the defaults but for one random parameter shows that one alone, and one
 * at the defaults shows none. */
static void check_nondefault(void)
{
    for (const ct_family *const *fp = ct_families(); *fp; fp++) {
        const ct_family *fam = *fp;
        if (fam->ntemplates < 1)
            continue;
        const ct_template *t = &fam->templates[rand() % fam->ntemplates];
        if (t->nparams < 1)
            continue;
        int off = rand() % t->nparams;
        for (int pass = 0; pass < 2; pass++) {   /* 0: all defaults; 1: param off changed */
            char json[4096], want[256] = "(all defaults)";
            size_t n = 0;
            n += (size_t)snprintf(json + n, sizeof json - n, "{");
            for (int k = 0; k < t->nparams && n < sizeof json; k++) {
                const ct_param_def *d = &t->params[k];
                long v = d->dflt;
                if (pass && k == off)
                    v = d->symbols && d->nsymbols > 1 ? (d->dflt + 1) % d->nsymbols : d->dflt + 1 + rand() % 7;
                if (d->symbols && v >= 0 && v < d->nsymbols)
                    n += (size_t)snprintf(json + n, sizeof json - n, "%s\"%s\":\"%s\"", k ? "," : "", d->name,
                                          d->symbols[v]);
                else
                    n += (size_t)snprintf(json + n, sizeof json - n, "%s\"%s\":%ld", k ? "," : "", d->name, v);
                if (pass && k == off)
                    snprintf(want, sizeof want, "%s=%s", d->name,
                             d->symbols && v >= 0 && v < d->nsymbols ? d->symbols[v] : "");
                if (pass && k == off && !(d->symbols && v >= 0 && v < d->nsymbols))
                    snprintf(want + strlen(want), sizeof want - strlen(want), "%ld", v);
            }
            CHECK(n + 2 < sizeof json);
            snprintf(json + n, sizeof json - n, "}");
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            CHECK(f != NULL);
            int items = ct_params_nondefault(f, fam, t->name, json);
            fclose(f);
            CHECK_MSG(items == pass && buf && !strcmp(buf, want), "%s %s: %s gave [%s] (%d), want [%s]", fam->name,
                      t->name, json, buf ? buf : "", items, want);
            free(buf);
        }
    }
}

int main(void)
{
    if (cli_make_work() != 0)
        return cli_setup_failed();
    copy_fixture();
    char path[700];
    snprintf(path, sizeof path, "%s/empty.db", work);
    ct_db *db;
    ct_err e;
    CHECK(ct_db_open(path, 1, &db, &e) == CT_OK);
    ct_db_close(db);
    snprintf(path, sizeof path, "%s/old.html", work);
    CHECK(write_file(path, "old\n", 4) == 0);
    char cmd[1024];
    result r;

    for (size_t i = 0; i < sizeof bad_rows / sizeof bad_rows[0]; i++) {
        const row *b = &bad_rows[i];
        char *before = snapshot(work);
        run_ct(b->args, &r, cmd, sizeof cmd);
        char *after = snapshot(work);
        CHECK_MSG(r.code == b->code, "%s: exit %d, expected %d (%s)", cmd, r.code, b->code, r.err);
        CHECK_MSG(count_char(r.err, r.errlen, '\n') == 1 && strstr(r.err, b->want), "%s: stderr [%s], want [%s]",
                  cmd, r.err, b->want);
        CHECK_MSG(r.outlen == 0, "%s: stdout [%s]", cmd, r.out);
        CHECK_MSG(!strcmp(before, after), "%s changed the directory:\n%s---\n%s", cmd, before, after);
        free(before);
        free(after);
        result_free(&r);
    }

    snprintf(path, sizeof path, "%s/r.html", work);
    CHECK(!exists(path));

    /* Every problem: one section each, a summary, no temporary left. */
    int np = fixture_problems();
    CHECK(np > 0);
    const char *all[] = {"report", FIX, "-o", "{W}/all.html", NULL};
    run_ct(all, &r, cmd, sizeof cmd);
    CHECK_MSG(r.code == 0 && strstr(r.out, "all.html: "), "%s: %d %s", cmd, r.code, r.err);
    result_free(&r);
    snprintf(path, sizeof path, "%s/all.html", work);
    char *page = slurp(path, NULL);
    CHECK(page && count_str(page, "<section class=\"problem\"") == np);
    CHECK(page && (np == 1 || strstr(page, "<h2>Summary</h2>")));
    CHECK(page && !strstr(page, "<script"));
    free(page);
    char *snap = snapshot(work);
    CHECK_MSG(!strstr(snap, ".convtune-report-"), "a temporary was left: %s", snap);
    free(snap);

    /* One problem (a non-canonical spelling), replacing a file with --force. */
    const char *one[] = {"report", FIX, "--problem", "conv1d:15:4:right", "-o", "{W}/old.html", "--force", NULL};
    run_ct(one, &r, cmd, sizeof cmd);
    CHECK_MSG(r.code == 0, "%s: %d %s", cmd, r.code, r.err);
    result_free(&r);
    snprintf(path, sizeof path, "%s/old.html", work);
    page = slurp(path, NULL);
    CHECK(page && count_str(page, "<section class=\"problem\"") == 1 && strstr(page, "conv1d:15:4:right") &&
          !strstr(page, "<h2>Summary</h2>"));
    free(page);

    /* The cuDNN baseline a run noted (tune_cudnn.h) is stated against the
     * winner; the fixture's runs, stored before it, say there is none. */
    page = slurp(path, NULL);
    CHECK(page && strstr(page, "<dt>against cuDNN</dt><dd>no cuDNN baseline stored</dd>") &&
          !strstr(page, "class=\"vendor\"") && !strstr(page, "how close"));
    free(page);
    srand((unsigned)time(NULL));
    const double cu = 1 + rand() % 100000 / 100.0, tf = 1 + rand() % 100000 / 100.0;
    char note[256];
    snprintf(note, sizeof note, "{\"version\":\"9.19\",\"us\":%.4f,\"relerr\":3e-07,\"speedup\":null,"
             "\"timing\":\"graph\",\"tf32_us\":%.4f,\"tf32_relerr\":0.0002,\"tf32_speedup\":null,\"none\":null}",
             cu, tf);
    snprintf(path, sizeof path, "%s/fix.db", work);
    sqlite3 *sh = NULL;
    sqlite3_stmt *st = NULL;
    int noted = 0;
    CHECK(ct_db_open(path, 1, &db, &e) == CT_OK);
    CHECK(sqlite3_open_v2(path, &sh, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
    CHECK(sqlite3_prepare_v2(sh, "SELECT r.id FROM runs r JOIN problems p ON p.id = r.problem_id "
                                 "WHERE p.canonical = 'conv1d:15:4:right'", -1, &st, NULL) == SQLITE_OK);
    /* And the closeness a run noted (closeness.h), in words. */
    const double within = rand() % 10000 / 100.0;
    const int judged = 1 + rand() % 400;
    char close_note[256];
    snprintf(close_note, sizeof close_note, "{\"basis\":\"model\",\"within_pct\":%.2f,\"spread_pct\":12.0,"
             "\"judged\":%d,\"admissible\":800,\"since_best\":7,\"since_best_s\":3.0}", within, judged);
    while (st && sqlite3_step(st) == SQLITE_ROW) {
        noted += ct_db_run_note(db, sqlite3_column_int64(st, 0), "cudnn", note, &e) == CT_OK;
        CHECK(ct_db_run_note(db, sqlite3_column_int64(st, 0), "closeness", close_note, &e) == CT_OK);
    }
    sqlite3_finalize(st);
    sqlite3_close(sh);
    ct_db_close(db);
    CHECK(noted > 0);
    const char *cud[] = {"report", FIX, "--problem", "conv1d:15:4:right", "-o", "{W}/cudnn.html", NULL};
    run_ct(cud, &r, cmd, sizeof cmd);
    CHECK_MSG(r.code == 0, "%s: %d %s", cmd, r.code, r.err);
    result_free(&r);
    snprintf(path, sizeof path, "%s/cudnn.html", work);
    page = slurp(path, NULL);
    char want[128];
    snprintf(want, sizeof want, "<dt>against cuDNN</dt><dd>cuDNN 9.19: %.3f us with TF32 off (relerr 3.0e-07)", cu);
    CHECK_MSG(page && strstr(page, want), "the page lacks %s", want);
    snprintf(want, sizeof want, "; %.3f us with TF32 on (relerr 2.0e-04): the winner ", tf);
    CHECK_MSG(page && strstr(page, want), "the page lacks %s", want);
    char close_want[256];
    snprintf(close_want, sizeof close_want, "<dt>how close</dt><dd>estimated within %.1f%% of the best of the "
             "space (model, typical error 12%%); the newest run judged %d of 800 candidates", within, judged);
    CHECK_MSG(page && strstr(page, close_want), "the page lacks %s", close_want);

    /* The tuning time: the wall clock of the problem's runs, from the
     * database's own start and end times. */
    {
        sqlite3 *th = NULL;
        sqlite3_stmt *ts = NULL;
        int secs = -1, runs = 0;
        snprintf(path, sizeof path, "%s/fix.db", work);
        CHECK(sqlite3_open_v2(path, &th, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
        CHECK(sqlite3_prepare_v2(th, "SELECT sum(strftime('%s', r.finished_at) - strftime('%s', r.started_at)), "
                                     "count(*) FROM runs r JOIN problems p ON p.id = r.problem_id "
                                     "WHERE p.canonical = 'conv1d:15:4:right' AND r.finished_at IS NOT NULL",
                                 -1, &ts, NULL) == SQLITE_OK);
        if (ts && sqlite3_step(ts) == SQLITE_ROW) {
            secs = sqlite3_column_int(ts, 0);
            runs = sqlite3_column_int(ts, 1);
        }
        sqlite3_finalize(ts);
        sqlite3_close(th);
        CHECK(secs >= 0 && runs > 0);
        snprintf(want, sizeof want, "<dt>tuning time</dt><dd>%d s wall clock over %d run%s ", secs, runs,
                 runs == 1 ? "" : "s");
        CHECK_MSG(page && strstr(page, want), "the page lacks %s", want);
    }

    /* The vendor line on the search and roofline plots, labelled. */
    CHECK_MSG(page && count_str(page, "class=\"vendor\"") == 2 && count_str(page, ">cuDNN (TF32 off)</text>") == 2,
              "the cuDNN line is not on both plots");
    free(page);
    page = NULL;
    check_nondefault();
    snprintf(path, sizeof path, "%s/all.html", work);
    page = slurp(path, NULL);
    CHECK(page && strstr(page, "<th class=\"l\">parameters (non-default)</th>"));
    /* The summary labels each ratio by what it is against, and gives the tuning time. */
    CHECK(page && strstr(page, ">vs cuDNN</th>") && strstr(page, ">vs naive</th>") && strstr(page, ">tuning s</th>") &&
          !strstr(page, "<th>speedup</th>"));
    free(page);

    /* CSV: the header and one line per candidate of the family, to stdout. */
    const char *csv[] = {"report", FIX, "--family", "conv1d", "--format", "csv", NULL};
    run_ct(csv, &r, cmd, sizeof cmd);
    CHECK_MSG(r.code == 0 && !strncmp(r.out, "device,device_uuid,", 19), "%s: %d %s", cmd, r.code, r.err);
    int lines = count_char(r.out, r.outlen, '\n');
    result_free(&r);
    const char *q[] = {"query", FIX, "--family", "conv1d", "--all", "--format", "csv", NULL};
    run_ct(q, &r, cmd, sizeof cmd);
    CHECK_MSG(r.code == 0 && count_char(r.out, r.outlen, '\n') == lines, "report csv %d lines, query %d", lines,
              count_char(r.out, r.outlen, '\n'));
    result_free(&r);

    tl_rm_rf(base);
    CHECK_DONE();
}
