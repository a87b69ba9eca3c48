/* report.h - `convtune report`: what a tuning run stored, for people.
 *
 * ct_report_load reads every stored candidate once (ct_db_dump) and keeps
 * those of the problems asked for, each on one device: --device (the exact
 * name, or the only name containing it), otherwise the device of the fastest
 * verified result, as `export` picks it. Device rows that differ only in
 * driver or NVRTC version count as one device. Within a section the
 * candidates are in measurement order (creation time, then row id).
 *
 * ct_report_html writes one self-contained HTML page (report_html.c): no
 * script, no external resource, every plot inline SVG whose marks carry a
 * class that says what they are, so a test can count them:
 *   search    circle.mk-search per verified candidate (x: its place among
 *             all candidates of the section), line.mk-fail per failed one,
 *             polyline.best-line (best so far)
 *   dist      rect.mk-box per template with a verified candidate (p25-p75),
 *             circle.mk-dist per verified candidate
 *   param     per template parameter with two or more values among the
 *             verified candidates: rect.mk-pmed (median) and circle.mk-pbest
 *             (best) per value
 *   roofline  circle.mk-roof per top candidate (at most CT_REPORT_TOP, the
 *             winner first) and one more for the naive baseline when it was
 *             verified
 * ct_report_csv writes the sections' candidates with every field, as
 * `db export --format csv` does. */
#ifndef CT_REPORT_H
#define CT_REPORT_H

#include <stdio.h>

#include "db.h"
#include "problem.h"
#include "status.h"

#define CT_REPORT_TOP 10

typedef struct ct_report_section {
    char problem[160];
    char device[128];
    const ct_family *family;
    const ct_result **rows;    /* measurement order */
    int n;
    const ct_result **ok;      /* verified, fastest first */
    int nok;
    int counts[CT_RS_COUNT];       /* by ct_result_status */
    const ct_result *baseline; /* the naive baseline: the fastest of the newest run verifying one, or NULL */
    const ct_result *ceil;     /* the row with the device's latest ceilings */
    int nruns;
    /* How long tuning took: the wall-clock seconds from each run's start to
     * its end, summed over the runs that recorded an end, and the compile
     * times the candidates recorded (CPU seconds, compiles in parallel,
     * some before their run began). */
    double tuning_s, compile_s;
    int ended, unended;        /* runs with an end, and without (not counted) */
} ct_report_section;

typedef struct ct_report {
    ct_result *all;            /* the rows kept */
    long nall, cap;
    ct_report_section *s;
    int ns;
    char generated[32];        /* ISO 8601 UTC */
} ct_report;

typedef struct ct_report_opts {
    const char *const *problems;   /* canonical problem strings */
    int nproblems;
    const char *family;            /* every stored problem of this family */
    const char *device;            /* NULL: per problem, the device of the fastest result */
} ct_report_opts;

/* With neither problems nor family, every stored problem. CT_ERR_NOT_FOUND
 * for an empty database, a problem with nothing stored (on that device),
 * a family with nothing stored; CT_ERR_USAGE for a device name that
 * matches several devices. */
ct_status ct_report_load(ct_db *db, const ct_report_opts *o, ct_report *r, ct_err *e);
void ct_report_free(ct_report *r);

ct_status ct_report_html(const ct_report *r, FILE *f, ct_err *e);
ct_status ct_report_csv(ct_db *db, const ct_report *r, FILE *f, ct_err *e);

/* Small helpers shared with report_html.c. */
double ct_report_gflops(const ct_result *r);     /* achieved GFLOP/s, 0 without a time */

#endif
