/* compcost.h - what compiling a candidate is expected to cost, learnt as a
 * run goes.
 *
 * Compile time varies by template and, within one, by the parameters that
 * size the generated body (unroll factors, outputs per thread, a
 * constant-weight layer's unrolled taps): from a tenth of a second to tens
 * of seconds. The model keeps running means of log seconds (geometric
 * means: compile times are multiplicative) per template and per class
 * (template, parameter, value) and estimates a candidate as its template's
 * mean plus each of its classes' deviation from it, each shrunk toward 0 by
 * n / (n + 1) so a class seen once moves the estimate half-way. A class not
 * seen adds nothing (the template's mean); a template not seen takes the
 * mean over every template; nothing seen, a prior of one second. */
#ifndef CT_COMPCOST_H
#define CT_COMPCOST_H

#include "space.h"

#define CT_COMPCOST_PRIOR_S 1.0

typedef struct ct_compcost ct_compcost;

/* How an estimate was made. */
typedef enum ct_compcost_basis {
    CT_CC_PRIOR,      /* nothing seen */
    CT_CC_GLOBAL,     /* the mean over every template */
    CT_CC_TEMPLATE,   /* the template's mean */
    CT_CC_CLASS       /* the template's mean and at least one class */
} ct_compcost_basis;

/* A model over the templates and parameter values of sp (not owned). */
ct_compcost *ct_compcost_new(const ct_space *sp);
void ct_compcost_free(ct_compcost *m);

/* One compile of candidate (t, c) that took seconds (> 0; others are
 * ignored). t must be one of the space's templates; c need not be one of
 * its candidates (a stored record of another problem). */
void ct_compcost_add(ct_compcost *m, const ct_template *t, const ct_params *c, double seconds);

/* The expected compile seconds of (t, c), and how they were estimated
 * (basis may be NULL). */
double ct_compcost_estimate(const ct_compcost *m, const ct_template *t, const ct_params *c, ct_compcost_basis *basis);

/* Compiles counted for template t (0 for a template of another space). */
int ct_compcost_count(const ct_compcost *m, const ct_template *t);
/* Compiles counted in all. */
int ct_compcost_total(const ct_compcost *m);

#endif
