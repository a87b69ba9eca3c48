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
 * Files that belong together (an export's .cu and .h, the four files of
 * `export --torch`) are written as a set (ct_outset): afterwards either the
 * whole new set is in place or none of it, also when a signal comes while
 * they are renamed.
 *
 * Every message starts with the command given as `what` ("export: ...").
 * Temporaries carry the pid in their name and are removed on SIGINT,
 * SIGTERM, SIGHUP and SIGPIPE; those of processes that died otherwise are
 * removed by the next ct_outfile_open in the same directory. Other writers
 * (the compile cache) register theirs with the same clean-up through
 * ct_tmp_create. */
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

/* ------------------------------------------------------------------------ */
/* A set of files committed together                                        */

#define CT_OUTSET_MAX 8

typedef struct ct_outset {
    ct_outfile file[CT_OUTSET_MAX];
    int n;
} ct_outset;

void ct_outset_init(ct_outset *s);

/* Check path (ct_outfile_check) and open its temporary as the set's next
 * file, its stream in *f. On failure the whole set is discarded. */
ct_status ct_outset_add(ct_outset *s, const char *path, int force, const char *prefix, const char *what, FILE **f,
                        ct_err *e);

/* Close the temporaries still open, then rename every file into place, in
 * the order they were added. A signal that comes meanwhile takes effect
 * after the last rename; a rename that fails puts back the files the set
 * replaced (--force) and removes the new ones, so that either the whole new
 * set or the old files are in place. Only a process killed outright
 * (SIGKILL, a crash, a power cut) during the renames can leave a mix. The
 * set is empty afterwards, whatever the outcome. */
ct_status ct_outset_commit(ct_outset *s, ct_err *e);

/* Remove every temporary of the set; harmless after commit or twice. */
void ct_outset_discard(ct_outset *s);

/* ------------------------------------------------------------------------ */
/* Temporaries of other writers                                             */

/* mkstemp(tmpl), the file registered for removal on SIGINT, SIGTERM, SIGHUP
 * and SIGPIPE (signals held between its creation and its registration):
 * the descriptor, or -1 with errno set. */
int ct_tmp_create(char *tmpl);

/* The file at path is no longer a temporary of this process (renamed into
 * place or removed): forget it. */
void ct_tmp_forget(const char *path);

/* Remove the files of dir that pid_of(name, user) says belong to a process
 * (pid > 0) that no longer exists on this host; pid_of returns 0 for the
 * names that are not such temporaries, or not this host's. Errors are
 * ignored: a sweep is housekeeping, not the caller's work. */
void ct_tmp_sweep(const char *dir, long (*pid_of)(const char *name, void *user), void *user);

#endif
