/* test_problem.c - problem strings (ct_problem_parse, ct_parse_size), the
 * conv1d family's canonical names, counts, buffers, defines, launch geometry
 * and its CPU fp64 reference, checked against a brute-force implementation
 * written here from the definition. No GPU. */
#include "check.h"
#include "problem.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static ct_status parse(const char *spec, ct_problem *p, ct_err *e)
{
    memset(e, 0, sizeof *e);
    return ct_problem_parse(spec, p, e);
}

/* Parse spec, which must succeed with the given canonical form. */
static void expect_ok(const char *spec, const char *canonical, long long n, long long k)
{
    ct_problem p;
    ct_err e;
    ct_status rc = parse(spec, &p, &e);
    CHECK_MSG(rc == CT_OK, "'%s' rejected: %s", spec, e.msg);
    if (rc != CT_OK)
        return;
    CHECK_STR(p.canonical, canonical);
    CHECK_MSG(ct_problem_value(&p, "N") == n && ct_problem_value(&p, "K") == k, "'%s': N=%lld K=%lld, want %lld %lld",
              spec, ct_problem_value(&p, "N"), ct_problem_value(&p, "K"), n, k);
    CHECK(p.family == ct_family_find("conv1d"));
    /* The canonical form parses back to itself. */
    ct_problem q;
    rc = parse(p.canonical, &q, &e);
    CHECK_MSG(rc == CT_OK, "canonical '%s' rejected: %s", p.canonical, e.msg);
    if (rc == CT_OK) {
        CHECK_STR(q.canonical, p.canonical);
        CHECK(ct_problem_equal(&q, &p));
    }
}

/* Parse spec, which must fail with CT_ERR_USAGE and a message containing
 * every one of the (up to two) fragments. */
static void expect_bad(const char *spec, const char *frag, const char *frag2)
{
    ct_problem p;
    ct_err e;
    ct_status rc = parse(spec, &p, &e);
    CHECK_MSG(rc == CT_ERR_USAGE, "'%s': status %d, want CT_ERR_USAGE (canonical '%s')", spec,
              (int)rc, rc == CT_OK ? p.canonical : "");
    if (rc == CT_OK)
        return;
    CHECK_MSG(strstr(e.msg, frag) != NULL, "'%s': message lacks \"%s\": %s", spec, frag, e.msg);
    if (frag2)
        CHECK_MSG(strstr(e.msg, frag2) != NULL, "'%s': message lacks \"%s\": %s", spec, frag2,
                  e.msg);
}

static void size_ok(const char *text, long long want)
{
    ct_err e;
    long long v = -1;
    memset(&e, 0, sizeof e);
    ct_status rc = ct_parse_size(text, "SIZE", 2000000000LL, &v, &e);
    CHECK_MSG(rc == CT_OK && v == want, "ct_parse_size('%s') = %d, %lld; want %lld (%s)", text,
              (int)rc, v, want, e.msg);
}

static void size_bad(const char *text)
{
    ct_err e;
    long long v = 12345;
    memset(&e, 0, sizeof e);
    ct_status rc = ct_parse_size(text, "SIZE", 2000000000LL, &v, &e);
    CHECK_MSG(rc == CT_ERR_USAGE, "ct_parse_size('%s') accepted as %lld", text, v);
    CHECK_MSG(v == 12345, "ct_parse_size('%s') wrote the output on failure", text);
    CHECK_MSG(strstr(e.msg, "SIZE") != NULL, "ct_parse_size('%s'): message lacks the field: %s",
              text, e.msg);
}

/* xorshift64*: the test's own generator, seeded below. */
static uint64_t rng_state;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [-1, 1), never zero. */
static float uniform(void)
{
    for (;;) {
        float v = (float)((double)(rng() >> 40) / (double)(1ULL << 24) * 2.0 - 1.0);
        if (v != 0.0f && v >= -1.0f && v < 1.0f)
            return v;
    }
}

/* ------------------------------------------------------------------------ */
/* Problem strings                                                          */

static void test_valid_strings(void)
{
    const char *scientific[] = {"conv1d:1e6:2047", "conv1d:1000000:2047",
                                "conv1d:1000000:2047:valid", "conv1d:1E6:2047",
                                "conv1d:10e5:2.047e3"};
    for (size_t i = 0; i < sizeof scientific / sizeof scientific[0]; i++)
        expect_ok(scientific[i], "conv1d:1000000:2047:valid", 1000000, 2047);

    expect_ok("conv1d:2.5e3:3", "conv1d:2500:3:valid", 2500, 3);
    expect_ok("conv1d:15:4:right", "conv1d:15:4:right", 15, 4);
    expect_ok("conv1d:15:4:puzzle", "conv1d:15:4:right", 15, 4);   /* alias of right */
    expect_ok("conv1d:100:7:same", "conv1d:100:7:same", 100, 7);
    expect_ok("conv1d:100:8:same", "conv1d:100:8:same", 100, 8);
    expect_ok("conv1d:5:5", "conv1d:5:5:valid", 5, 5);              /* K = N valid */
    expect_ok("conv1d:1:1", "conv1d:1:1:valid", 1, 1);
    expect_ok("conv1d:5:6:same", "conv1d:5:6:same", 5, 6);          /* K > N allowed */
    expect_ok("conv1d:5:60:right", "conv1d:5:60:right", 5, 60);
    /* A sign is refused like a leading space and pad=+0: a size is digits. */
    expect_bad("conv1d:+5:3", "must be a positive integer, got '+5'", NULL);
    expect_bad("conv1d:1000000:+2047:valid", "got '+2047'", NULL);
    expect_ok("conv1d:2e9:3", "conv1d:2000000000:3:valid", 2000000000LL, 3);   /* the limit */
    expect_ok("conv1d:2000000000:2000000000", "conv1d:2000000000:2000000000:valid",
              2000000000LL, 2000000000LL);

    /* Modes. */
    ct_problem v, s, r, z;
    ct_err e;
    CHECK(parse("conv1d:15:4", &v, &e) == CT_OK);
    CHECK(parse("conv1d:15:4:same", &s, &e) == CT_OK);
    CHECK(parse("conv1d:15:4:right", &r, &e) == CT_OK);
    CHECK(parse("conv1d:15:4:puzzle", &z, &e) == CT_OK);
    const long long mv = ct_problem_value(&v, "mode"), ms = ct_problem_value(&s, "mode");
    const long long mr = ct_problem_value(&r, "mode");
    CHECK(mv >= 0 && ms >= 0 && mr >= 0 && mv != ms && mv != mr && ms != mr);
    CHECK(ct_problem_value(&z, "mode") == mr);
}

/* The reasons and echoes of the 2026-11-26 probe: a dilated filter blamed
 * on its span, not on K (G036, G037, and conv2dc's); a layout on a family
 * without one (G072, G075); a huge spec echoed bounded with the reason
 * (G122); a control character echoed escaped, one line (G125). */
static void test_probe_messages(void)
{
    expect_bad("conv1dc:1:1:3:1:3:dilation=2", "the dilated filter spans 5 taps (K=3, dilation=2)",
               "L + 2 * pad = 3");
    expect_bad("conv1dc:1:4:8:4:3:dilation=5", "the dilated filter spans 11 taps (K=3, dilation=5)",
               "L + 2 * pad = 8");
    expect_bad("conv1dc:1:1:2:1:3", "K (kernel taps) = 3 is longer than the padded input", NULL);   /* no dilation */
    expect_bad("conv2dc:1:1:3:3:1:3:3:dilation=2", "the dilated filter spans 5 (KH=3, dilation=2)",
               "H (image height) = 3 in valid mode");
    expect_bad("conv2dc:1:1:8:3:1:3:3:pad=1:dilation=1,3", "the dilated filter spans 7 (KW=3, dilation=3)",
               "W (image width) + 2 * pad = 5");
    expect_bad("conv1d:100:3:same:nlc", "conv1d has no layout ('nlc' is a layout of conv1dc", NULL);
    expect_bad("conv2d:1:64:64:3:3:same:nhwc", "conv2d has no layout ('nhwc' is a layout of conv2dc", NULL);
    expect_bad("conv1d:100:3:ncl:same", "conv1d has no layout", NULL);
    ct_problem p;
    ct_err e;
    size_t n = 100000;
    char *big = malloc(n + 16);
    memcpy(big, "conv1d:", 7);
    memset(big + 7, '1', n);
    strcpy(big + 7 + n, ":3");
    CHECK(parse(big, &p, &e) == CT_ERR_USAGE);
    CHECK_MSG(strlen(e.msg) < 200 && strstr(e.msg, "too long (100009 characters, at most 255)") &&
                  strstr(e.msg, "'conv1d:1111") && strstr(e.msg, "...'"), "%s", e.msg);
    free(big);
    static const char *const ctl[] = {"conv1d:10:3\nsame", "conv1d:10\t:3", "\033[2Jconv1d:10:3", "conv1d:10:3\r"};
    for (size_t i = 0; i < sizeof ctl / sizeof ctl[0]; i++) {
        CHECK(parse(ctl[i], &p, &e) == CT_ERR_USAGE);
        int raw = 0;
        for (const char *c = e.msg; *c; c++)
            raw += (unsigned char)*c < 0x20;
        CHECK_MSG(!raw && strstr(e.msg, "a control character"), "raw control character in: %s", e.msg);
    }
    CHECK(parse("conv1d:10:3\nsame", &p, &e) == CT_ERR_USAGE && strstr(e.msg, "'conv1d:10:3\\nsame'"));
}

static void test_invalid_strings(void)
{
    static const struct {
        const char *spec, *frag, *frag2;
    } bad[] = {
        {"", "empty", NULL},
        {"conv1d", "missing", NULL},
        {"conv1d:", "missing", "K (mask taps)"},
        {"conv1d:10", "missing", "K (mask taps)"},
        {"conv1d:0:3", "N (input length)", "positive"},
        {"conv1d:-5:3", "N (input length)", "positive"},
        {"conv1d:10:0", "K (mask taps)", "positive"},
        {"conv1d:1.5e0:1", "N (input length)", "integer"},
        {"conv1d:10:2.5", "K (mask taps)", "integer"},
        {"conv1d:1e99:3", "N (input length)", "too large"},
        {"conv1d:99999999999999999999999:3", "N (input length)", "too large"},
        {"conv1d:3000000000:3", "N (input length)", "too large"},
        {"conv1d:2000000001:3", "N (input length)", "too large"},
        {"conv1d:10:3000000000:same", "K (mask taps)", "too large"},
        {"conv1d:abc:3", "N (input length)", "abc"},
        {"conv1d:10:3:diagonal", "MODE", "diagonal"},
        {"conv1d:10:3:valid:x", "too many fields", NULL},
        {"conv1d:10:3:same:right:x", "too many fields", NULL},
        {"conv1d:5:6", "K (mask taps)", "valid"},          /* K > N in valid mode */
        {"conv1d:5:6:valid", "K (mask taps)", "N (input length)"},
        {"conv2x:1:1", "unknown family", "conv2x"},
        {"conv1d:1e:3", "N (input length)", NULL},
        {"conv1d: 10:3", "N (input length)", NULL},
        {"conv1d:10 :3", "N (input length)", NULL},
        {"conv1d:10:3:", "MODE", NULL},
        {"conv1d::3", "N (input length)", NULL},
        {"conv1d:10:", "K (mask taps)", NULL},
        {"conv1d:10:3:VALID", "MODE", NULL},
        {"conv1d:0x10:3", "N (input length)", NULL},
        {"Conv1d:10:3", "unknown family", NULL},
        {":10:3", "unknown family", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_bad(bad[i].spec, bad[i].frag, bad[i].frag2);

    /* Fields too long for the family's buffer are refused, not truncated. */
    char longspec[300] = "conv1d:";
    memset(longspec + 7, '1', 200);
    longspec[207] = '\0';
    strcat(longspec, ":3");
    ct_problem p;
    ct_err e;
    CHECK(parse(longspec, &p, &e) == CT_ERR_USAGE);

    /* A long family name is refused without overrunning anything. */
    char longfam[200];
    memset(longfam, 'c', 150);
    strcpy(longfam + 150, ":10:3");
    CHECK(parse(longfam, &p, &e) == CT_ERR_USAGE);
    CHECK(strstr(e.msg, "unknown family") != NULL);

    /* A failed parse leaves no family behind. */
    CHECK(parse("conv1d:10:3:diagonal", &p, &e) == CT_ERR_USAGE);
    CHECK(p.family == NULL);
    test_probe_messages();
}

static void test_parse_size(void)
{
    size_ok("1e6", 1000000);
    size_ok("1E6", 1000000);
    size_ok("10e-1", 1);
    size_ok("1.000e3", 1000);
    size_ok("2.5e3", 2500);
    size_ok("1e+2", 100);
    size_ok("1e0", 1);
    size_ok("100e-2", 1);
    size_ok("0005", 5);
    size_ok("5.", 5);
    size_ok("5.0", 5);
    size_ok(".5e1", 5);
    size_ok("2e9", 2000000000LL);
    size_ok("2000000000", 2000000000LL);
    size_ok("1", 1);

    size_bad("1.5");
    size_bad("+5");
    size_bad("1e-1");
    size_bad("0e5");
    size_bad("0x10");
    size_bad("1e");
    size_bad("1e+");
    size_bad("");
    size_bad("-0");
    size_bad("-5");
    size_bad("0");
    size_bad("0.0");
    size_bad("+");
    size_bad(".");
    size_bad("e5");
    size_bad("1..0");
    size_bad("1e5.0");
    size_bad("1e2e3");
    size_bad(" 5");
    size_bad("5 ");
    size_bad("2000000001");
    size_bad("2.0000000001e9");
    size_bad("1e10");
    size_bad("1e1000");
    size_bad("1e99999999999999999999");
    size_bad("99999999999999999999999");
    size_bad("inf");
    size_bad("nan");

    /* max is honoured exactly. */
    ct_err e;
    long long v = 0;
    CHECK(ct_parse_size("10", "X", 10, &v, &e) == CT_OK && v == 10);
    CHECK(ct_parse_size("11", "X", 10, &v, &e) == CT_ERR_USAGE);
    CHECK(ct_parse_size("1e1", "X", 10, &v, &e) == CT_OK && v == 10);
    CHECK(ct_parse_size("1.1e1", "X", 10, &v, &e) == CT_ERR_USAGE);
}

/* ------------------------------------------------------------------------ */
/* Reference                                                                */

/* From the definition: out[i] = sum_j x[i+j-OFF] * mask[j], x = 0 outside
 * [0, N). Also returns sum_j |x*mask| per output, the scale of the error. */
static void brute(long long n, long long k, const char *mode, const float *x, const float *m,
                  double *out, double *scale, long long *nout)
{
    long long off = strcmp(mode, "same") == 0 ? (k - 1) / 2 : 0;
    *nout = strcmp(mode, "valid") == 0 ? n - k + 1 : n;
    for (long long i = 0; i < *nout; i++) {
        double acc = 0.0, abs_acc = 0.0;
        for (long long j = 0; j < k; j++) {
            long long xi = i + j - off;
            double xv = xi >= 0 && xi < n ? (double)x[xi] : 0.0;
            acc += xv * (double)m[j];
            abs_acc += fabs(xv * (double)m[j]);
        }
        out[i] = acc;
        scale[i] = abs_acc;
    }
}

static int reference_case(long long n, long long k, const char *mode)
{
    char spec[96];
    snprintf(spec, sizeof spec, "conv1d:%lld:%lld:%s", n, k, mode);
    ct_problem p;
    ct_err e;
    ct_status rc = parse(spec, &p, &e);
    CHECK_MSG(rc == CT_OK, "%s rejected: %s", spec, e.msg);
    if (rc != CT_OK)
        return 1;

    ct_buffer bufs[CT_MAX_BUFS];
    int nb = p.family->buffers(&p, bufs);
    CHECK(nb == 3);
    size_t nout = ct_problem_output_count(&p);
    float *x = malloc((size_t)n * sizeof *x), *m = malloc((size_t)k * sizeof *m);
    double *got = malloc((nout + 8) * sizeof *got);
    double *want = malloc((size_t)n * sizeof *want), *scale = malloc((size_t)n * sizeof *scale);
    if (!x || !m || !got || !want || !scale) {
        CHECK_MSG(0, "out of memory");
        return 1;
    }
    for (long long i = 0; i < n; i++)
        x[i] = uniform();
    for (long long j = 0; j < k; j++)
        m[j] = uniform();
    for (size_t i = 0; i < nout + 8; i++)
        got[i] = 1234.5;   /* sentinel: must be overwritten up to nout, kept after */

    const float *in[2] = {x, m};
    p.family->reference(&p, in, got);
    long long bn = 0;
    brute(n, k, mode, x, m, want, scale, &bn);
    CHECK_MSG((long long)nout == bn, "%s: %zu outputs, want %lld", spec, nout, bn);

    int bad = 0;
    for (long long i = 0; i < bn && i < (long long)nout; i++) {
        double tol = 1e-12 * (scale[i] > 0 ? scale[i] : 1.0);
        if (!(fabs(got[i] - want[i]) <= tol)) {
            if (bad++ < 3)
                CHECK_MSG(0, "%s: out[%lld] = %.17g, want %.17g", spec, i, got[i], want[i]);
        }
        if (!(scale[i] > 0.0))   /* inputs are never zero: every output has a term */
            CHECK_MSG(0, "%s: out[%lld] has no terms", spec, i);
    }
    for (size_t i = nout; i < nout + 8; i++)
        if (got[i] != 1234.5 && bad++ < 3)
            CHECK_MSG(0, "%s: reference wrote past its %zu outputs", spec, nout);
    CHECK_MSG(bad == 0, "%s: %d mismatches", spec, bad);

    free(x);
    free(m);
    free(got);
    free(want);
    free(scale);
    return bad;
}

static void test_reference(void)
{
    const long long ns[] = {1, 2, 3, 7, 16, 33, 100};
    const char *modes[] = {"valid", "same", "right"};
    int cases = 0;
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++) {
        long long n = ns[a];
        const long long ks[] = {1, 2, 3, 5, 8, n};
        for (size_t b = 0; b < sizeof ks / sizeof ks[0]; b++) {
            for (size_t c = 0; c < 3; c++) {
                if (c == 0 && ks[b] > n)
                    continue;   /* K > N is not a valid-mode problem */
                reference_case(n, ks[b], modes[c]);
                cases++;
            }
        }
    }
    /* K much larger than N, and a larger case. */
    reference_case(3, 20, "same");
    reference_case(3, 20, "right");
    reference_case(1000, 257, "same");
    reference_case(1000, 257, "valid");
    CHECK(cases == 7 * 6 * 3 - 10);   /* 10 shapes have K > N */
}

/* Seed 001's puzzles: exact integer results. */
static void puzzle(const char *spec, int n, int k, const double *want)
{
    ct_problem p;
    ct_err e;
    ct_status rc = parse(spec, &p, &e);
    CHECK_MSG(rc == CT_OK, "%s: %s", spec, e.msg);
    if (rc != CT_OK)
        return;
    float a[16], b[4];
    double out[16 + 4];
    for (int i = 0; i < n; i++)
        a[i] = (float)i;
    for (int j = 0; j < k; j++)
        b[j] = (float)j;
    for (int i = 0; i < 20; i++)
        out[i] = -1.0;
    const float *in[2] = {a, b};
    CHECK(ct_problem_output_count(&p) == (size_t)n);
    p.family->reference(&p, in, out);
    for (int i = 0; i < n; i++)
        CHECK_MSG(out[i] == want[i], "%s: out[%d] = %g, want %g", spec, i, out[i], want[i]);
    CHECK(out[n] == -1.0);
}

static void test_puzzles(void)
{
    static const double p1[] = {5, 8, 11, 14, 5, 0};
    static const double p2[] = {14, 20, 26, 32, 38, 44, 50, 56, 62, 68, 74, 80, 41, 14, 0};
    puzzle("conv1d:6:3:right", 6, 3, p1);
    puzzle("conv1d:15:4:puzzle", 15, 4, p2);
    puzzle("conv1d:15:4:right", 15, 4, p2);
}

/* ------------------------------------------------------------------------ */
/* Counts, buffers, defines, geometry                                       */

static long long define_value(const ct_define *d, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(d[i].name, name) == 0)
            return d[i].value;
    CHECK_MSG(0, "no define %s", name);
    return -1;
}

static void test_counts(void)
{
    ct_problem p;
    ct_err e;
    CHECK(parse("conv1d:1e6:2047", &p, &e) == CT_OK);
    const double n = 1e6, k = 2047, nout = n - k + 1;
    CHECK(p.family->flops(&p) == 2.0 * nout * k);
    CHECK(p.family->flops(&p) == 4085623676.0);
    CHECK(p.family->bytes(&p) == 4.0 * (n + k + nout));
    CHECK(p.family->bytes(&p) == 8000004.0);

    /* same/right modes: N outputs, every tap counted. */
    ct_problem s;
    CHECK(parse("conv1d:1000:31:same", &s, &e) == CT_OK);
    CHECK(s.family->flops(&s) == 2.0 * 1000 * 31);
    CHECK(s.family->bytes(&s) == 4.0 * (1000 + 31 + 1000));

    ct_buffer b[CT_MAX_BUFS];
    memset(b, 0, sizeof b);
    int nb = p.family->buffers(&p, b);
    CHECK(nb == 3);
    CHECK(nb <= CT_MAX_BUFS);
    int outputs = 0, with_symbol = 0, out_index = -1;
    for (int i = 0; i < nb; i++) {
        outputs += b[i].is_output != 0;
        if (b[i].is_output)
            out_index = i;
        if (b[i].symbol)
            with_symbol++;
        CHECK(b[i].name != NULL);
    }
    CHECK(outputs == 1);
    CHECK(out_index == nb - 1);   /* inputs come first */
    CHECK(with_symbol == 1);
    CHECK_STR(b[0].name, "in");
    CHECK(b[0].count == 1000000 && !b[0].is_output && b[0].symbol == NULL);
    CHECK_STR(b[1].name, "mask");
    CHECK(b[1].count == 2047 && !b[1].is_output);
    CHECK_STR(b[1].symbol, "c_mask");
    CHECK_STR(b[2].name, "out");
    CHECK(b[2].count == 997954 && b[2].symbol == NULL);
    CHECK(ct_problem_output_count(&p) == 997954);

    /* defines per mode */
    static const struct {
        const char *spec;
        long long n, k, out, off;
    } dm[] = {
        {"conv1d:100:7", 100, 7, 94, 0},
        {"conv1d:100:7:valid", 100, 7, 94, 0},
        {"conv1d:100:7:same", 100, 7, 100, 3},
        {"conv1d:100:8:same", 100, 8, 100, 3},
        {"conv1d:100:7:right", 100, 7, 100, 0},
        {"conv1d:15:4:puzzle", 15, 4, 15, 0},
        {"conv1d:5:9:same", 5, 9, 5, 4},
        {"conv1d:1e6:2047", 1000000, 2047, 997954, 0},
    };
    for (size_t i = 0; i < sizeof dm / sizeof dm[0]; i++) {
        ct_problem q;
        CHECK_MSG(parse(dm[i].spec, &q, &e) == CT_OK, "%s: %s", dm[i].spec, e.msg);
        ct_define d[CT_MAX_DEFINES];
        int nd = q.family->defines(&q, d);
        CHECK(nd == 4 && nd <= CT_MAX_DEFINES);
        CHECK_MSG(define_value(d, nd, "CONV_N") == dm[i].n, "%s CONV_N", dm[i].spec);
        CHECK_MSG(define_value(d, nd, "CONV_K") == dm[i].k, "%s CONV_K", dm[i].spec);
        CHECK_MSG(define_value(d, nd, "CONV_OUT") == dm[i].out, "%s CONV_OUT", dm[i].spec);
        CHECK_MSG(define_value(d, nd, "CONV_OFF") == dm[i].off, "%s CONV_OFF", dm[i].spec);
        CHECK((long long)ct_problem_output_count(&q) == dm[i].out);
    }

    /* geometry: enough blocks to cover every output, one block too many never. */
    const ct_template *naive = ct_template_find(p.family, "conv1d_naive");
    const ct_template *tiled = ct_template_find(p.family, "conv1d_tiled");
    CHECK(naive && tiled && naive->is_baseline && !tiled->is_baseline);
    CHECK(ct_template_find(p.family, "conv1d_nope") == NULL);
    if (naive && tiled) {
        ct_params c = {0};
        ct_params_set(&c, "BLOCK_SIZE", 256, NULL);
        ct_launch l;
        p.family->geometry(&p, naive, &c, &l);
        CHECK(l.block[0] == 256 && l.block[1] == 1 && l.block[2] == 1);
        CHECK(l.grid[0] == (997954 + 255) / 256 && l.grid[1] == 1 && l.grid[2] == 1);
        ct_params_set(&c, "OUTPUTS_PER_THREAD", 8, NULL);
        p.family->geometry(&p, tiled, &c, &l);
        CHECK(l.grid[0] == (997954 + 2047) / 2048);
        CHECK((unsigned long long)l.grid[0] * 2048 >= 997954);
        CHECK((unsigned long long)(l.grid[0] - 1) * 2048 < 997954);
    }

    /* The family registry. */
    const ct_family *const *fams = ct_families();
    CHECK(fams[0] != NULL);
    int nf = 0;
    for (; fams[nf]; nf++)
        CHECK(ct_family_find(fams[nf]->name) == fams[nf]);
    CHECK(nf >= 1);
    CHECK(ct_family_find("conv9d") == NULL);
    const ct_family *f = ct_family_find("conv1d");
    CHECK(f && f->reference_c && strstr(f->reference_c, "ct_reference") != NULL);
    CHECK(f && f->grammar && strstr(f->grammar, "conv1d:N:K") != NULL);
}

/* ------------------------------------------------------------------------ */
/* Field tables                                                             */

/* Problems of every family: together they give every field that is not a
 * size at least two values. */
static const char *const samples[] = {
    "conv1d:1000:7",           "conv1d:1000:7:same",        "conv1d:50:60:right",
    "conv1dc:2:3:50:4:5",      "conv1dc:2:3:50:4:5:pad=2:bias",
    "conv1dc:2:6:50:4:5:causal:stride=2:dilation=3:groups=2", "conv1dc:2:6:50:6:4:causal:groups=6:nlc",
    "conv2d:2:30:31:3:5",      "conv2d:2:30:31:3:5:same",
    "conv2dc:2:3:9:9:4:3:3",   "conv2dc:2:3:9:9:4:3:3:same:bias",
    "conv2dc:2:6:9:9:4:3:3:pad=1,2:stride=2,3:dilation=2,3:groups=2", "conv2dc:2:3:9:9:4:3:3:same:bias:nhwc",
    "conv1d:1000:7:same:bf16", "conv1dc:2:3:50:4:5:pad=2:bias:f16", "conv2d:2:30:31:3:5:f16",
    "conv2dc:2:3:9:9:4:3:3:same:bf16", "conv1dc:2:6:50:6:4:causal:groups=6:nlc:bf16",
    "conv2dc:2:3:9:9:4:3:3:same:bias:nhwc:f16", "conv1dc:2:6:50:6:4:causal:groups=6:nlc:dgrad",
    "conv1dc:2:3:50:4:5:pad=2:bias:wgrad:bf16", "conv2dc:2:3:9:9:4:3:3:same:dgrad", "conv2dc:2:3:9:9:4:3:3:bias:nhwc:wgrad",
};

static void check_table(const ct_family *f)
{
    CHECK_MSG(f->fields && f->nfields > 0 && f->nfields <= CT_MAX_FIELDS, "%s: %d fields", f->name, f->nfields);
    if (!f->fields)
        return;
    int sizes = 0;
    for (int i = 0; i < f->nfields && i < CT_MAX_FIELDS; i++) {
        const ct_field *fd = &f->fields[i];
        CHECK_MSG(fd->name && fd->name[0] && fd->help && fd->help[0], "%s: field %d unnamed", f->name, i);
        if (!fd->name)
            continue;
        CHECK_MSG(ct_field_find(f, fd->name) == i, "%s: field name %s not unique", f->name, fd->name);
        sizes += fd->kind == CT_FIELD_SIZE;
        CHECK_MSG(fd->kind >= CT_FIELD_SIZE && fd->kind <= CT_FIELD_CHOICE, "%s.%s: kind %d", f->name, fd->name,
                  (int)fd->kind);
        if (fd->kind == CT_FIELD_CHOICE) {
            CHECK_MSG(fd->choices && fd->nchoices >= 2, "%s.%s: a choice needs choices", f->name, fd->name);
            for (int c = 0; fd->choices && c < fd->nchoices; c++)
                CHECK_MSG(ct_field_choice(fd, fd->choices[c]) == c, "%s.%s: choice %s not unique", f->name,
                          fd->name, fd->choices[c]);
            CHECK(ct_field_choice(fd, "no-such-choice") == -1);
        } else {
            CHECK_MSG(!fd->choices && !fd->nchoices, "%s.%s: choices on a non-choice", f->name, fd->name);
        }
    }
    CHECK_MSG(sizes > 0, "%s: no size field", f->name);
    CHECK(ct_field_find(f, "no-such-field") == -1);
}

/* q is p with field i moved to another value of its kind. */
static ct_problem moved(const ct_problem *p, int i)
{
    ct_problem q = *p;
    const ct_field *fd = &p->family->fields[i];
    switch (fd->kind) {
    case CT_FIELD_SIZE:
        q.dims[i] *= 2;
        break;
    case CT_FIELD_FLAG:
        q.dims[i] = !q.dims[i];
        break;
    case CT_FIELD_CHOICE:
        q.dims[i] = (q.dims[i] + 1) % fd->nchoices;
        break;
    default:
        q.dims[i] += 1;
    }
    return q;
}

static void test_fields(void)
{
    const ct_family *const *fams = ct_families();
    for (int i = 0; fams[i]; i++) {
        check_table(fams[i]);
        int have = 0;
        for (size_t s = 0; s < sizeof samples / sizeof samples[0]; s++)
            have |= !strncmp(samples[s], fams[i]->name, strlen(fams[i]->name)) &&
                    samples[s][strlen(fams[i]->name)] == ':';
        CHECK_MSG(have, "no sample problem of family %s in test_fields", fams[i]->name);
    }
    for (size_t s = 0; s < sizeof samples / sizeof samples[0]; s++) {
        ct_problem p, q;
        ct_err e;
        if (parse(samples[s], &p, &e) != CT_OK) {
            CHECK_MSG(0, "%s: %s", samples[s], e.msg);
            continue;
        }
        const ct_family *f = p.family;
        /* The canonical string parses back to the same fields. */
        CHECK(parse(p.canonical, &q, &e) == CT_OK && ct_problem_equal(&p, &q) && !strcmp(p.canonical, q.canonical));
        CHECK(ct_problem_compare(&p, &q) == 0 && ct_problem_distance(&p, &q) == 0);
        for (int i = 0; i < f->nfields; i++) {
            const ct_field *fd = &f->fields[i];
            CHECK(ct_problem_value(&p, fd->name) == p.dims[i]);
            const ct_problem m = moved(&p, i);
            CHECK(!ct_problem_equal(&p, &m) && ct_problem_compare(&p, &m) != 0);
            CHECK(ct_problem_compare(&p, &m) == -ct_problem_compare(&m, &p));
            if (fd->kind == CT_FIELD_SIZE) {
                CHECK_MSG(fabs(ct_problem_distance(&p, &m) - log(2.0)) < 1e-12, "%s: %s doubled: distance %g",
                          samples[s], fd->name, ct_problem_distance(&p, &m));
            } else {
                /* Only sizes enter the log-size distance. */
                CHECK_MSG(fabs(ct_problem_size_distance(&p, &m)) < 1e-12, "%s: %s in the size distance", samples[s],
                          fd->name);
                if (!f->distance)
                    CHECK_MSG(ct_problem_distance(&p, &m) == -1, "%s: %s differs, still comparable", samples[s],
                              fd->name);
                int values = 0;
                for (size_t t = 0; t < sizeof samples / sizeof samples[0]; t++)
                    if (parse(samples[t], &q, &e) == CT_OK && q.family == f)
                        values |= 1 << (q.dims[i] != p.dims[i]);
                CHECK_MSG(values == 3, "%s: the samples give %s only one value", f->name, fd->name);
            }
        }
    }
    CHECK(ct_problem_value(&(ct_problem){0}, "N") == -1);

    /* conv1dc's pad and bias were sizes by position once: now two problems
     * that differ only by pad are not comparable, only by Cin at log distance. */
    ct_problem a, b, c;
    ct_err e;
    CHECK(parse("conv1dc:1:1024:16:1024:5", &a, &e) == CT_OK);
    CHECK(parse("conv1dc:1:1024:16:1024:5:pad=2", &b, &e) == CT_OK);
    CHECK(parse("conv1dc:1:256:16:1024:5", &c, &e) == CT_OK);
    CHECK(ct_problem_distance(&a, &b) == -1);
    CHECK(fabs(ct_problem_distance(&a, &c) - log(4.0)) < 1e-12);
    CHECK(ct_problem_value(&b, "pad") == 2 && ct_problem_value(&a, "bias") == 0);
}

int main(void)
{
    const char *env = getenv("CT_TEST_SEED");
    uint64_t seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
    if (seed == 0)
        seed = 0x243F6A8885A308D3ULL;
    printf("seed %llu (set CT_TEST_SEED to repeat)\n", (unsigned long long)seed);
    rng_state = seed;

    test_valid_strings();
    test_invalid_strings();
    test_parse_size();
    test_reference();
    test_puzzles();
    test_counts();
    test_fields();
    CHECK_DONE();
}
