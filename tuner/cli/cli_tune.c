/* cli_tune.c - the commands that build candidates: tune, space, compile. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "cli.h"
#include "compile.h"
#include "dtype.h"
#include "json.h"
#include "outfile.h"
#include "runner.h"
#include "search.h"
#include "space.h"
#include "text.h"
#include "tune.h"

const char usage_tune[] =
    "usage: convtune [tune] --problem SPEC [options]\n"
    "       convtune [tune] --problems FILE [options]\n"
    "Generate candidates from the templates, compile them with NVRTC, verify each\n"
    "against an fp64 reference, time the verified ones, store every result.\n"
    "  --problem SPEC       problem string, e.g. conv1d:1e6:2047\n"
    "  --problems FILE      tune each problem of FILE (one per line, # comments)\n"
    "                       in turn: one line each, then a table; a problem the\n"
    "                       database holds a winner of is skipped (resumable)\n"
    "                       unless --fresh\n"
    "  --gpu N              device ordinal (default 0); N,M,... or all tunes on\n"
    "                       several GPUs of one model, each candidate dealt to the\n"
    "                       next free GPU, the best re-timed together on the first\n"
    "  --shard I/N          measure only shard I of N of the run's candidates (a\n"
    "                       fixed list: random with --seed, or exhaustive), into a\n"
    "                       database of its own (--db); in a Slurm job array the\n"
    "                       task's shard is the default\n"
    "  --db PATH            database (default $CONVTUNE_DB or the XDG data dir)\n"
    "  --config FILE        settings and value lists overriding configs/*.ini\n"
    "  --templates DIR      read templates from DIR instead of the built-in copies\n"
    "  --template NAME      tune only this template\n"
    "  --seed N             inputs and sampling seed (default: [verify] seed)\n"
    "  --strategy S         auto (default), exhaustive, random, anneal (guided) or\n"
    "                       model (a cost model fitted on the database ranks the\n"
    "                       candidates; under --time by gain per expected second)\n"
    "  --budget N           measure at most N candidates (alias --max-candidates;\n"
    "                       default [tune] max_candidates); auto is exhaustive when\n"
    "                       the space fits the budget, otherwise model where the\n"
    "                       database holds enough of the family, else anneal\n"
    "  --time SECONDS       stop proposing candidates after this long\n"
    "  --json               print one JSON summary on stdout (the report goes to stderr)\n"
    "  --fresh              measure again what earlier runs stored for this device\n"
    "                       (by default a run resumes: stored outcomes are reused)\n"
    "  --no-cache           compile everything, bypassing the binary cache\n"
    "                       ($CONVTUNE_CACHE or the XDG cache dir)\n"
    "  --remeasure          measure the device ceilings again\n"
    "  --verbose            one line per candidate on stderr\n"
    "  --arch-limit sm_XY   only the kernels a GPU of sm_XY admits (its instructions\n"
    "                       and limits, e.g. sm_75 for a T4), compiled for and\n"
    "                       measured on this GPU; give a --db of its own\n"
    "  --baseline B         cudnn (default) or none: once the winner is known, time\n"
    "                       cuDNN on the same GPU and buffers (fp32 with TF32 off\n"
    "                       and on; tf32 with TF32 on; bf16/f16 in their type) and\n"
    "                       state the ratio; a missing cuDNN ($CONVTUNE_CUDNN,\n"
    "                       libcudnn.so.9, or PyTorch's pip copy) or an\n"
    "                       unsupported problem is a\n"
    "                       line 'cuDNN baseline: none (why)', never an error\n";

const char usage_space[] =
    "usage: convtune space --problem SPEC [--arch sm_XY] [--arch-limit sm_XY] [--template NAME]\n"
    "                      [--config FILE] [--list] [--format table|json]\n"
    "Print each template's parameters, their values, the full space size and the\n"
    "number of candidates that pass the constraints for the architecture (default\n"
    "sm_90). --arch-limit keeps only what an older architecture admits too (as tune\n"
    "--arch-limit does). --list prints every admissible candidate, one a line as\n"
    "TEMPLATE NAME=value,... (compile --candidate takes such a line). --format json\n"
    "prints the same as one JSON object (templates, parameters with their values, the\n"
    "counts, an example rejection; with --list, the candidates). Needs no GPU.\n";

const char usage_compile[] =
    "usage: convtune compile --problem SPEC --arch ARCH [--template NAME] [--param NAME=VALUE ...]\n"
    "                        [-o FILE] [--force] [--templates DIR] [--config FILE] [--arch-limit sm_XY]\n"
    "       convtune compile --problem SPEC --arch ARCH --candidate 'TEMPLATE NAME=VALUE,...'\n"
    "Compile one candidate offline with NVRTC (no GPU needed). ARCH sm_XY writes a\n"
    "CUBIN, compute_XY writes PTX (default file: NAME.cubin / NAME.ptx), atomically;\n"
    "an existing file is replaced only with --force; -o - writes to stdout. Parameters not given take the\n"
    "first value of their list in the config. --candidate takes a line of\n"
    "space --list as printed: the template, then its NAME=VALUE pairs.\n";

/* What a run on a GPU would refuse after finding one, refused before, with
 * the codes space, compile and precompile use: a --template the family
 * lacks or that cannot compute the problem's type, a template folder that
 * does not hold the family's templates, a read-only database. */
int check_gpu_run(const args *a, const ct_problem *p, const char *dbpath)
{
    const ct_family *f = p->family;
    ct_err e;
    if (a->only) {
        const ct_template *t = ct_template_find(f, a->only);
        char why[256];
        if (!t) {
            say(0, "family %s has no template '%s'", f->name, ECHO(a->only));   /* as space says */
            return CT_ERR_USAGE;
        }
        if (ct_template_refuses_dtype(p, t, why, sizeof why)) {
            say(0, "--template %s: %s (%s)", a->only, why, p->canonical);
            return CT_ERR_USAGE;
        }
    }
    for (int i = 0; i < f->ntemplates; i++) {   /* what the run reads, read now */
        char *src = NULL;
        ct_status rc = ct_template_source(f->templates[i].name, a->templates, &src, &e);
        free(src);
        if (rc != CT_OK)
            return die(rc, e.msg);
    }
    return db_writable(dbpath);
}

/* A sharded auto run samples at random where the space exceeds the
 * budget, and a sample dealt to shards needs a seed. Whether it does is
 * known before the GPU from the space on sm_90 (the GPU's own may differ a
 * little, and the run checks again on it). */
static int check_auto_shard(const ct_problem *p, const ct_config *cfg, const char *only)
{
    ct_limits lim;
    ct_space sp;
    ct_err e;
    if (ct_limits_for_arch("sm_90", &lim, &e) != CT_OK || ct_space_build(p, cfg, &lim, only, &sp, &e) != CT_OK)
        return 0;   /* the run says what is wrong */
    const int n = sp.n;
    ct_space_free(&sp);
    if (n <= cfg->s.max_candidates)
        return 0;   /* exhaustive: every shard knows the list */
    return say(CT_ERR_USAGE, "a sharded run of about %d candidates, more than the budget %d, samples at random: "
               "it needs --seed N, the same in every shard and in the tuning run (or --strategy exhaustive)", n,
               cfg->s.max_candidates);
}

int cmd_tune(const args *a)
{
    int no_cudnn, r;
    if ((r = baseline_none(a, &no_cudnn)))
        return r;
    if (a->problems_file)   /* a list: cli_tune_list.c */
        return cmd_tune_list(a);
    ct_problem p;
    ct_config cfg;
    if ((r = need_problem_config(a, &p, &cfg)))
        return r;
    char dbpath[CT_DB_PATH_MAX];
    ct_err e;
    if ((r = db_path(a, dbpath, sizeof dbpath)))
        return r;
    char cache[CT_PATH_MAX];
    const char *cdir;
    if ((r = cache_dir(a, cache, sizeof cache, &cdir)))
        return r;
    if ((r = search_budget(a, &cfg)))
        return r;
    ct_shard shard;
    if ((r = shard_of(a, &shard)))
        return r;
    /* One SQLite file written by several nodes over NFS is unsafe (its locks
     * are not reliable there): each shard writes its own, merged after. */
    if (shard.count > 1 && !a->db)
        return die(CT_ERR_USAGE, "a shard writes a database of its own: give --db (e.g. --db tune-shard-3.db); "
                                 "merge them after with convtune db import");
    ct_strategy st = CT_SEARCH_AUTO;
    if ((a->strategy && ct_strategy_parse(a->strategy, &st, &e) != CT_OK) ||
        ct_shard_check(st, cfg.s.seed, &shard, &e) != CT_OK)
        return die(CT_ERR_USAGE, e.msg);
    if (shard.count > 1 && st == CT_SEARCH_AUTO && cfg.s.seed == 0 && (r = check_auto_shard(&p, &cfg, a->only)))
        return r;
    if ((r = check_gpu_run(a, &p, dbpath)))
        return r;
    ct_limits al;
    if (a->arch_limit && ct_limits_for_arch(a->arch_limit, &al, &e) != CT_OK)
        return die(CT_ERR_USAGE, e.msg);
    ct_tune_opts o = {.problem = &p, .gpu = a->gpu, .ngpus = a->ngpus, .shard = shard, .db_path = dbpath, .templates_dir = a->templates,
                      .only_template = a->only, .cfg = &cfg, .remeasure = a->remeasure,
                      .verbose = a->verbose, .out = stdout, .strategy = a->strategy,
                      .time_limit_s = a->time_limit, .cache_dir = cdir, .json = a->json,
                      .worker_exe = "/proc/self/exe",
                      .fresh = a->fresh, .arch_limit = a->arch_limit, .no_cudnn = no_cudnn};
    memcpy(o.gpus, a->gpus, sizeof o.gpus);
    ct_tune_result res;
    ct_status rc = ct_tune(&o, &res, &e);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

/* space --format json: what the table says, for programs. Values keep
 * the command line's spelling (a name where the parameter has names, as a
 * string; else a number). */
static int space_json(const ct_problem *p, const char *arch, const ct_config *cfg, const ct_space *sp, int list)
{
    ct_jw j;
    ct_jw_file(&j, stdout, 0);
    ct_jw_object(&j, NULL);
    ct_jw_string(&j, "problem", p->canonical);
    ct_jw_string(&j, "family", p->family->name);
    ct_jw_string(&j, "arch", arch);
    ct_jw_number(&j, "gflop", "%.6g", p->family->flops(p) / 1e9);
    ct_jw_number(&j, "min_mbytes", "%.6g", p->family->bytes(p) / 1e6);
    ct_jw_array(&j, "templates");
    for (int i = 0; i < sp->ntemplates; i++) {
        const ct_space_stats *st = &sp->stats[i];
        const ct_template *t = st->tmpl;
        ct_jw_object(&j, NULL);
        ct_jw_string(&j, "name", t->name);
        ct_jw_string(&j, "summary", t->summary);
        ct_jw_array(&j, "params");
        for (int k = 0; k < t->nparams; k++) {
            const ct_param_def *d = &t->params[k];
            const ct_space_list *l = ct_config_list(cfg, t, d->name);
            ct_jw_object(&j, NULL);
            ct_jw_string(&j, "name", d->name);
            ct_jw_string(&j, "help", d->help);
            ct_jw_array(&j, "values");
            for (int v = 0; l && v < l->nvals; v++) {
                if (l->vals[v] >= 0 && l->vals[v] < d->nsymbols)
                    ct_jw_string(&j, NULL, d->symbols[l->vals[v]]);
                else
                    ct_jw_int(&j, NULL, l->vals[v]);
            }
            ct_jw_end(&j);
            ct_jw_end(&j);
        }
        ct_jw_end(&j);
        ct_jw_int(&j, "full", st->full);
        ct_jw_int(&j, "distinct", st->distinct);
        ct_jw_int(&j, "admissible", st->admissible);
        ct_jw_string_or_null(&j, "example_rejection", st->example_reject);
        ct_jw_end(&j);
    }
    ct_jw_end(&j);
    ct_jw_int(&j, "total_admissible", sp->n);
    if (list) {
        ct_jw_array(&j, "candidates");
        for (int i = 0; i < sp->n; i++) {
            const ct_template *t = sp->cand[i].tmpl;
            char params[4096];
            if (ct_params_to_json(&sp->cand[i].params, t->params, t->nparams, params, sizeof params) != CT_OK)
                return die(CT_ERR_INTERNAL, "space: a candidate's parameters do not fit the JSON buffer");
            ct_jw_object(&j, NULL);
            ct_jw_string(&j, "template", t->name);
            ct_jw_raw(&j, "params", params);
            ct_jw_end(&j);
        }
        ct_jw_end(&j);
    }
    ct_jw_end(&j);
    fputc('\n', stdout);
    return fflush(stdout) != 0 || ferror(stdout) ? die(CT_ERR_IO, "space: cannot write to standard output") : 0;
}

int cmd_space(const args *a)
{
    ct_problem p;
    ct_config cfg;
    int json = 0;
    if (a->format) {
        if (strcmp(a->format, "table") && strcmp(a->format, "json"))
            return say(CT_ERR_USAGE, "space: --format must be table or json, not '%s'", ECHO(a->format));
        json = !strcmp(a->format, "json");
    }
    int r = need_problem_config(a, &p, &cfg);
    if (r)
        return r;
    ct_limits lim;
    ct_err e;
    const char *arch = a->arch ? a->arch : "sm_90";
    ct_status rc = ct_limits_for_arch(arch, &lim, &e);
    if (rc == CT_OK && a->arch_limit)
        rc = ct_limits_restrict(&lim, a->arch_limit, &e);
    if (rc != CT_OK)
        return die(rc, e.msg);
    ct_space sp;
    if ((rc = ct_space_build(&p, &cfg, &lim, a->only, &sp, &e)) != CT_OK)
        return die(rc, e.msg);
    if (json) {
        r = space_json(&p, arch, &cfg, &sp, a->list);
        ct_space_free(&sp);
        return r;
    }
    printf("problem %s on %s%s%s: %.4g GFLOP, %.4g MB moved at least\n", p.canonical, arch,
           a->arch_limit ? ", limited to the kernels of " : "", a->arch_limit ? a->arch_limit : "",
           p.family->flops(&p) / 1e9, p.family->bytes(&p) / 1e6);
    const ct_dtype dt = ct_problem_dtype(&p);
    if (dt != CT_DTYPE_F32)   /* what the type asks of a candidate, never implied for an fp32 problem */
        printf("element type %s: %s; verified to a relative L2 error <= %.3g against fp64\n", ct_dtype_name(dt),
               dt == CT_DTYPE_TF32 ? "fp32 buffers, the operands of products may be rounded to TF32 (the "
                                     "tensor-core kernels round them once; fp32 kernels compute it exactly), "
                                     "fp32 sums"
                                   : "2-byte buffers, fp32 sums, each output rounded once",
               ct_dtype_tolerance(dt, cfg.s.tolerance));
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
    char line[1024];
    if (!a->only && ct_space_baseline_only(&p, &sp, &lim, line, sizeof line))
        printf("%s\n", line);
    if (a->list) {
        for (int i = 0; i < sp.n; i++) {
            char key[512];
            const ct_template *t = sp.cand[i].tmpl;
            ct_params_to_text(&sp.cand[i].params, t->params, t->nparams, key, sizeof key);
            printf("%s %s\n", t->name, key);
        }
    }
    ct_space_free(&sp);
    return 0;
}

/* --candidate LINE, a line of space --list: its template into tmpl and its
 * NAME=VALUE pairs (separated by commas or blanks) into ps, pointing into
 * buf. 0, or the exit status after the one-line error. */
static int split_candidate(const char *line, char *buf, size_t len, const char **tmpl, const char **ps, int *np)
{
    if (strlen(line) >= len)
        return say(CT_ERR_USAGE, "--candidate: the line is longer than %zu characters", len - 1);
    memcpy(buf, line, strlen(line) + 1);
    char *save = NULL;
    *tmpl = strtok_r(buf, " \t\n", &save);
    if (!*tmpl)
        return say(CT_ERR_USAGE, "--candidate: empty; give a line of convtune space --list (TEMPLATE NAME=VALUE,...)");
    *np = 0;
    for (char *kv = strtok_r(NULL, ", \t\n", &save); kv; kv = strtok_r(NULL, ", \t\n", &save)) {
        if (*np >= CT_MAX_PARAMS)
            return say(CT_ERR_USAGE, "--candidate: more than %d parameters", CT_MAX_PARAMS);
        ps[(*np)++] = kv;
    }
    return 0;
}

int cmd_compile(const args *a)
{
    ct_problem p;
    int r = need_problem(a, &p);
    if (r)
        return r;
    /* The candidate's template and NAME=VALUE pairs: --candidate, or
     * --template and --param. */
    const char *only = a->only, *const *pv = a->params;
    const char *cparams[CT_MAX_PARAMS];
    int npv = a->nparams;
    char cbuf[4096];
    if (a->candidate) {
        if (a->only || a->nparams)
            return say(CT_ERR_USAGE, "--candidate names the template and its parameters: give it without "
                       "--template and --param");
        if ((r = split_candidate(a->candidate, cbuf, sizeof cbuf, &only, cparams, &npv)))
            return r;
        pv = cparams;
    }
    if (!a->arch) {
        say(0, "compile needs --arch (sm_XY for a CUBIN, compute_XY for PTX)");
        return CT_ERR_USAGE;
    }
    ct_config cfg;
    if ((r = load_config(a, &cfg)))
        return r;
    ct_err e;
    ct_limits lim;
    ct_status rc = ct_limits_for_arch(a->arch, &lim, &e);
    if (rc == CT_OK && a->arch_limit)
        rc = ct_limits_restrict(&lim, a->arch_limit, &e);
    if (rc != CT_OK)
        return die(rc, e.msg);
    const ct_family *f = p.family;
    /* By default the family's first tuned single-kernel template. */
    const ct_template *t = NULL;
    if (only)
        t = ct_template_find(f, only);
    else
        for (int i = f->ntemplates - 1; i >= 0; i--)
            if (!f->templates[i].is_baseline && !f->templates[i].exec)
                t = &f->templates[i];
    if (!t) {
        say(0, "family %s has no template '%s'", f->name, ECHO(only));
        return CT_ERR_USAGE;
    }
    ct_params c = {0};
    for (int k = 0; k < t->nparams; k++) {
        const ct_space_list *l = ct_config_list(&cfg, t, t->params[k].name);
        ct_params_set(&c, t->params[k].name, l ? l->vals[0] : 0, NULL);
    }
    for (int i = 0; i < npv; i++) {
        const char *eq = strchr(pv[i], '=');
        const ct_param_def *def = NULL;
        for (int k = 0; eq && k < t->nparams; k++)
            if (strlen(t->params[k].name) == (size_t)(eq - pv[i]) &&
                !strncmp(t->params[k].name, pv[i], (size_t)(eq - pv[i])))
                def = &t->params[k];
        if (!def) {
            say(0, "%s %s: expected NAME=VALUE with NAME a parameter of %s", a->candidate ? "--candidate" : "--param",
                ECHO(pv[i]), t->name);
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
    if (ct_template_refuses_dtype(&p, t, why, sizeof why) || f->constrain(&p, t, &c, &lim, why, sizeof why)) {
        say(0, "candidate rejected for %s: %s", a->arch, why);
        return CT_ERR_USAGE;
    }
    /* The target is checked before the compile, so a refusal costs nothing;
     * ct_outfile_write checks it again (it may change meanwhile). */
    const int to_stdout = out_is_stdout(a);
    if (a->out && !to_stdout && (rc = ct_outfile_check(a->out, a->force, "compile", &e)) != CT_OK)
        return die(rc, e.msg);
    char *src = NULL;
    if ((rc = ct_template_source(t->name, a->templates, &src, &e)) != CT_OK)
        return die(rc, e.msg);
    ct_define defs[CT_MAX_DEFINES];
    int nd = ct_problem_defines(&p, defs);
    ct_binary bin;
    rc = ct_nvrtc_compile(src, t->name, a->arch, defs, nd, &c, &bin, &e);
    free(src);
    if (rc != CT_OK)
        return die(rc, e.msg);
    size_t len = bin.is_cubin ? bin.size : strlen(bin.data);
    if (to_stdout) {   /* -o -: the binary alone, no summary line to mix into it */
        int bad = fwrite(bin.data, 1, len, stdout) != len || fflush(stdout) != 0;
        ct_binary_free(&bin);
        return bad ? die(CT_ERR_IO, "compile: cannot write to standard output") : 0;
    }
    char path[CT_OUTFILE_PATH_MAX];
    if (a->out) {
        if ((rc = ct_path_copy(path, sizeof path, a->out, "-o", CT_ERR_IO, &e)) != CT_OK) {
            ct_binary_free(&bin);
            return die(rc, e.msg);
        }
    } else
        snprintf(path, sizeof path, "%s.%s", t->name, bin.is_cubin ? "cubin" : "ptx");
    if ((rc = ct_outfile_write(path, a->force, ".convtune-compile-", "compile", bin.data, len, &e)) != CT_OK) {
        ct_binary_free(&bin);
        return die(rc, e.msg);
    }
    char key[512];
    ct_params_to_text(&c, t->params, t->nparams, key, sizeof key);
    printf("%s: %s %s for %s, %zu bytes, %.0f ms\n", path, t->name, key, a->arch, len, bin.compile_ms);
    ct_binary_free(&bin);
    return 0;
}
