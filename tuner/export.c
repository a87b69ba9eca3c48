/* export.c - writing exports: a .cu and its C header (export.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "export.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compile.h"
#include "executor.h"
#include "outfile.h"
#include "problem.h"

#define TMP_PREFIX ".convtune-export-"

/* The template of the generic kernel of a family export (templates/NAME.cu). */
#define GENERIC_TEMPLATE "conv1d_generic"

void ct_export_symbol(const char *canonical, char *buf, size_t len)
{
    size_t o = (size_t)snprintf(buf, len, "convtune_");
    for (const char *s = canonical; *s && o + 1 < len; s++)
        buf[o++] = isalnum((unsigned char)*s) ? *s : '_';
    buf[o < len ? o : len - 1] = '\0';
}

void ct_export_default_path(const char *canonical, char *buf, size_t len)
{
    char sym[200];
    ct_export_symbol(canonical, sym, sizeof sym);
    snprintf(buf, len, "generated/%s.cu", sym + strlen("convtune_"));
}

void ct_export_family_default_path(const char *family, char *buf, size_t len)
{
    snprintf(buf, len, "generated/convtune_%s.cu", family);
}

void ct_export_header_path(const char *cu_path, char *buf, size_t len)
{
    size_t n = strlen(cu_path);
    if (n > 3 && strcmp(cu_path + n - 3, ".cu") == 0)
        snprintf(buf, len, "%.*s.h", (int)(n - 3), cu_path);
    else
        snprintf(buf, len, "%s.h", cu_path);
}

/* Text from the database (a device name, say) made safe for a // comment
 * line and for a C string literal: control characters become spaces, quotes
 * and backslashes are escaped where quoted is set. */
static const char *c_text(const char *in, int quoted, char *out, size_t len)
{
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && o + 3 < len; p++) {
        if (*p < 0x20 || *p == 0x7f) {
            out[o++] = ' ';
        } else if (quoted && (*p == '"' || *p == '\\')) {
            out[o++] = '\\';
            out[o++] = (char)*p;
        } else if (quoted && *p == '?') {
            out[o++] = '\\';   /* no trigraphs */
            out[o++] = '?';
        } else {
            out[o++] = (char)*p;
        }
    }
    out[o] = '\0';
    return out;
}

/* The last path component, for naming a file from inside its partner. */
static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* An include guard from a name: upper case, other characters '_'. */
static void guard_name(const char *name, char *buf, size_t len)
{
    size_t o = 0;
    for (const char *s = name; *s && o + 3 < len; s++)
        buf[o++] = isalnum((unsigned char)*s) ? (char)toupper((unsigned char)*s) : '_';
    snprintf(buf + o, len - o, "_H");
}

static int has_symbol(const ct_buffer *bufs, int nb)
{
    for (int i = 0; i < nb; i++)
        if (bufs[i].symbol && !bufs[i].is_output)
            return 1;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* One exported kernel instance                                             */

typedef struct instance {
    const ct_record *rec;
    ct_problem p;
    const ct_template *t;
    ct_params c;
    char *src;                 /* the template's text, malloc'ed */
    char sym[200];             /* the launcher's name */
    ct_buffer bufs[CT_MAX_BUFS];
    int nb;
    ct_define defs[CT_MAX_DEFINES];
    int nd;
    ct_launch l;
} instance;

static void instance_free(instance *in)
{
    free(in->src);
    in->src = NULL;
}

/* Parse and check a stored result: its problem, template (unchanged since
 * tuning) and parameters. */
static ct_status instance_load(instance *in, const ct_record *rec, const char *templates_dir, ct_err *e)
{
    memset(in, 0, sizeof *in);
    in->rec = rec;
    ct_status rc = ct_problem_parse(rec->problem, &in->p, e);
    if (rc != CT_OK)
        return rc;
    const ct_family *fam = in->p.family;
    in->t = ct_template_find(fam, rec->tmpl);
    if (!in->t)
        return ct_fail(e, CT_ERR_NOT_FOUND, "template %s of the stored result for %s is not in this convtune",
                       rec->tmpl, rec->problem);
    if ((rc = ct_params_from_json(rec->params, in->t->params, in->t->nparams, &in->c, e)) != CT_OK)
        return rc;
    if ((rc = ct_template_source(in->t->name, templates_dir, &in->src, e)) != CT_OK)
        return rc;
    char hash[17];
    ct_hash_hex(in->src, hash);
    if (strcmp(hash, rec->template_hash) != 0) {
        instance_free(in);
        return ct_fail(e, CT_ERR_NOT_FOUND,
                       "template %s changed since the result for %s was tuned (hash %s, stored %s); tune again",
                       in->t->name, rec->problem, hash, rec->template_hash);
    }
    ct_export_symbol(in->p.canonical, in->sym, sizeof in->sym);
    in->nb = fam->buffers(&in->p, in->bufs);
    in->nd = fam->defines(&in->p, in->defs);
    fam->geometry(&in->p, in->t, &in->c, &in->l);
    return CT_OK;
}

/* The launcher's parameter list: the buffers and the stream, declared as
 * stream_decl ("cudaStream_t stream" or "struct CUstream_st *stream"). */
static void param_list(const instance *in, const char *stream_decl, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int i = 0; i < in->nb && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%sfloat *%s", i ? ", " : "",
                              in->bufs[i].is_output ? "" : "const ", in->bufs[i].name);
    if (o < len)
        snprintf(buf + o, len - o, ", %s", stream_decl);
}

static double tflops_of(const ct_record *rec)
{
    return rec->median_us > 0 ? rec->flops / rec->median_us / 1e6 : 0;
}

/* The provenance lines of one instance, each starting with "// ". */
static void emit_provenance(FILE *f, const instance *in, const char *now)
{
    const ct_record *rec = in->rec;
    char dev_c[300], when_c[64], params_c[600];
    double tflops = tflops_of(rec);
    fprintf(f, "// problem:   %s  (%s)\n", in->p.canonical, in->p.family->summary);
    fprintf(f, "// device:    %s (%s), tuned %s, exported %s\n", c_text(rec->device, 0, dev_c, sizeof dev_c),
            rec->arch, c_text(rec->created_at, 0, when_c, sizeof when_c), now);
    fprintf(f, "// template:  %s (content hash %s)\n", rec->tmpl, rec->template_hash);
    fprintf(f, "// params:    %s\n", c_text(rec->params, 0, params_c, sizeof params_c));
    fprintf(f, "// measured:  median %.2f us over %d runs (min %.2f us), %.2f TFLOP/s", rec->median_us,
            rec->reps, rec->min_us, tflops);
    if (rec->fma_tflops > 0)
        fprintf(f, " = %.0f%% of the measured fp32 FMA peak", 100.0 * tflops / rec->fma_tflops);
    fprintf(f, ";\n//            relative L2 error %.2g against an fp64 reference\n", rec->relerr);
    if (in->t->exec && *in->t->exec->link_flags)
        fprintf(f, "// needs:     %s (link with %s)\n", in->t->exec->library, in->t->exec->link_flags);
}

/* The problem sizes, launch geometry and parameters as #defines, then the
 * template text unchanged. */
static void emit_kernel_text(FILE *f, const instance *in)
{
    fprintf(f, "// problem sizes\n");
    for (int i = 0; i < in->nd; i++)
        fprintf(f, "#define %s %lld\n", in->defs[i].name, in->defs[i].value);
    const ct_launch *l = &in->l;
    fprintf(f, "\n// launch geometry\n#define CT_GRID_X %u\n#define CT_GRID_Y %u\n#define CT_GRID_Z %u\n"
               "#define CT_BLOCK_X %u\n#define CT_BLOCK_Y %u\n#define CT_BLOCK_Z %u\n#define CT_SMEM_BYTES %u\n",
            l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], l->smem_bytes);
    fprintf(f, "\n// tuned parameters\n");
    for (int i = 0; i < in->c.n; i++)
        fprintf(f, "#define %s %ld\n", in->c.names[i], in->c.values[i]);
    fprintf(f, "\n// ---- templates/%s.cu ----\n%s\n// ---- end of template ----\n\n", in->t->name, in->src);
}

/* The host launcher (no preprocessor guard around it). */
static void emit_launcher(FILE *f, const instance *in)
{
    char params[400], sig[700];
    param_list(in, "cudaStream_t stream", params, sizeof params);
    snprintf(sig, sizeof sig, "int %s(%s)", in->sym, params);
    if (in->t->exec) {
        in->t->exec->emit_launcher(f, &in->p, &in->c, in->sym, sig);
        return;
    }
    fprintf(f, "extern \"C\" %s\n{\n", sig);
    for (int i = 0; i < in->nb; i++) {
        if (!in->bufs[i].symbol || in->bufs[i].is_output)
            continue;
        /* The template declares the __constant__ copy only for some
         * parameter values; the #if follows the same condition. */
        fprintf(f, "#ifdef CT_SYMBOL_%s\n", in->bufs[i].symbol);
        fprintf(f, "    {\n        cudaError_t err = cudaMemcpyToSymbolAsync(%s, %s, %zu * sizeof(float), 0,\n"
                   "                                                  cudaMemcpyDeviceToDevice, stream);\n"
                   "        if (err != cudaSuccess)\n            return (int)err;\n    }\n#endif\n",
                in->bufs[i].symbol, in->bufs[i].name, in->bufs[i].count);
    }
    /* Past 48 KiB of shared memory, static and dynamic together, a kernel
     * must opt in to its dynamic part; once per process is enough. */
    fprintf(f, "#if CT_SMEM_BYTES > 0\n    static int smem_opted_in = 0;\n    if (!smem_opted_in) {\n"
               "        cudaError_t err = cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, "
               "CT_SMEM_BYTES);\n        if (err != cudaSuccess)\n            return (int)err;\n"
               "        smem_opted_in = 1;\n    }\n#endif\n", in->t->name);
    fprintf(f, "    const dim3 grid(CT_GRID_X, CT_GRID_Y, CT_GRID_Z), block(CT_BLOCK_X, CT_BLOCK_Y, CT_BLOCK_Z);\n");
    fprintf(f, "    %s<<<grid, block, CT_SMEM_BYTES, stream>>>(", in->t->name);
    for (int i = 0; i < in->nb; i++)
        fprintf(f, "%s%s", i ? ", " : "", in->bufs[i].name);
    fprintf(f, ");\n    return (int)cudaGetLastError();\n}\n");
}

/* The declarations of an instance's functions for the C header. */
static void emit_declarations(FILE *f, const instance *in)
{
    char params[400];
    param_list(in, "struct CUstream_st *stream", params, sizeof params);
    fprintf(f, "// %s: device pointers (16-byte aligned, as cudaMalloc returns them),\n//  ", in->p.canonical);
    for (int i = 0; i < in->nb; i++)
        fprintf(f, " %s %zu floats%s", in->bufs[i].name, in->bufs[i].count, i + 1 < in->nb ? "," : ";");
    fprintf(f, " returns 0 (cudaSuccess) or the cudaError_t of the failure.\n");
    fprintf(f, "int %s(%s);\n", in->sym, params);
    if (in->t->exec)
        fprintf(f, "// Frees what %s keeps between calls (plans, scratch).\nvoid %s_release(void);\n", in->sym,
                in->sym);
}

/* The self-test main() of a single export: random inputs, the CPU fp64
 * reference, a NaN-filled output, and the time measured the way convtune
 * measures it. */
static void emit_selftest(FILE *f, const instance *in, double tolerance)
{
    const ct_record *rec = in->rec;
    const int nb = in->nb;
    char dev_q[300], prob_q[400];
    c_text(rec->device, 1, dev_q, sizeof dev_q);
    c_text(rec->problem, 1, prob_q, sizeof prob_q);
    fprintf(f, "#ifdef CONVTUNE_SELFTEST\n#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
               "#include <string.h>\n#include <time.h>\n#include <algorithm>\n\n%s\n", in->p.family->reference_c);
    fprintf(f, "static float ct_uniform(unsigned long long *s)\n{\n"
               "    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;\n"
               "    return (float)((double)(*s >> 40) / 8388608.0 - 1.0);\n}\n\n");
    fprintf(f, "#define CT_CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \\\n"
               "    fprintf(stderr, \"%%s:%%d: %%s: %%s\\n\", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \\\n"
               "    return 2; } } while (0)\n\n");
    fprintf(f, "int main(void)\n{\n    const size_t counts[%d] = {", nb);
    for (int i = 0; i < nb; i++)
        fprintf(f, "%s%zu", i ? ", " : "", in->bufs[i].count);
    fprintf(f, "};\n    float *host[%d];\n    float *dev[%d];\n", nb, nb);
    fprintf(f, "    unsigned long long seed = (unsigned long long)time(NULL) * 2654435761ULL | 1;\n");
    fprintf(f, "    for (int i = 0; i < %d; i++) {\n"
               "        host[i] = (float *)malloc(counts[i] * sizeof(float));\n"
               "        if (!host[i]) { fprintf(stderr, \"out of memory\\n\"); return 2; }\n"
               "        CT_CHECK(cudaMalloc((void **)&dev[i], counts[i] * sizeof(float)));\n"
               "        for (size_t k = 0; k < counts[i]; k++)\n"
               "            host[i][k] = ct_uniform(&seed);\n"
               "        CT_CHECK(cudaMemcpy(dev[i], host[i], counts[i] * sizeof(float), cudaMemcpyHostToDevice));\n"
               "    }\n", nb);
    int out = 0;
    for (int i = 0; i < nb; i++)
        if (in->bufs[i].is_output)
            out = i;
    fprintf(f, "    CT_CHECK(cudaMemset(dev[%d], 0xFF, counts[%d] * sizeof(float)));  /* NaN */\n", out, out);
    fprintf(f, "#define CT_CALL() %s(", in->sym);
    for (int i = 0; i < nb; i++)
        fprintf(f, "%sdev[%d]", i ? ", " : "", i);
    fprintf(f, ", 0)\n");
    fprintf(f, "    CT_CHECK((cudaError_t)CT_CALL());\n    CT_CHECK(cudaDeviceSynchronize());\n");
    fprintf(f, "    CT_CHECK(cudaMemcpy(host[%d], dev[%d], counts[%d] * sizeof(float), cudaMemcpyDeviceToHost));\n",
            out, out, out);
    fprintf(f, "    double *ref = (double *)malloc(counts[%d] * sizeof(double));\n", out);
    fprintf(f, "    const float *in[%d];\n    int nin = 0;\n", nb);
    for (int i = 0; i < nb; i++)
        if (!in->bufs[i].is_output)
            fprintf(f, "    in[nin++] = host[%d];\n", i);
    fprintf(f, "    (void)nin;\n    ct_reference(in, ref);\n");
    fprintf(f, "    double num = 0, den = 0;\n    int bad = 0;\n"
               "    for (size_t k = 0; k < counts[%d]; k++) {\n"
               "        if (!isfinite(host[%d][k])) bad = 1;\n"
               "        double d = host[%d][k] - ref[k];\n        num += d * d;\n        den += ref[k] * ref[k];\n"
               "    }\n    double relerr = bad ? INFINITY : sqrt(num / (den > 0 ? den : 1));\n", out, out, out);
    fprintf(f, "    cudaEvent_t ev[2];\n    CT_CHECK(cudaEventCreate(&ev[0]));\n    CT_CHECK(cudaEventCreate(&ev[1]));\n"
               "    for (int i = 0; i < 3; i++) CT_CHECK((cudaError_t)CT_CALL());\n"
               "    /* -DCT_SELFTEST_REPS=2 keeps a run under compute-sanitizer short. */\n"
               "#ifndef CT_SELFTEST_REPS\n#define CT_SELFTEST_REPS 200\n#endif\n"
               "    enum { REPS = CT_SELFTEST_REPS };\n    float t[REPS];\n"
               "    for (int i = 0; i < REPS; i++) {\n"
               "        CT_CHECK(cudaEventRecord(ev[0]));\n        CT_CHECK((cudaError_t)CT_CALL());\n"
               "        CT_CHECK(cudaEventRecord(ev[1]));\n        CT_CHECK(cudaEventSynchronize(ev[1]));\n"
               "        CT_CHECK(cudaEventElapsedTime(&t[i], ev[0], ev[1]));\n    }\n"
               "    std::sort(t, t + REPS);\n    const double median_us = 0.5 * (t[REPS / 2 - 1] + t[REPS / 2]) * 1e3;\n");
    fprintf(f, "    const int pass = relerr <= %g;\n", tolerance);
    fprintf(f, "    printf(\"convtune selftest %%s: %%s relerr %%.3g (tolerance %g), median %%.2f us "
               "(tuned: %.2f us on %%s)\\n\",\n           \"%s\", pass ? \"PASS\" : \"FAIL\", relerr, median_us, "
               "\"%s\");\n", tolerance, rec->median_us, prob_q, dev_q);
    fprintf(f, "    for (int i = 0; i < %d; i++) { cudaFree(dev[i]); free(host[i]); }\n    free(ref);\n"
               "    return pass ? 0 : 1;\n}\n#endif  /* CONVTUNE_SELFTEST */\n", nb);
}

static void now_text(char *buf, size_t len)
{
    time_t tt = time(NULL);
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ------------------------------------------------------------------------ */
/* Writing a pair                                                           */

typedef void (*emit_fn)(FILE *f, void *user);

/* Write cu_path and its header atomically as a pair (see export.h). */
static ct_status write_pair(const char *cu_path, int force, emit_fn emit_cu, emit_fn emit_h, void *user, ct_err *e)
{
    char h_path[1100];
    ct_export_header_path(cu_path, h_path, sizeof h_path);
    ct_status rc;
    if ((rc = ct_outfile_check(cu_path, force, "export", e)) != CT_OK ||
        (rc = ct_outfile_check(h_path, force, "export", e)) != CT_OK)
        return rc;
    ct_outfile cu, h;
    if ((rc = ct_outfile_open(&cu, cu_path, TMP_PREFIX, "export", e)) != CT_OK)
        return rc;
    emit_cu(cu.f, user);
    if ((rc = ct_outfile_close(&cu, e)) != CT_OK)
        return rc;
    if ((rc = ct_outfile_open(&h, h_path, TMP_PREFIX, "export", e)) != CT_OK) {
        ct_outfile_discard(&cu);
        return rc;
    }
    emit_h(h.f, user);
    if ((rc = ct_outfile_close(&h, e)) != CT_OK) {
        ct_outfile_discard(&cu);
        return rc;
    }
    /* Both are complete: the header first, then the .cu; if the second
     * rename fails, the header just put in place goes too. */
    if ((rc = ct_outfile_commit(&h, e)) != CT_OK) {
        ct_outfile_discard(&cu);
        return rc;
    }
    if ((rc = ct_outfile_commit(&cu, e)) != CT_OK) {
        unlink(h_path);
        return rc;
    }
    return CT_OK;
}

/* ------------------------------------------------------------------------ */
/* Single-problem export                                                    */

typedef struct single {
    const instance *in;
    const char *cu_name, *h_name;
    double tolerance;
    char now[32];
} single;

static void single_cu(FILE *f, void *user)
{
    const single *s = user;
    const instance *in = s->in;
    const ct_record *rec = in->rec;
    const char *link = in->t->exec ? in->t->exec->link_flags : "";
    fprintf(f, "// autogenerated by convtune %s, do not edit: re-run `convtune export` instead.\n//\n",
            CONVTUNE_VERSION);
    emit_provenance(f, in, s->now);
    fprintf(f, "//\n// Header:    %s (written with this file: the launcher for C and C++ callers)\n", s->h_name);
    fprintf(f, "// Build:     nvcc -arch=%s -c %s\n", rec->arch, s->cu_name);
    if (*link)
        fprintf(f, "// Link:      %s (%s)\n", link, in->t->exec->library);
    fprintf(f, "// Self-test: nvcc -arch=%s -DCONVTUNE_SELFTEST %s -o selftest%s%s && ./selftest\n//\n", rec->arch,
            s->cu_name, *link ? " " : "", link);
    char params[400];
    param_list(in, "cudaStream_t stream", params, sizeof params);
    fprintf(f, "// C signature (device pointers, 16-byte aligned as cudaMalloc returns them):\n");
    fprintf(f, "//   int %s(%s);\n//   returns 0 (cudaSuccess) or the cudaError_t of the failure.\n", in->sym, params);
    for (int i = 0; i < in->nb; i++)
        fprintf(f, "//   %-5s %zu floats\n", in->bufs[i].name, in->bufs[i].count);
    if (in->t->exec)
        fprintf(f, "//\n// This winner is several launches and %s calls (the launcher below), so call\n"
                   "// the launcher (through %s) rather than one kernel from Python.\n",
                in->t->exec->library, s->h_name);
    else
        fprintf(f, "//\n// From Python, compile this file with CuPy's RawModule (NVRTC skips the host\n"
                   "// code below) and launch %s with grid CT_GRID_*, block CT_BLOCK_* and\n"
                   "// CT_SMEM_BYTES of dynamic shared memory%s.\n",
                in->t->name, has_symbol(in->bufs, in->nb) ? ", after copying the inputs named in CT_SYMBOL_* into\n"
                                                            "// their __constant__ arrays (get_global)" : "");
    fprintf(f, "\n#if !defined(__CUDACC_RTC__)\n#include <cuda_runtime.h>\n#endif\n\n");
    emit_kernel_text(f, in);
    fprintf(f, "#if !defined(__CUDACC_RTC__)\n");
    emit_launcher(f, in);
    fprintf(f, "\n");
    emit_selftest(f, in, s->tolerance);
    fprintf(f, "#endif  /* !__CUDACC_RTC__ */\n");
}

static void single_h(FILE *f, void *user)
{
    const single *s = user;
    const instance *in = s->in;
    char guard[240];
    guard_name(in->sym, guard, sizeof guard);
    fprintf(f, "// autogenerated by convtune %s, do not edit: re-run `convtune export` instead.\n//\n",
            CONVTUNE_VERSION);
    fprintf(f, "// The C interface of %s, written with it: include it from C (C99 or later)\n"
               "// or C++ and link the object built from %s (and the CUDA runtime%s%s).\n//\n",
            s->cu_name, s->cu_name, in->t->exec && *in->t->exec->link_flags ? ", " : "",
            in->t->exec ? in->t->exec->link_flags : "");
    emit_provenance(f, in, s->now);
    fprintf(f, "//\n// No CUDA header is needed: cudaStream_t is `struct CUstream_st *`, so a\n"
               "// cudaStream_t (or 0 for the default stream) is passed as it is.\n");
    fprintf(f, "#ifndef %s\n#define %s\n\nstruct CUstream_st;\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n",
            guard, guard);
    emit_declarations(f, in);
    fprintf(f, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif  /* %s */\n", guard);
}

ct_status ct_export_cu(const ct_record *rec, const char *templates_dir, const char *path,
                       int force, double tolerance, ct_err *e)
{
    instance in;
    ct_status rc = instance_load(&in, rec, templates_dir, e);
    if (rc != CT_OK)
        return rc;
    char h_path[1100];
    ct_export_header_path(path, h_path, sizeof h_path);
    single s = {.in = &in, .cu_name = base_name(path), .h_name = base_name(h_path), .tolerance = tolerance};
    now_text(s.now, sizeof s.now);
    rc = write_pair(path, force, single_cu, single_h, &s, e);
    instance_free(&in);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Family export                                                            */

#define MAX_NAMES 256

typedef struct name_list {
    char (*v)[64];
    int n;
} name_list;

static void name_add(name_list *l, const char *name, size_t len)
{
    if (len == 0 || len >= 64 || l->n >= MAX_NAMES)
        return;
    for (int i = 0; i < l->n; i++)
        if (strlen(l->v[i]) == len && !strncmp(l->v[i], name, len))
            return;
    memcpy(l->v[l->n], name, len);
    l->v[l->n][len] = '\0';
    l->n++;
}

static int is_ident(int c)
{
    return isalnum(c) || c == '_';
}

/* The names of the functions a template declares extern "C" (its kernels):
 * after `extern "C"`, the first identifier followed by '(' that is not an
 * attribute (__launch_bounds__(...), __attribute__((...))). */
static void extern_c_names(const char *src, name_list *out)
{
    for (const char *s = strstr(src, "extern \"C\""); s; s = strstr(s, "extern \"C\"")) {
        s += strlen("extern \"C\"");
        for (;;) {
            while (*s && (isspace((unsigned char)*s) || *s == '*' || *s == '&'))
                s++;
            if (!is_ident((unsigned char)*s) || isdigit((unsigned char)*s))
                break;
            const char *b = s;
            while (is_ident((unsigned char)*s))
                s++;
            size_t len = (size_t)(s - b);
            const char *q = s;
            while (*q && isspace((unsigned char)*q))
                q++;
            if (*q != '(')
                continue;
            if (len >= 2 && b[0] == '_' && b[1] == '_') {
                int depth = 0;
                do {
                    depth += *q == '(';
                    depth -= *q == ')';
                    q++;
                } while (*q && depth > 0);
                s = q;
                continue;
            }
            name_add(out, b, len);
            break;
        }
    }
}

/* Lines of text: #define names go to defs; #include lines are moved to
 * includes (when not NULL) and replaced by a note. The rest is written to f. */
static void scan_text(FILE *f, const char *text, name_list *defs, char **includes, size_t *inc_len)
{
    const char *line = text;
    while (*line) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
        const char *s = line;
        while (s < line + len && (*s == ' ' || *s == '\t'))
            s++;
        int moved = 0;
        if (*s == '#') {
            s++;
            while (*s == ' ' || *s == '\t')
                s++;
            if (!strncmp(s, "define", 6) && (s[6] == ' ' || s[6] == '\t')) {
                s += 6;
                while (*s == ' ' || *s == '\t')
                    s++;
                const char *b = s;
                while (is_ident((unsigned char)*s))
                    s++;
                name_add(defs, b, (size_t)(s - b));
            } else if (includes && !strncmp(s, "include", 7)) {
                /* one copy of each at the top of the file */
                size_t have = *inc_len;
                int dup = 0;
                for (const char *h = *includes; h && *h && !dup;) {
                    const char *hn = strchr(h, '\n');
                    size_t hl = hn ? (size_t)(hn - h) + 1 : strlen(h);
                    dup = hl == len + (line[len - 1] != '\n') && !strncmp(h, line, len);
                    h += hl;
                }
                char *grown = dup ? NULL : realloc(*includes, have + len + 2);
                if (grown) {
                    memcpy(grown + have, line, len);
                    have += len;
                    if (grown[have - 1] != '\n')
                        grown[have++] = '\n';
                    grown[have] = '\0';
                    *includes = grown;
                    *inc_len = have;
                }
                fprintf(f, "// (moved to the top of the file) %.*s", (int)len, line);
                if (line[len - 1] != '\n')
                    fputc('\n', f);
                moved = 1;
            }
        }
        if (!moved)
            fwrite(line, 1, len, f);
        line += len;
    }
}

typedef struct family_out {
    const ct_tuned_set *set;
    instance *ins;             /* set->n of them */
    char **texts;              /* each instance, ready to write */
    char *includes;            /* hoisted #include lines */
    size_t inc_len;
    char *generic_src;
    char generic_hash[17];
    const char *cu_name, *h_name;
    char now[32];
    char link[200];            /* extra link flags of executor instances */
} family_out;

static const char grade_enum[] =
    "#ifndef CONVTUNE_GRADE_DEFINED\n"
    "#define CONVTUNE_GRADE_DEFINED\n"
    "// How a convtune selector chose the kernel it launched, best first (the\n"
    "// ranking of `convtune query --nearest`):\n"
    "enum convtune_grade {\n"
    "    CONVTUNE_EXACT = 0,         // the instance tuned for exactly this size, on this device model\n"
    "    CONVTUNE_NEAREST_SIZE = 1,  // no instance for this size: the generic kernel, launched with the\n"
    "                                // launch configuration (block size) of the tuned problem nearest\n"
    "                                // in log-size (same mode). Tuned instances have compile-time\n"
    "                                // sizes, so they never run at another size.\n"
    "    CONVTUNE_OTHER_DEVICE = 2,  // as EXACT or NEAREST_SIZE, but the tuning was done on another\n"
    "                                // device model than the one running (compared by name)\n"
    "    CONVTUNE_GENERIC = 3        // nothing tuned for this mode: the generic kernel, default launch\n"
    "};\n"
    "#endif\n";

static const char *const conv1d_mode_names[] = {"valid", "same", "right"};

/* How the device was chosen, for the header comments. */
static void device_note(const family_out *fo, char *buf, size_t len)
{
    const ct_tuned_set *s = fo->set;
    if (s->device_auto)
        snprintf(buf, len, "the device with the most tuned %s problems (%d; %d device%s with some)",
                 s->family->name, s->n, s->ndevices, s->ndevices == 1 ? "" : "s");
    else
        snprintf(buf, len, "as asked with --device");
}

static void family_comment(FILE *f, const family_out *fo, int for_header)
{
    const ct_tuned_set *s = fo->set;
    char dev_c[300], note[200];
    c_text(s->device, 0, dev_c, sizeof dev_c);
    device_note(fo, note, sizeof note);
    fprintf(f, "// autogenerated by convtune %s, do not edit: re-run `convtune export --family %s` instead.\n//\n",
            CONVTUNE_VERSION, s->family->name);
    if (for_header)
        fprintf(f, "// The C interface of %s, written with it: include it from C (C99 or later)\n"
                   "// or C++ and link the object built from %s (and the CUDA runtime%s%s).\n//\n",
                fo->cu_name, fo->cu_name, fo->link[0] ? ", " : "", fo->link);
    fprintf(f, "// family:    %s  (%s)\n", s->family->name, s->family->summary);
    fprintf(f, "// device:    %s (%s): %s\n", dev_c, s->arch, note);
    fprintf(f, "// exported:  %s by convtune %s\n", fo->now, CONVTUNE_VERSION);
    fprintf(f, "// instances: %d tuned kernel instances, one per stored problem (its winner on this device):\n",
            s->n);
    for (int i = 0; i < s->n; i++) {
        const instance *in = &fo->ins[i];
        const ct_record *r = in->rec;
        char params_c[600], when_c[64];
        fprintf(f, "//   %s: %s (content hash %s), median %.2f us over %d runs, %.2f TFLOP/s", in->p.canonical,
                r->tmpl, r->template_hash, r->median_us, r->reps, tflops_of(r));
        if (r->fma_tflops > 0)
            fprintf(f, " = %.0f%% of FMA peak", 100.0 * tflops_of(r) / r->fma_tflops);
        fprintf(f, ", relerr %.2g, tuned %s\n//     params %s\n", r->relerr,
                c_text(r->created_at, 0, when_c, sizeof when_c), c_text(r->params, 0, params_c, sizeof params_c));
    }
    fprintf(f, "// generic:   templates/%s.cu (content hash %s): sizes at run time, for every other size\n",
            GENERIC_TEMPLATE, fo->generic_hash);
    fprintf(f, "//\n// Selector: int convtune_%s(const float *in, const float *mask, float *out, long long n,\n"
               "//                          long long k, int mode, cudaStream_t stream, int *grade);\n",
            s->family->name);
    fprintf(f, "//   mode 0 valid, 1 same, 2 right (conv1d:N:K:MODE); device pointers; returns 0\n"
               "//   (cudaSuccess) or a cudaError_t (cudaErrorInvalidValue for bad sizes). It launches the\n"
               "//   instance tuned for exactly (n, k, mode) if there is one, otherwise the generic kernel;\n"
               "//   *grade (when grade is not NULL) says how: CONVTUNE_EXACT, CONVTUNE_NEAREST_SIZE,\n"
               "//   CONVTUNE_OTHER_DEVICE or CONVTUNE_GENERIC (see the enum). The device is the current\n"
               "//   one (cudaGetDevice). Instances with the mask in constant memory copy it on the\n"
               "//   stream first, so calls for the same problem on different streams must not overlap.\n");
    fprintf(f, "//\n// Build:     nvcc -arch=%s -c %s%s%s\n//\n", s->arch, fo->cu_name, fo->link[0] ? "   link with " : "",
            fo->link);
}

static void family_cu(FILE *f, void *user)
{
    const family_out *fo = user;
    const ct_tuned_set *s = fo->set;
    char dev_q[300];
    c_text(s->device, 1, dev_q, sizeof dev_q);
    family_comment(f, fo, 0);
    fprintf(f, "#if !defined(__CUDACC_RTC__)\n#include <cuda_runtime.h>\n#include <math.h>\n#include <string.h>\n"
               "#include <atomic>\n%s#endif\n\n", fo->includes ? fo->includes : "");
    fprintf(f, "%s\n", grade_enum);
    for (int i = 0; i < s->n; i++)
        fputs(fo->texts[i], f);

    /* the generic kernel */
    fprintf(f, "// ==== the generic kernel: templates/%s.cu ====\nnamespace ct_generic_%s {\n%s\n}  "
               "// namespace ct_generic_%s\n\n", GENERIC_TEMPLATE, s->family->name, fo->generic_src,
            s->family->name);

    /* the selector */
    const char *fam = s->family->name;
    fprintf(f, "// ==== the selector ====\n#if !defined(__CUDACC_RTC__)\nnamespace ct_select_%s {\n\n", fam);
    fprintf(f, "struct tuned_problem {\n    long long n, k;\n    int mode;\n    unsigned block;   "
               "// of the tuned launch, reused by the generic kernel for nearby sizes\n"
               "    int (*launch)(const float *, const float *, float *, cudaStream_t);\n};\n\n");
    fprintf(f, "// In the order of convtune's ranking: mode, then sizes ascending.\nstatic const tuned_problem "
               "tuned[] = {\n");
    for (int i = 0; i < s->n; i++) {
        const instance *in = &fo->ins[i];
        unsigned block = ct_tuned_block(s, i);
        fprintf(f, "    {%lldLL, %lldLL, %d, %uu, ct_%s::%s},   // %s\n", in->p.dims[0], in->p.dims[1], in->p.mode,
                block, in->sym + strlen("convtune_"), in->sym, in->p.canonical);
    }
    fprintf(f, "};\nstatic const int ntuned = (int)(sizeof tuned / sizeof tuned[0]);\n");
    fprintf(f, "static const char device_name[] = \"%s\";   // where the instances were tuned\n", dev_q);
    fprintf(f, "static const unsigned generic_block = %du;\n\n", CT_GENERIC_BLOCK);
    fprintf(f, "// 1: the current device is the model the instances were tuned on, 0: another\n"
               "// one, negative: -(the cudaError_t of the failed lookup). Cached per device.\n"
               "static int same_device(void)\n{\n"
               "    static std::atomic<int> cache[64];   // 0 unknown, 1 same, 2 other\n"
               "    int dev = 0;\n    cudaError_t err = cudaGetDevice(&dev);\n"
               "    if (err != cudaSuccess)\n        return -(int)err;\n"
               "    if (dev >= 0 && dev < 64) {\n        const int c = cache[dev].load(std::memory_order_relaxed);\n"
               "        if (c)\n            return c == 1;\n    }\n"
               "    cudaDeviceProp prop;\n    err = cudaGetDeviceProperties(&prop, dev);\n"
               "    if (err != cudaSuccess)\n        return -(int)err;\n"
               "    const int same = strncmp(prop.name, device_name, sizeof prop.name) == 0;\n"
               "    if (dev >= 0 && dev < 64)\n        cache[dev].store(same ? 1 : 2, std::memory_order_relaxed);\n"
               "    return same;\n}\n\n}  // namespace ct_select_%s\n\n", fam);
    fprintf(f, "extern \"C\" int convtune_%s_tuned(int i, long long *n, long long *k, int *mode)\n{\n"
               "    using namespace ct_select_%s;\n    if (i < 0 || i >= ntuned)\n        return -1;\n"
               "    if (n)\n        *n = tuned[i].n;\n    if (k)\n        *k = tuned[i].k;\n"
               "    if (mode)\n        *mode = tuned[i].mode;\n    return 0;\n}\n\n", fam, fam);
    fprintf(f, "extern \"C\" int convtune_%s_pick(long long n, long long k, int mode, double *distance)\n{\n"
               "    using namespace ct_select_%s;\n"
               "    int pick = -1;\n    double best = -1;\n"
               "    for (int i = 0; i < ntuned; i++)\n"
               "        if (tuned[i].mode == mode && tuned[i].n == n && tuned[i].k == k) {\n"
               "            if (distance)\n                *distance = 0;\n            return i;\n        }\n"
               "    // Otherwise the nearest in log-size; distances within %g tie, the first wins.\n"
               "    for (int i = 0; i < ntuned && n > 0 && k > 0; i++) {\n"
               "        if (tuned[i].mode != mode)\n            continue;\n"
               "        const double dn = log((double)tuned[i].n) - log((double)n);\n"
               "        const double dk = log((double)tuned[i].k) - log((double)k);\n"
               "        const double d = sqrt(dn * dn + dk * dk);\n"
               "        if (pick < 0 || d < best - %g) {\n            pick = i;\n            best = d;\n        }\n"
               "    }\n"
               "    if (distance)\n        *distance = best;\n    return pick;\n}\n\n",
            fam, fam, CT_DISTANCE_TIE, CT_DISTANCE_TIE);
    fprintf(f, "extern \"C\" int convtune_%s(const float *in, const float *mask, float *out, long long n, long long k,\n"
               "                           int mode, cudaStream_t stream, int *grade)\n{\n"
               "    using namespace ct_select_%s;\n", fam, fam);
    fprintf(f, "    if (!in || !mask || !out || n < 1 || k < 1 || n > 2000000000LL || k > 2000000000LL ||\n"
               "        mode < 0 || mode > 2 || (mode == 0 && k > n))\n"
               "        return (int)cudaErrorInvalidValue;\n"
               "    const int pick = convtune_%s_pick(n, k, mode, NULL);\n"
               "    const int exact = pick >= 0 && tuned[pick].n == n && tuned[pick].k == k;\n", fam);
    fprintf(f, "    if (grade) {\n"
               "        int g = pick < 0 ? CONVTUNE_GENERIC : exact ? CONVTUNE_EXACT : CONVTUNE_NEAREST_SIZE;\n"
               "        if (pick >= 0) {\n            const int same = same_device();\n"
               "            if (same < 0)\n                return -same;\n"
               "            if (!same)\n                g = CONVTUNE_OTHER_DEVICE;\n        }\n"
               "        *grade = g;\n    }\n"
               "    if (exact)\n        return tuned[pick].launch(in, mask, out, stream);\n"
               "    const long long nout = mode == 0 ? n - k + 1 : n;\n"
               "    const long long off = mode == 1 ? (k - 1) / 2 : 0;\n"
               "    const unsigned block = pick >= 0 ? tuned[pick].block : generic_block;\n"
               "    long long blocks = (nout + block - 1) / block;\n"
               "    if (blocks > 2147483647LL)\n        blocks = 2147483647LL;\n"
               "    ct_generic_%s::%s<<<(unsigned)blocks, block, 0, stream>>>(in, mask, out, n, k, nout, off);\n"
               "    return (int)cudaGetLastError();\n}\n#endif  /* !__CUDACC_RTC__ */\n", fam, GENERIC_TEMPLATE);
}

static void family_h(FILE *f, void *user)
{
    const family_out *fo = user;
    const ct_tuned_set *s = fo->set;
    const char *fam = s->family->name;
    char guard[100], gname[80], dev_q[300];
    snprintf(gname, sizeof gname, "CONVTUNE_%s_SELECTOR", fam);
    guard_name(gname, guard, sizeof guard);
    c_text(s->device, 1, dev_q, sizeof dev_q);
    family_comment(f, fo, 1);
    fprintf(f, "// No CUDA header is needed: cudaStream_t is `struct CUstream_st *`, so a\n"
               "// cudaStream_t (or 0 for the default stream) is passed as it is.\n");
    fprintf(f, "#ifndef %s\n#define %s\n\nstruct CUstream_st;\n\n%s\n", guard, guard, grade_enum);
    fprintf(f, "#ifndef CONVTUNE_GRADE_NAME_DEFINED\n#define CONVTUNE_GRADE_NAME_DEFINED\n"
               "static inline const char *convtune_grade_name(int grade)\n{\n"
               "    return grade == CONVTUNE_EXACT ? \"exact\" : grade == CONVTUNE_NEAREST_SIZE ? \"nearest_size\"\n"
               "         : grade == CONVTUNE_OTHER_DEVICE ? \"other_device\" : grade == CONVTUNE_GENERIC ? \"generic\"\n"
               "         : \"?\";\n}\n#endif\n\n");
    char up[64];
    guard_name(fam, up, sizeof up);
    up[strlen(up) - 2] = '\0';   /* drop the _H */
    fprintf(f, "#ifndef CONVTUNE_%s_MODE_DEFINED\n#define CONVTUNE_%s_MODE_DEFINED\n"
               "// The mode argument (conv1d:N:K:MODE).\nenum convtune_%s_mode {\n", up, up, fam);
    for (int m = 0; m < 3; m++) {
        char mu[16];
        guard_name(conv1d_mode_names[m], mu, sizeof mu);
        mu[strlen(mu) - 2] = '\0';
        fprintf(f, "    CONVTUNE_%s_%s = %d%s\n", up, mu, m, m < 2 ? "," : "");
    }
    fprintf(f, "};\n#endif\n\n");
    fprintf(f, "// The device model the instances were tuned on (cudaDeviceProp.name) and its\n"
               "// architecture, and how many problems have a tuned instance.\n");
    fprintf(f, "#define CONVTUNE_%s_DEVICE \"%s\"\n#define CONVTUNE_%s_ARCH \"%s\"\n#define CONVTUNE_%s_NTUNED %d\n\n",
            up, dev_q, up, s->arch, up, s->n);
    fprintf(f, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    fprintf(f, "// Launch the instance tuned for (n, k, mode), or the generic kernel for any\n"
               "// other size; see the comment at the top. grade may be NULL.\n"
               "int convtune_%s(const float *in, const float *mask, float *out, long long n, long long k, int mode,\n"
               "                struct CUstream_st *stream, int *grade);\n\n", fam);
    fprintf(f, "// The i-th tuned problem (0 <= i < CONVTUNE_%s_NTUNED): returns 0 and its sizes\n"
               "// and mode (pointers may be NULL), or -1 when i is out of range.\n"
               "int convtune_%s_tuned(int i, long long *n, long long *k, int *mode);\n\n", up, fam);
    fprintf(f, "// Which tuned problem the selector uses for (n, k, mode), without launching\n"
               "// anything (no GPU needed): its index for convtune_%s_tuned, the exact one\n"
               "// or the nearest in log-size of the same mode, with the distance in\n"
               "// *distance (may be NULL; 0 when exact); -1 (distance -1) when no problem of\n"
               "// this mode is tuned, so the generic kernel runs with its default launch.\n"
               "int convtune_%s_pick(long long n, long long k, int mode, double *distance);\n\n", fam, fam);
    fprintf(f, "// Each tuned instance also has its own launcher:\n");
    for (int i = 0; i < s->n; i++)
        emit_declarations(f, &fo->ins[i]);
    fprintf(f, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif  /* %s */\n", guard);
}

/* One instance of a family export, as text: its kernels renamed per
 * problem, everything in its own namespace, every macro it defines undone
 * afterwards, #include lines of its launcher moved to the file's top. */
static ct_status instance_text(family_out *fo, int i, ct_err *e)
{
    const instance *in = &fo->ins[i];
    char (*names)[64] = calloc(2 * MAX_NAMES, 64);
    char *launcher = NULL, *body = NULL;
    size_t llen = 0, blen = 0;
    FILE *lf = NULL, *bf = NULL;
    ct_status rc = CT_OK;
    if (!names) 
        return ct_fail(e, CT_ERR_INTERNAL, "export: out of memory");
    name_list kernels = {names, 0}, defs = {names + MAX_NAMES, 0};
    const char *suffix = in->sym + strlen("convtune_");

    if (!(lf = open_memstream(&launcher, &llen)) || !(bf = open_memstream(&body, &blen))) {
        rc = ct_fail(e, CT_ERR_INTERNAL, "export: out of memory");
        goto done;
    }
    emit_launcher(lf, in);
    if (fclose(lf) != 0) {
        lf = NULL;
        rc = ct_fail(e, CT_ERR_INTERNAL, "export: out of memory");
        goto done;
    }
    lf = NULL;

    extern_c_names(in->src, &kernels);
    fprintf(bf, "// ==== %s: %s, its own kernels and macros ====\n", in->p.canonical, in->t->name);
    for (int k = 0; k < kernels.n; k++)
        fprintf(bf, "#define %s %s_%s\n", kernels.v[k], kernels.v[k], suffix);
    fprintf(bf, "namespace ct_%s {\n\n", suffix);
    char *kernel_text = NULL;
    size_t ktlen = 0;
    FILE *kf = open_memstream(&kernel_text, &ktlen);
    if (!kf) {
        rc = ct_fail(e, CT_ERR_INTERNAL, "export: out of memory");
        goto done;
    }
    emit_kernel_text(kf, in);
    fclose(kf);
    scan_text(bf, kernel_text ? kernel_text : "", &defs, NULL, NULL);
    free(kernel_text);
    fprintf(bf, "#if !defined(__CUDACC_RTC__)\n");
    scan_text(bf, launcher ? launcher : "", &defs, &fo->includes, &fo->inc_len);
    fprintf(bf, "#endif  /* !__CUDACC_RTC__ */\n\n}  // namespace ct_%s\n", suffix);
    for (int k = 0; k < kernels.n; k++)
        fprintf(bf, "#undef %s\n", kernels.v[k]);
    for (int k = 0; k < defs.n; k++)
        fprintf(bf, "#undef %s\n", defs.v[k]);
    fprintf(bf, "\n");
    if (fclose(bf) != 0) {
        bf = NULL;
        rc = ct_fail(e, CT_ERR_INTERNAL, "export: out of memory");
        goto done;
    }
    bf = NULL;
    fo->texts[i] = body;
    body = NULL;
done:
    if (lf)
        fclose(lf);
    if (bf)
        fclose(bf);
    free(launcher);
    free(body);
    free(names);
    return rc;
}

ct_status ct_export_family(const ct_tuned_set *set, const char *templates_dir, const char *path,
                           int force, ct_err *e)
{
    if (!set || set->n < 1)
        return ct_fail(e, CT_ERR_NOT_FOUND, "export: no tuned problem to export");
    if (strcmp(set->family->name, "conv1d") != 0)
        return ct_fail(e, CT_ERR_USAGE, "export --family: family %s has no generic kernel; export its problems "
                       "one at a time with --problem", set->family->name);
    family_out fo;
    memset(&fo, 0, sizeof fo);
    fo.set = set;
    ct_status rc = CT_OK;
    fo.ins = calloc((size_t)set->n, sizeof *fo.ins);
    fo.texts = calloc((size_t)set->n, sizeof *fo.texts);
    if (!fo.ins || !fo.texts) {
        rc = ct_fail(e, CT_ERR_INTERNAL, "export: out of memory");
        goto done;
    }
    for (int i = 0; i < set->n && rc == CT_OK; i++) {
        rc = instance_load(&fo.ins[i], &set->recs[i], templates_dir, e);
        if (rc == CT_OK && fo.ins[i].t->exec && *fo.ins[i].t->exec->link_flags &&
            !strstr(fo.link, fo.ins[i].t->exec->link_flags))
            snprintf(fo.link + strlen(fo.link), sizeof fo.link - strlen(fo.link), "%s%s", fo.link[0] ? " " : "",
                     fo.ins[i].t->exec->link_flags);
    }
    if (rc != CT_OK)
        goto done;
    if ((rc = ct_template_source(GENERIC_TEMPLATE, templates_dir, &fo.generic_src, e)) != CT_OK)
        goto done;
    ct_hash_hex(fo.generic_src, fo.generic_hash);
    for (int i = 0; i < set->n && rc == CT_OK; i++)
        rc = instance_text(&fo, i, e);
    if (rc != CT_OK)
        goto done;
    char h_path[1100];
    ct_export_header_path(path, h_path, sizeof h_path);
    fo.cu_name = base_name(path);
    fo.h_name = base_name(h_path);
    now_text(fo.now, sizeof fo.now);
    rc = write_pair(path, force, family_cu, family_h, &fo, e);
done:
    for (int i = 0; fo.ins && i < set->n; i++)
        instance_free(&fo.ins[i]);
    for (int i = 0; fo.texts && i < set->n; i++)
        free(fo.texts[i]);
    free(fo.ins);
    free(fo.texts);
    free(fo.includes);
    free(fo.generic_src);
    return rc;
}
