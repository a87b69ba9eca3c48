/* dwclbwd_exec.c - the executor of the depthwise weight gradient
 * (FAMILY_wgdwcl, dwclbwd_conv.h): the main kernel writes each split's
 * partial sums to a workspace of splits x (KH*KW + bias) x C floats, then
 * FAMILY_wgdwcl_reduce adds the splits of each weight in fp64 in split
 * order into dW (and db). Two launches instead of atomics or a last block:
 * the sums are the same on every run, and the reduction is spread over
 * the whole device (one last-arriving block would add a whole channel
 * slice's splits alone, a tail as long as the main kernel on small grids). */
#include "dwclbwd_conv.h"
#include "intmath.h"

#include <stdio.h>
#include <stdlib.h>

CT_FAMILY_CODE

typedef struct wg_state {
    const ct_drv *d;
    CUfunction main, reduce;
    ct_launch l;
    CUdeviceptr in, dout, out, ws;
    long long count;   /* floats of a split: dW then db, = the output's count */
} wg_state;

/* The template of p's family that runs with this executor. */
static const ct_template *wg_template(const ct_problem *p)
{
    for (int i = 0; i < p->family->ntemplates; i++)
        if (p->family->templates[i].exec == &ct_dwclbwd_exec)
            return &p->family->templates[i];
    return NULL;
}

static void wg_teardown(void *state)
{
    wg_state *s = state;
    if (!s)
        return;
    if (s->ws)
        s->d->cuMemFree(s->ws);
    free(s);
}

static ct_status wg_setup(const ct_problem *p, const ct_params *c, const ct_drv *d, CUmodule mod,
                          const CUdeviceptr *bufs, void **out, ct_err *e)
{
    const ct_template *t = wg_template(p);
    if (!t)
        return ct_fail(e, CT_ERR_INTERNAL, "no wgdwcl template in family %s", p->family->name);
    wg_state *s = calloc(1, sizeof *s);
    if (!s)
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    s->d = d;
    ct_status rc = CT_OK;
    s->in = bufs[0];
    s->dout = bufs[1];
    s->out = bufs[2];
    s->count = (long long)ct_problem_output_count(p);
    p->family->geometry(p, t, c, &s->l);
    char rname[96];
    snprintf(rname, sizeof rname, "%s_reduce", t->name);
    CU_TRY(d, e, rc, fail, cuModuleGetFunction(&s->main, mod, t->name));
    CU_TRY(d, e, rc, fail, cuModuleGetFunction(&s->reduce, mod, rname));
    size_t bytes = (size_t)s->l.grid[0] * (size_t)s->count * sizeof(float), free_b = 0, total_b = 0;
    CU_TRY(d, e, rc, fail, cuMemGetInfo(&free_b, &total_b));
    if (bytes + (64u << 20) > free_b) {
        rc = ct_fail(e, CT_ERR_USAGE, "wgrad workspace of %.2f GiB does not fit in %.2f GiB free",
                     bytes / 1073741824.0, free_b / 1073741824.0);
        goto fail;
    }
    CU_TRY(d, e, rc, fail, cuMemAlloc(&s->ws, bytes));
    *out = s;
    return CT_OK;
fail:
    wg_teardown(s);
    return rc;
}

/* The reduce kernel's blocks: 32 entries each (ct_dwcl_bwd.cuh). */
static unsigned wg_reduce_grid(long long count)
{
    return (unsigned)ct_cdiv(count, 32);
}

static CUresult wg_run(void *state)
{
    wg_state *s = state;
    void *ma[] = {&s->in, &s->dout, &s->ws};
    CUresult r = s->d->cuLaunchKernel(s->main, s->l.grid[0], s->l.grid[1], s->l.grid[2], s->l.block[0],
                                      s->l.block[1], s->l.block[2], s->l.smem_bytes, NULL, ma, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    void *ra[] = {&s->ws, &s->out};
    return s->d->cuLaunchKernel(s->reduce, wg_reduce_grid(s->count), 1, 1, 256, 1, 1, 0, NULL, ra, NULL);
}

static void wg_resources(void *state, int *regs, int *smem, int *local)
{
    wg_state *s = state;
    CUfunction fs[2] = {s->main, s->reduce};
    *regs = *smem = *local = 0;
    for (int i = 0; i < 2; i++) {
        int v = 0;
        if (s->d->cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, fs[i]) == CUDA_SUCCESS && v > *regs)
            *regs = v;
        if (s->d->cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fs[i]) == CUDA_SUCCESS && v > *smem)
            *smem = v;
        if (s->d->cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fs[i]) == CUDA_SUCCESS && v > *local)
            *local = v;
    }
}

/* Host code of the export: the workspace is made on the first call and
 * kept; <sym>_release() frees it. */
static void wg_emit(FILE *f, const ct_problem *p, const ct_params *c, const char *sym, const char *signature)
{
    const ct_template *t = wg_template(p);
    ct_buffer b[CT_MAX_BUFS];
    p->family->buffers(p, b);
    const long long count = (long long)ct_problem_output_count(p);
    const char *name = t ? t->name : "missing_template";
    (void)c;
    fprintf(f, "// The splits' partial sums, made on the first call (not thread-safe: call once\n"
               "// from one thread first, or guard the first call).\nstatic float *ct_ws;\n\n");
    fprintf(f, "extern \"C\" void %s_release(void)\n{\n    cudaFree(ct_ws);\n    ct_ws = 0;\n}\n\n", sym);
    fprintf(f, "extern \"C\" %s\n{\n", signature);
    fprintf(f, "    if (!ct_ws) {\n"
               "        cudaError_t err = cudaMalloc((void **)&ct_ws, (size_t)CT_GRID_X * %lldULL * sizeof(float));\n"
               "        if (err != cudaSuccess)\n            return (int)err;\n    }\n",
            count);
    /* A half-type launcher takes void pointers: cast them to the kernel's
     * ct_elem (a no-op for fp32, whose launcher takes floats). */
    fprintf(f, "    %s<<<dim3(CT_GRID_X, CT_GRID_Y, CT_GRID_Z), dim3(CT_BLOCK_X, CT_BLOCK_Y, CT_BLOCK_Z), "
               "CT_SMEM_BYTES, stream>>>((const ct_elem *)%s, (const ct_elem *)%s, ct_ws);\n",
            name, b[0].name, b[1].name);
    fprintf(f, "    %s_reduce<<<%u, 256, 0, stream>>>(ct_ws, (ct_elem *)%s);\n", name, wg_reduce_grid(count),
            b[2].name);
    fprintf(f, "    return (int)cudaGetLastError();\n}\n");
}

const ct_executor ct_dwclbwd_exec = {
    .library = "CUDA runtime",
    .link_flags = "",
    .setup = wg_setup,
    .run = wg_run,
    .teardown = wg_teardown,
    .resources = wg_resources,
    .emit_launcher = wg_emit,
};
