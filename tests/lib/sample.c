/* sample.c - see sample.h. */
#include "sample.h"

#include "check.h"
#include "compile.h"
#include "compile_pool.h"
#include "runner.h"
#include "space.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

long tl_env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    char *end;
    long x = v && *v ? strtol(v, &end, 10) : dflt;
    return v && *v && !*end && x > 0 ? x : dflt;
}

/* The reference kernel's compile, beside the pool. */
typedef struct ref_job {
    const char *tmpl, *arch, *spec;
    const ct_define *defs;
    int ndefs;
    ct_status rc;
    ct_err err;
} ref_job;

static void *ref_compile(void *arg)
{
    ref_job *j = arg;
    char *src = NULL;
    ct_binary bin;
    memset(&j->err, 0, sizeof j->err);
    j->rc = ct_template_source(j->tmpl, NULL, &src, &j->err);
    if (j->rc == CT_OK)
        j->rc = ct_nvrtc_compile(src, j->tmpl, j->arch, j->defs, j->ndefs, NULL, &bin, &j->err);
    if (j->rc == CT_OK)
        ct_binary_free(&bin);
    free(src);
    return NULL;
}

/* One problem on one architecture, its spaces built and sampled, before
 * anything is compiled. */
typedef struct prepared {
    ct_problem p;
    const char *spec, *arch;
    ct_space *sp;   /* [ntemplates], NULL where the problem or architecture did not load */
    char **src;     /* [ntemplates] */
    int ref;        /* 1: compile the reference kernel here */
} prepared;

/* Builds the spaces of spec on architecture a of narchs and samples them.
 * Each architecture draws its own sample (seed + a, its own share of a
 * baseline's spread): where a template's space is the same on every
 * architecture, one seed would compile the same candidates on each, so a
 * different draw per architecture covers as many configurations with
 * narchs times fewer compiles. */
static void prepare_one(const char *spec, const char *arch, const ct_config *cfg, tl_sample *out, int a, int narchs,
                        int si, int nspecs, prepared *pr)
{
    ct_limits lim;
    ct_err e;
    memset(&e, 0, sizeof e);
    memset(pr, 0, sizeof *pr);
    pr->spec = spec;
    pr->arch = arch;
    CHECK_MSG(ct_problem_parse(spec, &pr->p, &e) == CT_OK, "%s: %s", spec, e.msg);
    CHECK_MSG(ct_limits_for_arch(arch, &lim, &e) == CT_OK, "%s: %s", arch, e.msg);
    if (e.msg[0])
        return;
    const ct_family *f = pr->p.family;
    if (!out->compiled[a]) {
        out->compiled[a] = calloc((size_t)f->ntemplates, sizeof *out->compiled[a]);
        out->admissible[a] = calloc((size_t)nspecs * (size_t)f->ntemplates, sizeof *out->admissible[a]);
        out->why[a] = calloc((size_t)nspecs * (size_t)f->ntemplates, sizeof *out->why[a]);
        out->ntemplates = f->ntemplates;
    }
    CHECK_MSG(out->compiled[a] && out->admissible[a] && out->why[a] && out->ntemplates == f->ntemplates,
              "%s: not the family of the other specs", spec);
    if (!out->compiled[a] || !out->admissible[a] || !out->why[a] || out->ntemplates != f->ntemplates)
        return;
    pr->sp = calloc((size_t)f->ntemplates, sizeof *pr->sp);
    pr->src = calloc((size_t)f->ntemplates, sizeof *pr->src);
    for (int t = 0; t < f->ntemplates; t++) {
        const ct_template *tp = &f->templates[t];
        ct_space *sp = pr->sp;
        CHECK(ct_template_source(tp->name, NULL, &pr->src[t], &e) == CT_OK);
        CHECK(ct_space_build(&pr->p, cfg, &lim, tp->name, &sp[t], &e) == CT_OK);
        const int k = si * f->ntemplates + t;
        out->admissible[a][k] = sp[t].n;
        if (sp[t].n == 0)
            snprintf(out->why[a][k], sizeof out->why[a][k], "%s",
                     sp[t].stats && sp[t].stats[0].example_reject[0] ? sp[t].stats[0].example_reject : "(no reason)");
        /* A template may rightly have nothing admissible for one problem or
         * architecture (FFT segments for a tiny problem, tensor cores before
         * sm_80): the caller checks where each compiled. */
        ct_space_sample(&sp[t], out->per_template, out->seed + (unsigned long long)a);
        /* The sample keeps a baseline whole, as a tuning run needs it; its
         * kernels are alike, so an even spread of them is enough here, the
         * architectures taking turns along it. */
        if (tp->is_baseline && sp[t].n > out->per_template) {
            const long long slots = (long long)out->per_template * narchs;
            for (int i = 0; i < out->per_template; i++)
                sp[t].cand[i] = sp[t].cand[((long long)i * narchs + a) * sp[t].n / slots];
            sp[t].n = out->per_template;
        }
        /* Only the sample is kept until plan has seen every problem. */
        if (sp[t].n > 0) {
            ct_candidate *c = realloc(sp[t].cand, (size_t)sp[t].n * sizeof *c);
            if (c)
                sp[t].cand = c;
        }
    }
}

/* Draws k of the n indices in idx (all where n <= k) into its first
 * min(k, n) places. */
static int draw(int *idx, int n, int k, unsigned long long *rng)
{
    for (int i = 0; i < k && i < n; i++) {
        const int j = i + (int)(ct_rand_next(rng) % (unsigned long long)(n - i));
        const int x = idx[i];
        idx[i] = idx[j];
        idx[j] = x;
    }
    return k < n ? k : n;
}

/* Which of the prepared pairs compile what (pr[si * narchs + a]). With
 * CONVTUNE_TEST_FULL set, everything: every template's sample for every
 * problem on every architecture that admits it, and the reference on each.
 * Else a seeded draw of that grid: on each architecture, a template's
 * sample for `per_arch` of the problems it has candidates for there
 * (CONVTUNE_TEST_EXAMPLES, default 1), on one drawn architecture of those
 * that admit it, and the reference for `per_arch` problems on each. So
 * every template compiles in every run, and each (problem, template,
 * architecture) of the grid is drawn in some run: the draw is different
 * each run. Where a template can compile is the spaces' admissible
 * counts (out->admissible), what the caller checks. A problem's compiles differ from another's
 * only in its -D values (sizes, element type, layout), which the spaces of
 * every problem, built and checked in full here each run, already constrain;
 * a sample left out has its space built and checked all the same. */
static void plan(prepared *pr, int nspecs, int narchs, int ntemplates, int full, int per_arch,
                 unsigned long long seed)
{
    unsigned long long rng = seed ^ 0x5851F42D4C957F2DULL;
    int *idx = calloc((size_t)nspecs + 1, sizeof *idx);
    CHECK(idx != NULL);
    if (!idx)
        return;
    for (int a = 0; a < narchs; a++) {
        int n = 0;
        for (int si = 0; si < nspecs; si++)
            if (pr[si * narchs + a].sp)
                idx[n++] = si;
        n = full ? n : draw(idx, n, per_arch, &rng);
        for (int i = 0; i < n; i++)
            pr[idx[i] * narchs + a].ref = 1;
    }
    for (int t = 0; !full && t < ntemplates; t++)
        for (int a = 0; a < narchs; a++) {
            int n = 0;
            for (int si = 0; si < nspecs; si++) {
                prepared *x = &pr[si * narchs + a];
                if (x->sp && x->sp[t].n > 0) {
                    idx[n++] = si;
                    x->sp[t].n = -x->sp[t].n;   /* left out unless drawn, restored after */
                }
            }
            n = draw(idx, n, per_arch, &rng);
            for (int i = 0; i < n; i++)
                pr[idx[i] * narchs + a].sp[t].n = -pr[idx[i] * narchs + a].sp[t].n;
        }
    /* A template's code differs between architectures only behind its
     * architecture tests, which its constraints mirror: it compiles on one
     * drawn architecture of those that admit it, each in some run. */
    for (int t = 0; !full && t < ntemplates; t++) {
        int on[TL_MAX_ARCHS], non = 0;
        for (int a = 0; a < narchs; a++)
            for (int si = 0; si < nspecs; si++)
                if (pr[si * narchs + a].sp && pr[si * narchs + a].sp[t].n > 0) {
                    on[non++] = a;
                    break;
                }
        if (non < 2)
            continue;
        const int keep = on[ct_rand_next(&rng) % (unsigned long long)non];
        for (int k = 0; k < non; k++)
            for (int si = 0; on[k] != keep && si < nspecs; si++) {
                prepared *x = &pr[si * narchs + on[k]];
                if (x->sp && x->sp[t].n > 0)
                    x->sp[t].n = -x->sp[t].n;
            }
    }
    free(idx);
}

/* Compiles what plan left in pr: the templates' samples in one pool, the
 * reference (ref_template, may be NULL) beside it; every failure a failed
 * check naming the candidate. Then frees pr's spaces and sources. */
static void compile_prepared(prepared *pr, const char *ref_template, tl_sample *out, int a)
{
    if (!pr->sp)
        return;
    const ct_family *f = pr->p.family;
    const char *spec = pr->spec, *arch = pr->arch;
    ct_space *sp = pr->sp;
    ct_compile_pool pl;
    memset(&pl, 0, sizeof pl);
    pl.p = &pr->p;
    pl.arch = arch;
    pl.ndefs = ct_problem_defines(&pr->p, pl.defs);   /* CT_DTYPE too */
    if (!pr->ref)
        ref_template = NULL;
    ref_job ref = {.tmpl = ref_template, .arch = arch, .spec = spec, .defs = pl.defs, .ndefs = pl.ndefs};
    pthread_t ref_thread;
    int ref_started = ref_template && pthread_create(&ref_thread, NULL, ref_compile, &ref) == 0;
    if (ref_template && !ref_started)
        ref_compile(&ref);
    int total = 0;
    for (int t = 0; t < f->ntemplates; t++)
        total += sp[t].n > 0 ? sp[t].n : 0;
    pl.sources = (const char *const *)pr->src;
    pl.jobs = calloc((size_t)total + 1, sizeof *pl.jobs);
    for (int t = 0; t < f->ntemplates; t++)
        for (int i = 0; i < sp[t].n; i++)
            pl.jobs[pl.njobs++] = (ct_compile_job){.cand = &sp[t].cand[i], .idx = i};
    ct_compile_all(&pl, 0);
    for (int j = 0; j < pl.njobs; j++) {
        ct_compile_job *jb = &pl.jobs[j];
        char key[512];
        ct_params_to_key(&jb->cand->params, key, sizeof key);
        CHECK_MSG(jb->done && jb->rc == CT_OK, "%s %s %s %s: %s (seed %llu)", spec, arch, jb->cand->tmpl->name, key,
                  jb->err.msg, out->seed);
        if (jb->rc == CT_OK) {
            int t = ct_template_index(&pr->p, jb->cand->tmpl);
            if (t >= 0 && t < out->ntemplates)
                out->compiled[a][t]++;
            out->kernels++;
            CHECK_MSG(jb->bin.is_cubin && jb->bin.size > 4 && !memcmp(jb->bin.data, "\177ELF", 4),
                      "%s %s %s %s: not a CUBIN", spec, arch, jb->cand->tmpl->name, key);
        }
        ct_binary_free(&jb->bin);
    }
    if (ref_started)
        pthread_join(ref_thread, NULL);
    if (ref_template) {
        CHECK_MSG(ref.rc == CT_OK, "%s %s %s: %s", spec, arch, ref_template, ref.err.msg);
        out->kernels += ref.rc == CT_OK;
    }
    for (int t = 0; t < f->ntemplates; t++) {
        free(pr->src[t]);
        if (sp[t].n < 0)
            sp[t].n = -sp[t].n;
        ct_space_free(&sp[t]);
    }
    free(pl.jobs);
    free(pr->src);
    free(sp);
    pr->sp = NULL;
    pr->src = NULL;
}

/* A seed of its own for each run: the clock and the process. */
static unsigned long long fresh_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long long x = (unsigned long long)ts.tv_sec * 1000000007ULL ^ (unsigned long long)ts.tv_nsec ^
                           ((unsigned long long)getpid() << 32);
    return ct_rand_next(&x) % 1000000000ULL + 1;   /* short enough to type again */
}

int tl_draw_part(const char *what, int every)
{
    const char *fv = getenv("CONVTUNE_TEST_FULL");
    if ((fv && *fv && strcmp(fv, "0") != 0) || every <= 1) {
        printf("%s: all of them (CONVTUNE_TEST_FULL)\n", what);
        return -1;
    }
    unsigned long long seed = (unsigned long long)tl_env_long("CONVTUNE_TEST_SEED", 0);
    if (seed == 0) {   /* kept for the rest of the run: a re-run of itself (test_fold) repeats the part */
        char v[32];
        seed = fresh_seed();
        snprintf(v, sizeof v, "%llu", seed);
        setenv("CONVTUNE_TEST_SEED", v, 1);
    }
    const int part = (int)(seed % (unsigned long long)every);
    printf("%s: part %d of %d, seed %llu (CONVTUNE_TEST_SEED=%llu repeats it, CONVTUNE_TEST_FULL=1 runs all)\n",
           what, part + 1, every, seed, seed);
    fflush(stdout);
    return part;
}

void tl_compile_sample(const char *const *specs, int nspecs, const char *const *archs, int narchs,
                       const ct_config *cfg, int per_template, const char *ref_template, tl_sample *out)
{
    memset(out, 0, sizeof *out);
    out->per_template = (int)tl_env_long("CONVTUNE_TEST_SAMPLE", per_template);
    out->seed = (unsigned long long)tl_env_long("CONVTUNE_TEST_SEED", 0);
    if (out->seed == 0)
        out->seed = fresh_seed();
    const char *fv = getenv("CONVTUNE_TEST_FULL");
    const int full = fv && *fv && strcmp(fv, "0") != 0;
    printf("sampling with seed %llu (CONVTUNE_TEST_SEED=%llu draws the same sample again)%s\n", out->seed, out->seed,
           full ? ", CONVTUNE_TEST_FULL: every problem on every architecture" : "");
    fflush(stdout);
    CHECK(narchs <= TL_MAX_ARCHS);
    if (narchs > TL_MAX_ARCHS)
        narchs = TL_MAX_ARCHS;
    prepared *pr = calloc((size_t)nspecs * (size_t)narchs + 1, sizeof *pr);
    CHECK(pr != NULL);
    if (!pr)
        return;
    for (int s = 0; s < nspecs; s++)
        for (int a = 0; a < narchs; a++)
            prepare_one(specs[s], archs[a], cfg, out, a, narchs, s, nspecs, &pr[s * narchs + a]);
    const int per_arch = (int)tl_env_long("CONVTUNE_TEST_EXAMPLES", 1);
    plan(pr, nspecs, narchs, out->ntemplates, full, per_arch, out->seed);
    for (int s = 0; s < nspecs; s++)
        for (int a = 0; a < narchs; a++)
            compile_prepared(&pr[s * narchs + a], ref_template, out, a);
    free(pr);
    if (full)
        printf("compiled %d kernels: %d problems x %d architectures, up to %d candidates per template, every problem "
               "on every architecture, seed %llu\n", out->kernels, nspecs, narchs, out->per_template, out->seed);
    else
        printf("compiled %d kernels: %d problems x %d architectures, up to %d candidates per template, %d drawn "
               "problem(s) per template and architecture, seed %llu\n", out->kernels, nspecs, narchs,
               out->per_template, per_arch, out->seed);
}

void tl_sample_free(tl_sample *s)
{
    for (int a = 0; a < TL_MAX_ARCHS; a++) {
        free(s->compiled[a]);
        free(s->admissible[a]);
        free(s->why[a]);
    }
    memset(s, 0, sizeof *s);
}
