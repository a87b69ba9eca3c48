/* cudnn_v8.h - a problem's convolution through cuDNN's backend (graph) API,
 * the one PyTorch uses (through cudnn-frontend): engine configurations
 * from cuDNN's heuristics, made into execution plans for cudnn_base.c to
 * verify and time beside the legacy API's Find.
 *
 * Why both: on some half-precision layers the legacy Find's best trails
 * what the heuristics' engines run (a bf16 1x1 NHWC layer 5x slower), so a
 * baseline from Find alone flatters convtune. The graph is one convolution
 * node (x, w, y with the problem's strides, fp32 compute, alpha 1, beta 0);
 * the bias, where the problem has one, stays the legacy calls'. Building
 * never fails the run: no plan comes with a reason, and the legacy result
 * serves alone. */
#ifndef CT_CUDNN_V8_H
#define CT_CUDNN_V8_H

#include "cudnn_map.h"
#include "cudnndl.h"

/* Plans kept: per class (tensor-core or not, apart for fp32 so that TF32
 * off keeps its own), from the heuristics' INSTANT list, then a few from
 * FALLBACK whose engine is new. */
#define CT_CUDNN_V8_PER_CLASS 8
#define CT_CUDNN_V8_FALLBACK 2
#define CT_CUDNN_V8_MAX (2 * (CT_CUDNN_V8_PER_CLASS + CT_CUDNN_V8_FALLBACK))

typedef struct ct_cudnn_v8_plan {
    cudnnBackendDescriptor_t cfg, plan, pack;
    long long engine;          /* the engine's global index */
    int tensor_core;           /* the engine notes TENSOR_CORE (TF32 for fp32 tensors) */
    int fallback;              /* from the FALLBACK list */
    size_t ws;                 /* the workspace it needs */
} ct_cudnn_v8_plan;

typedef struct ct_cudnn_v8 {
    const ct_cudnn *L;
    cudnnHandle_t hd;
    cudnnBackendDescriptor_t tx, tw, ty, conv, op, graph;
    int n;                     /* plans in p */
    ct_cudnn_v8_plan p[CT_CUDNN_V8_MAX];
    int tried;                 /* engine configurations looked at */
} ct_cudnn_v8;

/* The device pointers and workspace the plans run on: x, w, y as the
 * legacy calls' (y is dy for dgrad, w the gradient for wgrad), the weights
 * channels last (OHWI) where w_cl. */
typedef struct ct_cudnn_v8_io {
    void *x, *w, *y, *ws;
    size_t ws_bytes;
    int w_cl;
} ct_cudnn_v8_io;

/* Build v's plans for m on handle hd: returns the count (0 with the reason
 * in why, one line). v is to be freed in any case. */
int ct_cudnn_v8_build(ct_cudnn_v8 *v, const ct_cudnn *L, cudnnHandle_t hd, const ct_cudnn_conv *m,
                      const ct_cudnn_v8_io *io, char *why, size_t len);

/* Execute plan i on the handle's stream. */
cudnnStatus_t ct_cudnn_v8_exec(const ct_cudnn_v8 *v, int i);

/* Destroy every descriptor v holds. */
void ct_cudnn_v8_free(ct_cudnn_v8 *v);

#endif
