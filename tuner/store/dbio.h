/* dbio.h - moving stored records between databases: `convtune db export`
 * writes every candidate of a database with its whole provenance, `convtune
 * db import` adds such a file to another database (ct_db_dump and
 * ct_db_import in db.h do the database side).
 *
 * A record is flat: one key (JSON) or column (CSV) per field, named as in
 * FIELDS below; absent values are JSON null or an empty CSV field. params
 * and run_settings are JSON objects (embedded as objects in JSON, as their
 * text in CSV); run_settings is kept byte for byte, params is read by value
 * and stored in the one form convtune writes. Reals are written with the
 * fewest digits that read back to the same double, so export -> import ->
 * export gives the same file.
 *
 *   JSON  {"format":"convtune-db","version":1,"convtune":"0.1.0","records":[
 *         {"device":"NVIDIA H200",...,"created_at":"2025-01-31T12:00:00Z"},
 *         ...
 *         ]}
 *   CSV   RFC 4180: a header line with the field names, one line per record
 *         (quoted fields may hold newlines), LF line ends.
 *
 * FIELDS: those of the record, CT_RESULT_FIELDS in result.h: device,
 *   device_uuid, cc_major, cc_minor, sm_count, driver_version,
 *   nvrtc_version, fma_tflops, bandwidth_gbs, launch_us, ceilings_measured_at,
 *   tc_half_tflops (the device: its identity and measured ceilings); family, problem,
 *   flops, bytes, problem_created_at; run_started_at, run_finished_at,
 *   run_status, run_settings (the tuning run); template, template_hash,
 *   params, status, error, median_us, min_us, max_us, spread, reps, relerr,
 *   registers, smem_bytes, local_bytes, compile_ms, created_at (the
 *   candidate).
 *
 * Fields added after the first version (tc_half_tflops, ct_field_optional)
 * are written only when some record of the database has a value for them,
 * and read as absent from a file that lacks them: a database without them
 * exports the file an older convtune wrote, and that file still imports.
 *
 * Reading is strict: every other field present, none unknown, each of its type
 * (timestamps as YYYY-MM-DDTHH:MM:SSZ), statuses among those the database
 * knows, measurements in their ranges, a known family's problem in its
 * canonical form, the template's parameters each an integer (a string only
 * for a symbol's name) in its declared range. A UTF-8 byte order mark
 * before the text is skipped. The first fault is one message naming the
 * file, the record and its line. */
#ifndef CT_DBIO_H
#define CT_DBIO_H

#include <stdio.h>

#include "db.h"
#include "status.h"

typedef enum ct_dbio_format { CT_DBIO_JSON, CT_DBIO_CSV } ct_dbio_format;

/* "json" or "csv"; anything else is CT_ERR_USAGE. */
ct_status ct_dbio_format_parse(const char *text, ct_dbio_format *out, ct_err *e);

/* Write every record of db to f; *count (when not NULL) gets how many.
 * CT_ERR_IO when writing fails. */
ct_status ct_dbio_export(ct_db *db, ct_dbio_format fmt, FILE *f, long *count, ct_err *e);

/* The same, only the records keep(row, user) returns non-zero for (the
 * candidates of a `report --format csv`). */
typedef int (*ct_dbio_keep)(const ct_result *row, void *user);
ct_status ct_dbio_export_filtered(ct_db *db, ct_dbio_format fmt, FILE *f, ct_dbio_keep keep, void *user,
                                  long *count, ct_err *e);

/* A parsed and checked import file. */
typedef struct ct_dbio_input ct_dbio_input;

/* Parse text[0, len) (a copy is kept) as an export; name is the file name
 * for messages. The format is format when not NULL, otherwise JSON when the
 * first byte that is not white space is '{' or '[', else CSV. Every record
 * is checked now, so a bad file is refused before any database is opened:
 * CT_ERR_USAGE with one line "NAME: record 3 (line 5): ...". */
ct_status ct_dbio_parse(const char *text, size_t len, const char *name, const ct_dbio_format *format,
                        ct_dbio_input **out, ct_err *e);

/* The checks of a parsed record beyond its fields' types (ranges, a known
 * family, canonical problem, template, its parameters in their declared
 * ranges), with its params rewritten to the canonical
 * form convtune writes: 1 when it passes, else 0 with why filled. Records
 * from another database (db_merge.h) go through it too. */
int ct_dbio_check_record(ct_result *r, char *why, size_t wlen);

/* Records in the file. */
long ct_dbio_count(const ct_dbio_input *in);

/* Add the records to db in one transaction (ct_db_import): records already
 * present are skipped; on any error nothing is changed. */
ct_status ct_dbio_import(ct_db *db, const ct_dbio_input *in, long *imported, long *skipped, ct_err *e);

void ct_dbio_free(ct_dbio_input *in);

#endif
