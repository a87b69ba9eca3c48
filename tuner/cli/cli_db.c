/* cli_db.c - convtune db export|import|check. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "db_merge.h"
#include "dbio.h"
#include "outfile.h"

static const char usage_db[] =
    "usage: convtune db SUBCOMMAND [options]   (convtune db SUBCOMMAND --help)\n"
    "  export [--format json|csv] [-o FILE] [--force] [--db PATH]\n"
    "  import FILE... [--format json|csv] [--db PATH]\n"
    "  check [--db PATH]\n";

static const char usage_db_export[] =
    "usage: convtune db export [--format json|csv] [-o FILE] [--force] [--db PATH]\n"
    "Write every stored candidate with its whole provenance (device identity and\n"
    "ceilings, problem, run, every candidate field) as JSON (default) or CSV, to\n"
    "stdout (also -o -) or atomically to FILE.\n";

static const char usage_db_import[] =
    "usage: convtune db import FILE... [--format json|csv] [--db PATH]\n"
    "Add the records of `db export` files (or - for stdin; the format is detected\n"
    "unless given) and of other convtune databases (the shards of a cluster run)\n"
    "to the database, created if missing. Records already present (same device\n"
    "identity, problem, template, template hash, parameter values and created_at)\n"
    "are skipped, the others added; the winner queries then pick the best of all.\n"
    "Every FILE is read and checked before the database is opened, so a bad one\n"
    "changes nothing; then each is added in one transaction of its own.\n";

static const char usage_db_check[] =
    "usage: convtune db check [--db PATH]\n"
    "Run SQLite's PRAGMA integrity_check and foreign_key_check on the database.\n"
    "Prints \"ok\", or the problems one per line. Exit 0 when ok, 5 when the file has\n"
    "problems or is not a readable convtune database, 6 when it does not exist.\n";

/* db export: every stored candidate, to stdout or atomically to -o FILE. */
static int cmd_db_export(const args *a)
{
    ct_err e;
    ct_dbio_format fmt = CT_DBIO_JSON;
    if (a->npos)
        return die(CT_ERR_USAGE, "db export takes no file argument (use -o FILE)");
    if (a->format && ct_dbio_format_parse(a->format, &fmt, &e) != CT_OK)
        return die(CT_ERR_USAGE, e.msg);
    ct_status rc;
    ct_outfile o;
    const char *out = out_is_stdout(a) ? NULL : a->out;   /* -o -: stdout, as no -o */
    if (out && (rc = ct_outfile_check(out, a->force, "db export", &e)) != CT_OK)
        return die(rc, e.msg);
    ct_db *db;
    int r = open_existing_db(a, &db);
    if (r)
        return r;
    if (out && (rc = ct_outfile_open(&o, out, ".convtune-dbexport-", "db export", &e)) != CT_OK) {
        ct_db_close(db);
        return die(rc, e.msg);
    }
    long n = 0;
    errno = 0;
    rc = ct_dbio_export(db, fmt, out ? o.f : stdout, &n, &e);
    int err = errno;
    ct_db_close(db);
    if (out) {
        /* A write error names the file and why (a full disk, a quota). */
        if (rc == CT_ERR_IO)
            ct_fail(&e, rc, "db export: writing %s failed: %s", out, strerror(err ? err : EIO));
        if (rc != CT_OK)
            ct_outfile_discard(&o);
        else if ((rc = ct_outfile_close(&o, &e)) == CT_OK)
            rc = ct_outfile_commit(&o, &e);
        if (rc == CT_OK)
            printf("%s: %ld records (%s)\n", out, n, fmt == CT_DBIO_JSON ? "json" : "csv");
    }
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

/* The whole of path ("-": stdin) into a malloc'ed buffer. */
static char *read_all(const char *path, size_t *len, ct_err *e)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) {
        ct_fail(e, CT_ERR_IO, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t n = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            char *grown = realloc(buf, cap *= 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    if (f != stdin)
        fclose(f);
    if (!buf || bad) {
        free(buf);
        ct_fail(e, buf ? CT_ERR_IO : CT_ERR_INTERNAL, "cannot read %s%s", path, buf ? "" : ": out of memory");
        return NULL;
    }
    *len = n;
    return buf;
}

/* One source of db import: an export file, parsed and checked, or the
 * records of a convtune database. */
typedef struct import_src {
    ct_dbio_input *in;
    ct_db_rows rows;
} import_src;

static void free_sources(import_src *src, int n)
{
    for (int i = 0; src && i < n; i++) {
        ct_dbio_free(src[i].in);
        ct_db_rows_free(&src[i].rows);
    }
    free(src);
}

/* Read and check pos[i] into src. */
static ct_status load_source(const args *a, const char *path, import_src *src, ct_err *e)
{
    if (ct_db_file_is_sqlite(path)) {
        if (a->format)
            return ct_fail(e, CT_ERR_USAGE, "%s is a convtune database, not an export file: --format does not "
                           "apply", path);
        return ct_db_rows_load(path, &src->rows, e);
    }
    ct_dbio_format fmt;
    if (a->format && ct_dbio_format_parse(a->format, &fmt, e) != CT_OK)
        return CT_ERR_USAGE;
    size_t len = 0;
    char *text = read_all(path, &len, e);
    if (!text)
        return CT_ERR_IO;
    ct_status rc = ct_dbio_parse(text, len, path, a->format ? &fmt : NULL, &src->in, e);
    free(text);
    return rc;
}

/* db import FILE...: read and check every file, then add each to the
 * database (created if missing) in its own transaction. */
static int cmd_db_import(const args *a)
{
    ct_err e;
    if (a->npos < 1)
        return die(CT_ERR_USAGE, "db import needs a FILE (or - for stdin)");
    import_src *src = calloc((size_t)a->npos, sizeof *src);
    if (!src)
        return die(CT_ERR_INTERNAL, "out of memory");
    ct_status rc = CT_OK;
    for (int i = 0; i < a->npos && rc == CT_OK; i++)
        rc = load_source(a, a->pos[i], &src[i], &e);
    char path[CT_DB_PATH_MAX];
    int r = rc == CT_OK ? db_path(a, path, sizeof path) : 0;
    ct_db *db = NULL;
    if (rc != CT_OK || r || (rc = ct_db_open(path, 1, &db, &e)) != CT_OK) {
        free_sources(src, a->npos);
        return r ? r : die(rc, e.msg);
    }
    for (int i = 0; i < a->npos && rc == CT_OK; i++) {
        long added = 0, skipped = 0, n = src[i].in ? ct_dbio_count(src[i].in) : src[i].rows.n;
        rc = src[i].in ? ct_dbio_import(db, src[i].in, &added, &skipped, &e)
                       : ct_db_rows_import(db, &src[i].rows, &added, &skipped, &e);
        if (rc == CT_OK)
            printf("%s: %ld records: %ld imported, %ld skipped as duplicates\n", a->pos[i], n, added, skipped);
        else if (i > 0) {
            char why[sizeof e.msg];
            snprintf(why, sizeof why, "%s", e.msg);
            ct_fail(&e, rc, "%.900s (nothing of %s was imported; the files before it were)", why, a->pos[i]);
        }
    }
    ct_db_close(db);
    free_sources(src, a->npos);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

/* db check: the report on stdout ("ok" or one problem per line), and on
 * problems the one-line error on stderr with exit 5 (CT_ERR_DB). */
static int cmd_db_check(const args *a)
{
    if (a->npos)
        return die(CT_ERR_USAGE, "db check takes no file argument (use --db PATH)");
    ct_db *db;
    int r = open_existing_db(a, &db);
    if (r)
        return r;
    static char report[1 << 16];
    ct_err e;
    ct_status rc = ct_db_check(db, report, sizeof report, &e);
    ct_db_close(db);
    printf("%s\n", report);
    if (fflush(stdout) != 0 && rc == CT_OK)
        return die(CT_ERR_IO, "cannot write the check report");
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

const cli_command cli_db_commands[] = {
    {"export", cmd_db_export, usage_db_export, OPT(FORMAT) | OPT(OUT) | OPT(FORCE) | OPT(DB), 0,
     "write every stored record as JSON or CSV"},
    {"import", cmd_db_import, usage_db_import, OPT(FORMAT) | OPT(DB), 0,
     "add the records of export files or other databases"},
    {"check", cmd_db_check, usage_db_check, OPT(DB), 0, "SQLite integrity and foreign-key check"},
};
const int cli_ndb_commands = (int)(sizeof cli_db_commands / sizeof cli_db_commands[0]);

/* convtune db SUBCOMMAND [options]: the database's own operations. */
int cmd_db(int argc, char **argv)
{
    const cli_command *subs = cli_db_commands;
    const size_t nsubs = (size_t)cli_ndb_commands;
    char names[200] = "";
    for (size_t i = 0, o = 0; i < nsubs && o < sizeof names; i++)
        o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", i ? (i + 1 == nsubs ? " or " : ", ") : "",
                              subs[i].name);
    if (argc < 3 || argv[2][0] == '-') {
        if (argc >= 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
            fputs(usage_db, stdout);
            return 0;
        }
        say(0, "db needs a subcommand: %s (see convtune db --help)", names);
        return CT_ERR_USAGE;
    }
    int which = -1;
    for (size_t i = 0; i < nsubs; i++)
        if (!strcmp(argv[2], subs[i].name))
            which = (int)i;
    if (which < 0) {
        const char *list[8];
        for (size_t i = 0; i < nsubs && i < 8; i++)
            list[i] = subs[i].name;
        const char *near = nearest_name(argv[2], list, (int)(nsubs < 8 ? nsubs : 8));
        if (near)
            return say(CT_ERR_USAGE, "unknown db subcommand '%s'; did you mean '%s'? (use %s)", ECHO(argv[2]), near,
                       names);
        say(0, "unknown db subcommand '%s' (use %s)", ECHO(argv[2]), names);
        return CT_ERR_USAGE;
    }
    args a;
    if (!parse_args(argc, argv, 3, 0, subs[which].opts, &a))
        return CT_ERR_USAGE;
    if (a.help) {
        fputs(subs[which].usage, stdout);
        return 0;
    }
    char cmd[64];
    snprintf(cmd, sizeof cmd, "db %s", subs[which].name);
    int r = check_options(&a, subs[which].opts, cmd);
    return r ? r : subs[which].fn(&a);
}
