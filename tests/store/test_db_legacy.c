/* test_db_legacy.c - databases written by earlier convtune versions still
 * open, query, export and import, with the same output byte for byte.
 *
 * tests/fixtures/report.db is a database from a real GPU run; legacy.db was
 * made by the convtune before the record (result.h) was unified, with `db
 * import` of a file holding every status, absent values, an imported zero
 * spread and compile time, a spread stored as NULL, a parameter object with
 * blanks, non-ASCII and control characters in an error, and a device without
 * ceilings. tests/fixtures/legacy/ holds what that convtune printed for them
 * (query in every format, query --nearest, db export, the export of a
 * winner), and this test compares the current binary's output with it
 * (an import stores params in canonical form: that object's blanks go;
 * legacy.export.cu holds conv1d_tiled's text as it is since the half copy
 * was folded into it, the same code, as test_fold.c shows; both export
 * files also have the kernel renames for nvcc builds that single exports
 * gained so that two of one template link together, test_export_link.c).
 *
 * pre_code_hash.db was made by the convtune before code hashes (schema
 * version 2, commit 3adfbbd): `db import` of report.db's records with the
 * template hashes of that commit's templates (so that they export), three
 * bf16 conv2dc_naive results (a template including shared headers), and the
 * conv1dc layer's winner with a template hash of another version of its
 * template. pre_code_hash/ holds what that convtune printed: the winners
 * (table, JSON) and the export of the bf16 winner; it refused the conv1dc
 * winner. The current binary must do the same and write nothing to it.
 * No GPU. */
#include "export_common.h"

#include <stdarg.h>

#define TIMEOUT_S 120
#define FIXTURES CT_SOURCE_DIR "/tests/fixtures"

static char base[] = "/tmp/ct_test_db_legacy_XXXXXX";

static void copy_file(const char *from, const char *to)
{
    size_t n = 0;
    char *data = tc_slurp(from, &n);
    CHECK_MSG(data != NULL, "cannot read %s", from);
    FILE *f = data ? fopen(to, "wb") : NULL;
    CHECK_MSG(f != NULL, "cannot write %s", to);
    if (f) {
        CHECK(fwrite(data, 1, n, f) == n);
        fclose(f);
    }
    free(data);
}

/* Run convtune with args (NULL-terminated) in the work folder; exit 0 and
 * no stderr expected; returns stdout (to free). */
static char *convtune_ok(const char *what, ...)
{
    va_list ap;
    tc_result r;
    va_start(ap, what);
    tc_convtune_v(base, base, TIMEOUT_S, &r, ap);
    va_end(ap);
    CHECK_MSG(r.code == 0, "%s: exit %d: %s", what, r.code, r.err);
    char *out = r.out;
    r.out = NULL;
    tc_result_free(&r);
    return out ? out : strdup("");
}

/* got must equal the fixture file name byte for byte: an export holds no
 * time of its own, so nothing is masked. */
static void same_as(const char *what, char *got, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, FIXTURES "/%s%s", strchr(name, '/') ? "" : "legacy/", name);
    char *want = tc_slurp(path, NULL);
    CHECK_MSG(want != NULL, "cannot read %s", path);
    if (!want || !got)
        return;
    size_t i = 0;
    while (want[i] && want[i] == got[i])
        i++;
    CHECK_MSG(want[i] == got[i], "%s differs from %s at byte %zu:\n  want: %.120s\n  got:  %.120s", what, name, i,
              want + i, got + i);
    free(want);
}

static void same_file(const char *what, const char *file, const char *name)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", base, file);
    char *got = tc_slurp(path, NULL);
    CHECK_MSG(got != NULL, "%s: no %s", what, path);
    same_as(what, got, name);
    free(got);
}

static void query_same(const char *db, const char *fmt, int all, const char *name)
{
    char *out = all ? convtune_ok(name, "query", "--db", db, "--all", "--format", fmt, NULL)
                    : convtune_ok(name, "query", "--db", db, "--format", fmt, NULL);
    same_as(name, out, name);
    free(out);
}

int main(void)
{
    CHECK(mkdtemp(base) != NULL);
    char db[600], rdb[600];
    snprintf(db, sizeof db, "%s/legacy.db", base);
    snprintf(rdb, sizeof rdb, "%s/report.db", base);
    copy_file(FIXTURES "/legacy.db", db);
    copy_file(FIXTURES "/report.db", rdb);

    /* query: table, JSON and CSV, every candidate and the winners */
    query_same(db, "table", 1, "legacy.query.txt");
    query_same(db, "json", 1, "legacy.query.json");
    query_same(db, "csv", 1, "legacy.query.csv");
    query_same(db, "json", 0, "legacy.winners.json");
    query_same(rdb, "table", 1, "report.query.txt");
    query_same(rdb, "json", 0, "report.winners.json");

    /* what the selector picks, with the stored record */
    char *out = convtune_ok("nearest", "query", "--db", db, "--nearest", "conv1d:16:4:right", "--format", "json",
                            NULL);
    same_as("query --nearest --format json", out, "legacy.nearest.json");
    free(out);
    out = convtune_ok("nearest", "query", "--db", db, "--nearest", "conv1d:16:4:right", NULL);
    same_as("query --nearest", out, "legacy.nearest.txt");
    free(out);

    /* db export, and its import into a new database exporting the same */
    free(convtune_ok("db export json", "db", "export", "--db", db, "--format", "json", "-o", "legacy.export.json",
                     NULL));
    same_file("db export --format json", "legacy.export.json", "legacy.export.json");
    free(convtune_ok("db export csv", "db", "export", "--db", db, "--format", "csv", "-o", "legacy.export.csv", NULL));
    same_file("db export --format csv", "legacy.export.csv", "legacy.export.csv");
    for (int k = 0; k < 2; k++) {
        const char *fmt = k ? "csv" : "json";
        char file[64], copy[64], again[64];
        snprintf(file, sizeof file, "legacy.export.%s", fmt);
        snprintf(copy, sizeof copy, "copy_%s.db", fmt);
        snprintf(again, sizeof again, "again.%s", fmt);
        free(convtune_ok("db import", "db", "import", file, "--db", copy, NULL));
        free(convtune_ok("db export again", "db", "export", "--db", copy, "--format", fmt, "-o", again, NULL));
        /* The same but for the blanks of the parameter object legacy.db
         * stored as given: an import stores params in canonical form. */
        char path[700], *want = NULL, *got = NULL;
        snprintf(path, sizeof path, FIXTURES "/legacy/%s", file);
        want = tc_slurp(path, NULL);
        snprintf(path, sizeof path, "%s/%s", base, again);
        got = tc_slurp(path, NULL);
        CHECK(want && got);
        if (want && got) {
            CHECK_MSG(strcmp(want, got) != 0, "%s: the blanks of legacy.db's params were kept", again);
            size_t o = 0;
            for (size_t i = 0; want[i]; i++)
                if (want[i] != ' ')
                    want[o++] = want[i];
            want[o] = '\0';
            o = 0;
            for (size_t i = 0; got[i]; i++)
                if (got[i] != ' ')
                    got[o++] = got[i];
            got[o] = '\0';
            CHECK_MSG(!strcmp(want, got), "export of the imported %s differs from it beyond blanks", file);
        }
        free(want);
        free(got);
        /* and from there on export -> import -> export is the same file */
        char copy2[64], again2[64];
        snprintf(copy2, sizeof copy2, "copy2_%s.db", fmt);
        snprintf(again2, sizeof again2, "again2.%s", fmt);
        free(convtune_ok("db import again", "db", "import", again, "--db", copy2, NULL));
        free(convtune_ok("db export twice", "db", "export", "--db", copy2, "--format", fmt, "-o", again2, NULL));
        snprintf(path, sizeof path, "%s/%s", base, again);
        want = tc_slurp(path, NULL);
        snprintf(path, sizeof path, "%s/%s", base, again2);
        got = tc_slurp(path, NULL);
        CHECK_MSG(want && got && !strcmp(want, got), "%s and %s differ", again, again2);
        free(want);
        free(got);
    }

    /* export of the fastest winner: an H200 without measured ceilings */
    free(convtune_ok("export", "export", "--db", db, "--problem", "conv1d:15:4:right", "-o", "legacy.export.cu",
                     NULL));
    same_file("export .cu", "legacy.export.cu", "legacy.export.cu");
    same_file("export .h", "legacy.export.h", "legacy.export.h");

    /* Reading wrote nothing into the fixtures' copies. */
    size_t na = 0, nb = 0;
    char *a = tc_slurp(db, &na), *b = tc_slurp(FIXTURES "/legacy.db", &nb);
    CHECK_MSG(a && b && na == nb && memcmp(a, b, na) == 0, "query or export changed legacy.db");
    free(a);
    free(b);

    /* A database of schema version 2, before code hashes. */
    char pdb[600];
    snprintf(pdb, sizeof pdb, "%s/pre_code_hash.db", base);
    copy_file(FIXTURES "/pre_code_hash.db", pdb);
    out = convtune_ok("pre_code_hash winners", "query", "--db", pdb, NULL);
    same_as("query of pre_code_hash.db", out, "pre_code_hash/winners.txt");
    free(out);
    out = convtune_ok("pre_code_hash winners json", "query", "--db", pdb, "--format", "json", NULL);
    same_as("query --format json of pre_code_hash.db", out, "pre_code_hash/winners.json");
    free(out);
    free(convtune_ok("pre_code_hash export", "export", "--db", pdb, "--problem",
                     "conv2dc:2:64:16:16:64:3:3:same:bias:bf16", "-o", "conv2dc_2_64_16_16_64_3_3_same_bias_bf16.cu",
                     NULL));
    same_file("export .cu of a bf16 winner", "conv2dc_2_64_16_16_64_3_3_same_bias_bf16.cu", "pre_code_hash/export.cu");
    same_file("export .h of a bf16 winner", "conv2dc_2_64_16_16_64_3_3_same_bias_bf16.h", "pre_code_hash/export.h");
    tc_result r;
    char *argv[] = {(char *)CT_BINARY, "export", "--db", pdb, "--problem", "conv1dc:1:1024:4:1024:5:pad=2:bias", "-o",
                    "stale.cu", NULL};
    tc_run(argv, base, base, TIMEOUT_S, &r);
    /* The message names the template's hash today (any refactor of its
     * text changes it) and the one stored. */
    CHECK_MSG(r.code == 6 &&
                  strstr(r.err, "template conv1dc_tiled changed since the result for conv1dc:1:1024:4:1024"
                                ":5:pad=2:bias was tuned (hash ") &&
                  strstr(r.err, ", stored 0123456789abcdef)"),
              "export of a result tuned with another template: exit %d: %s", r.code, r.err);
    tc_result_free(&r);
    /* db export: no code_hash column while no record has one */
    free(convtune_ok("pre_code_hash db export", "db", "export", "--db", pdb, "--format", "csv", "-o", "pre.csv", NULL));
    char pcsv[600];
    snprintf(pcsv, sizeof pcsv, "%s/pre.csv", base);
    char *csv = tc_slurp(pcsv, NULL);
    CHECK(csv && strstr(csv, ",template_hash,") && !strstr(csv, "code_hash"));
    free(csv);
    a = tc_slurp(pdb, &na);
    b = tc_slurp(FIXTURES "/pre_code_hash.db", &nb);
    CHECK_MSG(a && b && na == nb && memcmp(a, b, na) == 0, "query or export changed pre_code_hash.db");
    free(a);
    free(b);

    tc_rm_rf(base);
    CHECK_DONE();
}
