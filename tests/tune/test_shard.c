/* test_shard.c - a run split over processes (shard.c, precompile.c,
 * db_merge.c), with no GPU:
 *
 *   partition  for fixed lists (a random sample, an exhaustive space) and N
 *              shards: every shard is deterministic, the shards are
 *              disjoint and their union is the run's list; guided searches,
 *              a sample without a seed and bad I/N are refused
 *   slurm      SLURM_ARRAY_TASK_ID/COUNT(/MIN) give the shard, with one line
 *              on stderr; --shard overrides; sparse arrays are refused
 *   precompile three shards compiled by three processes at once into one
 *              cache; then the whole run's lookups (the tuning run's compile
 *              pool) hit the cache for every candidate: 0 compiled
 *   merge      shard databases (each as a job on its own GPU would write it)
 *              merged by `db import A.db B.db C.db`: every record once, the
 *              winner the fastest of all shards, a second import skips all,
 *              a bad source changes nothing */
#include "export_common.h"

#include <stdarg.h>

#include "compile_pool.h"
#include "shard.h"

#define SPEC "conv1d:1000000:2047:valid"
#define TIMEOUT_S 300

static char base[] = "/tmp/ct_test_shard_XXXXXX";

static void convtune(tc_result *r, ...)
{
    va_list ap;
    va_start(ap, r);
    tc_convtune_v(base, base, TIMEOUT_S, r, ap);
    va_end(ap);
}

static void space_of(const char *spec, ct_space *sp)
{
    ct_problem p;
    ct_config cfg;
    ct_limits lim;
    ct_err e = {""};
    CHECK(ct_problem_parse(spec, &p, &e) == CT_OK && ct_config_init(&cfg, &e) == CT_OK &&
          ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
    CHECK_MSG(ct_space_build(&p, &cfg, &lim, NULL, sp, &e) == CT_OK, "%s", e.msg);
}

/* The list of shard sh (count 0: the whole run) as candidate pointers into
 * a space of its own, compared by template and parameters. */
typedef struct list {
    ct_space sp;
    ct_shard_plan plan;
} list;

static ct_status list_of(const char *spec, ct_strategy st, int budget, unsigned long long seed, int i, int n,
                         list *l, ct_err *e)
{
    space_of(spec, &l->sp);
    ct_shard sh = {i, n};
    return ct_shard_apply(&l->sp, st, budget, seed, &sh, &l->plan, e);
}

static int same_cand(const ct_candidate *a, const ct_candidate *b)
{
    if (a->tmpl != b->tmpl || a->params.n != b->params.n)
        return 0;
    for (int k = 0; k < a->params.n; k++)
        if (a->params.values[k] != b->params.values[k])
            return 0;
    return 1;
}

static void partition(const char *spec, ct_strategy st, int budget, unsigned long long seed)
{
    ct_err e = {""};
    list whole, again;
    ct_status rc = list_of(spec, st, budget, seed, 0, 0, &whole, &e);
    CHECK_MSG(rc == CT_OK, "%s: %s", spec, e.msg);
    CHECK(list_of(spec, st, budget, seed, 0, 0, &again, &e) == CT_OK);
    if (rc != CT_OK) {
        ct_space_free(&whole.sp);
        ct_space_free(&again.sp);
        return;
    }
    CHECK(whole.sp.n > 0 && whole.sp.n == whole.plan.total && again.sp.n == whole.sp.n);
    for (int i = 0; i < whole.sp.n && i < again.sp.n; i++)
        CHECK(same_cand(&whole.sp.cand[i], &again.sp.cand[i]));
    static const int counts[] = {1, 2, 3, 7, 64};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        int n = counts[c];
        int *owner = calloc((size_t)whole.sp.n, sizeof *owner);
        for (int i = 0; i < n; i++) {
            list s;
            CHECK(list_of(spec, st, budget, seed, i, n, &s, &e) == CT_OK);
            CHECK(s.plan.total == whole.sp.n);
            /* In the run's order; each found once in the whole list. */
            int last = -1;
            for (int k = 0; k < s.sp.n; k++) {
                int at = -1;
                for (int w = 0; w < whole.sp.n && at < 0; w++)
                    if (same_cand(&s.sp.cand[k], &whole.sp.cand[w]))
                        at = w;
                CHECK_MSG(at > last, "%s shard %d/%d: candidate %d not in the run's order", spec, i, n, k);
                if (at >= 0) {
                    CHECK_MSG(owner[at] == 0, "%s: candidate %d in shards %d and %d of %d", spec, at, owner[at] - 1,
                              i, n);
                    owner[at] = i + 1;
                    last = at;
                }
            }
            ct_space_free(&s.sp);
        }
        int missing = 0;
        for (int w = 0; w < whole.sp.n; w++)
            missing += owner[w] == 0;
        CHECK_MSG(missing == 0, "%s: %d of %d candidates in no shard of %d", spec, missing, whole.sp.n, n);
        free(owner);
    }
    ct_space_free(&whole.sp);
    ct_space_free(&again.sp);
}

static void refusals(void)
{
    ct_err e = {""};
    list l;
    CHECK(list_of(SPEC, CT_SEARCH_ANNEAL, 600, 5, 0, 2, &l, &e) == CT_ERR_USAGE && strstr(e.msg, "guided"));
    ct_space_free(&l.sp);
    CHECK(list_of(SPEC, CT_SEARCH_RANDOM, 600, 0, 0, 2, &l, &e) == CT_ERR_USAGE && strstr(e.msg, "needs --seed"));
    ct_space_free(&l.sp);
    /* Unsharded, auto on a large space is what the tuning run makes it:
     * guided, so no list. Sharded, it is a sample. */
    CHECK(list_of(SPEC, CT_SEARCH_AUTO, 600, 5, 0, 0, &l, &e) == CT_ERR_USAGE && strstr(e.msg, "guided"));
    ct_space_free(&l.sp);
    CHECK(list_of(SPEC, CT_SEARCH_AUTO, 600, 5, 1, 2, &l, &e) == CT_OK && l.plan.strategy == CT_SEARCH_RANDOM &&
          l.plan.total == 600 && l.sp.n == 300);
    ct_space_free(&l.sp);
    static const char *const bad[] = {"2/2", "1", "-1/2", "1/0", "a/b", "1/2/3", "0/100001", " 0/2", "0/2x", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ct_shard sh;
        CHECK_MSG(ct_shard_parse(bad[i], &sh, &e) == CT_ERR_USAGE, "--shard '%s' accepted", bad[i]);
    }
    ct_shard sh;
    CHECK(ct_shard_parse("3/8", &sh, &e) == CT_OK && sh.index == 3 && sh.count == 8);
}

static void slurm(void)
{
    ct_err e = {""};
    ct_shard sh;
    int found = 1;
    unsetenv("SLURM_ARRAY_TASK_ID");
    CHECK(ct_shard_from_slurm(&sh, &found, &e) == CT_OK && !found);
    setenv("SLURM_ARRAY_TASK_ID", "5", 1);
    setenv("SLURM_ARRAY_TASK_COUNT", "4", 1);
    setenv("SLURM_ARRAY_TASK_MIN", "3", 1);
    CHECK(ct_shard_from_slurm(&sh, &found, &e) == CT_OK && found && sh.index == 2 && sh.count == 4);
    setenv("SLURM_ARRAY_TASK_ID", "7", 1);   /* --array=3-9:2 has 4 tasks, ids to 9 */
    CHECK(ct_shard_from_slurm(&sh, &found, &e) == CT_ERR_USAGE && strstr(e.msg, "contiguous"));
    setenv("SLURM_ARRAY_TASK_ID", "x", 1);
    CHECK(ct_shard_from_slurm(&sh, &found, &e) == CT_ERR_USAGE);
    /* Through the command line: said on stderr, --shard overrides. */
    setenv("SLURM_ARRAY_TASK_ID", "1", 1);
    setenv("SLURM_ARRAY_TASK_COUNT", "3", 1);
    unsetenv("SLURM_ARRAY_TASK_MIN");
    tc_result r;
    convtune(&r, "precompile", "--problem", SPEC, "--arch", "sm_90", "--strategy", "random", "--seed", "4",
             "--budget", "3", NULL);
    CHECK_MSG(r.code == 0 && strstr(r.err, "shard 1/3 from SLURM_ARRAY_TASK_ID") &&
                  strstr(r.out, "shard 1/3: 1 of the 3 candidates"), "%d [%s] [%s]", r.code, r.out, r.err);
    tc_result_free(&r);
    convtune(&r, "precompile", "--problem", SPEC, "--arch", "sm_90", "--strategy", "random", "--seed", "4",
             "--budget", "3", "--shard", "0/1", NULL);
    CHECK_MSG(r.code == 0 && r.errlen == 0 && strstr(r.out, ": 3 candidates"), "%d [%s] [%s]", r.code, r.out, r.err);
    tc_result_free(&r);
    unsetenv("SLURM_ARRAY_TASK_ID");
    unsetenv("SLURM_ARRAY_TASK_COUNT");
    /* A shard of a tuning run needs a database of its own. */
    convtune(&r, "--problem", SPEC, "--shard", "0/2", "--seed", "3", NULL);
    CHECK_MSG(r.code == 2 && tc_one_line(&r) && strstr(r.err, "give --db"), "%d %s", r.code, r.err);
    tc_result_free(&r);
    convtune(&r, "precompile", "--problem", SPEC, "--arch", "sm_90", NULL);
    CHECK_MSG(r.code == 2 && tc_one_line(&r) && strstr(r.err, "guided"), "%d %s", r.code, r.err);
    tc_result_free(&r);
}

/* Three precompile shards at once into one cache, then the whole run. */
static void precompile(void)
{
    char cache[600];
    snprintf(cache, sizeof cache, "%s/shared-cache", base);
    setenv("CONVTUNE_CACHE", cache, 1);
    const char *budget = getenv("CONVTUNE_TEST_SAMPLE") && atoi(getenv("CONVTUNE_TEST_SAMPLE")) == 1 ? "4" : "12";
    pid_t pids[3];
    for (int i = 0; i < 3; i++) {
        char shard[16];
        snprintf(shard, sizeof shard, "%d/3", i);
        fflush(NULL);
        if ((pids[i] = fork()) == 0) {
            char out[700];
            snprintf(out, sizeof out, "%s/precompile-%d.txt", base, i);
            if (!freopen(out, "w", stdout) || !freopen(out, "a", stderr))
                _exit(99);
            execl(CT_BINARY, CT_BINARY, "precompile", "--problem", SPEC, "--arch", "sm_90", "--strategy", "random",
                  "--seed", "21", "--budget", budget, "--shard", shard, (char *)NULL);
            _exit(98);
        }
    }
    for (int i = 0; i < 3; i++) {
        int st = 0;
        char out[700];
        snprintf(out, sizeof out, "%s/precompile-%d.txt", base, i);
        CHECK(waitpid(pids[i], &st, 0) == pids[i]);
        char *text = tc_slurp(out, NULL);
        CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0 && text && strstr(text, " 0 failed to compile"),
                  "shard %d/3: status %d: %s", i, st, text ? text : "");
        free(text);
    }
    /* The run's own lookups: the compile pool a tuning run uses. */
    ct_err e = {""};
    list l;
    CHECK(list_of(SPEC, CT_SEARCH_RANDOM, atoi(budget), 21, 0, 0, &l, &e) == CT_OK);
    ct_problem p;
    CHECK(ct_problem_parse(SPEC, &p, &e) == CT_OK);
    char *src[16] = {0};
    for (int i = 0; i < p.family->ntemplates; i++)
        CHECK(ct_template_source(p.family->templates[i].name, NULL, &src[i], &e) == CT_OK);
    ct_compile_pool pool = {0};
    ct_compile_pool_init(&pool, &p, "sm_90", (const char *const *)src, cache);
    int hits = 0;
    for (int i = 0; i < l.sp.n; i++) {
        ct_compile_job j = {.cand = &l.sp.cand[i]};
        /* With no source a miss could not compile: a hit is the only way. */
        const char *saved = src[ct_template_index(&p, j.cand->tmpl)];
        ct_compile_job_run(&pool, &j);
        hits += j.cache_hit && j.rc == CT_OK && j.bin.size > 0;
        CHECK(saved == src[ct_template_index(&p, j.cand->tmpl)]);
        ct_binary_free(&j.bin);
    }
    CHECK_MSG(hits == l.sp.n && hits == atoi(budget), "%d of %d candidates in the cache", hits, l.sp.n);
    ct_space_free(&l.sp);
    for (int i = 0; i < 16; i++)
        free(src[i]);
    tc_result r;
    convtune(&r, "precompile", "--problem", SPEC, "--arch", "sm_90", "--strategy", "random", "--seed", "21",
             "--budget", budget, NULL);
    char want[100];
    snprintf(want, sizeof want, "0 compiled, %s already in the cache", budget);
    CHECK_MSG(r.code == 0 && strstr(r.out, want), "%d [%s] [%s]", r.code, r.out, r.err);
    tc_result_free(&r);
    /* A cache that cannot be written is an error, not a silent miss. */
    char blocked[700];
    snprintf(blocked, sizeof blocked, "%s/precompile-0.txt/cache", base);
    setenv("CONVTUNE_CACHE", blocked, 1);
    convtune(&r, "precompile", "--problem", SPEC, "--arch", "sm_90", "--strategy", "random", "--seed", "21",
             "--budget", "2", NULL);
    CHECK_MSG(r.code == 7 && strstr(r.err, "could not be stored"), "%d %s", r.code, r.err);
    tc_result_free(&r);
    unsetenv("CONVTUNE_CACHE");
}

/* Shard databases as three jobs on three GPUs (one model) write them. */
static void merge(void)
{
    ct_err e = {""};
    list whole;
    CHECK(list_of(SPEC, CT_SEARCH_RANDOM, 30, 9, 0, 0, &whole, &e) == CT_OK);
    char hash[17];
    char dbs[3][600], all[600], merged[600];
    snprintf(all, sizeof all, "%s/all.db", base);
    snprintf(merged, sizeof merged, "%s/merged.db", base);
    double best = 1e30;
    char best_params[512] = "";
    ct_db *dball = NULL;
    CHECK(ct_db_open(all, 1, &dball, &e) == CT_OK);
    for (int i = 0; i < 3; i++) {
        list s;
        CHECK(list_of(SPEC, CT_SEARCH_RANDOM, 30, 9, i, 3, &s, &e) == CT_OK);
        snprintf(dbs[i], sizeof dbs[i], "%s/shard-%d.db", base, i);
        char uuid[64];
        snprintf(uuid, sizeof uuid, "GPU-0000-000%d", i);
        ct_device_info d = tc_device("NVIDIA H200", uuid, 9, 0, 13000);
        ct_result *recs = calloc((size_t)s.sp.n, sizeof *recs);
        for (int k = 0; k < s.sp.n; k++) {
            const ct_template *t = s.sp.cand[k].tmpl;
            char params[512];
            CHECK(ct_params_to_json(&s.sp.cand[k].params, t->params, t->nparams, params, sizeof params) == CT_OK);
            tc_template_hash(t->name, hash);
            double us = 50 + (double)((k * 37 + i * 11) % 97);
            recs[k] = tc_rec(t->name, hash, params, "ok", us, 1e-7);
            if (us < best) {
                best = us;
                snprintf(best_params, sizeof best_params, "%s", params);
            }
        }
        ct_db *db = NULL;
        CHECK(ct_db_open(dbs[i], 1, &db, &e) == CT_OK);
        tc_add_run(db, &d, SPEC, recs, s.sp.n);
        ct_db_close(db);
        tc_add_run(dball, &d, SPEC, recs, s.sp.n);
        free(recs);
        ct_space_free(&s.sp);
    }
    ct_db_close(dball);
    tc_result r;
    /* A bad source among them: refused before the target is created. */
    char junk[600];
    snprintf(junk, sizeof junk, "%s/junk.db", base);
    CHECK(tc_write_text(junk, "SQLite format 3") == 0);
    convtune(&r, "db", "import", dbs[0], junk, "--db", merged, NULL);
    CHECK_MSG(r.code != 0 && tc_one_line(&r) && !tc_exists(merged), "%d %s", r.code, r.err);
    tc_result_free(&r);
    convtune(&r, "db", "import", dbs[0], dbs[1], dbs[2], "--db", merged, NULL);
    CHECK_MSG(r.code == 0 && strstr(r.out, "shard-0.db: 10 records: 10 imported, 0 skipped") &&
                  strstr(r.out, "shard-2.db: 10 records: 10 imported, 0 skipped"), "%d [%s] [%s]", r.code, r.out,
              r.err);
    tc_result_free(&r);
    /* Again, and one shard twice in one import: every record skipped. */
    convtune(&r, "db", "import", dbs[1], dbs[1], dbs[0], dbs[2], "--db", merged, NULL);
    CHECK_MSG(r.code == 0 && !strstr(r.out, " 1 imported") && strstr(r.out, "10 records: 0 imported, 10 skipped"),
              "%d [%s]", r.code, r.out);
    tc_result_free(&r);
    ct_db *db = NULL;
    ct_result w1, w2;
    CHECK(ct_db_open(merged, 0, &db, &e) == CT_OK);
    CHECK(ct_db_best(db, SPEC, "NVIDIA H200", &w1, &e) == CT_OK);
    ct_db_close(db);
    CHECK(ct_db_open(all, 0, &db, &e) == CT_OK);
    CHECK(ct_db_best(db, SPEC, "NVIDIA H200", &w2, &e) == CT_OK);
    ct_db_close(db);
    CHECK_MSG(w1.median_us == best && !strcmp(w1.params_json, best_params), "merged winner %.2f %s, expected %.2f %s",
              w1.median_us, w1.params_json, best, best_params);
    CHECK(w2.median_us == w1.median_us && !strcmp(w2.params_json, w1.params_json));
    convtune(&r, "db", "export", "--db", merged, "--format", "csv", NULL);
    int lines = 0;
    for (const char *c = r.out; c && *c; c++)
        lines += *c == '\n';
    CHECK_MSG(r.code == 0 && lines == 31, "merged export: %d lines", lines);
    tc_result_free(&r);
    ct_space_free(&whole.sp);
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
    setenv("HOME", base, 1);
    setenv("XDG_DATA_HOME", base, 1);
    unsetenv("CONVTUNE_DB");
    partition(SPEC, CT_SEARCH_RANDOM, 600, 11);
    partition(SPEC, CT_SEARCH_EXHAUSTIVE, 50, 11);
    partition("conv1dc:1:4:64:4:3:pad=0", CT_SEARCH_AUTO, 600, 0);   /* fits: exhaustive, no seed needed */
    refusals();
    slurm();
    precompile();
    merge();
    nftw(base, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    CHECK_DONE();
}
