/* report_params.c - parameter plots and sensitivity (report_params.h). */
#include "report_params.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "svg.h"

typedef struct pv {
    const char *tmpl;
    char key[64], val[64];
    double num;
    int isnum;
    double t;
} pv;

static int cmp_pv(const void *a, const void *b)
{
    const pv *x = a, *y = b;
    int c = strcmp(x->tmpl, y->tmpl);
    if (!c)
        c = strcmp(x->key, y->key);
    if (!c && x->isnum != y->isnum)
        c = x->isnum ? -1 : 1;
    if (!c)
        c = x->isnum ? (x->num > y->num) - (x->num < y->num) : strcmp(x->val, y->val);
    if (!c)
        c = (x->t > y->t) - (x->t < y->t);
    return c;
}

static int same_group(const pv *a, const pv *b)
{
    return !strcmp(a->tmpl, b->tmpl) && !strcmp(a->key, b->key);
}

static int same_value(const pv *a, const pv *b)
{
    return same_group(a, b) && !strcmp(a->val, b->val);
}

/* One small plot: per value of one parameter, the median and the best time. */
static void plot_param(FILE *f, const pv *g, int n, double lo, double hi)
{
    int nv = 0;
    for (int i = 0; i < n; i++)
        nv += i == 0 || !same_value(&g[i - 1], &g[i]);
    char label[200];
    snprintf(label, sizeof label, "%s: median and best time by %s", g[0].tmpl, g[0].key);
    ct_plot p;
    ct_plot_begin(&p, f, nv > 8 ? 520 : 340, 220, "param", label);
    p.bottom = 58;
    ct_axis_fit(&p.y, lo, hi, 1);
    p.x = (ct_axis){.lo = 0, .hi = nv, .noticks = 1};   /* the values are categories */
    char xl[120];
    snprintf(xl, sizeof xl, "%s (%s)", g[0].key, g[0].tmpl);
    p.y.unit = "us";
    ct_plot_axes(&p, xl, "time (log scale)");
    fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">median (bar) and best (dot)"
               "</text>\n", (p.left + p.width - p.right) / 2, p.top - 8);
    for (int i = 0, v = 0; i < n; v++) {
        int j = i;
        while (j < n && same_value(&g[i], &g[j]))
            j++;
        int m = j - i;   /* sorted by time within a value */
        double med = m % 2 ? g[i + m / 2].t : 0.5 * (g[i + m / 2 - 1].t + g[i + m / 2].t);
        double x = ct_plot_x(&p, v + 0.5), w = (p.width - p.left - p.right) / (double)nv * 0.5;
        double ym = ct_plot_y(&p, med), yb = ct_plot_y(&p, g[i].t);
        fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, p.height - p.bottom + 14);
        ct_html_text(f, g[i].val);
        fputs("</text>\n", f);
        fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" style=\"stroke:#999\"/>\n",
                x, yb, x, ym);
        fprintf(f, "<rect class=\"mk-pmed\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"3\"><title>", x - w / 2,
                ym - 1.5, w);
        ct_html_text(f, g[i].key);
        fputc('=', f);
        ct_html_text(f, g[i].val);
        fprintf(f, ": %d verified, median %.3f us</title></rect>\n", m, med);
        fprintf(f, "<circle class=\"mk-pbest\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"><title>best %.3f us</title>"
                   "</circle>\n", x, yb, g[i].t);
        i = j;
    }
    ct_plot_end(&p);
}

/* How much a parameter's value matters: over its values, the best time of
 * the candidates with the worst value over the best time with the best
 * value. A ratio near 1 says any value does; the ranking orders the
 * parameters to look at first. */
typedef struct sens {
    const pv *best, *worst;   /* the fastest candidate of the best and of the worst value */
    double ratio;
} sens;

/* g[0..n) is one (template, parameter) group, sorted by value and by time
 * within a value, so each value's first entry is its best time. */
static sens sensitivity(const pv *g, size_t n)
{
    sens r = {g, g, 1};
    for (size_t i = 0; i < n; i++) {
        if (i && same_value(&g[i - 1], &g[i]))
            continue;
        if (g[i].t < r.best->t)
            r.best = &g[i];
        if (g[i].t > r.worst->t)
            r.worst = &g[i];
    }
    r.ratio = r.worst->t / r.best->t;
    return r;
}

static int cmp_sens(const void *a, const void *b)
{
    const sens *x = a, *y = b;
    return (x->ratio < y->ratio) - (x->ratio > y->ratio);
}

static void sens_table(FILE *f, sens *r, int n)
{
    qsort(r, (size_t)n, sizeof *r, cmp_sens);
    fputs("<h4>Parameter sensitivity</h4>\n<table class=\"sens\"><tr><th>#</th><th class=\"l\">template</th>"
          "<th class=\"l\">parameter</th><th>worst / best</th><th class=\"l\">best value</th><th>best us</th>"
          "<th class=\"l\">worst value</th><th>its best us</th></tr>\n", f);
    for (int i = 0; i < n; i++) {
        fprintf(f, "<tr><td>%d</td><td class=\"l\">", i + 1);
        ct_html_text(f, r[i].best->tmpl);
        fputs("</td><td class=\"l\">", f);
        ct_html_text(f, r[i].best->key);
        fprintf(f, "</td><td>%.2fx</td><td class=\"l\">", r[i].ratio);
        ct_html_text(f, r[i].best->val);
        fprintf(f, "</td><td>%.3f</td><td class=\"l\">", r[i].best->t);
        ct_html_text(f, r[i].worst->val);
        fprintf(f, "</td><td>%.3f</td></tr>\n", r[i].worst->t);
    }
    fputs("</table>\n<p class=\"note\">worst / best: the fastest candidate with the parameter's worst value "
          "over the fastest with its best value (per template), largest first.</p>\n", f);
}

void ct_report_params_html(FILE *f, const ct_report_section *s)
{
    size_t cap = 64, n = 0;
    pv *v = malloc(cap * sizeof *v);
    for (int i = 0; i < s->nok && v; i++) {
        ct_json *j = NULL;
        if (ct_json_parse(s->ok[i]->params_json, strlen(s->ok[i]->params_json), &j, NULL) != CT_OK)
            continue;
        for (size_t k = 0; j->type == CT_JSON_OBJECT && k < j->n; k++) {
            if (n == cap) {
                pv *g = realloc(v, (cap *= 2) * sizeof *v);
                if (!g)
                    break;
                v = g;
            }
            pv *x = &v[n];
            const ct_json *val = j->items[k];
            x->tmpl = s->ok[i]->tmpl;
            snprintf(x->key, sizeof x->key, "%s", j->keys[k]);
            x->isnum = val->type == CT_JSON_NUMBER;
            x->num = x->isnum ? val->number : 0;
            if (x->isnum)
                snprintf(x->val, sizeof x->val, "%.10g", val->number);
            else if (val->type == CT_JSON_STRING)
                snprintf(x->val, sizeof x->val, "%s", val->str);
            else
                snprintf(x->val, sizeof x->val, "%s", val->type == CT_JSON_BOOL && val->boolean ? "true" : "false");
            x->t = s->ok[i]->median_us;
            n++;
        }
        ct_json_free(j);
    }
    if (v)
        qsort(v, n, sizeof *v, cmp_pv);
    /* One time range for every plot of the section: side by side, equal
     * heights then mean equal times. */
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; v && i < n; i++) {
        lo = v[i].t < lo ? v[i].t : lo;
        hi = v[i].t > hi ? v[i].t : hi;
    }
    sens *rank = v ? malloc((n + 1) * sizeof *rank) : NULL;
    int nrank = 0;
    int shown = 0;
    fputs("<div class=\"plots\">\n", f);
    for (size_t i = 0; v && i < n;) {
        size_t j = i;
        int nv = 0;
        while (j < n && same_group(&v[i], &v[j])) {
            nv += j == i || !same_value(&v[j - 1], &v[j]);
            j++;
        }
        if (nv >= 2) {
            plot_param(f, &v[i], (int)(j - i), lo, hi);
            shown++;
            if (rank)
                rank[nrank++] = sensitivity(&v[i], j - i);
        }
        i = j;
    }
    fputs("</div>\n", f);
    if (!shown)
        fputs("<p class=\"note\">No parameter took two or more values among the verified candidates.</p>\n", f);
    else if (rank)
        sens_table(f, rank, nrank);
    free(rank);
    free(v);
}
