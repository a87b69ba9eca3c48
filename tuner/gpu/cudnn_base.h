/* cudnn_base.h - the vendor baseline: cuDNN timed on a workload's buffers.
 *
 * Run in the worker after the winner is known, on the GPU, inputs and fp64
 * reference the candidates had, and timed as they are (timer.h): the
 * faster verified of the fastest algorithm the legacy API's Find reports
 * and the fastest of the backend API's heuristic engines (cudnn_v8.h, as
 * PyTorch runs cuDNN), in the problem's element type with fp32 sums; an
 * fp32 problem twice, with TF32 off (FMA only; no tensor-core engine) and
 * on (the faster of cuDNN's default and tensor-op math, and every engine);
 * a tf32 problem once, float tensors with TF32 on. Never an error for the
 * run: whatever keeps
 * cuDNN from it (no library, a problem it cannot describe, a status, no
 * memory) is the outcome's reason. */
#ifndef CT_CUDNN_BASE_H
#define CT_CUDNN_BASE_H

#include "runner.h"

#define CT_CUDNN_TIMINGS 2

typedef struct ct_cudnn_timing {
    int ok;                    /* 1: verified and timed */
    char label[16];            /* "TF32 off", "TF32 on", "TF32", "bf16", "f16" */
    double us, relerr;         /* median of the samples; relative L2 error against the fp64 reference */
    char timing[16];           /* the method (timing.h) ... */
    int batch;                 /* ... and executions per sample */
    int algo;                  /* the algorithm Find chose, or the backend engine's global index */
    char api[8];               /* "legacy" (Find) or "backend" (the graph API's engines); "" not timed */
    char api_other[160];       /* what the API not chosen gave: its time, or why it gave none */
    char why[240];             /* ok == 0: what became of it */
} ct_cudnn_timing;

typedef struct ct_cudnn_outcome {
    int ran;                   /* 1: cuDNN loaded and the problem described; t[] tells the rest */
    char why[400];             /* ran == 0: why there is no baseline */
    char version[16];          /* "9.19" */
    int n;                     /* timings in t */
    ct_cudnn_timing t[CT_CUDNN_TIMINGS];
} ct_cudnn_outcome;

/* Time cuDNN on w's buffers (the output's overwritten) into o. Returns
 * CT_OK whatever came of it, an error only when the GPU context is lost. */
ct_status ct_cudnn_baseline(ct_gpu *g, ct_workload *w, const ct_settings *s, ct_cudnn_outcome *o, ct_err *e);

/* The timing to compare against: the first that succeeded (TF32 off for
 * fp32), NULL when none did. */
const ct_cudnn_timing *ct_cudnn_first_ok(const ct_cudnn_outcome *o);

#endif
