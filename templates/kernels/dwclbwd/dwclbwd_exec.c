/* dwclbwd_exec.c - the executor of the depthwise weight gradient
 * (FAMILY_wgdwcl, dwclbwd_conv.h): the main kernel writes each split's
 * partial sums to a workspace of splits x (KH*KW + bias) x C floats, then
 * FAMILY_wgdwcl_reduce adds the splits of each weight in fp64 in split
 * order into dW (and db). Two launches instead of atomics or a last block:
 * the sums are the same on every run, and the reduction is spread over
 * the whole device (one last-arriving block would add a whole channel
 * slice's splits alone, a tail as long as the main kernel on small grids).
 * The launches are ws_exec.c's; the export's host code is this file's. */
#include "dwclbwd_conv.h"
#include "export.h"
#include "intmath.h"
#include "ws_exec.h"

#include <stdio.h>
#include <stdlib.h>

CT_FAMILY_CODE

/* The reduce kernel's blocks: 32 entries each (ct_dwcl_wgred.cuh). */
unsigned ct_dwclbwd_reduce_grid(long long count)
{
    return (unsigned)ct_cdiv(count, 32);
}

/* Host code of the export: the workspace is made on the first call and
 * kept; <sym>_release() frees it. The template is the one of p's family
 * that runs with executor x (wgdwcl's or wgdw16cl's: the same two launches). */
void ct_dwclbwd_emit(const ct_executor *x, FILE *f, const ct_problem *p, const ct_params *c, const char *sym,
                     const char *signature)
{
    const ct_template *t = ct_ws_template(p, x);
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
    /* wgdw16cl's larger tiles need over 48 KiB of dynamic shared memory. */
    ct_export_emit_smem_optin(f, name);
    /* A half-type launcher takes void pointers: cast them to the kernel's
     * ct_elem (a no-op for fp32, whose launcher takes floats). */
    fprintf(f, "    %s<<<dim3(CT_GRID_X, CT_GRID_Y, CT_GRID_Z), dim3(CT_BLOCK_X, CT_BLOCK_Y, CT_BLOCK_Z), "
               "CT_SMEM_BYTES, stream>>>((const ct_elem *)%s, (const ct_elem *)%s, ct_ws);\n",
            name, b[0].name, b[1].name);
    fprintf(f, "    %s_reduce<<<%u, 256, 0, stream>>>(ct_ws, (ct_elem *)%s);\n", name, ct_dwclbwd_reduce_grid(count),
            b[2].name);
    fprintf(f, "    return (int)cudaGetLastError();\n}\n");
}

/* The splits along the grid's x; the workspace and the reduce even for one
 * split (the main kernel writes partial sums only). */
static const ct_ws_exec wg_ws = {.exec = &ct_dwclbwd_exec, .split_axis = 0, .always = 1,
                                 .reduce_grid = ct_dwclbwd_reduce_grid, .what = "wgrad workspace"};

static void wg_emit(FILE *f, const ct_problem *p, const ct_params *c, const char *sym, const char *signature)
{
    ct_dwclbwd_emit(&ct_dwclbwd_exec, f, p, c, sym, signature);
}

static ct_status wg_setup(const ct_problem *p, const ct_params *c, const ct_drv *d, CUmodule mod,
                          const CUdeviceptr *bufs, void **out, ct_err *e)
{
    return ct_ws_setup(&wg_ws, p, c, d, mod, bufs, out, e);
}

const ct_executor ct_dwclbwd_exec = {
    .library = "CUDA runtime",
    .link_flags = "",
    .setup = wg_setup,
    .run = ct_ws_run,
    .teardown = ct_ws_teardown,
    .resources = ct_ws_resources,
    .emit_launcher = wg_emit,
};
