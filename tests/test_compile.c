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
