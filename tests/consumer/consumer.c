/* consumer.c - a plain C program using a convtune family export (the
 * selector convtune_conv1d and its header, or convtune_conv1d_bf16 /
 * convtune_conv1d_f16 of a half export: consumer_dtype.h) through the CUDA
 * runtime API, as another project would. See CMakeLists.txt.
 *
 *   consumer               run the selector on every tuned size, on sizes
 *                          that were not tuned (nearby, far, a mode with
 *                          nothing tuned, a mask longer than the input) and
 *                          on invalid arguments; check each result against
 *                          an fp64 CPU reference (relative L2 error <= 1e-5,
 *                          no NaN) and each grade against what the selector
 *                          must report. Exit 0 when all pass, 77 without a
 *                          GPU, 1 otherwise. A half export is checked
 *                          with its type's bound (consumer_dtype.h).
 *   consumer pick N K MODE print the tuned problem the selector would use
 *                          and its log-size distance ("none -1" when none);
 *                          no GPU needed.
 *   consumer list          print the tuned problems. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include CONVTUNE_HEADER
#include "consumer_dtype.h"

#define SKIP 77

static const char *const mode_names[] = {"valid", "same", "right"};

static unsigned long long rng_state = 0x9E3779B97F4A7C15ULL;

static float uniform(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (float)((double)(rng_state >> 40) / 8388608.0 - 1.0);
}

static long long outputs(long long n, long long k, int mode)
{
    return mode == CONVTUNE_CONV1D_VALID ? n - k + 1 : n;
}

/* out[i] = sum_j x[i + j - off] * mask[j], x = 0 outside [0, n) */
static void reference(const float *x, const float *mask, double *out, long long n, long long k, int mode)
{
    const long long off = mode == CONVTUNE_CONV1D_SAME ? (k - 1) / 2 : 0;
    const long long nout = outputs(n, k, mode);
    for (long long i = 0; i < nout; i++) {
        double acc = 0;
        for (long long j = 0; j < k; j++) {
            const long long at = i + j - off;
            if (at >= 0 && at < n)
                acc += (double)x[at] * (double)mask[j];
        }
        out[i] = acc;
    }
}

static int is_tuned(long long n, long long k, int mode)
{
    for (int i = 0; i < SELM(CONV1D, NTUNED); i++) {
        long long tn, tk;
        int tm;
        if (SELX(conv1d, tuned)(i, &tn, &tk, &tm) == 0 && tn == n && tk == k && tm == mode)
            return 1;
    }
    return 0;
}

static int failures;

#define CUDA_OK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
    failures++; goto done; } } while (0)

/* One call of the selector on fresh random data, checked. */
static void run_case(long long n, long long k, int mode, int same_device, cudaStream_t stream, int want_grade_ptr)
{
    const long long nout = outputs(n, k, mode);
    float *hx = malloc((size_t)n * sizeof *hx), *hm = malloc((size_t)k * sizeof *hm);
    float *hy = malloc((size_t)nout * sizeof *hy);
    double *ref = malloc((size_t)nout * sizeof *ref);
    void *dx = NULL, *dm = NULL, *dy = NULL;
    int grade = -1;
    if (!hx || !hm || !hy || !ref) {
        printf("FAIL out of host memory\n");
        failures++;
        goto done;
    }
    for (long long i = 0; i < n; i++)
        hx[i] = round_to_type(uniform());
    for (long long j = 0; j < k; j++)
        hm[j] = round_to_type(uniform());
    CUDA_OK(cudaMalloc(&dx, (size_t)n * ELEM_SIZE));
    CUDA_OK(cudaMalloc(&dm, (size_t)k * ELEM_SIZE));
    CUDA_OK(cudaMalloc(&dy, (size_t)nout * ELEM_SIZE));
    CUDA_OK(upload(dx, hx, (size_t)n));
    CUDA_OK(upload(dm, hm, (size_t)k));
    CUDA_OK(cudaMemset(dy, 0xFF, (size_t)nout * ELEM_SIZE));   /* NaN in every type: every output must be written */
    CUDA_OK(cudaDeviceSynchronize());

    int rc = SEL(conv1d)(dx, dm, dy, n, k, mode, stream, want_grade_ptr ? &grade : NULL);
    if (rc != 0) {
        printf("FAIL conv1d:%lld:%lld:%s" TYPE_SUFFIX ": the selector returned %d (%s)\n", n, k, mode_names[mode], rc,
               cudaGetErrorString((cudaError_t)rc));
        failures++;
        goto done;
    }
    CUDA_OK(cudaStreamSynchronize(stream));
    CUDA_OK(cudaGetLastError());
    CUDA_OK(download(hy, dy, (size_t)nout));

    reference(hx, hm, ref, n, k, mode);
    double num = 0, den = 0;
    int bad = 0;
    for (long long i = 0; i < nout; i++) {
        if (!isfinite(hy[i]))
            bad = 1;
        const double d = hy[i] - ref[i];
        num += d * d;
        den += ref[i] * ref[i];
    }
    const double relerr = bad ? INFINITY : sqrt(num / (den > 0 ? den : 1));

    /* the grade the selector must report */
    double dist = -1;
    const int pick = SELX(conv1d, pick)(n, k, mode, &dist);
    const int exact = is_tuned(n, k, mode);
    int want = pick < 0 ? CONVTUNE_GENERIC : !same_device ? CONVTUNE_OTHER_DEVICE
             : exact ? CONVTUNE_EXACT : CONVTUNE_NEAREST_SIZE;
    const int grade_ok = !want_grade_ptr || grade == want;
    const int ok = relerr <= TOLERANCE && grade_ok && (exact ? dist == 0 && pick >= 0 : 1);
    printf("%s conv1d:%lld:%lld:%s" TYPE_SUFFIX " grade=%s (want %s) distance=%.4f relerr=%.3g\n", ok ? "ok  " : "FAIL", n, k,
           mode_names[mode], want_grade_ptr ? convtune_grade_name(grade) : "(not asked)", convtune_grade_name(want),
           dist, relerr);
    failures += !ok;
done:
    cudaFree(dx);
    cudaFree(dm);
    cudaFree(dy);
    free(hx);
    free(hm);
    free(hy);
    free(ref);
}

static void list(void)
{
    for (int i = 0; i < SELM(CONV1D, NTUNED); i++) {
        long long n, k;
        int mode;
        if (SELX(conv1d, tuned)(i, &n, &k, &mode) == 0)
            printf("conv1d:%lld:%lld:%s" TYPE_SUFFIX "\n", n, k, mode_names[mode]);
    }
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "list")) {
        list();
        return 0;
    }
    if (argc == 5 && !strcmp(argv[1], "pick")) {
        const long long n = atoll(argv[2]), k = atoll(argv[3]);
        int mode = -1;
        for (int m = 0; m < 3; m++)
            if (!strcmp(argv[4], mode_names[m]))
                mode = m;
        double dist = -1;
        const int pick = SELX(conv1d, pick)(n, k, mode, &dist);
        long long tn = 0, tk = 0;
        int tm = 0;
        if (pick < 0 || SELX(conv1d, tuned)(pick, &tn, &tk, &tm) != 0)
            printf("none -1\n");
        else
            printf("conv1d:%lld:%lld:%s" TYPE_SUFFIX " %.17g\n", tn, tk, mode_names[tm], dist);
        return 0;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: consumer [pick N K valid|same|right | list]\n");
        return 2;
    }

    int ndev = 0;
    cudaError_t err = cudaGetDeviceCount(&ndev);
    if (err != cudaSuccess || ndev == 0) {
        printf("SKIPPED: no CUDA device (%s)\n", err != cudaSuccess ? cudaGetErrorString(err) : "none found");
        return SKIP;
    }
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        printf("FAIL cudaGetDeviceProperties\n");
        return 1;
    }
    const int same = strcmp(prop.name, SELM(CONV1D, DEVICE)) == 0;
    printf("device 0: %s (sm_%d%d); the export was tuned on %s (%s): %s\n", prop.name, prop.major, prop.minor,
           SELM(CONV1D, DEVICE), SELM(CONV1D, ARCH), same ? "the same model" : "another model");
    cudaStream_t stream;
    if (cudaStreamCreate(&stream) != cudaSuccess) {
        printf("FAIL cudaStreamCreate\n");
        return 1;
    }

    /* every tuned size, on a stream and on the default stream */
    for (int i = 0; i < SELM(CONV1D, NTUNED); i++) {
        long long n, k;
        int mode;
        SELX(conv1d, tuned)(i, &n, &k, &mode);
        run_case(n, k, mode, same, stream, 1);
        run_case(n, k, mode, same, 0, i == 0 ? 0 : 1);
    }
    /* sizes that were not tuned: next to each tuned one, far away, in
     * every mode (some with nothing tuned), a mask longer than the input */
    for (int i = 0; i < SELM(CONV1D, NTUNED); i++) {
        long long n, k;
        int mode;
        SELX(conv1d, tuned)(i, &n, &k, &mode);
        long long n2 = n + 1;
        while (is_tuned(n2, k, mode))
            n2++;
        run_case(n2, k, mode, same, stream, 1);
    }
    for (int m = 0; m < 3; m++) {
        run_case(100003, 33, m, same, stream, 1);
        run_case(17, 3, m, same, stream, 1);
    }
    run_case(5, 9, CONVTUNE_CONV1D_SAME, same, stream, 1);
    run_case(5, 9, CONVTUNE_CONV1D_RIGHT, same, stream, 1);
    run_case(1, 1, CONVTUNE_CONV1D_VALID, same, stream, 1);

    /* invalid arguments: refused, nothing launched */
    {
        float *d = NULL;
        int grade = -1;
        if (cudaMalloc((void **)&d, 64 * sizeof *d) == cudaSuccess) {
            const int r1 = SEL(conv1d)(d, d, d, 4, 9, CONVTUNE_CONV1D_VALID, stream, &grade);
            const int r2 = SEL(conv1d)(d, d, d, 0, 3, CONVTUNE_CONV1D_SAME, stream, &grade);
            const int r3 = SEL(conv1d)(d, d, d, 10, 3, 7, stream, &grade);
            const int r4 = SEL(conv1d)(NULL, d, d, 10, 3, CONVTUNE_CONV1D_VALID, stream, &grade);
            const int ok = r1 == cudaErrorInvalidValue && r2 == cudaErrorInvalidValue &&
                           r3 == cudaErrorInvalidValue && r4 == cudaErrorInvalidValue && grade == -1 &&
                           cudaStreamSynchronize(stream) == cudaSuccess;
            printf("%s invalid arguments refused with cudaErrorInvalidValue\n", ok ? "ok  " : "FAIL");
            failures += !ok;
            cudaFree(d);
        } else {
            failures++;
        }
    }
    cudaStreamDestroy(stream);
    printf("%s: %d failure%s\n", failures ? "FAILED" : "PASSED", failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
