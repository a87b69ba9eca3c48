/* test_family_conv1dc.c - what only the conv1dc family has, without a GPU
 * (test_conformance covers problem strings, the reference against the
 * definition and NVRTC over every template): counts, buffers and defines,
 * and the launches every admissible candidate asks for against the modelled
 * limits. The tiled and gemm templates' CPU replays are in their kernel
 * folders (test_tiled_conv, test_gemm_conv). */
#include "check.h"
#include "conv1dc_replay.h"
#include "config.h"
#include "data.h"
#include "problem.h"
#include "runner.h"
#include "space.h"
#include "tc_conv.h"
#include "tc16_conv.h"
#include "tc16wb_conv.h"
#include "tc16gkt_conv.h"
#include "dw_conv.h"
#include "simt_conv.h"
#include "dwcl_conv.h"
#include "dwclf_conv.h"
#include "dwtc16cl_conv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tensor-core kinds of tc_conv.c and tc16_conv.c (mma.sync, sm_80 on). */
static int tc_kind(const ct_template *t)
{
    return t->kind == &ct_kind_tc || t->kind == &ct_kind_tc16 || t->kind == &ct_kind_tc16w ||
           t->kind == &ct_kind_tc16cl;
}

static const char *const seed_shapes[] = {
    "conv1dc:1:1024:4:1024:5:pad=2:bias", "conv1dc:8:64:1000:128:3:pad=1", "conv1dc:1:3:17:5:1",
    "conv1dc:2:7:33:9:7:pad=3:bias",      "conv1dc:16:512:64:256:5:pad=2:bias", "conv1dc:1:1:1:1:1",
};

static ct_status parse(const char *spec, ct_problem *p, ct_err *e)
{
    memset(e, 0, sizeof *e);
    return ct_problem_parse(spec, p, e);
}

static void test_counts(void)
{
    ct_problem p;
    ct_err e;
    CHECK(parse("conv1dc:1:1024:4:1024:5:pad=2:bias", &p, &e) == CT_OK);
    CHECK(p.family->flops(&p) == 2.0 * 1024 * 4 * 1024 * 5);
    CHECK(p.family->bytes(&p) == 4.0 * (4096 + 1024.0 * 1024 * 5 + 1024 + 4096));
    ct_buffer b[CT_MAX_BUFS];
    CHECK(p.family->buffers(&p, b) == 4);
    CHECK_STR(b[0].name, "in");
    CHECK(b[0].count == 4096 && !b[0].is_output && !b[0].symbol);
    CHECK_STR(b[1].name, "weight");
    CHECK(b[1].count == 1024 * 1024 * 5 && !b[1].is_output && !b[1].symbol);
    CHECK_STR(b[2].name, "bias");
    CHECK(b[2].count == 1024 && !b[2].is_output && b[2].symbol && strcmp(b[2].symbol, "c_bias") == 0);
    CHECK_STR(b[3].name, "out");
    CHECK(b[3].count == 4096 && b[3].is_output);
    CHECK(ct_problem_output_count(&p) == 4096);
    ct_define d[CT_MAX_DEFINES];
    CHECK(p.family->defines(&p, d) == 8);
    static const char *const names[] = {"CONV_B", "CONV_CIN", "CONV_L", "CONV_COUT",
                                        "CONV_K", "CONV_PAD", "CONV_LOUT", "CONV_BIAS"};
    static const long long values[] = {1, 1024, 4, 1024, 5, 2, 4, 1};
    for (int i = 0; i < 8; i++) {
        CHECK_STR(d[i].name, names[i]);
        CHECK(d[i].value == values[i]);
    }

    CHECK(parse("conv1dc:8:64:1000:128:3:pad=1", &p, &e) == CT_OK);
    CHECK(p.family->flops(&p) == 2.0 * 8 * 128 * 1000 * 64 * 3);
    CHECK(p.family->bytes(&p) == 4.0 * (8 * 64 * 1000 + 128 * 64 * 3 + 8 * 128 * 1000));
    CHECK(p.family->buffers(&p, b) == 3);
    CHECK_STR(b[2].name, "out");
    CHECK(b[2].count == 8 * 128 * 1000 && b[2].is_output);

    CHECK(parse("conv1dc:2:7:33:9:7:pad=3:bias", &p, &e) == CT_OK);   /* LOUT = 33 */
    CHECK(ct_problem_output_count(&p) == 2 * 9 * 33);
    CHECK(parse("conv1dc:3:2:10:4:5:pad=1", &p, &e) == CT_OK);        /* LOUT = 8 */
    CHECK(ct_problem_output_count(&p) == 3 * 4 * 8);
    CHECK(p.family->flops(&p) == 2.0 * 3 * 4 * 8 * 2 * 5);
}

/* ------------------------------------------------------------------------ */
/* Constraints                                                              */

/* Recomputes from the parameters what the template allocates, independently
 * of the family's helper. */
static void check_limits(const ct_problem *p, const ct_space *sp, const ct_limits *lim)
{
    const shape s = shape_of(p);
    for (int i = 0; i < sp->n; i++) {
        const ct_params *c = &sp->cand[i].params;
        char key[512];
        ct_params_to_key(c, key, sizeof key);
        ct_launch l;
        p->family->geometry(p, sp->cand[i].tmpl, c, &l);
        if (tc_kind(sp->cand[i].tmpl)) {
            /* Checked in full by test_tc_conv's replay; here the launch. */
            const long warps = ct_params_get(c, "WARPS_M", 0) *
                               ct_params_get(c, "WARPS_N", ct_params_get(c, "WARPS_K", 0));   /* tc16w: K warps */
            CHECK_MSG(l.block[0] == 32 * warps && (int)l.block[0] <= lim->max_threads_per_block, "%s: block", key);
            CHECK_MSG((int)l.smem_bytes <= lim->max_smem_per_block && l.grid[1] >= 1 &&
                          l.grid[2] == (unsigned)ct_params_get(c, "SPLIT_K", ct_params_get(c, "CLUSTER_K", 1)),
                      "%s: launch", key);   /* tc16w: the cluster's blocks along z */
            continue;
        }
        if (sp->cand[i].tmpl->kind == &ct_kind_tc16wb) {
            /* Checked in full by test_tc16wb_conv's replay; here the launch:
             * one tile of pixels, the channel tiles, the cluster along z. */
            const long long bn = 8 * ct_params_get(c, "CO_TILES", 0), g = ct_problem_value(p, "groups");
            CHECK_MSG(l.block[0] == 32 * ct_params_get(c, "WARPS_K", 0) &&
                          (int)l.block[0] <= lim->max_threads_per_block && l.grid[0] == 1 &&
                          l.grid[1] == (s.cout / g + bn - 1) / bn * g &&
                          l.grid[2] == (unsigned)ct_params_get(c, "CLUSTER_K", 0) &&
                          (int)l.smem_bytes <= lim->max_smem_per_block && s.b * s.lout <= CT_TC16WB_MAX_PIXELS,
                      "%s: launch", key);
            continue;
        }
        if (sp->cand[i].tmpl->kind == &ct_kind_simt || sp->cand[i].tmpl->kind == &ct_kind_simth) {
            /* Whole warps, at most 512 threads (two blocks per SM), the
             * shared memory the device has, every block indexable. */
            CHECK_MSG(l.block[0] % 32 == 0 && l.block[0] >= 32 && l.block[0] <= 512 &&
                          (int)l.smem_bytes <= lim->max_smem_per_block && l.smem_bytes > 0 && l.grid[0] >= 1 &&
                          l.grid[1] == 1 && l.grid[2] == 1, "%s: launch", key);
            continue;
        }
        if (sp->cand[i].tmpl->kind == &ct_kind_dw1) {
            /* Rows of (batch, channel) x tiles of BLOCK_SIZE/CHANNELS_PER_BLOCK threads x OUT_PER_THREAD. */
            const long block = ct_params_get(c, "BLOCK_SIZE", 0), cpb = ct_params_get(c, "CHANNELS_PER_BLOCK", 0);
            const long opt = ct_params_get(c, "OUT_PER_THREAD", 0), vec = ct_params_get(c, "VEC", 0);
            CHECK_MSG(block % 32 == 0 && block % cpb == 0 && l.block[0] == block && opt <= s.lout, "%s: block", key);
            CHECK_MSG(vec == 1 || (s.lout % vec == 0 && s.l % vec == 0 && opt % vec == 0), "%s: VEC", key);
            const long long tile = block / cpb * opt;
            const long long blocks = (s.b * s.cin + cpb - 1) / cpb * ((s.lout + tile - 1) / tile);
            CHECK_MSG(blocks == l.grid[0] && l.smem_bytes == 0, "%s: grid %u, want %lld", key, l.grid[0], blocks);
            continue;
        }
        if (sp->cand[i].tmpl->kind == &ct_kind_dwcl) {
            /* CHANNEL_THREADS x POS_THREADS threads; blocks over channel vectors, runs of positions, batch. */
            const long vec = ct_params_get(c, "VEC", 0), ct = ct_params_get(c, "CHANNEL_THREADS", 0);
            const long pt = ct_params_get(c, "POS_THREADS", 0), ppt = ct_params_get(c, "POS_PER_THREAD", 0);
            const long chunk = ct_params_get(c, "CHUNK", 0);
            CHECK_MSG(l.block[0] == ct && l.block[1] == pt && (ct * pt) % 32 == 0 &&
                          ct * pt <= lim->max_threads_per_block, "%s: block", key);
            CHECK_MSG(s.cin % vec == 0 && ppt % chunk == 0 && ppt <= s.lout, "%s: VEC, CHUNK", key);
            const long long blocks = (s.cin / vec + ct - 1) / ct * ((s.lout + pt * ppt - 1) / (pt * ppt)) * s.b;
            CHECK_MSG(blocks == l.grid[0] && l.smem_bytes == 0, "%s: grid %u, want %lld", key, l.grid[0], blocks);
            continue;
        }
        if (sp->cand[i].tmpl->kind == &ct_kind_dwtc16cl) {
            /* WARPS warps (PIPE: and PWARPS producer warps), the channel
             * groups and item ranges along x, the staged tiles in dynamic
             * shared memory. */
            const long pw = ct_params_get(c, "PIPE", 0) ? ct_params_get(c, "PWARPS", 0) : 0;
            CHECK_MSG(l.block[0] == 32 * (ct_params_get(c, "WARPS", 0) + pw) && l.block[1] == 1 && l.block[2] == 1 &&
                          (int)l.block[0] <= lim->max_threads_per_block && l.grid[0] >= 1 && l.grid[1] == 1 &&
                          l.grid[2] == 1 && l.smem_bytes > 0 && (int)l.smem_bytes <= lim->max_smem_per_block,
                      "%s: launch", key);
            continue;
        }
        if (sp->cand[i].tmpl->kind == &ct_kind_dwtcl) {
            /* CHANNEL_THREADS x POS_THREADS threads; blocks over channel slices and groups of
             * POS_THREADS tiles of OUT_X positions, ITEMS groups a block. */
            const long vec = ct_params_get(c, "VEC", 0), ct = ct_params_get(c, "CHANNEL_THREADS", 0);
            const long pt = ct_params_get(c, "POS_THREADS", 0), ox = ct_params_get(c, "OUT_X", 0);
            const long items = ct_params_get(c, "ITEMS", 0);
            CHECK_MSG(l.block[0] == ct && l.block[1] == pt && l.block[2] == 1 && ct * pt <= lim->max_threads_per_block,
                      "%s: block", key);
            CHECK_MSG(s.cin % vec == 0 && ct <= s.cin / vec && ox <= s.lout, "%s: VEC, CHANNEL_THREADS, OUT_X", key);
            const long long groups = (s.b * ((s.lout + ox - 1) / ox) + pt - 1) / pt;
            const long long blocks = (s.cin / vec + ct - 1) / ct * ((groups + items - 1) / items);
            CHECK_MSG(blocks == l.grid[0] && l.grid[1] == 1 && l.grid[2] == 1 && l.smem_bytes == 0,
                      "%s: grid %u, want %lld", key, l.grid[0], blocks);
            continue;
        }
        if (!strcmp(sp->cand[i].tmpl->name, "conv1dc_gemm")) {
            const long bm = ct_params_get(c, "COUT_TILE", 0), bn = ct_params_get(c, "T_TILE", 0);
            const long tm = ct_params_get(c, "COUT_PER_THREAD", 0), tn = ct_params_get(c, "T_PER_THREAD", 0);
            CHECK_MSG(bm % tm == 0 && bn % tn == 0, "%s: thread tile", key);
            const long long nt = (long long)(bm / tm) * (bn / tn);
            CHECK_MSG(l.block[0] == nt && nt % 32 == 0 && nt <= lim->max_threads_per_block, "%s: block", key);
            const long long blocks = (s.lout + bn - 1) / bn * ((s.cout + bm - 1) / bm) * s.b;
            CHECK_MSG(blocks == l.grid[0] && l.smem_bytes == 0, "%s: grid %u, want %lld", key, l.grid[0], blocks);
            continue;
        }
        const long block = ct_params_get(c, "BLOCK_SIZE", 0);
        CHECK_MSG(block >= 32 && block % 32 == 0 && block <= lim->max_threads_per_block && l.block[0] == block,
                  "%s: block", key);
        CHECK(l.smem_bytes == 0 && l.grid[0] >= 1 && l.grid[1] == 1 && l.grid[2] == 1);
        if (sp->cand[i].tmpl->is_baseline) {
            CHECK((long long)l.grid[0] * block >= s.b * s.cout * s.lout);
            continue;
        }
        const long cpb = ct_params_get(c, "COUT_PER_BLOCK", 0), group = block / cpb;
        const long cpt = ct_params_get(c, "CHANNELS_PER_THREAD", 0), vec = ct_params_get(c, "VEC", 0);
        const long tile = ct_params_get(c, "OUT_TILE", 0), bpb = ct_params_get(c, "BATCH_PER_BLOCK", 0);
        const long red = ct_params_get(c, "REDUCTION", -1);
        CHECK_MSG(group * cpb == block && (group & (group - 1)) == 0, "%s: groups", key);
        CHECK_MSG((cpt * s.k) % vec == 0 && (s.cin * s.k) % vec == 0, "%s: unaligned weight loads", key);
        CHECK_MSG(cpt <= s.cin && tile <= s.lout && bpb <= s.b, "%s: not normalised", key);
        const long long nacc = (long long)bpb * tile;
        const long long smem = red == 1 ? 4 * nacc * block : red == 2 ? 4 * nacc * cpb
                               : group > 32 ? 4 * nacc * (block / 32) : 0;
        CHECK_MSG(smem <= 48 * 1024, "%s: %lld bytes of shared memory", key, smem);
        const long long blocks = (s.cout + cpb - 1) / cpb * ((s.b + bpb - 1) / bpb) * ((s.lout + tile - 1) / tile);
        CHECK_MSG(blocks == l.grid[0] && blocks <= 2147483647LL, "%s: grid %u, want %lld", key, l.grid[0], blocks);
    }
}

/* Every admissible candidate of every template within the modelled limits
 * (the whole space, on the CPU). */
static void limits_space(const char *spec, const char *arch, const ct_config *cfg)
{
    ct_problem p;
    ct_err e;
    CHECK(parse(spec, &p, &e) == CT_OK);
    ct_limits lim;
    CHECK(ct_limits_for_arch(arch, &lim, &e) == CT_OK);
    const long long groups = ct_problem_value(&p, "groups");
    const int depthwise = p.dims[1] == p.dims[3] && groups == p.dims[1];
    const int plain = groups == 1 && ct_problem_value(&p, "stride") == 1 && ct_problem_value(&p, "dilation") == 1;
    for (int t = 0; t < p.family->ntemplates; t++) {
        const ct_template *tp = &p.family->templates[t];
        ct_space sp;
        CHECK(ct_space_build(&p, cfg, &lim, tp->name, &sp, &e) == CT_OK);
        char why[256];
        /* A template computes its pass alone (conv_pass.h). */
        if (!ct_kind_computes(tp, (int)ct_problem_value(&p, "pass")))
            CHECK_MSG(sp.n == 0, "%s %s: %d candidates of another pass", spec, tp->name, sp.n);
        /* The tensor-core templates need sm_80 (TF32 mma.sync, cp.async; bf16
         * mma.sync m16n8k16), and each template its element types. */
        else if (ct_template_refuses_dtype(&p, tp, why, sizeof why))
            CHECK_MSG(sp.n == 0, "%s %s: %d candidates in a type it lacks", spec, tp->name, sp.n);
        /* The TMA kind: sm_90 and nlc only (its own refusals are
         * test_tc16gkt_conv's). */
        else if (tp->kind == &ct_kind_tc16gktcl)
            CHECK_MSG(sp.n == 0 || (lim.cc_major == 9 && ct_problem_value(&p, "layout") == 1),
                      "%s %s: %d candidates off sm_90 or on ncl", spec, tp->name, sp.n);
        /* Only the baseline, the fp32 tensor-core templates (both layouts),
         * conv1dc_dwcl, conv1dc_dwtcl and conv1dc_tc16cl (channels last
         * only) read nlc. */
        else if (!tp->is_baseline && tp->kind != &ct_kind_tc &&
                 ct_problem_value(&p, "layout") != (tp->kind == &ct_kind_dwcl || tp->kind == &ct_kind_dwtcl ||
                                                    tp->kind == &ct_kind_tc16cl || tp->kind == &ct_kind_dwtc16cl))
            CHECK_MSG(sp.n == 0, "%s %s: %d candidates on a layer of another layout", spec, tp->name, sp.n);
        /* sm_75 runs f16 on the mma.sync kinds (two m16n8k8 steps). */
        else if (tc_kind(tp) && lim.cc_major < 8 &&
                 (tp->kind == &ct_kind_tc || ct_problem_dtype(&p) != CT_DTYPE_F16 || tp->kind == &ct_kind_tc16wb))
            CHECK_MSG(sp.n == 0, "%s %s: %d candidates before sm_80", spec, tp->name, sp.n);
        /* The bulk copy engine and clusters: sm_90; one tile of at most 16
         * pixels, input planes of at most 16 values, not depthwise. */
        else if (tp->kind == &ct_kind_tc16wb)
            CHECK_MSG((sp.n > 0) == (lim.cc_major >= 9 && !depthwise &&
                                     p.dims[0] * shape_of(&p).lout <= 16 &&
                                     p.dims[2] <= 16),
                      "%s %s: %d candidates", spec, tp->name, sp.n);
        /* One channel in and out per group: the depthwise templates' layers,
         * in every element type. */
        else if (tc_kind(tp) && depthwise)
            CHECK_MSG(sp.n == 0, "%s %s: %d tensor-core candidates on a depthwise layer", spec, tp->name, sp.n);
        else if (tp->kind == &ct_kind_dw1 && !depthwise)
            CHECK_MSG(sp.n == 0, "%s %s: %d candidates on a layer that is not depthwise", spec, tp->name, sp.n);
        else if (tp->kind == &ct_kind_dwcl && !depthwise)
            CHECK_MSG(sp.n == 0, "%s %s: %d candidates on a layer that is not depthwise", spec, tp->name, sp.n);
        else if (tp->kind == &ct_kind_dwtcl && !depthwise)
            CHECK_MSG(sp.n == 0, "%s %s: %d candidates on a layer that is not depthwise", spec, tp->name, sp.n);
        /* The depthwise Toeplitz kind: depthwise layers of stride 1 from
         * sm_80 (its own refusals are dwtc16cl_replay's and the model's). */
        else if (tp->kind == &ct_kind_dwtc16cl)
            CHECK_MSG(sp.n == 0 || (depthwise && lim.cc_major >= 8 && ct_problem_value(&p, "stride") == 1),
                      "%s %s: %d candidates on a layer it does not compute", spec, tp->name, sp.n);
        /* Plain layers from sm_80 are the tensor-core kernels'. */
        else if (tp->kind == &ct_kind_simt && (depthwise || (plain && lim.cc_major >= 8)))
            CHECK_MSG(sp.n == 0, "%s %s: %d candidates on a %s layer", spec, tp->name, sp.n,
                      depthwise ? "depthwise" : "plain");
        /* The half-type simt entry: before sm_80 only (no bf16 mma there). */
        else if (tp->kind == &ct_kind_simth && (depthwise || lim.cc_major >= 8))
            CHECK_MSG(sp.n == 0, "%s %s: %d candidates on a depthwise layer or from sm_80", spec, tp->name, sp.n);
        else if (!plain && !tc_kind(tp) && tp->kind != &ct_kind_dw1 && tp->kind != &ct_kind_simt &&
                 tp->kind != &ct_kind_simth && tp->kind != &ct_kind_dwcl && tp->kind != &ct_kind_dwtcl &&
                 !tp->is_baseline)
            CHECK_MSG(sp.n == 0, "%s %s: %d candidates on a grouped, strided or dilated layer", spec, tp->name,
                      sp.n);
        else if (tp->params == ct_tc16w_params)   /* few pixels: seed 002, below */
            CHECK_MSG(sp.n > 0 || ct_problem_value(&p, "B") * p.dims[2] > 4, "%s %s: empty space", spec, tp->name);
        else if (tp->exec != &ct_tc_split_exec || p.dims[1] / ct_problem_value(&p, "groups") >= 16)   /* two chunks */
            CHECK_MSG(sp.n > 0, "%s %s: empty space", spec, tp->name);
        check_limits(&p, &sp, &lim);
        printf("%s %s %s: %d candidates\n", spec, arch, tp->name, sp.n);
        ct_space_free(&sp);
    }
}

/* The seed layer's space stays a few hundred candidates. */
static void test_space_size(void)
{
    ct_problem p;
    ct_err e;
    ct_config cfg;
    ct_limits lim;
    ct_space sp;
    CHECK(parse(seed_shapes[0], &p, &e) == CT_OK);
    CHECK(ct_config_init(&cfg, &e) == CT_OK);
    CHECK(ct_limits_for_arch("sm_90", &lim, &e) == CT_OK);
    CHECK(ct_space_build(&p, &cfg, &lim, "conv1dc_tiled", &sp, &e) == CT_OK);
    CHECK_MSG(sp.n >= 100 && sp.n <= 1000, "seed space has %d candidates", sp.n);
    ct_space_free(&sp);
}

int main(void)
{
    test_counts();
    test_space_size();
    ct_config cfg;
    ct_err e;
    CHECK(ct_config_init(&cfg, &e) == CT_OK);
    static const char *const archs[] = {"sm_75", "sm_90"};
    for (size_t s = 0; s < sizeof seed_shapes / sizeof seed_shapes[0]; s++)
        for (size_t a = 0; a < 2; a++)
            limits_space(seed_shapes[s], archs[a], &cfg);
    limits_space("conv1dc:3:5:11:6:4:pad=2:bias", "sm_90", &cfg);
    /* Depthwise: every template but the tiled and gemm ones (one group only). */
    limits_space("conv1dc:8:1024:4096:1024:4:causal:groups=1024", "sm_90", &cfg);
    limits_space("conv1dc:2:12:96:12:4:causal:groups=12:bias", "sm_75", &cfg);
    /* Dilated, strided, grouped: the SIMT template on every architecture
     * (the tiled and gemm ones have none), tensor cores from sm_80. */
    for (size_t a = 0; a < 2; a++) {
        limits_space("conv1dc:8:64:16384:64:3:pad=8:dilation=8", archs[a], &cfg);
        limits_space("conv1dc:3:12:101:18:3:pad=8:dilation=8:groups=3:bias", archs[a], &cfg);
        limits_space("conv1dc:2:9:161:7:5:pad=2:stride=3:bias", archs[a], &cfg);
    }
    /* Half precision: the tc16 templates (seed 002 streams its weights); f16 only on sm_75. */
    for (size_t a = 0; a < 2; a++) {
        limits_space("conv1dc:1:1024:4:1024:5:pad=2:bias:bf16", archs[a], &cfg);
        limits_space("conv1dc:8:64:1000:128:3:pad=1:groups=2:f16", archs[a], &cfg);
    }
    /* Channels last: conv1dc_dwcl on depthwise layers, the baseline alone otherwise. */
    limits_space("conv1dc:8:1024:4096:1024:4:causal:groups=1024:nlc", "sm_90", &cfg);
    limits_space("conv1dc:2:12:96:12:4:causal:groups=12:bias:nlc", "sm_75", &cfg);
    limits_space("conv1dc:2:6:37:12:3:pad=1:stride=2:groups=3:nlc", "sm_90", &cfg);
    limits_space("conv1dc:2:16:50:16:3:pad=1:groups=16:bias:nlc:bf16", "sm_90", &cfg);
    CHECK_DONE();
}
