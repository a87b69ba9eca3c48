/* search.h - which candidates of a space to measure, in what order.
 *
 *   exhaustive  every candidate
 *   random      a seeded uniform sample
 *   anneal      guided: simulated annealing over neighbouring parameter
 *               values (one parameter moved one step in its value list),
 *               started from the best of a small random sample and from any
 *               configurations passed in as starting points (the nearest
 *               tuned problems)
 *
 * The tuner asks for a batch of candidates, measures them and reports each
 * time back; guided strategies use the reports so far to choose the next
 * batch, and the caller bounds how many proposals may await results. All
 * choices come from the seed and the reports, so a run with the same
 * measurements is reproducible. */
#ifndef CT_SEARCH_H
#define CT_SEARCH_H

#include "space.h"

typedef enum ct_strategy { CT_SEARCH_AUTO, CT_SEARCH_EXHAUSTIVE, CT_SEARCH_RANDOM, CT_SEARCH_ANNEAL } ct_strategy;

ct_status ct_strategy_parse(const char *text, ct_strategy *out, ct_err *e);
const char *ct_strategy_name(ct_strategy s);

typedef struct ct_search ct_search;

/* A search over sp (which it does not own) measuring at most budget
 * candidates (baseline candidates always included, counted). AUTO picks
 * exhaustive when the space fits the budget, else anneal. */
ct_search *ct_search_new(const ct_space *sp, ct_strategy strategy, int budget, unsigned long long seed);
void ct_search_free(ct_search *s);
ct_strategy ct_search_strategy(const ct_search *s);
int ct_search_budget(const ct_search *s);

/* Start the guided search near these parameter vectors too (each matched to
 * the space candidate of the same template with the most equal values). */
void ct_search_add_start(ct_search *s, const ct_template *t, const ct_params *p);

/* Up to max indices into sp->cand not proposed before; 0 when done. */
int ct_search_next(ct_search *s, int *idx, int max);

/* The measured median of candidate idx, or a value <= 0 when it failed. */
void ct_search_report(ct_search *s, int idx, double median_us);

#endif
