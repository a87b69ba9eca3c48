/* files.c - see files.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "files.h"

#include <dirent.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

char *tl_slurp(const char *path, size_t *len)
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

int tl_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int bad = fwrite(data, 1, len, f) != len;
    bad |= fclose(f) != 0;
    return bad ? -1 : 0;
}

int tl_write_text(const char *path, const char *text)
{
    return tl_write_file(path, text, strlen(text));
}

int tl_exists(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
}

int tl_same_bytes(const char *path, const char *want, size_t len)
{
    size_t n = 0;
    char *got = tl_slurp(path, &n);
    int same = got && want && n == len && memcmp(got, want, n) == 0;
    free(got);
    return same;
}

int tl_count_prefixed(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *de;
    if (!d)
        return -1;
    while ((de = readdir(d)))
        n += strncmp(de->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

int tl_count_suffixed(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    int n = 0;
    const size_t ls = strlen(suffix);
    struct dirent *de;
    if (!d)
        return -1;
    while ((de = readdir(d))) {
        const size_t l = strlen(de->d_name);
        n += l >= ls && strcmp(de->d_name + l - ls, suffix) == 0;
    }
    closedir(d);
    return n;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void tl_rm_rf(const char *path)
{
    nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int tl_which(const char *prog, char *buf, size_t len)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char *copy = strdup(path), *save = NULL;
    int found = 0;
    for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        snprintf(buf, len, "%s/%s", *dir ? dir : ".", prog);
        found = access(buf, X_OK) == 0;
    }
    free(copy);
    return found;
}

/* A file's fingerprint for the snapshots: eight bytes a step (a byte a
 * step made hashing the tests' databases, before and after each command,
 * half the CPU time of the CLI tests), every byte and the length mixed in. */
static uint64_t fnv(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    for (; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* The fingerprint of a file's bytes, 0 where it cannot be read. Mapped,
 * not read: the snapshots hash the tests' databases before and after each
 * command, and copying them in was most of those tests' system time. */
static uint64_t file_hash(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    struct stat sb;
    uint64_t h = 0;
    if (fstat(fd, &sb) != 0)
        h = 0;
    else if (sb.st_size == 0)
        h = fnv(NULL, 0);
    else {
        void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m != MAP_FAILED) {
            h = fnv(m, (size_t)sb.st_size);
            munmap(m, (size_t)sb.st_size);
        }
    }
    close(fd);
    return h;
}

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
            snprintf(line, sizeof line, "f %s %lld %016llx", r, (long long)sb.st_size,
                     (unsigned long long)file_hash(full));
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

char *tl_snapshot(const char *root)
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
