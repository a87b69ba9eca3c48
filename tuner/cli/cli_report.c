/* cli_report.c - `convtune report`: options, refusals before anything is
 * written, and the atomic write of the page or the CSV. */
#include "cli_report.h"

#include <stdio.h>
#include <string.h>

#include "db.h"
#include "outfile.h"
#include "problem.h"
#include "report.h"

#define MAX_PROBLEMS 64

const char ct_cli_report_usage[] =
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
    "shown on the device of its fastest result. Default output: stdout.\n";

static int fail(int code, const char *msg)
{
    fprintf(stderr, "convtune: %s\n", msg);
    return code;
}

int ct_cli_report(int argc, char **argv)
{
    static char canon[MAX_PROBLEMS][160];
    const char *problems[MAX_PROBLEMS];
    int np = 0, force = 0, csv = 0;
    const char *family = NULL, *device = NULL, *dbarg = NULL, *out = NULL;
    ct_err e;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(ct_cli_report_usage, stdout);
            return 0;
        }
        if (!strcmp(o, "--force")) {
            force = 1;
            continue;
        }
        int takes = !strcmp(o, "--problem") || !strcmp(o, "--family") || !strcmp(o, "--device") ||
                    !strcmp(o, "--db") || !strcmp(o, "-o") || !strcmp(o, "--output") || !strcmp(o, "--format");
        if (!takes) {
            fprintf(stderr, "convtune: unknown option '%s' (see convtune report --help)\n", o);
            return CT_ERR_USAGE;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "convtune: option %s needs a value\n", o);
            return CT_ERR_USAGE;
        }
        const char *v = argv[++i];
        if (!strcmp(o, "--problem")) {
            if (np == MAX_PROBLEMS)
                return fail(CT_ERR_USAGE, "report: at most 64 --problem options");
            ct_problem p;
            ct_status rc = ct_problem_parse(v, &p, &e);
            if (rc != CT_OK)
                return fail(rc, e.msg);
            snprintf(canon[np], sizeof canon[np], "%s", p.canonical);
            problems[np] = canon[np];
            np++;
        } else if (!strcmp(o, "--family")) {
            family = v;
        } else if (!strcmp(o, "--device")) {
            device = v;
        } else if (!strcmp(o, "--db")) {
            dbarg = v;
        } else if (!strcmp(o, "--format")) {
            if (strcmp(v, "html") && strcmp(v, "csv")) {
                fprintf(stderr, "convtune: report: --format must be html or csv, not '%s'\n", v);
                return CT_ERR_USAGE;
            }
            csv = !strcmp(v, "csv");
        } else {
            out = v;
        }
    }
    if (np && family)
        return fail(CT_ERR_USAGE, "report takes --problem SPEC or --family F, not both");
    if (family && !ct_family_find(family)) {
        fprintf(stderr, "convtune: report: unknown family '%s'\n", family);
        return CT_ERR_USAGE;
    }
    /* Refuse an unsafe or existing target before reading anything. */
    ct_status rc;
    if (out && (rc = ct_outfile_check(out, force, "report", &e)) != CT_OK)
        return fail(rc, e.msg);
    char path[1024];
    if (dbarg)
        snprintf(path, sizeof path, "%s", dbarg);
    else if ((rc = ct_db_default_path(path, sizeof path, &e)) != CT_OK)
        return fail(rc, e.msg);
    ct_db *db;
    if ((rc = ct_db_open(path, 0, &db, &e)) != CT_OK)
        return fail(rc, e.msg);
    ct_report r;
    ct_report_opts ro = {.problems = problems, .nproblems = np, .family = family, .device = device};
    if ((rc = ct_report_load(db, &ro, &r, &e)) != CT_OK) {
        ct_report_free(&r);
        ct_db_close(db);
        return fail(rc, e.msg);
    }
    ct_outfile of;
    FILE *f = stdout;
    if (out) {
        if ((rc = ct_outfile_open(&of, out, ".convtune-report-", "report", &e)) != CT_OK) {
            ct_report_free(&r);
            ct_db_close(db);
            return fail(rc, e.msg);
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
    return rc == CT_OK ? 0 : fail(rc, e.msg);
}
