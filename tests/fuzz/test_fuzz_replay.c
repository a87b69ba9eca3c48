/* test_fuzz_replay.c - replays the fuzzing inputs in every build (no clang,
 * no libFuzzer): each file of tests/fuzz/regressions/ (inputs that once
 * crashed a fuzz target or broke an invariant) and of the two seed corpora
 * goes through both entry points, ct_problem_parse and ct_config_apply_text,
 * and must satisfy the invariants of tests/fuzz/fuzz_invariants.h, the same
 * ones the fuzz targets check. An empty or absent regressions directory is
 * fine; the seed corpora must be there. No GPU. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "check.h"
#include "fuzz_invariants.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#define FUZZ_DIR CT_SOURCE_DIR "/tests/fuzz"

static ct_config base;

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whole file into a malloc'd buffer; NULL if unreadable. */
static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (cap - n < 4096) {
            uint8_t *nb = realloc(buf, cap = cap ? cap * 2 : 8192);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* Replay every regular file of dir (in name order); returns how many, or -1
 * when the directory cannot be opened. */
static int replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    char **names = NULL;
    int n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, (size_t)cap * sizeof *names);
            if (!nn)
                abort();
            names = nn;
        }
        names[n++] = strdup(de->d_name);
    }
    closedir(d);
    if (n > 1)
        qsort(names, (size_t)n, sizeof *names, cmp_name);
    int files = 0;
    for (int i = 0; i < n; i++) {
        char path[1024];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        free(names[i]);
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
            continue;
        size_t len = 0;
        uint8_t *data = slurp(path, &len);
        CHECK_MSG(data != NULL, "cannot read %s", path);
        if (!data)
            continue;
        const char *why = ct_fuzz_check_problem(data, len);
        CHECK_MSG(why == NULL, "%s as a problem string: %s", path, why);
        why = ct_fuzz_check_config(&base, data, len);
        CHECK_MSG(why == NULL, "%s as INI text: %s", path, why);
        free(data);
        files++;
    }
    free(names);
    return files;
}

int main(void)
{
    ct_err e;
    ct_status rc = ct_config_init(&base, &e);
    CHECK_MSG(rc == CT_OK, "ct_config_init: %s", e.msg);
    if (rc != CT_OK)
        CHECK_DONE();

    int np = replay_dir(FUZZ_DIR "/corpus_problem");
    int nc = replay_dir(FUZZ_DIR "/corpus_config");
    CHECK_MSG(np >= 10, "seed corpus corpus_problem: %d files", np);
    CHECK_MSG(nc >= 10, "seed corpus corpus_config: %d files", nc);
    int nr = replay_dir(FUZZ_DIR "/regressions");
    if (nr < 0 && errno != ENOENT)
        CHECK_MSG(0, "cannot read " FUZZ_DIR "/regressions: %s", strerror(errno));
    printf("replayed %d problem seeds, %d config seeds, %d regression inputs\n", np, nc,
           nr < 0 ? 0 : nr);

    /* The invariants themselves catch what they are meant to. */
    static ct_config broken;
    memcpy(&broken, &base, sizeof broken);
    broken.s.max_reps = broken.s.min_reps - 1;
    CHECK(ct_fuzz_check_settings(&broken) != NULL);
    CHECK(ct_fuzz_check_problem_text("conv1d:1e6:2047") == NULL);
    CHECK(ct_fuzz_check_config_text(&base, "[tune]\njobs = 3\n") == NULL);
    CHECK_DONE();
}
