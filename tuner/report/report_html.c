/* report_html.c - the HTML page of `convtune report` (report.h): one
 * self-contained file, plots as inline SVG, no script. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db_cudnn.h"
#include "export.h"
#include "json.h"
#include "params_diff.h"
#include "report_params.h"
#include "report.h"
#include "svg.h"
#include "timing.h"

#define NCOLORS 8

static const char style[] =
    "body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#222;padding:0 16px}\n"
    "h1{font-size:22px}h2{font-size:18px;margin-top:36px;border-bottom:1px solid #ccc}h3{font-size:15px}\n"
    "table{border-collapse:collapse;margin:8px 0}td,th{padding:2px 8px;border-bottom:1px solid #eee;"
    "text-align:right;vertical-align:top}th{background:#f4f4f4}td.l,th.l{text-align:left}\n"
    "code,.mono{font-family:ui-monospace,monospace;font-size:12px}dl{display:grid;"
    "grid-template-columns:max-content auto;gap:2px 16px}dt{font-weight:600}dd{margin:0}\n"
    ".plots{display:flex;flex-wrap:wrap;gap:12px}.note{color:#666;font-size:12px}\n"
    "svg.plot{background:#fff;border:1px solid #ddd}.frame{fill:none;stroke:#888}"
    ".grid{stroke:#eee}.tick{font-size:10px;fill:#555}.label{font-size:11px;fill:#333}\n"
    ".best-line{fill:none;stroke:#d62728;stroke-width:1.5}.mk-fail{stroke:#999;stroke-width:1}\n"
    ".mk-box{fill:#cfe3f7;stroke:#4a7fb5}.med{stroke:#1f3f66;stroke-width:2}"
    ".mk-pmed{fill:#4a7fb5}.mk-pbest{fill:#d62728}\n"
    ".roof{fill:none;stroke:#333;stroke-width:1.5}.mk-roof{stroke:#000;stroke-width:.5}\n"
    ".winner{fill:#d62728}.baseline{fill:#7f7f7f}.top{fill:#ff9f1c}\n"
    ".c0{fill:#1f77b4}.c1{fill:#2ca02c}.c2{fill:#9467bd}.c3{fill:#ff7f0e}.c4{fill:#17becf}.c5{fill:#8c564b}"
    ".c6{fill:#e377c2}.c7{fill:#bcbd22}\n"
    ".mk-search,.mk-dist{fill-opacity:.65}.grid.minor{stroke:#f4f4f4}.tickmark{stroke:#888}\n"
    ".vendor{stroke:#000;stroke-width:1.2;stroke-dasharray:6 3}.vendor-label{font-size:10px;fill:#000}\n"
    ".fft-note{font-size:10px;fill:#8c564b}\n"
    "div.legend{font-size:12px;margin:2px 0 8px}div.legend span.it{margin-right:12px;white-space:nowrap}\n"
    "div.legend i{display:inline-block;width:10px;height:10px;border-radius:5px;margin-right:4px}\n"
    "i.c0{background:#1f77b4}i.c1{background:#2ca02c}i.c2{background:#9467bd}i.c3{background:#ff7f0e}"
    "i.c4{background:#17becf}i.c5{background:#8c564b}i.c6{background:#e377c2}i.c7{background:#bcbd22}\n"
    "table.top td.params{max-width:28em;white-space:normal;overflow-wrap:anywhere}\n"
    "table.summary{font-size:13px}table.summary td,table.summary th{padding:2px 6px}"
    "table.summary td.l:first-child{white-space:nowrap}table.summary td.l{min-width:8em}\n";

static void h(FILE *f, const char *s)
{
    ct_html_text(f, s);
}

/* Index of a template among the section's templates (first appearance). */
static int tmpl_index(const ct_report_section *s, const char *tmpl)
{
    int k = 0;
    for (int i = 0; i < s->n; i++) {
        int first = 1;
        for (int j = 0; j < i && first; j++)
            first = strcmp(s->rows[j]->tmpl, s->rows[i]->tmpl) != 0;
        if (!first)
            continue;
        if (!strcmp(s->rows[i]->tmpl, tmpl))
            return k;
        k++;
    }
    return k;
}

static double pct(const double *v, int n, double q)
{
    double x = q * (n - 1);
    int i = (int)x;
    return i + 1 < n ? v[i] + (x - i) * (v[i + 1] - v[i]) : v[n - 1];
}

static void time_range(const ct_report_section *s, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = 0;
    for (int i = 0; i < s->nok; i++) {
        if (s->ok[i]->median_us < *lo)
            *lo = s->ok[i]->median_us;
        if (s->ok[i]->median_us > *hi)
            *hi = s->ok[i]->median_us;
    }
}

/* Each candidate's median in measurement order, the best so far, failures
 * as ticks along the bottom. */
/* The colour key of the plots that colour by template: one swatch per
 * template, in the order tmpl_index gives them. HTML rather than SVG text so
 * that any number of templates wraps. */
static void tmpl_legend(FILE *f, const ct_report_section *s)
{
    fputs("<div class=\"legend\" data-legend=\"templates\">templates: ", f);
    for (int i = 0; i < s->n; i++) {
        int first = 1;
        for (int j = 0; j < i && first; j++)
            first = strcmp(s->rows[j]->tmpl, s->rows[i]->tmpl) != 0;
        if (!first)
            continue;
        fprintf(f, "<span class=\"it\"><i class=\"c%d\"></i>", tmpl_index(s, s->rows[i]->tmpl) % NCOLORS);
        h(f, s->rows[i]->tmpl);
        fputs("</span>", f);
    }
    fputs("</div>\n", f);
}

/* The vendor baseline of the section, read as query and export read it
 * (db_cudnn.h): the note of the newest run among its rows that timed cuDNN
 * (key "cudnn" of the run's settings, tune_cudnn.h); o->have == 0 when none
 * did, o->none then the newest run's reason, if one noted any. */
static void section_cudnn(const ct_report_section *s, ct_cudnn_stored *o)
{
    ct_cudnn_stored one;
    const char *when = "", *why_when = "";
    char why[sizeof o->none] = "";
    ct_cudnn_stored_parse(NULL, o);
    for (int i = 0; i < s->n; i++) {
        const ct_result *x = s->rows[i];
        if (!ct_cudnn_stored_parse(x->run_settings, &one))
            continue;
        if (one.have && strcmp(x->run_started_at, when) > 0) {
            *o = one;
            when = x->run_started_at;
        } else if (!one.have && strcmp(x->run_started_at, why_when) > 0) {
            snprintf(why, sizeof why, "%s", one.none);
            why_when = x->run_started_at;
        }
    }
    if (!o->have)
        snprintf(o->none, sizeof o->none, "%s", why);
}

/* cuDNN's time with TF32 off (the like-for-like fp32 number; "us" of the
 * note), or NAN where no run timed it. */
static double cudnn_us(const ct_report_section *s)
{
    ct_cudnn_stored o;
    section_cudnn(s, &o);
    return ct_cudnn_stored_us(&o);
}

/* How close the newest run that said it got to the best of its space
 * (the "closeness" note tune.c stores, closeness.h): its figure where it
 * had a basis, else that it had none, with the search's progress. */
static void closeness_line(FILE *f, const ct_report_section *s)
{
    ct_json *best = NULL;
    const char *when = "";
    for (int i = 0; i < s->n; i++) {
        const char *t = s->rows[i]->run_settings;
        ct_json *j = NULL;
        if (!*t || strcmp(s->rows[i]->run_started_at, when) <= 0 || ct_json_parse(t, strlen(t), &j, NULL) != CT_OK)
            continue;
        const ct_json *c = ct_json_get(j, "closeness");
        if (c && c->type == CT_JSON_OBJECT) {
            ct_json_free(best);
            best = j;
            when = s->rows[i]->run_started_at;
        } else {
            ct_json_free(j);
        }
    }
    if (!best)
        return;
    const ct_json *c = ct_json_get(best, "closeness");
    const ct_json *basis = ct_json_get(c, "basis"), *pct = ct_json_get(c, "within_pct");
    const ct_json *judged = ct_json_get(c, "judged"), *adm = ct_json_get(c, "admissible");
    const ct_json *since = ct_json_get(c, "since_best"), *since_s = ct_json_get(c, "since_best_s");
    const ct_json *spread = ct_json_get(c, "spread_pct"), *noise = ct_json_get(c, "noise_pct");
    const char *b = basis && basis->type == CT_JSON_STRING ? basis->str : "none";
    fputs("<dt>how close</dt><dd>", f);
    if (!strcmp(b, "all"))
        fputs("the best of the space as timed: the newest run judged every admissible candidate", f);
    else if (!strcmp(b, "model") && pct && pct->type == CT_JSON_NUMBER)
        fprintf(f, "estimated within %.1f%% of the best of the space (model, typical error %.0f%%)", pct->number,
                spread && spread->type == CT_JSON_NUMBER ? spread->number : 0.0);
    else
        fputs("no basis for an estimate of the distance to the best of the space", f);
    if (strcmp(b, "none") && noise && noise->type == CT_JSON_NUMBER && noise->number > 0)
        fprintf(f, " (within %.1f%%: the timing noise between processes)", noise->number);
    if (judged && adm && judged->type == CT_JSON_NUMBER && adm->type == CT_JSON_NUMBER && adm->number > 0)
        fprintf(f, "; the newest run judged %.0f of %.0f candidates (%.1f%%)", judged->number, adm->number,
                100 * judged->number / adm->number);
    if (since && since_s && since->type == CT_JSON_NUMBER && since_s->type == CT_JSON_NUMBER)
        fprintf(f, ", the last improvement %.0f candidates and %.0f s before its end", since->number,
                since_s->number);
    fputs("</dd>\n", f);
    ct_json_free(best);
}

/* A dashed horizontal line across the plot at data value v, labelled at
 * its right end, for the vendor baseline. */
static void vendor_line(FILE *f, const ct_plot *p, double v, const char *what)
{
    double y = ct_plot_y(p, v);
    fprintf(f, "<line class=\"vendor\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", p->left, y,
            p->width - p->right, y);
    fprintf(f, "<text class=\"vendor-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
            p->width - p->right - 4, y - 4, what);
}

static void plot_search(FILE *f, const ct_report_section *s)
{
    ct_plot p;
    double lo, hi;
    time_range(s, &lo, &hi);
    double vendor = cudnn_us(s);
    if (vendor > 0) {
        lo = vendor < lo ? vendor : lo;
        hi = vendor > hi ? vendor : hi;
    }
    ct_plot_begin(&p, f, 520, 300, "search", "median time of each candidate in measurement order");
    ct_axis_fit(&p.x, 1, s->n > 1 ? s->n : 2, 0);
    ct_axis_fit(&p.y, lo, hi, 1);
    p.y.unit = "us";
    ct_plot_axes(&p, "candidate number, in measurement order", "median time (log scale)");
    fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\">red line: best so far</text>\n", p.left, p.top - 8);
    if (vendor > 0)
        vendor_line(f, &p, vendor, "cuDNN (TF32 off)");
    double best = INFINITY;
    fputs("<polyline class=\"best-line\" points=\"", f);
    for (int i = 0; i < s->n; i++) {
        const ct_result *r = s->rows[i];
        if (r->status != CT_RS_OK || !(r->median_us > 0))
            continue;
        if (best < INFINITY)
            fprintf(f, "%.1f,%.1f ", ct_plot_x(&p, i + 1), ct_plot_y(&p, best));
        if (r->median_us < best)
            best = r->median_us;
        fprintf(f, "%.1f,%.1f ", ct_plot_x(&p, i + 1), ct_plot_y(&p, best));
    }
    if (best < INFINITY)
        fprintf(f, "%.1f,%.1f", ct_plot_x(&p, s->n), ct_plot_y(&p, best));
    fputs("\"/>\n", f);
    double ybot = p.height - p.bottom;
    for (int i = 0; i < s->n; i++) {
        const ct_result *r = s->rows[i];
        double x = ct_plot_x(&p, i + 1);
        if (r->status != CT_RS_OK || !(r->median_us > 0)) {
            fprintf(f, "<line class=\"mk-fail\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"><title>", x, ybot, x,
                    ybot - 6);
            h(f, r->tmpl);
            fprintf(f, " %s</title></line>\n", ct_result_status_name(r->status));
            continue;
        }
        fprintf(f, "<circle class=\"mk-search c%d\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\"><title>#%d ",
                tmpl_index(s, r->tmpl) % NCOLORS, x, ct_plot_y(&p, r->median_us), i + 1);
        h(f, r->tmpl);
        fputc(' ', f);
        h(f, r->params_json);
        fprintf(f, ": %.3f us</title></circle>\n", r->median_us);
    }
    ct_plot_end(&p);
}

/* Per template: a p25-p75 box with the median, every verified candidate as
 * a dot; failures are counted in the table below the plot. */
static void plot_dist(FILE *f, const ct_report_section *s, const char **tmpls, int nt)
{
    ct_plot p;
    double lo, hi;
    time_range(s, &lo, &hi);
    int rowh = 36, hgt = 56 + rowh * (nt ? nt : 1);
    ct_plot_begin(&p, f, 520, hgt, "dist", "distribution of the verified candidates' times per template");
    p.left = 120;
    ct_axis_fit(&p.x, lo, hi, 1);
    p.y = (ct_axis){.lo = 0, .hi = nt ? nt : 1, .noticks = 1};   /* one row per template */
    p.x.unit = "us";
    ct_plot_axes(&p, "median time (log scale)", "");
    double *v = malloc(((size_t)s->nok + 1) * sizeof *v);
    for (int t = 0; t < nt && v; t++) {
        int n = 0;
        for (int i = 0; i < s->nok; i++)
            if (!strcmp(s->ok[i]->tmpl, tmpls[t]))
                v[n++] = s->ok[i]->median_us;
        double yc = ct_plot_y(&p, nt - t - 0.5);
        fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", p.left - 6, yc + 4);
        h(f, tmpls[t]);
        fputs("</text>\n", f);
        if (!n)
            continue;
        qsort(v, (size_t)n, sizeof *v, ct_cmp_double);
        double x25 = ct_plot_x(&p, pct(v, n, .25)), x75 = ct_plot_x(&p, pct(v, n, .75)), xm = ct_plot_x(&p, pct(v, n, .5));
        fprintf(f, "<rect class=\"mk-box\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\"><title>",
                x25, yc - rowh * 0.3, x75 - x25 > 1 ? x75 - x25 : 1, (int)(rowh * 0.6));
        h(f, tmpls[t]);
        fprintf(f, ": %d verified, p25 %.3f, median %.3f, p75 %.3f us</title></rect>\n", n, pct(v, n, .25),
                pct(v, n, .5), pct(v, n, .75));
        fprintf(f, "<line class=\"med\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", xm, yc - rowh * 0.3, xm,
                yc + rowh * 0.3);
        int k = 0;
        for (int i = 0; i < s->nok; i++) {
            if (strcmp(s->ok[i]->tmpl, tmpls[t]))
                continue;
            /* A fixed scatter across the row, so equal times stay visible. */
            double jit = ((k++ * 7919) % 97) / 96.0 - 0.5;
            fprintf(f, "<circle class=\"mk-dist c%d\" cx=\"%.1f\" cy=\"%.1f\" r=\"2\"/>\n", t % NCOLORS,
                    ct_plot_x(&p, s->ok[i]->median_us), yc + jit * rowh * 0.5);
        }
    }
    free(v);
    ct_plot_end(&p);
}

/* ------------------------------------------------------------------------ */
/* Roofline                                                                 */

static void roof_mark(FILE *f, const ct_plot *p, double ai, const ct_result *r, const char *kind, int rank)
{
    fprintf(f, "<circle class=\"mk-roof %s\" data-kind=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\"><title>", kind, kind,
            ct_plot_x(p, ai), ct_plot_y(p, ct_report_gflops(r)), rank == 1 ? "6" : "4");
    if (rank)
        fprintf(f, "#%d ", rank);
    else
        fputs("naive baseline ", f);
    h(f, r->tmpl);
    fputc(' ', f);
    h(f, r->params_json);
    fprintf(f, ": %.1f GFLOP/s</title></circle>\n", ct_report_gflops(r));
}

static void plot_roofline(FILE *f, const ct_report_section *s)
{
    const ct_result *c = s->ceil;
    double ai = c->bytes > 0 ? c->flops / c->bytes : 1;
    double peak = ct_result_peak_tflops(c) > 0 ? ct_result_peak_tflops(c) * 1e3 : NAN;   /* GFLOP/s */
    double bw = c->bandwidth_gbs > 0 ? c->bandwidth_gbs : NAN;      /* GB/s */
    double ridge = peak / bw;
    double xlo = ai, xhi = ai;
    if (isfinite(ridge)) {
        xlo = ridge < xlo ? ridge : xlo;
        xhi = ridge > xhi ? ridge : xhi;
    }
    double ylo = INFINITY, yhi = isfinite(peak) ? peak : 0;
    for (int i = 0; i < s->nok && i < CT_REPORT_TOP; i++) {
        double g = ct_report_gflops(s->ok[i]);
        ylo = g < ylo ? g : ylo;
        yhi = g > yhi ? g : yhi;
    }
    if (s->baseline) {
        double g = ct_report_gflops(s->baseline);
        ylo = g < ylo ? g : ylo;
        yhi = g > yhi ? g : yhi;
    }
    if (cudnn_us(s) > 0) {
        double g = c->flops / cudnn_us(s) / 1e3;
        ylo = g < ylo ? g : ylo;
        yhi = g > yhi ? g : yhi;
    }
    if (isfinite(bw) && bw * xlo / 10 < ylo)
        ylo = bw * xlo / 10;
    ct_plot p;
    ct_plot_begin(&p, f, 520, 320, "roofline", "roofline: measured ceilings and the achieved GFLOP/s");
    ct_axis_fit(&p.x, xlo / 10, xhi * 10, 1);
    ct_axis_fit(&p.y, ylo / 2, yhi * 2, 1);
    ct_plot_axes(&p, "arithmetic intensity (FLOP/byte, log scale)", "achieved GFLOP/s (log scale)");
    if (isfinite(ridge)) {
        fprintf(f, "<polyline class=\"roof\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n", ct_plot_x(&p, p.x.lo),
                ct_plot_y(&p, bw * p.x.lo), ct_plot_x(&p, ridge), ct_plot_y(&p, peak), ct_plot_x(&p, p.x.hi),
                ct_plot_y(&p, peak));
        fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">FMA %.1f TFLOP/s</text>\n",
                ct_plot_x(&p, p.x.hi) - 4, ct_plot_y(&p, peak) - 5, peak / 1e3);
        fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\">memory %.0f GB/s</text>\n", ct_plot_x(&p, p.x.lo) + 4,
                ct_plot_y(&p, bw * p.x.lo) - 8, bw);
    }
    double x = ct_plot_x(&p, ai);
    fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" style=\"stroke:#bbb;"
               "stroke-dasharray:3 3\"/>\n", x, p.top, x, p.height - p.bottom);
    /* The key sits in the band above the plot area, never over the marks. */
    static const char *const legend[][2] = {{"winner", "winner"}, {"top", "top ten"}, {"baseline", "naive baseline"}};
    for (int i = 0; i < 3; i++)
        fprintf(f, "<circle class=\"legend %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/><text class=\"tick\" x=\"%.1f\" "
                   "y=\"%.1f\">%s</text>\n", legend[i][0], p.left + 6 + 110.0 * i, p.top - 12, p.left + 14 + 110.0 * i,
                p.top - 8, legend[i][1]);
    double vendor = cudnn_us(s);
    if (vendor > 0)
        vendor_line(f, &p, c->flops / vendor / 1e3, "cuDNN (TF32 off)");
    /* An FFT winner does fewer FLOPs than the direct method they are
     * counted by: its rate is "effective" and may clear the FMA roof. */
    if (s->nok && isfinite(peak) && ct_report_gflops(s->ok[0]) > peak)
        fprintf(f, "<text class=\"fft-note\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">effective rate "
                   "(direct-method FLOPs)</text>\n", ct_plot_x(&p, ai) - 9, ct_plot_y(&p, ct_report_gflops(s->ok[0])) + 3);
    if (s->baseline)
        roof_mark(f, &p, ai, s->baseline, "baseline", 0);
    for (int i = (s->nok < CT_REPORT_TOP ? s->nok : CT_REPORT_TOP) - 1; i >= 0; i--)
        roof_mark(f, &p, ai, s->ok[i], i ? "top" : "winner", i + 1);
    ct_plot_end(&p);
}

/* ------------------------------------------------------------------------ */
/* Tables and the page                                                      */

static void fmt_num(FILE *f, double v, const char *fmt)
{
    if (isnan(v) || v < 0)
        fputs("<td>-</td>", f);
    else {
        fputs("<td>", f);
        fprintf(f, fmt, v);
        fputs("</td>", f);
    }
}

static void top_table(FILE *f, const ct_report_section *s)
{
    const ct_result *c = s->ceil;
    fputs("<table class=\"top\"><tr><th>#</th><th class=\"l\">template</th><th class=\"l\">parameters (non-default)</th>"
          "<th>median us</th><th>min us</th><th>max us</th><th>p10-p90 width</th><th>TFLOP/s</th>"
          "<th title=\"achieved TFLOP/s over the measured compute ceiling\">%FMA</th>"
          "<th>GB/s</th><th title=\"achieved GB/s over the measured memory bandwidth\">%BW</th>"
          "<th title=\"cuDNN's time (TF32 off for fp32) over this candidate's\">vs cuDNN</th>"
          "<th title=\"convtune's naive kernel's time over this candidate's\">vs naive</th>"
          "<th>rel. error</th><th>regs</th><th>reps</th></tr>\n", f);
    const double vendor = cudnn_us(s);
    for (int i = 0; i < s->nok && i < CT_REPORT_TOP; i++) {
        const ct_result *r = s->ok[i];
        fprintf(f, "<tr><td>%d</td><td class=\"l\">", i + 1);
        h(f, r->tmpl);
        fputs("</td><td class=\"l mono params\" title=\"", f);
        h(f, r->params_json);   /* every parameter on hover */
        fputs("\">", f);
        ct_params_nondefault(f, s->family, r->tmpl, r->params_json);
        fputs("</td>", f);
        fmt_num(f, r->median_us, "%.3f");
        fmt_num(f, r->min_us, "%.3f");
        fmt_num(f, r->max_us, "%.3f");
        if (isnan(r->spread))
            fputs("<td>-</td>", f);
        else
            fprintf(f, "<td>%.3f us (%.1f%%)</td>", r->spread * r->median_us, 100 * r->spread);
        double tf = ct_report_gflops(r) / 1e3;
        fmt_num(f, tf, "%.4g");
        fmt_num(f, ct_result_peak_tflops(c) > 0 ? 100 * tf / ct_result_peak_tflops(c) : NAN, "%.1f");
        fmt_num(f, r->bytes / r->median_us / 1e3, "%.1f");
        fmt_num(f, c->bandwidth_gbs > 0 ? 100 * r->bytes / r->median_us / 1e3 / c->bandwidth_gbs : NAN, "%.1f");
        fmt_num(f, vendor > 0 ? vendor / r->median_us : NAN, "%.2fx");
        fmt_num(f, s->baseline ? s->baseline->median_us / r->median_us : NAN, "%.1fx");
        fmt_num(f, r->relerr, "%.1e");
        if (r->registers >= 0)
            fprintf(f, "<td>%d</td>", r->registers);
        else
            fputs("<td>-</td>", f);
        fprintf(f, "<td>%d</td></tr>\n", r->reps);
    }
    fputs("</table>\n<p class=\"note\">parameters: those not at the template's declared default "
          "(<code>convtune space</code> lists them); hover a row for all of them. p10-p90 width: the distance between the 10th and 90th percentiles of the "
          "repetitions (stored as a fraction of the median); min and max are the extremes.</p>\n", f);
}

static void status_table(FILE *f, const ct_report_section *s, const char **tmpls, int nt)
{
    fputs("<table class=\"status\"><tr><th class=\"l\">template</th>", f);
    for (int k = 0; k < CT_RS_COUNT; k++)
        fprintf(f, "<th>%s</th>", ct_result_status_name((ct_result_status)k));
    fputs("</tr>\n", f);
    for (int t = 0; t <= nt; t++) {
        fputs("<tr><td class=\"l\">", f);
        h(f, t < nt ? tmpls[t] : "all");
        fputs("</td>", f);
        for (int k = 0; k < CT_RS_COUNT; k++) {
            int n = 0;
            for (int i = 0; i < s->n; i++)
                n += s->rows[i]->status == (ct_result_status)k && (t == nt || !strcmp(s->rows[i]->tmpl, tmpls[t]));
            fprintf(f, "<td>%d</td>", n);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* The measurement conditions the runs stored (tune.c notes them at the end). */
static void conditions(FILE *f, const ct_report_section *s)
{
    int mhz[2] = {-1, -1}, temp[2] = {-1, -1}, have = 0;
    const char *l2 = NULL;
    for (int i = 0; i < s->n; i++) {
        if (i && !strcmp(s->rows[i]->run_started_at, s->rows[i - 1]->run_started_at))
            continue;
        ct_json *j = NULL;
        const char *t = s->rows[i]->run_settings;
        if (!*t || ct_json_parse(t, strlen(t), &j, NULL) != CT_OK)
            continue;
        const ct_json *c = ct_json_get(j, "conditions");
        const ct_json *a = ct_json_get(c, "sm_mhz"), *b = ct_json_get(c, "temp_c"), *l = ct_json_get(c, "l2");
        for (int k = 0; k < 2; k++) {
            const ct_json *src = k ? b : a;
            int *dst = k ? temp : mhz;
            if (!src || src->type != CT_JSON_ARRAY || src->n != 2 || src->items[0]->number < 0)
                continue;
            have = 1;
            if (dst[0] < 0 || src->items[0]->number < dst[0])
                dst[0] = (int)src->items[0]->number;
            if (src->items[1]->number > dst[1])
                dst[1] = (int)src->items[1]->number;
        }
        if (l && l->type == CT_JSON_STRING)
            l2 = l2 && strcmp(l2, l->str) ? "mixed" : (l->str[0] == 'f' ? "flushed" : "warm");
        ct_json_free(j);
    }
    fputs("<dt>clocks and temperatures</dt><dd>", f);
    if (!have)
        fputs("not recorded (these runs were stored before convtune kept them)", f);
    else
        fprintf(f, "SM clock %d-%d MHz, GPU %d-%d &deg;C (read through NVML around every timing)", mhz[0], mhz[1],
                temp[0], temp[1]);
    if (l2)
        fprintf(f, "; L2 %s", l2);
    fputs("</dd>\n", f);
}

/* How long tuning took (report.h): the runs' wall clock and the compile
 * time the candidates recorded. */
static void tuning_time(FILE *f, const ct_report_section *s)
{
    int ended = s->ended;
    fputs("<dt>tuning time</dt><dd>", f);
    if (ended > 0)
        fprintf(f, "%.0f s wall clock over %d run%s (each from its start to its end)", s->tuning_s, ended,
                ended == 1 ? "" : "s");
    else
        fputs("unknown (no run recorded its end)", f);
    if (s->unended > 0)
        fprintf(f, "; %d run%s without an end (still running or killed) not counted", s->unended,
                s->unended == 1 ? "" : "s");
    if (s->compile_s > 0)
        fprintf(f, "; the candidates' compiles (in parallel, some before their run began) took %.1f s of CPU "
                   "time", s->compile_s);
    fputs("</dd>\n", f);
}

/* The vendor baseline against the winner (section_cudnn), or why there is
 * none: "no cuDNN baseline stored", as query and export say it. */
static void cudnn_line(FILE *f, const ct_report_section *s, double winner_us)
{
    ct_cudnn_stored o;
    section_cudnn(s, &o);
    fputs("<dt>against cuDNN</dt><dd>", f);
    if (!o.have) {
        char why[300];
        h(f, ct_cudnn_stored_none(&o, why, sizeof why));
        fputs("</dd>\n", f);
        return;
    }
    fputs("cuDNN ", f);
    h(f, o.version[0] ? o.version : "?");
    const int fp32 = o.tf32_us > 0;   /* only fp32 problems have a TF32 timing */
    const double us[2] = {o.us, o.tf32_us}, re[2] = {o.relerr, o.tf32_relerr};
    for (int k = 0, n = 0; k < 2; k++) {
        if (!(us[k] > 0))
            continue;
        ct_problem p;   /* a tf32 problem's one timing is cuDNN's with TF32 on */
        const int tf32 = ct_problem_parse(s->problem, &p, NULL) == CT_OK && ct_problem_dtype(&p) == CT_DTYPE_TF32;
        fprintf(f, "%s %.3f us%s (relerr %.1e): the winner %.2fx", n++ ? ";" : ":", us[k],
                k || tf32 ? " with TF32 on" : fp32 ? " with TF32 off" : "", re[k], us[k] / winner_us);
    }
    fputs(" (timed in the same run, on the same inputs)</dd>\n", f);
}

static void section_html(FILE *f, const ct_report_section *s, int idx)
{
    const ct_result *c = s->ceil;
    const char *tmpls[64];
    int nt = 0;
    for (int i = 0; i < s->n && nt < 64; i++) {
        int seen = 0;
        for (int t = 0; t < nt; t++)
            seen |= !strcmp(tmpls[t], s->rows[i]->tmpl);
        if (!seen)
            tmpls[nt++] = s->rows[i]->tmpl;
    }
    fprintf(f, "<section class=\"problem\" id=\"p%d\" data-problem=\"", idx);
    h(f, s->problem);
    fputs("\" data-device=\"", f);
    h(f, s->device);
    fputs("\">\n<h2>", f);
    h(f, s->problem);
    fputs("</h2>\n<dl>\n<dt>problem</dt><dd>", f);
    h(f, s->problem);
    if (s->family) {
        fputs(" (", f);
        h(f, s->family->summary);
        fputs(")", f);
    }
    fprintf(f, "; %.4g GFLOP, %.4g MB moved at least, %.3g FLOP/byte</dd>\n", c->flops / 1e9, c->bytes / 1e6,
            c->bytes > 0 ? c->flops / c->bytes : 0);
    fputs("<dt>device</dt><dd>", f);
    h(f, s->device);
    fprintf(f, " (sm_%d%d, %d SMs), driver %d, NVRTC ", c->cc_major, c->cc_minor, c->sm_count, c->driver_version);
    h(f, c->nvrtc_version);
    fputs("</dd>\n<dt>measured ceilings</dt><dd>", f);
    if (c->fma_tflops > 0)
    {
        fprintf(f, "%.1f TFLOP/s fp32 FMA, ", c->fma_tflops);
        if (c->tc_half_tflops > 0)
            fprintf(f, "%.1f TFLOP/s half tensor cores (mma.sync), ", c->tc_half_tflops);
        fprintf(f, "%.0f GB/s memory, %.1f us empty launch (measured ", c->bandwidth_gbs, c->launch_us);
    }
    else
        fputs("not measured (", f);
    h(f, *c->measured_at ? c->measured_at : "never");
    fputs(")</dd>\n", f);
    fprintf(f, "<dt>runs</dt><dd>%d, from ", s->nruns);
    h(f, s->rows[0]->run_started_at);
    fputs(" to ", f);
    h(f, *s->rows[s->n - 1]->run_finished_at ? s->rows[s->n - 1]->run_finished_at : "(still running or killed)");
    fputs("</dd>\n", f);
    tuning_time(f, s);
    conditions(f, s);
    fprintf(f, "<dt>candidates</dt><dd>%d stored, %d verified and timed, %d failed</dd>\n", s->n, s->nok,
            s->n - s->nok);
    if (s->nok) {
        const ct_result *w = s->ok[0];
        fputs("<dt>winner</dt><dd>", f);
        h(f, w->tmpl);
        fputs(" <code>", f);
        h(f, w->params_json);
        fprintf(f, "</code>: %.3f us", w->median_us);
        /* How it was timed, where stored (schema 4 on). */
        if (w->timing[0]) {
            char how[64];
            fprintf(f, " (%s", ct_timing_describe(w->timing, w->batch, how, sizeof how));
            if (w->ci_lo_us > 0 && w->ci_hi_us > 0)
                fprintf(f, ", 95%% CI %.3f-%.3f us", w->ci_lo_us, w->ci_hi_us);
            fputs(")", f);
        }
        fprintf(f, ", %.3f TFLOP/s", ct_report_gflops(w) / 1e3);
        if (ct_result_peak_tflops(c) > 0)
            fprintf(f, " (%.0f%% of the %s ceiling)", ct_report_gflops(w) / 10 / ct_result_peak_tflops(c),
                    ct_result_peak_name(c));
        if (s->baseline)
            fprintf(f, ", %.1fx the naive baseline (%.3f us)", s->baseline->median_us / w->median_us,
                    s->baseline->median_us);
        fputs("</dd>\n", f);
        cudnn_line(f, s, w->median_us);
        closeness_line(f, s);
    }
    fputs("</dl>\n<div class=\"plots\">\n", f);
    plot_search(f, s);
    plot_roofline(f, s);
    fputs("</div>\n", f);
    tmpl_legend(f, s);
    fputs("<h3>Times per template</h3>\n", f);
    plot_dist(f, s, tmpls, nt);
    tmpl_legend(f, s);
    status_table(f, s, tmpls, nt);
    fputs("<h3>Parameters: median and best time by value</h3>\n", f);
    ct_report_params_html(f, s);
    fputs("<p class=\"note\">The roofline places every candidate at the problem's arithmetic intensity (they all "
          "compute the same thing); their heights are the achieved GFLOP/s. FFT candidates count the direct "
          "method's FLOPs, so they may sit above the FMA ceiling.</p>\n", f);
    fputs("<h3>Top candidates</h3>\n", f);
    if (s->nok) {
        top_table(f, s);
        char path[1024];
        ct_export_default_path(s->problem, path, sizeof path);
        fputs("<p>Export the winner: <code>convtune export --problem ", f);
        h(f, s->problem);
        fputs(" --device '", f);
        h(f, s->device);
        fputs("' -o ", f);
        h(f, path);
        fputs("</code>; with <code>--torch -o DIR</code> it also writes a PyTorch module</p>\n", f);
    } else {
        fputs("<p>No candidate passed verification.</p>\n", f);
    }
    fputs("</section>\n", f);
}

static void summary(FILE *f, const ct_report *r)
{
    fputs("<h2>Summary</h2>\n<table class=\"summary\"><tr><th class=\"l\">problem</th><th class=\"l\">device</th>"
          "<th>candidates</th><th>verified</th><th class=\"l\">winner</th><th>median us</th><th>TFLOP/s</th>"
          "<th>%FMA</th><th title=\"cuDNN's time (TF32 off for fp32) over the winner's\">vs cuDNN</th>"
          "<th title=\"convtune's naive kernel's time over the winner's\">vs naive</th>"
          "<th title=\"wall clock from each run's start to its end, summed\">tuning s</th></tr>\n", f);
    for (int i = 0; i < r->ns; i++) {
        const ct_report_section *s = &r->s[i];
        fprintf(f, "<tr><td class=\"l\"><a href=\"#p%d\">", i);
        h(f, s->problem);
        fputs("</a></td><td class=\"l\">", f);
        h(f, s->device);
        fprintf(f, "</td><td>%d</td><td>%d</td>", s->n, s->nok);
        if (!s->nok) {
            fputs("<td class=\"l\">none</td><td>-</td><td>-</td><td>-</td><td>-</td><td>-</td>", f);
            fmt_num(f, s->tuning_s, "%.0f");
            fputs("</tr>\n", f);
            continue;
        }
        const ct_result *w = s->ok[0];
        fputs("<td class=\"l\">", f);
        h(f, w->tmpl);
        fputs("</td>", f);
        fmt_num(f, w->median_us, "%.3f");
        fmt_num(f, ct_report_gflops(w) / 1e3, "%.4g");
        fmt_num(f, ct_result_peak_tflops(s->ceil) > 0 ? ct_report_gflops(w) / 10 / ct_result_peak_tflops(s->ceil) : NAN,
                "%.1f");
        double vendor = cudnn_us(s);
        fmt_num(f, vendor > 0 ? vendor / w->median_us : NAN, "%.2fx");
        fmt_num(f, s->baseline ? s->baseline->median_us / w->median_us : NAN, "%.1fx");
        fmt_num(f, s->tuning_s, "%.0f");
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

ct_status ct_report_html(const ct_report *r, FILE *f, ct_err *e)
{
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
               "<title>convtune report</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
    fprintf(f, "<h1>convtune report</h1>\n<p>%d problem%s; written by convtune %s on %s.</p>\n", r->ns,
            r->ns == 1 ? "" : "s", CONVTUNE_VERSION, r->generated);
    if (r->ns > 1)
        summary(f, r);
    for (int i = 0; i < r->ns; i++)
        section_html(f, &r->s[i], i);
    fputs("</body>\n</html>\n", f);
    if (fflush(f) != 0 || ferror(f))
        return ct_fail(e, CT_ERR_IO, "report: writing the page failed");
    return CT_OK;
}
