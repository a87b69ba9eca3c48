/* search.h - which candidates of a space to measure, in what order.
 *
 *   exhaustive  every candidate
 *   random      a seeded uniform sample
 *   anneal      guided: simulated annealing over neighbouring parameter
 *               values (one parameter moved one step in its value list),
 *               started from the best of a small sample (one candidate of
 *               every template, then draws by template weight) and from any
 *               configurations passed in as starting points (the nearest
 *               tuned problems)
 *   model       ranked by a learned cost model (costmodel.h) that the
 *               caller fits and hands in (ct_search_set_model): baselines
 *               and one candidate of every template first, then, of every
 *               five proposals, two of highest expected improvement over
 *               the best so far times their template's weight, two
 *               neighbours of one of the four fastest measured and one
 *               drawn by template weight (exploration); under a time limit
 *               (ct_search_set_costs) expected improvement per expected
 *               second, and only candidates whose expected cost fits the
 *               time left. The starting points (the nearest
 *               tuned problems' winners) follow the baselines. It only
 *               reorders the admissible list.
 *               Without a model it is the anneal search.
 *
 * Templates share the guided searches' draws by weight: exp(-gap / 0.223),
 * gap the log-time by which the template's best trails the best of any,
 * less an optimism bonus 0.3 / sqrt(its verified count); at least 0.02, 1
 * before it was measured.
 *
 * The tuner asks for a batch of candidates, measures them and reports each
 * time back; guided strategies use the reports so far to choose the next
 * batch, and the caller bounds how many proposals may await results. All
 * choices come from the seed and the reports, so a run with the same
 * measurements is reproducible. */
#ifndef CT_SEARCH_H
#define CT_SEARCH_H

#include "space.h"

typedef enum ct_strategy { CT_SEARCH_AUTO, CT_SEARCH_EXHAUSTIVE, CT_SEARCH_RANDOM, CT_SEARCH_ANNEAL, CT_SEARCH_MODEL } ct_strategy;

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

/* How many of a guided search's proposals may be in flight (proposed, not
 * yet reported) in a run of nthreads compile threads and budget candidates:
 * four a thread keep the threads busy, but a proposal knows nothing of the
 * ones still in flight, so a window of 64 on a budget of 150 is most of the
 * run proposed blind. Replayed with the window (search_quality), 150
 * candidates of conv1dc:4:512 came within 5% of the best in 5 of 30 seeds
 * at 64 and 19 of 30 at 16, where the GPU runs had given 80% and 84% of it
 * (docs/BENCHMARKS.md, run 11). So a tenth of the budget, at least the
 * threads and at most four a thread. */
int ct_search_window(int budget, int nthreads);

/* Start the guided search near these parameter vectors too (each matched to
 * the space candidate of the same template with the most equal values). */
void ct_search_add_start(ct_search *s, const ct_template *t, const ct_params *p);

/* Up to max indices into sp->cand not proposed before; 0 when done. */
int ct_search_next(ct_search *s, int *idx, int max);

/* The measured median of candidate idx, or a value <= 0 when it failed. */
void ct_search_report(ct_search *s, int idx, double median_us);

/* The model strategy's predictions: mu[i] the predicted log time (in
 * microseconds) of candidate i, NAN where there is none, sd[i] its spread;
 * both of sp->n entries, copied. mu NULL: no model (the anneal search). */
void ct_search_set_model(ct_search *s, const double *mu, const double *sd);
/* Whether a model was handed in (the model strategy ranks by it). */
int ct_search_has_model(const ct_search *s);

/* A time limit for the model strategy: cost[i] the expected seconds
 * candidate i adds to the run (sp->n entries, copied), remaining_s what is
 * left of the limit. Proposals keep the expected cost of those not yet
 * reported within remaining_s. cost NULL: no limit. */
void ct_search_set_costs(ct_search *s, const double *cost, double remaining_s);

/* The model's typical error in log time (1.4826 times the median absolute
 * error) on the candidates it predicted when they were proposed and that
 * were then measured; *n of them (NAN when none). The closeness estimate
 * widens its spreads to it. */
double ct_search_model_error(const ct_search *s, int *n);

/* What was reported for candidate idx: its median, 0 when not yet, < 0
 * when it failed. */
double ct_search_time(const ct_search *s, int idx);

#endif
