/* test_tc16wb_conv.c - the kernel kind tc16wb (ct_conv_tc16wb.cuh, beside it)
 * without a GPU: its kernel replayed thread by thread and lane by lane
 * (tc16_replay.h has the mma's operand layouts). Shared memory starts as
 * NaN patterns, so reading what neither the bulk copies nor the im2col
 * wrote fails; every copy is checked for the copy engine's 16-byte rules
 * and for a barrier armed with its bytes, every 16-byte access for its
 * alignment and bounds, every pick from the input planes for lying inside
 * them, and every output for being written exactly once. Seeded samples of
 * the space on odd, grouped, strided, dilated, causal and padded layers,
 * in both weight sources, with and without clusters. */
#include "tc16_replay.h"
#include "tc16wb_conv.h"

static unsigned long long rng = 0x6a09e667f3bcc909ULL;
static long long seen_wsrc[2], seen_cluster, seen_scalar_planes, seen_chunks;

typedef struct wb {
    const replay_run *R;
    const ct_tc16wb_geom *g;
    long long grp, co0, z, kb, ke, kv, ism;
    uint16_t *sm;
    long long nsm;
    double *part;      /* [k][m][n] partial sums of the warps, this block */
    int *armed;        /* bytes each piece's barrier expects, -1: not armed */
    long long *landed; /* bytes copied into each piece */
} wb;

/* The copies of warp 0's lanes and the barriers lane 0 arms. */
static void copy_weights(wb *B)
{
    const ct_tc16wb_geom *g = B->g;
    const layer *L = B->R->L;
    const long long rows = g->bn < L->cout_g - B->co0 ? g->bn : L->cout_g - B->co0;
    for (long long c = 0; c < g->chunks; c++) {
        const long long v0 = c * g->gpc * 32, v1 = B->kv < (c + 1) * g->gpc * 32 ? B->kv : (c + 1) * g->gpc * 32;
        B->armed[c] = v1 > v0 ? (int)(rows * (v1 - v0) * 2) : -1;
    }
    for (long long p = 0; p < rows * g->chunks; p++) {
        const long long r = p % rows, c = p / rows;
        const long long v0 = c * g->gpc * 32, v1 = B->kv < (c + 1) * g->gpc * 32 ? B->kv : (c + 1) * g->gpc * 32;
        if (v1 <= v0)
            continue;
        const long long dst = r * g->kp + v0, src = (B->grp * L->cout_g + B->co0 + r) * g->kall + B->kb * 32 + v0;
        CHECK_MSG(dst % 8 == 0 && src % 8 == 0 && (v1 - v0) % 8 == 0, "bulk copy %lld <- %lld, %lld values", dst,
                  src, v1 - v0);
        const int in = dst + (v1 - v0) <= B->ism && src + (v1 - v0) <= L->groups * L->cout_g * g->kall;
        CHECK(in);
        if (in)
            memcpy(B->sm + dst, B->R->w + src, (size_t)(v1 - v0) * sizeof(uint16_t));
        B->landed[c] += 2 * (v1 - v0);
    }
}

/* The (unit, image) tasks: 8 channels' planes, then each pixel's words. */
static void build_im2col(wb *B)
{
    const ct_tc16wb_geom *g = B->g;
    const layer *L = B->R->L;
    const ct_tc_shape *s = &L->s;
    const long long khw = g->khw, hwi = g->hwi, ohw = s->oh * s->ow, kr = (B->ke - B->kb) * 32;
    const long long u_lo = B->kb * 32 / (8 * khw), u_hi = (B->kb * 32 + B->kv + 8 * khw - 1) / (8 * khw);
    const int xvec = L->cin_g % 8 == 0 && s->cin * hwi % 8 == 0;
    seen_scalar_planes += !xvec;
    uint16_t *pv = malloc((size_t)(8 * hwi) * sizeof *pv);
    for (long long it = 0; it < g->uit; it++)
        for (long long tid = 0; tid < g->nt; tid++) {
            const long long idx = tid + it * g->nt, u = u_lo + idx / s->b, b = idx % s->b;
            if (idx >= g->nub * s->b || u >= u_hi)
                continue;
            const long long x = (b * s->cin + B->grp * L->cin_g + 8 * u) * hwi;
            for (long long e = 0; e < 8 * hwi; e++) {
                const int ok = 8 * u + e / hwi < L->cin_g;
                if (xvec)
                    CHECK_MSG(x % 8 == 0 && x + 8 * hwi <= s->b * s->cin * hwi, "unit load at %lld", x);
                pv[e] = ok ? B->R->in[x + e] : 0;
            }
            for (long long o = 0; o < ohw; o++)
                for (long long w = 0; w < khw; w++) {
                    const long long loc = 8 * (u * khw + w) - B->kb * 32, row = b * ohw + o;
                    if (loc < 0 || loc >= B->kv)
                        continue;
                    const long long at = B->ism + row * g->kp + loc;
                    CHECK(row < g->ntot && at % 8 == 0 && at + 8 <= B->nsm);
                    for (int j = 0; j < 8 && at + 8 <= B->nsm; j++) {
                        const long long e = 8 * w + j, cr = e / khw, tap = e % khw;
                        const long long iy = o / s->ow * s->sy - s->ph + tap / s->kw * s->dy;
                        const long long ix = o % s->ow * s->sx - s->pw + tap % s->kw * s->dx;
                        const int in = iy >= 0 && iy < s->h && ix >= 0 && ix < s->w;
                        const long long E = (cr * s->h + iy) * s->w + ix;
                        CHECK(!in || (E >= 0 && E < 8 * hwi));
                        B->sm[at + j] = in ? pv[E] : 0;
                    }
                }
        }
    for (long long idx = 0; idx < g->ntot * 4; idx++) {
        const long long n = idx / 4, loc = kr - 32 + 8 * (idx % 4);
        if (loc >= B->kv) {
            const long long at = B->ism + n * g->kp + loc;
            CHECK_MSG(loc >= 0 && at + 8 <= B->nsm, "zeros at %lld of row %lld", loc, n);
            for (int j = 0; j < 8 && loc >= 0 && at + 8 <= B->nsm; j++)
                B->sm[at + j] = 0;
        }
    }
    free(pv);
}

/* 8 values of shared memory at `at` (16-byte aligned, inside it). */
static void lds16(const wb *B, long long at, float *v)
{
    CHECK_MSG(at % 8 == 0 && at >= 0 && at + 8 <= B->nsm, "16-byte shared load at %lld of %lld", at, B->nsm);
    for (int e = 0; e < 8; e++)
        v[e] = at % 8 == 0 && at >= 0 && at + 8 <= B->nsm ? bf(B->sm[at + e]) : NAN;
}

/* The warps' mma steps and their partial sums. */
static void mma_steps(wb *B)
{
    const ct_tc16wb_geom *g = B->g;
    const layer *L = B->R->L;
    static double acc[2][32][4];
    static float a[2][32][4][2], b[2][32][2][2];
    for (long long wk = 0; wk < g->warps_k; wk++)
        for (long long j = 0; j < g->co_tiles; j++) {
            memset(acc, 0, sizeof acc);
            for (long long i = 0; i < g->ngw; i++) {
                const long long lg = wk + i * g->warps_k, loc = lg * 32;
                if ((g->nkgb % g->warps_k != 0 || g->cluster_k > 1) && B->kb + lg >= B->ke)
                    break;
                CHECK(B->kb + lg < B->ke);
                if (!g->wsrc)
                    CHECK_MSG(B->armed[lg / g->gpc] > 0 && B->landed[lg / g->gpc] == B->armed[lg / g->gpc],
                              "a wait on piece %lld: armed for %d bytes, %lld copied", lg / g->gpc,
                              B->armed[lg / g->gpc], B->landed[lg / g->gpc]);
                for (int lane = 0; lane < 32; lane++) {
                    const long long gg = lane / 4, t = lane % 4, co = B->co0 + 8 * j + gg;
                    float p[2][8] = {{0}}, w[8] = {0};
                    for (int h = 0; h < 2; h++)
                        if (gg + 8 * h < g->ntot)
                            lds16(B, B->ism + (gg + 8 * h) * g->kp + 8 * t + loc, p[h]);
                    if (co < L->cout_g && loc + 8 * t < B->kv) {
                        if (g->wsrc) {
                            const long long src = (B->grp * L->cout_g + co) * g->kall + B->kb * 32 + loc + 8 * t;
                            CHECK(src % 8 == 0);
                            for (int e = 0; e < 8; e++)
                                w[e] = bf(B->R->w[src + e]);
                        } else {
                            lds16(B, (8 * j + gg) * g->kp + 8 * t + loc, w);
                        }
                    }
                    /* step s takes values 4s..4s+3: registers {p0, p1} of
                     * pairs 2s and 2s + 1, and the weights' same pairs */
                    for (int st = 0; st < 2; st++)
                        for (int e = 0; e < 2; e++) {
                            a[st][lane][0][e] = p[0][4 * st + e];
                            a[st][lane][1][e] = p[1][4 * st + e];
                            a[st][lane][2][e] = p[0][4 * st + 2 + e];
                            a[st][lane][3][e] = p[1][4 * st + 2 + e];
                            b[st][lane][0][e] = w[4 * st + e];
                            b[st][lane][1][e] = w[4 * st + 2 + e];
                        }
                }
                mma(acc[0], a[0], b[0]);
                mma(acc[1], a[1], b[1]);
            }
            for (int lane = 0; lane < 32; lane++)
                for (int r = 0; r < (g->tp > 8 ? 4 : 2); r++) {
                    const long long m = 8 * j + 2 * (lane % 4) + r % 2, n = lane / 4 + 8 * (r / 2);
                    B->part[(wk * g->bn + m) * g->tp + n] = acc[0][lane][r] + acc[1][lane][r];
                }
        }
}

/* A cluster (grid z) of blocks by; each output stored by the block whose
 * share of the outputs it is, the sum over the blocks' and warps' parts. */
static void replay_one(const replay_run *R, const ct_params *c)
{
    const layer *L = R->L;
    ct_tc16wb_geom g;
    ct_tc16wb_geometry_of(&L->s, c, &g);
    ct_launch l;
    R->p->family->geometry(R->p, R->t, c, &l);
    CHECK(l.grid[0] == 1 && l.grid[1] == (unsigned)g.grid_y && l.grid[2] == (unsigned)g.cluster_k &&
          l.block[0] == (unsigned)g.nt && l.smem_bytes == (unsigned)g.smem_bytes);
    CHECK(4 * (g.warps_k + (g.cluster_k > 1)) * g.nout <= g.smem_bytes && g.ntot <= g.tp);
    seen_wsrc[g.wsrc]++;
    seen_cluster += g.cluster_k > 1;
    seen_chunks += !g.wsrc && g.chunks > 1;
    const long long nct = (L->cout_g + g.bn - 1) / g.bn, nsm = g.smem_bytes / 2, np = g.warps_k * g.nout;
    double *part = malloc((size_t)(g.cluster_k * np) * sizeof *part);
    uint16_t *sm = malloc((size_t)nsm * sizeof *sm);
    int *armed = malloc((size_t)g.chunks * sizeof *armed);
    long long *landed = malloc((size_t)g.chunks * sizeof *landed);
    for (long long by = 0; by < g.grid_y; by++) {
        for (long long z = 0; z < g.cluster_k; z++) {
            wb B = {.R = R, .g = &g, .grp = by / nct, .co0 = by % nct * g.bn, .z = z, .sm = sm, .nsm = nsm,
                    .part = part + z * np, .armed = armed, .landed = landed};
            B.kb = z * g.nkgb;
            B.ke = B.kb + g.nkgb < g.nkg ? B.kb + g.nkgb : g.nkg;
            B.kv = (B.ke * 32 < g.kall ? B.ke * 32 : g.kall) - B.kb * 32;
            B.ism = g.wsrc ? 0 : g.bn * g.kp;
            for (long long i = 0; i < nsm; i++)
                sm[i] = NAN16;
            for (long long i = 0; i < np; i++)
                B.part[i] = NAN;
            memset(landed, 0, (size_t)g.chunks * sizeof *landed);
            if (!g.wsrc)
                copy_weights(&B);
            build_im2col(&B);
            mma_steps(&B);
        }
        const long long grp = by / nct, co0 = by % nct * g.bn;
        for (long long idx = 0; idx < g.nout; idx++) {
            const long long m = idx / g.tp, n = idx % g.tp, co = co0 + m;
            if (co >= L->cout_g || n >= g.ntot)
                continue;
            double s = L->s.bias ? bf(R->bias[grp * L->cout_g + co]) : 0.0;
            for (long long z = 0; z < g.cluster_k; z++)
                for (long long k = 0; k < g.warps_k; k++)
                    s += part[z * np + k * g.nout + idx];
            const long long ohw = L->s.oh * L->s.ow, b = n / ohw, o = n % ohw;
            const long long at = (b * L->s.cout + grp * L->cout_g + co) * ohw + o;
            R->out[at] = s;
            R->writes[at]++;
        }
    }
    free(part);
    free(sm);
    free(armed);
    free(landed);
}

int main(void)
{
    ct_config cfg;
    ct_limits lim;
    if (!replay_setup(&cfg, &lim))
        return 1;
    /* Seed 002's shape at a smaller width, 16 pixels (rows g + 8), strides,
     * dilation, causal and asymmetric padding, groups, channels of a group
     * not a multiple of 8 (planes loaded a value at a time), partial last
     * groups (the reduction not a multiple of 32), 2D taps, bias. */
    static const char *const shapes[] = {
        "conv1dc:1:64:4:40:5:pad=2:bias:bf16",
        "conv1dc:4:48:4:24:3:pad=1:f16",
        "conv1dc:2:48:7:20:3:pad=1:stride=2:bf16",
        "conv1dc:1:64:9:24:4:causal:dilation=2:groups=2:bias:f16",
        "conv1dc:1:200:3:24:3:pad=1:f16",
        "conv1dc:2:12:5:10:2:pad=1:bias:bf16",
        "conv2dc:2:32:2:3:20:3:3:same:groups=2:bias:f16",
        "conv2dc:1:64:4:4:40:3:3:pad=1:stride=2:bf16",
        "conv2dc:1:96:3:3:24:3:3:same:groups=2:bias:bf16",
        "conv2dc:1:24:4:4:16:2:2:valid:bf16",
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        char tmpl[64];
        snprintf(tmpl, sizeof tmpl, "%.*s_tc16wb", (int)(strchr(shapes[i], ':') - shapes[i]), shapes[i]);
        replay_spec(shapes[i], tmpl, 12, &cfg, &lim, &rng, replay_one);
    }
    CHECK_MSG(seen_wsrc[0] > 0 && seen_wsrc[1] > 0 && seen_cluster > 0 && seen_chunks > 0 && seen_scalar_planes > 0,
              "replayed WSRC 0: %lld, WSRC 1: %lld, clusters: %lld, CHUNKS > 1: %lld, planes a value at a time: "
              "%lld", seen_wsrc[0], seen_wsrc[1], seen_cluster, seen_chunks, seen_scalar_planes);
    CHECK_DONE();
}
