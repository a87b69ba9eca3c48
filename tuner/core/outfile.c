/* outfile.c - atomic output files (outfile.h).
 *
 * Temporaries are named DIR/PREFIX<pid>-XXXXXX. While one exists, SIGINT,
 * SIGTERM, SIGHUP and SIGPIPE remove it before the process dies the way it
 * would have; a process killed outright (SIGKILL, a crash) cannot, so the
 * next file written into the same directory removes the temporaries whose
 * process is gone (the pid in the name). The same table and sweep serve the
 * compile cache's temporaries (ct_tmp_create, ct_tmp_sweep), and a set of
 * files is renamed with those signals held (ct_outset_commit). */
#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Every temporary name starts with this; prefixes given to ct_outfile_open
 * must too, so that stale ones of any command are recognised. */
#define TMP_STEM ".convtune-"

/* ------------------------------------------------------------------------ */
/* Temporaries removed on a signal                                          */

/* Compile threads (the cache) and the main thread (an export set of four
 * and a backup of each) register at the same time: room for all. */
#define MAX_LIVE 32
#define LIVE_PATH_MAX 1200

/* A slot is free (0) or holds a registered path (1). The table is changed
 * under live_mu; the handler reads it without the lock (it may interrupt
 * the thread holding it), so a slot's path is complete before its flag is
 * set (an atomic store) and the flag is cleared before the path changes. */
static char live_path[MAX_LIVE][LIVE_PATH_MAX];
static atomic_int live_used[MAX_LIVE];
static pthread_mutex_t live_mu = PTHREAD_MUTEX_INITIALIZER;
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define NSIG_CLEAN (sizeof cleanup_signals / sizeof cleanup_signals[0])
static struct sigaction saved_action[NSIG_CLEAN];
static int handlers_installed;

/* Set commits in progress, and the signal one of them put off (0: none). */
static atomic_int committing;
static atomic_int deferred_sig;
/* Set by the handler before it removes the temporaries, and the threads
 * between creating a temporary and registering it: the handler waits for
 * them (a compile worker must not leave one it created meanwhile). */
static atomic_int dying;
static atomic_int creating;

/* Only async-signal-safe calls: unlink, nanosleep, sigaction, raise. The
 * handler never takes live_mu (every holder has its signals blocked). The
 * signal is
 * re-raised with the disposition the program had before, so the exit
 * status is still "killed by SIGINT" (or whatever the program wanted).
 * While a set is being renamed (in another thread: the committing one
 * holds its signals) the signal is only noted; the commit raises it again
 * when its last rename is done. The note is made before the test, and the
 * commit clears its count before it looks at the note, so that one of the
 * two always acts on it. */
static void on_signal(int sig)
{
    atomic_store(&deferred_sig, sig);
    if (atomic_load(&committing) > 0)
        return;
    atomic_store(&deferred_sig, 0);
    /* dying, then creating; a creator does the reverse (ct_tmp_create):
     * one of the two sees the other, so a temporary being created is
     * either not created or registered before the table is read. The wait
     * is bounded: a creation stuck (a hung network filesystem) must not
     * keep the process alive; its file is then left to the stale sweep. */
    atomic_store(&dying, 1);
    struct timespec ms = {0, 1000000};
    for (int i = 0; i < 2000 && atomic_load(&creating) > 0; i++)
        nanosleep(&ms, NULL);
    for (int i = 0; i < MAX_LIVE; i++)
        if (atomic_load(&live_used[i]))
            unlink(live_path[i]);
    for (size_t k = 0; k < NSIG_CLEAN; k++)
        if (cleanup_signals[k] == sig)
            sigaction(sig, &saved_action[k], NULL);
    raise(sig);
}

/* Called with live_mu held, so that two threads' first registrations do
 * not both install (the second would save on_signal as the program's own
 * disposition and re-raise into itself forever). */
static void install_handlers(void)
{
    if (handlers_installed)
        return;
    handlers_installed = 1;
    for (size_t k = 0; k < NSIG_CLEAN; k++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sa.sa_flags = SA_RESTART;   /* a noted signal returns into the interrupted call */
        sigemptyset(&sa.sa_mask);
        for (size_t j = 0; j < NSIG_CLEAN; j++)
            sigaddset(&sa.sa_mask, cleanup_signals[j]);
        if (sigaction(cleanup_signals[k], NULL, &saved_action[k]) == 0 &&
            saved_action[k].sa_handler == SIG_IGN)
            continue;            /* e.g. nohup: an ignored signal stays ignored */
        sigaction(cleanup_signals[k], &sa, NULL);
    }
}

/* Register path for removal on a signal; -1 when the table is full or the
 * path too long (the temporary is then only cleared as a stale one later).
 * Only from ct_tmp_create, with signals blocked. */
static int live_add(const char *path)
{
    int slot = -1;
    pthread_mutex_lock(&live_mu);
    for (int i = 0; i < MAX_LIVE && slot < 0 && strlen(path) < LIVE_PATH_MAX; i++)
        if (!atomic_load(&live_used[i])) {
            memcpy(live_path[i], path, strlen(path) + 1);
            atomic_store(&live_used[i], 1);
            slot = i;
        }
    pthread_mutex_unlock(&live_mu);
    return slot;
}

static void live_remove(const char *path)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pthread_mutex_lock(&live_mu);
    for (int i = 0; i < MAX_LIVE; i++)
        if (atomic_load(&live_used[i]) && !strcmp(live_path[i], path))
            atomic_store(&live_used[i], 0);
    pthread_mutex_unlock(&live_mu);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int ct_tmp_create(char *tmpl)
{
    /* Signals are held in this thread until the file is registered, so
     * none that comes to it can leave the file behind unregistered; one
     * that another thread takes finds the handlers installed (before the
     * file exists) and waits for the registration (creating). */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pthread_mutex_lock(&live_mu);
    install_handlers();
    pthread_mutex_unlock(&live_mu);
    atomic_fetch_add(&creating, 1);
    int fd = -1, err = EINTR;       /* the process is being ended: no new file */
    if (!atomic_load(&dying)) {
        fd = mkstemp(tmpl);
        err = errno;
        if (fd >= 0)
            live_add(tmpl);
    }
    atomic_fetch_sub(&creating, 1);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = err;
    return fd;
}

void ct_tmp_forget(const char *path)
{
    live_remove(path);
}

void ct_tmp_sweep(const char *dir, long (*pid_of)(const char *name, void *user), void *user)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        long pid = pid_of(de->d_name, user);
        if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        char path[2048];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, de->d_name) < sizeof path)
            unlink(path);
    }
    closedir(d);
}

/* The pid of an outfile temporary, TMP_STEM...-<pid>-XXXXXX, else 0. */
static long outfile_tmp_pid(const char *n, void *user)
{
    (void)user;
    size_t len = strlen(n);
    if (strncmp(n, TMP_STEM, strlen(TMP_STEM)) != 0 || len < strlen(TMP_STEM) + 9 || n[len - 7] != '-')
        return 0;
    const char *p = n + len - 8;            /* the last digit of the pid */
    while (p > n && p[-1] >= '0' && p[-1] <= '9')
        p--;
    if (p == n + len - 7 || p[-1] != '-')
        return 0;
    return strtol(p, NULL, 10);
}

/* Remove the temporaries in dir left by processes that no longer exist:
 * names TMP_STEM...-<pid>-XXXXXX whose pid is not running (kill(pid, 0)
 * fails with ESRCH). */
static void clear_stale(const char *dir)
{
    ct_tmp_sweep(dir, outfile_tmp_pid, NULL);
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
    int fd = ct_tmp_create(tmp);
    int err = errno;
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

/* ------------------------------------------------------------------------ */
/* Sets                                                                     */

void ct_outset_init(ct_outset *s)
{
    s->n = 0;
}

ct_status ct_outset_add(ct_outset *s, const char *path, int force, const char *prefix, const char *what, FILE **f,
                        ct_err *e)
{
    ct_status rc;
    if (s->n >= CT_OUTSET_MAX)
        rc = ct_fail(e, CT_ERR_INTERNAL, "%s: more than %d files in one set", what, CT_OUTSET_MAX);
    else if ((rc = ct_outfile_check(path, force, what, e)) == CT_OK &&
             (rc = ct_outfile_open(&s->file[s->n], path, prefix, what, e)) == CT_OK) {
        *f = s->file[s->n++].f;
        return CT_OK;
    }
    ct_outset_discard(s);
    return rc;
}

void ct_outset_discard(ct_outset *s)
{
    for (int i = 0; i < s->n; i++)
        ct_outfile_discard(&s->file[i]);
    s->n = 0;
}

/* A second name for the file at path (a hard link, keep, named like a
 * temporary of this process so that a kill -9 leaves it to the stale
 * sweep), to put back if the set fails; keep is "" when there is no file
 * or it cannot be linked (a filesystem without hard links): the old file
 * is then lost if the set fails, as a single file's would be. */
static void keep_old(const char *path, char *keep, size_t len)
{
    static atomic_uint counter;
    struct stat st;
    keep[0] = '\0';
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    char dir[CT_OUTFILE_PATH_MAX];
    dir_of(path, dir, sizeof dir);
    for (int tries = 0; tries < 100; tries++) {
        unsigned k = atomic_fetch_add(&counter, 1) % 1000000;
        if ((size_t)snprintf(keep, len, "%s/" TMP_STEM "keep-%ld-%06u", dir, (long)getpid(), k) >= len)
            break;
        if (link(path, keep) == 0)
            return;
        if (errno != EEXIST)
            break;
    }
    keep[0] = '\0';
}

/* The renames are the commit: all temporaries are complete and synced
 * before the first. A signal between two renames would leave part of the
 * new set beside the old files, so signals are held while they run:
 * blocked in this thread, and noted by the handler (which then returns)
 * when another thread receives one; either way the signal acts after the
 * last rename, a few system calls later. Holding them is simpler and safer
 * than undoing renames from a signal handler, whose view of how far the
 * commit got changes under it; a failed rename is undone here instead,
 * outside any handler. */
ct_status ct_outset_commit(ct_outset *s, ct_err *e)
{
    ct_status rc = CT_OK;
    for (int i = 0; i < s->n && rc == CT_OK; i++)
        if (s->file[i].f)
            rc = ct_outfile_close(&s->file[i], e);
    if (rc != CT_OK) {
        ct_outset_discard(s);
        return rc;
    }
    char keep[CT_OUTSET_MAX][sizeof s->file[0].tmp];
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    atomic_fetch_add(&committing, 1);
    for (int i = 0; i < s->n; i++)
        keep_old(s->file[i].path, keep[i], sizeof keep[i]);
    int done = 0, err = 0;
    while (done < s->n && rename(s->file[done].tmp, s->file[done].path) == 0)
        done++;
    if (done < s->n) {
        err = errno;
        for (int i = 0; i < done; i++)
            if (!keep[i][0] || rename(keep[i], s->file[i].path) != 0)
                unlink(s->file[i].path);
        for (int i = done; i < s->n; i++)
            unlink(s->file[i].tmp);
    }
    for (int i = 0; i < s->n; i++) {
        if (keep[i][0])
            unlink(keep[i]);    /* gone already where it was put back */
        live_remove(s->file[i].tmp);
        s->file[i].tmp[0] = '\0';
    }
    int sig = 0;
    if (atomic_fetch_sub(&committing, 1) == 1)  /* the last commit acts on a note */
        sig = atomic_exchange(&deferred_sig, 0);
    pthread_sigmask(SIG_SETMASK, &old, NULL);   /* a blocked signal acts here */
    if (sig)
        raise(sig);             /* one another thread noted */
    if (done < s->n)
        rc = ct_fail(e, CT_ERR_IO, "%s: cannot rename to %s: %s", s->file[done].what, s->file[done].path,
                     strerror(err));
    s->n = 0;
    return rc;
}
