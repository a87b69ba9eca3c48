/* test_compile.c - NVRTC beyond the families' templates (test_conformance
 * compiles those): the ceilings kernels, PTX output, a compile error with
 * its log and an unknown architecture; a user's template folder (--templates)
 * with kernel folders and generated template files. Needs no GPU. */
#include "check.h"
#include "compile.h"
#include "files.h"

#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The expanded source of template name read from dir (NULL: built in). */
static char *source_of(const char *name, const char *dir)
{
    char *src = NULL;
    ct_err e;
    ct_status rc = ct_template_source(name, dir, &src, &e);
    CHECK_MSG(rc == CT_OK, "%s from %s: %s", name, dir ? dir : "the binary", e.msg);
    return rc == CT_OK ? src : NULL;
}

static int nvrtc_seen(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    return info->dlpi_name && strstr(info->dlpi_name, "libnvrtc") != NULL;
}

/* Whether NVRTC is mapped into this process. */
static int nvrtc_loaded(void)
{
    return dl_iterate_phdr(nvrtc_seen, NULL) != 0;
}

/* A user's folder laid out like templates/ finds a kernel kind's device code
 * in kernels/K/, and takes the family template file the build wrote from the
 * kind's stub (conv2dc_tc16wb.cu, in no source folder) from the binary; a
 * flat copy expands to the built-in text; a file of the folder wins. */
static void test_user_folder(void)
{
    const char *tmp = getenv("TMPDIR");
    char base[512], cmd[2048], path[700];
    snprintf(base, sizeof base, "%s/ct_test_compile_XXXXXX", tmp && *tmp ? tmp : P_tmpdir);
    if (!mkdtemp(base)) {
        CHECK(!"mkdtemp");
        return;
    }
    snprintf(cmd, sizeof cmd, "cp -R '%s/templates' '%s/tree' && mkdir '%s/flat' && cp '%s'/templates/*/*.cu* "
             "'%s'/templates/kernels/*/*.cuh '%s/flat/'", CT_SOURCE_DIR, base, base, CT_SOURCE_DIR, CT_SOURCE_DIR,
             base);
    CHECK_MSG(system(cmd) == 0, "%s", cmd);
    snprintf(path, sizeof path, "%s/tree/conv2dc/conv2dc_tc16wb.cu", base);
    CHECK_MSG(!tl_exists(path), "%s is generated, no file of templates/", path);
    char *builtin = source_of("conv2dc_tc16wb", NULL);
    snprintf(path, sizeof path, "%s/flat", base);
    char *flat = source_of("conv2dc_tc16wb", path);
    CHECK(builtin && flat && strcmp(builtin, flat) == 0);

    /* The folder's own device code is what the template expands to. */
    snprintf(path, sizeof path, "%s/tree/kernels/tc16wb/ct_conv_tc16wb.cuh", base);
    char *cuh = tl_slurp(path, NULL);
    CHECK(cuh != NULL);
    size_t n = cuh ? strlen(cuh) : 0;
    char *marked = malloc(n + 64);
    if (cuh && marked) {
        snprintf(marked, n + 64, "%s// user's copy\n", cuh);
        CHECK(tl_write_text(path, marked) == 0);
    }
    snprintf(path, sizeof path, "%s/tree", base);
    char *tree = source_of("conv2dc_tc16wb", path);
    CHECK_MSG(tree && strstr(tree, "// user's copy\n"), "the kernel folder's device code was not read");
    CHECK(builtin && !strstr(builtin, "// user's copy"));

    /* A template file of the folder wins over the generated one. */
    snprintf(path, sizeof path, "%s/tree/conv2dc/conv2dc_tc16wb.cu", base);
    CHECK(tl_write_text(path, "// mine\n#define TC_NAME conv2dc_tc16wb\n") == 0);
    snprintf(path, sizeof path, "%s/tree", base);
    char *mine = source_of("conv2dc_tc16wb", path);
    CHECK(mine && strcmp(mine, "// mine\n#define TC_NAME conv2dc_tc16wb\n") == 0);
    free(builtin), free(flat), free(cuh), free(marked), free(tree), free(mine);
    tl_rm_rf(base);
}

int main(void)
{
    /* NVRTC is loaded by the first compile (nvrtcdl.h), not at start: the
     * commands that compile nothing do not pay for it. */
    CHECK_MSG(!nvrtc_loaded(), "NVRTC is loaded before anything compiled");
    test_user_folder();
    ct_err e;
    char *src;
    ct_binary bin;
    CHECK(ct_template_source("ct_ceilings", NULL, &src, &e) == CT_OK);
    CHECK(ct_nvrtc_compile(src, "ct_ceilings", "compute_90", NULL, 0, NULL, &bin, &e) == CT_OK);
    CHECK(nvrtc_loaded());
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
