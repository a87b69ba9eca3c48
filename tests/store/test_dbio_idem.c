/* test_dbio_idem.c - `convtune db import` is idempotent on values and
 * refuses parameters out of their declared range, through the real binary,
 * on the records of tests/fixtures/report.db (a real GPU run):
 *
 *   reformatted   the export with every params object indented and its
 *                 keys in reverse order (what jq or Python make of it), the
 *                 same with a UTF-8 byte order mark, and the CSV export with
 *                 blanks in its objects and a byte order mark (Excel's "CSV
 *                 UTF-8"): each imports nothing new (I126, I132, I135,
 *                 I136), and the database still exports the first file
 *   refused       "BLOCK_SIZE":"128" (I102), BLOCK_SIZE 2147483647 with the
 *                 fastest time (I113, I153), a negative driver version
 *                 (I107), the same BLOCK_SIZE in a shard database: one line
 *                 naming file, record and key, exit 2, the target unchanged
 *   257 files     refused naming the limit (I146), nothing created
 * No GPU. */
#include "export_common.h"

#include <stdarg.h>
#include <sqlite3.h>

#define TIMEOUT_S 120
#define FIXTURE CT_SOURCE_DIR "/tests/fixtures/report.db"
#define NRECORDS 240

static char base[] = "/tmp/ct_test_dbio_idem_XXXXXX";

static void path_in(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", base, name);
}

static void convtune(tc_result *r, ...)
{
    va_list ap;
    va_start(ap, r);
    tc_convtune_v(base, base, TIMEOUT_S, r, ap);
    va_end(ap);
}

/* convtune db import FILE --db DB: exit 0 and the counts. */
static void import_counts(const char *file, const char *db, long imported, long skipped)
{
    tc_result r;
    convtune(&r, "db", "import", file, "--db", db, NULL);
    char want[200];
    snprintf(want, sizeof want, ": %d records: %ld imported, %ld skipped as duplicates\n", NRECORDS, imported,
             skipped);
    CHECK_MSG(r.code == 0 && strstr(r.out, want), "db import %s: exit %d: [%s] [%s], expected [%s]", file, r.code,
              r.out, r.err, want);
    tc_result_free(&r);
}

static char *db_export(const char *db, const char *fmt, const char *out)
{
    tc_result r;
    unlink(out);
    convtune(&r, "db", "export", "--db", db, "--format", fmt, "-o", out, NULL);
    CHECK_MSG(r.code == 0, "db export %s: exit %d: %s", db, r.code, r.err);
    tc_result_free(&r);
    return tc_slurp(out, NULL);
}

/* Append n bytes of s to the growing buffer *b (length *n, capacity *cap). */
static void put(char **b, size_t *n, size_t *cap, const char *s, size_t len)
{
    if (*n + len + 1 > *cap) {
        *cap = 2 * (*n + len + 1);
        *b = realloc(*b, *cap);
    }
    memcpy(*b + *n, s, len);
    *n += len;
    (*b)[*n] = '\0';
}

/* The JSON export with each "params":{...} object rewritten: indented, one
 * member a line, the members in reverse order (no member holds a brace or
 * a comma: integers and symbol names). */
static char *reformat_json(const char *text)
{
    static const char mark[] = "\"params\":{";
    char *out = NULL;
    size_t n = 0, cap = 0;
    const char *p = text, *at;
    int objects = 0;
    while ((at = strstr(p, mark)) != NULL) {
        put(&out, &n, &cap, p, (size_t)(at - p) + strlen(mark) - 1);
        const char *open = at + strlen(mark), *close = strchr(open, '}');
        CHECK(close != NULL);
        const char *member[64];
        size_t len[64];
        int k = 0;
        for (const char *m = open; m < close && k < 64;) {
            const char *comma = memchr(m, ',', (size_t)(close - m));
            const char *end = comma ? comma : close;
            member[k] = m;
            len[k++] = (size_t)(end - m);
            m = end + 1;
        }
        put(&out, &n, &cap, "{\n", 2);
        for (int i = k - 1; i >= 0; i--) {
            const char *colon = memchr(member[i], ':', len[i]);
            put(&out, &n, &cap, "        ", 8);
            put(&out, &n, &cap, member[i], (size_t)(colon - member[i]) + 1);
            put(&out, &n, &cap, " ", 1);
            put(&out, &n, &cap, colon + 1, len[i] - (size_t)(colon + 1 - member[i]));
            put(&out, &n, &cap, i ? ",\n" : "\n", i ? 2 : 1);
        }
        put(&out, &n, &cap, "    }", 5);
        p = close + 1;
        objects++;
    }
    put(&out, &n, &cap, p, strlen(p));
    CHECK_MSG(objects == NRECORDS, "%d params objects rewritten", objects);
    return out;
}

/* The CSV export with a blank after each ':' and ',' inside its JSON
 * objects (their quotes are doubled: "":) and a byte order mark first. */
static char *reformat_csv(const char *text)
{
    char *out = NULL;
    size_t n = 0, cap = 0;
    int blanks = 0;
    put(&out, &n, &cap, "\xEF\xBB\xBF", 3);
    for (const char *p = text; *p; p++) {
        put(&out, &n, &cap, p, 1);
        int colon = p[0] == '"' && p[1] == '"' && p[2] == ':';
        int comma = p > text && p[0] == ',' && p[1] == '"' && p[2] == '"' && p[-1] != ',';
        if (colon || comma) {
            if (p[0] == '"') {
                put(&out, &n, &cap, "\":", 2);
                p += 2;
            }
            put(&out, &n, &cap, " ", 1);
            blanks++;
        }
    }
    CHECK(blanks > NRECORDS);
    return out;
}

/* A bad import: exit 2, one line holding want, the target unchanged. */
static void refused(const char *name, const char *text, const char *target, const char *want)
{
    char file[600];
    path_in(file, sizeof file, name);
    if (text)
        CHECK(tc_write_text(file, text) == 0);
    size_t n0 = 0, n1 = 0;
    char *before = tc_slurp(target, &n0);
    tc_result r;
    convtune(&r, "db", "import", file, "--db", target, NULL);
    CHECK_MSG(r.code == 2 && tc_one_line(&r) && !strncmp(r.err, "convtune: ", 10) && strstr(r.err, want) &&
                  r.outlen == 0,
              "import %s: exit %d: [%s], expected [%s]", name, r.code, r.err, want);
    tc_result_free(&r);
    char *after = tc_slurp(target, &n1);
    CHECK_MSG(before && after && n0 == n1 && !memcmp(before, after, n0), "import %s changed %s", name, target);
    free(before);
    free(after);
}

/* text with the number after the first key at or after from replaced by
 * fmt (its "%s" the number). */
static char *with_number(const char *text, const char *from, const char *key, const char *fmt)
{
    const char *at = strstr(from, key);
    CHECK_MSG(at != NULL, "the text lacks [%s]", key);
    if (!at)
        return strdup(text);
    const char *num = at + strlen(key), *end = num;
    while (*end && strchr("0123456789.e-", *end))
        end++;
    char old[64], repl[128];
    snprintf(old, sizeof old, "%.*s", (int)(end - num), num);
    snprintf(repl, sizeof repl, fmt, old);
    char *s = malloc(strlen(text) + strlen(repl) + 1);
    memcpy(s, text, (size_t)(num - text));
    strcpy(s + (num - text), repl);
    strcat(s, end);
    return s;
}

int main(void)
{
    CHECK(mkdtemp(base) != NULL);
    char db[600], target[600], fj[600], fc[600], again[600], file[600];
    path_in(db, sizeof db, "source.db");
    path_in(target, sizeof target, "target.db");
    path_in(fj, sizeof fj, "all.json");
    path_in(fc, sizeof fc, "all.csv");
    path_in(again, sizeof again, "again.json");
    size_t n = 0;
    char *fixture = tc_slurp(FIXTURE, &n);
    CHECK(fixture && tl_write_file(db, fixture, n) == 0);
    free(fixture);
    char *json = db_export(db, "json", fj), *csv = db_export(db, "csv", fc);
    CHECK(json && csv);
    if (!json || !csv)
        CHECK_DONE();
    import_counts(fj, target, NRECORDS, 0);

    /* reformatted: nothing new */
    char *pretty = reformat_json(json);
    path_in(file, sizeof file, "pretty.json");
    CHECK(tc_write_text(file, pretty) == 0);
    import_counts(file, target, 0, NRECORDS);
    char *bom = malloc(strlen(pretty) + 4);
    sprintf(bom, "\xEF\xBB\xBF%s", pretty);
    path_in(file, sizeof file, "bom.json");
    CHECK(tc_write_text(file, bom) == 0);
    import_counts(file, target, 0, NRECORDS);
    char *spaced = reformat_csv(csv);
    path_in(file, sizeof file, "bom.csv");
    CHECK(tc_write_text(file, spaced) == 0);
    import_counts(file, target, 0, NRECORDS);
    /* into a fresh database they import as the first file did */
    char fresh[600];
    path_in(fresh, sizeof fresh, "fresh.db");
    import_counts(file, fresh, NRECORDS, 0);
    char *back = db_export(target, "json", again);
    CHECK_MSG(back && !strcmp(back, json), "the target does not export the first file again");
    free(back);
    /* (fresh.db keeps the blanks of the run settings, stored as given) */
    back = db_export(fresh, "json", again);
    int objects = 0, blank = 0;
    for (const char *p = back; p && (p = strstr(p, "\"params\":{")) != NULL; p++, objects++) {
        const char *close = strchr(p, '}');
        blank |= !close || memchr(p, ' ', (size_t)(close - p)) != NULL;
    }
    CHECK_MSG(objects == NRECORDS && !blank, "the reformatted CSV's params were not stored in canonical form");
    free(back);

    /* refused: a string for an integer, past the declared largest (with
     * the fastest time, so that it would be the winner export writes), a
     * negative driver version */
    char *s = with_number(json, json, "\"params\":{\"BLOCK_SIZE\":", "\"%s\"");
    refused("string.json", s, target, "string.json: record 1 (line 2): field 'params': ");
    refused("string.json", NULL, target, "parameter BLOCK_SIZE: expected an integer, got the string \"");
    free(s);
    const char *naive = strstr(json, "\"template\":\"conv1d_naive\"");
    CHECK(naive != NULL);
    if (naive) {
        char *s1 = with_number(json, naive, "\"params\":{\"BLOCK_SIZE\":", "2147483647");
        char *s2 = with_number(s1, s1 + (naive - json), "\"median_us\":", "0.001");
        refused("big.json", s2, target, "field 'params': conv1d_naive: parameter BLOCK_SIZE: bad value 2147483647 "
                                        "(at most 1024)");
        free(s1);
        free(s2);
    }
    s = with_number(json, json, "\"driver_version\":", "-5");
    refused("negdriver.json", s, target, "negdriver.json: record 1 (line 2): field 'driver_version': -5 is out of "
                                         "range (must be >= 0)");
    free(s);
    /* the same bound on a shard database's records */
    char shard[600];
    path_in(shard, sizeof shard, "shard.db");
    char *copy = tc_slurp(db, &n);
    CHECK(copy && tl_write_file(shard, copy, n) == 0);
    free(copy);
    sqlite3 *h = NULL;
    CHECK(sqlite3_open(shard, &h) == SQLITE_OK &&
          sqlite3_exec(h, "UPDATE candidates SET params = '{\"BLOCK_SIZE\":2147483647}'"
                          " WHERE template = 'conv1d_naive'", NULL, NULL, NULL) == SQLITE_OK &&
          sqlite3_changes(h) > 0);
    sqlite3_close(h);
    refused("shard.db", NULL, target, "shard.db: candidate ");
    refused("shard.db", NULL, target, "parameter BLOCK_SIZE: bad value 2147483647 (at most 1024)");

    /* 257 files: the limit named, nothing created */
    {
        char *argv[300];
        int k = 0;
        char never[600];
        path_in(never, sizeof never, "never.db");
        argv[k++] = CT_BINARY;
        argv[k++] = "db";
        argv[k++] = "import";
        for (int i = 0; i < 257; i++)
            argv[k++] = fj;
        argv[k++] = "--db";
        argv[k++] = never;
        argv[k] = NULL;
        tc_result r;
        tc_run(argv, base, base, TIMEOUT_S, &r);
        CHECK_MSG(r.code == 2 && tc_one_line(&r) &&
                      strstr(r.err, "convtune: too many file arguments (at most 256 in one command"),
                  "257 files: exit %d: [%s]", r.code, r.err);
        tc_result_free(&r);
        CHECK(!tc_exists(never));
    }
    free(json);
    free(csv);
    free(pretty);
    free(bom);
    free(spaced);
    tc_rm_rf(base);
    CHECK_DONE();
}
