/* tune_result.h - what a tuning run found: ct_tune (tune.h) fills it and
 * tune_report words it. A header of its own so that the two need not
 * include each other. */
#ifndef CT_TUNE_RESULT_H
#define CT_TUNE_RESULT_H

#include "closeness.h"
#include "cudnn_base.h"
#include "result.h"

typedef struct ct_tune_result {
    ct_result winner;
    double baseline_us;        /* naive template's best median, 0 if none */
    int counts_ok, counts_failed, tuned;
    int cache_hits, reused;
    double wall_s, compile_s, verify_s, time_s, store_s;   /* time split */
    int worker_starts;         /* 1 + restarts after crashed or hung candidates */
    int retimed, raced;        /* timings re-taken for spread; stopped early as losers */
    int batched, slow;         /* timed in batches (short ones); with fewer samples (slow ones) */
    int sm_mhz_min, sm_mhz_max, temp_c_min, temp_c_max;   /* -1 when NVML is absent */
    /* Non-empty when no tuned (non-baseline) template has a verified
     * candidate: why, in one line (their constraints, or their failures). */
    char baseline_only[512];
    /* The vendor baseline timed beside the winner (tune_cudnn.h); none
     * asked for under --baseline none. */
    int cudnn_asked;
    ct_cudnn_outcome cudnn;
    /* How far the winner may be from the best of the space (closeness.h). */
    ct_closeness closeness;
} ct_tune_result;

#endif
