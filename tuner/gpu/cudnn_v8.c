/* cudnn_v8.c - convolution plans through cuDNN's backend API (cudnn_v8.h).
 *
 * The calls follow cuDNN's backend API as cudnn-frontend makes them for a
 * convolution: tensor, convolution and operation descriptors, an operation
 * graph on the handle, engine heuristics whose results are engine
 * configurations, and an execution plan with a variant pack for each. */
#include "cudnn_v8.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tensors' unique ids in the graph and the variant pack. */
enum { UID_X = 1, UID_W = 2, UID_Y = 3 };

/* The most heuristic results looked at per mode and class: each is a plan
 * to finalize, which can mean compiling a kernel. */
#define TRIES_PER_CLASS (3 * CT_CUDNN_V8_PER_CLASS)

/* Evaluate a backend call; on failure write "what: status text (code)"
 * into why and return 0 from the function. */
#define V8_TRY(what, call)                                                                            \
    do {                                                                                              \
        cudnnStatus_t st_ = (call);                                                                   \
        if (st_ != CT_CUDNN_STATUS_SUCCESS) {                                                         \
            const char *s_ = L->cudnnGetErrorString(st_);                                             \
            snprintf(why, len, "backend API, %s: %s (%d)", what, s_ ? s_ : "error", (int)st_);         \
            return 0;                                                                                 \
        }                                                                                             \
    } while (0)

#define SET(d, attr, type, count, ptr) L->cudnnBackendSetAttribute(d, attr, type, count, ptr)

/* The largest alignment up to 16 bytes that p has (cuDNN picks its
 * vectorised kernels by the alignment a tensor states). */
static int64_t alignment(const void *p)
{
    int64_t a = 16;
    while (a > 1 && (uintptr_t)p % (uintptr_t)a)
        a /= 2;
    return a;
}

/* A finalized tensor descriptor of 4 dimensions (n, c, h, w order, the
 * layout in the strides). */
static cudnnStatus_t tensor(const ct_cudnn *L, cudnnBackendDescriptor_t *d, int dtype, const int64_t dims[4],
                            const int64_t strides[4], int64_t uid, const void *ptr)
{
    const int64_t align = alignment(ptr);
    cudnnStatus_t st = L->cudnnBackendCreateDescriptor(CT_CUDNN_BACKEND_TENSOR_DESCRIPTOR, d);
    if (!st)
        st = SET(*d, CT_CUDNN_ATTR_TENSOR_DATA_TYPE, CT_CUDNN_TYPE_DATA_TYPE, 1, &dtype);
    if (!st)
        st = SET(*d, CT_CUDNN_ATTR_TENSOR_DIMENSIONS, CT_CUDNN_TYPE_INT64, 4, dims);
    if (!st)
        st = SET(*d, CT_CUDNN_ATTR_TENSOR_STRIDES, CT_CUDNN_TYPE_INT64, 4, strides);
    if (!st)
        st = SET(*d, CT_CUDNN_ATTR_TENSOR_UNIQUE_ID, CT_CUDNN_TYPE_INT64, 1, &uid);
    if (!st)
        st = SET(*d, CT_CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CT_CUDNN_TYPE_INT64, 1, &align);
    if (!st)
        st = L->cudnnBackendFinalize(*d);
    return st;
}

static int data_type(ct_dtype t)
{
    /* f32 and tf32: float tensors (TF32 is an engine's choice) */
    return t == CT_DTYPE_BF16 ? CT_CUDNN_DATA_BFLOAT16 : t == CT_DTYPE_F16 ? CT_CUDNN_DATA_HALF : CT_CUDNN_DATA_FLOAT;
}

/* The tensors, the convolution, its operation node and the graph of it. */
static int graph(ct_cudnn_v8 *v, const ct_cudnn_conv *m, const ct_cudnn_v8_io *io, char *why, size_t len)
{
    const ct_cudnn *L = v->L;
    const int dt = data_type(m->dtype);
    const int64_t cg = m->c / m->groups, rs = (int64_t)m->r * m->s;
    const int64_t xd[4] = {m->n, m->c, m->h, m->w}, yd[4] = {m->n, m->k, m->oh, m->ow};
    const int64_t xs[4] = {m->x_stride[0], m->x_stride[1], m->x_stride[2], m->x_stride[3]};
    const int64_t ys[4] = {m->y_stride[0], m->y_stride[1], m->y_stride[2], m->y_stride[3]};
    const int64_t wd[4] = {m->k, cg, m->r, m->s};
    const int64_t ws_oihw[4] = {cg * rs, rs, m->s, 1}, ws_ohwi[4] = {rs * cg, 1, m->s * cg, cg};
    V8_TRY("tensor x", tensor(L, &v->tx, dt, xd, xs, UID_X, io->x));
    V8_TRY("tensor w", tensor(L, &v->tw, dt, wd, io->w_cl ? ws_ohwi : ws_oihw, UID_W, io->w));
    V8_TRY("tensor y", tensor(L, &v->ty, dt, yd, ys, UID_Y, io->y));

    const int comp = CT_CUDNN_DATA_FLOAT, mode = CT_CUDNN_CROSS_CORRELATION;
    const int64_t dims = 2, dil[2] = {m->dil_h, m->dil_w}, str[2] = {m->stride_h, m->stride_w};
    const int64_t pad[2] = {m->pad_h, m->pad_w};
    V8_TRY("convolution", L->cudnnBackendCreateDescriptor(CT_CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR, &v->conv));
    V8_TRY("compute type", SET(v->conv, CT_CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CT_CUDNN_TYPE_DATA_TYPE, 1, &comp));
    V8_TRY("mode", SET(v->conv, CT_CUDNN_ATTR_CONVOLUTION_CONV_MODE, CT_CUDNN_TYPE_CONVOLUTION_MODE, 1, &mode));
    V8_TRY("spatial dims", SET(v->conv, CT_CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CT_CUDNN_TYPE_INT64, 1, &dims));
    V8_TRY("dilations", SET(v->conv, CT_CUDNN_ATTR_CONVOLUTION_DILATIONS, CT_CUDNN_TYPE_INT64, 2, dil));
    V8_TRY("strides", SET(v->conv, CT_CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CT_CUDNN_TYPE_INT64, 2, str));
    V8_TRY("padding", SET(v->conv, CT_CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CT_CUDNN_TYPE_INT64, 2, pad));
    V8_TRY("padding", SET(v->conv, CT_CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CT_CUDNN_TYPE_INT64, 2, pad));
    V8_TRY("convolution", L->cudnnBackendFinalize(v->conv));

    /* The attributes of each pass's node: x (dx), w (dw), y (dy), the
     * convolution, alpha, beta. Groups are the tensors' own: w has C/G
     * input channels where x has C. */
    static const int attrs[3][6] = {
        {CT_CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, CT_CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W,
         CT_CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, CT_CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC,
         CT_CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CT_CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA},
        {CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX, CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W,
         CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY, CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_CONV_DESC,
         CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_ALPHA, CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_BETA},
        {CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X, CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW,
         CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY, CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_CONV_DESC,
         CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_ALPHA, CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_BETA}};
    static const int kinds[3] = {CT_CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR,
                                 CT_CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR,
                                 CT_CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR};
    const int pass = m->pass >= 0 && m->pass <= 2 ? m->pass : 0;
    const int *a = attrs[pass];
    const float alpha = 1.0f, beta = 0.0f;
    V8_TRY("operation", L->cudnnBackendCreateDescriptor(kinds[pass], &v->op));
    V8_TRY("operation x", SET(v->op, a[0], CT_CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &v->tx));
    V8_TRY("operation w", SET(v->op, a[1], CT_CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &v->tw));
    V8_TRY("operation y", SET(v->op, a[2], CT_CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &v->ty));
    V8_TRY("operation conv", SET(v->op, a[3], CT_CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &v->conv));
    V8_TRY("operation alpha", SET(v->op, a[4], CT_CUDNN_TYPE_FLOAT, 1, &alpha));
    V8_TRY("operation beta", SET(v->op, a[5], CT_CUDNN_TYPE_FLOAT, 1, &beta));
    V8_TRY("operation", L->cudnnBackendFinalize(v->op));

    V8_TRY("graph", L->cudnnBackendCreateDescriptor(CT_CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &v->graph));
    V8_TRY("graph ops", SET(v->graph, CT_CUDNN_ATTR_OPERATIONGRAPH_OPS, CT_CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &v->op));
    V8_TRY("graph handle", SET(v->graph, CT_CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CT_CUDNN_TYPE_HANDLE, 1, &v->hd));
    V8_TRY("graph", L->cudnnBackendFinalize(v->graph));
    return 1;
}

/* The engine of cfg: its global index and numerical notes. 0 when they
 * cannot be read (the caller then treats it as a tensor-core engine, so
 * that TF32 off never runs one by mistake). */
static int engine_notes(const ct_cudnn *L, cudnnBackendDescriptor_t cfg, long long *index, int *tc, int *down)
{
    cudnnBackendDescriptor_t eng = NULL;
    int ok = 0;
    *index = -1;
    *tc = 1;
    *down = 0;
    if (L->cudnnBackendCreateDescriptor(CT_CUDNN_BACKEND_ENGINE_DESCRIPTOR, &eng) != CT_CUDNN_STATUS_SUCCESS)
        return 0;
    int64_t n = 0;
    if (L->cudnnBackendGetAttribute(cfg, CT_CUDNN_ATTR_ENGINECFG_ENGINE, CT_CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n,
                                    &eng) == CT_CUDNN_STATUS_SUCCESS && n == 1) {
        int64_t idx = -1;
        if (L->cudnnBackendGetAttribute(eng, CT_CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CT_CUDNN_TYPE_INT64, 1, &n, &idx) ==
                CT_CUDNN_STATUS_SUCCESS && n == 1)
            *index = (long long)idx;
        int notes[32];
        int64_t nn = 0;
        if (L->cudnnBackendGetAttribute(eng, CT_CUDNN_ATTR_ENGINE_NUMERICAL_NOTE, CT_CUDNN_TYPE_NUMERICAL_NOTE, 32,
                                        &nn, notes) == CT_CUDNN_STATUS_SUCCESS) {
            ok = 1;
            *tc = 0;
            for (int64_t i = 0; i < nn && i < 32; i++) {
                *tc |= notes[i] == CT_CUDNN_NUMERICAL_NOTE_TENSOR_CORE;
                *down |= notes[i] == CT_CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS;
            }
        }
    }
    L->cudnnBackendDestroyDescriptor(eng);
    return ok;
}

/* cfg made into plan p: the execution plan, its workspace (at most the one
 * io has), the variant pack. 0 when any step fails (p holds nothing). */
static int make_plan(ct_cudnn_v8 *v, cudnnBackendDescriptor_t cfg, const ct_cudnn_v8_io *io, ct_cudnn_v8_plan *p)
{
    const ct_cudnn *L = v->L;
    memset(p, 0, sizeof *p);
    int64_t ws = 0, n = 0;
    cudnnStatus_t st = L->cudnnBackendCreateDescriptor(CT_CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &p->plan);
    if (!st)
        st = SET(p->plan, CT_CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CT_CUDNN_TYPE_HANDLE, 1, &v->hd);
    if (!st)
        st = SET(p->plan, CT_CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, CT_CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg);
    if (!st)
        st = L->cudnnBackendFinalize(p->plan);
    if (!st)
        st = L->cudnnBackendGetAttribute(p->plan, CT_CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CT_CUDNN_TYPE_INT64, 1,
                                         &n, &ws);
    if (!st && (n != 1 || ws < 0 || (uint64_t)ws > io->ws_bytes))
        st = -1;   /* a workspace beyond the one there is: not this plan */
    void *ptrs[3] = {io->x, io->w, io->y};
    const int64_t uids[3] = {UID_X, UID_W, UID_Y};
    void *wsp = io->ws;
    if (!st)
        st = L->cudnnBackendCreateDescriptor(CT_CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &p->pack);
    if (!st)
        st = SET(p->pack, CT_CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CT_CUDNN_TYPE_VOID_PTR, 3, ptrs);
    if (!st)
        st = SET(p->pack, CT_CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CT_CUDNN_TYPE_INT64, 3, uids);
    if (!st)
        st = SET(p->pack, CT_CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CT_CUDNN_TYPE_VOID_PTR, 1, &wsp);
    if (!st)
        st = L->cudnnBackendFinalize(p->pack);
    if (st) {
        if (p->pack)
            L->cudnnBackendDestroyDescriptor(p->pack);
        if (p->plan)
            L->cudnnBackendDestroyDescriptor(p->plan);
        memset(p, 0, sizeof *p);
        return 0;
    }
    p->cfg = cfg;
    p->ws = (size_t)ws;
    return 1;
}

/* The heuristics' engine configurations under mode, made into plans into
 * v: in the heuristics' order, up to cap per class (fp32 tensors: tensor
 * core or not; else one class), an engine already planned skipped where
 * fresh_only. Engines that down-convert their inputs are left out, as
 * PyTorch leaves them out. Returns the configurations the heuristics gave
 * (-1 with the reason when they gave none). */
static int from_heuristics(ct_cudnn_v8 *v, const ct_cudnn_conv *m, const ct_cudnn_v8_io *io, int mode, int cap,
                           int fresh_only, char *why, size_t len)
{
    const ct_cudnn *L = v->L;
    cudnnBackendDescriptor_t heur = NULL, *cfgs = NULL;
    int64_t count = 0;
    int rc = -1;
    cudnnStatus_t st = L->cudnnBackendCreateDescriptor(CT_CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heur);
    if (!st)
        st = SET(heur, CT_CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, CT_CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &v->graph);
    if (!st)
        st = SET(heur, CT_CUDNN_ATTR_ENGINEHEUR_MODE, CT_CUDNN_TYPE_HEUR_MODE, 1, &mode);
    if (!st)
        st = L->cudnnBackendFinalize(heur);
    if (!st)
        st = L->cudnnBackendGetAttribute(heur, CT_CUDNN_ATTR_ENGINEHEUR_RESULTS, CT_CUDNN_TYPE_BACKEND_DESCRIPTOR, 0,
                                         &count, NULL);
    if (!st && count > 0 && (cfgs = calloc((size_t)count, sizeof *cfgs)) == NULL)
        st = -1;
    int64_t made = 0;
    for (; !st && made < count; made++)
        st = L->cudnnBackendCreateDescriptor(CT_CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, &cfgs[made]);
    int64_t got = 0;
    if (!st && count > 0)
        st = L->cudnnBackendGetAttribute(heur, CT_CUDNN_ATTR_ENGINEHEUR_RESULTS, CT_CUDNN_TYPE_BACKEND_DESCRIPTOR,
                                         count, &got, cfgs);
    if (st) {
        const char *s = st > 0 ? L->cudnnGetErrorString(st) : "out of memory";
        snprintf(why, len, "backend API, heuristics (mode %d): %s (%d)", mode, s ? s : "error", (int)st);
    } else if (got <= 0) {
        snprintf(why, len, "backend API, heuristics (mode %d): no engine configuration", mode);
    } else {
        rc = (int)got;
    }
    const int classes = m->dtype == CT_DTYPE_F32 ? 2 : 1;
    int kept[2] = {0, 0}, tries = 0;
    for (int64_t i = 0; i < got && i < count && tries < TRIES_PER_CLASS * classes && v->n < CT_CUDNN_V8_MAX; i++) {
        long long index;
        int tc, down;
        engine_notes(L, cfgs[i], &index, &tc, &down);
        const int c = classes == 2 && tc;
        int seen = 0;
        for (int j = 0; j < v->n && fresh_only; j++)
            seen |= index >= 0 && v->p[j].engine == index;
        if (down || seen || kept[c] >= cap)
            continue;
        tries++;
        v->tried++;
        ct_cudnn_v8_plan *p = &v->p[v->n];
        if (!make_plan(v, cfgs[i], io, p))
            continue;
        p->engine = index;
        p->tensor_core = tc;
        p->fallback = mode == CT_CUDNN_HEUR_MODE_FALLBACK;
        cfgs[i] = NULL;   /* the plan's now */
        v->n++;
        kept[c]++;
    }
    for (int64_t i = 0; i < made; i++)
        if (cfgs[i])
            L->cudnnBackendDestroyDescriptor(cfgs[i]);
    free(cfgs);
    if (heur)
        L->cudnnBackendDestroyDescriptor(heur);
    return rc;
}

int ct_cudnn_v8_build(ct_cudnn_v8 *v, const ct_cudnn *L, cudnnHandle_t hd, const ct_cudnn_conv *m,
                      const ct_cudnn_v8_io *io, char *why, size_t len)
{
    memset(v, 0, sizeof *v);
    v->L = L;
    v->hd = hd;
    if (!L->backend) {
        snprintf(why, len, "backend API: %.200s lacks its entry points", L->path);
        return 0;
    }
    if (!graph(v, m, io, why, len))
        return 0;
    char w2[160] = "";
    const int got = from_heuristics(v, m, io, CT_CUDNN_HEUR_MODE_INSTANT, CT_CUDNN_V8_PER_CLASS, 0, why, len);
    from_heuristics(v, m, io, CT_CUDNN_HEUR_MODE_FALLBACK, CT_CUDNN_V8_FALLBACK, 1, w2, sizeof w2);
    if (v->n == 0) {
        if (got >= 0)
            snprintf(why, len, "backend API: none of %d engine configuration%s made a plan (%d tried)", got,
                     got == 1 ? "" : "s", v->tried);
        else if (!why[0])
            snprintf(why, len, "%s", w2);
    }
    return v->n;
}

cudnnStatus_t ct_cudnn_v8_exec(const ct_cudnn_v8 *v, int i)
{
    return v->L->cudnnBackendExecute(v->hd, v->p[i].plan, v->p[i].pack);
}

void ct_cudnn_v8_free(ct_cudnn_v8 *v)
{
    const ct_cudnn *L = v->L;
    if (!L)
        return;
    for (int i = 0; i < v->n; i++) {
        L->cudnnBackendDestroyDescriptor(v->p[i].pack);
        L->cudnnBackendDestroyDescriptor(v->p[i].plan);
        L->cudnnBackendDestroyDescriptor(v->p[i].cfg);
    }
    cudnnBackendDescriptor_t d[] = {v->graph, v->op, v->conv, v->ty, v->tw, v->tx};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        if (d[i])
            L->cudnnBackendDestroyDescriptor(d[i]);
    memset(v, 0, sizeof *v);
}
