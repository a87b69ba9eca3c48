/* report.c - choosing and ordering what `convtune report` shows (report.h);
 * the page itself is report_html.c. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dbio.h"

double ct_report_gflops(const ct_result *r)
{
    return r->median_us > 0 && !isnan(r->median_us) ? r->flops / r->median_us / 1e3 : 0;
}

typedef struct keep_ctx {
    ct_report *r;
    const ct_report_opts *o;
    long seen;
    ct_status st;
} keep_ctx;

static int wanted(const ct_report_opts *o, const ct_result *row)
{
    if (o->nproblems) {
        for (int i = 0; i < o->nproblems; i++)
            if (!strcmp(o->problems[i], row->problem))
                return 1;
        return 0;
    }
    return !o->family || !strcmp(o->family, row->family);
}

static int keep_row(const ct_result *row, void *user)
{
    keep_ctx *k = user;
    k->seen++;
    if (!wanted(k->o, row))
        return 0;
    ct_report *r = k->r;
    if (r->nall == r->cap) {
        long cap = r->cap ? 2 * r->cap : 256;
        ct_result *g = realloc(r->all, (size_t)cap * sizeof *g);
        if (!g) {
            k->st = CT_ERR_INTERNAL;
            return 1;
        }
        r->all = g;
        r->cap = cap;
    }
    r->all[r->nall++] = *row;
    return 0;
}

/* Measurement order: creation time, then the order of the dump (row id
 * within one device row); rows lie in one array, so addresses keep it. */
/* Seconds since the epoch of a stored YYYY-MM-DDTHH:MM:SSZ; 0 when t is
 * not one (an unended run's empty finish). */
static int utc_seconds(const char *t, double *out)
{
    struct tm tm = {0};
    char z = 0;
    if (sscanf(t, "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
               &tm.tm_sec, &z) != 7 || z != 'Z')
        return 0;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    *out = (double)timegm(&tm);
    return 1;
}

static int cmp_measured(const void *a, const void *b)
{
    const ct_result *x = *(const ct_result *const *)a, *y = *(const ct_result *const *)b;
    int c = strcmp(x->created_at, y->created_at);
    return c ? c : (x > y) - (x < y);
}

static int cmp_fastest(const void *a, const void *b)
{
    const ct_result *x = *(const ct_result *const *)a, *y = *(const ct_result *const *)b;
    if (x->median_us != y->median_us)
        return x->median_us < y->median_us ? -1 : 1;
    return (x > y) - (x < y);
}

static int is_ok(const ct_result *r)
{
    return r->status == CT_RS_OK && r->median_us > 0;
}

/* The device of a problem's section: the one the user named (exact, or the
 * only name containing it), or the device of the fastest verified row, or
 * (nothing verified) the device with the most rows. */
static ct_status pick_device(const ct_report *r, const char *problem, const char *want, char *out, size_t len,
                             ct_err *e)
{
    const ct_result *best = NULL, *exact = NULL, *sub = NULL;
    for (long i = 0; i < r->nall; i++) {
        const ct_result *x = &r->all[i];
        if (strcmp(x->problem, problem))
            continue;
        if (want) {
            if (!strcmp(x->device, want))
                exact = x;
            else if (strcasestr(x->device, want)) {
                if (sub && strcmp(sub->device, x->device))
                    return ct_fail(e, CT_ERR_USAGE, "report: --device '%s' matches both '%s' and '%s' for %s; "
                                   "give the exact name", want, sub->device, x->device, problem);
                sub = x;
            }
            continue;
        }
        if (is_ok(x) && (!best || x->median_us < best->median_us))
            best = x;
    }
    if (want) {
        if (!exact && !sub)
            return ct_fail(e, CT_ERR_NOT_FOUND, "report: nothing stored for %s on a device matching '%s'", problem,
                           want);
        snprintf(out, len, "%s", exact ? exact->device : sub->device);
        return CT_OK;
    }
    if (best) {
        snprintf(out, len, "%s", best->device);
        return CT_OK;
    }
    int most = 0;
    for (long i = 0; i < r->nall; i++) {
        if (strcmp(r->all[i].problem, problem))
            continue;
        int n = 0;
        for (long j = 0; j < r->nall; j++)
            n += !strcmp(r->all[j].problem, problem) && !strcmp(r->all[j].device, r->all[i].device);
        if (n > most) {
            most = n;
            snprintf(out, len, "%s", r->all[i].device);
        }
    }
    return most ? CT_OK : ct_fail(e, CT_ERR_NOT_FOUND, "report: nothing stored for %s; tune it first", problem);
}

static ct_status build_section(ct_report *r, ct_report_section *s, const char *problem, const char *device,
                               ct_err *e)
{
    memset(s, 0, sizeof *s);
    snprintf(s->problem, sizeof s->problem, "%s", problem);
    ct_status st = pick_device(r, problem, device, s->device, sizeof s->device, e);
    if (st != CT_OK)
        return st;
    s->rows = malloc((size_t)r->nall * sizeof *s->rows);
    s->ok = malloc((size_t)r->nall * sizeof *s->ok);
    if (!s->rows || !s->ok)
        return ct_fail(e, CT_ERR_INTERNAL, "report: out of memory");
    for (long i = 0; i < r->nall; i++) {
        const ct_result *x = &r->all[i];
        if (strcmp(x->problem, problem) || strcmp(x->device, s->device))
            continue;
        s->rows[s->n++] = x;
        if (is_ok(x))
            s->ok[s->nok++] = x;
        if (x->status >= 0)
            s->counts[x->status]++;
    }
    qsort(s->rows, (size_t)s->n, sizeof *s->rows, cmp_measured);
    qsort(s->ok, (size_t)s->nok, sizeof *s->ok, cmp_fastest);
    s->family = ct_family_find(s->rows[0]->family);
    long long *seen = malloc((size_t)s->n * sizeof *seen);
    int nseen = 0;
    if (!seen)
        return ct_fail(e, CT_ERR_INTERNAL, "report: out of memory");
    for (int i = 0; i < s->n; i++) {
        const ct_result *x = s->rows[i];
        const ct_template *t = s->family ? ct_template_find(s->family, x->tmpl) : NULL;
        /* The naive time the ratios are against: the fastest of the newest
         * run that verified one, as tune printed it and query reads it
         * (ct_db_baseline_us). */
        if (t && t->is_baseline && is_ok(x) &&
            (!s->baseline || x->run_id > s->baseline->run_id ||
             (x->run_id == s->baseline->run_id && x->median_us < s->baseline->median_us)))
            s->baseline = x;
        if (!s->ceil || strcmp(x->measured_at, s->ceil->measured_at) > 0)
            s->ceil = x;
        if (i == 0 || strcmp(x->run_started_at, s->rows[i - 1]->run_started_at))
            s->nruns++;
        if (x->compile_ms > 0)
            s->compile_s += x->compile_ms / 1e3;
        int first = 1;   /* the run's first row here: each run counted once */
        for (int k = 0; k < nseen && first; k++)
            first = seen[k] != x->run_id;
        if (!first)
            continue;
        if (seen)
            seen[nseen++] = x->run_id;
        double t0, t1;
        if (utc_seconds(x->run_started_at, &t0) && utc_seconds(x->run_finished_at, &t1) && t1 >= t0)
            s->tuning_s += t1 - t0, s->ended++;
        else
            s->unended++;
    }
    free(seen);
    return CT_OK;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

ct_status ct_report_load(ct_db *db, const ct_report_opts *o, ct_report *r, ct_err *e)
{
    memset(r, 0, sizeof *r);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(r->generated, sizeof r->generated, "%Y-%m-%dT%H:%M:%SZ", &tm);
    keep_ctx k = {.r = r, .o = o, .st = CT_OK};
    ct_status st = ct_db_dump(db, keep_row, &k, e);
    if (st == CT_OK && k.st != CT_OK)
        st = ct_fail(e, k.st, "report: out of memory");
    if (st != CT_OK)
        return st;
    if (k.seen == 0)
        return ct_fail(e, CT_ERR_NOT_FOUND, "report: the database holds no results; tune a problem first");
    /* The problems, in the order given, else sorted. */
    const char **names = malloc(((size_t)r->nall + (size_t)o->nproblems + 1) * sizeof *names);
    if (!names)
        return ct_fail(e, CT_ERR_INTERNAL, "report: out of memory");
    int nn = 0;
    if (o->nproblems) {
        for (int i = 0; i < o->nproblems; i++) {
            int dup = 0;
            for (int j = 0; j < nn; j++)
                dup |= !strcmp(names[j], o->problems[i]);
            if (!dup)
                names[nn++] = o->problems[i];
        }
    } else {
        for (long i = 0; i < r->nall; i++)
            names[nn++] = r->all[i].problem;
        qsort(names, (size_t)nn, sizeof *names, cmp_str);
        int u = 0;
        for (int i = 0; i < nn; i++)
            if (!u || strcmp(names[u - 1], names[i]))
                names[u++] = names[i];
        nn = u;
        if (nn == 0) {
            free(names);
            return ct_fail(e, CT_ERR_NOT_FOUND, "report: nothing stored for family %s; tune one of its problems first",
                           o->family);
        }
    }
    r->s = calloc((size_t)nn, sizeof *r->s);
    if (!r->s) {
        free(names);
        return ct_fail(e, CT_ERR_INTERNAL, "report: out of memory");
    }
    for (int i = 0; i < nn && st == CT_OK; i++) {
        st = build_section(r, &r->s[i], names[i], o->device, e);
        r->ns = i + 1;
    }
    free(names);
    return st;
}

void ct_report_free(ct_report *r)
{
    for (int i = 0; i < r->ns; i++) {
        free(r->s[i].rows);
        free(r->s[i].ok);
    }
    free(r->s);
    free(r->all);
    memset(r, 0, sizeof *r);
}

/* CSV: the sections' rows, every field, as `db export --format csv`. */
static int in_report(const ct_result *row, void *user)
{
    const ct_report *r = user;
    for (int i = 0; i < r->ns; i++)
        if (!strcmp(r->s[i].problem, row->problem) && !strcmp(r->s[i].device, row->device))
            return 1;
    return 0;
}

ct_status ct_report_csv(ct_db *db, const ct_report *r, FILE *f, ct_err *e)
{
    return ct_dbio_export_filtered(db, CT_DBIO_CSV, f, in_report, (void *)r, NULL, e);
}
