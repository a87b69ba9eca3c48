/* proc.c - see proc.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "proc.h"

#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* envp with the entries of env replacing those of the same name (malloc'd
 * array; the strings are borrowed). */
static char **merge_env(char *const *envp, const char *const *env)
{
    int n = 0, m = 0, k = 0;
    while (envp[n])
        n++;
    while (env[m])
        m++;
    char **out = calloc((size_t)(n + m + 1), sizeof *out);
    if (!out)
        return NULL;
    for (int i = 0; i < n; i++) {
        int replaced = 0;
        for (int j = 0; j < m && !replaced; j++) {
            const char *eq = strchr(env[j], '=');
            size_t len = eq ? (size_t)(eq - env[j] + 1) : strlen(env[j]);
            replaced = !strncmp(envp[i], env[j], len);
        }
        if (!replaced)
            out[k++] = envp[i];
    }
    for (int j = 0; j < m; j++)
        out[k++] = (char *)env[j];
    return out;
}

static void child(char *const *argv, const tl_run_opts *o, const char *cap_out, const char *cap_err)
{
    int in = open("/dev/null", O_RDONLY);
    int fo = open(cap_out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int fe = open(cap_err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || fo < 0 || fe < 0 || (o->cwd && chdir(o->cwd) != 0))
        _exit(126);
    dup2(in, 0);
    dup2(fo, 1);
    dup2(fe, 2);
    close(in);
    close(fo);
    close(fe);
    char *const *envp = o->envp ? o->envp : environ;
    char **merged = o->env && o->env[0] ? merge_env(envp, o->env) : NULL;
    if (merged)
        envp = merged;
    if (o->fsize > 0) {
        struct rlimit rl = {(rlim_t)o->fsize, (rlim_t)o->fsize};
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(125);
    }
    if (o->uid > 0 && (setgroups(0, NULL) != 0 || setgid((gid_t)o->uid) != 0 || setuid((uid_t)o->uid) != 0))
        _exit(125);
    execvpe(argv[0], argv, envp);
    _exit(127);
}

/* Removes from buf (*len bytes) the lines LeakSanitizer prints when its
 * stop-the-world pass cannot read a thread's registers: under load it can
 * attach to a thread that was just joined and is still leaving, and says
 * "==PID==Unable to get registers from thread TID." on the child's stderr
 * (seen once in a clean-clone sanitizer run, 2026-11-28, in test_cli). It
 * is the sanitizer's, not convtune's, and no build without one prints it;
 * a leak it found would still be reported, and fail the run by its exit
 * code. */
static void drop_sanitizer_noise(char *buf, size_t *len)
{
    size_t out = 0;
    for (size_t at = 0; at < *len;) {
        char *nl = memchr(buf + at, '\n', *len - at);
        size_t end = nl ? (size_t)(nl - buf) + 1 : *len;
        int pid, tid, used = 0;
        char dot = 0;
        int noise = sscanf(buf + at, "==%d==Unable to get registers from thread %d%c%n", &pid, &tid, &dot, &used) == 3 &&
                    dot == '.' && at + (size_t)used + 1 == end && nl;
        if (!noise) {
            memmove(buf + out, buf + at, end - at);
            out += end - at;
        }
        at = end;
    }
    *len = out;
    buf[out] = '\0';
}

void tl_run(char *const *argv, const tl_run_opts *opts, tl_result *r)
{
    static const tl_run_opts none;
    const tl_run_opts *o = opts ? opts : &none;
    char cap_out[700], cap_err[700];
    const char *dir = o->capdir ? o->capdir : "/tmp";
    snprintf(cap_out, sizeof cap_out, "%s/.ct_stdout.%ld", dir, (long)getpid());
    snprintf(cap_err, sizeof cap_err, "%s/.ct_stderr.%ld", dir, (long)getpid());
    memset(r, 0, sizeof *r);
    r->code = -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        r->out = strdup("");
        r->err = strdup("");
        return;
    }
    if (pid == 0)
        child(argv, o, cap_out, cap_err);
    int status = 0, timeout_s = o->timeout_s > 0 ? o->timeout_s : 60, waited = 0;
    struct timespec t0, now, nap = {0, 2 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) {
            waited = 1;
            break;
        }
        if (w < 0 && errno != EINTR) {
            perror("waitpid");
            break;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - t0.tv_sec > timeout_s) {
            fprintf(stderr, "timeout: killing %s (pid %d) after %d s\n", argv[0], (int)pid, timeout_s);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        nanosleep(&nap, NULL);
    }
    if (waited)
        r->code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r->out = tl_slurp(cap_out, &r->outlen);
    r->err = tl_slurp(cap_err, &r->errlen);
    if (!r->out)
        r->out = strdup("");
    if (!r->err)
        r->err = strdup("");
    else
        drop_sanitizer_noise(r->err, &r->errlen);
    unlink(cap_out);
    unlink(cap_err);
}

void tl_result_free(tl_result *r)
{
    free(r->out);
    free(r->err);
    memset(r, 0, sizeof *r);
}

int tl_count_char(const char *s, size_t n, char c)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i] == c;
    return k;
}

int tl_one_line(const tl_result *r)
{
    return r->errlen > 1 && tl_count_char(r->err, r->errlen, '\n') == 1 && r->err[r->errlen - 1] == '\n';
}

int tl_path(char *buf, size_t len, const char *dir, const char *name)
{
    return snprintf(buf, len, "%s/%s", dir, name) < (int)len ? 0 : -1;
}

static char **isolated_env(const char *work)
{
    int n = 0, k = 0;
    while (environ[n])
        n++;
    char **env = calloc((size_t)n + 3, sizeof *env);
    if (!env)
        return NULL;
    for (int i = 0; i < n; i++) {
        if (!strncmp(environ[i], "CONVTUNE_DB=", 12) || !strncmp(environ[i], "HOME=", 5) ||
            !strncmp(environ[i], "XDG_DATA_HOME=", 14))
            continue;
        env[k++] = environ[i];
    }
    char buf[700];
    snprintf(buf, sizeof buf, "HOME=%s/home", work);
    env[k++] = strdup(buf);
    snprintf(buf, sizeof buf, "XDG_DATA_HOME=%s/xdg", work);
    env[k++] = strdup(buf);
    return env;
}

int tl_workdir_make(tl_workdir *w, const char *name)
{
    memset(w, 0, sizeof *w);
    snprintf(w->base, sizeof w->base, "/tmp/ct_test_%s_XXXXXX", name);
    if (!mkdtemp(w->base)) {
        perror("mkdtemp");
        return -1;
    }
    char home[700], xdg[700];
    snprintf(w->work, sizeof w->work, "%s/work", w->base);
    snprintf(home, sizeof home, "%s/home", w->work);
    snprintf(xdg, sizeof xdg, "%s/xdg", w->work);
    if (mkdir(w->work, 0700) != 0 || mkdir(home, 0700) != 0 || mkdir(xdg, 0700) != 0) {
        perror("mkdir");
        return -1;
    }
    w->env = isolated_env(w->work);
    return w->env ? 0 : -1;
}

void tl_workdir_remove(tl_workdir *w)
{
    /* The environment: the entries isolated_env made (HOME and
     * XDG_DATA_HOME, which it leaves out of environ's) and the array. */
    for (int i = 0; w->env && w->env[i]; i++)
        if (!strncmp(w->env[i], "HOME=", 5) || !strncmp(w->env[i], "XDG_DATA_HOME=", 14))
            free(w->env[i]);
    free(w->env);
    w->env = NULL;
    if (!w->base[0] || w->base[strlen(w->base) - 1] == 'X')
        return;
    if (getenv("CT_TEST_KEEP"))
        printf("kept %s\n", w->base);
    else
        tl_rm_rf(w->base);
}
