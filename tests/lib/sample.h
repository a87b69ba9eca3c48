/* sample.h - NVRTC over seeded samples of template spaces, the way the tuner
 * compiles: for each problem and architecture, a sample of every template's
 * admissible candidates (of a baseline's, an even spread),
 * compiled on all cores through the tuner's compile pool (compile_pool.h),
 * each required to give a CUBIN; the family's fp64 reference kernel is
 * compiled beside the pool, on a thread of its own.
 *
 * NVRTC takes about a second per candidate, so the sample is what keeps the
 * tests short. Each architecture draws its own sample (the seed plus the
 * architecture's index), so that the architectures together compile
 * different configurations of a template rather than the same ones again,
 * and each template is compiled, on each architecture that admits it, for
 * one drawn problem of those it has candidates for there (the reference
 * kernel likewise for one problem an architecture); the spaces are built
 * and counted for every problem on every architecture.
 * The seed is drawn afresh each run and printed (with every failure), so
 * that runs together cover more than one would. The environment picks
 * another sample:
 *   CONVTUNE_TEST_SAMPLE=N   candidates per template (CI's sanitizer pass: 1)
 *   CONVTUNE_TEST_SEED=S     the sampling seed (default: a new one each run)
 *   CONVTUNE_TEST_EXAMPLES=N problems drawn per template and architecture
 *   CONVTUNE_TEST_FULL=1     every problem on every architecture, the
 *                            reference kernel too (the exhaustive grid) */
#ifndef CT_TL_SAMPLE_H
#define CT_TL_SAMPLE_H

#include "config.h"

#define TL_MAX_ARCHS 4

typedef struct tl_sample {
    int per_template;                 /* from CONVTUNE_TEST_SAMPLE, or the caller's default */
    unsigned long long seed;          /* from CONVTUNE_TEST_SEED, else drawn from the clock */
    int ntemplates;                   /* the family's: the length of each compiled[a] */
    int *compiled[TL_MAX_ARCHS];      /* candidates that compiled, per arch and template index */
    int kernels;                      /* everything compiled, references included */
    /* Per architecture, [spec * ntemplates + template]: the candidates
     * admissible before sampling, and when none is, the constraints' reason
     * (the spaces built once, for the sample and for the caller's checks). */
    int *admissible[TL_MAX_ARCHS];
    char (*why[TL_MAX_ARCHS])[256];
} tl_sample;

/* Compiles the samples of every problem in specs (all of one family) for
 * every architecture in archs (sampled as above); every failure is a failed
 * check naming the candidate and the seed. ref_template (may be NULL) is
 * compiled too, for drawn problems as the templates are (every problem on
 * every architecture with CONVTUNE_TEST_FULL). */
void tl_compile_sample(const char *const *specs, int nspecs, const char *const *archs, int narchs,
                       const ct_config *cfg, int per_template, const char *ref_template, tl_sample *out);
void tl_sample_free(tl_sample *s);

/* Which part of a battery too long for every run this run takes: the
 * cases i with i % every == the part returned, drawn from
 * CONVTUNE_TEST_SEED (else a fresh seed), printed with what; -1 (every
 * case) under CONVTUNE_TEST_FULL. A drawn seed is set as
 * CONVTUNE_TEST_SEED for the rest of the process (and what it runs).
 * CTest's runs go through the whole battery over time, as the replays'
 * parts do. */
int tl_draw_part(const char *what, int every);

/* A positive integer from the environment, or dflt. */
long tl_env_long(const char *name, long dflt);

#endif
