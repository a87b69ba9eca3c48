/* retime.c - the best candidates timed again on one GPU (retime.h). */
#include "retime.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile.h"
#include "tune_report.h"

int ct_retime_one(ct_worker *wk, ct_compile_pool *pl, const ct_problem *p, ct_result *r, ct_result *oc)
{
    const ct_template *t = ct_template_find(p->family, r->tmpl);
    ct_result_init(oc);
    if (!t || !r->params_ok)
        return 0;
    ct_candidate cd = {.tmpl = t, .params = r->params};
    ct_compile_job jb = {.cand = &cd};
    ct_compile_job_run(pl, &jb);
    ct_err le;
    oc->status = jb.rc == CT_OK ? CT_RS_CRASHED : CT_RS_COMPILE_FAILED;
    snprintf(oc->error, sizeof oc->error, "%.500s", jb.rc == CT_OK ? "" : jb.err.msg);
    int ok = jb.rc == CT_OK && ct_worker_run(wk, ct_template_index(p, t), &cd.params, &jb.bin, 0, oc, &le) == CT_OK &&
             oc->status == CT_RS_OK;
    ct_binary_free(&jb.bin);
    if (ok)
        ct_result_take_measured(r, oc);
    return ok;
}

/* The verified candidates of one GPU model, each (template, params) once
 * at its fastest. */
typedef struct best_set {
    const char *device;
    ct_result *v;
    int n, cap;
} best_set;

static int collect(const ct_result *r, void *user)
{
    best_set *b = user;
    if (strcmp(r->device, b->device) != 0)
        return 0;
    for (int i = 0; i < b->n; i++)
        if (!strcmp(b->v[i].tmpl, r->tmpl) && !strcmp(b->v[i].params_json, r->params_json)) {
            if (r->median_us < b->v[i].median_us)
                b->v[i] = *r;
            return 0;
        }
    if (b->n == b->cap) {
        int nc = b->cap ? 2 * b->cap : 64;
        ct_result *nv = realloc(b->v, (size_t)nc * sizeof *nv);
        if (!nv)
            return 1;
        b->v = nv;
        b->cap = nc;
    }
    b->v[b->n++] = *r;
    return 0;
}

static int by_median(const void *a, const void *b)
{
    const ct_result *x = a, *y = b;
    return (x->median_us > y->median_us) - (x->median_us < y->median_us);
}

ct_status ct_retime(const ct_retime_opts *o, ct_err *e)
{
    const ct_problem *pp = o->problem, p = *pp;
    ct_status rc = CT_OK;
    if (access(o->db_path, F_OK) != 0)
        return ct_fail(e, CT_ERR_NOT_FOUND, "retime: no database at %s", o->db_path);
    ct_worker *wk = NULL;
    ct_worker_device dev;
    ct_db *db = NULL;
    best_set b = {0};
    ct_family_sources src = {0};
    ct_compile_pool pl = {0};
    ct_worker_spec ws = {.exe = o->worker_exe ? o->worker_exe : "/proc/self/exe", .gpu = o->gpu,
                         .problem = pp, .seed = o->cfg->s.seed ? o->cfg->s.seed : 1,
                         .templates_dir = o->templates_dir, .settings = o->cfg->s};
    if ((rc = ct_db_open(o->db_path, 1, &db, e)) != CT_OK || (rc = ct_worker_start(&ws, &wk, &dev, e)) != CT_OK)
        goto out;
    b.device = dev.info.name;
    ct_query q = {.problem = p.canonical, .ok_only = 1};
    if ((rc = ct_db_query(db, &q, collect, &b, e)) != CT_OK)
        goto out;
    if (b.n == 0) {
        rc = ct_fail(e, CT_ERR_NOT_FOUND, "retime: %s holds no verified candidate of %s on an %s", o->db_path,
                     p.canonical, dev.info.name);
        goto out;
    }
    qsort(b.v, (size_t)b.n, sizeof *b.v, by_median);
    int ntop = o->top < b.n ? o->top : b.n;
    if ((rc = ct_family_sources_load(p.family, o->templates_dir, &src, e)) != CT_OK)
        goto out;
    ct_compile_pool_init(&pl, &p, dev.arch, (const char *const *)src.text, o->cache_dir);
    if ((rc = ct_worker_workload(wk, e)) != CT_OK)
        goto out;
    fprintf(o->out, "convtune retime: the best %d of %d verified candidates of %s, on GPU %d (%s), back to back\n",
            ntop, b.n, p.canonical, o->gpu, dev.info.name);
    fprintf(o->out, "  rank  stored_us  retimed_us  template params\n");
    int done = 0;
    for (int i = 0; i < ntop; i++) {
        ct_result *r = &b.v[i];
        double before = r->median_us;
        ct_result oc;
        if (!ct_retime_one(wk, &pl, &p, r, &oc)) {
            fprintf(o->out, "  %4d %10.2f  %10s  %s %s (did not verify again: %s)\n", i + 1, before, "-", r->tmpl,
                    r->params_json, oc.error[0] ? oc.error : ct_result_status_name(oc.status));
            r->median_us = 1e300;   /* never the winner */
            continue;
        }
        if ((rc = ct_db_candidate_retime(db, r->id, r, e)) != CT_OK)
            goto out;
        done++;
        char how[96];
        fprintf(o->out, "  %4d %10.2f  %10.2f  %s %s  (%s)\n", i + 1, before, r->median_us, r->tmpl, r->params_json,
                ct_tune_timing_text(r, how, sizeof how));
    }
    if (done == 0) {
        rc = ct_fail(e, CT_ERR_NO_RESULT, "retime: none of the best %d candidates verified again on GPU %d", ntop,
                     o->gpu);
        goto out;
    }
    qsort(b.v, (size_t)ntop, sizeof *b.v, by_median);
    fprintf(o->out, "winner: %s %s: %.2f us (stored)\nexport: convtune export --problem %s\n", b.v[0].tmpl,
            b.v[0].params_json, b.v[0].median_us, p.canonical);
out:
    ct_family_sources_free(&src);
    free(b.v);
    ct_worker_stop(wk);
    if (db)
        ct_db_close(db);
    return rc;
}
