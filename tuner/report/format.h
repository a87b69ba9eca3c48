/* format.h - printing stored candidates as a table, CSV or JSON.
 *
 * A ct_writer streams records from ct_db_query to a FILE:
 *
 *     ct_writer *w = ct_writer_begin(stdout, fmt);
 *     st = ct_db_query(db, &q, ct_writer_cb, w, &err);
 *     if (ct_writer_end(w) != 0) ... write error ...
 *
 * Columns (CSV header names and JSON keys):
 *   problem, device, arch, template, params, status, median_us, min_us,
 *   spread, tflops (flops / median_us / 1e6), gbs (bytes / median_us / 1e3),
 *   pct_fma (100 * tflops / the compute ceiling: fma_tflops, or for a bf16
 *   or f16 problem tc_half_tflops), pct_bw (100 * gbs / bandwidth_gbs),
 *   relerr, registers, smem_bytes, error, created_at;
 *   JSON objects also carry id, run_id, family, template_hash, max_us, reps,
 *   local_bytes, compile_ms, flops and bytes.
 * Measured values (median_us, ...) are printed when present; the derived
 * throughputs only for status "ok" (a wrong result's speed means nothing).
 * Absent values are empty CSV fields and JSON null (relerr: not checked).
 *
 *   table  aligned columns for people: problem, device, template, status,
 *          median_us, TFLOP/s, %FMA, %BW, relerr, params. %FMA is pct_fma
 *          (of the half tensor-core ceiling for bf16 and f16 problems), %BW
 *          pct_bw: each labelled, whichever bounds the kernel.
 *          Widths are taken from the first rows (up to 256 are buffered), so
 *          memory stays bounded on long outputs.
 *   csv    RFC 4180 quoting (fields with a comma, quote, CR or LF are quoted,
 *          quotes doubled), a header line, LF line ends; params is its JSON text.
 *   json   one array of objects, one object per line; params is embedded as
 *          a JSON object (as a string if the stored text is not valid JSON).
 *
 * Started with ct_writer_begin_with and a lookup of each row's baselines
 * (`query` does, db_cudnn.h), every format gains the two comparisons, each
 * the baseline's time over the row's (a verified row only; absent otherwise):
 *   table  cuDNN_us (cuDNN's time: TF32 off for an fp32 problem; "none"
 *          when no baseline is stored), vs_cuDNN and vs_naive ("2.31x"),
 *          after %BW;
 *   csv    cudnn_us, cudnn_tf32_us, vs_cudnn, naive_us, vs_naive, after
 *          created_at;
 *   json   cudnn_version, cudnn_us, cudnn_relerr, cudnn_tf32_us,
 *          cudnn_tf32_relerr, cudnn_timing, vs_cudnn, cudnn_none (why there
 *          is no cuDNN time: "no cuDNN baseline stored", or null), naive_us
 *          and vs_naive. */
#ifndef CT_FORMAT_H
#define CT_FORMAT_H

#include <stdio.h>
#include "db.h"
#include "db_cudnn.h"
#include "status.h"

typedef enum ct_format { CT_FMT_TABLE, CT_FMT_CSV, CT_FMT_JSON } ct_format;

/* "table", "csv" or "json"; anything else is CT_ERR_USAGE naming the value. */
ct_status ct_format_parse(const char *text, ct_format *out, ct_err *e);

typedef struct ct_writer ct_writer;

/* Start output to f (the CSV header or the JSON "[" is written now); NULL
 * when out of memory. */
ct_writer *ct_writer_begin(FILE *f, ct_format fmt);

/* The baselines a row is compared with: the stored cuDNN baseline of its
 * problem on its device (NULL: none looked up) and the naive kernel's time
 * (NaN: none verified). */
typedef struct ct_row_baselines {
    const ct_cudnn_stored *cudnn;
    double naive_us;
} ct_row_baselines;

/* The baselines of r's problem and device; called once per row, the
 * answer read before the next call. */
typedef const ct_row_baselines *(*ct_baselines_fn)(const ct_result *r, void *user);

/* ct_writer_begin with the baseline columns, looked up by fn (NULL: none,
 * as ct_writer_begin). */
ct_writer *ct_writer_begin_with(FILE *f, ct_format fmt, ct_baselines_fn fn, void *user);

/* Write one record; 0 on success, -1 once a write failed or memory ran out. */
int ct_writer_row(ct_writer *w, const ct_result *r);

/* ct_result_cb adapter for ct_db_query (user is the ct_writer): returns
 * non-zero, stopping the query, when writing failed. */
int ct_writer_cb(const ct_result *r, void *writer);

/* Finish the output (flush a table, close the JSON array), flush f and free
 * w. Returns 0, or -1 if any write failed. NULL is ignored (returns 0). */
int ct_writer_end(ct_writer *w);

#endif
