/* test_cudnn_map.c - the cuDNN baseline's CPU parts, without cuDNN or a
 * GPU: the descriptors a problem maps to, checked by computing the problem
 * the way cuDNN reads those descriptors (strided activations, KCRS
 * weights, symmetric padding, dilation, groups; forward with its bias,
 * dgrad, wgrad with db) and comparing with the family's own fp64
 * reference on random layers of every family, layout, padding form and
 * pass; the refusals of unevenly padded problems; and the outcome when the
 * library cannot be loaded ($CONVTUNE_CUDNN naming a missing file, or a
 * library that is not cuDNN). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "proc.h"
#include "cudnn_base.h"
#include "cudnn_map.h"
#include "cudnndl.h"
#include "json.h"
#include "problem.h"
#include "tune_cudnn.h"

static unsigned long long rng = 0x9E3779B97F4A7C15ull;

static unsigned long long next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int pick(int lo, int hi)
{
    return lo + (int)(next() % (unsigned long long)(hi - lo + 1));
}

/* Element (n, c, y, x) of a tensor with element strides st. */
static long long at(const int *st, int n, int c, int y, int x)
{
    return (long long)n * st[0] + (long long)c * st[1] + (long long)y * st[2] + (long long)x * st[3];
}

/* The problem as cuDNN computes it from m: out gets the output buffer's
 * elements. */
static void model(const ct_cudnn_conv *m, const float *const *bufs, double *out, size_t nout)
{
    const int cg = m->c / m->groups, kg = m->k / m->groups;
    const float *x = bufs[m->buf_x], *w = bufs[m->buf_w], *y = bufs[m->buf_y];
    for (size_t i = 0; i < nout; i++)
        out[i] = 0.0;
    for (int n = 0; n < m->n; n++)
        for (int k = 0; k < m->k; k++)
            for (int oy = 0; oy < m->oh; oy++)
                for (int ox = 0; ox < m->ow; ox++) {
                    const long long yi = at(m->y_stride, n, k, oy, ox);
                    if (m->pass == 0 && m->bias)
                        out[yi] += bufs[m->buf_bias][k];
                    if (m->pass == 2 && m->bias)
                        out[(long long)m->k * cg * m->r * m->s + k] += y[yi];
                    for (int c = 0; c < cg; c++)
                        for (int r = 0; r < m->r; r++)
                            for (int s = 0; s < m->s; s++) {
                                const int iy = oy * m->stride_h + r * m->dil_h - m->pad_h;
                                const int ix = ox * m->stride_w + s * m->dil_w - m->pad_w;
                                if (iy < 0 || iy >= m->h || ix < 0 || ix >= m->w)
                                    continue;
                                const long long xi = at(m->x_stride, n, k / kg * cg + c, iy, ix);
                                const long long wi = (((long long)k * cg + c) * m->r + r) * m->s + s;
                                if (m->pass == 0)
                                    out[yi] += (double)x[xi] * w[wi];
                                else if (m->pass == 1)
                                    out[xi] += (double)y[yi] * w[wi];
                                else
                                    out[wi] += (double)y[yi] * x[xi];
                            }
                }
}

/* Map spec, run the model and the family's reference on random inputs;
 * 1 when compared, 0 when the parser refused the random spec. */
static int compare(const char *spec)
{
    ct_problem p;
    ct_err e;
    if (ct_problem_parse(spec, &p, &e) != CT_OK)
        return 0;
    ct_cudnn_conv m;
    char why[256] = "";
    int ok = ct_cudnn_map(&p, &m, why, sizeof why);
    CHECK_MSG(ok, "%s refused: %s", spec, why);
    if (!ok)
        return 1;
    CHECK(m.dtype == ct_problem_dtype(&p));
    ct_buffer b[CT_MAX_BUFS];
    const int nb = p.family->buffers(&p, b);
    float *bufs[CT_MAX_BUFS] = {0};
    const float *in[CT_MAX_BUFS];
    int nin = 0, outi = -1;
    for (int i = 0; i < nb; i++) {
        bufs[i] = malloc(b[i].count * sizeof(float));
        for (size_t k = 0; k < b[i].count; k++)
            bufs[i][k] = (float)((double)(next() >> 11) / 9007199254740992.0 * 2.0 - 1.0);
        if (b[i].is_output)
            outi = i;
        else
            in[nin++] = bufs[i];
    }
    CHECK(outi == nb - 1);
    /* Each role's buffer has the element count its descriptor implies. */
    const size_t nx = (size_t)m.n * m.c * m.h * m.w, ny = (size_t)m.n * m.k * m.oh * m.ow;
    const size_t nw = (size_t)m.k * (m.c / m.groups) * m.r * m.s;
    CHECK_MSG(b[m.buf_x].count == nx, "%s: x %zu vs %zu", spec, b[m.buf_x].count, nx);
    CHECK_MSG(b[m.buf_y].count == ny, "%s: y %zu vs %zu", spec, b[m.buf_y].count, ny);
    CHECK_MSG(b[m.buf_w].count == nw + (m.pass == 2 && m.bias ? (size_t)m.k : 0), "%s: w %zu vs %zu", spec,
              b[m.buf_w].count, nw);
    const size_t nout = b[outi].count;
    double *ref = malloc(nout * sizeof *ref), *got = malloc(nout * sizeof *got);
    for (size_t k = 0; k < nout; k++)
        ref[k] = got[k] = NAN;
    p.family->reference(&p, in, ref);
    model(&m, (const float *const *)bufs, got, nout);
    double num = 0, den = 0;
    for (size_t k = 0; k < nout; k++) {
        num += (got[k] - ref[k]) * (got[k] - ref[k]);
        den += ref[k] * ref[k];
    }
    CHECK_MSG(den > 0 && sqrt(num / den) < 1e-12, "%s: relerr %g of the cuDNN description", spec, sqrt(num / den));
    for (int i = 0; i < nb; i++)
        free(bufs[i]);
    free(ref);
    free(got);
    return 1;
}

static void refused(const char *spec, const char *word)
{
    ct_problem p;
    ct_err e;
    CHECK_MSG(ct_problem_parse(spec, &p, &e) == CT_OK, "%s: %s", spec, e.msg);
    ct_cudnn_conv m;
    char why[256] = "";
    CHECK_MSG(!ct_cudnn_map(&p, &m, why, sizeof why), "%s mapped", spec);
    CHECK_MSG(strstr(why, word) != NULL, "%s: '%s' lacks '%s'", spec, why, word);
}

static const char *const dtypes[] = {"", ":bf16", ":f16"};

/* A library that is not cuDNN: the first entry point missing is named
 * (run in a child: the library is loaded once per process). */
static void not_cudnn(const char *self)
{
    char *argv[] = {(char *)self, (char *)"--load", NULL};
    const char *env[] = {"CONVTUNE_CUDNN=libm.so.6", NULL};
    tl_run_opts o = {.env = env, .timeout_s = 60};
    tl_result r;
    tl_run(argv, &o, &r);
    CHECK_MSG(r.code == 0 && strstr(r.out, "libm.so.6 lacks cudnnGetVersion (cuDNN 9 is needed)"), "exit %d: %s%s",
              r.code, r.out, r.err);
    tl_result_free(&r);
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--load")) {
        const ct_cudnn *L;
        ct_err e;
        printf("%s\n", ct_cudnn_load(&L, &e) == CT_OK ? L->path : e.msg);
        return 0;
    }
    not_cudnn(argv[0]);
    int done = 0, passes[3] = {0}, layouts[2] = {0};
    char spec[256];
    for (int i = 0; i < 400; i++) {
        const int g = pick(1, 3), pass = pick(0, 2), cl = pick(0, 1), bias = pick(0, 1);
        const int st = pick(1, 2), dil = pick(1, 2), mode = pick(0, 2);
        const char *passw = pass == 1 ? ":dgrad" : pass == 2 ? ":wgrad" : "";
        const char *dt = dtypes[pick(0, 2)];
        int n;
        if (i % 2) {
            const int kh = pick(1, 4), kw = pick(1, 4);
            char md[32];
            if (mode == 1 && ((dil * (kh - 1)) % 2 || (dil * (kw - 1)) % 2))
                snprintf(md, sizeof md, "valid");   /* uneven: refused, below */
            else
                snprintf(md, sizeof md, "%s", mode == 0 ? "valid" : mode == 1 ? "same" : "pad=1,2");
            n = snprintf(spec, sizeof spec, "conv2dc:%d:%d:%d:%d:%d:%d:%d:%s", pick(1, 3), g * pick(1, 3), pick(3, 9),
                         pick(3, 9), g * pick(1, 3), kh, kw, md);
            if (mode != 1)   /* 'same' is stride 1 */
                n += snprintf(spec + n, sizeof spec - (size_t)n, ":stride=%d,%d", st, pick(1, 2));
            n += snprintf(spec + n, sizeof spec - (size_t)n, ":dilation=%d,%d", dil, dil);
            if (g > 1)
                n += snprintf(spec + n, sizeof spec - (size_t)n, ":groups=%d", g);
            snprintf(spec + n, sizeof spec - (size_t)n, "%s%s%s%s", bias ? ":bias" : "", cl ? ":nhwc" : "", passw,
                     dt);
        } else {
            const int k = pick(1, 5);
            n = snprintf(spec, sizeof spec, "conv1dc:%d:%d:%d:%d:%d:pad=%d:stride=%d:dilation=%d", pick(1, 3),
                         g * pick(1, 3), pick(4, 12), g * pick(1, 3), k, pick(0, k - 1), st, dil);
            if (g > 1)
                n += snprintf(spec + n, sizeof spec - (size_t)n, ":groups=%d", g);
            snprintf(spec + n, sizeof spec - (size_t)n, "%s%s%s%s", bias ? ":bias" : "", cl ? ":nlc" : "", passw,
                     dt);
        }
        if (compare(spec)) {
            done++;
            ct_problem p;
            ct_err e;
            if (ct_problem_parse(spec, &p, &e) == CT_OK) {
                passes[ct_problem_value(&p, "pass")]++;
                layouts[ct_problem_value(&p, "layout")]++;
            }
        }
    }
    printf("%d random layers compared (fwd %d, dgrad %d, wgrad %d; default layout %d, channels last %d)\n", done,
           passes[0], passes[1], passes[2], layouts[0], layouts[1]);
    CHECK(done >= 200);
    CHECK(passes[0] > 20 && passes[1] > 20 && passes[2] > 20 && layouts[0] > 20 && layouts[1] > 20);
    /* The single-channel families, symmetric forms. */
    for (int i = 0; i < 20; i++) {
        const int k = 2 * pick(0, 3) + 1;
        snprintf(spec, sizeof spec, "conv1d:%d:%d:%s%s", pick(k, 40), k, pick(0, 1) ? "same" : "valid",
                 dtypes[pick(0, 2)]);
        CHECK(compare(spec));
        snprintf(spec, sizeof spec, "conv2d:%d:%d:%d:%d:%d:%s", pick(1, 3), pick(5, 12), pick(5, 12),
                 2 * pick(0, 2) + 1, 2 * pick(0, 2) + 1, pick(0, 1) ? "same" : "valid");
        CHECK(compare(spec));
        snprintf(spec, sizeof spec, "conv2dc:2:4:9:9:4:%d:%d:same:dilation=2", pick(2, 4), pick(2, 4));
        CHECK(compare(spec));   /* an even filter with an even dilated span pads evenly */
    }
    /* Uneven padding is none of cuDNN's. */
    refused("conv1dc:2:4:32:8:3:causal", "causal");
    refused("conv1dc:2:4:32:8:3:causal:nlc:wgrad", "causal");
    refused("conv1d:100:4:same", "unevenly");
    refused("conv1d:100:3:right", "unevenly");
    refused("conv2d:2:16:16:4:3:same", "unevenly");
    refused("conv2dc:2:4:16:16:8:4:3:same", "unevenly");
    refused("conv2dc:2:4:16:16:8:3:2:same:nhwc:dgrad", "unevenly");

    /* No library: the outcome is "none" with the reason, no GPU touched
     * (the problem is described first, the library loaded next). */
    setenv("CONVTUNE_CUDNN", "/nonexistent/ct_test/libcudnn.so.9", 1);
    const ct_cudnn *L;
    ct_err e;
    CHECK(ct_cudnn_load(&L, &e) == CT_ERR_NOT_FOUND);
    CHECK_MSG(strstr(e.msg, "/nonexistent/ct_test/libcudnn.so.9") && strstr(e.msg, "CONVTUNE_CUDNN"), "%s", e.msg);
    ct_problem p;
    CHECK(ct_problem_parse("conv2dc:2:4:16:16:8:3:3:same", &p, &e) == CT_OK);
    ct_workload w = {.p = &p};
    ct_settings s = {0};
    ct_cudnn_outcome o;
    CHECK(ct_cudnn_baseline(NULL, &w, &s, &o, &e) == CT_OK);
    CHECK(!o.ran && strstr(o.why, "CONVTUNE_CUDNN"));
    CHECK(ct_cudnn_first_ok(&o) == NULL);
    CHECK(ct_problem_parse("conv1dc:2:4:32:8:3:causal", &p, &e) == CT_OK);
    CHECK(ct_cudnn_baseline(NULL, &w, &s, &o, &e) == CT_OK);
    CHECK(!o.ran && strstr(o.why, "causal"));
    /* ... and the run's line says so. */
    ct_tune_result res;
    memset(&res, 0, sizeof res);
    res.cudnn_asked = 1;
    res.cudnn = o;
    char line[1024] = "";
    FILE *f = tmpfile();
    ct_tune_cudnn_print(f, &res, 10.0);
    rewind(f);
    CHECK(fgets(line, sizeof line, f) != NULL);
    fclose(f);
    CHECK_MSG(!strncmp(line, "  cuDNN baseline: none (causal", 30), "%s", line);
    char note[1024];
    ct_tune_cudnn_note(&res, 10.0, note, sizeof note);
    CHECK_MSG(strstr(note, "\"us\":null") && strstr(note, "\"none\":\"causal"), "%s", note);
    /* A timed outcome: the ratio is cuDNN's time over the winner's. */
    memset(&res.cudnn, 0, sizeof res.cudnn);
    res.cudnn.ran = 1;
    res.cudnn.n = 2;
    snprintf(res.cudnn.version, sizeof res.cudnn.version, "9.19");
    const double us0 = 1 + (double)(next() % 1000), us1 = 1 + (double)(next() % 1000);
    res.cudnn.t[0] = (ct_cudnn_timing){.ok = 1, .label = "TF32 off", .us = us0, .relerr = 3e-7};
    res.cudnn.t[1] = (ct_cudnn_timing){.ok = 1, .label = "TF32 on", .us = us1, .relerr = 2e-4};
    f = tmpfile();
    ct_tune_cudnn_print(f, &res, 4.0);
    rewind(f);
    CHECK(fgets(line, sizeof line, f) != NULL);
    fclose(f);
    char want[256];
    snprintf(want, sizeof want, "  cuDNN 9.19 (TF32 off): %.2f us, relerr 3.0e-07: convtune %.2fx; (TF32 on): %.2f us",
             us0, us0 / 4.0, us1);
    CHECK_MSG(!strncmp(line, want, strlen(want)), "'%s' vs '%s'", line, want);
    /* The API that gave each time is named after its ratio, with what the
     * other gave; the stored note does not carry it. */
    const int algo = (int)(next() % 64);
    snprintf(res.cudnn.t[0].api, sizeof res.cudnn.t[0].api, "backend");
    res.cudnn.t[0].algo = algo;
    snprintf(res.cudnn.t[0].api_other, sizeof res.cudnn.t[0].api_other, "legacy API algo 1: %.2f us", us0 + 1);
    snprintf(res.cudnn.t[1].api, sizeof res.cudnn.t[1].api, "legacy");
    f = tmpfile();
    ct_tune_cudnn_print(f, &res, 4.0);
    rewind(f);
    CHECK(fgets(line, sizeof line, f) != NULL);
    fclose(f);
    snprintf(want, sizeof want, "convtune %.2fx [backend API engine %d; legacy API algo 1: %.2f us]; (TF32 on): ",
             us0 / 4.0, algo, us0 + 1);
    CHECK_MSG(strstr(line, want) != NULL, "'%s' lacks '%s'", line, want);
    snprintf(want, sizeof want, "convtune %.2fx [legacy API algo 0]\n", us1 / 4.0);
    CHECK_MSG(strstr(line, want) != NULL, "'%s' lacks '%s'", line, want);
    ct_tune_cudnn_note(&res, 4.0, note, sizeof note);
    CHECK_MSG(!strstr(note, "backend"), "%s", note);
    CHECK_MSG(strstr(note, "\"version\":\"9.19\"") && strstr(note, "\"none\":null"), "%s", note);
    /* A long reason (a path of multibyte names, quotes) is cut in the
     * stored note, at a character, so that it stays small, valid JSON. */
    memset(&res.cudnn, 0, sizeof res.cudnn);
    size_t o2 = 0;
    while (o2 + 4 < sizeof res.cudnn.why)
        o2 += (size_t)snprintf(res.cudnn.why + o2, sizeof res.cudnn.why - o2, "%s",
                               (next() & 1) ? "\xc3\xa9" : (next() & 1) ? "\"" : "x");
    char note480[480];
    CHECK(ct_tune_cudnn_note(&res, 4.0, note480, sizeof note480));
    ct_json *jn = NULL;
    CHECK_MSG(ct_json_parse(note480, strlen(note480), &jn, &e) == CT_OK, "%s: %s", e.msg, note480);
    const ct_json *nv = jn ? ct_json_get(jn, "none") : NULL;
    CHECK(nv && nv->type == CT_JSON_STRING && nv->n > 100 && nv->n <= 160);
    ct_json_free(jn);
    CHECK_DONE();
}
