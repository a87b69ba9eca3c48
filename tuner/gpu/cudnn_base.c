/* cudnn_base.c - cuDNN timed on a workload (cudnn_base.h). */
#include "cudnn_base.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudnn_map.h"
#include "cudnn_v8.h"
#include "cudnndl.h"
#include "dtype.h"
#include "timer.h"
#include "timing.h"

/* Find's results: more than any pass has algorithms. */
#define MAX_PERF 16
/* The workspace Find may use: at most this, and half the free memory. */
#define MAX_WORKSPACE ((size_t)1 << 30)

typedef struct cd_run {
    const ct_cudnn *L;
    const ct_cudnn_conv *m;
    cudnnHandle_t hd;
    cudnnTensorDescriptor_t xd, yd, bd;
    cudnnFilterDescriptor_t wd;
    cudnnConvolutionDescriptor_t cd;
    void *x, *wt, *y, *bias;   /* device pointers: x and y (dy), the weights (dW), the bias (db) */
    CUdeviceptr ws;
    size_t ws_bytes;
    CUdeviceptr wcl;           /* the weights channels last (OHWI), where made */
    int algo;
    int plan;                  /* >= 0: the backend API's plan to run instead of algo */
    int have_v8;               /* v8 holds plans */
    ct_cudnn_v8 v8;
    char v8_why[160];          /* !have_v8: why not */
    cudnnStatus_t last;        /* the status of the last call */
} cd_run;

static void *dptr(CUdeviceptr p)
{
    return (void *)(uintptr_t)p;
}

/* One execution of the pass as the candidates compute it: forward (and the
 * bias), dgrad, or wgrad (and db); the convolution by the backend API's
 * plan r->plan where it is set, the bias by the legacy calls always. */
static CUresult cd_exec(void *ctx)
{
    cd_run *r = ctx;
    const ct_cudnn *L = r->L;
    const float one = 1.0f, zero = 0.0f;
    void *ws = dptr(r->ws);
    cudnnStatus_t st;
    if (r->plan >= 0)
        st = ct_cudnn_v8_exec(&r->v8, r->plan);
    else if (r->m->pass == 1)
        st = L->cudnnConvolutionBackwardData(r->hd, &one, r->wd, r->wt, r->yd, r->y, r->cd, r->algo, ws, r->ws_bytes,
                                             &zero, r->xd, r->x);
    else if (r->m->pass == 2)
        st = L->cudnnConvolutionBackwardFilter(r->hd, &one, r->xd, r->x, r->yd, r->y, r->cd, r->algo, ws,
                                               r->ws_bytes, &zero, r->wd, r->wt);
    else
        st = L->cudnnConvolutionForward(r->hd, &one, r->xd, r->x, r->wd, r->wt, r->cd, r->algo, ws, r->ws_bytes,
                                        &zero, r->yd, r->y);
    if (st == CT_CUDNN_STATUS_SUCCESS && r->bias && r->m->pass == 2)
        st = L->cudnnConvolutionBackwardBias(r->hd, &one, r->yd, r->y, &zero, r->bd, r->bias);
    else if (st == CT_CUDNN_STATUS_SUCCESS && r->bias && r->m->pass == 0)
        st = L->cudnnAddTensor(r->hd, &one, r->bd, r->bias, &one, r->yd, r->y);
    r->last = st;
    /* Not one of the sticky errors (timer.c): a failed call is that
     * timing's outcome, not a lost context. */
    return st == CT_CUDNN_STATUS_SUCCESS ? CUDA_SUCCESS : CUDA_ERROR_UNKNOWN;
}

/* A graph of executions, launched on the default stream. */
typedef struct graph_run {
    const ct_drv *d;
    CUgraphExec exec;
} graph_run;

static CUresult graph_exec(void *ctx)
{
    const graph_run *g = ctx;
    return g->d->cuGraphLaunch(g->exec, NULL);
}

/* batch executions of r captured into one executable graph, as a short
 * candidate is timed (a graph of launches: the GPU never waits for the
 * host, whose cost per cuDNN call would otherwise be what is timed); NULL
 * when any step fails (nothing is left captured: the stream is the
 * handle's only while capturing). */
static CUgraphExec capture(const ct_drv *d, cd_run *r, int batch)
{
    CUstream cs = NULL;
    CUgraph graph = NULL;
    CUgraphExec exec = NULL;
    if (d->cuStreamCreate(&cs, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS)
        return NULL;
    if (r->L->cudnnSetStream(r->hd, (ct_cudnn_stream)cs) == CT_CUDNN_STATUS_SUCCESS) {
        if (d->cuStreamBeginCapture(cs, CU_STREAM_CAPTURE_MODE_RELAXED) == CUDA_SUCCESS) {
            int ok = 1;
            for (int i = 0; i < batch && ok; i++)
                ok = cd_exec(r) == CUDA_SUCCESS;
            /* Always ended: a stream left capturing refuses everything. */
            CUresult er = d->cuStreamEndCapture(cs, &graph);
            if (ok && er == CUDA_SUCCESS && graph && d->cuGraphInstantiate(&exec, graph, 0) != CUDA_SUCCESS)
                exec = NULL;
        }
        r->L->cudnnSetStream(r->hd, NULL);
    }
    if (graph)
        d->cuGraphDestroy(graph);
    d->cuStreamDestroy(cs);
    return exec;
}

/* Run the output's computation once on a NaN-filled output and return its
 * relative L2 error against the reference (+inf for a NaN left). */
static ct_status verify(const ct_drv *d, ct_workload *w, const ct_launcher *run, double *relerr, CUresult *cr,
                        ct_err *e)
{
    const size_t nout = w->bufs[w->out_index].count;
    CUdeviceptr dout = w->dev[w->out_index];
    if (!ct_dtype_is_half(w->dtype))
        CU_CHECK(d, e, cuMemsetD32(dout, 0x7FC00000u, nout));
    else
        CU_CHECK(d, e, cuMemsetD16(dout, ct_dtype_nan_bits(w->dtype), nout));
    *cr = run->run(run->ctx);
    if (*cr == CUDA_SUCCESS)
        *cr = d->cuCtxSynchronize();
    if (*cr != CUDA_SUCCESS)
        return CT_OK;
    float *host = w->host[w->out_index];
    CU_CHECK(d, e, cuMemcpyDtoH(host, dout, nout * ct_dtype_size(w->dtype)));
    ct_dtype_widen(w->dtype, host, nout);
    *relerr = ct_relerr(host, w->ref, nout);
    return CT_OK;
}

/* Evaluate a cuDNN call; on failure write "call: status text" into why and
 * jump to label. */
#define DNN_TRY(L, why, label, call)                                                                  \
    do {                                                                                             \
        cudnnStatus_t st_ = (L)->call;                                                               \
        if (st_ != CT_CUDNN_STATUS_SUCCESS) {                                                        \
            const char *s_ = (L)->cudnnGetErrorString(st_);                                          \
            snprintf(why, sizeof why, "%.40s: %s (%d)", #call, s_ ? s_ : "error", (int)st_);          \
            goto label;                                                                              \
        }                                                                                            \
    } while (0)

static int cudnn_type(ct_dtype t)
{
    /* f32 and tf32: float tensors (tf32 is a math mode, not a type) */
    return t == CT_DTYPE_BF16 ? CT_CUDNN_DATA_BFLOAT16 : t == CT_DTYPE_F16 ? CT_CUDNN_DATA_HALF : CT_CUDNN_DATA_FLOAT;
}

static ct_status measure(ct_gpu *g, ct_workload *w, const ct_settings *s, cd_run *r, ct_cudnn_timing *t,
                         ct_err *e);

/* Find the fastest algorithm under math type math, then verify and time
 * it into t. An error only when the context is lost. */
static ct_status time_one(ct_gpu *g, ct_workload *w, const ct_settings *s, cd_run *r, int math, ct_cudnn_timing *t,
                          ct_err *e)
{
    const ct_cudnn *L = r->L;
    char why[sizeof t->why] = "";
    ct_cudnn_perf perf[MAX_PERF];
    int nperf = 0;
    void *ws = dptr(r->ws);
    memset(perf, 0, sizeof perf);
    DNN_TRY(L, why, fail, cudnnSetConvolutionMathType(r->cd, math));
    if (r->m->pass == 1)
        DNN_TRY(L, why, fail, cudnnFindConvolutionBackwardDataAlgorithmEx(r->hd, r->wd, r->wt, r->yd, r->y, r->cd,
                                                                          r->xd, r->x, MAX_PERF, &nperf, perf, ws,
                                                                          r->ws_bytes));
    else if (r->m->pass == 2)
        DNN_TRY(L, why, fail, cudnnFindConvolutionBackwardFilterAlgorithmEx(r->hd, r->xd, r->x, r->yd, r->y, r->cd,
                                                                            r->wd, r->wt, MAX_PERF, &nperf, perf, ws,
                                                                            r->ws_bytes));
    else
        DNN_TRY(L, why, fail, cudnnFindConvolutionForwardAlgorithmEx(r->hd, r->xd, r->x, r->wd, r->wt, r->cd, r->yd,
                                                                     r->y, MAX_PERF, &nperf, perf, ws, r->ws_bytes));
    /* Find sorts its results fastest first; the first that ran wins. */
    int best = -1;
    for (int i = 0; i < nperf && i < MAX_PERF && best < 0; i++)
        if (perf[i].status == CT_CUDNN_STATUS_SUCCESS && perf[i].time >= 0 && perf[i].memory <= r->ws_bytes)
            best = i;
    if (best < 0) {
        const char *st = nperf > 0 ? L->cudnnGetErrorString(perf[0].status) : NULL;
        snprintf(why, sizeof why, "no algorithm of cuDNN's ran this problem (%d tried%s%s)", nperf,
                 st ? "; the first: " : "", st ? st : "");
        goto fail;
    }
    r->algo = perf[best].algo;
    t->algo = r->algo;
    snprintf(t->api, sizeof t->api, "legacy");
    /* The math the chosen algorithm was found with (as PyTorch runs it);
     * FMA only stays FMA only. */
    if (math != CT_CUDNN_FMA_MATH)
        DNN_TRY(L, why, fail, cudnnSetConvolutionMathType(r->cd, perf[best].math_type));
    return measure(g, w, s, r, t, e);
fail:
    t->ok = 0;
    snprintf(t->why, sizeof t->why, "%s", why);
    return CT_OK;
}

/* Verify r's choice (the backend plan r->plan, else the legacy algorithm
 * r->algo) and time it into t, as a candidate is (a graph of the calls
 * for a short one). t->ok, or t->why; an error only when the context is
 * lost. */
static ct_status measure(ct_gpu *g, ct_workload *w, const ct_settings *s, cd_run *r, ct_cudnn_timing *t, ct_err *e)
{
    const ct_cudnn *L = r->L;
    const ct_drv *d = g->d;
    char why[sizeof t->why] = "", what[48];
    ct_status rc = CT_OK;
    if (r->plan >= 0)
        snprintf(what, sizeof what, "backend engine %lld", r->v8.p[r->plan].engine);
    else
        snprintf(what, sizeof what, "algorithm %d", r->algo);
    /* Verification on a NaN-filled output, as a candidate's. */
    const ct_launcher run = {.run = cd_exec, .ctx = r};
    CUresult cr = CUDA_SUCCESS;
    if ((rc = verify(d, w, &run, &t->relerr, &cr, e)) != CT_OK)
        return rc;
    if (cr != CUDA_SUCCESS) {
        if (r->last != CT_CUDNN_STATUS_SUCCESS) {
            snprintf(why, sizeof why, "%s: %s", what, L->cudnnGetErrorString(r->last));
            goto fail;
        }
        return ct_drv_fail(e, cr, "cuDNN's run");
    }
    /* A loose result is reported (TF32 is looser than fp32's tolerance);
     * one with a NaN or infinity left is no baseline. */
    if (!isfinite(t->relerr)) {
        snprintf(why, sizeof why, "%s left NaN or Inf in the output", what);
        goto fail;
    }
    const ct_timing_opts to = {.flush = s->l2_flush ? w->flush : 0, .flush_words = w->flush_bytes / 4};
    ct_result res;
    ct_result_init(&res);
    if ((rc = ct_time_launcher(d, &run, s, &to, &res, e)) != CT_OK)
        return rc;
    if (res.status != CT_RS_OK) {
        snprintf(why, sizeof why, "timing: %.200s", r->last != CT_CUDNN_STATUS_SUCCESS
                                                        ? L->cudnnGetErrorString(r->last) : res.error);
        goto fail;
    }
    t->us = res.median_us;
    snprintf(t->timing, sizeof t->timing, "%s", res.timing);
    t->batch = res.batch;
    /* Short: timed again as a graph of the batch's executions, the way a
     * short candidate is; kept when the graph computes what the calls did. */
    CUgraphExec ge = res.batch > 1 ? capture(d, r, res.batch) : NULL;
    if (ge) {
        graph_run gr = {.d = d, .exec = ge};
        const ct_launcher grun = {.run = graph_exec, .ctx = &gr};
        double grel = INFINITY;
        rc = verify(d, w, &grun, &grel, &cr, e);
        ct_result gres;
        ct_result_init(&gres);
        const double tol = ct_dtype_tolerance(w->dtype, s->tolerance);
        if (rc == CT_OK && cr == CUDA_SUCCESS && grel <= (2 * t->relerr > tol ? 2 * t->relerr : tol))
            rc = ct_time_launcher(d, &grun, s, &to, &gres, e);
        d->cuGraphExecDestroy(ge);
        if (rc != CT_OK)
            return rc;
        /* A graph that did not run is no timing; a lost context is the
         * run's error (the synchronisation reports it again). */
        if (cr != CUDA_SUCCESS && (cr = d->cuCtxSynchronize()) != CUDA_SUCCESS)
            return ct_drv_fail(e, cr, "cuDNN's graph");
        if (gres.status == CT_RS_OK && gres.median_us > 0) {
            t->us = gres.median_us / res.batch;
            snprintf(t->timing, sizeof t->timing, "%s", CT_TIMING_GRAPH);
        }
    }
    t->ok = 1;
    return CT_OK;
fail:
    t->ok = 0;
    snprintf(t->why, sizeof t->why, "%s", why);
    return CT_OK;
}

/* cuDNN with TF32 allowed, into t (its label kept): Find under cuDNN's
 * default math (as PyTorch asks for TF32) and under tensor-op math, the
 * faster verified of the two; Find under one math type can leave out an
 * engine the other lists (seen: an fp32 NHWC 3x3 layer of batch 16 where
 * the default math's fastest was an FMA algorithm). */
static ct_status time_tf32(ct_gpu *g, ct_workload *w, const ct_settings *s, cd_run *r, ct_cudnn_timing *t,
                           ct_err *e)
{
    ct_cudnn_timing other = *t;
    ct_status rc = time_one(g, w, s, r, CT_CUDNN_DEFAULT_MATH, t, e);
    if (rc == CT_OK)
        rc = time_one(g, w, s, r, CT_CUDNN_TENSOR_OP_MATH, &other, e);
    if (rc == CT_OK && other.ok && (!t->ok || other.us < t->us))
        *t = other;
    return rc;
}

/* The backend API's plans verified and timed; the fastest that verifies
 * within tol replaces t (the legacy API's result, label kept) where it is
 * faster or t failed. tc: tensor-core engines allowed (not for fp32 with
 * TF32 off). What the other API gave is kept in t->api_other. */
static ct_status time_v8(ct_gpu *g, ct_workload *w, const ct_settings *s, cd_run *r, int tc, double tol,
                         ct_cudnn_timing *t, ct_err *e)
{
    if (!r->have_v8) {
        snprintf(t->api_other, sizeof t->api_other, "%s", r->v8_why);
        return CT_OK;
    }
    ct_cudnn_timing best = {0};
    char first[sizeof t->api_other] = "";
    int timed = 0;
    for (int i = 0; i < r->v8.n; i++) {
        if (!tc && r->v8.p[i].tensor_core)
            continue;
        ct_cudnn_timing c = {0};
        r->plan = i;
        ct_status rc = measure(g, w, s, r, &c, e);
        r->plan = -1;
        if (rc != CT_OK)
            return rc;
        timed++;
        if (c.ok && c.relerr > tol) {
            c.ok = 0;
            snprintf(c.why, sizeof c.why, "engine %lld: relerr %.1e over %.1e", r->v8.p[i].engine, c.relerr, tol);
        }
        if (!c.ok && !first[0])
            snprintf(first, sizeof first, "%.150s", c.why);
        if (c.ok && (!best.ok || c.us < best.us)) {
            best = c;
            best.algo = (int)r->v8.p[i].engine;
        }
    }
    if (!best.ok) {
        if (timed)
            snprintf(t->api_other, sizeof t->api_other, "backend API: none of %d plans verified (%.100s)", timed, first);
        else
            snprintf(t->api_other, sizeof t->api_other, "backend API: no plan without tensor cores");
        return CT_OK;
    }
    snprintf(best.api, sizeof best.api, "backend");
    if (!t->ok || best.us < t->us) {
        if (t->ok)
            snprintf(best.api_other, sizeof best.api_other, "legacy API algo %d: %.2f us; best of %d backend plans",
                     t->algo, t->us, timed);
        else
            snprintf(best.api_other, sizeof best.api_other, "legacy API: %.100s; best of %d backend plans", t->why,
                     timed);
        snprintf(best.label, sizeof best.label, "%s", t->label);
        *t = best;
    } else {
        snprintf(t->api_other, sizeof t->api_other, "backend API engine %d (best of %d plans): %.2f us", best.algo,
                 timed, best.us);
    }
    return CT_OK;
}

/* One timing of the baseline: the legacy API's Find (FMA math for fp32
 * with TF32 off, both TF32 maths for TF32 on, tensor-op math for a half
 * type), then the backend API's plans. */
static ct_status time_both(ct_gpu *g, ct_workload *w, const ct_settings *s, cd_run *r, int tf32, ct_cudnn_timing *t,
                           ct_err *e)
{
    const ct_dtype dt = r->m->dtype;
    const int half = ct_dtype_is_half(dt);
    ct_status rc = half ? time_one(g, w, s, r, CT_CUDNN_TENSOR_OP_MATH, t, e)
                   : tf32 ? time_tf32(g, w, s, r, t, e)
                          : time_one(g, w, s, r, CT_CUDNN_FMA_MATH, t, e);
    /* The bound a backend engine's result must meet: the type's own (fp32,
     * TF32 off: s->tolerance), four times it for a half type, 1e-2 with
     * TF32 (the bounds the GPU test holds cuDNN's results to). */
    const double own = ct_dtype_tolerance(dt, s->tolerance), tol = half ? 4 * own : tf32 ? 1e-2 : own;
    if (rc == CT_OK)
        rc = time_v8(g, w, s, r, half || tf32, tol, t, e);
    return rc;
}

/* The largest workspace up to MAX_WORKSPACE and half the free memory that
 * can be had (none at all is a workspace too: Find then skips the
 * algorithms that need one). */
static void alloc_workspace(const ct_drv *d, cd_run *r)
{
    size_t free_b = 0, total_b = 0;
    if (d->cuMemGetInfo(&free_b, &total_b) != CUDA_SUCCESS)
        free_b = 0;
    size_t want = free_b / 2 < MAX_WORKSPACE ? free_b / 2 : MAX_WORKSPACE;
    for (; want >= ((size_t)1 << 20); want /= 2)
        if (d->cuMemAlloc(&r->ws, want) == CUDA_SUCCESS) {
            r->ws_bytes = want;
            return;
        }
    r->ws = 0;
    r->ws_bytes = 0;
}

/* A channels-last layer's weights for cuDNN, channels last too (OHWI):
 * PyTorch holds a channels_last model's weights so, and with NHWC
 * activations and OIHW weights cuDNN runs slow paths (9x slower on a bf16
 * 3x3 layer of an H200). The problem's weights are OIHW; this copy is made
 * once, before anything is timed. 0 where it could not be made (no memory):
 * the OIHW weights are used then. */
static int weights_cl(const ct_drv *d, const ct_workload *w, const ct_cudnn_conv *m, CUdeviceptr *out)
{
    const size_t es = ct_dtype_size(m->dtype), ci = (size_t)(m->c / m->groups);
    const size_t taps = (size_t)m->r * (size_t)m->s, nw = (size_t)m->k * ci * taps;
    unsigned char *a = malloc(nw * es), *b = malloc(nw * es);
    int ok = a && b && d->cuMemcpyDtoH(a, w->dev[m->buf_w], nw * es) == CUDA_SUCCESS;
    for (size_t o = 0; ok && o < (size_t)m->k; o++)
        for (size_t c = 0; c < ci; c++)
            for (size_t t = 0; t < taps; t++)
                memcpy(b + ((o * taps + t) * ci + c) * es, a + ((o * ci + c) * taps + t) * es, es);
    ok = ok && d->cuMemAlloc(out, nw * es) == CUDA_SUCCESS;
    if (ok && d->cuMemcpyHtoD(*out, b, nw * es) != CUDA_SUCCESS) {
        d->cuMemFree(*out);
        ok = 0;
    }
    free(a);
    free(b);
    if (!ok)
        *out = 0;
    return ok;
}

ct_status ct_cudnn_baseline(ct_gpu *g, ct_workload *w, const ct_settings *s, ct_cudnn_outcome *o, ct_err *e)
{
    memset(o, 0, sizeof *o);
    ct_cudnn_conv m;
    char why[sizeof o->why] = "";
    if (!ct_cudnn_map(w->p, &m, o->why, sizeof o->why))
        return CT_OK;
    const ct_cudnn *L;
    ct_err le;
    if (ct_cudnn_load(&L, &le) != CT_OK) {
        snprintf(o->why, sizeof o->why, "%.399s", le.msg);
        return CT_OK;
    }
    ct_cudnn_version_text(L->cudnnGetVersion(), o->version, sizeof o->version);
    cd_run r = {.L = L, .m = &m, .plan = -1};
    ct_status rc = CT_OK;
    const int dt = cudnn_type(m.dtype);
    DNN_TRY(L, why, out, cudnnCreate(&r.hd));
    DNN_TRY(L, why, out, cudnnSetStream(r.hd, NULL));   /* the default stream, the timer's */
    DNN_TRY(L, why, out, cudnnCreateTensorDescriptor(&r.xd));
    DNN_TRY(L, why, out, cudnnCreateTensorDescriptor(&r.yd));
    DNN_TRY(L, why, out, cudnnCreateFilterDescriptor(&r.wd));
    DNN_TRY(L, why, out, cudnnCreateConvolutionDescriptor(&r.cd));
    DNN_TRY(L, why, out, cudnnSetTensor4dDescriptorEx(r.xd, dt, m.n, m.c, m.h, m.w, m.x_stride[0], m.x_stride[1],
                                                      m.x_stride[2], m.x_stride[3]));
    DNN_TRY(L, why, out, cudnnSetTensor4dDescriptorEx(r.yd, dt, m.n, m.k, m.oh, m.ow, m.y_stride[0], m.y_stride[1],
                                                      m.y_stride[2], m.y_stride[3]));
    /* The weights O(I/G)HW, or channels last beside channels-last
     * activations where they are an input (the weight gradient is the
     * output and stays OIHW, as the candidates write it). */
    const int wcl = m.channels_last && m.pass != 2 && weights_cl(g->d, w, &m, &r.wcl);
    DNN_TRY(L, why, out, cudnnSetFilter4dDescriptor(r.wd, dt, wcl ? CT_CUDNN_TENSOR_NHWC : CT_CUDNN_TENSOR_NCHW, m.k,
                                                    m.c / m.groups, m.r, m.s));
    DNN_TRY(L, why, out, cudnnSetConvolution2dDescriptor(r.cd, m.pad_h, m.pad_w, m.stride_h, m.stride_w, m.dil_h,
                                                         m.dil_w, CT_CUDNN_CROSS_CORRELATION, CT_CUDNN_DATA_FLOAT));
    DNN_TRY(L, why, out, cudnnSetConvolutionGroupCount(r.cd, m.groups));
    r.x = dptr(w->dev[m.buf_x]);
    r.y = dptr(w->dev[m.buf_y]);
    r.wt = dptr(wcl ? r.wcl : w->dev[m.buf_w]);
    if (m.bias && m.pass != 1) {
        DNN_TRY(L, why, out, cudnnCreateTensorDescriptor(&r.bd));
        DNN_TRY(L, why, out, cudnnSetTensor4dDescriptorEx(r.bd, dt, 1, m.k, 1, 1, m.k, 1, 1, 1));
        if (m.pass == 2) {   /* db follows dW in the output */
            const size_t nw = (size_t)m.k * (size_t)(m.c / m.groups) * (size_t)m.r * (size_t)m.s;
            r.bias = dptr(w->dev[m.buf_w] + nw * ct_dtype_size(m.dtype));
        } else {
            r.bias = dptr(w->dev[m.buf_bias]);
        }
    }
    alloc_workspace(g->d, &r);
    /* The backend API's plans on the same buffers and workspace; none is a
     * reason, and the legacy API serves alone. */
    const ct_cudnn_v8_io io = {
        .x = r.x, .w = r.wt, .y = r.y, .ws = dptr(r.ws), .ws_bytes = r.ws_bytes, .w_cl = wcl};
    r.have_v8 = ct_cudnn_v8_build(&r.v8, L, r.hd, &m, &io, r.v8_why, sizeof r.v8_why) > 0;
    o->ran = 1;
    if (m.dtype == CT_DTYPE_F32) {
        o->n = 2;
        snprintf(o->t[0].label, sizeof o->t[0].label, "TF32 off");
        snprintf(o->t[1].label, sizeof o->t[1].label, "TF32 on");
        if ((rc = time_both(g, w, s, &r, 0, &o->t[0], e)) == CT_OK)
            rc = time_both(g, w, s, &r, 1, &o->t[1], e);
    } else if (m.dtype == CT_DTYPE_TF32) {
        /* fp32 tensors with TF32 math allowed, as PyTorch runs an fp32
         * convolution by default (allow_tf32) */
        o->n = 1;
        snprintf(o->t[0].label, sizeof o->t[0].label, "TF32");
        rc = time_both(g, w, s, &r, 1, &o->t[0], e);
    } else {
        o->n = 1;
        snprintf(o->t[0].label, sizeof o->t[0].label, "%s", ct_dtype_name(m.dtype));
        rc = time_both(g, w, s, &r, 0, &o->t[0], e);
    }
    if (rc == CT_OK && !ct_cudnn_first_ok(o)) {
        o->ran = 0;
        snprintf(o->why, sizeof o->why, "%s", o->t[0].why);
    }
out:
    ct_cudnn_v8_free(&r.v8);
    if (why[0]) {
        o->ran = 0;
        snprintf(o->why, sizeof o->why, "%s", why);
    }
    if (r.ws)
        g->d->cuMemFree(r.ws);
    if (r.wcl)
        g->d->cuMemFree(r.wcl);
    if (r.bd)
        L->cudnnDestroyTensorDescriptor(r.bd);
    if (r.cd)
        L->cudnnDestroyConvolutionDescriptor(r.cd);
    if (r.wd)
        L->cudnnDestroyFilterDescriptor(r.wd);
    if (r.yd)
        L->cudnnDestroyTensorDescriptor(r.yd);
    if (r.xd)
        L->cudnnDestroyTensorDescriptor(r.xd);
    if (r.hd)
        L->cudnnDestroy(r.hd);
    return rc;
}

const ct_cudnn_timing *ct_cudnn_first_ok(const ct_cudnn_outcome *o)
{
    for (int i = 0; i < o->n && i < CT_CUDNN_TIMINGS; i++)
        if (o->t[i].ok)
            return &o->t[i];
    return NULL;
}
