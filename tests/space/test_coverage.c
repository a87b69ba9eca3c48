/* test_coverage.c - no layer is left to the naive kernel alone: for each
 * architecture of sm_75, sm_80, sm_86, sm_89, sm_90 and a seeded sample of
 * forward conv1dc and conv2dc layers (channels 1 to 1024; groups 1, 4
 * channels a group or depthwise; stride 1 to 3, dilation 1 or 2, filters
 * of 1 to 31 taps; both layouts; every element type the architecture has
 * tensor cores or fp32 FMAs for; bf16 on sm_75, which has no bf16 mma,
 * through the fp32-computing conv*_simth), some template other than the
 * baseline has an admissible candidate (ct_space_covered), outside the
 * known gaps named below. Where none can, `convtune space` prints the one
 * line saying that only the baseline will be measured, and why; a covered
 * layer prints no such line. No GPU. */
#include "check.h"
#include "config.h"
#include "problem.h"
#include "proc.h"
#include "runner.h"
#include "space.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CT_BINARY
#define CT_BINARY "convtune"
#endif

/* Layers per architecture: the grid has tens of thousands of points, a
 * fixed-seed sample of them keeps the test to seconds. */
#define SAMPLES 70

static const char *const archs[] = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"};
static const int chans[] = {1, 2, 3, 4, 7, 8, 12, 16, 17, 31, 32, 48, 63, 64, 96, 128, 255, 256, 512, 1024};
static const int taps[] = {1, 2, 3, 4, 5, 7, 9, 11, 15, 31};
static const char *const dtypes[] = {"", ":f16", ":bf16"};

static unsigned long long rng = 0x5eed0c0fe4a9eULL;

static int pick(int n)
{
    return (int)(ct_rand_next(&rng) % (unsigned long long)n);
}

typedef struct layer {
    int twod, c, cout, groups, k, s, d, cl;
    const char *dt;
} layer;

/* One sampled layer of family 2D (conv2dc) or 1D (conv1dc) into spec. */
static void sample_layer(char *spec, size_t len, int twod, layer *y)
{
    const int c = chans[pick((int)(sizeof chans / sizeof chans[0]))];
    const int gk = pick(3);                      /* 0 dense, 1 four channels a group, 2 depthwise */
    const int k = taps[pick((int)(sizeof taps / sizeof taps[0]))];
    const int s = 1 + pick(3), d = k > 1 ? 1 + pick(2) : 1;
    const int cl = pick(2);
    const char *dt = dtypes[pick(3)];
    const int cout = gk == 0 ? chans[pick((int)(sizeof chans / sizeof chans[0]))] : c;
    const int groups = gk == 1 ? (c % 4 == 0 ? c / 4 : 1) : gk == 2 ? c : 1;
    *y = (layer){twod, c, cout, groups, k, s, d, cl, dt};
    const int pad = d * (k - 1) / 2, span = d * (k - 1) + 1;
    const int b = 1 + pick(16);
    if (twod) {
        const int sizes[] = {7, 14, 28, 56};
        int h = sizes[pick(4)];
        if (h + 2 * pad < span)
            h = span;
        snprintf(spec, len, "conv2dc:%d:%d:%d:%d:%d:%d:%d:pad=%d:stride=%d:dilation=%d:groups=%d%s%s", b, c, h, h,
                 cout, k, k, pad, s, d, groups, cl ? ":nhwc" : "", dt);
    } else {
        const int lens[] = {16, 100, 1000, 4096};
        int l = lens[pick(4)];
        if (l + 2 * pad < span)
            l = span;
        snprintf(spec, len, "conv1dc:%d:%d:%d:%d:%d:pad=%d:stride=%d:dilation=%d:groups=%d%s%s", b, c, l, cout, k,
                 pad, s, d, groups, cl ? ":nlc" : "", dt);
    }
}

/* The classes no tuned kernel is known to take on every shape (README,
 * "Coverage"): NULL, or why. For these the test asks only that space says
 * so in its line; every other sampled layer must have a tuned candidate,
 * so that a gap that grows past them fails. */
static const char *known_gap(const layer *y, const ct_limits *lim)
{
    const int cc = lim->cc_major * 10 + lim->cc_minor, half = y->dt[0] != '\0';
    if (y->twod && half && y->k >= 5)
        return "bf16/f16 2D filters of 5x5 taps and up: the mma tiles' windows exceed registers or shared memory";
    if (y->twod && y->k > 15)
        return "2D filters above 15x15 taps";
    if (!y->twod && !strcmp(y->dt, ":f16") && y->k > 15 && cc < 80)
        return "f16 1D filters above 15 taps on sm_75: the mma tiles' windows exceed its 64 KiB of shared memory";
    return NULL;
}

/* Whether space's line says that only the baseline will be measured. */
static int says_baseline_only(const ct_problem *p, const ct_config *cfg, const ct_limits *lim)
{
    ct_space sp;
    ct_err e = {0};
    if (ct_space_build(p, cfg, lim, NULL, &sp, &e) != CT_OK)
        return 0;
    char line[1024];
    const int r = ct_space_baseline_only(p, &sp, lim, line, sizeof line) && strstr(line, "will be measured: ");
    ct_space_free(&sp);
    return r;
}

static void test_grid(const ct_config *cfg)
{
    int checked = 0, gaps = 0, lines = 0;
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
        ct_limits lim;
        ct_err e = {0};
        CHECK(ct_limits_for_arch(archs[a], &lim, &e) == CT_OK);
        for (int i = 0; i < SAMPLES; i++) {
            char spec[256];
            layer y;
            sample_layer(spec, sizeof spec, i % 2 == 0, &y);
            ct_problem p;
            const ct_status rc = ct_problem_parse(spec, &p, &e);
            CHECK_MSG(rc == CT_OK, "%s: %s", spec, e.msg);
            if (rc != CT_OK)
                continue;
            checked++;
            const char *gap = known_gap(&y, &lim);
            if (!gap) {
                CHECK_MSG(ct_space_covered(&p, cfg, &lim), "%s on %s: only the baseline has admissible candidates",
                          spec, archs[a]);
                continue;
            }
            /* A few of the gaps (an uncovered layer walks every template's
             * space) and their lines. */
            if (lines < 4 && !ct_space_covered(&p, cfg, &lim)) {
                lines++;
                CHECK_MSG(says_baseline_only(&p, cfg, &lim), "%s on %s (%s): space gives no baseline-only line",
                          spec, archs[a], gap);
            }
            gaps++;
        }
    }
    printf("%d layers checked, %d of them in a known gap\n", checked, gaps);
    CHECK(checked >= SAMPLES);
}

/* The line of space where only the baseline runs, and its absence where
 * a tuned template does. */
static void test_line(void)
{
    static const struct {
        const char *spec, *arch, *want;
    } cases[] = {
        /* Covered on sm_75 by conv2dc_ffma (dense and grouped layers of any
         * filter, fp32 and bf16), which left no bf16 layer found to the
         * baseline there. */
        {"conv2dc:8:64:28:28:64:31:31:pad=15:bf16", "sm_75", NULL},
        {"conv2dc:8:64:28:28:64:15:15:pad=7:bf16", "sm_90", "no tuned template admits this layer on sm_90 (e.g. "},
        {"conv2dc:8:64:28:28:64:3:3:same:bf16", "sm_80", NULL},
        {"conv2dc:8:64:28:28:64:3:3:same:bf16", "sm_75", NULL},
        {"conv1dc:8:64:500:64:3:nlc:bf16", "sm_75", NULL},
        {"conv2dc:8:64:28:28:64:3:3:same:f16", "sm_75", NULL},
        {"conv2dc:8:64:28:28:64:3:3:same", "sm_75", NULL},
        {"conv2dc:8:64:28:28:64:3:3:same:nhwc", "sm_75", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *argv[] = {CT_BINARY, "space", "--problem", (char *)cases[i].spec, "--arch", (char *)cases[i].arch, NULL};
        tl_result r;
        tl_run(argv, NULL, &r);
        CHECK_MSG(r.code == 0, "space %s --arch %s: exit %d: %s", cases[i].spec, cases[i].arch, r.code, r.err);
        const char *line = strstr(r.out, "only the baseline ");
        if (cases[i].want) {
            CHECK_MSG(line && strstr(line, cases[i].want) && strstr(line, "will be measured"),
                      "space %s --arch %s: no line saying only the baseline runs and why", cases[i].spec,
                      cases[i].arch);
            /* One line, the last. */
            CHECK_MSG(line && tl_count_char(line, strlen(line), '\n') == 1, "%s: the line is not one last line",
                      cases[i].spec);
        } else {
            CHECK_MSG(!line, "space %s --arch %s: says only the baseline runs, yet tuned templates admit it",
                      cases[i].spec, cases[i].arch);
        }
        tl_result_free(&r);
    }
    /* --arch-limit: sm_90 limited to sm_75 is sm_75's space. */
    char *lim75[] = {CT_BINARY, "space", "--problem", "conv2dc:8:64:28:28:64:3:3:same:f16", "--arch", "sm_90",
                     "--arch-limit", "sm_75", NULL};
    char *on75[] = {CT_BINARY, "space", "--problem", "conv2dc:8:64:28:28:64:3:3:same:f16", "--arch", "sm_75", NULL};
    tl_result a, b;
    tl_run(lim75, NULL, &a);
    tl_run(on75, NULL, &b);
    const char *ta = strstr(a.out, "\ntemplate "), *tb = strstr(b.out, "\ntemplate ");
    CHECK_MSG(a.code == 0 && b.code == 0 && ta && tb && !strcmp(ta, tb),
              "space --arch sm_90 --arch-limit sm_75 differs from --arch sm_75");
    tl_result_free(&a);
    tl_result_free(&b);
    char *newer[] = {CT_BINARY, "space", "--problem", "conv2dc:8:64:28:28:64:3:3:same", "--arch", "sm_80",
                     "--arch-limit", "sm_90", NULL};
    tl_run(newer, NULL, &a);
    CHECK_MSG(a.code != 0 && tl_one_line(&a) && a.outlen == 0, "--arch-limit newer than --arch: not one refusal");
    tl_result_free(&a);
}

int main(void)
{
    ct_config cfg;
    ct_err e = {0};
    if (ct_config_init(&cfg, &e) != CT_OK) {
        fprintf(stderr, "ct_config_init: %s\n", e.msg);
        return 1;
    }
    test_grid(&cfg);
    test_line();
    CHECK_DONE();
}
