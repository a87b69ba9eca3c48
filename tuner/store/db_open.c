/* db_open.c - opening, creating and migrating the database (db.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "db.h"
#include "resources.h"
#include "text.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <ctype.h>
#include <time.h>
#include <unistd.h>
#include "db_internal.h"

/* Migration step k takes a database from user_version k to k + 1. Step 0
 * creates the schema in an empty file. A later schema change appends a step
 * (e.g. "db/migrate_2.sql") and bumps CT_DB_SCHEMA_VERSION. */
typedef struct ct_migration {
    const char *name;      /* the embedded SQL script run with sqlite3_exec ... */
    const char *sql;       /* ... unless this gives the text (ct_db_migrate_steps) */
} ct_migration;

static const ct_migration ct_migrations[] = {
    { "db/schema.sql", NULL },   /* 0 -> 1 */
    { "db/migrate_1.sql", NULL },   /* 1 -> 2 */
    { "db/migrate_2.sql", NULL },   /* 2 -> 3 */
    { "db/migrate_3.sql", NULL },   /* 3 -> 4 */
};

/* What a reader (create == 0) of a file at version k < CT_DB_SCHEMA_VERSION
 * runs instead of the steps from k, which it must not write: temporary views
 * (they live in the connection, never in the file, and shadow the tables of
 * the same name) that show the tables as the current schema has them, the
 * columns added later as NULL. Entry k - 1 is for version k. */
#define CT_TIMING_NULLS "NULL AS ci_lo_us, NULL AS ci_hi_us, NULL AS timing, NULL AS batch"
static const char *const ct_reader_views[] = {
    "CREATE TEMP VIEW devices AS SELECT *, NULL AS tc_half_tflops FROM main.devices;"
    "CREATE TEMP VIEW candidates AS SELECT *, NULL AS code_hash, " CT_TIMING_NULLS " FROM main.candidates",
    "CREATE TEMP VIEW candidates AS SELECT *, NULL AS code_hash, " CT_TIMING_NULLS " FROM main.candidates",
    "CREATE TEMP VIEW candidates AS SELECT *, " CT_TIMING_NULLS " FROM main.candidates",
};

_Static_assert(sizeof ct_reader_views / sizeof ct_reader_views[0] == CT_DB_SCHEMA_VERSION - 1,
               "one reader view script per older schema version");

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

/* The folders make_parents created, deepest last, so that an open that
 * fails afterwards can remove them again: a refused database leaves
 * nothing behind, not even its folders. */
typedef struct made_dirs {
    char *path;            /* a copy of the database path, cut at each end */
    size_t ends[256];      /* length of each created folder's name in path */
    int n;
} made_dirs;

/* Remove the folders in m, deepest first (each is empty unless another
 * process put something there meanwhile, which rmdir then leaves). */
static void remove_made_dirs(made_dirs *m)
{
    for (int i = m->n - 1; i >= 0; i--) {
        m->path[m->ends[i]] = '\0';
        (void)rmdir(m->path);
    }
    m->n = 0;
}

/* Create the directories leading to path (mkdir -p of its dirname, 0755), so
 * that the default path under ~/.local/share works on a fresh account. Those
 * it creates are recorded in m (which gets its own copy of path). */
static ct_status make_parents(const char *path, made_dirs *m, ct_err *e)
{
    ct_status st = CT_OK;
    char *dir = strdup(path);
    m->n = 0;
    if (!dir || !(m->path = strdup(path))) {
        free(dir);
        return ct_fail(e, CT_ERR_INTERNAL, "DB: out of memory");
    }
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        for (char *p = dir + 1; ; p++) {
            if (*p != '/' && *p != '\0')
                continue;
            char c = *p;
            *p = '\0';
            struct stat sb;
            int made = mkdir(dir, 0755) == 0;
            if (!made && errno != EEXIST) {
                st = ct_fail(e, CT_ERR_IO, "DB: cannot create directory %s: %s",
                             dir, strerror(errno));
                goto done;
            }
            if (made && m->n < (int)(sizeof m->ends / sizeof m->ends[0]))
                m->ends[m->n++] = (size_t)(p - dir);
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
    if (st != CT_OK)
        remove_made_dirs(m);
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

/* ------------------------------------------------------------------------ */
/* Waiting for another writer                                               */

static ct_db_wait_fn wait_hook;

void ct_db_on_wait(ct_db_wait_fn fn)
{
    wait_hook = fn;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* SQLite's busy handler: wait up to db->busy_ms for the other writer in
 * short naps, telling the hook once after CT_DB_WAIT_NOTICE_MS, so a user
 * sees why nothing happens; 0 gives up (the call fails with SQLITE_BUSY,
 * which sql_fail words for the user). */
static int on_busy(void *arg, int count)
{
    ct_db *db = arg;
    double t = now_s();
    if (count == 0)
        db->busy_since = t;
    double waited_ms = (t - db->busy_since) * 1000.0;
    if (waited_ms >= db->busy_ms)
        return 0;
    if (!db->busy_told && waited_ms >= CT_DB_WAIT_NOTICE_MS && wait_hook) {
        db->busy_told = 1;
        wait_hook(db->path);
    }
    sqlite3_sleep(count < 20 ? 5 : 50);
    return 1;
}

/* $CONVTUNE_DB_TIMEOUT (seconds, 0 to 3600) or the default wait. */
static int busy_ms_setting(void)
{
    const char *v = getenv("CONVTUNE_DB_TIMEOUT");
    char *end;
    if (v && *v) {
        double s = strtod(v, &end);
        if (!*end && s >= 0 && s <= 3600)
            return (int)(s * 1000.0);
    }
    return CT_DB_BUSY_MS;
}

/* ------------------------------------------------------------------------ */

/* The folder of path, for permission checks. */
static void dir_of(const char *path, char *buf, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(buf, len, ".");
    else if (slash == path)
        snprintf(buf, len, "/");
    else
        snprintf(buf, len, "%.*s", (int)(slash - path), path);
}

/* Whether path starts with the 16 bytes of an SQLite database header. */
static int sqlite_header(const char *path)
{
    static const char magic[16] = "SQLite format 3";   /* and its NUL */
    char buf[16];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 1;   /* unreadable: let SQLite say why */
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return n == sizeof buf && !memcmp(buf, magic, sizeof buf);
}

/* Whether the file path + suffix ("-wal", "-journal") exists and is longer
 * than empty bytes (a -wal's 32-byte header holds no transaction). A stat
 * that fails for another reason than absence counts as content: the caller
 * then takes the path that lets SQLite look at the file itself. */
static int side_file_has_content(const char *path, const char *suffix, off_t empty)
{
    char side[4096 + 16];
    struct stat sb;
    if ((size_t)snprintf(side, sizeof side, "%s%s", path, suffix) >= sizeof side)
        return 1;
    if (stat(side, &sb) != 0)
        return errno != ENOENT;
    return sb.st_size > empty;
}

/* "file:PATH?mode=ro" with PATH percent-encoded, plus "&immutable=1" when
 * immutable: a read that needs no write access anywhere (no -wal or -shm
 * file, no lock). */
static char *readonly_uri(const char *path, int immutable)
{
    size_t n = strlen(path);
    char *u = malloc(3 * n + 40), *o = u;
    if (!u)
        return NULL;
    o += sprintf(o, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (isalnum(*p) || strchr("/._-~", *p))
            *o++ = (char)*p;
        else
            o += sprintf(o, "%%%02X", *p);
    }
    sprintf(o, immutable ? "?mode=ro&immutable=1" : "?mode=ro");
    return u;
}

/* SQLite's unix VFS takes absolute paths of at most 512 bytes, and must
 * add "-journal" to the database's: a longer path fails only when SQLite
 * opens it, after the folders leading to it were made. */
#define CT_DB_SQLITE_PATH_MAX (512 - (int)sizeof "-journal" + 1)

/* The length of path as SQLite makes it absolute: the working directory
 * before a relative path, "." and empty components dropped and ".." taking
 * the previous one off (as SQLite 3.39 and later do; symbolic links along
 * the way are not followed, which only a link could make differ). */
static size_t sqlite_path_len(const char *path)
{
    char cwd[4096] = "";
    size_t comp[2048], n = 0, total = 0;
    if (path[0] != '/' && !getcwd(cwd, sizeof cwd))
        cwd[0] = '\0';
    for (int pass = 0; pass < 2; pass++) {
        const char *p = pass == 0 ? cwd : path;
        while (*p) {
            size_t len = strcspn(p, "/");
            if (len == 2 && p[0] == '.' && p[1] == '.') {
                if (n > 0)
                    total -= comp[--n] + 1;
            } else if (len > 0 && !(len == 1 && p[0] == '.') && n < sizeof comp / sizeof comp[0]) {
                comp[n++] = len;
                total += len + 1;
            }
            p += len + (p[len] == '/');
        }
    }
    return total ? total : 1;
}

/* The length of the longest name (component) of path. */
static size_t longest_name(const char *path)
{
    size_t most = 0;
    for (const char *p = path; *p;) {
        size_t len = strcspn(p, "/");
        if (len > most)
            most = len;
        p += len + (p[len] == '/');
    }
    return most;
}

/* Open the database and check what it is before writing anything to it:
 * the first reads (user_version, sqlite_master) are what reveal junk or a
 * corrupt file, and only a recognised file gets WAL mode and a schema (and
 * only from a writer: a reader leaves even the journal mode as it is). */
ct_status ct_db_open(const char *path, int create, ct_db **out, ct_err *e)
{
    ct_status st = CT_OK;
    ct_db *db = NULL;
    struct stat sb;
    int version = 0, objects = 0, tables = 0, rc;
    int memory, flags, readonly = 0, immutable = 0;
    char why[256] = "", dir[4096];
    char *uri = NULL;
    made_dirs made = {0};

    if (!out)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: ct_db_open without a result pointer");
    *out = NULL;
    if (!path || !*path)
        return ct_fail(e, CT_ERR_USAGE, "DB: no database path given");
    if (strlen(path) >= sizeof dir)
        return ct_fail(e, CT_ERR_USAGE, "DB: database path too long (%zu characters)", strlen(path));
    memory = strcmp(path, ":memory:") == 0;
    if (!memory && sqlite_path_len(path) > CT_DB_SQLITE_PATH_MAX)
        return ct_fail(e, CT_ERR_USAGE, "DB: database path too long: %zu bytes as an absolute path, SQLite takes "
                       "at most %d; nothing was created", sqlite_path_len(path), CT_DB_SQLITE_PATH_MAX);
    /* A name no file system takes would fail only after the folders before
     * it were made. */
    if (!memory && longest_name(path) > NAME_MAX)
        return ct_fail(e, CT_ERR_USAGE, "DB: database path has a name of %zu bytes, longer than a file name may be "
                       "(%d); nothing was created", longest_name(path), NAME_MAX);
    if (!memory) {
        dir_of(path, dir, sizeof dir);
        if (stat(path, &sb) != 0) {
            if (errno != ENOENT && errno != ENOTDIR)
                return ct_fail(e, CT_ERR_DB, "DB: cannot access %s: %s", path, strerror(errno));
            if (!create)
                return ct_fail(e, CT_ERR_NOT_FOUND, "DB: database %s does not exist", path);
            st = make_parents(path, &made, e);
            if (st != CT_OK)
                goto done;
            if (access(dir, W_OK) != 0) {
                st = ct_fail(e, CT_ERR_DB, "DB: cannot create %s: no write permission on %s", path, dir);
                goto done;
            }
        } else if (S_ISDIR(sb.st_mode)) {
            return ct_fail(e, CT_ERR_DB, "DB: %s is a directory, not a database file", path);
        } else {
            /* Writing needs the file and its folder (WAL keeps -wal and -shm
             * files beside it); without both, a reader opens it read-only
             * and a writer is refused before anything is created. SQLite
             * follows a symbolic link and keeps those files beside the
             * target: its folder is the one that must be writable. */
            char *real = realpath(path, NULL);
            dir_of(real ? real : path, dir, sizeof dir);
            readonly = access(path, W_OK) != 0 || access(dir, W_OK) != 0;
            /* Read-only, immutable=1 is the one open that needs no write
             * access anywhere (no lock, no -shm), but it reads the main file
             * alone: right when that holds every committed transaction,
             * wrong when some still wait in a -wal file (or a crashed
             * writer's -journal must be rolled back), which it would miss.
             * Then mode=ro, with which SQLite reads the -wal through the
             * -shm index, or through a private copy of it when the -shm
             * cannot be written (SQLite 3.22 and later). */
            immutable = readonly && !side_file_has_content(real ? real : path, "-wal", 32) &&
                        !side_file_has_content(real ? real : path, "-journal", 0);
            free(real);
            if (readonly && create)
                return ct_fail(e, CT_ERR_DB, "DB: %s is read-only (no write permission on %s); nothing was written",
                               path, access(path, W_OK) != 0 ? "the file" : dir);
            /* A reader of an empty file may be racing the writer that
             * creates the database: nothing is there to read yet, which is
             * what it is told, as when the file does not exist. */
            if (!create && sb.st_size == 0)
                return ct_fail(e, CT_ERR_NOT_FOUND, "DB: database %s holds nothing yet (an empty file; another "
                               "convtune may be creating it)", path);
            /* SQLite takes a file shorter than its header for an empty
             * database and would write a schema over it: anything but an
             * empty file must start with the SQLite header. */
            if (sb.st_size > 0 && !sqlite_header(path))
                return ct_fail(e, CT_ERR_DB, "DB: %s is not a convtune database (not an SQLite file)", path);
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

    if (readonly) {
        if (!(uri = readonly_uri(path, immutable))) {
            st = ct_fail(e, CT_ERR_INTERNAL, "DB: out of memory");
            goto done;
        }
        flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX;
    } else {
        flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_FULLMUTEX;
    }
    rc = sqlite3_open_v2(uri ? uri : path, &db->h, flags, NULL);
    if (rc != SQLITE_OK) {
        st = ct_fail(e, CT_ERR_DB, "DB: cannot open %s: %s", path,
                     db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc));
        goto done;
    }
    db->busy_ms = busy_ms_setting();
    sqlite3_busy_handler(db->h, on_busy, db);

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
    if (rc != SQLITE_OK && readonly && !immutable && (rc & 0xff) == SQLITE_CANTOPEN) {
        /* mode=ro without a -shm file, which it cannot create. */
        st = ct_fail(e, CT_ERR_DB, "DB: cannot read %s: committed changes wait in its -wal file, and reading "
                     "them needs its -shm file or write access to its folder", path);
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
    /* A reader writes nothing, not even the schema into an empty file; it
     * may be racing the writer that creates it (which gives the file WAL
     * mode before the schema, in a transaction of its own). */
    if (version == 0 && !create && !memory) {
        st = ct_fail(e, CT_ERR_NOT_FOUND, "DB: database %s holds nothing yet (an empty SQLite database; another "
                     "convtune may be creating it)", path);
        goto done;
    }
    if (version < CT_DB_SCHEMA_VERSION && create && sqlite3_db_readonly(db->h, "main") == 1) {
        st = ct_fail(e, CT_ERR_DB, "DB: %s is read-only and needs its schema upgraded", path);
        goto done;
    }

    /* Recognised: now configure the connection. foreign_keys and synchronous
     * are per connection; WAL is stored in the file and lets `query` read
     * while a tuner writes. Only a writer sets it: switching the mode
     * rewrites the file, and a reader (`query`, `export`, `db check`) of a
     * copy in rollback mode (what `.backup` and VACUUM INTO make) must leave
     * it byte for byte as it was. */
    SQL(db->h, sqlite3_exec(db->h, "PRAGMA foreign_keys = ON", NULL, NULL, NULL), SQLITE_OK);
    if (create && sqlite3_db_readonly(db->h, "main") != 1)
        SQL(db->h, set_wal(db->h), SQLITE_OK);
    SQL(db->h, sqlite3_exec(db->h, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL), SQLITE_OK);

    /* Version 0 here means a new file being created (create != 0). A
     * reader leaves an older file as it is: `query` or `export` of an old
     * database writes nothing to it. */
    if (version > 0 && version < CT_DB_SCHEMA_VERSION && !create) {
        rc = sqlite3_exec(db->h, ct_reader_views[version - 1], NULL, NULL, NULL);
        if (rc != SQLITE_OK)
            st = ct_fail(e, CT_ERR_DB, "DB: cannot read %s (schema version %d): %s", path, version,
                         sqlite3_errmsg(db->h));
    } else if (version < CT_DB_SCHEMA_VERSION) {
        st = migrate(db, ct_migrations, CT_DB_SCHEMA_VERSION, e);
    }
done:
    free(uri);
    if (st == CT_OK) {
        *out = db;
    } else {
        ct_db_close(db);
        remove_made_dirs(&made);
    }
    free(made.path);
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

ct_status ct_db_check_writable(const char *path, ct_err *e)
{
    struct stat sb;
    char dir[4096];
    if (!path || !*path)
        return ct_fail(e, CT_ERR_USAGE, "DB: no database path given");
    if (strlen(path) >= sizeof dir)
        return ct_fail(e, CT_ERR_USAGE, "DB: database path too long (%zu characters)", strlen(path));
    if (strcmp(path, ":memory:") == 0)
        return CT_OK;
    if (sqlite_path_len(path) > CT_DB_SQLITE_PATH_MAX)
        return ct_fail(e, CT_ERR_USAGE, "DB: database path too long: %zu bytes as an absolute path, SQLite takes "
                       "at most %d; nothing was created", sqlite_path_len(path), CT_DB_SQLITE_PATH_MAX);
    if (longest_name(path) > NAME_MAX)
        return ct_fail(e, CT_ERR_USAGE, "DB: database path has a name of %zu bytes, longer than a file name may be "
                       "(%d); nothing was created", longest_name(path), NAME_MAX);
    if (stat(path, &sb) != 0)
        return CT_OK;   /* created by the open; it says what goes wrong there */
    if (S_ISDIR(sb.st_mode))
        return ct_fail(e, CT_ERR_DB, "DB: %s is a directory, not a database file", path);
    char *real = realpath(path, NULL);   /* the link's target's folder, as ct_db_open */
    dir_of(real ? real : path, dir, sizeof dir);
    free(real);
    if (access(path, W_OK) != 0 || access(dir, W_OK) != 0)
        return ct_fail(e, CT_ERR_DB, "DB: %s is read-only (no write permission on %s); nothing was written", path,
                       access(path, W_OK) != 0 ? "the file" : dir);
    if (sb.st_size > 0 && !sqlite_header(path))
        return ct_fail(e, CT_ERR_DB, "DB: %s is not a convtune database (not an SQLite file)", path);
    return CT_OK;
}

/* Resolve the default database location (XDG base directory rules: a
 * relative XDG_DATA_HOME is ignored). */
ct_status ct_db_default_path(char *buf, size_t len, ct_err *e)
{
    const char *v;

    if (!buf || len == 0)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: no buffer for the database path");
    buf[0] = '\0';
    /* Whole or refused, never cut (text.h): a cut path names another file. */
    if ((v = getenv("CONVTUNE_DB")) && *v)
        return ct_path_copy(buf, len, v, "CONVTUNE_DB", CT_ERR_DB, e);
    if ((v = getenv("XDG_DATA_HOME")) && v[0] == '/')
        return ct_path_join(buf, len, v, "/convtune/convtune.db", "XDG_DATA_HOME", CT_ERR_DB, e);
    if ((v = getenv("HOME")) && *v)
        return ct_path_join(buf, len, v, "/.local/share/convtune/convtune.db", "HOME", CT_ERR_DB, e);
    return ct_fail(e, CT_ERR_DB, "DB: no database path: set CONVTUNE_DB or HOME");
}

