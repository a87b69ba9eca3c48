/* params_diff.h - a candidate's parameters less those at the template's
 * declared default, for the report's top-candidates table: ten rows of full
 * JSON objects push the time columns off a 1920 px screen, and the defaults
 * say nothing about why a candidate is fast. */
#ifndef CT_PARAMS_DIFF_H
#define CT_PARAMS_DIFF_H

#include <stdio.h>

#include "problem.h"

/* Write params_json as HTML-escaped "K=V" items (space-separated), leaving
 * out each parameter whose value is template tmpl's declared default in
 * family fam (ct_param_def.dflt). "(all defaults)" when none is left;
 * without the family or the template every parameter is written; text
 * that is no JSON object is written as it is (escaped). Returns how many
 * items were written. */
int ct_params_nondefault(FILE *f, const ct_family *fam, const char *tmpl, const char *params_json);

#endif
