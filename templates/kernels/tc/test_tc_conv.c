/* test_tc_conv.c - the tensor-core implicit-GEMM templates without a GPU:
 *
 * 1. the 3xTF32 split against a CPU model of the tensor cores' TF32 inputs:
 *    products within 3 * 2^-20 of fp64, a 4096-long dot product within 1e-5
 *    where plain TF32 (one product of truncated inputs) misses it; the
 *    single-pass (tf32) kernel's arithmetic, operands rounded to nearest and
 *    summed on the tensor cores alone (truncating adds), within tf32's
 *    tolerance 2^-10 on a 9216-long reduction;
 * 2. a replay of the kernel's index arithmetic (tile and halo staging from
 *    either layout, the
 *    kk -> offset table in both reduction orders, the idle columns, the
 *    split-K chunk ranges, the epilogue and the reduction kernel) on odd
 *    shapes, for seeded samples of the conv2dc and conv1dc tc spaces, against
 *    the families' fp64 references; shared memory starts NaN, so a read of
 *    anything staging did not write fails; tf32 rows replay the
 *    single-pass kernel (operands rounded to TF32 as cvt.rna does, ACC_STEPS
 *    normalised to 1) and are held to tf32's tolerance instead;
 * 3. the shape grid: every problem of a grid over channels, sizes, filters,
 *    batch, modes, bias and layouts, of every family, has a tuned
 *    (non-baseline) template with an admissible candidate for sm_80 and
 *    sm_90. */
#include "check.h"
#include "config.h"
#include "data.h"
#include "dtype.h"
#include "runner.h"
#include "space.h"
#include "tc_conv.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;

static float uniform(void)
{
    return tl_uniform(&rng);
}

/* ---- 1. the split ---- */

static double model_product(float a, float b)
{
    float ab, as, bb, bs;
    ct_tc_split(a, &ab, &as);
    ct_tc_split(b, &bb, &bs);
    /* Each tensor-core product is exact (TF32 x TF32 fits in fp32's
     * significand); the three are summed in fp32. */
    float p = (float)((double)ct_tc_tf32(as) * (double)bb);
    p += (float)((double)ab * (double)ct_tc_tf32(bs));
    p += (float)((double)ab * (double)bb);
    return p;
}

static void test_split(void)
{
    double worst = 0;
    for (int i = 0; i < 100000; i++) {
        float x = uniform() * ldexpf(1.0f, (int)(ct_rand_next(&rng) % 40) - 20);
        float big, small;
        ct_tc_split(x, &big, &small);
        uint32_t u;
        memcpy(&u, &big, 4);
        CHECK_MSG((u & 0x1fffu) == 0, "big part of %a has low mantissa bits", (double)x);
        CHECK_MSG(big + small == x, "%a != %a + %a", (double)x, (double)big, (double)small);
        float y = uniform();
        double exact = (double)x * (double)y, err = fabs(model_product(x, y) - exact);
        if (exact != 0 && err / fabs(exact) > worst)
            worst = err / fabs(exact);
    }
    /* small's truncation, the dropped small*small and the fp32 sum of the
     * three: each below 2^-20 of the product. */
    const double bound = 3 * ldexp(1.0, -20);
    CHECK_MSG(worst <= bound, "3xTF32 product error %.3g exceeds 3 * 2^-20", worst);

    /* A long reduction: 3xTF32 with round-to-nearest sums passes the 1e-5
     * verification bar, one TF32 product per term does not. */
    enum { K = 4096 };
    double num3 = 0, num1 = 0, den = 0;
    for (int o = 0; o < 64; o++) {
        double exact = 0;
        float s3 = 0, s1 = 0;
        for (int k = 0; k < K; k++) {
            float a = uniform(), b = uniform();
            exact += (double)a * (double)b;
            s3 += (float)model_product(a, b);
            s1 += (float)((double)ct_tc_tf32(a) * (double)ct_tc_tf32(b));
        }
        num3 += (s3 - exact) * (s3 - exact);
        num1 += (s1 - exact) * (s1 - exact);
        den += exact * exact;
    }
    double e3 = sqrt(num3 / den), e1 = sqrt(num1 / den);
    CHECK_MSG(e3 <= 1e-5, "3xTF32 dot products: relative L2 error %.3g", e3);
    CHECK_MSG(e1 > 1e-5, "plain TF32 dot products should miss 1e-5, got %.3g", e1);
    printf("split: worst product error %.2g (bound %.2g); K=%d dot products: 3xTF32 %.2g, TF32 %.2g\n", worst,
           bound, K, e3, e1);

    /* Single pass (tf32): one mma per step of operands rounded to nearest
     * into the running sums, which the tensor cores add to truncating
     * toward zero (modelled as one truncation per step of 8 products, each
     * product exact). A 9216-long reduction (1024 channels of a 3x3 layer)
     * stays within 2^-10. */
    enum { K1 = 9216 };
    double num = 0, dn = 0;
    for (int o = 0; o < 32; o++) {
        double exact = 0;
        float acc = 0;
        for (int k = 0; k < K1; k += 8) {
            double step = acc;
            for (int q = 0; q < 8; q++) {
                float a = uniform(), b = uniform();
                exact += (double)a * (double)b;
                step += (double)ct_tf32_round(a) * (double)ct_tf32_round(b);
            }
            float r = (float)step;   /* to nearest; then toward zero */
            if (fabs((double)r) > fabs(step))
                r = nextafterf(r, 0.0f);
            acc = r;
        }
        num += (acc - exact) * (acc - exact);
        dn += exact * exact;
    }
    const double e1p = sqrt(num / dn), tol = ct_dtype_tolerance(CT_DTYPE_TF32, 1e-5);
    CHECK_MSG(e1p <= tol, "single-pass tf32 K=%d: relative L2 error %.3g over %.3g", K1, e1p, tol);
    CHECK_MSG(e1p > 1e-5, "single-pass tf32 K=%d: %.3g is not TF32's rounding", K1, e1p);
    printf("single pass: K=%d tf32 dot products on the tensor cores alone %.2g (tolerance %.2g)\n", K1, e1p, tol);
}

/* ---- 2. the replay ---- */

/* The kernel's work for one candidate, block by block, as ct_conv_tc.cuh
 * writes it; products in double so that only the indexing can go wrong. */
static void replay(const ct_template *t, const ct_tc_shape *s, int cl, int tf32, const ct_params *c,
                   const float *in, const float *w, const float *bias, double *out, size_t count)
{
    ct_tc_geom g;
    ct_tc_geometry_of(t, s, c, &g);
    const long long korder = g.korder, khw = g.khw, ck = g.ck;
    const int avec = korder == 0 && (s->cin * khw) % 4 == 0 && g.kcr % 4 == 0 ? 4 : 1;
    const long long npix = g.toh * g.tow, ty = g.ty, tx = g.tx;
    double *ws = malloc((size_t)g.split * count * sizeof *ws);
    int *koff = malloc((size_t)g.kc * sizeof *koff);
    float *sa = malloc((size_t)(g.bm * g.ap) * sizeof *sa), *sb = malloc((size_t)(ck * g.plane) * sizeof *sb);
    double *part = malloc((size_t)(g.bm * g.bn) * sizeof *part);
    for (size_t i = 0; i < (size_t)g.split * count; i++)
        ws[i] = NAN;
    for (long long kk = 0; kk < g.kc; kk++) {
        long long off = 0;
        if (kk < g.kcr) {
            long long ci = korder ? kk % ck : kk / khw, tap = korder ? kk / ck : kk % khw;
            off = ci * g.plane + tap / s->kw * s->dy * g.iw + tap % s->kw * s->dx;
        }
        koff[kk] = (int)off;
    }
    for (long long bx = 0; bx < s->b * ty * tx; bx++)
        for (long long by = 0; by * g.bm < s->cout; by++)
            for (long long bz = 0; bz < g.split; bz++) {
                const long long tile = bx % (ty * tx), b = bx / (ty * tx);
                const long long oy0 = tile / tx * g.toh, ox0 = tile % tx * g.tow, co0 = by * g.bm;
                const long long iy0 = oy0 * s->sy - s->ph, ix0 = ox0 * s->sx - s->pw;
                const long long ch0 = bz * g.nch / g.split, ch1 = (bz + 1) * g.nch / g.split;
                for (long long i = 0; i < g.bm * g.ap; i++)
                    sa[i] = (i % g.ap) >= g.kcr && (i % g.ap) < g.kc ? 0.0f : NAN;
                for (long long i = 0; i < ck * g.plane; i++)
                    sb[i] = NAN;
                for (long long i = 0; i < g.bm * g.bn; i++)
                    part[i] = 0;
                for (long long ch = ch0; ch < ch1; ch++) {
                    const long long ci0 = ch * ck;
                    for (long long idx = 0; idx < g.bm * g.kcr / avec; idx++) {
                        const long long m = idx / (g.kcr / avec), q0 = idx % (g.kcr / avec) * avec;
                        for (long long v = 0; v < avec; v++) {
                            const long long q = q0 + v, kk = korder ? (q % khw) * ck + q / khw : q;
                            const int ok = co0 + m < s->cout && ci0 + q0 / khw < s->cin;
                            sa[m * g.ap + kk] = ok ? w[((co0 + m) * s->cin + ci0) * khw + q] : 0.0f;
                        }
                    }
                    /* channels last (cl): the channel fastest over the threads */
                    for (long long idx = 0; idx < ck * g.ih * g.iw; idx++) {
                        const long long cc = cl ? idx % ck : idx / (g.ih * g.iw);
                        const long long r = cl ? idx / ck / g.iw : idx % (g.ih * g.iw) / g.iw;
                        const long long x = cl ? idx / ck % g.iw : idx % g.iw;
                        const long long iy = iy0 + r, ix = ix0 + x;
                        const int ok = ci0 + cc < s->cin && iy >= 0 && iy < s->h && ix >= 0 && ix < s->w;
                        const long long at = cl ? ((b * s->h + iy) * s->w + ix) * s->cin + ci0 + cc
                                                : ((b * s->cin + ci0 + cc) * s->h + iy) * s->w + ix;
                        sb[cc * g.plane + r * g.iw + x] = ok ? in[at] : 0.0f;
                    }
                    for (long long n = 0; n < g.bn; n++) {
                        const long long noff = n < npix ? n / g.tow * s->sy * g.iw + n % g.tow * s->sx : 0;
                        for (long long m = 0; m < g.bm; m++)
                            for (long long kk = 0; kk < g.kc; kk++) {
                                /* single pass: both operands rounded (cvt.rna), as the fragments are */
                                const float a = sa[m * g.ap + kk], x = sb[noff + koff[kk]];
                                part[m * g.bn + n] += tf32 ? (double)ct_tf32_round(a) * (double)ct_tf32_round(x)
                                                           : (double)a * (double)x;
                            }
                    }
                }
                for (long long m = 0; m < g.bm; m++)
                    for (long long n = 0; n < npix; n++) {
                        const long long co = co0 + m, oy = oy0 + n / g.tow, ox = ox0 + n % g.tow;
                        const long long at = cl ? ((b * s->oh + oy) * s->ow + ox) * s->cout + co
                                                : ((b * s->cout + co) * s->oh + oy) * s->ow + ox;
                        if (co < s->cout && oy < s->oh && ox < s->ow)
                            ws[bz * count + (size_t)at] = part[m * g.bn + n] + (g.split == 1 && bias ? bias[co] : 0.0);
                    }
            }
    for (size_t i = 0; i < count; i++) {
        double v = 0;
        for (long long z = 0; z < g.split; z++)
            v += ws[z * count + i];
        if (g.split > 1 && bias)
            v += bias[i / (size_t)(cl ? 1 : s->oh * s->ow) % (size_t)s->cout];
        out[i] = v;
    }
    free(ws);
    free(koff);
    free(sa);
    free(sb);
    free(part);
}

/* The tc shape of a problem, as the families describe it (fields by name). */
static ct_tc_shape shape_of(const ct_problem *p)
{
    const long long b = ct_problem_value(p, "B"), cin = ct_problem_value(p, "Cin"), cout = ct_problem_value(p, "Cout");
    const int bias = (int)ct_problem_value(p, "bias");
    ct_define defs[CT_MAX_DEFINES];
    int nd = p->family->defines(p, defs);
    long long v[32] = {0};
    const char *names[] = {"CONV_OH", "CONV_OW", "CONV_PH", "CONV_PW", "CONV_LOUT", "CONV_PAD"};
    for (int i = 0; i < nd; i++)
        for (int k = 0; k < 6; k++)
            if (!strcmp(defs[i].name, names[k]))
                v[k] = defs[i].value;
    if (!strcmp(p->family->name, "conv2dc"))
        return (ct_tc_shape){.b = b, .cin = cin, .h = ct_problem_value(p, "H"), .w = ct_problem_value(p, "W"),
                             .cout = cout, .kh = ct_problem_value(p, "KH"), .kw = ct_problem_value(p, "KW"),
                             .oh = v[0], .ow = v[1], .ph = v[2], .pw = v[3], .sy = ct_problem_value(p, "SH"),
                             .sx = ct_problem_value(p, "SW"), .dy = ct_problem_value(p, "DH"),
                             .dx = ct_problem_value(p, "DW"), .bias = bias};
    return (ct_tc_shape){.b = b, .cin = cin, .h = 1, .w = ct_problem_value(p, "L"), .cout = cout, .kh = 1,
                         .kw = ct_problem_value(p, "K"), .oh = 1, .ow = v[4], .ph = 0, .pw = v[5], .sy = 1, .sx = 1,
                         .dy = 1, .dx = 1, .bias = bias};
}

/* Up to n admissible candidates of template t drawn at random from its
 * value lists (normalised and constrained as the space does): a seeded
 * sample without building a space of 10^5 vectors. */
static int sample_candidates(const ct_problem *p, const ct_template *t, const ct_config *cfg, const ct_limits *lim,
                             int n, ct_params *out)
{
    int got = 0;
    for (int tries = 0; tries < 2000 && got < n; tries++) {
        ct_params c = {0};
        for (int i = 0; i < t->nparams; i++) {
            const ct_space_list *l = ct_config_list(cfg, t, t->params[i].name);
            if (!l)
                return 0;
            ct_params_set(&c, t->params[i].name, l->vals[ct_rand_next(&rng) % (unsigned long long)l->nvals], NULL);
        }
        if (p->family->normalize)
            p->family->normalize(p, t, &c);
        char why[256];
        if (!p->family->constrain(p, t, &c, lim, why, sizeof why))
            out[got++] = c;
    }
    return got;
}

static void test_replay(const char *spec, const char *tmpl, int samples, const ct_config *cfg, const ct_limits *lim)
{
    ct_problem p;
    ct_err e = {0};
    CHECK_MSG(ct_problem_parse(spec, &p, &e) == CT_OK, "%s: %s", spec, e.msg);
    const ct_template *t = ct_template_find(p.family, tmpl);
    ct_params cand[16];
    const int ncand = t ? sample_candidates(&p, t, cfg, lim, samples < 16 ? samples : 16, cand) : 0;
    CHECK_MSG(ncand > 0, "%s: %s admits no candidate", spec, tmpl);
    ct_buffer bufs[CT_MAX_BUFS];
    int nb = p.family->buffers(&p, bufs);
    float *host[CT_MAX_BUFS] = {0};
    for (int i = 0; i < nb - 1; i++) {
        host[i] = malloc(bufs[i].count * sizeof(float));
        for (size_t k = 0; k < bufs[i].count; k++)
            host[i][k] = uniform();
    }
    const size_t count = bufs[nb - 1].count;
    double *ref = malloc(count * sizeof *ref), *got = malloc(count * sizeof *got);
    p.family->reference(&p, (const float *const *)host, ref);
    const ct_tc_shape s = shape_of(&p);
    const int tf32 = ct_problem_dtype(&p) == CT_DTYPE_TF32;
    int worst_i = -1;
    double worst = 0, best = INFINITY;
    for (int i = 0; i < ncand; i++) {
        /* a tf32 candidate sizes no groups of mma steps */
        CHECK_MSG(!tf32 || ct_params_get(&cand[i], "ACC_STEPS", 0) == 1, "%s: ACC_STEPS %ld not normalised to 1",
                  spec, ct_params_get(&cand[i], "ACC_STEPS", 0));
        replay(t, &s, ct_problem_value(&p, "layout") > 0, tf32, &cand[i], host[0], host[1], nb == 4 ? host[2] : NULL,
               got, count);
        double num = 0, den = 0;
        for (size_t k = 0; k < count; k++) {
            num += (got[k] - ref[k]) * (got[k] - ref[k]);
            den += ref[k] * ref[k];
        }
        double err = isnan(num) ? INFINITY : sqrt(num / den);
        if (!(err <= worst)) {
            worst = err;
            worst_i = i;
        }
        if (err < best)
            best = err;
    }
    char key[512] = "";
    if (worst_i >= 0)
        ct_params_to_key(&cand[worst_i], key, sizeof key);
    /* fp32: only the indexing can go wrong; tf32: the operands' rounding
     * within the type's tolerance, and present (the rounded path ran). */
    const double bar = tf32 ? ct_dtype_tolerance(CT_DTYPE_TF32, 1e-5) : 1e-12;
    CHECK_MSG(worst <= bar, "%s %s: replay error %.3g for %s (bar %.3g)", spec, tmpl, worst, key, bar);
    CHECK_MSG(!tf32 || best > 1e-6, "%s %s: replay error %.3g shows no TF32 rounding", spec, tmpl, best);
    printf("replay %-40s %-16s %2d candidates, worst relative error %.2g\n", spec, tmpl, ncand, worst);
    for (int i = 0; i < nb - 1; i++)
        free(host[i]);
    free(ref);
    free(got);
}

/* ---- 3. the shape grid ---- */

/* Whether some candidate of template t is admissible: the space's whole
 * odometer, normalisation and constraints, stopping at the first. */
static int any_admissible(const ct_problem *p, const ct_template *t, const ct_config *cfg, const ct_limits *lim,
                          char *why, size_t len)
{

    const ct_space_list *lists[CT_MAX_PARAMS];
    long long full = 1;
    for (int i = 0; i < t->nparams; i++) {
        lists[i] = ct_config_list(cfg, t, t->params[i].name);
        if (!lists[i])
            return 0;
        full *= lists[i]->nvals;
    }
    int idx[CT_MAX_PARAMS] = {0};
    for (long long combo = 0; combo < full; combo++) {
        ct_params c = {0};
        for (int i = 0; i < t->nparams; i++)
            ct_params_set(&c, t->params[i].name, lists[i]->vals[idx[i]], NULL);
        for (int i = t->nparams - 1; i >= 0; i--) {
            if (++idx[i] < lists[i]->nvals)
                break;
            idx[i] = 0;
        }
        if (p->family->normalize)
            p->family->normalize(p, t, &c);
        if (!p->family->constrain(p, t, &c, lim, why, len))
            return 1;
    }
    return 0;
}

static int grid_covered(const char *spec, const ct_config *cfg, const ct_limits *lim, const char *arch)
{
    ct_problem p;
    ct_err e = {0};
    if (ct_problem_parse(spec, &p, &e) != CT_OK)
        return -1;   /* outside the grammar (too large, filter past the image) */
    /* first holds a template's name (a stored record's tmpl, 64 bytes, holds
     * every one), ": " and a whole why. */
    char why[256] = "", first[64 + 2 + sizeof why] = "";
    /* A few random draws of each tuned template first (fast where many are
     * admissible), then the exhaustive walk. */
    for (int i = 0; i < p.family->ntemplates; i++) {
        ct_params one;
        if (!p.family->templates[i].is_baseline &&
            !ct_template_refuses_dtype(&p, &p.family->templates[i], why, sizeof why) &&
            sample_candidates(&p, &p.family->templates[i], cfg, lim, 1, &one) == 1)
            return 1;
    }
    for (int i = 0; i < p.family->ntemplates; i++) {
        const ct_template *t = &p.family->templates[i];
        if (t->is_baseline || ct_template_refuses_dtype(&p, t, why, sizeof why))
            continue;
        if (any_admissible(&p, t, cfg, lim, why, sizeof why))
            return 1;
        if (!first[0])
            snprintf(first, sizeof first, "%s: %s", t->name, why);
    }
    CHECK_MSG(0, "%s on %s: no tuned template admits a candidate (%s)", spec, arch, first);
    return 0;
}

static void test_grid(const ct_config *cfg)
{
    static const char *const archs[] = {"sm_80", "sm_90"};
    static const long long ch[] = {1, 3, 12, 64, 1024}, sz[] = {1, 7, 16, 33}, kk[] = {1, 3, 4, 11},
                           bt[] = {1, 3, 256};
    int covered = 0, outside = 0;
    for (int a = 0; a < 2; a++) {
        ct_limits lim;
        ct_err e = {0};
        CHECK(ct_limits_for_arch(archs[a], &lim, &e) == CT_OK);
        unsigned long long st = 77;
        char spec[160];
        /* A seeded walk over the grid of each family: every value of every
         * field appears, with the corners (all smallest, all largest). */
        for (int n = 0; n < 160; n++) {
            const int corner = n < 2;
#define PICK(arr) (corner ? (arr)[n ? sizeof(arr) / sizeof((arr)[0]) - 1 : 0] \
                          : (arr)[ct_rand_next(&st) % (sizeof(arr) / sizeof((arr)[0]))])
            long long b = PICK(bt), cin = PICK(ch), cout = PICK(ch), h = PICK(sz), w = PICK(sz) + (n % 2);
            long long kh = PICK(kk), kw = PICK(kk), l = PICK(sz) * 64 + (n % 3);
            const char *mode = n % 2 ? "same" : "valid", *bias = n % 3 ? ":bias" : "";
            const int cl = n % 4 == 1;   /* channels last, every fourth */
            int r;
            snprintf(spec, sizeof spec, "conv2dc:%lld:%lld:%lld:%lld:%lld:%lld:%lld:%s%s%s", b, cin, h, w, cout, kh,
                     kw, mode, bias, cl ? ":nhwc" : "");
            r = grid_covered(spec, cfg, &lim, archs[a]);
            covered += r == 1, outside += r < 0;
            snprintf(spec, sizeof spec, "conv1dc:%lld:%lld:%lld:%lld:%lld:pad=%lld%s%s", b, cin, l, cout, kw,
                     n % 2 ? kw / 2 : 0, bias, cl ? ":nlc" : "");
            r = grid_covered(spec, cfg, &lim, archs[a]);
            covered += r == 1, outside += r < 0;
            /* The layer fields: stride, dilation, groups (depthwise among
             * them), padding and causal; a draw outside the grammar (a
             * dilated filter past the image) counts as outside. */
            static const long long sv[] = {1, 2, 3}, dl[] = {1, 2, 8}, gr[] = {1, 2, 4, 0};
            const long long sy = PICK(sv), sx = PICK(sv), dy = PICK(dl), g = PICK(gr);
            const long long gg = g ? g : cin, gcin = cin % gg ? cin * gg : cin, gcout = g ? cout * gg : cin;
            snprintf(spec, sizeof spec, "conv2dc:%lld:%lld:%lld:%lld:%lld:%lld:%lld:pad=%lld,%lld:stride=%lld,%lld:"
                     "dilation=%lld,1:groups=%lld%s", b, gcin, h + 8, w + 8, gcout, kh, kw, dy * (kh - 1) / 2, kw / 2,
                     sy, sx, dy, gg, bias);
            r = grid_covered(spec, cfg, &lim, archs[a]);
            covered += r == 1, outside += r < 0;
            snprintf(spec, sizeof spec, "conv1dc:%lld:%lld:%lld:%lld:%lld:%s:stride=%lld:dilation=%lld:groups=%lld%s",
                     b, gcin, l, gcout, kw, n % 2 ? "causal" : "pad=0", sx, dy, gg, bias);
            r = grid_covered(spec, cfg, &lim, archs[a]);
            covered += r == 1, outside += r < 0;
            snprintf(spec, sizeof spec, "conv2d:%lld:%lld:%lld:%lld:%lld:%s", b, h * 8 + n % 5, w * 8, kh, kw, mode);
            r = grid_covered(spec, cfg, &lim, archs[a]);
            covered += r == 1, outside += r < 0;
            snprintf(spec, sizeof spec, "conv1d:%lld:%lld:%s", l * b, kw * (n % 4 ? 1 : 187),
                     n % 3 == 0 ? "right" : mode);
            r = grid_covered(spec, cfg, &lim, archs[a]);
            covered += r == 1, outside += r < 0;
#undef PICK
        }
    }
    printf("grid: %d problems with a tuned template, %d outside the grammar\n", covered, outside);
    CHECK(covered > 1000);
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
    double t0 = seconds();
    ct_config cfg;
    ct_err e = {0};
    if (ct_config_init(&cfg, &e) != CT_OK) {
        fprintf(stderr, "config: %s\n", e.msg);
        return 1;
    }
    ct_limits lim;
    CHECK(ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
    test_split();
    static const char *const shapes2d[] = {
        "conv2dc:2:5:9:11:7:3:3:same", "conv2dc:1:3:13:10:20:5:3:valid:bias", "conv2dc:2:19:6:7:33:1:1:valid",
        "conv2dc:1:12:8:9:16:3:3:same:bias", "conv2dc:1:40:5:6:17:2:4:same", "conv2dc:2:9:1:37:10:1:3:valid:bias",
        /* channels last */
        "conv2dc:2:5:9:11:7:3:3:same:nhwc", "conv2dc:2:19:6:7:33:1:1:valid:bias:nhwc",
        "conv2dc:1:40:5:6:17:2:4:same:bias:nhwc",
    };
    static const char *const shapes1d[] = {"conv1dc:2:17:41:9:5:pad=2:bias", "conv1dc:1:40:20:5:1",
                                           "conv1dc:3:33:30:18:4:pad=1", "conv1dc:2:17:41:9:5:pad=2:bias:nlc",
                                           "conv1dc:3:33:30:18:4:pad=1:nlc"};
    for (size_t i = 0; i < sizeof shapes2d / sizeof shapes2d[0]; i++) {
        test_replay(shapes2d[i], "conv2dc_tc", 8, &cfg, &lim);
        if (i != 1)   /* 3 input channels are one chunk: nothing to split */
            test_replay(shapes2d[i], "conv2dc_tcsplit", 6, &cfg, &lim);
    }
    for (size_t i = 0; i < sizeof shapes1d / sizeof shapes1d[0]; i++) {
        test_replay(shapes1d[i], "conv1dc_tc", 8, &cfg, &lim);
        test_replay(shapes1d[i], "conv1dc_tcsplit", 6, &cfg, &lim);
    }
    /* tf32: the single-pass kernels, odd channels, both layouts, stride and
     * dilation, bias */
    static const char *const tf32_shapes[] = {
        "conv2dc:2:5:9:11:7:3:3:same:tf32", "conv2dc:1:40:5:6:17:2:4:same:bias:nhwc:tf32",
        "conv2dc:2:12:9:9:20:3:3:pad=1:stride=2:dilation=1,2:tf32", "conv1dc:2:17:41:9:5:pad=2:bias:tf32",
        "conv1dc:3:33:30:18:4:pad=1:nlc:tf32"};
    for (size_t i = 0; i < sizeof tf32_shapes / sizeof tf32_shapes[0]; i++) {
        const int two = tf32_shapes[i][4] == '2';
        test_replay(tf32_shapes[i], two ? "conv2dc_tc" : "conv1dc_tc", 6, &cfg, &lim);
        test_replay(tf32_shapes[i], two ? "conv2dc_tcsplit" : "conv1dc_tcsplit", 4, &cfg, &lim);
    }
    double t1 = seconds();
    test_grid(&cfg);
    printf("split and replay %.1f s, grid %.1f s\n", t1 - t0, seconds() - t1);
    CHECK_DONE();
}
