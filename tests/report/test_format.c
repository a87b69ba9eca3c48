/* test_format.c - the query output formats (format.c): table, CSV and
 * JSON of the records of a database filled like test_db.c's. No GPU. */
#include "db_common.h"
#include "format.h"

/* ------------------------------------------------------------------------ */
/* A minimal JSON reader for checking the writer: an array of flat-keyed
 * objects; each value is kept as its decoded string or raw text.           */

typedef struct jfield {
    char key[32];
    char type;          /* s string, n number, o object, a array, l null, b bool */
    char text[1024];    /* decoded string, or the raw value text */
} jfield;

typedef struct jobj {
    int n;
    jfield f[40];
} jobj;

static const char *jp_ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    return p;
}

static const char *jp_string(const char *p, char *out, size_t cap)
{
    size_t n = 0;
    if (*p++ != '"')
        return NULL;
    while (*p != '"') {
        unsigned c = (unsigned char)*p;
        if (c < 0x20)
            return NULL;
        if (c == '\\') {
            p++;
            switch (*p) {
            case '"': c = '"'; break;
            case '\\': c = '\\'; break;
            case '/': c = '/'; break;
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u': {
                char hex[5] = { 0 };
                char *end;
                memcpy(hex, p + 1, 4);
                c = (unsigned)strtoul(hex, &end, 16);
                if (end != hex + 4)
                    return NULL;
                p += 4;
                if (c >= 0x80) {            /* re-encode as UTF-8 (BMP is enough here) */
                    unsigned char u[3];
                    int k = 0;
                    if (c < 0x800) {
                        u[k++] = (unsigned char)(0xC0 | (c >> 6));
                    } else {
                        u[k++] = (unsigned char)(0xE0 | (c >> 12));
                        u[k++] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
                    }
                    u[k++] = (unsigned char)(0x80 | (c & 0x3F));
                    for (int i = 0; i < k - 1; i++)
                        if (n + 1 < cap)
                            out[n++] = (char)u[i];
                    c = u[k - 1];
                }
                break;
            }
            default:
                return NULL;
            }
        }
        if (n + 1 < cap)
            out[n++] = (char)c;
        p++;
    }
    out[n] = '\0';
    return p + 1;
}

static const char *jp_value(const char *p, char *type);

static const char *jp_container(const char *p, char close)
{
    char scratch[1024], t;
    p = jp_ws(p + 1);
    if (*p == close)
        return p + 1;
    for (;;) {
        if (close == '}') {
            if (!(p = jp_string(jp_ws(p), scratch, sizeof scratch)))
                return NULL;
            p = jp_ws(p);
            if (*p++ != ':')
                return NULL;
        }
        if (!(p = jp_value(p, &t)))
            return NULL;
        p = jp_ws(p);
        if (*p == close)
            return p + 1;
        if (*p++ != ',')
            return NULL;
    }
}

static const char *jp_value(const char *p, char *type)
{
    char scratch[1024];
    p = jp_ws(p);
    switch (*p) {
    case '{': *type = 'o'; return jp_container(p, '}');
    case '[': *type = 'a'; return jp_container(p, ']');
    case '"': *type = 's'; return jp_string(p, scratch, sizeof scratch);
    case 'n': *type = 'l'; return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
    case 't': *type = 'b'; return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
    case 'f': *type = 'b'; return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
    default: {
        char *end;
        *type = 'n';
        if (!(*p == '-' || (*p >= '0' && *p <= '9')))
            return NULL;
        strtod(p, &end);
        return end > p ? end : NULL;
    }
    }
}

/* Parse text as an array of objects into objs; the count, or -1. */
static int jp_array(const char *text, jobj *objs, int max)
{
    const char *p = jp_ws(text);
    int count = 0;
    if (*p++ != '[')
        return -1;
    p = jp_ws(p);
    if (*p == ']')
        return *jp_ws(p + 1) ? -1 : 0;
    for (;;) {
        jobj *o = count < max ? &objs[count] : NULL;
        p = jp_ws(p);
        if (*p++ != '{')
            return -1;
        if (o)
            o->n = 0;
        for (;;) {
            jfield f;
            const char *start;
            p = jp_string(jp_ws(p), f.key, sizeof f.key);
            if (!p)
                return -1;
            p = jp_ws(p);
            if (*p++ != ':')
                return -1;
            p = jp_ws(p);
            start = p;
            if (*p == '"') {
                f.type = 's';
                p = jp_string(p, f.text, sizeof f.text);
            } else {
                p = jp_value(p, &f.type);
                if (p) {
                    size_t n = (size_t)(p - start) < sizeof f.text - 1 ? (size_t)(p - start)
                                                                         : sizeof f.text - 1;
                    memcpy(f.text, start, n);
                    f.text[n] = '\0';
                }
            }
            if (!p)
                return -1;
            if (o && o->n < 40)
                o->f[o->n++] = f;
            p = jp_ws(p);
            if (*p == '}') {
                p++;
                break;
            }
            if (*p++ != ',')
                return -1;
        }
        count++;
        p = jp_ws(p);
        if (*p == ']')
            return *jp_ws(p + 1) ? -1 : count;
        if (*p++ != ',')
            return -1;
    }
}

static const jfield *jget(const jobj *o, const char *key)
{
    for (int i = 0; i < o->n; i++)
        if (strcmp(o->f[i].key, key) == 0)
            return &o->f[i];
    return NULL;
}

/* One RFC 4180 record from p into fields; returns the position after it. */
static const char *csv_record(const char *p, char fields[][1024], int max, int *nf)
{
    *nf = 0;
    for (;;) {
        char *out = *nf < max ? fields[*nf] : NULL;
        size_t n = 0;
        if (*p == '"') {
            p++;
            for (;;) {
                if (!*p)
                    return NULL;
                if (*p == '"') {
                    if (p[1] != '"') {
                        p++;
                        break;
                    }
                    p++;
                }
                if (out && n + 1 < 1024)
                    out[n++] = *p;
                p++;
            }
        } else {
            while (*p && *p != ',' && *p != '\n') {
                if (*p == '"' || *p == '\r')
                    return NULL;            /* must have been quoted */
                if (out && n + 1 < 1024)
                    out[n++] = *p;
                p++;
            }
        }
        if (out)
            out[n] = '\0';
        (*nf)++;
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p == '\n')
            return p + 1;
        return *p ? NULL : p;
    }
}

/* Run a writer over records into a malloc'd string. */
static char *render(ct_format fmt, const ct_result *recs, int n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    ct_writer *w = ct_writer_begin(f, fmt);
    CHECK(w != NULL);
    for (int i = 0; w && i < n; i++)
        CHECK(ct_writer_row(w, &recs[i]) == 0);
    CHECK(ct_writer_end(w) == 0);
    fclose(f);
    return buf;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* ------------------------------------------------------------------------ */
/* Format tests                                                             */

static void test_formats(ct_db *db)
{
    static rows rs;
    static jobj objs[64];
    ct_err e = { "" };
    ct_format fmt = CT_FMT_TABLE;
    char *out;

    CHECK(ct_format_parse("json", &fmt, &e) == CT_OK && fmt == CT_FMT_JSON);
    CHECK(ct_format_parse("csv", &fmt, &e) == CT_OK && fmt == CT_FMT_CSV);
    CHECK(ct_format_parse("table", &fmt, &e) == CT_OK && fmt == CT_FMT_TABLE);
    CHECK(ct_format_parse("xml", &fmt, &e) == CT_ERR_USAGE);
    CHECK_MSG(strstr(e.msg, "xml") != NULL, "%s", e.msg);
    CHECK(ct_format_parse(NULL, &fmt, &e) == CT_ERR_USAGE);

    /* Rows to print: everything for P1 plus the odd problem; give the odd
     * problem's row the odd error too, and add a damaged params text and
     * invalid UTF-8. */
    int n = query(db, P1, NULL, NULL, 0, 0, &rs);
    CHECK(n >= 11 && n < 60);
    CHECK(query(db, P3, NULL, NULL, 0, 0, &rs) == 1);   /* overwrites; re-query below */
    ct_result odd = rs.r[0];
    snprintf(odd.error, sizeof odd.error, "%s", ODD_ERROR);
    CHECK(query(db, P1, NULL, NULL, 0, 0, &rs) == n);
    rs.r[n++] = odd;
    ct_result damaged = rs.r[0];
    snprintf(damaged.params_json, sizeof damaged.params_json, "{\"BLOCK_SIZE\":25");
    snprintf(damaged.error, sizeof damaged.error, "bad \xff\xfe utf8 \xe2\x82");
    rs.r[n++] = damaged;

    /* JSON: parses, strings round-trip, params embedded as an object. */
    out = render(CT_FMT_JSON, rs.r, n);
    CHECK(out != NULL);
    int count = out ? jp_array(out, objs, 64) : -1;
    CHECK_MSG(count == n, "JSON did not parse as %d objects (%d):\n%s", n, count, out);
    if (count == n) {
        const jobj *o = &objs[0];
        const jfield *fl;
        const char *keys[] = { "problem", "device", "arch", "template", "params", "status",
                               "median_us", "tflops", "relerr", "error", "gbs", "pct_fma",
                               "pct_bw", "registers", "smem_bytes", "created_at" };
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            CHECK_MSG(jget(o, keys[k]) != NULL, "key %s missing", keys[k]);
        CHECK((fl = jget(o, "params")) && fl->type == 'o' && strcmp(fl->text, rs.r[0].params_json) == 0);
        CHECK((fl = jget(o, "problem")) && fl->type == 's' && strcmp(fl->text, P1) == 0);
        CHECK((fl = jget(o, "arch")) && strcmp(fl->text, "sm_90") == 0);
        CHECK((fl = jget(o, "median_us")) && fl->type == 'n' && close_to(atof(fl->text), 733.25));
        /* tflops = flops / median_us / 1e6 */
        CHECK((fl = jget(o, "tflops")) && fl->type == 'n' &&
              fabs(atof(fl->text) - 4.094e9 / 733.25 / 1e6) < 1e-4);
        CHECK((fl = jget(o, "gbs")) && fl->type == 'n' &&
              fabs(atof(fl->text) - 8.0082e6 / 733.25 / 1e3) < 1e-3);
        CHECK((fl = jget(o, "pct_fma")) && fl->type == 'n' &&
              fabs(atof(fl->text) - 100 * (4.094e9 / 733.25 / 1e6) / 51.73) < 0.01);
        CHECK((fl = jget(o, "relerr")) && fl->type == 'n');
        CHECK((fl = jget(o, "error")) && fl->type == 'l');

        int failed_seen = 0;
        for (int i = 0; i < count; i++) {
            const jfield *st = jget(&objs[i], "status");
            if (st && strcmp(st->text, "compile_failed") == 0) {
                failed_seen = 1;
                CHECK((fl = jget(&objs[i], "error")) && fl->type == 's' &&
                      strcmp(fl->text, ODD_ERROR) == 0);
                CHECK((fl = jget(&objs[i], "relerr")) && fl->type == 'l');
                CHECK((fl = jget(&objs[i], "median_us")) && fl->type == 'l');
                CHECK((fl = jget(&objs[i], "tflops")) && fl->type == 'l');
            }
            if (st && strcmp(st->text, "wrong_result") == 0) {
                CHECK((fl = jget(&objs[i], "tflops")) && fl->type == 'l');
                CHECK((fl = jget(&objs[i], "median_us")) && fl->type == 'n');
            }
        }
        CHECK(failed_seen);
        const jobj *oo = &objs[n - 2];
        CHECK((fl = jget(oo, "problem")) && fl->type == 's' && strcmp(fl->text, P3) == 0);
        CHECK((fl = jget(oo, "error")) && strcmp(fl->text, ODD_ERROR) == 0);
        CHECK((fl = jget(oo, "relerr")) && fl->type == 'l');
        CHECK((fl = jget(oo, "pct_fma")) && fl->type == 'l');    /* L4 never measured */
        const jobj *od = &objs[n - 1];
        CHECK((fl = jget(od, "params")) && fl->type == 's' &&
              strcmp(fl->text, "{\"BLOCK_SIZE\":25") == 0);
        CHECK((fl = jget(od, "error")) && fl->type == 's' && strstr(fl->text, "\xef\xbf\xbd"));
    }
    if (out && count == n) {
        /* The escapes themselves, as written. */
        CHECK(strstr(out, "\\\"odd\\\" \\\\name, 'x'\\nline2") != NULL);
        CHECK(strstr(out, "\\ttab\\u0001 end") != NULL);
    }
    free(out);

    out = render(CT_FMT_JSON, rs.r, 0);
    CHECK(out && jp_array(out, objs, 64) == 0);
    free(out);

    /* CSV: header, one record per row, fields decode back. */
    out = render(CT_FMT_CSV, rs.r, n);
    CHECK(out != NULL);
    if (out) {
        static char fields[32][1024];
        int nf = 0, records = 0;
        const char *p = out;
        p = csv_record(p, fields, 32, &nf);
        CHECK(p && nf == 18);
        CHECK_STR(fields[0], "problem");
        CHECK_STR(fields[4], "params");
        CHECK_STR(fields[9], "tflops");
        CHECK_STR(fields[17], "created_at");
        while (p && *p) {
            p = csv_record(p, fields, 32, &nf);
            CHECK_MSG(p && nf == 18, "CSV record %d has %d fields", records, nf);
            if (!p)
                break;
            if (records == 0) {
                CHECK_STR(fields[0], P1);
                CHECK_STR(fields[1], H100);
                CHECK_STR(fields[4], rs.r[0].params_json);
                CHECK(close_to(atof(fields[6]), 733.25));
                CHECK(fabs(atof(fields[9]) - 4.094e9 / 733.25 / 1e6) < 1e-4);
            }
            if (strcmp(fields[5], "compile_failed") == 0) {
                CHECK_STR(fields[16], ODD_ERROR);
                CHECK_STR(fields[6], "");
                CHECK_STR(fields[13], "");
            }
            if (records == n - 2) {
                CHECK_STR(fields[0], P3);
                CHECK_STR(fields[16], ODD_ERROR);
            }
            records++;
        }
        CHECK(records == n);
        /* The params field is quoted with its quotes doubled. */
        CHECK(strstr(out, "\"{\"\"BLOCK_SIZE\"\":128,\"\"TILE\"\":16}\"") != NULL);
    }
    free(out);

    /* Table: header plus one line per row, failures shown by status. */
    out = render(CT_FMT_TABLE, rs.r, n);
    CHECK(out && strlen(out) > 0);
    if (out) {
        CHECK(count_lines(out) == n + 1);
        CHECK(strncmp(out, "problem", 7) == 0);
        CHECK(strstr(out, "median_us") && strstr(out, "TFLOP/s") && strstr(out, "%FMA") && strstr(out, "%BW"));
        CHECK(strstr(out, "%peak") == NULL);
        CHECK(strstr(out, "compile_failed") && strstr(out, "exceeds_limits"));
        CHECK(strstr(out, "733.2") != NULL);
        CHECK(strstr(out, "{\"BLOCK_SIZE\":128,\"TILE\":16}") != NULL);
        /* Columns line up: "status" starts at the same offset on every line. */
        const char *nl = strchr(out, '\n');
        const char *hdr_status = strstr(out, "status");
        CHECK(hdr_status && nl && hdr_status < nl);
        const char *second = nl + 1;
        CHECK(strncmp(second + (hdr_status - out), "ok", 2) == 0);
    }
    free(out);

    /* More rows than the table buffers: still one line each. */
    {
        static ct_result many[300];
        for (int i = 0; i < 300; i++) {
            many[i] = rs.r[i % n];
            many[i].median_us = 10 + i * 3.25;
        }
        out = render(CT_FMT_TABLE, many, 300);
        CHECK(out && count_lines(out) == 301);
        free(out);
    }

    /* Writers straight from a query. */
    {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        ct_writer *w = ct_writer_begin(f, CT_FMT_JSON);
        ct_query q = {.problem = P1, .device = "h200", .winners_only = 1};
        CHECK(ct_db_query(db, &q, ct_writer_cb, w, &e) == CT_OK);
        CHECK(ct_writer_end(w) == 0);
        fclose(f);
        CHECK(buf && jp_array(buf, objs, 64) == 1);
        free(buf);
    }
    CHECK(ct_writer_end(NULL) == 0);
}

/* ------------------------------------------------------------------------ */

/* `% of peak` of a half problem is against the tensor-core ceiling, absent
 * when that was not measured; an fp32 problem's stays against the FMA one
 * (test_formats) although the device has both. */
static void test_half_peak(ct_db *db)
{
    static rows rs;
    static jobj objs[4];
    CHECK(query(db, P1, NULL, NULL, 1, 0, &rs) >= 1);
    ct_result r[2] = {rs.r[0], rs.r[0]};
    CHECK(r[0].status == CT_RS_OK && r[0].median_us > 0 && r[0].tc_half_tflops == 495.5);
    snprintf(r[0].problem, sizeof r[0].problem, "%s:bf16", P1);
    snprintf(r[1].problem, sizeof r[1].problem, "%s:f16", P1);
    r[1].tc_half_tflops = NAN;
    char *out = render(CT_FMT_JSON, r, 2);
    CHECK_MSG(out && jp_array(out, objs, 4) == 2, "JSON: %s", out ? out : "(none)");
    const jfield *fl;
    double tflops = r[0].flops / r[0].median_us / 1e6;
    CHECK((fl = jget(&objs[0], "pct_fma")) && fl->type == 'n' && fabs(atof(fl->text) - 100 * tflops / 495.5) < 0.01);
    CHECK((fl = jget(&objs[1], "pct_fma")) && fl->type == 'l');
    CHECK(ct_result_peak_tflops(&r[0]) == 495.5 && ct_result_peak_tflops(&r[1]) == 0);
    CHECK(ct_result_peak_tflops(&rs.r[0]) == 51.73);
    free(out);
}

/* The table labels its two ceilings: a verified row shows its percentage
 * of the FMA ceiling under %FMA and of the memory bandwidth under %BW,
 * each right-aligned under its own header (not one "%peak" holding the
 * larger). The record's time is random, so the two differ by chance. */
static void test_table_ceilings(ct_db *db)
{
    static rows rs;
    CHECK(query(db, P1, NULL, NULL, 1, 0, &rs) >= 1);
    ct_result r = rs.r[0];
    r.median_us = 1 + (double)(rng() % 100000) / 100;
    r.bandwidth_gbs = 100 + rng() % 4000;
    CHECK(r.status == CT_RS_OK && r.flops > 0 && r.bytes > 0 && ct_result_peak_tflops(&r) > 0);
    char fma[32], bw[32];
    snprintf(fma, sizeof fma, "%.1f", 100.0 * (r.flops / r.median_us / 1e6) / ct_result_peak_tflops(&r));
    snprintf(bw, sizeof bw, "%.1f", 100.0 * (r.bytes / r.median_us / 1e3) / r.bandwidth_gbs);
    char *out = render(CT_FMT_TABLE, &r, 1);
    const char *row = out ? strchr(out, '\n') : NULL;
    CHECK_MSG(row && count_lines(out) == 2, "table: %s", out ? out : "(none)");
    if (row) {
        row++;
        static const char *const heads[2] = {"%FMA", "%BW"};
        const char *want[2] = {fma, bw};
        for (int i = 0; i < 2; i++) {
            const char *h = strstr(out, heads[i]);
            CHECK_MSG(h && h < row, "no %s header: %s", heads[i], out);
            if (!h || h >= row)
                continue;
            size_t end = (size_t)(h - out) + strlen(heads[i]), wl = strlen(want[i]);
            CHECK_MSG(end >= wl && strlen(row) > end && !strncmp(row + end - wl, want[i], wl) &&
                          row[end - wl - 1] == ' ' && row[end] == ' ',
                      "%s: expected %s under it:\n%s", heads[i], want[i], out);
        }
    }
    free(out);
}

int main(void)
{
    char path[512];
    ct_err e = { "" };
    ct_db *db = NULL;
    static ids t;

    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    rng_state ^= (uint32_t)getpid();
    snprintf(path, sizeof path, "%s/convtune.db", tmpdir);
    ct_status st = ct_db_open(path, 1, &db, &e);
    CHECK_MSG(st == CT_OK, "open: %s", e.msg);
    if (st == CT_OK) {
        test_store(db, &t);
        test_formats(db);
        test_half_peak(db);
        test_table_ceilings(db);
        ct_db_close(db);
    }
    nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    CHECK_DONE();
}
