/* test_vendor_baseline.c - the stored cuDNN baseline (db_cudnn.h) as
 * `query` and `export` state it, through the real binary, no GPU. The
 * data is a copy of tests/fixtures/report.db, whose runs predate the
 * baseline: random cuDNN times are noted on one problem's runs (as `tune`
 * notes them, ct_db_run_note), a reason for none on another's, and a third
 * keeps none at all. Checked: the ratios are cuDNN's and the naive kernel's
 * times over the row's, each under its own label; a problem without a time
 * says "no cuDNN baseline stored" (with the run's reason where it gave
 * one); the export's header comments give the winner's time, cuDNN's times
 * and ratios and how cuDNN was timed, and two exports of one database are
 * the same bytes. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "check.h"
#include "db.h"
#include "json.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CT_CLI_TEST_NAME "vendor"
#include "cli_common.h"

#define TIMED "conv1d:15:4:right"
#define REASON_P "conv1dc:1:1024:4:1024:5:pad=2:bias"
#define BARE "conv2d:16:2048:2048:11:11:same"
#define DB "--db", "{W}/fix.db"

/* Note json under "cudnn" on every run of problem; the count noted. */
static int note_runs(const char *problem, const char *json)
{
    char path[700];
    snprintf(path, sizeof path, "%s/fix.db", work);
    ct_db *db = NULL;
    ct_err e;
    sqlite3 *sh = NULL;
    sqlite3_stmt *st = NULL;
    int noted = 0;
    if (ct_db_open(path, 1, &db, &e) != CT_OK)
        return 0;
    if (sqlite3_open_v2(path, &sh, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(sh, "SELECT r.id FROM runs r JOIN problems p ON p.id = r.problem_id WHERE p.canonical = ?1",
                           -1, &st, NULL) == SQLITE_OK &&
        sqlite3_bind_text(st, 1, problem, -1, SQLITE_STATIC) == SQLITE_OK)
        while (sqlite3_step(st) == SQLITE_ROW)
            noted += ct_db_run_note(db, sqlite3_column_int64(st, 0), "cudnn", json, &e) == CT_OK;
    sqlite3_finalize(st);
    sqlite3_close(sh);
    ct_db_close(db);
    return noted;
}

/* A number member of a JSON object, NaN when absent or not a number. */
static double jnum(const ct_json *o, const char *key)
{
    const ct_json *v = ct_json_get(o, key);
    return v && v->type == CT_JSON_NUMBER ? v->number : NAN;
}

static const char *jstr(const ct_json *o, const char *key)
{
    const ct_json *v = ct_json_get(o, key);
    return v && v->type == CT_JSON_STRING ? v->str : NULL;
}

static int near(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fabs(b);
}

/* `query --problem P [--all] --format json`, parsed; NULL on failure. */
static ct_json *query_json(const char *problem, int all)
{
    const char *args[] = {"query", DB, "--problem", problem, "--format", "json", all ? "--all" : NULL, NULL};
    result r;
    char cmd[1024];
    run_ct(args, &r, cmd, sizeof cmd);
    ct_json *j = NULL;
    CHECK_MSG(r.code == 0, "%s: %d %s", cmd, r.code, r.err);
    if (r.code == 0 && ct_json_parse(r.out, r.outlen, &j, NULL) != CT_OK)
        j = NULL;
    CHECK_MSG(j && j->type == CT_JSON_ARRAY && j->n >= 1, "%s: not a JSON array: %s", cmd, r.out);
    result_free(&r);
    return j;
}

/* The naive kernel's time as query --all lists it: the fastest verified
 * candidate of the family's naive template (the fixture has one run per
 * problem). */
static double naive_of(const char *problem, const char *naive_tmpl)
{
    ct_json *j = query_json(problem, 1);
    double best = NAN;
    for (size_t i = 0; j && i < j->n; i++) {
        const char *t = jstr(j->items[i], "template"), *s = jstr(j->items[i], "status");
        double us = jnum(j->items[i], "median_us");
        if (t && s && !strcmp(t, naive_tmpl) && !strcmp(s, "ok") && !(us >= best))
            best = us;
    }
    ct_json_free(j);
    return best;
}

/* The winner's row of `query --problem P --format json`: its median, the
 * naive ratio against naive_us, and the cuDNN members against cu (NaN:
 * none stored, with why_want in cudnn_none). Returns the winner's time. */
static double check_winner_json(const char *problem, double naive_us, double cu, double tf, const char *why_want)
{
    ct_json *j = query_json(problem, 0);
    const ct_json *o = j && j->n == 1 ? j->items[0] : NULL;
    double w = o ? jnum(o, "median_us") : NAN;
    CHECK_MSG(o && w > 0, "%s: no winner's time", problem);
    if (!o) {
        ct_json_free(j);
        return NAN;
    }
    CHECK_MSG(near(jnum(o, "naive_us"), naive_us, 1e-6), "%s: naive_us %g, the naive kernel took %g", problem,
              jnum(o, "naive_us"), naive_us);
    CHECK_MSG(near(jnum(o, "vs_naive"), naive_us / w, 1e-4), "%s: vs_naive %g, want %g", problem,
              jnum(o, "vs_naive"), naive_us / w);
    if (cu > 0) {
        CHECK_MSG(near(jnum(o, "cudnn_us"), cu, 1e-6), "%s: cudnn_us %g want %g", problem, jnum(o, "cudnn_us"), cu);
        CHECK_MSG(near(jnum(o, "cudnn_tf32_us"), tf, 1e-6), "%s: cudnn_tf32_us %g want %g", problem,
                  jnum(o, "cudnn_tf32_us"), tf);
        CHECK_MSG(near(jnum(o, "vs_cudnn"), cu / w, 1e-4), "%s: vs_cudnn %g want %g", problem, jnum(o, "vs_cudnn"),
                  cu / w);
        CHECK(jstr(o, "cudnn_version") && !strcmp(jstr(o, "cudnn_version"), "9.19"));
        CHECK(jstr(o, "cudnn_timing") && !strcmp(jstr(o, "cudnn_timing"), "graph"));
        CHECK_MSG(!jstr(o, "cudnn_none"), "%s: cudnn_none set with a time", problem);
    } else {
        CHECK_MSG(isnan(jnum(o, "cudnn_us")) && isnan(jnum(o, "vs_cudnn")) && ct_json_get(o, "cudnn_us"),
                  "%s: a cuDNN time where none is stored", problem);
        const char *why = jstr(o, "cudnn_none");
        CHECK_MSG(why && !strcmp(why, why_want), "%s: cudnn_none [%s], want [%s]", problem, why ? why : "(null)",
                  why_want);
    }
    ct_json_free(j);
    return w;
}

/* Export problem into name.cu/.h; the two files' text joined, or NULL. */
static char *export_text(const char *problem, const char *name)
{
    char out[64], path[700];
    snprintf(out, sizeof out, "{W}/%s.cu", name);
    const char *args[] = {"export", DB, "--problem", problem, "-o", out, NULL};
    result r;
    char cmd[1024];
    run_ct(args, &r, cmd, sizeof cmd);
    CHECK_MSG(r.code == 0, "%s: %d %s", cmd, r.code, r.err);
    result_free(&r);
    snprintf(path, sizeof path, "%s/%s.cu", work, name);
    size_t n1 = 0, n2 = 0;
    char *cu = slurp(path, &n1);
    snprintf(path, sizeof path, "%s/%s.h", work, name);
    char *h = slurp(path, &n2);
    char *both = cu && h ? malloc(n1 + n2 + 1) : NULL;
    if (both) {
        memcpy(both, cu, n1);
        memcpy(both + n1, h, n2);
        both[n1 + n2] = '\0';
    }
    free(cu);
    free(h);
    return both;
}

static int count_str(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; p && (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

int main(void)
{
    if (cli_make_work() != 0)
        return cli_setup_failed();
    size_t n = 0;
    char *data = slurp(CT_SOURCE_DIR "/tests/fixtures/report.db", &n);
    char path[700];
    snprintf(path, sizeof path, "%s/fix.db", work);
    CHECK(data && write_file(path, data, n) == 0);
    free(data);
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    result r;
    char cmd[1024];

    /* Before any note: every problem says none is stored, in JSON and below
     * the table, and the naive ratio is labelled as such. */
    const double naive_t = naive_of(TIMED, "conv1d_naive"), naive_r = naive_of(REASON_P, "conv1dc_naive"),
                 naive_b = naive_of(BARE, "conv2d_naive");
    CHECK(naive_t > 0 && naive_r > 0 && naive_b > 0);
    check_winner_json(TIMED, naive_t, NAN, NAN, "no cuDNN baseline stored");
    const char *tab[] = {"query", DB, NULL};
    run_ct(tab, &r, cmd, sizeof cmd);
    CHECK_MSG(r.code == 0 && strstr(r.out, "cuDNN_us") && strstr(r.out, "vs_cuDNN") && strstr(r.out, "vs_naive"),
              "%s: %d %s", cmd, r.code, r.out);
    CHECK_MSG(strstr(r.out, "\ncuDNN_us none: no cuDNN baseline stored ("), "%s: no line for none:\n%s", cmd, r.out);
    result_free(&r);

    /* Random times noted on TIMED's runs, a reason on REASON_P's. */
    const double cu = 1 + rand() % 100000 / 100.0, tf = 1 + rand() % 100000 / 100.0;
    char note[400];
    snprintf(note, sizeof note, "{\"version\":\"9.19\",\"us\":%.4f,\"relerr\":3e-07,\"speedup\":null,"
             "\"timing\":\"graph\",\"tf32_us\":%.4f,\"tf32_relerr\":0.0002,\"tf32_speedup\":null,\"none\":null}",
             cu, tf);
    CHECK(note_runs(TIMED, note) > 0);
    char why[64];
    snprintf(why, sizeof why, "cuDNN refused it: status %d", 1000 + rand() % 9000);
    snprintf(note, sizeof note, "{\"version\":null,\"us\":null,\"relerr\":null,\"speedup\":null,\"timing\":null,"
             "\"tf32_us\":null,\"tf32_relerr\":null,\"tf32_speedup\":null,\"none\":\"%s\"}", why);
    CHECK(note_runs(REASON_P, note) > 0);
    char why_full[128];
    snprintf(why_full, sizeof why_full, "no cuDNN baseline stored (%s)", why);

    const double w = check_winner_json(TIMED, naive_t, cu, tf, NULL);
    check_winner_json(REASON_P, naive_r, NAN, NAN, why_full);
    const double wb = check_winner_json(BARE, naive_b, NAN, NAN, "no cuDNN baseline stored");

    /* Every candidate of TIMED compares with the same stored baseline. */
    ct_json *all = query_json(TIMED, 1);
    int compared = 0;
    for (size_t i = 0; all && i < all->n; i++) {
        const ct_json *o = all->items[i];
        const char *s = jstr(o, "status");
        double us = jnum(o, "median_us");
        if (s && !strcmp(s, "ok") && us > 0) {
            CHECK_MSG(near(jnum(o, "vs_cudnn"), cu / us, 1e-4), "row %zu: vs_cudnn %g want %g", i,
                      jnum(o, "vs_cudnn"), cu / us);
            compared++;
        } else {
            CHECK_MSG(isnan(jnum(o, "vs_cudnn")), "row %zu (%s): a ratio without a verified time", i, s ? s : "?");
        }
    }
    CHECK(compared > 1);
    ct_json_free(all);

    /* The table: TIMED's row has cuDNN's time and the ratio under their
     * headers; the reasons are listed below, each once. */
    run_ct(tab, &r, cmd, sizeof cmd);
    CHECK_MSG(r.code == 0, "%s: %d %s", cmd, r.code, r.err);
    char ratio[32], line_start[64];
    snprintf(ratio, sizeof ratio, " %.2fx ", cu / w);
    snprintf(line_start, sizeof line_start, "\n%s ", TIMED);
    const char *row = strstr(r.out, line_start), *head = strstr(r.out, "vs_cuDNN");
    const char *eol = row ? strchr(row + 1, '\n') : NULL;
    CHECK_MSG(row && eol && head, "%s: no row of %s:\n%s", cmd, TIMED, r.out);
    if (row && eol && head) {
        /* Right-aligned: the ratio ends where the header does. */
        size_t end = (size_t)(head - r.out) + strlen("vs_cuDNN"), rl = strlen(ratio) - 1;
        CHECK_MSG((size_t)(eol - row - 1) > end && !strncmp(row + 1 + end - rl, ratio, rl),
                  "%s: %s not under vs_cuDNN:\n%s", cmd, ratio, r.out);
    }
    char line[200];
    snprintf(line, sizeof line, "\ncuDNN_us none: %s (1 of ", why_full);
    CHECK_MSG(count_str(r.out, line) == 1, "%s: lacks [%s]:\n%s", cmd, line + 1, r.out);
    CHECK_MSG(count_str(r.out, "\ncuDNN_us none: no cuDNN baseline stored (") == 2, "%s:\n%s", cmd, r.out);
    result_free(&r);

    /* CSV: the baseline columns after created_at, TIMED's filled. */
    const char *csv[] = {"query", DB, "--problem", TIMED, "--format", "csv", NULL};
    run_ct(csv, &r, cmd, sizeof cmd);
    CHECK_MSG(r.code == 0 && strstr(r.out, ",created_at,cudnn_us,cudnn_tf32_us,vs_cudnn,naive_us,vs_naive\n"),
              "%s: %d %s", cmd, r.code, r.out);
    result_free(&r);

    /* The export: both files' header comments state the winner's time,
     * cuDNN's with TF32 off and on with the ratios, and how cuDNN was timed;
     * a problem without a time says so. */
    char *x1 = export_text(TIMED, "timed1"), *x2 = export_text(TIMED, "timed2");
    char want[200];
    snprintf(want, sizeof want, "// measured:  median %.2f us", w);
    CHECK_MSG(x1 && count_str(x1, want) == 2, "export lacks [%s] in both files", want);
    snprintf(want, sizeof want, "// vs cuDNN:  cuDNN 9.19 with TF32 off: %.2f us (relative L2 error 3e-07): "
             "convtune %.2fx\n", cu, cu / w);
    CHECK_MSG(x1 && count_str(x1, want) == 2, "export lacks [%s] in both files", want);
    snprintf(want, sizeof want, "//            with TF32 on: %.2f us (relative L2 error 0.0002): convtune %.2fx\n",
             tf, tf / w);
    CHECK_MSG(x1 && count_str(x1, want) == 2, "export lacks [%s] in both files", want);
    CHECK(x1 && count_str(x1, "replayed from a CUDA graph)") == 2);
    /* Deterministic: the same database, the same bytes (but for the names). */
    CHECK(x1 && x2 && count_str(x1, "timed1") == count_str(x2, "timed2") && count_str(x1, "timed1") > 0);
    if (x1 && x2) {
        for (char *p = x1; (p = strstr(p, "timed1")); p++)
            p[5] = '2';
        CHECK_MSG(!strcmp(x1, x2), "two exports of one database differ");
    }
    free(x1);
    free(x2);
    char *xr = export_text(REASON_P, "reason"), *xb = export_text(BARE, "bare");
    snprintf(want, sizeof want, "// vs cuDNN:  %s\n", why_full);
    CHECK_MSG(xr && count_str(xr, want) == 2, "export lacks [%s]", want);
    CHECK_MSG(xb && count_str(xb, "// vs cuDNN:  no cuDNN baseline stored\n") == 2, "bare export lacks the none line");
    snprintf(want, sizeof want, "// measured:  median %.2f us", wb);
    CHECK(xb && count_str(xb, want) == 2);
    free(xr);
    free(xb);

    /* The family export states each instance's baseline in one line. */
    const char *fam[] = {"export", DB, "--family", "conv1d", "-o", "{W}/fam.cu", NULL};
    run_ct(fam, &r, cmd, sizeof cmd);
    CHECK_MSG(r.code == 0, "%s: %d %s", cmd, r.code, r.err);
    result_free(&r);
    snprintf(path, sizeof path, "%s/fam.cu", work);
    char *famtext = slurp(path, NULL);
    snprintf(want, sizeof want, "//     vs cuDNN: cuDNN 9.19 with TF32 off %.2f us: convtune %.2fx; with TF32 on %.2f us: "
             "convtune %.2fx\n", cu, cu / w, tf, tf / w);
    CHECK_MSG(famtext && count_str(famtext, want) == 1, "the family export lacks [%s]", want);
    /* the other conv1d problem of the fixture has none */
    CHECK(famtext && count_str(famtext, "//     vs cuDNN: no cuDNN baseline stored\n") == 1);
    free(famtext);

    /* The report says the same: the reason on REASON_P's page, and the
     * summary's vs cuDNN column for TIMED (cuDNN's time over the winner's). */
    const char *rep[] = {"report", DB, "--problem", TIMED, "--problem", REASON_P, "-o", "{W}/r.html", NULL};
    run_ct(rep, &r, cmd, sizeof cmd);
    CHECK_MSG(r.code == 0, "%s: %d %s", cmd, r.code, r.err);
    result_free(&r);
    snprintf(path, sizeof path, "%s/r.html", work);
    char *page = slurp(path, NULL);
    snprintf(want, sizeof want, "<dt>against cuDNN</dt><dd>%s</dd>", why_full);
    CHECK_MSG(page && strstr(page, want), "the report lacks [%s]", want);
    snprintf(want, sizeof want, "<td>%.2fx</td>", cu / w);
    const char *summary = page ? strstr(page, "<table class=\"summary\">") : NULL;
    const char *end = summary ? strstr(summary, "</table>") : NULL;
    const char *cell = summary ? strstr(summary, want) : NULL;
    CHECK_MSG(cell && end && cell < end, "the summary lacks vs cuDNN %s", want);
    free(page);

    tl_rm_rf(base);
    CHECK_DONE();
}
