/* test_compile.c - NVRTC beyond the families' templates (test_conformance
 * compiles those): the ceilings kernels, PTX output, a compile error with
 * its log and an unknown architecture. Needs no GPU. */
#include "check.h"
#include "compile.h"

#include <stdlib.h>
#include <string.h>

int main(void)
{
    ct_err e;
    char *src;
    ct_binary bin;
    CHECK(ct_template_source("ct_ceilings", NULL, &src, &e) == CT_OK);
    CHECK(ct_nvrtc_compile(src, "ct_ceilings", "compute_90", NULL, 0, NULL, &bin, &e) == CT_OK);
    /* compute_90 compiles for sm_90a (ct_arch_target): wgmma is allowed. */
    CHECK(!bin.is_cubin && strstr(bin.data, ".target sm_90a") != NULL);
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
    /* The architecture-specific target only where the device has one. */
    char t[32];
    CHECK_STR(ct_arch_target("sm_90", t, sizeof t), "sm_90a");
    CHECK_STR(ct_arch_target("compute_90", t, sizeof t), "compute_90a");
    CHECK_STR(ct_arch_target("sm_80", t, sizeof t), "sm_80");
    CHECK_STR(ct_arch_target("sm_89", t, sizeof t), "sm_89");
    CHECK_STR(ct_arch_target("sm_100", t, sizeof t), "sm_100");
    /* nvcc takes an architecture-specific target in the -gencode form. */
    char f[64];
    CHECK_STR(ct_arch_nvcc("sm_90", f, sizeof f), "-gencode=arch=compute_90a,code=sm_90a");
    CHECK_STR(ct_arch_nvcc("sm_80", f, sizeof f), "-arch=sm_80");
    CHECK_DONE();
}
