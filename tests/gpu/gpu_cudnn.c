/* gpu_cudnn.c - the vendor baseline in a tuning run, on a GPU with cuDNN:
 * small layers tuned with a tiny budget (fp32, bf16, tf32, dgrad, wgrad
 * with db) must state cuDNN's time, in the report's line and in --json, with
 * a finite time and a relative error within the problem type's tolerance
 * (fp32 TF32 off 1e-5, TF32 on 1e-2, bf16 2^-7 x 4; a tf32 problem is timed
 * once, TF32 on, labelled "TF32"), and a ratio that is
 * cuDNN's time over the winner's. A problem cuDNN cannot describe, a
 * missing library and --baseline none give 'none' with the reason while
 * the run succeeds. The API that gave cuDNN's time (legacy Find or the
 * backend API's engines) is named in --json and the report's line, and
 * where the line states the other API's time too, the one chosen is not
 * the slower. Exits 77 without a GPU or without cuDNN. Timings are
 * printed, never asserted. */
#include <math.h>

#include "cudnndl.h"
#include "db.h"
#include "gpu_common.h"
#include "json.h"
#include "proc.h"

static const char *dir;

/* Tune spec with --json (extra_env: one "NAME=value" or NULL); the parsed
 * summary, NULL after a failed check. The report goes to *report. */
static ct_json *tune(const char *spec, const char *extra_arg, const char *extra_env, int seed, char **report)
{
    char db[600], sd[16];
    snprintf(db, sizeof db, "%s/c.db", dir);
    snprintf(sd, sizeof sd, "%d", seed);
    char *argv[16];
    int n = 0;
    argv[n++] = (char *)CT_BINARY;
    argv[n++] = (char *)"tune";
    argv[n++] = (char *)"--problem";
    argv[n++] = (char *)spec;
    argv[n++] = (char *)"--db";
    argv[n++] = db;
    argv[n++] = (char *)"--budget";
    argv[n++] = (char *)"6";
    argv[n++] = (char *)"--strategy";
    argv[n++] = (char *)"random";
    argv[n++] = (char *)"--seed";
    argv[n++] = sd;
    argv[n++] = (char *)"--json";
    if (extra_arg) {
        argv[n++] = (char *)"--baseline";
        argv[n++] = (char *)extra_arg;
    }
    argv[n] = NULL;
    const char *env[] = {extra_env, NULL};
    tl_run_opts o = {.env = extra_env ? env : NULL, .timeout_s = 600};
    tl_result r;
    tl_run(argv, &o, &r);
    printf("--- %s%s%s\n%s", spec, extra_arg ? " --baseline " : "", extra_arg ? extra_arg : "", r.err);
    CHECK_MSG(r.code == 0, "%s: exit %d", spec, r.code);
    ct_json *j = NULL;
    ct_err e;
    if (r.code == 0)
        CHECK_MSG(ct_json_parse(r.out, r.outlen, &j, &e) == CT_OK, "%s: %s", spec, e.msg);
    *report = r.err;
    r.err = NULL;
    tl_result_free(&r);
    return j;
}

static const char *str(const ct_json *j, const char *key);

static double num(const ct_json *j, const char *key)
{
    const ct_json *v = ct_json_get(j, key);
    return v && v->type == CT_JSON_NUMBER ? v->number : NAN;
}

static const char *str(const ct_json *j, const char *key)
{
    const ct_json *v = ct_json_get(j, key);
    return v && v->type == CT_JSON_STRING ? v->str : NULL;
}

static int is_null(const ct_json *j, const char *key)
{
    const ct_json *v = ct_json_get(j, key);
    return v && v->type == CT_JSON_NULL;
}

/* The cuDNN version the newest stored run of problem noted ("" if none). */
static int note_cb(const ct_result *r, void *user)
{
    ct_json *j = NULL;
    if (r->run_settings[0] && ct_json_parse(r->run_settings, strlen(r->run_settings), &j, NULL) == CT_OK) {
        const ct_json *v = ct_json_get(ct_json_get(j, "cudnn"), "version");
        if (v && v->type == CT_JSON_STRING)
            snprintf(user, 16, "%s", v->str);
        ct_json_free(j);
    }
    return 0;
}

static void stored_version(const char *problem, char *ver)
{
    char db[600];
    snprintf(db, sizeof db, "%s/c.db", dir);
    ct_db *h;
    ct_err e;
    ver[0] = '\0';
    if (ct_db_open(db, 0, &h, &e) != CT_OK)
        return;
    ct_query q = {.problem = problem};
    ct_db_query(h, &q, note_cb, ver, &e);
    ct_db_close(h);
}

/* A run with the baseline timed: the JSON fields and the report's line.
 * Where strict is 0 (a form cuDNN's legacy API may not take: channels
 * last with KCRS weights, a half-type bias), a stated reason passes too. */
static void timed(const char *spec, int seed, int strict)
{
    char *report = NULL;
    ct_json *j = tune(spec, NULL, NULL, seed, &report);
    if (!j) {
        free(report);
        return;
    }
    if (!strict && str(j, "cudnn_none")) {
        printf("%s: no cuDNN baseline: %s\n", spec, str(j, "cudnn_none"));
        CHECK_MSG(strstr(report, "  cuDNN baseline: none (") != NULL, "%s: no 'none' line", spec);
        ct_json_free(j);
        free(report);
        return;
    }
    ct_problem p;
    ct_err e;
    CHECK(ct_problem_parse(spec, &p, &e) == CT_OK);
    const int f32 = ct_problem_dtype(&p) == CT_DTYPE_F32, tf32 = ct_problem_dtype(&p) == CT_DTYPE_TF32;
    const double tol = f32 ? 1e-5 : tf32 ? 1e-2 : 4.0 / 128;
    const double win = num(ct_json_get(j, "winner"), "median_us");
    const char *ver = str(j, "cudnn_version");
    CHECK_MSG(ver && ver[0] == '9', "%s: cudnn_version %s (cudnn_none: %s)", spec, ver ? ver : "null",
              str(j, "cudnn_none") ? str(j, "cudnn_none") : "null");
    CHECK_MSG(is_null(j, "cudnn_none"), "%s: cudnn_none %s", spec, str(j, "cudnn_none"));
    const double us = num(j, "cudnn_us"), rel = num(j, "cudnn_relerr"), sp = num(j, "cudnn_speedup");
    CHECK_MSG(isfinite(us) && us > 0, "%s: cudnn_us %g", spec, us);
    CHECK_MSG(rel >= 0 && rel <= tol, "%s: cudnn_relerr %g over %g", spec, rel, tol);
    CHECK_MSG(isfinite(win) && win > 0 && fabs(sp - us / win) <= 1e-3 * (us / win) + 1e-3, "%s: speedup %g vs %g / %g",
              spec, sp, us, win);
    CHECK_MSG(str(j, "cudnn_timing") != NULL, "%s: no cudnn_timing", spec);
    if (f32) {
        const double t = num(j, "cudnn_tf32_us"), tr = num(j, "cudnn_tf32_relerr");
        CHECK_MSG(isfinite(t) && t > 0, "%s: cudnn_tf32_us %g", spec, t);
        CHECK_MSG(tr >= 0 && tr <= 1e-2, "%s: cudnn_tf32_relerr %g", spec, tr);
        CHECK_MSG(isfinite(num(j, "cudnn_tf32_speedup")), "%s: no cudnn_tf32_speedup", spec);
    } else {
        /* a tf32 problem's one timing is the main one, TF32 on */
        CHECK_MSG(is_null(j, "cudnn_tf32_us"), "%s: a second TF32 time for a %s problem", spec,
                  ct_dtype_name(ct_problem_dtype(&p)));
    }
    char want[64];
    snprintf(want, sizeof want, "  cuDNN %s (%s): ", ver ? ver : "?",
             f32 ? "TF32 off" : tf32 ? "TF32" : ct_dtype_name(ct_problem_dtype(&p)));
    CHECK_MSG(strstr(report, want) != NULL, "%s: the report lacks '%s'", spec, want);
    CHECK_MSG(strstr(report, "x naive") != NULL || strstr(report, "naive baseline") == NULL, "%s: no x naive", spec);
    /* The API that gave the time: named, and the faster of the two
     * where the line states the other's time ("[backend API engine 12;
     * legacy API algo 1: 42.50 us]"). */
    const char *api = str(j, "cudnn_api");
    CHECK_MSG(api && (!strcmp(api, "legacy") || !strcmp(api, "backend")), "%s: cudnn_api %s", spec,
              api ? api : "null");
    const char *bracket = strchr(strstr(report, want) ? strstr(report, want) : report, '[');
    char head[32];
    snprintf(head, sizeof head, "[%s API ", api ? api : "?");
    CHECK_MSG(bracket && !strncmp(bracket, head, strlen(head)), "%s: the line does not name the %s API", spec,
              api ? api : "?");
    const char *other = bracket ? strstr(bracket, " API ") : NULL;
    other = other ? strstr(other + 5, " API ") : NULL;   /* the other API's part */
    const char *colon = other ? strchr(other, ':') : NULL, *end = bracket ? strchr(bracket, ']') : NULL;
    double other_us = NAN;
    if (colon && end && colon < end && sscanf(colon + 1, "%lf us", &other_us) == 1)
        CHECK_MSG(us <= other_us + 0.01, "%s: %s API's %.2f us chosen over %.2f us", spec, api, us, other_us);
    char stored[16];
    stored_version(p.canonical, stored);
    CHECK_MSG(ver && !strcmp(stored, ver), "%s: the stored run notes cuDNN '%s'", spec, stored);
    printf("%s: winner %.2f us, cuDNN %.2f us (relerr %.2g, %s API; other %.2f us), convtune %.2fx\n", spec, win,
           us, rel, api ? api : "?", other_us, sp);
    ct_json_free(j);
    free(report);
}

/* A run without a baseline: the reason, and the run succeeds. */
static void none(const char *spec, const char *arg, const char *env, const char *why, int seed)
{
    char *report = NULL;
    ct_json *j = tune(spec, arg, env, seed, &report);
    if (j) {
        const char *n = str(j, "cudnn_none");
        CHECK_MSG(n && strstr(n, why), "%s: cudnn_none %s, not '%s'", spec, n ? n : "null", why);
        CHECK_MSG(is_null(j, "cudnn_us") && is_null(j, "cudnn_version"), "%s: a cuDNN time without cuDNN", spec);
        if (!arg)   /* --baseline none prints nothing */
            CHECK_MSG(strstr(report, "  cuDNN baseline: none (") != NULL, "%s: no 'none' line", spec);
        else
            CHECK_MSG(strstr(report, "cuDNN") == NULL, "%s: a cuDNN line under --baseline none", spec);
        ct_json_free(j);
    }
    free(report);
}

int main(void)
{
    ct_gpu g;
    gpu_or_skip(&g);
    ct_gpu_close(&g);
    const ct_cudnn *L;
    ct_err e;
    if (ct_cudnn_load(&L, &e) != CT_OK) {
        printf("SKIPPED: no cuDNN here: %s\n", e.msg);
        return CT_TEST_SKIP;
    }
    char v[16];
    ct_cudnn_version_text(L->cudnnGetVersion(), v, sizeof v);
    printf("cuDNN %s from %s\n", v, L->path);
    dir = scratch_dir();
    timed("conv2dc:4:16:20:20:32:3:3:same:bias", 1, 1);
    timed("conv2dc:4:16:20:20:32:3:3:same:bf16", 2, 1);
    timed("conv2dc:4:16:20:20:32:3:3:same:dgrad", 3, 1);
    timed("conv2dc:4:16:20:20:32:3:3:same:bias:wgrad", 4, 1);
    timed("conv1dc:4:32:200:64:5:pad=2:stride=2", 5, 1);
    timed("conv2dc:4:16:20:20:32:3:3:same:bias:bf16", 9, 0);
    timed("conv2dc:4:16:20:20:32:3:3:same:nhwc", 10, 0);
    timed("conv2dc:4:32:20:20:32:3:3:same:groups=32:nhwc:bf16", 11, 0);
    timed("conv2dc:4:16:20:20:32:3:3:same:bias:tf32", 12, 1);
    timed("conv2dc:4:64:28:28:64:1:1:valid:nhwc:bf16", 13, 0);
    timed("conv2dc:4:16:20:20:32:3:3:same:nhwc:dgrad:bf16", 14, 0);
    none("conv1dc:2:8:64:8:3:causal", NULL, NULL, "causal", 6);
    none("conv2dc:2:8:16:16:8:3:3:same", NULL, "CONVTUNE_CUDNN=/nonexistent/libcudnn.so.9", "CONVTUNE_CUDNN", 7);
    none("conv2dc:2:8:16:16:8:3:3:same", "none", NULL, "--baseline none", 8);
    CHECK_DONE();
}
