/* svg.c - axes and escaping for the report's inline SVG plots (svg.h). */
#include "svg.h"

#include <math.h>
#include <string.h>

void ct_html_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
    }
}

void ct_axis_fit(ct_axis *a, double lo, double hi, int log)
{
    a->log = log;
    if (!(lo <= hi) || !isfinite(lo) || !isfinite(hi)) {   /* nothing to show */
        lo = log ? 1 : 0;
        hi = log ? 10 : 1;
    }
    if (log) {
        if (lo <= 0)
            lo = hi > 0 ? hi / 10 : 1;
        double l = log10(lo), h = log10(hi);
        if (h - l < 1e-9) {
            l -= 0.5;
            h += 0.5;
        }
        double m = 0.05 * (h - l);
        a->lo = pow(10, l - m);
        a->hi = pow(10, h + m);
    } else {
        if (hi - lo < 1e-12 * (fabs(hi) + 1)) {
            lo -= fabs(lo) * 0.5 + 0.5;
            hi += fabs(hi) * 0.5 + 0.5;
        }
        double m = 0.05 * (hi - lo);
        a->lo = lo - m;
        a->hi = hi + m;
    }
}

/* Position of v in [0, 1] along the axis. */
static double frac(const ct_axis *a, double v)
{
    double t;
    if (a->log)
        t = v > 0 ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) : 0;
    else
        t = (v - a->lo) / (a->hi - a->lo);
    return t < 0 ? 0 : t > 1 ? 1 : t;
}

double ct_plot_x(const ct_plot *p, double v)
{
    return p->left + frac(&p->x, v) * (p->width - p->left - p->right);
}

double ct_plot_y(const ct_plot *p, double v)
{
    return p->height - p->bottom - frac(&p->y, v) * (p->height - p->top - p->bottom);
}

void ct_plot_begin(ct_plot *p, FILE *f, int w, int h, const char *kind, const char *label)
{
    p->f = f;
    p->x = p->y = (ct_axis){0};   /* ct_axis_fit sets the range only: no stray noticks or unit */
    p->width = w;
    p->height = h;
    p->left = 64;
    p->right = 16;
    p->top = 26;   /* a band above the plot area for legends and notes */
    p->bottom = 44;
    fprintf(f, "<svg class=\"plot\" data-plot=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
               "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"",
            kind, w, h, w, h);
    ct_html_text(f, label);
    fputs("\">\n<title>", f);
    ct_html_text(f, label);
    fputs("</title>\n", f);
}

void ct_plot_end(const ct_plot *p)
{
    fputs("</svg>\n", p->f);
}

/* Tick values of an axis into v (at most max), with major[i] set where the
 * tick gets a label; returns the count. Linear: steps of 1, 2 or 5 times a
 * power of ten, about five of them, all labelled. Log: the decades and the 2
 * and 5 between them; the 2 and 5 are labelled only when the range spans
 * fewer than two decades, else they are grid lines only; a log range
 * holding fewer than two of them gets linear round steps instead. */
static int ticks(const ct_axis *a, double *v, int *major, int max)
{
    int n = 0;
    if (a->log) {
        /* Under a decade with fewer than two of 1, 2, 5 inside: round
         * linear steps (placed on the log scale) so each axis reads. */
        int inside = 0;
        for (int d = (int)floor(log10(a->lo)); d <= (int)ceil(log10(a->hi)); d++)
            for (int m = 1; m <= 5; m += m == 1 ? 1 : 3)
                inside += m * pow(10, d) >= a->lo * (1 - 1e-9) && m * pow(10, d) <= a->hi * (1 + 1e-9);
        if (inside < 2) {
            ct_axis lin = *a;
            lin.log = 0;
            return ticks(&lin, v, major, max);
        }
        int d0 = (int)floor(log10(a->lo)), d1 = (int)ceil(log10(a->hi));
        int fine = log10(a->hi) - log10(a->lo) < 2;
        for (int d = d0; d <= d1 && n < max; d++) {
            static const double mult[] = {1, 2, 5};
            for (int m = 0; m < 3 && n < max; m++) {
                double t = mult[m] * pow(10, d);
                if (t >= a->lo * (1 - 1e-9) && t <= a->hi * (1 + 1e-9)) {
                    major[n] = m == 0 || fine;
                    v[n++] = t;
                }
            }
        }
        return n;
    }
    double span = a->hi - a->lo, raw = span / 5, mag = pow(10, floor(log10(raw)));
    double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
    for (double t = ceil(a->lo / step) * step; t <= a->hi + 1e-9 * span && n < max; t += step) {
        major[n] = 1;
        v[n++] = fabs(t) < 1e-12 * span ? 0 : t;
    }
    return n;
}

/* The label of tick value v: a time in us is written in the unit that keeps
 * the number short (500 ns, 2 us, 10 ms); other numbers get k/M suffixes
 * past ten thousand so a log axis never shows 1e+06. */
static void tick_text(char *buf, size_t len, double v, const char *unit)
{
    if (unit && !strcmp(unit, "us")) {
        static const struct { double scale; const char *name; } u[] = {{1e6, "s"}, {1e3, "ms"}, {1, "us"}, {1e-3, "ns"}};
        int k = 0;
        while (k < 3 && fabs(v) < u[k].scale * (1 - 1e-9))
            k++;
        snprintf(buf, len, "%.4g %s", v == 0 ? 0 : v / u[k].scale, v == 0 ? "us" : u[k].name);
        return;
    }
    const char *sfx = "";
    if (fabs(v) >= 1e6 * (1 - 1e-9)) {
        v /= 1e6;
        sfx = "M";
    } else if (fabs(v) >= 1e4 * (1 - 1e-9)) {
        v /= 1e3;
        sfx = "k";
    }
    snprintf(buf, len, "%.4g%s%s%s", v, sfx, unit && *unit ? " " : "", unit ? unit : "");
}

void ct_plot_axes(const ct_plot *p, const char *xlabel, const char *ylabel)
{
    FILE *f = p->f;
    double x0 = p->left, x1 = p->width - p->right, y0 = p->top, y1 = p->height - p->bottom;
    double t[96];
    int major[96];
    char buf[48];
    fprintf(f, "<g class=\"axes\">\n<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
            x0, y0, x1 - x0, y1 - y0);
    int n = p->x.noticks ? 0 : ticks(&p->x, t, major, 96);
    for (int i = 0; i < n; i++) {
        double x = ct_plot_x(p, t[i]);
        fprintf(f, "<line class=\"grid%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", major[i] ? "" : " minor",
                x, y0, x, y1);
        fprintf(f, "<line class=\"tickmark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x, y1, x,
                y1 + (major[i] ? 4 : 2));
        if (major[i]) {
            tick_text(buf, sizeof buf, t[i], p->x.unit);
            fprintf(f, "<text class=\"tick\" data-axis=\"x\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>", x,
                    y1 + 15, buf);
        }
        fputc('\n', f);
    }
    n = p->y.noticks ? 0 : ticks(&p->y, t, major, 96);
    for (int i = 0; i < n; i++) {
        double y = ct_plot_y(p, t[i]);
        fprintf(f, "<line class=\"grid%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", major[i] ? "" : " minor",
                x0, y, x1, y);
        fprintf(f, "<line class=\"tickmark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x0 - (major[i] ? 4 : 2),
                y, x0, y);
        if (major[i]) {
            tick_text(buf, sizeof buf, t[i], p->y.unit);
            fprintf(f, "<text class=\"tick\" data-axis=\"y\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>", x0 - 6,
                    y + 3.5, buf);
        }
        fputc('\n', f);
    }
    fprintf(f, "<text class=\"label\" data-axis=\"x\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", (x0 + x1) / 2,
            p->height - 6);
    ct_html_text(f, xlabel);
    fprintf(f, "</text>\n<text class=\"label\" data-axis=\"y\" transform=\"translate(12 %.1f) rotate(-90)\" "
               "text-anchor=\"middle\">", (y0 + y1) / 2);
    ct_html_text(f, ylabel);
    fputs("</text>\n</g>\n", f);
}
