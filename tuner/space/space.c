/* space.c - enumeration, normalisation and constraints of candidates. */
#include "space.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned long long ct_rand_next(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int same_params(const ct_params *a, const ct_params *b)
{
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->values[i] != b->values[i] ||
            (a->names[i] != b->names[i] && strcmp(a->names[i], b->names[i]) != 0))
            return 0;
    return 1;
}

/* Open-addressed set of the parameter vectors seen, so deduplicating
 * hundreds of thousands of combinations stays linear. A slot holds k + 1
 * for the admissible candidate s->cand[k], -(k + 1) for the rejected
 * vector k of the rejected store, 0 when empty. */
typedef struct seen_set {
    int *slot;
    size_t cap;
} seen_set;

/* The rejected vectors, kept only to count each once: their values, n a
 * vector (a template's names are the same for every combination), not whole
 * candidates in the space, which would move hundreds of megabytes on the
 * large conv2dc spaces where most combinations are rejected. */
typedef struct rejected_store {
    long *vals;
    int n, cap, width;
} rejected_store;

static ct_status rejected_push(rejected_store *r, const ct_params *p, ct_err *e)
{
    if (r->n == r->cap) {
        int nc = r->cap ? r->cap * 2 : 1024;
        long *nb = realloc(r->vals, (size_t)nc * (size_t)r->width * sizeof *nb);
        if (!nb)
            return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
        r->vals = nb;
        r->cap = nc;
    }
    memcpy(r->vals + (size_t)r->n * (size_t)r->width, p->values, (size_t)r->width * sizeof *p->values);
    r->n++;
    return CT_OK;
}

static unsigned long long params_hash(const ct_params *p)
{
    unsigned long long h = 1469598103934665603ULL;
    for (int i = 0; i < p->n; i++) {
        h ^= (unsigned long long)p->values[i] + 0x9E37u * (unsigned)i;
        h *= 1099511628211ULL;
    }
    return h;
}

/* Looks c up in the hash set of vectors with a value of no list (made, for
 * full combinations, on first use): 1 when seen before, else 0 and *slot
 * the empty slot for it; -1 out of memory. Admissible entries are
 * compared with s's candidates, rejected ones with the rejected store. */
static int seen_lookup(seen_set *seen, long long full, const ct_space *s, const rejected_store *rej,
                       const ct_params *c, size_t *slot)
{
    if (!seen->slot) {
        seen->cap = 1;
        while (seen->cap < (size_t)full * 2)
            seen->cap <<= 1;
        if (!(seen->slot = calloc(seen->cap, sizeof *seen->slot)))
            return -1;
    }
    size_t h = (size_t)params_hash(c) & (seen->cap - 1);
    for (int k; (k = seen->slot[h]) != 0; h = (h + 1) & (seen->cap - 1))
        if (k > 0 ? same_params(&s->cand[k - 1].params, c)
                  : !memcmp(rej->vals + (size_t)(-k - 1) * (size_t)rej->width, c->values,
                            (size_t)rej->width * sizeof *c->values))
            return 1;
    *slot = h;
    return 0;
}

static ct_status push(ct_space *s, int *cap, const ct_candidate *c, ct_err *e)
{
    if (s->n == *cap) {
        int nc = *cap ? *cap * 2 : 256;
        ct_candidate *nb = realloc(s->cand, (size_t)nc * sizeof *nb);
        if (!nb)
            return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
        s->cand = nb;
        *cap = nc;
    }
    s->cand[s->n++] = *c;
    return CT_OK;
}

/* The combination idx of t's value lists, in declaration order. A
 * template declares each name once (tests/core/test_params.c checks every
 * template), so this is what ct_params_set of each in turn gives, without
 * its name compares. */
static void fill(ct_params *c, const ct_template *t, const ct_space_list *const *lists, const int *idx)
{
    for (int i = 0; i < t->nparams; i++) {
        c->names[i] = t->params[i].name;
        c->values[i] = lists[i]->vals[idx[i]];
    }
    c->n = t->nparams;
}

/* The position of a normalised vector in the odometer order of t's value
 * lists, each value at its first position in its list, or -1 when a value
 * is in no list (a normalisation may compute one the lists lack). first[i][j]
 * is the first position of list i's value j, cur the combination the
 * vector came from (most values stay where they were). */
static long long list_position(const ct_params *c, const ct_space_list *const *lists,
                               int (*first)[CT_MAX_VALUES], const int *cur, const long long *weight, int n)
{
    long long pos = 0;
    for (int i = 0; i < n; i++) {
        const ct_space_list *l = lists[i];
        const long v = c->values[i];
        int j = -1;
        if (v == l->vals[cur[i]])
            j = first[i][cur[i]];
        else
            for (int k = 0; k < l->nvals && j < 0; k++)
                if (l->vals[k] == v)
                    j = k;
        if (j < 0)
            return -1;
        pos += j * weight[i];
    }
    return pos;
}

static ct_status build_template(const ct_problem *p, const ct_config *c, const ct_limits *lim,
                                const ct_template *t, ct_space *s, int *cap, ct_space_stats *st,
                                ct_err *e)
{
    const ct_space_list *lists[CT_MAX_PARAMS];
    long long full = 1;
    for (int i = 0; i < t->nparams; i++) {
        lists[i] = ct_config_list(c, t, t->params[i].name);
        if (!lists[i])
            return ct_fail(e, CT_ERR_CONFIG, "no value list for parameter %s of template %s "
                           "(add it under [space.%s])", t->params[i].name, t->name, t->name);
        full *= lists[i]->nvals;
    }
    st->tmpl = t;
    st->full = full;
    int first = s->n;
    /* Deduplication: a vector whose values all lie in the lists is one
     * bit at its list position (a bit set of the combinations is small
     * enough to stay in cache, where a hash set of them was not); the rare
     * vector with a value of no list goes to a hash set, made when first
     * needed. The two never hold equal vectors. */
    int first_pos[CT_MAX_PARAMS][CT_MAX_VALUES];
    long long weight[CT_MAX_PARAMS];
    for (int i = t->nparams - 1; i >= 0; i--) {
        weight[i] = i == t->nparams - 1 ? 1 : weight[i + 1] * lists[i + 1]->nvals;
        for (int j = 0; j < lists[i]->nvals; j++) {
            first_pos[i][j] = j;
            for (int k = 0; k < j; k++)
                if (lists[i]->vals[k] == lists[i]->vals[j]) {
                    first_pos[i][j] = k;
                    break;
                }
        }
    }
    unsigned long long *bits = calloc((size_t)(full + 63) / 64 + 1, sizeof *bits);
    if (!bits)
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    seen_set seen = {0};
    rejected_store rej = {.width = t->nparams};
    /* The element type's refusal names no parameter: asked once, not per
     * combination. */
    char type_why[256];
    const int type_refused = ct_template_refuses_dtype(p, t, type_why, sizeof type_why);
    int idx[CT_MAX_PARAMS] = {0};
    ct_status rc = CT_OK;
    (void)ct_params_faults(NULL);   /* count this template's misreads only */
    /* One candidate rewritten in place: fill sets every entry a
     * combination has, so clearing it once is enough. */
    ct_candidate cand = {.tmpl = t};
    int cur[CT_MAX_PARAMS];
    for (long long combo = 0; combo < full && rc == CT_OK; combo++) {
        fill(&cand.params, t, lists, idx);
        memcpy(cur, idx, sizeof cur);
        for (int i = t->nparams - 1; i >= 0; i--) {   /* odometer: last parameter fastest */
            if (++idx[i] < lists[i]->nvals)
                break;
            idx[i] = 0;
        }
        if (p->family->normalize)
            p->family->normalize(p, t, &cand.params);
        if (cand.params.n != rej.width) {   /* the rejected store holds declared lists only */
            rc = ct_fail(e, CT_ERR_INTERNAL, "template %s: normalisation changed its parameter list", t->name);
            break;
        }
        const long long pos = list_position(&cand.params, lists, first_pos, cur, weight, t->nparams);
        size_t h = 0;
        if (pos >= 0) {
            if (bits[pos / 64] >> (pos % 64) & 1)
                continue;
            bits[pos / 64] |= 1ULL << (pos % 64);
        } else {
            const int seen_before = seen_lookup(&seen, full, s, &rej, &cand.params, &h);
            if (seen_before < 0) {
                rc = ct_fail(e, CT_ERR_INTERNAL, "out of memory");
                break;
            }
            if (seen_before)
                continue;
        }
        st->distinct++;
        char why[256];
        const char *reason = type_refused ? type_why : NULL;
        if (!reason && p->family->constrain(p, t, &cand.params, lim, why, sizeof why))
            reason = why;
        if (reason) {
            if (!st->example_reject[0])
                snprintf(st->example_reject, sizeof st->example_reject, "%s", reason);
            if (pos < 0 && (rc = rejected_push(&rej, &cand.params, e)) == CT_OK)
                seen.slot[h] = -rej.n;
            continue;
        }
        rc = push(s, cap, &cand, e);
        if (rc == CT_OK && pos < 0)
            seen.slot[h] = s->n;
    }
    free(bits);
    free(seen.slot);
    free(rej.vals);
    /* A family that read a parameter its template lacks was handed a
     * default: its candidates cannot be trusted. */
    ct_err fe;
    if (rc == CT_OK && ct_params_faults(&fe) != CT_OK)
        rc = ct_fail(e, CT_ERR_INTERNAL, "template %s: %s", t->name, fe.msg);
    st->admissible = s->n - first;
    return rc;
}

ct_status ct_space_build(const ct_problem *p, const ct_config *c, const ct_limits *lim,
                         const char *only, ct_space *out, ct_err *e)
{
    memset(out, 0, sizeof *out);
    int cap = 0;
    const ct_family *f = p->family;
    int matched = 0;
    out->stats = calloc(f->ntemplates > 0 ? (size_t)f->ntemplates : 1, sizeof *out->stats);
    if (!out->stats)
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    for (int i = 0; i < f->ntemplates; i++) {
        const ct_template *t = &f->templates[i];
        if (only && strcmp(only, t->name) != 0)
            continue;
        matched = 1;
        ct_status rc = build_template(p, c, lim, t, out, &cap, &out->stats[out->ntemplates++], e);
        if (rc != CT_OK) {
            ct_space_free(out);
            return rc;
        }
    }
    if (only && !matched) {
        ct_space_free(out);
        return ct_fail(e, CT_ERR_USAGE, "family %s has no template '%s'", f->name,
                       ct_echo(only, (char[CT_ECHO_LEN]){0}, CT_ECHO_LEN));
    }
    return CT_OK;
}

/* Whether t has an admissible candidate: its combinations in odometer
 * order, normalised, until the first that passes. */
static int template_admits(const ct_problem *p, const ct_config *c, const ct_limits *lim, const ct_template *t)
{
    const ct_space_list *lists[CT_MAX_PARAMS];
    char why[256];
    long long full = 1;
    for (int i = 0; i < t->nparams; i++) {
        if (!(lists[i] = ct_config_list(c, t, t->params[i].name)))
            return 0;
        full *= lists[i]->nvals;
    }
    if (ct_template_refuses_dtype(p, t, why, sizeof why))
        return 0;
    int idx[CT_MAX_PARAMS] = {0};
    for (long long combo = 0; combo < full; combo++) {
        ct_params cand = {0};
        fill(&cand, t, lists, idx);
        for (int i = t->nparams - 1; i >= 0; i--) {
            if (++idx[i] < lists[i]->nvals)
                break;
            idx[i] = 0;
        }
        if (p->family->normalize)
            p->family->normalize(p, t, &cand);
        if (!p->family->constrain(p, t, &cand, lim, why, sizeof why))
            return 1;
    }
    return 0;
}

int ct_space_covered(const ct_problem *p, const ct_config *c, const ct_limits *lim)
{
    const ct_family *f = p->family;
    int done[256] = {0};
    const int n = f->ntemplates < 256 ? f->ntemplates : 256;
    for (int k = 0; k < n; k++) {
        /* The smallest space not yet walked. */
        int best = -1;
        long long best_full = 0;
        for (int i = 0; i < n; i++) {
            const ct_template *t = &f->templates[i];
            if (done[i] || t->is_baseline)
                continue;
            long long full = 1;
            for (int j = 0; j < t->nparams; j++) {
                const ct_space_list *l = ct_config_list(c, t, t->params[j].name);
                full *= l ? l->nvals : 1;
            }
            if (best < 0 || full < best_full)
                best = i, best_full = full;
        }
        if (best < 0)
            return 0;
        done[best] = 1;
        if (template_admits(p, c, lim, &f->templates[best]))
            return 1;
    }
    return 0;
}

int ct_space_baseline_only(const ct_problem *p, const ct_space *s, const ct_limits *lim, char *line, size_t len)
{
    const ct_template *base = NULL, *why_t = NULL;
    const char *why = NULL;
    for (int i = 0; i < s->ntemplates; i++) {
        const ct_space_stats *st = &s->stats[i];
        if (st->tmpl->is_baseline) {
            if (st->admissible > 0)   /* the pass's baseline, not another pass's */
                base = st->tmpl;
            continue;
        }
        if (st->admissible > 0)
            return 0;
        /* A reason about this layer, not the type or pass a template is for. */
        if (!why && st->example_reject[0] && !strstr(st->example_reject, " computes "))
            why = st->example_reject, why_t = st->tmpl;
    }
    if (!base || s->ntemplates < 2)
        return 0;
    const int cc = lim->cc_major * 10 + lim->cc_minor;
    if (ct_problem_dtype(p) == CT_DTYPE_BF16 && cc < 80)
        snprintf(line, len, "only the baseline %s will be measured: bf16 has no tensor-core mma on sm_%d (sm_75 "
                 "has f16 only), and no other kernel computing in fp32 and rounding to bf16 takes this layer",
                 base->name, cc);
    else if (why)
        snprintf(line, len, "only the baseline %s will be measured: no tuned template admits this layer on sm_%d "
                 "(e.g. %s: %s)", base->name, cc, why_t->name, why);
    else
        snprintf(line, len, "only the baseline %s will be measured: no tuned template computes this layer on sm_%d",
                 base->name, cc);
    return 1;
}

void ct_space_free(ct_space *s)
{
    free(s->cand);
    free(s->stats);
    s->cand = NULL;
    s->stats = NULL;
    s->n = 0;
    s->ntemplates = 0;
}

void ct_space_sample(ct_space *s, int max, unsigned long long seed)
{
    if (s->n <= max)
        return;
    unsigned long long st = seed;
    /* Baselines first, then a Fisher-Yates shuffle of the rest; keep max. */
    int nb = 0;
    for (int i = 0; i < s->n; i++)
        if (s->cand[i].tmpl->is_baseline) {
            ct_candidate tmp = s->cand[nb];
            s->cand[nb++] = s->cand[i];
            s->cand[i] = tmp;
        }
    for (int i = s->n - 1; i > nb; i--) {
        int j = nb + (int)(ct_rand_next(&st) % (unsigned long long)(i - nb + 1));
        ct_candidate tmp = s->cand[i];
        s->cand[i] = s->cand[j];
        s->cand[j] = tmp;
    }
    s->n = max > nb ? max : nb;
}
