/* fft_conv.c - the executor of conv1d_fft (fft.conv1d.cu.in beside it):
 * overlap-save FFT correlation with cuFFT, whose cost per output does not
 * grow with the mask. The derived sizes are fft_sizes.cuh's, which the
 * template's kernels expand too. */
#include "fft_conv.h"
#include "fft_sizes.cuh"

#include <stdlib.h>
#include <string.h>

#include "cufftdl.h"

CT_FAMILY_CODE

const ct_param_def ct_conv1d_fft_params[] = CT_PARAM_TABLE(CT_CONV1D_FFT_PARAMS);

typedef struct fft_geom {
    long long n, k, nout, off;
    long long l, s, cs, rs, nseg;
} fft_geom;

static void geom_of(const ct_problem *p, const conv1d_fft_values *q, fft_geom *g)
{
    ct_define defs[CT_MAX_DEFINES];
    int nd = ct_problem_defines(p, defs);
    for (int i = 0; i < nd; i++) {
        if (!strcmp(defs[i].name, "CONV_N")) g->n = defs[i].value;
        if (!strcmp(defs[i].name, "CONV_K")) g->k = defs[i].value;
        if (!strcmp(defs[i].name, "CONV_OUT")) g->nout = defs[i].value;
        if (!strcmp(defs[i].name, "CONV_OFF")) g->off = defs[i].value;
    }
    /* fft_sizes.cuh's macros read the template's names: here locals. */
    const long long FFT_SIZE = q->FFT_SIZE, CONV_K = g->k, CONV_OUT = g->nout;
    g->l = FFT_SIZE;
    g->s = FFT_S;
    g->cs = FFT_CS;
    g->rs = FFT_RS;
    /* A segment shorter than the mask gives no output; the constraints
     * reject it, but the sizes are computed before they look. */
    g->nseg = g->s > 0 ? FFT_NSEG : 0;
}

int ct_conv1d_fft_constrain(const ct_problem *p, const ct_params *c, const ct_limits *lim, char *why,
                            size_t len)
{
    const conv1d_fft_values q = conv1d_fft_get(c);
    fft_geom g = {0};
    geom_of(p, &q, &g);
    const long block = q.BLOCK_SIZE;
    if (g.l < 64 || (g.l & (g.l - 1)) != 0 || g.l > (1 << 24)) {
        snprintf(why, len, "FFT_SIZE=%lld must be a power of two in 64..2^24", g.l);
        return 1;
    }
    if (block < 32 || block > lim->max_threads_per_block || block % 32) {
        snprintf(why, len, "BLOCK_SIZE=%ld is not a multiple of 32 within the device's %d threads", block,
                 lim->max_threads_per_block);
        return 1;
    }
    if (g.l < 2 * g.k) {
        snprintf(why, len, "FFT_SIZE=%lld is below twice the mask (%lld taps): segments would be mostly overlap",
                 g.l, g.k);
        return 1;
    }
    if (g.l >= 2 * (g.nout + g.k) && g.l > 64) {
        snprintf(why, len, "FFT_SIZE=%lld: half of it already covers the whole problem", g.l);
        return 1;
    }
    return 0;
}

typedef struct fft_state {
    const ct_drv *d;
    const ct_cufft *fft;
    fft_geom g;
    long block;
    CUfunction gather, multiply, scatter;
    cufftHandle fwd, inv;
    int have_fwd, have_inv;
    CUdeviceptr buf, in, mask, out;
} fft_state;

static unsigned grid_for(long long total, long block)
{
    long long blocks = (total + block - 1) / block;
    return (unsigned)(blocks > 2147483647LL ? 2147483647LL : blocks);
}

static void fft_teardown(void *state)
{
    fft_state *s = state;
    if (!s)
        return;
    if (s->have_fwd)
        s->fft->destroy(s->fwd);
    if (s->have_inv)
        s->fft->destroy(s->inv);
    if (s->buf)
        s->d->cuMemFree(s->buf);
    free(s);
}

static ct_status fft_setup(const ct_problem *p, const ct_params *c, const ct_drv *d, CUmodule mod,
                           const CUdeviceptr *bufs, void **out, ct_err *e)
{
    fft_state *s = calloc(1, sizeof *s);
    if (!s)
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    s->d = d;
    ct_status rc = ct_cufft_load(&s->fft, e);
    if (rc != CT_OK) {
        free(s);
        return rc;
    }
    const conv1d_fft_values q = conv1d_fft_get(c);
    geom_of(p, &q, &s->g);
    s->block = q.BLOCK_SIZE;
    s->in = bufs[0];
    s->mask = bufs[1];
    s->out = bufs[2];
    CU_TRY(d, e, rc, fail, cuModuleGetFunction(&s->gather, mod, "conv1d_fft_gather"));
    CU_TRY(d, e, rc, fail, cuModuleGetFunction(&s->multiply, mod, "conv1d_fft_multiply"));
    CU_TRY(d, e, rc, fail, cuModuleGetFunction(&s->scatter, mod, "conv1d_fft_scatter"));
    size_t bytes = (size_t)(s->g.nseg + 1) * (size_t)s->g.rs * sizeof(float);
    size_t free_b = 0, total_b = 0;
    CU_TRY(d, e, rc, fail, cuMemGetInfo(&free_b, &total_b));
    /* cuFFT needs a work area of about the same size again. */
    if (2 * bytes + (64u << 20) > free_b) {
        rc = ct_fail(e, CT_ERR_USAGE, "FFT scratch of %.2f GiB does not fit in %.2f GiB free",
                     2.0 * bytes / 1073741824.0, free_b / 1073741824.0);
        goto fail;
    }
    CU_TRY(d, e, rc, fail, cuMemAlloc(&s->buf, bytes));
    int n[1] = {(int)s->g.l}, rs[1] = {(int)s->g.rs}, cs[1] = {(int)s->g.cs};
    cufftResult fr = s->fft->plan_many(&s->fwd, 1, n, rs, 1, (int)s->g.rs, cs, 1, (int)s->g.cs, CUFFT_R2C,
                                       (int)s->g.nseg + 1);
    if (fr != CUFFT_SUCCESS) {
        rc = ct_fail(e, fr == CUFFT_ALLOC_FAILED ? CT_ERR_USAGE : CT_ERR_CUDA, "cufftPlanMany (R2C, %lld x %lld): %s",
                     s->g.nseg + 1, s->g.l, ct_cufft_error(fr));
        goto fail;
    }
    s->have_fwd = 1;
    fr = s->fft->plan_many(&s->inv, 1, n, cs, 1, (int)s->g.cs, rs, 1, (int)s->g.rs, CUFFT_C2R, (int)s->g.nseg);
    if (fr != CUFFT_SUCCESS) {
        rc = ct_fail(e, fr == CUFFT_ALLOC_FAILED ? CT_ERR_USAGE : CT_ERR_CUDA, "cufftPlanMany (C2R, %lld x %lld): %s",
                     s->g.nseg, s->g.l, ct_cufft_error(fr));
        goto fail;
    }
    s->have_inv = 1;
    /* Stream 0 is the legacy default stream for the driver launches and for
     * cuFFT alike, so the five steps run in order. */
    s->fft->set_stream(s->fwd, 0);
    s->fft->set_stream(s->inv, 0);
    *out = s;
    return CT_OK;
fail:
    fft_teardown(s);
    return rc;
}

static CUresult fft_run(void *state)
{
    fft_state *s = state;
    const ct_drv *d = s->d;
    void *ga[] = {&s->in, &s->mask, &s->buf};
    CUresult r = d->cuLaunchKernel(s->gather, grid_for((s->g.nseg + 1) * s->g.l, s->block), 1, 1,
                                   (unsigned)s->block, 1, 1, 0, NULL, ga, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (s->fft->exec_r2c(s->fwd, (cufftReal *)(uintptr_t)s->buf, (cufftComplex *)(uintptr_t)s->buf) != CUFFT_SUCCESS)
        return CUDA_ERROR_UNKNOWN;
    void *ma[] = {&s->buf};
    r = d->cuLaunchKernel(s->multiply, grid_for(s->g.nseg * s->g.cs, s->block), 1, 1, (unsigned)s->block, 1, 1, 0,
                          NULL, ma, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (s->fft->exec_c2r(s->inv, (cufftComplex *)(uintptr_t)s->buf, (cufftReal *)(uintptr_t)s->buf) != CUFFT_SUCCESS)
        return CUDA_ERROR_UNKNOWN;
    void *sa[] = {&s->buf, &s->out};
    return d->cuLaunchKernel(s->scatter, grid_for(s->g.nout, s->block), 1, 1, (unsigned)s->block, 1, 1, 0, NULL,
                             sa, NULL);
}

static void fft_resources(void *state, int *regs, int *smem, int *local)
{
    fft_state *s = state;
    CUfunction fs[3] = {s->gather, s->multiply, s->scatter};
    *regs = *smem = *local = 0;
    for (int i = 0; i < 3; i++) {
        int v = 0;
        if (s->d->cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, fs[i]) == CUDA_SUCCESS && v > *regs)
            *regs = v;
        if (s->d->cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fs[i]) == CUDA_SUCCESS && v > *smem)
            *smem = v;
        if (s->d->cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fs[i]) == CUDA_SUCCESS && v > *local)
            *local = v;
    }
}

/* Host code of the export: the same five steps with the CUDA runtime and
 * cuFFT. Plans and scratch are made on the first call and kept; the caller
 * may free them with <sym>_release(). */
static void fft_emit(FILE *f, const ct_problem *p, const ct_params *c, const char *sym, const char *signature)
{
    const long block = conv1d_fft_get(c).BLOCK_SIZE;
    /* The sizes are the FFT_* macros of the exported file; a half problem's
     * launcher takes void pointers (export.c), its kernels ct_elem ones. */
    const int half = ct_problem_dtype(p) != CT_DTYPE_F32;
    const char *cin = half ? "(const ct_elem *)" : "", *cout = half ? "(ct_elem *)" : "";
    fprintf(f, "#include <cufft.h>\n\n");
    fprintf(f, "// Plans and scratch, made on the first call (not thread-safe: call once\n"
               "// from one thread first, or guard the first call).\n");
    fprintf(f, "static cufftHandle ct_fwd, ct_inv;\nstatic float *ct_buf;\nstatic int ct_ready;\n\n");
    fprintf(f, "static unsigned ct_grid(long long total)\n{\n    long long b = (total + %ld - 1) / %ld;\n"
               "    return (unsigned)(b > 2147483647LL ? 2147483647LL : b);\n}\n\n", block, block);
    fprintf(f, "extern \"C\" void %s_release(void)\n{\n    if (!ct_ready)\n        return;\n"
               "    cufftDestroy(ct_fwd);\n    cufftDestroy(ct_inv);\n    cudaFree(ct_buf);\n    ct_ready = 0;\n}\n\n",
            sym);
    fprintf(f, "extern \"C\" %s\n{\n", signature);
    fprintf(f, "    if (!ct_ready) {\n"
               "        cudaError_t err = cudaMalloc((void **)&ct_buf, (size_t)(FFT_NSEG + 1) * FFT_RS * sizeof(float));\n"
               "        if (err != cudaSuccess)\n            return (int)err;\n"
               "        int n[1] = {FFT_SIZE}, rs[1] = {FFT_RS}, cs[1] = {FFT_CS};\n"
               "        if (cufftPlanMany(&ct_fwd, 1, n, rs, 1, FFT_RS, cs, 1, FFT_CS, CUFFT_R2C, FFT_NSEG + 1) != CUFFT_SUCCESS)\n"
               "            return 1000 + (int)CUFFT_SETUP_FAILED;\n"
               "        if (cufftPlanMany(&ct_inv, 1, n, cs, 1, FFT_CS, rs, 1, FFT_RS, CUFFT_C2R, FFT_NSEG) != CUFFT_SUCCESS)\n"
               "            return 1000 + (int)CUFFT_SETUP_FAILED;\n"
               "        ct_ready = 1;\n    }\n");
    fprintf(f, "    cufftResult fr;\n"
               "    if ((fr = cufftSetStream(ct_fwd, stream)) != CUFFT_SUCCESS || (fr = cufftSetStream(ct_inv, stream)) != CUFFT_SUCCESS)\n"
               "        return 1000 + (int)fr;\n");
    fprintf(f, "    conv1d_fft_gather<<<ct_grid((long long)(FFT_NSEG + 1) * FFT_SIZE), %ld, 0, stream>>>(%sin, %smask, "
               "ct_buf);\n", block, cin, cin);
    fprintf(f, "    if ((fr = cufftExecR2C(ct_fwd, ct_buf, (cufftComplex *)ct_buf)) != CUFFT_SUCCESS)\n"
               "        return 1000 + (int)fr;\n");
    fprintf(f, "    conv1d_fft_multiply<<<ct_grid((long long)FFT_NSEG * FFT_CS), %ld, 0, stream>>>((float2 *)ct_buf);\n",
            block);
    fprintf(f, "    if ((fr = cufftExecC2R(ct_inv, (cufftComplex *)ct_buf, ct_buf)) != CUFFT_SUCCESS)\n"
               "        return 1000 + (int)fr;\n");
    fprintf(f, "    conv1d_fft_scatter<<<ct_grid(CONV_OUT), %ld, 0, stream>>>(ct_buf, %sout);\n", block, cout);
    fprintf(f, "    return (int)cudaGetLastError();\n}\n");
}

const ct_executor ct_conv1d_fft_exec = {
    .library = "cuFFT",
    .link_flags = "-lcufft",
    .setup = fft_setup,
    .run = fft_run,
    .teardown = fft_teardown,
    .resources = fft_resources,
    .emit_launcher = fft_emit,
};
