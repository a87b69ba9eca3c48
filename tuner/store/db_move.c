/* db_move.c - dumping and importing records with their provenance (db.h),
 * for `db export` and `db import` (dbio.c reads and writes the files). */
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
#include "params.h"
#include "problem.h"

/* ------------------------------------------------------------------------ */
/* Dump and import (moving records between databases)                       */

static const char sql_dump[] =
    "SELECT " DB_RESULT_COLUMNS DB_RESULT_FROM
    " ORDER BY d.name, d.uuid, d.cc_major, d.cc_minor, d.driver_version, d.nvrtc_version,"
    "          p.canonical, c.created_at, c.id";

ct_status ct_db_dump(ct_db *db, ct_result_cb cb, void *user, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;
    ct_result *r = NULL;
    int rc;

    if (!db || !cb)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: dump without a database or callback");
    db_lock(db);
    if (!(r = malloc(sizeof *r))) {
        st = ct_fail(e, CT_ERR_INTERNAL, "DB: out of memory");
        goto done;
    }
    /* One read transaction: a consistent snapshot while a tuner writes. */
    SQL(db->h, sqlite3_exec(db->h, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_prepare_v2(db->h, sql_dump, -1, &s, NULL), SQLITE_OK);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *too_long = db_read_result(s, r, 1);
        if (too_long) {
            st = ct_fail(e, CT_ERR_DB, "DB: candidate %lld: its %s is too long to export", r->id, too_long);
            goto done;
        }
        if (cb(r, user) != 0)
            break;
    }
    if (rc != SQLITE_ROW)
        SQL(db->h, rc, SQLITE_DONE);
done:
    sqlite3_finalize(s);
    if (!sqlite3_get_autocommit(db->h))
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);   /* only read */
    free(r);
    db_unlock(db);
    return st;
}

ct_status ct_db_field_used(ct_db *db, const ct_result_field *f, int *used, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;
    char sql[1024];
    *used = 0;
    snprintf(sql, sizeof sql, "SELECT EXISTS (SELECT 1" DB_RESULT_FROM " WHERE %s IS NOT NULL)", f->sql);
    db_lock(db);
    SQL(db->h, sqlite3_prepare_v2(db->h, sql, -1, &s, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_step(s), SQLITE_ROW);
    *used = sqlite3_column_int(s, 0);
done:
    sqlite3_finalize(s);
    db_unlock(db);
    return st;
}

/* The statements of an import, prepared once. */
enum {
    IMP_FIND_DEV, IMP_ADD_DEV, IMP_CEILINGS, IMP_SM_COUNT, IMP_FIND_PROB, IMP_ADD_PROB,
    IMP_FIND_RUN, IMP_ADD_RUN, IMP_FIND_CAND, IMP_ADD_CAND, IMP_SET_CODE, IMP_COUNT
};

static const char *const sql_import[IMP_COUNT] = {
    [IMP_FIND_DEV] =
        "SELECT id, measured_at FROM devices WHERE name = ?1 AND uuid = ?2 AND cc_major = ?3"
        " AND cc_minor = ?4 AND driver_version = ?5 AND nvrtc_version = ?6",
    [IMP_ADD_DEV] =
        "INSERT INTO devices (name, uuid, cc_major, cc_minor, driver_version, nvrtc_version,"
        "                     sm_count, fma_tflops, bandwidth_gbs, launch_us, measured_at, tc_half_tflops)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) RETURNING id",
    /* Ceilings measured later than the stored ones (or the first ones). */
    [IMP_CEILINGS] =
        "UPDATE devices SET fma_tflops = coalesce(?2, fma_tflops),"
        "    bandwidth_gbs = coalesce(?3, bandwidth_gbs), launch_us = coalesce(?4, launch_us),"
        "    tc_half_tflops = coalesce(?6, tc_half_tflops), measured_at = ?5"
        " WHERE id = ?1 AND ?5 IS NOT NULL AND (measured_at IS NULL OR measured_at < ?5)",
    [IMP_SM_COUNT] = "UPDATE devices SET sm_count = ?2 WHERE id = ?1 AND sm_count = 0 AND ?2 > 0",
    [IMP_FIND_PROB] = "SELECT id, family FROM problems WHERE canonical = ?1",
    [IMP_ADD_PROB] =
        "INSERT INTO problems (family, canonical, flops, bytes, created_at)"
        " VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
    [IMP_FIND_RUN] =
        "SELECT id FROM runs WHERE problem_id = ?1 AND device_id = ?2 AND started_at = ?3"
        " AND finished_at IS ?4 AND status = ?5 AND settings IS ?6 ORDER BY id LIMIT 1",
    [IMP_ADD_RUN] =
        "INSERT INTO runs (problem_id, device_id, started_at, finished_at, status, settings)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
    [IMP_FIND_CAND] =
        "SELECT id, params FROM candidates WHERE device_id = ?1 AND problem_id = ?2 AND template = ?3"
        " AND template_hash = ?4 AND created_at = ?5",
    [IMP_ADD_CAND] = NULL,     /* db_candidate_insert_sql() */
    [IMP_SET_CODE] = "UPDATE candidates SET code_hash = ?2 WHERE id = ?1 AND code_hash IS NULL",
};

/* Run a statement that returns at most one row; *id gets its first column
 * (0 when there is no row). Returns the SQLite result code. */
static int step_id(sqlite3_stmt *s, long long *id)
{
    int rc = sqlite3_step(s);
    *id = 0;
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(s, 0);
        rc = sqlite3_step(s);
    }
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Whether stored, the params text of a row already in the database, holds
 * the values of want (the imported record's, in the one form convtune
 * writes): the same text, or the same values once the stored text is read
 * with the template's declaration and written again. Rows stored before
 * imports wrote that form (a file reformatted by jq or Python, imported
 * as it was) match by value too, so they are not imported twice. */
static int same_params(const ct_result *r, const char *stored)
{
    if (!strcmp(stored, r->params_json))
        return 1;
    const ct_family *fam = ct_family_find(r->family);
    const ct_template *t = fam ? ct_template_find(fam, r->tmpl) : NULL;
    ct_params v;
    ct_err e;
    char norm[sizeof r->params_json];
    return t && ct_params_from_json(stored, t->params, t->nparams, &v, &e) == CT_OK &&
           ct_params_to_json(&v, t->params, t->nparams, norm, sizeof norm) == CT_OK && !strcmp(norm, r->params_json);
}

/* Import one row within the open transaction; *added says whether it was
 * new. */
static ct_status import_row(ct_db *db, sqlite3_stmt **q, const ct_result *r, int *added, ct_err *e)
{
    ct_status st = CT_OK;
    long long dev = 0, prob = 0, run = 0, found = 0;
    sqlite3_stmt *s;
    *added = 0;
    for (int i = 0; i < IMP_COUNT; i++) {
        sqlite3_reset(q[i]);
        sqlite3_clear_bindings(q[i]);
    }

    /* the device, by its identity */
    s = q[IMP_FIND_DEV];
    SQL(db->h, sqlite3_bind_text(s, 1, r->device, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 2, r->device_uuid, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int(s, 3, r->cc_major), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int(s, 4, r->cc_minor), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int(s, 5, r->driver_version), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 6, r->nvrtc_version, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, step_id(s, &dev), SQLITE_OK);
    if (!dev) {
        s = q[IMP_ADD_DEV];
        SQL(db->h, sqlite3_bind_text(s, 1, r->device, -1, SQLITE_TRANSIENT), SQLITE_OK);
        SQL(db->h, sqlite3_bind_text(s, 2, r->device_uuid, -1, SQLITE_TRANSIENT), SQLITE_OK);
        SQL(db->h, sqlite3_bind_int(s, 3, r->cc_major), SQLITE_OK);
        SQL(db->h, sqlite3_bind_int(s, 4, r->cc_minor), SQLITE_OK);
        SQL(db->h, sqlite3_bind_int(s, 5, r->driver_version), SQLITE_OK);
        SQL(db->h, sqlite3_bind_text(s, 6, r->nvrtc_version, -1, SQLITE_TRANSIENT), SQLITE_OK);
        SQL(db->h, sqlite3_bind_int(s, 7, r->sm_count > 0 ? r->sm_count : 0), SQLITE_OK);
        SQL(db->h, bind_real(s, 8, r->fma_tflops), SQLITE_OK);
        SQL(db->h, bind_real(s, 9, r->bandwidth_gbs), SQLITE_OK);
        SQL(db->h, bind_real(s, 10, r->launch_us), SQLITE_OK);
        SQL(db->h, bind_text_or_null(s, 11, r->measured_at), SQLITE_OK);
        SQL(db->h, bind_real(s, 12, r->tc_half_tflops), SQLITE_OK);
        SQL(db->h, step_id(s, &dev), SQLITE_OK);
    } else {
        s = q[IMP_CEILINGS];
        SQL(db->h, sqlite3_bind_int64(s, 1, dev), SQLITE_OK);
        SQL(db->h, bind_real(s, 2, r->fma_tflops), SQLITE_OK);
        SQL(db->h, bind_real(s, 3, r->bandwidth_gbs), SQLITE_OK);
        SQL(db->h, bind_real(s, 4, r->launch_us), SQLITE_OK);
        SQL(db->h, bind_text_or_null(s, 5, r->measured_at), SQLITE_OK);
        SQL(db->h, bind_real(s, 6, r->tc_half_tflops), SQLITE_OK);
        SQL(db->h, sqlite3_step(s), SQLITE_DONE);
        s = q[IMP_SM_COUNT];
        SQL(db->h, sqlite3_bind_int64(s, 1, dev), SQLITE_OK);
        SQL(db->h, sqlite3_bind_int(s, 2, r->sm_count), SQLITE_OK);
        SQL(db->h, sqlite3_step(s), SQLITE_DONE);
    }

    /* the problem, by its canonical string */
    s = q[IMP_FIND_PROB];
    SQL(db->h, sqlite3_bind_text(s, 1, r->problem, -1, SQLITE_TRANSIENT), SQLITE_OK);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        prob = sqlite3_column_int64(s, 0);
        const unsigned char *fam = sqlite3_column_text(s, 1);
        if (!fam || strcmp((const char *)fam, r->family) != 0) {
            st = ct_fail(e, CT_ERR_USAGE, "problem %s is stored as family '%s', the record says '%s'", r->problem,
                         fam ? (const char *)fam : "", r->family);
            goto done;
        }
    } else {
        SQL(db->h, rc, SQLITE_DONE);
        s = q[IMP_ADD_PROB];
        SQL(db->h, sqlite3_bind_text(s, 1, r->family, -1, SQLITE_TRANSIENT), SQLITE_OK);
        SQL(db->h, sqlite3_bind_text(s, 2, r->problem, -1, SQLITE_TRANSIENT), SQLITE_OK);
        SQL(db->h, sqlite3_bind_double(s, 3, r->flops > 0 ? r->flops : 0), SQLITE_OK);
        SQL(db->h, sqlite3_bind_double(s, 4, r->bytes > 0 ? r->bytes : 0), SQLITE_OK);
        SQL(db->h, sqlite3_bind_text(s, 5, r->problem_created_at, -1, SQLITE_TRANSIENT), SQLITE_OK);
        SQL(db->h, step_id(s, &prob), SQLITE_OK);
    }

    /* already there? */
    s = q[IMP_FIND_CAND];
    SQL(db->h, sqlite3_bind_int64(s, 1, dev), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int64(s, 2, prob), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 3, r->tmpl, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 4, r->template_hash, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 5, r->created_at, -1, SQLITE_TRANSIENT), SQLITE_OK);
    int step;
    while (!found && (step = sqlite3_step(s)) == SQLITE_ROW) {
        const unsigned char *stored = sqlite3_column_text(s, 1);
        if (stored && same_params(r, (const char *)stored))
            found = sqlite3_column_int64(s, 0);
    }
    if (!found)
        SQL(db->h, step, SQLITE_DONE);
    sqlite3_reset(s);
    if (found && r->code_hash[0]) {
        /* The same measurement, stored before code hashes: it gets one. */
        s = q[IMP_SET_CODE];
        SQL(db->h, sqlite3_bind_int64(s, 1, found), SQLITE_OK);
        SQL(db->h, sqlite3_bind_text(s, 2, r->code_hash, -1, SQLITE_TRANSIENT), SQLITE_OK);
        SQL(db->h, sqlite3_step(s), SQLITE_DONE);
    }
    if (found)
        goto done;

    /* its run, found by everything a run records, or added */
    s = q[IMP_FIND_RUN];
    SQL(db->h, sqlite3_bind_int64(s, 1, prob), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int64(s, 2, dev), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 3, r->run_started_at, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, bind_text_or_null(s, 4, r->run_finished_at), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 5, r->run_status, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, bind_text_or_null(s, 6, r->run_settings), SQLITE_OK);
    SQL(db->h, step_id(s, &run), SQLITE_OK);
    if (!run) {
        s = q[IMP_ADD_RUN];
        SQL(db->h, sqlite3_bind_int64(s, 1, prob), SQLITE_OK);
        SQL(db->h, sqlite3_bind_int64(s, 2, dev), SQLITE_OK);
        SQL(db->h, sqlite3_bind_text(s, 3, r->run_started_at, -1, SQLITE_TRANSIENT), SQLITE_OK);
        SQL(db->h, bind_text_or_null(s, 4, r->run_finished_at), SQLITE_OK);
        SQL(db->h, sqlite3_bind_text(s, 5, r->run_status, -1, SQLITE_TRANSIENT), SQLITE_OK);
        SQL(db->h, bind_text_or_null(s, 6, r->run_settings), SQLITE_OK);
        SQL(db->h, step_id(s, &run), SQLITE_OK);
    }

    s = q[IMP_ADD_CAND];
    if ((st = db_bind_candidate(db->h, s, run, r, e)) != CT_OK)
        goto done;
    SQL(db->h, sqlite3_step(s), SQLITE_DONE);
    *added = 1;
done:
    return st;
}

ct_status ct_db_import(ct_db *db, ct_result_next next, void *user, long *imported, long *skipped, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *q[IMP_COUNT] = {0};
    ct_result *r = NULL;
    long n = 0, added = 0, dup = 0;

    if (!db || !next)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: import without a database or source");
    db_lock(db);
    if (!(r = malloc(sizeof *r))) {
        st = ct_fail(e, CT_ERR_INTERNAL, "DB: out of memory");
        goto done;
    }
    SQL(db->h, sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    for (int i = 0; i < IMP_COUNT; i++)
        SQL(db->h, sqlite3_prepare_v2(db->h, sql_import[i] ? sql_import[i] : db_candidate_insert_sql(), -1, &q[i],
                                      NULL), SQLITE_OK);
    for (;;) {
        int have = 0, was_added = 0;
        if ((st = next(user, r, &have, e)) != CT_OK)
            goto done;
        if (!have)
            break;
        n++;
        if ((st = import_row(db, q, r, &was_added, e)) != CT_OK) {
            char why[sizeof e->msg];
            snprintf(why, sizeof why, "%s", e ? e->msg : "");
            st = ct_fail(e, st, "record %ld (%s on %s): %s", n, r->problem, r->device, why);
            goto done;
        }
        added += was_added;
        dup += !was_added;
    }
done:
    for (int i = 0; i < IMP_COUNT; i++)
        sqlite3_finalize(q[i]);
    st = tx_end(db, st, e, __func__);
    free(r);
    db_unlock(db);
    if (st == CT_OK) {
        if (imported)
            *imported = added;
        if (skipped)
            *skipped = dup;
    }
    return st;
}

