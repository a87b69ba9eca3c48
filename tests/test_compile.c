/* test_compile.c - NVRTC compiles every template over its space (a fixed,
 * seeded sample where the space is large) for sm_75 and sm_90, plus the
 * reference and ceiling kernels. Needs no GPU. */
#include "check.h"
#include "compile.h"
#include "runner.h"
#include "space.h"

#define SAMPLE 16

static void compile_space(const char *spec, const char *arch, const ct_config *cfg)
{
    ct_problem p;
    ct_err e;
    CHECK(ct_problem_parse(spec, &p, &e) == CT_OK);
    ct_limits lim;
    CHECK(ct_limits_for_arch(arch, &lim, &e) == CT_OK);
    ct_define defs[CT_MAX_DEFINES];
    int nd = p.family->defines(&p, defs);
    for (int t = 0; t < p.family->ntemplates; t++) {
        const ct_template *tp = &p.family->templates[t];
        ct_space sp;
        CHECK(ct_space_build(&p, cfg, &lim, tp->name, &sp, &e) == CT_OK);
        /* FFT segments are pointless for tiny problems: the constraints may
         * rightly leave nothing of that template. */
        CHECK_MSG(sp.n > 0 || tp->exec, "%s %s: empty space", spec, tp->name);
        ct_space_sample(&sp, SAMPLE, 20261122);
        char *src;
        CHECK(ct_template_source(tp->name, NULL, &src, &e) == CT_OK);
        int ok = 0;
        for (int i = 0; i < sp.n; i++) {
            ct_binary bin;
            ct_status rc = ct_nvrtc_compile(src, tp->name, arch, defs, nd, &sp.cand[i].params, &bin, &e);
            char key[512];
            ct_params_to_key(&sp.cand[i].params, key, sizeof key);
            CHECK_MSG(rc == CT_OK, "%s %s %s %s: %s", spec, arch, tp->name, key, e.msg);
            if (rc == CT_OK) {
                CHECK(bin.is_cubin && bin.size > 4 && memcmp(bin.data, "\177ELF", 4) == 0);
                ok++;
            }
            ct_binary_free(&bin);
        }
        printf("%s %s %s: %d of %d sampled candidates compiled\n", spec, arch, tp->name, ok, sp.n);
        free(src);
        ct_space_free(&sp);
    }
    /* The fp64 reference kernel of the family. */
    char name[64], *src;
    snprintf(name, sizeof name, "%s_ref64", p.family->name);
    CHECK(ct_template_source(name, NULL, &src, &e) == CT_OK);
    ct_binary bin;
    CHECK_MSG(ct_nvrtc_compile(src, name, arch, defs, nd, NULL, &bin, &e) == CT_OK, "%s", e.msg);
    ct_binary_free(&bin);
    free(src);
}

int main(void)
{
    ct_config cfg;
    ct_err e;
    CHECK(ct_config_init(&cfg, &e) == CT_OK);
    static const char *const specs[] = {"conv1d:1e6:2047", "conv1d:1000:31:same", "conv1d:15:4:right",
                                        "conv1d:100000000:3"};
    static const char *const archs[] = {"sm_75", "sm_90"};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++)
        for (size_t a = 0; a < 2; a++)
            compile_space(specs[s], archs[a], &cfg);

    /* Ceilings kernels, PTX output, and a compile error with its log. */
    char *src;
    ct_binary bin;
    CHECK(ct_template_source("ct_ceilings", NULL, &src, &e) == CT_OK);
    CHECK(ct_nvrtc_compile(src, "ct_ceilings", "compute_90", NULL, 0, NULL, &bin, &e) == CT_OK);
    CHECK(!bin.is_cubin && strstr(bin.data, ".target sm_90") != NULL);
    ct_binary_free(&bin);
    free(src);
    ct_status rc = ct_nvrtc_compile("extern \"C\" __global__ void k() { undefined_thing(); }", "bad", "sm_90",
                                    NULL, 0, NULL, &bin, &e);
    CHECK(rc == CT_ERR_COMPILE);
    CHECK(strstr(e.msg, "undefined_thing") != NULL);
    CHECK(bin.log && strstr(bin.log, "undefined_thing") != NULL);
    ct_binary_free(&bin);
    CHECK(ct_nvrtc_compile("", "x", "gfx90a", NULL, 0, NULL, &bin, &e) == CT_ERR_USAGE);
    CHECK(ct_nvrtc_version() >= 12000);
    CHECK_DONE();
}
