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

/* One problem on architecture a of narchs: every template's sample in one
 * pool. Each architecture draws its own sample (seed + a, its own share of
 * a baseline's spread): where a template's space is the same on every
 * architecture, one seed would compile the same candidates on each, so a
 * different draw per architecture covers as many configurations with
 * narchs times fewer compiles. */
static void compile_one(const char *spec, const char *arch, const ct_config *cfg, const char *ref_template,
                        tl_sample *out, int a, int narchs, int si, int nspecs)
{
    ct_problem p;
    ct_limits lim;
    ct_err e;
    memset(&e, 0, sizeof e);
    CHECK_MSG(ct_problem_parse(spec, &p, &e) == CT_OK, "%s: %s", spec, e.msg);
    CHECK_MSG(ct_limits_for_arch(arch, &lim, &e) == CT_OK, "%s: %s", arch, e.msg);
    if (e.msg[0])
        return;
    const ct_family *f = p.family;
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
    ct_space *sp = calloc((size_t)f->ntemplates, sizeof *sp);
    char **src = calloc((size_t)f->ntemplates, sizeof *src);
    ct_compile_pool pl;
    memset(&pl, 0, sizeof pl);
    pl.p = &p;
    pl.arch = arch;
    pl.ndefs = ct_problem_defines(&p, pl.defs);   /* CT_DTYPE too */
    ref_job ref = {.tmpl = ref_template, .arch = arch, .spec = spec, .defs = pl.defs, .ndefs = pl.ndefs};
    pthread_t ref_thread;
    int ref_started = ref_template && pthread_create(&ref_thread, NULL, ref_compile, &ref) == 0;
    if (ref_template && !ref_started)
        ref_compile(&ref);
    int total = 0;
    for (int t = 0; t < f->ntemplates; t++) {
        const ct_template *tp = &f->templates[t];
        CHECK(ct_template_source(tp->name, NULL, &src[t], &e) == CT_OK);
        CHECK(ct_space_build(&p, cfg, &lim, tp->name, &sp[t], &e) == CT_OK);
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
        total += sp[t].n;
    }
    pl.sources = (const char *const *)src;
    pl.jobs = calloc((size_t)total + 1, sizeof *pl.jobs);
    for (int t = 0; t < f->ntemplates; t++)
        for (int i = 0; i < sp[t].n; i++)
            pl.jobs[pl.njobs++] = (ct_compile_job){.cand = &sp[t].cand[i], .idx = i};
    ct_compile_all(&pl, 0);
    for (int j = 0; j < pl.njobs; j++) {
        ct_compile_job *jb = &pl.jobs[j];
        char key[512];
        ct_params_to_key(&jb->cand->params, key, sizeof key);
        CHECK_MSG(jb->done && jb->rc == CT_OK, "%s %s %s %s: %s", spec, arch, jb->cand->tmpl->name, key,
                  jb->err.msg);
        if (jb->rc == CT_OK) {
            int t = ct_template_index(&p, jb->cand->tmpl);
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
        free(src[t]);
        ct_space_free(&sp[t]);
    }
    free(pl.jobs);
    free(src);
    free(sp);
}

void tl_compile_sample(const char *const *specs, int nspecs, const char *const *archs, int narchs,
                       const ct_config *cfg, int per_template, const char *ref_template, tl_sample *out)
{
    memset(out, 0, sizeof *out);
    out->per_template = (int)tl_env_long("CONVTUNE_TEST_SAMPLE", per_template);
    out->seed = (unsigned long long)tl_env_long("CONVTUNE_TEST_SEED", 20261122);
    CHECK(narchs <= TL_MAX_ARCHS);
    for (int s = 0; s < nspecs; s++)
        for (int a = 0; a < narchs && a < TL_MAX_ARCHS; a++)
            compile_one(specs[s], archs[a], cfg, ref_template, out, a, narchs, s, nspecs);
    printf("compiled %d kernels: %d problems x %d architectures, up to %d candidates per template, seed %llu\n",
           out->kernels, nspecs, narchs, out->per_template, out->seed);
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
