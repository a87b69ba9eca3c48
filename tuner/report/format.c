/* format.c - table, CSV and JSON output of stored candidates (format.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "format.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "json.h"
#include "timing.h"

/* Rows buffered to size table columns; later rows reuse those widths. */
#define TABLE_SAMPLE 256
#define TABLE_COLS 13   /* the most: with the baseline columns */

/* The two ceilings get a column each: one "%peak" column holding whichever
 * fraction was larger could not say which ceiling a row was measured
 * against (the CSV and JSON have pct_fma and pct_bw as well). */
static const char *const table_heads[TABLE_COLS] = {
    "problem", "device", "template", "status", "median_us", "TFLOP/s", "%FMA", "%BW", "relerr", "params",
};
static const int table_right[TABLE_COLS] = { 0, 0, 0, 0, 1, 1, 1, 1, 1, 0 };
/* With the baselines (ct_writer_begin_with): each ratio names what it is
 * against, so the naive kernel's is never read as the vendor's. */
static const char *const table_heads_b[TABLE_COLS] = {
    "problem", "device", "template", "status", "median_us", "TFLOP/s", "%FMA", "%BW",
    "cuDNN_us", "vs_cuDNN", "vs_naive", "relerr", "params",
};
static const int table_right_b[TABLE_COLS] = { 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0 };

struct ct_writer {
    FILE *f;
    ct_format fmt;
    long rows;
    int failed;                    /* a write or allocation failed */
    /* table only */
    char **cells;                  /* TABLE_SAMPLE x TABLE_COLS, owned */
    int buffered;                  /* rows in cells */
    int streaming;                 /* widths fixed, header printed */
    size_t width[TABLE_COLS];
    int ncols;                     /* 10, or TABLE_COLS with the baselines */
    const char *const *heads;
    const int *right;
    /* the baseline columns, when looked up */
    ct_baselines_fn baselines;
    void *baselines_user;
};

/* What the query columns derive from a record; negative means absent. */
typedef struct derived {
    double tflops, gbs, pct_fma, pct_bw;
} derived;

/* Throughputs and fractions of the device ceilings, only for a verified
 * candidate with a time. */
static void derive(const ct_result *r, derived *d)
{
    d->tflops = d->gbs = d->pct_fma = d->pct_bw = -1;
    if (r->status != CT_RS_OK || !(r->median_us > 0))
        return;
    if (r->flops > 0)
        d->tflops = r->flops / r->median_us / 1e6;
    if (r->bytes > 0)
        d->gbs = r->bytes / r->median_us / 1e3;
    double peak = ct_result_peak_tflops(r);
    if (d->tflops >= 0 && peak > 0)
        d->pct_fma = 100.0 * d->tflops / peak;
    if (d->gbs >= 0 && r->bandwidth_gbs > 0)
        d->pct_bw = 100.0 * d->gbs / r->bandwidth_gbs;
}

/* What a row is compared with, and the ratios (the baseline's time over
 * the row's, for a verified row with a time); NaN where absent, c NULL when
 * nothing was looked up. */
typedef struct compared {
    const ct_cudnn_stored *c;
    double cudnn_us, vs_cudnn, naive_us, vs_naive;
} compared;

static void compare(const ct_writer *w, const ct_result *r, compared *x)
{
    x->c = NULL;
    x->cudnn_us = x->vs_cudnn = x->naive_us = x->vs_naive = NAN;
    const ct_row_baselines *b = w->baselines ? w->baselines(r, w->baselines_user) : NULL;
    if (!b)
        return;
    x->c = b->cudnn;
    if (b->cudnn)
        x->cudnn_us = ct_cudnn_stored_us(b->cudnn);
    x->naive_us = b->naive_us > 0 ? b->naive_us : NAN;
    if (r->status == CT_RS_OK && r->median_us > 0) {
        if (x->cudnn_us > 0)
            x->vs_cudnn = x->cudnn_us / r->median_us;
        if (x->naive_us > 0)
            x->vs_naive = x->naive_us / r->median_us;
    }
}

/* Accept "table", "csv" or "json" (exact, lower case). */
ct_status ct_format_parse(const char *text, ct_format *out, ct_err *e)
{
    static const struct { const char *name; ct_format fmt; } names[] = {
        { "table", CT_FMT_TABLE }, { "csv", CT_FMT_CSV }, { "json", CT_FMT_JSON },
    };
    for (size_t i = 0; text && i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(text, names[i].name) == 0) {
            *out = names[i].fmt;
            return CT_OK;
        }
    }
    return ct_fail(e, CT_ERR_USAGE, "unknown output format '%s' (use table, csv or json)",
                   text ? text : "");
}

/* ------------------------------------------------------------------------ */
/* Text helpers                                                             */


/* Whether text is exactly one JSON object (surrounding blanks allowed). */
static int json_is_object(const char *text)
{
    ct_json *v = NULL;
    int ok = ct_json_parse(text, strlen(text), &v, NULL) == CT_OK && v->type == CT_JSON_OBJECT;
    ct_json_free(v);
    return ok;
}

/* A timed candidate's spread: one stored as absent was 0 (earlier versions
 * stored a zero spread as NULL); -1 without a time. */
static double spread_of(const ct_result *r)
{
    return r->median_us > 0 ? (isnan(r->spread) ? 0 : r->spread) : -1;
}

/* The stored parameters' text (written from the typed ones for a record not
 * stored yet). */
static const char *params_of(const ct_result *r, char *buf, size_t len)
{
    if (ct_result_params_text(r, buf, len, NULL) != CT_OK)
        buf[0] = '\0';
    return buf;
}

/* Format a number with sig significant digits; "" when absent (< 0, or
 * <= 0 when zero means absent) or not finite. */
static const char *num(char *buf, size_t len, double v, int sig, int zero_is_absent)
{
    if (!isfinite(v) || v < 0 || (zero_is_absent && v == 0))
        buf[0] = '\0';
    else
        snprintf(buf, len, "%.*g", sig, v);
    return buf;
}

/* ------------------------------------------------------------------------ */
/* CSV                                                                      */

static const char *const csv_heads[] = {
    "problem", "device", "arch", "template", "params", "status", "median_us", "min_us",
    "spread", "tflops", "gbs", "pct_fma", "pct_bw", "relerr", "registers", "smem_bytes",
    "error", "created_at",
};

/* One RFC 4180 field: quoted only when it has to be. */
static void csv_field(FILE *f, const char *s, int first)
{
    if (!first)
        fputc(',', f);
    ct_csv_field(f, s);
}

/* Appended by ct_writer_begin_with. */
static const char *const csv_heads_b[] = {"cudnn_us", "cudnn_tf32_us", "vs_cudnn", "naive_us", "vs_naive"};

/* One CSV line in the csv_heads order; absent values are empty fields. */
static void csv_row(const ct_writer *w, FILE *f, const ct_result *r)
{
    derived d;
    char b[16][32], params[sizeof r->params_json];
    derive(r, &d);
    csv_field(f, r->problem, 1);
    csv_field(f, r->device, 0);
    csv_field(f, r->arch, 0);
    csv_field(f, r->tmpl, 0);
    csv_field(f, params_of(r, params, sizeof params), 0);
    csv_field(f, ct_result_status_name(r->status), 0);
    csv_field(f, num(b[0], sizeof b[0], r->median_us, 10, 1), 0);
    csv_field(f, num(b[1], sizeof b[1], r->min_us, 10, 1), 0);
    csv_field(f, num(b[2], sizeof b[2], spread_of(r), 6, 0), 0);
    csv_field(f, num(b[3], sizeof b[3], d.tflops, 6, 0), 0);
    csv_field(f, num(b[4], sizeof b[4], d.gbs, 6, 0), 0);
    csv_field(f, num(b[5], sizeof b[5], d.pct_fma, 4, 0), 0);
    csv_field(f, num(b[6], sizeof b[6], d.pct_bw, 4, 0), 0);
    csv_field(f, num(b[7], sizeof b[7], r->relerr, 6, 0), 0);
    csv_field(f, num(b[8], sizeof b[8], r->registers, 10, 1), 0);
    csv_field(f, num(b[9], sizeof b[9], r->registers > 0 ? r->smem_bytes : -1, 10, 0), 0);
    csv_field(f, r->error, 0);
    csv_field(f, r->created_at, 0);
    if (w->baselines) {
        compared x;
        compare(w, r, &x);
        csv_field(f, num(b[10], sizeof b[10], x.cudnn_us, 10, 1), 0);
        csv_field(f, num(b[11], sizeof b[11], x.c ? x.c->tf32_us : NAN, 10, 1), 0);
        csv_field(f, num(b[12], sizeof b[12], x.vs_cudnn, 6, 0), 0);
        csv_field(f, num(b[13], sizeof b[13], x.naive_us, 10, 1), 0);
        csv_field(f, num(b[14], sizeof b[14], x.vs_naive, 6, 0), 0);
    }
    fputc('\n', f);
}

/* ------------------------------------------------------------------------ */
/* JSON                                                                     */

/* "key": number-or-null (num's rules). */
static void json_num(ct_jw *j, const char *key, double v, int sig, int zero_is_absent)
{
    char b[40];
    if (*num(b, sizeof b, v, sig, zero_is_absent))
        ct_jw_raw(j, key, b);
    else
        ct_jw_null(j, key);
}

/* The baseline members of a JSON row (format.h). */
static void json_baselines(const ct_writer *w, ct_jw *j, const ct_result *r)
{
    compared x;
    compare(w, r, &x);
    const ct_cudnn_stored *c = x.c;
    ct_jw_string_or_null(j, "cudnn_version", c && c->have ? c->version : "");
    json_num(j, "cudnn_us", x.cudnn_us, 10, 1);
    json_num(j, "cudnn_relerr", c ? c->relerr : NAN, 6, 0);
    json_num(j, "cudnn_tf32_us", c ? c->tf32_us : NAN, 10, 1);
    json_num(j, "cudnn_tf32_relerr", c ? c->tf32_relerr : NAN, 6, 0);
    ct_jw_string_or_null(j, "cudnn_timing", c && c->have ? c->timing : "");
    json_num(j, "vs_cudnn", x.vs_cudnn, 6, 0);
    char none[sizeof c->none + 40] = "";
    if (!(x.cudnn_us > 0) && c)
        ct_cudnn_stored_none(c, none, sizeof none);
    else if (!(x.cudnn_us > 0))
        snprintf(none, sizeof none, "no cuDNN baseline stored");
    ct_jw_string_or_null(j, "cudnn_none", none);
    json_num(j, "naive_us", x.naive_us, 10, 1);
    json_num(j, "vs_naive", x.vs_naive, 6, 0);
}

/* One JSON object (spaced: query output is read by people too). */
static void json_row(const ct_writer *w, FILE *f, const ct_result *r)
{
    derived d;
    char params[sizeof r->params_json];
    ct_jw j;
    derive(r, &d);
    ct_jw_file(&j, f, 1);
    ct_jw_object(&j, NULL);
    ct_jw_int(&j, "id", r->id);
    ct_jw_int(&j, "run_id", r->run_id);
    ct_jw_string(&j, "problem", r->problem);
    ct_jw_string(&j, "family", r->family);
    ct_jw_string(&j, "device", r->device);
    ct_jw_string(&j, "arch", r->arch);
    ct_jw_string(&j, "template", r->tmpl);
    ct_jw_string(&j, "template_hash", r->template_hash);
    params_of(r, params, sizeof params);
    if (json_is_object(params))
        ct_jw_raw(&j, "params", params);        /* already a JSON object: embed it */
    else
        ct_jw_string(&j, "params", params);     /* damaged or truncated: keep it readable */
    ct_jw_string(&j, "status", ct_result_status_name(r->status));
    json_num(&j, "median_us", r->median_us, 10, 1);
    json_num(&j, "min_us", r->min_us, 10, 1);
    json_num(&j, "max_us", r->max_us, 10, 1);
    json_num(&j, "spread", spread_of(r), 6, 0);
    json_num(&j, "reps", r->reps, 10, 1);
    /* How it was timed: only where stored (schema 4 on), so a record of an
     * older database reads as before. */
    if (r->timing[0]) {
        char how[64];
        ct_jw_string(&j, "timing", r->timing);
        json_num(&j, "batch", r->batch, 10, 1);
        ct_jw_string(&j, "timing_text", ct_timing_describe(r->timing, r->batch, how, sizeof how));
    }
    if (r->ci_lo_us > 0 && r->ci_hi_us > 0) {
        char b[2][40];
        ct_jw_array(&j, "ci95_us");
        ct_jw_raw(&j, NULL, num(b[0], sizeof b[0], r->ci_lo_us, 10, 1));
        ct_jw_raw(&j, NULL, num(b[1], sizeof b[1], r->ci_hi_us, 10, 1));
        ct_jw_end(&j);
    }
    json_num(&j, "tflops", d.tflops, 6, 0);
    json_num(&j, "gbs", d.gbs, 6, 0);
    json_num(&j, "pct_fma", d.pct_fma, 4, 0);
    json_num(&j, "pct_bw", d.pct_bw, 4, 0);
    json_num(&j, "relerr", r->relerr, 6, 0);
    json_num(&j, "registers", r->registers, 10, 1);
    json_num(&j, "smem_bytes", r->registers > 0 ? r->smem_bytes : -1, 10, 0);
    json_num(&j, "local_bytes", r->registers > 0 ? r->local_bytes : -1, 10, 0);
    json_num(&j, "compile_ms", r->compile_ms, 10, 1);
    json_num(&j, "flops", r->flops, 15, 0);
    json_num(&j, "bytes", r->bytes, 15, 0);
    if (w->baselines)
        json_baselines(w, &j, r);
    ct_jw_string_or_null(&j, "error", r->error);
    ct_jw_string_or_null(&j, "created_at", r->created_at);
    ct_jw_end(&j);
}

/* ------------------------------------------------------------------------ */
/* Table                                                                    */

/* Copy of s for a table cell, with control characters (a newline in an
 * error, say) replaced so a row stays on one line. */
static char *cell_dup(const char *s)
{
    char *c = strdup(s);
    if (c)
        for (char *p = c; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
    return c;
}

/* Display width: UTF-8 code points (continuation bytes take no column). */
static size_t cell_width(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* One table line: text left-aligned, numbers right-aligned, the last
 * column (params) unpadded so lines carry no trailing blanks. */
static void table_print(ct_writer *w, char *const *cells)
{
    for (int c = 0; c < w->ncols; c++) {
        size_t n = cell_width(cells[c]);
        size_t pad = w->width[c] > n ? w->width[c] - n : 0;
        if (c)
            fputs("  ", w->f);
        if (w->right[c])
            fprintf(w->f, "%*s", (int)pad, "");
        fputs(cells[c], w->f);
        if (!w->right[c] && c + 1 < w->ncols)
            fprintf(w->f, "%*s", (int)pad, "");
    }
    fputc('\n', w->f);
}

/* Fix the column widths from the header and the buffered rows, print them
 * and free them; rows after this print at once. */
static void table_flush(ct_writer *w)
{
    if (!w->streaming) {
        for (int c = 0; c < w->ncols; c++) {
            w->width[c] = strlen(w->heads[c]);
            for (int i = 0; i < w->buffered; i++) {
                size_t n = cell_width(w->cells[i * TABLE_COLS + c]);
                if (n > w->width[c])
                    w->width[c] = n;
            }
        }
        table_print(w, (char *const *)w->heads);
        w->streaming = 1;
    }
    for (int i = 0; i < w->buffered; i++) {
        table_print(w, w->cells + i * TABLE_COLS);
        for (int c = 0; c < w->ncols; c++) {
            free(w->cells[i * TABLE_COLS + c]);
            w->cells[i * TABLE_COLS + c] = NULL;
        }
    }
    w->buffered = 0;
}

/* Microseconds with about four significant digits. */
static void fmt_us(char *b, size_t n, double v)
{
    int decimals = v < 10 ? 3 : v < 100 ? 2 : v < 10000 ? 1 : 0;
    snprintf(b, n, "%.*f", decimals, v);
}

/* Format a record's table cells and buffer them (or print them at once
 * once the widths are fixed); -1 when out of memory. */
static int table_row(ct_writer *w, const ct_result *r)
{
    derived d;
    char med[32] = "-", tfl[32] = "-", fma[32] = "-", bw[32] = "-", rel[32] = "-";
    char cu[32] = "-", vcu[32] = "-", vna[32] = "-";
    char **cells, params[sizeof r->params_json];
    int ok = r->status == CT_RS_OK;

    derive(r, &d);
    if (ok && r->median_us > 0)
        fmt_us(med, sizeof med, r->median_us);
    if (d.tflops >= 0)
        snprintf(tfl, sizeof tfl, d.tflops < 1 ? "%.3f" : "%.2f", d.tflops);
    if (d.pct_fma >= 0)
        snprintf(fma, sizeof fma, "%.1f", d.pct_fma);
    if (d.pct_bw >= 0)
        snprintf(bw, sizeof bw, "%.1f", d.pct_bw);
    if (r->relerr >= 0)
        snprintf(rel, sizeof rel, "%.1e", r->relerr);
    if (w->baselines) {
        compared x;
        compare(w, r, &x);
        if (x.cudnn_us > 0)
            fmt_us(cu, sizeof cu, x.cudnn_us);
        else
            snprintf(cu, sizeof cu, "none");   /* the command says why below the table */
        if (x.vs_cudnn > 0)
            snprintf(vcu, sizeof vcu, "%.2fx", x.vs_cudnn);
        if (x.vs_naive > 0)
            snprintf(vna, sizeof vna, "%.1fx", x.vs_naive);
    }

    if (w->buffered == TABLE_SAMPLE)
        table_flush(w);
    cells = w->cells + w->buffered * TABLE_COLS;
    params_of(r, params, sizeof params);
    const char *plain[TABLE_COLS] = {
        r->problem, r->device, r->tmpl, ct_result_status_name(r->status), med, tfl, fma, bw, rel, params,
    };
    const char *with_b[TABLE_COLS] = {
        r->problem, r->device, r->tmpl, ct_result_status_name(r->status), med, tfl, fma, bw, cu, vcu, vna, rel,
        params,
    };
    const char *const *text = w->baselines ? with_b : plain;
    for (int c = 0; c < w->ncols; c++) {
        if (!(cells[c] = cell_dup(text[c]))) {
            while (c-- > 0) {
                free(cells[c]);
                cells[c] = NULL;
            }
            return -1;
        }
    }
    w->buffered++;
    if (w->streaming)
        table_flush(w);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Writer                                                                   */

ct_writer *ct_writer_begin(FILE *f, ct_format fmt)
{
    return ct_writer_begin_with(f, fmt, NULL, NULL);
}

/* Allocate the writer and emit what precedes the rows. */
ct_writer *ct_writer_begin_with(FILE *f, ct_format fmt, ct_baselines_fn fn, void *user)
{
    ct_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->f = f;
    w->fmt = fmt;
    w->baselines = fn;
    w->baselines_user = user;
    w->ncols = fn ? TABLE_COLS : 10;
    w->heads = fn ? table_heads_b : table_heads;
    w->right = fn ? table_right_b : table_right;
    if (fmt == CT_FMT_TABLE) {
        w->cells = calloc((size_t)TABLE_SAMPLE * TABLE_COLS, sizeof *w->cells);
        if (!w->cells) {
            free(w);
            return NULL;
        }
    } else if (fmt == CT_FMT_CSV) {
        for (size_t i = 0; i < sizeof csv_heads / sizeof csv_heads[0]; i++)
            csv_field(f, csv_heads[i], i == 0);
        for (size_t i = 0; fn && i < sizeof csv_heads_b / sizeof csv_heads_b[0]; i++)
            csv_field(f, csv_heads_b[i], 0);
        fputc('\n', f);
    } else {
        fputc('[', f);
    }
    if (ferror(f))
        w->failed = 1;
    return w;
}

/* Emit one record in the writer's format and note a failed write. */
int ct_writer_row(ct_writer *w, const ct_result *r)
{
    if (!w || !r || w->failed)
        return -1;
    switch (w->fmt) {
    case CT_FMT_TABLE:
        if (table_row(w, r) != 0)
            w->failed = 1;
        break;
    case CT_FMT_CSV:
        csv_row(w, w->f, r);
        break;
    case CT_FMT_JSON:
        fputs(w->rows == 0 ? "\n  " : ",\n  ", w->f);
        json_row(w, w->f, r);
        break;
    }
    w->rows++;
    if (ferror(w->f))
        w->failed = 1;
    return w->failed ? -1 : 0;
}

/* Adapter so a writer can be handed straight to ct_db_query. */
int ct_writer_cb(const ct_result *r, void *writer)
{
    return ct_writer_row(writer, r) != 0;
}

/* Emit what follows the rows, flush, free; report any failed write. */
int ct_writer_end(ct_writer *w)
{
    int failed;
    if (!w)
        return 0;
    if (w->fmt == CT_FMT_TABLE && !w->failed)
        table_flush(w);
    else if (w->fmt == CT_FMT_JSON)
        fputs(w->rows ? "\n]\n" : "]\n", w->f);
    if (fflush(w->f) != 0 || ferror(w->f))
        w->failed = 1;
    failed = w->failed;
    if (w->cells) {
        for (int i = 0; i < TABLE_SAMPLE * TABLE_COLS; i++)
            free(w->cells[i]);
        free(w->cells);
    }
    free(w);
    return failed ? -1 : 0;
}
