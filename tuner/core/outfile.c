/* outfile.c - atomic output files (outfile.h).
 *
 * Temporaries are named DIR/PREFIX<pid>-XXXXXX. While one exists, SIGINT,
 * SIGTERM, SIGHUP and SIGPIPE remove it before the process dies the way it
 * would have; a process killed outright (SIGKILL, a crash) cannot, so the
 * next file written into the same directory removes the temporaries whose
 * process is gone (the pid in the name). */
#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Every temporary name starts with this; prefixes given to ct_outfile_open
 * must too, so that stale ones of any command are recognised. */
#define TMP_STEM ".convtune-"

/* ------------------------------------------------------------------------ */
/* Temporaries removed on a signal                                          */

#define MAX_LIVE 8
static char live_path[MAX_LIVE][sizeof ((ct_outfile *)0)->tmp];
static volatile sig_atomic_t live_used[MAX_LIVE];
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define NSIG_CLEAN (sizeof cleanup_signals / sizeof cleanup_signals[0])
static struct sigaction saved_action[NSIG_CLEAN];
static int handlers_installed;

/* Only async-signal-safe calls: unlink, sigaction, raise. The signal is
 * re-raised with the disposition the program had before, so the exit
 * status is still "killed by SIGINT" (or whatever the program wanted). */
static void on_signal(int sig)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live_used[i])
            unlink(live_path[i]);
    for (size_t k = 0; k < NSIG_CLEAN; k++)
        if (cleanup_signals[k] == sig)
            sigaction(sig, &saved_action[k], NULL);
    raise(sig);
}

static void install_handlers(void)
{
    if (handlers_installed)
        return;
    handlers_installed = 1;
    for (size_t k = 0; k < NSIG_CLEAN; k++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (size_t j = 0; j < NSIG_CLEAN; j++)
            sigaddset(&sa.sa_mask, cleanup_signals[j]);
        if (sigaction(cleanup_signals[k], NULL, &saved_action[k]) == 0 &&
            saved_action[k].sa_handler == SIG_IGN)
            continue;            /* e.g. nohup: an ignored signal stays ignored */
        sigaction(cleanup_signals[k], &sa, NULL);
    }
}

/* Register path for removal on a signal; -1 when the table is full (the
 * temporary is then only cleared as a stale one later). */
static int live_add(const char *path)
{
    install_handlers();
    for (int i = 0; i < MAX_LIVE; i++)
        if (!live_used[i]) {
            snprintf(live_path[i], sizeof live_path[i], "%s", path);
            live_used[i] = 1;
            return i;
        }
    return -1;
}

static void live_remove(const char *path)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live_used[i] && !strcmp(live_path[i], path))
            live_used[i] = 0;
}

/* Remove the temporaries in dir left by processes that no longer exist:
 * names TMP_STEM...-<pid>-XXXXXX whose pid is not running (kill(pid, 0)
 * fails with ESRCH). A failure here is not the caller's: it is ignored. */
static void clear_stale(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *n = de->d_name;
        size_t len = strlen(n);
        if (strncmp(n, TMP_STEM, strlen(TMP_STEM)) != 0 || len < strlen(TMP_STEM) + 9 || n[len - 7] != '-')
            continue;
        const char *p = n + len - 8;            /* the last digit of the pid */
        while (p > n && p[-1] >= '0' && p[-1] <= '9')
            p--;
        if (p == n + len - 7 || p[-1] != '-')
            continue;
        long pid = strtol(p, NULL, 10);
        if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        char path[2048];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, n) < sizeof path)
            unlink(path);
    }
    closedir(d);
}

/* ------------------------------------------------------------------------ */

static void dir_of(const char *path, char *buf, size_t len)
{
    char tmp[CT_OUTFILE_PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s", path);
    snprintf(buf, len, "%s", dirname(tmp));
}

ct_status ct_outfile_check(const char *path, int force, const char *what, ct_err *e)
{
    struct stat st;
    if (!path || !*path)
        return ct_fail(e, CT_ERR_USAGE, "%s: no output file given", what);
    if (strlen(path) >= CT_OUTFILE_PATH_MAX)
        return ct_fail(e, CT_ERR_IO, "%s: output path too long (%zu characters, at most %d): %.40s...", what,
                       strlen(path), CT_OUTFILE_PATH_MAX - 1, path);
    if (lstat(path, &st) == 0) {
        if (S_ISLNK(st.st_mode))
            return ct_fail(e, CT_ERR_IO, "%s: %s is a symbolic link; refusing to write through it", what, path);
        if (!force)
            return ct_fail(e, CT_ERR_IO, "%s: %s exists (use --force to replace it)", what, path);
        if (!S_ISREG(st.st_mode))
            return ct_fail(e, CT_ERR_IO, "%s: %s exists and is not a regular file", what, path);
    }
    char dir[CT_OUTFILE_PATH_MAX];
    dir_of(path, dir, sizeof dir);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return ct_fail(e, CT_ERR_IO, "%s: directory %s does not exist", what, dir);
    return CT_OK;
}

ct_status ct_outfile_open(ct_outfile *o, const char *path, const char *prefix, const char *what, ct_err *e)
{
    memset(o, 0, sizeof *o);
    o->what = what;
    if (strncmp(prefix, TMP_STEM, strlen(TMP_STEM)) != 0)
        return ct_fail(e, CT_ERR_INTERNAL, "%s: temporary prefix %s does not start with " TMP_STEM, what, prefix);
    if (strlen(path) >= sizeof o->path)
        return ct_fail(e, CT_ERR_IO, "%s: output path too long (%zu characters, at most %zu): %.40s...", what,
                       strlen(path), sizeof o->path - 1, path);
    snprintf(o->path, sizeof o->path, "%s", path);
    char dir[CT_OUTFILE_PATH_MAX];
    dir_of(path, dir, sizeof dir);
    clear_stale(dir);
    char tmp[sizeof o->tmp];
    snprintf(tmp, sizeof tmp, "%s/%s%ld-XXXXXX", dir, prefix, (long)getpid());
    /* Signals are held between creating the file and registering it, so
     * none can leave it behind unregistered. */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    int fd = mkstemp(tmp);
    int err = errno;
    if (fd >= 0)
        live_add(tmp);
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (fd < 0)
        return ct_fail(e, CT_ERR_IO, "%s: cannot create a file in %s: %s", what, dir, strerror(err));
    snprintf(o->tmp, sizeof o->tmp, "%s", tmp);
    o->f = fdopen(fd, "w");
    if (!o->f) {
        err = errno;
        close(fd);
        ct_outfile_discard(o);
        return ct_fail(e, CT_ERR_IO, "%s: %s", what, strerror(err));
    }
    return CT_OK;
}

ct_status ct_outfile_close(ct_outfile *o, ct_err *e)
{
    if (!o->f)
        return ct_fail(e, CT_ERR_INTERNAL, "%s: %s is not open", o->what, o->path);
    int werr = ferror(o->f);
    werr |= fflush(o->f) != 0;
    int err = errno;
    werr |= fsync(fileno(o->f)) != 0;
    werr |= fclose(o->f) != 0;
    o->f = NULL;
    if (werr) {
        ct_outfile_discard(o);
        return ct_fail(e, CT_ERR_IO, "%s: writing %s failed: %s", o->what, o->path, strerror(err ? err : EIO));
    }
    chmod(o->tmp, 0644);
    return CT_OK;
}

ct_status ct_outfile_commit(ct_outfile *o, ct_err *e)
{
    if (o->f || !o->tmp[0])
        return ct_fail(e, CT_ERR_INTERNAL, "%s: %s is not ready to be renamed", o->what, o->path);
    if (rename(o->tmp, o->path) != 0) {
        int err = errno;
        ct_outfile_discard(o);
        return ct_fail(e, CT_ERR_IO, "%s: cannot rename to %s: %s", o->what, o->path, strerror(err));
    }
    live_remove(o->tmp);
    o->tmp[0] = '\0';
    return CT_OK;
}

void ct_outfile_discard(ct_outfile *o)
{
    if (o->f) {
        fclose(o->f);
        o->f = NULL;
    }
    if (o->tmp[0]) {
        unlink(o->tmp);
        live_remove(o->tmp);
        o->tmp[0] = '\0';
    }
}

ct_status ct_outfile_write(const char *path, int force, const char *prefix, const char *what, const void *data,
                           size_t len, ct_err *e)
{
    ct_status rc = ct_outfile_check(path, force, what, e);
    ct_outfile o;
    if (rc == CT_OK)
        rc = ct_outfile_open(&o, path, prefix, what, e);
    if (rc != CT_OK)
        return rc;
    if (len && fwrite(data, 1, len, o.f) != len) {
        int err = errno;
        ct_outfile_discard(&o);
        return ct_fail(e, CT_ERR_IO, "%s: writing %s failed: %s", what, path, strerror(err ? err : EIO));
    }
    if ((rc = ct_outfile_close(&o, e)) != CT_OK)
        return rc;
    return ct_outfile_commit(&o, e);
}
