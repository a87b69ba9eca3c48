/* test_conv_pass.c - the training passes of the layer families (conv1dc,
 * conv2dc; conv_pass.h) without a GPU: the pass token in the grammar and
 * its refusals, keys, buffers, counts and defines; the fp64 references
 * held to the forward reference by the adjoint identities
 *
 *   <dy, conv(x, w) + b> = <dgrad(dy, w), x> = <dW(x, dy), w> + <db, b>
 *
 * (each side computed by different code: the forward reference gathers, the
 * passes' scatter); and the index transform the dgrad kernels gather with,
 * y = (yy + P - i*D) / S where that divides, against the scatter. */
#include "check.h"
#include "conv_pass.h"
#include "data.h"
#include "kernel_kind.h"
#include "problem.h"
#include "runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ct_status parse(const char *spec, ct_problem *p, ct_err *e)
{
    memset(e, 0, sizeof *e);
    return ct_problem_parse(spec, p, e);
}

static void test_grammar(void)
{
    ct_problem p, q;
    ct_err e;
    static const struct {
        const char *spec, *canonical;
    } ok[] = {
        {"conv2dc:64:256:16:16:256:31:31:same:groups=256:wgrad", "conv2dc:64:256:16:16:256:31:31:same:groups=256:wgrad"},
        /* A bias changes no input gradient: dgrad's key has none. */
        {"conv2dc:8:96:56:56:96:7:7:same:groups=96:bias:nhwc:dgrad:bf16",
         "conv2dc:8:96:56:56:96:7:7:same:groups=96:nhwc:dgrad:bf16"},
        {"conv2dc:2:3:9:9:4:3:3:same:fwd", "conv2dc:2:3:9:9:4:3:3:same"},
        {"conv1dc:8:2048:4096:2048:4:causal:groups=2048:nlc:wgrad:bf16",
         "conv1dc:8:2048:4096:2048:4:causal:groups=2048:nlc:wgrad:bf16"},
        {"conv1dc:1:1024:4:1024:5:pad=2:bias:wgrad", "conv1dc:1:1024:4:1024:5:pad=2:bias:wgrad"},
        {"conv1dc:1:1024:4:1024:5:pad=2:bias:dgrad", "conv1dc:1:1024:4:1024:5:pad=2:dgrad"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        CHECK_MSG(parse(ok[i].spec, &p, &e) == CT_OK, "%s: %s", ok[i].spec, e.msg);
        CHECK_STR(p.canonical, ok[i].canonical);
        CHECK(parse(p.canonical, &q, &e) == CT_OK && ct_problem_equal(&p, &q));
    }
    /* Passes of one layer are distinct problems, never neighbours. */
    ct_problem f, d, w;
    CHECK(parse("conv2dc:2:3:9:9:4:3:3:same", &f, &e) == CT_OK);
    CHECK(parse("conv2dc:2:3:9:9:4:3:3:same:dgrad", &d, &e) == CT_OK);
    CHECK(parse("conv2dc:2:3:9:9:4:3:3:same:wgrad", &w, &e) == CT_OK);
    CHECK(!ct_problem_equal(&f, &d) && !ct_problem_equal(&d, &w));
    CHECK(ct_problem_distance(&f, &d) == -1 && ct_problem_distance(&d, &w) == -1);
    CHECK(ct_problem_value(&f, "pass") == CT_PASS_FWD && ct_problem_value(&d, "pass") == CT_PASS_DGRAD &&
          ct_problem_value(&w, "pass") == CT_PASS_WGRAD);

    static const struct {
        const char *spec, *says;
    } bad[] = {
        {"conv2dc:2:3:9:9:4:3:3:same:wgrad:nhwc", "layout must come before pass"},
        {"conv2dc:2:3:9:9:4:3:3:same:dgrad:wgrad", "pass given twice"},
        {"conv2dc:2:3:9:9:4:3:3:same:bgrad", "a pass (fwd, dgrad, wgrad)"},
        {"conv1dc:2:3:50:4:5:wgrad:bias", "bias must come before pass"},
        {"conv1dc:2:3:50:4:5:f16:wgrad", "element type 'f16' must be the last field"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_MSG(parse(bad[i].spec, &p, &e) == CT_ERR_USAGE, "%s accepted", bad[i].spec);
        CHECK_MSG(strstr(e.msg, bad[i].says) != NULL, "%s: '%s' lacks '%s'", bad[i].spec, e.msg, bad[i].says);
    }
}

/* The defines a template gets: the forward layer's, plus CONV_PASS. */
static long long define_of(const ct_problem *p, const char *name)
{
    ct_define d[CT_MAX_DEFINES];
    const int n = ct_problem_defines(p, d);
    for (int i = 0; i < n; i++)
        if (!strcmp(d[i].name, name))
            return d[i].value;
    return -1;
}

static void test_buffers(void)
{
    ct_problem f, p;
    ct_err e;
    ct_buffer b[CT_MAX_BUFS];
    CHECK(parse("conv2dc:2:6:9:11:4:3:2:pad=1:stride=2:groups=2:bias", &f, &e) == CT_OK);
    /* OH = (9 + 2 - 2 - 1) / 2 + 1 = 5, OW = (11 + 2 - 1 - 1) / 2 + 1 = 6 */
    const size_t x = 2 * 6 * 9 * 11, w = 4 * 3 * 3 * 2, y = 2 * 4 * 5 * 6;
    CHECK(parse("conv2dc:2:6:9:11:4:3:2:pad=1:stride=2:groups=2:dgrad", &p, &e) == CT_OK);
    CHECK(p.family->buffers(&p, b) == 3);
    CHECK_STR(b[0].name, "dout");
    CHECK(b[0].count == y && !b[0].is_output);
    CHECK_STR(b[1].name, "weight");
    CHECK(b[1].count == w && !b[1].is_output);
    CHECK_STR(b[2].name, "din");
    CHECK(b[2].count == x && b[2].is_output);
    CHECK(fabs(p.family->flops(&p) - f.family->flops(&f)) < 1e-9);
    CHECK(fabs(p.family->bytes(&p) - 4.0 * (double)(x + w + y)) < 1e-9);
    CHECK(define_of(&p, "CONV_PASS") == 1 && define_of(&p, "CONV_OH") == 5 && define_of(&p, "CONV_OW") == 6);
    CHECK(define_of(&f, "CONV_PASS") == -1);

    CHECK(parse("conv2dc:2:6:9:11:4:3:2:pad=1:stride=2:groups=2:bias:nhwc:wgrad:bf16", &p, &e) == CT_OK);
    CHECK(p.family->buffers(&p, b) == 3);
    CHECK_STR(b[0].name, "in");
    CHECK(b[0].count == x);
    CHECK_STR(b[1].name, "dout");
    CHECK(b[1].count == y);
    CHECK_STR(b[2].name, "dweight");
    CHECK(b[2].count == w + 4 && b[2].is_output);   /* dW, then db */
    CHECK(fabs(p.family->bytes(&p) - 2.0 * (double)(x + w + y + 4)) < 1e-9);
    CHECK(define_of(&p, "CONV_PASS") == 2 && define_of(&p, "CONV_BIAS") == 1);
    CHECK(ct_problem_output_count(&p) == w + 4);

    CHECK(parse("conv1dc:3:4:40:8:3:causal:dilation=2:groups=2:nlc:dgrad", &p, &e) == CT_OK);
    CHECK(p.family->buffers(&p, b) == 3);
    CHECK(b[0].count == 3 * 8 * 40 && b[2].count == 3 * 4 * 40 && b[2].is_output);
    CHECK(define_of(&p, "CONV_PASS") == 1 && define_of(&p, "CONV_PAD") == 4);
}

/* The templates a pass problem admits compute that pass: a family excludes
 * every other template before it reads a parameter. */
static void test_exclusion(void)
{
    ct_problem p;
    ct_err e;
    static const char *const specs[] = {"conv2dc:2:6:9:11:4:3:2:pad=1:stride=2:groups=2:dgrad",
                                        "conv2dc:2:6:9:11:4:3:2:pad=1:groups=2:bias:wgrad",
                                        "conv1dc:3:4:40:8:3:causal:groups=2:nlc:wgrad:f16",
                                        "conv1dc:3:4:40:8:3:pad=1:stride=3:dgrad:bf16"};
    ct_limits lim;
    CHECK(ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        CHECK(parse(specs[s], &p, &e) == CT_OK);
        const int pass = (int)ct_problem_value(&p, "pass");
        int baselines = 0;
        for (int t = 0; t < p.family->ntemplates; t++) {
            const ct_template *tp = &p.family->templates[t];
            if (ct_kind_computes(tp, pass)) {
                baselines += tp->is_baseline;
                continue;
            }
            ct_params c;
            ct_params_defaults(tp->params, tp->nparams, &c);
            char why[256] = "";
            CHECK_MSG(p.family->constrain(&p, tp, &c, &lim, why, sizeof why) != 0, "%s admits %s", specs[s],
                      tp->name);
            CHECK_MSG(strstr(why, "pass") != NULL, "%s: %s refused for '%s'", specs[s], tp->name, why);
        }
        CHECK_MSG(baselines == 1, "%s: %d baselines", specs[s], baselines);
    }
}

/* <a, b> in fp64. */
static double dot(const double *a, const float *b, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += a[i] * (double)b[i];
    return s;
}

static const char *const layers[] = {
    "conv2dc:2:6:9:11:4:3:2:pad=1,0:stride=2,3:dilation=2,1:groups=2:bias",
    "conv2dc:3:5:7:8:5:3:3:same:groups=5:bias:nhwc",
    "conv2dc:1:4:10:9:6:4:2:stride=3:bias",
    "conv2dc:2:3:6:6:6:5:5:pad=2:dilation=1,2:groups=3:bias:nhwc",
    "conv1dc:2:6:31:4:3:pad=2:stride=2:groups=2:bias",
    "conv1dc:3:4:29:4:4:causal:dilation=3:groups=4:bias:nlc",
    "conv1dc:1:3:17:9:5:stride=3:dilation=2:groups=3:bias",
};

/* spec with ":PASS" before any element type token. */
static void with_pass(const char *spec, const char *pass, char *out, size_t len)
{
    snprintf(out, len, "%s:%s", spec, pass);
}

static void test_adjoint(unsigned long long *st)
{
    for (size_t l = 0; l < sizeof layers / sizeof layers[0]; l++) {
        ct_problem f, d, w;
        ct_err e;
        char spec[CT_PROBLEM_SPEC_MAX];
        CHECK(parse(layers[l], &f, &e) == CT_OK);
        with_pass(layers[l], "dgrad", spec, sizeof spec);
        CHECK_MSG(parse(spec, &d, &e) == CT_OK, "%s: %s", spec, e.msg);
        with_pass(layers[l], "wgrad", spec, sizeof spec);
        CHECK_MSG(parse(spec, &w, &e) == CT_OK, "%s: %s", spec, e.msg);
        ct_buffer fb[CT_MAX_BUFS];
        CHECK(f.family->buffers(&f, fb) == 4);   /* in, weight, bias, out */
        const size_t nx = fb[0].count, nw = fb[1].count, nb = fb[2].count, ny = fb[3].count;
        float *x = malloc(nx * sizeof *x), *wt = malloc(nw * sizeof *wt), *bias = malloc(nb * sizeof *bias);
        float *dy = malloc(ny * sizeof *dy);
        double *y = malloc(ny * sizeof *y), *dx = malloc(nx * sizeof *dx), *dwb = malloc((nw + nb) * sizeof *dwb);
        if (!x || !wt || !bias || !dy || !y || !dx || !dwb) {
            CHECK_MSG(0, "out of memory");
            return;
        }
        tl_fill(x, nx, st);
        tl_fill(wt, nw, st);
        tl_fill(bias, nb, st);
        tl_fill(dy, ny, st);
        for (size_t i = 0; i < nx; i++)
            dx[i] = NAN;
        for (size_t i = 0; i < nw + nb; i++)
            dwb[i] = NAN;
        f.family->reference(&f, (const float *const[]){x, wt, bias}, y);
        d.family->reference(&d, (const float *const[]){dy, wt}, dx);
        w.family->reference(&w, (const float *const[]){x, dy}, dwb);
        double lhs = 0.0, scale = 0.0;
        for (size_t i = 0; i < ny; i++) {
            lhs += (double)dy[i] * y[i];
            scale += fabs((double)dy[i] * y[i]);
        }
        double bias_part = 0.0;
        for (size_t i = 0; i < nb; i++)   /* <dy, b broadcast> = sum over co of b[co] * db[co] */
            bias_part += (double)bias[i] * dwb[nw + i];
        const double via_dx = dot(dx, x, nx), via_dw = dot(dwb, wt, nw) + bias_part;
        /* The bias's share is <db, b>: the dgrad side has none, so take it out. */
        CHECK_MSG(fabs(lhs - bias_part - via_dx) <= 1e-12 * scale, "%s: <dy, conv(x)> %.17g, <dgrad, x> %.17g",
                  layers[l], lhs - bias_part, via_dx);
        CHECK_MSG(fabs(lhs - via_dw) <= 1e-12 * scale, "%s: <dy, y> %.17g, <dW, w> + <db, b> %.17g", layers[l],
                  lhs, via_dw);
        /* Nothing left unwritten. */
        int finite = 1;
        for (size_t i = 0; i < nx; i++)
            finite &= isfinite(dx[i]);
        for (size_t i = 0; i < nw + nb; i++)
            finite &= isfinite(dwb[i]);
        CHECK_MSG(finite, "%s: a gradient element left unwritten", layers[l]);
        free(x), free(wt), free(bias), free(dy), free(y), free(dx), free(dwb);
    }
}

/* The gather the dgrad kernels compute (ct_pass_naive.cuh, ct_pass_ref64.cuh):
 * each dx element sums the outputs whose windows hold it, at y = (yy + P -
 * i*D) / S where that divides, on 1D rows (the 2D transform is this one per
 * axis); equal to the scatter reference. */
static void test_gather(unsigned long long *st)
{
    for (long long s = 1; s <= 3; s++)
        for (long long dil = 1; dil <= 2; dil++)
            for (long long k = 1; k <= 5; k++)
                for (long long pad = 0; pad < (k - 1) * dil + 1; pad++) {
                    const long long n = 13;
                    const long long no = (n + 2 * pad - dil * (k - 1) - 1) / s + 1;
                    if (no < 1)
                        continue;
                    float dy[32], w[8];   /* no <= 13 + 2 * 8 - 1 + 1 = 29, k <= 5 */
                    tl_fill(dy, (size_t)no, st);
                    tl_fill(w, (size_t)k, st);
                    double scatter[13] = {0}, gather[13];
                    for (long long y = 0; y < no; y++)
                        for (long long i = 0; i < k; i++) {
                            const long long yy = y * s + i * dil - pad;
                            if (yy >= 0 && yy < n)
                                scatter[yy] += (double)dy[y] * w[i];
                        }
                    for (long long yy = 0; yy < n; yy++) {
                        gather[yy] = 0.0;
                        for (long long i = 0; i < k; i++) {
                            const long long ny = yy + pad - i * dil;
                            if (ny >= 0 && ny % s == 0 && ny / s < no)
                                gather[yy] += (double)dy[ny / s] * w[i];
                        }
                    }
                    CHECK_MSG(tl_relerr(gather, scatter, (size_t)n) < 1e-15, "stride %lld dilation %lld K %lld pad %lld",
                              s, dil, k, pad);
                }
}

int main(void)
{
    unsigned long long st = tl_seed(20261127);
    test_grammar();
    test_buffers();
    test_exclusion();
    test_adjoint(&st);
    test_gather(&st);
    CHECK_DONE();
}
