/* test_cache.c - the binary cache (cache.c) under many concurrent writers,
 * as precompile shards on several hosts write one shared cache:
 *
 *   concurrency  16 processes write, at once and many times over, the same
 *                entries (each writer its own content, of its own length)
 *                and entries of their own, while 4 others read: a reader
 *                never sees a partial or mixed entry, every entry ends
 *                complete, and no temporary is left behind
 *   failure      a write that fails (the file size limit) leaves neither an
 *                entry nor a temporary, and put says so
 *   damage       a truncated or foreign entry reads as a miss
 * No GPU, no NVRTC: the entries are ELF64 images made here. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache.h"
#include "check.h"

#define WRITERS 16
#define READERS 4
#define ROUNDS 40
#define SHARED_KEYS 4

static char base[] = "/tmp/ct_test_cache_XXXXXX";

/* An ELF64 image of n bytes (n >= 128) whose section header table ends the
 * file, filled with a pattern of (writer, key) and its length: any mixture
 * of two writes, or a cut, breaks the pattern or the header. */
static void make_image(unsigned char *d, size_t n, int writer, int key)
{
    memset(d, 0, 64);
    memcpy(d, "\177ELF", 4);
    d[4] = 2;
    d[5] = 1;
    unsigned long long shoff = n - 64;
    for (int i = 0; i < 8; i++)
        d[0x28 + i] = (unsigned char)(shoff >> (8 * i));
    d[0x3A] = 64;   /* one section header of 64 bytes */
    d[0x3C] = 1;
    for (size_t i = 64; i < n; i++)
        d[i] = (unsigned char)(writer * 31 + key * 7 + i * 13 + n);
}

/* 1 when b is a whole image make_image wrote, for some writer. */
static int whole_image(const ct_binary *b, int key)
{
    if (!b->is_cubin || b->size < 128)
        return 0;
    unsigned char *want = malloc(b->size);
    int ok = 0;
    for (int w = 0; w < WRITERS && !ok; w++) {
        make_image(want, b->size, w, key);
        ok = memcmp(want, b->data, b->size) == 0;
    }
    free(want);
    return ok;
}

static size_t size_of(int writer, int key)
{
    return 128 + (size_t)(writer * 997 + key * 4093) % 60000;
}

static void shared_key(int k, char key[33])
{
    snprintf(key, 33, "%032x", 0xC0FFEE + k);
}

static int writer(const char *dir, int w)
{
    unsigned char *d = malloc(70000);
    int bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
        for (int k = 0; k < SHARED_KEYS; k++) {
            char key[33];
            shared_key(k, key);
            size_t n = size_of(w, k);
            make_image(d, n, w, k);
            ct_binary b = {.data = (char *)d, .size = n, .is_cubin = 1};
            bad += ct_cache_put(dir, key, &b) != 0;
        }
        char own[33];
        snprintf(own, sizeof own, "%016x%016x", w + 1, r);
        size_t n = size_of(w, 100 + r);
        make_image(d, n, w, 100 + r);
        ct_binary b = {.data = (char *)d, .size = n, .is_cubin = 1};
        bad += ct_cache_put(dir, own, &b) != 0;
    }
    free(d);
    return bad ? 1 : 0;
}

static int reader(const char *dir)
{
    int bad = 0, hits = 0;
    for (int r = 0; r < ROUNDS * 20; r++) {
        char key[33];
        int k = r % SHARED_KEYS;
        shared_key(k, key);
        ct_binary b;
        if (ct_cache_get(dir, key, &b)) {
            hits++;
            if (!whole_image(&b, k)) {
                fprintf(stderr, "reader: a partial or mixed entry %s (%zu bytes)\n", key, b.size);
                bad++;
            }
            free(b.data);
        }
    }
    return bad ? 1 : hits == 0 ? 2 : 0;
}

/* Files in dir whose name starts with a dot (the temporaries). */
static int temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *x; d && (x = readdir(d));)
        n += x->d_name[0] == '.' && strcmp(x->d_name, ".") && strcmp(x->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

static void concurrency(const char *dir)
{
    /* Seed the shared entries, so readers have something from the start. */
    CHECK(writer(dir, 0) == 0);
    pid_t pids[WRITERS + READERS];
    for (int i = 0; i < WRITERS + READERS; i++) {
        pids[i] = fork();
        if (pids[i] == 0)
            _exit(i < WRITERS ? writer(dir, i) : reader(dir));
    }
    for (int i = 0; i < WRITERS + READERS; i++) {
        int st = 0;
        CHECK(waitpid(pids[i], &st, 0) == pids[i]);
        CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s %d ended with status %d",
                  i < WRITERS ? "writer" : "reader", i, st);
    }
    for (int k = 0; k < SHARED_KEYS; k++) {
        char key[33];
        shared_key(k, key);
        ct_binary b;
        CHECK(ct_cache_get(dir, key, &b) && whole_image(&b, k));
        free(b.data);
    }
    for (int w = 0; w < WRITERS; w++)
        for (int r = 0; r < ROUNDS; r += 7) {
            char own[33];
            snprintf(own, sizeof own, "%016x%016x", w + 1, r);
            ct_binary b;
            CHECK_MSG(ct_cache_get(dir, own, &b) && whole_image(&b, 100 + r), "entry of writer %d round %d", w, r);
            free(b.data);
        }
    CHECK_MSG(temporaries(dir) == 0, "%d temporaries left in %s", temporaries(dir), dir);
}

static void failure(const char *dir)
{
    /* A child with a file size limit below the entry: the write fails. */
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {.rlim_cur = 4096, .rlim_max = 4096};
        setrlimit(RLIMIT_FSIZE, &rl);
        unsigned char *d = malloc(50000);
        make_image(d, 50000, 3, 9);
        ct_binary b = {.data = (char *)d, .size = 50000, .is_cubin = 1};
        _exit(ct_cache_put(dir, "0123456789abcdef0123456789abcdef", &b) == -1 ? 0 : 1);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "put over the size limit did not fail (%d)", st);
    ct_binary b;
    CHECK(!ct_cache_get(dir, "0123456789abcdef0123456789abcdef", &b));
    CHECK(temporaries(dir) == 0);
    /* A folder that cannot be created: a file is in the way. */
    char blocked[600];
    snprintf(blocked, sizeof blocked, "%s/file", base);
    FILE *f = fopen(blocked, "w");
    CHECK(f && fclose(f) == 0);
    strcat(blocked, "/cache");
    unsigned char d[256];
    make_image(d, sizeof d, 1, 1);
    ct_binary small = {.data = (char *)d, .size = sizeof d, .is_cubin = 1};
    CHECK(ct_cache_put(blocked, "0123456789abcdef0123456789abcdef", &small) == -1);
    /* PTX is never cached. */
    ct_binary ptx = {.data = (char *)"// ptx", .size = 6, .is_cubin = 0};
    CHECK(ct_cache_put(dir, "00000000000000000000000000000001", &ptx) == -1);
}

static void damage(const char *dir)
{
    unsigned char d[4096];
    make_image(d, sizeof d, 2, 2);
    ct_binary b = {.data = (char *)d, .size = sizeof d, .is_cubin = 1};
    const char *key = "feedfacefeedfacefeedfacefeedface";
    CHECK(ct_cache_put(dir, key, &b) == 0);
    ct_binary got;
    CHECK(ct_cache_get(dir, key, &got) && got.size == sizeof d);
    free(got.data);
    char path[700];
    snprintf(path, sizeof path, "%s/%s.cubin", dir, key);
    CHECK(truncate(path, sizeof d - 1) == 0);   /* its section headers cut */
    CHECK(!ct_cache_get(dir, key, &got));
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite("#!/bin/sh\n", 1, 10, f) == 10 && fclose(f) == 0);
    CHECK(!ct_cache_get(dir, key, &got));
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

int main(void)
{
    if (!mkdtemp(base)) {
        perror("mkdtemp");
        return 1;
    }
    char dir[600];
    snprintf(dir, sizeof dir, "%s/shared/cubin", base);   /* created by the first put */
    concurrency(dir);
    failure(dir);
    damage(dir);
    nftw(base, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    CHECK_DONE();
}
