/* selector.c - the tuned set of a family on a device and the graded choice
 * among it (selector.h). */
#include "selector.h"

#include "family_export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ct_grade_name(ct_grade g)
{
    switch (g) {
    case CT_GRADE_EXACT:
        return "exact";
    case CT_GRADE_NEAREST_SIZE:
        return "nearest_size";
    case CT_GRADE_OTHER_DEVICE:
        return "other_device";
    case CT_GRADE_GENERIC:
        return "generic";
    }
    return "?";
}

unsigned ct_tuned_block(const ct_tuned_set *s, int i)
{
    if (!s || i < 0 || i >= s->n)
        return CT_GENERIC_BLOCK;
    const ct_problem *p = &s->probs[i];
    const ct_template *t = ct_template_find(p->family, s->recs[i].tmpl);
    if (!t || !s->recs[i].params_ok)
        return CT_GENERIC_BLOCK;
    ct_launch l;
    p->family->geometry(p, t, &s->recs[i].params, &l);
    unsigned b = l.block[0] * l.block[1] * l.block[2];
    return b >= 32 && b <= 1024 && b % 32 == 0 ? b : CT_GENERIC_BLOCK;
}

void ct_select(const ct_tuned_set *s, const ct_problem *p, const char *running_device, ct_choice *out)
{
    out->grade = CT_GRADE_GENERIC;
    out->index = -1;
    out->distance = -1;
    if (!s || !p)
        return;
    for (int i = 0; i < s->n; i++) {
        if (ct_problem_equal(&s->probs[i], p)) {
            out->grade = CT_GRADE_EXACT;
            out->index = i;
            out->distance = 0;
            break;
        }
    }
    if (out->index < 0) {
        for (int i = 0; i < s->n; i++) {
            double d = ct_problem_distance(&s->probs[i], p);
            if (d < 0)
                continue;
            if (out->index < 0 || d < out->distance - CT_DISTANCE_TIE) {
                out->index = i;
                out->distance = d;
            }
        }
        if (out->index >= 0)
            out->grade = CT_GRADE_NEAREST_SIZE;
    }
    if (out->index >= 0 && running_device && strcmp(running_device, s->device) != 0)
        out->grade = CT_GRADE_OTHER_DEVICE;
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                  */

typedef struct rows {
    ct_result *v;
    int n, cap;
    int oom;
    ct_dtype dtype;            /* only rows of problems of this type */
    int variant;               /* and of this variant */
} rows;

/* The index of the family export's variant field, -1 when none. */
static int variant_field(const ct_family *f)
{
    const ct_family_export *fx = f->family_export;
    return fx && fx->variant ? ct_field_find(f, fx->variant) : -1;
}

int ct_tuned_variant(const ct_problem *p)
{
    const int v = p && p->family ? variant_field(p->family) : -1;
    return v >= 0 ? (int)p->dims[v] : 0;
}

/* Whether p enters the selector of variant: its fields after the
 * selector's arguments hold their defaults (0), the element type aside (a
 * set holds one) and the variant field, which must hold variant
 * (family_export.h: a layer's training pass has other buffers than its
 * forward pass, and a selector of its own). */
static int in_selector(const ct_problem *p, int variant)
{
    const ct_family_export *fx = p->family->family_export;
    const int vf = variant_field(p->family);
    for (int i = fx ? fx->nargs : p->family->nfields; i < p->family->nfields; i++)
        if (i == vf ? p->dims[i] != variant : strcmp(p->family->fields[i].name, "dtype") != 0 && p->dims[i] != 0)
            return 0;
    return 1;
}

static int collect(const ct_result *r, void *user)
{
    rows *rs = user;
    /* A row whose problem does not parse is kept: the load below refuses it
     * by name rather than leaving it out silently. */
    ct_problem p;
    if (ct_problem_parse(r->problem, &p, NULL) == CT_OK && (ct_problem_dtype(&p) != rs->dtype || !in_selector(&p, rs->variant)))
        return 0;
    if (rs->n == rs->cap) {
        int cap = rs->cap ? 2 * rs->cap : 64;
        ct_result *v = realloc(rs->v, (size_t)cap * sizeof *v);
        if (!v) {
            rs->oom = 1;
            return 1;
        }
        rs->v = v;
        rs->cap = cap;
    }
    rs->v[rs->n++] = *r;
    return 0;
}

typedef struct entry {
    ct_result rec;
    ct_problem prob;
} entry;

static int entry_cmp(const void *x, const void *y)
{
    return ct_problem_compare(&((const entry *)x)->prob, &((const entry *)y)->prob);
}

/* Number of distinct problems among rs with device name dev. */
static int problems_on(const rows *rs, const char *dev)
{
    int count = 0;
    for (int i = 0; i < rs->n; i++) {
        if (strcmp(rs->v[i].device, dev) != 0)
            continue;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = !strcmp(rs->v[j].device, dev) && !strcmp(rs->v[j].problem, rs->v[i].problem);
        count += !seen;
    }
    return count;
}

const char *ct_tuned_name(const char *family, const char *variant, ct_dtype t, char *buf, size_t len)
{
    const char *sep = variant && *variant ? "_" : "";
    if (t == CT_DTYPE_F32)
        snprintf(buf, len, "%s%s%s", family, sep, *sep ? variant : "");
    else
        snprintf(buf, len, "%s%s%s_%s", family, sep, *sep ? variant : "", ct_dtype_name(t));
    return buf;
}

/* The choice name of f's variant value v ("dgrad"), NULL for 0 or none. */
static const char *variant_name(const ct_family *f, int v)
{
    const int vf = variant_field(f);
    if (vf < 0 || v == 0 || v < 0 || v >= f->fields[vf].nchoices || !f->fields[vf].choices)
        return NULL;
    return f->fields[vf].choices[v];
}

const char *ct_tuned_args(const ct_tuned_set *s, char *buf, size_t len)
{
    char var[80] = "";
    const char *vn = variant_name(s->family, s->variant);
    if (vn)
        snprintf(var, sizeof var, " --%s %s", s->family->family_export->variant, vn);
    if (s->dtype == CT_DTYPE_F32)
        snprintf(buf, len, "%s%s", s->family->name, var);
    else
        snprintf(buf, len, "%s%s --dtype %s", s->family->name, var, ct_dtype_name(s->dtype));
    return buf;
}

ct_status ct_tuned_load(ct_db *db, const char *family, ct_dtype dtype, int variant, const char *device,
                        ct_tuned_set *out, ct_err *e)
{
    memset(out, 0, sizeof *out);
    const ct_family *fam = family ? ct_family_find(family) : NULL;
    if (!fam)
        return ct_fail(e, CT_ERR_USAGE, "unknown family '%s'", family ? family : "");
    if ((unsigned)dtype >= CT_NDTYPES)
        return ct_fail(e, CT_ERR_USAGE, "unknown element type %d", (int)dtype);
    out->family = fam;
    out->dtype = dtype;
    out->variant = variant;
    out->fx = ct_family_export_variant(fam, variant);
    const char *vn = variant_name(fam, variant);
    if (variant != 0 && !out->fx)
        return ct_fail(e, CT_ERR_USAGE, "family %s has no selector for %s %s", fam->name,
                       fam->family_export && fam->family_export->variant ? fam->family_export->variant : "variant",
                       vn ? vn : "?");
    ct_tuned_name(fam->name, vn, dtype, out->name, sizeof out->name);
    /* "bf16 " in messages about a half set, "dgrad " about a variant's;
     * nothing for the forward fp32 set, as before */
    char tn[48] = "";
    if (dtype != CT_DTYPE_F32 || vn)
        snprintf(tn, sizeof tn, "%s%s%s", dtype != CT_DTYPE_F32 ? ct_dtype_name(dtype) : "",
                 dtype != CT_DTYPE_F32 && vn ? " " : "", vn ? vn : "");
    if (tn[0])
        strcat(tn, " ");
    if (device && !*device)
        device = NULL;

    rows rs = {.dtype = dtype, .variant = variant};
    ct_query q = {.family = fam->name, .device = device, .winners_only = 1};
    ct_status st = ct_db_query(db, &q, collect, &rs, e);
    if (st == CT_OK && rs.oom)
        st = ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    if (st != CT_OK) {
        free(rs.v);
        return st;
    }
    if (rs.n == 0) {
        free(rs.v);
        if (device)
            return ct_fail(e, CT_ERR_NOT_FOUND, "no tuned %s%s problem on a device matching '%s'", tn, fam->name,
                           device);
        return ct_fail(e, CT_ERR_NOT_FOUND, "no tuned %s%s problem in the database; tune one first", tn, fam->name);
    }

    /* The distinct device names (rows come grouped by problem, then name). */
    const char *chosen = NULL;
    int best_count = -1;
    for (int i = 0; i < rs.n; i++) {
        const char *name = rs.v[i].device;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = !strcmp(rs.v[j].device, name);
        if (seen)
            continue;
        out->ndevices++;
        if (device) {
            if (!strcmp(name, device))
                chosen = name;                         /* an exact name wins */
        } else {
            int c = problems_on(&rs, name);
            if (c > best_count || (c == best_count && strcmp(name, chosen) < 0)) {
                best_count = c;
                chosen = name;
            }
        }
    }
    if (device && !chosen) {
        if (out->ndevices == 1) {
            chosen = rs.v[0].device;
        } else {
            char list[600] = "";
            size_t o = 0;
            for (int i = 0; i < rs.n && o < sizeof list; i++) {
                int seen = 0;
                for (int j = 0; j < i && !seen; j++)
                    seen = !strcmp(rs.v[j].device, rs.v[i].device);
                if (!seen)
                    o += (size_t)snprintf(list + o, sizeof list - o, "%s'%s'", o ? ", " : "", rs.v[i].device);
            }
            free(rs.v);
            return ct_fail(e, CT_ERR_USAGE, "--device '%s' matches several devices: %s; give the full name",
                           device, list);
        }
    }
    snprintf(out->device, sizeof out->device, "%s", chosen);
    out->device_auto = device == NULL;
    if (device)
        out->ndevices = 0;        /* only counted when choosing */

    /* One winner per problem on that device: the fastest over its rows
     * (several when the driver or NVRTC changed between runs). */
    entry *ents = calloc((size_t)rs.n, sizeof *ents);
    if (!ents) {
        free(rs.v);
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    }
    int n = 0;
    for (int i = 0; i < rs.n; i++) {
        const ct_result *r = &rs.v[i];
        if (strcmp(r->device, out->device) != 0)
            continue;
        int k = 0;
        while (k < n && strcmp(ents[k].rec.problem, r->problem) != 0)
            k++;
        if (k < n) {
            if (r->median_us < ents[k].rec.median_us ||
                (r->median_us == ents[k].rec.median_us && r->id < ents[k].rec.id))
                ents[k].rec = *r;
            continue;
        }
        ct_err pe = {""};
        if (ct_problem_parse(r->problem, &ents[n].prob, &pe) != CT_OK || ents[n].prob.family != fam) {
            ct_status bad = ct_fail(e, CT_ERR_DB, "stored problem '%s' is not a valid %s problem%s%s",
                                    r->problem, fam->name, pe.msg[0] ? ": " : "", pe.msg);
            free(ents);
            free(rs.v);
            return bad;
        }
        ents[n].rec = *r;
        n++;
    }
    free(rs.v);
    if (n == 0) {   /* not reached: the chosen device has a row */
        free(ents);
        return ct_fail(e, CT_ERR_NOT_FOUND, "no tuned %s%s problem on %s", tn, fam->name, out->device);
    }
    qsort(ents, (size_t)n, sizeof *ents, entry_cmp);
    out->recs = calloc((size_t)n, sizeof *out->recs);
    out->probs = calloc((size_t)n, sizeof *out->probs);
    if (!out->recs || !out->probs) {
        free(ents);
        ct_tuned_free(out);
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        out->recs[i] = ents[i].rec;
        out->probs[i] = ents[i].prob;
    }
    out->n = n;
    snprintf(out->arch, sizeof out->arch, "%s", out->recs[0].arch);
    free(ents);
    /* The vendor baseline of each, which the family export's comment states. */
    if (!(out->cudnn = calloc((size_t)n, sizeof *out->cudnn))) {
        ct_tuned_free(out);
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        ct_status rc = ct_db_cudnn(db, out->recs[i].problem, out->recs[i].device, &out->cudnn[i], e);
        if (rc != CT_OK) {
            ct_tuned_free(out);
            return rc;
        }
    }
    return CT_OK;
}

void ct_tuned_free(ct_tuned_set *s)
{
    if (!s)
        return;
    free(s->recs);
    free(s->probs);
    free(s->cudnn);
    s->recs = NULL;
    s->probs = NULL;
    s->cudnn = NULL;
    s->n = 0;
}
