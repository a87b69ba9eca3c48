/* svg.h - the few pieces of inline SVG that `convtune report` draws its plots
 * with: a plot area with linear or logarithmic axes, ticks and labels, and
 * HTML-escaped text. Marks (circles, rects, lines) are written by the caller
 * with ct_plot_x/ct_plot_y, each with a class, so a test can count them in
 * the rendered page. No scripts, no external resources. */
#ifndef CT_SVG_H
#define CT_SVG_H

#include <stdio.h>

typedef struct ct_axis {
    double lo, hi;      /* data range shown (positive for log) */
    int log;            /* logarithmic scale */
    int noticks;        /* categories: the caller labels the positions */
    const char *unit;   /* tick labels: "us" scales to ns/us/ms/s; other text is appended; NULL none */
} ct_axis;

typedef struct ct_plot {
    FILE *f;
    int width, height;  /* of the whole svg, px */
    double left, top, right, bottom;   /* margins of the plot area, px */
    ct_axis x, y;
} ct_plot;

/* Widen [lo, hi] into a range worth drawing: a margin of 5% (of the decades
 * when log), a degenerate range opened up around its value. */
void ct_axis_fit(ct_axis *a, double lo, double hi, int log);

/* Start an <svg> of w x h with the standard margins; cls and kind become
 * class and data-plot attributes, label the accessible title. */
void ct_plot_begin(ct_plot *p, FILE *f, int w, int h, const char *kind, const char *label);
/* Frame, grid, ticks with values (every axis that is not categorical: log
 * axes at the decades, 2 and 5 labelled when the range is short, linear axes
 * at round steps) and the two axis titles, outside the plot area. */
void ct_plot_axes(const ct_plot *p, const char *xlabel, const char *ylabel);
void ct_plot_end(const ct_plot *p);

/* Pixel position of a data value (clamped to the plot area). */
double ct_plot_x(const ct_plot *p, double v);
double ct_plot_y(const ct_plot *p, double v);

/* s with &, <, >, " and ' escaped, for HTML text and attribute values. */
void ct_html_text(FILE *f, const char *s);

#endif
