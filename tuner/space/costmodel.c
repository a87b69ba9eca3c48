/* costmodel.c - features, ridge fit and ranking arithmetic (costmodel.h). */
#include "costmodel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One-hot codes of a choice or a symbolic parameter stop at this many
 * values: the rest share no column, which keeps d bounded. */
#define ONEHOT_MAX 8

int ct_cm_features(const ct_problem *p, const ct_template *t, const ct_params *c, int sms, double *x)
{
    int d = 0;
#define PUT(v)                      \
    do {                            \
        if (d < CT_CM_MAXF)         \
            x[d++] = (double)(v);   \
    } while (0)
    const ct_family *f = p->family;
    double lf = log2(f->flops(p) + 1.0);
    PUT(lf);
    PUT(log2(f->bytes(p) + 1.0));
    for (int i = 0; i < f->nfields; i++) {
        long long v = p->dims[i];
        switch (f->fields[i].kind) {
        case CT_FIELD_SIZE:
            PUT(log2((double)(v > 0 ? v : 0) + 1.0));
            break;
        case CT_FIELD_INT:
            PUT(v);
            break;
        case CT_FIELD_FLAG:
            PUT(v != 0);
            break;
        case CT_FIELD_CHOICE:
            for (int k = 0; k < f->fields[i].nchoices && k < ONEHOT_MAX; k++)
                PUT(v == k);
            break;
        }
    }
    for (int j = 0; j < t->nparams; j++) {
        const ct_param_def *def = &t->params[j];
        long v = ct_params_get(c, def->name, def->dflt);
        if (def->symbols) {
            for (int k = 0; k < def->nsymbols && k < ONEHOT_MAX; k++)
                PUT(v == k);
        } else {
            /* A bowl in log v (the square), whose bottom may move with the
             * problem's size (the product with log FLOPs). */
            double l = log2((double)(v > 0 ? v : 0) + 1.0);
            PUT(l);
            PUT(l * l);
            PUT(l * lf / 32.0);
        }
    }
    /* The launch the parameters make (the family's geometry): a kernel's
     * time steps with its waves, and a tile that leaves a grid of 1.1
     * waves runs about as long as one of two, which no bowl in each
     * parameter can express. The waves count one block an SM (residency
     * needs the registers, known only after a compile). Replayed on two
     * grids of H200 records (bench/search_quality --impute, 12 problems,
     * 20 seeds, 150 candidates), searches came within 5% of the best in
     * 229 and 220 of 240 problem-seeds with these features, 187 and 195
     * without. */
    if (f->geometry) {
        ct_launch l;
        memset(&l, 0, sizeof l);
        f->geometry(p, t, c, &l);
        double blocks = 1, threads = 1;
        for (int k = 0; k < 3; k++) {
            blocks *= l.grid[k] ? l.grid[k] : 1;
            threads *= l.block[k] ? l.block[k] : 1;
        }
        PUT(log2(blocks + 1.0));
        PUT(log2(threads + 1.0));
        PUT(log2((double)l.smem_bytes + 1.0));
        if (sms > 0) {
            double w = blocks / sms, last = w - floor(w);
            PUT(w < 1 ? w : last > 0 ? last : 1.0);   /* how full the last wave is */
            PUT(log2(ceil(w) / w));                  /* the time a partial wave loses */
        }
    }
#undef PUT
    return d;
}

/* Solve A w = r in place for symmetric positive definite A (d x d):
 * Cholesky A = L L^T in A's lower triangle. -1 when not positive. */
static int cholesky_solve(double *A, double *r, int d)
{
    for (int j = 0; j < d; j++) {
        double s = A[j * d + j];
        for (int k = 0; k < j; k++)
            s -= A[j * d + k] * A[j * d + k];
        if (!(s > 1e-12))
            return -1;
        A[j * d + j] = sqrt(s);
        for (int i = j + 1; i < d; i++) {
            double v = A[i * d + j];
            for (int k = 0; k < j; k++)
                v -= A[i * d + k] * A[j * d + k];
            A[i * d + j] = v / A[j * d + j];
        }
    }
    for (int i = 0; i < d; i++) {   /* L z = r */
        double v = r[i];
        for (int k = 0; k < i; k++)
            v -= A[i * d + k] * r[k];
        r[i] = v / A[i * d + i];
    }
    for (int i = d - 1; i >= 0; i--) {   /* L^T w = z */
        double v = r[i];
        for (int k = i + 1; k < d; k++)
            v -= A[k * d + i] * r[k];
        r[i] = v / A[i * d + i];
    }
    return 0;
}

int ct_cm_fit(ct_cm_model *m, const double *X, const double *y, const double *wt, int n, int d, double lambda)
{
    memset(m, 0, sizeof *m);
    if (n < 2 || d < 1 || d > CT_CM_MAXF)
        return -1;
    m->d = d;
    double W = 0, by = 0;
    for (int i = 0; i < n; i++) {
        double w = wt ? wt[i] : 1.0;
        W += w;
        by += w * y[i];
    }
    if (!(W > 0))
        return -1;
    m->b = by / W;
    int active = 0;
    for (int j = 0; j < d; j++) {
        double s = 0, s2 = 0;
        for (int i = 0; i < n; i++)
            s += (wt ? wt[i] : 1.0) * X[(size_t)i * d + j];
        m->mean[j] = s / W;
        for (int i = 0; i < n; i++) {
            double z = X[(size_t)i * d + j] - m->mean[j];
            s2 += (wt ? wt[i] : 1.0) * z * z;
        }
        double sd = sqrt(s2 / W);
        m->scale[j] = sd > 1e-9 ? sd : 0;
        active += m->scale[j] > 0;
    }
    double *A = calloc((size_t)d * d, sizeof *A), *r = calloc((size_t)d, sizeof *r), *z = calloc((size_t)d, sizeof *z);
    if (!A || !r || !z) {
        free(A), free(r), free(z);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        double w = wt ? wt[i] : 1.0;
        for (int j = 0; j < d; j++)
            z[j] = m->scale[j] > 0 ? (X[(size_t)i * d + j] - m->mean[j]) / m->scale[j] : 0;
        for (int j = 0; j < d; j++) {
            if (z[j] == 0)
                continue;
            r[j] += w * z[j] * (y[i] - m->b);
            for (int k = 0; k <= j; k++)
                A[j * d + k] += w * z[j] * z[k];
        }
    }
    for (int j = 0; j < d; j++) {
        A[j * d + j] += m->scale[j] > 0 ? lambda : 1.0;   /* a constant feature's weight stays 0 */
        for (int k = j + 1; k < d; k++)
            A[j * d + k] = A[k * d + j];
    }
    int rc = cholesky_solve(A, r, d);
    if (rc == 0) {
        for (int j = 0; j < d; j++)
            m->w[j] = m->scale[j] > 0 ? r[j] : 0;
        double ssr = 0;
        for (int i = 0; i < n; i++) {
            double pr = m->b;
            for (int j = 0; j < d; j++)
                if (m->scale[j] > 0)
                    pr += m->w[j] * (X[(size_t)i * d + j] - m->mean[j]) / m->scale[j];
            ssr += (wt ? wt[i] : 1.0) * (y[i] - pr) * (y[i] - pr);
        }
        /* The training residual grows by the degrees of freedom the fit
         * used (at most half the rows counted: the ridge shrinks the
         * rest); never below 2%, the noise of one timing. */
        double dof = n - (active < n / 2 ? active : n / 2);
        m->resid_sd = sqrt(ssr / W * n / (dof > 1 ? dof : 1));
        if (m->resid_sd < 0.02)
            m->resid_sd = 0.02;
        m->n = n;
    }
    free(A), free(r), free(z);
    return rc;
}

double ct_cm_predict(const ct_cm_model *m, const double *x)
{
    if (!m || m->n == 0)
        return NAN;
    double pr = m->b;
    for (int j = 0; j < m->d; j++)
        if (m->scale[j] > 0)
            pr += m->w[j] * (x[j] - m->mean[j]) / m->scale[j];
    return pr;
}

double ct_cm_phi(double z)
{
    return 0.5 * erfc(-z / sqrt(2.0));
}

double ct_cm_expected_gain(double mu, double sd, double best)
{
    if (!(sd > 0))
        return best > mu ? best - mu : 0;
    double z = (best - mu) / sd;
    return (best - mu) * ct_cm_phi(z) + sd * exp(-0.5 * z * z) / 2.5066282746310002;
}

typedef struct ratio_idx {
    double ratio;
    int idx;
} ratio_idx;

static int cmp_ratio(const void *a, const void *b)
{
    const ratio_idx *x = a, *y = b;
    if (x->ratio != y->ratio)
        return x->ratio < y->ratio ? 1 : -1;
    return x->idx - y->idx;
}

int ct_cm_plan(const double *gain, const double *cost, int n, double budget_s, int *order)
{
    ratio_idx *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    if (!v)
        return 0;
    for (int i = 0; i < n; i++)
        v[i] = (ratio_idx){gain[i] / (cost[i] > 1e-9 ? cost[i] : 1e-9), i};
    qsort(v, (size_t)n, sizeof *v, cmp_ratio);
    double spent = 0;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (spent + cost[v[i].idx] <= budget_s) {
            spent += cost[v[i].idx];
            order[k++] = v[i].idx;
        }
    free(v);
    return k;
}
