/* test_export_torch.c - `convtune export --torch` without a GPU: for one
 * problem of each family and for each family's selector, the four files
 * (.cu, .h, binding, module) appear together, the module compiles as Python
 * and states the tensor shapes; refusals (a family with nothing tuned, a
 * missing directory, an existing file without --force) write nothing. gpu_torch
 * imports the modules and runs them. */
#include "export_common.h"

static char dir[512], db[600], cap[600];
static char ct_bin[] = CT_BINARY;

static void convtune7(tc_result *r, const char *a1, const char *a2, const char *a3, const char *a4,
                      const char *a5, const char *a6, const char *a7)
{
    char *argv[] = {ct_bin, (char *)a1, (char *)a2, (char *)a3, (char *)a4, (char *)a5, (char *)a6, (char *)a7,
                    "--db", db, NULL, NULL};
    /* Drop the NULL holes so every call can pass up to seven arguments. */
    char *packed[13];
    int n = 0;
    for (int i = 0; i < 10; i++)
        if (argv[i])
            packed[n++] = argv[i];
    packed[n] = NULL;
    tc_run(packed, dir, cap, 60, r);
}

static void convtune(tc_result *r, const char *a1, const char *a2, const char *a3, const char *a4,
                     const char *a5, const char *a6)
{
    convtune7(r, a1, a2, a3, a4, a5, a6, NULL);
}

static int file_has(const char *path, const char *needle)
{
    char *t = tc_slurp(path, NULL);
    int ok = t && strstr(t, needle);
    free(t);
    return ok;
}

typedef struct prob {
    const char *spec, *tmpl, *base, *shape_in, *shape_out;
} prob;

static const prob probs[] = {
    {"conv1d:4096:31", "conv1d_tiled", "conv1d_4096_31_valid", "\"input\": (4096,)", "OUT_SHAPE = (4066,)"},
    {"conv1d:1000:17:same", "conv1d_tiled", "conv1d_1000_17_same", "\"mask\": (17,)", "OUT_SHAPE = (1000,)"},
    {"conv1dc:2:8:64:16:3:pad=1:bias", "conv1dc_naive", "conv1dc_2_8_64_16_3_pad_1_bias",
     "\"weight\": (16, 8, 3), \"bias\": (16,)", "OUT_SHAPE = (2, 16, 64)"},
    {"conv2d:2:64:64:5:5:same", "conv2d_tiled", "conv2d_2_64_64_5_5_same", "\"filter\": (5, 5)",
     "OUT_SHAPE = (2, 64, 64)"},
    {"conv2dc:2:3:32:32:8:3:3:bias", "conv2dc_naive", "conv2dc_2_3_32_32_8_3_3_valid_bias",
     "\"input\": (2, 3, 32, 32), \"weight\": (8, 3, 3, 3)", "OUT_SHAPE = (2, 8, 30, 30)"},
    /* half precision: torch.bfloat16 / torch.float16 tensors; not in the family exports (fp32) */
    {"conv1dc:2:8:64:16:3:pad=1:bias:bf16", "conv1dc_naive", "conv1dc_2_8_64_16_3_pad_1_bias_bf16",
     "\"weight\": (16, 8, 3), \"bias\": (16,)", "OUT_SHAPE = (2, 16, 64)"},
    {"conv2dc:2:3:32:32:8:3:3:bias:f16", "conv2dc_naive", "conv2dc_2_3_32_32_8_3_3_valid_bias_f16",
     "\"input\": (2, 3, 32, 32), \"weight\": (8, 3, 3, 3)", "OUT_SHAPE = (2, 8, 30, 30)"},
    /* channels last: the activations in memory order, the weights as PyTorch's */
    {"conv1dc:2:8:64:8:4:causal:groups=8:nlc", "conv1dc_dwcl", "conv1dc_2_8_64_8_4_causal_groups_8_nlc",
     "\"input\": (2, 64, 8), \"weight\": (8, 1, 4)", "OUT_SHAPE = (2, 64, 8)"},
    {"conv2dc:2:3:32:32:8:3:3:pad=1:stride=2:bias:nhwc", "conv2dc_naive",
     "conv2dc_2_3_32_32_8_3_3_pad_1_stride_2_bias_nhwc", "\"input\": (2, 32, 32, 3), \"weight\": (8, 3, 3, 3)",
     "OUT_SHAPE = (2, 16, 16, 8)"},
    /* half and channels last: half tensors in memory order */
    {"conv1dc:2:8:64:16:3:pad=1:bias:nlc:f16", "conv1dc_naive", "conv1dc_2_8_64_16_3_pad_1_bias_nlc_f16",
     "\"input\": (2, 64, 8), \"weight\": (16, 8, 3)", "OUT_SHAPE = (2, 64, 16)"},
    {"conv2dc:2:3:32:32:8:3:3:pad=1:stride=2:bias:nhwc:bf16", "conv2dc_naive",
     "conv2dc_2_3_32_32_8_3_3_pad_1_stride_2_bias_nhwc_bf16", "\"input\": (2, 32, 32, 3), \"weight\": (8, 3, 3, 3)",
     "OUT_SHAPE = (2, 16, 16, 8)"},
};
#define NPROBS (int)(sizeof probs / sizeof probs[0])

static const char *const suffixes[] = {".cu", ".h", "_binding.cpp", ".py"};

/* Pass rows: conv2dc has both passes tuned, conv1dc only dgrad. */
static const struct {
    const char *spec, *tmpl;
} pass_rows[] = {
    {"conv2dc:2:3:32:32:8:3:3:bias:dgrad", "conv2dc_dgnaive"},
    {"conv2dc:2:3:32:32:8:3:3:bias:wgrad", "conv2dc_wgnaive"},
    {"conv2dc:2:4:9:11:4:5:5:same:groups=4:nhwc:wgrad", "conv2dc_wgnaive"},
    {"conv1dc:2:8:64:8:4:causal:groups=8:nlc:dgrad", "conv1dc_dgnaive"},
};
#define NPASS_ROWS (int)(sizeof pass_rows / sizeof pass_rows[0])

/* A family module's description of its selectors, read without PyTorch:
 * the module's SETS and FIELDS by Python's ast, printed as
 * "PASS KINDS NTUNED" lines, then each tuned tuple against the fields of
 * its problem string as convtune parses it (the runtime's exactness test
 * compares these tuples with a layer call's fields). */
static const char sets_py[] =
    "import ast, sys\n"
    "tree = ast.parse(open(sys.argv[1]).read())\n"
    "v = {t.id: n.value for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}\n"
    "sets = ast.literal_eval(v['SETS'])\n"
    "fields = ast.literal_eval(v['FIELDS'])\n"
    "for p in sorted(sets):\n"
    "    s = sets[p]\n"
    "    assert len(s['kinds']) == len(fields) and all(len(t) == len(fields) for t in s['tuned'])\n"
    "    assert len(s['problems']) == len(s['tuned'])\n"
    "    print(p, s['kinds'], len(s['tuned']), s['source'])\n"
    "for p in sorted(sets):\n"
    "    for prob, t in zip(sets[p]['problems'], sets[p]['tuned']):\n"
    "        print('T', prob, ','.join(str(x) for x in t))\n";

int main(void)
{
    char base[] = "/tmp/ct_test_torch_XXXXXX";
    if (!mkdtemp(base))
        return 1;
    snprintf(dir, sizeof dir, "%s/w", base);
    snprintf(db, sizeof db, "%s/t.db", base);
    snprintf(cap, sizeof cap, "%s", base);
    mkdir(dir, 0700);
    char python[512];
    int have_py = tc_which("python3", python, sizeof python);

    ct_db *h;
    ct_err e;
    CHECK(ct_db_open(db, 1, &h, &e) == CT_OK);
    ct_device_info dev = tc_device("NVIDIA H200", "GPU-1", 9, 0, 13000);
    for (int i = 0; i < NPROBS; i++) {
        char json[512], hash[17];
        CHECK(tc_params(probs[i].spec, probs[i].tmpl, NULL, 0, json, sizeof json));
        tc_template_hash(probs[i].tmpl, hash);
        ct_result r = tc_rec(probs[i].tmpl, hash, json, "ok", 10.0 + i, 1e-7);
        tc_add_run(h, &dev, probs[i].spec, &r, 1);
    }
    /* Training passes of the layers: the family modules' ops take them. */
    for (int i = 0; i < NPASS_ROWS; i++) {
        char json[512], hash[17];
        CHECK(tc_params(pass_rows[i].spec, pass_rows[i].tmpl, NULL, 0, json, sizeof json));
        tc_template_hash(pass_rows[i].tmpl, hash);
        ct_result r = tc_rec(pass_rows[i].tmpl, hash, json, "ok", 20.0 + i, 1e-7);
        tc_add_run(h, &dev, pass_rows[i].spec, &r, 1);
    }
    ct_db_close(h);

    tc_result r;
    char path[1200];
    for (int i = 0; i < NPROBS; i++) {
        convtune(&r, "export", "--problem", probs[i].spec, "--torch", "-o", "out");
        if (i == 0) {   /* the directory does not exist yet: refused, nothing written */
            CHECK_MSG(r.code == 7 && tc_one_line(&r) && strstr(r.err, "does not exist"), "missing dir: %d %s", r.code,
                      r.err);
            tc_result_free(&r);
            snprintf(path, sizeof path, "%s/out", dir);
            CHECK(!tc_exists(path));
            mkdir(path, 0700);
            convtune(&r, "export", "--problem", probs[i].spec, "--torch", "-o", "out");
        }
        CHECK_MSG(r.code == 0 && strstr(r.out, "PyTorch module"), "%s: %d %s", probs[i].spec, r.code, r.err);
        tc_result_free(&r);
        for (int s = 0; s < 4; s++) {
            snprintf(path, sizeof path, "%s/out/%s%s", dir, probs[i].base, suffixes[s]);
            CHECK_MSG(tc_exists(path), "%s missing", path);
        }
        snprintf(path, sizeof path, "%s/out/%s.py", dir, probs[i].base);
        CHECK_MSG(file_has(path, probs[i].shape_in) && file_has(path, probs[i].shape_out),
                  "%s: shapes %s / %s not found", path, probs[i].shape_in, probs[i].shape_out);
        CHECK(file_has(path, "NotImplementedError") && file_has(path, "cpp_extension.load"));
        /* A channels-last export says so to people and to code; the others do not. */
        const int cl = strstr(probs[i].spec, ":nlc") || strstr(probs[i].spec, ":nhwc");
        for (int s = 0; s < 2; s++) {
            snprintf(path, sizeof path, "%s/out/%s%s", dir, probs[i].base, suffixes[s]);
            CHECK_MSG(file_has(path, "// layout:    n") == cl, "%s: layout comment", path);
        }
        snprintf(path, sizeof path, "%s/out/%s.cu", dir, probs[i].base);
        CHECK_MSG(file_has(path, "#define CONV_CHANNELS_LAST 1") == cl, "%s: CONV_CHANNELS_LAST", path);
        snprintf(path, sizeof path, "%s/out/%s.py", dir, probs[i].base);
        if (have_py) {
            char *argv[] = {python, "-m", "py_compile", path, NULL};
            tc_run(argv, dir, cap, 60, &r);
            CHECK_MSG(r.code == 0, "py_compile %s: %s", path, r.err);
            tc_result_free(&r);
        }
        const int bf = strstr(probs[i].spec, ":bf16") != NULL, f16 = strstr(probs[i].spec, ":f16") != NULL;
        const char *torch_type = bf ? "torch.bfloat16" : f16 ? "torch.float16" : "torch.float32";
        CHECK_MSG(file_has(path, torch_type) && (bf + f16 == 0 || !file_has(path, "torch.float32")), "%s: not %s",
                  path, torch_type);
        snprintf(path, sizeof path, "%s/out/%s_binding.cpp", dir, probs[i].base);
        CHECK(file_has(path, "getCurrentCUDAStream") && file_has(path, "PYBIND11_MODULE"));
        const char *kind = bf ? "torch::kBFloat16" : f16 ? "torch::kHalf" : "torch::kFloat32";
        CHECK_MSG(file_has(path, kind) && file_has(path, bf + f16 ? "t[0].data_ptr(), " : "t[0].data_ptr<float>(), "),
                  "%s: not %s", path, kind);
        /* A half export states its element type beside its layout: the .cu
         * in words, the header in its buffers' element counts. */
        snprintf(path, sizeof path, "%s/out/%s.cu", dir, probs[i].base);
        CHECK_MSG(file_has(path, "// Element type: ") == (bf + f16 > 0), "%s: element type comment", path);
        snprintf(path, sizeof path, "%s/out/%s.h", dir, probs[i].base);
        CHECK_MSG(file_has(path, bf ? "bf16 elements (2 bytes)" : f16 ? "f16 elements (2 bytes)" : "floats"),
                  "%s: element type of the buffers", path);
    }

    /* An existing module without --force: refused, nothing changes. */
    snprintf(path, sizeof path, "%s/out/%s.py", dir, probs[0].base);
    char *before = tc_slurp(path, NULL);
    convtune(&r, "export", "--problem", probs[0].spec, "--torch", "-o", "out");
    CHECK_MSG(r.code == 7 && tc_one_line(&r) && strstr(r.err, "--force"), "existing: %d %s", r.code, r.err);
    tc_result_free(&r);
    char *after = tc_slurp(path, NULL);
    CHECK(before && after && !strcmp(before, after));
    free(before);
    free(after);

    /* Every family: the selector's module, its conv() signature and the
     * binding's call with its buffers and sizes. */
    static const struct {
        const char *family, *sig, *op, *sets;
        const char *pass_cu[3];
    } fams[] = {
        {"conv1d", "def conv(input, mask, mode=\"valid\"):", "conv1d = _OPS.conv", "fwd ssk 2 convtune_conv1d.cu",
         {NULL}},
        {"conv1dc", "def conv(input, weight, bias=None, pad=0, causal=0, stride=1, dilation=1, groups=1, layout=\"ncl\"):",
         "conv1d = _OPS.conv", "dgrad ssssskkkkkfk 1 convtune_conv1dc_dgrad.cu\nfwd ssssskkkkkbk 2 convtune_conv1dc.cu",
         {"convtune_conv1dc_dgrad.cu", NULL}},
        {"conv2d", "def conv(input, filter, mode=\"valid\"):", "conv2d = _OPS.conv", "fwd sssssk 1 convtune_conv2d.cu",
         {NULL}},
        {"conv2dc", "def conv(input, weight, bias=None, mode=\"valid\", ph=0, pw=0, sh=1, sw=1, dh=1, dw=1, groups=1, "
                    "layout=\"nchw\"):",
         "conv2d = _OPS.conv",
         "dgrad ssssssskkkkkkkkfk 1 convtune_conv2dc_dgrad.cu\nfwd ssssssskkkkkkkkbk 2 convtune_conv2dc.cu\n"
         "wgrad ssssssskkkkkkkkkk 2 convtune_conv2dc_wgrad.cu",
         {"convtune_conv2dc_dgrad.cu", "convtune_conv2dc_wgrad.cu", NULL}},
    };
    for (int f = 0; f < 4; f++) {
        char outdir[32];
        snprintf(outdir, sizeof outdir, "fam_%s", fams[f].family);
        snprintf(path, sizeof path, "%s/%s", dir, outdir);
        mkdir(path, 0700);
        convtune(&r, "export", "--family", fams[f].family, "--torch", "-o", outdir);
        CHECK_MSG(r.code == 0, "family %s: %d %s", fams[f].family, r.code, r.err);
        tc_result_free(&r);
        for (int s = 0; s < 4; s++) {   /* no binding: the runtime calls the selectors through ctypes */
            snprintf(path, sizeof path, "%s/%s/convtune_%s%s", dir, outdir, fams[f].family, suffixes[s]);
            CHECK_MSG(tc_exists(path) == (s != 2), "%s: %s", path, s == 2 ? "a binding" : "missing");
        }
        snprintf(path, sizeof path, "%s/%s/convtune_torch.py", dir, outdir);
        char *rt = tc_slurp(path, NULL), *src = tc_slurp(CT_SOURCE_DIR "/templates/torch/convtune_torch.py", NULL);
        CHECK_MSG(rt && src && !strcmp(rt, src), "%s is not the runtime of the source tree", path);
        free(rt);
        free(src);
        snprintf(path, sizeof path, "%s/%s/convtune_%s.py", dir, outdir, fams[f].family);
        CHECK_MSG(file_has(path, fams[f].sig) && file_has(path, "def last_grade_name"), "%s lacks [%s]", path,
                  fams[f].sig);
        /* The layers' input shape follows their layout. */
        if (strstr(fams[f].family, "dc"))
            CHECK_MSG(file_has(path, "))[LAYOUTS.index(layout)]") && file_has(path, "with layout n"),
                      "%s: no input shape by layout", path);
        for (int i = 0; i < NPROBS; i++)
            if (!strncmp(probs[i].spec, fams[f].family, strlen(fams[f].family)) &&
                probs[i].spec[strlen(fams[f].family)] == ':') {
                ct_problem p;
                CHECK(ct_problem_parse(probs[i].spec, &p, &e) == CT_OK);
                char q[200];
                snprintf(q, sizeof q, "\"%s\"", p.canonical);
                if (ct_problem_dtype(&p) == CT_DTYPE_F32)
                    CHECK_MSG(file_has(path, q), "%s does not list %s in TUNED", path, q);
                else
                    CHECK_MSG(!file_has(path, q), "%s lists the half problem %s", path, q);
            }
        if (have_py) {
            char *argv[] = {python, "-m", "py_compile", path, NULL};
            tc_run(argv, dir, cap, 60, &r);
            CHECK_MSG(r.code == 0, "py_compile %s: %s", path, r.err);
            tc_result_free(&r);
        }
        /* Layers: the ops, and a selector per tuned pass with its .cu; the
         * others: the bare conv() alone. */
        const int layer = strstr(fams[f].family, "dc") != NULL;
        CHECK_MSG(file_has(path, "_OPS = _rt.LayerOps(") == layer && file_has(path, fams[f].op) == layer,
                  "%s: ops", path);
        if (have_py) {
            char script[1300], listing[1300];
            snprintf(script, sizeof script, "%s/sets.py", base);
            snprintf(listing, sizeof listing, "%s/%s.sets", base, fams[f].family);
            FILE *sf = fopen(script, "w");
            CHECK(sf && fputs(sets_py, sf) >= 0 && fclose(sf) == 0);
            char *argv[] = {python, script, path, NULL};
            tc_run(argv, dir, cap, 60, &r);
            CHECK_MSG(r.code == 0 && strstr(r.out, fams[f].sets), "%s: SETS [%s] not in:\n%s%s", path,
                      fams[f].sets, r.out, r.err);
            /* every tuned tuple holds its problem's fields, in field order */
            for (const char *line = r.out; (line = strstr(line, "\nT ")) != NULL; line++) {
                char prob[200], vals[300];
                CHECK(sscanf(line + 3, "%199s %299s", prob, vals) == 2);
                ct_problem p;
                CHECK_MSG(ct_problem_parse(prob, &p, &e) == CT_OK, "%s: %s", prob, e.msg);
                char want[300] = "";
                for (int k = 0; k < p.family->nfields; k++)   /* the pass and type are no selector field */
                    if (strcmp(p.family->fields[k].name, "pass") && strcmp(p.family->fields[k].name, "dtype"))
                        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%lld", *want ? "," : "",
                                 p.dims[k]);
                CHECK_MSG(!strcmp(want, vals), "%s: tuned %s, fields %s", prob, vals, want);
            }
            tc_result_free(&r);
            (void)listing;
        }
        for (int k = 0; fams[f].pass_cu[k]; k++) {
            snprintf(path, sizeof path, "%s/%s/%s", dir, outdir, fams[f].pass_cu[k]);
            CHECK_MSG(tc_exists(path) && file_has(path, "extern \"C\" int convtune_"), "%s missing", path);
        }
    }

    /* Two families into one folder share the runtime: the second export
     * finds it identical and keeps it, no --force needed; a different one is
     * refused without --force. */
    snprintf(path, sizeof path, "%s/fam_conv2dc/convtune_torch.py", dir);
    convtune(&r, "export", "--family", "conv1dc", "--torch", "-o", "fam_conv2dc");
    CHECK_MSG(r.code == 0, "second family into one folder: %d %s", r.code, r.err);
    tc_result_free(&r);
    FILE *rf = fopen(path, "a");
    CHECK(rf && fputs("# changed\n", rf) >= 0 && fclose(rf) == 0);
    convtune7(&r, "export", "--family", "conv1dc", "--torch", "-o", "fam_conv2dc", "--force");
    CHECK_MSG(r.code == 0, "--force over a changed runtime: %d %s", r.code, r.err);
    tc_result_free(&r);
    char *rt = tc_slurp(path, NULL);
    CHECK(rt && !strstr(rt, "# changed"));
    free(rt);
    rf = fopen(path, "a");
    CHECK(rf && fputs("# changed\n", rf) >= 0 && fclose(rf) == 0);
    convtune(&r, "export", "--family", "conv2d", "--torch", "-o", "fam_conv2dc");
    CHECK_MSG(r.code == 7 && tc_one_line(&r) && strstr(r.err, "convtune_torch.py"), "changed runtime: %d %s", r.code,
              r.err);
    tc_result_free(&r);
    snprintf(path, sizeof path, "%s/fam_conv2dc/convtune_conv2d.py", dir);
    CHECK(!tc_exists(path));

    /* --pass does not apply to a module: it holds every tuned pass. */
    convtune(&r, "export", "--family", "conv2dc", "--pass", "dgrad", "--torch");
    CHECK_MSG(r.code == 2 && tc_one_line(&r) && strstr(r.err, "--pass does not apply"), "--pass --torch: %d %s",
              r.code, r.err);
    tc_result_free(&r);

    /* A family with nothing tuned is refused before anything is written. */
    char empty[700];
    snprintf(empty, sizeof empty, "%s/empty.db", base);
    CHECK(ct_db_open(empty, 1, &h, &e) == CT_OK);
    ct_db_close(h);
    snprintf(path, sizeof path, "%s/out2", dir);
    mkdir(path, 0700);
    char *args[] = {ct_bin, "export", "--family", "conv2d", "--torch", "-o", "out2", "--db", empty, NULL};
    tc_run(args, dir, cap, 60, &r);
    CHECK_MSG(r.code == 6 && tc_one_line(&r) && strstr(r.err, "no tuned conv2d problem"), "empty: %d %s", r.code,
              r.err);
    tc_result_free(&r);
    snprintf(path, sizeof path, "%s/out2/convtune_conv2d.py", dir);
    CHECK(!tc_exists(path));

    if (!getenv("CT_KEEP"))
        tc_rm_rf(base);
    CHECK_DONE();
}
