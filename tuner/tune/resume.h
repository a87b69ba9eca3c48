/* resume.h - what earlier runs left in the database for a new one: the
 * outcomes stored on this very device row (a resumed or repeated run reuses
 * them instead of compiling and measuring again) and the winners of nearby
 * problems (starting points of a guided search). */
#ifndef CT_RESUME_H
#define CT_RESUME_H

#include <stdio.h>

#include "db.h"
#include "problem.h"
#include "search.h"

typedef struct ct_resume_entry {
    char key[600];             /* template and parameters */
    ct_result rec;
} ct_resume_entry;

typedef struct ct_resume {
    ct_resume_entry *v;        /* sorted by key */
    int n, cap;
    const char (*hashes)[17];  /* the current sources' text hashes, per template */
    const char *const *canons; /* ... and canonical sources (ct_code_canonical) */
    const char *templates_dir; /* where earlier template texts may be (or NULL) */
    const ct_problem *p;
    const ct_family *fam;
    int *fill;                 /* entries stored without a code hash (before sorting) */
    int nfill;
} ct_resume;

/* The outcomes of p stored for each of the device rows device_ids[0..n)
 * that measured the code the current sources generate (ct_code_judge on
 * hashes[template index] and the code hash from canons[template index],
 * earlier template texts from templates_dir or built in);
 * a record measured with other code is not reused. Those stored before
 * code hashes existed get theirs, written here: the tuner is a writer, and
 * so the record survives a later refactor that leaves its code alone. */
ct_status ct_resume_load(ct_db *db, const ct_problem *p, const long long *device_ids, int n,
                         const char (*hashes)[17], const char *const *canons, const char *templates_dir,
                         ct_resume *out, ct_err *e);

/* The stored outcome of candidate (t, c), or NULL. */
const ct_result *ct_resume_find(const ct_resume *s, const ct_template *t, const ct_params *c);

/* 1 when stored outcome r is a time to take again: a verified candidate
 * under CT_BATCH_BELOW_US timed before batches were (no timing method
 * stored), with an event pair around each launch, which ranks it by the
 * host's launch rate against today's batched times. */
int ct_resume_stale(const ct_result *r);

/* How many of s's outcomes are stale (ct_resume_stale). */
int ct_resume_count_stale(const ct_resume *s);

void ct_resume_free(ct_resume *s);

/* Add the winners of the three nearest tuned problems of p's family on
 * device (by the selector's distance; a problem differing in fields other
 * than sizes counts one unit further per field) as starting points of srch,
 * a line on out for each. */
void ct_resume_nearest_starts(ct_db *db, const ct_problem *p, const char *device, ct_search *srch, FILE *out);

#endif
