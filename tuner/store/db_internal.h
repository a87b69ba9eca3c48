/* db_internal.h - what the parts of the SQLite store (db.c, db_open.c,
 * db_move.c) share: the handle and the error, transaction and binding
 * helpers. Not for use outside them. */
#ifndef CT_DB_INTERNAL_H
#define CT_DB_INTERNAL_H

#include <pthread.h>
#include <sqlite3.h>

#include "db.h"

/* The schema version this build reads and writes (PRAGMA user_version). */
#define CT_DB_SCHEMA_VERSION 4

/* How long a call waits for another process's transaction (the busy
 * handler), unless $CONVTUNE_DB_TIMEOUT gives it in seconds; and after how
 * long the wait is announced (ct_db_on_wait). */
#define CT_DB_BUSY_MS 10000
#define CT_DB_WAIT_NOTICE_MS 1000

struct ct_db {
    sqlite3 *h;
    pthread_mutex_t mu;
    char *path;            /* for messages */
    int busy_ms;           /* how long a call waits for another writer */
    double busy_since;     /* when the current wait began (monotonic s) */
    int busy_told;         /* the wait hook was called for this handle */
};

/* Run an SQLite call; on a result other than want, record the failure and
 * jump to the function's single exit. Needs `ct_status st`, `ct_err *e` and a
 * `done:` label in scope. */
#define SQL(h, call, want) do { int rc_ = (call); if (rc_ != (want)) { \
    st = sql_fail((h), e, __func__, #call, rc_); goto done; } } while (0)

ct_status sql_fail(sqlite3 *h, ct_err *e, const char *func, const char *call, int rc);
void db_lock(ct_db *db);
void db_unlock(ct_db *db);
ct_status tx_end(ct_db *db, ct_status st, ct_err *e, const char *func);
int bind_text_or_null(sqlite3_stmt *s, int i, const char *v);
int bind_pos(sqlite3_stmt *s, int i, double v);
int bind_real(sqlite3_stmt *s, int i, double v);
int bind_int_min(sqlite3_stmt *s, int i, long long v, long long min);
int query_int(sqlite3 *h, const char *sql, int *out);

/* A whole record: every field of CT_RESULT_FIELDS (its sql expression),
 * then the candidate's id and run id, as db_read_result reads them. */
#define DB_RESULT_SEL_(group, type, m, n, name, sql) sql ", "
#define DB_RESULT_COLUMNS CT_RESULT_FIELDS(DB_RESULT_SEL_) "c.id, c.run_id"
#define DB_RESULT_FROM                                                                  \
    " FROM candidates c JOIN runs r ON r.id = c.run_id JOIN problems p ON p.id = c.problem_id" \
    " JOIN devices d ON d.id = c.device_id"

/* Fill r from the current row of a DB_RESULT_COLUMNS statement, with typed
 * parameters where the template is known. A text too long for its field is
 * cut at a character boundary, or, when whole != 0, left for the caller:
 * the return is then the name of the first such field (NULL if none). */
const char *db_read_result(sqlite3_stmt *s, ct_result *r, int whole);

/* The candidate insert of ct_db_candidate_add and ct_db_import (made from
 * the C and M fields of CT_RESULT_FIELDS, the run last), and the binding of
 * r and the run to it. */
const char *db_candidate_insert_sql(void);
ct_status db_bind_candidate(sqlite3 *h, sqlite3_stmt *s, long long run_id, const ct_result *r, ct_err *e);

#endif
