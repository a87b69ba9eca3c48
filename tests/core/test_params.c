/* test_params.c - parameter declarations and typed reads (params.h): every
 * template's declarations are well formed and have value lists; every
 * family's constrain, normalize, geometry and executor launchers run on
 * every candidate of its spaces, and on each template's declared defaults,
 * without a single read of a parameter the candidate lacks; and the check
 * itself catches such reads, through real family code and in space
 * building; a parameter added later reads as its default where a stored
 * object lacks it. No GPU. */
#include "check.h"
#include "config.h"
#include "executor.h"
#include "kernel_kind.h"
#include "problem.h"
#include "runner.h"
#include "space.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shapes per family: the seed shapes and odd ones (1-wide, tiny, filter
 * near the image size). A family missing here fails the test. */
static const struct {
    const char *family;
    const char *specs[6];
} shapes[] = {
    {"conv1d", {"conv1d:1e6:2047", "conv1d:15:4:right", "conv1d:100:7:same", "conv1d:5:5"}},
    {"conv1dc", {"conv1dc:1:1024:4:1024:5:pad=2:bias", "conv1dc:3:5:7:6:3:pad=1", "conv1dc:2:64:100:32:1",
                 "conv1dc:2:6:50:6:4:causal:groups=6:nlc:dgrad", "conv1dc:3:4:40:8:3:pad=1:stride=2:bias:wgrad"}},
    {"conv2d", {"conv2d:16:2048:2048:11:11:same", "conv2d:2:9:13:3:5", "conv2d:1:100:100:70:3:same"}},
    {"conv2dc",
     {"conv2dc:32:64:56:56:64:3:3:same", "conv2dc:2:8:1:40:16:1:5:same", "conv2dc:3:3:9:11:5:3:3",
      "conv2dc:64:1:28:28:12:7:7:valid:bias", "conv2dc:2:8:9:9:8:3:3:same:groups=8:dgrad",
      "conv2dc:2:6:9:11:4:3:2:pad=1:stride=2:groups=2:bias:nhwc:wgrad"}},
};

/* sm_75 has no tensor cores (other constraints, other candidates): the
 * third shape of each family is walked on it too (a whole conv2dc space
 * takes about 0.6 s, several under AddressSanitizer). */
static const char *const archs[] = {"sm_90", "sm_75"};

static FILE *sink;   /* executors' launchers are written here */

static int faults_clear(const char *what)
{
    ct_err e = {0};
    ct_status rc = ct_params_faults(&e);
    CHECK_MSG(rc == CT_OK, "%s: %s", what, e.msg);
    return rc == CT_OK;
}

static int faulted(void)
{
    return ct_params_faults(NULL) != CT_OK;
}

/* What the tuner and export do with an admitted candidate on the CPU. */
static void launch_hooks(const ct_problem *p, const ct_template *t, const ct_params *c)
{
    ct_launch l;
    p->family->geometry(p, t, c, &l);
    if (t->exec && t->exec->emit_launcher) {
        rewind(sink);
        t->exec->emit_launcher(sink, p, c, "ct_sym", "int ct_sym(void)");
        CHECK_MSG(ftell(sink) > 0, "%s: the launcher of %s is empty", p->canonical, t->name);
    }
}

/* Everything a family does with a candidate on the CPU; the launch only
 * for one it admits, as the tuner does. */
static void run_hooks(const ct_problem *p, const ct_template *t, const ct_params *c, const ct_limits *lim)
{
    ct_params n = *c;
    char why[256];
    if (p->family->normalize)
        p->family->normalize(p, t, &n);
    if (!p->family->constrain(p, t, &n, lim, why, sizeof why))
        launch_hooks(p, t, &n);
}

/* 1. Declarations: names are macro names, unique within a template, the
 * default is a valid value, and the built-in config lists values. */
static void test_declarations(const ct_config *cfg)
{
    int ntemplates = 0;
    for (const ct_family *const *f = ct_families(); *f; f++) {
        for (int i = 0; i < (*f)->ntemplates; i++) {
            const ct_template *t = &(*f)->templates[i];
            ntemplates++;
            CHECK_MSG(t->nparams >= 1 && t->nparams <= CT_MAX_PARAMS, "%s: %d parameters", t->name, t->nparams);
            for (int k = 0; k < t->nparams; k++) {
                const ct_param_def *d = &t->params[k];
                int macro = d->name[0] != '\0' && !isdigit((unsigned char)d->name[0]);
                for (const char *s = d->name; *s; s++)
                    macro &= isupper((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_';
                CHECK_MSG(macro, "%s: parameter '%s' is not a macro name", t->name, d->name);
                CHECK_MSG(d->help && strlen(d->help) > 5, "%s %s: no help", t->name, d->name);
                CHECK_MSG(ct_param_find(t->params, k, d->name) == NULL, "%s: %s declared twice", t->name, d->name);
                char buf[32];
                long v = -1;
                ct_err e = {0};
                ct_status rc = ct_param_parse_value(d, ct_param_value_text(d, d->dflt, buf, sizeof buf), &v, &e);
                CHECK_MSG(rc == CT_OK && v == d->dflt, "%s %s: default %ld is not a value: %s", t->name, d->name,
                          d->dflt, e.msg);
                const ct_space_list *l = ct_config_list(cfg, t, d->name);
                CHECK_MSG(l && l->nvals > 0, "%s %s: no value list in the built-in configs", t->name, d->name);
            }
        }
    }
    CHECK(ntemplates >= 4);
}

/* 2. Every combination of every space, and every template's defaults, read
 * only parameters they have. */
static void test_walk(const ct_config *cfg)
{
    for (const ct_family *const *f = ct_families(); *f; f++) {
        int found = 0;
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            if (strcmp(shapes[s].family, (*f)->name) != 0)
                continue;
            found = 1;
            for (int k = 0; k < 6 && shapes[s].specs[k]; k++) {
                ct_problem p;
                ct_err e = {0};
                CHECK_MSG(ct_problem_parse(shapes[s].specs[k], &p, &e) == CT_OK, "%s: %s", shapes[s].specs[k],
                          e.msg);
                for (size_t a = 0; a < (k == 2 ? sizeof archs / sizeof archs[0] : 1); a++) {
                    ct_limits lim;
                    CHECK(ct_limits_for_arch(archs[a], &lim, &e) == CT_OK);
                    char what[256];
                    snprintf(what, sizeof what, "%s on %s", p.canonical, archs[a]);
                    for (int i = 0; i < p.family->ntemplates; i++) {
                        const ct_template *t = &p.family->templates[i];
                        ct_params c;
                        ct_params_defaults(t->params, t->nparams, &c);
                        run_hooks(&p, t, &c, &lim);
                        faults_clear(what);
                    }
                    ct_space sp;
                    ct_status rc = ct_space_build(&p, cfg, &lim, NULL, &sp, &e);
                    CHECK_MSG(rc == CT_OK, "%s: %s", what, e.msg);
                    if (rc != CT_OK)
                        continue;
                    /* Building ran normalize and constrain on every combination
                     * under the check (it fails on a fault); the rest here. */
                    for (int i = 0; i < sp.n; i++)
                        launch_hooks(&p, sp.cand[i].tmpl, &sp.cand[i].params);
                    if (faults_clear(what))
                        printf("%-45s %-5s %6d admissible candidates read cleanly\n", p.canonical, archs[a], sp.n);
                    ct_space_free(&sp);
                }
            }
        }
        CHECK_MSG(found, "family %s has no shapes in test_params.c", (*f)->name);
    }
}

/* p, or the same layer in the training pass t computes: a family excludes
 * a template of another pass before its hooks read a parameter. */
static void pass_problem(const ct_problem *p, const ct_template *t, ct_problem *out)
{
    *out = *p;
    const int fi = ct_field_find(p->family, "pass");
    for (int q = 0; fi >= 0 && t->kind && q < CT_NPASSES; q++)
        if (ct_kind_computes(t, q)) {
            out->dims[fi] = q;
            return;
        }
}

/* 3. The check catches a template's hooks run on another template's
 * candidate exactly when the hooks' template declares a name the candidate
 * lacks. */
static void test_cross_reads(void)
{
    int caught = 0;
    for (const ct_family *const *f = ct_families(); *f; f++) {
        const ct_family *fam = *f;
        ct_problem p;
        ct_err e = {0};
        int spec = -1;
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            if (strcmp(shapes[s].family, fam->name) == 0)
                spec = (int)s;
        if (spec < 0 || ct_problem_parse(shapes[spec].specs[1], &p, &e) != CT_OK)
            continue;   /* reported by test_walk */
        ct_limits lim;
        CHECK(ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
        for (int a = 0; a < fam->ntemplates; a++) {
            const ct_template *ta = &fam->templates[a];
            ct_params c;
            ct_params_defaults(ta->params, ta->nparams, &c);
            for (int b = 0; b < fam->ntemplates; b++) {
                const ct_template *tb = &fam->templates[b];
                const char *lacks = NULL;
                for (int k = 0; k < tb->nparams && !lacks; k++)
                    if (!ct_param_find(ta->params, ta->nparams, tb->params[k].name))
                        lacks = tb->params[k].name;
                ct_problem pb;
                pass_problem(&p, tb, &pb);
                run_hooks(&pb, tb, &c, &lim);
                int got = faulted();
                CHECK_MSG(got == (lacks != NULL), "%s hooks on a %s candidate: %s", tb->name, ta->name,
                          lacks ? "a read of the missing parameter went unnoticed" : "a fault with nothing missing");
                caught += got;
            }
        }
    }
    CHECK_MSG(caught >= 4, "only %d misreads caught", caught);
}

/* 4. A misread yields the declared default, and is reported once, naming
 * the parameter. */
static const char *const mode_names[] = {"off", "on"};
#define DEMO_PARAMS(X)                                              \
    X(WIDTH, 7, CT_INT(1), "a plain parameter")                     \
    X(MODE, 1, CT_SYMBOLS(mode_names), "a symbolic parameter")
CT_PARAM_LIST(demo, DEMO_PARAMS)

static void test_typed_reads(void)
{
    CHECK(CT_PARAM_COUNT(DEMO_PARAMS) == 2);
    CHECK_STR(demo_params[1].name, "MODE");
    CHECK(demo_params[1].nsymbols == 2 && demo_params[0].min == 1 && demo_params[0].dflt == 7);
    ct_params c = {0};
    CHECK(ct_params_set(&c, "MODE", 0, NULL) == CT_OK);
    CHECK(ct_params_faults(NULL) == CT_OK);
    demo_values q = demo_get(&c);
    CHECK(q.MODE == 0 && q.v[1] == 0);
    CHECK(q.WIDTH == 7);   /* missing: the default ... */
    ct_err e = {0};
    CHECK(ct_params_faults(&e) == CT_ERR_INTERNAL);   /* ... and a fault */
    CHECK_MSG(strstr(e.msg, "WIDTH") && strstr(e.msg, "MODE=0"), "%s", e.msg);
    CHECK(ct_params_faults(NULL) == CT_OK);           /* collected: cleared */
    q.WIDTH = 3;
    q.MODE = 1;
    demo_put(&c, &q);
    CHECK(c.n == 2 && ct_params_get(&c, "WIDTH", -1) == 3 && ct_params_get(&c, "MODE", -1) == 1);
    CHECK(strcmp(c.names[0], "MODE") == 0);            /* replaced in place, the new one appended */
    q = demo_get(&c);
    CHECK(q.WIDTH == 3 && q.MODE == 1 && ct_params_faults(NULL) == CT_OK);
    ct_params d;
    ct_params_defaults(demo_params, 2, &d);
    char key[64];
    CHECK(ct_params_to_key(&d, key, sizeof key) == CT_OK);
    CHECK_STR(key, "WIDTH=7,MODE=1");
}

/* 5. Space building refuses a family that misreads, naming the template. */
#define OTHER_PARAMS(X) X(DEPTH, 2, CT_INT(0), "a parameter no template of the fake family has")
CT_PARAM_LIST(other, OTHER_PARAMS)

static int misreading_constrain(const ct_problem *p, const ct_template *t, const ct_params *c, const ct_limits *lim,
                                char *why, size_t len)
{
    (void)p, (void)t, (void)lim, (void)why, (void)len;
    return demo_get(c).WIDTH + other_get(c).DEPTH < 0;
}

static const ct_template fake_templates[] = {
    {.name = "fake_tiled", .summary = "reads a parameter it does not declare", .params = demo_params, .nparams = 2},
};
static const ct_family fake_family = {.name = "fake", .templates = fake_templates, .ntemplates = 1,
                                      .constrain = misreading_constrain};

static void test_space_refuses(const ct_config *builtin)
{
    ct_config *cfg = malloc(sizeof *cfg);
    CHECK(cfg != NULL);
    if (!cfg)
        return;
    *cfg = *builtin;
    for (int k = 0; k < 2; k++)
        cfg->lists[cfg->nlists++] = (ct_space_list){.tmpl = &fake_templates[0], .def = &demo_params[k], .nvals = 2,
                                                     .vals = {1, 0}};
    ct_problem p = {.family = &fake_family, .canonical = "fake:1"};
    ct_limits lim;
    ct_err e = {0};
    CHECK(ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
    ct_space sp;
    ct_status rc = ct_space_build(&p, cfg, &lim, NULL, &sp, &e);
    CHECK_MSG(rc == CT_ERR_INTERNAL && strstr(e.msg, "fake_tiled") && strstr(e.msg, "DEPTH"), "rc %d: %s", rc,
              e.msg);
    if (rc == CT_OK)
        ct_space_free(&sp);
    CHECK(ct_params_faults(NULL) == CT_OK);
    free(cfg);
}

/* 6. Unknown names in an INI file stay a clear error. */
static void test_unknown_names(const ct_config *builtin)
{
    ct_config *cfg = malloc(sizeof *cfg);
    CHECK(cfg != NULL);
    if (!cfg)
        return;
    *cfg = *builtin;
    ct_err e = {0};
    ct_status rc = ct_config_apply_text(cfg, "[space.conv1d_tiled]\nUNROL = 1, 2\n", "user.ini", &e);
    CHECK_MSG(rc == CT_ERR_CONFIG && strstr(e.msg, "user.ini:2") && strstr(e.msg, "unknown parameter 'UNROL'"),
              "%s", e.msg);
    rc = ct_config_apply_text(cfg, "[space.conv1d_naive]\nOUTPUTS_PER_THREAD = 4\n", "user.ini", &e);
    CHECK_MSG(rc == CT_ERR_CONFIG && strstr(e.msg, "OUTPUTS_PER_THREAD"), "a parameter of another template: %s",
              e.msg);
    free(cfg);
}

/* Declared largest values: CT_THREADS at 1024 (CUDA's threads per block),
 * CT_WARPS at 32, any other integer at INT_MAX; a stored or imported
 * parameter object is read by value and a string stands only for a symbol
 * (I102, I113). */
static void test_bounds(void)
{
    static const char *const names[] = {"x"};
    static const ct_param_def threads = {.name = "BLOCK_SIZE", .help = "threads", CT_THREADS(32)};
    static const ct_param_def warps = {.name = "WARPS", .help = "warps", CT_WARPS(0)};
    static const ct_param_def plain = {.name = "KCHUNK", .help = "taps", CT_INT(0)};
    static const ct_param_def sym = {.name = "WHERE", .help = "where", CT_SYMBOLS(names)};
    long v = 0;
    ct_err e = {0};
    CHECK(ct_param_parse_value(&threads, "1024", &v, &e) == CT_OK && v == 1024);
    CHECK(ct_param_parse_value(&threads, "1025", &v, &e) == CT_ERR_USAGE &&
          strstr(e.msg, "parameter BLOCK_SIZE: bad value 1025 (at most 1024)"));
    CHECK(ct_param_parse_value(&threads, "2147483647", &v, &e) == CT_ERR_USAGE && strstr(e.msg, "at most 1024"));
    CHECK(ct_param_parse_value(&warps, "32", &v, &e) == CT_OK && v == 32);
    CHECK(ct_param_parse_value(&warps, "33", &v, &e) == CT_ERR_USAGE && strstr(e.msg, "(at most 32)"));
    CHECK(ct_param_parse_value(&plain, "2147483647", &v, &e) == CT_OK && v == 2147483647L);
    CHECK(ct_param_parse_value(&plain, "2147483648", &v, &e) == CT_ERR_USAGE &&
          strstr(e.msg, "bad value 2147483648 (at most 2147483647)"));
    CHECK(ct_param_parse_value(&sym, "x", &v, &e) == CT_OK && v == 0);
    /* a refused value is echoed on one line */
    CHECK(ct_param_parse_value(&sym, "x\ny", &v, &e) == CT_ERR_USAGE && strstr(e.msg, "bad value 'x?y'") &&
          !strchr(e.msg, '\n'));
    CHECK(ct_param_parse_value(&plain, "1\n2", &v, &e) == CT_ERR_USAGE && strstr(e.msg, "'1?2'"));

    const ct_family *f = ct_family_find("conv1d");
    const ct_template *naive = f ? ct_template_find(f, "conv1d_naive") : NULL;
    const ct_template *tiled = f ? ct_template_find(f, "conv1d_tiled") : NULL;
    CHECK(naive && tiled);
    if (!naive || !tiled)
        return;
    ct_params c;
    CHECK(ct_params_from_json("{\"BLOCK_SIZE\":128}", naive->params, naive->nparams, &c, &e) == CT_OK);
    CHECK(ct_params_from_json("{\"BLOCK_SIZE\":\"128\"}", naive->params, naive->nparams, &c, &e) != CT_OK &&
          strstr(e.msg, "parameter BLOCK_SIZE: expected an integer, got the string \"128\""));
    CHECK(ct_params_from_json("{\"BLOCK_SIZE\":\"12\\n8\"}", naive->params, naive->nparams, &c, &e) != CT_OK &&
          strstr(e.msg, "got the string \"12?8\""));
    CHECK(ct_params_from_json("{\"BLOCK_SIZE\":2147483647}", naive->params, naive->nparams, &c, &e) != CT_OK &&
          strstr(e.msg, "at most 1024"));
    /* a symbol by name (any case) or number, read in any key order */
    char json[512];
    const char *text = "{\"MIN_BLOCKS\":1,\"KCHUNK\":4,\"UNROLL\":1,\"VEC_WIDTH\":1,\"STAGE_INPUT\":1,"
                       "\"ALIGN\":16,\"MASK_PAD\":0,\"MASK_PLACEMENT\":\"Shared\",\"OUTPUTS_PER_THREAD\":4,"
                       "\"BLOCK_SIZE\":128}";
    CHECK_MSG(ct_params_from_json(text, tiled->params, tiled->nparams, &c, &e) == CT_OK, "%s", e.msg);
    CHECK(ct_params_to_json(&c, tiled->params, tiled->nparams, json, sizeof json) == CT_OK);
    CHECK_STR(json, "{\"BLOCK_SIZE\":128,\"OUTPUTS_PER_THREAD\":4,\"MASK_PLACEMENT\":\"shared\",\"MASK_PAD\":0,"
                    "\"ALIGN\":16,\"STAGE_INPUT\":1,\"VEC_WIDTH\":1,\"UNROLL\":1,\"KCHUNK\":4,\"MIN_BLOCKS\":1}");

    /* a parameter added later (ct_param_def.added) may be missing from a
     * stored object: it reads as its default; a plain one may not */
    static const ct_param_def late[] = {{.name = "TILE", .help = "a tile", .dflt = 8, CT_INT(1)},
                                        {.name = "SPLIT", .help = "added", .dflt = 1, CT_ADDED_INT(1)}};
    CHECK_MSG(ct_params_from_json("{\"TILE\":16}", late, 2, &c, &e) == CT_OK, "%s", e.msg);
    CHECK(c.n == 2 && ct_params_get(&c, "TILE", 0) == 16 && ct_params_get(&c, "SPLIT", 0) == 1);
    CHECK(ct_params_from_json("{\"SPLIT\":4}", late, 2, &c, &e) != CT_OK && strstr(e.msg, "lack TILE"));
    CHECK(ct_params_from_json("{\"TILE\":16,\"SPLIT\":4}", late, 2, &c, &e) == CT_OK &&
          ct_params_get(&c, "SPLIT", 0) == 4);

    /* an INI value list past the declared largest is refused too */
    ct_config *cfg = malloc(sizeof *cfg);
    CHECK(cfg && ct_config_init(cfg, &e) == CT_OK);
    if (cfg) {
        ct_status rc = ct_config_apply_text(cfg, "[space.conv1d_naive]\nBLOCK_SIZE = 128, 2048\n", "user.ini", &e);
        CHECK_MSG(rc == CT_ERR_CONFIG && strstr(e.msg, "at most 1024"), "BLOCK_SIZE = 2048: %d %s", rc, e.msg);
    }
    free(cfg);
}

int main(void)
{
    ct_config *cfg = malloc(sizeof *cfg);
    ct_err e = {0};
    sink = tmpfile();
    if (!sink || !cfg || ct_config_init(cfg, &e) != CT_OK) {
        fprintf(stderr, "ct_config_init: %s\n", e.msg);
        return 1;
    }
    test_declarations(cfg);
    test_typed_reads();
    test_cross_reads();
    test_space_refuses(cfg);
    test_unknown_names(cfg);
    test_bounds();
    test_walk(cfg);
    free(cfg);
    fclose(sink);
    CHECK_DONE();
}
