/* family_compile.h - the family tests' NVRTC check: for each problem given
 * and for sm_75 and sm_90, a seeded sample of every template's admissible
 * candidates (per_template of each non-baseline template; ct_space_sample
 * keeps a baseline's few whole), compiled on all cores through the tuner's
 * compile pool (compile_pool.h), each required to give a CUBIN; then the
 * family's fp64 reference kernel. A template added to a family is sampled
 * with no change to its test.
 *
 * NVRTC takes about a second per candidate, so the sample is what keeps
 * these tests short; a different seed samples other candidates:
 *   CONVTUNE_TEST_SAMPLE=N   candidates per template (CI's sanitizer pass: 1)
 *   CONVTUNE_TEST_SEED=S     the sampling seed (default 20261122)
 *
 * Include after check.h, compile.h, compile_pool.h, config.h, runner.h and
 * space.h. */
#ifndef CT_FAMILY_COMPILE_H
#define CT_FAMILY_COMPILE_H

#include <stdlib.h>
#include <string.h>

static long fc_env(const char *name, long dflt)
{
    const char *v = getenv(name);
    char *end;
    long x = v && *v ? strtol(v, &end, 10) : dflt;
    return v && *v && !*end && x > 0 ? x : dflt;
}

/* One problem on one architecture: every template's sample in one pool;
 * compiled[t] counts the candidates of template t that compiled. */
static int fc_compile(const char *spec, const char *arch, const ct_config *cfg, int per_template,
                      unsigned long long seed, const char *ref_template, int *compiled)
{
    ct_problem p;
    ct_limits lim;
    ct_err e;
    memset(&e, 0, sizeof e);
    CHECK_MSG(ct_problem_parse(spec, &p, &e) == CT_OK, "%s: %s", spec, e.msg);
    CHECK_MSG(ct_limits_for_arch(arch, &lim, &e) == CT_OK, "%s: %s", arch, e.msg);
    if (e.msg[0])
        return 0;
    const ct_family *f = p.family;
    ct_space *sp = calloc((size_t)f->ntemplates, sizeof *sp);
    char **src = calloc((size_t)f->ntemplates, sizeof *src);
    ct_compile_pool pl;
    memset(&pl, 0, sizeof pl);
    pl.p = &p;
    pl.arch = arch;
    pl.ndefs = f->defines(&p, pl.defs);
    int total = 0;
    for (int t = 0; t < f->ntemplates; t++) {
        const ct_template *tp = &f->templates[t];
        CHECK(ct_template_source(tp->name, NULL, &src[t], &e) == CT_OK);
        CHECK(ct_space_build(&p, cfg, &lim, tp->name, &sp[t], &e) == CT_OK);
        /* A template may rightly have nothing admissible for one problem or
         * architecture (FFT segments for a tiny problem, tensor cores before
         * sm_80); family_compile_sample checks each compiled somewhere. */
        ct_space_sample(&sp[t], per_template, seed);
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
        if (jb->rc == CT_OK)
            compiled[ct_template_index(&p, jb->cand->tmpl)]++;
        if (jb->rc == CT_OK)
            CHECK_MSG(jb->bin.is_cubin && jb->bin.size > 4 && !memcmp(jb->bin.data, "\177ELF", 4),
                      "%s %s %s %s: not a CUBIN", spec, arch, jb->cand->tmpl->name, key);
        ct_binary_free(&jb->bin);
    }
    if (ref_template) {
        char *rsrc = NULL;
        ct_binary bin;
        CHECK(ct_template_source(ref_template, NULL, &rsrc, &e) == CT_OK);
        CHECK_MSG(rsrc && ct_nvrtc_compile(rsrc, ref_template, arch, pl.defs, pl.ndefs, NULL, &bin, &e) == CT_OK,
                  "%s %s %s: %s", spec, arch, ref_template, e.msg);
        if (rsrc)
            ct_binary_free(&bin);
        free(rsrc);
        total++;
    }
    for (int t = 0; t < f->ntemplates; t++) {
        free(src[t]);
        ct_space_free(&sp[t]);
    }
    free(pl.jobs);
    free(src);
    free(sp);
    return total;
}

/* Every spec for sm_75 and sm_90; prints what was compiled. */
static void family_compile_sample(const char *const *specs, int nspecs, const ct_config *cfg, int per_template,
                                  const char *ref_template)
{
    static const char *const archs[] = {"sm_75", "sm_90"};
    int per = (int)fc_env("CONVTUNE_TEST_SAMPLE", per_template);
    unsigned long long seed = (unsigned long long)fc_env("CONVTUNE_TEST_SEED", 20261122);
    int total = 0, compiled[64] = {0};
    for (int s = 0; s < nspecs; s++)
        for (int a = 0; a < 2; a++)
            total += fc_compile(specs[s], archs[a], cfg, per, seed, ref_template, compiled);
    ct_problem p;
    ct_err e;
    if (nspecs > 0 && ct_problem_parse(specs[0], &p, &e) == CT_OK)
        for (int t = 0; t < p.family->ntemplates && t < 64; t++)
            CHECK_MSG(compiled[t] > 0, "template %s: no candidate admissible (or compiled) for any of the %d "
                      "problems on sm_75 or sm_90", p.family->templates[t].name, nspecs);
    printf("compiled %d kernels: %d problems x sm_75, sm_90, up to %d candidates per template, seed %llu\n", total,
           nspecs, per, seed);
}

#endif
