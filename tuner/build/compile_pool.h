/* compile_pool.h - the threads that compile candidates with NVRTC (or find
 * them in the binary cache): a tuning run feeds its pool batch by batch while
 * the GPU measures (tune.c); ct_compile_all compiles a fixed list on all
 * cores, as the tests that compile samples of every template's space do. */
#ifndef CT_COMPILE_POOL_H
#define CT_COMPILE_POOL_H

#include <pthread.h>

#include "compile.h"
#include "space.h"

typedef struct ct_compile_job {
    const ct_candidate *cand;
    int idx;                   /* index of cand in the space */
    ct_binary bin;
    ct_status rc;
    ct_err err;
    int cache_hit;
    int cache_failed;          /* compiled, but the cache could not store it */
    int done;
} ct_compile_job;

/* The compile queue grows as the search proposes; workers sleep when it is
 * empty and leave when it is closed. */
typedef struct ct_compile_pool {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    ct_compile_job *jobs;
    int njobs, next;
    int closed;
    const ct_problem *p;
    const char *arch;
    const char *const *sources;   /* per template index in the family */
    const char *cache_dir;
    int nvrtc_version;
    ct_define defs[CT_MAX_DEFINES];
    int ndefs;
} ct_compile_pool;

/* The fixed part of a pool for problem p on arch: the template sources
 * (indexed like the family's templates), the family's macros and the cache
 * (NULL: none). A tuning run and precompile set it up alike, so that both
 * compute the same cache keys. */
void ct_compile_pool_init(ct_compile_pool *pl, const ct_problem *p, const char *arch, const char *const *sources,
                          const char *cache_dir);

/* The index of t among its family's templates (sources[] is indexed so). */
int ct_template_index(const ct_problem *p, const ct_template *t);

/* Compile one job (or take it from pl->cache_dir): fills j->bin, j->rc,
 * j->err and j->cache_hit. */
void ct_compile_job_run(ct_compile_pool *pl, ct_compile_job *j);

/* A pool thread (pthread start routine, arg the pool): takes jobs in order
 * until the queue is empty and closed, marking each done. */
void *ct_compile_worker(void *arg);

/* Compile pl->jobs[0..njobs) on nthreads threads (0: the online CPUs) and
 * return when all are done; each job's own outcome is in it. The caller
 * fills p, arch, sources, defs/ndefs (and cache_dir, nvrtc_version if it
 * wants the cache) and the jobs; the mutex and the queue state are set
 * here. Where no thread can be started, the jobs are compiled in this one. */
void ct_compile_all(ct_compile_pool *pl, int nthreads);

#endif
