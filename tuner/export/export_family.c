/* export_family.c - `convtune export --family F`: every tuned size of a
 * family in one .cu with a generic kernel and the graded selector
 * (export.h). */
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
#include "dtype.h"
#include "executor.h"
#include "export_internal.h"
#include "family_export.h"
#include "outfile.h"
#include "problem.h"

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

/* What src's `#define NAME ...` makes of the len characters at name: 1 and
 * the identifier in *to where NAME stands for one identifier (the tensor-
 * core templates' `#define TC_NAME conv1dc_tc`: the kernel is that one),
 * -1 where NAME is a function-like macro (`TC_CAT(TC_NAME, _reduce)`: the
 * kernel's name comes from its arguments), 0 where src does not define it. */
static int defined_as(const char *src, const char *name, size_t len, const char **to, size_t *tolen)
{
    for (const char *s = strstr(src, "#define"); s; s = strstr(s + 7, "#define")) {
        const char *n = s + 7;
        while (*n == ' ' || *n == '\t')
            n++;
        if (n == s + 7 || strncmp(n, name, len) != 0 || is_ident((unsigned char)n[len]))
            continue;
        if (n[len] == '(')
            return -1;
        const char *v = n + len;
        while (*v == ' ' || *v == '\t')
            v++;
        const char *e = v;
        while (is_ident((unsigned char)*e))
            e++;
        const char *r = e;
        while (*r == ' ' || *r == '\t')
            r++;
        if (e > v && !isdigit((unsigned char)*v) && (*r == '\n' || *r == '\0' || !strncmp(r, "//", 2))) {
            *to = v;
            *tolen = (size_t)(e - v);
            return 1;
        }
    }
    return 0;
}

/* The names of the functions a template declares extern "C" (its kernels):
 * after `extern "C"`, the first identifier followed by '(' that is not an
 * attribute (__launch_bounds__(...), __attribute__((...))); a macro that
 * stands for the name, the name itself. Renaming the macro instead would
 * not hold: the template defines it after the family export's rename, so
 * two problems won by one tensor-core template declared the same kernel.
 * A template folded for every element type names its kernel in #if CT_DTYPE
 * branches (conv1d_tiledh, #else conv1d_tiled): directive lines are passed
 * over, and the name on the line after an #else or #elif before the body's
 * `{` is another; of such names only own (the instance's template, whose
 * branch is compiled) is taken when it is one of them. */
static void extern_c_names(const char *src, const char *own, name_list *out)
{
    static char buf[MAX_NAMES][64];   /* one declaration's names (16 KiB: not on the stack) */
    for (const char *s = strstr(src, "extern \"C\""); s; s = strstr(s, "extern \"C\"")) {
        s += strlen("extern \"C\"");
        name_list found = {buf, 0};
        for (;;) {
            while (*s && (isspace((unsigned char)*s) || *s == '*' || *s == '&'))
                s++;
            if (*s == '#') {   /* a directive line of a folded template */
                while (*s && *s != '\n')
                    s++;
                continue;
            }
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
            const char *to;
            size_t tolen;
            const int d = defined_as(src, b, len, &to, &tolen);
            if (d > 0)
                name_add(&found, to, tolen);
            else if (d == 0)
                name_add(&found, b, len);
            break;
        }
        const char *body = strchr(s, '{');
        for (const char *d = s; body && (d = strstr(d, "\n#el")) != NULL && d < body; d++) {
            const char *b = strchr(d + 1, '\n'), *q;
            if (!b)
                break;
            for (q = ++b; is_ident((unsigned char)*q); q++)
                ;
            if (q > b && *q == '(' && !isdigit((unsigned char)*b) && !(b[0] == '_' && b[1] == '_'))
                name_add(&found, b, (size_t)(q - b));
        }
        int mine = -1;
        for (int i = 0; own && found.n > 1 && i < found.n; i++)
            if (strcmp(found.v[i], own) == 0)
                mine = i;
        for (int i = 0; i < found.n; i++)
            if (mine < 0 || i == mine)
                name_add(out, found.v[i], strlen(found.v[i]));
    }
}

/* The single export's kernel names for nvcc builds (export.c): each extern
 * "C" name of in's template as `#define NAME NAME_PROBLEM`, so that two
 * single exports of one template link into one program (their host stubs
 * would otherwise share the name). NVRTC, which CuPy's RawModule uses,
 * keeps the template's names: the file documents them for Python. The
 * caller puts the lines under #if !defined(__CUDACC_RTC__). */
void ct_exp_emit_kernel_renames(FILE *f, const instance *in)
{
    static char names[MAX_NAMES][64];   /* 16 KiB: not on the stack */
    name_list kernels = {names, 0};
    extern_c_names(in->src, in->t->name, &kernels);
    if (kernels.n == 0)
        return;
    fprintf(f, "// nvcc builds name the kernels after the problem, so that exports of one\n"
               "// template for several problems link into one program.\n");
    for (int k = 0; k < kernels.n; k++) {   /* _single_: apart from a family export's NAME_PROBLEM */
        /* A name the template #defines itself (a macro standing for a
         * macro) would be redefined below: left as it is. */
        const char *to;
        size_t tolen;
        if (defined_as(in->src, kernels.v[k], strlen(kernels.v[k]), &to, &tolen) != 0)
            continue;
        fprintf(f, "#define %s %s_single_%s\n", kernels.v[k], kernels.v[k], in->suffix);
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
    /* the file names as the comments show them (escaped: a file name is
     * the user's text, and may hold a newline) */
    char cu_name[CT_OUTFILE_PATH_MAX * 4], h_name[CT_OUTFILE_PATH_MAX * 4];
    char link[200];            /* extra link flags of executor instances */
    name_list generic_kernels; /* the generic kernel's extern "C" names */
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

/* How the device was chosen, for the header comments. */
static void device_note(const family_out *fo, char *buf, size_t len)
{
    const ct_tuned_set *s = fo->set;
    if (s->device_auto)
        snprintf(buf, len, "the device with the most tuned %s problems (%d; %d device%s with some)",
                 s->variant ? s->name : s->family->name, s->n, s->ndevices, s->ndevices == 1 ? "" : "s");
    else
        snprintf(buf, len, "as asked with --device");
}

/* An instance's stored cuDNN baseline (db_cudnn.h) against its winner, in
 * one line: cuDNN's time over the winner's, as the single export states it
 * at length. fp32: 1 for an fp32 problem (TF32 off, then on), -1 for a
 * tf32 one (its one timing, TF32 on), 0 for a half type. */
static void instance_cudnn(FILE *f, const ct_cudnn_stored *c, double winner_us, int fp32)
{
    char buf[300], esc[1200];
    if (!(c->us > 0)) {
        fprintf(f, "//     vs cuDNN: %s\n", ct_esc_c_comment(ct_cudnn_stored_none(c, buf, sizeof buf), esc, sizeof esc));
        return;
    }
    fprintf(f, "//     vs cuDNN: cuDNN %s%s %.2f us: convtune %.2fx", ct_esc_c_comment(c->version, esc, sizeof esc),
            fp32 > 0 ? " with TF32 off" : fp32 < 0 ? " with TF32 on" : "", c->us, c->us / winner_us);
    if (fp32 > 0 && c->tf32_us > 0)
        fprintf(f, "; with TF32 on %.2f us: convtune %.2fx", c->tf32_us, c->tf32_us / winner_us);
    fputc('\n', f);
}

static void family_comment(FILE *f, const family_out *fo, int for_header)
{
    const ct_tuned_set *s = fo->set;
    char dev_c[300], arch_c[64], note[200];
    ct_esc_c_comment(s->device, dev_c, sizeof dev_c);
    ct_esc_c_comment(s->arch, arch_c, sizeof arch_c);
    device_note(fo, note, sizeof note);
    char again[64];
    fprintf(f, "// autogenerated by convtune %s, do not edit: re-run `convtune export --family %s` instead.\n//\n",
            CONVTUNE_VERSION, ct_tuned_args(s, again, sizeof again));
    if (for_header)
        fprintf(f, "// The C interface of %s, written with it: include it from C (C99 or later)\n"
                   "// or C++ and link the object built from %s (and the CUDA runtime%s%s).\n//\n",
                fo->cu_name, fo->cu_name, fo->link[0] ? ", " : "", fo->link);
    fprintf(f, "// family:    %s  (%s)\n", s->family->name, s->family->summary);
    if (s->fx->summary)
        fprintf(f, "// selector:  %s\n", s->fx->summary);
    if (ct_dtype_is_half(s->dtype))
        fprintf(f, "// type:      %s: every buffer holds %s elements (2 bytes; %s of %s), passed as void\n"
                   "//            pointers; kernels sum in fp32 and round each output once to nearest even\n",
                ct_dtype_name(s->dtype), ct_dtype_name(s->dtype), ct_dtype_c_type(s->dtype),
                ct_dtype_header(s->dtype));
    else if (s->dtype == CT_DTYPE_TF32)
        fprintf(f, "// type:      tf32: every buffer holds floats (float pointers); tuned kernels may round the\n"
                   "//            operands of their products to TF32 (relative L2 error within 2^-10), sums fp32\n");
    fprintf(f, "// device:    %s (%s): %s\n", dev_c, arch_c, note);
    fprintf(f, "// instances: %d tuned kernel instances, one per stored problem (its winner on this device):\n",
            s->n);
    for (int i = 0; i < s->n; i++) {
        const instance *in = &fo->ins[i];
        const ct_result *r = in->rec;
        char params_c[600], when_c[64], tmpl_c[160], hash_c[80];
        fprintf(f, "//   %s: %s (content hash %s), median %.2f us over %d runs, %.2f TFLOP/s", in->p.canonical,
                ct_esc_c_comment(r->tmpl, tmpl_c, sizeof tmpl_c),
                ct_esc_c_comment(r->template_hash, hash_c, sizeof hash_c), r->median_us, r->reps,
                ct_exp_tflops_of(r));
        double peak = ct_result_peak_tflops(r);
        if (peak > 0)
            fprintf(f, " = %.0f%% of %s peak", 100.0 * ct_exp_tflops_of(r) / peak, ct_result_peak_name(r));
        fprintf(f, ", relerr %.2g, tuned %s\n//     params %s\n", r->relerr,
                ct_esc_c_comment(r->created_at, when_c, sizeof when_c),
                ct_esc_c_comment(r->params_json, params_c, sizeof params_c));
        if (s->cudnn)
            instance_cudnn(f, &s->cudnn[i], r->median_us,
                           ct_problem_dtype(&in->p) == CT_DTYPE_F32 ? 1 : ct_problem_dtype(&in->p) == CT_DTYPE_TF32 ? -1 : 0);
    }
    fprintf(f, "// generic:   templates/%s.cu (content hash %s): sizes at run time, for every other size\n",
            s->fx->generic, fo->generic_hash);
    ct_exp_selector_doc(f, s);
    char target[64];
    fprintf(f, "//\n// Build:     nvcc %s -c %s%s%s\n//\n", ct_arch_nvcc(s->arch, target, sizeof target), fo->cu_name, fo->link[0] ? "   link with " : "",
            fo->link);
}

static void family_cu(FILE *f, void *user)
{
    const family_out *fo = user;
    const ct_tuned_set *s = fo->set;
    const int half = ct_dtype_is_half(s->dtype);
    char dev_q[300];
    ct_esc_c_string(s->device, dev_q, sizeof dev_q);
    family_comment(f, fo, 0);
    fprintf(f, "#if !defined(__CUDACC_RTC__)\n#include <cuda_runtime.h>\n#include <math.h>\n#include <string.h>\n"
               "#include <atomic>\n%s#endif\n", fo->includes ? fo->includes : "");
    /* The type's header at file scope: every instance and the generic kernel
     * include it again inside their namespaces, where its guard makes that
     * a no-op. */
    if (half)
        fprintf(f, "#include <%s>\n", ct_dtype_header(s->dtype));
    fprintf(f, "\n%s\n", grade_enum);
    for (int i = 0; i < s->n; i++)
        fputs(fo->texts[i], f);
    fprintf(f, "// ==== the generic kernel: templates/%s.cu ====\n", s->fx->generic);
    if (s->dtype != CT_DTYPE_F32) {
        /* its element type, and its kernels renamed, so that the fp32, tf32
         * and half exports of a family link into one program (tf32's
         * generic kernel is the fp32 one: its storage is fp32) */
        if (half)
            fprintf(f, "#define CT_DTYPE %d\n", (int)s->dtype);
        for (int k = 0; k < fo->generic_kernels.n; k++)
            fprintf(f, "#define %s %s_%s\n", fo->generic_kernels.v[k], fo->generic_kernels.v[k],
                    ct_dtype_name(s->dtype));
    }
    fprintf(f, "namespace ct_generic_%s {\n%s\n}  // namespace ct_generic_%s\n\n", s->name, fo->generic_src, s->name);
    ct_exp_selector_cu(f, s, fo->ins, dev_q);
}

static void family_h(FILE *f, void *user)
{
    const family_out *fo = user;
    const ct_tuned_set *s = fo->set;
    char guard[130], gname[110];
    snprintf(gname, sizeof gname, "CONVTUNE_%s_SELECTOR", s->name);
    ct_exp_guard_name(gname, guard, sizeof guard);
    family_comment(f, fo, 1);
    fprintf(f, "// No CUDA header is needed: cudaStream_t is `struct CUstream_st *`, so a\n"
               "// cudaStream_t (or 0 for the default stream) is passed as it is.\n");
    fprintf(f, "#ifndef %s\n#define %s\n\nstruct CUstream_st;\n\n%s\n", guard, guard, grade_enum);
    fprintf(f, "#ifndef CONVTUNE_GRADE_NAME_DEFINED\n#define CONVTUNE_GRADE_NAME_DEFINED\n"
               "static inline const char *convtune_grade_name(int grade)\n{\n"
               "    return grade == CONVTUNE_EXACT ? \"exact\" : grade == CONVTUNE_NEAREST_SIZE ? \"nearest_size\"\n"
               "         : grade == CONVTUNE_OTHER_DEVICE ? \"other_device\" : grade == CONVTUNE_GENERIC ? \"generic\"\n"
               "         : \"?\";\n}\n#endif\n\n");
    ct_exp_selector_h(f, s);
    fprintf(f, "// Each tuned instance also has its own launcher, convtune_%s_instance_PROBLEM: named apart\n"
               "// from a single-problem export's convtune_PROBLEM, so both link into one program.\n", s->name);
    for (int i = 0; i < s->n; i++)
        ct_exp_emit_declarations(f, &fo->ins[i]);
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
    const char *suffix = in->suffix;

    if (!(lf = open_memstream(&launcher, &llen)) || !(bf = open_memstream(&body, &blen))) {
        rc = ct_fail(e, CT_ERR_INTERNAL, "export: out of memory");
        goto done;
    }
    ct_exp_emit_launcher(lf, in);
    if (fclose(lf) != 0) {
        lf = NULL;
        rc = ct_fail(e, CT_ERR_INTERNAL, "export: out of memory");
        goto done;
    }
    lf = NULL;

    extern_c_names(in->src, in->t->name, &kernels);
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
    ct_exp_emit_kernel_text(kf, in);
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
    return ct_exp_family_into(set, templates_dir, path, force, NULL, e);
}

ct_status ct_exp_family_into(const ct_tuned_set *set, const char *templates_dir, const char *path, int force,
                             ct_outset *into, ct_err *e)
{
    if (!set || set->n < 1)
        return ct_fail(e, CT_ERR_NOT_FOUND, "export: no tuned problem to export");
    if (!set->fx)
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
        rc = ct_exp_instance_load(&fo.ins[i], &set->recs[i], templates_dir, e);
        /* Named apart from the single export's launcher of the same problem
         * (convtune_PROBLEM), so that both link into one program. */
        if (rc == CT_OK)
            snprintf(fo.ins[i].sym, sizeof fo.ins[i].sym, "convtune_%s_instance_%s", set->name, fo.ins[i].suffix);
        if (rc == CT_OK)
            rc = ct_exp_selector_check(set, &fo.ins[i], e);
        if (rc == CT_OK && fo.ins[i].t->exec && *fo.ins[i].t->exec->link_flags &&
            !strstr(fo.link, fo.ins[i].t->exec->link_flags))
            snprintf(fo.link + strlen(fo.link), sizeof fo.link - strlen(fo.link), "%s%s", fo.link[0] ? " " : "",
                     fo.ins[i].t->exec->link_flags);
    }
    if (rc != CT_OK)
        goto done;
    if ((rc = ct_template_source(set->fx->generic, templates_dir, &fo.generic_src, e)) != CT_OK)
        goto done;
    ct_hash_hex(fo.generic_src, fo.generic_hash);
    if (!(fo.generic_kernels.v = calloc(MAX_NAMES, 64))) {
        rc = ct_fail(e, CT_ERR_INTERNAL, "export: out of memory");
        goto done;
    }
    extern_c_names(fo.generic_src, NULL, &fo.generic_kernels);
    for (int i = 0; i < set->n && rc == CT_OK; i++)
        rc = instance_text(&fo, i, e);
    if (rc != CT_OK)
        goto done;
    char h_path[1100];
    ct_export_header_path(path, h_path, sizeof h_path);
    ct_esc_c_comment(ct_exp_base_name(path), fo.cu_name, sizeof fo.cu_name);
    ct_esc_c_comment(ct_exp_base_name(h_path), fo.h_name, sizeof fo.h_name);
    rc = ct_exp_write_pair(path, force, family_cu, family_h, &fo, into, e);
done:
    for (int i = 0; fo.ins && i < set->n; i++)
        ct_exp_instance_free(&fo.ins[i]);
    for (int i = 0; fo.texts && i < set->n; i++)
        free(fo.texts[i]);
    free(fo.ins);
    free(fo.texts);
    free(fo.includes);
    free(fo.generic_src);
    free(fo.generic_kernels.v);
    return rc;
}
