/* guide.h - the learned models a tuning run steers by: the cost model of
 * each template (costmodel.h) fitted on the database and on the run's own
 * measurements, and the compile-time model (compcost.h), turned into the
 * predictions and costs the model strategy ranks with (search.h) and into
 * the closeness estimate at the end (closeness.h).
 *
 * Training rows: every verified candidate stored for the problem's family
 * on a device of the same compute-capability major (the same
 * architecture), of a template of the space, except those of this very
 * problem on this very device (the run resumes those, and reports them as
 * its own). At most CT_GUIDE_ROWS per template, a seeded uniform sample of
 * them beyond. The run's own measurements weigh so that together they
 * count at least as much as a third of the stored rows: the model is
 * pulled toward this problem as it measures. A template with too few rows
 * for a model, once the run measured it, is predicted as the run's mean
 * time of it with a wide spread. Without stored rows the closeness has no
 * basis: a model of the run's few points of one problem is no ground for
 * a figure. */
#ifndef CT_GUIDE_H
#define CT_GUIDE_H

#include "closeness.h"
#include "compcost.h"
#include "db.h"
#include "search.h"

#define CT_GUIDE_ROWS 4000
/* A template's model needs this many rows. */
#define CT_GUIDE_MIN_ROWS 12

typedef struct ct_guide ct_guide;

/* The guide for p's space sp (neither owned) on device (name) of
 * compute capability cc_major and sms SMs (0: unknown), its training rows
 * read from db (NULL: none). The stored rows are of devices of the same
 * major version, their waves counted on this device's SMs. */
ct_status ct_guide_new(ct_db *db, const ct_problem *p, const ct_space *sp, const char *device, int cc_major,
                       int sms, unsigned long long seed, ct_guide **out, ct_err *e);
void ct_guide_free(ct_guide *g);

/* Training rows read from the database (all templates). */
int ct_guide_stored_rows(const ct_guide *g);

/* An outcome of the run: candidate idx's median (<= 0: failed), the
 * seconds its compile took (NAN or 0: none, e.g. a cached binary) and the
 * seconds the GPU spent verifying and timing it (NAN: reused, not
 * measured). */
void ct_guide_observe(ct_guide *g, int idx, double median_us, double compile_s, double measure_s);

/* Fit every template's model whose rows changed by a few since its last
 * fit (all: every one that changed at all), and predict the candidates. */
void ct_guide_fit(ct_guide *g, int all);

/* Hand the search the predictions (none while no template has stored rows:
 * the model strategy is then the anneal search) and, when remaining_s >= 0
 * (a time limit), each candidate's expected wall seconds: the larger of its
 * compile estimate spread over nthreads compile threads and the run's mean
 * measuring time (the two overlap). */
void ct_guide_steer(ct_guide *g, ct_search *s, double remaining_s, int nthreads);

/* Whether the database held rows for at least one template (the model
 * strategy ranks by the model only then). */
int ct_guide_has_data(const ct_guide *g);

/* The closeness of winner_us after search s (closeness.h), from the
 * models' predictions where the database gave data. */
void ct_guide_closeness(ct_guide *g, const ct_search *s, double winner_us, int since_best, double since_best_s,
                        ct_closeness *out);

/* The compile-time model (for tests and the summary). */
const ct_compcost *ct_guide_compcost(const ct_guide *g);

#endif
