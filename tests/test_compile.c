/* test_compile.c - NVRTC compiles a seeded sample of every conv1d
 * template's space for sm_75 and sm_90 (family_compile.h), plus the
 * reference and ceiling kernels, PTX output and a compile error. Needs no
 * GPU. */
#include "check.h"
#include "compile.h"
#include "compile_pool.h"
#include "runner.h"
#include "space.h"

#include "family_compile.h"

int main(void)
{
    ct_config cfg;
    ct_err e;
    CHECK(ct_config_init(&cfg, &e) == CT_OK);
    static const char *const specs[] = {"conv1d:1e6:2047", "conv1d:1000:31:same", "conv1d:15:4:right",
                                        "conv1d:100000000:3"};
    family_compile_sample(specs, (int)(sizeof specs / sizeof specs[0]), &cfg, 6, "conv1d_ref64");

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
