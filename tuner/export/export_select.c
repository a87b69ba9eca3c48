/* export_select.c - the selector of a family export, written from what the
 * family declares (family_export.h): its signature, the table of tuned
 * problems, the graded choice and the header's declarations. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "export_internal.h"
#include "family_export.h"

static const ct_family_export *fx_of(const ct_tuned_set *s)
{
    return s->fx;
}

static const char *arg_type(const ct_sel_arg *a)
{
    return a->kind == CT_SEL_SIZE ? "long long" : "int";
}

/* Whether the selector's buffer b may be NULL: an optional buffer, named by
 * a CT_SEL_BUFFER argument. */
static int optional_buffer(const ct_family_export *fx, const char *b)
{
    for (int i = 0; i < fx->nargs; i++)
        if (fx->args[i].kind == CT_SEL_BUFFER && !strcmp(fx->args[i].name, b))
            return 1;
    return 0;
}

typedef struct items {
    char v[2 * CT_SEL_MAX_ARGS + 8][256];   /* the longest: the generic accepts call */
    int n;
} items;

static void item(items *it, const char *fmt, const char *a, const char *b)
{
    if (it->n < (int)(sizeof it->v / sizeof it->v[0]))
        snprintf(it->v[it->n++], sizeof it->v[0], fmt, a, b);
}

/* prefix, the items joined by sep, suffix, with lines wrapped at width:
 * continued lines start with cont. */
static void joined(FILE *f, const char *prefix, const items *it, const char *sep, const char *suffix, const char *cont,
                   int width)
{
    int col = (int)strlen(prefix);
    fputs(prefix, f);
    for (int i = 0; i < it->n; i++) {
        char text[sizeof it->v[0] + 8];
        snprintf(text, sizeof text, "%s%s", it->v[i], i + 1 < it->n ? sep : suffix);
        int len = (int)strlen(text);
        if (i > 0 && col + 1 + len > width) {
            fprintf(f, "\n%s", cont);
            col = (int)strlen(cont);
        } else if (i > 0) {
            fputc(' ', f);
            col++;
        }
        fputs(text, f);
        col += len;
    }
}

/* A parameter list. */
static void wrapped(FILE *f, const char *prefix, const items *it, const char *suffix, const char *cont, int width)
{
    joined(f, prefix, it, ",", suffix, cont, width);
}

/* The type of the selector's buffer i: "const float *", the output "float *";
 * in a half export "const void *" and "void *", as the launchers of its
 * instances take them (no CUDA header needed by a caller). */
static const char *buffer_type(const ct_tuned_set *s, int i)
{
    const int out = i + 1 == fx_of(s)->nbuffers;
    if (s->dtype != CT_DTYPE_F32)
        return out ? "void *" : "const void *";
    return out ? "float *" : "const float *";
}

/* The selector's buffers as parameters ("const float *in", "float *out"). */
static void buffer_params(const ct_tuned_set *s, items *it)
{
    for (int i = 0; i < fx_of(s)->nbuffers; i++)
        item(it, "%s%s", buffer_type(s, i), fx_of(s)->buffers[i]);
}

/* Whether args[i] is a parameter of the selector at all (not CT_SEL_FIXED,
 * a field of the variant's problems that is always 0). */
static int is_arg(const ct_family_export *fx, int i)
{
    return fx->args[i].kind != CT_SEL_FIXED;
}

/* The size and key arguments as parameters ("long long n", "int mode"); with
 * flags, the CT_SEL_BUFFER ones too (as "int bias"), and as pointers when
 * pointers is set. */
static void arg_params(const ct_family_export *fx, int flags, int pointers, items *it)
{
    for (int i = 0; i < fx->nargs; i++)
        if (is_arg(fx, i) && (flags || fx->args[i].kind != CT_SEL_BUFFER))
            item(it, pointers ? "%s *%s" : "%s %s", arg_type(&fx->args[i]), fx->args[i].name);
}

/* "(n, k, mode)": the arguments that identify a problem. */
static void arg_tuple(FILE *f, const ct_family_export *fx)
{
    fputc('(', f);
    for (int i = 0, n = 0; i < fx->nargs; i++)
        if (is_arg(fx, i))
            fprintf(f, "%s%s", n++ ? ", " : "", fx->args[i].name);
    fputc(')', f);
}

/* NAME upper-cased into buf. */
static const char *upper(const char *name, char *buf, size_t len)
{
    size_t o = 0;
    for (; name[o] && o + 1 < len; o++)
        buf[o] = isalnum((unsigned char)name[o]) ? (char)toupper((unsigned char)name[o]) : '_';
    buf[o] = '\0';
    return buf;
}

void ct_exp_selector_doc(FILE *f, const ct_tuned_set *s)
{
    const ct_family_export *fx = fx_of(s);
    char prefix[120];
    snprintf(prefix, sizeof prefix, "//\n// Selector: int convtune_%s(", s->name);
    items it = {.n = 0};
    buffer_params(s, &it);
    arg_params(fx, 0, 0, &it);
    item(&it, "%s%s", "cudaStream_t stream", "");
    item(&it, "%s%s", "int *grade", "");
    wrapped(f, prefix, &it, ");", "//                          ", 100);
    fprintf(f, "\n//   %s; device pointers", s->family->grammar);
    for (int i = 0; i < fx->nargs; i++) {
        const ct_sel_arg *a = &fx->args[i];
        if (a->kind == CT_SEL_BUFFER)
            fprintf(f, "; %s NULL for none", a->name);
        for (int c = 0; c < a->nchoices; c++)
            fprintf(f, "%s%s%s%d %s", c ? ", " : "; ", c ? "" : a->name, c ? "" : " ", c, a->choices[c]);
    }
    fprintf(f, ";\n//   returns 0 (cudaSuccess) or a cudaError_t (cudaErrorInvalidValue for bad sizes). It\n"
               "//   launches the instance tuned for exactly these arguments if there is one, otherwise the\n"
               "//   generic kernel; *grade (when grade is not NULL) says how: CONVTUNE_EXACT,\n"
               "//   CONVTUNE_NEAREST_SIZE, CONVTUNE_OTHER_DEVICE or CONVTUNE_GENERIC (see the enum). The\n"
               "//   device is the current one (cudaGetDevice). Instances with an input in constant memory\n"
               "//   copy it on the stream first, so calls for the same problem on different streams must\n"
               "//   not overlap.\n");
}

/* A launcher taking every buffer of the selector, for an instance whose own
 * launcher takes fewer (a layer without bias); NULL name when the
 * instance's launcher has the selector's buffers already. */
static void thunk_name(const ct_family_export *fx, const instance *in, char *buf, size_t len)
{
    int same = in->nb == fx->nbuffers;
    for (int i = 0; same && i < in->nb; i++)
        same = !strcmp(in->bufs[i].name, fx->buffers[i]);
    if (same)
        snprintf(buf, len, "ct_%s::%s", in->suffix, in->sym);
    else
        snprintf(buf, len, "launch_%s", in->suffix);
}

static void emit_thunk(FILE *f, const ct_tuned_set *s, const instance *in)
{
    const ct_family_export *fx = fx_of(s);
    char name[520];
    thunk_name(fx, in, name, sizeof name);
    if (strncmp(name, "launch_", 7) != 0)
        return;
    items it = {.n = 0};
    buffer_params(s, &it);
    item(&it, "%s%s", "cudaStream_t stream", "");
    char prefix[540];
    snprintf(prefix, sizeof prefix, "static int %s(", name);
    wrapped(f, prefix, &it, ")", "    ", 110);
    fprintf(f, "\n{\n");
    for (int i = 0; i < fx->nbuffers; i++) {
        int used = 0;
        for (int b = 0; b < in->nb; b++)
            used |= !strcmp(in->bufs[b].name, fx->buffers[i]);
        if (!used)
            fprintf(f, "    (void)%s;\n", fx->buffers[i]);
    }
    fprintf(f, "    return ct_%s::%s(", in->suffix, in->sym);
    for (int b = 0; b < in->nb; b++)
        fprintf(f, "%s, ", in->bufs[b].name);
    fprintf(f, "stream);\n}\n\n");
}

ct_status ct_exp_selector_check(const ct_tuned_set *s, const instance *in, ct_err *e)
{
    const ct_family_export *fx = fx_of(s);
    if (fx->nargs > CT_SEL_MAX_ARGS)
        return ct_fail(e, CT_ERR_INTERNAL, "export: family %s declares too many selector arguments", s->family->name);
    for (int b = 0; b < in->nb; b++) {
        int found = 0;
        for (int i = 0; i < fx->nbuffers && !found; i++)
            found = !strcmp(in->bufs[b].name, fx->buffers[i]);
        if (!found)
            return ct_fail(e, CT_ERR_INTERNAL, "export: buffer %s of %s is not one of the selector's",
                           in->bufs[b].name, in->p.canonical);
    }
    return CT_OK;
}

/* The tuned table's struct: the arguments' values, grouped by type. */
static void emit_table_struct(FILE *f, const ct_tuned_set *s)
{
    const ct_family_export *fx = fx_of(s);
    fprintf(f, "struct tuned_problem {\n");
    const ct_sel_arg *a[CT_SEL_MAX_ARGS];
    int n = 0;
    for (int i = 0; i < fx->nargs && n < CT_SEL_MAX_ARGS; i++)
        if (is_arg(fx, i))
            a[n++] = &fx->args[i];
    for (int i = 0; i < n; i++) {
        const int first = i == 0 || strcmp(arg_type(a[i]), arg_type(a[i - 1])) != 0;
        const int last = i + 1 == n || strcmp(arg_type(a[i]), arg_type(a[i + 1])) != 0;
        fprintf(f, "%s%s%s%s", first ? "    " : "", first ? arg_type(a[i]) : "", first ? " " : ", ", a[i]->name);
        if (last)
            fprintf(f, ";\n");
    }
    fprintf(f, "    unsigned block;   // of the tuned launch, reused by the generic kernel for nearby sizes\n"
               "    int (*launch)(");
    for (int i = 0; i < fx->nbuffers; i++)
        fprintf(f, "%s, ", buffer_type(s, i));
    fprintf(f, "cudaStream_t);\n};\n\n");
}

/* The arguments of the given kinds (a mask of 1 << kind) as items, each
 * written with fmt (the name given twice). */
static void arg_items(const ct_family_export *fx, unsigned kinds, const char *fmt, items *it)
{
    for (int i = 0; i < fx->nargs; i++)
        if (kinds & (1u << fx->args[i].kind))
            item(it, fmt, fx->args[i].name, fx->args[i].name);
}

#define SIZES (1u << CT_SEL_SIZE)
#define KEYS ((1u << CT_SEL_KEY) | (1u << CT_SEL_BUFFER))

static void emit_pick(FILE *f, const ct_family_export *fx, const char *fam)
{
    char prefix[120];
    items it = {.n = 0};
    arg_params(fx, 1, 0, &it);
    item(&it, "%s%s", "double *distance", "");
    snprintf(prefix, sizeof prefix, "extern \"C\" int convtune_%s_pick(", fam);
    wrapped(f, prefix, &it, ")", "                              ", 110);
    fprintf(f, "\n{\n    using namespace ct_select_%s;\n", fam);
    if (fx->canonical) {
        /* The table holds each problem's canonical spelling; so must the request. */
        items ptrs = {.n = 0};
        arg_items(fx, SIZES | (1u << CT_SEL_KEY), "&%s", &ptrs);
        snprintf(prefix, sizeof prefix, "    ct_generic_%s::%s_canonical(", fam, fx->generic);
        joined(f, prefix, &ptrs, ",", ");\n", "        ", 110);
    }
    fprintf(f, "    int pick = -1;\n    double best = -1;\n    for (int i = 0; i < ntuned; i++)\n");
    it.n = 0;
    arg_items(fx, KEYS, "tuned[i].%s == %s", &it);
    arg_items(fx, SIZES, "tuned[i].%s == %s", &it);
    joined(f, "        if (", &it, " &&", ") {", "            ", 110);
    fprintf(f, "\n            if (distance)\n                *distance = 0;\n            return i;\n        }\n"
               "    // Otherwise the nearest in log-size; distances within %g tie, the first wins.\n",
            CT_DISTANCE_TIE);
    it.n = 0;
    item(&it, "%s%s", "i < ntuned", "");
    arg_items(fx, SIZES, "%s > 0", &it);
    joined(f, "    for (int i = 0; ", &it, " &&", "; i++) {\n", "         ", 110);
    it.n = 0;
    arg_items(fx, KEYS, "tuned[i].%s != %s", &it);
    if (it.n) {
        joined(f, "        if (", &it, " ||", ")\n", "            ", 110);
        fprintf(f, "            continue;\n");
    }
    for (int i = 0; i < fx->nargs; i++)
        if (fx->args[i].kind == CT_SEL_SIZE)
            fprintf(f, "        const double d%s = log((double)tuned[i].%s) - log((double)%s);\n", fx->args[i].name,
                    fx->args[i].name, fx->args[i].name);
    it.n = 0;
    arg_items(fx, SIZES, "d%s * d%s", &it);
    joined(f, "        const double d = sqrt(", &it, " +", ");\n", "                              ", 110);
    fprintf(f, "        if (pick < 0 || d < best - %g) {\n            pick = i;\n            best = d;\n        }\n"
               "    }\n    if (distance)\n        *distance = best;\n    return pick;\n}\n\n", CT_DISTANCE_TIE);
}

static void emit_select(FILE *f, const ct_tuned_set *s)
{
    const ct_family_export *fx = fx_of(s);
    const char *fam = s->name;
    char prefix[512];   /* the generic accepts call lists every size and key */
    items it = {.n = 0};
    buffer_params(s, &it);
    arg_params(fx, 0, 0, &it);
    item(&it, "%s%s", "cudaStream_t stream", "");
    item(&it, "%s%s", "int *grade", "");
    snprintf(prefix, sizeof prefix, "extern \"C\" int convtune_%s(", fam);
    wrapped(f, prefix, &it, ")", "                           ", 110);
    fprintf(f, "\n{\n    using namespace ct_select_%s;\n", fam);
    /* required buffers, then the sizes the family accepts */
    it.n = 0;
    for (int i = 0; i < fx->nbuffers; i++)
        if (!optional_buffer(fx, fx->buffers[i]))
            item(&it, "!%s%s", fx->buffers[i], "");
    items args = {.n = 0};
    arg_items(fx, SIZES | (1u << CT_SEL_KEY), "%s", &args);
    snprintf(prefix, sizeof prefix, "!ct_generic_%s::%s_accepts(", fam, fx->generic);
    for (int i = 0; i < args.n; i++)
        snprintf(prefix + strlen(prefix), sizeof prefix - strlen(prefix), "%s%s", i ? ", " : "", args.v[i]);
    item(&it, "%s%s)", prefix, "");
    joined(f, "    if (", &it, " ||", ")\n", "        ", 110);
    fprintf(f, "        return (int)cudaErrorInvalidValue;\n");
    it.n = 0;
    for (int i = 0; i < fx->nargs; i++)
        if (is_arg(fx, i))
            item(&it, fx->args[i].kind == CT_SEL_BUFFER ? "%s != 0%s" : "%s%s", fx->args[i].name, "");
    item(&it, "%s%s", "NULL", "");
    snprintf(prefix, sizeof prefix, "    const int pick = convtune_%s_pick(", fam);
    joined(f, prefix, &it, ",", ");\n", "                                      ", 110);
    it.n = 0;
    item(&it, "%s%s", "pick >= 0", "");
    arg_items(fx, SIZES, "tuned[pick].%s == %s", &it);
    joined(f, "    const int exact = ", &it, " &&", ";\n", "                      ", 110);
    fprintf(f, "    if (grade) {\n"
               "        int g = pick < 0 ? CONVTUNE_GENERIC : exact ? CONVTUNE_EXACT : CONVTUNE_NEAREST_SIZE;\n"
               "        if (pick >= 0) {\n            const int same = same_device();\n"
               "            if (same < 0)\n                return -same;\n"
               "            if (!same)\n                g = CONVTUNE_OTHER_DEVICE;\n        }\n"
               "        *grade = g;\n    }\n    if (exact)\n");
    it.n = 0;
    for (int i = 0; i < fx->nbuffers; i++)
        item(&it, "%s%s", fx->buffers[i], "");
    item(&it, "%s%s", "stream", "");
    joined(f, "        return tuned[pick].launch(", &it, ",", ");\n", "                                  ", 110);
    fprintf(f, "    const unsigned block = pick >= 0 ? tuned[pick].block : generic_block;\n");
    /* The generic kernel's buffers are its ct_elem: a half export's void
     * pointers are cast to it. */
    it.n = 0;
    for (int i = 0; i < fx->nbuffers; i++) {
        char cast[200] = "";
        if (s->dtype != CT_DTYPE_F32)
            snprintf(cast, sizeof cast, "(%sct_generic_%s::ct_elem *)", i + 1 < fx->nbuffers ? "const " : "", fam);
        item(&it, "%s%s", cast, fx->buffers[i]);
    }
    for (int i = 0; i < args.n; i++)
        item(&it, "%s%s", args.v[i], "");
    item(&it, "%s%s", "block", "");
    item(&it, "%s%s", "stream", "");
    snprintf(prefix, sizeof prefix, "    return ct_generic_%s::%s_launch(", fam, fx->generic);
    joined(f, prefix, &it, ",", ");\n", "        ", 110);
    fprintf(f, "}\n#endif  /* !__CUDACC_RTC__ */\n");
}

void ct_exp_selector_cu(FILE *f, const ct_tuned_set *s, const instance *ins, const char *device_q)
{
    const ct_family_export *fx = fx_of(s);
    const char *fam = s->name;
    fprintf(f, "// ==== the selector ====\n#if !defined(__CUDACC_RTC__)\nnamespace ct_select_%s {\n\n", fam);
    emit_table_struct(f, s);
    for (int i = 0; i < s->n; i++)
        emit_thunk(f, s, &ins[i]);
    fprintf(f, "// In the order of convtune's ranking: mode, then sizes ascending.\nstatic const tuned_problem "
               "tuned[] = {\n");
    for (int i = 0; i < s->n; i++) {
        const long long *v = ins[i].p.dims;
        char launch[520];
        thunk_name(fx, &ins[i], launch, sizeof launch);
        fprintf(f, "    {");
        for (int a = 0; a < fx->nargs; a++)
            if (is_arg(fx, a))
                fprintf(f, fx->args[a].kind == CT_SEL_SIZE ? "%lldLL, " : "%lld, ", v[a]);
        fprintf(f, "%uu, %s},   // %s\n", ct_tuned_block(s, i), launch, ins[i].p.canonical);
    }
    fprintf(f, "};\nstatic const int ntuned = (int)(sizeof tuned / sizeof tuned[0]);\n");
    fprintf(f, "static const char device_name[] = \"%s\";   // where the instances were tuned\n", device_q);
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
    char prefix[120];
    items it = {.n = 0};
    item(&it, "%s%s", "int i", "");
    arg_params(fx, 1, 1, &it);
    snprintf(prefix, sizeof prefix, "extern \"C\" int convtune_%s_tuned(", fam);
    wrapped(f, prefix, &it, ")", "                               ", 110);
    fprintf(f, "\n{\n    using namespace ct_select_%s;\n    if (i < 0 || i >= ntuned)\n        return -1;\n", fam);
    for (int a = 0; a < fx->nargs; a++)
        if (is_arg(fx, a))
            fprintf(f, "    if (%s)\n        *%s = tuned[i].%s;\n", fx->args[a].name, fx->args[a].name,
                    fx->args[a].name);
    fprintf(f, "    return 0;\n}\n\n");
    emit_pick(f, fx, fam);
    emit_select(f, s);
}

void ct_exp_selector_h(FILE *f, const ct_tuned_set *s)
{
    const ct_family_export *fx = fx_of(s);
    /* The keys' enums belong to the family, so that its fp32 and half
     * headers can be included together; the rest is named by the selector. */
    const char *fam = s->family->name;
    char up[64], au[64], cu[64];
    upper(fam, up, sizeof up);
    for (int a = 0; a < fx->nargs; a++) {
        const ct_sel_arg *arg = &fx->args[a];
        if (!arg->nchoices)
            continue;
        upper(arg->name, au, sizeof au);
        fprintf(f, "#ifndef CONVTUNE_%s_%s_DEFINED\n#define CONVTUNE_%s_%s_DEFINED\n"
                   "// The %s argument (%s).\nenum convtune_%s_%s {\n", up, au, up, au, arg->name, arg->help, fam,
                arg->name);
        for (int c = 0; c < arg->nchoices; c++)
            fprintf(f, "    CONVTUNE_%s_%s = %d%s\n", up, upper(arg->choices[c], cu, sizeof cu), c,
                    c + 1 < arg->nchoices ? "," : "");
        fprintf(f, "};\n#endif\n\n");
    }
    fam = s->name;
    upper(fam, up, sizeof up);
    fprintf(f, "// The device model the instances were tuned on (cudaDeviceProp.name) and its\n"
               "// architecture, and how many problems have a tuned instance.\n");
    char dev_q[300], arch_q[64];
    ct_esc_c_string(s->device, dev_q, sizeof dev_q);
    ct_esc_c_string(s->arch, arch_q, sizeof arch_q);
    fprintf(f, "#define CONVTUNE_%s_DEVICE \"%s\"\n#define CONVTUNE_%s_ARCH \"%s\"\n#define CONVTUNE_%s_NTUNED %d\n\n",
            up, dev_q, up, arch_q, up, s->n);
    fprintf(f, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    fprintf(f, "// Launch the instance tuned for ");
    arg_tuple(f, fx);
    fprintf(f, ", or the generic kernel for any\n// other size; see the comment at the top. grade may be NULL.\n");
    char prefix[120];
    items it = {.n = 0};
    buffer_params(s, &it);
    arg_params(fx, 0, 0, &it);
    item(&it, "%s%s", "struct CUstream_st *stream", "");
    item(&it, "%s%s", "int *grade", "");
    snprintf(prefix, sizeof prefix, "int convtune_%s(", fam);
    wrapped(f, prefix, &it, ");", "                ", 110);
    fprintf(f, "\n\n// The i-th tuned problem (0 <= i < CONVTUNE_%s_NTUNED): returns 0 and its sizes\n"
               "// and mode (pointers may be NULL), or -1 when i is out of range.\n", up);
    it.n = 0;
    item(&it, "%s%s", "int i", "");
    arg_params(fx, 1, 1, &it);
    snprintf(prefix, sizeof prefix, "int convtune_%s_tuned(", fam);
    wrapped(f, prefix, &it, ");", "                      ", 110);
    fprintf(f, "\n\n// Which tuned problem the selector uses for ");
    arg_tuple(f, fx);
    fprintf(f, ", without launching\n// anything (no GPU needed): its index for convtune_%s_tuned, the exact one\n"
               "// or the nearest in log-size of the same mode, with the distance in\n"
               "// *distance (may be NULL; 0 when exact); -1 (distance -1) when no problem of\n"
               "// this mode is tuned, so the generic kernel runs with its default launch.\n", fam);
    it.n = 0;
    arg_params(fx, 1, 0, &it);
    item(&it, "%s%s", "double *distance", "");
    snprintf(prefix, sizeof prefix, "int convtune_%s_pick(", fam);
    wrapped(f, prefix, &it, ");", "                     ", 110);
    fprintf(f, "\n\n");
}
