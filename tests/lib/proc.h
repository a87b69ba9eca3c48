/* proc.h - running programs from a test (convtune itself, compilers): fork
 * and exec with stdin from /dev/null, stdout and stderr captured in full,
 * a time limit, and optionally another environment, user or file size
 * limit; and a scratch tree whose HOME and XDG_DATA_HOME the children use,
 * so that no test reads or writes the user's database. */
#ifndef CT_TL_PROC_H
#define CT_TL_PROC_H

#include <stddef.h>

typedef struct tl_result {
    int code;                  /* exit status, 128 + signal, or -1 (not run, or killed at the time limit) */
    char *out, *err;           /* captured stdout and stderr, NUL-terminated, never NULL after tl_run */
    size_t outlen, errlen;
} tl_result;

typedef struct tl_run_opts {
    const char *cwd;           /* NULL: this process's */
    const char *capdir;        /* where the output is captured (a file each, removed after); NULL: /tmp */
    char *const *envp;         /* NULL: this process's environment */
    const char *const *env;    /* NULL-terminated "NAME=value" entries that replace envp's of that name */
    int timeout_s;             /* killed after this many seconds; 0: 60 */
    long uid;                  /* > 0: run as this user, with no groups (needs root) */
    long fsize;                /* > 0: file size limit in bytes, SIGXFSZ ignored, so that a write fails
                                  with EFBIG as on a full disk */
} tl_run_opts;

/* Run argv (argv[0] a path or a name looked up in PATH); o may be NULL. */
void tl_run(char *const *argv, const tl_run_opts *o, tl_result *r);
void tl_result_free(tl_result *r);

/* Whether stderr is exactly one non-empty line, as a refusal must be. */
int tl_one_line(const tl_result *r);

int tl_count_char(const char *s, size_t n, char c);

/* A scratch tree: base (made by mkdtemp from /tmp/ct_test_NAME_XXXXXX)
 * holds work, the children's working directory, which holds home and xdg;
 * env is this process's environment without CONVTUNE_DB, with HOME and
 * XDG_DATA_HOME pointing into work. */
typedef struct tl_workdir {
    char base[256];
    char work[300];
    char **env;
} tl_workdir;

/* 0, or -1 with the reason on stderr. */
int tl_workdir_make(tl_workdir *w, const char *name);

/* Frees the environment and removes the tree (kept, and named on stdout,
 * when CT_TEST_KEEP is set). */
void tl_workdir_remove(tl_workdir *w);

/* dir/name into buf; -1 when it does not fit. */
int tl_path(char *buf, size_t len, const char *dir, const char *name);

#endif
