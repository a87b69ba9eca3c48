/* tune_cudnn.h - the vendor baseline of a tuning run: cuDNN timed by the
 * first GPU's worker once the winner is known (cudnn_base.h), and how the
 * run states it: a line of the report, fields of --json, a note stored
 * with the run. The ratio is cuDNN's time over the winner's ("convtune
 * 2.31x": the winner takes 1/2.31 of cuDNN's time). */
#ifndef CT_TUNE_CUDNN_H
#define CT_TUNE_CUDNN_H

#include <stdio.h>

#include "json.h"
#include "tune_result.h"
#include "worker.h"

/* Time cuDNN on wk's workload into res (cudnn_asked set); whatever fails
 * is the outcome's reason, never the run's error. */
void ct_tune_cudnn_run(ct_worker *wk, ct_tune_result *res);

/* "  cuDNN 9.19 (TF32 off): 123.4 us, relerr 3.1e-07: convtune 2.31x [backend API engine 12; legacy
 * API algo 1: 130.2 us]; (TF32 on): ..." (the bracket: the API that gave the time, and what the
 * other gave) or "  cuDNN baseline: none (REASON)"; nothing when it was not asked for. */
void ct_tune_cudnn_print(FILE *out, const ct_tune_result *res, double winner_us);

/* The --json fields: cudnn_version, cudnn_us, cudnn_relerr, cudnn_speedup,
 * cudnn_timing, cudnn_api ("legacy" or "backend"; not in the stored note),
 * cudnn_tf32_us, cudnn_tf32_relerr, cudnn_tf32_speedup (null where there is
 * none) and cudnn_none (the reason there is no baseline, or null). */
void ct_tune_cudnn_json(ct_jw *j, const ct_tune_result *res, double winner_us);

/* The same as the JSON object stored with the run (key "cudnn" of its
 * settings, ct_db_run_note); 0 when it did not fit in len bytes. */
int ct_tune_cudnn_note(const ct_tune_result *res, double winner_us, char *buf, size_t len);

#endif
