/* rows.c - the rows of the GPU tests that tune problems through the command
 * line (rows.h). */
#include "rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "db.h"
#include "dtype.h"
#include "gpu.h"

#define sh tl_sh

typedef struct stats {
    int ok, bad, limits, total;
    ct_result best;
    char first_bad[1400];
} stats;

static int count_cb(const ct_result *r, void *user)
{
    stats *s = user;
    s->total++;
    if (r->status == CT_RS_OK) {
        if (s->ok == 0 || r->median_us < s->best.median_us)
            s->best = *r;
        s->ok++;
    } else if (r->status == CT_RS_EXCEEDS_LIMITS) {
        s->limits++;   /* e.g. registers found only at load time: not a bug */
    } else {
        if (!s->bad)
            snprintf(s->first_bad, sizeof s->first_bad, "%.60s %.500s: %.20s %.300s", r->tmpl, r->params_json, ct_result_status_name(r->status), r->error);
        s->bad++;
    }
    return 0;
}

static stats stored(const char *db, const char *problem)
{
    stats s = {0};
    ct_db *h;
    ct_err e;
    if (ct_db_open(db, 0, &h, &e) != CT_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return s;
    }
    ct_query q = {.problem = problem};
    ct_db_query(h, &q, count_cb, &s, &e);
    ct_db_close(h);
    return s;
}

/* CONVTUNE_GPU_PART=I/N runs the I-th of N parts of this test (so that it
 * fits the time limit of one call of a lent GPU machine): the problems
 * whose spec hashes to I-1 modulo N, their tuning and their exports alike.
 * Unset: everything. */
static int in_part(const char *spec)
{
    const char *env = getenv("CONVTUNE_GPU_PART");
    unsigned i = 0, n = 0;
    if (!env || sscanf(env, "%u/%u", &i, &n) != 2 || n == 0 || i < 1 || i > n)
        return 1;
    unsigned h = 2166136261u;
    for (const char *c = spec; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    return h % n == i - 1;
}

/* CONVTUNE_GPU_SPEC=S runs only the rows whose problem string contains S
 * (":tf32"), their tuning and their exports alike. Unset: all. */
static int spec_selected(const char *spec)
{
    const char *want = getenv("CONVTUNE_GPU_SPEC");
    return !want || !*want || strstr(spec, want) != NULL;
}

/* CONVTUNE_GPU_TEMPLATE=S runs only the rows tuned with a template whose
 * name contains S (--template), and the exports of their problems: one
 * template's share of the grid, for a short GPU session. Unset: all. */
static const char *tuned_specs[256];
static int ntuned;

static int template_selected(const char *spec, const char *extra)
{
    const char *want = getenv("CONVTUNE_GPU_TEMPLATE");
    if (!want || !*want)
        return 1;
    if (extra) {
        const char *t = strstr(extra, "--template ");
        char name[128] = "";
        if (t)
            sscanf(t + 11, "%127s", name);
        if (!strstr(name, want))
            return 0;
        if (ntuned < (int)(sizeof tuned_specs / sizeof tuned_specs[0]))
            tuned_specs[ntuned++] = spec;
        return 1;
    }
    for (int i = 0; i < ntuned; i++)
        if (!strcmp(tuned_specs[i], spec))
            return 1;
    return 0;
}

void tl_rows_tune(const char *binary, const char *db, const char *spec, const char *extra)
{
    if (!in_part(spec) || !spec_selected(spec) || !template_selected(spec, extra))
        return;
    ct_problem p;
    ct_err e;
    CHECK_MSG(ct_problem_parse(spec, &p, &e) == CT_OK, "%s: %s", spec, e.msg);
    int rc = sh("%s --problem %s --db %s %s", binary, spec, db, extra);
    CHECK_MSG(rc == 0, "tuning %s exited %d", spec, rc);
    stats s = stored(db, p.canonical);
    CHECK_MSG(s.ok > 0, "%s: no verified candidate", p.canonical);
    const double tol = ct_dtype_tolerance(ct_problem_dtype(&p), 1e-5);
    CHECK_MSG(s.best.relerr >= 0 && s.best.relerr <= tol, "%s: winner relerr %g", p.canonical, s.best.relerr);
    /* The output's own rounding to a half type is an error of at least u/8
     * or so: a smaller one means the output was not written in the type.
     * (A tf32 winner may be an fp32 kernel, exact; but one of the tensor-core
     * kind tc alone is single-pass, its operands' rounding about 2^-12.) */
    CHECK_MSG(!ct_dtype_is_half(ct_problem_dtype(&p)) || s.best.relerr > tol / 64, "%s: relerr %g is not a half's",
              p.canonical, s.best.relerr);
    CHECK_MSG(ct_problem_dtype(&p) != CT_DTYPE_TF32 || !extra || !strstr(extra, "--template ") ||
                  !strstr(s.best.tmpl, "_tc") || strstr(s.best.tmpl, "_tc16") || s.best.relerr > 1e-5,
              "%s: relerr %g of %s is not single-pass TF32's", p.canonical, s.best.relerr, s.best.tmpl);
    /* A wrong, crashing or hanging candidate is a template bug. */
    CHECK_MSG(s.bad == 0, "%s: %d of %d candidates failed, first: %s", p.canonical, s.bad, s.total, s.first_bad);
    /* The half tensor-core ceiling is measured from sm_75 and, on any such
     * GPU, well above the fp32 FMA rate (8x or more from sm_80). */
    if (s.best.cc_major * 10 + s.best.cc_minor >= 75)
        CHECK_MSG(s.best.tc_half_tflops > 2 * s.best.fma_tflops, "%s: tensor-core ceiling %g TFLOP/s, FMA %g",
                  p.canonical, s.best.tc_half_tflops, s.best.fma_tflops);
    const double peak = ct_result_peak_tflops(&s.best);
    printf("%s: %d verified, %d over limits, %d failed; best %.2f us = %.1f%% of %s peak, %.0f GB/s (%s %s)\n",
           p.canonical, s.ok, s.limits, s.bad, s.best.median_us,
           peak > 0 ? 100.0 * s.best.flops / s.best.median_us / 1e6 / peak : 0.0, ct_result_peak_name(&s.best),
           s.best.bytes / s.best.median_us / 1e3, s.best.tmpl, s.best.params_json);
}

/* Each (problem, template) row tuned with that template alone, a random
 * sample seeded by its row. */
void tl_rows_tune_alone(const char *binary, const char *db, const char *const (*rows)[2], size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char extra[128];
        snprintf(extra, sizeof extra, "--template %s --strategy random --budget 30 --seed %zu", rows[i][1], i + 1);
        tl_rows_tune(binary, db, rows[i][0], extra);
    }
}

/* Each export gets its own file names: numbered in call order, so lists
 * added to this test cannot collide. */
void tl_rows_export_selftest(const char *binary, const char *db, const char *dir, const char *spec,
                             const char *arch)
{
    if (!in_part(spec) || !spec_selected(spec) || !template_selected(spec, NULL))
        return;
    static int count;
    const int n = ++count;
    char cu[600];
    snprintf(cu, sizeof cu, "%s/export%d.cu", dir, n);
    CHECK(sh("%s export --problem %s --db %s -o %s", binary, spec, db, cu) == 0);
    /* -O3: the self-test's CPU reference covers the whole problem. */
    /* An executor's export names the library it needs ("link with -lcufft"). */
    int rc = sh("nvcc -O3 %s -DCONVTUNE_SELFTEST %s -o %s/selftest%d $(grep -o 'link with -l[a-z0-9]*' %s | "
                "head -1 | cut -c11-) && %s/selftest%d", arch, cu, dir, n, cu, dir, n);
    CHECK_MSG(rc == 0, "the exported self-test of %s exited %d", spec, rc);
}

