/* test_hostile.c - no string from a database or a user runs as code. A
 * database whose device name carries code for every language convtune
 * writes (a Python docstring end and a call, a C preprocessor line, a C
 * string end and a call, a trigraph and a trailing backslash that splice
 * lines, an HTML script tag, quotes and commas for CSV, bytes past ASCII) is
 * exported in every form (`export` .cu/.h, `export --family` .cu/.h,
 * `export --torch` and `export --family --torch` .cu/.h/.py/binding .cpp,
 * `report` HTML, `db export` CSV and JSON), and an output file name carries
 * the same. Then:
 *   - .py: Python parses each module; its only top-level expression is the
 *     docstring, which holds the device name exactly; running the module
 *     creates no file;
 *   - .cu: nvcc's preprocessor runs (an injected #error would stop it) and
 *     its output, comments gone, has no unquoted payload call;
 *   - .h: the C compiler in strict C11 (trigraphs on) accepts the header, and
 *     its preprocessed text has no unquoted payload call;
 *   - binding .cpp, and the family module's runtime: hold none of the payload (nothing from the database
 *     lands there);
 *   - HTML: the script tag appears only escaped;
 *   - CSV and JSON: each imports into a fresh database that exports the same
 *     JSON again, device name included, byte for byte. */
#include "export_common.h"

static char base[] = "/tmp/ct_test_hostile_XXXXXX";
static char dir[600], db[700];

/* Code in every language's syntax; the marker calls are what must never
 * appear unquoted. */
static const char payload[] =
    "H100\"\"\"\nopen(\"PWNED\",\"w\")\n\"\"\" */ ?\?/\n#error PWNED\n\"); system(\"id\"); // "
    "<script>alert('x')</script>, a,\"b\"\r\t\xc3\xa9 \\";

static int run_ct(tc_result *r, ...)
{
    va_list ap;
    va_start(ap, r);
    tc_convtune_v(dir, base, 120, r, ap);
    va_end(ap);
    return r->code;
}

static char *in_dir(const char *name)
{
    static char path[8][1200];
    static int k;
    k = (k + 1) % 8;
    snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
    return path[k];
}

/* The file's text, or a failed check. */
static char *text_of(const char *path)
{
    char *t = tc_slurp(path, NULL);
    CHECK_MSG(t != NULL, "%s was not written", path);
    return t;
}

/* Runs argv in dir and returns its stdout (freed by the caller) if it
 * exited 0; else records a failed check with its stderr. */
static char *tool_out(char *const *argv, const char *what)
{
    tc_result r;
    tc_run(argv, dir, base, 120, &r);
    CHECK_MSG(r.code == 0, "%s: exit %d: %.2000s", what, r.code, r.err);
    char *out = r.code == 0 ? strdup(r.out) : NULL;
    tc_result_free(&r);
    return out;
}

/* C and C++ text, comments removed by the preprocessor: the payload's
 * calls may appear only escaped inside string literals. */
static void check_c_preprocessed(const char *out, const char *what)
{
    if (!out)
        return;
    CHECK_MSG(!strstr(out, "system(\"id\")") && !strstr(out, "open(\"PWNED\""), "%s: unquoted payload call", what);
}

static void check_cu(const char *name)
{
    char nvcc[512];
    CHECK_MSG(tl_which("nvcc", nvcc, sizeof nvcc), "nvcc not found (the CUDA Toolkit is a prerequisite)");
    char *argv[] = {nvcc, "-E", "-DCONVTUNE_SELFTEST", "-x", "cu", in_dir(name), NULL};
    char *out = tool_out(argv, name);
    check_c_preprocessed(out, name);
    free(out);
}

static void check_h(const char *name)
{
    char cc[512];
    CHECK_MSG(tl_which("cc", cc, sizeof cc), "no C compiler");
    char *syntax[] = {cc, "-std=c11", "-Wall", "-Werror", "-fsyntax-only", "-x", "c", in_dir(name), NULL};
    free(tool_out(syntax, name));
    char *pre[] = {cc, "-std=c11", "-E", "-x", "c", in_dir(name), NULL};
    char *out = tool_out(pre, name);
    check_c_preprocessed(out, name);
    free(out);
}

/* The module parses, its top level holds no expression but the docstring,
 * the docstring holds the device name exactly, the payload appears nowhere
 * else but as a string constant that is the device name exactly (a family
 * module's DEVICE and its selectors' "device", which the runtime compares
 * with the GPU's name), and running it (it stops at `import torch` where
 * PyTorch is absent) creates no file. */
static void check_py(const char *python, const char *name)
{
    static const char script[] =
        "import ast, sys\n"
        "src = open(sys.argv[1], encoding='ascii').read()\n"
        "tree = ast.parse(src)\n"
        "exprs = [n for n in tree.body if isinstance(n, ast.Expr)]\n"
        "assert len(exprs) == 1 and tree.body[0] is exprs[0], 'a top-level expression besides the docstring'\n"
        "doc = ast.get_docstring(tree, clean=False).encode('utf-8')\n"
        "want = open(sys.argv[2], 'rb').read()\n"
        "assert want in doc, 'the device name is not in the docstring as it is'\n"
        "for n in ast.walk(tree):\n"
        "    if isinstance(n, ast.Constant) and isinstance(n.value, str) and 'PWNED' in n.value:\n"
        "        assert n is exprs[0].value or n.value.encode('utf-8') == want, 'the payload outside the docstring, "
        "other than as the device name itself'\n";
    char *argv[] = {(char *)python, "-c", (char *)script, in_dir(name), in_dir("payload.txt"), NULL};
    free(tool_out(argv, name));
    tc_result r;
    char *run[] = {(char *)python, in_dir(name), NULL};
    tc_run(run, dir, base, 120, &r);
    tc_result_free(&r);
    CHECK_MSG(!tc_exists(in_dir("PWNED")), "running %s created PWNED", name);
}

int main(void)
{
    if (!mkdtemp(base))
        return 1;
    snprintf(dir, sizeof dir, "%s/w", base);
    snprintf(db, sizeof db, "%s/t.db", base);
    mkdir(dir, 0700);
    char python[512];
    CHECK_MSG(tc_which("python3", python, sizeof python), "python3 not found (scripts/setup-deps.sh installs it)");

    /* The payload's UTF-8 form as Python will read the docstring back: the
     * module is ASCII, its escapes give back the bytes as code points. */
    char latin[sizeof payload * 2];
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)payload; *p; p++) {
        if (*p < 0x80) {
            latin[o++] = (char)*p;
        } else {
            latin[o++] = (char)(0xc0 | (*p >> 6));
            latin[o++] = (char)(0x80 | (*p & 0x3f));
        }
    }
    latin[o] = '\0';
    CHECK(tc_write_text(in_dir("payload.txt"), latin) == 0);

    const ct_device_info dev = tc_device(payload, "GPU-hostile", 9, 0, 13000);
    for (int f = 0; f < TC_NFAMILY_CASES; f++)
        CHECK(tc_family_db(db, &dev, &tc_family_cases[f]));

    tc_result r;
    /* A single export under a file name of the same kind. */
    static const char evil_name[] = "k\"\n#error PWNED\n?\?=error PWNED \\.cu";
    char evil_h[sizeof evil_name];
    /* The name less its ".cu" and NUL, a constant, so the ".h" visibly fits. */
    snprintf(evil_h, sizeof evil_h, "%.*s.h", (int)(sizeof evil_name - 4), evil_name);
    CHECK_MSG(run_ct(&r, "export", "--problem", tc_family_cases[3].problems[0], "--db", db, "-o", evil_name, NULL) == 0,
              "export: %d %s", r.code, r.err);
    tc_result_free(&r);
    check_cu(evil_name);
    check_h(evil_h);

    CHECK_MSG(run_ct(&r, "export", "--family", "conv2dc", "--db", db, "-o", "fam.cu", NULL) == 0, "family: %s", r.err);
    tc_result_free(&r);
    check_cu("fam.cu");
    check_h("fam.h");

    mkdir(in_dir("torch"), 0700);
    mkdir(in_dir("ftorch"), 0700);
    CHECK_MSG(run_ct(&r, "export", "--problem", tc_family_cases[1].problems[0], "--db", db, "--torch", "-o", "torch",
                     NULL) == 0, "torch: %s", r.err);
    tc_result_free(&r);
    CHECK_MSG(run_ct(&r, "export", "--family", "conv1dc", "--db", db, "--torch", "-o", "ftorch", NULL) == 0,
              "family torch: %s", r.err);
    tc_result_free(&r);
    static const char *const modules[] = {"torch/conv1dc_2_8_64_16_3_pad_1_bias", "ftorch/convtune_conv1dc"};
    for (int m = 0; m < 2; m++) {
        char name[200];
        snprintf(name, sizeof name, "%s.py", modules[m]);
        check_py(python, name);
        snprintf(name, sizeof name, "%s.cu", modules[m]);
        check_cu(name);
        snprintf(name, sizeof name, "%s.h", modules[m]);
        check_h(name);
        /* the single module's binding, the family module's runtime (it has no binding) */
        snprintf(name, sizeof name, m == 0 ? "%s_binding.cpp" : "ftorch/convtune_torch.py", modules[m]);
        char *t = text_of(in_dir(name));
        CHECK_MSG(t && !strstr(t, "PWNED") && !strstr(t, "H100"), "%s holds database text", name);
        free(t);
    }

    CHECK_MSG(run_ct(&r, "report", "--db", db, "-o", "r.html", NULL) == 0, "report: %s", r.err);
    tc_result_free(&r);
    char *html = text_of(in_dir("r.html"));
    CHECK_MSG(html && !strstr(html, "<script>alert") && strstr(html, "&lt;script&gt;alert"),
              "report: the device name is not escaped");
    free(html);

    /* CSV and JSON carry the name through a re-import unchanged. */
    CHECK(run_ct(&r, "db", "export", "--db", db, "-o", "d.json", NULL) == 0);
    tc_result_free(&r);
    CHECK(run_ct(&r, "db", "export", "--db", db, "--format", "csv", "-o", "d.csv", NULL) == 0);
    tc_result_free(&r);
    char *json = text_of(in_dir("d.json"));
    for (int k = 0; k < 2; k++) {
        const char *dbk = k ? "csv.db" : "json.db", *out = k ? "csv.json" : "json.json";
        CHECK_MSG(run_ct(&r, "db", "import", k ? "d.csv" : "d.json", "--db", dbk, NULL) == 0, "import %s: %s",
                  k ? "csv" : "json", r.err);
        tc_result_free(&r);
        CHECK(run_ct(&r, "db", "export", "--db", dbk, "-o", out, NULL) == 0);
        tc_result_free(&r);
        char *again = text_of(in_dir(out));
        CHECK_MSG(json && again && !strcmp(json, again), "%s: the round trip changed the records", out);
        free(again);
    }
    free(json);

    tc_rm_rf(base);
    CHECK_DONE();
}
