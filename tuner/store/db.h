/* db.h - the SQLite store of devices, problems, tuning runs and candidates.
 *
 * Every candidate a tuning run tries is stored (failed ones with their
 * status and error text), so `query` can show what was tried and `export`
 * can pick the winner: the fastest candidate with status "ok" for a problem
 * on a device. The schema lives in db/schema.sql (embedded at build time) and
 * is versioned with PRAGMA user_version. */
#ifndef CT_DB_H
#define CT_DB_H

#include "device.h"
#include "result.h"
#include "status.h"

typedef struct ct_db ct_db;

/* Open (creating if absent and create != 0) the database at path, creating
 * parent directories, applying the schema or migrating an older version.
 * A file that is not a database, a corrupt one or one with a newer schema is
 * refused with a clear error and left untouched.
 *
 * create == 0 opens for reading and writes nothing: an empty file is
 * refused (not a convtune database), and a file that cannot be written
 * (the file or its folder read-only) is opened immutable. create != 0 opens
 * for writing: a database that cannot be written is refused up front, with
 * nothing created beside it. */
ct_status ct_db_open(const char *path, int create, ct_db **out, ct_err *e);
void ct_db_close(ct_db *db);
/* What ct_db_open(path, 1) refuses before it opens or creates anything
 * (an empty or overlong path, a folder, a read-only file, a file that is
 * not SQLite's), checked without opening: so that a tuning run refuses its
 * database before it looks for a GPU. CT_OK for a path that does not exist
 * yet (the open creates it). */
ct_status ct_db_check_writable(const char *path, ct_err *e);

/* Called once per handle when a call has waited CT_DB_WAIT_NOTICE_MS (1 s)
 * for another process's write transaction, before it waits on (up to 10 s,
 * or $CONVTUNE_DB_TIMEOUT seconds); the command line prints a line there.
 * NULL (the default) says nothing. */
typedef void (*ct_db_wait_fn)(const char *path);
void ct_db_on_wait(ct_db_wait_fn fn);

/* Insert or find the device row (by name, uuid, cc, driver and NVRTC
 * versions); ceilings given as > 0 replace the stored ones. */
ct_status ct_db_device_upsert(ct_db *db, const ct_device_info *d, long long *device_id, ct_err *e);

/* Stored ceilings for a device identified like in upsert (absent ones read
 * as 0). Returns CT_ERR_NOT_FOUND when the device is unknown or was never
 * measured. */
ct_status ct_db_device_ceilings(ct_db *db, const ct_device_info *d,
                                double *fma_tflops, double *tc_half_tflops, double *bandwidth_gbs,
                                double *launch_us, ct_err *e);

ct_status ct_db_problem_upsert(ct_db *db, const char *family, const char *canonical,
                               double flops, double bytes, long long *problem_id, ct_err *e);

/* A tuning run: settings is a JSON object text with the measurement settings. */
ct_status ct_db_run_begin(ct_db *db, long long problem_id, long long device_id,
                          const char *settings_json, long long *run_id, ct_err *e);
ct_status ct_db_run_end(ct_db *db, long long run_id, const char *status, ct_err *e);

/* Set member key of the run's settings object to the JSON text json (the
 * measurement conditions, known when the run ends). */
ct_status ct_db_run_note(ct_db *db, long long run_id, const char *key, const char *json, ct_err *e);

/* Store one candidate (committed at once): rec's candidate fields (groups C
 * and M of CT_RESULT_FIELDS), absent ones as NULL, the parameters as
 * params_json or, when that is empty, written from the typed parameters;
 * an empty created_at is now. The run gives the problem and device. */
ct_status ct_db_candidate_add(ct_db *db, long long run_id, const ct_result *rec, ct_err *e);
/* Same, returning the new row's id. */
ct_status ct_db_candidate_add_id(ct_db *db, long long run_id, const ct_result *rec, long long *id, ct_err *e);

/* Replace the timing of verified candidate `id` with rec's (median, min,
 * max, spread, reps, confidence interval, method and batch): the end-of-run
 * re-timing of the best few. */
ct_status ct_db_candidate_retime(ct_db *db, long long id, const ct_result *rec, ct_err *e);

/* Give candidates ids[0..n), stored before code hashes existed, their code
 * hashes (codehash.h), in one transaction; one that has one keeps it. A
 * resumed run calls this for the old outcomes it reuses: readers never
 * write. */
ct_status ct_db_candidates_set_code_hash(ct_db *db, const long long *ids, const char (*code_hashes)[17], int n,
                                         ct_err *e);

/* Filters for queries; NULL or "" means any. */
typedef struct ct_query {
    const char *problem;       /* canonical problem string */
    const char *device;        /* device name, exact or a case-insensitive substring */
    const char *family;
    int winners_only;          /* one row per (problem, device): fastest "ok" */
    int ok_only;               /* only status "ok" */
    long long device_id;       /* only this device row (from ct_db_device_upsert); 0 = any */
} ct_query;

typedef int (*ct_result_cb)(const ct_result *r, void *user);   /* non-zero stops */

/* Call cb for each matching record, fastest first within a problem/device.
 * Records are read whole (device, problem, run and candidate), with typed
 * parameters where their template is known; a text too long for its field
 * is cut at a character boundary. */
ct_status ct_db_query(ct_db *db, const ct_query *q, ct_result_cb cb, void *user, ct_err *e);

/* The winner for a problem (on device if given, else the fastest over all
 * devices). CT_ERR_NOT_FOUND if none. */
ct_status ct_db_best(ct_db *db, const char *problem, const char *device, ct_result *out, ct_err *e);

/* Median time of the baseline template of the same problem and device, from
 * the most recent run that measured it; CT_ERR_NOT_FOUND if none. */
ct_status ct_db_baseline_us(ct_db *db, const char *problem, const char *device,
                            const char *baseline_template, double *median_us, ct_err *e);

/* Default database path: $CONVTUNE_DB, else $XDG_DATA_HOME/convtune/convtune.db,
 * else $HOME/.local/share/convtune/convtune.db. */
ct_status ct_db_default_path(char *buf, size_t len, ct_err *e);

/* Check the file with SQLite's PRAGMA integrity_check and foreign_key_check.
 * Writes "ok" into report and returns CT_OK when both find nothing;
 * otherwise writes the problems, one per line (cut short to fit len), and
 * returns CT_ERR_DB. Writes nothing to the database. */
ct_status ct_db_check(ct_db *db, char *report, size_t len, ct_err *e);

/* For tests of the migration runner: apply steps[v] .. steps[nsteps - 1]
 * (SQL scripts; step k takes user_version k to k + 1) to an open database at
 * version v, all in one transaction, exactly as ct_db_open applies the
 * built-in steps; then user_version is nsteps. A failing step leaves the file
 * as it was; v > nsteps is refused as a newer schema. */
ct_status ct_db_migrate_steps(ct_db *db, const char *const *steps, int nsteps, ct_err *e);

/* ------------------------------------------------------------------------ */
/* Moving records between databases (dbio.h writes and reads the files)    */

/* Every stored candidate with its whole provenance (device identity and
 * ceilings, problem, run), ordered by device identity, problem, creation
 * time and id, read in one snapshot (cb must not write through db). A text
 * too long for its field is an error, never cut. */
ct_status ct_db_dump(ct_db *db, ct_result_cb cb, void *user, ct_err *e);

/* Whether any stored candidate's record has a value for field f. */
ct_status ct_db_field_used(ct_db *db, const ct_result_field *f, int *used, ct_err *e);

/* Source of records for ct_db_import: fill *row and set *have = 1, or set
 * *have = 0 at the end; any other status than CT_OK aborts the import. */
typedef ct_status (*ct_result_next)(void *user, ct_result *row, int *have, ct_err *e);

/* Add the rows in one transaction. A record is identified by its device
 * identity (name, uuid, compute capability, driver and NVRTC versions),
 * problem, template, template hash, params text and created_at (the
 * callers, dbio.c and db_merge.c, put params in canonical form first, so
 * equal values are equal text); one already present is skipped, any other is added (with its device, problem and run
 * created when missing), so the winner queries then pick the best of both.
 * Stored ceilings are replaced only by ones measured later. On any error
 * the transaction is rolled back: the database is left as it was. */
ct_status ct_db_import(ct_db *db, ct_result_next next, void *user, long *imported, long *skipped, ct_err *e);

#endif
