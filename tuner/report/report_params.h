/* report_params.h - the report's per-parameter view: for each parameter of
 * each template that took two or more values among the verified candidates,
 * a plot of the median and best time per value (all on one time scale, so
 * the small multiples compare), and a ranking of the parameters by how much
 * choosing their value matters. */
#ifndef CT_REPORT_PARAMS_H
#define CT_REPORT_PARAMS_H

#include <stdio.h>

#include "report.h"

void ct_report_params_html(FILE *f, const ct_report_section *s);

#endif
