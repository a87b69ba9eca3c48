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

extern char **environ;

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
        execvpe(argv[0], argv, child_env);
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

/* Expand "{W}" in s to the work directory (malloc'd). */
static char *expand(const char *s)
{
    size_t cap = strlen(s) + 1, wl = strlen(work);
    for (const char *p = s; (p = strstr(p, "{W}")); p += 3)
        cap += wl;
    char *out = malloc(cap), *o = out;
    while (*s) {
        if (!strncmp(s, "{W}", 3)) {
            memcpy(o, work, wl);
            o += wl;
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

#endif
