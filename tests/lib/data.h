/* data.h - random inputs and their comparison: one seeded generator
 * (CT_TEST_SEED repeats a run), values that are never zero (a zero input
 * hides a term a kernel or reference forgot), and the relative L2 error the
 * tuner's verification uses. */
#ifndef CT_TL_DATA_H
#define CT_TL_DATA_H

#include <stddef.h>

/* CT_TEST_SEED when set (decimal or 0x...), else dflt; printed, so a
 * failing run can be repeated. */
unsigned long long tl_seed(unsigned long long dflt);

/* Uniform in [-1, 1), never zero. */
float tl_uniform(unsigned long long *state);
void tl_fill(float *v, size_t n, unsigned long long *state);

/* ||got - want|| / ||want|| over n values (the absolute norm when want is
 * all zeros); INFINITY when got holds a NaN or an infinity. */
double tl_relerr(const double *got, const double *want, size_t n);

#endif
