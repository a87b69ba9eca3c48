/* test_db_concurrency.c - several tuners and readers on one database file.
 *
 * Four writer processes and two reader processes start at the same moment
 * on a database file that does not exist yet, so they also race to create
 * and initialise it. Each writer stores 200 candidates in runs of its own,
 * every ct_db_* call a short transaction, as fast as it can; each reader
 * runs ct_db_query in a loop until the writers are done. Every call must
 * return CT_OK (no "database is locked"), a reader must never see the row
 * count go down or past the total, and at the end the file holds exactly
 * 4 x 200 candidates, each run complete, and passes integrity_check.
 * No GPU. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "check.h"
#include "db.h"

#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WRITERS 4
#define READERS 2
#define RUNS_PER_WRITER 4
#define PER_RUN 50                    /* 4 runs x 50 = 200 candidates per writer */
#define PER_WRITER (RUNS_PER_WRITER * PER_RUN)
#define TOTAL (WRITERS * PER_WRITER)
#define DEADLINE_S 120
#define PROBLEM "conv1d:1000000:2047:valid"
#define DEVICE "NVIDIA Concurrency Test GPU"

/* Shared between the processes (MAP_SHARED | MAP_ANONYMOUS). */
typedef struct shared {
    atomic_int go;                    /* the parent releases everyone at once */
    atomic_int writers_done;
    int reads[READERS];               /* completed ct_db_query loops per reader */
    long long last_seen[READERS];     /* rows seen by the reader's last query */
    char err[WRITERS + READERS][1024];
} shared;

static shared *sh;
static char tmpdir[] = "/tmp/ct_test_db_conc_XXXXXX";
static char dbpath[600];

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb; (void)flag; (void)ftw;
    return remove(path);
}

static void nap_us(long us)
{
    struct timespec t = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&t, NULL);
}

static void wait_for_go(void)
{
    while (!atomic_load(&sh->go))
        nap_us(200);
}

/* Record the first failure of child `slot` and leave with status 1. */
static void child_fail(int slot, const char *what, const ct_err *e)
{
    snprintf(sh->err[slot], sizeof sh->err[slot], "%s: %.900s", what, e ? e->msg : "");
    _exit(1);
}

static ct_result make_candidate(int writer, int k)
{
    ct_result r;
    ct_result_init(&r);
    snprintf(r.tmpl, sizeof r.tmpl, "conv1d_tiled");
    snprintf(r.template_hash, sizeof r.template_hash, "0123456789abcdef");
    snprintf(r.params_json, sizeof r.params_json, "{\"BLOCK_SIZE\":%d,\"OUTPUTS_PER_THREAD\":%d}",
             64 * (writer + 1), k + 1);
    r.status = CT_RS_OK;
    r.median_us = 100.0 + writer * 1000 + k;
    r.min_us = r.median_us * 0.98;
    r.max_us = r.median_us * 1.02;
    r.spread = 0.04;
    r.reps = 20;
    r.relerr = 1e-7;
    r.registers = 40;
    r.smem_bytes = 4096;
    r.compile_ms = 10;
    return r;
}

static void writer(int w)
{
    ct_db *db = NULL;
    ct_err e = {""};
    ct_device_info d = {.name = DEVICE, .cc_major = 9, .cc_minor = 0, .sm_count = 132,
                        .driver_version = 13000, .nvrtc_major = 13};
    long long dev, prob, run;
    char settings[64];

    wait_for_go();
    if (ct_db_open(dbpath, 1, &db, &e) != CT_OK)
        child_fail(w, "writer: ct_db_open", &e);
    if (ct_db_device_upsert(db, &d, &dev, &e) != CT_OK)
        child_fail(w, "writer: ct_db_device_upsert", &e);
    if (ct_db_problem_upsert(db, "conv1d", PROBLEM, 8.2e9, 8e6, &prob, &e) != CT_OK)
        child_fail(w, "writer: ct_db_problem_upsert", &e);
    for (int r = 0; r < RUNS_PER_WRITER; r++) {
        snprintf(settings, sizeof settings, "{\"writer\":%d,\"run\":%d}", w, r);
        if (ct_db_run_begin(db, prob, dev, settings, &run, &e) != CT_OK)
            child_fail(w, "writer: ct_db_run_begin", &e);
        for (int k = 0; k < PER_RUN; k++) {
            ct_result c = make_candidate(w, r * PER_RUN + k);
            if (ct_db_candidate_add(db, run, &c, &e) != CT_OK)
                child_fail(w, "writer: ct_db_candidate_add", &e);
        }
        if (ct_db_run_end(db, run, "ok", &e) != CT_OK)
            child_fail(w, "writer: ct_db_run_end", &e);
    }
    ct_db_close(db);
    _exit(0);
}

static int count_cb(const ct_result *r, void *user)
{
    (void)r;
    ++*(long long *)user;
    return 0;
}

static void reader(int i)
{
    int slot = WRITERS + i;
    ct_db *db = NULL;
    ct_err e = {""};
    long long prev = 0;

    wait_for_go();
    /* Like `convtune query`: no create. A reader never writes the schema
     * itself: until the first writer has committed it, the file does not
     * exist or holds nothing yet (a 0-byte file, an empty SQLite database),
     * which is "not found", never "not a convtune database"; it retries. */
    for (int tries = 0;; tries++) {
        ct_status rc = ct_db_open(dbpath, 0, &db, &e);
        if (rc == CT_OK)
            break;
        if (rc != CT_ERR_NOT_FOUND || strstr(e.msg, "not a convtune") ||
            (!strstr(e.msg, "does not exist") && !strstr(e.msg, "holds nothing yet")) || tries > 200000)
            child_fail(slot, "reader: ct_db_open", &e);
        nap_us(20);
    }
    for (int last = 0; !last;) {
        last = atomic_load(&sh->writers_done) == WRITERS;
        ct_query all = {.problem = PROBLEM};
        ct_query winners = {.winners_only = 1};
        long long n = 0, nw = 0;
        if (ct_db_query(db, &all, count_cb, &n, &e) != CT_OK)
            child_fail(slot, "reader: ct_db_query (all)", &e);
        if (ct_db_query(db, &winners, count_cb, &nw, &e) != CT_OK)
            child_fail(slot, "reader: ct_db_query (winners)", &e);
        if (n < prev || n > TOTAL || nw > 1 || (n > 0 && nw != 1)) {
            snprintf(sh->err[slot], sizeof sh->err[slot],
                     "reader: inconsistent view: %lld rows after %lld, %lld winners", n, prev, nw);
            _exit(1);
        }
        prev = n;
        sh->last_seen[i] = n;
        sh->reads[i]++;
    }
    ct_db_close(db);
    _exit(0);
}

static long long scalar(sqlite3 *h, const char *sql)
{
    sqlite3_stmt *s = NULL;
    long long v = -1;
    if (sqlite3_prepare_v2(h, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
        v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return v;
}

static void check_file(void)
{
    sqlite3 *h = NULL;
    CHECK(sqlite3_open_v2(dbpath, &h, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK);
    CHECK(scalar(h, "SELECT count(*) FROM candidates") == TOTAL);
    CHECK(scalar(h, "SELECT count(*) FROM runs") == WRITERS * RUNS_PER_WRITER);
    CHECK(scalar(h, "SELECT count(*) FROM runs WHERE status = 'ok' AND finished_at IS NOT NULL")
          == WRITERS * RUNS_PER_WRITER);
    CHECK(scalar(h, "SELECT count(*) FROM problems") == 1);
    CHECK(scalar(h, "SELECT count(*) FROM devices") == 1);
    /* every run holds exactly its 50 candidates */
    CHECK(scalar(h, "SELECT count(*) FROM (SELECT run_id FROM candidates GROUP BY run_id"
                    " HAVING count(*) = 50)") == WRITERS * RUNS_PER_WRITER);
    CHECK(scalar(h, "SELECT count(DISTINCT json_extract(r.settings, '$.writer'))"
                    " FROM runs r") == WRITERS);
    CHECK(scalar(h, "SELECT user_version FROM pragma_user_version") == 4);
    sqlite3_stmt *s = NULL;
    CHECK(sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1, &s, NULL) == SQLITE_OK);
    CHECK(sqlite3_step(s) == SQLITE_ROW);
    CHECK_STR((const char *)sqlite3_column_text(s, 0), "ok");
    sqlite3_finalize(s);
    sqlite3_close(h);

    /* and through the API */
    ct_db *db = NULL;
    ct_err e = {""};
    long long n = 0;
    CHECK_MSG(ct_db_open(dbpath, 0, &db, &e) == CT_OK, "%s", e.msg);
    if (db) {
        CHECK_MSG(ct_db_query(db, NULL, count_cb, &n, &e) == CT_OK, "%s", e.msg);
        CHECK(n == TOTAL);
        ct_result best;
        CHECK(ct_db_best(db, PROBLEM, DEVICE, &best, &e) == CT_OK && best.median_us == 100.0);
        ct_db_close(db);
    }
}

int main(void)
{
    pid_t pids[WRITERS + READERS];
    int nchild = 0;

    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(dbpath, sizeof dbpath, "%s/shared.db", tmpdir);
    sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    memset(sh, 0, sizeof *sh);

    fflush(NULL);
    for (int i = 0; i < WRITERS + READERS; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            break;
        }
        if (pid == 0) {
            if (i < WRITERS)
                writer(i);
            else
                reader(i - WRITERS);
        }
        pids[nchild++] = pid;
    }
    CHECK(nchild == WRITERS + READERS);

    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    atomic_store(&sh->go, 1);

    int status[WRITERS + READERS], left = nchild, writers_left = WRITERS;
    int done[WRITERS + READERS] = {0};
    while (left > 0) {
        for (int i = 0; i < nchild; i++) {
            if (done[i] || waitpid(pids[i], &status[i], WNOHANG) != pids[i])
                continue;
            done[i] = 1;
            left--;
            if (i < WRITERS && --writers_left == 0)
                atomic_store(&sh->writers_done, WRITERS);
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (left > 0 && now.tv_sec - t0.tv_sec > DEADLINE_S) {
            for (int i = 0; i < nchild; i++)
                if (!done[i]) {
                    fprintf(stderr, "timeout: killing child %d (pid %d)\n", i, (int)pids[i]);
                    kill(pids[i], SIGKILL);
                    waitpid(pids[i], &status[i], 0);
                    done[i] = 1;
                }
            CHECK_MSG(0, "children still running after %d s", DEADLINE_S);
            /* The reader loop may never end if a writer hung; mark done. */
            atomic_store(&sh->writers_done, WRITERS);
            left = 0;
        }
        if (left > 0)
            nap_us(1000);
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    double secs = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9;

    for (int i = 0; i < nchild; i++) {
        int ok = WIFEXITED(status[i]) && WEXITSTATUS(status[i]) == 0;
        CHECK_MSG(ok, "%s %d: %s%d: %s", i < WRITERS ? "writer" : "reader",
                  i < WRITERS ? i : i - WRITERS, WIFEXITED(status[i]) ? "exit " : "signal ",
                  WIFEXITED(status[i]) ? WEXITSTATUS(status[i]) : WTERMSIG(status[i]),
                  sh->err[i][0] ? sh->err[i] : "(no message)");
    }
    for (int i = 0; i < READERS; i++) {
        CHECK_MSG(sh->reads[i] > 0, "reader %d never completed a query", i);
        CHECK_MSG(sh->last_seen[i] == TOTAL, "reader %d's last query saw %lld rows", i,
                  sh->last_seen[i]);
    }
    printf("%d writers x %d candidates and %d readers (%d and %d queries) in %.2f s\n", WRITERS,
           PER_WRITER, READERS, sh->reads[0], sh->reads[1], secs);

    check_file();
    nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    munmap(sh, sizeof *sh);
    CHECK_DONE();
}
