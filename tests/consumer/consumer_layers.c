/* consumer_layers.c - a plain C program using a convtune family export of
 * conv1dc, conv2d or conv2dc (CONSUMER_FAMILY in CMakeLists.txt; consumer.c
 * is conv1d's) through the CUDA runtime API, as another project would. The
 * three families are one computation here, a layer
 *
 *   out[b][co][y][x] = bias[co] + sum in[b][ci][y + i - ph][x + j - pw] * w[co][ci][i][j]
 *
 * (conv1dc: height 1; conv2d: one channel in and out, no bias), so only the
 * calls into the export differ per family.
 *
 *   consumer             run the selector on every tuned problem, next to
 *                        each, with the mode, pad or bias nothing was tuned
 *                        for, on a few other sizes and on invalid arguments;
 *                        check each result against an fp64 CPU reference
 *                        (relative L2 error <= 1e-5, no NaN, the output
 *                        filled with NaN first) and each grade. Exit 0 when
 *                        all pass, 77 without a GPU, 1 otherwise. A half
 *                        export (-DCONSUMER_DTYPE=bf16|f16) is checked with
 *                        its type's bound (consumer_dtype.h).
 *   consumer pick SPEC   print the tuned problem the selector would use and
 *                        its log-size distance ("none -1" when none); no GPU.
 *   consumer list        print the tuned problems. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include CONVTUNE_HEADER
#include "consumer_dtype.h"

#define SKIP 77

typedef struct layer {
    long long b, cin, h, w, cout, kh, kw;
    int mode;        /* conv2d, conv2dc: 0 valid, 1 same; conv2dc: 2 pad (ph, pw) */
    int ph, pw;      /* conv2dc mode 2 */
    int pad;         /* conv1dc */
    int bias;
    /* What the tuned table holds of the fields these layers leave at their
     * defaults: conv1dc causal, stride, dilation, groups; conv2dc ph, pw,
     * sh, sw, dh, dw, groups. */
    int opt[8];   /* the keys the selector takes past mode and pad: stride, dilation, groups, layout */
} layer;


#if defined(CONSUMER_CONV1DC)
#define FAMILY "conv1dc"
#define NTUNED SELM(CONV1DC, NTUNED)
#define DEVICE SELM(CONV1DC, DEVICE)
#define ARCH SELM(CONV1DC, ARCH)
static int call(const layer *l, const void *in, const void *w, const void *bias, void *out, cudaStream_t s,
                int *grade)
{
    return SEL(conv1dc)(in, w, bias, out, l->b, l->cin, l->w, l->cout, l->kw, l->pad, 0, 1, 1, 1,
                            CONVTUNE_CONV1DC_NCL, s, grade);
}
static int pick(const layer *l, double *dist)
{
    return SELX(conv1dc, pick)(l->b, l->cin, l->w, l->cout, l->kw, l->pad, 0, 1, 1, 1, l->bias,
                                 CONVTUNE_CONV1DC_NCL, dist);
}
static int tuned(int i, layer *l)
{
    memset(l, 0, sizeof *l);
    l->h = l->kh = 1;
    return SELX(conv1dc, tuned)(i, &l->b, &l->cin, &l->w, &l->cout, &l->kw, &l->pad, &l->opt[0], &l->opt[1],
                                  &l->opt[2], &l->opt[3], &l->bias, &l->opt[4]);
}
static void canonical(const layer *l, char *buf, size_t len)
{
    snprintf(buf, len, "conv1dc:%lld:%lld:%lld:%lld:%lld:pad=%d%s" TYPE_SUFFIX, l->b, l->cin, l->w, l->cout, l->kw,
             l->pad, l->bias ? ":bias" : "");
}
static int parse(const char *spec, layer *l)
{
    char rest[64] = "";
    memset(l, 0, sizeof *l);
    l->h = l->kh = 1;
    int n = sscanf(spec, "conv1dc:%lld:%lld:%lld:%lld:%lld:pad=%d%63s", &l->b, &l->cin, &l->w, &l->cout, &l->kw,
                   &l->pad, rest);
    l->bias = !strcmp(rest, ":bias");
    return n >= 6;
}
/* Variants with nothing tuned: another pad, the bias toggled. */
static void variants(const layer *t, layer *v, int *n)
{
    v[*n] = *t;
    v[(*n)++].pad = t->pad + 1 < t->kw ? t->pad + 1 : 0;
    v[*n] = *t;
    v[(*n)++].bias = !t->bias;
}
#elif defined(CONSUMER_CONV2D)
#define FAMILY "conv2d"
static const char *const mode_names[] = {"valid", "same"};
#define NTUNED SELM(CONV2D, NTUNED)
#define DEVICE SELM(CONV2D, DEVICE)
#define ARCH SELM(CONV2D, ARCH)
static int call(const layer *l, const void *in, const void *w, const void *bias, void *out, cudaStream_t s,
                int *grade)
{
    (void)bias;
    return SEL(conv2d)(in, w, out, l->b, l->h, l->w, l->kh, l->kw, l->mode, s, grade);
}
static int pick(const layer *l, double *dist)
{
    return SELX(conv2d, pick)(l->b, l->h, l->w, l->kh, l->kw, l->mode, dist);
}
static int tuned(int i, layer *l)
{
    memset(l, 0, sizeof *l);
    l->cin = l->cout = 1;
    return SELX(conv2d, tuned)(i, &l->b, &l->h, &l->w, &l->kh, &l->kw, &l->mode);
}
static void canonical(const layer *l, char *buf, size_t len)
{
    snprintf(buf, len, "conv2d:%lld:%lld:%lld:%lld:%lld:%s" TYPE_SUFFIX, l->b, l->h, l->w, l->kh, l->kw,
             mode_names[l->mode]);
}
static int parse(const char *spec, layer *l)
{
    char mode[16] = "valid";
    memset(l, 0, sizeof *l);
    l->cin = l->cout = 1;
    int n = sscanf(spec, "conv2d:%lld:%lld:%lld:%lld:%lld:%15s", &l->b, &l->h, &l->w, &l->kh, &l->kw, mode);
    l->mode = !strcmp(mode, "same");
    return n >= 5;
}
static void variants(const layer *t, layer *v, int *n)
{
    v[*n] = *t;
    v[(*n)++].mode = !t->mode;
}
#elif defined(CONSUMER_CONV2DC)
#define FAMILY "conv2dc"
static const char *const mode_names[] = {"valid", "same"};
#define NTUNED SELM(CONV2DC, NTUNED)
#define DEVICE SELM(CONV2DC, DEVICE)
#define ARCH SELM(CONV2DC, ARCH)
static int call(const layer *l, const void *in, const void *w, const void *bias, void *out, cudaStream_t s,
                int *grade)
{
    return SEL(conv2dc)(in, w, bias, out, l->b, l->cin, l->h, l->w, l->cout, l->kh, l->kw, l->mode, l->ph, l->pw,
                            1, 1, 1, 1, 1, CONVTUNE_CONV2DC_NCHW, s, grade);
}
static int pick(const layer *l, double *dist)
{
    return SELX(conv2dc, pick)(l->b, l->cin, l->h, l->w, l->cout, l->kh, l->kw, l->mode, l->ph, l->pw, 1, 1, 1, 1,
                                 1, l->bias, CONVTUNE_CONV2DC_NCHW, dist);
}
static int tuned(int i, layer *l)
{
    memset(l, 0, sizeof *l);
    return SELX(conv2dc, tuned)(i, &l->b, &l->cin, &l->h, &l->w, &l->cout, &l->kh, &l->kw, &l->mode, &l->opt[0],
                                  &l->opt[1], &l->opt[2], &l->opt[3], &l->opt[4], &l->opt[5], &l->opt[6], &l->bias,
                                  &l->opt[7]);
}
static void canonical(const layer *l, char *buf, size_t len)
{
    /* pad=PH,PW is written as the mode it equals, as convtune writes it */
    char mode[40];
    int m = l->mode;
    if (m == 2 && l->ph == 0 && l->pw == 0)
        m = 0;
    else if (m == 2 && l->kh % 2 && l->kw % 2 && l->ph == (l->kh - 1) / 2 && l->pw == (l->kw - 1) / 2)
        m = 1;
    if (m == 2 && l->ph == l->pw)
        snprintf(mode, sizeof mode, "pad=%d", l->ph);
    else if (m == 2)
        snprintf(mode, sizeof mode, "pad=%d,%d", l->ph, l->pw);
    else
        snprintf(mode, sizeof mode, "%s", mode_names[m]);
    snprintf(buf, len, "conv2dc:%lld:%lld:%lld:%lld:%lld:%lld:%lld:%s%s" TYPE_SUFFIX, l->b, l->cin, l->h, l->w,
             l->cout, l->kh, l->kw, mode, l->bias ? ":bias" : "");
}
static int parse(const char *spec, layer *l)
{
    char rest[32] = "valid";
    memset(l, 0, sizeof *l);
    int n = sscanf(spec, "conv2dc:%lld:%lld:%lld:%lld:%lld:%lld:%lld:%31s", &l->b, &l->cin, &l->h, &l->w, &l->cout,
                   &l->kh, &l->kw, rest);
    l->mode = !strncmp(rest, "same", 4);
    /* pad=PH[,PW]: another spelling the selector must know as the same layer */
    if (!strncmp(rest, "pad=", 4)) {
        l->mode = 2;
        if (sscanf(rest + 4, "%d,%d", &l->ph, &l->pw) == 1)
            l->pw = l->ph;
    }
    l->bias = strstr(rest, "bias") != NULL;
    return n >= 7;
}
static void variants(const layer *t, layer *v, int *n)
{
    v[*n] = *t;
    v[(*n)++].mode = !t->mode;
    v[*n] = *t;
    v[(*n)++].bias = !t->bias;
    /* a tuned `same` layer spelled as its padding: the same layer (exact) */
    if (t->mode == 1 && t->kh % 2 && t->kw % 2) {
        v[*n] = *t;
        v[*n].mode = 2;
        v[*n].ph = (int)(t->kh - 1) / 2;
        v[(*n)++].pw = (int)(t->kw - 1) / 2;
    }
}
#else
#error "define CONSUMER_CONV1DC, CONSUMER_CONV2D or CONSUMER_CONV2DC"
#endif

/* Padding and output size of a layer (conv1dc's pad is its width's). */
static long long pad_h(const layer *l)
{
    return l->mode == 2 ? l->ph : l->mode ? (l->kh - 1) / 2 : 0;
}
static long long pad_w(const layer *l)
{
    return l->pad ? l->pad : l->mode == 2 ? l->pw : l->mode ? (l->kw - 1) / 2 : 0;
}
static long long out_h(const layer *l)
{
    return l->mode == 1 ? l->h : l->h + 2 * pad_h(l) - l->kh + 1;
}
static long long out_w(const layer *l)
{
    return l->mode == 1 ? l->w : l->w + 2 * pad_w(l) - l->kw + 1;
}

static unsigned long long rng_state = 0x9E3779B97F4A7C15ULL;

static float uniform(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (float)((double)(rng_state >> 40) / 8388608.0 - 1.0);
}

static void reference(const layer *l, const float *x, const float *wt, const float *bias, double *out)
{
    const long long oh = out_h(l), ow = out_w(l), ph = pad_h(l), pw = pad_w(l);
    for (long long b = 0; b < l->b; b++)
        for (long long co = 0; co < l->cout; co++)
            for (long long y = 0; y < oh; y++)
                for (long long xo = 0; xo < ow; xo++) {
                    double acc = l->bias ? (double)bias[co] : 0.0;
                    for (long long ci = 0; ci < l->cin; ci++)
                        for (long long i = 0; i < l->kh; i++)
                            for (long long j = 0; j < l->kw; j++) {
                                const long long iy = y + i - ph, ix = xo + j - pw;
                                if (iy >= 0 && iy < l->h && ix >= 0 && ix < l->w)
                                    acc += (double)x[((b * l->cin + ci) * l->h + iy) * l->w + ix] *
                                           (double)wt[((co * l->cin + ci) * l->kh + i) * l->kw + j];
                            }
                    out[((b * l->cout + co) * oh + y) * ow + xo] = acc;
                }
}

static int is_tuned(const layer *l)
{
    char want[200], have[200];
    canonical(l, want, sizeof want);
    for (int i = 0; i < NTUNED; i++) {
        layer t;
        if (tuned(i, &t) == 0) {
            canonical(&t, have, sizeof have);
            if (!strcmp(want, have))
                return 1;
        }
    }
    return 0;
}

static int failures;

#define CUDA_OK(call_) do { cudaError_t e_ = (call_); if (e_ != cudaSuccess) { \
    printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call_, cudaGetErrorString(e_)); \
    failures++; goto done; } } while (0)

/* One call of the selector on fresh random data, checked. */
static void run_case(const layer *l, int same_device, cudaStream_t stream)
{
    char name[200];
    canonical(l, name, sizeof name);
    const size_t nin = (size_t)(l->b * l->cin * l->h * l->w), nw = (size_t)(l->cout * l->cin * l->kh * l->kw);
    const size_t nout = (size_t)(l->b * l->cout * out_h(l) * out_w(l)), nb = (size_t)l->cout;
    float *hx = malloc(nin * sizeof *hx), *hw = malloc(nw * sizeof *hw), *hb = malloc(nb * sizeof *hb);
    float *hy = malloc(nout * sizeof *hy);
    double *ref = malloc(nout * sizeof *ref);
    void *dx = NULL, *dw = NULL, *db = NULL, *dy = NULL;
    int grade = -1;
    if (!hx || !hw || !hb || !hy || !ref) {
        printf("FAIL out of host memory\n");
        failures++;
        goto done;
    }
    for (size_t i = 0; i < nin; i++)
        hx[i] = round_to_type(uniform());
    for (size_t i = 0; i < nw; i++)
        hw[i] = round_to_type(uniform());
    for (size_t i = 0; i < nb; i++)
        hb[i] = round_to_type(uniform());
    CUDA_OK(cudaMalloc(&dx, nin * ELEM_SIZE));
    CUDA_OK(cudaMalloc(&dw, nw * ELEM_SIZE));
    CUDA_OK(cudaMalloc(&db, nb * ELEM_SIZE));
    CUDA_OK(cudaMalloc(&dy, nout * ELEM_SIZE));
    CUDA_OK(upload(dx, hx, nin));
    CUDA_OK(upload(dw, hw, nw));
    CUDA_OK(upload(db, hb, nb));
    CUDA_OK(cudaMemset(dy, 0xFF, nout * ELEM_SIZE));   /* NaN in every type: every output must be written */
    CUDA_OK(cudaDeviceSynchronize());

    int rc = call(l, dx, dw, l->bias ? db : NULL, dy, stream, &grade);
    if (rc != 0) {
        printf("FAIL %s: the selector returned %d (%s)\n", name, rc, cudaGetErrorString((cudaError_t)rc));
        failures++;
        goto done;
    }
    CUDA_OK(cudaStreamSynchronize(stream));
    CUDA_OK(cudaGetLastError());
    CUDA_OK(download(hy, dy, nout));
    reference(l, hx, hw, hb, ref);
    double num = 0, den = 0;
    int bad = 0;
    for (size_t i = 0; i < nout; i++) {
        if (!isfinite(hy[i]))
            bad = 1;
        const double d = hy[i] - ref[i];
        num += d * d;
        den += ref[i] * ref[i];
    }
    const double relerr = bad ? INFINITY : sqrt(num / (den > 0 ? den : 1));
    double dist = -1;
    const int p = pick(l, &dist);
    const int exact = is_tuned(l);
    const int want = p < 0 ? CONVTUNE_GENERIC : !same_device ? CONVTUNE_OTHER_DEVICE
                   : exact ? CONVTUNE_EXACT : CONVTUNE_NEAREST_SIZE;
    const int ok = relerr <= TOLERANCE && grade == want && (exact ? dist == 0 && p >= 0 : 1);
    printf("%s %s grade=%s (want %s) distance=%.4f relerr=%.3g\n", ok ? "ok  " : "FAIL", name,
           convtune_grade_name(grade), convtune_grade_name(want), dist, relerr);
    failures += !ok;
done:
    cudaFree(dx);
    cudaFree(dw);
    cudaFree(db);
    cudaFree(dy);
    free(hx);
    free(hw);
    free(hb);
    free(hy);
    free(ref);
}

int main(int argc, char **argv)
{
    char name[200];
    if (argc == 2 && !strcmp(argv[1], "list")) {
        for (int i = 0; i < NTUNED; i++) {
            layer t;
            if (tuned(i, &t) == 0) {
                canonical(&t, name, sizeof name);
                printf("%s\n", name);
            }
        }
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "pick")) {
        layer l, t;
        /* the type's token, last, is this export's (parse reads the rest) */
        char spec[200];
        snprintf(spec, sizeof spec, "%s", argv[2]);
        const size_t sl = strlen(spec), tl = strlen(TYPE_SUFFIX);
        if (tl && sl > tl && !strcmp(spec + sl - tl, TYPE_SUFFIX))
            spec[sl - tl] = '\0';
        if (!parse(spec, &l)) {
            fprintf(stderr, "consumer: not a " FAMILY " problem: %s\n", argv[2]);
            return 2;
        }
        double dist = -1;
        const int p = pick(&l, &dist);
        if (p < 0 || tuned(p, &t) != 0) {
            printf("none -1\n");
        } else {
            canonical(&t, name, sizeof name);
            printf("%s %.17g\n", name, dist);
        }
        return 0;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: consumer [pick SPEC | list]\n");
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
    const int same = strcmp(prop.name, DEVICE) == 0;
    printf("device 0: %s (sm_%d%d); the " FAMILY " export was tuned on %s (%s): %s\n", prop.name, prop.major,
           prop.minor, DEVICE, ARCH, same ? "the same model" : "another model");
    cudaStream_t stream;
    if (cudaStreamCreate(&stream) != cudaSuccess) {
        printf("FAIL cudaStreamCreate\n");
        return 1;
    }
    /* every tuned problem (on a stream and the default stream), one a
     * little wider next to it (nearest_size), and the variants nothing was
     * tuned for */
    for (int i = 0; i < NTUNED; i++) {
        layer t, v[4];
        int nv = 0;
        tuned(i, &t);
        run_case(&t, same, stream);
        run_case(&t, same, 0);
        v[nv] = t;
        v[nv++].w = t.w + 3;
        variants(&t, v, &nv);
        for (int k = 0; k < nv; k++)
            run_case(&v[k], same, stream);
    }
    /* other sizes: odd ones, long reductions, a filter as wide as the input */
    static const layer more[] = {
        {.b = 3, .cin = 5, .h = 7, .w = 33, .cout = 9, .kh = 3, .kw = 5, .mode = 1, .bias = 1},
        {.b = 1, .cin = 67, .h = 5, .w = 70, .cout = 37, .kh = 5, .kw = 7, .mode = 0},
        {.b = 2, .cin = 3, .h = 9, .w = 9, .cout = 130, .kh = 9, .kw = 9, .mode = 0, .bias = 1},
        {.b = 1, .cin = 1, .h = 1, .w = 1, .cout = 1, .kh = 1, .kw = 1, .mode = 1},
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        layer l = more[i];
#if defined(CONSUMER_CONV1DC)
        l.h = l.kh = 1;
        l.pad = (int)(i % 2 ? 0 : (l.kw - 1) / 2);
        l.mode = 0;
#elif defined(CONSUMER_CONV2D)
        l.cin = l.cout = 1;
        l.bias = 0;
#endif
        run_case(&l, same, stream);
    }
    /* invalid arguments: refused, nothing launched, grade untouched */
    {
        float *d = NULL;
        int grade = -1;
        if (cudaMalloc((void **)&d, 64 * sizeof *d) == cudaSuccess) {
            layer bad = {.b = 1, .cin = 1, .h = 2, .w = 4, .cout = 1, .kh = 3, .kw = 9};
            layer zero = {.b = 0, .cin = 1, .h = 4, .w = 4, .cout = 1, .kh = 1, .kw = 1};
            layer ok = {.b = 1, .cin = 1, .h = 1, .w = 8, .cout = 1, .kh = 1, .kw = 3};
            const int r1 = call(&bad, d, d, NULL, d, stream, &grade);
            const int r2 = call(&zero, d, d, NULL, d, stream, &grade);
            const int r3 = call(&ok, NULL, d, NULL, d, stream, &grade);
            const int r4 = call(&ok, d, d, NULL, NULL, stream, &grade);
            const int fine = r1 == cudaErrorInvalidValue && r2 == cudaErrorInvalidValue &&
                             r3 == cudaErrorInvalidValue && r4 == cudaErrorInvalidValue && grade == -1 &&
                             cudaStreamSynchronize(stream) == cudaSuccess;
            printf("%s invalid arguments refused with cudaErrorInvalidValue\n", fine ? "ok  " : "FAIL");
            failures += !fine;
            cudaFree(d);
        } else {
            failures++;
        }
    }
    cudaStreamDestroy(stream);
    printf("%s: %d failure%s\n", failures ? "FAILED" : "PASSED", failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
