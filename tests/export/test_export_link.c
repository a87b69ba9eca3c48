/* test_export_link.c - a single-problem export and the family export
 * holding the same problem link into one program.
 *
 * A problem of tests/fixtures/report.db, picked at random, is exported on
 * its own (launcher convtune_PROBLEM) and with its family (selector
 * convtune_F, instance launchers convtune_F_instance_PROBLEM). Both .cu
 * files are compiled with nvcc -c, a C main including both headers calls
 * the single launcher, the family's instance launcher of the same problem
 * and the selector, and nvcc links the three objects. The control: the
 * single export's object linked twice must fail with a multiple
 * definition, so the link step does catch a clash. No GPU is needed
 * (nothing runs); nvcc and a C compiler are prerequisites: without them
 * the test fails, it does not skip. */
#include "export_common.h"
#define CT_EXPORT_TEST_NAME "export_link"
#include "export_run.h"

#include <sqlite3.h>

#include "export.h"

/* A random problem of the fixture and its family; 0 when none was read. */
static int pick_problem(char *problem, size_t plen, char *family, size_t flen)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *s = NULL;
    int ok = 0;
    if (sqlite3_open_v2(CT_SOURCE_DIR "/tests/fixtures/report.db", &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(h, "SELECT p.canonical, p.family FROM problems p WHERE EXISTS (SELECT 1 FROM "
                              "candidates c WHERE c.problem_id = p.id AND c.status = 'ok') ORDER BY random() LIMIT 1",
                           -1, &s, NULL) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW) {
        snprintf(problem, plen, "%s", (const char *)sqlite3_column_text(s, 0));
        snprintf(family, flen, "%s", (const char *)sqlite3_column_text(s, 1));
        ok = 1;
    }
    sqlite3_finalize(s);
    sqlite3_close(h);
    return ok;
}

/* The launcher's parameter list as the header declares it: the text
 * between "int NAME(" and ");" in h; 0 when not found. */
static int params_of(const char *h, const char *name, char *buf, size_t len)
{
    char want[400];
    snprintf(want, sizeof want, "\nint %s(", name);
    const char *p = h ? strstr(h, want) : NULL;
    const char *end = p ? strstr(p, ");") : NULL;
    if (!end)
        return 0;
    p += strlen(want);
    snprintf(buf, len, "%.*s", (int)(end - p), p);
    return 1;
}

/* "0, 0, ..., 0" with one 0 per comma-separated parameter of params. */
static void zeros(const char *params, char *buf, size_t len)
{
    size_t o = (size_t)snprintf(buf, len, "0");
    for (const char *c = params; *c && o < len; c++)
        if (*c == ',')
            o += (size_t)snprintf(buf + o, len - o, ", 0");
}

int main(void)
{
    if (!scratch_dirs())
        return 1;
    const int have_nvcc = nvcc_on_path();
    char cc_path[600];
    const int have_cc = tc_which("cc", cc_path, sizeof cc_path) || tc_which("gcc", cc_path, sizeof cc_path);
    CHECK_MSG(have_cc, "no C compiler (cc or gcc) on PATH: a prerequisite of this test");
    char problem[200] = "", family[40] = "";
    CHECK_MSG(pick_problem(problem, sizeof problem, family, sizeof family), "no problem read from the fixture");
    printf("problem %s, family %s\n", problem, family);

    char fix[600], single_cu[600], single_h[600], fam_cu[600], fam_h[600];
    snprintf(fix, sizeof fix, "%s/tests/fixtures/report.db", CT_SOURCE_DIR);
    path_in(single_cu, sizeof single_cu, "single.cu");
    path_in(single_h, sizeof single_h, "single.h");
    path_in(fam_cu, sizeof fam_cu, "family.cu");
    path_in(fam_h, sizeof fam_h, "family.h");
    tc_result r;
    convtune(&r, "export", "--db", fix, "--problem", problem, "-o", single_cu, NULL);
    CHECK_MSG(r.code == 0, "export --problem %s: exit %d: %s", problem, r.code, r.err);
    tc_result_free(&r);
    convtune(&r, "export", "--db", fix, "--family", family, "-o", fam_cu, NULL);
    CHECK_MSG(r.code == 0, "export --family %s: exit %d: %s", family, r.code, r.err);
    tc_result_free(&r);

    /* The three names the headers must declare. */
    char sym[300], inst[400], sel[80];
    ct_export_symbol(problem, sym, sizeof sym);
    snprintf(sel, sizeof sel, "convtune_%s", family);
    snprintf(inst, sizeof inst, "%s_instance_%s", sel, sym + strlen("convtune_"));
    char *sh = tc_slurp(single_h, NULL), *fh = tc_slurp(fam_h, NULL), *fc = tc_slurp(fam_cu, NULL);
    char p_single[600] = "", p_inst[600] = "", p_sel[800] = "";
    CHECK_MSG(params_of(sh, sym, p_single, sizeof p_single), "%s does not declare %s", single_h, sym);
    CHECK_MSG(params_of(fh, inst, p_inst, sizeof p_inst), "%s does not declare %s", fam_h, inst);
    CHECK_MSG(params_of(fh, sel, p_sel, sizeof p_sel), "%s does not declare %s", fam_h, sel);
    /* The family defines no launcher under the single export's name. */
    char clash[400];
    snprintf(clash, sizeof clash, " %s(", sym);
    CHECK_MSG(fh && fc && !strstr(fh, clash) && !strstr(fc, clash), "the family export still defines %s", sym);
    CHECK_MSG(!strcmp(p_single, p_inst), "the instance launcher takes (%s), the single one (%s)", p_inst, p_single);

    /* A C main calling all three (never at run time: argc is 1 there). */
    char main_c[600], text[4096], z1[200], z2[300];
    path_in(main_c, sizeof main_c, "main.c");
    zeros(p_single, z1, sizeof z1);
    zeros(p_sel, z2, sizeof z2);
    snprintf(text, sizeof text,
             "#include <stddef.h>\n#include \"single.h\"\n#include \"family.h\"\n"
             "int main(int argc, char **argv)\n{\n    (void)argv;\n    if (argc < 100)\n        return 0;\n"
             "    return %s(%s) + %s(%s) + %s(%s);\n}\n",
             sym, z1, inst, z1, sel, z2);
    CHECK(tc_write_text(main_c, text) == 0);
    free(sh);
    free(fh);
    free(fc);

    char single_o[600], fam_o[600], main_o[600], prog[600];
    path_in(single_o, sizeof single_o, "single.o");
    path_in(fam_o, sizeof fam_o, "family.o");
    path_in(main_o, sizeof main_o, "main.o");
    path_in(prog, sizeof prog, "prog");
    char *c_main[] = {cc_path, "-std=c11", "-Wall", "-Wextra", "-Werror", "-c", main_c, "-o", main_o, NULL};
    CHECK_MSG(have_cc && run_tool("cc -c main.c (both headers)", c_main) == 0, "main.c with both headers failed");
    if (have_nvcc) {
        char *nv1[] = {"nvcc", "-arch=sm_90", "-c", single_cu, "-o", single_o, NULL};
        CHECK_MSG(run_tool("nvcc -c single.cu", nv1) == 0, "nvcc -c %s failed", single_cu);
        char *nv2[] = {"nvcc", "-arch=sm_90", "-c", fam_cu, "-o", fam_o, NULL};
        CHECK_MSG(run_tool("nvcc -c family.cu", nv2) == 0, "nvcc -c %s failed", fam_cu);
        /* -lcufft: an FFT instance needs it; the linker drops it otherwise. */
        char *ld[] = {"nvcc", main_o, single_o, fam_o, "-lcufft", "-o", prog, NULL};
        CHECK_MSG(run_tool("nvcc main.o single.o family.o", ld) == 0,
                  "the single and the family export of %s do not link into one program", problem);
        CHECK(tc_exists(prog));
        /* The control: a real clash is caught by this link. */
        tc_result lr;
        char *dup[] = {"nvcc", main_o, single_o, single_o, fam_o, "-lcufft", "-o", prog, NULL};
        tc_run(dup, work, base, TIMEOUT_S, &lr);
        CHECK_MSG(lr.code != 0 && (strstr(lr.out, "multiple definition") || strstr(lr.err, "multiple definition")),
                  "linking single.o twice did not fail with a multiple definition (exit %d)", lr.code);
        tc_result_free(&lr);
    }
    tc_rm_rf(base);
    CHECK_DONE();
}
