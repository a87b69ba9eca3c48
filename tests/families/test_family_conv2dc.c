/* test_family_conv2dc.c - what only the conv2dc family has, without a GPU
 * (test_conformance covers problem strings, the reference against the
 * definition and NVRTC over a sample of every template): counts, buffers and
 * defines, the constraints against modelled device limits, the input-channel
 * chunks and the staging rules, and the code paths a sample may miss
 * compiled for sm_75 and sm_90. */
#include "check.h"
#include "compile.h"
#include "kernel_kind.h"
#include "runner.h"
#include "space.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ct_status parse(const char *spec, ct_problem *p, ct_err *e)
{
    memset(e, 0, sizeof *e);
    return ct_problem_parse(spec, p, e);
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
/* Spaces and compilation                                                   */

static const char *const seed_specs[] = {
    "conv2dc:10000:1:28:28:12:7:7:valid", "conv2dc:10000:12:22:22:12:3:3:valid",
    "conv2dc:1:3:17:13:5:3:3:same:bias",  "conv2dc:2:4:9:9:3:1:1:valid",
    "conv2dc:3:2:30:31:7:5:5:valid:bias", "conv2dc:3:7:12:11:5:3:3:same:bias",   /* 7 = 4 + 3 channels */
};

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

/* Templates admitted on depthwise layers: the tensor-core ones never (one
 * channel per group; kept where a group has 4), conv2dc_dwp from sm_80 with
 * a space a short tune covers, each candidate's geometry covering every
 * plane exactly once with shared memory for its staged planes. */
static int space_size(const ct_problem *p, const ct_config *cfg, const ct_limits *lim, const char *name,
                      ct_space *keep)
{
    ct_space sp;
    ct_err e;
    CHECK_MSG(ct_space_build(p, cfg, lim, name, &sp, &e) == CT_OK, "%s: %s", name, e.msg);
    const int n = sp.n;
    if (keep)
        *keep = sp;
    else
        ct_space_free(&sp);
    return n;
}

static void check_depthwise(const ct_config *cfg)
{
    ct_limits l90, l75;
    ct_err e;
    CHECK(ct_limits_for_arch("sm_90", &l90, &e) == CT_OK);
    CHECK(ct_limits_for_arch("sm_75", &l75, &e) == CT_OK);
    static const char *const specs[] = {
        "conv2dc:64:256:32:32:256:7:7:same:groups=256",  "conv2dc:64:256:32:32:256:13:13:same:groups=256",
        "conv2dc:64:256:32:32:256:31:31:same:groups=256", "conv2dc:2:5:23:21:5:3:3:pad=1:stride=2:groups=5:bias",
        "conv2dc:3:3:13:11:3:5:3:pad=2,1:stride=1,2:dilation=2,1:groups=3:bias",
    };
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        ct_problem p;
        CHECK(parse(specs[k], &p, &e) == CT_OK);
        const long long *d = p.dims;
        CHECK_MSG(space_size(&p, cfg, &l90, "conv2dc_tc", NULL) == 0, "%s: tc candidates", specs[k]);
        CHECK_MSG(space_size(&p, cfg, &l90, "conv2dc_tcsplit", NULL) == 0, "%s: tcsplit candidates", specs[k]);
        CHECK_MSG(space_size(&p, cfg, &l75, "conv2dc_dwp", NULL) == 0, "%s: dwp on sm_75", specs[k]);
        CHECK_MSG(space_size(&p, cfg, &l75, "conv2dc_dw", NULL) > 0, "%s: no depthwise candidate on sm_75",
                  specs[k]);
        ct_space sp;
        const int n = space_size(&p, cfg, &l90, "conv2dc_dwp", &sp);
        CHECK_MSG(n >= 20 && (k > 2 || n <= 300), "%s: %d conv2dc_dwp candidates", specs[k], n);
        const long long planes = d[0] * d[1];
        for (int i = 0; i < sp.n; i++) {
            const ct_params *c = &sp.cand[i].params;
            const long warps = ct_params_get(c, "WARPS", 0), per = ct_params_get(c, "PLANES", 0);
            const long ox = ct_params_get(c, "OUT_X", 0), oy = ct_params_get(c, "OUT_Y", 0);
            ct_launch l;
            p.family->geometry(&p, sp.cand[i].tmpl, c, &l);
            const long long lanes = (long long)l.grid[0] * warps * per;
            CHECK_MSG(l.block[0] == 32u * (unsigned)warps && lanes >= planes && lanes - warps * per < planes,
                      "%s: grid %u x %u for %lld planes", specs[k], l.grid[0], l.block[0], planes);
            /* Each warp's buffers hold at least its plane, with the halo that
             * same mode reads all around. */
            const long long frame = k <= 2 ? (d[2] + d[5] - 1) * (d[3] + d[6] - 1) : d[2] * d[3];
            CHECK_MSG(l.smem_bytes >= 4ULL * warps * (per > 1 ? 2 : 1) * (unsigned long long)frame &&
                      l.smem_bytes <= (unsigned)l90.max_smem_per_block, "%s: %u bytes", specs[k], l.smem_bytes);
            CHECK_MSG(k > 2 || (ox * oy >= 8 && ox * oy <= 32), "%s: %ld x %ld outputs per lane", specs[k], ox, oy);
        }
        ct_space_free(&sp);
    }
    /* Four channels per group: a GEMM per group, not a depthwise layer. */
    ct_problem p;
    CHECK(parse("conv2dc:32:128:28:28:128:3:3:same:groups=32", &p, &e) == CT_OK);
    CHECK(space_size(&p, cfg, &l90, "conv2dc_tc", NULL) > 100);
    CHECK(space_size(&p, cfg, &l90, "conv2dc_dwp", NULL) == 0);
}

/* Every template of the layer families names its kind, whose hooks the
 * family calls without asking which template it has; the kind's
 * properties agree with the letters of the name (cl: channels last; tc16g:
 * wgmma). */
static void check_kinds(void)
{
    const char *const fams[] = {"conv1dc", "conv2dc"};
    for (size_t i = 0; i < sizeof fams / sizeof fams[0]; i++) {
        const ct_family *f = ct_family_find(fams[i]);
        CHECK_MSG(f != NULL, "no family %s", fams[i]);
        for (int t = 0; f && t < f->ntemplates; t++) {
            const ct_template *tp = &f->templates[t];
            const ct_kernel_kind *k = tp->kind;
            CHECK_MSG(k && k->name && k->constrain && k->normalize && k->launch, "%s: no kind or a hook missing",
                      tp->name);
            if (!k)
                continue;
            const char *letters = tp->name + strlen(f->name) + 1;
            CHECK_MSG(k->layouts >= CT_LAYOUT_DEFAULT_ONLY && k->layouts <= CT_LAYOUT_BOTH, "%s: layouts %d",
                      tp->name, k->layouts);
            CHECK_MSG((k->layouts == CT_LAYOUT_CL_ONLY) == (strstr(letters, "cl") != NULL),
                      "%s: kind %s, layouts %d", tp->name, k->name, k->layouts);
            CHECK_MSG(k->wgmma == (strncmp(letters, "tc16g", 5) == 0), "%s: kind %s, wgmma %d", tp->name, k->name,
                      k->wgmma);
            CHECK_MSG(strncmp(letters, k->name, strlen(k->name)) == 0 || tp->is_baseline,
                      "%s: kind %s is not its letters", tp->name, k->name);
        }
    }
}

int main(void)
{
    test_counts();
    check_kinds();
    ct_config cfg;
    ct_err e;
    CHECK(ct_config_init(&cfg, &e) == CT_OK);
    check_chunks("conv2dc:10000:12:22:22:12:3:3:valid", &cfg, 1);
    check_chunks("conv2dc:3:7:12:11:5:3:3:same:bias", &cfg, 1);
    check_chunks("conv2dc:10000:1:28:28:12:7:7:valid", &cfg, 0);
    check_staging(&cfg);
    check_depthwise(&cfg);
    compile_paths();
    for (size_t s = 0; s < sizeof seed_specs / sizeof seed_specs[0]; s++)
        check_limits(seed_specs[s], &cfg);
    CHECK_DONE();
}
