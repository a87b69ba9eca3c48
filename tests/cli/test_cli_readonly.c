/* test_cli_readonly.c - read-only databases and folders with the real
 * binary (CT_BINARY), as another user when this runs as root (root ignores
 * permission bits): a writer refuses a read-only database or folder up
 * front in one line (exit 5) and changes nothing, a reader still reads; a
 * read-only WAL database whose last commit is still in its -wal file is
 * read with it (D011), and a symbolic link to a database in a read-only
 * folder is judged by its target's folder (D019). Split from
 * test_cli_refuse, whose work directory set-up it shares (cli_common.h).
 * No GPU. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "check.h"
#include "db.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define CT_CLI_TEST_NAME "cli_readonly"
#include "cli_common.h"

#define OKP "conv1d:1000:31"

/* ------------------------------------------------------------------------ */
/* Read-only databases                                                      */

/* Run binary args as user uid (or as this user when uid < 0). */
static void run_as(long uid, const char *binary, const char *const *args, result *r, char *cmd, size_t len)
{
    char *argv[MAX_ARGS + 2];
    int n = 0;
    argv[n++] = (char *)binary;
    size_t o = (size_t)snprintf(cmd, len, "convtune");
    for (int i = 0; args[i]; i++) {
        argv[n++] = expand(args[i]);
        if (o < len)
            o += (size_t)snprintf(cmd + o, len - o, " %s", args[i]);
    }
    argv[n] = NULL;
    run_uid = uid;
    run_argv(argv, r);
    run_uid = -1;
    for (int i = 1; i < n; i++)
        free(argv[i]);
}

/* Copy of the work directory's name + suffix to dir/name + suffix, at mode. */
static void copy_side(const char *name, const char *suffix, const char *dir, mode_t mode)
{
    char src[800], dst[900];
    size_t n = 0;
    snprintf(src, sizeof src, "%s/%s%s", work, name, suffix);
    snprintf(dst, sizeof dst, "%s/%s%s", dir, name, suffix);
    char *data = slurp(src, &n);
    CHECK_MSG(data && write_file(dst, data, n) == 0 && chmod(dst, mode) == 0, "copying %s", src);
    free(data);
}

/* A read-only WAL database whose last commit is still in its -wal file
 * (D011): read with it, never missed by an immutable open; without its
 * -shm (which a reader cannot make in a read-only folder) refused in one
 * line rather than read without the commit. A symbolic link in a writable
 * folder to a database in a read-only one (D019): a writer judges the
 * target's folder and says so in convtune's words. */
static void check_read_only_wal_and_link(long uid, const char *binary)
{
    char walro[700], noshm[700], target[700], w[700], link[800], cmd[4096];
    wpath(walro, sizeof walro, "walro");
    wpath(noshm, sizeof noshm, "walnoshm");
    wpath(target, sizeof target, "rotarget");
    wpath(w, sizeof w, "w");
    CHECK(mkdir(walro, 0755) == 0 && mkdir(noshm, 0755) == 0 && mkdir(target, 0755) == 0 && mkdir(w, 0777) == 0 &&
          chmod(w, 0777) == 0);
    /* A committed update left in the -wal: no checkpoint while the
     * connection is open; the files are copied before it closes. */
    char src[800];
    wpath(src, sizeof src, "cli.db");
    sqlite3 *h = NULL;
    CHECK(sqlite3_open_v2(src, &h, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
          sqlite3_exec(h, "PRAGMA wal_autocheckpoint = 0; UPDATE devices SET name = 'WALDEV'", NULL, NULL, NULL) ==
              SQLITE_OK);
    copy_side("cli.db", "", walro, 0444);
    copy_side("cli.db", "-wal", walro, 0444);
    copy_side("cli.db", "-shm", walro, 0444);
    copy_side("cli.db", "", noshm, 0444);
    copy_side("cli.db", "-wal", noshm, 0444);
    CHECK(sqlite3_exec(h, "UPDATE devices SET name = 'NVIDIA H100 80GB HBM3'", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(h);
    copy_side("cli.db", "", target, 0666);
    CHECK(chmod(walro, 0555) == 0 && chmod(noshm, 0555) == 0 && chmod(target, 0555) == 0);
    snprintf(link, sizeof link, "%s/link.db", w);
    CHECK(symlink("../rotarget/cli.db", link) == 0);

    char *before = snapshot(work);
    result r;
    run_as(uid, binary, (const char *const[]){"query", "--db", "{W}/walro/cli.db", "--all", "--format", "csv", NULL},
           &r, cmd, sizeof cmd);
    CHECK_MSG(r.code == 0 && strstr(r.out, "WALDEV") && !strstr(r.out, "H100"), "%s: exit %d: %s%s", cmd, r.code,
              r.out, r.err);
    result_free(&r);
    run_as(uid, binary, (const char *const[]){"db", "check", "--db", "{W}/walro/cli.db", NULL}, &r, cmd, sizeof cmd);
    CHECK_MSG(r.code == 0 && !strcmp(r.out, "ok\n"), "%s: exit %d: %s", cmd, r.code, r.err);
    result_free(&r);
    run_as(uid, binary, (const char *const[]){"query", "--db", "{W}/walnoshm/cli.db", "--all", NULL}, &r, cmd,
           sizeof cmd);
    CHECK_MSG(r.code == 5 && r.outlen == 0 && count_char(r.err, r.errlen, '\n') == 1 &&
                  strstr(r.err, "walnoshm/cli.db: committed changes wait in its -wal file, and reading them needs its "
                                "-shm file or write access to its folder"),
              "%s: exit %d: [%s]", cmd, r.code, r.err);
    result_free(&r);
    run_as(uid, binary, (const char *const[]){"db", "import", "{W}/good.json", "--db", "{W}/w/link.db", NULL}, &r,
           cmd, sizeof cmd);
    CHECK_MSG(r.code == 5 && r.outlen == 0 && count_char(r.err, r.errlen, '\n') == 1 &&
                  strstr(r.err, "convtune: DB: ") && strstr(r.err, "w/link.db is read-only (no write permission on ") &&
                  strstr(r.err, "/rotarget); nothing was written") && !strstr(r.err, "attempt to"),
              "%s: exit %d: [%s]", cmd, r.code, r.err);
    result_free(&r);
    /* reading through the link needs no write access */
    run_as(uid, binary, (const char *const[]){"query", "--db", "{W}/w/link.db", "--all", NULL}, &r, cmd, sizeof cmd);
    CHECK_MSG(r.code == 0 && strstr(r.out, "conv1d_naive"), "%s: exit %d: %s", cmd, r.code, r.err);
    result_free(&r);
    char *after = snapshot(work);
    CHECK_MSG(!strcmp(before, after), "read-only WAL and link: the directory changed:\n--- before\n%s--- after\n%s",
              before, after);
    free(before);
    free(after);
    chmod(walro, 0755);
    chmod(noshm, 0755);
    chmod(target, 0755);
}

static void check_read_only(void)
{
    /* Root ignores permission bits: run as nobody there, from a copy of the
     * binary in the (then world-readable) test directory, which nobody can
     * execute wherever the build tree is. */
    long uid = -1;
    char binary[700], path[800], cmd[4096];
    snprintf(binary, sizeof binary, "%s", CT_BINARY);
    if (geteuid() == 0) {
        struct passwd *pw = getpwnam("nobody");
        uid = pw ? (long)pw->pw_uid : 65534;
        snprintf(binary, sizeof binary, "%s/convtune-copy", base);
        size_t n = 0;
        char *exe = slurp(CT_BINARY, &n);
        CHECK(exe && write_file(binary, exe, n) == 0 && chmod(binary, 0755) == 0);
        free(exe);
        CHECK(chmod(base, 0755) == 0 && chmod(work, 0755) == 0);
        printf("running as root: the read-only cases run as uid %ld\n", uid);
    }
    /* ro/: a read-only folder holding a read-only copy of cli.db;
     * rofolder/: a writable file (owned by the user running convtune) in a
     * read-only folder. */
    char ro[700], rof[700], src[700];
    wpath(ro, sizeof ro, "ro");
    wpath(rof, sizeof rof, "rofolder");
    wpath(src, sizeof src, "cli.db");
    size_t n = 0;
    char *db = slurp(src, &n);
    CHECK(db != NULL && mkdir(ro, 0755) == 0 && mkdir(rof, 0755) == 0);
    snprintf(path, sizeof path, "%s/cli.db", ro);
    CHECK(write_file(path, db, n) == 0 && chmod(path, 0444) == 0);
    snprintf(path, sizeof path, "%s/cli.db", rof);
    CHECK(write_file(path, db, n) == 0 && chmod(path, 0644) == 0);
    if (uid >= 0)
        CHECK(chown(path, (uid_t)uid, (gid_t)uid) == 0);
    free(db);
    CHECK(chmod(ro, 0555) == 0 && chmod(rof, 0555) == 0);

    const char *dbs[] = {"{W}/ro/cli.db", "{W}/rofolder/cli.db"};
    const char *why[] = {"is read-only (no write permission on the file); nothing was written",
                         "/rofolder); nothing was written"};
    for (int k = 0; k < 2; k++) {
        char *before = snapshot(work);
        result r;
        /* reading needs no write access */
        run_as(uid, binary, (const char *const[]){"query", "--db", dbs[k], "--all", "--format", "csv", NULL}, &r, cmd,
               sizeof cmd);
        CHECK_MSG(r.code == 0 && r.errlen == 0 && strstr(r.out, "conv1d_naive"), "%s: exit %d: %s", cmd, r.code,
                  r.err);
        result_free(&r);
        run_as(uid, binary, (const char *const[]){"db", "check", "--db", dbs[k], NULL}, &r, cmd, sizeof cmd);
        CHECK_MSG(r.code == 0 && !strcmp(r.out, "ok\n"), "%s: exit %d: %s", cmd, r.code, r.err);
        result_free(&r);
        run_as(uid, binary, (const char *const[]){"db", "export", "--db", dbs[k], NULL}, &r, cmd, sizeof cmd);
        CHECK_MSG(r.code == 0 && strstr(r.out, "\"records\""), "%s: exit %d: %s", cmd, r.code, r.err);
        result_free(&r);
        /* a write says exactly that, blames nothing else and leaves no -wal or -shm */
        run_as(uid, binary, (const char *const[]){"db", "import", "{W}/good.json", "--db", dbs[k], NULL}, &r, cmd,
               sizeof cmd);
        CHECK_MSG(r.code == 5 && count_char(r.err, r.errlen, '\n') == 1 && strstr(r.err, why[k]) &&
                      !strstr(r.err, "good.json"),
                  "%s: exit %d: [%s]", cmd, r.code, r.err);
        CHECK_MSG(r.outlen == 0, "%s: stdout [%s]", cmd, r.out);
        result_free(&r);
        /* a tuning run refuses it the same way before looking for a GPU (T007; exit 4 here otherwise) */
        run_as(uid, binary, (const char *const[]){"--problem", OKP, "--db", dbs[k], NULL}, &r, cmd, sizeof cmd);
        CHECK_MSG(r.code == 5 && count_char(r.err, r.errlen, '\n') == 1 && strstr(r.err, why[k]) && r.outlen == 0,
                  "%s: exit %d: [%s]", cmd, r.code, r.err);
        result_free(&r);
        char *after = snapshot(work);
        CHECK_MSG(!strcmp(before, after), "%s: the directory changed:\n--- before\n%s--- after\n%s", dbs[k], before,
                  after);
        free(before);
        free(after);
    }
    chmod(ro, 0755);
    chmod(rof, 0755);
    check_read_only_wal_and_link(uid, binary);
}


int main(void)
{
    char cmd[2048];
    result r;
    if (cli_make_work() != 0 || make_db("cli.db", 3) != 0)
        return cli_setup_failed();
    run_ct((const char *const[]){"db", "export", "--db", "{W}/cli.db", "-o", "{W}/good.json", NULL}, &r, cmd,
           sizeof cmd);
    const int rc = r.code;
    result_free(&r);
    if (rc != 0)
        return cli_setup_failed();
    check_read_only();
    tl_rm_rf(base);
    CHECK_DONE();
}
