/* closeness.h - how far a run's winner may be from the best of its space.
 *
 * Three cases, said as they are:
 *   all     every admissible candidate was judged: the winner is the best
 *           of the space (as timed);
 *   model   a cost model predicts every candidate not judged, as N(mu, sd)
 *           in log time: the estimate is the smallest X such that fewer than
 *           0.1 of the CT_CLOSE_TOP best-predicted ones are expected to run
 *           faster than winner / (1 + X/100) (so, by Markov's inequality,
 *           the chance that one does is under 10%, if the model's spread is
 *           right and its errors are shared by similar candidates: taking
 *           each of a space of 100,000 as an independent chance would leave
 *           no useful figure); each spread is at least the model's error
 *           on the run's own candidates, each predicted before it was
 *           measured (ct_search_model_error), so a model that was wrong
 *           about this problem claims little;
 *   none    neither: no figure, only the search's progress (the fraction
 *           of the space judged, how long since the last improvement).
 * The progress figures come with every case. The figure of the first two
 * is at least the timing noise (ct_closeness_noise_floor): the same kernel
 * timed in another process can differ by that much, so "within 0.0%" (the
 * whole space judged, or a model sure of it) would not hold against the
 * best another run of the same space times. */
#ifndef CT_CLOSENESS_H
#define CT_CLOSENESS_H

#include "json.h"
#include "search.h"

typedef enum ct_close_basis { CT_CLOSE_NONE, CT_CLOSE_ALL, CT_CLOSE_MODEL } ct_close_basis;

/* The expected count of faster candidates the model estimate allows. */
#define CT_CLOSE_EXPECTED 0.1
/* The best-predicted candidates not judged that the estimate counts. */
#define CT_CLOSE_TOP 100
/* The model's own-run error (ct_search_model_error) widens the spreads
 * once it was checked on this many candidates. */
#define CT_CLOSE_MIN_CHECKED 5
/* The largest figure given, in percent; beyond it the model says little. */
#define CT_CLOSE_MAX_PCT 1000.0

typedef struct ct_closeness {
    ct_close_basis basis;
    double within_pct;        /* < 0 without a basis */
    double spread_pct;        /* the model's typical error (exp(sd) - 1), 0 without one */
    double noise_pct;         /* > 0: within_pct was raised to this timing noise */
    int beyond;               /* the model's figure is past CT_CLOSE_MAX_PCT ("more than") */
    int judged, admissible;   /* candidates with an outcome; the space's */
    int unpredicted;          /* candidates not judged that the model has no prediction for */
    int since_best;           /* candidates judged after the winner's time was first seen */
    double since_best_s;      /* seconds from then to the end of the search */
    char why[160];            /* for basis none: why there is no figure */
    char text[512];           /* the summary's sentence */
} ct_closeness;

/* The estimate for winner_us, after search s over sp, from predictions mu
 * and sd (log microseconds, sp->n each; mu NULL: no model; why says why
 * there is none, NULL when the reason needs no words). since_best and
 * since_best_s as defined above. */
void ct_closeness_estimate(const ct_search *s, const ct_space *sp, const double *mu, const double *sd,
                           const char *why, double winner_us, int since_best, double since_best_s,
                           ct_closeness *out);

/* Raises c's figure (basis all or model) to noise_pct where it is lower,
 * and says so in its sentence. */
void ct_closeness_noise_floor(ct_closeness *c, double noise_pct);

/* The timing noise between processes the floor assumes at least, in
 * percent: in a grid of runs on H200s (2026-11-27), the same winners timed
 * by separate processes differed by 0.2% to 1.2%; in a later grid
 * (2026-11-28) the best of a 3.6 us kernel's space, every candidate judged
 * in each run, differed by 1.8% between hosts and 2.2% between two runs on
 * one host, so a floor of 1.5% did not hold for short kernels. */
#define CT_CLOSE_NOISE_PCT 2.5

/* The basis's name: "none", "all" or "model". */
const char *ct_close_basis_name(ct_close_basis b);

/* c as a JSON object member key of j (NULL: the value alone): the
 * figures, and with_text the reason and the sentence too (the --json
 * summary; the run's note in the database keeps the figures alone, and
 * `report` words them). */
void ct_closeness_write(ct_jw *j, const char *key, const ct_closeness *c, int with_text);
/* The figures as one JSON object in buf (the run's note). */
void ct_closeness_json(const ct_closeness *c, char *buf, size_t len);

#endif
