/* dbio_write.c - writing stored records as JSON or CSV (dbio.h), driven by
 * the field table of dbio.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "dbio_internal.h"
#include "json.h"

/* ------------------------------------------------------------------------ */
/* Writing                                                                  */

/* The shortest %g form that reads back to v. */
static void real_text(double v, char *buf, size_t len)
{
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

typedef struct writer {
    FILE *f;
    ct_dbio_format fmt;
    long n;
    ct_dbio_keep keep;         /* NULL: every row */
    void *user;
    int skip[DBIO_MAX_FIELDS]; /* optional fields no record has a value for */
} writer;

/* The text of a number or status field, "" when absent. */
static void value_text(const ct_result *r, const ct_result_field *fd, char *buf, size_t len)
{
    ct_result *w = (ct_result *)r;
    buf[0] = '\0';
    switch (fd->type) {
    case CT_F_INT:
        snprintf(buf, len, "%d", *ct_field_int(w, fd));
        break;
    case CT_F_INT_NULL:
    case CT_F_COUNT_NULL:
        if (*ct_field_int(w, fd) >= 0)
            snprintf(buf, len, "%d", *ct_field_int(w, fd));
        break;
    case CT_F_REAL:
    case CT_F_REAL_NULL:
    case CT_F_POS_NULL:
        if (!isnan(*ct_field_real(w, fd)))
            real_text(*ct_field_real(w, fd), buf, len);
        break;
    case CT_F_STATUS:
        snprintf(buf, len, "%s", ct_result_status_name(*ct_field_status(w, fd)));
        break;
    default:
        break;
    }
}

static int write_row(const ct_result *r, void *user)
{
    writer *w = user;
    char num[64];
    if (w->keep && !w->keep(r, w->user))
        return 0;
    if (w->fmt == CT_DBIO_JSON) {
        ct_jw j;
        ct_jw_file(&j, w->f, 0);
        if (w->n)
            fputs(",\n", w->f);
        ct_jw_object(&j, NULL);
        for (int i = 0; i < NFIELDS; i++) {
            const ct_result_field *fd = &ct_result_fields[i];
            if (w->skip[i])
                continue;
            if (ct_field_is_text(fd->type)) {
                const char *s = ct_field_text((ct_result *)r, fd);
                if (ct_field_nullable(fd->type) && !*s)
                    ct_jw_null(&j, fd->name);
                else if (fd->type == CT_F_OBJ || fd->type == CT_F_OBJ_NULL)
                    ct_jw_raw(&j, fd->name, *s ? s : "{}");     /* stored JSON, byte for byte */
                else
                    ct_jw_string(&j, fd->name, s);
            } else if (fd->type == CT_F_STATUS) {
                value_text(r, fd, num, sizeof num);
                ct_jw_string(&j, fd->name, num);
            } else {
                value_text(r, fd, num, sizeof num);
                if (*num)
                    ct_jw_raw(&j, fd->name, num);
                else
                    ct_jw_null(&j, fd->name);
            }
        }
        ct_jw_end(&j);
    } else {
        for (int i = 0, first = 1; i < NFIELDS; i++) {
            const ct_result_field *fd = &ct_result_fields[i];
            if (w->skip[i])
                continue;
            if (!first)
                fputc(',', w->f);
            first = 0;
            if (ct_field_is_text(fd->type)) {
                ct_csv_field(w->f, ct_field_text((ct_result *)r, fd));
            } else {
                value_text(r, fd, num, sizeof num);
                ct_csv_field(w->f, num);
            }
        }
        fputc('\n', w->f);
    }
    w->n++;
    return ferror(w->f) ? 1 : 0;
}

ct_status ct_dbio_export(ct_db *db, ct_dbio_format fmt, FILE *f, long *count, ct_err *e)
{
    return ct_dbio_export_filtered(db, fmt, f, NULL, NULL, count, e);
}

ct_status ct_dbio_export_filtered(ct_db *db, ct_dbio_format fmt, FILE *f, ct_dbio_keep keep, void *user,
                                  long *count, ct_err *e)
{
    writer w = {.f = f, .fmt = fmt, .keep = keep, .user = user};
    for (int i = 0; i < NFIELDS; i++) {
        int used = 1;
        ct_status st = ct_field_optional(&ct_result_fields[i]) ? ct_db_field_used(db, &ct_result_fields[i], &used, e)
                                                               : CT_OK;
        if (st != CT_OK)
            return st;
        w.skip[i] = !used;
    }
    if (fmt == CT_DBIO_JSON) {
        /* The records follow one per line, then "]}" closes what this opens. */
        ct_jw j;
        ct_jw_file(&j, f, 0);
        ct_jw_object(&j, NULL);
        ct_jw_string(&j, "format", FORMAT_NAME);
        ct_jw_int(&j, "version", FORMAT_VERSION);
        ct_jw_string(&j, "convtune", CONVTUNE_VERSION);
        ct_jw_array(&j, "records");
        fputc('\n', f);
    } else {
        for (int i = 0, first = 1; i < NFIELDS; i++) {
            if (w.skip[i])
                continue;
            fprintf(f, "%s%s", first ? "" : ",", ct_result_fields[i].name);
            first = 0;
        }
        fputc('\n', f);
    }
    ct_status st = ct_db_dump(db, write_row, &w, e);
    if (st != CT_OK)
        return st;
    if (fmt == CT_DBIO_JSON)
        fputs(w.n ? "\n]}\n" : "]}\n", f);
    if (fflush(f) != 0 || ferror(f))
        return ct_fail(e, CT_ERR_IO, "db export: writing the records failed");
    if (count)
        *count = w.n;
    return CT_OK;
}

