/* outfile.h - writing output files atomically, for `export` and
 * `db export -o`: refuse unsafe targets up front, write a temporary file in
 * the target's directory, fsync it, then rename it into place. Several files
 * can be written as a group: all temporaries are completed before the first
 * rename, so a failure while writing leaves nothing behind.
 *
 *     ct_outfile o;
 *     if (ct_outfile_check(path, force, "export", e) != CT_OK) ...
 *     if (ct_outfile_open(&o, path, ".convtune-export-", "export", e) != CT_OK) ...
 *     fprintf(o.f, ...);
 *     if (ct_outfile_close(&o, e) != CT_OK) ...      (temporary removed on failure)
 *     if (ct_outfile_commit(&o, e) != CT_OK) ...     (renamed onto path)
 *
 * Every message starts with the command given as `what` ("export: ...").
 * Temporaries carry the pid in their name and are removed on SIGINT,
 * SIGTERM, SIGHUP and SIGPIPE; those of processes that died otherwise are
 * removed by the next ct_outfile_open in the same directory. */
#ifndef CT_OUTFILE_H
#define CT_OUTFILE_H

#include <stdio.h>
#include "status.h"

/* The longest path accepted, with its NUL; longer ones are refused, never
 * shortened. */
#define CT_OUTFILE_PATH_MAX 1024

typedef struct ct_outfile {
    char path[CT_OUTFILE_PATH_MAX];
    char tmp[1100];             /* "" when there is no temporary */
    const char *what;
    FILE *f;                    /* open between open and close */
} ct_outfile;

/* Refuse path when it is a symbolic link (even dangling, even with force),
 * exists without force, exists and is not a regular file, or lies in a
 * directory that does not exist. All CT_ERR_IO. */
ct_status ct_outfile_check(const char *path, int force, const char *what, ct_err *e);

/* Create and open the temporary file (name: prefix, which starts with
 * ".convtune-", the pid and a random suffix) in the directory of path,
 * after removing the stale temporaries of dead processes there. */
ct_status ct_outfile_open(ct_outfile *o, const char *path, const char *prefix, const char *what, ct_err *e);

/* Check for write errors, flush, fsync and close the temporary (mode 0644).
 * On failure the temporary is removed. */
ct_status ct_outfile_close(ct_outfile *o, ct_err *e);

/* Rename the closed temporary onto the path. On failure the temporary is
 * removed. */
ct_status ct_outfile_commit(ct_outfile *o, ct_err *e);

/* Close (if open) and remove the temporary; harmless after commit or twice. */
void ct_outfile_discard(ct_outfile *o);

/* check, open, write len bytes of data, close and commit: a whole file in
 * one call, nothing left at path or beside it on failure. */
ct_status ct_outfile_write(const char *path, int force, const char *prefix, const char *what, const void *data,
                           size_t len, ct_err *e);

#endif
