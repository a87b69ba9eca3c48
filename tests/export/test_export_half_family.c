/* test_export_half_family.c - `convtune export --family F --dtype bf16|f16`:
 * the family export of one half type, without a GPU. A database holds conv1d
 * problems in three types on two devices:
 *
 *   "NVIDIA Test Family GPU": conv1d:3000:37:same, conv1d:1000:5:valid (fp32),
 *       conv1d:3000:37:same:bf16, conv1d:4096:7:valid:f16
 *   "NVIDIA Other Test GPU":  conv1d:3000:37:same:bf16, conv1d:4096:7:valid:bf16
 *
 * so that the device with the most problems differs by type (the fp32
 * export takes the first device, the bf16 one the second: only problems of
 * the type count). Each export must hold its type only, name its selector by
 * it (convtune_conv1d_bf16, taking void pointers), compile the generic kernel
 * in the type under a renamed kernel, and link into one program with the
 * fp32 export of the same family; both headers must be includable together
 * from C11. query --nearest ranks among the tuned problems of its SPEC's
 * type. --torch writes a module for bfloat16 tensors. Refusals: an unknown
 * type, --dtype without --family, a type with nothing tuned. Then every
 * family's bf16 export (its two test problems with the naive template) and
 * its text (consumer_build compiles each family's half export with nvcc).
 * nvcc is a prerequisite: without it the test fails. */
#include "export_common.h"
#define CT_EXPORT_TEST_NAME "export_half"
#include "export_run.h"

#include <ctype.h>

#include "json.h"

#define DEV "NVIDIA Test Family GPU"
#define OTHER "NVIDIA Other Test GPU"
static char dbpath[600];

static void fill(const char *path)
{
    ct_db *db = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_db_open(path, 1, &db, &e) == CT_OK, "%s: %s", path, e.msg);
    if (!db)
        return;
    ct_device_info dev = tc_device(DEV, "GPU-1111-test", 9, 0, 13000);
    ct_device_info other = tc_device(OTHER, "GPU-2222-test", 9, 0, 13000);
    static const struct {
        int other;
        const char *spec, *tmpl;
        double us;
    } rows[] = {
        {0, "conv1d:3000:37:same", "conv1d_tiled", 5.0},
        {0, "conv1d:1000:5:valid", "conv1d_naive", 3.0},
        {0, "conv1d:3000:37:same:bf16", "conv1d_tiledh", 4.0},
        {0, "conv1d:4096:7:valid:f16", "conv1d_naive", 2.0},
        {1, "conv1d:3000:37:same:bf16", "conv1d_tiledh", 4.5},
        {1, "conv1d:4096:7:valid:bf16", "conv1d_naive", 2.5},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const ct_result r = tc_first_values(rows[i].spec, rows[i].tmpl, rows[i].us);
        tc_add_run(db, rows[i].other ? &other : &dev, rows[i].spec, &r, 1);
    }
    ct_db_close(db);
}

static void check_bf16_text(const char *cu, const char *h)
{
    char *s = tc_slurp(cu, NULL), *t = tc_slurp(h, NULL);
    CHECK_MSG(s && t, "%s or %s not written", cu, h);
    if (!s || !t) {
        free(s);
        free(t);
        return;
    }
    const char *files[2] = {s, t};
    for (int i = 0; i < 2; i++) {
        const char *name = i ? h : cu;
        contains(files[i], "re-run `convtune export --family conv1d --dtype bf16` instead", name);
        contains(files[i], "// type:      bf16: every buffer holds bf16 elements (2 bytes; __nv_bfloat16", name);
        contains(files[i], "// device:    " OTHER " (sm_90): the device with the most tuned conv1d problems (2;",
                 name);
        contains(files[i], "conv1d:3000:37:same:bf16: conv1d_tiledh (content hash ", name);
        contains(files[i], "conv1d:4096:7:valid:bf16: conv1d_naive (content hash ", name);
        /* the other types' problems and the other device's rows are not in it */
        lacks(files[i], "conv1d:1000:5:valid", name);
        lacks(files[i], "valid:f16", name);
        lacks(files[i], "median 4.00 us", name);
    }
    /* the type's header at file scope, before any namespace includes it */
    const char *inc = strstr(s, "#include <cuda_bf16.h>\n"), *ns = strstr(s, "namespace ct_");
    CHECK_MSG(inc && ns && inc < ns, "%s does not include cuda_bf16.h at file scope first", cu);
    contains(s, "#define CT_DTYPE 1\n#define conv1d_generic conv1d_generic_bf16\nnamespace ct_generic_conv1d_bf16 {\n",
             cu);
    contains(s, "namespace ct_conv1d_3000_37_same_bf16 {", cu);
    contains(s, "extern \"C\" int convtune_conv1d_bf16(const void *in, const void *mask, void *out, long long n,", cu);
    contains(s, "    int (*launch)(const void *, const void *, void *, cudaStream_t);\n", cu);
    contains(s, "ct_generic_conv1d_bf16::conv1d_generic_launch((const ct_generic_conv1d_bf16::ct_elem *)in,", cu);
    contains(s, "(ct_generic_conv1d_bf16::ct_elem *)out, n, k, mode,", cu);
    contains(s, "{3000LL, 37LL, 1, ", cu);
    contains(s, "ct_conv1d_3000_37_same_bf16::convtune_conv1d_bf16_instance_conv1d_3000_37_same_bf16},   // conv1d:3000:37:same:bf16", cu);
    contains(s, "extern \"C\" int convtune_conv1d_bf16_pick(", cu);
    lacks(s, "(const float *in", cu);
    contains(s, "// Selector: int convtune_conv1d_bf16(const void *in, const void *mask, void *out,", cu);
    /* the header: the selector's names carry the type, the mode enum is the family's */
    contains(t, "#define CONVTUNE_CONV1D_BF16_NTUNED 2\n", h);
    contains(t, "#define CONVTUNE_CONV1D_BF16_DEVICE \"" OTHER "\"\n", h);
    contains(t, "#define CONVTUNE_CONV1D_BF16_ARCH \"sm_90\"\n", h);
    contains(t, "#ifndef CONVTUNE_CONV1D_MODE_DEFINED\n", h);
    contains(t, "    CONVTUNE_CONV1D_SAME = 1,\n", h);
    contains(t, "int convtune_conv1d_bf16(const void *in, const void *mask, void *out, long long n,", h);
    contains(t, "int convtune_conv1d_bf16_tuned(int i, ", h);
    contains(t, "int convtune_conv1d_bf16_instance_conv1d_3000_37_same_bf16(const void *in, const void *mask, void *out,", h);
    lacks(t, "CONVTUNE_CONV1D_NTUNED", h);
    free(s);
    free(t);
}

/* The fp32 and bf16 exports in one program: both headers from C11, both
 * .cu compiled with their header included first, linked together. */
static void link_both(const char *cu32, const char *h32, const char *cu16, const char *h16)
{
    char csrc[600], o32[600], o16[600], omain[600], exe[600], text[2400];
    path_in(csrc, sizeof csrc, "both.c");
    path_in(o32, sizeof o32, "f32.o");
    path_in(o16, sizeof o16, "bf16.o");
    path_in(omain, sizeof omain, "both.o");
    path_in(exe, sizeof exe, "both");
    snprintf(text, sizeof text,
             "#include <stddef.h>\n#include \"%s\"\n#include \"%s\"\n"
             "int main(int argc, char **argv)\n{\n"
             "    (void)argv;\n    if (argc < 5)   /* link only: nothing is called without a GPU */\n"
             "        return CONVTUNE_CONV1D_NTUNED + CONVTUNE_CONV1D_BF16_NTUNED == 4 ? 0 : 1;\n"
             "    float *f = NULL;\n    void *v = NULL;\n    int g = 0;\n    double d = 0;\n"
             "    int rc = convtune_conv1d(f, f, f, 3000, 37, CONVTUNE_CONV1D_SAME, NULL, &g);\n"
             "    rc |= convtune_conv1d_bf16(v, v, v, 3000, 37, CONVTUNE_CONV1D_SAME, NULL, &g);\n"
             "    rc |= convtune_conv1d_bf16_pick(4096, 7, CONVTUNE_CONV1D_VALID, &d);\n"
             "    rc |= convtune_conv1d_bf16_instance_conv1d_3000_37_same_bf16(v, v, v, NULL);\n"
             "    return rc + (int)sizeof CONVTUNE_CONV1D_BF16_DEVICE;\n}\n",
             h32, h16);
    CHECK(tc_write_text(csrc, text) == 0);
    char *gcc[] = {"gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-c", csrc, "-o", omain, NULL};
    CHECK_MSG(run_tool("gcc -std=c11 (both headers)", gcc) == 0, "%s and %s do not compile together as C11", h32,
              h16);
    CHECK_MSG(nvcc_with_header("-arch=sm_90", h32, cu32, o32) == 0, "nvcc -c %s failed", cu32);
    CHECK_MSG(nvcc_with_header("-arch=sm_90", h16, cu16, o16) == 0, "nvcc -c %s failed", cu16);
    char *ld[] = {"nvcc", "-arch=sm_90", "-o", exe, omain, o32, o16, NULL};
    CHECK_MSG(run_tool("nvcc -o both (link)", ld) == 0, "the fp32 and bf16 exports do not link into one program");
    CHECK(tc_exists(exe));
    char *run[] = {exe, NULL};
    CHECK_MSG(run_tool("./both", run) == 0, "the linked program does not see both tables");
    unlink(omain);
    unlink(o32);
    unlink(o16);
}

static ct_json *nearest_json(const char *spec)
{
    tc_result r;
    convtune(&r, "query", "--nearest", spec, "--db", dbpath, "--format", "json", NULL);
    CHECK_MSG(r.code == 0, "query --nearest %s: exit %d: %s", spec, r.code, r.err);
    ct_json *v = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_json_parse(r.out, r.outlen, &v, &e) == CT_OK, "query --nearest %s: not JSON: %s", spec, e.msg);
    tc_result_free(&r);
    return v;
}

static void nearest_is(const char *spec, const char *grade, const char *chosen, const char *device)
{
    ct_json *v = nearest_json(spec);
    if (!v)
        return;
    const ct_json *g = ct_json_get(v, "grade"), *c = ct_json_get(v, "chosen"), *d = ct_json_get(v, "device");
    CHECK_MSG(g && g->type == CT_JSON_STRING && !strcmp(g->str, grade), "query --nearest %s: grade %s, want %s",
              spec, g && g->type == CT_JSON_STRING ? g->str : "?", grade);
    if (chosen)
        CHECK_MSG(c && c->type == CT_JSON_STRING && !strcmp(c->str, chosen), "query --nearest %s: chose %s, want %s",
                  spec, c && c->type == CT_JSON_STRING ? c->str : "null", chosen);
    else
        CHECK_MSG(c && c->type == CT_JSON_NULL, "query --nearest %s: chose something, want none", spec);
    CHECK_MSG(d && d->type == CT_JSON_STRING && !strcmp(d->str, device), "query --nearest %s: device %s, want %s",
              spec, d && d->type == CT_JSON_STRING ? d->str : "?", device);
    ct_json_free(v);
}

/* Every family's bf16 export: its test problems in bf16, naive winners. */
static void every_family(void)
{
    ct_device_info dev = tc_device(DEV, "GPU-1111-test", 9, 0, 13000);
    for (int c = 0; c < TC_NFAMILY_CASES; c++) {
        const tc_family_case *fc = &tc_family_cases[c];
        char db[600], name[80], cu[600], h[600], spec[2][200], want[300];
        snprintf(name, sizeof name, "half_%s.db", fc->family);
        path_in(db, sizeof db, name);
        ct_db *d = NULL;
        ct_err e = {""};
        CHECK_MSG(ct_db_open(db, 1, &d, &e) == CT_OK, "%s: %s", db, e.msg);
        if (!d)
            continue;
        for (int i = 0; i < 2; i++) {
            snprintf(spec[i], sizeof spec[i], "%s:bf16", fc->problems[i]);
            const ct_result r = tc_first_values(spec[i], fc->templates[1], 5.0 + i);
            tc_add_run(d, &dev, spec[i], &r, 1);
        }
        ct_db_close(d);
        snprintf(name, sizeof name, "half_%s.cu", fc->family);
        path_in(cu, sizeof cu, name);
        snprintf(name, sizeof name, "half_%s.h", fc->family);
        path_in(h, sizeof h, name);
        tc_result r;
        convtune(&r, "export", "--family", fc->family, "--dtype", "bf16", "--db", db, "-o", cu, NULL);
        CHECK_MSG(r.code == 0 && r.errlen == 0, "export --family %s --dtype bf16: exit %d: %s", fc->family, r.code,
                  r.err);
        snprintf(want, sizeof want, "2 tuned %s_bf16 problems on " DEV, fc->family);
        CHECK_MSG(strstr(r.out, want) != NULL, "export --family %s --dtype bf16 stdout: %s", fc->family, r.out);
        tc_result_free(&r);
        char *s = tc_slurp(cu, NULL);
        snprintf(want, sizeof want, "extern \"C\" int convtune_%s_bf16(const void *in, ", fc->family);
        contains(s, want, cu);
        snprintf(want, sizeof want, "#define %s_generic %s_generic_bf16\n", fc->family, fc->family);
        contains(s, want, cu);
        free(s);
        /* nvcc builds each family's half export (tc_half_cases: every
         * family in one of the types, both types) in consumer_build, the
         * header included first; here the bf16 one's text. */
        /* the fp32 export of a database with bf16 problems only */
        convtune(&r, "export", "--family", fc->family, "--db", db, "-o", cu, "--force", NULL);
        snprintf(want, sizeof want, "no tuned %s problem in the database", fc->family);
        fails(&r, 6, want, "export --family (fp32) of bf16 problems only");
    }
}

int main(void)
{
    if (!scratch_dirs())
        return 1;
    if (!nvcc_on_path())
        CHECK_DONE();
    path_in(dbpath, sizeof dbpath, "a.db");
    fill(dbpath);

    char cu32[600], h32[600], cu16[600], h16[600];
    path_in(cu32, sizeof cu32, "f32.cu");
    path_in(h32, sizeof h32, "f32.h");
    path_in(cu16, sizeof cu16, "bf16.cu");
    path_in(h16, sizeof h16, "bf16.h");
    tc_result r;
    convtune(&r, "export", "--family", "conv1d", "--db", dbpath, "-o", cu32, NULL);
    CHECK_MSG(r.code == 0 && strstr(r.out, "2 tuned conv1d problems on " DEV), "export --family conv1d: %d %s%s",
              r.code, r.out, r.err);
    tc_result_free(&r);
    {
        char *s = tc_slurp(cu32, NULL);
        lacks(s, "conv1d:3000:37:same:bf16", cu32);
        lacks(s, "conv1d:4096:7:valid:f16", cu32);
        lacks(s, "#define CT_DTYPE 1", cu32);
        contains(s, "extern \"C\" int convtune_conv1d(const float *in, const float *mask, float *out,", cu32);
        contains(s, "namespace ct_generic_conv1d {\n", cu32);
        free(s);
    }
    convtune(&r, "export", "--family", "conv1d", "--dtype", "bf16", "--db", dbpath, "-o", cu16, NULL);
    CHECK_MSG(r.code == 0 && r.errlen == 0, "export --family conv1d --dtype bf16: exit %d: %s", r.code, r.err);
    CHECK_MSG(strstr(r.out, "2 tuned conv1d_bf16 problems on " OTHER) &&
                  strstr(r.out, "the selector convtune_conv1d_bf16"),
              "export --family --dtype bf16 stdout: %s", r.out);
    tc_result_free(&r);
    check_bf16_text(cu16, h16);
    link_both(cu32, h32, cu16, h16);

    /* the default path (in the current folder) names the type; --dtype f32
     * is the default spelled out */
    char gen[600], cuf[700], hf[700];
    path_in(gen, sizeof gen, ".");
    convtune(&r, "export", "--family", "conv1d", "--dtype", "f16", "--db", dbpath, NULL);
    CHECK_MSG(r.code == 0 && strstr(r.out, "convtune_conv1d_f16.cu and convtune_conv1d_f16.h: "
                                           "1 tuned conv1d_f16 problems on " DEV) == r.out,
              "export --family --dtype f16: exit %d: %s%s", r.code, r.out, r.err);
    tc_result_free(&r);
    snprintf(cuf, sizeof cuf, "%s/convtune_conv1d_f16.cu", gen);
    snprintf(hf, sizeof hf, "%s/convtune_conv1d_f16.h", gen);
    {
        char *s = tc_slurp(cuf, NULL), *t = tc_slurp(hf, NULL);
        contains(s, "#include <cuda_fp16.h>\n", cuf);
        contains(s, "#define CT_DTYPE 2\n#define conv1d_generic conv1d_generic_f16\n", cuf);
        contains(t, "int convtune_conv1d_f16(const void *in, const void *mask, void *out,", hf);
        contains(t, "__half of cuda_fp16.h", hf);
        free(s);
        free(t);
    }
    convtune(&r, "export", "--family", "conv1d", "--dtype", "f32", "--db", dbpath, NULL);
    CHECK_MSG(r.code == 0 && strstr(r.out, "convtune_conv1d.cu") == r.out, "export --dtype f32: %d %s%s", r.code,
              r.out, r.err);
    tc_result_free(&r);

    /* query --nearest ranks among the problems of SPEC's type */
    nearest_is("conv1d:3000:37:same:bf16", "exact", "conv1d:3000:37:same:bf16", OTHER);
    nearest_is("conv1d:5000:40:same:bf16", "nearest_size", "conv1d:3000:37:same:bf16", OTHER);
    nearest_is("conv1d:4000:7:valid:bf16", "nearest_size", "conv1d:4096:7:valid:bf16", OTHER);
    nearest_is("conv1d:3000:37:same:f16", "generic", NULL, DEV);
    nearest_is("conv1d:4096:7:valid:f16", "exact", "conv1d:4096:7:valid:f16", DEV);
    nearest_is("conv1d:3000:37:same", "exact", "conv1d:3000:37:same", DEV);
    nearest_is("conv1d:4096:7:valid", "nearest_size", "conv1d:1000:5:valid", DEV);

    /* --torch: a module for bfloat16 tensors around the bf16 selector */
    char tdir[600];
    path_in(tdir, sizeof tdir, "torch");
    CHECK(mkdir(tdir, 0700) == 0);
    convtune(&r, "export", "--family", "conv1d", "--dtype", "bf16", "--torch", "--db", dbpath, "-o", tdir, NULL);
    CHECK_MSG(r.code == 0 && strstr(r.out, "convtune_conv1d_bf16.py"), "export --torch --dtype bf16: %d %s%s",
              r.code, r.out, r.err);
    tc_result_free(&r);
    {
        char py[700], bind[700], tcu[700];
        snprintf(py, sizeof py, "%s/convtune_conv1d_bf16.py", tdir);
        snprintf(bind, sizeof bind, "%s/convtune_conv1d_bf16_binding.cpp", tdir);
        snprintf(tcu, sizeof tcu, "%s/convtune_conv1d_bf16.cu", tdir);
        char *p = tc_slurp(py, NULL);
        CHECK(tc_exists(tcu));
        CHECK_MSG(!tc_exists(bind), "%s: a family module has no binding (the runtime calls it through ctypes)", bind);
        contains(p, "torch.bfloat16", py);
        contains(p, "`convtune export --family conv1d --dtype bf16 --torch`", py);
        contains(p, "\"conv1d:3000:37:same:bf16\"", py);
        contains(p, "\"symbol\": \"convtune_conv1d_bf16\"", py);
        lacks(p, "float32", py);
        free(p);
        char *argv[] = {"python3", "-m", "py_compile", py, NULL};
        CHECK_MSG(run_tool("python3 -m py_compile", argv) == 0, "%s is not valid Python", py);
    }

    /* refusals, each leaving nothing behind */
    char cux[600], hx[600];
    path_in(cux, sizeof cux, "x.cu");
    path_in(hx, sizeof hx, "x.h");
    convtune(&r, "export", "--family", "conv1d", "--dtype", "f64", "--db", dbpath, "-o", cux, NULL);
    fails(&r, 2, "--dtype: unknown element type 'f64' (f32, bf16, f16 or tf32)", "--dtype f64");
    convtune(&r, "export", "--problem", "conv1d:3000:37:same:bf16", "--dtype", "bf16", "--db", dbpath, "-o", cux,
             NULL);
    fails(&r, 2, "--dtype applies to export --family only", "export --problem --dtype");
    convtune(&r, "query", "--family", "conv1d", "--dtype", "bf16", "--db", dbpath, NULL);
    fails(&r, 2, "query does not take --dtype", "query --dtype");
    convtune(&r, "export", "--family", "conv2d", "--dtype", "bf16", "--db", dbpath, "-o", cux, NULL);
    fails(&r, 6, "no tuned bf16 conv2d problem in the database", "export --family conv2d --dtype bf16");
    convtune(&r, "export", "--family", "conv1d", "--dtype", "f16", "--device", "other test", "--db", dbpath, "-o",
             cux, NULL);
    fails(&r, 6, "no tuned f16 conv1d problem on a device matching 'other test'", "--dtype f16 --device other");
    convtune(&r, "query", "--nearest", "conv1d:10:3:f16", "--device", "other test", "--db", dbpath, NULL);
    fails(&r, 6, "no tuned f16 conv1d problem on a device matching 'other test'", "query --nearest f16 on other");
    convtune(&r, "export", "--family", "conv1d", "--dtype", "bf16", "--db", dbpath, "-o", cu16, NULL);
    fails(&r, 7, "exists", "export --family --dtype bf16 onto an existing file");
    CHECK(!tc_exists(cux) && !tc_exists(hx));

    every_family();

    if (getenv("CT_TEST_KEEP") || ct_check_failures)
        printf("kept %s\n", base);
    else
        tc_rm_rf(base);
    CHECK_DONE();
}
