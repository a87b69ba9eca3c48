/* gpu_timer.c - the runner's timing (tuner/gpu/timer.c) on a GPU, counted
 * execution by execution: a kernel bumps a device counter each time it
 * runs, so the test knows how many executions each timing ran and checks
 * them against its plan (timing.h). A short kernel is sampled as a CUDA
 * graph of many launches (every launch of it runs), as calls back to back
 * when no single kernel is named, and with events per launch under an L2
 * flush; a certain loser stops after CT_RACE_BATCHED_SAMPLES batches; a kernel that spins for 100 ms gets CT_SLOW_MIN_REPS samples and
 * no further warm-up. Each timing's interval holds its median. */
#include "gpu_common.h"
#include "timer.h"
#include "timing.h"

static const char src[] =
    "extern \"C\" {\n"
    "__device__ unsigned long long ct_count;\n"
    "__global__ void ct_tiny(float *out)\n"
    "{\n"
    "    if (threadIdx.x == 0 && blockIdx.x == 0) {\n"
    "        atomicAdd(&ct_count, 1ull);\n"
    "        out[0] = 1.0f;\n"
    "    }\n"
    "}\n"
    "__global__ void ct_spin(unsigned long long ns)\n"
    "{\n"
    "    unsigned long long t0, t;\n"
    "    asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t0));\n"
    "    do {\n"
    "        asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t));\n"
    "    } while (t - t0 < ns);\n"
    "    if (threadIdx.x == 0)\n"
    "        atomicAdd(&ct_count, 1ull);\n"
    "}\n"
    "}\n";

static const ct_drv *d;
static CUdeviceptr counter;

static unsigned long long count_reset(void)
{
    unsigned long long n = 0;
    CHECK(d->cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(d->cuMemcpyDtoH(&n, counter, sizeof n) == CUDA_SUCCESS);
    CHECK(d->cuMemsetD32(counter, 0, 2) == CUDA_SUCCESS);
    return n;
}

/* What every timing must hold. */
static void sane(const ct_result *o, const ct_settings *s, const char *what)
{
    CHECK_MSG(o->status == CT_RS_OK, "%s: %s", what, o->error);
    CHECK_MSG(o->min_us > 0 && o->min_us <= o->median_us && o->median_us <= o->max_us, "%s: %g %g %g", what,
              o->min_us, o->median_us, o->max_us);
    CHECK_MSG(o->ci_lo_us <= o->median_us && o->median_us <= o->ci_hi_us, "%s: median %g outside [%g, %g]", what,
              o->median_us, o->ci_lo_us, o->ci_hi_us);
    CHECK_MSG(o->ci_lo_us >= o->min_us && o->ci_hi_us <= o->max_us, "%s: interval past the samples", what);
    CHECK_MSG(o->reps <= s->max_reps && o->batch >= 1, "%s: reps %d batch %d", what, o->reps, o->batch);
    printf("%s: %s x%d, %d reps, median %.3f us [%.3f, %.3f]\n", what, o->timing, o->batch, o->reps, o->median_us,
           o->ci_lo_us, o->ci_hi_us);
}

int main(void)
{
    ct_gpu g;
    gpu_or_skip(&g);
    d = g.d;
    ct_err e = {""};
    ct_binary bin = {0};
    CUmodule mod = NULL;
    CUfunction tiny, spin;
    CUdeviceptr out = 0, flush = 0;
    size_t cbytes = 0;
    int ok = ct_nvrtc_compile(src, "gpu_timer.cu", g.arch, NULL, 0, NULL, &bin, &e) == CT_OK;
    CHECK_MSG(ok, "%s", e.msg);
    ok = ok && d->cuModuleLoadData(&mod, bin.data) == CUDA_SUCCESS &&
         d->cuModuleGetFunction(&tiny, mod, "ct_tiny") == CUDA_SUCCESS &&
         d->cuModuleGetFunction(&spin, mod, "ct_spin") == CUDA_SUCCESS &&
         d->cuModuleGetGlobal(&counter, &cbytes, mod, "ct_count") == CUDA_SUCCESS && cbytes == 8 &&
         d->cuMemAlloc(&out, 4) == CUDA_SUCCESS;
    CHECK(ok);
    if (!ok)
        CHECK_DONE();
    count_reset();
    const ct_settings s = {.warmup = 3, .min_reps = 20, .max_reps = 2000, .min_time_ms = 20};
    void *targs[] = {&out};
    const ct_launch tl = {.grid = {1, 1, 1}, .block = {32, 1, 1}};
    ct_kernel_call tk = {.d = d, .f = tiny, .l = &tl, .args = targs};
    ct_result o;

    /* A graph of launches: every one of them runs. */
    ct_launcher run = {.run = ct_kernel_call_run, .ctx = &tk, .ncalls = 1, .calls = {&tk}};
    ct_result_init(&o);
    CHECK(ct_time_launcher(d, &run, &s, NULL, &o, &e) == CT_OK);
    sane(&o, &s, "tiny, graph");
    CHECK_STR(o.timing, CT_TIMING_GRAPH);
    CHECK(o.batch >= 2 && o.batch <= CT_BATCH_MAX && o.reps >= s.min_reps && !o.cond.slow);
    unsigned long long n = count_reset();
    CHECK_MSG(n == 1 + (unsigned long long)(1 + o.reps) * o.batch, "%llu executions for %d samples of %d", n, o.reps,
              o.batch);

    /* Racing against an unbeatable best: it stops after race_after
     * samples (CT_RACE_BATCHED_SAMPLES of batches), before min_reps. */
    ct_timing_opts race = {.race_us = 1e-6};
    ct_result_init(&o);
    CHECK(ct_time_launcher(d, &run, &s, &race, &o, &e) == CT_OK);
    sane(&o, &s, "tiny, raced");
    CHECK(o.cond.raced && o.reps == CT_RACE_BATCHED_SAMPLES && o.batch >= 2);
    n = count_reset();
    CHECK_MSG(n == 1 + (unsigned long long)(1 + o.reps) * o.batch, "%llu executions for %d samples of %d", n, o.reps,
              o.batch);

    /* No single kernel named: calls back to back. */
    run.ncalls = 0;
    ct_result_init(&o);
    CHECK(ct_time_launcher(d, &run, &s, NULL, &o, &e) == CT_OK);
    sane(&o, &s, "tiny, calls");
    CHECK_STR(o.timing, CT_TIMING_CALLS);
    n = count_reset();
    CHECK_MSG(n == 1 + (unsigned long long)(1 + o.reps) * o.batch, "%llu executions for %d samples of %d", n, o.reps,
              o.batch);

    /* An L2 flush before each execution: events per launch. */
    size_t fbytes = (size_t)(g.l2_bytes > 0 ? g.l2_bytes : 1 << 20) * 2;
    CHECK(d->cuMemAlloc(&flush, fbytes) == CUDA_SUCCESS);
    ct_timing_opts to = {.flush = flush, .flush_words = fbytes / 4};
    run.ncalls = 1;
    ct_result_init(&o);
    CHECK(ct_time_launcher(d, &run, &s, &to, &o, &e) == CT_OK);
    sane(&o, &s, "tiny, flushed");
    CHECK_STR(o.timing, CT_TIMING_EVENTS);
    CHECK(o.batch == 1 && o.cond.l2_flushed && o.reps >= s.min_reps);
    n = count_reset();
    CHECK_MSG(n == 1 + (unsigned long long)(s.warmup - 1) + o.reps, "%llu executions for %d samples", n, o.reps);

    /* 100 ms a call: CT_SLOW_MIN_REPS samples, no warm-up, the first
     * execution (which sized the plan) the first of them. */
    unsigned long long ns = 100000000ull;
    void *sargs[] = {&ns};
    const ct_launch sl = {.grid = {1, 1, 1}, .block = {32, 1, 1}};
    ct_kernel_call sk = {.d = d, .f = spin, .l = &sl, .args = sargs};
    ct_launcher srun = {.run = ct_kernel_call_run, .ctx = &sk, .ncalls = 1, .calls = {&sk}};
    ct_result_init(&o);
    CHECK(ct_time_launcher(d, &srun, &s, NULL, &o, &e) == CT_OK);
    sane(&o, &s, "spin 100 ms");
    CHECK_STR(o.timing, CT_TIMING_EVENTS);
    CHECK(o.cond.slow && o.reps == CT_SLOW_MIN_REPS && o.batch == 1 && o.median_us >= 0.9e5);
    n = count_reset();
    CHECK_MSG(n == (unsigned long long)CT_SLOW_MIN_REPS, "%llu executions of the slow kernel", n);

    if (flush)
        d->cuMemFree(flush);
    d->cuMemFree(out);
    d->cuModuleUnload(mod);
    ct_binary_free(&bin);
    ct_gpu_close(&g);
    CHECK_DONE();
}
