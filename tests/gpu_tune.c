/* gpu_tune.c - the whole pipeline on a GPU through the command line: small
 * problems of every mode and edge shape, then the headline problem of seed
 * 000 with the default space, export of its winner, and the exported
 * self-test built with nvcc and run. */
#include <math.h>

#include "db.h"
#include "gpu_common.h"

typedef struct stats {
    int ok, failed, total;
    ct_record best;
} stats;

static int count_cb(const ct_record *r, void *user)
{
    stats *s = user;
    s->total++;
    if (strcmp(r->status, "ok") == 0) {
        if (s->ok == 0 || r->median_us < s->best.median_us)
            s->best = *r;
        s->ok++;
    } else {
        s->failed++;
    }
    return 0;
}

static stats stored(const char *db, const char *problem)
{
    stats s = {0};
    ct_db *h;
    ct_err e;
    if (ct_db_open(db, 0, &h, &e) != CT_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return s;
    }
    ct_query q = {.problem = problem};
    ct_db_query(h, &q, count_cb, &s, &e);
    ct_db_close(h);
    return s;
}

int main(void)
{
    ct_gpu g;
    gpu_or_skip(&g);
    ct_gpu_close(&g);
    const char *dir = scratch_dir();
    char db[512];
    snprintf(db, sizeof db, "%s/t.db", dir);

    /* Edge shapes: K = 1, K = N, N prime, even K in same mode, the puzzles. */
    static const char *const small[][2] = {
        {"conv1d:1:1", "conv1d:1:1:valid"},
        {"conv1d:97:97", "conv1d:97:97:valid"},
        {"conv1d:10007:1", "conv1d:10007:1:valid"},
        {"conv1d:10007:64:same", "conv1d:10007:64:same"},
        {"conv1d:4099:33:right", "conv1d:4099:33:right"},
        {"conv1d:6:3:right", "conv1d:6:3:right"},
        {"conv1d:15:4:right", "conv1d:15:4:right"},
        {"conv1d:123457:5000", "conv1d:123457:5000:valid"},
    };
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        int rc = sh("%s --problem %s --db %s --max-candidates 48 --seed %zu", CT_BINARY, small[i][0], db, i + 1);
        CHECK_MSG(rc == 0, "tuning %s exited %d", small[i][0], rc);
        stats s = stored(db, small[i][1]);
        CHECK_MSG(s.ok > 0, "%s: no verified candidate", small[i][1]);
        CHECK_MSG(s.best.relerr >= 0 && s.best.relerr <= 1e-5, "%s: winner relerr %g", small[i][1], s.best.relerr);
        /* Every tuned candidate must be correct: a wrong one is a template bug. */
        CHECK_MSG(s.failed == 0, "%s: %d of %d candidates failed", small[i][1], s.failed, s.total);
        printf("%s: %d verified, best %.2f us (%s %s)\n", small[i][1], s.ok, s.best.median_us, s.best.tmpl,
               s.best.params);
    }

    /* The headline problem, default space and settings: done in minutes,
     * at least 50 verified candidates. */
    int rc = sh("%s --gpu 0 --problem conv1d:1e6:2047 --db %s", CT_BINARY, db);
    CHECK_MSG(rc == 0, "tuning conv1d:1e6:2047 exited %d", rc);
    stats s = stored(db, "conv1d:1000000:2047:valid");
    CHECK_MSG(s.ok >= 50, "only %d verified candidates", s.ok);
    CHECK(s.best.relerr <= 1e-5);
    printf("conv1d:1e6:2047: %d verified, %d failed, best %.2f us\n", s.ok, s.failed, s.best.median_us);

    char cu[600];
    snprintf(cu, sizeof cu, "%s/conv1d_1e6_2047.cu", dir);
    CHECK(sh("%s export --problem conv1d:1e6:2047 --db %s -o %s", CT_BINARY, db, cu) == 0);
    CHECK(sh("nvcc -arch=%s -c %s -o %s/k.o", g.arch, cu, dir) == 0);
    CHECK(sh("nvcc -arch=%s -DCONVTUNE_SELFTEST %s -o %s/selftest", g.arch, cu, dir) == 0);
    CHECK(sh("%s/selftest", dir) == 0);
    /* Also the export of a padded-mode problem, whose kernel is different. */
    snprintf(cu, sizeof cu, "%s/same.cu", dir);
    CHECK(sh("%s export --problem conv1d:10007:64:same --db %s -o %s", CT_BINARY, db, cu) == 0);
    CHECK(sh("nvcc -arch=%s -DCONVTUNE_SELFTEST %s -o %s/selftest2 && %s/selftest2", g.arch, cu, dir, dir) == 0);
    sh("rm -rf %s", dir);
    CHECK_DONE();
}
