/* cache.c - the on-disk cache of compiled candidates. */
#include "cache.h"
#include "text.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* Two independent 64-bit FNV-1a streams make a 128-bit key. */
typedef struct hash2 {
    unsigned long long a, b;
} hash2;

static void mix(hash2 *h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h->a = (h->a ^ p[i]) * 1099511628211ULL;
        h->b = (h->b ^ p[i]) * 0x100000001b3ULL + 0x9E3779B97F4A7C15ULL;
    }
    unsigned char sep = 0xFF;   /* fields cannot run into each other */
    h->a = (h->a ^ sep) * 1099511628211ULL;
    h->b = (h->b ^ sep) * 0x100000001b3ULL;
}

void ct_cache_key(const char *src, const char *name, const char *arch, const ct_define *defs, int ndefs,
                  const ct_params *params, int nvrtc_version, char key[33])
{
    hash2 h = {1469598103934665603ULL, 0x6C62272E07BB0142ULL};
    mix(&h, src, strlen(src));
    mix(&h, name, strlen(name));
    mix(&h, arch, strlen(arch));
    for (int i = 0; i < ndefs; i++) {
        mix(&h, defs[i].name, strlen(defs[i].name));
        mix(&h, &defs[i].value, sizeof defs[i].value);
    }
    for (int i = 0; params && i < params->n; i++) {
        mix(&h, params->names[i], strlen(params->names[i]));
        long long v = params->values[i];
        mix(&h, &v, sizeof v);
    }
    mix(&h, &nvrtc_version, sizeof nvrtc_version);
    snprintf(key, 33, "%016llx%016llx", h.a, h.b);
}

static int mkdirs(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

ct_status ct_cache_default_dir(char *buf, size_t len, ct_err *e)
{
    const char *env = getenv("CONVTUNE_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (env && *env)
        return ct_path_copy(buf, len, env, "CONVTUNE_CACHE", CT_ERR_USAGE, e);
    if (xdg && xdg[0] == '/')
        return ct_path_join(buf, len, xdg, "/convtune/cubin", "XDG_CACHE_HOME", CT_ERR_USAGE, e);
    if (home && *home)
        return ct_path_join(buf, len, home, "/.cache/convtune/cubin", "HOME", CT_ERR_USAGE, e);
    return ct_fail(e, CT_ERR_IO, "no cache directory: set CONVTUNE_CACHE, XDG_CACHE_HOME or HOME");
}

/* A whole ELF64 image: its section header table lies inside the bytes read.
 * Entries are renamed into place only when complete, but a file cut short
 * by a crash of the filesystem's host (written, never synced) must still
 * read as a miss, not as a binary the driver rejects later. */
static int whole_elf(const unsigned char *d, size_t n)
{
    if (n < 64 || memcmp(d, "\177ELF", 4) != 0 || d[4] != 2 /* ELFCLASS64 */ || d[5] != 1 /* little-endian */)
        return 0;
    unsigned long long shoff = 0;
    for (int i = 7; i >= 0; i--)
        shoff = shoff << 8 | d[0x28 + i];
    unsigned shentsize = d[0x3A] | (unsigned)d[0x3B] << 8, shnum = d[0x3C] | (unsigned)d[0x3D] << 8;
    return shoff <= n && (unsigned long long)shentsize * shnum <= n - shoff;
}

int ct_cache_get(const char *dir, const char *key, ct_binary *out)
{
    char path[1200];
    if (!*dir)
        return 0;       /* "" is no folder, not the root */
    snprintf(path, sizeof path, "%s/%s.cubin", dir, key);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    memset(out, 0, sizeof *out);
    int ok = fseek(f, 0, SEEK_END) == 0;
    long n = ok ? ftell(f) : -1;
    if (n > 4 && fseek(f, 0, SEEK_SET) == 0 && (out->data = malloc((size_t)n)) &&
        fread(out->data, 1, (size_t)n, f) == (size_t)n && whole_elf((unsigned char *)out->data, (size_t)n)) {
        out->size = (size_t)n;
        out->is_cubin = 1;
        fclose(f);
        return 1;
    }
    fclose(f);
    free(out->data);
    memset(out, 0, sizeof *out);
    return 0;
}

/* This host's name as cache temporaries carry it ('/' and '.' made '_',
 * so that the name's fields stay apart). */
static void host_name(char *host, size_t len)
{
    host[0] = '\0';
    gethostname(host, len - 1);
    host[len - 1] = '\0';
    for (char *c = host; *c; c++)
        if (*c == '/' || *c == '.')
            *c = '_';
}

/* The pid of a cache temporary of this host (user), named
 * ".KEY.HOST.PID." CT_CACHE_TMP_TAG "XXXXXX"; 0 for any other name, and for
 * another host's: its pids are not this host's to test, and its writer may
 * be alive on a filesystem shared over the network. */
static long cache_tmp_pid(const char *n, void *user)
{
    const char *host = user;
    const size_t len = strlen(n), tag = strlen("." CT_CACHE_TMP_TAG), hl = strlen(host);
    if (len < 1 + 32 + 1 + hl + 1 + 1 + tag + 6 || n[0] != '.' || n[33] != '.')
        return 0;
    for (int i = 1; i <= 32; i++)
        if (!isxdigit((unsigned char)n[i]))
            return 0;
    const char *t = n + len - 6 - tag, *p = t;
    if (strncmp(t, "." CT_CACHE_TMP_TAG, tag) != 0)
        return 0;
    while (p > n + 34 && isdigit((unsigned char)p[-1]))
        p--;
    if (p == t || p[-1] != '.' || (size_t)(p - 1 - (n + 34)) != hl || strncmp(n + 34, host, hl) != 0)
        return 0;
    return strtol(p, NULL, 10);
}

/* Sweep dir for this host's temporaries of dead processes (a cache write
 * killed with SIGKILL, or a crash) once per process and directory: a
 * precompile writes thousands of entries, and reading a large folder over
 * NFS for each would cost more than the compile. */
static void sweep_once(const char *dir, const char *host)
{
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    static char swept[1200];
    pthread_mutex_lock(&mu);
    if (strcmp(swept, dir) != 0) {
        ct_tmp_sweep(dir, cache_tmp_pid, (void *)host);
        snprintf(swept, sizeof swept, "%s", dir);
    }
    pthread_mutex_unlock(&mu);
}

/* Many processes on many hosts may write one cache over a shared
 * filesystem (precompile shards, several tuning runs): each writes its own
 * temporary, named by host, pid and a random suffix, syncs it and renames
 * it over the entry. rename() is atomic on POSIX filesystems and NFS alike,
 * so a reader sees the old entry, the new one or none, never a mixture; two
 * writers of one key write the same bytes, so either may win. The
 * temporary is removed on SIGINT, SIGTERM, SIGHUP and SIGPIPE (outfile.h's
 * clean-up: a cancelled Slurm array must not litter a shared cache), and
 * after SIGKILL by this host's next process that writes into the folder. */
/* The end of a put: the temporary tmp, written whole where ok, made a
 * plain file readable by the other users of a shared cache and renamed to
 * path, else removed; 0 when in place. */
static int publish(const char *tmp, const char *path, int ok)
{
    ok = ok && chmod(tmp, 0644) == 0;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        ct_tmp_forget(tmp);
        return -1;
    }
    ct_tmp_forget(tmp);
    return 0;
}

int ct_cache_put(const char *dir, const char *key, const ct_binary *b)
{
    if (!b->is_cubin || !b->data || !*dir || mkdirs(dir) != 0)
        return -1;
    char tmp[1200], path[1200], host[64];
    host_name(host, sizeof host);
    sweep_once(dir, host);
    snprintf(tmp, sizeof tmp, "%s/.%s.%s.%ld." CT_CACHE_TMP_TAG "XXXXXX", dir, key, host, (long)getpid());
    snprintf(path, sizeof path, "%s/%s.cubin", dir, key);
    int fd = ct_tmp_create(tmp);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(tmp);
        ct_tmp_forget(tmp);
        return -1;
    }
    int ok = fwrite(b->data, 1, b->size, f) == b->size;
    ok &= fflush(f) == 0;
    ok &= fsync(fd) == 0;
    ok &= fclose(f) == 0;
    return publish(tmp, path, ok);
}

int ct_cache_has_mark(const char *dir, const char *key, const char *tag)
{
    char path[1200];
    if (!*dir)
        return 0;
    snprintf(path, sizeof path, "%s/%s.%s", dir, key, tag);
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int ct_cache_put_mark(const char *dir, const char *key, const char *tag)
{
    if (!*dir || mkdirs(dir) != 0)
        return -1;
    char tmp[1200], path[1200], host[64];
    host_name(host, sizeof host);
    sweep_once(dir, host);
    snprintf(tmp, sizeof tmp, "%s/.%s.%s.%ld." CT_CACHE_TMP_TAG "XXXXXX", dir, key, host, (long)getpid());
    snprintf(path, sizeof path, "%s/%s.%s", dir, key, tag);
    int fd = ct_tmp_create(tmp);
    if (fd < 0)
        return -1;
    int ok = fsync(fd) == 0;
    ok &= close(fd) == 0;
    return publish(tmp, path, ok);
}
