/* resume.c - stored outcomes and nearby winners for a new run (resume.h). */
#include "resume.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codehash.h"
#include "timing.h"

static void entry_key(const char *tmpl, const ct_params *c, char *key, size_t len)
{
    int n = snprintf(key, len, "%s ", tmpl);
    if (n < 0 || (size_t)n >= len || ct_params_to_key(c, key + n, len - (size_t)n) != CT_OK)
        key[0] = '\0';
}

static int stored_cb(const ct_result *r, void *user)
{
    ct_resume *s = user;
    const ct_template *t = ct_template_find(s->fam, r->tmpl);
    if (!t || !r->params_ok)
        return 0;
    const int ti = (int)(t - s->fam->templates);
    char code[17];
    if (ct_code_candidate_hash(s->canons[ti], s->p, t, &r->params, code, NULL) != CT_OK)
        return 1;   /* out of memory: reuse what was read so far */
    int same = 0;
    if (ct_code_judge(r, s->hashes[ti], code, s->p, t, &r->params, s->templates_dir, &same, NULL) != CT_OK)
        return 1;
    if (!same)
        return 0;   /* measured other code: an older version of the template */
    if (s->n == s->cap) {
        int nc = s->cap ? 2 * s->cap : 256;
        ct_resume_entry *nv = realloc(s->v, (size_t)nc * sizeof *nv);
        if (nv)
            s->v = nv;
        int *nf = nv ? realloc(s->fill, (size_t)nc * sizeof *nf) : NULL;
        if (!nf)
            return 1;
        s->fill = nf;
        s->cap = nc;
    }
    entry_key(r->tmpl, &r->params, s->v[s->n].key, sizeof s->v[s->n].key);
    s->v[s->n].rec = *r;
    if (!r->code_hash[0]) {
        memcpy(s->v[s->n].rec.code_hash, code, sizeof code);
        s->fill[s->nfill++] = s->n;
    }
    s->n++;
    return 0;
}

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const ct_resume_entry *)a)->key, ((const ct_resume_entry *)b)->key);
}

ct_status ct_resume_load(ct_db *db, const ct_problem *p, const long long *device_ids, int n,
                         const char (*hashes)[17], const char *const *canons, const char *templates_dir,
                         ct_resume *out, ct_err *e)
{
    memset(out, 0, sizeof *out);
    out->templates_dir = templates_dir;
    out->hashes = hashes;
    out->canons = canons;
    out->p = p;
    out->fam = p->family;
    for (int k = 0; k < n; k++) {
        ct_query q = {.problem = p->canonical, .device_id = device_ids[k]};
        ct_status rc = ct_db_query(db, &q, stored_cb, out, e);
        if (rc != CT_OK)
            return rc;
    }
    /* After the queries, which hold the connection while they call back. */
    if (out->nfill) {
        long long *ids = malloc((size_t)out->nfill * sizeof *ids);
        char(*codes)[17] = malloc((size_t)out->nfill * sizeof *codes);
        ct_status rc = ids && codes ? CT_OK : ct_fail(e, CT_ERR_INTERNAL, "out of memory");
        for (int i = 0; rc == CT_OK && i < out->nfill; i++) {
            ids[i] = out->v[out->fill[i]].rec.id;
            memcpy(codes[i], out->v[out->fill[i]].rec.code_hash, 17);
        }
        if (rc == CT_OK)
            rc = ct_db_candidates_set_code_hash(db, ids, (const char(*)[17])codes, out->nfill, e);
        free(ids);
        free(codes);
        if (rc != CT_OK)
            return rc;
    }
    if (out->n)
        qsort(out->v, (size_t)out->n, sizeof *out->v, cmp_entry);
    return CT_OK;
}

const ct_result *ct_resume_find(const ct_resume *s, const ct_template *t, const ct_params *c)
{
    if (!s->n)
        return NULL;
    ct_resume_entry q;
    entry_key(t->name, c, q.key, sizeof q.key);
    const ct_resume_entry *hit = bsearch(&q, s->v, (size_t)s->n, sizeof *s->v, cmp_entry);
    return hit ? &hit->rec : NULL;
}

int ct_resume_stale(const ct_result *r)
{
    return r->status == CT_RS_OK && !r->timing[0] && r->median_us < CT_BATCH_BELOW_US;
}

int ct_resume_count_stale(const ct_resume *s)
{
    int n = 0;
    for (int i = 0; i < s->n; i++)
        n += ct_resume_stale(&s->v[i].rec);
    return n;
}

void ct_resume_free(ct_resume *s)
{
    free(s->v);
    free(s->fill);
    memset(s, 0, sizeof *s);
}

typedef struct near_ctx {
    const ct_problem *p;
    const char *device;
    struct {
        double dist;
        ct_result rec;
    } best[3];
    int n;
    /* The rows come grouped by problem: each stored problem is parsed once. */
    char last[sizeof ((ct_problem *)0)->canonical];
    double last_dist;              /* of the last problem, -1 when unusable */
} near_ctx;

/* The selector's distance; a winner that differs in fields other than sizes
 * (another mode, pad or bias) still makes a useful start, one unit further
 * away per such field: q takes p's value in those before it is measured. */
static double start_distance(const ct_problem *p, ct_problem *q)
{
    const ct_family *f = p->family;
    if (q->family != f)
        return -1;
    int differ = 0;
    for (int i = 0; i < f->nfields; i++)
        if (f->fields[i].kind != CT_FIELD_SIZE && q->dims[i] != p->dims[i]) {
            q->dims[i] = p->dims[i];
            differ++;
        }
    double l = ct_problem_distance(q, p);
    return l < 0 ? -1 : sqrt(l * l + differ);
}

static int near_cb(const ct_result *r, void *user)
{
    near_ctx *x = user;
    if (x->device && strcmp(r->device, x->device) != 0)
        return 0;
    if (strcmp(r->problem, x->last) != 0) {
        snprintf(x->last, sizeof x->last, "%s", r->problem);
        ct_problem q;
        x->last_dist = ct_problem_parse(r->problem, &q, NULL) == CT_OK ? start_distance(x->p, &q) : -1;
    }
    double d = x->last_dist;
    if (d < 0)
        return 0;
    int slot = x->n < 3 ? x->n++ : -1;
    if (slot < 0) {
        slot = 0;
        for (int i = 1; i < 3; i++)
            if (x->best[i].dist > x->best[slot].dist)
                slot = i;
        if (x->best[slot].dist <= d)
            return 0;
    }
    x->best[slot].dist = d;
    x->best[slot].rec = *r;
    return 0;
}

void ct_resume_nearest_starts(ct_db *db, const ct_problem *p, const char *device, ct_search *srch, FILE *out)
{
    near_ctx x = {.p = p, .device = device};
    ct_query q = {.family = p->family->name, .winners_only = 1};
    if (ct_db_query(db, &q, near_cb, &x, NULL) != CT_OK)
        return;
    for (int i = 0; i < x.n; i++) {
        const ct_result *r = &x.best[i].rec;
        const ct_template *t = ct_template_find(p->family, r->tmpl);
        if (!t || !r->params_ok)
            continue;
        ct_search_add_start(srch, t, &r->params);
        fprintf(out, "  starting near %s (log-size distance %.2f): %s %s\n", r->problem, x.best[i].dist, t->name,
                r->params_json);
    }
}
