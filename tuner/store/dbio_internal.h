/* dbio_internal.h - the table of fields that drives writing (dbio_write.c)
 * and reading (dbio.c) the record files of dbio.h. Not for other modules. */
#ifndef CT_DBIO_INTERNAL_H
#define CT_DBIO_INTERNAL_H

#include <stddef.h>

#include "dbio.h"

#define FORMAT_NAME "convtune-db"
#define FORMAT_VERSION 1
typedef enum ftype {
    F_STR,          /* text, may be empty                       */
    F_NAME,         /* text, not empty                          */
    F_STR_NULL,     /* text or absent ("")                      */
    F_TIME,         /* YYYY-MM-DDTHH:MM:SSZ                     */
    F_TIME_NULL,    /*   or absent                              */
    F_INT,          /* integer (int)                            */
    F_INT_NULL,     /* integer >= 0 or absent (-1)              */
    F_REAL,         /* number                                   */
    F_REAL_NULL,    /* number or absent (NaN)                   */
    F_OBJ,          /* JSON object, kept as its text            */
    F_OBJ_NULL      /*   or absent ("")                         */
} ftype;

typedef struct field {
    const char *name;
    ftype type;
    size_t off, cap;
} field;

/* The fields of a record, in file order. */
extern const field dbio_fields[];
extern const int dbio_nfields;
#define NFIELDS dbio_nfields
#define DBIO_MAX_FIELDS 64     /* an upper bound of NFIELDS, for arrays */

static inline const char *ctext_at(const ct_db_row *r, const field *f)
{
    return (const char *)r + f->off;
}

static inline int *int_at(ct_db_row *r, const field *f)
{
    return (int *)(void *)((char *)r + f->off);
}

static inline double *real_at(ct_db_row *r, const field *f)
{
    return (double *)(void *)((char *)r + f->off);
}

static inline int is_text(ftype t)
{
    return t == F_STR || t == F_NAME || t == F_STR_NULL || t == F_TIME || t == F_TIME_NULL || t == F_OBJ ||
           t == F_OBJ_NULL;
}

#endif
