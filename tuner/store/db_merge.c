/* db_merge.c - records of one convtune database into another (db_merge.h). */
#include "db_merge.h"
#include "dbio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ct_db_file_is_sqlite(const char *path)
{
    static const char magic[16] = "SQLite format 3";   /* with its NUL */
    char head[16];
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : NULL;
    if (!f)
        return 0;
    int is = fread(head, 1, sizeof head, f) == sizeof head && memcmp(head, magic, sizeof head) == 0;
    fclose(f);
    return is;
}

static int keep_row(const ct_result *r, void *user)
{
    ct_db_rows *rows = user;
    if (rows->n == rows->cap) {
        long nc = rows->cap ? 2 * rows->cap : 256;
        ct_result *nv = realloc(rows->v, (size_t)nc * sizeof *nv);
        if (!nv) {
            rows->cap = -1;   /* the dump stops; out of memory */
            return 1;
        }
        rows->v = nv;
        rows->cap = nc;
    }
    rows->v[rows->n++] = *r;
    return 0;
}

ct_status ct_db_rows_load(const char *path, ct_db_rows *rows, ct_err *e)
{
    memset(rows, 0, sizeof *rows);
    ct_db *db;
    ct_status rc = ct_db_open(path, 0, &db, e);
    if (rc != CT_OK)
        return rc;
    rc = ct_db_dump(db, keep_row, rows, e);
    ct_db_close(db);
    if (rc == CT_OK && rows->cap < 0)
        rc = ct_fail(e, CT_ERR_INTERNAL, "reading %s: out of memory", path);
    /* Another database's records are checked as an export file's are (and
     * their params put in canonical form): a shard is no more trusted than
     * the file it could have been exported to. */
    for (long i = 0; rc == CT_OK && i < rows->n; i++) {
        char why[400];
        if (!ct_dbio_check_record(&rows->v[i], why, sizeof why))
            rc = ct_fail(e, CT_ERR_USAGE, "%s: candidate %lld: %s", path, rows->v[i].id, why);
    }
    if (rc != CT_OK)
        ct_db_rows_free(rows);
    return rc;
}

typedef struct cursor {
    const ct_db_rows *rows;
    long next;
} cursor;

static ct_status next_row(void *user, ct_result *row, int *have, ct_err *e)
{
    (void)e;
    cursor *c = user;
    *have = c->next < c->rows->n;
    if (*have)
        *row = c->rows->v[c->next++];
    return CT_OK;
}

ct_status ct_db_rows_import(ct_db *db, const ct_db_rows *rows, long *imported, long *skipped, ct_err *e)
{
    cursor c = {.rows = rows};
    return ct_db_import(db, next_row, &c, imported, skipped, e);
}

void ct_db_rows_free(ct_db_rows *rows)
{
    free(rows->v);
    memset(rows, 0, sizeof *rows);
}
