/* cli_db.c - convtune db export|import|check. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dbio.h"
#include "outfile.h"

static const char usage_db[] =
    "usage: convtune db SUBCOMMAND [options]   (convtune db SUBCOMMAND --help)\n"
    "  export [--format json|csv] [-o FILE] [--force] [--db PATH]\n"
    "  import FILE [--format json|csv] [--db PATH]\n"
    "  check [--db PATH]\n";

static const char usage_db_export[] =
    "usage: convtune db export [--format json|csv] [-o FILE] [--force] [--db PATH]\n"
    "Write every stored candidate with its whole provenance (device identity and\n"
    "ceilings, problem, run, every candidate field) as JSON (default) or CSV, to\n"
    "stdout or atomically to FILE.\n";

static const char usage_db_import[] =
    "usage: convtune db import FILE [--format json|csv] [--db PATH]\n"
    "Add the records of a `db export` file (FILE, or - for stdin; the format is\n"
    "detected unless given) to the database, created if missing. Records already\n"
    "present (same device identity, problem, template, template hash, params and\n"
    "created_at) are skipped, the others added; the winner queries then pick the\n"
    "best of both. All in one transaction: a bad file changes nothing.\n";

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
    if (a->out && (rc = ct_outfile_check(a->out, a->force, "db export", &e)) != CT_OK)
        return die(rc, e.msg);
    ct_db *db;
    int r = open_existing_db(a, &db);
    if (r)
        return r;
    if (a->out && (rc = ct_outfile_open(&o, a->out, ".convtune-dbexport-", "db export", &e)) != CT_OK) {
        ct_db_close(db);
        return die(rc, e.msg);
    }
    long n = 0;
    errno = 0;
    rc = ct_dbio_export(db, fmt, a->out ? o.f : stdout, &n, &e);
    int err = errno;
    ct_db_close(db);
    if (a->out) {
        /* A write error names the file and why (a full disk, a quota). */
        if (rc == CT_ERR_IO)
            ct_fail(&e, rc, "db export: writing %s failed: %s", a->out, strerror(err ? err : EIO));
        if (rc != CT_OK)
            ct_outfile_discard(&o);
        else if ((rc = ct_outfile_close(&o, &e)) == CT_OK)
            rc = ct_outfile_commit(&o, &e);
        if (rc == CT_OK)
            printf("%s: %ld records (%s)\n", a->out, n, fmt == CT_DBIO_JSON ? "json" : "csv");
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

/* db import FILE: parse and check the whole file, then add it to the
 * database (created if missing) in one transaction. */
static int cmd_db_import(const args *a)
{
    ct_err e;
    if (a->npos != 1)
        return die(CT_ERR_USAGE, a->npos ? "db import takes one FILE" : "db import needs a FILE (or - for stdin)");
    ct_dbio_format fmt;
    if (a->format && ct_dbio_format_parse(a->format, &fmt, &e) != CT_OK)
        return die(CT_ERR_USAGE, e.msg);
    size_t len = 0;
    char *text = read_all(a->pos[0], &len, &e);
    if (!text)
        return die(CT_ERR_IO, e.msg);
    ct_dbio_input *in = NULL;
    ct_status rc = ct_dbio_parse(text, len, a->pos[0], a->format ? &fmt : NULL, &in, &e);
    free(text);
    if (rc != CT_OK)
        return die(rc, e.msg);
    char path[CT_DB_PATH_MAX];
    int r = db_path(a, path, sizeof path);
    if (r) {
        ct_dbio_free(in);
        return r;
    }
    ct_db *db;
    if ((rc = ct_db_open(path, 1, &db, &e)) != CT_OK) {
        ct_dbio_free(in);
        return die(rc, e.msg);
    }
    long added = 0, skipped = 0;
    rc = ct_dbio_import(db, in, &added, &skipped, &e);
    ct_db_close(db);
    if (rc == CT_OK)
        printf("%s: %ld records: %ld imported, %ld skipped as duplicates\n", a->pos[0], ct_dbio_count(in), added,
               skipped);
    ct_dbio_free(in);
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

/* convtune db SUBCOMMAND [options]: the database's own operations. */
int cmd_db(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(const args *);
        const char *usage;
        unsigned long opts;     /* the options it takes; any other is refused */
        const char *cmd;        /* for messages */
    } subs[] = {
        {"export", cmd_db_export, usage_db_export, OPT(FORMAT) | OPT(OUT) | OPT(FORCE) | OPT(DB), "db export"},
        {"import", cmd_db_import, usage_db_import, OPT(FORMAT) | OPT(DB), "db import"},
        {"check", cmd_db_check, usage_db_check, OPT(DB), "db check"},
    };
    const size_t nsubs = sizeof subs / sizeof subs[0];
    char names[200] = "";
    for (size_t i = 0, o = 0; i < nsubs && o < sizeof names; i++)
        o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", i ? (i + 1 == nsubs ? " or " : ", ") : "",
                              subs[i].name);
    if (argc < 3 || argv[2][0] == '-') {
        if (argc >= 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
            fputs(usage_db, stdout);
            return 0;
        }
        fprintf(stderr, "convtune: db needs a subcommand: %s (see convtune db --help)\n", names);
        return CT_ERR_USAGE;
    }
    int which = -1;
    for (size_t i = 0; i < nsubs; i++)
        if (!strcmp(argv[2], subs[i].name))
            which = (int)i;
    if (which < 0) {
        fprintf(stderr, "convtune: unknown db subcommand '%s' (use %s)\n", argv[2], names);
        return CT_ERR_USAGE;
    }
    args a;
    if (!parse_args(argc, argv, 3, &a))
        return CT_ERR_USAGE;
    if (a.help) {
        fputs(subs[which].usage, stdout);
        return 0;
    }
    int r = check_options(&a, subs[which].opts, subs[which].cmd);
    return r ? r : subs[which].fn(&a);
}
