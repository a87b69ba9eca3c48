/* db.c - the SQLite store behind db.h.
 *
 * Design notes:
 *   - All SQL text is constant; every value, user-supplied or not, is bound
 *     as a parameter of a prepared statement.
 *   - Every write is one short BEGIN IMMEDIATE ... COMMIT transaction, so a
 *     tuner killed mid-run loses at most the candidate being stored and never
 *     leaves a half-written row, and concurrent writers queue on busy_timeout
 *     instead of failing with "database is locked" halfway through.
 *   - A file is inspected before anything is written to it: something that is
 *     not a convtune database (junk, another program's database, a newer
 *     schema) is refused and left byte-for-byte as it was.
 *   - The connection is opened SQLITE_OPEN_FULLMUTEX, and each public function
 *     also holds a per-handle recursive mutex, because a transaction spans
 *     several SQLite calls that must not interleave with another thread's.
 *     It is recursive so a ct_db_query callback may call back into this API.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "db.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "db_internal.h"

/* ------------------------------------------------------------------------ */
/* Error and transaction helpers                                            */

/* Fill e with what went wrong in words a user can act on: which file, and
 * SQLite's own explanation; a lock held too long and a read-only file are
 * said plainly. (func and call, the source text of the failing call, are
 * for a debugger, not for the message.) */
ct_status sql_fail(sqlite3 *h, ct_err *e, const char *func, const char *call, int rc)
{
    (void)func;
    (void)call;
    const char *file = h ? sqlite3_db_filename(h, "main") : NULL;
    if (!file || !*file)
        file = "the database";
    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return ct_fail(e, CT_ERR_DB, "DB: %s: the database is busy (another convtune is writing it); "
                       "gave up waiting", file);
    case SQLITE_READONLY:
        return ct_fail(e, CT_ERR_DB, "DB: %s is read-only; nothing was written", file);
    case SQLITE_FULL:
        return ct_fail(e, CT_ERR_DB, "DB: %s: the disk is full; nothing was written", file);
    default:
        return ct_fail(e, CT_ERR_DB, "DB: %s: %s", file, h ? sqlite3_errmsg(h) : sqlite3_errstr(rc));
    }
}

/* Serialize whole API calls on one handle (see the note at the top). */
void db_lock(ct_db *db) { pthread_mutex_lock(&db->mu); }
void db_unlock(ct_db *db) { pthread_mutex_unlock(&db->mu); }

/* Finish the write transaction a function opened: commit if it succeeded,
 * otherwise roll back, so no failure leaves a transaction open on the
 * handle. Statements must already be finalized. Returns the final status. */
ct_status tx_end(ct_db *db, ct_status st, ct_err *e, const char *func)
{
    if (sqlite3_get_autocommit(db->h))
        return st;                      /* BEGIN itself failed, or never ran */
    if (st == CT_OK) {
        int rc = sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL);
        if (rc == SQLITE_OK)
            return CT_OK;
        st = sql_fail(db->h, e, func, "COMMIT", rc);
    }
    sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
    return st;
}

/* Bind text, storing NULL for a NULL or empty string. */
int bind_text_or_null(sqlite3_stmt *s, int i, const char *v)
{
    if (!v || !*v)
        return sqlite3_bind_null(s, i);
    return sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
}

/* Bind a measurement, storing NULL when it is absent (<= 0 or NaN). */
int bind_pos(sqlite3_stmt *s, int i, double v)
{
    return v > 0 ? sqlite3_bind_double(s, i, v) : sqlite3_bind_null(s, i);
}

/* Bind a measurement that may be absent: NULL for NaN or a negative value. */
int bind_real(sqlite3_stmt *s, int i, double v)
{
    return isnan(v) || v < 0 ? sqlite3_bind_null(s, i) : sqlite3_bind_double(s, i, v);
}

/* Bind an integer, storing NULL when it is below min (unknown). */
int bind_int_min(sqlite3_stmt *s, int i, long long v, long long min)
{
    return v >= min ? sqlite3_bind_int64(s, i, v) : sqlite3_bind_null(s, i);
}

/* Read one integer from a single-row query without parameters. Returns the
 * SQLite result code (SQLITE_OK on success) so callers can tell "not a
 * database" from other failures. */
int query_int(sqlite3 *h, const char *sql, int *out)
{
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(h, sql, -1, &s, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(s);
        if (rc == SQLITE_ROW) {
            *out = sqlite3_column_int(s, 0);
            rc = SQLITE_OK;
        } else if (rc == SQLITE_DONE) {
            rc = SQLITE_ERROR;
        }
    }
    sqlite3_finalize(s);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Devices, problems, runs, candidates                                      */

static const char sql_device_upsert[] =
    "INSERT INTO devices (name, uuid, cc_major, cc_minor, sm_count, driver_version,"
    "                     nvrtc_version, fma_tflops, bandwidth_gbs, launch_us, tc_half_tflops, measured_at)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
    "         CASE WHEN coalesce(?8, ?9, ?10, ?11) IS NOT NULL"
    "              THEN strftime('%Y-%m-%dT%H:%M:%SZ', 'now') END)"
    " ON CONFLICT (name, uuid, cc_major, cc_minor, driver_version, nvrtc_version) DO UPDATE SET"
    "   sm_count = CASE WHEN excluded.sm_count > 0 THEN excluded.sm_count ELSE sm_count END,"
    "   fma_tflops = coalesce(excluded.fma_tflops, fma_tflops),"
    "   bandwidth_gbs = coalesce(excluded.bandwidth_gbs, bandwidth_gbs),"
    "   launch_us = coalesce(excluded.launch_us, launch_us),"
    "   tc_half_tflops = coalesce(excluded.tc_half_tflops, tc_half_tflops),"
    "   measured_at = coalesce(excluded.measured_at, measured_at)"
    " RETURNING id";

static const char sql_device_ceilings[] =
    "SELECT fma_tflops, bandwidth_gbs, launch_us, measured_at, tc_half_tflops FROM devices"
    " WHERE name = ?1 AND uuid = ?2 AND cc_major = ?3 AND cc_minor = ?4"
    "   AND driver_version = ?5 AND nvrtc_version = ?6";

/* Bind the identifying columns of a device as ?1..?6 (name, uuid, cc major,
 * cc minor, driver, NVRTC "major.minor"); returns the first SQLite error. */
static int bind_device_key(sqlite3_stmt *s, const ct_device_info *d, int driver_param)
{
    char nvrtc[32];
    int rc;
    snprintf(nvrtc, sizeof nvrtc, "%d.%d", d->nvrtc_major, d->nvrtc_minor);
    if ((rc = sqlite3_bind_text(s, 1, d->name, -1, SQLITE_TRANSIENT)) != SQLITE_OK ||
        (rc = sqlite3_bind_text(s, 2, d->uuid, -1, SQLITE_TRANSIENT)) != SQLITE_OK ||
        (rc = sqlite3_bind_int(s, 3, d->cc_major)) != SQLITE_OK ||
        (rc = sqlite3_bind_int(s, 4, d->cc_minor)) != SQLITE_OK ||
        (rc = sqlite3_bind_int(s, driver_param, d->driver_version)) != SQLITE_OK)
        return rc;
    return sqlite3_bind_text(s, driver_param + 1, nvrtc, -1, SQLITE_TRANSIENT);
}

/* Insert the device or find its row; measured ceilings (> 0) overwrite the
 * stored ones, absent ones (0) keep them, and measured_at follows. */
ct_status ct_db_device_upsert(ct_db *db, const ct_device_info *d, long long *device_id, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;

    if (!db || !d || !d->name[0])
        return ct_fail(e, CT_ERR_INTERNAL, "DB: device upsert without a device name");
    db_lock(db);
    SQL(db->h, sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_prepare_v2(db->h, sql_device_upsert, -1, &s, NULL), SQLITE_OK);
    /* Here the key's driver/NVRTC columns are ?6/?7, after sm_count (?5). */
    SQL(db->h, bind_device_key(s, d, 6), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int(s, 5, d->sm_count > 0 ? d->sm_count : 0), SQLITE_OK);
    SQL(db->h, bind_pos(s, 8, d->fma_tflops), SQLITE_OK);
    SQL(db->h, bind_pos(s, 9, d->bandwidth_gbs), SQLITE_OK);
    SQL(db->h, bind_pos(s, 10, d->launch_us), SQLITE_OK);
    SQL(db->h, bind_pos(s, 11, d->tc_half_tflops), SQLITE_OK);
    SQL(db->h, sqlite3_step(s), SQLITE_ROW);
    if (device_id)
        *device_id = sqlite3_column_int64(s, 0);
    SQL(db->h, sqlite3_step(s), SQLITE_DONE);
done:
    sqlite3_finalize(s);
    st = tx_end(db, st, e, __func__);
    db_unlock(db);
    return st;
}

/* Look up the stored ceilings of a device; absent ones read as 0. A device
 * never measured is "not found" so the caller knows to measure it. */
ct_status ct_db_device_ceilings(ct_db *db, const ct_device_info *d,
                                double *fma_tflops, double *tc_half_tflops, double *bandwidth_gbs,
                                double *launch_us, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;
    int rc;

    if (!db || !d)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: device ceilings without a device");
    db_lock(db);
    SQL(db->h, sqlite3_prepare_v2(db->h, sql_device_ceilings, -1, &s, NULL), SQLITE_OK);
    SQL(db->h, bind_device_key(s, d, 5), SQLITE_OK);
    rc = sqlite3_step(s);
    if (rc == SQLITE_DONE || (rc == SQLITE_ROW && sqlite3_column_type(s, 3) == SQLITE_NULL)) {
        st = ct_fail(e, CT_ERR_NOT_FOUND, "DB: no measured ceilings for %s (driver %d, NVRTC %d.%d)",
                     d->name, d->driver_version, d->nvrtc_major, d->nvrtc_minor);
        goto done;
    }
    SQL(db->h, rc, SQLITE_ROW);
    if (fma_tflops)
        *fma_tflops = sqlite3_column_double(s, 0);
    if (bandwidth_gbs)
        *bandwidth_gbs = sqlite3_column_double(s, 1);
    if (launch_us)
        *launch_us = sqlite3_column_double(s, 2);
    if (tc_half_tflops)
        *tc_half_tflops = sqlite3_column_double(s, 4);
done:
    sqlite3_finalize(s);
    db_unlock(db);
    return st;
}

static const char sql_problem_upsert[] =
    "INSERT INTO problems (family, canonical, flops, bytes) VALUES (?1, ?2, ?3, ?4)"
    " ON CONFLICT (canonical) DO UPDATE SET"
    "   family = excluded.family, flops = excluded.flops, bytes = excluded.bytes"
    " RETURNING id";

/* Insert the problem or find it by canonical string; the counts are updated
 * so that a corrected FLOP formula reaches old rows. */
ct_status ct_db_problem_upsert(ct_db *db, const char *family, const char *canonical,
                               double flops, double bytes, long long *problem_id, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;

    if (!db || !family || !*family || !canonical || !*canonical)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: problem upsert without family or canonical name");
    db_lock(db);
    SQL(db->h, sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_prepare_v2(db->h, sql_problem_upsert, -1, &s, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 1, family, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 2, canonical, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_bind_double(s, 3, flops > 0 ? flops : 0), SQLITE_OK);
    SQL(db->h, sqlite3_bind_double(s, 4, bytes > 0 ? bytes : 0), SQLITE_OK);
    SQL(db->h, sqlite3_step(s), SQLITE_ROW);
    if (problem_id)
        *problem_id = sqlite3_column_int64(s, 0);
    SQL(db->h, sqlite3_step(s), SQLITE_DONE);
done:
    sqlite3_finalize(s);
    st = tx_end(db, st, e, __func__);
    db_unlock(db);
    return st;
}

/* Record the start of a tuning run; its status stays 'running' until
 * ct_db_run_end, so a killed run is recognisable afterwards. */
ct_status ct_db_run_begin(ct_db *db, long long problem_id, long long device_id,
                          const char *settings_json, long long *run_id, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;
    static const char sql[] =
        "INSERT INTO runs (problem_id, device_id, settings) VALUES (?1, ?2, ?3) RETURNING id";

    if (!db)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: run begin without a database");
    db_lock(db);
    SQL(db->h, sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_prepare_v2(db->h, sql, -1, &s, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int64(s, 1, problem_id), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int64(s, 2, device_id), SQLITE_OK);
    SQL(db->h, bind_text_or_null(s, 3, settings_json), SQLITE_OK);
    SQL(db->h, sqlite3_step(s), SQLITE_ROW);
    if (run_id)
        *run_id = sqlite3_column_int64(s, 0);
    SQL(db->h, sqlite3_step(s), SQLITE_DONE);
done:
    sqlite3_finalize(s);
    st = tx_end(db, st, e, __func__);
    db_unlock(db);
    return st;
}

/* Record how a run ended and when; an unknown run id is "not found". */
ct_status ct_db_run_end(ct_db *db, long long run_id, const char *status, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;
    static const char sql[] =
        "UPDATE runs SET status = ?2, finished_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"
        " WHERE id = ?1";

    if (!db || !status || !*status)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: run end without a status");
    db_lock(db);
    SQL(db->h, sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_prepare_v2(db->h, sql, -1, &s, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int64(s, 1, run_id), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 2, status, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_step(s), SQLITE_DONE);
    if (sqlite3_changes(db->h) == 0)
        st = ct_fail(e, CT_ERR_NOT_FOUND, "DB: no run %lld", run_id);
done:
    sqlite3_finalize(s);
    st = tx_end(db, st, e, __func__);
    db_unlock(db);
    return st;
}

/* Merge one member into a run's settings object: the measurement conditions
 * (clocks, temperatures) known only when the run ends, for `report`. */
ct_status ct_db_run_note(ct_db *db, long long run_id, const char *key, const char *json, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;
    static const char sql[] =
        "UPDATE runs SET settings = json_set(coalesce(settings, '{}'), '$.' || ?2, json(?3)) WHERE id = ?1";

    if (!db || !key || !json)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: run note without a key");
    db_lock(db);
    SQL(db->h, sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_prepare_v2(db->h, sql, -1, &s, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int64(s, 1, run_id), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 2, key, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 3, json, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_step(s), SQLITE_DONE);
done:
    sqlite3_finalize(s);
    st = tx_end(db, st, e, __func__);
    db_unlock(db);
    return st;
}

/* The insert of a candidate, made once from the field table: the C and M
 * fields as ?1..?n (an empty created_at reads as now), the run as ?n+1,
 * which gives the problem and device. Its buffers are sized from the whole
 * table (each field's "name, " and the longest placeholder, a time's, with
 * 11 characters for an int), so no field list can outgrow them and the SQL
 * is never cut short. */
#define DB_INS_TIME "coalesce(?%d, strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', 'now')), "
#define DB_INS_FMT                                             \
    "INSERT INTO candidates (%srun_id, problem_id, device_id)" \
    " SELECT %sid, problem_id, device_id FROM runs WHERE id = ?%d"
#define DB_INS_COL_(group, type, m, n, name, sql) + sizeof name + 1
#define DB_INS_VAL_(group, type, m, n, name, sql) + sizeof DB_INS_TIME + 11
enum { DB_INS_COLS = 1 CT_RESULT_FIELDS(DB_INS_COL_), DB_INS_VALS = 1 CT_RESULT_FIELDS(DB_INS_VAL_) };
static char insert_sql[DB_INS_COLS + DB_INS_VALS + sizeof DB_INS_FMT + 11];

static void make_insert_sql(void)
{
    char cols[DB_INS_COLS] = "", vals[DB_INS_VALS] = "";
    size_t nc = 0, nv = 0;
    int k = 0;
    for (int i = 0; i < ct_result_nfields; i++) {
        const ct_result_field *f = &ct_result_fields[i];
        if (f->group != 'C' && f->group != 'M')
            continue;
        k++;
        nc += (size_t)snprintf(cols + nc, sizeof cols - nc, "%s, ", f->name);
        if (f->type == CT_F_TIME)
            nv += (size_t)snprintf(vals + nv, sizeof vals - nv, DB_INS_TIME, k);
        else
            nv += (size_t)snprintf(vals + nv, sizeof vals - nv, "?%d, ", k);
    }
    snprintf(insert_sql, sizeof insert_sql, DB_INS_FMT, cols, vals, k + 1);
}

const char *db_candidate_insert_sql(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, make_insert_sql);
    return insert_sql;
}

/* Bind a field: absent values (empty text of a nullable or time field,
 * negative or NaN numbers of a nullable one) as NULL. */
static int bind_field(sqlite3_stmt *s, int i, const ct_result *r, const ct_result_field *f, const char *params)
{
    ct_result *w = (ct_result *)r;
    switch (f->type) {
    case CT_F_STATUS:
        return bind_text_or_null(s, i, ct_result_status_name(*ct_field_status(w, f)));
    case CT_F_OBJ:
        return sqlite3_bind_text(s, i, params, -1, SQLITE_TRANSIENT);
    case CT_F_STR_NULL:
    case CT_F_TIME:
    case CT_F_TIME_NULL:
    case CT_F_OBJ_NULL:
        return bind_text_or_null(s, i, ct_field_text(w, f));
    case CT_F_STR:
    case CT_F_NAME:
        return sqlite3_bind_text(s, i, ct_field_text(w, f), -1, SQLITE_TRANSIENT);
    case CT_F_INT:
        return sqlite3_bind_int(s, i, *ct_field_int(w, f));
    case CT_F_INT_NULL:
        return bind_int_min(s, i, *ct_field_int(w, f), 0);
    case CT_F_COUNT_NULL:
        return bind_int_min(s, i, *ct_field_int(w, f), 1);
    case CT_F_REAL:
        return sqlite3_bind_double(s, i, *ct_field_real(w, f));
    case CT_F_REAL_NULL:
        return bind_real(s, i, *ct_field_real(w, f));
    case CT_F_POS_NULL:
        return bind_pos(s, i, *ct_field_real(w, f));
    }
    return SQLITE_MISUSE;
}

ct_status db_bind_candidate(sqlite3 *h, sqlite3_stmt *s, long long run_id, const ct_result *r, ct_err *e)
{
    ct_status st = CT_OK;
    char params[sizeof r->params_json];
    int k = 0;
    if ((st = ct_result_params_text(r, params, sizeof params, e)) != CT_OK)
        return st;
    for (int i = 0; i < ct_result_nfields; i++) {
        const ct_result_field *f = &ct_result_fields[i];
        if (f->group == 'C' || f->group == 'M')
            SQL(h, bind_field(s, ++k, r, f, params), SQLITE_OK);
    }
    SQL(h, sqlite3_bind_int64(s, k + 1, run_id), SQLITE_OK);
done:
    return st;
}

/* Store one candidate of a run in its own transaction, taking the problem and
 * device from the run's row so the three can never disagree. */
ct_status ct_db_candidate_add(ct_db *db, long long run_id, const ct_result *rec, ct_err *e)
{
    return ct_db_candidate_add_id(db, run_id, rec, NULL, e);
}

ct_status ct_db_candidate_add_id(ct_db *db, long long run_id, const ct_result *rec, long long *id, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;

    if (!db || !rec)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: candidate add without a record");
    db_lock(db);
    SQL(db->h, sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_prepare_v2(db->h, db_candidate_insert_sql(), -1, &s, NULL), SQLITE_OK);
    if ((st = db_bind_candidate(db->h, s, run_id, rec, e)) != CT_OK)
        goto done;
    SQL(db->h, sqlite3_step(s), SQLITE_DONE);
    if (sqlite3_changes(db->h) == 0)
        st = ct_fail(e, CT_ERR_NOT_FOUND, "DB: no run %lld to add a candidate to", run_id);
    else if (id)
        *id = sqlite3_last_insert_rowid(db->h);
done:
    sqlite3_finalize(s);
    st = tx_end(db, st, e, __func__);
    db_unlock(db);
    return st;
}

ct_status ct_db_candidate_retime(ct_db *db, long long id, const ct_result *rec, ct_err *e)
{
    static const char sql[] =
        "UPDATE candidates SET median_us = ?2, min_us = ?3, max_us = ?4, spread = ?5, reps = ?6,"
        " ci_lo_us = ?7, ci_hi_us = ?8, timing = ?9, batch = ?10 WHERE id = ?1 AND status = 'ok'";
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;
    db_lock(db);
    SQL(db->h, sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_prepare_v2(db->h, sql, -1, &s, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int64(s, 1, id), SQLITE_OK);
    SQL(db->h, bind_pos(s, 2, rec->median_us), SQLITE_OK);
    SQL(db->h, bind_pos(s, 3, rec->min_us), SQLITE_OK);
    SQL(db->h, bind_pos(s, 4, rec->max_us), SQLITE_OK);
    SQL(db->h, bind_real(s, 5, rec->spread), SQLITE_OK);
    SQL(db->h, bind_int_min(s, 6, rec->reps, 0), SQLITE_OK);
    SQL(db->h, bind_pos(s, 7, rec->ci_lo_us), SQLITE_OK);
    SQL(db->h, bind_pos(s, 8, rec->ci_hi_us), SQLITE_OK);
    SQL(db->h, bind_text_or_null(s, 9, rec->timing), SQLITE_OK);
    SQL(db->h, bind_int_min(s, 10, rec->batch, 1), SQLITE_OK);
    SQL(db->h, sqlite3_step(s), SQLITE_DONE);
    if (sqlite3_changes(db->h) == 0)
        st = ct_fail(e, CT_ERR_NOT_FOUND, "DB: no verified candidate %lld to re-time", id);
done:
    sqlite3_finalize(s);
    st = tx_end(db, st, e, __func__);
    db_unlock(db);
    return st;
}

/* Fill the code hashes an older convtune left NULL (db.h), in one
 * transaction: a resumed run may reuse thousands of old outcomes. */
ct_status ct_db_candidates_set_code_hash(ct_db *db, const long long *ids, const char (*code_hashes)[17], int n,
                                         ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;
    static const char sql[] = "UPDATE candidates SET code_hash = ?2 WHERE id = ?1 AND code_hash IS NULL";

    if (!db || (n > 0 && (!ids || !code_hashes)))
        return ct_fail(e, CT_ERR_INTERNAL, "DB: code hash update without hashes");
    if (n <= 0)
        return CT_OK;
    db_lock(db);
    SQL(db->h, sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_prepare_v2(db->h, sql, -1, &s, NULL), SQLITE_OK);
    for (int i = 0; i < n; i++) {
        sqlite3_reset(s);
        SQL(db->h, sqlite3_bind_int64(s, 1, ids[i]), SQLITE_OK);
        SQL(db->h, sqlite3_bind_text(s, 2, code_hashes[i], -1, SQLITE_TRANSIENT), SQLITE_OK);
        SQL(db->h, sqlite3_step(s), SQLITE_DONE);
    }
done:
    sqlite3_finalize(s);
    st = tx_end(db, st, e, __func__);
    db_unlock(db);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Queries                                                                  */

/* ?2: device name, exact or a case-insensitive substring (ASCII folding). */
#define DEVICE_MATCH \
    " (?2 IS NULL OR d.name = ?2 OR instr(lower(d.name), lower(?2)) > 0)"

/* Winners: for each (problem, device) the 'ok' row first in index order
 * (median_us, then lowest id). Within a group, rows run from fastest 'ok' to
 * failed and untimed ones. */
static const char sql_query[] =
    "SELECT " DB_RESULT_COLUMNS DB_RESULT_FROM
    " WHERE (?1 IS NULL OR p.canonical = ?1)"
    "   AND" DEVICE_MATCH
    "   AND (?3 IS NULL OR p.family = ?3)"
    "   AND (?4 = 0 OR c.status = 'ok')"
    "   AND (?6 = 0 OR c.device_id = ?6)"
    "   AND (?5 = 0 OR c.id = (SELECT w.id FROM candidates w"
    "                          WHERE w.problem_id = c.problem_id AND w.device_id = c.device_id"
    "                            AND w.status = 'ok'"
    "                          ORDER BY w.median_us, w.id LIMIT 1))"
    " ORDER BY p.canonical, d.name, d.id, c.status <> 'ok', c.median_us IS NULL,"
    "          c.median_us, c.id";

static const char sql_best[] =
    "SELECT " DB_RESULT_COLUMNS DB_RESULT_FROM
    " WHERE p.canonical = ?1 AND c.status = 'ok' AND" DEVICE_MATCH
    " ORDER BY c.median_us, c.id LIMIT 1";

/* Most recent run first; within it the fastest configuration of the
 * template, preferring a device whose name matches exactly. */
static const char sql_baseline[] =
    "SELECT c.median_us" DB_RESULT_FROM
    " WHERE p.canonical = ?1 AND c.template = ?3 AND c.status = 'ok' AND" DEVICE_MATCH
    " ORDER BY d.name IS NOT ?2, c.run_id DESC, c.median_us, c.id LIMIT 1";

/* Copy a text column into a fixed buffer; NULL becomes "". Too long: 0,
 * with the text cut at a UTF-8 character boundary so it stays valid. */
static int col_text_fit(sqlite3_stmt *s, int col, char *dst, size_t cap)
{
    const unsigned char *t = sqlite3_column_text(s, col);
    size_t n = t ? strlen((const char *)t) : 0;
    int fits = n < cap;
    if (!fits) {
        n = cap - 1;
        while (n > 0 && (t[n] & 0xC0) == 0x80)
            n--;
    }
    if (n)
        memcpy(dst, t, n);
    dst[n] = '\0';
    return fits;
}

const char *db_read_result(sqlite3_stmt *s, ct_result *r, int whole)
{
    const char *too_long = NULL;
    ct_result_init(r);
    for (int i = 0; i < ct_result_nfields; i++) {
        const ct_result_field *f = &ct_result_fields[i];
        int null = sqlite3_column_type(s, i) == SQLITE_NULL;
        if (ct_field_is_text(f->type)) {
            if (!col_text_fit(s, i, ct_field_text(r, f), f->size) && !too_long)
                too_long = f->name;
        } else if (f->type == CT_F_STATUS) {
            ct_result_status_parse((const char *)sqlite3_column_text(s, i), ct_field_status(r, f));
        } else if (ct_field_is_int(f->type)) {
            *ct_field_int(r, f) = null && f->type != CT_F_INT ? -1 : sqlite3_column_int(s, i);
        } else {
            *ct_field_real(r, f) = null && f->type != CT_F_REAL ? NAN : sqlite3_column_double(s, i);
        }
    }
    r->id = sqlite3_column_int64(s, ct_result_nfields);
    r->run_id = sqlite3_column_int64(s, ct_result_nfields + 1);
    snprintf(r->arch, sizeof r->arch, "sm_%d%d", r->cc_major, r->cc_minor);
    ct_result_read_params(r, NULL);
    return whole ? too_long : NULL;
}

/* Stream the matching candidates to cb, one record at a time, until the rows
 * run out or cb asks to stop; a stop is not an error. */
ct_status ct_db_query(ct_db *db, const ct_query *q, ct_result_cb cb, void *user, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;
    static const ct_query all = { 0 };
    ct_result *r = NULL;
    int rc;

    if (!db || !cb)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: query without a database or callback");
    if (!q)
        q = &all;
    db_lock(db);
    r = malloc(sizeof *r);
    if (!r) {
        st = ct_fail(e, CT_ERR_INTERNAL, "DB: out of memory");
        goto done;
    }
    SQL(db->h, sqlite3_prepare_v2(db->h, sql_query, -1, &s, NULL), SQLITE_OK);
    SQL(db->h, bind_text_or_null(s, 1, q->problem), SQLITE_OK);
    SQL(db->h, bind_text_or_null(s, 2, q->device), SQLITE_OK);
    SQL(db->h, bind_text_or_null(s, 3, q->family), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int(s, 4, q->ok_only != 0), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int(s, 5, q->winners_only != 0), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int64(s, 6, q->device_id), SQLITE_OK);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        db_read_result(s, r, 0);
        if (cb(r, user) != 0)
            break;
    }
    if (rc != SQLITE_ROW)
        SQL(db->h, rc, SQLITE_DONE);
done:
    sqlite3_finalize(s);
    free(r);
    db_unlock(db);
    return st;
}

/* The fastest 'ok' candidate of a problem on the matching device(s), or over
 * all devices when device is NULL or empty. */
ct_status ct_db_best(ct_db *db, const char *problem, const char *device, ct_result *out, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;
    int rc;

    if (!db || !out || !problem || !*problem)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: best without a problem or result");
    db_lock(db);
    SQL(db->h, sqlite3_prepare_v2(db->h, sql_best, -1, &s, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 1, problem, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, bind_text_or_null(s, 2, device), SQLITE_OK);
    rc = sqlite3_step(s);
    if (rc == SQLITE_DONE) {
        st = ct_fail(e, CT_ERR_NOT_FOUND, "DB: no verified candidate for %s%s%s", problem,
                     device && *device ? " on " : "", device && *device ? device : "");
        goto done;
    }
    SQL(db->h, rc, SQLITE_ROW);
    db_read_result(s, out, 0);
done:
    sqlite3_finalize(s);
    db_unlock(db);
    return st;
}

/* Median time of the baseline template for a problem on a device, from the
 * latest run that measured it successfully. */
ct_status ct_db_baseline_us(ct_db *db, const char *problem, const char *device,
                            const char *baseline_template, double *median_us, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;
    int rc;

    if (!db || !median_us || !problem || !*problem || !baseline_template || !*baseline_template)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: baseline without problem or template");
    db_lock(db);
    SQL(db->h, sqlite3_prepare_v2(db->h, sql_baseline, -1, &s, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 1, problem, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, bind_text_or_null(s, 2, device), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 3, baseline_template, -1, SQLITE_TRANSIENT), SQLITE_OK);
    rc = sqlite3_step(s);
    if (rc == SQLITE_DONE) {
        st = ct_fail(e, CT_ERR_NOT_FOUND, "DB: no measurement of %s for %s%s%s",
                     baseline_template, problem, device && *device ? " on " : "",
                     device && *device ? device : "");
        goto done;
    }
    SQL(db->h, rc, SQLITE_ROW);
    *median_us = sqlite3_column_double(s, 0);
done:
    sqlite3_finalize(s);
    db_unlock(db);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Integrity check                                                          */

/* The report ct_db_check fills: one problem per line, cut short (with a last
 * line saying so) when the caller's buffer is full. */
typedef struct report_buf {
    char *buf;
    size_t len, used;
    int problems, full;
} report_buf;

static void report_line(report_buf *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report_line(report_buf *r, const char *fmt, ...)
{
    static const char more[] = "(more problems not shown)";
    char line[1024];
    va_list ap;
    size_t n;

    r->problems++;
    if (r->full || r->len == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    n = strlen(line);
    /* Room for this line, its newline, and the "more" line after it. */
    if (r->used + n + 1 + sizeof more + 1 > r->len) {
        r->full = 1;
        if (r->used + sizeof more + 1 <= r->len)
            r->used += (size_t)snprintf(r->buf + r->used, r->len - r->used, "%s%s",
                                        r->used ? "\n" : "", more);
        return;
    }
    r->used += (size_t)snprintf(r->buf + r->used, r->len - r->used, "%s%s",
                                r->used ? "\n" : "", line);
}

/* PRAGMA integrity_check (at most 100 findings) and PRAGMA
 * foreign_key_check. A check that cannot even run (the file is too damaged
 * for SQLite to read its schema) is itself a problem. Read-only. */
ct_status ct_db_check(ct_db *db, char *report, size_t len, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;
    report_buf r = { report, len, 0, 0, 0 };
    int rc;

    if (!db || (!report && len > 0))
        return ct_fail(e, CT_ERR_INTERNAL, "DB: check without a database or report buffer");
    if (len > 0)
        report[0] = '\0';
    db_lock(db);
    rc = sqlite3_prepare_v2(db->h, "PRAGMA integrity_check(100)", -1, &s, NULL);
    while (s && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(s, 0);
        if (!t || strcmp(t, "ok") != 0)
            report_line(&r, "integrity_check: %s", t ? t : "(null)");
    }
    if (rc != SQLITE_DONE)
        report_line(&r, "integrity_check stopped: %s", sqlite3_errmsg(db->h));
    sqlite3_finalize(s);
    s = NULL;
    rc = sqlite3_prepare_v2(db->h, "PRAGMA foreign_key_check", -1, &s, NULL);
    while (s && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *table = (const char *)sqlite3_column_text(s, 0);
        const char *parent = (const char *)sqlite3_column_text(s, 2);
        if (sqlite3_column_type(s, 1) == SQLITE_NULL)
            report_line(&r, "foreign_key_check: a row of %s refers to a missing row of %s",
                        table ? table : "?", parent ? parent : "?");
        else
            report_line(&r, "foreign_key_check: %s row %lld refers to a missing row of %s",
                        table ? table : "?", (long long)sqlite3_column_int64(s, 1),
                        parent ? parent : "?");
    }
    if (rc != SQLITE_DONE)
        report_line(&r, "foreign_key_check stopped: %s", sqlite3_errmsg(db->h));
    sqlite3_finalize(s);
    if (r.problems == 0) {
        if (len > 0)
            snprintf(report, len, "ok");
    } else {
        st = ct_fail(e, CT_ERR_DB, "DB: %s failed the integrity check (%d problem%s)",
                     db->path, r.problems, r.problems == 1 ? "" : "s");
    }
    db_unlock(db);
    return st;
}

