/* test_family_conv2d.c - what only the conv2d family has, without a GPU
 * (test_conformance covers problem strings, the reference against the
 * definition and NVRTC over every template): counts, buffers, defines and
 * launch geometry; the constrained spaces against the limits the family
 * models; and the tiled template run on the CPU (its CUDA source compiled as
 * C++ with a small emulation of the few CUDA built-ins it uses, under
 * AddressSanitizer) over edge-heavy shapes, compared with the reference. */
#include "check.h"
#include "config.h"
#include "data.h"
#include "files.h"
#include "problem.h"
#include "runner.h"
#include "space.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static ct_problem problem(const char *spec)
{
    ct_problem p;
    ct_err e;
    ct_status rc = ct_problem_parse(spec, &p, &e);
    CHECK_MSG(rc == CT_OK, "%s: %s", spec, e.msg);
    if (rc != CT_OK)
        exit(1);
    return p;
}

static unsigned long long rng_state;

static long long define_of(const ct_problem *p, const char *name)
{
    ct_define d[CT_MAX_DEFINES];
    int n = p->family->defines(p, d);
    for (int i = 0; i < n; i++)
        if (strcmp(d[i].name, name) == 0)
            return d[i].value;
    CHECK_MSG(0, "%s: no define %s", p->canonical, name);
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Counts, buffers, defines, geometry                                       */

static void test_counts(void)
{
    ct_problem p = problem("conv2d:16:2048:2048:11:11:same");
    const double n = 16.0 * 2048 * 2048;
    CHECK(p.family->flops(&p) == 2.0 * n * 121);
    CHECK(p.family->bytes(&p) == 4.0 * (n + 121 + n));
    ct_buffer b[CT_MAX_BUFS];
    CHECK(p.family->buffers(&p, b) == 3);
    CHECK_STR(b[0].name, "in");
    CHECK(b[0].count == (size_t)n && !b[0].is_output && b[0].symbol == NULL);
    CHECK_STR(b[1].name, "filter");
    CHECK(b[1].count == 121 && !b[1].is_output && b[1].symbol && strcmp(b[1].symbol, "c_filter") == 0);
    CHECK_STR(b[2].name, "out");
    CHECK(b[2].count == (size_t)n && b[2].is_output);
    CHECK(ct_problem_output_count(&p) == (size_t)n);
    CHECK(define_of(&p, "CONV_PH") == 5 && define_of(&p, "CONV_PW") == 5);
    CHECK(define_of(&p, "CONV_OH") == 2048 && define_of(&p, "CONV_OW") == 2048);

    p = problem("conv2d:1:1000:1000:3:3");
    CHECK(p.family->flops(&p) == 2.0 * 998 * 998 * 9);
    CHECK(p.family->bytes(&p) == 4.0 * (1e6 + 9 + 998.0 * 998));
    CHECK(ct_problem_output_count(&p) == 998 * 998);
    CHECK(define_of(&p, "CONV_PH") == 0 && define_of(&p, "CONV_PW") == 0);

    /* Even filters in same mode: PyTorch puts the extra tap after. */
    p = problem("conv2d:4:513:257:6:8:same");
    CHECK(define_of(&p, "CONV_PH") == 2 && define_of(&p, "CONV_PW") == 3);
    CHECK(define_of(&p, "CONV_OH") == 513 && define_of(&p, "CONV_OW") == 257);
    CHECK(define_of(&p, "CONV_B") == 4 && define_of(&p, "CONV_H") == 513 && define_of(&p, "CONV_W") == 257);
    CHECK(define_of(&p, "CONV_KH") == 6 && define_of(&p, "CONV_KW") == 8);

    p = problem("conv2d:2:31:33:31:1:valid");
    CHECK(define_of(&p, "CONV_OH") == 1 && define_of(&p, "CONV_OW") == 33);
    CHECK(p.family->flops(&p) == 2.0 * 2 * 33 * 31);
    CHECK(p.family->bytes(&p) == 4.0 * (2 * 31 * 33 + 31 + 2 * 33));

    /* Launch geometry covers the output exactly once per tile. */
    p = problem("conv2d:16:2048:2048:11:11:same");
    const ct_template *naive = ct_template_find(p.family, "conv2d_naive");
    const ct_template *tiled = ct_template_find(p.family, "conv2d_tiled");
    CHECK(naive && naive->is_baseline && tiled && !tiled->is_baseline);
    ct_params c = {0};
    ct_params_set(&c, "BLOCK_X", 32, NULL);
    ct_params_set(&c, "BLOCK_Y", 8, NULL);
    ct_launch l;
    p.family->geometry(&p, naive, &c, &l);
    CHECK(l.grid[0] == 64 && l.grid[1] == 256 && l.grid[2] == 16);
    CHECK(l.block[0] == 32 && l.block[1] == 8 && l.block[2] == 1 && l.smem_bytes == 0);
    ct_params_set(&c, "OUT_X", 4, NULL);
    ct_params_set(&c, "OUT_Y", 8, NULL);
    p.family->geometry(&p, tiled, &c, &l);
    CHECK(l.grid[0] == 16 && l.grid[1] == 32 && l.grid[2] == 16);
    p = problem("conv2d:4:513:257:5:7:same");
    p.family->geometry(&p, tiled, &c, &l);
    CHECK(l.grid[0] == 3 && l.grid[1] == 9 && l.grid[2] == 4);
}

/* ------------------------------------------------------------------------ */
/* Spaces and constraints                                                   */

/* Static shared memory of a tiled candidate, from the template's macros. */
static long long tiled_smem(const ct_problem *p, const ct_params *c)
{
    long bx = ct_params_get(c, "BLOCK_X", -1), by = ct_params_get(c, "BLOCK_Y", -1);
    long ox = ct_params_get(c, "OUT_X", -1), oy = ct_params_get(c, "OUT_Y", -1);
    long vec = ct_params_get(c, "VEC", -1), pad = ct_params_get(c, "SMEM_PAD", -1);
    long long nwin = (ox + p->dims[4] - 1 + vec - 1) / vec * vec;
    long long pitch = (bx - 1) * ox + nwin + pad, rows = by * oy + p->dims[3] - 1;
    long long bytes = 4 * pitch * rows;
    if (ct_params_get(c, "FILTER_PLACEMENT", -1) == 1)
        bytes += 4 * p->dims[3] * ((p->dims[4] + 3) / 4 * 4);
    return bytes;
}

static void check_space(const char *spec, const char *arch, const ct_config *cfg, int *tiled_n)
{
    ct_problem p = problem(spec);
    ct_limits lim;
    ct_err e;
    CHECK(ct_limits_for_arch(arch, &lim, &e) == CT_OK);
    ct_space sp;
    CHECK(ct_space_build(&p, cfg, &lim, NULL, &sp, &e) == CT_OK);
    int per[2] = {0, 0};
    for (int i = 0; i < sp.n; i++) {
        const ct_candidate *cd = &sp.cand[i];
        const ct_params *c = &cd->params;
        ct_launch l;
        p.family->geometry(&p, cd->tmpl, c, &l);
        long long threads = (long long)l.block[0] * l.block[1] * l.block[2];
        char key[512];
        ct_params_to_key(c, key, sizeof key);
        CHECK_MSG(threads % 32 == 0 && threads <= lim.max_threads_per_block, "%s %s", spec, key);
        CHECK_MSG(l.grid[1] <= 65535 && l.grid[2] == p.dims[0] && l.grid[2] <= 65535, "%s %s", spec, key);
        CHECK_MSG(l.smem_bytes == 0, "%s %s: dynamic shared memory", spec, key);
        if (cd->tmpl->is_baseline) {
            per[0]++;
            continue;
        }
        per[1]++;
        long ox = ct_params_get(c, "OUT_X", -1), oy = ct_params_get(c, "OUT_Y", -1);
        long vec = ct_params_get(c, "VEC", -1), khs = ct_params_get(c, "KH_STEP", -1);
        long minb = ct_params_get(c, "MIN_BLOCKS", -1);
        /* Tiles cover the output. */
        CHECK_MSG((long long)l.grid[0] * l.block[0] * ox >= define_of(&p, "CONV_OW") &&
                      (long long)l.grid[1] * l.block[1] * oy >= define_of(&p, "CONV_OH"),
                  "%s %s: grid too small", spec, key);
        long long smem = tiled_smem(&p, c);
        CHECK_MSG(smem + 16 <= 48 * 1024 && smem * minb <= lim.max_smem_per_sm, "%s %s: %lld bytes of shared memory",
                  spec, key, smem);
        CHECK_MSG(ox % vec == 0 && ct_params_get(c, "SMEM_PAD", -1) % vec == 0, "%s %s: misaligned window", spec, key);
        CHECK_MSG(khs >= 1 && khs <= p.dims[3], "%s %s: KH_STEP not normalised", spec, key);
        long long rows = khs + p.dims[3] % khs;
        CHECK_MSG(ox * oy * p.dims[4] * rows <= 4096, "%s %s: too much unrolled code", spec, key);
        CHECK_MSG(threads * minb <= 2048, "%s %s: MIN_BLOCKS", spec, key);
        if (ct_params_get(c, "FILTER_PLACEMENT", -1) == 0)
            CHECK(p.dims[3] * p.dims[4] * 4 <= lim.const_bytes);
    }
    printf("%s %s: %d naive + %d tiled candidates\n", spec, arch, per[0], per[1]);
    CHECK_MSG(per[0] > 0 && per[1] > 0, "%s %s: empty template space", spec, arch);
    if (tiled_n)
        *tiled_n = per[1];
    ct_space_free(&sp);
}

static int rejects(const char *spec, const ct_params *c, const char *frag)
{
    ct_problem p = problem(spec);
    ct_limits lim;
    ct_err e;
    ct_limits_for_arch("sm_90", &lim, &e);
    char why[256] = "";
    const ct_template *t = ct_template_find(p.family, "conv2d_tiled");
    int r = p.family->constrain(&p, t, c, &lim, why, sizeof why);
    CHECK_MSG(!r || strstr(why, frag) != NULL, "%s: reason lacks \"%s\": %s", spec, frag, why);
    return r;
}

static void test_spaces(void)
{
    ct_config cfg;
    ct_err e;
    CHECK(ct_config_init(&cfg, &e) == CT_OK);
    int seed_n = 0;
    check_space("conv2d:16:2048:2048:11:11:same", "sm_90", &cfg, &seed_n);
    CHECK_MSG(seed_n >= 100 && seed_n <= 1500, "seed space has %d tiled candidates", seed_n);
    check_space("conv2d:16:2048:2048:11:11:same", "sm_75", &cfg, NULL);
    static const char *const others[] = {"conv2d:1:1000:1000:3:3:valid", "conv2d:4:513:257:5:7:same",
                                         "conv2d:1:7:9:1:1", "conv2d:2:31:33:31:1:valid",
                                         "conv2d:1:64:64:63:63:same"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        check_space(others[i], "sm_90", &cfg, NULL);

    /* One admissible candidate, then each limit broken in turn. */
    ct_params c = {0};
    static const struct { const char *name; long v; } good[] = {
        {"BLOCK_X", 32}, {"BLOCK_Y", 8}, {"OUT_X", 4}, {"OUT_Y", 8}, {"FILTER_PLACEMENT", 0},
        {"KH_STEP", 11}, {"VEC", 4}, {"SMEM_PAD", 0}, {"MIN_BLOCKS", 1}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        ct_params_set(&c, good[i].name, good[i].v, NULL);
    const char *seed = "conv2d:16:2048:2048:11:11:same";
    CHECK(!rejects(seed, &c, ""));
    ct_params d = c;
    ct_params_set(&d, "OUT_X", 2, NULL);
    CHECK(rejects(seed, &d, "VEC"));
    d = c;
    ct_params_set(&d, "OUT_Y", 16, NULL);
    CHECK(rejects(seed, &d, "FMAs"));
    d = c;
    ct_params_set(&d, "BLOCK_Y", 16, NULL);
    CHECK(rejects(seed, &d, "48 KiB"));
    d = c;
    ct_params_set(&d, "BLOCK_X", 10, NULL);
    ct_params_set(&d, "BLOCK_Y", 1, NULL);
    CHECK(rejects(seed, &d, "multiple of 32"));
    d = c;
    ct_params_set(&d, "MIN_BLOCKS", 4, NULL);
    CHECK(rejects(seed, &d, "MIN_BLOCKS"));
    d = c;
    ct_params_set(&d, "VEC", 3, NULL);
    CHECK(rejects(seed, &d, "VEC"));
    CHECK(rejects("conv2d:1:300:300:200:100:same", &c, "constant memory"));
    d = c;
    ct_params_set(&d, "BLOCK_X", 1024, NULL);
    ct_params_set(&d, "BLOCK_Y", 2, NULL);
    CHECK(rejects(seed, &d, "multiple of 32"));
}

/* ------------------------------------------------------------------------ */
/* The tiled template on the CPU                                            */

/* Just enough CUDA for conv2d_tiled.cu as host C++. Shared arrays go to
 * their own section, which the driver below fills with NaN before each
 * block, so a value the block did not stage poisons its outputs. The kernel
 * runs twice per block, every thread in turn: the first pass stages the
 * whole tile, the second, with staging writing the same values again, reads
 * what every thread staged, as after the barrier. */
static const char emu_prelude[] =
    "#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
    "struct ct_dim3 { unsigned x, y, z; };\n"
    "static ct_dim3 threadIdx, blockIdx;\n"
    "#define __global__\n#define __device__\n#define __forceinline__ inline\n"
    "#define __launch_bounds__(...)\n#define __constant__\n"
    "#define __shared__ static\n"
    "#define __align__(n) __attribute__((aligned(n), section(\"ctsmem\")))\n"
    "#define __ldg(p) (*(p))\n"
    "static inline int min(int a, int b) { return a < b ? a : b; }\n"
    "static inline int max(int a, int b) { return a > b ? a : b; }\n"
    "struct float4 { float x, y, z, w; };\nstruct float2 { float x, y; };\n"
    "static inline float4 make_float4(float a, float b, float c, float d) { return {a, b, c, d}; }\n"
    "static inline void __syncthreads(void) {}\n"
    "extern \"C\" float __start_ctsmem[], __stop_ctsmem[];\n";

static const char emu_main[] =
    "static float *slurp(const char *path, size_t n)\n"
    "{\n"
    "    float *v = (float *)malloc(n * sizeof(float));\n"
    "    FILE *f = fopen(path, \"rb\");\n"
    "    if (!v || !f || fread(v, sizeof(float), n, f) != n) exit(2);\n"
    "    fclose(f);\n"
    "    return v;\n"
    "}\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "    if (argc != 10) return 2;\n"
    "    size_t nin = (size_t)CONV_B * CONV_H * CONV_W, nout = (size_t)CONV_B * CONV_OH * CONV_OW;\n"
    "    float *in = slurp(argv[1], nin), *filter = slurp(argv[2], (size_t)CONV_KH * CONV_KW);\n"
    "    float *out = (float *)malloc(nout * sizeof(float));\n"
    "    for (size_t i = 0; i < nout; i++) out[i] = NAN;\n"
    "#ifdef CT_SYMBOL_c_filter\n"
    "    memcpy(c_filter, filter, sizeof c_filter);\n"
    "#endif\n"
    "    unsigned g[3], b[3];\n"
    "    for (int i = 0; i < 3; i++) { g[i] = (unsigned)atoi(argv[4 + i]); b[i] = (unsigned)atoi(argv[7 + i]); }\n"
    "    for (blockIdx.z = 0; blockIdx.z < g[2]; blockIdx.z++)\n"
    "    for (blockIdx.y = 0; blockIdx.y < g[1]; blockIdx.y++)\n"
    "    for (blockIdx.x = 0; blockIdx.x < g[0]; blockIdx.x++) {\n"
    "        for (float *s = __start_ctsmem; s < __stop_ctsmem; s++) *s = NAN;\n"
    "        for (int pass = 0; pass < 2; pass++)\n"
    "            for (threadIdx.z = 0; threadIdx.z < b[2]; threadIdx.z++)\n"
    "            for (threadIdx.y = 0; threadIdx.y < b[1]; threadIdx.y++)\n"
    "            for (threadIdx.x = 0; threadIdx.x < b[0]; threadIdx.x++)\n"
    "                conv2d_tiled(in, filter, out);\n"
    "    }\n"
    "    FILE *f = fopen(argv[3], \"wb\");\n"
    "    if (!f || fwrite(out, sizeof(float), nout, f) != nout) return 2;\n"
    "    fclose(f);\n"
    "    free(in); free(filter); free(out);\n"
    "    return 0;\n"
    "}\n";

static const char *cxx(void)
{
    const char *env = getenv("CT_CXX");
    if (env && *env)
        return env;
    return system("c++ --version >/dev/null 2>&1") == 0 ? "c++" : NULL;
}

/* Runs conv2d_tiled with parameters c on the CPU over problem spec and
 * compares with the fp64 reference; returns 0 when no C++ compiler works. */
static int emulate(const char *compiler, const char *spec, const ct_params *c)
{
    ct_problem p = problem(spec);
    const ct_template *t = ct_template_find(p.family, "conv2d_tiled");
    char key[512], why[256] = "";
    ct_params_to_key(c, key, sizeof key);
    ct_limits lim;
    ct_err e;
    CHECK(ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
    CHECK_MSG(p.family->constrain(&p, t, c, &lim, why, sizeof why) == 0, "%s %s: %s", spec, key, why);
    FILE *f = fopen("conv2d_emu.cpp", "w");
    CHECK(f != NULL);
    if (!f)
        return 0;
    fputs(emu_prelude, f);
    ct_define d[CT_MAX_DEFINES];
    int nd = p.family->defines(&p, d);
    for (int i = 0; i < nd; i++)
        fprintf(f, "#define %s %lld\n", d[i].name, d[i].value);
    for (int i = 0; i < c->n; i++)
        fprintf(f, "#define %s %ld\n", c->names[i], c->values[i]);
    fprintf(f, "#include \"%s/templates/conv2d/conv2d_tiled.cu\"\n", CT_SOURCE_DIR);
    fputs(emu_main, f);
    fclose(f);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "%s -std=c++14 -O1 -g -w -fsanitize=address,undefined -fno-sanitize-recover=all "
             "-I%s/templates/kernels/tiled conv2d_emu.cpp -o conv2d_emu > conv2d_emu.log 2>&1", compiler,
             CT_SOURCE_DIR);
    int rc = system(cmd);
    CHECK_MSG(rc == 0, "%s %s: the template does not build as C++ (see conv2d_emu.log)", spec, key);
    if (rc != 0)
        return 1;

    ct_buffer bufs[CT_MAX_BUFS];
    p.family->buffers(&p, bufs);
    float *in = malloc(bufs[0].count * sizeof *in), *filt = malloc(bufs[1].count * sizeof *filt);
    tl_fill(in, bufs[0].count, &rng_state);
    tl_fill(filt, bufs[1].count, &rng_state);
    CHECK(tl_write_file("conv2d_emu_in.bin", in, bufs[0].count * sizeof *in) == 0);
    CHECK(tl_write_file("conv2d_emu_filter.bin", filt, bufs[1].count * sizeof *filt) == 0);
    ct_launch l;
    p.family->geometry(&p, t, c, &l);
    snprintf(cmd, sizeof cmd,
             "./conv2d_emu conv2d_emu_in.bin conv2d_emu_filter.bin conv2d_emu_out.bin %u %u %u %u %u %u "
             ">> conv2d_emu.log 2>&1", l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2]);
    rc = system(cmd);
    CHECK_MSG(rc == 0, "%s %s: the emulated kernel failed (see conv2d_emu.log)", spec, key);
    size_t nout = bufs[2].count;
    float *out = malloc(nout * sizeof *out);
    double *ref = malloc(nout * sizeof *ref);
    f = rc == 0 ? fopen("conv2d_emu_out.bin", "rb") : NULL;
    if (f) {
        CHECK(fread(out, sizeof *out, nout, f) == nout);
        fclose(f);
        const float *ins[2] = {in, filt};
        p.family->reference(&p, ins, ref);
        double num = 0.0, den = 0.0;
        size_t bad = 0;
        for (size_t i = 0; i < nout; i++) {
            double dl = (double)out[i] - ref[i];
            if (isnan(out[i]))
                bad++;
            num += dl * dl;
            den += ref[i] * ref[i];
        }
        double relerr = sqrt(num / den);
        CHECK_MSG(bad == 0 && relerr <= 1e-6, "%s %s: %zu NaN outputs, relative L2 error %g", spec, key,
                  bad, relerr);
    }
    free(in);
    free(filt);
    free(out);
    free(ref);
    return 1;
}

static void test_emulated(void)
{
    const char *compiler = cxx();
    if (!compiler) {
        /* A C++ compiler comes with the build tools the set-up installs: its
         * absence fails the test rather than passing it without this check. */
        CHECK_MSG(0, "no C++ compiler (c++ or CT_CXX): the CPU run of conv2d_tiled cannot be checked");
        return;
    }
    /* Hand-picked: the seed's best guess, a filter-row loop with a tail,
     * shared filter, scalar windows with padding, tiles larger than the image.
     * A pick names each parameter of conv2d_tiled (P_NAME indexes names[]). */
    enum { P_BLOCK_X, P_BLOCK_Y, P_OUT_X, P_OUT_Y, P_FILTER_PLACEMENT, P_KH_STEP, P_VEC, P_SMEM_PAD, P_MIN_BLOCKS, NP };
    static const char *const names[NP] = {
        [P_BLOCK_X] = "BLOCK_X", [P_BLOCK_Y] = "BLOCK_Y", [P_OUT_X] = "OUT_X", [P_OUT_Y] = "OUT_Y",
        [P_FILTER_PLACEMENT] = "FILTER_PLACEMENT", [P_KH_STEP] = "KH_STEP", [P_VEC] = "VEC",
        [P_SMEM_PAD] = "SMEM_PAD", [P_MIN_BLOCKS] = "MIN_BLOCKS"};
    static const struct {
        const char *spec;
        long v[NP];
    } picks[] = {
        {"conv2d:2:75:141:11:11:same",
         {[P_BLOCK_X] = 32, [P_BLOCK_Y] = 8, [P_OUT_X] = 4, [P_OUT_Y] = 8,
          [P_FILTER_PLACEMENT] = 0, [P_KH_STEP] = 11, [P_VEC] = 4, [P_SMEM_PAD] = 0, [P_MIN_BLOCKS] = 1}},
        {"conv2d:2:75:141:11:11:same",
         {[P_BLOCK_X] = 32, [P_BLOCK_Y] = 4, [P_OUT_X] = 4, [P_OUT_Y] = 4,
          [P_FILTER_PLACEMENT] = 1, [P_KH_STEP] = 4, [P_VEC] = 4, [P_SMEM_PAD] = 4, [P_MIN_BLOCKS] = 2}},
        {"conv2d:3:53:67:5:7:same",
         {[P_BLOCK_X] = 16, [P_BLOCK_Y] = 2, [P_OUT_X] = 2, [P_OUT_Y] = 16,
          [P_FILTER_PLACEMENT] = 0, [P_KH_STEP] = 3, [P_VEC] = 2, [P_SMEM_PAD] = 2, [P_MIN_BLOCKS] = 1}},
        {"conv2d:1:53:67:6:4:same",
         {[P_BLOCK_X] = 64, [P_BLOCK_Y] = 2, [P_OUT_X] = 8, [P_OUT_Y] = 4,
          [P_FILTER_PLACEMENT] = 1, [P_KH_STEP] = 6, [P_VEC] = 4, [P_SMEM_PAD] = 4, [P_MIN_BLOCKS] = 1}},
        {"conv2d:2:40:70:5:7:valid",
         {[P_BLOCK_X] = 32, [P_BLOCK_Y] = 1, [P_OUT_X] = 1, [P_OUT_Y] = 1,
          [P_FILTER_PLACEMENT] = 0, [P_KH_STEP] = 5, [P_VEC] = 1, [P_SMEM_PAD] = 1, [P_MIN_BLOCKS] = 1}},
        {"conv2d:1:7:9:1:1",
         {[P_BLOCK_X] = 32, [P_BLOCK_Y] = 8, [P_OUT_X] = 4, [P_OUT_Y] = 8,
          [P_FILTER_PLACEMENT] = 0, [P_KH_STEP] = 1, [P_VEC] = 4, [P_SMEM_PAD] = 0, [P_MIN_BLOCKS] = 1}},
        {"conv2d:2:31:33:31:1:valid",
         {[P_BLOCK_X] = 32, [P_BLOCK_Y] = 2, [P_OUT_X] = 4, [P_OUT_Y] = 4,
          [P_FILTER_PLACEMENT] = 1, [P_KH_STEP] = 8, [P_VEC] = 4, [P_SMEM_PAD] = 0, [P_MIN_BLOCKS] = 1}},
        {"conv2d:1:5:6:9:8:same",
         {[P_BLOCK_X] = 16, [P_BLOCK_Y] = 2, [P_OUT_X] = 2, [P_OUT_Y] = 4,
          [P_FILTER_PLACEMENT] = 0, [P_KH_STEP] = 4, [P_VEC] = 2, [P_SMEM_PAD] = 0, [P_MIN_BLOCKS] = 1}},
    };
    int ran = 0;
    for (size_t i = 0; i < sizeof picks / sizeof picks[0]; i++) {
        ct_params c = {0};
        for (int k = 0; k < NP; k++)
            ct_params_set(&c, names[k], picks[i].v[k], NULL);
        ran += emulate(compiler, picks[i].spec, &c);
    }
    /* A seeded sample of the configured space on odd shapes. */
    ct_config cfg;
    ct_err e;
    CHECK(ct_config_init(&cfg, &e) == CT_OK);
    ct_limits lim;
    CHECK(ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
    static const char *const specs[] = {"conv2d:2:130:150:11:11:same", "conv2d:1:45:37:5:7:valid"};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        ct_problem p = problem(specs[s]);
        ct_space sp;
        CHECK(ct_space_build(&p, &cfg, &lim, "conv2d_tiled", &sp, &e) == CT_OK);
        ct_space_sample(&sp, 5, 7 + s);
        for (int i = 0; i < sp.n; i++)
            ran += emulate(compiler, specs[s], &sp.cand[i].params);
        ct_space_free(&sp);
    }
    printf("conv2d_tiled run on the CPU for %d configurations\n", ran);
}

int main(void)
{
    rng_state = tl_seed(0x243F6A8885A308D3ULL);
    test_counts();
    test_spaces();
    test_emulated();
    CHECK_DONE();
}
