/* test_family_conv2dc.c - the conv2dc family without a GPU: problem strings
 * (accepted, canonical round trip, rejected with the bad field named), counts
 * and buffers, the CPU fp64 reference against a brute-force convolution
 * written here from the definition, the constraints against modelled device
 * limits, and NVRTC compilation of every template over a seeded sample of its
 * space for sm_75 and sm_90. */
#include "check.h"
#include "compile.h"
#include "compile_pool.h"
#include "runner.h"
#include "space.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family_compile.h"

static ct_status parse(const char *spec, ct_problem *p, ct_err *e)
{
    memset(e, 0, sizeof *e);
    return ct_problem_parse(spec, p, e);
}

/* spec must parse to canonical with the given dims (B Cin H W Cout KH KW bias). */
static void expect_ok(const char *spec, const char *canonical, const long long dims[8])
{
    ct_problem p;
    ct_err e;
    ct_status rc = parse(spec, &p, &e);
    CHECK_MSG(rc == CT_OK, "'%s' rejected: %s", spec, e.msg);
    if (rc != CT_OK)
        return;
    CHECK_STR(p.canonical, canonical);
    CHECK(p.family == ct_family_find("conv2dc"));
    static const char *const names[8] = {"B", "Cin", "H", "W", "Cout", "KH", "KW", "bias"};
    for (int i = 0; i < 8; i++)
        CHECK_MSG(ct_problem_value(&p, names[i]) == dims[i], "'%s': %s = %lld, want %lld", spec, names[i],
                  ct_problem_value(&p, names[i]), dims[i]);
    ct_problem q;
    rc = parse(p.canonical, &q, &e);
    CHECK_MSG(rc == CT_OK, "canonical '%s' rejected: %s", p.canonical, e.msg);
    if (rc == CT_OK) {
        CHECK_STR(q.canonical, p.canonical);
        CHECK(ct_problem_equal(&q, &p) && memcmp(q.dims, p.dims, sizeof q.dims) == 0);
    }
}

static void expect_bad(const char *spec, const char *frag, const char *frag2)
{
    ct_problem p;
    ct_err e;
    ct_status rc = parse(spec, &p, &e);
    CHECK_MSG(rc == CT_ERR_USAGE, "'%s': status %d, want CT_ERR_USAGE (canonical '%s')", spec, (int)rc,
              rc == CT_OK ? p.canonical : "");
    if (rc == CT_OK)
        return;
    CHECK_MSG(strstr(e.msg, frag) != NULL, "'%s': message lacks \"%s\": %s", spec, frag, e.msg);
    if (frag2)
        CHECK_MSG(strstr(e.msg, frag2) != NULL, "'%s': message lacks \"%s\": %s", spec, frag2, e.msg);
}

static void test_strings(void)
{
    expect_ok("conv2dc:10000:1:28:28:12:7:7:valid", "conv2dc:10000:1:28:28:12:7:7:valid",
              (const long long[8]){10000, 1, 28, 28, 12, 7, 7, 0});
    expect_ok("conv2dc:1e4:1:28:28:12:7:7", "conv2dc:10000:1:28:28:12:7:7:valid",
              (const long long[8]){10000, 1, 28, 28, 12, 7, 7, 0});
    expect_ok("conv2dc:10000:12:22:22:12:3:3", "conv2dc:10000:12:22:22:12:3:3:valid",
              (const long long[8]){10000, 12, 22, 22, 12, 3, 3, 0});
    expect_ok("conv2dc:1:3:17:13:5:3:3:same:bias", "conv2dc:1:3:17:13:5:3:3:same:bias",
              (const long long[8]){1, 3, 17, 13, 5, 3, 3, 1});
    expect_ok("conv2dc:2:4:9:9:3:1:1:valid", "conv2dc:2:4:9:9:3:1:1:valid",
              (const long long[8]){2, 4, 9, 9, 3, 1, 1, 0});
    expect_ok("conv2dc:3:2:30:31:7:5:5:valid:bias", "conv2dc:3:2:30:31:7:5:5:valid:bias",
              (const long long[8]){3, 2, 30, 31, 7, 5, 5, 1});
    expect_ok("conv2dc:3:2:30:31:7:5:5:bias", "conv2dc:3:2:30:31:7:5:5:valid:bias",
              (const long long[8]){3, 2, 30, 31, 7, 5, 5, 1});
    expect_ok("conv2dc:1:1:5:5:1:5:5", "conv2dc:1:1:5:5:1:5:5:valid",   /* filter = image */
              (const long long[8]){1, 1, 5, 5, 1, 5, 5, 0});
    expect_ok("conv2dc:1:1:3:2:1:6:4:same", "conv2dc:1:1:3:2:1:6:4:same",   /* filter > image */
              (const long long[8]){1, 1, 3, 2, 1, 6, 4, 0});
    /* The largest input below 2^31 elements. */
    expect_ok("conv2dc:1:1:1:2147483647:1:1:1", "conv2dc:1:1:1:2147483647:1:1:1:valid",
              (const long long[8]){1, 1, 1, 2147483647LL, 1, 1, 1, 0});

    static const struct {
        const char *spec, *frag, *frag2;
    } bad[] = {
        {"conv2dc", "missing", NULL},
        {"conv2dc:", "B (batch)", NULL},
        {"conv2dc:10:1:28:28:12:7", "missing", "KW (filter width)"},
        {"conv2dc:10:1:28", "missing", "W (image width)"},
        {"conv2dc:0:1:28:28:12:7:7", "B (batch)", "positive"},
        {"conv2dc:10:0:28:28:12:7:7", "Cin (input channels)", "positive"},
        {"conv2dc:10:1:28:28:0:7:7", "Cout (output channels)", "positive"},
        {"conv2dc:10:1:-28:28:12:7:7", "H (image height)", "positive"},
        {"conv2dc:10:1:28:-1:12:7:7", "W (image width)", "positive"},
        {"conv2dc:10:1:28:28:12:0:7", "KH (filter height)", "positive"},
        {"conv2dc:10:1:28:28:12:7:x7", "KW (filter width)", "x7"},
        {"conv2dc:10:1:28:28:12:7.5:7", "KH (filter height)", "integer"},
        {"conv2dc:abc:1:28:28:12:7:7", "B (batch)", "abc"},
        {"conv2dc:10:1:6:28:12:7:7", "KH (filter height)", "H (image height)"},
        {"conv2dc:10:1:28:6:12:7:7:valid", "KW (filter width)", "W (image width)"},
        {"conv2dc:10:1:28:28:12:7:7:full", "MODE", "full"},
        {"conv2dc:10:1:28:28:12:7:7:VALID", "MODE", NULL},
        {"conv2dc:10:1:28:28:12:7:7:", "MODE", NULL},
        {"conv2dc:10:1:28:28:12:7:7:same:nobias", "bias", "nobias"},
        {"conv2dc:10:1:28:28:12:7:7:bias:same", "too many fields", "same"},
        {"conv2dc:10:1:28:28:12:7:7:same:bias:x", "too many fields", NULL},
        {"conv2dc:10:1:28:28:12:7:7:same:bias:x:y", "too many fields", NULL},
        {"conv2dc:10:1:28:28:12:7:7:valid:valid", "bias", "valid"},
        {"conv2dc:1e5:100:100:100:12:3:3", "input", "B*Cin*H*W"},
        {"conv2dc:1:100:100:100:100000:30:30:same", "weight", "Cout*Cin*KH*KW"},
        {"conv2dc:100000:1:100:100:1000:1:1", "output", "B*Cout*OH*OW"},
        {"conv2dc:1:1:2147483648:1:1:1:1", "H (image height)", "too large"},
        {"conv2dc:10:1:28:28:12::7", "KH (filter height)", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_bad(bad[i].spec, bad[i].frag, bad[i].frag2);

    ct_problem p;
    ct_err e;
    CHECK(parse("conv2dc:10:1:28:28:12:7:7:diagonal", &p, &e) == CT_ERR_USAGE);
    CHECK(p.family == NULL);
}

static void test_counts(void)
{
    ct_problem p;
    ct_err e;
    CHECK(parse("conv2dc:10000:1:28:28:12:7:7:valid", &p, &e) == CT_OK);
    CHECK(fabs(p.family->flops(&p) - 2.0 * 10000 * 12 * 22 * 22 * 49) < 1);
    CHECK(fabs(p.family->bytes(&p) - 4.0 * (10000.0 * 784 + 12 * 49 + 10000.0 * 12 * 484)) < 1);
    ct_buffer b[CT_MAX_BUFS];
    int n = p.family->buffers(&p, b);
    CHECK(n == 3);
    CHECK_STR(b[0].name, "in");
    CHECK(b[0].count == 7840000 && !b[0].is_output && !b[0].symbol);
    CHECK_STR(b[1].name, "weight");
    CHECK(b[1].count == 588 && !b[1].is_output);
    CHECK_STR(b[1].symbol, "c_weight");
    CHECK(b[2].count == 10000u * 12 * 484 && b[2].is_output);
    CHECK(ct_problem_output_count(&p) == 10000u * 12 * 484);

    CHECK(parse("conv2dc:1:3:17:13:5:3:3:same:bias", &p, &e) == CT_OK);
    CHECK(fabs(p.family->flops(&p) - 2.0 * 5 * 17 * 13 * 3 * 9) < 1e-9);
    CHECK(fabs(p.family->bytes(&p) - 4.0 * (3 * 17 * 13 + 5 * 27 + 5 + 5 * 17 * 13)) < 1e-9);
    n = p.family->buffers(&p, b);
    CHECK(n == 4);
    CHECK_STR(b[2].name, "bias");
    CHECK_STR(b[2].symbol, "c_bias");
    CHECK(b[2].count == 5 && !b[2].is_output);
    CHECK(b[3].count == 5 * 17 * 13 && b[3].is_output);

    ct_define d[CT_MAX_DEFINES];
    int nd = p.family->defines(&p, d);
    CHECK(nd <= CT_MAX_DEFINES);
    static const struct {
        const char *name;
        long long v;
    } want[] = {{"CONV_B", 1},  {"CONV_CIN", 3}, {"CONV_H", 17}, {"CONV_W", 13},  {"CONV_COUT", 5}, {"CONV_KH", 3},
                {"CONV_KW", 3}, {"CONV_OH", 17}, {"CONV_OW", 13}, {"CONV_PH", 1}, {"CONV_PW", 1},   {"CONV_BIAS", 1}};
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        int found = 0;
        for (int i = 0; i < nd; i++)
            if (!strcmp(d[i].name, want[w].name)) {
                found = 1;
                CHECK_MSG(d[i].value == want[w].v, "%s = %lld, want %lld", want[w].name, d[i].value, want[w].v);
            }
        CHECK_MSG(found, "no define %s", want[w].name);
    }
    CHECK(parse("conv2dc:1:1:10:9:1:4:6:same", &p, &e) == CT_OK);   /* even filters pad (K-1)/2 first */
    nd = p.family->defines(&p, d);
    for (int i = 0; i < nd; i++) {
        if (!strcmp(d[i].name, "CONV_PH"))
            CHECK(d[i].value == 1);
        if (!strcmp(d[i].name, "CONV_PW"))
            CHECK(d[i].value == 2);
    }
}

/* ------------------------------------------------------------------------ */
/* Reference                                                                */

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static float uniform(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (float)((double)((rng_state * 0x2545F4914F6CDD1DULL) >> 40) / 8388608.0 - 1.0);
}

/* The definition, read literally: zero-pad the image into a larger array,
 * then slide every filter over it. Shares nothing with the family's loops. */
static void brute(int nb, int cin, int h, int w, int cout, int kh, int kw, int same, const float *x,
                  const float *wt, const float *bias, double *out)
{
    const int ph = same ? (kh - 1) / 2 : 0, pw = same ? (kw - 1) / 2 : 0;
    const int oh = same ? h : h - kh + 1, ow = same ? w : w - kw + 1;
    const int hp = oh + kh - 1, wp = ow + kw - 1;   /* enough padded rows and columns for every tap */
    double *pad = calloc((size_t)hp * wp, sizeof *pad);
    for (int b = 0; b < nb; b++)
        for (int co = 0; co < cout; co++) {
            double *o = out + ((size_t)b * cout + co) * oh * ow;
            for (int k = 0; k < oh * ow; k++)
                o[k] = bias ? bias[co] : 0.0;
            for (int ci = 0; ci < cin; ci++) {
                memset(pad, 0, (size_t)hp * wp * sizeof *pad);
                for (int r = 0; r < h; r++)
                    for (int c = 0; c < w; c++)
                        if (r + ph < hp && c + pw < wp)
                            pad[(r + ph) * wp + c + pw] = x[(((size_t)b * cin + ci) * h + r) * w + c];
                for (int i = 0; i < kh; i++)
                    for (int j = 0; j < kw; j++) {
                        const double f = wt[(((size_t)co * cin + ci) * kh + i) * kw + j];
                        for (int y = 0; y < oh; y++)
                            for (int xo = 0; xo < ow; xo++)
                                o[y * ow + xo] += f * pad[(y + i) * wp + xo + j];
                    }
            }
        }
    free(pad);
}

static void check_reference(const char *spec)
{
    ct_problem p;
    ct_err e;
    CHECK_MSG(parse(spec, &p, &e) == CT_OK, "%s: %s", spec, e.msg);
    ct_buffer b[CT_MAX_BUFS];
    int n = p.family->buffers(&p, b);
    float *in[CT_MAX_BUFS] = {0};
    for (int i = 0; i < n - 1; i++) {
        in[i] = malloc(b[i].count * sizeof(float));
        for (size_t k = 0; k < b[i].count; k++)
            in[i][k] = uniform();
    }
    size_t nout = b[n - 1].count;
    double *got = malloc(nout * sizeof *got), *want = malloc(nout * sizeof *want);
    p.family->reference(&p, (const float *const *)in, got);
    const long long *d = p.dims;
    brute((int)d[0], (int)d[1], (int)d[2], (int)d[3], (int)d[4], (int)d[5], (int)d[6],
          ct_problem_value(&p, "mode") == 1, in[0], in[1], ct_problem_value(&p, "bias") ? in[2] : NULL, want);
    double worst = 0, norm = 0;
    for (size_t k = 0; k < nout; k++) {
        worst = fmax(worst, fabs(got[k] - want[k]));
        norm = fmax(norm, fabs(want[k]));
    }
    CHECK_MSG(worst <= 1e-12 * (norm + 1), "%s: reference differs from brute force by %g", spec, worst);
    CHECK_MSG(norm > 0, "%s: all-zero output", spec);
    for (int i = 0; i < n - 1; i++)
        free(in[i]);
    free(got);
    free(want);
}

static void test_reference(void)
{
    static const char *const specs[] = {
        "conv2dc:1:3:17:13:5:3:3:same:bias", "conv2dc:2:4:9:9:3:1:1:valid",  "conv2dc:3:2:30:31:7:5:5:valid:bias",
        "conv2dc:2:1:28:28:12:7:7:valid",    "conv2dc:2:12:22:22:12:3:3",    "conv2dc:1:1:1:1:1:1:1",
        "conv2dc:3:2:7:5:4:4:6:same",        "conv2dc:1:2:3:2:3:6:4:same:bias", "conv2dc:2:5:11:7:3:2:3:valid",
        "conv2dc:1:1:5:5:2:5:5:valid:bias",  "conv2dc:2:3:6:9:2:1:1:same:bias",
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        check_reference(specs[i]);
}

/* ------------------------------------------------------------------------ */
/* Spaces and compilation                                                   */

static const char *const seed_specs[] = {
    "conv2dc:10000:1:28:28:12:7:7:valid", "conv2dc:10000:12:22:22:12:3:3:valid",
    "conv2dc:1:3:17:13:5:3:3:same:bias",  "conv2dc:2:4:9:9:3:1:1:valid",
    "conv2dc:3:2:30:31:7:5:5:valid:bias", "conv2dc:3:7:12:11:5:3:3:same:bias",   /* 7 = 4 + 3 channels */
};

/* Every template's sampled candidates of each seed shape, and the fp64
 * reference, through NVRTC for sm_75 and sm_90 (family_compile.h). */
static void compile_spaces(const ct_config *cfg)
{
    family_compile_sample(seed_specs, (int)(sizeof seed_specs / sizeof seed_specs[0]), cfg, 2, "conv2dc_ref64");
}

/* Every admissible candidate launches within the modelled limits: threads
 * per block, a grid that covers every output, and shared memory. */
static void check_limits(const char *spec, const ct_config *cfg)
{
    ct_problem p;
    ct_err e;
    CHECK(parse(spec, &p, &e) == CT_OK);
    ct_limits lim;
    CHECK(ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
    ct_space sp;
    CHECK(ct_space_build(&p, cfg, &lim, NULL, &sp, &e) == CT_OK);
    for (int i = 0; i < sp.n; i++) {
        ct_launch l;
        p.family->geometry(&p, sp.cand[i].tmpl, &sp.cand[i].params, &l);
        unsigned threads = l.block[0] * l.block[1] * l.block[2];
        CHECK(threads >= 1 && (int)threads <= lim.max_threads_per_block);
        CHECK(l.grid[0] >= 1 && l.grid[1] >= 1 && l.grid[2] >= 1 && l.grid[1] <= 65535 && l.grid[2] <= 65535);
        CHECK((int)l.smem_bytes <= lim.max_smem_per_block);
    }
    ct_space_free(&sp);
}

/* Input-channel chunks: the seed layer-2 space holds chunked candidates;
 * every chunked candidate gives each pixel group x channel group its own
 * thread (the kernel keeps one set of accumulators per thread across the
 * chunks), and CIN_CHUNK >= Cin normalizes to 0. */
static void check_chunks(const char *spec, const ct_config *cfg, int want_chunked)
{
    ct_problem p;
    ct_err e;
    CHECK(parse(spec, &p, &e) == CT_OK);
    ct_limits lim;
    CHECK(ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
    ct_space sp;
    CHECK(ct_space_build(&p, cfg, &lim, "conv2dc_tiled", &sp, &e) == CT_OK);
    const long long *d = p.dims;
    const int same = ct_problem_value(&p, "mode") == 1;
    const long long oh = same ? d[2] : d[2] - d[5] + 1, ow = same ? d[3] : d[3] - d[6] + 1;
    int chunked = 0;
    for (int i = 0; i < sp.n; i++) {
        const ct_params *c = &sp.cand[i].params;
        const long chunk = ct_params_get(c, "CIN_CHUNK", 0);
        CHECK(chunk >= 0 && chunk < d[1]);
        if (chunk == 0)
            continue;
        chunked++;
        const long ox = ct_params_get(c, "OUT_X", 1), oy = ct_params_get(c, "OUT_Y", 1);
        const long th = ct_params_get(c, "TILE_OH", 0), tw = ct_params_get(c, "TILE_OW", 0);
        const long cpt = ct_params_get(c, "COUT_PER_THREAD", 0);
        /* Normalized tiles are already balanced; rows are rounded up to OUT_Y. */
        const long long toh = ((th ? th : oh) + oy - 1) / oy * oy, tow = tw ? tw : (ow + ox - 1) / ox * ox;
        const long long ncg = cpt ? (d[4] + cpt - 1) / cpt : 1;
        const long long units = ct_params_get(c, "IMGS_PER_BLOCK", 1) * (toh / oy) * (tow / ox) * ncg;
        ct_launch l;
        p.family->geometry(&p, sp.cand[i].tmpl, c, &l);
        CHECK_MSG((long long)l.block[0] >= units, "%s: %u threads for %lld units", spec, l.block[0], units);
    }
    if (want_chunked)
        CHECK_MSG(chunked > 0, "%s: no chunked candidates", spec);
    ct_space_free(&sp);
}

/* One candidate from its JSON parameters, normalized as the space does. */
static void candidate(const ct_problem *p, const char *json, ct_params *c)
{
    const ct_template *t = ct_template_find(p->family, "conv2dc_tiled");
    ct_err e;
    CHECK_MSG(ct_params_from_json(json, t->params, t->nparams, c, &e) == CT_OK, "%s: %s", json, e.msg);
    p->family->normalize(p, t, c);
}

/* The staging and pipelining rules: whole images of a valid-mode layer are
 * copied in their global layout, tiles only where images do not fit or the
 * batch is small, a second buffer only with a second stage, wasteful
 * candidates rejected with the reason, and the dynamic shared memory the
 * geometry asks for holds every staged image. */
static void check_staging(const ct_config *cfg)
{
    ct_problem p;
    ct_err e;
    ct_limits lim;
    CHECK(ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
    static const struct {
        const char *spec;
        int image;   /* 1: every candidate STAGE=image; 0: none may be */
    } cases[] = {
        {"conv2dc:10000:12:22:22:12:3:3:valid", 1},
        {"conv2dc:10000:1:28:28:12:7:7:valid", 1},
        {"conv2dc:3:7:12:11:5:3:3:same:bias", 0},
        {"conv2dc:64:3:224:224:16:3:3:same:bias", 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        CHECK(parse(cases[k].spec, &p, &e) == CT_OK);
        ct_space sp;
        CHECK(ct_space_build(&p, cfg, &lim, "conv2dc_tiled", &sp, &e) == CT_OK);
        CHECK_MSG(sp.n > 0, "%s: empty space", cases[k].spec);
        const long long *d = p.dims;
        int piped = 0;
        for (int i = 0; i < sp.n; i++) {
            const ct_params *c = &sp.cand[i].params;
            const long stage = ct_params_get(c, "STAGE", 0), pipe = ct_params_get(c, "PIPE", 0);
            const int whole = ct_params_get(c, "TILE_OH", 0) == 0 && ct_params_get(c, "TILE_OW", 0) == 0;
            CHECK_MSG(stage == (cases[k].image && whole), "%s: a candidate with STAGE=%ld", cases[k].spec, stage);
            if (pipe) {
                piped++;
                CHECK(ct_params_get(c, "GROUPS_PER_BLOCK", 1) > 1 || ct_params_get(c, "CIN_CHUNK", 0) > 0);
            }
            if (stage) {
                ct_launch l;
                p.family->geometry(&p, sp.cand[i].tmpl, c, &l);
                const long chunk = ct_params_get(c, "CIN_CHUNK", 0);
                const long long planes = ct_params_get(c, "IMGS_PER_BLOCK", 1) * (chunk ? chunk : d[1]);
                CHECK_MSG((long long)l.smem_bytes >= 4LL * (pipe ? 2 : 1) * planes * d[2] * d[3],
                          "%s: %u bytes of dynamic shared memory", cases[k].spec, l.smem_bytes);
            }
        }
        if (cases[k].image)
            CHECK_MSG(piped > 0, "%s: no pipelined candidates", cases[k].spec);
        ct_space_free(&sp);
    }

    /* Eight-pixel groups on 20-pixel rows compute 24: 17% waste. */
    CHECK(parse("conv2dc:10000:12:22:22:12:3:3:valid", &p, &e) == CT_OK);
    const ct_template *t = ct_template_find(p.family, "conv2dc_tiled");
    ct_params c;
    char why[256];
    candidate(&p, "{\"BLOCK_SIZE\":0,\"OUT_X\":8,\"OUT_Y\":1,\"COUT_PER_THREAD\":0,\"IMGS_PER_BLOCK\":4,"
                  "\"TILE_OH\":0,\"TILE_OW\":0,\"WEIGHT_PLACEMENT\":\"shared\",\"CI_UNROLL\":0,\"ROW_PAD\":0,"
                  "\"MIN_BLOCKS\":1,\"CIN_CHUNK\":0,\"STAGE\":\"image\",\"PIPE\":0,\"GROUPS_PER_BLOCK\":1}", &c);
    CHECK(p.family->constrain(&p, t, &c, &lim, why, sizeof why) == 1);
    CHECK_MSG(strstr(why, "of the FMAs computed are outputs") != NULL, "%s", why);
    /* The same with five-pixel groups is admissible; tiled staging of it is not. */
    candidate(&p, "{\"BLOCK_SIZE\":0,\"OUT_X\":5,\"OUT_Y\":1,\"COUT_PER_THREAD\":6,\"IMGS_PER_BLOCK\":2,"
                  "\"TILE_OH\":0,\"TILE_OW\":0,\"WEIGHT_PLACEMENT\":\"shared\",\"CI_UNROLL\":0,\"ROW_PAD\":0,"
                  "\"MIN_BLOCKS\":1,\"CIN_CHUNK\":0,\"STAGE\":\"image\",\"PIPE\":1,\"GROUPS_PER_BLOCK\":1}", &c);
    CHECK(p.family->constrain(&p, t, &c, &lim, why, sizeof why) == 0);
    CHECK(ct_params_get(&c, "PIPE", 0) == 0);   /* one stage per block: no second buffer */
    ct_params_set(&c, "STAGE", 0, NULL);
    CHECK(p.family->constrain(&p, t, &c, &lim, why, sizeof why) == 1);
    CHECK_MSG(strstr(why, "STAGE=image") != NULL, "%s", why);
    /* Image staging of a same-mode layer is refused. */
    CHECK(parse("conv2dc:10:3:30:30:4:3:3:same", &p, &e) == CT_OK);
    candidate(&p, "{\"BLOCK_SIZE\":0,\"OUT_X\":2,\"OUT_Y\":1,\"COUT_PER_THREAD\":0,\"IMGS_PER_BLOCK\":1,"
                  "\"TILE_OH\":0,\"TILE_OW\":0,\"WEIGHT_PLACEMENT\":\"constant\",\"CI_UNROLL\":0,\"ROW_PAD\":0,"
                  "\"MIN_BLOCKS\":1,\"CIN_CHUNK\":0,\"STAGE\":\"image\",\"PIPE\":0,\"GROUPS_PER_BLOCK\":1}", &c);
    CHECK(p.family->constrain(&p, t, &c, &lim, why, sizeof why) == 1);
    CHECK_MSG(strstr(why, "valid mode") != NULL, "%s", why);
}

/* The code paths a seeded sample may miss, compiled for both architectures:
 * pipelined work items, pipelined input-channel chunks with shared weights,
 * several rows per thread with a partial last chunk. */
static void compile_paths(void)
{
    static const struct {
        const char *spec, *json;
    } cases[] = {
        {"conv2dc:10000:12:22:22:12:3:3:valid",
         "{\"BLOCK_SIZE\":0,\"OUT_X\":2,\"OUT_Y\":1,\"COUT_PER_THREAD\":6,\"IMGS_PER_BLOCK\":1,\"TILE_OH\":0,"
         "\"TILE_OW\":0,\"WEIGHT_PLACEMENT\":\"shared\",\"CI_UNROLL\":0,\"ROW_PAD\":0,\"MIN_BLOCKS\":1,"
         "\"CIN_CHUNK\":0,\"STAGE\":\"image\",\"PIPE\":1,\"GROUPS_PER_BLOCK\":4}"},
        {"conv2dc:10000:12:22:22:12:3:3:valid",
         "{\"BLOCK_SIZE\":0,\"OUT_X\":4,\"OUT_Y\":1,\"COUT_PER_THREAD\":4,\"IMGS_PER_BLOCK\":1,\"TILE_OH\":0,"
         "\"TILE_OW\":0,\"WEIGHT_PLACEMENT\":\"shared\",\"CI_UNROLL\":0,\"ROW_PAD\":0,\"MIN_BLOCKS\":1,"
         "\"CIN_CHUNK\":4,\"STAGE\":\"image\",\"PIPE\":1,\"GROUPS_PER_BLOCK\":4}"},
        {"conv2dc:3:7:12:11:5:3:3:same:bias",
         "{\"BLOCK_SIZE\":0,\"OUT_X\":2,\"OUT_Y\":4,\"COUT_PER_THREAD\":0,\"IMGS_PER_BLOCK\":2,\"TILE_OH\":0,"
         "\"TILE_OW\":0,\"WEIGHT_PLACEMENT\":\"constant\",\"CI_UNROLL\":0,\"ROW_PAD\":1,\"MIN_BLOCKS\":1,"
         "\"CIN_CHUNK\":4,\"STAGE\":\"tile\",\"PIPE\":1,\"GROUPS_PER_BLOCK\":2}"},
    };
    static const char *const archs[] = {"sm_75", "sm_90"};
    char *src;
    ct_err e;
    CHECK(ct_template_source("conv2dc_tiled", NULL, &src, &e) == CT_OK);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ct_problem p;
        CHECK(parse(cases[k].spec, &p, &e) == CT_OK);
        ct_params c;
        candidate(&p, cases[k].json, &c);
        ct_define defs[CT_MAX_DEFINES];
        int nd = p.family->defines(&p, defs);
        for (size_t a = 0; a < 2; a++) {
            ct_limits lim;
            char why[256];
            CHECK(ct_limits_for_arch(archs[a], &lim, &e) == CT_OK);
            CHECK_MSG(p.family->constrain(&p, ct_template_find(p.family, "conv2dc_tiled"), &c, &lim, why,
                                          sizeof why) == 0, "%s %s: %s", cases[k].spec, cases[k].json, why);
            ct_binary bin;
            CHECK_MSG(ct_nvrtc_compile(src, "conv2dc_tiled", archs[a], defs, nd, &c, &bin, &e) == CT_OK,
                      "%s %s %s: %s", cases[k].spec, archs[a], cases[k].json, e.msg);
            ct_binary_free(&bin);
        }
    }
    free(src);
}

int main(void)
{
    test_strings();
    test_counts();
    test_reference();
    ct_config cfg;
    ct_err e;
    CHECK(ct_config_init(&cfg, &e) == CT_OK);
    check_chunks("conv2dc:10000:12:22:22:12:3:3:valid", &cfg, 1);
    check_chunks("conv2dc:3:7:12:11:5:3:3:same:bias", &cfg, 1);
    check_chunks("conv2dc:10000:1:28:28:12:7:7:valid", &cfg, 0);
    check_staging(&cfg);
    compile_paths();
    for (size_t s = 0; s < sizeof seed_specs / sizeof seed_specs[0]; s++)
        check_limits(seed_specs[s], &cfg);
    compile_spaces(&cfg);
    CHECK_DONE();
}
