/* db_common.h - what test_db.c and test_format.c share: a database filled
 * through the ct_db API (test_store) and the helpers to query it. */
#ifndef CT_DB_COMMON_H
#define CT_DB_COMMON_H
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

static char tmpdir[] __attribute__((unused)) = "/tmp/ct_test_db_XXXXXX";

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static inline int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb; (void)flag; (void)ftw;
    return remove(path);
}

static inline int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* Whole file into a malloc'd buffer; *len its size. */
static inline unsigned char *slurp(const char *path, size_t *len)
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
static inline int same_bytes(const char *path, const unsigned char *want, size_t want_len)
{
    size_t len = 0;
    unsigned char *got = slurp(path, &len);
    int same = got && len == want_len && memcmp(got, want, len) == 0;
    free(got);
    return same;
}

static uint32_t rng_state = 0x9e3779b9u;
static inline uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static inline ct_result cand(const char *tmpl, const char *params, const char *status, double median_us,
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

static inline int collect(const ct_result *r, void *user)
{
    rows *rs = user;
    if (rs->n < 64)
        rs->r[rs->n++] = *r;
    return 0;
}

static inline int query(ct_db *db, const char *problem, const char *device, const char *family,
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

static inline int stop_after_two(const ct_result *r, void *user)
{
    int *calls = user;
    (void)r;
    return ++*calls == 2;
}

static inline int close_to(double a, double b)
{
    double d = a - b;
    if (d < 0) d = -d;
    return d <= 1e-9 * (b < 0 ? -b : b) + 1e-12;
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
static inline int count_noted(const ct_result *r, void *user)
{
    int *n = user;
    n[0] += strstr(r->run_settings, "\"conditions\":{\"sm_mhz\":[1980,1985]") && strstr(r->run_settings, "\"warmup\":3");
    n[1]++;
    return 0;
}

static inline void add(ct_db *db, long long run, const ct_result *r, ids *t)
{
    ct_err e = { "" };
    ct_status st = ct_db_candidate_add(db, run, r, &e);
    CHECK_MSG(st == CT_OK, "candidate_add: %s", e.msg);
    if (st == CT_OK)
        t->total++;
}

static inline void test_store(ct_db *db, ids *t)
{
    ct_err e = { "" };
    ct_device_info a = { H100, "GPU-4f1c2a9e-77d0-1b3c-9a0e-5d2f6b7c8e91", 9, 0, 132, 13000,
                         13, 0, 51.73, 3021.4, 2.31, 495.5 };
    ct_device_info b = { H200, "GPU-0a9b8c7d-1122-3344-5566-778899aabbcc", 9, 0, 132, 13000,
                         13, 0, 53.9, 4286.5, 2.17, 0 };
    ct_device_info c = { "NVIDIA L4", "", 8, 9, 58, 12080, 12, 8, 0, 0, 0, 0 };
    double fma = 0, bw = 0, launch = 0, tc = 0;

    CHECK(ct_db_device_upsert(db, &a, &t->dev_a, &e) == CT_OK);
    CHECK(ct_db_device_upsert(db, &b, &t->dev_b, &e) == CT_OK);
    CHECK(ct_db_device_upsert(db, &c, &t->dev_c, &e) == CT_OK);
    CHECK(t->dev_a > 0 && t->dev_b > 0 && t->dev_c > 0);
    CHECK(t->dev_a != t->dev_b && t->dev_b != t->dev_c);

    /* Same identity again without measurements: same row, ceilings kept. */
    ct_device_info a2 = a;
    long long again = 0;
    a2.fma_tflops = a2.bandwidth_gbs = a2.launch_us = a2.tc_half_tflops = 0;
    CHECK(ct_db_device_upsert(db, &a2, &again, &e) == CT_OK);
    CHECK(again == t->dev_a);
    CHECK(ct_db_device_ceilings(db, &a, &fma, &tc, &bw, &launch, &e) == CT_OK);
    CHECK(close_to(fma, 51.73) && close_to(bw, 3021.4) && close_to(launch, 2.31) && close_to(tc, 495.5));
    /* A new bandwidth replaces only the bandwidth. */
    a2.bandwidth_gbs = 3105.25;
    CHECK(ct_db_device_upsert(db, &a2, &again, &e) == CT_OK && again == t->dev_a);
    CHECK(ct_db_device_ceilings(db, &a, &fma, &tc, &bw, &launch, &e) == CT_OK);
    CHECK(close_to(fma, 51.73) && close_to(bw, 3105.25) && close_to(launch, 2.31) && close_to(tc, 495.5));
    /* A device without the tensor-core ceiling reads it as 0. */
    CHECK(ct_db_device_ceilings(db, &b, &fma, &tc, &bw, &launch, &e) == CT_OK);
    CHECK(close_to(fma, 53.9) && tc == 0);
    /* Another driver is another device row. */
    ct_device_info a3 = a;
    long long other = 0;
    a3.driver_version = 13010;
    a3.fma_tflops = a3.bandwidth_gbs = a3.launch_us = a3.tc_half_tflops = 0;
    CHECK(ct_db_device_upsert(db, &a3, &other, &e) == CT_OK);
    CHECK(other != t->dev_a && other > 0);
    CHECK(ct_db_device_ceilings(db, &a3, &fma, &tc, &bw, &launch, &e) == CT_ERR_NOT_FOUND);
    /* Never measured, and unknown. */
    CHECK(ct_db_device_ceilings(db, &c, &fma, &tc, &bw, &launch, &e) == CT_ERR_NOT_FOUND);
    ct_device_info unknown = c;
    snprintf(unknown.name, sizeof unknown.name, "NVIDIA B200");
    CHECK(ct_db_device_ceilings(db, &unknown, NULL, NULL, NULL, NULL, &e) == CT_ERR_NOT_FOUND);

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

#endif
