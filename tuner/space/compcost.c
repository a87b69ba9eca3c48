/* compcost.c - running means of compile time per template and per
 * parameter class (compcost.h). */
#include "compcost.h"

#include <math.h>
#include <stdlib.h>

typedef struct mean_log {
    double sum;   /* of log seconds */
    double lo, hi;
    int n;
} mean_log;

typedef struct cls {
    int tmpl, param;   /* -1: an empty slot */
    long value;
    mean_log m;
} cls;

struct ct_compcost {
    const ct_space *sp;
    mean_log all;
    mean_log *per_tmpl;   /* sp->ntemplates */
    cls *tab;             /* open addressing over (template, parameter, value) */
    size_t cap, used;
};

/* Parameter k of t in c: by position where c holds t's parameters in
 * declaration order (a space's candidates do; estimates run over 100,000
 * of them), else by name. */
static long param_value(const ct_template *t, const ct_params *c, int k)
{
    if (k < c->n && c->names[k] == t->params[k].name)
        return c->values[k];
    return ct_params_get(c, t->params[k].name, t->params[k].dflt);
}

static void mean_add(mean_log *m, double l)
{
    if (m->n == 0 || l < m->lo)
        m->lo = l;
    if (m->n == 0 || l > m->hi)
        m->hi = l;
    m->sum += l;
    m->n++;
}

static int tmpl_index(const ct_compcost *m, const ct_template *t)
{
    for (int i = 0; i < m->sp->ntemplates; i++)
        if (m->sp->stats[i].tmpl == t)
            return i;
    return -1;
}

static size_t slot_of(const ct_compcost *m, int t, int k, long v)
{
    unsigned long long h = 1469598103934665603ULL;
    h = (h ^ (unsigned long long)t) * 1099511628211ULL;
    h = (h ^ (unsigned long long)k) * 1099511628211ULL;
    h = (h ^ (unsigned long long)v) * 1099511628211ULL;
    size_t s = (size_t)(h % m->cap);
    while (m->tab[s].tmpl >= 0 && !(m->tab[s].tmpl == t && m->tab[s].param == k && m->tab[s].value == v))
        s = (s + 1) % m->cap;
    return s;
}

static int grow(ct_compcost *m)
{
    size_t ncap = m->cap ? 2 * m->cap : 256;
    cls *old = m->tab;
    size_t ocap = m->cap;
    cls *tab = malloc(ncap * sizeof *tab);
    if (!tab)
        return -1;
    for (size_t i = 0; i < ncap; i++)
        tab[i].tmpl = -1;
    m->tab = tab;
    m->cap = ncap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].tmpl >= 0)
            m->tab[slot_of(m, old[i].tmpl, old[i].param, old[i].value)] = old[i];
    free(old);
    return 0;
}

ct_compcost *ct_compcost_new(const ct_space *sp)
{
    ct_compcost *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->sp = sp;
    m->per_tmpl = calloc((size_t)(sp->ntemplates > 0 ? sp->ntemplates : 1), sizeof *m->per_tmpl);
    if (!m->per_tmpl || grow(m) != 0) {
        ct_compcost_free(m);
        return NULL;
    }
    return m;
}

void ct_compcost_free(ct_compcost *m)
{
    if (!m)
        return;
    free(m->per_tmpl);
    free(m->tab);
    free(m);
}

void ct_compcost_add(ct_compcost *m, const ct_template *t, const ct_params *c, double seconds)
{
    int ti = tmpl_index(m, t);
    if (ti < 0 || !(seconds > 0) || !isfinite(seconds))
        return;
    double l = log(seconds);
    mean_add(&m->all, l);
    mean_add(&m->per_tmpl[ti], l);
    for (int k = 0; k < t->nparams; k++) {
        if ((m->used + 1) * 2 > m->cap && grow(m) != 0)
            return;
        long v = param_value(t, c, k);
        size_t s = slot_of(m, ti, k, v);
        if (m->tab[s].tmpl < 0) {
            m->tab[s] = (cls){.tmpl = ti, .param = k, .value = v};
            m->used++;
        }
        mean_add(&m->tab[s].m, l);
    }
}

double ct_compcost_estimate(const ct_compcost *m, const ct_template *t, const ct_params *c, ct_compcost_basis *basis)
{
    ct_compcost_basis b = CT_CC_PRIOR;
    double l = log(CT_COMPCOST_PRIOR_S);
    int ti = tmpl_index(m, t);
    if (m->all.n > 0) {
        b = CT_CC_GLOBAL;
        l = m->all.sum / m->all.n;
    }
    if (ti >= 0 && m->per_tmpl[ti].n > 0) {
        const mean_log *mt = &m->per_tmpl[ti];
        double base = mt->sum / mt->n, dev = 0;
        b = CT_CC_TEMPLATE;
        for (int k = 0; k < t->nparams; k++) {
            long v = param_value(t, c, k);
            const cls *x = &m->tab[slot_of(m, ti, k, v)];
            if (x->tmpl < 0 || x->m.n == 0)
                continue;
            /* A class of every compile of the template says nothing. */
            if (x->m.n == mt->n)
                continue;
            dev += (x->m.sum / x->m.n - base) * x->m.n / (x->m.n + 1.0);
            b = CT_CC_CLASS;
        }
        /* Deviations of correlated classes add up: the estimate stays
         * within what the template's compiles have shown, widened by a
         * factor of e either way. */
        l = base + dev;
        if (l < mt->lo - 1)
            l = mt->lo - 1;
        if (l > mt->hi + 1)
            l = mt->hi + 1;
    }
    if (basis)
        *basis = b;
    return exp(l);
}

int ct_compcost_count(const ct_compcost *m, const ct_template *t)
{
    int ti = tmpl_index(m, t);
    return ti < 0 ? 0 : m->per_tmpl[ti].n;
}

int ct_compcost_total(const ct_compcost *m)
{
    return m->all.n;
}
