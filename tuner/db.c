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
#include "resources.h"

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

/* The schema version this build reads and writes (PRAGMA user_version). */
#define CT_DB_SCHEMA_VERSION 1

/* How long a call waits for another process's transaction (busy_timeout). */
#define CT_DB_BUSY_MS 10000

struct ct_db {
    sqlite3 *h;
    pthread_mutex_t mu;
    char *path;            /* for messages */
};

/* Migration step k takes a database from user_version k to k + 1. Step 0
 * creates the schema in an empty file. A later schema change appends a step
 * (e.g. "db/migrate_2.sql") and bumps CT_DB_SCHEMA_VERSION. */
typedef struct ct_migration {
    const char *name;      /* the embedded SQL script run with sqlite3_exec ... */
    const char *sql;       /* ... unless this gives the text (ct_db_migrate_steps) */
} ct_migration;

static const ct_migration ct_migrations[] = {
    { "db/schema.sql", NULL },   /* 0 -> 1 */
};

_Static_assert(sizeof ct_migrations / sizeof ct_migrations[0] == CT_DB_SCHEMA_VERSION,
               "one migration step per schema version");

/* The tables a convtune database has; their absence in a file claiming a
 * schema version means some other program set user_version. */
static const char sql_count_tables[] =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
    " AND name IN ('devices', 'problems', 'runs', 'candidates')";
static const char sql_count_objects[] =
    "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'";

/* ------------------------------------------------------------------------ */
/* Error and transaction helpers                                            */

/* Fill e with the failing SQLite call as written in the source and SQLite's
 * own explanation; all SQLite failures share this one message shape. */
static ct_status sql_fail(sqlite3 *h, ct_err *e, const char *func, const char *call, int rc)
{
    const char *why = h ? sqlite3_errmsg(h) : sqlite3_errstr(rc);
    return ct_fail(e, CT_ERR_DB, "DB: %s: %s failed: %s", func, call, why);
}

/* Run an SQLite call; on a result other than want, record the failure and
 * jump to the function's single exit. Needs `ct_status st`, `ct_err *e` and a
 * `done:` label in scope. */
#define SQL(h, call, want) do { int rc_ = (call); if (rc_ != (want)) { \
    st = sql_fail((h), e, __func__, #call, rc_); goto done; } } while (0)

/* Serialize whole API calls on one handle (see the note at the top). */
static void db_lock(ct_db *db) { pthread_mutex_lock(&db->mu); }
static void db_unlock(ct_db *db) { pthread_mutex_unlock(&db->mu); }

/* Finish the write transaction a function opened: commit if it succeeded,
 * otherwise roll back, so no failure leaves a transaction open on the
 * handle. Statements must already be finalized. Returns the final status. */
static ct_status tx_end(ct_db *db, ct_status st, ct_err *e, const char *func)
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
static int bind_text_or_null(sqlite3_stmt *s, int i, const char *v)
{
    if (!v || !*v)
        return sqlite3_bind_null(s, i);
    return sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
}

/* Bind a measurement, storing NULL when it is absent (<= 0). */
static int bind_pos(sqlite3_stmt *s, int i, double v)
{
    return v > 0 ? sqlite3_bind_double(s, i, v) : sqlite3_bind_null(s, i);
}

/* Bind an integer, storing NULL when it is below min (unknown). */
static int bind_int_min(sqlite3_stmt *s, int i, long long v, long long min)
{
    return v >= min ? sqlite3_bind_int64(s, i, v) : sqlite3_bind_null(s, i);
}

/* Copy a text column into a fixed buffer, truncating at a UTF-8 character
 * boundary so the copy stays valid text. NULL becomes "". */
static void col_text(sqlite3_stmt *s, int col, char *dst, size_t cap)
{
    const unsigned char *t = sqlite3_column_text(s, col);
    size_t n = t ? strlen((const char *)t) : 0;
    if (n >= cap) {
        n = cap - 1;
        while (n > 0 && (t[n] & 0xC0) == 0x80)
            n--;
    }
    if (n)
        memcpy(dst, t, n);
    dst[n] = '\0';
}

/* Read one integer from a single-row query without parameters. Returns the
 * SQLite result code (SQLITE_OK on success) so callers can tell "not a
 * database" from other failures. */
static int query_int(sqlite3 *h, const char *sql, int *out)
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
/* Opening                                                                  */

/* PRAGMA journal_mode = WAL, retried while another connection holds a lock.
 * Switching a file into WAL takes an exclusive lock from inside a read
 * transaction, where SQLite does not call the busy handler: a process that
 * opens a new file while another one initialises it gets SQLITE_BUSY at
 * once. A file already in WAL mode needs no lock and returns at once. */
static int set_wal(sqlite3 *h)
{
    int rc;
    for (int waited_ms = 0;; waited_ms += 5) {
        rc = sqlite3_exec(h, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
        if ((rc & 0xff) != SQLITE_BUSY || waited_ms >= CT_DB_BUSY_MS)
            return rc;
        sqlite3_sleep(5);
    }
}

/* Create the directories leading to path (mkdir -p of its dirname, 0755), so
 * that the default path under ~/.local/share works on a fresh account. */
static ct_status make_parents(const char *path, ct_err *e)
{
    ct_status st = CT_OK;
    char *dir = strdup(path);
    if (!dir)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: out of memory");
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        for (char *p = dir + 1; ; p++) {
            if (*p != '/' && *p != '\0')
                continue;
            char c = *p;
            *p = '\0';
            struct stat sb;
            if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
                st = ct_fail(e, CT_ERR_IO, "DB: cannot create directory %s: %s",
                             dir, strerror(errno));
                goto done;
            }
            if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
                st = ct_fail(e, CT_ERR_IO, "DB: cannot create directory %s: %s", dir,
                             errno ? strerror(errno) : "a file of that name exists");
                goto done;
            }
            *p = c;
            if (c == '\0')
                break;
        }
    }
done:
    free(dir);
    return st;
}

/* Apply the migration steps from the file's version up to target (normally
 * CT_DB_SCHEMA_VERSION with ct_migrations) in a single BEGIN IMMEDIATE
 * transaction. The version is read again inside the transaction: another
 * process may have initialized the file meanwhile. */
static ct_status migrate(ct_db *db, const ct_migration *steps, int target, ct_err *e)
{
    ct_status st = CT_OK;
    int version = 0, objects = 0, rc;
    char pragma[64];

    SQL(db->h, sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    SQL(db->h, query_int(db->h, "PRAGMA user_version", &version), SQLITE_OK);
    SQL(db->h, query_int(db->h, sql_count_objects, &objects), SQLITE_OK);
    if (version > target) {
        st = ct_fail(e, CT_ERR_DB, "DB: database %s has schema version %d, newer than this "
                     "convtune supports (%d); upgrade convtune", db->path, version, target);
        goto done;
    }
    if (version == 0 && objects > 0) {
        st = ct_fail(e, CT_ERR_DB, "DB: %s is not a convtune database (it holds other tables)",
                     db->path);
        goto done;
    }
    for (int k = version; k < target; k++) {
        const char *script = steps[k].sql ? steps[k].sql : ct_resource(steps[k].name, NULL);
        if (!script) {
            st = ct_fail(e, CT_ERR_INTERNAL, "DB: %s is not embedded in this binary",
                         steps[k].name);
            goto done;
        }
        rc = sqlite3_exec(db->h, script, NULL, NULL, NULL);
        if (rc != SQLITE_OK) {
            st = ct_fail(e, CT_ERR_DB, "DB: applying %s (version %d to %d) to %s failed: %s",
                         steps[k].name, k, k + 1, db->path, sqlite3_errmsg(db->h));
            goto done;
        }
    }
    /* PRAGMA takes no parameters; the value is our own integer. */
    snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", target);
    SQL(db->h, sqlite3_exec(db->h, pragma, NULL, NULL, NULL), SQLITE_OK);
done:
    return tx_end(db, st, e, __func__);
}

/* Open the database and check what it is before writing anything to it:
 * the first reads (user_version, sqlite_master) are what reveal junk or a
 * corrupt file, and only a recognised file gets WAL mode and a schema. */
ct_status ct_db_open(const char *path, int create, ct_db **out, ct_err *e)
{
    ct_status st = CT_OK;
    ct_db *db = NULL;
    struct stat sb;
    int version = 0, objects = 0, tables = 0, rc;
    int memory, flags;
    char why[256] = "";

    if (!out)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: ct_db_open without a result pointer");
    *out = NULL;
    if (!path || !*path)
        return ct_fail(e, CT_ERR_USAGE, "DB: no database path given");
    memory = strcmp(path, ":memory:") == 0;
    if (!memory) {
        if (stat(path, &sb) != 0) {
            if (errno != ENOENT && errno != ENOTDIR)
                return ct_fail(e, CT_ERR_DB, "DB: cannot access %s: %s", path, strerror(errno));
            if (!create)
                return ct_fail(e, CT_ERR_NOT_FOUND, "DB: database %s does not exist", path);
            st = make_parents(path, e);
            if (st != CT_OK)
                return st;
        } else if (S_ISDIR(sb.st_mode)) {
            return ct_fail(e, CT_ERR_DB, "DB: %s is a directory, not a database file", path);
        }
    }

    db = calloc(1, sizeof *db);
    if (!db || !(db->path = strdup(path))) {
        st = ct_fail(e, CT_ERR_INTERNAL, "DB: out of memory");
        goto done;
    }
    {
        pthread_mutexattr_t a;
        pthread_mutexattr_init(&a);
        pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
        pthread_mutex_init(&db->mu, &a);
        pthread_mutexattr_destroy(&a);
    }

    flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_FULLMUTEX;
    rc = sqlite3_open_v2(path, &db->h, flags, NULL);
    if (rc != SQLITE_OK) {
        st = ct_fail(e, CT_ERR_DB, "DB: cannot open %s: %s", path,
                     db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc));
        goto done;
    }
    sqlite3_busy_timeout(db->h, CT_DB_BUSY_MS);

    /* First reads: junk or a corrupt file fails here, before any write.
     * They share one read transaction: another process may initialise a new
     * file between two of them, and user_version 0 from before its commit
     * with its tables from after would look like another program's file. */
    rc = sqlite3_exec(db->h, "BEGIN", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = query_int(db->h, "PRAGMA user_version", &version);
    if (rc == SQLITE_OK)
        rc = query_int(db->h, sql_count_objects, &objects);
    if (rc == SQLITE_OK)
        rc = query_int(db->h, sql_count_tables, &tables);
    if (rc != SQLITE_OK)
        snprintf(why, sizeof why, "%s", sqlite3_errmsg(db->h));
    if (!sqlite3_get_autocommit(db->h))
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);   /* only read */
    if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT) {
        /* CORRUPT: an SQLite header, but pages missing (a truncated copy). */
        st = ct_fail(e, CT_ERR_DB, "DB: %s is %snot a convtune database (%s)", path,
                     rc == SQLITE_CORRUPT ? "corrupt or " : "", why);
        goto done;
    }
    if (rc != SQLITE_OK) {
        st = ct_fail(e, CT_ERR_DB, "DB: cannot read %s: %s", path, why);
        goto done;
    }
    if (version > CT_DB_SCHEMA_VERSION) {
        st = ct_fail(e, CT_ERR_DB, "DB: database %s has schema version %d, newer than this "
                     "convtune supports (%d); upgrade convtune", path, version,
                     CT_DB_SCHEMA_VERSION);
        goto done;
    }
    if (version == 0 && objects > 0) {
        st = ct_fail(e, CT_ERR_DB, "DB: %s is not a convtune database (it holds other tables)",
                     path);
        goto done;
    }
    /* Version-1 tables; a later step that renames tables must adapt this. */
    if (version > 0 && tables != 4) {
        st = ct_fail(e, CT_ERR_DB, "DB: %s is not a convtune database (schema version %d "
                     "but the convtune tables are missing)", path, version);
        goto done;
    }
    if (version < CT_DB_SCHEMA_VERSION && sqlite3_db_readonly(db->h, "main") == 1) {
        st = ct_fail(e, CT_ERR_DB, "DB: %s is read-only and needs its schema %s", path,
                     version == 0 ? "created" : "upgraded");
        goto done;
    }

    /* Recognised: now configure the connection. foreign_keys and synchronous
     * are per connection; WAL is stored in the file and lets `query` read
     * while a tuner writes. A read-only file keeps its journal mode. */
    SQL(db->h, sqlite3_exec(db->h, "PRAGMA foreign_keys = ON", NULL, NULL, NULL), SQLITE_OK);
    if (sqlite3_db_readonly(db->h, "main") != 1)
        SQL(db->h, set_wal(db->h), SQLITE_OK);
    SQL(db->h, sqlite3_exec(db->h, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL), SQLITE_OK);

    /* Version 0 here means an empty file (new, or created empty by someone
     * else): it gets the schema even when create == 0. */
    if (version < CT_DB_SCHEMA_VERSION)
        st = migrate(db, ct_migrations, CT_DB_SCHEMA_VERSION, e);
done:
    if (st == CT_OK) {
        *out = db;
    } else {
        ct_db_close(db);
    }
    return st;
}

/* Close the connection (NULL is ignored). Statements never outlive a call,
 * so sqlite3_close cannot find any pending. */
void ct_db_close(ct_db *db)
{
    if (!db)
        return;
    if (db->path)
        pthread_mutex_destroy(&db->mu);
    sqlite3_close(db->h);
    free(db->path);
    free(db);
}

/* The migration runner on caller-given steps, for tests (see db.h). */
ct_status ct_db_migrate_steps(ct_db *db, const char *const *steps, int nsteps, ct_err *e)
{
    ct_status st;
    ct_migration *m;

    if (!db || nsteps < 0 || (nsteps > 0 && !steps))
        return ct_fail(e, CT_ERR_INTERNAL, "DB: migrate without a database or steps");
    m = calloc((size_t)nsteps + 1, sizeof *m);
    if (!m)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: out of memory");
    for (int k = 0; k < nsteps; k++)
        m[k] = (ct_migration){ "migration step", steps[k] };
    db_lock(db);
    st = migrate(db, m, nsteps, e);
    db_unlock(db);
    free(m);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Devices, problems, runs, candidates                                      */

static const char sql_device_upsert[] =
    "INSERT INTO devices (name, uuid, cc_major, cc_minor, sm_count, driver_version,"
    "                     nvrtc_version, fma_tflops, bandwidth_gbs, launch_us, measured_at)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
    "         CASE WHEN coalesce(?8, ?9, ?10) IS NOT NULL"
    "              THEN strftime('%Y-%m-%dT%H:%M:%SZ', 'now') END)"
    " ON CONFLICT (name, uuid, cc_major, cc_minor, driver_version, nvrtc_version) DO UPDATE SET"
    "   sm_count = CASE WHEN excluded.sm_count > 0 THEN excluded.sm_count ELSE sm_count END,"
    "   fma_tflops = coalesce(excluded.fma_tflops, fma_tflops),"
    "   bandwidth_gbs = coalesce(excluded.bandwidth_gbs, bandwidth_gbs),"
    "   launch_us = coalesce(excluded.launch_us, launch_us),"
    "   measured_at = coalesce(excluded.measured_at, measured_at)"
    " RETURNING id";

static const char sql_device_ceilings[] =
    "SELECT fma_tflops, bandwidth_gbs, launch_us, measured_at FROM devices"
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
                                double *fma_tflops, double *bandwidth_gbs,
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

static const char sql_candidate_add[] =
    "INSERT INTO candidates (run_id, problem_id, device_id, template, template_hash, params,"
    "    status, error, median_us, min_us, max_us, spread, reps, relerr, registers,"
    "    smem_bytes, local_bytes, compile_ms)"
    " SELECT id, problem_id, device_id, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
    "        ?13, ?14, ?15, ?16"
    " FROM runs WHERE id = ?1";

/* Bind a candidate's columns as ?2..?16; absent measurements become NULL. */
static int bind_candidate(sqlite3_stmt *s, long long run_id, const ct_record *r)
{
    int rc;
    if ((rc = sqlite3_bind_int64(s, 1, run_id)) != SQLITE_OK ||
        (rc = sqlite3_bind_text(s, 2, r->tmpl, -1, SQLITE_TRANSIENT)) != SQLITE_OK ||
        (rc = sqlite3_bind_text(s, 3, r->template_hash, -1, SQLITE_TRANSIENT)) != SQLITE_OK ||
        (rc = sqlite3_bind_text(s, 4, r->params[0] ? r->params : "{}", -1,
                                SQLITE_TRANSIENT)) != SQLITE_OK ||
        (rc = sqlite3_bind_text(s, 5, r->status, -1, SQLITE_TRANSIENT)) != SQLITE_OK ||
        (rc = bind_text_or_null(s, 6, r->error)) != SQLITE_OK ||
        (rc = bind_pos(s, 7, r->median_us)) != SQLITE_OK ||
        (rc = bind_pos(s, 8, r->min_us)) != SQLITE_OK ||
        (rc = bind_pos(s, 9, r->max_us)) != SQLITE_OK ||
        (rc = bind_pos(s, 10, r->spread)) != SQLITE_OK ||
        (rc = bind_int_min(s, 11, r->reps, 1)) != SQLITE_OK ||
        /* relerr < 0 means "not checked"; 0 is a legitimate exact result. */
        (rc = (r->relerr >= 0 ? sqlite3_bind_double(s, 12, r->relerr)
                              : sqlite3_bind_null(s, 12))) != SQLITE_OK ||
        (rc = bind_int_min(s, 13, r->registers, 1)) != SQLITE_OK ||
        (rc = bind_int_min(s, 14, r->smem_bytes, 0)) != SQLITE_OK ||
        (rc = bind_int_min(s, 15, r->local_bytes, 0)) != SQLITE_OK)
        return rc;
    return bind_pos(s, 16, r->compile_ms);
}

/* Store one candidate of a run in its own transaction, taking the problem and
 * device from the run's row so the three can never disagree. */
ct_status ct_db_candidate_add(ct_db *db, long long run_id, const ct_record *rec, ct_err *e)
{
    return ct_db_candidate_add_id(db, run_id, rec, NULL, e);
}

ct_status ct_db_candidate_add_id(ct_db *db, long long run_id, const ct_record *rec, long long *id, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;

    if (!db || !rec)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: candidate add without a record");
    db_lock(db);
    SQL(db->h, sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_prepare_v2(db->h, sql_candidate_add, -1, &s, NULL), SQLITE_OK);
    SQL(db->h, bind_candidate(s, run_id, rec), SQLITE_OK);
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

ct_status ct_db_candidate_retime(ct_db *db, long long id, const ct_record *rec, ct_err *e)
{
    static const char sql[] =
        "UPDATE candidates SET median_us = ?2, min_us = ?3, max_us = ?4, spread = ?5, reps = ?6"
        " WHERE id = ?1 AND status = 'ok'";
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;
    db_lock(db);
    SQL(db->h, sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_prepare_v2(db->h, sql, -1, &s, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int64(s, 1, id), SQLITE_OK);
    SQL(db->h, bind_pos(s, 2, rec->median_us), SQLITE_OK);
    SQL(db->h, bind_pos(s, 3, rec->min_us), SQLITE_OK);
    SQL(db->h, bind_pos(s, 4, rec->max_us), SQLITE_OK);
    SQL(db->h, bind_pos(s, 5, rec->spread), SQLITE_OK);
    SQL(db->h, bind_int_min(s, 6, rec->reps, 1), SQLITE_OK);
    SQL(db->h, sqlite3_step(s), SQLITE_DONE);
    if (sqlite3_changes(db->h) == 0)
        st = ct_fail(e, CT_ERR_NOT_FOUND, "DB: no verified candidate %lld to re-time", id);
done:
    sqlite3_finalize(s);
    st = tx_end(db, st, e, __func__);
    db_unlock(db);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Queries                                                                  */

/* The columns read_record expects, in this order. */
#define RECORD_COLUMNS \
    "c.id, c.run_id, p.canonical, p.family, d.name, d.cc_major, d.cc_minor, c.template," \
    " c.template_hash, c.params, c.status, c.error, c.median_us, c.min_us, c.max_us," \
    " c.spread, c.reps, c.relerr, c.registers, c.smem_bytes, c.local_bytes, c.compile_ms," \
    " p.flops, p.bytes, d.fma_tflops, d.bandwidth_gbs, c.created_at"
#define RECORD_FROM \
    " FROM candidates c JOIN problems p ON p.id = c.problem_id" \
    " JOIN devices d ON d.id = c.device_id"
/* ?2: device name, exact or a case-insensitive substring (ASCII folding). */
#define DEVICE_MATCH \
    " (?2 IS NULL OR d.name = ?2 OR instr(lower(d.name), lower(?2)) > 0)"

/* Winners: for each (problem, device) the 'ok' row first in index order
 * (median_us, then lowest id). Within a group, rows run from fastest 'ok' to
 * failed and untimed ones. */
static const char sql_query[] =
    "SELECT " RECORD_COLUMNS RECORD_FROM
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
    "SELECT " RECORD_COLUMNS RECORD_FROM
    " WHERE p.canonical = ?1 AND c.status = 'ok' AND" DEVICE_MATCH
    " ORDER BY c.median_us, c.id LIMIT 1";

/* Most recent run first; within it the fastest configuration of the
 * template, preferring a device whose name matches exactly. */
static const char sql_baseline[] =
    "SELECT c.median_us" RECORD_FROM
    " WHERE p.canonical = ?1 AND c.template = ?3 AND c.status = 'ok' AND" DEVICE_MATCH
    " ORDER BY d.name IS NOT ?2, c.run_id DESC, c.median_us, c.id LIMIT 1";

/* Fill r from the current row of a RECORD_COLUMNS statement; NULL times read
 * as 0 and an unchecked relerr as -1, as db.h promises. */
static void read_record(sqlite3_stmt *s, ct_record *r)
{
    memset(r, 0, sizeof *r);
    r->id = sqlite3_column_int64(s, 0);
    r->run_id = sqlite3_column_int64(s, 1);
    col_text(s, 2, r->problem, sizeof r->problem);
    col_text(s, 3, r->family, sizeof r->family);
    col_text(s, 4, r->device, sizeof r->device);
    snprintf(r->arch, sizeof r->arch, "sm_%d%d",
             sqlite3_column_int(s, 5), sqlite3_column_int(s, 6));
    col_text(s, 7, r->tmpl, sizeof r->tmpl);
    col_text(s, 8, r->template_hash, sizeof r->template_hash);
    col_text(s, 9, r->params, sizeof r->params);
    col_text(s, 10, r->status, sizeof r->status);
    col_text(s, 11, r->error, sizeof r->error);
    r->median_us = sqlite3_column_double(s, 12);
    r->min_us = sqlite3_column_double(s, 13);
    r->max_us = sqlite3_column_double(s, 14);
    r->spread = sqlite3_column_double(s, 15);
    r->reps = sqlite3_column_int(s, 16);
    r->relerr = sqlite3_column_type(s, 17) == SQLITE_NULL ? -1.0 : sqlite3_column_double(s, 17);
    r->registers = sqlite3_column_int(s, 18);
    r->smem_bytes = sqlite3_column_int(s, 19);
    r->local_bytes = sqlite3_column_int(s, 20);
    r->compile_ms = sqlite3_column_double(s, 21);
    r->flops = sqlite3_column_double(s, 22);
    r->bytes = sqlite3_column_double(s, 23);
    r->fma_tflops = sqlite3_column_double(s, 24);
    r->bandwidth_gbs = sqlite3_column_double(s, 25);
    col_text(s, 26, r->created_at, sizeof r->created_at);
}

/* Stream the matching candidates to cb, one record at a time, until the rows
 * run out or cb asks to stop; a stop is not an error. */
ct_status ct_db_query(ct_db *db, const ct_query *q, ct_record_cb cb, void *user, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;
    static const ct_query all = { 0 };
    ct_record *r = NULL;
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
        read_record(s, r);
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
ct_status ct_db_best(ct_db *db, const char *problem, const char *device, ct_record *out, ct_err *e)
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
    read_record(s, out);
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

/* Resolve the default database location (XDG base directory rules: a
 * relative XDG_DATA_HOME is ignored). */
ct_status ct_db_default_path(char *buf, size_t len, ct_err *e)
{
    const char *v;
    int n;

    if (!buf || len == 0)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: no buffer for the database path");
    buf[0] = '\0';
    if ((v = getenv("CONVTUNE_DB")) && *v)
        n = snprintf(buf, len, "%s", v);
    else if ((v = getenv("XDG_DATA_HOME")) && v[0] == '/')
        n = snprintf(buf, len, "%s/convtune/convtune.db", v);
    else if ((v = getenv("HOME")) && *v)
        n = snprintf(buf, len, "%s/.local/share/convtune/convtune.db", v);
    else
        return ct_fail(e, CT_ERR_DB, "DB: no database path: set CONVTUNE_DB or HOME");
    if (n < 0 || (size_t)n >= len) {
        buf[0] = '\0';
        return ct_fail(e, CT_ERR_DB, "DB: the database path is longer than %zu bytes", len - 1);
    }
    return CT_OK;
}

/* ------------------------------------------------------------------------ */
/* Dump and import (moving records between databases)                       */

/* The columns of a dump, in the order read_row expects. */
static const char sql_dump[] =
    "SELECT d.name, d.uuid, d.cc_major, d.cc_minor, d.sm_count, d.driver_version, d.nvrtc_version,"
    "       d.fma_tflops, d.bandwidth_gbs, d.launch_us, d.measured_at,"
    "       p.family, p.canonical, p.flops, p.bytes, p.created_at,"
    "       r.started_at, r.finished_at, r.status, r.settings,"
    "       c.template, c.template_hash, c.params, c.status, c.error, c.median_us, c.min_us,"
    "       c.max_us, c.spread, c.reps, c.relerr, c.registers, c.smem_bytes, c.local_bytes,"
    "       c.compile_ms, c.created_at, c.id"
    " FROM candidates c JOIN runs r ON r.id = c.run_id JOIN problems p ON p.id = c.problem_id"
    " JOIN devices d ON d.id = c.device_id"
    " ORDER BY d.name, d.uuid, d.cc_major, d.cc_minor, d.driver_version, d.nvrtc_version,"
    "          p.canonical, c.created_at, c.id";

/* Copy a text column whole: 0 when it does not fit (NULL reads as ""). */
static int col_text_whole(sqlite3_stmt *s, int col, char *dst, size_t cap)
{
    const unsigned char *t = sqlite3_column_text(s, col);
    size_t n = t ? strlen((const char *)t) : 0;
    if (n >= cap)
        return 0;
    if (n)
        memcpy(dst, t, n);
    dst[n] = '\0';
    return 1;
}

static double col_real_or_nan(sqlite3_stmt *s, int col)
{
    return sqlite3_column_type(s, col) == SQLITE_NULL ? NAN : sqlite3_column_double(s, col);
}

static int col_int_or_neg(sqlite3_stmt *s, int col)
{
    return sqlite3_column_type(s, col) == SQLITE_NULL ? -1 : sqlite3_column_int(s, col);
}

/* Fill r from a sql_dump row; returns the name of a text column too long
 * for its field, or NULL. */
static const char *read_row(sqlite3_stmt *s, ct_db_row *r)
{
    memset(r, 0, sizeof *r);
#define TEXT(col, field, name) if (!col_text_whole(s, col, r->field, sizeof r->field)) return name
    TEXT(0, dev_name, "device name");
    TEXT(1, dev_uuid, "device uuid");
    r->cc_major = sqlite3_column_int(s, 2);
    r->cc_minor = sqlite3_column_int(s, 3);
    r->sm_count = sqlite3_column_int(s, 4);
    r->driver_version = sqlite3_column_int(s, 5);
    TEXT(6, nvrtc_version, "NVRTC version");
    r->fma_tflops = col_real_or_nan(s, 7);
    r->bandwidth_gbs = col_real_or_nan(s, 8);
    r->launch_us = col_real_or_nan(s, 9);
    TEXT(10, measured_at, "device measured_at");
    TEXT(11, family, "family");
    TEXT(12, problem, "problem");
    r->flops = sqlite3_column_double(s, 13);
    r->bytes = sqlite3_column_double(s, 14);
    TEXT(15, problem_created_at, "problem created_at");
    TEXT(16, run_started_at, "run started_at");
    TEXT(17, run_finished_at, "run finished_at");
    TEXT(18, run_status, "run status");
    TEXT(19, run_settings, "run settings");
    TEXT(20, tmpl, "template");
    TEXT(21, template_hash, "template hash");
    TEXT(22, params, "params");
    TEXT(23, status, "status");
    TEXT(24, error, "error");
#undef TEXT
    r->median_us = col_real_or_nan(s, 25);
    r->min_us = col_real_or_nan(s, 26);
    r->max_us = col_real_or_nan(s, 27);
    r->spread = col_real_or_nan(s, 28);
    r->reps = col_int_or_neg(s, 29);
    r->relerr = col_real_or_nan(s, 30);
    r->registers = col_int_or_neg(s, 31);
    r->smem_bytes = col_int_or_neg(s, 32);
    r->local_bytes = col_int_or_neg(s, 33);
    r->compile_ms = col_real_or_nan(s, 34);
    if (!col_text_whole(s, 35, r->created_at, sizeof r->created_at))
        return "created_at";
    return NULL;
}

ct_status ct_db_dump(ct_db *db, ct_db_row_cb cb, void *user, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;
    ct_db_row *r = NULL;
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
        const char *too_long = read_row(s, r);
        if (too_long) {
            st = ct_fail(e, CT_ERR_DB, "DB: candidate %lld: its %s is too long to export",
                         (long long)sqlite3_column_int64(s, 36), too_long);
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

/* Bind a real, NULL for NaN. */
static int bind_real_or_null(sqlite3_stmt *s, int i, double v)
{
    return isnan(v) ? sqlite3_bind_null(s, i) : sqlite3_bind_double(s, i, v);
}

/* Bind an integer, NULL for a negative one. */
static int bind_int_or_null(sqlite3_stmt *s, int i, int v)
{
    return v < 0 ? sqlite3_bind_null(s, i) : sqlite3_bind_int(s, i, v);
}

/* The statements of an import, prepared once. */
enum {
    IMP_FIND_DEV, IMP_ADD_DEV, IMP_CEILINGS, IMP_SM_COUNT, IMP_FIND_PROB, IMP_ADD_PROB,
    IMP_FIND_RUN, IMP_ADD_RUN, IMP_FIND_CAND, IMP_ADD_CAND, IMP_COUNT
};

static const char *const sql_import[IMP_COUNT] = {
    [IMP_FIND_DEV] =
        "SELECT id, measured_at FROM devices WHERE name = ?1 AND uuid = ?2 AND cc_major = ?3"
        " AND cc_minor = ?4 AND driver_version = ?5 AND nvrtc_version = ?6",
    [IMP_ADD_DEV] =
        "INSERT INTO devices (name, uuid, cc_major, cc_minor, driver_version, nvrtc_version,"
        "                     sm_count, fma_tflops, bandwidth_gbs, launch_us, measured_at)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) RETURNING id",
    /* Ceilings measured later than the stored ones (or the first ones). */
    [IMP_CEILINGS] =
        "UPDATE devices SET fma_tflops = coalesce(?2, fma_tflops),"
        "    bandwidth_gbs = coalesce(?3, bandwidth_gbs), launch_us = coalesce(?4, launch_us),"
        "    measured_at = ?5"
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
        "SELECT 1 FROM candidates WHERE device_id = ?1 AND problem_id = ?2 AND template = ?3"
        " AND template_hash = ?4 AND params = ?5 AND created_at = ?6 LIMIT 1",
    [IMP_ADD_CAND] =
        "INSERT INTO candidates (run_id, problem_id, device_id, template, template_hash, params,"
        "    status, error, median_us, min_us, max_us, spread, reps, relerr, registers,"
        "    smem_bytes, local_bytes, compile_ms, created_at)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,"
        "         ?18, ?19)",
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

/* Import one row within the open transaction; *added says whether it was
 * new. */
static ct_status import_row(ct_db *db, sqlite3_stmt **q, const ct_db_row *r, int *added, ct_err *e)
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
    SQL(db->h, sqlite3_bind_text(s, 1, r->dev_name, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 2, r->dev_uuid, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int(s, 3, r->cc_major), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int(s, 4, r->cc_minor), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int(s, 5, r->driver_version), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 6, r->nvrtc_version, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, step_id(s, &dev), SQLITE_OK);
    if (!dev) {
        s = q[IMP_ADD_DEV];
        SQL(db->h, sqlite3_bind_text(s, 1, r->dev_name, -1, SQLITE_TRANSIENT), SQLITE_OK);
        SQL(db->h, sqlite3_bind_text(s, 2, r->dev_uuid, -1, SQLITE_TRANSIENT), SQLITE_OK);
        SQL(db->h, sqlite3_bind_int(s, 3, r->cc_major), SQLITE_OK);
        SQL(db->h, sqlite3_bind_int(s, 4, r->cc_minor), SQLITE_OK);
        SQL(db->h, sqlite3_bind_int(s, 5, r->driver_version), SQLITE_OK);
        SQL(db->h, sqlite3_bind_text(s, 6, r->nvrtc_version, -1, SQLITE_TRANSIENT), SQLITE_OK);
        SQL(db->h, sqlite3_bind_int(s, 7, r->sm_count > 0 ? r->sm_count : 0), SQLITE_OK);
        SQL(db->h, bind_real_or_null(s, 8, r->fma_tflops), SQLITE_OK);
        SQL(db->h, bind_real_or_null(s, 9, r->bandwidth_gbs), SQLITE_OK);
        SQL(db->h, bind_real_or_null(s, 10, r->launch_us), SQLITE_OK);
        SQL(db->h, bind_text_or_null(s, 11, r->measured_at), SQLITE_OK);
        SQL(db->h, step_id(s, &dev), SQLITE_OK);
    } else {
        s = q[IMP_CEILINGS];
        SQL(db->h, sqlite3_bind_int64(s, 1, dev), SQLITE_OK);
        SQL(db->h, bind_real_or_null(s, 2, r->fma_tflops), SQLITE_OK);
        SQL(db->h, bind_real_or_null(s, 3, r->bandwidth_gbs), SQLITE_OK);
        SQL(db->h, bind_real_or_null(s, 4, r->launch_us), SQLITE_OK);
        SQL(db->h, bind_text_or_null(s, 5, r->measured_at), SQLITE_OK);
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
    SQL(db->h, sqlite3_bind_text(s, 5, r->params, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 6, r->created_at, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, step_id(s, &found), SQLITE_OK);
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
    SQL(db->h, sqlite3_bind_int64(s, 1, run), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int64(s, 2, prob), SQLITE_OK);
    SQL(db->h, sqlite3_bind_int64(s, 3, dev), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 4, r->tmpl, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 5, r->template_hash, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 6, r->params, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 7, r->status, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, bind_text_or_null(s, 8, r->error), SQLITE_OK);
    SQL(db->h, bind_real_or_null(s, 9, r->median_us), SQLITE_OK);
    SQL(db->h, bind_real_or_null(s, 10, r->min_us), SQLITE_OK);
    SQL(db->h, bind_real_or_null(s, 11, r->max_us), SQLITE_OK);
    SQL(db->h, bind_real_or_null(s, 12, r->spread), SQLITE_OK);
    SQL(db->h, bind_int_or_null(s, 13, r->reps), SQLITE_OK);
    SQL(db->h, bind_real_or_null(s, 14, r->relerr), SQLITE_OK);
    SQL(db->h, bind_int_or_null(s, 15, r->registers), SQLITE_OK);
    SQL(db->h, bind_int_or_null(s, 16, r->smem_bytes), SQLITE_OK);
    SQL(db->h, bind_int_or_null(s, 17, r->local_bytes), SQLITE_OK);
    SQL(db->h, bind_real_or_null(s, 18, r->compile_ms), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 19, r->created_at, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_step(s), SQLITE_DONE);
    *added = 1;
done:
    return st;
}

ct_status ct_db_import(ct_db *db, ct_db_row_next next, void *user, long *imported, long *skipped, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *q[IMP_COUNT] = {0};
    ct_db_row *r = NULL;
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
        SQL(db->h, sqlite3_prepare_v2(db->h, sql_import[i], -1, &q[i], NULL), SQLITE_OK);
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
            st = ct_fail(e, st, "record %ld (%s on %s): %s", n, r->problem, r->dev_name, why);
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
