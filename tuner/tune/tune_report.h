/* tune_report.h - what a tuning run prints: its header, a line per
 * candidate (--verbose) or a progress line, the summary, the ranking and
 * the winner, and the --json summary; also the run's measurement conditions
 * gathered from its candidates. The tuning loop (tune.c) decides; this
 * module only words it. */
#ifndef CT_TUNE_REPORT_H
#define CT_TUNE_REPORT_H

#include <stdio.h>

#include "runner.h"
#include "space.h"
#include "tune_result.h"

/* Widen the run's clock and temperature ranges and re-timing counts by one
 * measured candidate's conditions and timing method. */
void ct_tune_note_conditions(ct_tune_result *res, const ct_result *r);

/* How r's time was measured, for people: "graph of 263 launches, 95% CI
 * 3.78-3.83 us" ("" when r has no time). */
const char *ct_tune_timing_text(const ct_result *r, char *buf, size_t len);

/* "  [SM a->b MHz, ...]" for a verified candidate's --verbose line, else "". */
const char *ct_tune_conditions_text(const ct_result *r, char *buf, size_t len);

/* The run's conditions as the JSON object stored with it for `report`. */
void ct_tune_conditions_json(const ct_tune_result *res, int l2_flush, char *buf, size_t len);

void ct_tune_print_header(FILE *out, const ct_problem *p, const ct_gpu *g, const ct_space *sp, const char *strategy,
                          int budget, int time_limited, unsigned long long seed);

/* One candidate (--verbose) or the progress line that replaces itself. */
void ct_tune_print_candidate(FILE *f, int done, int budget, const ct_result *rec, const char *cond);
void ct_tune_print_progress(FILE *f, int done, int budget, int nfail, const ct_result *best, double elapsed_s);

/* The measurement line: L2, re-timings, races, workers, clocks. */
void ct_tune_print_measurement(FILE *out, const ct_tune_result *res, int l2_flush);

/* Why a run's winner is its baseline: the tuned templates' constraints
 * admitted nothing (one reason each), or what became of their candidates
 * (counts per status); into res->baseline_only. */
void ct_tune_note_baseline_only(const ct_space *sp, const int *counts, int tuned_ok, ct_tune_result *res);

/* The best five of okrecs (sorted, nok > 0), the baseline's rank, the
 * baseline-only note when set, the winner and the export command. */
void ct_tune_print_ranking(FILE *out, const ct_problem *p, const ct_gpu *g, const ct_result *okrecs, int nok,
                           const ct_tune_result *res);

/* The --json summary, one line on f. */
void ct_tune_print_json(FILE *f, const ct_problem *p, const ct_gpu *g, const char *strategy, unsigned long long seed,
                        int budget, const int *counts, const ct_tune_result *res, int nok, int l2_flush);

#endif
