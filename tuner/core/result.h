/* result.h - the record of one measured candidate, from the runner through
 * storage, `db export`/`db import`, query output, the report and export.
 *
 * Its stored fields are declared once, in CT_RESULT_FIELDS: the member, its
 * type, its name in `db export` files (and query JSON) and its SQL
 * expression. The struct, the SQLite row reader and the candidate insert
 * (tuner/store), and the export file's fields (tuner/store/dbio*) are made
 * from that table, so a new measured field is one line here plus the schema
 * migration (db/, tuner/store/db_open.c).
 *
 * Absent values (NULL in the database, null in files, not measured) are ""
 * for text, -1 for integers and NaN for reals; ct_result_init sets them all.
 * A number outside its type's range (a negative count, a time of 0) is
 * stored as absent too. */
#ifndef CT_RESULT_H
#define CT_RESULT_H

#include <stddef.h>

#include "params.h"
#include "status.h"

/* The candidate statuses, in the order of every count by status (`tune
 * --json`, the report); db/schema.sql's candidate_status check lists the
 * same texts (test_statuses in tests/store/test_db.c holds the two together). */
#define CT_RESULT_STATUSES(X)                      \
    X(CT_RS_OK, "ok")                              \
    X(CT_RS_COMPILE_FAILED, "compile_failed")      \
    X(CT_RS_EXCEEDS_LIMITS, "exceeds_limits")      \
    X(CT_RS_LAUNCH_FAILED, "launch_failed")        \
    X(CT_RS_CRASHED, "crashed")                    \
    X(CT_RS_TIMED_OUT, "timed_out")                \
    X(CT_RS_WRONG_RESULT, "wrong_result")

typedef enum ct_result_status {
    CT_RS_UNSET = -1,          /* not judged yet */
#define CT_RS_ENUM_(id, text) id,
    CT_RESULT_STATUSES(CT_RS_ENUM_)
#undef CT_RS_ENUM_
    CT_RS_COUNT
} ct_result_status;

/* The status's text ("" for CT_RS_UNSET or an out-of-range value). */
const char *ct_result_status_name(ct_result_status s);

/* The status named text; 0 when there is none. */
int ct_result_status_parse(const char *text, ct_result_status *out);

/* "ok, compile_failed, ... or wrong_result", for messages. */
const char *ct_result_status_list(void);

/* Types of the stored fields: how they are declared, read, bound and
 * written to files. A _NULL type may be absent; OBJ is JSON object text. */
typedef enum ct_field_type {
    CT_F_STR,          /* text, may be empty                          */
    CT_F_NAME,         /* text, not empty                             */
    CT_F_STR_NULL,     /* text or absent ("")                         */
    CT_F_TIME,         /* YYYY-MM-DDTHH:MM:SSZ                        */
    CT_F_TIME_NULL,    /*   or absent                                 */
    CT_F_INT,          /* integer (int)                               */
    CT_F_INT_NULL,     /* integer >= 0 or absent (-1)                 */
    CT_F_COUNT_NULL,   /* integer > 0 or absent (-1)                  */
    CT_F_REAL,         /* number >= 0                                 */
    CT_F_REAL_NULL,    /* number >= 0 or absent (NaN)                 */
    CT_F_POS_NULL,     /* number > 0 or absent (NaN)                  */
    CT_F_OBJ,          /* JSON object, kept as its text               */
    CT_F_OBJ_NULL,     /*   or absent ("")                            */
    CT_F_STATUS        /* a ct_result_status, stored as its text      */
} ct_field_type;

/* X(group, type, member, size, name, sql)
 *   group  D device, P problem, R tuning run (read with the candidate),
 *          C a candidate column the tuner sets, M a candidate column the
 *          runner measures (ct_result_take_measured copies these)
 *   type   a ct_field_type without its CT_F_ prefix
 *   size   of a text member (0 for numbers)
 *   name   in export files and query JSON
 *   sql    the expression a row is read with (c.: candidates, d.: devices,
 *          p.: problems, r.: runs); a C or M field's column is its name.
 * The order is the order of export files. */
#define CT_RESULT_FIELDS(X)                                                              \
    X(D, NAME, device, 128, "device", "d.name")                                          \
    X(D, STR, device_uuid, 64, "device_uuid", "d.uuid")                                  \
    X(D, INT, cc_major, 0, "cc_major", "d.cc_major")                                     \
    X(D, INT, cc_minor, 0, "cc_minor", "d.cc_minor")                                     \
    X(D, INT, sm_count, 0, "sm_count", "d.sm_count")                                     \
    X(D, INT, driver_version, 0, "driver_version", "d.driver_version")                   \
    X(D, STR, nvrtc_version, 16, "nvrtc_version", "d.nvrtc_version")                     \
    X(D, POS_NULL, fma_tflops, 0, "fma_tflops", "d.fma_tflops")                         \
    X(D, POS_NULL, bandwidth_gbs, 0, "bandwidth_gbs", "d.bandwidth_gbs")                \
    X(D, POS_NULL, launch_us, 0, "launch_us", "d.launch_us")                            \
    X(D, TIME_NULL, measured_at, 32, "ceilings_measured_at", "d.measured_at")            \
    X(D, POS_NULL, tc_half_tflops, 0, "tc_half_tflops", "d.tc_half_tflops")             \
    X(P, NAME, family, 32, "family", "p.family")                                         \
    X(P, NAME, problem, 160, "problem", "p.canonical")                                   \
    X(P, REAL, flops, 0, "flops", "p.flops")                                             \
    X(P, REAL, bytes, 0, "bytes", "p.bytes")                                             \
    X(P, TIME, problem_created_at, 32, "problem_created_at", "p.created_at")             \
    X(R, TIME, run_started_at, 32, "run_started_at", "r.started_at")                     \
    X(R, TIME_NULL, run_finished_at, 32, "run_finished_at", "r.finished_at")             \
    X(R, NAME, run_status, 24, "run_status", "r.status")                                 \
    X(R, OBJ_NULL, run_settings, 1024, "run_settings", "r.settings")                     \
    X(C, NAME, tmpl, 64, "template", "c.template")                                       \
    X(C, STR, template_hash, 20, "template_hash", "c.template_hash")                     \
    X(C, STR_NULL, code_hash, 20, "code_hash", "c.code_hash")                            \
    X(C, OBJ, params_json, 512, "params", "c.params")                                    \
    X(M, STATUS, status, 0, "status", "c.status")                                        \
    X(M, STR_NULL, error, 512, "error", "c.error")                                       \
    X(M, POS_NULL, median_us, 0, "median_us", "c.median_us")                            \
    X(M, POS_NULL, min_us, 0, "min_us", "c.min_us")                                     \
    X(M, POS_NULL, max_us, 0, "max_us", "c.max_us")                                     \
    X(M, REAL_NULL, spread, 0, "spread", "c.spread")                                     \
    X(M, COUNT_NULL, reps, 0, "reps", "c.reps")                                            \
    X(M, REAL_NULL, relerr, 0, "relerr", "c.relerr")                                     \
    X(M, INT_NULL, registers, 0, "registers", "c.registers")                             \
    X(M, INT_NULL, smem_bytes, 0, "smem_bytes", "c.smem_bytes")                          \
    X(M, INT_NULL, local_bytes, 0, "local_bytes", "c.local_bytes")                       \
    X(M, POS_NULL, ci_lo_us, 0, "ci_lo_us", "c.ci_lo_us")                               \
    X(M, POS_NULL, ci_hi_us, 0, "ci_hi_us", "c.ci_hi_us")                               \
    X(M, STR_NULL, timing, 16, "timing", "c.timing")                                     \
    X(M, COUNT_NULL, batch, 0, "batch", "c.batch")                                       \
    X(C, REAL_NULL, compile_ms, 0, "compile_ms", "c.compile_ms")                         \
    X(C, TIME, created_at, 32, "created_at", "c.created_at")

/* Declarations of a member by its type. */
#define CT_RESULT_DECL_STR(m, n) char m[n];
#define CT_RESULT_DECL_NAME(m, n) char m[n];
#define CT_RESULT_DECL_STR_NULL(m, n) char m[n];
#define CT_RESULT_DECL_TIME(m, n) char m[n];
#define CT_RESULT_DECL_TIME_NULL(m, n) char m[n];
#define CT_RESULT_DECL_OBJ(m, n) char m[n];
#define CT_RESULT_DECL_OBJ_NULL(m, n) char m[n];
#define CT_RESULT_DECL_INT(m, n) int m;
#define CT_RESULT_DECL_INT_NULL(m, n) int m;
#define CT_RESULT_DECL_COUNT_NULL(m, n) int m;
#define CT_RESULT_DECL_REAL(m, n) double m;
#define CT_RESULT_DECL_REAL_NULL(m, n) double m;
#define CT_RESULT_DECL_POS_NULL(m, n) double m;
#define CT_RESULT_DECL_STATUS(m, n) ct_result_status m;
#define CT_RESULT_DECL_(group, type, m, n, name, sql) CT_RESULT_DECL_##type(m, n)

/* How a candidate was measured; kept for the run's summary, not stored per
 * candidate. */
typedef struct ct_conditions {
    double verify_ms, time_ms;   /* host time spent verifying and timing */
    int sm_mhz[2], temp_c[2];    /* SM clock and temperature before and after timing; -1 unknown */
    int retimed;                 /* timings repeated because of a wide spread */
    int raced;                   /* timing stopped after min_reps: it could not win */
    int l2_flushed;              /* L2 evicted before every timed execution */
    int slow;                    /* fewer samples: min_reps of them would take too long */
} ct_conditions;

typedef struct ct_result {
    CT_RESULT_FIELDS(CT_RESULT_DECL_)
    long long id, run_id;        /* the stored row (0 before it is stored) */
    char arch[16];               /* "sm_90", from cc_major and cc_minor */
    /* The parameters, typed: set by whoever made the candidate, or by the
     * reader of a stored one when its template is known and params_json
     * reads as its parameters (params_ok). params_json is the stored text;
     * a record made in this process has it empty until it is stored. */
    ct_params params;
    int params_ok;
    ct_conditions cond;
} ct_result;

/* One entry of the field table made from CT_RESULT_FIELDS. */
typedef struct ct_result_field {
    char group;                  /* 'D', 'P', 'R', 'C' or 'M' */
    ct_field_type type;
    const char *name, *sql;
    size_t off, size;
} ct_result_field;

extern const ct_result_field ct_result_fields[];
extern const int ct_result_nfields;

static inline char *ct_field_text(ct_result *r, const ct_result_field *f) { return (char *)r + f->off; }
static inline int *ct_field_int(ct_result *r, const ct_result_field *f) { return (int *)(void *)((char *)r + f->off); }
static inline double *ct_field_real(ct_result *r, const ct_result_field *f)
{
    return (double *)(void *)((char *)r + f->off);
}
static inline ct_result_status *ct_field_status(ct_result *r, const ct_result_field *f)
{
    return (ct_result_status *)(void *)((char *)r + f->off);
}
int ct_field_is_text(ct_field_type t);
int ct_field_is_int(ct_field_type t);
int ct_field_nullable(ct_field_type t);

/* Whether the field came after version 1 of the `db export` files: a file
 * holds it only when some record has a value for it, and a file without it
 * reads it as absent, so a database that has none exports as before. */
int ct_field_optional(const ct_result_field *f);

/* The compute ceiling `% of peak` of r's problem is taken against: the
 * half tensor-core rate (tc_half_tflops) for a bf16 or f16 problem, the
 * fp32 FMA rate otherwise; 0 when it was not measured. */
double ct_result_peak_tflops(const ct_result *r);
/* Its name for people: "FMA" or "tensor-core". */
const char *ct_result_peak_name(const ct_result *r);

/* Every field absent, status unset, nothing typed; conditions unknown. */
void ct_result_init(ct_result *r);

/* Set the candidate's measured fields (group M) absent. */
void ct_result_clear_measured(ct_result *r);

/* Copy the measured fields (group M) and the conditions of src into dst,
 * leaving dst's identity alone: a worker's answer into the tuner's record. */
void ct_result_take_measured(ct_result *dst, const ct_result *src);

/* Set the typed parameters (params_ok = 1). */
void ct_result_set_params(ct_result *r, const ct_params *c);

/* Fill the typed parameters of a stored record from params_json, with the
 * parameters of its family's template; on failure params_ok stays 0 and e
 * says why. */
ct_status ct_result_read_params(ct_result *r, ct_err *e);

/* The JSON object text of the parameters: params_json when set, otherwise
 * the typed parameters written with the template's declarations. */
ct_status ct_result_params_text(const ct_result *r, char *buf, size_t len, ct_err *e);

#endif
