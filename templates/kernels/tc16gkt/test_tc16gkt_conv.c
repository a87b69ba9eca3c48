/* test_tc16gkt_conv.c - the kernel kind tc16gktcl (ct_conv_tc16gkt.cuh,
 * beside it) without a GPU. For sampled admissible candidates of a few odd
 * layers (Cin not a multiple of 64, batch 1, stride 2, padding, groups,
 * bias, odd Cout, a causal strided conv1dc layer), the model's tensor map (ct_tc16gkt_input_map) is
 * checked against cuTensorMapEncodeTiled's documented rules and the
 * header's stage size, then the device code itself is compiled as host
 * C++ with the layer, the candidate and that map as -D flags and replayed
 * block by block (tc16gkt_replay.cpp: TMA boxes with zero fill, element
 * strides and the 128-byte swizzle, mbarrier phases, wgmma through its
 * swizzled descriptors, checked against an fp64 reference and the
 * pipeline's barrier counts). Split-K variants (SPLIT_K 2 and 4, on
 * layers of 2 to 4 channel chunks) replay the slices over the grid's z and
 * the reduce. WPRE 1 and 2 variants (alone and with a split) replay the
 * prep kernel first, its workspace checked byte for byte, then the main
 * kernel fetching it by bulk copies. Needs a C++20 compiler ($CXX, default g++)
 * and CUDA's headers ($CUDA_HOME, else beside nvcc on PATH). */
#include "tc16_replay.h"
#include "tc16gkt_conv.h"

#include <time.h>
#include <unistd.h>

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;
static char cuda_inc[1024], scratch[1024];
static int cases, rows_seen, wgn_seen, tf32_cases, split_seen, tf32_split_seen, wpre_seen, wpre_split_seen,
    wpre_tf32_seen, wpre2_seen;

/* CUDA's include folder: $CUDA_HOME/include, else nvcc's ../include. */
static int find_cuda(void)
{
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
        snprintf(cuda_inc, sizeof cuda_inc, "%s/include", home);
        return 1;
    }
    FILE *f = popen("command -v nvcc", "r");
    char nv[900] = "";
    if (!f)
        return 0;
    const int got = fgets(nv, sizeof nv, f) != NULL;
    pclose(f);
    if (!got)
        return 0;
    nv[strcspn(nv, "\n")] = '\0';
    char *slash = strrchr(nv, '/');
    if (!slash)
        return 0;
    *slash = '\0';   /* .../bin */
    snprintf(cuda_inc, sizeof cuda_inc, "%s/../include", nv);
    return 1;
}

/* Samples of p's candidates; an fp32 layer's too, though the template does
 * not admit fp32: its 3xTF32 code stays in the kernel (not admitted, as
 * tc16gkt_conv.h says why) and the replay keeps it correct. */
static int sample_any(const ct_problem *p, const ct_template *t, const ct_config *cfg, const ct_limits *lim, int n,
                      ct_params *out)
{
    return sample_candidates_of(p, t, cfg, lim, n, out, &rng, ct_problem_dtype(p) == CT_DTYPE_F32);
}

/* fp32 layers replayed (3xTF32, CT_TF32X3, at fp32's 1e-5), split ones. */
static int x3_cases, x3_split_seen;

/* The map against the driver's rules (cuda.h, cuTensorMapEncodeTiled)
 * and the kernel's stage: TILE_OW x TILE_OH pixel rows of 128 bytes. */
static void check_map(const ct_tmap_desc *m, const ct_tc16gkt_geom *g, const layer *L)
{
    CHECK(m->rank == 4 && m->buf == 0 && m->swizzle == 128);
    CHECK_MSG(m->box[0] * g->elem == 128, "inner box %lld bytes, the swizzle span is 128", m->box[0] * g->elem);
    for (int i = 0; i < 4; i++) {
        CHECK_MSG(m->box[i] >= 1 && m->box[i] <= 256, "box %d: %u", i, m->box[i]);
        CHECK_MSG(m->estrides[i] >= 1 && m->estrides[i] <= 8, "element stride %d: %u", i, m->estrides[i]);
        CHECK(m->dims[i] >= 1 && m->dims[i] <= (1ull << 32));
        CHECK_MSG(m->box[i] % m->estrides[i] == 0, "box %d of %u traverses a partial step of %u", i, m->box[i],
                  m->estrides[i]);
    }
    for (int i = 0; i < 3; i++)
        CHECK_MSG(m->strides[i] % 16 == 0 && m->strides[i] >= m->dims[i] * (i ? m->strides[i - 1] : (unsigned long long)g->elem),
                  "stride %d: %llu bytes", i, m->strides[i]);
    CHECK(m->dims[0] == (unsigned long long)(L->cin_g * L->groups) && m->dims[1] == (unsigned long long)L->s.w &&
          m->dims[2] == (unsigned long long)L->s.h && m->dims[3] == (unsigned long long)L->s.b);
    CHECK(m->box[1] / m->estrides[1] == (unsigned)g->tow && m->box[2] / m->estrides[2] == (unsigned)g->boxh);
    CHECK((long long)m->box[0] * (m->box[1] / m->estrides[1]) * (m->box[2] / m->estrides[2]) * g->elem == g->sb);
    CHECK(g->sa % 1024 == 0 && g->sb % 1024 == 0);
}

static void replay_case(const ct_problem *p, const layer *L, const ct_params *c)
{
    ct_tc16gkt_geom g;
    ct_tc16gkt_geometry_of(&L->s, c, &g);
    ct_tmap_desc m;
    ct_tc16gkt_input_map(&L->s, c, (int)ct_problem_dtype(p), &m);
    check_map(&m, &g, L);
    ct_launch l;
    ct_tc16gkt_launch(NULL, &L->s, c, &l);
    CHECK(l.block[0] == (unsigned)g.nt && l.grid[0] == (unsigned)g.grid_x && l.grid[1] == (unsigned)g.grid_y &&
          l.grid[2] == (unsigned)g.split);
    /* The prep's launch and workspace, which the replay checks against
     * the header's units (WPRE=0: none). */
    ct_launch pl;
    const long long pbytes = ct_tc16gkt_prep(NULL, &L->s, c, &pl);
    CHECK(g.wpre ? pbytes == g.wp_bytes && pbytes > 0 && pl.block[0] == 128 && pl.grid[2] == 1 : pbytes == 0);
    char cmd[6144], out[1100], dflag[32], pch[1400];
    /* A tf32 problem: CT_TF32 (fp32 ct_elem, ct_conv_tf32gkt.cuh); an fp32
     * one CT_TF32X3, as the template defines it (3xTF32 on that header);
     * else the half type. */
    if (ct_problem_dtype(p) == CT_DTYPE_TF32)
        snprintf(dflag, sizeof dflag, "-DCT_TF32=1");
    else if (ct_problem_dtype(p) == CT_DTYPE_F32)
        snprintf(dflag, sizeof dflag, "-DCT_TF32X3=1");
    else
        snprintf(dflag, sizeof dflag, "-DCT_DTYPE=%d", (int)ct_problem_dtype(p));
    tf32_cases += ct_problem_dtype(p) == CT_DTYPE_TF32;
    x3_cases += ct_problem_dtype(p) == CT_DTYPE_F32;
    snprintf(out, sizeof out, "%s/replay", scratch);
    const char *cxx = getenv("CXX") && *getenv("CXX") ? getenv("CXX") : "g++";
    const char *dir = CT_SOURCE_DIR "/templates";
    /* CUDA's headers with a half type (CT_DTYPE not 0: replay_shim.h). */
    const int half = ct_problem_dtype(p) != CT_DTYPE_TF32 && (int)ct_problem_dtype(p) != 0;
    replay_pch_flags(cxx, cuda_inc, scratch, half, pch, sizeof pch);
    snprintf(cmd, sizeof cmd,
             "%s " REPLAY_CXXFLAGS " %s -I%s/kernels/tc16gkt -I%s/common -I%s/kernels -I%s/../tuner/core -I%s "
             "%s -DLY_SEED=%d -DLY_B=%lld -DLY_CIN=%lld -DLY_COUT=%lld -DLY_GROUPS=%lld -DLY_H=%lld "
             "-DLY_W=%lld -DLY_KH=%lld -DLY_KW=%lld -DLY_OH=%lld -DLY_OW=%lld -DLY_PH=%lld -DLY_PW=%lld "
             "-DLY_SY=%lld -DLY_SX=%lld -DLY_DY=%lld -DLY_DX=%lld -DLY_BIAS=%d -DLY_GX=%u -DLY_GY=%u "
             "-DWG_M=%lld -DWG_N=%lld -DTILE_OH=%lld -DTILE_OW=%lld -DSTAGES=%lld -DSETMAXNREG=%lld -DA_BUFS=%lld "
             "-DROWS=%lld -DMIN_BLOCKS=%lld -DSPLIT_K=%lld -DWPRE=%lld -DLY_PGX=%u -DLY_PGY=%u -DLY_PBYTES=%lld "
             "-DTM_SWZ=%d "
             "-DTM_DIMS=%llu,%llu,%llu,%llu -DTM_STRIDES=%llu,%llu,%llu -DTM_BOX=%u,%u,%u,%u -DTM_ES=%u,%u,%u,%u "
             "%s/kernels/tc16gkt/tc16gkt_replay.cpp -o %s && %s",
             cxx, pch, dir, dir, dir, dir, cuda_inc, dflag, cases + 1, L->s.b, L->cin_g, L->cout_g,
             L->groups, L->s.h, L->s.w, L->s.kh, L->s.kw, L->s.oh, L->s.ow, L->s.ph, L->s.pw, L->s.sy, L->s.sx,
             L->s.dy, L->s.dx, L->s.bias, l.grid[0], l.grid[1], g.wg_m, g.wg_n, g.toh, g.tow, g.stages, g.setmaxnreg,
             g.abufs, g.rows, g.minb, g.split, g.wpre, pl.grid[0], pl.grid[1], pbytes, m.swizzle, m.dims[0], m.dims[1], m.dims[2], m.dims[3], m.strides[0],
             m.strides[1], m.strides[2],
             m.box[0], m.box[1], m.box[2], m.box[3], m.estrides[0], m.estrides[1], m.estrides[2], m.estrides[3], dir,
             out, out);
    char desc[512];
    snprintf(desc, sizeof desc,
             "WG_M=%lld,WG_N=%lld,TILE_OH=%lld,TILE_OW=%lld,STAGES=%lld,SETMAXNREG=%lld,A_BUFS=%lld,ROWS=%lld,"
             "MIN_BLOCKS=%lld,SPLIT_K=%lld,WPRE=%lld", g.wg_m, g.wg_n, g.toh, g.tow, g.stages, g.setmaxnreg, g.abufs,
             g.rows, g.minb, g.split, g.wpre);
    wpre_seen += g.wpre > 0;
    wpre2_seen += g.wpre == 2;
    wpre_split_seen += g.wpre > 0 && g.split > 1;
    wpre_tf32_seen += g.wpre > 0 && ct_problem_dtype(p) == CT_DTYPE_TF32;
    printf("%s %s: ", p->canonical, desc);
    fflush(stdout);
    const int rc = system(cmd);
    CHECK_MSG(rc == 0, "replay of %s %s failed (status %d)", p->canonical, desc, rc);
    cases++;
}

/* Adds to cs[n] the first of the n samples (with parameter of above 1
 * where of is given) with parameter name set to value, where that is
 * admissible and another candidate, else with STAGES 2 too (a sample's
 * deep pipeline may leave no room for the variant's larger stages: which
 * samples a layer gets changes with the space); returns 1 when it added
 * one. */
static int variant_of(const ct_problem *p, const ct_template *t, const ct_limits *lim, ct_params *cs, int n,
                      const char *name, long value, const char *of)
{
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < n; k++) {
            ct_params v = cs[k];
            char why[256];
            if (ct_params_get(&v, name, -1) == value || (of && ct_params_get(&v, of, 1) <= 1))
                continue;
            ct_params_set(&v, name, value, NULL);
            if (pass == 1)
                ct_params_set(&v, "STAGES", 2, NULL);
            p->family->normalize(p, t, &v);
            if (ct_params_get(&v, name, -1) == value && !p->family->constrain(p, t, &v, lim, why, sizeof why)) {
                cs[n] = v;
                return 1;
            }
        }
    return 0;
}

static int variant(const ct_problem *p, const ct_template *t, const ct_limits *lim, ct_params *cs, int n,
                   const char *name, long value)
{
    return variant_of(p, t, lim, cs, n, name, value, NULL);
}

/* Redraws the last of the n samples (16 times at most) until variant name
 * = value of one of them is admissible: a layer's claim should not hang on
 * which samples it drew, which changes with the space. */
static void redraw_for(const ct_problem *p, const ct_template *t, const ct_config *cfg, const ct_limits *lim,
                       ct_params *cs, int n, const char *name, long value)
{
    ct_params scratch[13];
    for (int d = 0; d < 16 && n > 0 && n < 13; d++) {
        for (int k = 0; k < n; k++)
            if (ct_params_get(&cs[k], name, -1) == value)
                return;
        memcpy(scratch, cs, (size_t)n * sizeof *cs);
        if (variant(p, t, lim, scratch, n, name, value) ||
            sample_any(p, t, cfg, lim, 1, &cs[n - 1]) != 1)
            return;
    }
}

int main(void)
{
    ct_config cfg;
    ct_limits lim;
    if (!replay_setup(&cfg, &lim))
        return 1;
    CHECK_MSG(find_cuda(), "no CUDA headers: set CUDA_HOME or put nvcc on PATH");
    snprintf(scratch, sizeof scratch, "%s/ct_tc16gkt_XXXXXX", P_tmpdir);
    CHECK(mkdtemp(scratch) != NULL);
    /* Cin 72 (a chunk of 64 and one of 8, zeros past Cin), batch 1,
     * stride 2 down (an element stride), padding; dilation 2 (ROWS: taps 2
     * rows apart in a column's box); stride 2 both ways with
     * bias and 24 output channels (8-element stores); groups of 64
     * channels with odd Cout/groups (one-element stores) and bias; a 1x1
     * strided layer with two consumer warpgroups; a 5x3 filter dilated; a
     * causal strided 1D layer (a 2D one of height 1). The third column
     * names the variant a layer must replay (ROWS=1, SPLIT_K > 1): each
     * drawn third checks what its layers claim, a whole run all of it. */
    static const char *const shapes[][3] = {
        {"conv2dc:1:64:10:16:64:3:3:same:dilation=2:nhwc:bf16", "2", "rows"},
        {"conv2dc:1:72:9:13:40:3:3:pad=1:stride=2,1:nhwc:f16", "2", ""},
        {"conv2dc:2:40:17:19:24:3:3:pad=1:stride=2:bias:nhwc:bf16", "2", ""},
        {"conv2dc:1:128:7:9:66:3:3:same:groups=2:bias:nhwc:bf16", "1", ""},
        {"conv2dc:2:64:15:16:136:1:1:valid:stride=2:nhwc:f16", "2", ""},
        {"conv2dc:1:16:12:11:32:5:3:pad=2,2:dilation=1,2:nhwc:bf16", "1", ""},
        {"conv1dc:3:40:301:24:5:causal:stride=2:bias:nlc:f16", "1", ""},
        /* Split-K: Cin 200 (four chunks, the last of 8 channels) with
         * bias and 24 output channels. */
        {"conv2dc:1:200:6:7:24:3:3:same:bias:nhwc:bf16", "1", "split"},
        /* tf32 (ct_conv_tf32gkt.cuh, 32-channel chunks, operands rounded
         * in shared memory, 2^-10 against fp64 of the unrounded inputs):
         * Cin 36 (a chunk of 32 and one of 4) with stride 2 down and bias;
         * groups of 32 channels with odd Cout/groups; stride 2 both ways
         * with Cin 20 (one partial chunk); a strided 1D layer. */
        {"conv2dc:1:36:9:13:40:3:3:pad=1:stride=2,1:bias:nhwc:tf32", "2", "split"},
        {"conv2dc:1:64:8:10:66:3:3:same:groups=2:bias:nhwc:tf32", "1", ""},
        {"conv2dc:2:20:17:19:24:3:3:pad=1:stride=2:nhwc:tf32", "1", ""},
        {"conv1dc:2:36:201:20:3:causal:stride=2:bias:nlc:tf32", "1", ""},
        /* Split-K in tf32: Cin 100 (four 32-channel chunks, the last of 4). */
        {"conv2dc:2:100:5:6:40:3:3:same:bias:nhwc:tf32", "1", "split"},
        /* fp32 by 3xTF32 (CT_TF32X3: second images of every buffer and
         * stage, three wgmma a step; 1e-5 against fp64): the tf32 layers'
         * odd shapes again, dilation 2 down, a 1x1 strided layer with two
         * consumer warpgroups, a 5x2 filter dilated (15 taps do not fit
         * twice), and Cin 512 of a 3x3 filter (4608-long sums, 16 chunks,
         * split too) where the accuracy of the small parts shows. */
        {"conv2dc:1:36:9:13:40:3:3:pad=1:stride=2,1:bias:nhwc", "1", "split"},
        {"conv2dc:1:64:8:10:66:3:3:same:groups=2:bias:nhwc", "1", ""},
        {"conv2dc:1:64:10:16:64:3:3:same:dilation=2:nhwc", "1", "rows"},
        {"conv2dc:2:64:15:16:136:1:1:valid:stride=2:nhwc", "1", ""},
        {"conv2dc:1:16:12:11:32:5:2:pad=2,1:dilation=1,2:nhwc", "1", ""},
        {"conv1dc:2:36:201:20:3:causal:stride=2:bias:nlc", "1", ""},
        {"conv2dc:1:512:6:8:64:3:3:same:nhwc", "1", "split"},
        {"conv2dc:2:100:5:6:40:3:3:same:bias:nhwc", "1", "split"},
    };
    /* A third of the layers a run, every third from a drawn first (each
     * compile is a second or more; each third holds tf32 and WG_N=2 cases,
     * and checks the variants its layers claim), as the replay scripts draw
     * their parts:
     * REPLAY_PART=I/3 repeats one, REPLAY_PART=all runs them all. */
    const char *rp = getenv("REPLAY_PART");
    const int all = rp && strcmp(rp, "all") == 0;
    int third = rp && !all ? atoi(rp) : (int)(time(NULL) % 3) + 1;
    if (third < 1 || third > 3)
        third = 1;
    if (all)
        printf("layers: all (REPLAY_PART=I/3 runs a third)\n");
    else
        printf("layers: part %d/3 (REPLAY_PART=%d/3 repeats it; all runs every layer)\n", third, third);
    const ct_family *fam = NULL;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        if (!all && (int)(i % 3) != third - 1)
            continue;
        ct_problem p;
        ct_err e = {0};
        CHECK_MSG(ct_problem_parse(shapes[i][0], &p, &e) == CT_OK, "%s: %s", shapes[i][0], e.msg);
        fam = p.family;
        char tname[64];
        snprintf(tname, sizeof tname, "%s_tc16gktcl", fam->name);
        const ct_template *t = ct_template_find(fam, tname);
        CHECK(t != NULL);
        layer L = layer_of(&p);
        L.s.p = &p;   /* the element type: tf32's sizes and map */
        ct_params cs[12];
        int n = sample_any(&p, t, &cfg, &lim, atoi(shapes[i][1]), cs);
        CHECK_MSG(n > 0, "%s: no admissible candidate sampled", shapes[i][0]);
        if (!strcmp(shapes[i][2], "rows"))
            redraw_for(&p, t, &cfg, &lim, cs, n, "ROWS", 1);
        if (!strcmp(shapes[i][2], "split"))
            redraw_for(&p, t, &cfg, &lim, cs, n, "SPLIT_K", 2);
        n += variant(&p, t, &lim, cs, n, "ROWS", 1);
        n += variant(&p, t, &lim, cs, n, "WG_N", 2);
        n += variant(&p, t, &lim, cs, n, "SPLIT_K", 2);
        n += variant(&p, t, &lim, cs, n, "SPLIT_K", 4);
        /* The prep's images: alone, and with a split (the slice's chunks
         * from its first). */
        n += variant(&p, t, &lim, cs, n, "WPRE", 1);
        n += variant_of(&p, t, &lim, cs, n, "WPRE", 1, "SPLIT_K");
        n += variant(&p, t, &lim, cs, n, "WPRE", 2);
        n += variant_of(&p, t, &lim, cs, n, "WPRE", 2, "SPLIT_K");
        n += variant_of(&p, t, &lim, cs, n, "WG_M", 2, "WPRE");   /* a stage's A of 128 rows */
        int rows_here = 0, split_here = 0;
        for (int k = 0; k < n; k++) {
            rows_here += ct_params_get(&cs[k], "ROWS", 0) == 1;
            wgn_seen += ct_params_get(&cs[k], "WG_N", 1) == 2;
            split_here += ct_params_get(&cs[k], "SPLIT_K", 1) > 1;
            tf32_split_seen += ct_params_get(&cs[k], "SPLIT_K", 1) > 1 && ct_problem_dtype(&p) == CT_DTYPE_TF32;
            x3_split_seen += ct_params_get(&cs[k], "SPLIT_K", 1) > 1 && ct_problem_dtype(&p) == CT_DTYPE_F32;
            replay_case(&p, &L, &cs[k]);
        }
        rows_seen += rows_here;
        split_seen += split_here;
        CHECK_MSG(strcmp(shapes[i][2], "rows") || rows_here > 0, "%s: no ROWS=1 case replayed", shapes[i][0]);
        CHECK_MSG(strcmp(shapes[i][2], "split") || split_here > 0, "%s: no split-K case replayed", shapes[i][0]);
    }
    /* Each third holds fp32 layers; a whole run holds split ones. */
    CHECK_MSG(x3_cases >= 2 && (!all || (x3_cases >= 8 && x3_split_seen >= 2)), "%d fp32 cases replayed, %d split",
              x3_cases, x3_split_seen);
    char rm[1200];
    snprintf(rm, sizeof rm, "rm -rf '%s'", scratch);
    CHECK(system(rm) == 0);
    CHECK_MSG(cases >= 4 && wgn_seen >= 1 && wpre_seen >= 1 &&
                  (!all || (rows_seen >= 1 && tf32_cases >= 4 && split_seen >= 4 && tf32_split_seen >= 1 &&
                            wpre_split_seen >= 4 && wpre_tf32_seen >= 4 && wpre2_seen >= 4)),
              "%d cases replayed, %d with ROWS=1, %d with WG_N=2, %d tf32, %d split (%d tf32), %d WPRE 1 or 2 (%d "
              "split, %d tf32, %d WPRE=2)", cases, rows_seen, wgn_seen, tf32_cases, split_seen, tf32_split_seen,
              wpre_seen, wpre_split_seen, wpre_tf32_seen, wpre2_seen);
    CHECK_DONE();
}
