/* ws_exec.c - a main kernel writing split partial sums to a workspace and
 * a reduce kernel adding them, after a prep kernel where the candidate has
 * one (ws_exec.h). */
#include "ws_exec.h"

#include "export.h"
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CT_FAMILY_CODE

typedef struct ws_state {
    CUtensorMap maps[CT_MAX_TMAPS]; /* first: 64-byte aligned (the state is) */
    int nmaps;
    CUdeviceptr bufs[CT_MAX_BUFS];  /* every buffer, for a direct launch */
    int nbufs;
    void *margs[CT_MAX_BUFS + CT_MAX_TMAPS], *rargs[3], *pargs[2]; /* the launches' arguments */
    ct_launch rl, pl;               /* the reduce's and the prep's geometry */
    ct_kernel_call mcall, rcall, pcall; /* the launches (rcall.f, pcall.f 0 where there is none) */
    CUfunction prep;                /* 0 without a prep */
    CUdeviceptr psrc, pws;          /* the buffer the prep reads, its workspace (0 without) */
    const ct_drv *d;
    const ct_ws_exec *x;
    CUfunction main, reduce;   /* reduce: 0 without a workspace */
    ct_launch l;
    CUdeviceptr in, dout, bias, out, ws; /* bias: 0 unless the reduce adds one */
    long long count;           /* floats of a split: the output's count */
} ws_state;

const ct_template *ct_ws_template(const ct_problem *p, const ct_executor *x)
{
    for (int i = 0; i < p->family->ntemplates; i++)
        if (p->family->templates[i].exec == x)
            return &p->family->templates[i];
    return NULL;
}

void ct_ws_teardown(void *state)
{
    ws_state *s = state;
    if (!s)
        return;
    if (s->ws)
        s->d->cuMemFree(s->ws);
    if (s->pws)
        s->d->cuMemFree(s->pws);
    free(s);
}

/* A workspace of bytes into *out, CT_ERR_USAGE (exceeds the device)
 * where it does not fit with 64 MiB to spare. */
static ct_status ws_alloc(ws_state *s, size_t bytes, const char *what, CUdeviceptr *out, ct_err *e)
{
    ct_status rc = CT_OK;
    size_t free_b = 0, total_b = 0;
    CU_TRY(s->d, e, rc, fail, cuMemGetInfo(&free_b, &total_b));
    if (bytes + (64u << 20) > free_b)
        return ct_fail(e, CT_ERR_USAGE, "%s of %.2f GiB does not fit in %.2f GiB free", what, bytes / 1073741824.0,
                       free_b / 1073741824.0);
    CU_TRY(s->d, e, rc, fail, cuMemAlloc(out, bytes));
fail:
    return rc;
}

ct_status ct_ws_setup(const ct_ws_exec *x, const ct_problem *p, const ct_params *c, const ct_drv *d, CUmodule mod,
                      const CUdeviceptr *bufs, void **out, ct_err *e)
{
    const ct_template *t = ct_ws_template(p, x->exec);
    if (!t)
        return ct_fail(e, CT_ERR_INTERNAL, "no template of this executor in family %s", p->family->name);
    /* 64-byte aligned, as a CUtensorMap is. */
    ws_state *s = aligned_alloc(64, (sizeof(ws_state) + 63) / 64 * 64);
    if (!s)
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    memset(s, 0, sizeof *s);
    s->d = d;
    s->x = x;
    ct_status rc = CT_OK;
    ct_buffer b[CT_MAX_BUFS];
    int nb = p->family->buffers(p, b);
    s->nbufs = nb;
    for (int i = 0; i < nb; i++)
        s->bufs[i] = bufs[i];
    /* A prep's workspace takes the place of the buffer it reads, for the
     * main kernel. */
    const long long pbytes = x->prep && p->family->prep ? p->family->prep(p, t, c, &s->pl) : 0;
    if (pbytes > 0) {
        char pname[96];
        snprintf(pname, sizeof pname, "%s%s", t->name, x->prep->suffix);
        CU_TRY(d, e, rc, fail, cuModuleGetFunction(&s->prep, mod, pname));
        if ((rc = ws_alloc(s, (size_t)pbytes, "prep workspace", &s->pws, e)) != CT_OK)
            goto fail;
        s->psrc = bufs[x->prep->src];
        s->bufs[x->prep->src] = s->pws;
        s->pargs[0] = &s->psrc;
        s->pargs[1] = &s->pws;
        s->pcall = (ct_kernel_call){.d = d, .f = s->prep, .l = &s->pl, .args = s->pargs};
    }
    s->in = s->bufs[0];
    s->dout = s->bufs[1];
    s->bias = x->bias && nb == 4 ? bufs[2] : 0;
    s->out = bufs[nb - 1];
    s->count = (long long)ct_problem_output_count(p);
    p->family->geometry(p, t, c, &s->l);
    const unsigned splits = x->split_axis < 0 ? 1u : s->l.grid[x->split_axis];
    const int reduce = x->always || splits > 1;
    char rname[96];
    snprintf(rname, sizeof rname, "%s_reduce", t->name);
    CU_TRY(d, e, rc, fail, cuModuleGetFunction(&s->main, mod, t->name));
    if (reduce)
        CU_TRY(d, e, rc, fail, cuModuleGetFunction(&s->reduce, mod, rname));
    if (s->l.smem_bytes > 48 * 1024)
        CU_TRY(d, e, rc, fail, cuFuncSetAttribute(s->main, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                  (int)s->l.smem_bytes));
    if (x->tmaps && p->family->tensor_maps) {
        ct_tmap_desc td[CT_MAX_TMAPS];
        s->nmaps = p->family->tensor_maps(p, t, c, td);
        for (int i = 0; i < s->nmaps; i++) {
            const CUresult r = ct_tmap_encode(d, &td[i], bufs[td[i].buf], &s->maps[i]);
            if (r != CUDA_SUCCESS) {
                rc = ct_drv_fail(e, r, "cuTensorMapEncodeTiled");
                goto fail;
            }
        }
    }
    if (reduce && (rc = ws_alloc(s, (size_t)splits * (size_t)s->count * sizeof(float), x->what, &s->ws, e)) != CT_OK)
        goto fail;
    /* The arguments: with a workspace (x, dy, workspace), then the reduce's
     * (workspace, [bias], out); without, every buffer where direct, else
     * (x, dy, out); the tensor maps after. */
    int n = 0;
    if (!s->ws && x->direct) {
        for (int i = 0; i < s->nbufs; i++)
            s->margs[n++] = &s->bufs[i];
    } else {
        s->margs[n++] = &s->in;
        s->margs[n++] = &s->dout;
        s->margs[n++] = s->ws ? &s->ws : &s->out;
    }
    for (int i = 0; i < s->nmaps; i++)
        s->margs[n++] = &s->maps[i];
    s->mcall = (ct_kernel_call){.d = d, .f = s->main, .l = &s->l, .args = s->margs};
    if (s->ws) {
        int k = 0;
        s->rargs[k++] = &s->ws;
        if (s->bias)
            s->rargs[k++] = &s->bias;
        s->rargs[k++] = &s->out;
        s->rl = (ct_launch){.grid = {x->reduce_grid(s->count), 1, 1}, .block = {256, 1, 1}};
        s->rcall = (ct_kernel_call){.d = d, .f = s->reduce, .l = &s->rl, .args = s->rargs};
    }
    *out = s;
    return CT_OK;
fail:
    ct_ws_teardown(s);
    return rc;
}

CUresult ct_ws_run(void *state)
{
    ws_state *s = state;
    CUresult r = s->prep ? ct_kernel_call_run(&s->pcall) : CUDA_SUCCESS;
    if (r != CUDA_SUCCESS)
        return r;
    r = ct_kernel_call_run(&s->mcall);
    if (r != CUDA_SUCCESS || !s->ws)
        return r;
    return ct_kernel_call_run(&s->rcall);
}

int ct_ws_calls(void *state, const ct_kernel_call **calls)
{
    ws_state *s = state;
    int n = 0;
    if (s->prep)
        calls[n++] = &s->pcall;
    calls[n++] = &s->mcall;
    if (s->ws)
        calls[n++] = &s->rcall;
    return n;
}

/* The largest of each over the kernels; the launch's dynamic shared
 * memory added to the main kernel's static. */
void ct_ws_resources(void *state, int *regs, int *smem, int *local)
{
    ws_state *s = state;
    CUfunction fs[3] = {s->main, s->reduce, s->prep};
    *regs = *smem = *local = 0;
    for (int i = 0; i < 3; i++) {
        if (!fs[i])
            continue;
        int v = 0;
        if (s->d->cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, fs[i]) == CUDA_SUCCESS && v > *regs)
            *regs = v;
        if (s->d->cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fs[i]) == CUDA_SUCCESS && v > *smem)
            *smem = v;
        if (s->d->cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fs[i]) == CUDA_SUCCESS && v > *local)
            *local = v;
    }
    *smem += (int)s->l.smem_bytes;
}

long long ct_ws_prep_items(long long items, unsigned threads, long long bytes, ct_launch *l)
{
    memset(l, 0, sizeof *l);
    if (items <= 0 || bytes <= 0)
        return 0;
    l->grid[0] = (unsigned)((items + threads - 1) / threads);
    l->grid[1] = l->grid[2] = 1;
    l->block[0] = threads;
    l->block[1] = l->block[2] = 1;
    return bytes;
}

void ct_ws_emit_direct(FILE *f, const ct_ws_exec *x, const ct_problem *p, const ct_params *c, const char *sym,
                       const char *signature, const char *cat)
{
    const ct_template *t = ct_ws_template(p, x->exec);
    ct_buffer b[CT_MAX_BUFS];
    const int nb = p->family->buffers(p, b);
    const char *name = t ? t->name : "missing_template";
    ct_launch pl;
    const long long pbytes = t && x->prep && p->family->prep ? p->family->prep(p, t, c, &pl) : 0;
    const int half = ct_dtype_is_half(ct_problem_dtype(p)), src = x->prep ? x->prep->src : -1;
    if (pbytes > 0)
        fprintf(f, "// The prep kernel's workspace, made on the first call (not thread-safe: call\n"
                   "// once from one thread first, or guard the first call), written at every call.\n"
                   "static void *ct_wp;\n\nextern \"C\" void %s_release(void)\n{\n    cudaFree(ct_wp);\n"
                   "    ct_wp = 0;\n}\n\n", sym);
    else
        fprintf(f, "// Nothing is kept between calls.\nextern \"C\" void %s_release(void)\n{\n}\n\n", sym);
    fprintf(f, "extern \"C\" %s\n{\n", signature);
    if (pbytes > 0)
        fprintf(f, "    if (!ct_wp) {\n        cudaError_t err = cudaMalloc(&ct_wp, %lldULL);\n"
                   "        if (err != cudaSuccess)\n            return (int)err;\n    }\n"
                   "    %s(%s, %s)<<<dim3(%u, %u, %u), %u, 0, stream>>>(%s%s, (float *)ct_wp);\n",
                pbytes, cat, name, x->prep->suffix, pl.grid[0], pl.grid[1], pl.grid[2], pl.block[0],
                half ? "(const ct_elem *)" : "", b[src].name);
    ct_export_emit_smem_optin(f, name);
    fprintf(f, "    %s<<<dim3(CT_GRID_X, CT_GRID_Y, CT_GRID_Z), CT_BLOCK_X, CT_SMEM_BYTES, stream>>>(", name);
    for (int i = 0; i < nb; i++) {
        const char *cast = !half ? "" : b[i].is_output ? "(ct_elem *)" : "(const ct_elem *)";
        if (i == src && pbytes > 0)
            fprintf(f, "%s(const float *)ct_wp", i ? ", " : "");
        else
            fprintf(f, "%s%s%s", i ? ", " : "", cast, b[i].name);
    }
    fprintf(f, ");\n    return (int)cudaGetLastError();\n}\n");
}
