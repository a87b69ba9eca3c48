/* costmodel.h - a learned model of a template's kernel time, and the
 * arithmetic the model-guided search ranks with.
 *
 * One model per template: a ridge regression of log(median time) on
 * features of the problem (log FLOPs, log bytes, log sizes, the choices
 * such as the element type one-hot) and of the candidate (each numeric
 * parameter as log2 v, its square and its product with log FLOPs; each
 * symbolic parameter one-hot). Why ridge and not boosted trees: the data of
 * one template are tens to a few thousand measured candidates; a linear
 * model in log features is a power law in sizes and a bowl in each
 * parameter (its square term), which is how kernel times behave; the fit is
 * closed-form (Cholesky of a d x d normal matrix, d < 100), deterministic,
 * fast enough to refit after every few measurements, and has no
 * hyper-parameter beyond the ridge weight on standardised features, where
 * trees need depth, rate, rounds and far more data to beat it. */
#ifndef CT_COSTMODEL_H
#define CT_COSTMODEL_H

#include "problem.h"

#define CT_CM_MAXF 96

typedef struct ct_cm_model {
    int d;                        /* features */
    int n;                        /* rows fitted; 0: no model */
    double mean[CT_CM_MAXF];      /* standardisation of each feature */
    double scale[CT_CM_MAXF];     /* 0: a constant feature, left out */
    double w[CT_CM_MAXF];
    double b;                     /* the weighted mean of y */
    double resid_sd;              /* spread of log time around the fit */
} ct_cm_model;

/* The features of candidate (t, c) for problem p into x; returns their
 * count (the same for every candidate of t in p's family and one sms, at
 * most CT_CM_MAXF). Besides the problem's and the parameters', those of
 * the launch (log blocks, threads a block, dynamic shared memory) and,
 * with the device's SM count sms > 0, of its waves (the last wave's fill
 * and the time a partial wave loses). */
int ct_cm_features(const ct_problem *p, const ct_template *t, const ct_params *c, int sms, double *x);

/* Fit y (log times) on X (n rows of d features, row-major) with weights wt
 * (NULL: 1 each) and ridge weight lambda on standardised features. Returns
 * 0, or -1 when n < 2 or the system is singular (m->n is then 0). */
int ct_cm_fit(ct_cm_model *m, const double *X, const double *y, const double *wt, int n, int d, double lambda);

/* The predicted log time of features x (NAN without a model). */
double ct_cm_predict(const ct_cm_model *m, const double *x);

/* Expected improvement in log time of a candidate predicted N(mu, sd)
 * over the best log time so far: E[max(0, best - X)]. */
double ct_cm_expected_gain(double mu, double sd, double best);

/* The standard normal distribution function. */
double ct_cm_phi(double z);

/* A plan under a time budget: among n candidates with expected gains and
 * expected costs in seconds, the greedy choice by gain per second whose
 * expected costs sum to at most budget_s; writes the chosen indices into
 * order, best ratio first, and returns their count. */
int ct_cm_plan(const double *gain, const double *cost, int n, double budget_s, int *order);

#endif
