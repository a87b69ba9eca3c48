/* test_dbio.c - `convtune db export` and `convtune db import` (dbio.c, and
 * ct_db_dump / ct_db_import in db.c), through the real binary on databases
 * filled through the ct_db API:
 *
 *   round trips   export (json, csv) -> import into an empty database ->
 *                 export again gives the same bytes; every provenance field
 *                 survives; importing again skips everything
 *   merging       two machines' databases (overlapping problems, a device in
 *                 both, different timings) imported into a third give the
 *                 same winners (ct_db_best per problem and device, and over
 *                 all devices) as one database the same runs were stored in
 *   bad files     not JSON, truncated JSON, missing fields, wrong types,
 *                 unknown status or field, bad times and ranges, a newer
 *                 format, bad CSV, a failure inside the transaction: one
 *                 line on stderr, exit 2 (7 for an unreadable file, 5 for a
 *                 target that is not a database), the target unchanged and
 *                 never created
 * No GPU. */
#include "export_common.h"

#include <math.h>
#include <stdarg.h>

#include "dbio.h"
#include "json.h"

#define H200 "NVIDIA H200"
#define H100 "NVIDIA H100 80GB HBM3"
#define TIMEOUT_S 120

static char base[] = "/tmp/ct_test_dbio_XXXXXX";
static char work[512];

static void path_in(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", work, name);
}

static void convtune(tc_result *r, ...)
{
    va_list ap;
    va_start(ap, r);
    tc_convtune_v(work, base, TIMEOUT_S, r, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------------ */
/* The machines                                                             */

static char hash_tiled[17], hash_naive[17];

static void params(const char *spec, const char *tmpl, long block, long r, char *json, size_t len)
{
    tc_param p[] = {{"BLOCK_SIZE", block}, {"OUTPUTS_PER_THREAD", r}, {"VEC_WIDTH", 1}};
    CHECK(tc_params(spec, tmpl, p, strcmp(tmpl, "conv1d_naive") ? 3 : 1, json, len));
}

/* A record with every optional field set differently, failures without
 * times, an unchecked error: NULLs and values both cross the files. */
static ct_result rec(const char *spec, const char *tmpl, long block, long r, const char *status, double us)
{
    char p[512];
    params(spec, tmpl, block, r, p, sizeof p);
    ct_result x = tc_rec(tmpl, strcmp(tmpl, "conv1d_naive") ? hash_tiled : hash_naive, p, status, us,
                         us > 0 ? 1.5e-7 * block / 32 : -1);
    if (us > 0)
        x.local_bytes = (int)(block / 64) * 8;
    else
        x.compile_ms = NAN;   /* absent */
    if (!strcmp(status, "compile_failed"))
        snprintf(x.error, sizeof x.error, "nvrtc: \"bad\" \\ token, here\nline 2\ttab, end");
    return x;
}

/* Machine A: an H200 with two problems. Machine B: an H100 with two, one
 * shared with A, and the same H200 (same identity) with A's second problem
 * tuned again, faster, with other parameters. */
typedef struct run_def {
    int machine;             /* 'A' or 'B' */
    const ct_device_info *dev;
    const char *spec;
    ct_result recs[4];
    int n;
} run_def;

static ct_device_info h200, h100;
static run_def runs[5];
static int nruns;

static void define_runs(void)
{
    h200 = tc_device(H200, "GPU-aaaa-0001", 9, 0, 13000);
    h100 = tc_device(H100, "GPU-bbbb-0002", 9, 0, 12080);
    h100.fma_tflops = 51.5;
    h100.bandwidth_gbs = 2900.25;
    h100.launch_us = 0;          /* not measured */
    h100.tc_half_tflops = 404.75;
    const char *p1 = "conv1d:1000000:2047:valid", *p2 = "conv1d:4096:31:same", *p3 = "conv1d:15:4:right";
    runs[nruns++] = (run_def){'A', &h200, p1, {rec(p1, "conv1d_tiled", 128, 8, "ok", 80.5),
                                               rec(p1, "conv1d_tiled", 256, 8, "ok", 95.25),
                                               rec(p1, "conv1d_naive", 512, 1, "ok", 656.125),
                                               rec(p1, "conv1d_tiled", 64, 4, "compile_failed", 0)}, 4};
    runs[nruns++] = (run_def){'A', &h200, p2, {rec(p2, "conv1d_tiled", 128, 4, "ok", 7.0),
                                               rec(p2, "conv1d_tiled", 64, 8, "wrong_result", 6.0)}, 2};
    runs[nruns++] = (run_def){'B', &h100, p1, {rec(p1, "conv1d_tiled", 128, 8, "ok", 101.0),
                                               rec(p1, "conv1d_tiled", 256, 4, "ok", 99.0)}, 2};
    runs[nruns++] = (run_def){'B', &h100, p3, {rec(p3, "conv1d_naive", 32, 1, "ok", 2.0),
                                               rec(p3, "conv1d_tiled", 32, 4, "timed_out", 0)}, 2};
    runs[nruns++] = (run_def){'B', &h200, p2, {rec(p2, "conv1d_tiled", 256, 4, "ok", 5.5),
                                               rec(p2, "conv1d_tiled", 32, 4, "ok", 9.0)}, 2};
}

/* A database holding the runs of machine m (or of both for m == 0). */
static void make_db(const char *path, int m)
{
    ct_db *db = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_db_open(path, 1, &db, &e) == CT_OK, "%s: %s", path, e.msg);
    for (int i = 0; db && i < nruns; i++)
        if (!m || runs[i].machine == m)
            tc_add_run(db, runs[i].dev, runs[i].spec, runs[i].recs, runs[i].n);
    ct_db_close(db);
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

/* convtune db export --db DB --format FMT -o OUT; returns the file text. */
static char *db_export(const char *db, const char *fmt, const char *out)
{
    tc_result r;
    unlink(out);
    convtune(&r, "db", "export", "--db", db, "--format", fmt, "-o", out, NULL);
    CHECK_MSG(r.code == 0, "db export %s (%s): exit %d: %s", db, fmt, r.code, r.err);
    CHECK_MSG(r.errlen == 0, "db export: stderr: %s", r.err);
    tc_result_free(&r);
    return tc_slurp(out, NULL);
}

/* convtune db import FILE --db DB, expecting success with the given counts. */
static void db_import(const char *file, const char *db, long records, long imported, long skipped)
{
    tc_result r;
    convtune(&r, "db", "import", file, "--db", db, NULL);
    CHECK_MSG(r.code == 0, "db import %s into %s: exit %d: %s", file, db, r.code, r.err);
    char want[200];
    snprintf(want, sizeof want, ": %ld records: %ld imported, %ld skipped as duplicates\n", records, imported,
             skipped);
    CHECK_MSG(strstr(r.out, want) != NULL, "db import %s: stdout [%s] lacks [%s]", file, r.out, want);
    tc_result_free(&r);
}

static char *replace_once(const char *text, const char *old, const char *new_)
{
    const char *at = strstr(text, old);
    CHECK_MSG(at != NULL, "the export lacks [%s]", old);
    if (!at)
        return strdup(text);
    size_t n = strlen(text) - strlen(old) + strlen(new_);
    char *s = malloc(n + 1);
    size_t pre = (size_t)(at - text);
    memcpy(s, text, pre);
    strcpy(s + pre, new_);
    strcat(s, at + strlen(old));
    return s;
}

static int count_rows(const ct_result *r, void *user)
{
    (void)r;
    (*(long *)user)++;
    return 0;
}

static long candidates_in(const char *path)
{
    ct_db *db = NULL;
    ct_err e;
    long n = 0;
    if (ct_db_open(path, 0, &db, &e) != CT_OK)
        return -1;
    CHECK(ct_db_dump(db, count_rows, &n, &e) == CT_OK);
    ct_db_close(db);
    return n;
}

/* ------------------------------------------------------------------------ */

/* Database name ("a" or "b") exported as fmt, imported and exported again.
 * tc_half_tflops (a field added later) is in the file only when the
 * database has a value for it: b's H100 has one, a's H200 none. */
static void round_trip(const char *name, const char *fmt)
{
    char src[600], dst[600], out1[600], out2[600], file[64];
    snprintf(file, sizeof file, "%s.db", name);
    path_in(src, sizeof src, file);
    snprintf(dst, sizeof dst, "%s/rt_%s_%s.db", work, name, fmt);
    snprintf(out1, sizeof out1, "%s/%s.%s", work, name, fmt);
    snprintf(out2, sizeof out2, "%s/rt_%s.%s", work, name, fmt);
    char *first = db_export(src, fmt, out1);
    CHECK(first != NULL);
    int with_tc = !strcmp(name, "b");
    CHECK_MSG(first && !strstr(first, "tc_half_tflops") == !with_tc, "%s.db as %s: tc_half_tflops %s", name, fmt,
              with_tc ? "missing" : "written although no record has it");
    CHECK(!first || !with_tc || strstr(first, "404.75"));
    long n = candidates_in(src);
    CHECK(n == 6);
    db_import(out1, dst, n, n, 0);                 /* into a database that does not exist yet */
    char *second = db_export(dst, fmt, out2);
    CHECK_MSG(first && second && !strcmp(first, second), "%s round trip differs:\n--- first\n%s\n--- second\n%s",
              fmt, first, second);
    db_import(out1, dst, n, 0, n);                 /* again: all duplicates */
    char *third = db_export(dst, fmt, out2);
    CHECK_MSG(first && third && !strcmp(first, third), "%s: a repeated import changed the database", fmt);
    free(first);
    free(second);
    free(third);
}

/* Every field of every record survives: the dumps of source and copy match
 * field for field. */
static int collect(const ct_result *r, void *user)
{
    ct_result **v = user;
    static int n;
    if (!*v)
        n = 0;
    ct_result *grown = realloc(*v, (size_t)(n + 2) * sizeof **v);
    if (!grown)
        return 1;
    *v = grown;
    (*v)[n++] = *r;
    memset(&(*v)[n], 0, sizeof **v);        /* terminator: empty device name */
    return 0;
}

static ct_result *dump(const char *path)
{
    ct_db *db = NULL;
    ct_err e;
    ct_result *v = NULL;
    CHECK(ct_db_open(path, 0, &db, &e) == CT_OK);
    CHECK(ct_db_dump(db, collect, &v, &e) == CT_OK);
    ct_db_close(db);
    return v;
}

static int same_real(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static void provenance(void)
{
    char src[600], dst[600];
    path_in(src, sizeof src, "a.db");
    path_in(dst, sizeof dst, "rt_a_json.db");
    ct_result *a = dump(src), *b = dump(dst);
    int n = 0, with_null = 0, with_error = 0;
    for (; a && b && a[n].device[0] && b[n].device[0]; n++) {
        const ct_result *x = &a[n], *y = &b[n];
        CHECK_STR(x->device, y->device);
        CHECK_STR(x->device_uuid, y->device_uuid);
        CHECK(x->cc_major == y->cc_major && x->cc_minor == y->cc_minor && x->sm_count == y->sm_count);
        CHECK(x->driver_version == y->driver_version);
        CHECK_STR(x->nvrtc_version, y->nvrtc_version);
        CHECK(same_real(x->fma_tflops, y->fma_tflops) && same_real(x->bandwidth_gbs, y->bandwidth_gbs) &&
              same_real(x->launch_us, y->launch_us) && same_real(x->tc_half_tflops, y->tc_half_tflops));
        CHECK_STR(x->measured_at, y->measured_at);
        CHECK_STR(x->family, y->family);
        CHECK_STR(x->problem, y->problem);
        CHECK(x->flops == y->flops && x->bytes == y->bytes);
        CHECK_STR(x->problem_created_at, y->problem_created_at);
        CHECK_STR(x->run_started_at, y->run_started_at);
        CHECK_STR(x->run_finished_at, y->run_finished_at);
        CHECK_STR(x->run_status, y->run_status);
        CHECK_STR(x->run_settings, y->run_settings);
        CHECK_STR(x->tmpl, y->tmpl);
        CHECK_STR(x->template_hash, y->template_hash);
        CHECK_STR(x->params_json, y->params_json);
        CHECK(x->status == y->status);
        CHECK_STR(x->error, y->error);
        CHECK(same_real(x->median_us, y->median_us) && same_real(x->min_us, y->min_us) &&
              same_real(x->max_us, y->max_us) && same_real(x->spread, y->spread));
        CHECK(x->reps == y->reps && same_real(x->relerr, y->relerr) && x->registers == y->registers);
        CHECK(x->smem_bytes == y->smem_bytes && x->local_bytes == y->local_bytes);
        CHECK(same_real(x->compile_ms, y->compile_ms));
        CHECK_STR(x->created_at, y->created_at);
        with_null += isnan(x->median_us) && x->reps == -1 && isnan(x->relerr);
        with_error += strchr(x->error, '\n') != NULL;
        /* what the machine stored */
        CHECK_STR(x->device_uuid, "GPU-aaaa-0001");
        CHECK(x->driver_version == 13000 && x->fma_tflops == 60.0 && x->launch_us == 2.5);
        CHECK_STR(x->nvrtc_version, "13.0");
        CHECK_STR(x->run_settings, "{\"tolerance\":1e-05,\"seed\":7}");
        CHECK(x->measured_at[0] && x->run_finished_at[0] && x->created_at[0]);
        CHECK(strlen(x->template_hash) == 16);
    }
    CHECK_MSG(n == 6 && !a[n].device[0] && !b[n].device[0], "dumps of %d records differ in length", n);
    CHECK(with_null == 1 && with_error == 1);
    free(a);
    free(b);
}

/* The winners of a merge equal those of one database holding every run. */
static void merging(void)
{
    char a[600], b[600], merged[600], one[600], fa[600], fb[600];
    path_in(a, sizeof a, "a.db");
    path_in(b, sizeof b, "b.db");
    path_in(merged, sizeof merged, "merged.db");
    path_in(one, sizeof one, "one.db");
    path_in(fa, sizeof fa, "a_export.json");
    path_in(fb, sizeof fb, "b_export.csv");
    free(db_export(a, "json", fa));
    free(db_export(b, "csv", fb));
    db_import(fa, merged, 6, 6, 0);
    db_import(fb, merged, 6, 6, 0);
    db_import(fa, merged, 6, 0, 6);
    CHECK(candidates_in(merged) == 12);
    make_db(one, 0);

    static const char *const problems[] = {"conv1d:1000000:2047:valid", "conv1d:4096:31:same", "conv1d:15:4:right"};
    static const char *const devices[] = {H200, H100, NULL};
    ct_db *m = NULL, *o = NULL;
    ct_err e;
    CHECK(ct_db_open(merged, 0, &m, &e) == CT_OK);
    CHECK(ct_db_open(one, 0, &o, &e) == CT_OK);
    int compared = 0;
    for (size_t p = 0; m && o && p < 3; p++) {
        for (size_t d = 0; d < 3; d++) {
            ct_result rm, ro;
            ct_status sm = ct_db_best(m, problems[p], devices[d], &rm, &e);
            ct_status so = ct_db_best(o, problems[p], devices[d], &ro, &e);
            CHECK_MSG(sm == so, "%s on %s: merged %d, one database %d", problems[p], devices[d] ? devices[d] : "any",
                      sm, so);
            if (sm != CT_OK || so != CT_OK)
                continue;
            compared++;
            CHECK_MSG(rm.median_us == ro.median_us && !strcmp(rm.params_json, ro.params_json) && !strcmp(rm.tmpl, ro.tmpl) &&
                          !strcmp(rm.device, ro.device) && !strcmp(rm.template_hash, ro.template_hash),
                      "%s on %s: merged winner %s %s %.3f us, one database %s %s %.3f us", problems[p],
                      devices[d] ? devices[d] : "any", rm.tmpl, rm.params_json, rm.median_us, ro.tmpl, ro.params_json,
                      ro.median_us);
            /* and it is the best of the sources' winners */
            double best = INFINITY;
            for (int i = 0; i < nruns; i++) {
                if (strcmp(runs[i].spec, problems[p]) || (devices[d] && strcmp(runs[i].dev->name, devices[d])))
                    continue;
                for (int k = 0; k < runs[i].n; k++)
                    if (runs[i].recs[k].status == CT_RS_OK && runs[i].recs[k].median_us < best)
                        best = runs[i].recs[k].median_us;
            }
            CHECK_MSG(rm.median_us == best, "%s on %s: winner %.3f us, best of the sources %.3f us", problems[p],
                      devices[d] ? devices[d] : "any", rm.median_us, best);
        }
    }
    CHECK(compared == 7);     /* p1 x {H200, H100, any}, p2 x {H200, any}, p3 x {H100, any} */
    /* the H200's second problem: B's faster result wins over A's */
    ct_result w;
    CHECK(m && ct_db_best(m, "conv1d:4096:31:same", H200, &w, &e) == CT_OK && w.median_us == 5.5);
    /* the query's winners: one row per problem and device, the same in both */
    ct_db_close(m);
    ct_db_close(o);
}

/* A bad import: exit code, one stderr line with want, the target database
 * unchanged (or still absent). */
static void bad_import_into(const char *name, const char *text, const char *fmt, int code, const char *want,
                            int also_fresh)
{
    char file[600], target[600], fresh[600], snap_before[600], snap_after[600];
    snprintf(file, sizeof file, "%s/bad_%s", work, name);
    path_in(target, sizeof target, "target.db");
    path_in(fresh, sizeof fresh, "never_created.db");
    if (text)
        CHECK(tc_write_text(file, text) == 0);
    size_t len0 = 0, len1 = 0;
    char *before = tc_slurp(target, &len0);
    path_in(snap_before, sizeof snap_before, "target_before.json");
    path_in(snap_after, sizeof snap_after, "target_after.json");
    char *dump0 = db_export(target, "json", snap_before);
    for (int i = 0; i < 1 + also_fresh; i++) {
        tc_result r;
        const char *db = i ? fresh : target;
        if (fmt)
            convtune(&r, "db", "import", file, "--db", db, "--format", fmt, NULL);
        else
            convtune(&r, "db", "import", file, "--db", db, NULL);
        CHECK_MSG(r.code == code, "import %s: exit %d, expected %d; stderr: %s", name, r.code, code, r.err);
        CHECK_MSG(tc_one_line(&r), "import %s: stderr is not one line: [%s]", name, r.err);
        CHECK_MSG(strstr(r.err, want) != NULL, "import %s: stderr [%s] lacks [%s]", name, r.err, want);
        CHECK_MSG(strncmp(r.err, "convtune: ", 10) == 0, "import %s: [%s]", name, r.err);
        CHECK_MSG(r.outlen == 0, "import %s: stdout: %s", name, r.out);
        tc_result_free(&r);
    }
    char *after = tc_slurp(target, &len1);
    CHECK_MSG(before && after && len0 == len1 && !memcmp(before, after, len0), "import %s changed %s", name, target);
    char *dump1 = db_export(target, "json", snap_after);
    CHECK_MSG(dump0 && dump1 && !strcmp(dump0, dump1), "import %s changed the records of %s", name, target);
    CHECK_MSG(!tc_exists(fresh), "import %s created %s", name, fresh);
    free(before);
    free(after);
    free(dump0);
    free(dump1);
}

static void bad_import(const char *name, const char *text, const char *fmt, int code, const char *want)
{
    bad_import_into(name, text, fmt, code, want, 1);
}

static void bad_files(void)
{
    char a[600], target[600], fj[600], fc[600];
    path_in(a, sizeof a, "a.db");
    path_in(target, sizeof target, "target.db");
    path_in(fj, sizeof fj, "a.json");
    path_in(fc, sizeof fc, "a.csv");
    make_db(target, 'B');
    char *json = db_export(a, "json", fj), *csv = db_export(a, "csv", fc);
    if (!json || !csv)
        return;
    char *s;

    bad_import("hello.txt", "hello, world\n", NULL, 2,
               "not a convtune database export (JSON or CSV): line 1: unknown column 'hello'");
    bad_import("text.json", "hello", "json", 2, "not valid JSON: line 1, column 1: unexpected character");
    bad_import("empty", "", NULL, 2, "empty file");
    bad_import("array.json", "[1, 2]", NULL, 2, "not a convtune database export");
    s = strdup(json);
    s[strlen(s) / 2] = '\0';
    bad_import("truncated.json", s, NULL, 2, "not valid JSON: line ");
    free(s);
    s = replace_once(json, "\"status\":\"ok\"", "\"status\":\"fast\"");
    bad_import("status.json", s, NULL, 2, "record 1 (line 2): field 'status': unknown status 'fast'");
    free(s);
    s = replace_once(json, "\"reps\":200", "\"reps\":\"200\"");
    bad_import("type.json", s, NULL, 2, "record 1 (line 2): field 'reps': expected an integer or null, got a string");
    free(s);
    s = replace_once(json, "\"median_us\":80.5,", "\"median_us\":80.5e0,\"median_us\":1,");
    bad_import("dupkey.json", s, NULL, 2, "duplicate object key");
    free(s);
    char hk[64];
    snprintf(hk, sizeof hk, ",\"template_hash\":\"%s\"", hash_tiled);
    s = replace_once(json, hk, "");
    bad_import("missing.json", s, NULL, 2, "record 1 (line 2): missing field 'template_hash'");
    free(s);
    s = replace_once(json, "{\"device\":", "{\"colour\":\"red\",\"device\":");
    bad_import("unknown.json", s, NULL, 2, "record 1 (line 2): unknown field 'colour'");
    free(s);
    s = replace_once(json, "\"median_us\":80.5,", "\"median_us\":-80.5,");
    bad_import("negative.json", s, NULL, 2, "field 'median_us': -80.5 is out of range");
    free(s);
    s = replace_once(json, "\"cc_major\":9", "\"cc_major\":9.5");
    bad_import("fraction.json", s, NULL, 2, "field 'cc_major': expected an integer");
    free(s);
    s = replace_once(json, "\"created_at\":\"", "\"created_at\":\"yesterday ");
    bad_import("time.json", s, NULL, 2, "field 'created_at': 'yesterday ");
    free(s);
    s = replace_once(json, "\"problem\":\"conv1d:4096:31:same\"", "\"problem\":\"conv1d:4096:31\"");
    bad_import("canonical.json", s, NULL, 2, "'conv1d:4096:31' is not a canonical conv1d problem");
    free(s);
    s = replace_once(json, "\"params\":{", "\"params\":[{");
    bad_import("params.json", s, NULL, 2, "not valid JSON");
    free(s);
    char pj[600], p0[512];
    params("conv1d:1000000:2047:valid", "conv1d_tiled", 128, 8, p0, sizeof p0);
    snprintf(pj, sizeof pj, "\"params\":%s", p0);
    s = replace_once(json, pj, "\"params\":\"{}\"");
    bad_import("params2.json", s, NULL, 2, "field 'params': expected a JSON object, got a string");
    free(s);
    s = replace_once(json, "\"status\":\"ok\"", "\"status\":null");
    bad_import("nullstatus.json", s, NULL, 2, "field 'status': expected a string, got null");
    free(s);
    s = replace_once(json, "\"version\":1", "\"version\":2");
    bad_import("newer.json", s, NULL, 2, "written by a newer convtune (format version 2");
    free(s);
    s = replace_once(json, "\"format\":\"convtune-db\"", "\"format\":\"kernel-tuner\"");
    bad_import("format.json", s, NULL, 2, "not a convtune database export");
    free(s);
    s = replace_once(json, "\"records\":[", "\"records\":[7,");
    bad_import("notobject.json", s, NULL, 2, "record 1 (line 1): expected an object, got number");
    free(s);
    /* CSV */
    s = replace_once(csv, ",created_at\n", "\n");
    bad_import("column.csv", s, NULL, 2, "line 2: 36 fields, the header has 35");
    free(s);
    s = replace_once(csv, ",relerr,", ",relerr2,");
    bad_import("header.csv", s, NULL, 2, "unknown column 'relerr2'");
    free(s);
    s = replace_once(csv, ",200,", ",2x0,");
    bad_import("number.csv", s, NULL, 2, "record 1 (line 2): field 'reps': '2x0' is not an integer or null");
    free(s);
    s = replace_once(csv, "}\",ok,", "}\",fast,");
    bad_import("status.csv", s, NULL, 2, "field 'status': unknown status 'fast'");
    free(s);
    s = replace_once(csv, "\n" H200 ",", "\n\"" H200 ",");
    bad_import("quote.csv", s, NULL, 2, "line ");
    free(s);
    bad_import("csv_as_json", csv, "json", 2, "not valid JSON");
    bad_import("json_as_csv", json, "csv", 2, "not a convtune database export (JSON or CSV): line 1: a quote");
    bad_import("binary", "\x7f" "ELF\x01\x02, \"x\n", NULL, 2, "not a convtune database export (JSON or CSV): line 1");
    /* unreadable: 7 */
    bad_import("missing_file", NULL, NULL, 7, "cannot read");

    /* A failure inside the transaction, after records were added: the
     * target holds problem conv1d:7:3:valid as family conv2d (a record no
     * convtune writes, put there through the API); the file's first records
     * are new, its last one claims conv1d:7:3:valid for family conv1d. */
    {
        ct_db *db = NULL;
        ct_err e;
        long long pid;
        CHECK(ct_db_open(target, 0, &db, &e) == CT_OK);
        CHECK(db && ct_db_problem_upsert(db, "conv2d", "conv1d:7:3:valid", 1, 1, &pid, &e) == CT_OK);
        ct_db_close(db);
        char *tail = strstr(json, "\n]}");
        CHECK(tail != NULL);
        if (tail) {
            const char *last = json;
            for (const char *p = json; p < tail; p++)
                if (p[0] == '\n' && p[1] == '{')
                    last = p + 1;
            size_t n = (size_t)(tail - json);
            size_t ll = (size_t)(tail - last);
            char *extra = malloc(ll + 1);
            memcpy(extra, last, ll);
            extra[ll] = '\0';
            char *x1 = strdup(extra);
            char *x2 = replace_once(x1, "\"problem\":\"conv1d:4096:31:same\"", "\"problem\":\"conv1d:7:3:valid\"");
            s = malloc(n + ll + 16);
            memcpy(s, json, n);
            sprintf(s + n, ",\n%s\n]}\n", x2);
            free(extra);
            free(x1);
            free(x2);
            ct_dbio_input *in = NULL;
            CHECK_MSG(ct_dbio_parse(s, strlen(s), "late.json", NULL, &in, &e) == CT_OK, "late.json: %s", e.msg);
            CHECK(ct_dbio_count(in) == 7);
            ct_dbio_free(in);
            bad_import_into("late.json", s, NULL, 2,
                            "record 7 (conv1d:7:3:valid on " H200 "): problem conv1d:7:3:valid is stored as family 'conv2d'", 0);
            free(s);
        }
    }
    /* a target that is not a database: 5, untouched */
    {
        char junk[600];
        path_in(junk, sizeof junk, "junk.db");
        CHECK(tc_write_text(junk, "this is not a database, just text that is long enough\n") == 0);
        tc_result r;
        convtune(&r, "db", "import", fj, "--db", junk, NULL);
        CHECK_MSG(r.code == 5 && tc_one_line(&r) && strstr(r.err, "is not a convtune database"),
                  "import into junk: exit %d: %s", r.code, r.err);
        tc_result_free(&r);
        char *t = tc_slurp(junk, NULL);
        CHECK(t && !strcmp(t, "this is not a database, just text that is long enough\n"));
        free(t);
    }
    free(json);
    free(csv);
}

/* Random damage to valid files: every parse ends in CT_OK or a one-line
 * CT_ERR_USAGE, never a crash (the ASan build runs this too). */
static void mutations(void)
{
    char a[600], fj[600], fc[600];
    path_in(a, sizeof a, "a.db");
    path_in(fj, sizeof fj, "mut.json");
    path_in(fc, sizeof fc, "mut.csv");
    char *files[2] = {db_export(a, "json", fj), db_export(a, "csv", fc)};
    unsigned long long x = 0x243F6A8885A308D3ULL;
    static const char bytes[] = "{}[],:\"\\0123456789-+.eE \n\ttrufalsn\x01\xc3\xff";
    int ok = 0, refused = 0;
    for (int f = 0; f < 2; f++) {
        if (!files[f])
            continue;
        size_t len = strlen(files[f]);
        char *buf = malloc(len + 1);
        for (int it = 0; it < 400; it++) {
            memcpy(buf, files[f], len + 1);
            size_t n = len;
            int edits = 1 + (int)(x % 4);
            for (int k = 0; k < edits; k++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                size_t at = (size_t)(x % n);
                switch ((x >> 32) % 3) {
                case 0:
                    buf[at] = bytes[(x >> 40) % (sizeof bytes - 1)];
                    break;
                case 1:
                    n = at;     /* truncate */
                    break;
                default:
                    memmove(buf + at, buf + at + 1, n - at);   /* drop a byte */
                    n--;
                    break;
                }
                if (n == 0)
                    break;
            }
            ct_dbio_input *in = NULL;
            ct_err e = {""};
            ct_status st = ct_dbio_parse(buf, n, "mutated", NULL, &in, &e);
            CHECK_MSG(st == CT_OK || st == CT_ERR_USAGE, "mutation %d: status %d: %s", it, st, e.msg);
            CHECK_MSG(st == CT_OK || (e.msg[0] && !strchr(e.msg, '\n')), "mutation %d: message [%s]", it, e.msg);
            ok += st == CT_OK;
            refused += st != CT_OK;
            ct_dbio_free(in);
        }
        free(buf);
        free(files[f]);
    }
    CHECK(refused > 600);
    printf("mutations: %d accepted, %d refused\n", ok, refused);
}

static void cli(void)
{
    char a[600], out[600];
    path_in(a, sizeof a, "a.db");
    path_in(out, sizeof out, "cli.json");
    tc_result r;
    /* stdout by default, JSON, parseable, one record per line */
    convtune(&r, "db", "export", "--db", a, NULL);
    CHECK_MSG(r.code == 0, "db export: %d %s", r.code, r.err);
    ct_json *v = NULL;
    ct_err e;
    CHECK_MSG(ct_json_parse(r.out, r.outlen, &v, &e) == CT_OK, "db export output is not JSON: %s", e.msg);
    const ct_json *recs = ct_json_get(v, "records");
    CHECK(recs && recs->type == CT_JSON_ARRAY && recs->n == 6);
    if (recs && recs->n == 6) {
        const ct_json *p = ct_json_get(recs->items[0], "params");
        CHECK(p && p->type == CT_JSON_OBJECT);
        CHECK(recs->items[5]->line == 7);
    }
    ct_json_free(v);
    static const char head[] =
        "{\"format\":\"convtune-db\",\"version\":1,\"convtune\":\"" CONVTUNE_VERSION "\",\"records\":[\n{\"device\":\"";
    CHECK(strncmp(r.out, head, strlen(head)) == 0);
    tc_result_free(&r);
    /* -o: atomic, refuses to replace without --force */
    convtune(&r, "db", "export", "--db", a, "--format", "csv", "-o", out, NULL);
    CHECK_MSG(r.code == 0 && strstr(r.out, "6 records (csv)"), "db export -o: %d %s %s", r.code, r.out, r.err);
    tc_result_free(&r);
    convtune(&r, "db", "export", "--db", a, "-o", out, NULL);
    CHECK_MSG(r.code == 7 && tc_one_line(&r) && strstr(r.err, "exists (use --force"), "%d %s", r.code, r.err);
    tc_result_free(&r);
    convtune(&r, "db", "export", "--db", a, "-o", out, "--force", NULL);
    CHECK_MSG(r.code == 0, "db export --force: %d %s", r.code, r.err);
    tc_result_free(&r);
    char *t = tc_slurp(out, NULL);
    CHECK(t && t[0] == '{');
    free(t);
    /* usage */
    convtune(&r, "db", "export", "--db", a, "--format", "xml", NULL);
    CHECK(r.code == 2 && tc_one_line(&r) && strstr(r.err, "unknown format 'xml'"));
    tc_result_free(&r);
    convtune(&r, "db", "export", "--db", a, "file.json", NULL);
    CHECK(r.code == 2 && tc_one_line(&r) && strstr(r.err, "takes no file argument"));
    tc_result_free(&r);
    convtune(&r, "db", "import", "--db", a, NULL);
    CHECK(r.code == 2 && tc_one_line(&r) && strstr(r.err, "needs a FILE"));
    tc_result_free(&r);
    /* Several files: each added on its own; here all are already there. */
    convtune(&r, "db", "import", out, out, "--db", a, NULL);
    CHECK_MSG(r.code == 0 && strstr(r.out, ": 6 records: 0 imported, 6 skipped as duplicates\n") &&
                  strstr(strstr(r.out, "\n") + 1, ": 6 records: 0 imported, 6 skipped as duplicates\n"),
              "db import FILE FILE: %d %s %s", r.code, r.out, r.err);
    tc_result_free(&r);
    char missing[600];
    path_in(missing, sizeof missing, "missing.db");
    convtune(&r, "db", "export", "--db", missing, NULL);
    CHECK(r.code == 6 && tc_one_line(&r) && strstr(r.err, "does not exist"));
    tc_result_free(&r);
    CHECK(!tc_exists(missing));
    convtune(&r, "db", "frob", NULL);
    CHECK(r.code == 2 && strstr(r.err, "unknown db subcommand 'frob'"));
    tc_result_free(&r);
    convtune(&r, "db", "import", "--help", NULL);
    CHECK(r.code == 0 && strstr(r.out, "usage: convtune db import FILE"));
    tc_result_free(&r);
    convtune(&r, "export", "stray", NULL);
    CHECK(r.code == 2 && strstr(r.err, "unknown option 'stray'"));
    tc_result_free(&r);
    /* from stdin: "-" */
    char cmd[2000], sdb[600];
    path_in(sdb, sizeof sdb, "stdin.db");
    snprintf(cmd, sizeof cmd, "'%s' db import - --db '%s' < '%s' > '%s/.o' 2>&1", CT_BINARY, sdb, out, base);
    CHECK(system(cmd) == 0);
    CHECK(candidates_in(sdb) == 6);
}

int main(void)
{
    if (!mkdtemp(base)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(work, sizeof work, "%s/work", base);
    if (mkdir(work, 0700) != 0) {
        perror("mkdir");
        return 1;
    }
    tc_template_hash("conv1d_tiled", hash_tiled);
    tc_template_hash("conv1d_naive", hash_naive);
    define_runs();
    char a[600], b[600];
    path_in(a, sizeof a, "a.db");
    path_in(b, sizeof b, "b.db");
    make_db(a, 'A');
    make_db(b, 'B');

    round_trip("a", "json");
    round_trip("a", "csv");
    round_trip("b", "json");
    round_trip("b", "csv");
    provenance();
    merging();
    bad_files();
    mutations();
    cli();

    if (getenv("CT_TEST_KEEP"))
        printf("kept %s\n", base);
    else
        tc_rm_rf(base);
    CHECK_DONE();
}
