/* runner.c - device setup, buffers, reference, verification and timing. */
#include "runner.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dtype.h"
#include "executor.h"
#include "nvml.h"
#include "space.h"
#include "text.h"
#include "timer.h"


static ct_status time_kernel(ct_gpu *g, CUfunction f, const ct_launch *l, void **args,
                             const ct_settings *s, ct_result *o, ct_err *e);

ct_status ct_limits_for_arch(const char *arch, ct_limits *lim, ct_err *e)
{
    int cc = 0, n = 0;
    const char *d = !strncmp(arch, "sm_", 3) ? arch + 3 : !strncmp(arch, "compute_", 8) ? arch + 8 : NULL;
    /* Digits, then at most NVRTC's "a" or "f" suffix (sm_90a): nothing else
     * may follow, no sign or space may lead. */
    if (!d || *d < '0' || *d > '9' || sscanf(d, "%d%n", &cc, &n) != 1 ||
        (d[n] && (strchr("af", d[n]) == NULL || d[n + 1])))
        return ct_fail(e, CT_ERR_USAGE, "architecture '%s' must be sm_XY or compute_XY (e.g. sm_90)",
                       ct_echo(arch, (char[CT_ECHO_LEN]){0}, CT_ECHO_LEN));
    if (cc < 50 || cc > 200)
        return ct_fail(e, CT_ERR_USAGE, "architecture '%s' is not one NVRTC targets (sm_50 .. sm_120)",
                       ct_echo(arch, (char[CT_ECHO_LEN]){0}, CT_ECHO_LEN));
    memset(lim, 0, sizeof *lim);
    lim->cc_major = cc / 10;
    lim->cc_minor = cc % 10;
    lim->max_threads_per_block = 1024;
    lim->const_bytes = 65536;
    lim->regs_per_sm = 65536;
    /* Opt-in shared memory per block by architecture (CUDA programming guide). */
    int smem_kb = cc >= 90 ? 227 : cc == 80 || cc == 87 ? 163 : cc >= 86 ? 99 : cc == 75 ? 64 : cc >= 70 ? 96 : 48;
    lim->max_smem_per_block = smem_kb * 1024;
    lim->max_smem_per_sm = (smem_kb + 1) * 1024;
    return CT_OK;
}

#define CT_MIN_INTO(a, b) ((a) = (b) < (a) ? (b) : (a))

ct_status ct_limits_restrict(ct_limits *lim, const char *arch, ct_err *e)
{
    ct_limits a;
    ct_status rc = ct_limits_for_arch(arch, &a, e);
    if (rc != CT_OK)
        return rc;
    if (a.cc_major * 10 + a.cc_minor > lim->cc_major * 10 + lim->cc_minor)
        return ct_fail(e, CT_ERR_USAGE, "--arch-limit %s is newer than the device's sm_%d%d: its kernels would not "
                       "run here", ct_echo(arch, (char[CT_ECHO_LEN]){0}, CT_ECHO_LEN), lim->cc_major, lim->cc_minor);
    lim->cc_major = a.cc_major;
    lim->cc_minor = a.cc_minor;
    CT_MIN_INTO(lim->max_threads_per_block, a.max_threads_per_block);
    CT_MIN_INTO(lim->max_smem_per_block, a.max_smem_per_block);
    CT_MIN_INTO(lim->max_smem_per_sm, a.max_smem_per_sm);
    CT_MIN_INTO(lim->regs_per_sm, a.regs_per_sm);
    CT_MIN_INTO(lim->const_bytes, a.const_bytes);
    return CT_OK;
}

ct_status ct_gpu_open(int ordinal, ct_gpu *g, ct_err *e)
{
    memset(g, 0, sizeof *g);
    ct_status rc = ct_drv_load(&g->d, e);
    if (rc != CT_OK)
        return rc;
    const ct_drv *d = g->d;
    int count = 0;
    CU_CHECK(d, e, cuDeviceGetCount(&count));
    if (ordinal < 0 || ordinal >= count)
        return ct_fail(e, CT_ERR_NO_GPU, "GPU index %d is out of range: this machine has %d GPU%s (0..%d)",
                       ordinal, count, count == 1 ? "" : "s", count - 1);
    g->ordinal = ordinal;
    g->device_count = count;
    CU_CHECK(d, e, cuDeviceGet(&g->dev, ordinal));
    CU_CHECK(d, e, cuDevicePrimaryCtxRetain(&g->ctx, g->dev));
    CU_CHECK(d, e, cuCtxSetCurrent(g->ctx));
    ct_device_info *in = &g->info;
    CU_CHECK(d, e, cuDeviceGetName(in->name, sizeof in->name, g->dev));
    int v;
#define ATTR(dst, a) do { CU_CHECK(d, e, cuDeviceGetAttribute(&v, a, g->dev)); dst = v; } while (0)
    ATTR(in->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    ATTR(in->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    ATTR(in->sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    ATTR(g->lim.max_threads_per_block, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    ATTR(g->lim.max_smem_per_block, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    ATTR(g->lim.max_smem_per_sm, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    ATTR(g->lim.regs_per_sm, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    ATTR(g->lim.const_bytes, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
#undef ATTR
    g->lim.cc_major = in->cc_major;
    g->lim.cc_minor = in->cc_minor;
    g->lim.sm_count = in->sm_count;
    CU_CHECK(d, e, cuDeviceTotalMem(&g->total_mem, g->dev));
    CUuuid uuid;
    if (d->cuDeviceGetUuid(&uuid, g->dev) == CUDA_SUCCESS) {
        const unsigned char *u = (const unsigned char *)uuid.bytes;
        snprintf(in->uuid, sizeof in->uuid,
                 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
                 u[13], u[14], u[15]);
    }
    CU_CHECK(d, e, cuDriverGetVersion(&in->driver_version));
    CU_CHECK(d, e, cuDeviceGetAttribute(&g->l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, g->dev));
    g->nvml = ct_nvml_open(in->uuid);
    int nv = ct_nvrtc_version();
    in->nvrtc_major = nv / 1000;
    in->nvrtc_minor = nv % 1000 / 10;
    snprintf(g->arch, sizeof g->arch, "sm_%d%d", in->cc_major, in->cc_minor);
    return CT_OK;
}

void ct_gpu_close(ct_gpu *g)
{
    if (g->d && g->ctx)
        g->d->cuDevicePrimaryCtxRelease(g->dev);
    g->ctx = NULL;
    ct_nvml_close(g->nvml);
    g->nvml = NULL;
}

/* Time `reps` launches of f between two events, in milliseconds. */
static ct_status time_launches(ct_gpu *g, CUfunction f, unsigned grid, unsigned block, void **args,
                               int reps, float *ms, ct_err *e)
{
    const ct_drv *d = g->d;
    CUevent a = NULL, b = NULL;
    ct_status rc = CT_OK;
    CU_TRY(d, e, rc, out, cuEventCreate(&a, CU_EVENT_DEFAULT));
    CU_TRY(d, e, rc, out, cuEventCreate(&b, CU_EVENT_DEFAULT));
    CU_TRY(d, e, rc, out, cuEventRecord(a, NULL));
    for (int i = 0; i < reps; i++)
        CU_TRY(d, e, rc, out, cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, NULL, args, NULL));
    CU_TRY(d, e, rc, out, cuEventRecord(b, NULL));
    CU_TRY(d, e, rc, out, cuEventSynchronize(b));
    CU_TRY(d, e, rc, out, cuEventElapsedTime(ms, a, b));
out:
    if (a)
        d->cuEventDestroy(a);
    if (b)
        d->cuEventDestroy(b);
    return rc;
}

ct_status ct_gpu_measure_ceilings(ct_gpu *g, ct_err *e)
{
    const ct_drv *d = g->d;
    char *src = NULL;
    ct_binary bin = {0};
    CUmodule mod = NULL;
    CUdeviceptr buf = 0;
    ct_status rc = ct_template_source("ct_ceilings", NULL, &src, e);
    if (rc != CT_OK)
        return rc;
    rc = ct_nvrtc_compile(src, "ct_ceilings.cu", g->arch, NULL, 0, NULL, &bin, e);
    if (rc != CT_OK)
        goto out;
    CU_TRY(d, e, rc, out, cuModuleLoadData(&mod, bin.data));
    CUfunction fma, mma, copy, empty;
    CU_TRY(d, e, rc, out, cuModuleGetFunction(&fma, mod, "ct_fma_peak"));
    CU_TRY(d, e, rc, out, cuModuleGetFunction(&mma, mod, "ct_mma_peak"));
    CU_TRY(d, e, rc, out, cuModuleGetFunction(&copy, mod, "ct_copy"));
    CU_TRY(d, e, rc, out, cuModuleGetFunction(&empty, mod, "ct_empty"));

    /* FMA: sm_count*8 blocks of 256 threads, 8 chains x 16 unrolled x iters. */
    size_t bytes = (size_t)1 << 30;   /* 512 MiB source + 512 MiB destination */
    size_t free_b = 0, total_b = 0;
    CU_TRY(d, e, rc, out, cuMemGetInfo(&free_b, &total_b));
    if (bytes > free_b / 2)
        bytes = free_b / 2 & ~(size_t)0xFFFF;
    CU_TRY(d, e, rc, out, cuMemAlloc(&buf, bytes));
    CU_TRY(d, e, rc, out, cuMemsetD32(buf, 0x3f800000u, bytes / 4));
    float a = 0.999f, b = 0.001f;
    int iters = 2048;
    void *fargs[] = {&buf, &a, &b, &iters};
    unsigned blocks = (unsigned)g->info.sm_count * 8;
    float ms = 0, best = 1e30f;
    CU_TRY(d, e, rc, out, cuLaunchKernel(fma, blocks, 1, 1, 256, 1, 1, 0, NULL, fargs, NULL));
    for (int i = 0; i < 5; i++) {
        if ((rc = time_launches(g, fma, blocks, 256, fargs, 1, &ms, e)) != CT_OK)
            goto out;
        if (ms < best)
            best = ms;
    }
    g->info.fma_tflops = 2.0 * 8 * 16 * (double)iters * blocks * 256 / (best * 1e-3) / 1e12;

    /* Half tensor cores: 8 chains x 4 unrolled steps of 4096 FLOPs per warp
     * and iteration (ct_mma_peak); none before sm_75, where it stays 0. */
    g->info.tc_half_tflops = 0;
    if (ct_gpu_has_half_mma(g->info.cc_major, g->info.cc_minor)) {
        unsigned ha = 0x3c003c00u, hb = 0x3c003c00u;   /* 1.0 in f16 (bf16: a small value) */
        void *margs[] = {&buf, &ha, &hb, &iters};
        unsigned mblocks = (unsigned)g->info.sm_count * 4;
        best = 1e30f;
        CU_TRY(d, e, rc, out, cuLaunchKernel(mma, mblocks, 1, 1, 256, 1, 1, 0, NULL, margs, NULL));
        for (int i = 0; i < 5; i++) {
            if ((rc = time_launches(g, mma, mblocks, 256, margs, 1, &ms, e)) != CT_OK)
                goto out;
            if (ms < best)
                best = ms;
        }
        g->info.tc_half_tflops = 4096.0 * 8 * 4 * (double)iters * mblocks * (256 / 32) / (best * 1e-3) / 1e12;
    }

    CUdeviceptr src4 = buf, dst4 = buf + bytes / 2;
    long long n4 = (long long)(bytes / 2 / 16);
    void *cargs[] = {&src4, &dst4, &n4};
    unsigned cblocks = (unsigned)g->info.sm_count * 16;
    best = 1e30f;
    CU_TRY(d, e, rc, out, cuLaunchKernel(copy, cblocks, 1, 1, 256, 1, 1, 0, NULL, cargs, NULL));
    for (int i = 0; i < 5; i++) {
        if ((rc = time_launches(g, copy, cblocks, 256, cargs, 1, &ms, e)) != CT_OK)
            goto out;
        if (ms < best)
            best = ms;
    }
    g->info.bandwidth_gbs = (double)(bytes / 2) * 2.0 / (best * 1e-3) / 1e9;

    /* An empty launch, timed exactly the way candidates are: in a graph
     * of launches, so 50 samples of about a millisecond each. */
    {
        const ct_launch el = {.grid = {1, 1, 1}, .block = {32, 1, 1}};
        const ct_settings es = {.warmup = 10, .min_reps = 50, .max_reps = 50};
        ct_result eo;
        if ((rc = time_kernel(g, empty, &el, NULL, &es, &eo, e)) != CT_OK)
            goto out;
        g->info.launch_us = eo.median_us;
    }
out:
    if (buf)
        d->cuMemFree(buf);
    if (mod)
        d->cuModuleUnload(mod);
    ct_binary_free(&bin);
    free(src);
    return rc;
}

int ct_gpu_has_half_mma(int cc_major, int cc_minor)
{
    return cc_major * 10 + cc_minor >= 75;
}

double ct_relerr(const float *out, const double *ref, size_t n)
{
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(out[i]))
            return INFINITY;
        double dlt = (double)out[i] - ref[i];
        num += dlt * dlt;
        den += ref[i] * ref[i];
    }
    if (den == 0.0)
        return sqrt(num);
    return sqrt(num / den);
}

ct_status ct_reference_gpu(ct_gpu *g, ct_workload *w, const char *templates_dir, ct_err *e)
{
    const ct_drv *d = g->d;
    const ct_problem *p = w->p;
    char name[64], *src = NULL;
    ct_binary bin = {0};
    CUmodule mod = NULL;
    CUdeviceptr dref = 0;
    snprintf(name, sizeof name, "%s_ref64", p->family->name);
    ct_status rc = ct_template_source(name, templates_dir, &src, e);
    if (rc != CT_OK)
        return rc;
    ct_define defs[CT_MAX_DEFINES];
    int nd = ct_problem_defines(p, defs);
    rc = ct_nvrtc_compile(src, name, g->arch, defs, nd, NULL, &bin, e);
    if (rc != CT_OK)
        goto out;
    size_t nout = w->bufs[w->out_index].count;
    CUfunction f;
    CU_TRY(d, e, rc, out, cuModuleLoadData(&mod, bin.data));
    CU_TRY(d, e, rc, out, cuModuleGetFunction(&f, mod, name));
    CU_TRY(d, e, rc, out, cuMemAlloc(&dref, nout * sizeof(double)));
    void *args[CT_MAX_BUFS];
    for (int i = 0; i < w->nbufs; i++)
        args[i] = i == w->out_index ? (void *)&dref : (void *)&w->dev[i];
    unsigned grid = (unsigned)((nout + 255) / 256);
    CU_TRY(d, e, rc, out, cuLaunchKernel(f, grid, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
    CU_TRY(d, e, rc, out, cuCtxSynchronize());
    CU_TRY(d, e, rc, out, cuMemcpyDtoH(w->ref, dref, nout * sizeof(double)));
    w->ref_on_gpu = 1;
out:
    if (dref)
        d->cuMemFree(dref);
    if (mod)
        d->cuModuleUnload(mod);
    ct_binary_free(&bin);
    free(src);
    return rc;
}

/* Direct references cost one multiply-add per FLOP pair on one core; past
 * this many FLOPs the fp64 GPU kernel is used instead. */
#define CPU_REFERENCE_MAX_FLOPS 2e8

ct_status ct_workload_create(ct_gpu *g, const ct_problem *p, unsigned long long seed,
                             const float *const *inputs, const char *templates_dir,
                             ct_workload *w, ct_err *e)
{
    const ct_drv *d = g->d;
    memset(w, 0, sizeof *w);
    w->p = p;
    w->nbufs = p->family->buffers(p, w->bufs);
    w->out_index = -1;
    w->dtype = ct_problem_dtype(p);
    const size_t esz = ct_dtype_size(w->dtype);
    size_t need = 0;
    for (int i = 0; i < w->nbufs; i++) {
        need += w->bufs[i].count * esz;
        if (w->bufs[i].is_output) {
            w->out_index = i;
            need += w->bufs[i].count * sizeof(double);   /* GPU reference output */
        }
    }
    if (w->out_index < 0)
        return ct_fail(e, CT_ERR_INTERNAL, "family %s declares no output buffer", p->family->name);
    size_t free_b = 0, total_b = 0;
    CU_CHECK(d, e, cuMemGetInfo(&free_b, &total_b));
    if (need + (64u << 20) > free_b)
        return ct_fail(e, CT_ERR_USAGE, "problem %s needs %.2f GiB of device memory; the GPU has %.2f GiB free",
                       p->canonical, need / 1073741824.0, free_b / 1073741824.0);
    ct_status rc = CT_OK;
    unsigned long long st = seed;
    void *staged = NULL;   /* a half type's bits on their way up */
    for (int i = 0; i < w->nbufs; i++) {
        size_t n = w->bufs[i].count;
        w->host[i] = malloc(n * sizeof(float));
        if (!w->host[i]) {
            rc = ct_fail(e, CT_ERR_INTERNAL, "out of host memory for buffer %s", w->bufs[i].name);
            goto fail;
        }
        CU_TRY(d, e, rc, fail, cuMemAlloc(&w->dev[i], n * esz));
        if (w->bufs[i].is_output)
            continue;
        if (inputs && inputs[i]) {
            memcpy(w->host[i], inputs[i], n * sizeof(float));
        } else {
            for (size_t k = 0; k < n; k++)
                w->host[i][k] = (float)((double)(ct_rand_next(&st) >> 40) / 8388608.0 - 1.0);
        }
        if (!ct_dtype_is_half(w->dtype)) {   /* f32, tf32: the kernels round what they round */
            CU_TRY(d, e, rc, fail, cuMemcpyHtoD(w->dev[i], w->host[i], n * sizeof(float)));
            continue;
        }
        /* The references read what the kernel reads: the inputs rounded to
         * the type, which floats hold exactly. */
        for (size_t k = 0; k < n; k++)
            w->host[i][k] = ct_dtype_round(w->dtype, w->host[i][k]);
        free(staged);
        if (!(staged = malloc(n * esz))) {
            rc = ct_fail(e, CT_ERR_INTERNAL, "out of host memory for buffer %s", w->bufs[i].name);
            goto fail;
        }
        ct_dtype_narrow(w->dtype, w->host[i], staged, n);
        CU_TRY(d, e, rc, fail, cuMemcpyHtoD(w->dev[i], staged, n * esz));
    }
    free(staged);
    staged = NULL;
    /* The L2 flush buffer: twice the L2, so a memset of it leaves nothing of
     * the candidate's data cached. Allocated up front so the memory check
     * above is honest only about the problem; a failure just disables it. */
    w->flush_bytes = (size_t)g->l2_bytes * 2;
    if (w->flush_bytes && d->cuMemAlloc(&w->flush, w->flush_bytes) != CUDA_SUCCESS) {
        w->flush = 0;
        w->flush_bytes = 0;
    }
    size_t nout = w->bufs[w->out_index].count;
    w->ref = malloc(nout * sizeof(double));
    if (!w->ref) {
        rc = ct_fail(e, CT_ERR_INTERNAL, "out of host memory for the reference");
        goto fail;
    }
    if (p->family->flops(p) <= CPU_REFERENCE_MAX_FLOPS) {
        const float *in[CT_MAX_BUFS];
        int k = 0;
        for (int i = 0; i < w->nbufs; i++)
            if (!w->bufs[i].is_output)
                in[k++] = w->host[i];
        p->family->reference(p, in, w->ref);
    } else if ((rc = ct_reference_gpu(g, w, templates_dir, e)) != CT_OK) {
        goto fail;
    }
    return CT_OK;
fail:
    free(staged);
    ct_workload_free(g, w);
    return rc;
}

void ct_workload_free(ct_gpu *g, ct_workload *w)
{
    for (int i = 0; i < w->nbufs; i++) {
        if (w->dev[i])
            g->d->cuMemFree(w->dev[i]);
        free(w->host[i]);
    }
    if (w->flush)
        g->d->cuMemFree(w->flush);
    free(w->ref);
    memset(w, 0, sizeof *w);
}

static double host_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static ct_status time_kernel(ct_gpu *g, CUfunction f, const ct_launch *l, void **args,
                             const ct_settings *s, ct_result *o, ct_err *e)
{
    ct_kernel_call k = {.d = g->d, .f = f, .l = l, .args = args};
    ct_launcher run = {.run = ct_kernel_call_run, .ctx = &k, .ncalls = 1, .calls = {&k}};
    return ct_time_launcher(g->d, &run, s, NULL, o, e);
}

/* Check a single-kernel candidate's resources against the device; fill run. */
static int prepare_kernel(ct_gpu *g, ct_workload *w, const ct_template *t, const ct_params *c, CUmodule mod,
                          ct_kernel_call *k, ct_launch *l, ct_result *o)
{
    const ct_drv *d = g->d;
    const ct_problem *p = w->p;
    ct_err le;
    CUresult r = d->cuModuleGetFunction(&k->f, mod, t->name);
    if (r != CUDA_SUCCESS) {
        ct_drv_fail(&le, r, "cuModuleGetFunction");
        ct_timer_set_status(o, CT_RS_LAUNCH_FAILED, le.msg);
        return 0;
    }
    int maxthreads = 0, smem_static = 0;
    d->cuFuncGetAttribute(&o->registers, CU_FUNC_ATTRIBUTE_NUM_REGS, k->f);
    d->cuFuncGetAttribute(&smem_static, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, k->f);
    d->cuFuncGetAttribute(&o->local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, k->f);
    d->cuFuncGetAttribute(&maxthreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k->f);
    p->family->geometry(p, t, c, l);
    o->smem_bytes = smem_static + (int)l->smem_bytes;
    unsigned threads = l->block[0] * l->block[1] * l->block[2];
    if ((int)threads > maxthreads) {
        o->status = CT_RS_EXCEEDS_LIMITS;
        snprintf(o->error, sizeof o->error,
                 "block of %u threads exceeds the %d this kernel can launch with %d registers per thread",
                 threads, maxthreads, o->registers);
        return 0;
    }
    if (o->smem_bytes > g->lim.max_smem_per_block) {
        o->status = CT_RS_EXCEEDS_LIMITS;
        snprintf(o->error, sizeof o->error, "%d bytes of shared memory exceed the device's %d per block",
                 o->smem_bytes, g->lim.max_smem_per_block);
        return 0;
    }
    /* Static and dynamic together past 48 KiB need the opt-in. */
    if (o->smem_bytes > 48 * 1024)
        d->cuFuncSetAttribute(k->f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)l->smem_bytes);
    k->d = d;
    k->l = l;
    return 1;
}

CUresult ct_tmap_encode(const ct_drv *d, const ct_tmap_desc *td, CUdeviceptr base, CUtensorMap *map)
{
    static const CUtensorMapDataType types[CT_NDTYPES] = {
        CU_TENSOR_MAP_DATA_TYPE_FLOAT32, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, CU_TENSOR_MAP_DATA_TYPE_FLOAT16};
    const int sw = td->swizzle;
    const CUtensorMapSwizzle swz = sw == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
                                   : sw == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                   : sw == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                              : CU_TENSOR_MAP_SWIZZLE_NONE;
    cuuint64_t dims[5] = {0}, strides[4] = {0};
    for (int k = 0; k < 5; k++)
        dims[k] = td->dims[k];
    for (int k = 0; k < 4; k++)
        strides[k] = td->strides[k];
    cuuint32_t box[5], estrides[5];
    for (int k = 0; k < 5; k++)
        box[k] = td->box[k], estrides[k] = td->estrides[k];
    return d->cuTensorMapEncodeTiled(map, types[td->dtype], (cuuint32_t)td->rank, (void *)(uintptr_t)base, dims,
                                     strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE, swz,
                                     CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

/* The tensor maps t takes after its buffers (ct_family.tensor_maps), each
 * encoded from its buffer's device pointer into maps[] and its address
 * appended to args[] from index w->nbufs; returns 1, or 0 with o's
 * status set where one cannot be encoded. */
static int encode_tensor_maps(ct_gpu *g, ct_workload *w, const ct_template *t, const ct_params *c,
                              CUtensorMap *maps, void **args, ct_result *o)
{
    const ct_problem *p = w->p;
    if (!p->family->tensor_maps)
        return 1;
    ct_tmap_desc td[CT_MAX_TMAPS];
    const int n = p->family->tensor_maps(p, t, c, td);
    for (int i = 0; i < n; i++) {
        const CUresult r = ct_tmap_encode(g->d, &td[i], w->dev[td[i].buf], &maps[i]);
        if (r != CUDA_SUCCESS) {
            ct_err le;
            ct_drv_fail(&le, r, "cuTensorMapEncodeTiled");
            ct_timer_set_status(o, CT_RS_LAUNCH_FAILED, le.msg);
            return 0;
        }
        args[w->nbufs + i] = &maps[i];
    }
    return 1;
}

ct_status ct_run_candidate(ct_gpu *g, ct_workload *w, const ct_template *t,
                           const ct_params *c, const ct_binary *bin, const ct_settings *s,
                           ct_result *o, ct_err *e)
{
    const ct_drv *d = g->d;
    const ct_problem *p = w->p;
    ct_result_clear_measured(o);
    o->cond = (ct_conditions){.sm_mhz = {-1, -1}, .temp_c = {-1, -1}};
    CUmodule mod = NULL;
    void *xstate = NULL;
    ct_status rc = CT_OK;
    CUresult r;
    ct_err le;
    ct_kernel_call k = {0};
    ct_launch l;
    ct_launcher run;
    void *args[CT_MAX_BUFS + CT_MAX_TMAPS];
    CUtensorMap maps[CT_MAX_TMAPS];
    for (int i = 0; i < w->nbufs; i++)
        args[i] = &w->dev[i];

    r = d->cuModuleLoadData(&mod, bin->data);
    if (r != CUDA_SUCCESS) {
        ct_drv_fail(&le, r, "cuModuleLoadData");
        ct_timer_set_status(o, CT_RS_LAUNCH_FAILED, le.msg);
        mod = NULL;
        goto out;
    }
    if (t->exec) {
        ct_status xr = t->exec->setup(p, c, d, mod, w->dev, &xstate, &le);
        if (xr != CT_OK) {
            ct_timer_set_status(o, xr == CT_ERR_USAGE ? CT_RS_EXCEEDS_LIMITS : CT_RS_LAUNCH_FAILED, le.msg);
            xstate = NULL;
            goto out;
        }
        t->exec->resources(xstate, &o->registers, &o->smem_bytes, &o->local_bytes);
        run = (ct_launcher){.run = t->exec->run, .ctx = xstate};
        if (t->exec->calls)
            run.ncalls = t->exec->calls(xstate, run.calls);
    } else {
        if (!prepare_kernel(g, w, t, c, mod, &k, &l, o) || !encode_tensor_maps(g, w, t, c, maps, args, o))
            goto out;
        k.args = args;
        run = (ct_launcher){.run = ct_kernel_call_run, .ctx = &k, .ncalls = 1, .calls = {&k}};
    }
    /* Inputs a template keeps in __constant__ memory. */
    for (int i = 0; i < w->nbufs; i++) {
        if (!w->bufs[i].symbol || w->bufs[i].is_output)
            continue;
        CUdeviceptr sym;
        size_t symbytes = 0;
        if (d->cuModuleGetGlobal(&sym, &symbytes, mod, w->bufs[i].symbol) != CUDA_SUCCESS)
            continue;
        size_t nb = w->bufs[i].count * ct_dtype_size(w->dtype);
        CU_TRY(d, e, rc, out, cuMemcpyDtoD(sym, w->dev[i], nb < symbytes ? nb : symbytes));
    }
    const size_t nout = w->bufs[w->out_index].count;
    CUdeviceptr dout = w->dev[w->out_index];
    /* Verification run on a NaN-filled output: unwritten elements fail. */
    double t0 = host_ms();
    if (!ct_dtype_is_half(w->dtype))
        CU_TRY(d, e, rc, out, cuMemsetD32(dout, 0x7FC00000u, nout));
    else
        CU_TRY(d, e, rc, out, cuMemsetD16(dout, ct_dtype_nan_bits(w->dtype), nout));
    r = run.run(run.ctx);
    if (r == CUDA_SUCCESS)
        r = d->cuCtxSynchronize();
    if (r != CUDA_SUCCESS) {
        rc = ct_timer_launch_error(o, r, "launch", e);
        goto out;
    }
    float *host_out = w->host[w->out_index];
    CU_TRY(d, e, rc, out, cuMemcpyDtoH(host_out, dout, nout * ct_dtype_size(w->dtype)));
    ct_dtype_widen(w->dtype, host_out, nout);
    o->relerr = ct_relerr(host_out, w->ref, nout);
    o->cond.verify_ms = host_ms() - t0;
    const double tol = ct_dtype_tolerance(w->dtype, s->tolerance);
    if (!ct_dtype_verified(w->dtype, o->relerr, s->tolerance)) {
        o->status = CT_RS_WRONG_RESULT;
        snprintf(o->error, sizeof o->error, "relative L2 error %.3g exceeds the tolerance %.3g%s", o->relerr, tol,
                 isinf(o->relerr) ? " (NaN or Inf in the output)" : "");
        goto out;
    }
    if (w->on_verified)
        w->on_verified(w->hook_user, o->cond.verify_ms);
    t0 = host_ms();
    const ct_timing_opts to = {.flush = s->l2_flush ? w->flush : 0, .flush_words = w->flush_bytes / 4,
                               .race_us = w->race_us};
    ct_nvml_sample(g->nvml, &o->cond.sm_mhz[0], &o->cond.temp_c[0]);
    rc = ct_time_launcher(g->d, &run, s, &to, o, e);
    /* A wide spread means something else shared the GPU or its clock moved
     * during the timing: take it again (twice at most), keep the steadiest.
     * Not a slow candidate's few samples: their spread says little, and
     * taking them again would cost what its fewer samples saved. */
    for (int again = 0; rc == CT_OK && o->status == CT_RS_OK && !o->cond.raced && !o->cond.slow &&
                        s->retime_spread > 0 &&
                        o->spread > s->retime_spread && again < 2; again++) {
        ct_result o2 = *o;
        o2.cond.raced = 0;
        if ((rc = ct_time_launcher(g->d, &run, s, &to, &o2, e)) != CT_OK) {
            *o = o2;
            break;
        }
        o2.cond.retimed = o->cond.retimed + 1;
        if (o2.status != CT_RS_OK || o2.spread < o->spread)
            *o = o2;
        else
            o->cond.retimed = o2.cond.retimed;
    }
    ct_nvml_sample(g->nvml, &o->cond.sm_mhz[1], &o->cond.temp_c[1]);
    o->cond.time_ms = host_ms() - t0;
out:
    if (xstate)
        t->exec->teardown(xstate);
    if (mod)
        d->cuModuleUnload(mod);
    return rc;
}
