/* rows.h - the rows of the GPU tests (gpu_families, gpu_passes): a problem
 * tuned through the command line (binary is the convtune under test) into a
 * database, then every stored candidate held to its verdict: some verified,
 * the winner within the element type's tolerance, none wrong, crashed or
 * hung; and an exported winner's self-test built with nvcc and run.
 *
 * CONVTUNE_GPU_PART=I/N runs the I-th of N parts (the problems whose spec
 * hashes to I-1 modulo N), so that a test fits one call of a lent GPU
 * machine; CONVTUNE_GPU_TEMPLATE=S runs only the rows tuned with a template
 * whose name contains S (--template) and the exports of their problems;
 * CONVTUNE_GPU_SPEC=S only the rows (and exports) whose problem string
 * contains S (":tf32": the tf32 rows). */
#ifndef CT_TL_ROWS_H
#define CT_TL_ROWS_H

#include <stddef.h>

/* Tune spec with the extra options (a budget, a strategy, --template). */
void tl_rows_tune(const char *binary, const char *db, const char *spec, const char *extra);

/* Each (problem, template) row tuned with that template alone, a random
 * sample of 30 seeded by its row. */
void tl_rows_tune_alone(const char *binary, const char *db, const char *const (*rows)[2], size_t n);

/* Export spec's winner into dir (numbered files, in call order), build its
 * self-test for arch (nvcc's -arch flag) and run it. */
void tl_rows_export_selftest(const char *binary, const char *db, const char *dir, const char *spec,
                             const char *arch);

#endif
