/* dbio_internal.h - what writing (dbio_write.c) and reading (dbio.c) the
 * record files of dbio.h share. Not for other modules. A file's fields are
 * the record's (CT_RESULT_FIELDS in result.h), in that order. */
#ifndef CT_DBIO_INTERNAL_H
#define CT_DBIO_INTERNAL_H

#include <stddef.h>

#include "dbio.h"
#include "result.h"

#define FORMAT_NAME "convtune-db"
#define FORMAT_VERSION 1

#define NFIELDS ct_result_nfields
#define DBIO_MAX_FIELDS 64     /* an upper bound of NFIELDS, for arrays */

#endif
