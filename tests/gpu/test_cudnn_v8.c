/* test_cudnn_v8.c - the backend API's plans for the cuDNN baseline
 * (cudnn_v8.h), without cuDNN or a GPU: a stand-in for the backend entry
 * points records what the module sets and answers its queries from a
 * table of engines (global index, numerical notes, workspace, whether its
 * plan finalizes). Checked: the tensors' dimensions, strides (NCHW, NHWC,
 * OIHW and OHWI weights), unique ids and alignments; each pass's node
 * wiring x, w and y; the engines kept (the heuristics' order, none that
 * down-converts, fails to finalize or needs more workspace than there is,
 * at most 8 per class with tensor-core engines a class apart for fp32, 2
 * more per class from FALLBACK whose engine is new); the variant packs;
 * the reasons when the entry points are missing or the heuristics fail;
 * and that every descriptor made is destroyed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cudnn_map.h"
#include "cudnn_v8.h"
#include "cudnndl.h"
#include "problem.h"

typedef struct engine_row {
    long long index;
    int tc, down, nofinal;
    int64_t ws;
} engine_row;

typedef struct fdesc {
    int type, live, heur_mode;
    int dt;
    int64_t dims[4], strides[4], uid, align;
    const engine_row *row;
    struct fdesc *op_t[3];     /* the node's x, w, y tensors (by role) */
    void *ptrs[3];
    int64_t uids[3];
    void *ws;
} fdesc;

#define POOL 4096
static fdesc pool[POOL];
static int npool, live, fail_heur, executed;
static engine_row instant[32], fallback[8];
static int ninstant, nfallback;

static cudnnStatus_t f_create(int type, cudnnBackendDescriptor_t *d)
{
    if (npool >= POOL)
        return 4003;
    fdesc *f = &pool[npool++];
    memset(f, 0, sizeof *f);
    f->type = type;
    f->live = 1;
    live++;
    *d = f;
    return 0;
}

static cudnnStatus_t f_destroy(cudnnBackendDescriptor_t d)
{
    fdesc *f = d;
    CHECK_MSG(f && f->live, "a descriptor destroyed twice or never made");
    if (f && f->live) {
        f->live = 0;
        live--;
    }
    return 0;
}

/* The role of a node's tensor attribute: 0 x (dx), 1 w (dw), 2 y (dy). */
static int role(int attr)
{
    switch (attr) {
    case CT_CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X:
    case CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX:
    case CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X:
        return 0;
    case CT_CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W:
    case CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W:
    case CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW:
        return 1;
    case CT_CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y:
    case CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY:
    case CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY:
        return 2;
    default:
        return -1;
    }
}

static cudnnStatus_t f_set(cudnnBackendDescriptor_t d, int attr, int type, int64_t n, const void *v)
{
    fdesc *f = d;
    if (attr == CT_CUDNN_ATTR_TENSOR_DATA_TYPE)
        f->dt = *(const int *)v;
    else if (attr == CT_CUDNN_ATTR_TENSOR_DIMENSIONS && n == 4)
        memcpy(f->dims, v, sizeof f->dims);
    else if (attr == CT_CUDNN_ATTR_TENSOR_STRIDES && n == 4)
        memcpy(f->strides, v, sizeof f->strides);
    else if (attr == CT_CUDNN_ATTR_TENSOR_UNIQUE_ID)
        f->uid = *(const int64_t *)v;
    else if (attr == CT_CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT)
        f->align = *(const int64_t *)v;
    else if (role(attr) >= 0 && type == CT_CUDNN_TYPE_BACKEND_DESCRIPTOR)
        f->op_t[role(attr)] = *(fdesc *const *)v;
    else if (attr == CT_CUDNN_ATTR_ENGINEHEUR_MODE)
        f->heur_mode = *(const int *)v;
    else if (attr == CT_CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG)
        f->row = (*(fdesc *const *)v)->row;
    else if (attr == CT_CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS && n == 3)
        memcpy(f->ptrs, v, sizeof f->ptrs);
    else if (attr == CT_CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS && n == 3)
        memcpy(f->uids, v, sizeof f->uids);
    else if (attr == CT_CUDNN_ATTR_VARIANT_PACK_WORKSPACE)
        f->ws = *(void *const *)v;
    return 0;
}

static cudnnStatus_t f_get(cudnnBackendDescriptor_t d, int attr, int type, int64_t req, int64_t *n, void *v)
{
    fdesc *f = d;
    (void)type;
    if (attr == CT_CUDNN_ATTR_ENGINEHEUR_RESULTS) {
        const int all = f->heur_mode == CT_CUDNN_HEUR_MODE_FALLBACK ? nfallback : ninstant;
        const engine_row *rows = f->heur_mode == CT_CUDNN_HEUR_MODE_FALLBACK ? fallback : instant;
        *n = req == 0 ? all : req < all ? req : all;
        for (int64_t i = 0; req > 0 && i < *n; i++)
            ((fdesc **)v)[i]->row = &rows[i];
    } else if (attr == CT_CUDNN_ATTR_ENGINECFG_ENGINE) {
        ((fdesc **)v)[0]->row = f->row;
        *n = 1;
    } else if (attr == CT_CUDNN_ATTR_ENGINE_GLOBAL_INDEX) {
        *(int64_t *)v = f->row->index;
        *n = 1;
    } else if (attr == CT_CUDNN_ATTR_ENGINE_NUMERICAL_NOTE) {
        int *notes = v, k = 0;
        notes[k++] = CT_CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION + 8;   /* one of no interest */
        if (f->row->tc && k < req)
            notes[k++] = CT_CUDNN_NUMERICAL_NOTE_TENSOR_CORE;
        if (f->row->down && k < req)
            notes[k++] = CT_CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS;
        *n = k;
    } else if (attr == CT_CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE) {
        *(int64_t *)v = f->row->ws;
        *n = 1;
    } else {
        return 2000;
    }
    return 0;
}

static cudnnStatus_t f_finalize(cudnnBackendDescriptor_t d)
{
    const fdesc *f = d;
    if (f->type == CT_CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR && fail_heur)
        return 3000;
    if (f->type == CT_CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR && f->row->nofinal)
        return 3000;
    return 0;
}

static cudnnStatus_t f_execute(cudnnHandle_t h, cudnnBackendDescriptor_t plan, cudnnBackendDescriptor_t pack)
{
    (void)h;
    executed += plan && pack && ((fdesc *)pack)->type == CT_CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR;
    return 0;
}

static const char *f_err(cudnnStatus_t st)
{
    return st == 3000 ? "CUDNN_STATUS_NOT_SUPPORTED" : "CUDNN_STATUS_ERROR";
}

static ct_cudnn fake(void)
{
    ct_cudnn L;
    memset(&L, 0, sizeof L);
    L.cudnnGetErrorString = f_err;
    L.cudnnBackendCreateDescriptor = f_create;
    L.cudnnBackendDestroyDescriptor = f_destroy;
    L.cudnnBackendSetAttribute = f_set;
    L.cudnnBackendGetAttribute = f_get;
    L.cudnnBackendFinalize = f_finalize;
    L.cudnnBackendExecute = f_execute;
    L.backend = 1;
    snprintf(L.path, sizeof L.path, "fake-libcudnn.so.9");
    return L;
}

/* 24 engines in the heuristics' order: every other one tensor core, two
 * that down-convert (one of each class), one whose plan does not
 * finalize, one that needs more workspace than there is; FALLBACK lists
 * one engine already planned, then three of each class. */
static void engines(int64_t ws_have)
{
    ninstant = 24;
    for (int i = 0; i < ninstant; i++)
        instant[i] = (engine_row){.index = 100 + i, .tc = i % 2, .down = i == 1 || i == 2, .nofinal = i == 4,
                                  .ws = i == 6 ? ws_have + 1 : (i % 3) * (ws_have / 4)};
    nfallback = 7;
    fallback[0] = (engine_row){.index = 100};
    for (int i = 1; i < nfallback; i++)
        fallback[i] = (engine_row){.index = 199 + i, .tc = i % 2 == 1};
}

/* The plans v must hold for the table, in order: the reference selection. */
static int expected(int two_classes, long long *want)
{
    int n = 0, kept[2] = {0, 0};
    for (int i = 0; i < ninstant; i++) {
        const engine_row *r = &instant[i];
        const int c = two_classes && r->tc;
        if (r->down || r->nofinal || r->index == 106 || kept[c] >= CT_CUDNN_V8_PER_CLASS)
            continue;
        kept[c]++;
        want[n++] = r->index;
    }
    kept[0] = kept[1] = 0;
    for (int i = 1; i < nfallback; i++) {
        const int c = two_classes && fallback[i].tc;
        if (kept[c] < CT_CUDNN_V8_FALLBACK) {
            kept[c]++;
            want[n++] = fallback[i].index;
        }
    }
    return n;
}

static void run(const char *spec, int w_cl)
{
    ct_problem p;
    ct_err e;
    CHECK_MSG(ct_problem_parse(spec, &p, &e) == CT_OK, "%s: %s", spec, e.msg);
    ct_cudnn_conv m;
    char why[300] = "";
    CHECK_MSG(ct_cudnn_map(&p, &m, why, sizeof why), "%s: %s", spec, why);
    const ct_cudnn L = fake();
    const int64_t ws_have = 1 << 20;
    engines(ws_have);
    npool = live = executed = 0;
    ct_cudnn_v8_io io = {.x = (void *)(uintptr_t)0x10008, .w = (void *)(uintptr_t)0x20000,
                         .y = (void *)(uintptr_t)0x30002, .ws = (void *)(uintptr_t)0x40000,
                         .ws_bytes = (size_t)ws_have, .w_cl = w_cl};
    ct_cudnn_v8 v;
    const int n = ct_cudnn_v8_build(&v, &L, NULL, &m, &io, why, sizeof why);
    long long want[CT_CUDNN_V8_MAX + 8];
    const int two = m.dtype == CT_DTYPE_F32, nw = expected(two, want);
    CHECK_MSG(n == nw && v.n == n, "%s: %d plans, want %d (%s)", spec, n, nw, why);
    for (int i = 0; i < n && i < nw; i++) {
        CHECK_MSG(v.p[i].engine == want[i], "%s: plan %d engine %lld, want %lld", spec, i, v.p[i].engine, want[i]);
        const fdesc *pk = v.p[i].pack;
        CHECK(pk->ptrs[0] == io.x && pk->ptrs[1] == io.w && pk->ptrs[2] == io.y && pk->ws == io.ws);
        CHECK(v.p[i].ws <= io.ws_bytes);
        CHECK(v.p[i].fallback == (want[i] >= 200));
        CHECK(v.p[i].tensor_core == (want[i] >= 200 ? (int)(want[i] % 2 == 0) : (int)(want[i] % 2)));
        CHECK(ct_cudnn_v8_exec(&v, i) == 0);
    }
    CHECK(executed == n);
    /* The graph: tensors by role, with the problem's sizes and strides. */
    const fdesc *op = v.op, *tx = v.tx, *tw = v.tw, *ty = v.ty;
    CHECK_MSG(op && op->op_t[0] == tx && op->op_t[1] == tw && op->op_t[2] == ty, "%s: the node's tensors", spec);
    const int64_t xd[4] = {m.n, m.c, m.h, m.w}, yd[4] = {m.n, m.k, m.oh, m.ow};
    const int64_t cg = m.c / m.groups, rs = (int64_t)m.r * m.s, wd[4] = {m.k, cg, m.r, m.s};
    for (int i = 0; i < 4; i++) {
        CHECK_MSG(tx->dims[i] == xd[i] && tx->strides[i] == m.x_stride[i], "%s: x dim %d", spec, i);
        CHECK_MSG(ty->dims[i] == yd[i] && ty->strides[i] == m.y_stride[i], "%s: y dim %d", spec, i);
        CHECK_MSG(tw->dims[i] == wd[i], "%s: w dim %d", spec, i);
    }
    const int64_t oihw[4] = {cg * rs, rs, m.s, 1}, ohwi[4] = {rs * cg, 1, m.s * cg, cg};
    CHECK_MSG(!memcmp(tw->strides, w_cl ? ohwi : oihw, sizeof oihw), "%s: w strides", spec);
    if (m.channels_last)
        CHECK_MSG(tx->strides[1] == 1 && ty->strides[1] == 1, "%s: channels last", spec);
    CHECK(tx->align == 8 && tw->align == 16 && ty->align == 2);
    CHECK(tx->uid != tw->uid && tw->uid != ty->uid && tx->uid != ty->uid);
    const int64_t *u = ((const fdesc *)v.p[0].pack)->uids;
    CHECK(n > 0 && u[0] == tx->uid && u[1] == tw->uid && u[2] == ty->uid);
    const int dt = m.dtype == CT_DTYPE_BF16 ? CT_CUDNN_DATA_BFLOAT16
                   : m.dtype == CT_DTYPE_F16 ? CT_CUDNN_DATA_HALF
                                             : CT_CUDNN_DATA_FLOAT;
    CHECK(tx->dt == dt && tw->dt == dt && ty->dt == dt);
    CHECK(live > 0);
    ct_cudnn_v8_free(&v);
    CHECK_MSG(live == 0, "%s: %d descriptors left", spec, live);
    printf("%s: %d plans\n", spec, n);
}

int main(void)
{
    run("conv2dc:4:16:20:20:32:3:3:same:nhwc", 1);
    run("conv2dc:4:16:20:20:32:3:3:same:nhwc:dgrad:bf16", 1);
    run("conv2dc:4:16:20:20:32:3:3:same:wgrad", 0);
    run("conv2dc:2:8:9:7:8:1:1:valid:f16", 0);
    run("conv2dc:4:32:20:20:32:3:3:same:groups=32:nhwc:bf16", 1);
    run("conv1dc:4:32:200:64:5:pad=2:stride=2", 0);

    /* No backend entry points, or heuristics that fail: a reason, no plan,
     * nothing left. */
    ct_problem p;
    ct_err e;
    CHECK(ct_problem_parse("conv2dc:2:8:16:16:8:3:3:same:bf16", &p, &e) == CT_OK);
    ct_cudnn_conv m;
    char why[300] = "";
    CHECK(ct_cudnn_map(&p, &m, why, sizeof why));
    ct_cudnn L = fake();
    ct_cudnn_v8_io io = {.x = (void *)(uintptr_t)0x1000, .w = (void *)(uintptr_t)0x2000,
                         .y = (void *)(uintptr_t)0x3000, .ws_bytes = 0};
    ct_cudnn_v8 v;
    L.backend = 0;
    CHECK(ct_cudnn_v8_build(&v, &L, NULL, &m, &io, why, sizeof why) == 0 && strstr(why, "lacks"));
    ct_cudnn_v8_free(&v);
    L.backend = 1;
    npool = live = 0;
    fail_heur = 1;
    why[0] = '\0';
    CHECK(ct_cudnn_v8_build(&v, &L, NULL, &m, &io, why, sizeof why) == 0);
    CHECK_MSG(strstr(why, "heuristics") && strstr(why, "NOT_SUPPORTED"), "%s", why);
    ct_cudnn_v8_free(&v);
    CHECK_MSG(live == 0, "%d descriptors left", live);
    fail_heur = 0;
    /* No workspace: only the engines that need none make plans. */
    engines(1 << 20);
    npool = live = 0;
    CHECK(ct_cudnn_v8_build(&v, &L, NULL, &m, &io, why, sizeof why) > 0);
    for (int i = 0; i < v.n; i++)
        CHECK_MSG(v.p[i].ws == 0, "engine %lld needs %zu bytes of none", v.p[i].engine, v.p[i].ws);
    ct_cudnn_v8_free(&v);
    CHECK(live == 0);
    CHECK_DONE();
}
