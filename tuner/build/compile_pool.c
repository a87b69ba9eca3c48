/* compile_pool.c - the compile threads (compile_pool.h). */
#include "compile_pool.h"

#include <stdlib.h>
#include <unistd.h>

#include "cache.h"

int ct_template_index(const ct_problem *p, const ct_template *t)
{
    return (int)(t - p->family->templates);
}

void ct_compile_job_run(ct_compile_pool *pl, ct_compile_job *j)
{
    const ct_template *t = j->cand->tmpl;
    const char *src = pl->sources[ct_template_index(pl->p, t)];
    char key[33];
    if (pl->cache_dir) {
        ct_cache_key(src, t->name, pl->arch, pl->defs, pl->ndefs, &j->cand->params, pl->nvrtc_version, key);
        if (ct_cache_get(pl->cache_dir, key, &j->bin)) {
            j->cache_hit = 1;
            j->rc = CT_OK;
            return;
        }
    }
    j->rc = ct_nvrtc_compile(src, t->name, pl->arch, pl->defs, pl->ndefs, &j->cand->params, &j->bin, &j->err);
    if (j->rc == CT_OK && pl->cache_dir)
        j->cache_failed = ct_cache_put(pl->cache_dir, key, &j->bin) != 0;
}

void ct_compile_pool_init(ct_compile_pool *pl, const ct_problem *p, const char *arch, const char *const *sources,
                          const char *cache_dir)
{
    pl->p = p;
    pl->arch = arch;
    pl->sources = sources;
    pl->cache_dir = cache_dir;
    pl->nvrtc_version = ct_nvrtc_version();
    pl->ndefs = ct_problem_defines(p, pl->defs);
}

void *ct_compile_worker(void *arg)
{
    ct_compile_pool *pl = arg;
    pthread_mutex_lock(&pl->mu);
    for (;;) {
        while (pl->next >= pl->njobs && !pl->closed)
            pthread_cond_wait(&pl->cv, &pl->mu);
        if (pl->next >= pl->njobs) {
            pthread_mutex_unlock(&pl->mu);
            return NULL;
        }
        ct_compile_job *j = &pl->jobs[pl->next++];
        pthread_mutex_unlock(&pl->mu);
        ct_compile_job_run(pl, j);
        pthread_mutex_lock(&pl->mu);
        j->done = 1;
        pthread_cond_broadcast(&pl->cv);
    }
}

void ct_compile_all(ct_compile_pool *pl, int nthreads)
{
    if (nthreads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = n > 0 ? (int)n : 1;
    }
    if (nthreads > pl->njobs)
        nthreads = pl->njobs > 0 ? pl->njobs : 1;
    pthread_mutex_init(&pl->mu, NULL);
    pthread_cond_init(&pl->cv, NULL);
    pl->next = 0;
    pl->closed = 1;   /* every job is queued: threads leave when none is left */
    pthread_t *t = calloc((size_t)nthreads, sizeof *t);
    int started = 0;
    for (int i = 0; t && i < nthreads; i++)
        started += pthread_create(&t[started], NULL, ct_compile_worker, pl) == 0;
    if (started == 0) {
        /* No thread: compile here, in order, rather than fail. */
        for (int i = 0; i < pl->njobs; i++) {
            ct_compile_job_run(pl, &pl->jobs[i]);
            pl->jobs[i].done = 1;
        }
    }
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    free(t);
    pthread_cond_destroy(&pl->cv);
    pthread_mutex_destroy(&pl->mu);
}
