/* consumer_build.c - a family export used by a real, separate CMake project
 * (tests/consumer), without a GPU:
 *
 *   1. a database filled through the ct_db API with three conv1d problems
 *      (verified conv1d_tiled results with admissible parameters and the
 *      current template hash) on the GPU of this machine if there is one,
 *      else on a made-up device;
 *   2. `convtune export --family conv1d` into consumer-work/export;
 *   3. cmake configure and build of tests/consumer against that pair: nvcc
 *      compiles the .cu for the architectures in CT_CONSUMER_ARCHS (default
 *      "75;90"), the C compiler the C program, with warnings as errors (one
 *      configure for this program and those of steps 5 and 6, each its
 *      own library and program: -DCONSUMER_VARIANTS);
 *   4. `consumer pick` (no GPU needed) must choose, for exact, nearby and
 *      untuned sizes, the same tuned problem at the same distance as
 *      `convtune query --nearest`: the generated selector and the library
 *      rank alike;
 *   5. the same for every other family (tests/lib/export_common.h's cases):
 *      a database, `export --family F`, the consumer built for family F
 *      into consumer-work/build-F, its list of tuned
 *      problems and its picks against query --nearest;
 *   6. the half exports (tests/lib/export_common.h's tc_half_cases: each family
 *      in bf16 or f16, `export --family F --dtype T`, the consumer built
 *      for type T into consumer-work/build-F-T), their lists
 *      and picks likewise.
 *
 * The programs stay in consumer-work/ (in the test's working directory) for
 * gpu_consumer, which runs them. Without nvcc the test fails: the toolkit is
 * a prerequisite. CT_CMAKE and CT_NVCC (set by tests/CMakeLists.txt) name the cmake
 * and nvcc to use. */
#include "export_common.h"

#include <math.h>
#include <stdarg.h>

#include "json.h"

#define WORK "consumer-work"
#define TIMEOUT_S 1200

static char cwd[1024], work[1200], capdir[1300];

static int step(const char *what, char *const *argv, tc_result *keep)
{
    tc_result r;
    printf("$");
    for (int i = 0; argv[i]; i++)
        printf(" %s", argv[i]);
    printf("\n");
    fflush(stdout);
    tc_run(argv, cwd, capdir, TIMEOUT_S, &r);
    if (r.code != 0)
        fprintf(stderr, "%s failed (exit %d):\n%s\n%s\n", what, r.code, r.out, r.err);
    int code = r.code;
    if (keep)
        *keep = r;
    else
        tc_result_free(&r);
    return code;
}

static const char *cmake, *archs, *nvcc_path;

/* The exports the consumer is built for (CONSUMER_VARIANTS entries:
 * family, type, .cu, the folder of its program), all from one configure:
 * CMake's compiler checks, most of a configure's time, run once. */
static char variants[8192];

static void add_variant(const char *family, const char *dtype, const char *cu, const char *build)
{
    const size_t n = strlen(variants);
    snprintf(variants + n, sizeof variants - n, "%s%s,%s,%s,%s", n ? ";" : "", family, dtype, cu, build);
    CHECK_MSG(strlen(variants) + 1 < sizeof variants, "too many consumer variants");
}

/* Configures and builds tests/consumer for every variant added, in
 * consumer-work/build-all; each program lands in its own folder. */
static void build_all(void)
{
    char src[1100], build[1300], def_variants[8300], def_archs[300], def_nvcc[1100];
    snprintf(src, sizeof src, "%s/tests/consumer", CT_SOURCE_DIR);
    snprintf(build, sizeof build, "%s/build-all", work);
    snprintf(def_variants, sizeof def_variants, "-DCONSUMER_VARIANTS=%s", variants);
    snprintf(def_archs, sizeof def_archs, "-DCONSUMER_CUDA_ARCHITECTURES=%s", archs);
    snprintf(def_nvcc, sizeof def_nvcc, "-DCMAKE_CUDA_COMPILER=%s", nvcc_path);
    char *conf[] = {(char *)cmake, "-S", src, "-B", build, def_variants, def_archs, def_nvcc,
                    "-DCONSUMER_WERROR=ON", "-DCMAKE_BUILD_TYPE=Release", NULL};
    CHECK_MSG(step("cmake configure of tests/consumer", conf, NULL) == 0, "configuring tests/consumer failed");
    char *bld[] = {(char *)cmake, "--build", build, "--parallel", "2", NULL};
    CHECK_MSG(step("cmake --build of tests/consumer", bld, NULL) == 0, "building tests/consumer failed");
}

/* The program of the build folder into exe; 1 where it was built. */
static int built(const char *build, char *exe, size_t len)
{
    snprintf(exe, len, "%s/consumer", build);
    CHECK_MSG(access(exe, X_OK) == 0, "%s was not built", exe);
    return access(exe, X_OK) == 0;
}

/* The selector's pick (the consumer's `pick` output: "PROBLEM DISTANCE")
 * against query --nearest on dbpath. */
static void same_pick(const char *spec, tc_result *pick_out, const char *dbpath)
{
    char chosen[200] = "";
    double dist = -2;
    CHECK_MSG(sscanf(pick_out->out, "%199s %lf", chosen, &dist) == 2, "consumer pick %s: [%s]", spec, pick_out->out);
    tc_result r;
    char *q[] = {(char *)CT_BINARY, "query", "--nearest", (char *)spec, "--db", (char *)dbpath, "--format", "json",
                 NULL};
    CHECK(step("convtune query --nearest", q, &r) == 0);
    ct_json *v = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_json_parse(r.out, r.outlen, &v, &e) == CT_OK, "query --nearest %s: %s", spec, e.msg);
    const ct_json *c = ct_json_get(v, "chosen"), *d = ct_json_get(v, "distance");
    const char *want = c && c->type == CT_JSON_STRING ? c->str : "none";
    double wd = d && d->type == CT_JSON_NUMBER ? d->number : -1;
    CHECK_MSG(!strcmp(chosen, want) && fabs(dist - wd) <= 1e-5 * (1 + wd),
              "%s: the selector picks %s at %.6g, query --nearest %s at %.6g", spec, chosen, dist, want, wd);
    printf("%s: %s at %.4f (both)\n", spec, chosen, dist);
    ct_json_free(v);
    tc_result_free(&r);
}

/* Step 5 for one family other than conv1d: its database and export, a
 * variant of the consumer; 1 where both were made. */
static int other_family_export(const tc_family_case *fc, const ct_device_info *dev)
{
    char dbpath[1400], cu[1400], build[1400];
    snprintf(dbpath, sizeof dbpath, "%s/tuned_%s.db", work, fc->family);
    snprintf(cu, sizeof cu, "%s/export/convtune_%s.cu", work, fc->family);
    snprintf(build, sizeof build, "%s/build-%s", work, fc->family);
    if (!tc_family_db(dbpath, dev, fc))
        return 0;
    char *exp[] = {(char *)CT_BINARY, "export", "--family", (char *)fc->family, "--db", dbpath, "-o", cu, NULL};
    if (step("convtune export --family", exp, NULL) != 0) {
        CHECK_MSG(0, "export --family %s failed", fc->family);
        return 0;
    }
    add_variant(fc->family, "f32", cu, build);
    return 1;
}

/* Step 5's checks of the family's program, once built. */
static void other_family(const tc_family_case *fc)
{
    char dbpath[1400], build[1400], exe[1500];
    snprintf(dbpath, sizeof dbpath, "%s/tuned_%s.db", work, fc->family);
    snprintf(build, sizeof build, "%s/build-%s", work, fc->family);
    if (!built(build, exe, sizeof exe))
        return;
    tc_result r;
    char *lst[] = {exe, "list", NULL};
    CHECK(step("consumer list", lst, &r) == 0);
    ct_problem p[2];
    ct_err e = {""};
    for (int i = 0; i < 2; i++) {
        CHECK(ct_problem_parse(fc->problems[i], &p[i], &e) == CT_OK);
        char line[200];
        snprintf(line, sizeof line, "%s\n", p[i].canonical);
        CHECK_MSG(strstr(r.out, line) != NULL, "consumer list (%s) lacks %s:\n%s", fc->family, p[i].canonical, r.out);
    }
    tc_result_free(&r);
    const char *specs[] = {fc->problems[0], fc->problems[1], fc->nearby, fc->untuned};
    for (int i = 0; i < 4; i++) {
        ct_problem q;
        CHECK(ct_problem_parse(specs[i], &q, &e) == CT_OK);
        char *pick[] = {exe, "pick", q.canonical, NULL};
        CHECK(step("consumer pick", pick, &r) == 0);
        same_pick(q.canonical, &r, dbpath);
        tc_result_free(&r);
    }
    /* Another spelling of a tuned layer, given to the selector as it is
     * (query --nearest canonicalises it): exact, and nearest to it nearby. */
    for (int i = 0; i < 2; i++) {
        if (!fc->spelled[i])
            continue;
        char *pick[] = {exe, "pick", (char *)fc->spelled[i], NULL};
        CHECK(step("consumer pick", pick, &r) == 0);
        same_pick(fc->spelled[i], &r, dbpath);
        char want[300];
        snprintf(want, sizeof want, "%s %s", p[0].canonical, i ? "" : "0\n");
        CHECK_MSG(i ? !strncmp(r.out, want, strlen(want)) : !strcmp(r.out, want), "consumer pick %s: [%s], expected %s",
                  fc->spelled[i], r.out, want);
        tc_result_free(&r);
    }
}

/* Step 6 for one half case: the family's two test problems in the type
 * (conv1d's first with its half tiled template, the rest naive). The
 * case's family row, and its paths and problems into dbpath, cu, build
 * and spec; NULL where there is none. */
static const tc_family_case *half_paths(const tc_half_case *hc, char *dbpath, char *cu, char *build, char spec[4][200])
{
    const tc_family_case *fc = NULL;
    for (int c = 0; c < TC_NFAMILY_CASES; c++)
        if (!strcmp(tc_family_cases[c].family, hc->family))
            fc = &tc_family_cases[c];
    CHECK_MSG(fc != NULL, "no family case for %s", hc->family);
    if (!fc)
        return NULL;
    snprintf(dbpath, 1400, "%s/tuned_%s_%s.db", work, hc->family, hc->dtype);
    snprintf(cu, 1400, "%s/export/convtune_%s_%s.cu", work, hc->family, hc->dtype);
    snprintf(build, 1400, "%s/build-%s-%s", work, hc->family, hc->dtype);
    const char *base[4] = {fc->problems[0], fc->problems[1], fc->nearby, fc->untuned};
    for (int i = 0; i < 4; i++)
        snprintf(spec[i], 200, "%s:%s", base[i], hc->dtype);
    return fc;
}

/* Step 6's database and export for one half case, a variant of the
 * consumer; 1 where both were made. */
static int half_family_export(const tc_half_case *hc, const ct_device_info *dev)
{
    char dbpath[1400], cu[1400], build[1400], spec[4][200];
    const tc_family_case *fc = half_paths(hc, dbpath, cu, build, spec);
    if (!fc)
        return 0;
    ct_db *db = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_db_open(dbpath, 1, &db, &e) == CT_OK, "%s: %s", dbpath, e.msg);
    if (!db)
        return 0;
    for (int i = 0; i < 2; i++) {
        const int tiled = i == 0 && !strcmp(hc->family, "conv1d");
        const ct_result r = tc_first_values(spec[i], tiled ? "conv1d_tiledh" : fc->templates[1], 5.0 + i);
        tc_add_run(db, dev, spec[i], &r, 1);
    }
    ct_db_close(db);
    char *exp[] = {(char *)CT_BINARY, "export", "--family", (char *)hc->family, "--dtype", (char *)hc->dtype,
                   "--db", dbpath, "-o", cu, NULL};
    if (step("convtune export --family --dtype", exp, NULL) != 0) {
        CHECK_MSG(0, "export --family %s --dtype %s failed", hc->family, hc->dtype);
        return 0;
    }
    add_variant(hc->family, hc->dtype, cu, build);
    return 1;
}

/* Step 6's checks of the half case's program, once built. */
static void half_family(const tc_half_case *hc)
{
    char dbpath[1400], cu[1400], build[1400], exe[1500], spec[4][200];
    if (!half_paths(hc, dbpath, cu, build, spec) || !built(build, exe, sizeof exe))
        return;
    ct_err e = {""};
    tc_result r;
    char *lst[] = {exe, "list", NULL};
    CHECK(step("consumer list", lst, &r) == 0);
    ct_problem p;
    for (int i = 0; i < 2; i++) {
        CHECK(ct_problem_parse(spec[i], &p, &e) == CT_OK);
        char line[220];
        snprintf(line, sizeof line, "%s\n", p.canonical);
        CHECK_MSG(strstr(r.out, line) != NULL, "consumer list (%s %s) lacks %s:\n%s", hc->family, hc->dtype,
                  p.canonical, r.out);
    }
    tc_result_free(&r);
    for (int i = 0; i < 4; i++) {
        CHECK(ct_problem_parse(spec[i], &p, &e) == CT_OK);
        /* conv1d's consumer takes N K MODE, the others the problem */
        char n[32] = "", k[32] = "", mode[16] = "";
        if (!strcmp(hc->family, "conv1d"))
            CHECK(sscanf(p.canonical, "conv1d:%31[0-9]:%31[0-9]:%15[a-z]", n, k, mode) == 3);
        char *pick1[] = {exe, "pick", n, k, mode, NULL}, *pick2[] = {exe, "pick", p.canonical, NULL};
        CHECK(step("consumer pick", n[0] ? pick1 : pick2, &r) == 0);
        same_pick(p.canonical, &r, dbpath);
        tc_result_free(&r);
    }
}

int main(void)
{
    if (!getcwd(cwd, sizeof cwd)) {
        perror("getcwd");
        return 1;
    }
    snprintf(work, sizeof work, "%s/" WORK, cwd);
    snprintf(capdir, sizeof capdir, "%s/cap", work);
    tc_rm_rf(work);
    char exp_dir[1300], build[1300], dbpath[1300], cu[1400];
    snprintf(exp_dir, sizeof exp_dir, "%s/export", work);
    snprintf(build, sizeof build, "%s/build", work);
    snprintf(dbpath, sizeof dbpath, "%s/tuned.db", work);
    snprintf(cu, sizeof cu, "%s/convtune_conv1d.cu", exp_dir);
    if (mkdir(work, 0755) != 0 || mkdir(capdir, 0755) != 0 || mkdir(exp_dir, 0755) != 0) {
        perror("mkdir");
        return 1;
    }

    static char nvcc[1024] = "";
    const char *env_nvcc = getenv("CT_NVCC");
    if (env_nvcc && *env_nvcc && access(env_nvcc, X_OK) == 0)
        snprintf(nvcc, sizeof nvcc, "%s", env_nvcc);
    else if (!tc_which("nvcc", nvcc, sizeof nvcc))
        nvcc[0] = '\0';
    if (!nvcc[0]) {
        /* The toolkit is a prerequisite: a missing nvcc fails, not skips. */
        printf("FAILED: no nvcc (set CT_NVCC or put nvcc on PATH)\n");
        return 1;
    }
    /* The configured cmake may not exist where the tests run (a build copied
     * to a GPU machine): fall back to the one on PATH. */
    static char cmake_buf[1024] = "cmake";
    const char *env_cmake = getenv("CT_CMAKE");
    if (env_cmake && *env_cmake && access(env_cmake, X_OK) == 0)
        snprintf(cmake_buf, sizeof cmake_buf, "%s", env_cmake);
    else
        tc_which("cmake", cmake_buf, sizeof cmake_buf);
    cmake = cmake_buf;
    nvcc_path = nvcc;
    archs = getenv("CT_CONSUMER_ARCHS");
    if (!archs || !*archs)
        archs = "75;90";

    /* 1. the database: this machine's GPU if it has one */
    ct_device_info dev = tc_device("NVIDIA Consumer Test GPU", "GPU-cccc-test", 9, 0, 13000);
    ct_gpu g;
    ct_err e = {""};
    if (ct_gpu_open(0, &g, &e) == CT_OK) {
        dev = g.info;
        ct_gpu_close(&g);
        printf("tuned on this machine's GPU: %s (sm_%d%d)\n", dev.name, dev.cc_major, dev.cc_minor);
    } else {
        printf("no GPU here (%s): tuned on a made-up %s\n", e.msg, dev.name);
    }
    char hash[17];
    tc_template_hash("conv1d_tiled", hash);
    char p1[512], p2[512], p3[512];
    const tc_param a1[] = {{"BLOCK_SIZE", 128}, {"OUTPUTS_PER_THREAD", 8}, {"MASK_PLACEMENT", 0}, {"MASK_PAD", 1},
                           {"STAGE_INPUT", 1}, {"VEC_WIDTH", 4}, {"UNROLL", 4}};
    const tc_param a2[] = {{"BLOCK_SIZE", 64}, {"OUTPUTS_PER_THREAD", 4}, {"MASK_PLACEMENT", 1}, {"MASK_PAD", 0},
                           {"STAGE_INPUT", 0}, {"VEC_WIDTH", 2}, {"UNROLL", 2}};
    const tc_param a3[] = {{"BLOCK_SIZE", 256}, {"OUTPUTS_PER_THREAD", 4}, {"MASK_PLACEMENT", 2}, {"MASK_PAD", 0},
                           {"STAGE_INPUT", 1}, {"VEC_WIDTH", 1}, {"UNROLL", 1}, {"KCHUNK", 16}};
    CHECK(tc_params("conv1d:3000:37:same", "conv1d_tiled", a1, 7, p1, sizeof p1));
    CHECK(tc_params("conv1d:4096:7:valid", "conv1d_tiled", a2, 7, p2, sizeof p2));
    CHECK(tc_params("conv1d:20000:100:valid", "conv1d_tiled", a3, 8, p3, sizeof p3));
    ct_db *db = NULL;
    CHECK_MSG(ct_db_open(dbpath, 1, &db, &e) == CT_OK, "%s: %s", dbpath, e.msg);
    if (!db)
        CHECK_DONE();
    const ct_result r1[] = {tc_rec("conv1d_tiled", hash, p1, "ok", 5.0, 1e-7)};
    const ct_result r2[] = {tc_rec("conv1d_tiled", hash, p2, "ok", 6.0, 1e-7)};
    const ct_result r3[] = {tc_rec("conv1d_tiled", hash, p3, "ok", 9.0, 1e-7)};
    tc_add_run(db, &dev, "conv1d:3000:37:same", r1, 1);
    tc_add_run(db, &dev, "conv1d:4096:7:valid", r2, 1);
    tc_add_run(db, &dev, "conv1d:20000:100:valid", r3, 1);
    ct_db_close(db);

    /* 2. the export */
    char *exp[] = {(char *)CT_BINARY, "export", "--family", "conv1d", "--db", dbpath, "-o", cu, NULL};
    CHECK_MSG(step("convtune export --family conv1d", exp, NULL) == 0, "export failed");

    /* 3. configure and build the consumer project, for this export and
     * the other families' (5) and types' (6) alike */
    add_variant("conv1d", "f32", cu, build);
    int fam_ok[TC_NFAMILY_CASES] = {0}, half_ok[TC_NHALF_CASES] = {0};
    for (int c = 0; c < TC_NFAMILY_CASES; c++)
        if (strcmp(tc_family_cases[c].family, "conv1d") != 0)
            fam_ok[c] = other_family_export(&tc_family_cases[c], &dev);
    for (int c = 0; c < TC_NHALF_CASES; c++)
        half_ok[c] = half_family_export(&tc_half_cases[c], &dev);
    build_all();
    char exe[1400];
    if (!built(build, exe, sizeof exe) || ct_check_failures)
        CHECK_DONE();

    /* 4. the generated selector ranks as the library does */
    tc_result r;
    char *lst[] = {exe, "list", NULL};
    CHECK(step("consumer list", lst, &r) == 0);
    CHECK_MSG(!strcmp(r.out, "conv1d:4096:7:valid\nconv1d:20000:100:valid\nconv1d:3000:37:same\n"),
              "consumer list:\n%s", r.out);
    tc_result_free(&r);
    static const struct { const char *n, *k, *mode; } sizes[] = {
        {"3000", "37", "same"},  {"4096", "7", "valid"}, {"20000", "100", "valid"}, {"3001", "37", "same"},
        {"9000", "30", "valid"}, {"9100", "27", "valid"}, {"100", "2", "valid"},    {"2000000", "2047", "valid"},
        {"50", "3", "right"},    {"7", "99", "same"},    {"8000", "20", "valid"},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char spec[100];
        snprintf(spec, sizeof spec, "conv1d:%s:%s:%s", sizes[i].n, sizes[i].k, sizes[i].mode);
        char *pick[] = {exe, "pick", (char *)sizes[i].n, (char *)sizes[i].k, (char *)sizes[i].mode, NULL};
        CHECK(step("consumer pick", pick, &r) == 0);
        same_pick(spec, &r, dbpath);
        tc_result_free(&r);
    }

    /* 5. every other family */
    for (int c = 0; c < TC_NFAMILY_CASES; c++)
        if (fam_ok[c])
            other_family(&tc_family_cases[c]);

    /* 6. the half exports */
    for (int c = 0; c < TC_NHALF_CASES; c++)
        if (half_ok[c])
            half_family(&tc_half_cases[c]);
    CHECK_DONE();
}
