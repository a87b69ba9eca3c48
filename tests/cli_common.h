/* cli_common.h - running the real convtune binary from a test: a scratch
 * directory that is HOME and XDG_DATA_HOME of the children, fork/exec with
 * captured stdout and stderr and a timeout, argument templates ({W} is the
 * scratch directory), and snapshots of a directory tree (names, sizes and
 * content hashes) to prove a failing command changed nothing.
 *
 * Include once per test, after defining CT_CLI_TEST_NAME (a word used in the
 * scratch directory's name) and including check.h and the system headers
 * test_cli.c lists. */
#ifndef CT_CLI_COMMON_H
#define CT_CLI_COMMON_H

#include <dlfcn.h>
#include <grp.h>
#include <sys/resource.h>

extern char **environ;

/* For helpers not every test that includes this header calls. */
#define CLI_UNUSED __attribute__((unused))

static char base[] = "/tmp/ct_test_" CT_CLI_TEST_NAME "_XXXXXX";
static char work[512];      /* cwd, HOME and XDG_DATA_HOME of the children */
static char cap_out[600], cap_err[600];
static char **child_env;

#define RUN_TIMEOUT_S 60

/* ------------------------------------------------------------------------ */
/* Files                                                                    */

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb; (void)flag; (void)ftw;
    return remove(path);
}

/* Whole file into a malloc'd NUL-terminated buffer; NULL if unreadable. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (cap - n < 4096) {
            char *nb = realloc(buf, cap = cap ? cap * 2 : 8192);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

static int write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int bad = fwrite(data, 1, len, f) != len;
    bad |= fclose(f) != 0;
    return bad ? -1 : 0;
}

static int exists(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
}

static uint64_t fnv(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* A snapshot of a directory tree: one line per entry with its kind, size
 * and a content hash, sorted, joined into one string. */
typedef struct strlist {
    char **v;
    int n, cap;
} strlist;

static void sl_add(strlist *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    l->v[l->n++] = strdup(s);
}

static void snap_dir(const char *root, const char *rel, strlist *l)
{
    char path[1024];
    snprintf(path, sizeof path, "%s%s%s", root, *rel ? "/" : "", rel);
    DIR *d = opendir(path);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char r[1024], full[2100], line[2200];
        snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
        snprintf(full, sizeof full, "%s/%s", root, r);
        struct stat sb;
        if (lstat(full, &sb) != 0)
            continue;
        if (S_ISDIR(sb.st_mode)) {
            snprintf(line, sizeof line, "d %s", r);
            sl_add(l, line);
            snap_dir(root, r, l);
        } else if (S_ISREG(sb.st_mode)) {
            size_t n = 0;
            char *data = slurp(full, &n);
            snprintf(line, sizeof line, "f %s %lld %016llx", r, (long long)sb.st_size,
                     data ? (unsigned long long)fnv((unsigned char *)data, n) : 0ULL);
            free(data);
            sl_add(l, line);
        } else {
            snprintf(line, sizeof line, "o %s %o", r, (unsigned)sb.st_mode);
            sl_add(l, line);
        }
    }
    closedir(d);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *snapshot(const char *root)
{
    strlist l = {0};
    snap_dir(root, "", &l);
    qsort(l.v, (size_t)l.n, sizeof *l.v, cmp_str);
    size_t total = 1;
    for (int i = 0; i < l.n; i++)
        total += strlen(l.v[i]) + 1;
    char *s = malloc(total), *o = s;
    *o = '\0';
    for (int i = 0; i < l.n; i++) {
        o += sprintf(o, "%s\n", l.v[i]);
        free(l.v[i]);
    }
    free(l.v);
    return s;
}

/* ------------------------------------------------------------------------ */
/* Running the binary                                                       */

typedef struct result {
    int code;             /* exit status, 128+signal, or -1 */
    char *out, *err;      /* captured stdout / stderr */
    size_t outlen, errlen;
} result;

static void result_free(result *r)
{
    free(r->out);
    free(r->err);
    memset(r, 0, sizeof *r);
}

static void build_env(void)
{
    int n = 0;
    while (environ[n])
        n++;
    child_env = calloc((size_t)n + 3, sizeof *child_env);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (!strncmp(environ[i], "CONVTUNE_DB=", 12) || !strncmp(environ[i], "HOME=", 5) ||
            !strncmp(environ[i], "XDG_DATA_HOME=", 14))
            continue;
        child_env[k++] = environ[i];
    }
    char buf[700];
    snprintf(buf, sizeof buf, "HOME=%s/home", work);
    child_env[k++] = strdup(buf);
    snprintf(buf, sizeof buf, "XDG_DATA_HOME=%s/xdg", work);
    child_env[k++] = strdup(buf);
    child_env[k] = NULL;
}

/* What the next runs add to the child: environment entries ("NAME=value",
 * NULL-terminated, replacing child_env's of the same name), a user id to
 * switch to (when >= 0; needs root) and a file size limit in bytes (when
 * > 0, with SIGXFSZ ignored so a write fails with EFBIG as on a full disk). */
static const char *run_env[4];
static long run_uid = -1;
static long run_fsize;

/* Run argv (argv[0] a path or a name looked up in PATH) in the work
 * directory, stdout and stderr into files outside it, stdin from /dev/null. */
static void run_argv(char *const *argv, result *r)
{
    memset(r, 0, sizeof *r);
    r->code = -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return;
    }
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY);
        int o = open(cap_out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int e = open(cap_err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (in < 0 || o < 0 || e < 0 || chdir(work) != 0)
            _exit(126);
        dup2(in, 0);
        dup2(o, 1);
        dup2(e, 2);
        close(in);
        close(o);
        close(e);
        char **envp = child_env;
        if (run_env[0]) {
            int n = 0, k = 0;
            while (child_env[n])
                n++;
            envp = calloc((size_t)n + 5, sizeof *envp);
            for (int i = 0; i < n; i++) {
                int replaced = 0;
                for (int j = 0; run_env[j]; j++)
                    replaced |= !strncmp(child_env[i], run_env[j], (size_t)(strchr(run_env[j], '=') - run_env[j] + 1));
                if (!replaced)
                    envp[k++] = child_env[i];
            }
            for (int j = 0; run_env[j]; j++)
                envp[k++] = (char *)run_env[j];
        }
        if (run_fsize > 0) {
            struct rlimit rl = {(rlim_t)run_fsize, (rlim_t)run_fsize};
            signal(SIGXFSZ, SIG_IGN);
            if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
                _exit(125);
        }
        if (run_uid >= 0 && (setgroups(0, NULL) != 0 || setgid((gid_t)run_uid) != 0 || setuid((uid_t)run_uid) != 0))
            _exit(125);
        execvpe(argv[0], argv, envp);
        _exit(127);
    }
    int status = 0;
    struct timespec t0, now, nap = {0, 2 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            perror("waitpid");
            return;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - t0.tv_sec > RUN_TIMEOUT_S) {
            fprintf(stderr, "timeout: killing %s (pid %d)\n", argv[0], (int)pid);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            r->code = -1;
            goto read;
        }
        nanosleep(&nap, NULL);
    }
    r->code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
read:
    r->out = slurp(cap_out, &r->outlen);
    r->err = slurp(cap_err, &r->errlen);
    if (!r->out)
        r->out = strdup("");
    if (!r->err)
        r->err = strdup("");
}

/* A file name longer than any path convtune accepts (1023 characters):
 * "{L}" in an argument. */
#define LONG_NAME_LEN 1100

/* Expand "{W}" in s to the work directory and "{L}" to LONG_NAME_LEN
 * letters (malloc'd). */
static char *expand(const char *s)
{
    size_t cap = strlen(s) + 1, wl = strlen(work);
    for (const char *p = s; (p = strstr(p, "{W}")); p += 3)
        cap += wl;
    for (const char *p = s; (p = strstr(p, "{L}")); p += 3)
        cap += LONG_NAME_LEN;
    char *out = malloc(cap), *o = out;
    while (*s) {
        if (!strncmp(s, "{W}", 3)) {
            memcpy(o, work, wl);
            o += wl;
            s += 3;
        } else if (!strncmp(s, "{L}", 3)) {
            memset(o, 'L', LONG_NAME_LEN);
            o += LONG_NAME_LEN;
            s += 3;
        } else {
            *o++ = *s++;
        }
    }
    *o = '\0';
    return out;
}

#define MAX_ARGS 24

/* Run convtune with the arguments args (NULL-terminated, "{W}" expanded). */
static void run_ct(const char *const *args, result *r, char *cmdline, size_t cmdlen)
{
    char *argv[MAX_ARGS + 2];
    int n = 0;
    argv[n++] = (char *)CT_BINARY;
    size_t o = (size_t)snprintf(cmdline, cmdlen, "convtune");
    for (int i = 0; args[i] && n <= MAX_ARGS; i++) {
        argv[n++] = expand(args[i]);
        if (o < cmdlen)
            o += (size_t)snprintf(cmdline + o, cmdlen - o, " '%s'", args[i]);
    }
    argv[n] = NULL;
    run_argv(argv, r);
    for (int i = 1; i < n; i++)
        free(argv[i]);
}

static int count_char(const char *s, size_t n, char c)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i] == c;
    return k;
}

/* ------------------------------------------------------------------------ */
/* The work directory and a database to work on                             */

/* base (mkdtemp), its work directory with home and xdg in it, the capture
 * files and the children's environment; -1 on failure. */
static CLI_UNUSED int cli_make_work(void)
{
    if (!mkdtemp(base)) {
        perror("mkdtemp");
        return -1;
    }
    snprintf(work, sizeof work, "%s/work", base);
    snprintf(cap_out, sizeof cap_out, "%s/stdout.txt", base);
    snprintf(cap_err, sizeof cap_err, "%s/stderr.txt", base);
    char path[700];
    if (mkdir(work, 0700) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/home", work);
    if (mkdir(path, 0700) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/xdg", work);
    if (mkdir(path, 0700) != 0)
        return -1;
    build_env();
    return 0;
}

/* main's way out when setup failed: say so, remove what was made, exit 1. */
static CLI_UNUSED int cli_setup_failed(void)
{
    fprintf(stderr, "setup failed\n");
    if (base[strlen(base) - 1] != 'X')
        nftw(base, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return 1;
}

static CLI_UNUSED int wpath(char *buf, size_t len, const char *name)
{
    return snprintf(buf, len, "%s/%s", work, name) < (int)len ? 0 : -1;
}

/* A convtune database in the work directory with n compile_failed
 * candidates of conv1d_naive (BLOCK_SIZE 32, 64, ...: each a valid record)
 * with long error texts, through the API. */
static CLI_UNUSED int make_db(const char *name, int n)
{
    char path[700];
    ct_db *db = NULL;
    ct_err e = {""};
    ct_device_info d = {.name = "NVIDIA CLI Check GPU", .cc_major = 9, .sm_count = 132,
                        .driver_version = 13000, .nvrtc_major = 13};
    long long dev, prob, run;
    wpath(path, sizeof path, name);
    int ok = ct_db_open(path, 1, &db, &e) == CT_OK && ct_db_device_upsert(db, &d, &dev, &e) == CT_OK &&
             ct_db_problem_upsert(db, "conv1d", "conv1d:4096:31:valid", 2.5e5, 3.3e4, &prob, &e) == CT_OK &&
             ct_db_run_begin(db, prob, dev, NULL, &run, &e) == CT_OK;
    for (int i = 0; ok && i < n; i++) {
        ct_result r;
        ct_result_init(&r);
        snprintf(r.tmpl, sizeof r.tmpl, "conv1d_naive");
        snprintf(r.params_json, sizeof r.params_json, "{\"BLOCK_SIZE\":%d}", 32 * (i + 1));
        r.status = CT_RS_COMPILE_FAILED;
        for (size_t k = 0; k + 1 < sizeof r.error; k++)
            r.error[k] = (char)('a' + (i + (int)k) % 26);
        r.relerr = -1;
        ok = ct_db_candidate_add(db, run, &r, &e) == CT_OK;
    }
    CHECK_MSG(ok, "filling %s: %s", path, e.msg);
    ct_db_close(db);
    return ok ? 0 : -1;
}

/* ------------------------------------------------------------------------ */
/* Bad input                                                                */

/* Whether this process can load the driver library (then the rows that
 * expect "no NVIDIA driver" cannot be checked). */
static CLI_UNUSED int driver_loadable(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW);
    if (h) {
        dlclose(h);
        return 1;
    }
    return 0;
}

/* A command that must be refused: its exit code and a substring of the one
 * line on stderr ("{W}" expanded). */
typedef struct bad_row {
    const char *args[MAX_ARGS];
    int code;
    const char *want;
} bad_row;

/* Run one bad row: the exit code, exactly one stderr line with the
 * "convtune: " prefix naming the problem, nothing on stdout, and the work
 * directory unchanged (names, sizes, contents). */
static CLI_UNUSED void check_bad(const bad_row *rw)
{
    char cmd[4096];
    char *before = snapshot(work);
    result r;
    run_ct(rw->args, &r, cmd, sizeof cmd);
    char *after = snapshot(work);
    char *want = expand(rw->want);
    CHECK_MSG(r.code == rw->code, "%s: exit %d, expected %d; stderr: %s", cmd, r.code, rw->code, r.err);
    CHECK_MSG(r.errlen > 1 && count_char(r.err, r.errlen, '\n') == 1 && r.err[r.errlen - 1] == '\n',
              "%s: stderr is not exactly one line: [%s]", cmd, r.err);
    CHECK_MSG(strstr(r.err, want) != NULL, "%s: stderr [%s] lacks [%s]", cmd, r.err, want);
    CHECK_MSG(!strncmp(r.err, "convtune: ", 10), "%s: stderr [%s] lacks the 'convtune: ' prefix", cmd, r.err);
    CHECK_MSG(r.outlen == 0, "%s: stdout not empty: [%s]", cmd, r.out);
    CHECK_MSG(!strcmp(before, after), "%s: the directory changed:\n--- before\n%s--- after\n%s", cmd, before,
              after);
    free(want);
    free(before);
    free(after);
    result_free(&r);
}

#endif
