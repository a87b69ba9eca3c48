/* tune_report.c - the words of a tuning run (tune_report.h). */
#include "tune_report.h"

#include <math.h>
#include <string.h>

#include "dtype.h"
#include "json.h"
#include "timing.h"
#include "tune_cudnn.h"

/* A record's parameters for people: JSON text. */
static const char *params_text(const ct_result *r, char *buf, size_t len)
{
    if (ct_result_params_text(r, buf, len, NULL) != CT_OK)
        snprintf(buf, len, "?");
    return buf;
}

void ct_tune_note_conditions(ct_tune_result *res, const ct_result *r)
{
    const ct_conditions *oc = &r->cond;
    res->retimed += oc->retimed;
    res->raced += oc->raced;
    res->slow += oc->slow;
    res->batched += r->status == CT_RS_OK && r->batch > 1;
    for (int i = 0; i < 2; i++) {
        if (oc->sm_mhz[i] > 0) {
            if (res->sm_mhz_min < 0 || oc->sm_mhz[i] < res->sm_mhz_min)
                res->sm_mhz_min = oc->sm_mhz[i];
            if (oc->sm_mhz[i] > res->sm_mhz_max)
                res->sm_mhz_max = oc->sm_mhz[i];
        }
        if (oc->temp_c[i] >= 0) {
            if (res->temp_c_min < 0 || oc->temp_c[i] < res->temp_c_min)
                res->temp_c_min = oc->temp_c[i];
            if (oc->temp_c[i] > res->temp_c_max)
                res->temp_c_max = oc->temp_c[i];
        }
    }
}

const char *ct_tune_conditions_text(const ct_result *r, char *buf, size_t len)
{
    const ct_conditions *oc = &r->cond;
    buf[0] = '\0';
    if (r->status != CT_RS_OK)
        return buf;
    char how[96];
    snprintf(buf, len, "  [SM %d->%d MHz, %d->%d C, %d reps%s%s%s%s, %s]", oc->sm_mhz[0], oc->sm_mhz[1],
             oc->temp_c[0], oc->temp_c[1], r->reps, oc->slow ? " (slow: fewer)" : "", oc->raced ? ", raced" : "",
             oc->retimed ? ", re-timed" : "", oc->l2_flushed ? ", L2 flushed" : "",
             ct_tune_timing_text(r, how, sizeof how));
    return buf;
}

const char *ct_tune_timing_text(const ct_result *r, char *buf, size_t len)
{
    char how[48];
    buf[0] = '\0';
    if (!(r->median_us > 0))
        return buf;
    /* Stored before the method was: one launch between two events. */
    ct_timing_describe(r->timing[0] ? r->timing : CT_TIMING_EVENTS, r->batch, how, sizeof how);
    if (r->ci_lo_us > 0 && r->ci_hi_us > 0)
        snprintf(buf, len, "%s, 95%% CI %.2f-%.2f us", how, r->ci_lo_us, r->ci_hi_us);
    else
        snprintf(buf, len, "%s", how);
    return buf;
}

/* The run's SM clock and temperature ranges, [min, max] each (-1: unknown). */
static void write_ranges(ct_jw *j, const ct_tune_result *res)
{
    ct_jw_array(j, "sm_mhz");
    ct_jw_int(j, NULL, res->sm_mhz_min);
    ct_jw_int(j, NULL, res->sm_mhz_max);
    ct_jw_end(j);
    ct_jw_array(j, "temp_c");
    ct_jw_int(j, NULL, res->temp_c_min);
    ct_jw_int(j, NULL, res->temp_c_max);
    ct_jw_end(j);
}

void ct_tune_conditions_json(const ct_tune_result *res, int l2_flush, char *buf, size_t len)
{
    ct_jw j;
    ct_jw_buffer(&j, buf, len, 0);
    ct_jw_object(&j, NULL);
    write_ranges(&j, res);
    ct_jw_string(&j, "l2", l2_flush ? "flushed" : "warm");
    ct_jw_int(&j, "retimed", res->retimed);
    ct_jw_int(&j, "raced", res->raced);
    ct_jw_int(&j, "batched", res->batched);
    ct_jw_int(&j, "slow", res->slow);
    ct_jw_int(&j, "worker_starts", res->worker_starts);
    ct_jw_end(&j);
}

/* The compute ceiling of p's type on g (ct_dtype_peak_tflops). */
static double peak_of(const ct_problem *p, const ct_gpu *g)
{
    return ct_dtype_peak_tflops(ct_problem_dtype(p), g->info.fma_tflops, g->info.tc_half_tflops);
}

void ct_tune_print_header(FILE *out, const ct_problem *p, const ct_gpu *g, const ct_space *sp, const char *strategy,
                          int budget, int time_limited, unsigned long long seed)
{
    const ct_family *fam = p->family;
    long long full = 0, admissible = 0;
    for (int i = 0; i < sp->ntemplates; i++) {
        full += sp->stats[i].full;
        admissible += sp->stats[i].admissible;
    }
    fprintf(out, "convtune: %s on %s (%s, %d SMs)\n", p->canonical, g->info.name, g->arch, g->info.sm_count);
    ct_dtype t = ct_problem_dtype(p);
    fprintf(out, "  ceilings: %.1f TFLOP/s fp32 FMA, %.0f GB/s memory, %.1f us empty launch", g->info.fma_tflops,
            g->info.bandwidth_gbs, g->info.launch_us);
    if (ct_dtype_is_half(t))
        fprintf(out, ", %.1f TFLOP/s half tensor cores", g->info.tc_half_tflops);
    else if (t == CT_DTYPE_TF32)   /* the TF32 rate: half the measured half rate */
        fprintf(out, ", %.1f TFLOP/s TF32 tensor cores", g->info.tc_half_tflops / 2);
    fprintf(out, "\n  problem: %.3g GFLOP, %.3g MB; floor %.2f us (%s) / %.2f us (memory)\n", fam->flops(p) / 1e9,
            fam->bytes(p) / 1e6, fam->flops(p) / (peak_of(p, g) * 1e6), t == CT_DTYPE_F32 ? "FMA" : "tensor cores",
            fam->bytes(p) / (g->info.bandwidth_gbs * 1e3));
    fprintf(out, "  space: %lld combinations, %lld admissible; search: %s, budget %d candidates%s, seed %llu\n", full,
            admissible, strategy, budget, time_limited ? " or the time limit" : "", seed);
}

void ct_tune_print_candidate(FILE *f, int done, int budget, const ct_result *rec, const char *cond)
{
    char params[512];
    fprintf(f, "[%d/%d] %-14s %10.2f us  relerr %.1e  %s %s%s%s%s\n", done, budget, ct_result_status_name(rec->status),
            isnan(rec->median_us) ? 0.0 : rec->median_us, isnan(rec->relerr) ? -1.0 : rec->relerr, rec->tmpl,
            params_text(rec, params, sizeof params), cond, rec->error[0] ? "  " : "", rec->error);
}

void ct_tune_print_progress(FILE *f, int done, int budget, int nfail, const ct_result *best, double elapsed_s)
{
    char params[512];
    int left = budget - done;
    fprintf(f, "\r\033[K  %d/%d, %d failed, best %.2f us %s %.60s, ~%.0f s left", done, budget, nfail,
            best ? best->median_us : 0.0, best ? best->tmpl : "", best ? params_text(best, params, sizeof params) : "",
            left > 0 && done > 0 ? elapsed_s / done * left : 0.0);
}

void ct_tune_print_measurement(FILE *out, const ct_tune_result *res, int l2_flush)
{
    fprintf(out, "  measurement: L2 %s; %d timing%s re-taken for a wide spread, %d stopped early as losers; "
                 "worker processes %d", l2_flush ? "flushed before every timed execution" : "warm (not flushed)",
            res->retimed, res->retimed == 1 ? "" : "s", res->raced, res->worker_starts);
    /* How the times were taken (timing.h): under CT_BATCH_BELOW_US a
     * launch, in batches; past CT_SLOW_TARGET_MS of samples, fewer. */
    if (l2_flush)
        fprintf(out, "\n  timing: events per launch, each after the flush");
    else
        fprintf(out, "\n  timing: %d timing%s (of candidates under %.0f us) as graphs of launches (calls back to "
                     "back for executors), the others with events per launch",
                res->batched, res->batched == 1 ? "" : "s", CT_BATCH_BELOW_US);
    fprintf(out, "; %d slow timing%s with fewer samples (at least %d)", res->slow, res->slow == 1 ? "" : "s",
            CT_SLOW_MIN_REPS);
    if (res->sm_mhz_min > 0)
        fprintf(out, "; SM clock %d-%d MHz, %d-%d C", res->sm_mhz_min, res->sm_mhz_max, res->temp_c_min,
                res->temp_c_max);
    fputc('\n', out);
}

void ct_tune_note_baseline_only(const ct_space *sp, const int *counts, int tuned_ok, ct_tune_result *res)
{
    char *b = res->baseline_only;
    size_t len = sizeof res->baseline_only, n = 0;
    int tuned = 0;
    for (int i = 0; i < sp->ntemplates; i++) {
        const ct_space_stats *st = &sp->stats[i];
        if (st->tmpl->is_baseline)
            continue;
        tuned += st->admissible > 0;
        if (st->admissible == 0 && n < len)
            n += (size_t)snprintf(b + n, len - n, "%s%s admits no candidate (%s)", n ? "; " : "", st->tmpl->name,
                                  st->example_reject[0] ? st->example_reject : "no value lists");
    }
    if (n == 0 && !tuned)
        snprintf(b, len, "no tuned template was part of the run");
    else if (tuned_ok > 0 && n < len)
        snprintf(b + n, len - n, "%sits %d verified tuned candidates were all slower", n ? "; " : "", tuned_ok);
    else if (tuned && n < len) {
        n += (size_t)snprintf(b + n, len - n, "%sno tuned candidate passed (failures in this run: ", n ? "; " : "");
        for (int i = 1, first = 1; i < CT_RS_COUNT && n < len; i++)
            if (counts[i]) {
                n += (size_t)snprintf(b + n, len - n, "%s%d %s", first ? "" : ", ", counts[i],
                                      ct_result_status_name((ct_result_status)i));
                first = 0;
            }
        if (n < len)
            snprintf(b + n, len - n, ")");
    }
}

static void print_row(FILE *f, int rank, const ct_result *r, double baseline_us, double peak)
{
    char params[512];
    double tflops = r->flops / r->median_us / 1e6;
    char pct[16] = "-";
    if (peak > 0)
        snprintf(pct, sizeof pct, "%.0f%%", 100.0 * tflops / peak);
    char sp[16] = "-";
    if (baseline_us > 0)
        snprintf(sp, sizeof sp, "%.1fx", baseline_us / r->median_us);
    fprintf(f, "  %4d %11.2f %8.2f %6s %8s %9.1e  %s %s\n", rank, r->median_us, tflops, pct, sp, r->relerr, r->tmpl,
            params_text(r, params, sizeof params));
}

void ct_tune_print_ranking(FILE *out, const ct_problem *p, const ct_gpu *g, const ct_result *okrecs, int nok,
                           const ct_tune_result *res)
{
    fprintf(out, "  rank   median_us  TFLOP/s  %%FMA  x naive    relerr  template params\n");
    for (int i = 0; i < nok && i < 5; i++)
        print_row(out, i + 1, &okrecs[i], res->baseline_us, peak_of(p, g));
    for (int i = 0; i < nok; i++)
        if (ct_template_find(p->family, okrecs[i].tmpl)->is_baseline) {
            fprintf(out, "  naive baseline:\n");
            print_row(out, i + 1, &okrecs[i], res->baseline_us, peak_of(p, g));
            break;
        }
    if (res->baseline_only[0])
        fprintf(out, "  only the baseline was measured: %s\n", res->baseline_only);
    char wparams[512];
    const ct_result *w = &okrecs[0];
    char how[96];
    fprintf(out, "winner: %s %s: %.2f us (%s), %.2f TFLOP/s, %.0f GB/s", w->tmpl,
            params_text(w, wparams, sizeof wparams), w->median_us, ct_tune_timing_text(w, how, sizeof how),
            w->flops / w->median_us / 1e6, w->bytes / w->median_us / 1e3);
    if (res->baseline_us > 0)
        fprintf(out, ", %.1fx naive", res->baseline_us / w->median_us);
    fputc('\n', out);
    ct_tune_cudnn_print(out, res, w->median_us);
    fprintf(out, "export: convtune export --problem %s\n", p->canonical);
}

/* The winner's timing: its confidence interval (null when not stored),
 * method and executions per sample, and the method in words. */
static void write_timing(ct_jw *j, const ct_result *w)
{
    char how[96];
    if (w->ci_lo_us > 0 && w->ci_hi_us > 0) {
        ct_jw_array(j, "ci95_us");
        ct_jw_number(j, NULL, "%.4f", w->ci_lo_us);
        ct_jw_number(j, NULL, "%.4f", w->ci_hi_us);
        ct_jw_end(j);
    } else {
        ct_jw_null(j, "ci95_us");
    }
    ct_jw_string(j, "timing", w->timing[0] ? w->timing : CT_TIMING_EVENTS);
    ct_jw_int(j, "batch", w->batch > 0 ? w->batch : 1);
    ct_jw_int(j, "reps", w->reps);
    ct_timing_describe(w->timing[0] ? w->timing : CT_TIMING_EVENTS, w->batch, how, sizeof how);
    ct_jw_string(j, "timing_text", how);
}

void ct_tune_print_json(FILE *f, const ct_problem *p, const ct_gpu *g, const char *strategy, unsigned long long seed,
                        int budget, const int *counts, const ct_tune_result *res, int nok, int l2_flush)
{
    ct_jw j;
    ct_jw_file(&j, f, 0);
    ct_jw_object(&j, NULL);
    ct_jw_string(&j, "problem", p->canonical);
    ct_jw_string(&j, "device", g->info.name);
    ct_jw_string(&j, "arch", g->arch);
    ct_jw_string(&j, "strategy", strategy);
    ct_jw_uint(&j, "seed", seed);
    ct_jw_int(&j, "budget", budget);
    ct_jw_int(&j, "candidates", res->tuned);
    ct_jw_object(&j, "counts");
    for (int i = 0; i < CT_RS_COUNT; i++)
        ct_jw_int(&j, ct_result_status_name((ct_result_status)i), counts[i]);
    ct_jw_end(&j);
    ct_jw_int(&j, "cache_hits", res->cache_hits);
    ct_jw_int(&j, "reused", res->reused);
    ct_jw_object(&j, "measurement");
    ct_jw_string(&j, "l2", l2_flush ? "flushed" : "warm");
    ct_jw_int(&j, "retimed", res->retimed);
    ct_jw_int(&j, "raced", res->raced);
    ct_jw_int(&j, "batched", res->batched);
    ct_jw_int(&j, "slow", res->slow);
    ct_jw_int(&j, "worker_starts", res->worker_starts);
    write_ranges(&j, res);
    ct_jw_end(&j);
    if (nok) {
        const ct_result *w = &res->winner;
        char params[512];
        double tflops = w->flops / w->median_us / 1e6;
        ct_jw_object(&j, "winner");
        ct_jw_string(&j, "template", w->tmpl);
        ct_jw_raw(&j, "params", params_text(w, params, sizeof params));
        ct_jw_number(&j, "median_us", "%.4f", w->median_us);
        write_timing(&j, w);
        ct_jw_number(&j, "tflops", "%.4f", tflops);
        ct_jw_number(&j, "pct_fma", "%.2f", peak_of(p, g) > 0 ? 100 * tflops / peak_of(p, g) : 0);
        ct_jw_number(&j, "gbs", "%.2f", w->bytes / w->median_us / 1e3);
        ct_jw_number(&j, "relerr", "%.3g", w->relerr);
        ct_jw_end(&j);
    } else {
        ct_jw_null(&j, "winner");
    }
    ct_jw_string_or_null(&j, "baseline_only", res->baseline_only);
    ct_jw_number(&j, "baseline_us", "%.4f", res->baseline_us);
    ct_jw_number(&j, "speedup", "%.3f", nok && res->baseline_us > 0 ? res->baseline_us / res->winner.median_us : 0);
    /* The same, named for what it is against (speedup is kept for readers of before). */
    ct_jw_number(&j, "naive_speedup", "%.3f",
                 nok && res->baseline_us > 0 ? res->baseline_us / res->winner.median_us : 0);
    ct_tune_cudnn_json(&j, res, nok ? res->winner.median_us : 0);
    if (nok)
        ct_closeness_write(&j, "closeness", &res->closeness, 1);
    else
        ct_jw_null(&j, "closeness");
    ct_jw_object(&j, "time");
    ct_jw_number(&j, "wall_s", "%.3f", res->wall_s);
    ct_jw_number(&j, "compile_cpu_s", "%.3f", res->compile_s);
    ct_jw_number(&j, "verify_s", "%.3f", res->verify_s);
    ct_jw_number(&j, "time_s", "%.3f", res->time_s);
    ct_jw_number(&j, "store_s", "%.3f", res->store_s);
    ct_jw_number(&j, "candidates_per_s", "%.2f", res->wall_s > 0 ? res->tuned / res->wall_s : 0);
    ct_jw_end(&j);
    ct_jw_end(&j);
    fputc('\n', f);
}
