/* space.h - the candidates of a problem: every combination of the value
 * lists of each template's parameters (from the config), normalised by the
 * family, deduplicated, and filtered by the family's constraints against the
 * device's limits. */
#ifndef CT_SPACE_H
#define CT_SPACE_H

#include "config.h"
#include "problem.h"

typedef struct ct_candidate {
    const ct_template *tmpl;
    ct_params params;
} ct_candidate;

typedef struct ct_space_stats {
    const ct_template *tmpl;
    long long full;            /* product of the value-list lengths          */
    long long distinct;        /* after normalisation and deduplication      */
    long long admissible;      /* after the constraints                      */
    char example_reject[256];  /* one constraint message, for `space`        */
} ct_space_stats;

typedef struct ct_space {
    ct_candidate *cand;
    int n;
    /* One entry per template built, in the family's order: as many as
     * the family has (no fixed ceiling), freed with the candidates. */
    int ntemplates;
    ct_space_stats *stats;
} ct_space;

/* Build the space of problem p. only (may be NULL) restricts it to one
 * template. Fails when a template parameter has no value list. */
ct_status ct_space_build(const ct_problem *p, const ct_config *c, const ct_limits *lim,
                         const char *only, ct_space *out, ct_err *e);
/* Whether a template other than the baseline has an admissible candidate
 * for p on lim: the templates with the fewest combinations first, each
 * walked until its first admissible one (no deduplication), so that a
 * coverage test can ask it of thousands of layers. 0 as well when a value
 * list is missing. */
int ct_space_covered(const ct_problem *p, const ct_config *c, const ct_limits *lim);

/* When s, built for every template of p's family, admits the baseline's
 * candidates only: 1 and, in line, the one line space and tune print,
 * "only the baseline ... will be measured: WHY" (bf16 before sm_80 has
 * no tensor-core mma; otherwise a tuned template's reason). 0 otherwise. */
int ct_space_baseline_only(const ct_problem *p, const ct_space *s, const ct_limits *lim, char *line, size_t len);

/* Free the candidates and the statistics. */
void ct_space_free(ct_space *s);

/* Keep a seeded random sample of at most max candidates, always keeping the
 * baseline template's candidates. Deterministic for a given seed. */
void ct_space_sample(ct_space *s, int max, unsigned long long seed);

/* A splitmix64 step: the one random generator of the tuner (inputs,
 * sampling), so that a seed reproduces a run. */
unsigned long long ct_rand_next(unsigned long long *state);

#endif
