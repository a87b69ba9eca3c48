/* export.c - writing exports: a .cu and its C header (export.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "export.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codehash.h"
#include "compile.h"
#include "executor.h"
#include "outfile.h"
#include "dtype.h"
#include "problem.h"
#include "timing.h"
#include "export_internal.h"

#define TMP_PREFIX ".convtune-export-"

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
    snprintf(buf, len, "%s.cu", sym + strlen("convtune_"));
}

void ct_export_family_default_path(const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "convtune_%s.cu", name);
}

void ct_export_header_path(const char *cu_path, char *buf, size_t len)
{
    size_t n = strlen(cu_path);
    if (n > 3 && strcmp(cu_path + n - 3, ".cu") == 0)
        snprintf(buf, len, "%.*s.h", (int)(n - 3), cu_path);
    else
        snprintf(buf, len, "%s.h", cu_path);
}

/* The last path component, for naming a file from inside its partner. */
const char *ct_exp_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* An include guard from a name: upper case, other characters '_'. */
void ct_exp_guard_name(const char *name, char *buf, size_t len)
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


void ct_exp_instance_free(instance *in)
{
    free(in->src);
    in->src = NULL;
}

/* Parse and check a stored result: its problem, template and parameters,
 * and that the code it measured is the code this export writes (the code
 * hash, codehash.h; a result stored before code hashes existed on its
 * template's text hash). */
ct_status ct_exp_instance_load(instance *in, const ct_result *rec, const char *templates_dir, ct_err *e)
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
    if (rec->params_ok)
        in->c = rec->params;
    else if ((rc = ct_params_from_json(rec->params_json, in->t->params, in->t->nparams, &in->c, e)) != CT_OK)
        return rc;
    if ((rc = ct_template_source(in->t->name, templates_dir, &in->src, e)) != CT_OK)
        return rc;
    char hash[17], code[17];
    ct_hash_hex(in->src, hash);
    if ((rc = ct_code_hash_of(in->src, &in->p, in->t, &in->c, code, e)) != CT_OK) {
        ct_exp_instance_free(in);
        return rc;
    }
    int same = 0;
    if ((rc = ct_code_judge(rec, hash, code, &in->p, in->t, &in->c, templates_dir, &same, e)) != CT_OK) {
        ct_exp_instance_free(in);
        return rc;
    }
    if (!same) {
        ct_exp_instance_free(in);
        const int by_code = rec->code_hash[0] != '\0';
        return ct_fail(e, CT_ERR_NOT_FOUND,
                       "template %s changed since the result for %s was tuned (%shash %s, stored %s); tune again",
                       in->t->name, rec->problem, by_code ? "code " : "", by_code ? code : hash,
                       by_code ? rec->code_hash : rec->template_hash);
    }
    ct_export_symbol(in->p.canonical, in->sym, sizeof in->sym);
    snprintf(in->suffix, sizeof in->suffix, "%s", in->sym + strlen("convtune_"));
    in->nb = fam->buffers(&in->p, in->bufs);
    in->nd = ct_problem_defines(&in->p, in->defs);
    fam->geometry(&in->p, in->t, &in->c, &in->l);
    return CT_OK;
}

/* Whether the instance's buffers hold a half type: its launcher then takes
 * void pointers, so a caller needs no CUDA header for the type, and casts
 * them to the template's ct_elem (templates/common/ct_dtype.cuh). fp32
 * exports are written as before. */
static int is_half(const instance *in)
{
    return ct_dtype_is_half(ct_problem_dtype(&in->p));
}

/* How the comments count a buffer's elements: "floats", "bf16 elements". */
static const char *elements_of(const instance *in)
{
    return ct_problem_dtype(&in->p) == CT_DTYPE_BF16 ? "bf16 elements (2 bytes)"
           : is_half(in)                             ? "f16 elements (2 bytes)"
                                                     : "floats";
}

/* The launcher's parameter list: the buffers and the stream, declared as
 * stream_decl ("cudaStream_t stream" or "struct CUstream_st *stream"). */
static void param_list(const instance *in, const char *stream_decl, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int i = 0; i < in->nb && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%s%s *%s", i ? ", " : "", in->bufs[i].is_output ? "" : "const ",
                              is_half(in) ? "void" : "float", in->bufs[i].name);
    if (o < len)
        snprintf(buf + o, len - o, ", %s", stream_decl);
}

double ct_exp_tflops_of(const ct_result *rec)
{
    return rec->median_us > 0 ? rec->flops / rec->median_us / 1e6 : 0;
}

/* A channels-last problem (its "layout" field past the default) says so
 * in a comment; the macro CONV_CHANNELS_LAST among its sizes says it to
 * code. Problems in the default layout print nothing, as before. */
static void emit_layout(FILE *f, const ct_problem *p)
{
    const long long lay = ct_problem_value(p, "layout");
    const int i = ct_field_find(p->family, "layout");
    if (lay > 0 && i >= 0 && lay < p->family->fields[i].nchoices)
        fprintf(f, "// layout:    %s, channels last: the input and output have their channels innermost; the "
                   "weights\n//            keep PyTorch's order (Cout, Cin/groups, taps)\n",
                p->family->fields[i].choices[lay]);
}

/* The stored vendor baseline against the winner (db_cudnn.h): cuDNN's
 * time in the problem's type (fp32: TF32 off, then on; tf32: on), its error and the
 * ratio, cuDNN's time over the winner's, as `tune` printed them. */
static void emit_cudnn(FILE *f, const instance *in)
{
    const ct_cudnn_stored *c = in->cudnn;
    const double w = in->rec->median_us;
    char buf[300], esc[1200], ver[40], how[64] = "";
    if (!(c->us > 0)) {   /* the reason is stored text: escaped, as every stored string here */
        fprintf(f, "// vs cuDNN:  %s\n", ct_esc_c_comment(ct_cudnn_stored_none(c, buf, sizeof buf), esc, sizeof esc));
        return;
    }
    const int fp32 = ct_problem_dtype(&in->p) == CT_DTYPE_F32;
    /* The note keeps the method, not the launches per sample. */
    if (!strcmp(c->timing, CT_TIMING_GRAPH))
        snprintf(how, sizeof how, "replayed from a CUDA graph");
    else if (!strcmp(c->timing, CT_TIMING_CALLS))
        snprintf(how, sizeof how, "calls back to back between two events");
    else if (!strcmp(c->timing, CT_TIMING_EVENTS))
        snprintf(how, sizeof how, "events around each execution");
    ct_esc_c_comment(c->version, ver, sizeof ver);
    fprintf(f, "// vs cuDNN:  cuDNN %s%s: %.2f us (relative L2 error %.2g): convtune %.2fx\n", ver,
            fp32                                             ? " with TF32 off"
            : ct_problem_dtype(&in->p) == CT_DTYPE_TF32 ? " with TF32 on"
                                                        : "",
            c->us, c->relerr, c->us / w);
    if (fp32 && c->tf32_us > 0)
        fprintf(f, "//            with TF32 on: %.2f us (relative L2 error %.2g): convtune %.2fx\n", c->tf32_us,
                c->tf32_relerr, c->tf32_us / w);
    fprintf(f, "//            (cuDNN's time over the winner's; timed in the tuning run of %s, on its\n"
               "//            inputs%s%s)\n", ct_esc_c_comment(c->run_started_at, esc, sizeof esc), how[0] ? ", " : "",
            how);
}

/* The provenance lines of one instance, each starting with "// ". They
 * hold what was stored, never the time of the export: exporting an
 * unchanged winner again writes the same bytes (no diff to commit). */
static void emit_provenance(FILE *f, const instance *in)
{
    const ct_result *rec = in->rec;
    char dev_c[300], arch_c[64], when_c[64], tmpl_c[160], hash_c[80], code_c[80], params_c[600];
    double tflops = ct_exp_tflops_of(rec);
    fprintf(f, "// problem:   %s  (%s)\n", in->p.canonical, in->p.family->summary);
    emit_layout(f, &in->p);
    fprintf(f, "// device:    %s (%s), tuned %s\n", ct_esc_c_comment(rec->device, dev_c, sizeof dev_c),
            ct_esc_c_comment(rec->arch, arch_c, sizeof arch_c),
            ct_esc_c_comment(rec->created_at, when_c, sizeof when_c));
    ct_esc_c_comment(rec->tmpl, tmpl_c, sizeof tmpl_c);
    ct_esc_c_comment(rec->template_hash, hash_c, sizeof hash_c);
    if (rec->code_hash[0])
        fprintf(f, "// template:  %s (content hash %s, code hash %s)\n", tmpl_c, hash_c,
                ct_esc_c_comment(rec->code_hash, code_c, sizeof code_c));
    else
        fprintf(f, "// template:  %s (content hash %s)\n", tmpl_c, hash_c);
    char params[sizeof rec->params_json];
    if (ct_result_params_text(rec, params, sizeof params, NULL) != CT_OK)
        params[0] = '\0';
    fprintf(f, "// params:    %s\n", ct_esc_c_comment(params, params_c, sizeof params_c));
    fprintf(f, "// measured:  median %.2f us over %d runs (min %.2f us), %.2f TFLOP/s", rec->median_us,
            rec->reps, rec->min_us, tflops);
    double peak = ct_result_peak_tflops(rec);
    if (peak > 0)
        fprintf(f, " = %.0f%% of the measured %s peak", 100.0 * tflops / peak,
                ct_problem_dtype(&in->p) == CT_DTYPE_F32    ? "fp32 FMA"
                : ct_problem_dtype(&in->p) == CT_DTYPE_TF32 ? "TF32 tensor-core (half the half rate)"
                                                            : "half tensor-core");
    fprintf(f, ";\n//            relative L2 error %.2g against an fp64 reference\n", rec->relerr);
    if (rec->timing[0]) {
        char how[64];
        fprintf(f, "// timed:     %s", ct_timing_describe(rec->timing, rec->batch, how, sizeof how));
        if (rec->ci_lo_us > 0 && rec->ci_hi_us > 0)
            fprintf(f, ", 95%% interval of the median %.2f-%.2f us", rec->ci_lo_us, rec->ci_hi_us);
        fputc('\n', f);
    }
    if (in->cudnn)
        emit_cudnn(f, in);
    if (in->t->exec && *in->t->exec->link_flags)
        fprintf(f, "// needs:     %s (link with %s)\n", in->t->exec->library, in->t->exec->link_flags);
}

/* The problem sizes, launch geometry and parameters as #defines, then the
 * template text unchanged. */
void ct_exp_emit_kernel_text(FILE *f, const instance *in)
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

/* The TMA tensor maps of a kernel that takes them (export.h),
 * encoded at every call from the caller's pointers into ct_tmaps[]: the
 * driver's cuTensorMapEncodeTiled found through the runtime
 * (cudaGetDriverEntryPointByVersion), so the caller links no -lcuda. */
int ct_export_emit_tensor_maps(FILE *f, const ct_problem *p, const ct_template *t, const ct_params *c)
{
    ct_tmap_desc tm[CT_MAX_TMAPS];
    const ct_family *fam = p->family;
    const int n = fam->tensor_maps ? fam->tensor_maps(p, t, c, tm) : 0;
    if (n <= 0)
        return 0;
    ct_buffer bufs[CT_MAX_BUFS];
    const int nb = fam->buffers(p, bufs);
    static const char *const types[CT_NDTYPES] = {"CU_TENSOR_MAP_DATA_TYPE_FLOAT32", "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16",
                                                  "CU_TENSOR_MAP_DATA_TYPE_FLOAT16"};
    fprintf(f, "    CUtensorMap ct_tmaps[%d];\n    {\n"
               "        typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,\n"
               "                                      const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,\n"
               "                                      const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,\n"
               "                                      CUtensorMapL2promotion, CUtensorMapFloatOOBfill);\n"
               "        static encode_fn encode = NULL;\n        if (!encode) {\n            void *fn = NULL;\n"
               "            cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;\n"
               "#if CUDART_VERSION >= 12050\n"
               "            cudaError_t err = cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\", &fn,\n"
               "                                                               12000, cudaEnableDefault, &q);\n"
               "#else\n"
               "            cudaError_t err = cudaGetDriverEntryPoint(\"cuTensorMapEncodeTiled\", &fn,\n"
               "                                                      cudaEnableDefault, &q);\n#endif\n"
               "            if (err != cudaSuccess)\n                return (int)err;\n"
               "            if (q != cudaDriverEntryPointSuccess || !fn)\n"
               "                return (int)cudaErrorNotSupported;\n"
               "            encode = (encode_fn)fn;\n        }\n", n);
    for (int i = 0; i < n; i++) {
        const ct_tmap_desc *d = &tm[i];
        fprintf(f, "        const cuuint64_t dims%d[] = {", i);
        for (int k = 0; k < d->rank; k++)
            fprintf(f, "%s%lluull", k ? ", " : "", d->dims[k]);
        fprintf(f, "}, strides%d[] = {", i);
        for (int k = 0; k + 1 < d->rank; k++)
            fprintf(f, "%s%lluull", k ? ", " : "", d->strides[k]);
        fprintf(f, "%s};\n        const cuuint32_t box%d[] = {", d->rank > 1 ? "" : "0", i);
        for (int k = 0; k < d->rank; k++)
            fprintf(f, "%s%uu", k ? ", " : "", d->box[k]);
        fprintf(f, "}, estr%d[] = {", i);
        for (int k = 0; k < d->rank; k++)
            fprintf(f, "%s%uu", k ? ", " : "", d->estrides[k]);
        fprintf(f, "};\n        if (encode(&ct_tmaps[%d], %s, %d, (void *)%s, dims%d, strides%d, box%d, estr%d,\n"
                   "                   CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_%s, "
                   "CU_TENSOR_MAP_L2_PROMOTION_L2_128B,\n                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != "
                   "CUDA_SUCCESS)\n            return (int)cudaErrorInvalidValue;\n",
                i, types[d->dtype], d->rank, d->buf < nb ? bufs[d->buf].name : "NULL", i, i, i, i,
                d->swizzle == 128 ? "128B" : d->swizzle == 64 ? "64B" : d->swizzle == 32 ? "32B" : "NONE");
    }
    fprintf(f, "    }\n");
    return n;
}

/* The host launcher (no preprocessor guard around it). */
void ct_exp_emit_launcher(FILE *f, const instance *in)
{
    char params[400], sig[720];
    param_list(in, "cudaStream_t stream", params, sizeof params);
    snprintf(sig, sizeof sig, "int %s(%s)", in->sym, params);
    if (in->t->exec) {
        in->t->exec->emit_launcher(f, &in->p, &in->c, in->sym, sig);
        return;
    }
    ct_tmap_desc tm[CT_MAX_TMAPS];
    if (in->p.family->tensor_maps && in->p.family->tensor_maps(&in->p, in->t, &in->c, tm) > 0)
        fprintf(f, "#include <cuda.h>\n");
    fprintf(f, "extern \"C\" %s\n{\n", sig);
    const int ntm = ct_export_emit_tensor_maps(f, &in->p, in->t, &in->c);
    for (int i = 0; i < in->nb; i++) {
        if (!in->bufs[i].symbol || in->bufs[i].is_output)
            continue;
        /* The template declares the __constant__ copy only for some
         * parameter values; the #if follows the same condition. */
        fprintf(f, "#ifdef CT_SYMBOL_%s\n", in->bufs[i].symbol);
        fprintf(f, "    {\n        cudaError_t err = cudaMemcpyToSymbolAsync(%s, %s, %zu * sizeof(%s), 0,\n"
                   "                                                  cudaMemcpyDeviceToDevice, stream);\n"
                   "        if (err != cudaSuccess)\n            return (int)err;\n    }\n#endif\n",
                in->bufs[i].symbol, in->bufs[i].name, in->bufs[i].count, is_half(in) ? "ct_elem" : "float");
    }
    ct_export_emit_smem_optin(f, in->t->name);
    fprintf(f, "    const dim3 grid(CT_GRID_X, CT_GRID_Y, CT_GRID_Z), block(CT_BLOCK_X, CT_BLOCK_Y, CT_BLOCK_Z);\n");
    fprintf(f, "    %s<<<grid, block, CT_SMEM_BYTES, stream>>>(", in->t->name);
    for (int i = 0; i < in->nb; i++)
        fprintf(f, "%s%s%s", i ? ", " : "",
                !is_half(in) ? "" : in->bufs[i].is_output ? "(ct_elem *)" : "(const ct_elem *)", in->bufs[i].name);
    for (int i = 0; i < ntm; i++)
        fprintf(f, ", ct_tmaps[%d]", i);
    fprintf(f, ");\n    return (int)cudaGetLastError();\n}\n");
}

/* Past 48 KiB of shared memory, static and dynamic together, a kernel
 * must opt in to its dynamic part. The opt-in is an attribute of the
 * kernel on the current device, so it is made once per device (a process
 * may launch on several; a device past the table is asked every call).
 * Two threads may both make it: setting the same value twice is harmless.
 * The launcher text that does so for kernel (export.h). */
void ct_export_emit_smem_optin(FILE *f, const char *kernel)
{
    fprintf(f, "#if CT_SMEM_BYTES > 0\n    {\n"
               "        static unsigned char smem_opted_in[64];\n        int dev = 0;\n"
               "        cudaError_t err = cudaGetDevice(&dev);\n        if (err != cudaSuccess)\n"
               "            return (int)err;\n"
               "        if (dev < 0 || dev >= 64 || !smem_opted_in[dev]) {\n"
               "            err = cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, "
               "CT_SMEM_BYTES);\n            if (err != cudaSuccess)\n                return (int)err;\n"
               "            if (dev >= 0 && dev < 64)\n                smem_opted_in[dev] = 1;\n        }\n"
               "    }\n#endif\n", kernel);
}

/* The declarations of an instance's functions for the C header. */
void ct_exp_emit_declarations(FILE *f, const instance *in)
{
    char params[400];
    param_list(in, "struct CUstream_st *stream", params, sizeof params);
    fprintf(f, "// %s: device pointers (16-byte aligned, as cudaMalloc returns them),\n//  ", in->p.canonical);
    for (int i = 0; i < in->nb; i++)
        fprintf(f, " %s %zu %s%s", in->bufs[i].name, in->bufs[i].count, elements_of(in), i + 1 < in->nb ? "," : ";");
    fprintf(f, " returns 0 (cudaSuccess) or the cudaError_t of the failure.\n");
    emit_layout(f, &in->p);
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
    const ct_result *rec = in->rec;
    const int nb = in->nb;
    char dev_q[300], prob_q[400];
    ct_esc_c_string(rec->device, dev_q, sizeof dev_q);
    ct_esc_c_string(rec->problem, prob_q, sizeof prob_q);
    fprintf(f, "#ifdef CONVTUNE_SELFTEST\n#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
               "#include <string.h>\n#include <time.h>\n#include <algorithm>\n\n%s\n", ct_problem_reference_c(&in->p));
    fprintf(f, "static float ct_uniform(unsigned long long *s)\n{\n"
               "    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;\n"
               "    return (float)((double)(*s >> 40) / 8388608.0 - 1.0);\n}\n\n");
    /* A half type: the host rounds the inputs as the device does, and the
     * reference reads the rounded values. */
    const ct_dtype dt = ct_dtype_storage(ct_problem_dtype(&in->p));
    const char *elem = ct_dtype_c_type(dt);
    const char *to_elem = dt == CT_DTYPE_BF16 ? "__float2bfloat16_rn" : "__float2half_rn";
    const char *to_float = dt == CT_DTYPE_BF16 ? "__bfloat162float" : "__half2float";
    if (dt != CT_DTYPE_F32)
        fprintf(f, "#include <%s>\n\n", ct_dtype_header(dt));
    fprintf(f, "#define CT_CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \\\n"
               "    fprintf(stderr, \"%%s:%%d: %%s: %%s\\n\", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \\\n"
               "    return 2; } } while (0)\n\n");
    fprintf(f, "int main(void)\n{\n    const size_t counts[%d] = {", nb);
    for (int i = 0; i < nb; i++)
        fprintf(f, "%s%zu", i ? ", " : "", in->bufs[i].count);
    fprintf(f, "};\n    float *host[%d];\n    %s *dev[%d];\n", nb, dt == CT_DTYPE_F32 ? "float" : "void", nb);
    fprintf(f, "    unsigned long long seed = (unsigned long long)time(NULL) * 2654435761ULL | 1;\n");
    fprintf(f, "    for (int i = 0; i < %d; i++) {\n"
               "        host[i] = (float *)malloc(counts[i] * sizeof(float));\n"
               "        if (!host[i]) { fprintf(stderr, \"out of memory\\n\"); return 2; }\n"
               "        CT_CHECK(cudaMalloc((void **)&dev[i], counts[i] * sizeof(%s)));\n"
               "        for (size_t k = 0; k < counts[i]; k++)\n"
               "            host[i][k] = ct_uniform(&seed);\n", nb, elem);
    if (dt == CT_DTYPE_F32)
        fprintf(f, "        CT_CHECK(cudaMemcpy(dev[i], host[i], counts[i] * sizeof(float), cudaMemcpyHostToDevice));\n"
                   "    }\n");
    else
        fprintf(f, "        %s *h = (%s *)malloc(counts[i] * sizeof(%s));\n"
                   "        if (!h) { fprintf(stderr, \"out of memory\\n\"); return 2; }\n"
                   "        for (size_t k = 0; k < counts[i]; k++) {\n"
                   "            h[k] = %s(host[i][k]);\n            host[i][k] = %s(h[k]);\n        }\n"
                   "        CT_CHECK(cudaMemcpy(dev[i], h, counts[i] * sizeof(%s), cudaMemcpyHostToDevice));\n"
                   "        free(h);\n    }\n",
                elem, elem, elem, to_elem, to_float, elem);
    int out = 0;
    for (int i = 0; i < nb; i++)
        if (in->bufs[i].is_output)
            out = i;
    fprintf(f, "    CT_CHECK(cudaMemset(dev[%d], 0xFF, counts[%d] * sizeof(%s)));  /* NaN */\n", out, out, elem);
    fprintf(f, "#define CT_CALL() %s(", in->sym);
    for (int i = 0; i < nb; i++)
        fprintf(f, "%sdev[%d]", i ? ", " : "", i);
    fprintf(f, ", 0)\n");
    fprintf(f, "    CT_CHECK((cudaError_t)CT_CALL());\n    CT_CHECK(cudaDeviceSynchronize());\n");
    if (dt == CT_DTYPE_F32)
        fprintf(f, "    CT_CHECK(cudaMemcpy(host[%d], dev[%d], counts[%d] * sizeof(float), cudaMemcpyDeviceToHost));\n",
                out, out, out);
    else
        fprintf(f, "    {\n        %s *h = (%s *)malloc(counts[%d] * sizeof(%s));\n"
                   "        if (!h) { fprintf(stderr, \"out of memory\\n\"); return 2; }\n"
                   "        CT_CHECK(cudaMemcpy(h, dev[%d], counts[%d] * sizeof(%s), cudaMemcpyDeviceToHost));\n"
                   "        for (size_t k = 0; k < counts[%d]; k++)\n            host[%d][k] = %s(h[k]);\n"
                   "        free(h);\n    }\n",
                elem, elem, out, elem, out, out, elem, out, out, to_float);
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

/* ------------------------------------------------------------------------ */
/* Writing a pair                                                           */


/* Write cu_path and its header atomically as a pair (see export.h): both
 * are added to into, to be committed with the caller's other files, or,
 * into NULL, committed as a set of two (the header renamed first). */
ct_status ct_exp_write_pair(const char *cu_path, int force, emit_fn emit_cu, emit_fn emit_h, void *user,
                            ct_outset *into, ct_err *e)
{
    char h_path[1100];
    ct_export_header_path(cu_path, h_path, sizeof h_path);
    ct_status rc;
    if ((rc = ct_outfile_check(cu_path, force, "export", e)) != CT_OK ||
        (rc = ct_outfile_check(h_path, force, "export", e)) != CT_OK)
        return rc;
    ct_outset own, *s = into ? into : &own;
    if (!into)
        ct_outset_init(&own);
    FILE *f;
    if ((rc = ct_outset_add(s, h_path, force, TMP_PREFIX, "export", &f, e)) != CT_OK)
        return rc;
    emit_h(f, user);
    if ((rc = ct_outset_add(s, cu_path, force, TMP_PREFIX, "export", &f, e)) != CT_OK)
        return rc;
    emit_cu(f, user);
    return into ? CT_OK : ct_outset_commit(s, e);
}

/* ------------------------------------------------------------------------ */
/* Single-problem export                                                    */

typedef struct single {
    const instance *in;
    /* the file names as the comments show them (escaped: a file name is
     * the user's text, and may hold a newline) */
    char cu_name[CT_OUTFILE_PATH_MAX * 4], h_name[CT_OUTFILE_PATH_MAX * 4];
    double tolerance;
} single;

static void single_cu(FILE *f, void *user)
{
    const single *s = user;
    const instance *in = s->in;
    const ct_result *rec = in->rec;
    const char *link = in->t->exec ? in->t->exec->link_flags : "";
    fprintf(f, "// autogenerated by convtune %s, do not edit: re-run `convtune export` instead.\n//\n",
            CONVTUNE_VERSION);
    emit_provenance(f, in);
    fprintf(f, "//\n// Header:    %s (written with this file: the launcher for C and C++ callers)\n", s->h_name);
    char target[64];
    ct_arch_nvcc(rec->arch, target, sizeof target);
    fprintf(f, "// Build:     nvcc %s -c %s\n", target, s->cu_name);
    if (*link)
        fprintf(f, "// Link:      %s (%s)\n", link, in->t->exec->library);
    fprintf(f, "// Self-test: nvcc %s -DCONVTUNE_SELFTEST %s -o selftest%s%s && ./selftest\n//\n", target,
            s->cu_name, *link ? " " : "", link);
    char params[400];
    param_list(in, "cudaStream_t stream", params, sizeof params);
    fprintf(f, "// C signature (device pointers, 16-byte aligned as cudaMalloc returns them):\n");
    fprintf(f, "//   int %s(%s);\n//   returns 0 (cudaSuccess) or the cudaError_t of the failure.\n", in->sym, params);
    for (int i = 0; i < in->nb; i++)
        fprintf(f, "//   %-5s %zu %s\n", in->bufs[i].name, in->bufs[i].count, elements_of(in));
    if (is_half(in))
        fprintf(f, "// Element type: %s (%s, %s) for every buffer, passed as void pointers; the kernel\n"
                   "// sums in fp32 and rounds each output once, to nearest even.\n",
                ct_dtype_name(ct_problem_dtype(&in->p)), ct_dtype_c_type(ct_problem_dtype(&in->p)),
                ct_dtype_header(ct_problem_dtype(&in->p)));
    else if (ct_problem_dtype(&in->p) == CT_DTYPE_TF32)
        fprintf(f, "// Element type: tf32: fp32 buffers (float pointers); the kernel may round the\n"
                   "// operands of its products to TF32 and sums in fp32 (relative L2 error within\n"
                   "// 2^-10 of an fp64 reference, the tolerance it was verified to).\n");
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
    fprintf(f, "\n#if !defined(__CUDACC_RTC__)\n#include <cuda_runtime.h>\n");
    ct_exp_emit_kernel_renames(f, in);
    fprintf(f, "#endif\n\n");
    ct_exp_emit_kernel_text(f, in);
    fprintf(f, "#if !defined(__CUDACC_RTC__)\n");
    ct_exp_emit_launcher(f, in);
    fprintf(f, "\n");
    emit_selftest(f, in, ct_dtype_tolerance(ct_problem_dtype(&in->p), s->tolerance));
    fprintf(f, "#endif  /* !__CUDACC_RTC__ */\n");
}

static void single_h(FILE *f, void *user)
{
    const single *s = user;
    const instance *in = s->in;
    char guard[240];
    ct_exp_guard_name(in->sym, guard, sizeof guard);
    fprintf(f, "// autogenerated by convtune %s, do not edit: re-run `convtune export` instead.\n//\n",
            CONVTUNE_VERSION);
    fprintf(f, "// The C interface of %s, written with it: include it from C (C99 or later)\n"
               "// or C++ and link the object built from %s (and the CUDA runtime%s%s).\n//\n",
            s->cu_name, s->cu_name, in->t->exec && *in->t->exec->link_flags ? ", " : "",
            in->t->exec ? in->t->exec->link_flags : "");
    emit_provenance(f, in);
    fprintf(f, "//\n// No CUDA header is needed: cudaStream_t is `struct CUstream_st *`, so a\n"
               "// cudaStream_t (or 0 for the default stream) is passed as it is.\n");
    fprintf(f, "#ifndef %s\n#define %s\n\nstruct CUstream_st;\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n",
            guard, guard);
    ct_exp_emit_declarations(f, in);
    fprintf(f, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif  /* %s */\n", guard);
}

ct_status ct_export_cu(const ct_result *rec, const ct_cudnn_stored *cudnn, const char *templates_dir,
                       const char *path, int force, double tolerance, ct_err *e)
{
    return ct_exp_cu_into(rec, cudnn, templates_dir, path, force, tolerance, NULL, e);
}

ct_status ct_exp_cu_into(const ct_result *rec, const ct_cudnn_stored *cudnn, const char *templates_dir,
                         const char *path, int force, double tolerance, ct_outset *into, ct_err *e)
{
    instance in;
    ct_status rc = ct_exp_instance_load(&in, rec, templates_dir, e);
    if (rc != CT_OK)
        return rc;
    in.cudnn = cudnn;
    char h_path[1100];
    ct_export_header_path(path, h_path, sizeof h_path);
    single s = {.in = &in, .tolerance = tolerance};
    ct_esc_c_comment(ct_exp_base_name(path), s.cu_name, sizeof s.cu_name);
    ct_esc_c_comment(ct_exp_base_name(h_path), s.h_name, sizeof s.h_name);
    rc = ct_exp_write_pair(path, force, single_cu, single_h, &s, into, e);
    ct_exp_instance_free(&in);
    return rc;
}
