/* test_signals.c - every multi-file write commits as a set, and no
 * temporary outlives a signal, with real processes held inside the window
 * that random signals rarely hit (issue 34).
 *
 * convtune runs under strace, which holds it after the Nth rename of a set
 * (inject=rename:delay_exit) or inside the fsync of a cache entry
 * (inject=fsync:delay_enter); the test sees the held state on disk, sends
 * SIGINT, SIGTERM or SIGHUP to the traced convtune and, once it has died of
 * it, finds in the directory the whole new set or none of it, never a part,
 * and no temporary. Covered: the export pair, the export --family pair, the
 * four files of export --torch (held after each of the first three
 * renames), --force over an old set (held, and with a rename made to fail:
 * the old set is put back), and the compile cache (its temporaries removed
 * on a signal; after SIGKILL, this host's dead process's temporaries
 * removed by the next write, another host's and a live process's kept).
 *
 * strace is required (scripts/setup-deps.sh installs it): without it, or
 * where ptrace is not allowed, the test fails. No GPU. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "check.h"
#include "compile.h"
#include "db.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CT_CLI_TEST_NAME "signals"
#include "cli_common.h"

#define count_prefixed tl_count_prefixed

#define PROB "conv1d:15:4:right"   /* tuned in tests/fixtures/report.db */
#define PROB_BASE "conv1d_15_4_right"
/* How long strace holds convtune in the window; a run not caught in it (a
 * loaded machine) is tried once more with a longer hold. */
#define HOLD_US 600000

/* LeakSanitizer cannot run under ptrace: in the sanitizer build a traced
 * convtune would end in its fatal error instead of the signal. strace -E
 * puts this in the traced command's environment (other builds ignore it). */
#define NO_LEAK_CHECK "ASAN_OPTIONS=detect_leaks=0"

static char strace_bin[512];
static char ct_bin[] = CT_BINARY;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The pid of parent's child named convtune, from /proc; 0 when none yet
 * (strace forks short-lived children of its own first, to test ptrace). */
static pid_t convtune_child_of(pid_t parent)
{
    DIR *d = opendir("/proc");
    pid_t found = 0;
    struct dirent *de;
    while (d && !found && (de = readdir(d))) {
        char path[300], buf[512];
        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        const char *p = strrchr(buf, ')');   /* "pid (comm) state ppid ...", comm may hold spaces */
        long ppid = 0;
        char state;
        if (p && sscanf(p + 1, " %c %ld", &state, &ppid) == 2 && ppid == (long)parent &&
            !strncmp(strchr(buf, '(') ? strchr(buf, '(') : "", "(convtune)", 10))
            found = (pid_t)atol(de->d_name);
    }
    if (d)
        closedir(d);
    return found;
}

/* argv (room for MAX_ARGS + 12) for strace -f running convtune args
 * ("{W}" expanded) with inject (NULL: traced, nothing injected), its
 * output to /dev/null; free with free_traced. */
static void traced_argv(char **argv, const char *inject, const char *const *args)
{
    int n = 0;
    argv[n++] = strace_bin;
    argv[n++] = "-E";
    argv[n++] = NO_LEAK_CHECK;
    argv[n++] = "-f";
    argv[n++] = "-qq";
    argv[n++] = "-o";
    argv[n++] = "/dev/null";
    if (inject) {
        argv[n++] = "-e";
        argv[n++] = (char *)inject;
    }
    argv[n++] = ct_bin;
    for (int i = 0; args[i] && n < MAX_ARGS + 11; i++)
        argv[n++] = expand(args[i]);
    argv[n] = NULL;
}

/* The expanded arguments of traced_argv's argv. */
static void free_traced(char **argv)
{
    int i = 0;
    while (argv[i] != ct_bin)
        i++;
    while (argv[++i])
        free(argv[i]);
}

/* Start strace -f with inject on convtune args (in the work directory,
 * output to /dev/null, the signals at their defaults); strace's pid. */
static pid_t spawn_traced(const char *inject, const char *const *args)
{
    char *argv[MAX_ARGS + 12];
    traced_argv(argv, inject, args);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null < 0 || chdir(work) != 0)
            _exit(126);
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGINT, SIG_DFL);   /* a shell's background job has them ignored */
        signal(SIGHUP, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        environ = child_env;
        for (int i = 0; run_env[i]; i++)
            putenv((char *)run_env[i]);
        execv(strace_bin, argv);
        _exit(127);
    }
    free_traced(argv);
    return pid;
}

/* What the held process shows on disk: held(arg) is 1 once it is inside
 * the window. */
typedef int (*held_fn)(const void *arg);

/* Run convtune args under strace with inject, send sig to the convtune
 * process once held() says it is in the window, and wait for it. 1 when
 * the signal was sent while it was held and convtune died of it (strace
 * ends the same way), 0 otherwise (with the reason printed). */
static int interrupt_held(const char *inject, const char *const *args, held_fn held, const void *arg, int sig)
{
    pid_t sp = spawn_traced(inject, args), cp = 0;
    if (sp < 0)
        return 0;
    int st = 0, sent = 0, done = 0;
    const double t0 = now_s();
    struct timespec nap = {0, 1000 * 1000};
    while (!done && now_s() - t0 < 30) {
        if (!cp)
            cp = convtune_child_of(sp);
        if (cp && held(arg)) {
            sent = kill(cp, sig) == 0;
            break;
        }
        done = waitpid(sp, &st, WNOHANG) == sp;
        if (!done)
            nanosleep(&nap, NULL);
    }
    if (!done && !sent) {
        if (cp)
            kill(cp, SIGKILL);   /* never held in 30 s: give up */
        kill(sp, SIGKILL);
    }
    if (!done)
        waitpid(sp, &st, 0);
    if (!sent) {
        fprintf(stderr, "%s: convtune was not caught in the window (strace status %#x)\n", inject, st);
        return 0;
    }
    if (!WIFSIGNALED(st) || WTERMSIG(st) != sig) {
        fprintf(stderr, "%s: signal %d: strace status %#x, not killed by the signal\n", inject, sig, st);
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Sets of files                                                            */

/* A set of files in the work directory (names relative to it). */
typedef struct fileset {
    const char *names[4];
    int n;
    int renamed;     /* held after this many renames */
} fileset;

static int count_present(const fileset *s)
{
    int k = 0;
    for (int i = 0; i < s->n; i++) {
        char path[700];
        wpath(path, sizeof path, s->names[i]);
        k += exists(path);
    }
    return k;
}

static const char OLD_TEXT[] = "old set\n";

/* Files of the set that hold the old set's text. */
static int old_text_count(const fileset *s)
{
    int k = 0;
    for (int i = 0; i < s->n; i++) {
        char path[700];
        wpath(path, sizeof path, s->names[i]);
        k += tl_same_bytes(path, OLD_TEXT, strlen(OLD_TEXT));
    }
    return k;
}

/* Held: as many files of the set are in place as renames were let through.
 * For a set over old files, the old ones are replaced in place: a file
 * counts once its text is no longer the old one. */
static int held_after_renames(const void *arg)
{
    const fileset *s = arg;
    return count_present(s) - old_text_count(s) >= s->renamed;
}

/* The set is whole (every file there, none with the old text: want_new) or
 * as it was before (every file absent, or every one the old text), and no
 * temporary is left. */
static void check_set(const char *what, const fileset *s, int old_before)
{
    int present = count_present(s), old = old_text_count(s);
    int whole_new = present == s->n && old == 0;
    int as_before = old_before ? old == s->n : present == 0;
    CHECK_MSG(whole_new || as_before, "%s: %d of the %d files present, %d of them old: a partial set", what, present,
              s->n, old);
    CHECK_MSG(count_prefixed(work, ".convtune-") == 0, "%s: a temporary was left", what);
}

static void remove_set(const fileset *s)
{
    for (int i = 0; i < s->n; i++) {
        char path[700];
        wpath(path, sizeof path, s->names[i]);
        unlink(path);
    }
}

static void write_old_set(const fileset *s)
{
    for (int i = 0; i < s->n; i++) {
        char path[700];
        wpath(path, sizeof path, s->names[i]);
        CHECK(tl_write_text(path, OLD_TEXT) == 0);
    }
}

static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
static const char *const signames[] = {"SIGINT", "SIGTERM", "SIGHUP"};

/* args interrupted with signal sigs[k] after renames renames of set s; old:
 * an old set (OLD_TEXT) is there before, and args has --force. */
static void check_held_set(const char *what, const char *const *args, fileset *s, int renames, int k, int old)
{
    char label[200];
    snprintf(label, sizeof label, "%s, %s after rename %d", what, signames[k], renames);
    s->renamed = renames;
    int ok = 0;
    for (int hold = HOLD_US; hold <= 4 * HOLD_US && !ok; hold *= 4) {
        char inject[100];
        snprintf(inject, sizeof inject, "inject=rename:delay_exit=%d:when=%d", hold, renames);
        remove_set(s);
        if (old)
            write_old_set(s);
        ok = interrupt_held(inject, args, held_after_renames, s, sigs[k]);
    }
    CHECK_MSG(ok, "%s: not interrupted in the window", label);
    check_set(label, s, old);
    remove_set(s);
}

static void check_export_sets(void)
{
    fileset pair = {{"k.h", "k.cu"}, 2, 0};
    const char *const pargs[] = {"export", "--problem", PROB, "--db", "{W}/good.db", "-o", "{W}/k.cu", NULL};
    fileset fam = {{"f.h", "f.cu"}, 2, 0};
    const char *const fmargs[] = {"export", "--family", "conv1d", "--db", "{W}/good.db", "-o", "{W}/f.cu", NULL};
    for (int k = 0; k < 3; k++) {
        check_held_set("export", pargs, &pair, 1, k, 0);
        check_held_set("export --family", fmargs, &fam, 1, k, 0);
    }
    /* renamed in this order: the pair (header first), the binding, the module */
    fileset torch = {{PROB_BASE ".h", PROB_BASE ".cu", PROB_BASE "_binding.cpp", PROB_BASE ".py"}, 4, 0};
    const char *const targs[] = {"export", "--problem", PROB, "--db", "{W}/good.db", "--torch", "-o", "{W}", NULL};
    for (int renames = 1; renames <= 3; renames++)
        check_held_set("export --torch", targs, &torch, renames, renames - 1, 0);
    /* --force over an old set: the old one or the whole new one */
    const char *const fargs[] = {"export",  "--problem", PROB, "--db", "{W}/good.db", "--torch", "-o", "{W}",
                                 "--force", NULL};
    check_held_set("export --torch --force", fargs, &torch, 2, 1, 1);
    const char *const fpargs[] = {"export", "--problem", PROB, "--db", "{W}/good.db", "-o", "{W}/k.cu", "--force",
                                  NULL};
    check_held_set("export --force", fpargs, &pair, 1, 2, 1);

    /* A rename that fails half-way through (the third of four, then the
     * second): exit 7, one line, and the old set is back, each file
     * byte-identical; no temporary, no kept copy. */
    for (int when = 3; when >= 2; when--) {
        char inject[100], cmd[4096];
        snprintf(inject, sizeof inject, "inject=rename:error=EIO:when=%d", when);
        remove_set(&torch);
        write_old_set(&torch);
        char *argv[MAX_ARGS + 12];
        traced_argv(argv, inject, fargs);
        result r;
        run_argv(argv, &r);
        snprintf(cmd, sizeof cmd, "export --torch --force, rename %d failing", when);
        CHECK_MSG(r.code == 7, "%s: exit %d: %s", cmd, r.code, r.err);
        CHECK_MSG(tl_one_line(&r) && strstr(r.err, "convtune: export: cannot rename to ") &&
                      strstr(r.err, "Input/output error"),
                  "%s: stderr [%s]", cmd, r.err);
        CHECK_MSG(old_text_count(&torch) == torch.n, "%s: %d of the %d old files are back", cmd,
                  old_text_count(&torch), torch.n);
        CHECK_MSG(count_prefixed(work, ".convtune-") == 0, "%s: a temporary or kept copy was left", cmd);
        result_free(&r);
        free_traced(argv);
    }
    remove_set(&torch);
}

/* ------------------------------------------------------------------------ */
/* The compile cache                                                        */

static char cache_dir[700];

/* Entries of the cache named like temporaries: ".KEY.HOST.PID.tmpXXXXXX". */
static int cache_temporaries(void)
{
    DIR *d = opendir(cache_dir);
    int n = 0;
    struct dirent *de;
    while (d && (de = readdir(d)))
        n += de->d_name[0] == '.' && strstr(de->d_name, ".tmp") != NULL;
    if (d)
        closedir(d);
    return n;
}

static int held_in_cache_write(const void *arg)
{
    (void)arg;
    return cache_temporaries() > 0;
}

/* Every entry a whole ELF file (a CUBIN renamed into place complete). */
static int cache_entries_whole(int *n)
{
    DIR *d = opendir(cache_dir);
    int ok = d != NULL;
    struct dirent *de;
    *n = 0;
    while (d && (de = readdir(d)))
        if (strstr(de->d_name, ".cubin") && de->d_name[0] != '.') {
            char path[1200];
            size_t len = 0;
            snprintf(path, sizeof path, "%s/%s", cache_dir, de->d_name);
            char *data = tl_slurp(path, &len);
            ok &= data && len > 64 && !memcmp(data, "\177ELF", 4);
            free(data);
            ++*n;
        }
    if (d)
        closedir(d);
    return ok;
}

/* The name this host's convtune gives its cache temporaries (cache.c). */
static void cache_host(char *host, size_t len)
{
    host[0] = '\0';
    gethostname(host, len - 1);
    host[len - 1] = '\0';
    for (char *c = host; *c; c++)
        if (*c == '/' || *c == '.')
            *c = '_';
}

static void check_cache(void)
{
    wpath(cache_dir, sizeof cache_dir, "cache");
    char env_cache[800];
    snprintf(env_cache, sizeof env_cache, "CONVTUNE_CACHE=%s", cache_dir);
    run_env[0] = env_cache;
    /* A new problem each time, so that every run writes entries. */
    static const char *const probs[] = {"conv1d:15:4:right", "conv1d:16:4:right", "conv1d:17:4:right",
                                        "conv1d:18:4:right", "conv1d:19:4:right"};
    for (int k = 0; k < 3; k++) {
        char label[100];
        snprintf(label, sizeof label, "precompile, %s in a cache write", signames[k]);
        int ok = interrupt_held("inject=fsync:delay_enter=800000:when=1",
                                (const char *const[]){"precompile", "--problem", probs[k], "--arch", "sm_90",
                                                      "--template", "conv1d_naive", NULL},
                                held_in_cache_write, NULL, sigs[k]);
        CHECK_MSG(ok, "%s: not interrupted in the window", label);
        int n;
        CHECK_MSG(cache_temporaries() == 0, "%s: %d temporaries left in the cache", label, cache_temporaries());
        CHECK_MSG(cache_entries_whole(&n), "%s: an entry is not a whole CUBIN", label);
    }
    /* kill -9 cannot clean up: its temporaries stay until this host's next
     * write into the cache, which removes them; another host's (its process
     * may be alive) and a live process's stay. */
    int ok = interrupt_held("inject=fsync:delay_enter=800000:when=1",
                            (const char *const[]){"precompile", "--problem", probs[3], "--arch", "sm_90",
                                                  "--template", "conv1d_naive", NULL},
                            held_in_cache_write, NULL, SIGKILL);
    CHECK_MSG(ok, "precompile, SIGKILL in a cache write: not interrupted in the window");
    int left = cache_temporaries();
    CHECK_MSG(left > 0, "precompile, SIGKILL: no temporary left (expected the killed write's)");
    char host[64], other[1200], live[1200];
    cache_host(host, sizeof host);
    /* pid 2^22 + 1 is above any pid_max: no such process */
    snprintf(other, sizeof other, "%s/.0123456789abcdef0123456789abcdef.%sx.4194305.tmpABCDEF", cache_dir, host);
    snprintf(live, sizeof live, "%s/.0123456789abcdef0123456789abcdef.%s.%ld.tmpABCDEF", cache_dir, host,
             (long)getpid());
    CHECK(tl_write_text(other, "another host's\n") == 0);
    CHECK(tl_write_text(live, "a live process's\n") == 0);
    char cmd[4096];
    result r;
    run_ct((const char *const[]){"precompile", "--problem", probs[4], "--arch", "sm_90", "--template", "conv1d_naive",
                                 NULL},
           &r, cmd, sizeof cmd);
    CHECK_MSG(r.code == 0, "%s: exit %d: %s", cmd, r.code, r.err);
    result_free(&r);
    CHECK_MSG(cache_temporaries() == 2 && exists(other) && exists(live),
              "%s: %d temporaries in the cache, expected only another host's and a live process's (%d before)", cmd,
              cache_temporaries(), left + 2);
    int n;
    CHECK_MSG(cache_entries_whole(&n) && n >= 3, "%s: %d entries, not all whole", cmd, n);
    run_env[0] = NULL;
}

/* ------------------------------------------------------------------------ */

int main(void)
{
    if (!tl_which("strace", strace_bin, sizeof strace_bin)) {
        fprintf(stderr, "strace is not installed (scripts/setup-deps.sh installs it); this test needs it\n");
        CHECK_MSG(0, "strace found on PATH");
        CHECK_DONE();
    }
    if (cli_make_work() != 0)
        return cli_setup_failed();
    /* a copy of the fixture: a database with tuned results to export */
    char db[700];
    wpath(db, sizeof db, "good.db");
    size_t len = 0;
    char *fixture = tl_slurp(CT_SOURCE_DIR "/tests/fixtures/report.db", &len);
    if (!fixture || tl_write_file(db, fixture, len) != 0)
        return cli_setup_failed();
    free(fixture);
    /* ptrace must work here: strace on a plain run */
    result r;
    char *argv[MAX_ARGS + 12];
    traced_argv(argv, NULL, (const char *const[]){"--version", NULL});
    run_argv(argv, &r);
    free_traced(argv);
    CHECK_MSG(r.code == 0, "strace cannot trace convtune here (is ptrace allowed?): exit %d: %s", r.code, r.err);
    result_free(&r);
    if (ct_check_failures == 0) {
        check_export_sets();
        check_cache();
    }
    tl_rm_rf(base);
    CHECK_DONE();
}
