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

/* The winner's template of problem in the fixture fix, from export's
 * line "FILE and FILE.h: TEMPLATE {params}, ..." (the export to out). */
static int winner_template(const char *fix, const char *problem, const char *out, char *tmpl, size_t len)
{
    tc_result r;
    convtune(&r, "export", "--db", fix, "--problem", problem, "-o", out, NULL);
    const char *p = r.code == 0 ? strstr(r.out, ".h: ") : NULL;
    int ok = p && sscanf(p + 4, "%63s", tmpl) == 1 && strlen(tmpl) < len;
    tc_result_free(&r);
    return ok;
}

/* Two single exports of one template link into one program. */
static void two_singles(const char *fix, const char *cc_path)
{
    static const char *const pa = "conv2dc:10000:12:22:22:12:3:3:valid", *const pb = "conv2dc:10000:1:28:28:12:7:7:valid";
    char a_cu[600], b_cu[600], a_o[600], b_o[600], m_c[600], m_o[600], prog[600], ta[64] = "", tb[64] = "";
    path_in(a_cu, sizeof a_cu, "a.cu");
    path_in(b_cu, sizeof b_cu, "b.cu");
    path_in(a_o, sizeof a_o, "a.o");
    path_in(b_o, sizeof b_o, "b.o");
    path_in(m_c, sizeof m_c, "m2.c");
    path_in(m_o, sizeof m_o, "m2.o");
    path_in(prog, sizeof prog, "prog2");
    CHECK(winner_template(fix, pa, a_cu, ta, sizeof ta));
    CHECK(winner_template(fix, pb, b_cu, tb, sizeof tb));
    CHECK_MSG(*ta && !strcmp(ta, tb), "the fixture's %s and %s no longer share a winning template (%s, %s)", pa, pb,
              ta, tb);
    /* The NVRTC view (no renames) still declares the template's kernel. */
    char *text = tc_slurp(a_cu, NULL), decl[sizeof "#define  _single_" + 2 * sizeof ta];   /* ta twice */
    snprintf(decl, sizeof decl, "#define %s %s_single_", ta, ta);
    CHECK_MSG(text && strstr(text, decl), "%s does not rename %s for nvcc builds", a_cu, ta);
    free(text);
    char sa[300], sb[300], src[1400];
    ct_export_symbol(pa, sa, sizeof sa);
    ct_export_symbol(pb, sb, sizeof sb);
    snprintf(src, sizeof src,
             "#include <stddef.h>\n#include \"a.h\"\n#include \"b.h\"\n"
             "int main(int argc, char **argv)\n{\n    (void)argv;\n    if (argc < 100)\n        return 0;\n"
             "    return %s(NULL, NULL, NULL, NULL) + %s(NULL, NULL, NULL, NULL);\n}\n", sa, sb);
    CHECK(tc_write_text(m_c, src) == 0);
    char *cm[] = {(char *)cc_path, "-std=c11", "-Wall", "-Wextra", "-Werror", "-c", m_c, "-o", m_o, NULL};
    CHECK_MSG(run_tool("cc -c m2.c", cm) == 0, "m2.c with both single headers failed");
    char *n1[] = {"nvcc", "-arch=sm_90", "-c", a_cu, "-o", a_o, NULL};
    char *n2[] = {"nvcc", "-arch=sm_90", "-c", b_cu, "-o", b_o, NULL};
    CHECK_MSG(run_tool("nvcc -c a.cu", n1) == 0 && run_tool("nvcc -c b.cu", n2) == 0, "nvcc -c of the two singles failed");
    char *ld[] = {"nvcc", m_o, a_o, b_o, "-o", prog, NULL};
    CHECK_MSG(run_tool("nvcc m2.o a.o b.o", ld) == 0, "two single exports of %s (%s, %s) do not link into one program",
              ta, pa, pb);
    CHECK(tc_exists(prog));
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
    if (have_nvcc)
        two_singles(fix, cc_path);
    tc_rm_rf(base);
    CHECK_DONE();
}
