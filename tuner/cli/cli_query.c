/* cli_query.c - the commands that read stored results: query, export. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "db_cudnn.h"
#include "export.h"
#include "export_torch.h"
#include "family_export.h"
#include "format.h"
#include "json.h"
#include "text.h"
#include "selector.h"

const char usage_query[] =
    "usage: convtune query [--problem SPEC] [--device NAME] [--family NAME]\n"
    "                      [--all | --winners] [--format table|csv|json] [--db PATH]\n"
    "Print stored results: by default the winner of each problem and device\n"
    "(--winners); --all prints every candidate, failed ones with their error.\n"
    "Each is compared with the cuDNN baseline its tuning run stored (cuDNN_us,\n"
    "vs_cuDNN: cuDNN's time over its own; 'no cuDNN baseline stored' where none\n"
    "was) and with convtune's naive kernel (vs_naive).\n"
    "\n"
    "usage: convtune query --nearest SPEC [--device NAME] [--format table|json] [--db PATH]\n"
    "Show what the selector of `convtune export --family` picks for SPEC: the grade\n"
    "(exact: the instance tuned for SPEC; nearest_size: the generic kernel with the\n"
    "launch configuration of the nearest tuned problem; generic: nothing tuned for\n"
    "this mode), the distance in log-size (sqrt of the sum over the sizes of\n"
    "(ln a - ln b)^2, between problems of one family equal in every field that is\n"
    "not a size: mode, pad, bias) and the stored record chosen, among the tuned\n"
    "problems of SPEC's element type (a family export holds one) and, for a\n"
    "layer's training pass (conv1dc, conv2dc: dgrad, wgrad), among those of the\n"
    "pass (the selector of `export --family F --pass P`). Without --device, the\n"
    "device with the most tuned problems of the family, as export.\n";

const char usage_export[] =
    "usage: convtune export --problem SPEC [--device NAME] [-o FILE] [--force] [--db PATH]\n"
    "Write the stored winner as a standalone .cu file with a C launcher and a\n"
    "self-test behind -DCONVTUNE_SELFTEST, and a C header FILE.h next to it\n"
    "declaring the launcher for C and C++ callers. Default FILE: NAME.cu in the\n"
    "current folder, NAME the problem (conv1d_1000000_2047_valid.cu).\n"
    "\n"
    "usage: convtune export --family F [--dtype f32|bf16|f16] [--device NAME] [-o FILE]\n"
    "                       [--force] [--db PATH]\n"
    "Write every tuned problem of family F (the winner of each on one device: --device,\n"
    "else the device with the most tuned problems) into one .cu (default\n"
    "convtune_F.cu in the current folder), each as its own kernel instance, plus a\n"
    "generic kernel for any size and a selector\n"
    "convtune_F(buffers..., sizes..., stream, grade) declared in FILE.h\n"
    "(conv1d: convtune_conv1d(in, mask, out, n, k, mode, ...)).\n"
    "An export holds one element type: --dtype bf16 or f16 takes the problems of\n"
    "that type (default f32), into convtune_F_bf16.cu with the selector\n"
    "convtune_F_bf16 taking void pointers to bf16 elements.\n"
    "--pass dgrad|wgrad (conv1dc, conv2dc): the problems of that training pass, into\n"
    "convtune_F_P.cu with the selector convtune_F_P (dgrad: dout, weight -> din;\n"
    "wgrad: in, dout -> dweight, then db when its bias argument is 1), the same size\n"
    "and key arguments as the forward selector; --pass fwd is the forward export.\n"
    "-o - (standard output) is refused: an export is a pair of files.\n"
    "\n"
    "--torch: -o names a directory (default: the current one) that gets, next to\n"
    "the .cu and .h, a C++ binding and a Python module NAME.py whose conv(...)\n"
    "takes and returns CUDA tensors (checked; forward only), built on first use\n"
    "with torch.utils.cpp_extension.load (or nvcc and ctypes where that fails).\n";

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
    rc = ct_tuned_load(db, p.family->name, ct_problem_dtype(&p), ct_tuned_variant(&p), a->device, &set, &e);
    ct_db_close(db);
    if (rc != CT_OK)
        return die(rc, e.msg);
    ct_choice ch;
    ct_select(&set, &p, NULL, &ch);
    const ct_result *rec = ch.index >= 0 ? &set.recs[ch.index] : NULL;
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
        snprintf(devnote, sizeof devnote, "the device with the most tuned %s problems: %d", set.name, set.n);
    else
        snprintf(devnote, sizeof devnote, "%d tuned %s problems", set.n, set.name);
    if (fmt == CT_FMT_JSON) {
        /* The object is left open: the query writer's array is its last member. */
        ct_jw j;
        ct_jw_file(&j, stdout, 0);
        ct_jw_object(&j, NULL);
        ct_jw_string(&j, "query", p.canonical);
        ct_jw_string(&j, "device", set.device);
        ct_jw_string(&j, "arch", set.arch);
        ct_jw_string(&j, "grade", ct_grade_name(ch.grade));
        if (ch.index >= 0) {
            ct_jw_number(&j, "distance", "%.6g", ch.distance);
            ct_jw_string(&j, "chosen", rec->problem);
        } else {
            ct_jw_null(&j, "distance");
            ct_jw_null(&j, "chosen");
        }
        ct_jw_string(&j, "launch", ch.grade == CT_GRADE_EXACT ? "tuned" : "generic");
        ct_jw_uint(&j, "block", block);
        ct_jw_raw(&j, "records", "");
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

/* --dtype T: the element type of a family export. */
static int dtype_arg(const char *v, ct_dtype *t)
{
    for (int i = 0; i < CT_NDTYPES; i++)
        if (!strcmp(v, ct_dtype_names[i])) {
            *t = (ct_dtype)i;
            return 1;
        }
    say(0, "--dtype: unknown element type '%s' (f32, bf16 or f16)", ECHO(v));
    return 0;
}

/* --pass P: the value of f's variant field named P, where the variant
 * field of f's export (family_export.h) is "pass"; refused, in one line,
 * for a family whose export has no passes and for a pass without a
 * selector. */
static int pass_arg(const ct_family *f, const char *v, int *variant)
{
    const ct_family_export *fx = f->family_export;
    const int k = fx && fx->variant && !strcmp(fx->variant, "pass") ? ct_field_find(f, fx->variant) : -1;
    if (k < 0) {
        say(0, "export --family %s: --pass: family %s has no training passes (its problems take no pass)", f->name,
            f->name);
        return 0;
    }
    const ct_field *fd = &f->fields[k];
    char names[200] = "";
    for (int c = 0; c < fd->nchoices; c++) {
        if (!strcmp(v, fd->choices[c])) {
            if (!ct_family_export_variant(f, c)) {
                say(0, "export --family %s: --pass %s: no selector of that pass", f->name, fd->choices[c]);
                return 0;
            }
            *variant = c;
            return 1;
        }
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", c ? (c + 1 < fd->nchoices ? ", " :
                 " or ") : "", fd->choices[c]);
    }
    say(0, "export --family %s: --pass: unknown pass '%s' (%s)", f->name, ECHO(v), names);
    return 0;
}

/* export --family F --torch: the module of set (the forward selector's)
 * with the selectors of the training passes tuned on the same device, in
 * the same type (the family's variants; a pass with nothing tuned there is
 * left to PyTorch by the module). */
static ct_status export_torch_family(const args *a, ct_db *db, const ct_tuned_set *set, ct_err *e)
{
    const ct_family_export *fx = set->family->family_export;
    ct_tuned_set passes[CT_TORCH_MAX_SETS];
    const ct_tuned_set *sets[CT_TORCH_MAX_SETS] = {set};
    int nsets = 1;
    ct_status rc = CT_OK;
    for (int v = 1; fx && fx->variant && v < fx->nvariants && v < CT_TORCH_MAX_SETS && rc == CT_OK; v++) {
        ct_err pe;
        ct_status prc = ct_tuned_load(db, set->family->name, set->dtype, v, set->device, &passes[v], &pe);
        if (prc == CT_OK)
            sets[v] = &passes[v];
        else if (prc != CT_ERR_NOT_FOUND)
            rc = ct_fail(e, prc, "%s", pe.msg);
        nsets = v + 1;
    }
    if (rc == CT_OK)
        rc = ct_export_torch_family(sets, nsets, a->templates, a->out ? a->out : ".", a->force, e);
    if (rc == CT_OK) {
        printf("%s/convtune_%s.py: PyTorch module of %d tuned %s problems on %s", a->out ? a->out : ".",
               set->name, set->n, set->name, set->device);
        for (int v = 1; v < nsets; v++)
            if (sets[v])
                printf(", %d of %s", sets[v]->n, sets[v]->name);
        printf(", with the .cu and .h of each and the runtime %s\n", CT_TORCH_RUNTIME);
    }
    for (int v = 1; v < nsets; v++)
        if (sets[v])
            ct_tuned_free(&passes[v]);
    return rc;
}

/* export --family F: every tuned problem of F in one type (and pass) on one
 * device, one file. */
static int cmd_export_family(const args *a)
{
    ct_dtype dt = CT_DTYPE_F32;
    if (a->dtype && !dtype_arg(a->dtype, &dt))
        return CT_ERR_USAGE;
    const ct_family *fam = ct_family_find(a->family);
    if (!fam) {
        say(0, "export --family: unknown family '%s'", ECHO(a->family));
        return CT_ERR_USAGE;
    }
    int variant = 0;
    if (a->pass && !pass_arg(fam, a->pass, &variant))
        return CT_ERR_USAGE;
    if (a->torch && a->pass) {   /* one module holds the op and every tuned pass of it */
        say(0, "export --family %s --torch: --pass does not apply: the module holds the forward op and every "
            "tuned training pass of it; drop --pass", fam->name);
        return CT_ERR_USAGE;
    }
    ct_config cfg;
    int r = load_config(a, &cfg);
    if (r)
        return r;
    ct_db *db;
    if ((r = open_existing_db(a, &db)))
        return r;
    ct_tuned_set set;
    ct_err e;
    ct_status rc = ct_tuned_load(db, a->family, dt, variant, a->device, &set, &e);
    if (rc != CT_OK) {
        ct_db_close(db);
        return die(rc, e.msg);
    }
    char path[1024], hpath[1100];
    if (a->out && (rc = ct_path_copy(path, sizeof path, a->out, "-o", CT_ERR_IO, &e)) != CT_OK) {
        ct_db_close(db);
        ct_tuned_free(&set);
        return die(rc, e.msg);
    }
    if (!a->out)
        ct_export_family_default_path(set.name, path, sizeof path);
    ct_export_header_path(path, hpath, sizeof hpath);
    if (a->torch) {   /* -o is the directory; export_torch.h */
        rc = export_torch_family(a, db, &set, &e);
    } else if ((rc = ct_export_family(&set, a->templates, path, a->force, &e)) == CT_OK)
        printf("%s and %s: %d tuned %s problems on %s (%s), a generic kernel and the selector convtune_%s\n",
               path, hpath, set.n, set.name, set.device,
               set.device_auto ? "the device with the most tuned problems" : "as asked", set.name);
    ct_db_close(db);
    ct_tuned_free(&set);
    return rc == CT_OK ? 0 : die(rc, e.msg);
}

/* The baselines of one (problem, device) of a query's rows: looked up
 * between the query's two passes, since the database is held while a query
 * calls back. */
typedef struct pair_base {
    char problem[160], device[128], family[32];
    ct_cudnn_stored cudnn;
    ct_row_baselines b;
} pair_base;

typedef struct pairs {
    pair_base *v;
    int n, cap, oom;
    int at;                    /* the pair of the row being written */
} pairs;

/* ct_db_query callback of the first pass: the distinct (problem, device)
 * pairs, which come in order (the query sorts by problem, then device). */
static int collect_pair(const ct_result *r, void *user)
{
    pairs *ps = user;
    if (ps->n && !strcmp(ps->v[ps->n - 1].problem, r->problem) && !strcmp(ps->v[ps->n - 1].device, r->device))
        return 0;
    if (ps->n == ps->cap) {
        int cap = ps->cap ? 2 * ps->cap : 16;
        pair_base *v = realloc(ps->v, (size_t)cap * sizeof *v);
        if (!v) {
            ps->oom = 1;
            return 1;
        }
        ps->v = v;
        ps->cap = cap;
    }
    pair_base *pb = &ps->v[ps->n++];
    memset(pb, 0, sizeof *pb);
    snprintf(pb->problem, sizeof pb->problem, "%s", r->problem);
    snprintf(pb->device, sizeof pb->device, "%s", r->device);
    snprintf(pb->family, sizeof pb->family, "%s", r->family);
    return 0;
}

/* Look up each pair's stored cuDNN baseline (db_cudnn.h) and the time of
 * its family's naive kernel (the fastest of the newest run that verified
 * one), as tune printed them and report shows them. */
static ct_status lookup_pairs(ct_db *db, pairs *ps, ct_err *e)
{
    for (int i = 0; i < ps->n; i++) {
        pair_base *pb = &ps->v[i];
        ct_status rc = ct_db_cudnn(db, pb->problem, pb->device, &pb->cudnn, e);
        if (rc != CT_OK)
            return rc;
        pb->b.cudnn = &pb->cudnn;
        pb->b.naive_us = NAN;
        const ct_family *f = ct_family_find(pb->family);
        for (int t = 0; f && t < f->ntemplates && !(pb->b.naive_us > 0); t++) {
            double us = 0;
            ct_err ne;
            if (f->templates[t].is_baseline &&
                ct_db_baseline_us(db, pb->problem, pb->device, f->templates[t].name, &us, &ne) == CT_OK && us > 0)
                pb->b.naive_us = us;
        }
    }
    return CT_OK;
}

/* ct_baselines_fn of the second pass: the rows come in the first pass's
 * order, so the pair is the current one or a later one. */
static const ct_row_baselines *row_baselines(const ct_result *r, void *user)
{
    pairs *ps = user;
    for (int k = 0; k < ps->n; k++) {
        int i = (ps->at + k) % ps->n;
        if (!strcmp(ps->v[i].problem, r->problem) && !strcmp(ps->v[i].device, r->device)) {
            ps->at = i;
            return &ps->v[i].b;
        }
    }
    return NULL;
}

/* Below a table: what its cuDNN columns mean, and each different reason a
 * row's cuDNN_us says none, once, with the problems it applies to counted. */
static void table_notes(const pairs *ps)
{
    printf("\nvs_cuDNN: cuDNN's time (cuDNN_us: the stored baseline, TF32 off for fp32) over median_us; "
           "vs_naive: convtune's naive kernel's time over median_us\n");
    for (int i = 0; i < ps->n; i++) {
        char why[300], other[300];
        if (ps->v[i].cudnn.us > 0)
            continue;
        ct_cudnn_stored_none(&ps->v[i].cudnn, why, sizeof why);
        int first = 1, count = 0;
        for (int k = 0; k < ps->n; k++) {
            if (ps->v[k].cudnn.us > 0 || strcmp(why, ct_cudnn_stored_none(&ps->v[k].cudnn, other, sizeof other)))
                continue;
            first &= k >= i;
            count++;
        }
        if (!first)
            continue;
        for (char *c = why; *c; c++)   /* stored text: one line, as the table's cells */
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
        if (ps->n == 1)
            printf("cuDNN_us none: %s\n", why);
        else
            printf("cuDNN_us none: %s (%d of the %d problem/device pairs above)\n", why, count, ps->n);
    }
}

int cmd_query(const args *a)
{
    if ((a->given & OPT(ALL)) && (a->given & OPT(WINNERS)))
        return die(CT_ERR_USAGE, "query takes --all or --winners, not both");
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
    if (a->family && !ct_family_find(a->family)) {
        say(0, "--family: unknown family '%s'", ECHO(a->family));
        return CT_ERR_USAGE;
    }
    ct_db *db;
    int r = open_existing_db(a, &db);
    if (r)
        return r;
    ct_query q = {.problem = a->problem ? p.canonical : NULL, .device = a->device, .family = a->family,
                  .winners_only = !a->all};
    /* Nothing matched is exit 6 with a line saying so, not an empty table
     * on stdout: a first pass collects the (problem, device) pairs, whose
     * baselines are looked up before the rows are written. */
    pairs ps = {0};
    ct_status rc = ct_db_query(db, &q, collect_pair, &ps, &e);
    if (rc == CT_OK && ps.oom)
        rc = ct_fail(&e, CT_ERR_INTERNAL, "out of memory");
    if (rc == CT_OK)
        rc = lookup_pairs(db, &ps, &e);
    if (rc != CT_OK || !ps.n) {
        ct_db_close(db);
        free(ps.v);
        if (rc != CT_OK)
            return die(rc, e.msg);
        char what[600];
        snprintf(what, sizeof what, "%s%s%s%s%s%s%s", a->problem ? " --problem " : "", a->problem ? p.canonical : "",
                 a->device ? " --device '" : "", a->device ? a->device : "", a->device ? "'" : "",
                 a->family ? " --family " : "", a->family ? a->family : "");
        say(0, "nothing stored matches%s", what[0] ? what : " (the database is empty)");
        return CT_ERR_NOT_FOUND;
    }
    ct_writer *w = ct_writer_begin_with(stdout, fmt, row_baselines, &ps);
    if (!w) {
        ct_db_close(db);
        free(ps.v);
        return die(CT_ERR_INTERNAL, "out of memory");
    }
    rc = ct_db_query(db, &q, ct_writer_cb, w, &e);
    int werr = ct_writer_end(w);
    ct_db_close(db);
    if (rc == CT_OK && !werr && fmt == CT_FMT_TABLE) {
        table_notes(&ps);
        werr = fflush(stdout) != 0 || ferror(stdout);
    }
    free(ps.v);
    if (rc != CT_OK)
        return die(rc, e.msg);
    if (werr)
        return die(CT_ERR_IO, "cannot write the query output");
    return 0;
}

int cmd_export(const args *a)
{
    if (a->family && a->problem)
        return die(CT_ERR_USAGE, "export takes --problem SPEC or --family F, not both");
    if (a->dtype && !a->family)
        return die(CT_ERR_USAGE, "--dtype applies to export --family only (a problem's type is the last token "
                                 "of its SPEC)");
    if (a->pass && !a->family)
        return die(CT_ERR_USAGE, "--pass applies to export --family only (a problem's pass is a token of its "
                                 "SPEC)");
    /* A pair (or the four files of --torch) cannot share one stream. */
    int r = refuse_stdout_pair(a, "export", a->torch ? "a folder of files (.cu, .h, binding and module)"
                                                     : "two files (FILE.cu and its header FILE.h)");
    if (r)
        return r;
    if (a->family)
        return cmd_export_family(a);
    ct_problem p;
    ct_config cfg;
    if ((r = need_problem_config(a, &p, &cfg)))
        return r;
    ct_db *db;
    if ((r = open_existing_db(a, &db)))
        return r;
    ct_result rec;
    ct_cudnn_stored cudnn;
    ct_err e;
    ct_status rc = ct_db_best(db, p.canonical, a->device, &rec, &e);
    if (rc == CT_OK)   /* the header states it against the winner, on the winner's device */
        rc = ct_db_cudnn(db, rec.problem, rec.device, &cudnn, &e);
    ct_db_close(db);
    if (rc == CT_ERR_NOT_FOUND)
        return die(rc, a->device ? "no verified result for this problem on that device; tune it first"
                                 : "no verified result for this problem; tune it first");
    if (rc != CT_OK)
        return die(rc, e.msg);
    if (a->torch) {   /* -o is the directory; export_torch.h */
        if ((rc = ct_export_torch(&rec, &cudnn, a->templates, a->out ? a->out : ".", a->force, cfg.s.tolerance, &e)))
            return die(rc, e.msg);
        printf("%s: PyTorch module of %s %s, %.2f us on %s, with its .cu, .h and binding\n",
               a->out ? a->out : ".", rec.tmpl, rec.params_json, rec.median_us, rec.device);
        return 0;
    }
    char path[1024];
    if (a->out && (rc = ct_path_copy(path, sizeof path, a->out, "-o", CT_ERR_IO, &e)) != CT_OK)
        return die(rc, e.msg);
    if (!a->out)
        ct_export_default_path(p.canonical, path, sizeof path);
    if ((rc = ct_export_cu(&rec, &cudnn, a->templates, path, a->force, cfg.s.tolerance, &e)) != CT_OK)
        return die(rc, e.msg);
    char hpath[1100];
    ct_export_header_path(path, hpath, sizeof hpath);
    printf("%s and %s: %s %s, %.2f us on %s\n", path, hpath, rec.tmpl, rec.params_json, rec.median_us, rec.device);
    return 0;
}
