/* test_db.c - the SQLite store (db.c) and the query output formats
 * (format.c), on a fresh database in a temporary directory. No GPU. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "check.h"
#include "db.h"
#include "format.h"

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define H100 "NVIDIA H100 80GB HBM3"
#define H200 "NVIDIA H200"
#define P1 "conv1d:1000000:2047:valid"
#define P2 "conv1d:4096:31:same"
/* A problem string with every character that needs escaping somewhere. */
#define P3 "conv1d:\"odd\" \\name, 'x'\nline2"
#define ODD_ERROR "nvrtc: \"bad\" \\ token, here\nline 2\ttab\x01 end"

static char tmpdir[] = "/tmp/ct_test_db_XXXXXX";

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
    return stat(path, &sb) == 0;
}

/* Whole file into a malloc'd buffer; *len its size. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;
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

/* Whether the file at path still has exactly the given bytes. */
static int same_bytes(const char *path, const unsigned char *want, size_t want_len)
{
    size_t len = 0;
    unsigned char *got = slurp(path, &len);
    int same = got && len == want_len && memcmp(got, want, len) == 0;
    free(got);
    return same;
}

static uint32_t rng_state = 0x9e3779b9u;
static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static ct_result cand(const char *tmpl, const char *params, const char *status, double median_us,
                      double relerr)
{
    ct_result r;
    ct_result_init(&r);
    snprintf(r.tmpl, sizeof r.tmpl, "%s", tmpl);
    snprintf(r.template_hash, sizeof r.template_hash, "%08x%08x", rng(), rng());
    snprintf(r.params_json, sizeof r.params_json, "%s", params);
    ct_result_status_parse(status, &r.status);
    r.median_us = median_us;
    if (median_us > 0) {
        r.min_us = median_us * 0.97;
        r.max_us = median_us * 1.05;
        r.spread = (r.max_us - r.min_us) / median_us;
        r.reps = 17 + (int)(rng() % 13);
        r.registers = 32 + (int)(rng() % 64);
        r.smem_bytes = 1024 * (int)(1 + rng() % 40);
        r.local_bytes = (int)(rng() % 3) * 8;
    }
    r.relerr = relerr;
    r.compile_ms = 41.5 + (rng() % 1000) / 7.0;
    if (strcmp(status, "ok") != 0)
        snprintf(r.error, sizeof r.error, "%s: synthetic failure %u", status, rng() % 1000);
    return r;
}

typedef struct rows {
    int n;
    ct_result r[64];
} rows;

static int collect(const ct_result *r, void *user)
{
    rows *rs = user;
    if (rs->n < 64)
        rs->r[rs->n++] = *r;
    return 0;
}

static int query(ct_db *db, const char *problem, const char *device, const char *family,
                 int winners, int ok_only, rows *out)
{
    ct_query q = {.problem = problem, .device = device, .family = family, .winners_only = winners,
                  .ok_only = ok_only};
    ct_err e = { "" };
    out->n = 0;
    ct_status st = ct_db_query(db, &q, collect, out, &e);
    CHECK_MSG(st == CT_OK, "query: %s", e.msg);
    return st == CT_OK ? out->n : -1;
}

static int stop_after_two(const ct_result *r, void *user)
{
    int *calls = user;
    (void)r;
    return ++*calls == 2;
}

static int close_to(double a, double b)
{
    double d = a - b;
    if (d < 0) d = -d;
    return d <= 1e-9 * (b < 0 ? -b : b) + 1e-12;
}

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
/* Database tests                                                           */

typedef struct ids {
    long long dev_a, dev_b, dev_c, p1, p2, p3;
    long long run_a1, run_b1, run_a2, run_p2, run_p3, run_a1_late;
    long long fastest_ok_a;         /* id of the expected winner on H100 */
    int total;                      /* candidates stored */
} ids;

/* ct_db_dump callback: n[0] rows whose run settings hold noted conditions
 * (with the earlier settings kept), n[1] rows. */
static int count_noted(const ct_result *r, void *user)
{
    int *n = user;
    n[0] += strstr(r->run_settings, "\"conditions\":{\"sm_mhz\":[1980,1985]") && strstr(r->run_settings, "\"warmup\":3");
    n[1]++;
    return 0;
}

static void add(ct_db *db, long long run, const ct_result *r, ids *t)
{
    ct_err e = { "" };
    ct_status st = ct_db_candidate_add(db, run, r, &e);
    CHECK_MSG(st == CT_OK, "candidate_add: %s", e.msg);
    if (st == CT_OK)
        t->total++;
}

static void test_store(ct_db *db, ids *t)
{
    ct_err e = { "" };
    ct_device_info a = { H100, "GPU-4f1c2a9e-77d0-1b3c-9a0e-5d2f6b7c8e91", 9, 0, 132, 13000,
                         13, 0, 51.73, 3021.4, 2.31 };
    ct_device_info b = { H200, "GPU-0a9b8c7d-1122-3344-5566-778899aabbcc", 9, 0, 132, 13000,
                         13, 0, 53.9, 4286.5, 2.17 };
    ct_device_info c = { "NVIDIA L4", "", 8, 9, 58, 12080, 12, 8, 0, 0, 0 };
    double fma = 0, bw = 0, launch = 0;

    CHECK(ct_db_device_upsert(db, &a, &t->dev_a, &e) == CT_OK);
    CHECK(ct_db_device_upsert(db, &b, &t->dev_b, &e) == CT_OK);
    CHECK(ct_db_device_upsert(db, &c, &t->dev_c, &e) == CT_OK);
    CHECK(t->dev_a > 0 && t->dev_b > 0 && t->dev_c > 0);
    CHECK(t->dev_a != t->dev_b && t->dev_b != t->dev_c);

    /* Same identity again without measurements: same row, ceilings kept. */
    ct_device_info a2 = a;
    long long again = 0;
    a2.fma_tflops = a2.bandwidth_gbs = a2.launch_us = 0;
    CHECK(ct_db_device_upsert(db, &a2, &again, &e) == CT_OK);
    CHECK(again == t->dev_a);
    CHECK(ct_db_device_ceilings(db, &a, &fma, &bw, &launch, &e) == CT_OK);
    CHECK(close_to(fma, 51.73) && close_to(bw, 3021.4) && close_to(launch, 2.31));
    /* A new bandwidth replaces only the bandwidth. */
    a2.bandwidth_gbs = 3105.25;
    CHECK(ct_db_device_upsert(db, &a2, &again, &e) == CT_OK && again == t->dev_a);
    CHECK(ct_db_device_ceilings(db, &a, &fma, &bw, &launch, &e) == CT_OK);
    CHECK(close_to(fma, 51.73) && close_to(bw, 3105.25) && close_to(launch, 2.31));
    /* Another driver is another device row. */
    ct_device_info a3 = a;
    long long other = 0;
    a3.driver_version = 13010;
    a3.fma_tflops = a3.bandwidth_gbs = a3.launch_us = 0;
    CHECK(ct_db_device_upsert(db, &a3, &other, &e) == CT_OK);
    CHECK(other != t->dev_a && other > 0);
    CHECK(ct_db_device_ceilings(db, &a3, &fma, &bw, &launch, &e) == CT_ERR_NOT_FOUND);
    /* Never measured, and unknown. */
    CHECK(ct_db_device_ceilings(db, &c, &fma, &bw, &launch, &e) == CT_ERR_NOT_FOUND);
    ct_device_info unknown = c;
    snprintf(unknown.name, sizeof unknown.name, "NVIDIA B200");
    CHECK(ct_db_device_ceilings(db, &unknown, NULL, NULL, NULL, &e) == CT_ERR_NOT_FOUND);

    CHECK(ct_db_problem_upsert(db, "conv1d", P1, 4.094e9, 8.0082e6, &t->p1, &e) == CT_OK);
    CHECK(ct_db_problem_upsert(db, "conv1d", P2, 253952.0, 32892.0, &t->p2, &e) == CT_OK);
    CHECK(ct_db_problem_upsert(db, "conv1d", P3, 1.5e6, 3.5e4, &t->p3, &e) == CT_OK);
    long long p1_again = 0;
    CHECK(ct_db_problem_upsert(db, "conv1d", P1, 4.094e9, 8.0082e6, &p1_again, &e) == CT_OK);
    CHECK(p1_again == t->p1);
    CHECK(t->p1 != t->p2 && t->p2 != t->p3);

    const char *settings = "{\"reps\":25,\"warmup\":3,\"rtol\":1e-5}";
    CHECK(ct_db_run_begin(db, t->p1, t->dev_a, settings, &t->run_a1, &e) == CT_OK);
    CHECK(ct_db_run_begin(db, t->p1, t->dev_b, settings, &t->run_b1, &e) == CT_OK);
    CHECK(ct_db_run_begin(db, t->p2, t->dev_a, NULL, &t->run_p2, &e) == CT_OK);
    CHECK(ct_db_run_begin(db, t->p3, t->dev_c, "", &t->run_p3, &e) == CT_OK);
    CHECK(t->run_a1 > 0 && t->run_b1 > t->run_a1);
    /* A run for an unknown problem violates the foreign key. */
    long long bad_run = 0;
    CHECK(ct_db_run_begin(db, 987654, t->dev_a, NULL, &bad_run, &e) == CT_ERR_DB);
    CHECK_MSG(strstr(e.msg, "FOREIGN KEY") != NULL, "%s", e.msg);
    /* Settings must be JSON. */
    CHECK(ct_db_run_begin(db, t->p1, t->dev_a, "{not json", &bad_run, &e) == CT_ERR_DB);

    /* P1 on H100: a wrong result faster than everything, two ok candidates
     * tied at the fastest time (lowest id wins), slower ok ones, failures. */
    ct_result r;
    r = cand("conv1d_tiled", "{\"BLOCK_SIZE\":256,\"TILE\":8}", "ok", 812.5, 3.2e-7);
    add(db, t->run_a1, &r, t);
    r = cand("conv1d_tiled", "{\"BLOCK_SIZE\":512,\"TILE\":4}", "wrong_result", 120.25, 0.37);
    add(db, t->run_a1, &r, t);
    r = cand("conv1d_tiled", "{\"BLOCK_SIZE\":128,\"TILE\":16}", "ok", 733.25, 2.9e-7);
    add(db, t->run_a1, &r, t);
    t->fastest_ok_a = 0;   /* found by query below */
    r = cand("conv1d_tiled", "{\"BLOCK_SIZE\":1024,\"TILE\":16}", "compile_failed", 0, -1);
    snprintf(r.error, sizeof r.error, "%s", ODD_ERROR);
    add(db, t->run_a1, &r, t);
    r = cand("conv1d_tiled", "{\"BLOCK_SIZE\":64,\"TILE\":32}", "ok", 733.25, 4.1e-7);
    add(db, t->run_a1, &r, t);
    r = cand("conv1d_naive", "{\"BLOCK_SIZE\":256}", "ok", 2345.6, 1.1e-7);
    add(db, t->run_a1, &r, t);
    r = cand("conv1d_tiled", "{\"BLOCK_SIZE\":2048,\"TILE\":64}", "exceeds_limits", 0, -1);
    add(db, t->run_a1, &r, t);
    CHECK(ct_db_run_end(db, t->run_a1, "ok", &e) == CT_OK);
    /* The conditions a run ends with join its settings (report reads them). */
    CHECK(ct_db_run_note(db, t->run_a1, "conditions", "{\"sm_mhz\":[1980,1985],\"temp_c\":[40,47]}", &e) == CT_OK);
    CHECK(ct_db_run_note(db, t->run_a1, "conditions", "{\"sm_mhz\":[1980,", &e) == CT_ERR_DB);
    int noted[2] = {0, 0};
    CHECK(ct_db_dump(db, count_noted, noted, &e) == CT_OK);
    CHECK_MSG(noted[0] > 0 && noted[0] == noted[1], "%d of %d rows (all of run_a1 so far) with its conditions",
              noted[0], noted[1]);

    /* P1 on H200: the fastest over all devices. */
    r = cand("conv1d_tiled", "{\"BLOCK_SIZE\":256,\"TILE\":8}", "ok", 512.75, 3.0e-7);
    add(db, t->run_b1, &r, t);
    r = cand("conv1d_tiled", "{\"BLOCK_SIZE\":128,\"TILE\":4}", "timed_out", 0, -1);
    add(db, t->run_b1, &r, t);
    CHECK(ct_db_run_end(db, t->run_b1, "ok", &e) == CT_OK);

    /* A later run on H100 measures the baseline again. */
    CHECK(ct_db_run_begin(db, t->p1, t->dev_a, settings, &t->run_a1_late, &e) == CT_OK);
    r = cand("conv1d_naive", "{\"BLOCK_SIZE\":256}", "ok", 2210.9, 1.3e-7);
    add(db, t->run_a1_late, &r, t);
    r = cand("conv1d_naive", "{\"BLOCK_SIZE\":128}", "crashed", 0, -1);
    add(db, t->run_a1_late, &r, t);
    CHECK(ct_db_run_end(db, t->run_a1_late, "interrupted", &e) == CT_OK);

    /* P2: only failures. P3 (odd name) on an unmeasured L4. */
    r = cand("conv1d_tiled", "{\"BLOCK_SIZE\":32,\"TILE\":2}", "launch_failed", 0, -1);
    add(db, t->run_p2, &r, t);
    r = cand("conv1d_tiled", "{\"BLOCK_SIZE\":96,\"TILE\":3}", "ok", 45.678, -1);
    add(db, t->run_p3, &r, t);

    /* Refused writes change nothing. */
    r = cand("conv1d_tiled", "{\"BLOCK_SIZE\":32}", "sort_of_ok", 10.5, -1);
    CHECK(ct_db_candidate_add(db, t->run_p2, &r, &e) == CT_ERR_DB);     /* no status */
    CHECK_MSG(strstr(e.msg, "candidates.status") != NULL, "%s", e.msg);
    r = cand("conv1d_tiled", "{\"BLOCK_SIZE\":32}", "ok", 0, -1);       /* ok needs a time */
    CHECK(ct_db_candidate_add(db, t->run_p2, &r, &e) == CT_ERR_DB);
    r = cand("conv1d_tiled", "{\"BLOCK_SIZE\":", "compile_failed", 0, -1);
    CHECK(ct_db_candidate_add(db, t->run_p2, &r, &e) == CT_ERR_DB);
    r = cand("conv1d_tiled", "{}", "ok", 10.5, -1);
    CHECK(ct_db_candidate_add(db, 424242, &r, &e) == CT_ERR_NOT_FOUND);
    CHECK(ct_db_run_end(db, 424242, "ok", &e) == CT_ERR_NOT_FOUND);
}

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
    CHECK(sqlite3_column_int(s, 3) == 1);
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
        CHECK(strstr(out, "median_us") && strstr(out, "TFLOP/s") && strstr(out, "%peak"));
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

        /* Reopening keeps everything. */
        st = ct_db_open(path, 0, &db, &e);
        CHECK_MSG(st == CT_OK, "reopen: %s", e.msg);
        if (st == CT_OK) {
            rows *rs = malloc(sizeof *rs);
            CHECK(rs && query(db, NULL, NULL, NULL, 0, 0, rs) == t.total);
            free(rs);
            ct_result best;
            CHECK(ct_db_best(db, P1, "H100", &best, &e) == CT_OK && best.id == t.fastest_ok_a);
            test_formats(db);
            ct_db_close(db);
        }
    }

    test_refusals();
    test_default_path();
    ct_db_close(NULL);

    nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    CHECK_DONE();
}
