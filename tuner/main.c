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
#include "dbio.h"
#include "export.h"
#include "export_torch.h"
#include "format.h"
#include "outfile.h"
#include "selector.h"
#include "problem.h"
#include "cache.h"
#include "cli_report.h"
#include "runner.h"
#include "search.h"
#include "space.h"
#include "tune.h"
#include "worker.h"

static const char usage_main[] =
    "usage: convtune [tune] --problem SPEC [options]   tune a problem on a GPU\n"
    "       convtune space --problem SPEC [--arch sm_XY]  show its parameter space\n"
    "       convtune compile --problem SPEC --arch sm_XY [--param NAME=VALUE ...]\n"
    "       convtune query [--problem SPEC] [--device NAME] [--format table|csv|json]\n"
    "       convtune export --problem SPEC [--device NAME] [-o FILE] [--force]\n"
    "       convtune export --family F [--device NAME] [-o FILE] [--force]  every size + selector\n"
    "       convtune export ... --torch [-o DIR]   a PyTorch module next to the .cu\n"
    "       convtune query --nearest SPEC [--device NAME]   what the selector would pick\n"
    "       convtune report [--problem SPEC ...] [-o FILE.html]   HTML report with plots\n"
    "       convtune db export|import ...   move records between databases\n"
    "       convtune db check [--db PATH]   SQLite integrity and foreign-key check\n"
    "       convtune COMMAND --help | --help | --version\n"
    "\n"
    "Problems:\n"
    "  conv1d:N:K[:valid|same|right]   out[i] = sum_j in[i+j-OFF] * mask[j]\n"
    "      valid  N-K+1 outputs (default); same  N outputs, centred zero padding;\n"
    "      right  N outputs, zeros past the end of the input (GPU puzzles).\n"
    "      N and K: integers, also in exact scientific notation (1e6).\n"
    "  conv1dc:B:Cin:L:Cout:K[:pad=P][:bias]   PyTorch Conv1d layer (NCL input, OIK\n"
    "      weights), zero padding P on both sides, optional bias.\n"
    "  conv2d:B:H:W:KH:KW[:valid|same]   B single-channel images, one KH x KW filter.\n"
    "  conv2dc:B:Cin:H:W:Cout:KH:KW[:valid|same][:bias]   PyTorch Conv2d layer (NCHW\n"
    "      input, OIHW weights), optional bias.\n"
    "      same: (K-1)/2 zeros before and the rest after, as PyTorch's padding='same'.\n"
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
    "(--winners); --all prints every candidate, failed ones with their error.\n"
    "\n"
    "usage: convtune query --nearest SPEC [--device NAME] [--format table|json] [--db PATH]\n"
    "Show what the selector of `convtune export --family` picks for SPEC: the grade\n"
    "(exact: the instance tuned for SPEC; nearest_size: the generic kernel with the\n"
    "launch configuration of the nearest tuned problem; generic: nothing tuned for\n"
    "this mode), the distance in log-size (sqrt of the sum over the sizes of\n"
    "(ln a - ln b)^2, same family and mode) and the stored record chosen. Without\n"
    "--device, the device with the most tuned problems of the family, as export.\n";

static const char usage_export[] =
    "usage: convtune export --problem SPEC [--device NAME] [-o FILE] [--force] [--db PATH]\n"
    "Write the stored winner as a standalone .cu file (default generated/NAME.cu)\n"
    "with a C launcher and a self-test behind -DCONVTUNE_SELFTEST, and a C header\n"
    "FILE.h next to it declaring the launcher for C and C++ callers.\n"
    "\n"
    "usage: convtune export --family F [--device NAME] [-o FILE] [--force] [--db PATH]\n"
    "Write every tuned problem of family F (the winner of each on one device: --device,\n"
    "else the device with the most tuned problems) into one .cu (default\n"
    "generated/convtune_F.cu), each as its own kernel instance, plus a generic kernel\n"
    "for any size and a selector convtune_F(in, mask, out, n, k, mode, stream, grade)\n"
    "declared in FILE.h.\n"
    "\n"
    "--torch: -o names a directory (default generated) that gets, next to the .cu\n"
    "and .h, a C++ binding and a Python module NAME.py whose conv(...) takes and\n"
    "returns CUDA tensors (checked; forward only), built on first use with\n"
    "torch.utils.cpp_extension.load (or nvcc and ctypes where that fails).\n";

static const char usage_db[] =
    "usage: convtune db SUBCOMMAND [options]   (convtune db SUBCOMMAND --help)\n"
    "  export [--format json|csv] [-o FILE] [--force] [--db PATH]\n"
    "  import FILE [--format json|csv] [--db PATH]\n"
    "  check [--db PATH]\n";

static const char usage_db_export[] =
    "usage: convtune db export [--format json|csv] [-o FILE] [--force] [--db PATH]\n"
    "Write every stored candidate with its whole provenance (device identity and\n"
    "ceilings, problem, run, every candidate field) as JSON (default) or CSV, to\n"
    "stdout or atomically to FILE.\n";

static const char usage_db_import[] =
    "usage: convtune db import FILE [--format json|csv] [--db PATH]\n"
    "Add the records of a `db export` file (FILE, or - for stdin; the format is\n"
    "detected unless given) to the database, created if missing. Records already\n"
    "present (same device identity, problem, template, template hash, params and\n"
    "created_at) are skipped, the others added; the winner queries then pick the\n"
    "best of both. All in one transaction: a bad file changes nothing.\n";

static const char usage_db_check[] =
    "usage: convtune db check [--db PATH]\n"
    "Run SQLite's PRAGMA integrity_check and foreign_key_check on the database.\n"
    "Prints \"ok\", or the problems one per line. Exit 0 when ok, 5 when the file has\n"
    "problems or is not a readable convtune database, 6 when it does not exist.\n";

typedef struct args {
    const char *problem, *db, *config, *templates, *only, *arch, *device, *family, *format, *out;
    const char *params[CT_MAX_PARAMS];
    int nparams;
    int gpu, list, all, force, remeasure, verbose, help, json, no_cache, fresh, torch;
    long long seed, max_candidates;
    int have_seed, have_max;
    const char *strategy;
    double time_limit;
    const char *nearest;       /* query --nearest SPEC */
    const char *pos[4];        /* arguments that are not options (db import FILE) */
    int npos;
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
        if (!strcmp(o, "--torch")) { a->torch = 1; continue; }
        if (!strcmp(o, "--verbose") || !strcmp(o, "-v")) { a->verbose = 1; continue; }
        if (!strcmp(o, "--problem")) dst = &a->problem;
        else if (!strcmp(o, "--db")) dst = &a->db;
        else if (!strcmp(o, "--config")) dst = &a->config;
        else if (!strcmp(o, "--templates")) dst = &a->templates;
        else if (!strcmp(o, "--template")) dst = &a->only;
        else if (!strcmp(o, "--arch")) dst = &a->arch;
        else if (!strcmp(o, "--device")) dst = &a->device;
        else if (!strcmp(o, "--family")) dst = &a->family;
        else if (!strcmp(o, "--nearest")) dst = &a->nearest;
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
        } else if ((o[0] != '-' || !strcmp(o, "-")) && a->npos < 4) {
            a->pos[a->npos++] = o;   /* only `db import FILE` takes one; main refuses the rest */
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
                      .worker_exe = "/proc/self/exe",
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

/* A JSON string on stdout (control characters as \u escapes). */
static void json_string_out(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

/* query --nearest SPEC: what the selector of a family export picks for SPEC,
 * with the ranking the export uses (selector.h). */
static int cmd_query_nearest(const args *a)
{
    ct_format fmt = CT_FMT_TABLE;
    ct_err e;
    if (a->format && ct_format_parse(a->format, &fmt, &e) != CT_OK)
        return die(CT_ERR_USAGE, e.msg);
    if (fmt == CT_FMT_CSV)
        return die(CT_ERR_USAGE, "query --nearest prints a table or JSON (--format table|json)");
    if (a->problem || a->all)
        return die(CT_ERR_USAGE, "query --nearest SPEC takes no --problem or --all");
    ct_problem p;
    ct_status rc = ct_problem_parse(a->nearest, &p, &e);
    if (rc != CT_OK)
        return die(rc, e.msg);
    if (a->family && strcmp(a->family, p.family->name) != 0)
        return die(CT_ERR_USAGE, "--family does not match the family of --nearest");
    ct_db *db;
    int r = open_existing_db(a, &db);
    if (r)
        return r;
    ct_tuned_set set;
    rc = ct_tuned_load(db, p.family->name, a->device, &set, &e);
    ct_db_close(db);
    if (rc != CT_OK)
        return die(rc, e.msg);
    ct_choice ch;
    ct_select(&set, &p, NULL, &ch);
    const ct_record *rec = ch.index >= 0 ? &set.recs[ch.index] : NULL;
    unsigned block = ch.index >= 0 ? ct_tuned_block(&set, ch.index) : CT_GENERIC_BLOCK;
    char how[400];
    if (ch.grade == CT_GRADE_EXACT)
        snprintf(how, sizeof how, "the %s instance tuned for %s", rec->tmpl, rec->problem);
    else if (ch.index >= 0)
        snprintf(how, sizeof how, "the generic kernel with the launch configuration of %s (block %u)",
                 rec->problem, block);
    else
        snprintf(how, sizeof how, "the generic kernel with its default launch configuration (block %u); "
                 "nothing tuned in this mode", block);
    char devnote[200];
    if (set.device_auto)
        snprintf(devnote, sizeof devnote, "the device with the most tuned %s problems: %d", p.family->name, set.n);
    else
        snprintf(devnote, sizeof devnote, "%d tuned %s problems", set.n, p.family->name);
    if (fmt == CT_FMT_JSON) {
        printf("{\"query\":\"%s\",\"device\":", p.canonical);
        json_string_out(set.device);
        printf(",\"arch\":\"%s\",\"grade\":\"%s\",\"distance\":", set.arch, ct_grade_name(ch.grade));
        if (ch.index >= 0)
            printf("%.6g,\"chosen\":\"%s\"", ch.distance, rec->problem);
        else
            printf("null,\"chosen\":null");
        printf(",\"launch\":\"%s\",\"block\":%u,\"records\":", ch.grade == CT_GRADE_EXACT ? "tuned" : "generic",
               block);
    } else {
        printf("query:    %s\ndevice:   %s (%s; %s)\ngrade:    %s\n", p.canonical, set.device, set.arch, devnote,
               ct_grade_name(ch.grade));
        if (ch.index >= 0)
            printf("distance: %.4f in log-size, to %s\n", ch.distance, rec->problem);
        else
            printf("distance: none (no tuned %s problem in this mode on this device)\n", p.family->name);
        printf("launches: %s\n", how);
        if (rec)
            printf("\nthe stored record:\n");
    }
    int werr = 0;
    if (rec || fmt == CT_FMT_JSON) {
        ct_writer *w = ct_writer_begin(stdout, fmt);
        if (!w) {
            ct_tuned_free(&set);
            return die(CT_ERR_INTERNAL, "out of memory");
        }
        if (rec)
            ct_writer_row(w, rec);
        werr = ct_writer_end(w);
    }
    if (fmt == CT_FMT_JSON)
        printf("}\n");
    ct_tuned_free(&set);
    if (werr || fflush(stdout) != 0)
        return die(CT_ERR_IO, "cannot write the query output");
    return 0;
}

/* export --family F: every tuned problem of F on one device, one file. */
static int cmd_export_family(const args *a)
{
    ct_config cfg;
    int r = load_config(a, &cfg);
    if (r)
        return r;
    ct_db *db;
    if ((r = open_existing_db(a, &db)))
        return r;
    ct_tuned_set set;
    ct_err e;
    ct_status rc = ct_tuned_load(db, a->family, a->device, &set, &e);
    ct_db_close(db);
    if (rc != CT_OK)
        return die(rc, e.msg);
    char path[1024], hpath[1100];
    if (a->out)
        snprintf(path, sizeof path, "%s", a->out);
    else
        ct_export_family_default_path(set.family->name, path, sizeof path);
    ct_export_header_path(path, hpath, sizeof hpath);
    if (a->torch) {   /* -o is the directory; export_torch.h */
        rc = ct_export_torch_family(&set, a->templates, a->out ? a->out : "generated", a->force, &e);
        if (rc == CT_OK)
            printf("%s/convtune_%s.py: PyTorch module of %d tuned %s problems on %s, with its .cu, .h and binding\n",
                   a->out ? a->out : "generated", set.family->name, set.n, set.family->name, set.device);
    } else if ((rc = ct_export_family(&set, a->templates, path, a->force, &e)) == CT_OK)
        printf("%s and %s: %d tuned %s problems on %s (%s), a generic kernel and the selector convtune_%s\n",
               path, hpath, set.n, set.family->name, set.device,
               set.device_auto ? "the device with the most tuned problems" : "as asked", set.family->name);
    ct_tuned_free(&set);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

/* db export: every stored candidate, to stdout or atomically to -o FILE. */
static int cmd_db_export(const args *a)
{
    ct_err e;
    ct_dbio_format fmt = CT_DBIO_JSON;
    if (a->npos)
        return die(CT_ERR_USAGE, "db export takes no file argument (use -o FILE)");
    if (a->format && ct_dbio_format_parse(a->format, &fmt, &e) != CT_OK)
        return die(CT_ERR_USAGE, e.msg);
    ct_status rc;
    ct_outfile o;
    if (a->out && (rc = ct_outfile_check(a->out, a->force, "db export", &e)) != CT_OK)
        return die(rc, e.msg);
    ct_db *db;
    int r = open_existing_db(a, &db);
    if (r)
        return r;
    if (a->out && (rc = ct_outfile_open(&o, a->out, ".convtune-dbexport-", "db export", &e)) != CT_OK) {
        ct_db_close(db);
        return die(rc, e.msg);
    }
    long n = 0;
    rc = ct_dbio_export(db, fmt, a->out ? o.f : stdout, &n, &e);
    ct_db_close(db);
    if (a->out) {
        if (rc != CT_OK)
            ct_outfile_discard(&o);
        else if ((rc = ct_outfile_close(&o, &e)) == CT_OK)
            rc = ct_outfile_commit(&o, &e);
        if (rc == CT_OK)
            printf("%s: %ld records (%s)\n", a->out, n, fmt == CT_DBIO_JSON ? "json" : "csv");
    }
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

/* The whole of path ("-": stdin) into a malloc'ed buffer. */
static char *read_all(const char *path, size_t *len, ct_err *e)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) {
        ct_fail(e, CT_ERR_IO, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t n = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            char *grown = realloc(buf, cap *= 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    if (f != stdin)
        fclose(f);
    if (!buf || bad) {
        free(buf);
        ct_fail(e, buf ? CT_ERR_IO : CT_ERR_INTERNAL, "cannot read %s%s", path, buf ? "" : ": out of memory");
        return NULL;
    }
    *len = n;
    return buf;
}

/* db import FILE: parse and check the whole file, then add it to the
 * database (created if missing) in one transaction. */
static int cmd_db_import(const args *a)
{
    ct_err e;
    if (a->npos != 1)
        return die(CT_ERR_USAGE, a->npos ? "db import takes one FILE" : "db import needs a FILE (or - for stdin)");
    ct_dbio_format fmt;
    if (a->format && ct_dbio_format_parse(a->format, &fmt, &e) != CT_OK)
        return die(CT_ERR_USAGE, e.msg);
    size_t len = 0;
    char *text = read_all(a->pos[0], &len, &e);
    if (!text)
        return die(CT_ERR_IO, e.msg);
    ct_dbio_input *in = NULL;
    ct_status rc = ct_dbio_parse(text, len, a->pos[0], a->format ? &fmt : NULL, &in, &e);
    free(text);
    if (rc != CT_OK)
        return die(rc, e.msg);
    char path[1024];
    if (a->db)
        snprintf(path, sizeof path, "%s", a->db);
    else if (ct_db_default_path(path, sizeof path, &e) != CT_OK) {
        ct_dbio_free(in);
        return die(CT_ERR_DB, e.msg);
    }
    ct_db *db;
    if ((rc = ct_db_open(path, 1, &db, &e)) != CT_OK) {
        ct_dbio_free(in);
        return die(rc, e.msg);
    }
    long added = 0, skipped = 0;
    rc = ct_dbio_import(db, in, &added, &skipped, &e);
    ct_db_close(db);
    if (rc == CT_OK)
        printf("%s: %ld records: %ld imported, %ld skipped as duplicates\n", a->pos[0], ct_dbio_count(in), added,
               skipped);
    ct_dbio_free(in);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

static int cmd_query(const args *a)
{
    if (a->nearest)
        return cmd_query_nearest(a);
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
    if (a->family && a->problem)
        return die(CT_ERR_USAGE, "export takes --problem SPEC or --family F, not both");
    if (a->family)
        return cmd_export_family(a);
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
    if (a->torch) {   /* -o is the directory; export_torch.h */
        if ((rc = ct_export_torch(&rec, a->templates, a->out ? a->out : "generated", a->force, cfg.s.tolerance, &e)))
            return die(rc, e.msg);
        printf("%s: PyTorch module of %s %s, %.2f us on %s, with its .cu, .h and binding\n",
               a->out ? a->out : "generated", rec.tmpl, rec.params, rec.median_us, rec.device);
        return 0;
    }
    char path[1024];
    if (a->out)
        snprintf(path, sizeof path, "%s", a->out);
    else
        ct_export_default_path(p.canonical, path, sizeof path);
    if ((rc = ct_export_cu(&rec, a->templates, path, a->force, cfg.s.tolerance, &e)) != CT_OK)
        return die(rc, e.msg);
    char hpath[1100];
    ct_export_header_path(path, hpath, sizeof hpath);
    printf("%s and %s: %s %s, %.2f us on %s\n", path, hpath, rec.tmpl, rec.params, rec.median_us, rec.device);
    return 0;
}

/* db check: the report on stdout ("ok" or one problem per line), and on
 * problems the one-line error on stderr with exit 5 (CT_ERR_DB). */
static int cmd_db_check(const args *a)
{
    if (a->npos)
        return die(CT_ERR_USAGE, "db check takes no file argument (use --db PATH)");
    ct_db *db;
    int r = open_existing_db(a, &db);
    if (r)
        return r;
    static char report[1 << 16];
    ct_err e;
    ct_status rc = ct_db_check(db, report, sizeof report, &e);
    ct_db_close(db);
    printf("%s\n", report);
    if (fflush(stdout) != 0 && rc == CT_OK)
        return die(CT_ERR_IO, "cannot write the check report");
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

/* convtune db SUBCOMMAND [options]: the database's own operations. */
static int cmd_db(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(const args *);
        const char *usage;
    } subs[] = {
        {"export", cmd_db_export, usage_db_export},
        {"import", cmd_db_import, usage_db_import},
        {"check", cmd_db_check, usage_db_check},
    };
    const size_t nsubs = sizeof subs / sizeof subs[0];
    char names[200] = "";
    for (size_t i = 0, o = 0; i < nsubs && o < sizeof names; i++)
        o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", i ? (i + 1 == nsubs ? " or " : ", ") : "",
                              subs[i].name);
    if (argc < 3 || argv[2][0] == '-') {
        if (argc >= 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
            fputs(usage_db, stdout);
            return 0;
        }
        fprintf(stderr, "convtune: db needs a subcommand: %s (see convtune db --help)\n", names);
        return CT_ERR_USAGE;
    }
    int which = -1;
    for (size_t i = 0; i < nsubs; i++)
        if (!strcmp(argv[2], subs[i].name))
            which = (int)i;
    if (which < 0) {
        fprintf(stderr, "convtune: unknown db subcommand '%s' (use %s)\n", argv[2], names);
        return CT_ERR_USAGE;
    }
    args a;
    if (!parse_args(argc, argv, 3, &a))
        return CT_ERR_USAGE;
    if (a.help) {
        fputs(subs[which].usage, stdout);
        return 0;
    }
    return subs[which].fn(&a);
}

int main(int argc, char **argv)
{
    /* The GPU worker a tuning run starts (worker.h); not a user command. */
    if (argc == 3 && !strcmp(argv[1], "__worker")) {
        char *end;
        long fd = strtol(argv[2], &end, 10);
        if (*end || fd < 0 || fd > 65535)
            return CT_ERR_USAGE;
        return ct_worker_serve((int)fd);
    }
    if (argc >= 2 && !strcmp(argv[1], "--version")) {
        printf("convtune %s (NVRTC %d.%d)\n", CONVTUNE_VERSION, ct_nvrtc_version() / 1000,
               ct_nvrtc_version() % 1000 / 10);
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "db"))
        return cmd_db(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "report"))
        return ct_cli_report(argc - 1, argv + 1);
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
    if (a.npos) {
        fprintf(stderr, "convtune: unknown option '%s' (see convtune --help)\n", a.pos[0]);
        return CT_ERR_USAGE;
    }
    if (a.help) {
        fputs(start == 1 ? usage_main : cmds[which].usage, stdout);
        return 0;
    }
    return cmds[which].fn(&a);
}
