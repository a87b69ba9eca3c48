/* export.h - a stored winner as a standalone .cu file: the template with
 * its parameters and problem sizes as #defines, a host launcher with a C
 * signature, provenance in the header comment, and a self-test main() behind
 * CONVTUNE_SELFTEST. */
#ifndef CT_EXPORT_H
#define CT_EXPORT_H

#include "db.h"
#include "status.h"

/* The launcher's name for a canonical problem: "convtune_conv1d_1000000_2047_valid". */
void ct_export_symbol(const char *canonical, char *buf, size_t len);

/* Default output path: generated/<symbol without the prefix>.cu */
void ct_export_default_path(const char *canonical, char *buf, size_t len);

/* Write rec's kernel to path atomically (temporary file, then rename).
 * Refuses to replace an existing file unless force, to write through a
 * symbolic link, or into a missing directory. tolerance is the self-test's
 * pass threshold. */
ct_status ct_export_cu(const ct_record *rec, const char *templates_dir, const char *path,
                       int force, double tolerance, ct_err *e);

#endif
