/* files.h - file helpers of the tests: whole files in and out, existence,
 * removal of a tree, a program on PATH, and snapshots of a directory tree
 * (to prove that a refused command changed nothing). */
#ifndef CT_TL_FILES_H
#define CT_TL_FILES_H

#include <stddef.h>

/* Whole file into a malloc'd NUL-terminated buffer (length in *len when
 * len is not NULL); NULL if unreadable. */
char *tl_slurp(const char *path, size_t *len);

/* Write len bytes (or a string) to path, replacing it; 0 or -1. */
int tl_write_file(const char *path, const void *data, size_t len);
int tl_write_text(const char *path, const char *text);

/* Whether path names anything, a dangling symbolic link included. */
int tl_exists(const char *path);

/* Whether the file at path holds exactly want[0..len). */
int tl_same_bytes(const char *path, const char *want, size_t len);

/* Entries of dir whose names start with prefix; -1 if dir is unreadable. */
int tl_count_prefixed(const char *dir, const char *prefix);
/* Entries of dir whose names end with suffix; -1 if dir is unreadable. */
int tl_count_suffixed(const char *dir, const char *suffix);

/* Remove path and everything under it (symbolic links are not followed). */
void tl_rm_rf(const char *path);

/* The full path of prog on PATH into buf; 0 when it is not there. */
int tl_which(const char *prog, char *buf, size_t len);

/* A snapshot of the tree under root: one line per entry with its kind, size
 * and a content hash, sorted, in one malloc'd string. Two snapshots compare
 * equal exactly when nothing was added, removed or changed. */
char *tl_snapshot(const char *root);

#endif
