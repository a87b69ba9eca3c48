/* db_merge.h - the records of other convtune databases (the shards of a
 * cluster run, each written by its own job) into one: `convtune db import
 * SHARD.db ...`. Each source is read whole, read-only, before anything is
 * written; the records then go through ct_db_import, so duplicates (the same
 * record imported twice, a shard merged again) are skipped as for an
 * export file. */
#ifndef CT_DB_MERGE_H
#define CT_DB_MERGE_H

#include "db.h"

/* 1 when the file at path starts like an SQLite database, 0 otherwise
 * (an export file, or unreadable: the caller's reading says why). */
int ct_db_file_is_sqlite(const char *path);

typedef struct ct_db_rows {
    ct_result *v;
    long n, cap;
} ct_db_rows;

/* Every record of the convtune database at path, opened read-only. */
ct_status ct_db_rows_load(const char *path, ct_db_rows *rows, ct_err *e);

/* Add them to db in one transaction (ct_db_import). */
ct_status ct_db_rows_import(ct_db *db, const ct_db_rows *rows, long *imported, long *skipped, ct_err *e);

void ct_db_rows_free(ct_db_rows *rows);

#endif
