/* gpu_tune.c - the whole pipeline on a GPU through the command line: small
 * problems of every mode and edge shape, then the headline problem of seed
 * 000 with the default space, export of its winner, and the exported
 * self-test built with nvcc and run. */
#include <math.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "gpu_common.h"

typedef struct stats {
    int ok, failed, total;
    ct_result best;
} stats;

static int count_cb(const ct_result *r, void *user)
{
    stats *s = user;
    s->total++;
    if (r->status == CT_RS_OK) {
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

/* Keys (template and parameters) of the stored candidates of a problem:
 * the count, and how many keys appear more than once. */
typedef struct keys {
    char (*k)[600];
    int n, cap;
} keys;

static int key_cb(const ct_result *r, void *user)
{
    keys *k = user;
    if (k->n == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 256;
        k->k = realloc(k->k, (size_t)k->cap * sizeof *k->k);
    }
    snprintf(k->k[k->n++], 600, "%s %s", r->tmpl, r->params_json);
    return 0;
}

static int cmp_key(const void *a, const void *b)
{
    return strcmp(a, b);
}

static int stored_keys(const char *db, const char *problem, int *dups)
{
    keys k = {0};
    ct_db *h;
    ct_err e;
    *dups = 0;
    if (ct_db_open(db, 0, &h, &e) != CT_OK)
        return 0;
    ct_query q = {.problem = problem};
    ct_db_query(h, &q, key_cb, &k, &e);
    ct_db_close(h);
    qsort(k.k, (size_t)k.n, sizeof *k.k, cmp_key);
    for (int i = 1; i < k.n; i++)
        *dups += strcmp(k.k[i], k.k[i - 1]) == 0;
    free(k.k);
    return k.n;
}

/* kill -9 a tuning run once it has stored some candidates, then run the same
 * command again: it resumes, measures nothing twice, and finishes. */
static void kill_and_resume(const char *db)
{
    const char *problem = "conv1d:1000000:2047:valid";
    pid_t pid = fork();
    if (pid == 0) {
        freopen("/dev/null", "w", stdout);
        execl(CT_BINARY, CT_BINARY, "--problem", "conv1d:1e6:2047:valid", "--db", db, "--budget", "150",
              "--seed", "77", "--strategy", "random", "--no-cache", (char *)NULL);
        _exit(127);
    }
    int dups, before = 0;
    for (int i = 0; i < 600 && before < 25; i++) {   /* up to 60 s */
        struct timespec ts = {0, 100000000};
        nanosleep(&ts, NULL);
        before = stored_keys(db, problem, &dups);
    }
    kill(pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    CHECK_MSG(WIFSIGNALED(st), "the tuning run finished before it could be killed");
    int killed_at = stored_keys(db, problem, &dups);
    printf("killed with %d candidates stored\n", killed_at);
    CHECK(killed_at >= 25 && killed_at < 150 && dups == 0);
    int rc = sh("%s --problem conv1d:1e6:2047:valid --db %s --budget 150 --seed 77 --strategy random --no-cache",
                CT_BINARY, db);
    CHECK(rc == 0);
    int after = stored_keys(db, problem, &dups);
    printf("after the resumed run: %d candidates stored, %d measured twice\n", after, dups);
    CHECK_MSG(after == 150 && dups == 0, "resume stored %d (expected 150), %d twice", after, dups);
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
               s.best.params_json);
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
    CHECK(sh("head -40 %s | grep -E '^// (template|params|measured|needs)'", cu) == 0);
    /* An FFT winner names the library it needs ("link with -lcufft"). */
    CHECK(sh("nvcc -arch=%s -DCONVTUNE_SELFTEST %s -o %s/selftest $(grep -o 'link with -l[a-z0-9]*' %s | head -1 | "
             "cut -c11-)", g.arch, cu, dir, cu) == 0);
    CHECK(sh("%s/selftest", dir) == 0);
    /* Also the export of a padded-mode problem, whose kernel is different. */
    snprintf(cu, sizeof cu, "%s/same.cu", dir);
    CHECK(sh("%s export --problem conv1d:10007:64:same --db %s -o %s", CT_BINARY, db, cu) == 0);
    CHECK(sh("nvcc -arch=%s -DCONVTUNE_SELFTEST %s -o %s/selftest2 $(grep -o 'link with -l[a-z0-9]*' %s | head -1 | "
             "cut -c11-) && %s/selftest2", g.arch, cu, dir, cu, dir) == 0);

    /* Resume after kill -9, in a database of its own. */
    char db2[512];
    snprintf(db2, sizeof db2, "%s/kill.db", dir);
    kill_and_resume(db2);

    /* The same random sample again reuses everything; a larger one measures
     * only what is new; --fresh measures again. */
    int dups, n1;
    CHECK(sh("%s --problem conv1d:4099:33:right --db %s --budget 40 --seed 9 --strategy random", CT_BINARY, db) == 0);
    n1 = stored_keys(db, "conv1d:4099:33:right", &dups);
    CHECK(dups == 0);
    CHECK(sh("%s --problem conv1d:4099:33:right --db %s --budget 40 --seed 9 --strategy random", CT_BINARY, db) == 0);
    CHECK_MSG(stored_keys(db, "conv1d:4099:33:right", &dups) == n1 && dups == 0,
              "a repeated run measured something again");
    CHECK(sh("%s --problem conv1d:4099:33:right --db %s --budget 80 --seed 9 --strategy random", CT_BINARY, db) == 0);
    CHECK_MSG(stored_keys(db, "conv1d:4099:33:right", &dups) > n1 && dups == 0, "a larger run measured twice");
    n1 = stored_keys(db, "conv1d:4099:33:right", &dups);
    CHECK(sh("%s --problem conv1d:4099:33:right --db %s --budget 40 --seed 9 --strategy random --fresh", CT_BINARY,
             db) == 0);
    CHECK(stored_keys(db, "conv1d:4099:33:right", &dups) > n1 && dups > 0);

    /* The time budget stops the proposals; --json is one object on stdout. */
    char js[600];
    snprintf(js, sizeof js, "%s/summary.json", dir);
    time_t t0 = time(NULL);
    rc = sh("%s --problem conv1d:2e5:1023 --db %s --time 5 --budget 5000 --strategy random --json --no-cache > %s",
            CT_BINARY, db, js);
    time_t took = time(NULL) - t0;
    CHECK(rc == 0);
    CHECK_MSG(took < 20, "a 5 s time budget took %ld s", (long)took);
    FILE *jf = fopen(js, "r");
    char buf[8192] = "";
    size_t jn = jf ? fread(buf, 1, sizeof buf - 1, jf) : 0;
    if (jf)
        fclose(jf);
    buf[jn] = '\0';
    CHECK(buf[0] == '{' && strstr(buf, "\"winner\":{") && strstr(buf, "\"strategy\":\"random sample\"") &&
          strstr(buf, "\"candidates_per_s\""));
    printf("json summary: %s", buf);

    sh("rm -rf %s", dir);
    CHECK_DONE();
}
