/* main.c - the convtune command line. Parses arguments, calls the library,
 * prints its one-line error and exits with its status code. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile.h"
#include "config.h"
#include "db.h"
#include "export.h"
#include "format.h"
#include "problem.h"
#include "cache.h"
#include "runner.h"
#include "search.h"
#include "space.h"
#include "tune.h"

static const char usage_main[] =
    "usage: convtune [tune] --problem SPEC [options]   tune a problem on a GPU\n"
    "       convtune space --problem SPEC [--arch sm_XY]  show its parameter space\n"
    "       convtune compile --problem SPEC --arch sm_XY [--param NAME=VALUE ...]\n"
    "       convtune query [--problem SPEC] [--device NAME] [--format table|csv|json]\n"
    "       convtune export --problem SPEC [--device NAME] [-o FILE] [--force]\n"
    "       convtune COMMAND --help | --help | --version\n"
    "\n"
    "Problems:\n"
    "  conv1d:N:K[:valid|same|right]   out[i] = sum_j in[i+j-OFF] * mask[j]\n"
    "      valid  N-K+1 outputs (default); same  N outputs, centred zero padding;\n"
    "      right  N outputs, zeros past the end of the input (GPU puzzles).\n"
    "      N and K: integers, also in exact scientific notation (1e6).\n"
    "\n"
    "Exit codes: 0 ok, 1 internal error, 2 usage, 3 config, 4 no GPU or driver,\n"
    "  5 database, 6 nothing found, 7 file I/O, 8 compile error, 9 CUDA error,\n"
    "  10 no candidate passed verification.\n";

static const char usage_tune[] =
    "usage: convtune [tune] --problem SPEC [options]\n"
    "Generate candidates from the templates, compile them with NVRTC, verify each\n"
    "against an fp64 reference, time the verified ones, store every result.\n"
    "  --problem SPEC       problem string, e.g. conv1d:1e6:2047\n"
    "  --gpu N              device ordinal (default 0)\n"
    "  --db PATH            database (default $CONVTUNE_DB or the XDG data dir)\n"
    "  --config FILE        settings and value lists overriding configs/*.ini\n"
    "  --templates DIR      read templates from DIR instead of the built-in copies\n"
    "  --template NAME      tune only this template\n"
    "  --seed N             inputs and sampling seed (default: [verify] seed)\n"
    "  --strategy S         auto (default), exhaustive, random or anneal (guided)\n"
    "  --budget N           measure at most N candidates (alias --max-candidates;\n"
    "                       default [tune] max_candidates); auto is exhaustive when\n"
    "                       the space fits the budget, otherwise anneal\n"
    "  --time SECONDS       stop proposing candidates after this long\n"
    "  --json               print one JSON summary on stdout (the report goes to stderr)\n"
    "  --fresh              measure again what earlier runs stored for this device\n"
    "                       (by default a run resumes: stored outcomes are reused)\n"
    "  --no-cache           compile everything, bypassing the binary cache\n"
    "                       ($CONVTUNE_CACHE or the XDG cache dir)\n"
    "  --remeasure          measure the device ceilings again\n"
    "  --verbose            one line per candidate on stderr\n";

static const char usage_space[] =
    "usage: convtune space --problem SPEC [--arch sm_XY] [--template NAME] [--config FILE] [--list]\n"
    "Print each template's parameters, their values, the full space size and the\n"
    "number of candidates that pass the constraints for the architecture (default\n"
    "sm_90). --list prints every admissible candidate. Needs no GPU.\n";

static const char usage_compile[] =
    "usage: convtune compile --problem SPEC --arch ARCH [--template NAME] [--param NAME=VALUE ...]\n"
    "                        [-o FILE] [--templates DIR] [--config FILE]\n"
    "Compile one candidate offline with NVRTC (no GPU needed). ARCH sm_XY writes a\n"
    "CUBIN, compute_XY writes PTX (default file: NAME.cubin / NAME.ptx). Parameters\n"
    "not given take the first value of their list in the config.\n";

static const char usage_query[] =
    "usage: convtune query [--problem SPEC] [--device NAME] [--family NAME]\n"
    "                      [--all | --winners] [--format table|csv|json] [--db PATH]\n"
    "Print stored results: by default the winner of each problem and device\n"
    "(--winners); --all prints every candidate, failed ones with their error.\n";

static const char usage_export[] =
    "usage: convtune export --problem SPEC [--device NAME] [-o FILE] [--force] [--db PATH]\n"
    "Write the stored winner as a standalone .cu file (default generated/NAME.cu)\n"
    "with a C launcher and a self-test behind -DCONVTUNE_SELFTEST.\n";

typedef struct args {
    const char *problem, *db, *config, *templates, *only, *arch, *device, *family, *format, *out;
    const char *params[CT_MAX_PARAMS];
    int nparams;
    int gpu, list, all, force, remeasure, verbose, help, json, no_cache, fresh;
    long long seed, max_candidates;
    int have_seed, have_max;
    const char *strategy;
    double time_limit;
} args;

static int die(ct_status rc, const char *msg)
{
    fprintf(stderr, "convtune: %s\n", msg);
    return (int)rc;
}

static int parse_int_arg(const char *opt, const char *v, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) {
        fprintf(stderr, "convtune: %s: bad value '%s' (expected an integer in %lld..%lld)\n", opt, v, lo, hi);
        return 0;
    }
    *out = x;
    return 1;
}

/* Options shared by all commands; unknown options are usage errors. */
static int parse_args(int argc, char **argv, int start, args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = start; i < argc; i++) {
        const char *o = argv[i];
        const char **dst = NULL;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            a->help = 1;
            continue;
        }
        if (!strcmp(o, "--list")) { a->list = 1; continue; }
        if (!strcmp(o, "--all")) { a->all = 1; continue; }
        if (!strcmp(o, "--winners")) { a->all = 0; continue; }
        if (!strcmp(o, "--force")) { a->force = 1; continue; }
        if (!strcmp(o, "--remeasure")) { a->remeasure = 1; continue; }
        if (!strcmp(o, "--json")) { a->json = 1; continue; }
        if (!strcmp(o, "--no-cache")) { a->no_cache = 1; continue; }
        if (!strcmp(o, "--fresh")) { a->fresh = 1; continue; }
        if (!strcmp(o, "--verbose") || !strcmp(o, "-v")) { a->verbose = 1; continue; }
        if (!strcmp(o, "--problem")) dst = &a->problem;
        else if (!strcmp(o, "--db")) dst = &a->db;
        else if (!strcmp(o, "--config")) dst = &a->config;
        else if (!strcmp(o, "--templates")) dst = &a->templates;
        else if (!strcmp(o, "--template")) dst = &a->only;
        else if (!strcmp(o, "--arch")) dst = &a->arch;
        else if (!strcmp(o, "--device")) dst = &a->device;
        else if (!strcmp(o, "--family")) dst = &a->family;
        else if (!strcmp(o, "--format")) dst = &a->format;
        else if (!strcmp(o, "-o") || !strcmp(o, "--output")) dst = &a->out;
        else if (!strcmp(o, "--strategy")) dst = &a->strategy;
        if (i + 1 >= argc && (dst || !strcmp(o, "--gpu") || !strcmp(o, "--param") ||
                              !strcmp(o, "--seed") || !strcmp(o, "--max-candidates") ||
                              !strcmp(o, "--budget") || !strcmp(o, "--time"))) {
            fprintf(stderr, "convtune: option %s needs a value\n", o);
            return 0;
        }
        if (dst) {
            *dst = argv[++i];
            continue;
        }
        long long v;
        if (!strcmp(o, "--gpu")) {
            if (!parse_int_arg(o, argv[++i], 0, 1023, &v))
                return 0;
            a->gpu = (int)v;
        } else if (!strcmp(o, "--seed")) {
            if (!parse_int_arg(o, argv[++i], 1, (long long)9e18, &a->seed))
                return 0;
            a->have_seed = 1;
        } else if (!strcmp(o, "--max-candidates") || !strcmp(o, "--budget")) {
            if (!parse_int_arg(o, argv[++i], 1, 1000000, &a->max_candidates))
                return 0;
            a->have_max = 1;
        } else if (!strcmp(o, "--time")) {
            if (!parse_int_arg(o, argv[++i], 1, 1000000, &v))
                return 0;
            a->time_limit = (double)v;
        } else if (!strcmp(o, "--param")) {
            if (a->nparams >= CT_MAX_PARAMS) {
                fprintf(stderr, "convtune: too many --param options\n");
                return 0;
            }
            a->params[a->nparams++] = argv[++i];
        } else {
            fprintf(stderr, "convtune: unknown option '%s' (see convtune --help)\n", o);
            return 0;
        }
    }
    return 1;
}

static int load_config(const args *a, ct_config *c)
{
    ct_err e;
    ct_status rc = ct_config_init(c, &e);
    if (rc == CT_OK && a->config)
        rc = ct_config_apply_file(c, a->config, &e);
    if (rc != CT_OK)
        return die(rc, e.msg);
    if (a->have_seed)
        c->s.seed = (unsigned long long)a->seed;
    if (a->have_max)
        c->s.max_candidates = (int)a->max_candidates;
    return 0;
}

static int need_problem(const args *a, ct_problem *p)
{
    if (!a->problem) {
        fprintf(stderr, "convtune: --problem SPEC is required (e.g. --problem conv1d:1e6:2047)\n");
        return CT_ERR_USAGE;
    }
    ct_err e;
    ct_status rc = ct_problem_parse(a->problem, p, &e);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

static int cmd_tune(const args *a)
{
    ct_problem p;
    int r = need_problem(a, &p);
    if (r)
        return r;
    ct_config cfg;
    if ((r = load_config(a, &cfg)))
        return r;
    char dbpath[1024];
    ct_err e;
    if (a->db)
        snprintf(dbpath, sizeof dbpath, "%s", a->db);
    else if (ct_db_default_path(dbpath, sizeof dbpath, &e) != CT_OK)
        return die(CT_ERR_DB, e.msg);
    char cache[1024];
    const char *cache_dir = NULL;
    if (!a->no_cache && ct_cache_default_dir(cache, sizeof cache, NULL) == CT_OK)
        cache_dir = cache;
    ct_strategy st;
    if (a->strategy && ct_strategy_parse(a->strategy, &st, &e) != CT_OK)
        return die(CT_ERR_USAGE, e.msg);
    /* An explicit exhaustive search with no budget measures everything. */
    if (a->strategy && st == CT_SEARCH_EXHAUSTIVE && !a->have_max)
        cfg.s.max_candidates = 1000000;
    ct_tune_opts o = {.problem = a->problem, .gpu = a->gpu, .db_path = dbpath, .templates_dir = a->templates,
                      .only_template = a->only, .cfg = &cfg, .remeasure = a->remeasure,
                      .verbose = a->verbose, .out = stdout, .strategy = a->strategy,
                      .time_limit_s = a->time_limit, .cache_dir = cache_dir, .json = a->json,
                      .fresh = a->fresh};
    ct_tune_result res;
    ct_status rc = ct_tune(&o, &res, &e);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

static int cmd_space(const args *a)
{
    ct_problem p;
    int r = need_problem(a, &p);
    if (r)
        return r;
    ct_config cfg;
    if ((r = load_config(a, &cfg)))
        return r;
    ct_limits lim;
    ct_err e;
    const char *arch = a->arch ? a->arch : "sm_90";
    ct_status rc = ct_limits_for_arch(arch, &lim, &e);
    if (rc != CT_OK)
        return die(rc, e.msg);
    ct_space sp;
    if ((rc = ct_space_build(&p, &cfg, &lim, a->only, &sp, &e)) != CT_OK)
        return die(rc, e.msg);
    printf("problem %s on %s: %.4g GFLOP, %.4g MB moved at least\n", p.canonical, arch,
           p.family->flops(&p) / 1e9, p.family->bytes(&p) / 1e6);
    for (int i = 0; i < sp.ntemplates; i++) {
        const ct_space_stats *st = &sp.stats[i];
        const ct_template *t = st->tmpl;
        printf("\ntemplate %s: %s\n", t->name, t->summary);
        for (int k = 0; k < t->nparams; k++) {
            const ct_space_list *l = ct_config_list(&cfg, t, t->params[k].name);
            printf("  %-20s", t->params[k].name);
            for (int v = 0; v < l->nvals; v++) {
                char buf[32];
                printf("%s%s", v ? ", " : "", ct_param_value_text(&t->params[k], l->vals[v], buf, sizeof buf));
            }
            printf("    # %s\n", t->params[k].help);
        }
        printf("  full space %lld, distinct %lld, admissible %lld\n", st->full, st->distinct, st->admissible);
        if (st->example_reject[0])
            printf("  e.g. rejected: %s\n", st->example_reject);
    }
    printf("\ntotal admissible: %d\n", sp.n);
    if (a->list) {
        for (int i = 0; i < sp.n; i++) {
            char key[512];
            ct_params_to_key(&sp.cand[i].params, key, sizeof key);
            printf("%s %s\n", sp.cand[i].tmpl->name, key);
        }
    }
    ct_space_free(&sp);
    return 0;
}

static int cmd_compile(const args *a)
{
    ct_problem p;
    int r = need_problem(a, &p);
    if (r)
        return r;
    if (!a->arch) {
        fprintf(stderr, "convtune: compile needs --arch (sm_XY for a CUBIN, compute_XY for PTX)\n");
        return CT_ERR_USAGE;
    }
    ct_config cfg;
    if ((r = load_config(a, &cfg)))
        return r;
    ct_err e;
    ct_limits lim;
    ct_status rc = ct_limits_for_arch(a->arch, &lim, &e);
    if (rc != CT_OK)
        return die(rc, e.msg);
    const ct_family *f = p.family;
    /* By default the family's first tuned single-kernel template. */
    const ct_template *t = NULL;
    if (a->only)
        t = ct_template_find(f, a->only);
    else
        for (int i = f->ntemplates - 1; i >= 0; i--)
            if (!f->templates[i].is_baseline && !f->templates[i].exec)
                t = &f->templates[i];
    if (!t) {
        fprintf(stderr, "convtune: family %s has no template '%s'\n", f->name, a->only);
        return CT_ERR_USAGE;
    }
    ct_params c = {0};
    for (int k = 0; k < t->nparams; k++) {
        const ct_space_list *l = ct_config_list(&cfg, t, t->params[k].name);
        ct_params_set(&c, t->params[k].name, l ? l->vals[0] : 0, NULL);
    }
    for (int i = 0; i < a->nparams; i++) {
        const char *eq = strchr(a->params[i], '=');
        const ct_param_def *def = NULL;
        for (int k = 0; eq && k < t->nparams; k++)
            if (strlen(t->params[k].name) == (size_t)(eq - a->params[i]) &&
                !strncmp(t->params[k].name, a->params[i], (size_t)(eq - a->params[i])))
                def = &t->params[k];
        if (!def) {
            fprintf(stderr, "convtune: --param %s: expected NAME=VALUE with NAME a parameter of %s\n",
                    a->params[i], t->name);
            return CT_ERR_USAGE;
        }
        long v;
        if ((rc = ct_param_parse_value(def, eq + 1, &v, &e)) != CT_OK)
            return die(rc, e.msg);
        ct_params_set(&c, def->name, v, NULL);
    }
    if (f->normalize)
        f->normalize(&p, t, &c);
    char why[256];
    if (f->constrain(&p, t, &c, &lim, why, sizeof why)) {
        fprintf(stderr, "convtune: candidate rejected for %s: %s\n", a->arch, why);
        return CT_ERR_USAGE;
    }
    char *src = NULL;
    if ((rc = ct_template_source(t->name, a->templates, &src, &e)) != CT_OK)
        return die(rc, e.msg);
    ct_define defs[CT_MAX_DEFINES];
    int nd = f->defines(&p, defs);
    ct_binary bin;
    rc = ct_nvrtc_compile(src, t->name, a->arch, defs, nd, &c, &bin, &e);
    free(src);
    if (rc != CT_OK)
        return die(rc, e.msg);
    char path[1024];
    if (a->out)
        snprintf(path, sizeof path, "%s", a->out);
    else
        snprintf(path, sizeof path, "%s.%s", t->name, bin.is_cubin ? "cubin" : "ptx");
    FILE *out = fopen(path, "wb");
    size_t len = bin.is_cubin ? bin.size : strlen(bin.data);
    if (!out || fwrite(bin.data, 1, len, out) != len || fclose(out) != 0) {
        fprintf(stderr, "convtune: cannot write %s: %s\n", path, strerror(errno));
        ct_binary_free(&bin);
        return CT_ERR_IO;
    }
    char key[512];
    ct_params_to_key(&c, key, sizeof key);
    printf("%s: %s %s for %s, %zu bytes, %.0f ms\n", path, t->name, key, a->arch, len, bin.compile_ms);
    ct_binary_free(&bin);
    return 0;
}

static int open_existing_db(const args *a, ct_db **db)
{
    char path[1024];
    ct_err e;
    if (a->db)
        snprintf(path, sizeof path, "%s", a->db);
    else if (ct_db_default_path(path, sizeof path, &e) != CT_OK)
        return die(CT_ERR_DB, e.msg);
    ct_status rc = ct_db_open(path, 0, db, &e);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

static int cmd_query(const args *a)
{
    ct_format fmt = CT_FMT_TABLE;
    ct_err e;
    if (a->format && ct_format_parse(a->format, &fmt, &e) != CT_OK)
        return die(CT_ERR_USAGE, e.msg);
    ct_problem p;
    if (a->problem) {
        int r = need_problem(a, &p);
        if (r)
            return r;
    }
    ct_db *db;
    int r = open_existing_db(a, &db);
    if (r)
        return r;
    ct_query q = {.problem = a->problem ? p.canonical : NULL, .device = a->device, .family = a->family,
                  .winners_only = !a->all};
    ct_writer *w = ct_writer_begin(stdout, fmt);
    if (!w) {
        ct_db_close(db);
        return die(CT_ERR_INTERNAL, "out of memory");
    }
    ct_status rc = ct_db_query(db, &q, ct_writer_cb, w, &e);
    int werr = ct_writer_end(w);
    ct_db_close(db);
    if (rc != CT_OK)
        return die(rc, e.msg);
    if (werr)
        return die(CT_ERR_IO, "cannot write the query output");
    return 0;
}

static int cmd_export(const args *a)
{
    ct_problem p;
    int r = need_problem(a, &p);
    if (r)
        return r;
    ct_config cfg;
    if ((r = load_config(a, &cfg)))
        return r;
    ct_db *db;
    if ((r = open_existing_db(a, &db)))
        return r;
    ct_record rec;
    ct_err e;
    ct_status rc = ct_db_best(db, p.canonical, a->device, &rec, &e);
    ct_db_close(db);
    if (rc == CT_ERR_NOT_FOUND)
        return die(rc, a->device ? "no verified result for this problem on that device; tune it first"
                                 : "no verified result for this problem; tune it first");
    if (rc != CT_OK)
        return die(rc, e.msg);
    char path[1024];
    if (a->out)
        snprintf(path, sizeof path, "%s", a->out);
    else
        ct_export_default_path(p.canonical, path, sizeof path);
    if ((rc = ct_export_cu(&rec, a->templates, path, a->force, cfg.s.tolerance, &e)) != CT_OK)
        return die(rc, e.msg);
    printf("%s: %s %s, %.2f us on %s\n", path, rec.tmpl, rec.params, rec.median_us, rec.device);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--version")) {
        printf("convtune %s (NVRTC %d.%d)\n", CONVTUNE_VERSION, ct_nvrtc_version() / 1000,
               ct_nvrtc_version() % 1000 / 10);
        return 0;
    }
    static const struct {
        const char *name;
        int (*fn)(const args *);
        const char *usage;
    } cmds[] = {
        {"tune", cmd_tune, usage_tune},          {"space", cmd_space, usage_space},
        {"compile", cmd_compile, usage_compile}, {"query", cmd_query, usage_query},
        {"export", cmd_export, usage_export},
    };
    int start = 1, which = 0;
    if (argc >= 2 && argv[1][0] != '-') {
        which = -1;
        for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
            if (!strcmp(argv[1], cmds[i].name))
                which = (int)i;
        if (!strcmp(argv[1], "help")) {
            fputs(usage_main, stdout);
            return 0;
        }
        if (which < 0) {
            fprintf(stderr, "convtune: unknown command '%s' (see convtune --help)\n", argv[1]);
            return CT_ERR_USAGE;
        }
        start = 2;
    }
    if (argc < 2) {
        fputs(usage_main, stderr);
        return CT_ERR_USAGE;
    }
    args a;
    if (!parse_args(argc, argv, start, &a))
        return CT_ERR_USAGE;
    if (a.help) {
        fputs(start == 1 ? usage_main : cmds[which].usage, stdout);
        return 0;
    }
    return cmds[which].fn(&a);
}
