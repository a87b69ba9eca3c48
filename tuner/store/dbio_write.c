/* dbio_write.c - writing stored records as JSON or CSV (dbio.h), driven by
 * the field table of dbio.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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


/* A CSV field, quoted when it holds a comma, quote, CR or LF. */
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

typedef struct writer {
    FILE *f;
    ct_dbio_format fmt;
    long n;
    ct_dbio_keep keep;         /* NULL: every row */
    void *user;
} writer;

/* The text of a non-text field, "" when absent. */
static void value_text(const ct_db_row *r, const field *fd, char *buf, size_t len)
{
    ct_db_row *w = (ct_db_row *)r;
    buf[0] = '\0';
    switch (fd->type) {
    case F_INT:
        snprintf(buf, len, "%d", *int_at(w, fd));
        break;
    case F_INT_NULL:
        if (*int_at(w, fd) >= 0)
            snprintf(buf, len, "%d", *int_at(w, fd));
        break;
    case F_REAL:
    case F_REAL_NULL:
        if (!isnan(*real_at(w, fd)))
            real_text(*real_at(w, fd), buf, len);
        break;
    default:
        break;
    }
}

static int write_row(const ct_db_row *r, void *user)
{
    writer *w = user;
    char num[64];
    if (w->keep && !w->keep(r, w->user))
        return 0;
    if (w->fmt == CT_DBIO_JSON) {
        fputs(w->n ? ",\n{" : "{", w->f);
        for (int i = 0; i < NFIELDS; i++) {
            const field *fd = &dbio_fields[i];
            fprintf(w->f, "%s\"%s\":", i ? "," : "", fd->name);
            if (is_text(fd->type)) {
                const char *s = ctext_at(r, fd);
                int nullable = fd->type == F_STR_NULL || fd->type == F_TIME_NULL || fd->type == F_OBJ_NULL;
                if (nullable && !*s)
                    fputs("null", w->f);
                else if (fd->type == F_OBJ || fd->type == F_OBJ_NULL)
                    fputs(*s ? s : "{}", w->f);     /* stored JSON, byte for byte */
                else
                    ct_json_write_string(w->f, s);
            } else {
                value_text(r, fd, num, sizeof num);
                fputs(*num ? num : "null", w->f);
            }
        }
        fputc('}', w->f);
    } else {
        for (int i = 0; i < NFIELDS; i++) {
            const field *fd = &dbio_fields[i];
            if (i)
                fputc(',', w->f);
            if (is_text(fd->type)) {
                csv_field(w->f, ctext_at(r, fd));
            } else {
                value_text(r, fd, num, sizeof num);
                fputs(num, w->f);
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
    if (fmt == CT_DBIO_JSON) {
        fprintf(f, "{\"format\":\"%s\",\"version\":%d,\"convtune\":", FORMAT_NAME, FORMAT_VERSION);
        ct_json_write_string(f, CONVTUNE_VERSION);
        fputs(",\"records\":[\n", f);
    } else {
        for (int i = 0; i < NFIELDS; i++)
            fprintf(f, "%s%s", i ? "," : "", dbio_fields[i].name);
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

