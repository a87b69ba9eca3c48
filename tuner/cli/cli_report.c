/* cli_report.c - `convtune report`: its checks (the options are the common
 * parser's, cli_args.c), refusals before anything is written, and the
 * atomic write of the page or the CSV. */
#include "cli.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "outfile.h"
#include "problem.h"
#include "report.h"

const char usage_report[] =
    "usage: convtune report [--problem SPEC ...] [--family F] [--device NAME] [--db PATH]\n"
    "                       [--format html|csv] [-o FILE] [--force]\n"
    "Write what tuning stored as one self-contained HTML page (no script, no\n"
    "external resource; plots as inline SVG): per problem the device and its\n"
    "measured ceilings, clocks and temperatures, the search over time with the\n"
    "best so far, the times per template, median and best time by parameter value,\n"
    "a roofline and the top candidates with their spread. --problem may be\n"
    "repeated; --family F takes every stored problem of F; with neither, every\n"
    "stored problem. Several problems get a summary table. --format csv writes\n"
    "their candidates with every field instead. Without --device, each problem is\n"
    "shown on the device of its fastest result. Without -o the output goes to\n"
    "stdout, which must then not be a terminal (redirect it; -o - insists).\n";

int cmd_report(const args *a)
{
    static char canon[CT_MAX_PROBLEM_ARGS][160];
    const char *problems[CT_MAX_PROBLEM_ARGS];
    const int np = a->nproblems;
    /* -o - is standard output, as no -o. */
    const char *family = a->family, *device = a->device, *out = out_is_stdout(a) ? NULL : a->out;
    const int force = a->force;
    int csv = 0;
    ct_err e;
    for (int i = 0; i < np; i++) {
        ct_problem p;
        ct_status rc = ct_problem_parse(a->problems[i], &p, &e);
        if (rc != CT_OK)
            return die(rc, e.msg);
        snprintf(canon[i], sizeof canon[i], "%s", p.canonical);
        problems[i] = canon[i];
    }
    if (a->format) {
        if (strcmp(a->format, "html") && strcmp(a->format, "csv")) {
            say(0, "report: --format must be html or csv, not '%s'", ECHO(a->format));
            return CT_ERR_USAGE;
        }
        csv = !strcmp(a->format, "csv");
    }
    if (np && family)
        return die(CT_ERR_USAGE, "report takes --problem SPEC or --family F, not both");
    if (family && !ct_family_find(family)) {
        say(0, "report: unknown family '%s'", ECHO(family));
        return CT_ERR_USAGE;
    }
    /* Hundreds of kilobytes of HTML on a terminal are never wanted: without
     * -o, stdout must be a file or a pipe (-o - writes there regardless). */
    if (!a->out && isatty(STDOUT_FILENO))
        return say(CT_ERR_USAGE, "report: standard output is a terminal; pass -o FILE.%s or redirect it "
                   "(convtune report > report.%s)", csv ? "csv" : "html", csv ? "csv" : "html");
    /* Refuse an unsafe or existing target before reading anything. */
    ct_status rc;
    if (out && (rc = ct_outfile_check(out, force, "report", &e)) != CT_OK)
        return die(rc, e.msg);
    ct_db *db;
    int st = open_existing_db(a, &db);   /* a --db that does not fit is refused, never cut */
    if (st)
        return st;
    ct_report r;
    ct_report_opts ro = {.problems = problems, .nproblems = np, .family = family, .device = device};
    if ((rc = ct_report_load(db, &ro, &r, &e)) != CT_OK) {
        ct_report_free(&r);
        ct_db_close(db);
        return die(rc, e.msg);
    }
    ct_outfile of;
    FILE *f = stdout;
    if (out) {
        if ((rc = ct_outfile_open(&of, out, ".convtune-report-", "report", &e)) != CT_OK) {
            ct_report_free(&r);
            ct_db_close(db);
            return die(rc, e.msg);
        }
        f = of.f;
    }
    rc = csv ? ct_report_csv(db, &r, f, &e) : ct_report_html(&r, f, &e);
    ct_db_close(db);
    if (out) {
        if (rc != CT_OK)
            ct_outfile_discard(&of);
        else if ((rc = ct_outfile_close(&of, &e)) == CT_OK)
            rc = ct_outfile_commit(&of, &e);
    }
    if (rc == CT_OK && out) {
        int nc = 0;
        for (int i = 0; i < r.ns; i++)
            nc += r.s[i].n;
        printf("%s: %d problem%s, %d candidates (%s)\n", out, r.ns, r.ns == 1 ? "" : "s", nc, csv ? "csv" : "html");
    }
    ct_report_free(&r);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}
