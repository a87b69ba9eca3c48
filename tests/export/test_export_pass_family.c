/* test_export_pass_family.c - `convtune export --family F --pass P` of the
 * layer families (family_export.h, variants), without a GPU. A database
 * holds forward, dgrad and wgrad winners of conv2dc and conv1dc, in fp32
 * and in one half type each (bf16 for conv2dc, f16 for conv1dc), with a
 * forward and a dgrad row of the same layer among them. Then:
 *
 *   - the forward family export is the one of a database of its forward
 *     rows alone, byte for byte but the export time, and so is --pass fwd;
 *   - each pass export's table holds exactly that pass's rows of its type,
 *     its selector has the pass's buffers and the forward selector's size
 *     and key arguments (dgrad without bias, wgrad with an int bias), its
 *     header declares it, and nvcc builds it; the conv2dc exports (forward,
 *     both passes, bf16 dgrad) link into one library (no name clashes);
 *     their headers compile together from C;
 *   - each pass's generic template compiles alone with NVRTC;
 *   - query --nearest of a pass SPEC ranks among that pass's rows;
 *   - refusals: --pass of a family without passes, an unknown pass, with
 *     --problem, with --torch (the module holds every pass), a pass with
 *     nothing tuned.
 *
 * nvcc is a prerequisite: without it on PATH the test fails. */
#include "export_common.h"
#define CT_EXPORT_TEST_NAME "export_pass_family"
#include "export_run.h"

#include <ctype.h>

#include "export.h"
#include "family_export.h"
#include "json.h"

#define DEV "NVIDIA Test Pass Family GPU"
#define PATHLEN 700   /* the scratch folder (512), "/" and a NAMELEN name */
#define NAMELEN 96

typedef struct row {
    const char *spec, *tmpl;
} row;

static const row rows[] = {
    {"conv2dc:1:4:16:16:6:3:3:valid", "conv2dc_naive"},
    {"conv2dc:2:3:20:24:8:3:3:same:bias", "conv2dc_naive"},
    {"conv2dc:1:4:16:16:6:3:3:valid:dgrad", "conv2dc_dgnaive"},
    {"conv2dc:2:6:9:11:4:3:2:pad=1,0:stride=2,3:groups=2:dgrad", "conv2dc_dgnaive"},
    {"conv2dc:2:5:13:11:5:7:7:same:groups=5:bias:wgrad", "conv2dc_wgnaive"},
    {"conv2dc:2:4:10:10:8:3:3:dilation=2:nhwc:wgrad", "conv2dc_wgnaive"},
    {"conv2dc:1:4:16:16:6:3:3:valid:bf16", "conv2dc_naive"},
    {"conv2dc:2:8:12:12:8:5:5:same:groups=8:nhwc:dgrad:bf16", "conv2dc_dgnaive"},
    {"conv1dc:2:8:64:16:3:pad=1:bias", "conv1dc_naive"},
    {"conv1dc:2:16:50:16:4:causal:groups=16:dgrad", "conv1dc_dgnaive"},
    {"conv1dc:3:16:41:16:4:causal:groups=16:bias:wgrad", "conv1dc_wgnaive"},
    {"conv1dc:2:8:33:8:3:pad=1:stride=2:nlc:dgrad:f16", "conv1dc_dgnaive"},
    {"conv1dc:3:16:41:16:4:causal:groups=16:bias:nlc:wgrad:f16", "conv1dc_wgnaive"},
};
#define NROWS ((int)(sizeof rows / sizeof rows[0]))

/* One export: family, --pass (NULL: none), --dtype (NULL: f32), the
 * selector's name, the start of its parameter list, and its size and key
 * parameters after the buffers, blanks collapsed. */
typedef struct exp_case {
    const char *family, *pass, *dtype, *name, *params, *args;
} exp_case;

#define C2_ARGS "long long b, long long cin, long long h, long long w, long long cout, long long kh, long long kw, " \
                "int mode, int ph, int pw, int sh, int sw, int dh, int dw, int groups, "
#define C1_ARGS "long long b, long long cin, long long l, long long cout, long long k, int pad, int causal, " \
                "int stride, int dilation, int groups, "

static const exp_case cases[] = {
    {"conv2dc", NULL, NULL, "conv2dc", "const float *in, const float *weight, const float *bias, float *out",
     C2_ARGS "int layout,"},
    {"conv2dc", "dgrad", NULL, "conv2dc_dgrad", "const float *dout, const float *weight, float *din",
     C2_ARGS "int layout,"},
    {"conv2dc", "wgrad", NULL, "conv2dc_wgrad", "const float *in, const float *dout, float *dweight",
     C2_ARGS "int bias, int layout,"},
    {"conv2dc", "dgrad", "bf16", "conv2dc_dgrad_bf16", "const void *dout, const void *weight, void *din",
     C2_ARGS "int layout,"},
    {"conv1dc", NULL, NULL, "conv1dc", "const float *in, const float *weight, const float *bias, float *out",
     C1_ARGS "int layout,"},
    {"conv1dc", "dgrad", NULL, "conv1dc_dgrad", "const float *dout, const float *weight, float *din",
     C1_ARGS "int layout,"},
    {"conv1dc", "wgrad", NULL, "conv1dc_wgrad", "const float *in, const float *dout, float *dweight",
     C1_ARGS "int bias, int layout,"},
    {"conv1dc", "dgrad", "f16", "conv1dc_dgrad_f16", "const void *dout, const void *weight, void *din",
     C1_ARGS "int layout,"},
    {"conv1dc", "wgrad", "f16", "conv1dc_wgrad_f16", "const void *in, const void *dout, void *dweight",
     C1_ARGS "int bias, int layout,"},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* Whether row r belongs to the export of case c: its family, its pass
 * (none: the forward pass) and its type. */
static int in_case(const row *r, const exp_case *c)
{
    ct_problem p;
    ct_err e = {""};
    if (ct_problem_parse(r->spec, &p, &e) != CT_OK || strcmp(p.family->name, c->family) != 0)
        return 0;
    const int pass = (int)ct_problem_value(&p, "pass");
    const int want = !c->pass ? 0 : !strcmp(c->pass, "dgrad") ? 1 : 2;
    return pass == want && !strcmp(ct_dtype_name(ct_problem_dtype(&p)), c->dtype ? c->dtype : "f32");
}

/* A database at path with the rows (forward_only: those of the forward pass). */
static void fill(const char *path, int forward_only)
{
    ct_db *db = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_db_open(path, 1, &db, &e) == CT_OK, "%s: %s", path, e.msg);
    if (!db)
        return;
    const ct_device_info d = tc_device(DEV, "GPU-3333-pass", 9, 0, 13000);
    for (int i = 0; i < NROWS; i++) {
        if (forward_only && strstr(rows[i].spec, "grad"))
            continue;
        const ct_result rec = tc_first_values(rows[i].spec, rows[i].tmpl, 10.0 + i);
        tc_add_run(db, &d, rows[i].spec, &rec, 1);
    }
    ct_db_close(db);
}

/* s with every run of blanks (newlines too) made one space, malloc'ed. */
static char *collapsed(const char *s)
{
    char *o = malloc(strlen(s) + 1), *q = o;
    if (!o)
        return NULL;
    for (; *s; s++) {
        if (isspace((unsigned char)*s)) {
            if (q > o && q[-1] != ' ')
                *q++ = ' ';
        } else {
            *q++ = *s;
        }
    }
    *q = '\0';
    return o;
}

/* s without an "// exported:" line (exports no longer hold one: this
 * only keeps the comparison about the kernels) and without the runs'
 * times (", tuned 2026-11-27T12:00:01Z"): the two databases are filled
 * one after the other, so a second may turn between the same row's runs
 * (the test failed so once). */
static char *timeless(const char *s)
{
    char *o = s ? strdup(s) : NULL;
    char *at = o ? strstr(o, "// exported:") : NULL;
    if (at) {
        char *nl = strchr(at, '\n');
        memmove(at, nl ? nl + 1 : at + strlen(at), strlen(nl ? nl + 1 : at + strlen(at)) + 1);
    }
    static const char key[] = ", tuned ";
    for (char *t = o ? strstr(o, key) : NULL; t; t = strstr(t, key)) {
        char *v = t + strlen(key), *end = v;
        while (*end && (isdigit((unsigned char)*end) || *end == '-' || *end == ':' || *end == 'T' || *end == 'Z'))
            end++;
        if (end - v >= 20)
            memmove(t, end, strlen(end) + 1);
        else
            t = v;
    }
    return o;
}

/* export --family (with --pass and --dtype where c has them) of db into
 * file; 0 when it failed. */
static int export_case(const exp_case *c, const char *pass, const char *db, const char *file)
{
    tc_result r;
    char cu[PATHLEN];
    path_in(cu, sizeof cu, file);
    const char *dt = c->dtype ? c->dtype : "f32";
    if (pass)
        convtune(&r, "export", "--family", c->family, "--pass", pass, "--dtype", dt, "--db", db, "-o", cu, NULL);
    else
        convtune(&r, "export", "--family", c->family, "--dtype", dt, "--db", db, "-o", cu, NULL);
    const int ok = r.code == 0 && r.errlen == 0;
    CHECK_MSG(ok, "export --family %s --pass %s --dtype %s: exit %d: %s", c->family, pass ? pass : "-", dt, r.code,
              r.err);
    tc_result_free(&r);
    return ok;
}

/* The tuned table of cu holds exactly c's rows, and the selector has c's
 * signature in the .cu and the header. */
static void check_case(const exp_case *c, const char *file)
{
    char cu[PATHLEN], h[PATHLEN], want[PATHLEN];
    path_in(cu, sizeof cu, file);
    ct_export_header_path(cu, h, sizeof h);
    char *s = tc_slurp(cu, NULL), *t = tc_slurp(h, NULL);
    CHECK_MSG(s && t, "%s or its header not written", cu);
    if (!s || !t) {
        free(s);
        free(t);
        return;
    }
    int n = 0, lines = 0;
    for (int i = 0; i < NROWS; i++) {
        ct_problem p;
        ct_err e = {""};
        CHECK(ct_problem_parse(rows[i].spec, &p, &e) == CT_OK);
        snprintf(want, sizeof want, "},   // %s\n", p.canonical);
        const int there = strstr(s, want) != NULL;
        CHECK_MSG(there == in_case(&rows[i], c), "%s: row %s %s", cu, p.canonical,
                  there ? "is in the table but should not be" : "is missing");
        n += in_case(&rows[i], c);
    }
    for (const char *q = strstr(s, "static const tuned_problem tuned[] = {"); q && (q = strstr(q, "},   // ")); q++)
        lines++;
    CHECK_MSG(lines == n, "%s: %d rows in the table, expected %d", cu, lines, n);
    char *sc = collapsed(s), *tcl = collapsed(t);
    snprintf(want, sizeof want, "extern \"C\" int convtune_%s(%s, %s cudaStream_t stream, int *grade)", c->name,
             c->params, c->args);
    contains(sc, want, cu);
    snprintf(want, sizeof want, "int convtune_%s(%s, %s struct CUstream_st *stream, int *grade);", c->name, c->params,
             c->args);
    contains(tcl, want, h);
    size_t u = 0;
    char up[64];
    for (; c->name[u] && u + 1 < sizeof up; u++)
        up[u] = (char)toupper((unsigned char)c->name[u]);
    up[u] = '\0';
    snprintf(want, sizeof want, "#define CONVTUNE_%s_NTUNED %d\n", up, n);
    contains(t, want, h);
    if (c->pass) {
        snprintf(want, sizeof want, "re-run `convtune export --family %s --pass %s%s%s` instead.", c->family, c->pass,
                 c->dtype ? " --dtype " : "", c->dtype ? c->dtype : "");
        contains(s, want, cu);
        snprintf(want, sizeof want, "namespace ct_generic_%s {\n", c->name);
        contains(s, want, cu);
        snprintf(want, sizeof want, "// selector:  the %s gradient", !strcmp(c->pass, "dgrad") ? "input" : "weight");
        contains(s, want, cu);
    }
    free(sc);
    free(tcl);
    free(s);
    free(t);
}

/* The pass generics compile alone with NVRTC, as the forward ones. */
static void generic_nvrtc(const char *name)
{
    char *src = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_template_source(name, NULL, &src, &e) == CT_OK, "%s: %s", name, e.msg);
    static const char *const archs[] = {"sm_75", "sm_90"};
    for (int a = 0; src && a < 2; a++) {
        ct_binary b;
        memset(&b, 0, sizeof b);
        ct_params none;
        memset(&none, 0, sizeof none);
        CHECK_MSG(ct_nvrtc_compile(src, name, archs[a], NULL, 0, &none, &b, &e) == CT_OK, "NVRTC %s for %s: %s",
                  name, archs[a], e.msg);
        ct_binary_free(&b);
    }
    free(src);
}

/* query --nearest SPEC: its grade and chosen problem. */
static void nearest_is(const char *db, const char *spec, const char *grade, const char *chosen)
{
    tc_result r;
    convtune(&r, "query", "--nearest", spec, "--db", db, "--format", "json", NULL);
    CHECK_MSG(r.code == 0, "query --nearest %s: exit %d: %s", spec, r.code, r.err);
    ct_json *v = NULL;
    ct_err e = {""};
    CHECK_MSG(r.code != 0 || ct_json_parse(r.out, r.outlen, &v, &e) == CT_OK, "query --nearest %s: %s", spec, e.msg);
    tc_result_free(&r);
    if (!v)
        return;
    const ct_json *g = ct_json_get(v, "grade"), *ch = ct_json_get(v, "chosen");
    CHECK_MSG(g && g->type == CT_JSON_STRING && !strcmp(g->str, grade), "%s: grade %s, want %s", spec,
              g && g->type == CT_JSON_STRING ? g->str : "?", grade);
    ct_problem want;
    CHECK(ct_problem_parse(chosen, &want, &e) == CT_OK);
    CHECK_MSG(ch && ch->type == CT_JSON_STRING && !strcmp(ch->str, want.canonical), "%s: chose %s, want %s", spec,
              ch && ch->type == CT_JSON_STRING ? ch->str : "?", want.canonical);
    ct_json_free(v);
}

static void refusals(const char *db)
{
    tc_result r;
    char cu[PATHLEN];
    path_in(cu, sizeof cu, "refused.cu");
    convtune(&r, "export", "--family", "conv2d", "--pass", "dgrad", "--db", db, "-o", cu, NULL);
    fails(&r, 2, "family conv2d has no training passes", "export --family conv2d --pass dgrad");
    convtune(&r, "export", "--family", "conv1d", "--pass", "wgrad", "--db", db, "-o", cu, NULL);
    fails(&r, 2, "family conv1d has no training passes", "export --family conv1d --pass wgrad");
    convtune(&r, "export", "--family", "conv2dc", "--pass", "bwd", "--db", db, "-o", cu, NULL);
    fails(&r, 2, "unknown pass 'bwd' (fwd, dgrad or wgrad)", "export --pass bwd");
    convtune(&r, "export", "--problem", "conv2dc:1:4:16:16:6:3:3:valid:dgrad", "--pass", "dgrad", "--db", db, "-o",
             cu, NULL);
    fails(&r, 2, "--pass applies to export --family only", "export --problem --pass");
    convtune(&r, "export", "--family", "conv2dc", "--pass", "wgrad", "--torch", "--db", db, "-o", cu, NULL);
    fails(&r, 2, "--pass does not apply", "export --pass wgrad --torch");
    convtune(&r, "export", "--family", "conv2dc", "--pass", "wgrad", "--dtype", "f16", "--db", db, "-o", cu, NULL);
    fails(&r, 6, "no tuned f16 wgrad conv2dc problem", "export --pass wgrad --dtype f16");
    CHECK(!tc_exists(cu));
}

int main(void)
{
    if (!scratch_dirs())
        return 1;
    if (!nvcc_on_path())
        CHECK_DONE();
    char db[PATHLEN], fwd_db[PATHLEN];
    path_in(db, sizeof db, "all.db");
    path_in(fwd_db, sizeof fwd_db, "forward.db");
    fill(db, 0);
    fill(fwd_db, 1);
    char dir[PATHLEN];
    path_in(dir, sizeof dir, "alone");
    CHECK(mkdir(dir, 0700) == 0);
    path_in(dir, sizeof dir, "fwd");
    CHECK(mkdir(dir, 0700) == 0);

    static const char *const generics[] = {"conv2dc_dggeneric", "conv2dc_wggeneric", "conv1dc_dggeneric",
                                           "conv1dc_wggeneric"};
    for (int i = 0; i < 4; i++)
        generic_nvrtc(generics[i]);

    char objs[NCASES][PATHLEN + 8];
    int nobj = 0;
    for (int i = 0; i < NCASES; i++) {
        const exp_case *c = &cases[i];
        char file[64], cu[PATHLEN];
        snprintf(file, sizeof file, "%s.cu", c->name);
        path_in(cu, sizeof cu, file);
        if (!export_case(c, c->pass, db, file))
            continue;
        check_case(c, file);
        if (!c->pass) {   /* the forward export: as from its forward rows alone, and --pass fwd alike */
            static const char *const dirs[] = {"alone", "fwd"};
            for (int k = 0; k < 2; k++) {
                char other[NAMELEN];
                snprintf(other, sizeof other, "%s/%s", dirs[k], file);
                export_case(c, k ? "fwd" : NULL, k ? db : fwd_db, other);
                for (int hdr = 0; hdr < 2; hdr++) {
                    char n1[NAMELEN] = "", n2[NAMELEN] = "", p1[PATHLEN], p2[PATHLEN];
                    if (hdr) {
                        ct_export_header_path(file, n1, sizeof n1);
                        ct_export_header_path(other, n2, sizeof n2);
                    }
                    path_in(p1, sizeof p1, hdr ? n1 : file);
                    path_in(p2, sizeof p2, hdr ? n2 : other);
                    char *a = tc_slurp(p1, NULL), *b = tc_slurp(p2, NULL);
                    char *ta = timeless(a), *tb = timeless(b);
                    CHECK_MSG(ta && tb && !strcmp(ta, tb), "%s differs from %s", p1, p2);
                    free(a);
                    free(b);
                    free(ta);
                    free(tb);
                }
            }
        }
        /* built by nvcc; the conv2dc objects position-independent, to be linked together below */
        const int link = !strcmp(c->family, "conv2dc");
        snprintf(objs[nobj], sizeof objs[nobj], "%s.o", cu);
        char *argv[] = {"nvcc", "-gencode=arch=compute_90a,code=sm_90a", "-c", cu, "-o", objs[nobj],
                        link ? "-Xcompiler" : NULL, "-fPIC", NULL};
        CHECK_MSG(run_tool("nvcc -c", argv) == 0, "nvcc -c %s failed", cu);
        nobj += link;
    }
    /* The forward, dgrad, wgrad and bf16 dgrad selectors of conv2dc in one
     * program: kernels and selectors named apart. */
    char so[PATHLEN];
    path_in(so, sizeof so, "conv2dc_all.so");
    char *largv[16] = {"nvcc", "-shared", "-o", so};
    int na = 4;
    for (int i = 0; i < nobj && na < 15; i++)
        largv[na++] = objs[i];
    largv[na] = NULL;
    CHECK_MSG(nobj == 4 && run_tool("nvcc -shared", largv) == 0, "linking the %d conv2dc exports failed", nobj);
    /* Their headers together, from C. */
    char csrc[PATHLEN], cobj[PATHLEN], text[1200] = "";
    path_in(csrc, sizeof csrc, "headers.c");
    path_in(cobj, sizeof cobj, "headers.o");
    for (int i = 0; i < NCASES; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "#include \"%s.h\"\n", cases[i].name);
    snprintf(text + strlen(text), sizeof text - strlen(text), "int ct_headers_ok(void) { return CONVTUNE_EXACT; }\n");
    CHECK(tc_write_text(csrc, text) == 0);
    char *cargv[] = {"cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-c", csrc, "-o", cobj, NULL};
    CHECK_MSG(run_tool("cc headers", cargv) == 0, "the headers do not compile together from C");

    /* query --nearest: among the rows of the SPEC's pass */
    nearest_is(db, "conv2dc:1:4:16:16:6:3:3:valid:dgrad", "exact", "conv2dc:1:4:16:16:6:3:3:valid:dgrad");
    nearest_is(db, "conv2dc:1:4:17:16:6:3:3:valid:dgrad", "nearest_size", "conv2dc:1:4:16:16:6:3:3:valid:dgrad");
    nearest_is(db, "conv2dc:1:4:17:16:6:3:3:valid", "nearest_size", "conv2dc:1:4:16:16:6:3:3:valid");
    nearest_is(db, "conv2dc:2:5:14:11:5:7:7:same:groups=5:bias:wgrad", "nearest_size",
               "conv2dc:2:5:13:11:5:7:7:same:groups=5:bias:wgrad");
    nearest_is(db, "conv1dc:3:16:40:16:4:causal:groups=16:bias:nlc:wgrad:f16", "nearest_size",
               "conv1dc:3:16:41:16:4:causal:groups=16:bias:nlc:wgrad:f16");

    refusals(db);
    tc_rm_rf(base);
    CHECK_DONE();
}
