/* test_dtype.c - the half element types and tf32: problem strings with a
 * type token (canonical forms, refusals, tf32 on the layer families only),
 * the host rounding against known bit patterns and the device's
 * round-to-nearest-even (and TF32's to-nearest-away), the tolerance of each
 * type (a model of a kernel that sums in half precision must fail it on a
 * long reduction, one that sums in fp32 must pass; products of TF32-rounded
 * operands pass tf32's; the verdict applied to one error for tf32 and
 * fp32), the generic refusal of fp32 templates (and their admission for
 * tf32), and NVRTC compiles of every family's generic kernel in each
 * type. The naive and fp64 reference templates in half are compiled by
 * test_conformance (its half examples). No GPU. */
#include "check.h"
#include "compile.h"
#include "dtype.h"
#include "problem.h"
#include "runner.h"
#include "space.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void expect_canonical(const char *spec, const char *canonical, ct_dtype t)
{
    ct_problem p, q;
    ct_err e;
    ct_status rc = ct_problem_parse(spec, &p, &e);
    CHECK_MSG(rc == CT_OK, "%s: %s", spec, e.msg);
    if (rc != CT_OK)
        return;
    CHECK_STR(p.canonical, canonical);
    CHECK_MSG(ct_problem_dtype(&p) == t, "%s: dtype %d", spec, (int)ct_problem_dtype(&p));
    CHECK(ct_problem_parse(p.canonical, &q, &e) == CT_OK && ct_problem_equal(&p, &q));
}

static void expect_refusal(const char *spec, const char *words)
{
    ct_problem p;
    ct_err e = {{0}};
    ct_status rc = ct_problem_parse(spec, &p, &e);
    CHECK_MSG(rc == CT_ERR_USAGE && strstr(e.msg, words), "%s: rc %d, '%s' (want '%s')", spec, (int)rc, e.msg,
              words);
}

static void test_parse(void)
{
    expect_canonical("conv1d:1e6:2047", "conv1d:1000000:2047:valid", CT_DTYPE_F32);
    expect_canonical("conv1d:1e6:2047:f32", "conv1d:1000000:2047:valid", CT_DTYPE_F32);
    expect_canonical("conv1d:1e6:2047:f16", "conv1d:1000000:2047:valid:f16", CT_DTYPE_F16);
    expect_canonical("conv1d:1000:31:same:bf16", "conv1d:1000:31:same:bf16", CT_DTYPE_BF16);
    expect_canonical("conv2d:16:2048:2048:11:11:same:f16", "conv2d:16:2048:2048:11:11:same:f16", CT_DTYPE_F16);
    expect_canonical("conv2dc:32:64:56:56:64:3:3:same:bf16", "conv2dc:32:64:56:56:64:3:3:same:bf16", CT_DTYPE_BF16);
    expect_canonical("conv1dc:1:1024:4:1024:5:pad=2:bias:bf16", "conv1dc:1:1024:4:1024:5:pad=2:bias:bf16",
                     CT_DTYPE_BF16);
    expect_canonical("conv1dc:2:7:33:9:7:bias:f16", "conv1dc:2:7:33:9:7:pad=0:bias:f16", CT_DTYPE_F16);
    expect_refusal("conv1d:10:3:f16:same", "must be the last field");
    expect_refusal("conv1dc:1:4:8:4:3:bf16:bias", "must be the last field");
    expect_refusal("conv1d:10:3:bf16:f16", "given twice");
    expect_refusal("conv2dc:1:4:8:8:4:3:3:f16:same:f16", "given twice");
    expect_refusal("conv1d:10:3:fp16", "unknown element type 'fp16'");
    expect_refusal("conv2d:1:8:8:3:3:same:f64", "unknown element type 'f64'");
    expect_refusal("conv1d:10:3:half:same", "unknown element type 'half'");

    /* tf32: the layer families with tensor-core kernels, fp32 storage. */
    expect_canonical("conv2dc:16:64:56:56:64:3:3:same:nhwc:tf32", "conv2dc:16:64:56:56:64:3:3:same:nhwc:tf32",
                     CT_DTYPE_TF32);
    expect_canonical("conv1dc:2:7:33:9:7:bias:tf32", "conv1dc:2:7:33:9:7:pad=0:bias:tf32", CT_DTYPE_TF32);
    expect_canonical("conv2dc:1:4:8:8:4:3:3:pad=1:stride=2:tf32", "conv2dc:1:4:8:8:4:3:3:pad=1:stride=2:tf32",
                     CT_DTYPE_TF32);
    expect_refusal("conv1d:10:3:tf32", "element type 'tf32' is not offered by conv1d (its types: f32, bf16, f16)");
    expect_refusal("conv2d:1:8:8:3:3:same:tf32", "is not offered by conv2d");
    expect_refusal("conv2d:1:8:8:3:3:tf32:same", "is not offered by conv2d");
    expect_refusal("conv2dc:1:4:8:8:4:3:3:tf32:tf32", "given twice ('tf32' and 'tf32')");
    expect_refusal("conv2dc:1:4:8:8:4:3:3:bf16:tf32", "given twice ('bf16' and 'tf32')");
    expect_refusal("conv1dc:1:4:8:4:3:tf32:bias", "'tf32' must be the last field");
    expect_refusal("conv2dc:1:4:8:8:4:3:3:fp16", "unknown element type 'fp16' (known: f32, bf16, f16, tf32)");
    expect_refusal("conv1dc:1:4:8:4:3:TF32", "");   /* case matters: not a type, and no other field */
    {
        ct_problem p;
        ct_err e = {{0}};
        CHECK(ct_problem_parse("conv1d:10:3:tf32", &p, &e) == CT_ERR_USAGE && !strchr(e.msg, '\n'));
    }

    /* Another type is another kernel: not comparable for the selector. */
    ct_problem a, b;
    ct_err e;
    CHECK(ct_problem_parse("conv1d:1000:7", &a, &e) == CT_OK && ct_problem_parse("conv1d:1000:7:bf16", &b, &e) == CT_OK);
    CHECK(ct_problem_distance(&a, &b) == -1 && !ct_problem_equal(&a, &b));
    /* Half problems move half the bytes; CT_DTYPE reaches the templates of
     * half problems only, so fp32 macros are those of before. */
    CHECK(fabs(a.family->bytes(&b) * 2 - a.family->bytes(&a)) < 1e-9);
    ct_define da[CT_MAX_DEFINES], db[CT_MAX_DEFINES];
    int na = ct_problem_defines(&a, da), nb = ct_problem_defines(&b, db);
    CHECK(na == a.family->defines(&a, da) && nb == na + 1);
    CHECK(!strcmp(db[nb - 1].name, "CT_DTYPE") && db[nb - 1].value == CT_DTYPE_BF16);
    CHECK(ct_dtype_size(CT_DTYPE_F32) == 4 && ct_dtype_size(CT_DTYPE_BF16) == 2 && ct_dtype_size(CT_DTYPE_F16) == 2);
    CHECK_STR(ct_dtype_name(CT_DTYPE_F16), "f16");

    /* A tf32 problem: fp32 buffers and bytes, its own key, CT_TF32 for the
     * templates and no CT_DTYPE (its storage is fp32's). */
    ct_problem c, t;
    CHECK(ct_problem_parse("conv2dc:2:8:9:9:8:3:3:same", &c, &e) == CT_OK &&
          ct_problem_parse("conv2dc:2:8:9:9:8:3:3:same:tf32", &t, &e) == CT_OK);
    CHECK(ct_problem_distance(&c, &t) == -1 && !ct_problem_equal(&c, &t));
    CHECK(c.family->bytes(&c) == t.family->bytes(&t));
    CHECK(ct_dtype_size(CT_DTYPE_TF32) == 4 && ct_dtype_storage(CT_DTYPE_TF32) == CT_DTYPE_F32 &&
          !ct_dtype_is_half(CT_DTYPE_TF32) && ct_dtype_is_half(CT_DTYPE_BF16));
    CHECK_STR(ct_dtype_name(CT_DTYPE_TF32), "tf32");
    na = ct_problem_defines(&c, da);
    nb = ct_problem_defines(&t, db);
    CHECK(nb == na + 1 && !strcmp(db[nb - 1].name, "CT_TF32") && db[nb - 1].value == 1);
    for (int i = 0; i < nb; i++)
        CHECK_MSG(strcmp(db[i].name, "CT_DTYPE") != 0, "a tf32 problem defines CT_DTYPE");
}

static float from_bits(uint32_t x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

static void test_rounding(void)
{
    static const struct {
        float f;
        uint16_t bf16, f16;
    } known[] = {
        {1.0f, 0x3f80, 0x3c00},
        {-2.0f, 0xc000, 0xc000},
        {0.1f, 0x3dcd, 0x2e66},
        {65504.0f, 0x4780, 0x7bff},         /* the largest f16 */
        {65519.0f, 0x4780, 0x7bff},         /* below the midpoint to 65536: stays */
        {65520.0f, 0x4780, 0x7c00},         /* the midpoint rounds to even: inf */
        {0x1p-24f, 0x3380, 0x0001},         /* the smallest f16 subnormal */
        {0x1p-25f, 0x3300, 0x0000},         /* half of it: a tie, to even (zero) */
        {0x1.8p-25f, 0x3340, 0x0001},       /* above the tie */
        {0x1.8p-24f, 0x33c0, 0x0002},       /* 1.5 units: tie to even (2) */
        {0x1p-14f, 0x3880, 0x0400},         /* the smallest f16 normal */
        {0x1.ffcp-15f, 0x3880, 0x0400},     /* just under it rounds up into the normals */
        {1.0f + 0x1p-11f, 0x3f80, 0x3c00},  /* f16 tie: to even */
        {1.0f + 0x3p-11f, 0x3f80, 0x3c02},  /* f16 tie: to even, upwards */
        {1.0f + 0x1p-8f, 0x3f80, 0x3c04},   /* bf16 tie: to even */
        {1.0f + 0x3p-8f, 0x3f82, 0x3c0c},   /* bf16 tie: to even, upwards */
        {3.0e38f, 0x7f62, 0x7c00},
        {-0.0f, 0x8000, 0x8000},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        CHECK_MSG(ct_f32_to_bf16(known[i].f) == known[i].bf16, "bf16(%a) = %04x, want %04x", known[i].f,
                  ct_f32_to_bf16(known[i].f), known[i].bf16);
        CHECK_MSG(ct_f32_to_f16(known[i].f) == known[i].f16, "f16(%a) = %04x, want %04x", known[i].f,
                  ct_f32_to_f16(known[i].f), known[i].f16);
    }
    CHECK(ct_f32_to_bf16(from_bits(0x7f7fffffu)) == 0x7f80);   /* FLT_MAX rounds to inf */
    CHECK(isnan(ct_f16_to_f32(ct_f32_to_f16(NAN))) && isnan(ct_bf16_to_f32(ct_f32_to_bf16(NAN))));
    CHECK(isnan(ct_f16_to_f32(ct_dtype_nan_bits(CT_DTYPE_F16))) &&
          isnan(ct_bf16_to_f32(ct_dtype_nan_bits(CT_DTYPE_BF16))));
    CHECK(isinf(ct_f16_to_f32(0x7c00)) && ct_f16_to_f32(0x0001) == 0x1p-24f && ct_f16_to_f32(0x3555) == 0x1.554p-2f);
    /* Every f16 and every bf16 widens and narrows back to itself (NaNs
     * aside), and the widened value is the nearest: its neighbours' midpoints
     * round to the even one of the two. */
    int bad16 = 0, badbf = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        float f = ct_f16_to_f32((uint16_t)h);
        if (!isnan(f) && ct_f32_to_f16(f) != h)
            bad16++;
        float g = ct_bf16_to_f32((uint16_t)h);
        if (!isnan(g) && ct_f32_to_bf16(g) != h)
            badbf++;
        if ((h & 0x7fff) < 0x7bff) {   /* the midpoint to the next f16 of the same sign */
            double mid = ((double)f + (double)ct_f16_to_f32((uint16_t)(h + 1))) / 2;
            uint16_t want = (h & 1) ? (uint16_t)(h + 1) : (uint16_t)h;
            if ((float)mid == mid && ct_f32_to_f16((float)mid) != want)
                bad16++;
        }
    }
    CHECK_MSG(bad16 == 0 && badbf == 0, "%d f16 and %d bf16 values do not round-trip", bad16, badbf);

    /* Narrow then widen in one buffer, as the runner reads outputs back. */
    float v[5] = {0.1f, -3.3f, 1e-6f, 70000.0f, 0.5f}, w[5];
    for (int t = CT_DTYPE_BF16; t <= CT_DTYPE_F16; t++) {
        memcpy(w, v, sizeof v);
        ct_dtype_narrow((ct_dtype)t, w, w, 5);
        ct_dtype_widen((ct_dtype)t, w, 5);
        for (int i = 0; i < 5; i++)
            CHECK_MSG(w[i] == ct_dtype_round((ct_dtype)t, v[i]) || (isinf(w[i]) && t == CT_DTYPE_F16),
                      "type %d: %g came back %g", t, v[i], w[i]);
    }

    /* TF32 as cvt.rna.tf32.f32: to nearest, ties away from zero. */
    static const struct {
        float f, tf;
    } tf[] = {
        {1.0f, 1.0f},
        {1.0f + 0x1p-12f, 1.0f},                      /* below the midpoint */
        {1.0f + 0x1p-11f, 1.0f + 0x1p-10f},           /* the midpoint: away */
        {-(1.0f + 0x1p-11f), -(1.0f + 0x1p-10f)},     /* the midpoint, negative: away */
        {1.0f + 0x3p-11f, 1.0f + 0x2p-10f},           /* the midpoint above an odd value: up */
        {1.0f + 0x1.ffcp-12f, 1.0f},                  /* just under the midpoint */
        {0x1.fffp0f, 2.0f},                           /* a carry into the exponent */
        {0.1f, 0x1.998p-4f},
        {-0.0f, -0.0f},
    };
    for (size_t i = 0; i < sizeof tf / sizeof tf[0]; i++)
        CHECK_MSG(ct_tf32_round(tf[i].f) == tf[i].tf && signbit(ct_tf32_round(tf[i].f)) == signbit(tf[i].tf),
                  "tf32(%a) = %a, want %a", tf[i].f, ct_tf32_round(tf[i].f), tf[i].tf);
    CHECK(isinf(ct_tf32_round(from_bits(0x7f7fffffu))) && isnan(ct_tf32_round(NAN)) && isinf(ct_tf32_round(INFINITY)));
    /* tf32 buffers are fp32: no rounding on the way up, none on the way back. */
    for (int i = 0; i < 5; i++)
        CHECK(ct_dtype_round(CT_DTYPE_TF32, v[i]) == v[i]);
    memcpy(w, v, sizeof v);
    ct_dtype_narrow(CT_DTYPE_TF32, w, w, 5);
    ct_dtype_widen(CT_DTYPE_TF32, w, 5);
    CHECK(!memcmp(w, v, sizeof v));
}

/* ---- the tolerance ---- */

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;

static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}

static double relerr(const float *out, const double *ref, int n)
{
    double num = 0, den = 0;
    for (int i = 0; i < n; i++) {
        num += ((double)out[i] - ref[i]) * ((double)out[i] - ref[i]);
        den += ref[i] * ref[i];
    }
    return sqrt(num / den);
}

/* A conv1d of K taps over rounded random inputs, as a kernel computes it:
 * sums in fp32 (half_acc 0) or rounded to the type after every
 * multiply-add (half_acc 1), the output rounded to the type; the relative
 * L2 error against the fp64 sums of the same rounded inputs. */
static double model_error(ct_dtype t, int k, int half_acc)
{
    enum { NOUT = 512 };
    float *x = malloc((NOUT + (size_t)k) * sizeof *x), *m = malloc((size_t)k * sizeof *m), out[NOUT];
    double ref[NOUT];
    for (int i = 0; i < NOUT + k; i++)
        x[i] = ct_dtype_round(t, (float)uniform());
    for (int j = 0; j < k; j++)
        m[j] = ct_dtype_round(t, (float)uniform());
    for (int i = 0; i < NOUT; i++) {
        double r = 0;
        float acc = 0;
        for (int j = 0; j < k; j++) {
            r += (double)x[i + j] * (double)m[j];
            acc = fmaf(x[i + j], m[j], acc);
            if (half_acc)
                acc = ct_dtype_round(t, acc);
        }
        ref[i] = r;
        out[i] = ct_dtype_round(t, acc);
    }
    free(x);
    free(m);
    return relerr(out, ref, NOUT);
}

static void test_tolerance(void)
{
    /* fp32 keeps the setting unchanged: 1e-5 by default. */
    CHECK(ct_dtype_tolerance(CT_DTYPE_F32, 1e-5) == 1e-5 && ct_dtype_tolerance(CT_DTYPE_F32, 3e-4) == 3e-4);
    CHECK(ct_dtype_tolerance(CT_DTYPE_BF16, 1e-5) == 0x1p-7 && ct_dtype_tolerance(CT_DTYPE_F16, 1e-5) == 0x1p-10);
    for (int t = CT_DTYPE_BF16; t <= CT_DTYPE_F16; t++) {
        const double tol = ct_dtype_tolerance((ct_dtype)t, 1e-5);
        const int taps[] = {1, 5, 121, 2047};
        for (size_t i = 0; i < sizeof taps / sizeof taps[0]; i++) {
            double good = model_error((ct_dtype)t, taps[i], 0);
            CHECK_MSG(good <= tol, "%s K=%d: fp32 sums give %.3g, over the tolerance %.3g", ct_dtype_name((ct_dtype)t),
                      taps[i], good, tol);
            /* The output's one rounding is about u/sqrt(3) at most. */
            CHECK_MSG(good > tol / 16, "%s K=%d: %.3g is not the rounding of the output", ct_dtype_name((ct_dtype)t),
                      taps[i], good);
        }
        double bad = model_error((ct_dtype)t, 2047, 1);
        CHECK_MSG(bad > tol, "%s: half-precision sums over 2047 taps give %.3g, within the tolerance %.3g",
                  ct_dtype_name((ct_dtype)t), bad, tol);
        printf("%s: tolerance %.3g; fp32 sums over 2047 taps %.3g, half sums %.3g\n", ct_dtype_name((ct_dtype)t), tol,
               model_error((ct_dtype)t, 2047, 0), bad);
    }
}

/* A dot product of K random fp32 operands as a tf32 kernel computes it:
 * each operand rounded to TF32 (rna 1: to nearest as cvt.rna.tf32.f32;
 * 0: truncated, as the tensor cores read an unrounded fp32 register), the
 * exact products summed in fp32; relative L2 error over NOUT outputs
 * against fp64 sums of the unrounded operands (the reference of a tf32
 * problem). */
static double tf32_model_error(int k, int rna)
{
    enum { NOUT = 256 };
    float out[NOUT];
    double ref[NOUT];
    for (int i = 0; i < NOUT; i++) {
        double r = 0;
        float acc = 0;
        for (int j = 0; j < k; j++) {
            const float a = (float)uniform(), b = (float)uniform();
            r += (double)a * (double)b;
            const float ta = rna ? ct_tf32_round(a) : ct_dtype_round(CT_DTYPE_F32, a),
                        tb = rna ? ct_tf32_round(b) : ct_dtype_round(CT_DTYPE_F32, b);
            uint32_t ua, ub;
            memcpy(&ua, &ta, 4);
            memcpy(&ub, &tb, 4);
            ua &= 0xffffe000u, ub &= 0xffffe000u;   /* what the tensor cores read */
            acc += (float)((double)from_bits(ua) * (double)from_bits(ub));
        }
        ref[i] = r;
        out[i] = acc;
    }
    return relerr(out, ref, NOUT);
}

static void test_tf32_tolerance(void)
{
    /* Twice TF32's unit roundoff, whatever the fp32 setting. */
    const double tol = ct_dtype_tolerance(CT_DTYPE_TF32, 1e-5);
    CHECK(tol == 0x1p-10 && ct_dtype_tolerance(CT_DTYPE_TF32, 3e-4) == 0x1p-10);
    const int taps[] = {8, 576, 4608};
    for (size_t i = 0; i < sizeof taps / sizeof taps[0]; i++) {
        const double e = tf32_model_error(taps[i], 1);
        CHECK_MSG(e <= tol, "tf32 K=%d: rounded operands give %.3g, over the tolerance %.3g", taps[i], e, tol);
        CHECK_MSG(e > tol / 16 && e > 1e-5, "tf32 K=%d: %.3g is not the operands' rounding", taps[i], e);
    }
    printf("tf32: tolerance %.3g; K=4608 rounded operands %.3g, truncated %.3g\n", tol, tf32_model_error(4608, 1),
           tf32_model_error(4608, 0));

    /* The verdict on one result: relative error 5e-4 passes as tf32 and
     * fails as fp32 (whose bar stays 1e-5); NaN and 2e-3 fail as tf32. */
    enum { N = 1000 };
    float out[N];
    double ref[N];
    for (int i = 0; i < N; i++) {
        ref[i] = uniform();
        out[i] = (float)(ref[i] * (1 + 5e-4));
    }
    const double r = ct_relerr(out, ref, N);
    CHECK_MSG(fabs(r - 5e-4) < 1e-6, "relerr %.6g, want 5e-4", r);
    CHECK(ct_dtype_verified(CT_DTYPE_TF32, r, 1e-5) == 1);
    CHECK(ct_dtype_verified(CT_DTYPE_F32, r, 1e-5) == 0);
    CHECK(ct_dtype_verified(CT_DTYPE_F32, 5e-6, 1e-5) == 1);
    CHECK(ct_dtype_verified(CT_DTYPE_TF32, NAN, 1e-5) == 0 && ct_dtype_verified(CT_DTYPE_TF32, 2e-3, 1e-5) == 0);
}

/* ---- templates ---- */

static void test_refusal(void)
{
    ct_problem p;
    ct_err e;
    char why[256];
    CHECK(ct_problem_parse("conv1d:1e6:2047:f16", &p, &e) == CT_OK);
    const ct_family *f = p.family;
    int naive = 0;
    for (int i = 0; i < f->ntemplates; i++) {
        const ct_template *t = &f->templates[i];
        int refused = ct_template_refuses_dtype(&p, t, why, sizeof why);
        CHECK_MSG(refused == !(t->dtypes & (1u << CT_DTYPE_F16)), "%s: refused %d", t->name, refused);
        if (refused && !t->dtypes)
            CHECK_MSG(strstr(why, "computes in fp32 only") && strstr(why, t->name), "%s", why);
        naive += t->is_baseline && !refused;
    }
    CHECK(naive == 1);
    /* A template with some half type names what it has. */
    const ct_template only_bf16 = {.name = "x_bf16", .dtypes = (1u << CT_DTYPE_F32) | (1u << CT_DTYPE_BF16)};
    CHECK(ct_template_refuses_dtype(&p, &only_bf16, why, sizeof why) == 1);
    CHECK_STR(why, "x_bf16 computes in f32, bf16 only, not f16");
    /* A tf32 problem: every template that computes fp32 serves it (at
     * fp32 accuracy), the half-only ones do not, and say so. */
    CHECK(ct_problem_parse("conv2dc:2:8:9:9:8:3:3:same:tf32", &p, &e) == CT_OK);
    int fp32_ones = 0;
    for (int i = 0; i < p.family->ntemplates; i++) {
        const ct_template *t = &p.family->templates[i];
        const unsigned have = t->dtypes ? t->dtypes : 1u << CT_DTYPE_F32;
        int refused = ct_template_refuses_dtype(&p, t, why, sizeof why);
        CHECK_MSG(refused == !(have & ((1u << CT_DTYPE_F32) | (1u << CT_DTYPE_TF32))), "%s: refused %d", t->name,
                  refused);
        if (refused)
            CHECK_MSG(strstr(why, "not tf32") && strstr(why, t->name), "%s", why);
        fp32_ones += !refused;
    }
    CHECK(fp32_ones > 2);
    /* Every family's naive template has every type. */
    for (const ct_family *const *fs = ct_families(); *fs; fs++)
        for (int i = 0; i < (*fs)->ntemplates; i++)
            if ((*fs)->templates[i].is_baseline)
                CHECK_MSG((*fs)->templates[i].dtypes == CT_DTYPES_ALL, "%s", (*fs)->templates[i].name);
}

/* Every family's generic kernel (run-time sizes, `export --family`) in
 * every type, for the oldest and the newest architecture tested. */
static void test_generic_compiles(void)
{
    for (const ct_family *const *fs = ct_families(); *fs; fs++) {
        char name[64], *src = NULL;
        ct_err e;
        snprintf(name, sizeof name, "%s_generic", (*fs)->name);
        if (ct_template_source(name, NULL, &src, &e) != CT_OK) {
            CHECK_MSG(0, "%s: %s", name, e.msg);
            continue;
        }
        for (int t = CT_DTYPE_F32; t <= CT_DTYPE_F16; t++)
            for (int a = 0; a < 2; a++) {
                const char *arch = a ? "sm_90" : "sm_75";
                ct_define d = {"CT_DTYPE", t};
                ct_binary bin;
                ct_status rc = ct_nvrtc_compile(src, name, arch, &d, t ? 1 : 0, NULL, &bin, &e);
                CHECK_MSG(rc == CT_OK && bin.size > 0, "%s %s %s: %s", name, ct_dtype_name((ct_dtype)t), arch,
                          rc == CT_OK ? "" : e.msg);
                ct_binary_free(&bin);
            }
        free(src);
    }
}

int main(void)
{
    test_parse();
    test_rounding();
    test_tolerance();
    test_tf32_tolerance();
    test_refusal();
    test_generic_compiles();
    CHECK_DONE();
}
