/* test_tc16gk_conv.c - the kernel kind tc16gkcl (ct_conv_tc16gk.cuh, beside it)
 * without a GPU: its kernel replayed block by block, with the header's
 * index arithmetic written out again here: the cp.async copies of each
 * chunk (16-byte alignment and bounds of both ends, zeros outside the image,
 * past the channels and past Cout), the transpose of the raw weights by
 * byte permutes (emulated), the wgmma steps read through their shared-
 * memory descriptors (the canonical K-major layout without swizzling), and
 * the epilogue through the staged outputs. Shared memory starts as NaN
 * patterns, so a step or store that reads what no copy or transpose wrote
 * fails. The pipeline is checked as the kernel runs it: a copy or transpose
 * may not overwrite the stage or A buffer of the chunk whose steps may
 * still run (chunk ch - 1 after wgmma.wait_group 1), nor the chunk about to
 * be read. Seeded samples of the space on grouped, dilated, strided (a
 * wgmma per row), padded-chunk, 1x1 and 5x2 layers. */
#include "tc16_replay.h"
#include "tc16gk_conv.h"

static unsigned long long rng = 0x3c6ef372fe94f82bULL;
static long long seen_rows, seen_padded, seen_wgm2, seen_wgn, seen_narrow_out;

/* PTX prmt (CUDA's __byte_perm): byte k of the result is byte s_k of the
 * eight bytes y:x. */
static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
    const uint64_t v = (uint64_t)x | (uint64_t)y << 32;
    uint32_t r = 0;
    for (int k = 0; k < 4; k++)
        r |= (uint32_t)(v >> 8 * ((s >> 4 * k) & 7) & 0xff) << 8 * k;
    return r;
}

typedef struct blk {
    const replay_run *R;
    const ct_tc16gk_geom *g;
    long long b, grp, co0, iy0, ix0, oy0, ox0;
    uint16_t *sm; /* shared memory, 16-bit elements */
    long long nsm;
} blk;

/* tc16gk_copy: chunk starting at channel ci0 into the stage at byte st. */
static void copy_chunk(const blk *B, long long st, long long ci0)
{
    const ct_tc16gk_geom *g = B->g;
    const layer *L = B->R->L;
    const ct_tc_shape *s = &L->s;
    const long long per = g->ck / 8, cin_all = L->cin_g * L->groups;
    for (long long i = 0; i < g->ih * g->iw * per; i++) {
        const long long p = i / per, c = i % per * 8;
        const long long iy = B->iy0 + p / g->iw, ix = B->ix0 + p % g->iw;
        const int ok = iy >= 0 && iy < s->h && ix >= 0 && ix < s->w && (L->cin_g % g->ck == 0 || ci0 + c < L->cin_g);
        const long long dst = st + g->sr + c / 8 * g->ppx * 16 + p * 16;
        const long long src = ((B->b * s->h + iy) * s->w + ix) * cin_all + B->grp * L->cin_g + ci0 + c;
        CHECK_MSG(dst % 16 == 0 && dst + 16 <= st + g->st, "input piece at byte %lld of stage %lld", dst, st);
        CHECK_MSG(!ok || (src % 8 == 0 && src + 8 <= s->b * s->h * s->w * cin_all), "input piece from %lld", src);
        for (int v = 0; v < 8; v++)
            B->sm[dst / 2 + v] = ok ? B->R->in[src + v] : 0;
    }
    const long long wper = g->ck * g->khw / 8, rk = L->cin_g * g->khw;
    for (long long i = 0; i < g->bm * wper; i++) {
        const long long m = i / wper, e = i % wper * 8;
        const int ok = B->co0 + m < L->cout_g && (L->cin_g % g->ck == 0 || ci0 * g->khw + e < rk);
        const long long dst = st + (m * g->rkp + e) * 2;
        const long long src = (B->grp * L->cout_g + B->co0 + m) * rk + ci0 * g->khw + e;
        CHECK_MSG(dst % 16 == 0 && dst + 16 <= st + g->sr, "raw weight piece at byte %lld of stage %lld", dst, st);
        CHECK_MSG(!ok || (src % 8 == 0 && src + 8 <= L->groups * L->cout_g * rk), "raw weight piece from %lld", src);
        for (int v = 0; v < 8; v++)
            B->sm[dst / 2 + v] = ok ? B->R->w[src + v] : 0;
    }
}

/* tc16gk_transpose: the raw weights of the stage at byte st into the A
 * buffer at byte a. */
static void transpose(const blk *B, long long a, long long st)
{
    const ct_tc16gk_geom *g = B->g;
    const long long c8 = g->ck / 8, khw = g->khw;
    for (long long i = 0; i < g->bm * c8; i++) {
        const long long m = i % g->bm, o = i / g->bm;
        const long long src = st + (m * g->rkp + o * 8 * khw) * 2;
        CHECK_MSG(src % 16 == 0 && src + 16 * khw <= st + g->sr, "transpose read at byte %lld", src);
        uint32_t w[4 * CT_TC16GK_MAX_TAPS];
        for (long long v = 0; v < 4 * khw; v++)
            w[v] = (uint32_t)B->sm[src / 2 + 2 * v] | (uint32_t)B->sm[src / 2 + 2 * v + 1] << 16;
        for (long long tap = 0; tap < khw; tap++) {
            const long long dst = a + ((tap * c8 + o) * g->bm + m) * 16;
            CHECK_MSG(dst % 16 == 0 && dst + 16 <= a + g->sa, "transpose write at byte %lld", dst);
            for (int j = 0; j < 4; j++) {
                const long long e0 = 2 * j * khw + tap, e1 = e0 + khw;
                const uint32_t q =
                    byte_perm(w[e0 / 2], w[e1 / 2], (e0 % 2 ? 0x32u : 0x10u) | (e1 % 2 ? 0x7600u : 0x5400u));
                B->sm[dst / 2 + 2 * j] = (uint16_t)q;
                B->sm[dst / 2 + 2 * j + 1] = (uint16_t)(q >> 16);
            }
        }
    }
}

/* One m64nNk16 step of a warpgroup: operand element (row, k) of a K-major
 * matrix without swizzling lies at byte start + (k / 8) lbo + (row / 8) sbo
 * + (row % 8) 16 + (k % 8) 2; the region each may read is [lo, hi). */
static void wgmma(const blk *B, double *d, long long n, long long a, long long a_lo, long long a_hi, long long b,
                  long long b_lo, long long b_hi)
{
    const ct_tc16gk_geom *g = B->g;
    double A[64][16];
    for (int m = 0; m < 64; m++)
        for (int k = 0; k < 16; k++) {
            const long long at = a + k / 8 * g->bm * 16 + m / 8 * 128 + m % 8 * 16 + k % 8 * 2;
            CHECK_MSG(at >= a_lo && at + 2 <= a_hi, "A element at byte %lld outside [%lld, %lld)", at, a_lo, a_hi);
            A[m][k] = bf(B->sm[at / 2]);
        }
    for (long long c = 0; c < n; c++) {
        double col[16];
        for (int k = 0; k < 16; k++) {
            const long long at = b + k / 8 * g->ppx * 16 + c / 8 * 128 + c % 8 * 16 + k % 8 * 2;
            CHECK_MSG(at >= b_lo && at + 2 <= b_hi, "B element at byte %lld outside [%lld, %lld)", at, b_lo, b_hi);
            col[k] = bf(B->sm[at / 2]);
        }
        for (int m = 0; m < 64; m++) {
            double s = 0;
            for (int k = 0; k < 16; k++)
                s += A[m][k] * col[k];
            d[m * n + c] += s;
        }
    }
}

static void replay_one(const replay_run *R, const ct_params *c)
{
    ct_tc16gk_geom g;
    const layer *L = R->L;
    const ct_tc_shape *s = &L->s;
    ct_tc16gk_geometry_of(s, c, &g);
    const long long ty = (s->oh + g.toh - 1) / g.toh, tx = (s->ow + g.tow - 1) / g.tow;
    const long long nct = (L->cout_g + g.bm - 1) / g.bm, look = g.stages - 2, flat = s->sy == 1;
    const long long nwg = g.wg_m * g.wg_n, op = g.bm + 8, cout_all = L->cout_g * L->groups;
    const long long ovec = L->cout_g % 8 == 0 ? 8 : L->cout_g % 4 == 0 ? 4 : L->cout_g % 2 == 0 ? 2 : 1;
    CHECK_MSG(g.khw <= CT_TC16GK_MAX_TAPS, "%lld taps", g.khw);
    seen_rows += !flat;
    seen_padded += L->cin_g % g.ck != 0;
    seen_wgm2 += g.wg_m == 2;
    seen_wgn += g.wg_n > 1;
    seen_narrow_out += ovec < 8;
    blk B = {.R = R, .g = &g, .nsm = g.smem_bytes / 2};
    B.sm = malloc((size_t)B.nsm * sizeof *B.sm);
    double *acc = malloc((size_t)(nwg * g.nw * 64 * g.wgn) * sizeof *acc);
    double *so = malloc((size_t)B.nsm * sizeof *so);
    int *staged = malloc((size_t)B.nsm * sizeof *staged);
    long long *holds = malloc((size_t)g.stages * sizeof *holds);
    for (long long by = 0; by < g.grid_y; by++)
        for (long long bx = 0; bx < g.grid_x; bx++) {
            const long long tile = bx % (ty * tx);
            B.b = bx / (ty * tx), B.grp = by / nct, B.co0 = by % nct * g.bm;
            B.oy0 = tile / tx * g.toh, B.ox0 = tile % tx * g.tow;
            B.iy0 = B.oy0 * s->sy - s->ph, B.ix0 = B.ox0 - s->pw;
            for (long long i = 0; i < B.nsm; i++)
                B.sm[i] = NAN16;
            memset(acc, 0, (size_t)(nwg * g.nw * 64 * g.wgn) * sizeof *acc);
            const long long stg = 2 * g.sa;
            for (long long k = 0; k < g.stages; k++)
                holds[k] = -1;
            for (long long k = 0; k < look && k < g.nch; k++) {
                copy_chunk(&B, stg + k * g.st, k * g.ck);
                holds[k] = k;
            }
            for (long long ch = 0; ch < g.nch; ch++) {
                /* After wgmma.wait_group 1 and the barrier: chunk ch - 1's
                 * steps may still read its stage and A buffer. */
                const long long st = ch % g.stages, busy = ch > 0 ? (ch - 1) % g.stages : -1;
                CHECK_MSG(holds[st] == ch, "chunk %lld: its stage holds chunk %lld", ch, holds[st]);
                if (ch + look < g.nch) {
                    const long long to = (ch + look) % g.stages;
                    CHECK_MSG(to != busy && to != st, "chunk %lld's copies overwrite a stage in use", ch + look);
                    copy_chunk(&B, stg + to * g.st, (ch + look) * g.ck);
                    holds[to] = ch + look;
                }
                const long long a = ch % 2 * g.sa;
                CHECK_MSG(ch == 0 || a != (ch - 1) % 2 * g.sa, "chunk %lld's transpose overwrites A in use", ch);
                transpose(&B, a, stg + st * g.st);
                const long long sb0 = stg + st * g.st + g.sr;
                for (long long wg = 0; wg < nwg; wg++) {
                    const long long wgm = wg % g.wg_m, wgn = wg / g.wg_m;
                    for (long long sp = 0; sp < g.khw * g.ck / 16; sp++) {
                        const long long tap = sp / (g.ck / 16), q = sp % (g.ck / 16);
                        const long long oa = (tap * (g.ck / 8) + 2 * q) * g.bm;
                        for (long long rr = 0; rr < g.nw; rr++) {
                            const long long p0 =
                                (rr * s->sy + tap / s->kw * s->dy) * g.iw + tap % s->kw * s->dx;
                            const long long da = a + wgm * 64 * 16 + oa * 16;
                            const long long db = sb0 + wgn * g.rpw * s->sy * g.iw * 16 + 2 * q * g.ppx * 16 + p0 * 16;
                            wgmma(&B, acc + (wg * g.nw + rr) * 64 * g.wgn, g.wgn, da, a, a + g.sa, db, sb0,
                                  sb0 + g.sb);
                        }
                    }
                }
            }
            /* The epilogue: each thread's fragments staged as [pixel][channel]
             * (written once each), then OVEC channels a store. */
            for (long long i = 0; i < B.nsm; i++)
                staged[i] = 0;
            for (long long wg = 0; wg < nwg; wg++) {
                const long long wgm = wg % g.wg_m, wgn = wg / g.wg_m, rw0 = wgn * g.rpw;
                for (int th = 0; th < 128; th++) {
                    const int w = th / 32, gg = th % 32 / 4, t = th % 4;
                    for (long long rr = 0; rr < g.nw; rr++)
                        for (long long j = 0; j < g.wgn / 8; j++)
                            for (int e = 0; e < 2; e++) {
                                const long long n = 8 * j + 2 * t + e;
                                const long long re = flat ? n / g.iw : rr, xe = flat ? n % g.iw : n;
                                if (xe >= g.tow || re >= g.rpw)
                                    continue;
                                for (int h = 0; h < 2; h++) {
                                    const long long row = 16 * w + gg + 8 * h, co = B.co0 + wgm * 64 + row;
                                    const long long at = ((rw0 + re) * g.tow + xe) * op + wgm * 64 + row;
                                    CHECK_MSG(at < B.nsm, "staged output %lld past shared memory", at);
                                    const double bias =
                                        R->bias && co < L->cout_g ? bf(R->bias[B.grp * L->cout_g + co]) : 0.0;
                                    so[at] = acc[(wg * g.nw + rr) * 64 * g.wgn + row * g.wgn + n] + bias;
                                    staged[at]++;
                                }
                            }
                }
            }
            const long long per = g.bm / ovec;
            for (long long i = 0; i < g.toh * g.tow * per; i++) {
                const long long n = i / per, cc = i % per * ovec;
                const long long oy = B.oy0 + n / g.tow, ox = B.ox0 + n % g.tow;
                if (oy >= s->oh || ox >= s->ow || B.co0 + cc >= L->cout_g)
                    continue;
                for (long long v = 0; v < ovec; v++) {
                    const long long at = n * op + cc + v;
                    CHECK_MSG(staged[at] == 1, "staged output %lld written %d times", at, staged[at]);
                    const long long o = ((B.b * s->oh + oy) * s->ow + ox) * cout_all + B.grp * L->cout_g + B.co0 +
                                        cc + v;
                    R->out[o] = so[at];
                    R->writes[o]++;
                }
            }
        }
    free(B.sm);
    free(acc);
    free(so);
    free(staged);
    free(holds);
}

int main(void)
{
    ct_config cfg;
    ct_limits lim;
    if (!replay_setup(&cfg, &lim))
        return 1;
    /* Groups with channels padded in the last chunk and odd output
     * channels (one-element stores), stride down (a wgmma chain per row),
     * a 5x2 filter, an output channel tile past Cout, a 1x1 layer, bias,
     * rows of 3 pixels (a row and its halo under a wgmma's 8 columns). */
    static const char *const shapes[] = {
        "conv2dc:1:48:9:11:42:3:3:same:dilation=2:groups=2:bias:nhwc:f16",
        "conv2dc:2:24:9:12:40:3:3:pad=1:stride=2,1:bias:nhwc:bf16",
        "conv2dc:1:16:15:17:22:5:2:pad=2,1:nhwc:bf16",
        "conv2dc:1:40:10:20:96:3:3:same:bias:nhwc:f16",
        "conv2dc:1:64:6:8:72:1:1:valid:nhwc:bf16",
        "conv2dc:1:32:13:9:16:3:3:pad=2:stride=3,1:dilation=2,1:nhwc:bf16",
        "conv2dc:2:32:16:3:40:3:3:same:bias:nhwc:bf16",
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        replay_spec(shapes[i], "conv2dc_tc16gkcl", 10, &cfg, &lim, &rng, replay_one);
    CHECK_MSG(seen_rows > 0 && seen_padded > 0 && seen_wgm2 > 0 && seen_wgn > 0 && seen_narrow_out > 0,
              "replayed a wgmma per row: %lld, a padded last chunk: %lld, WG_M 2: %lld, WG_N > 1: %lld, stores "
              "under 8 channels: %lld", seen_rows, seen_padded, seen_wgm2, seen_wgn, seen_narrow_out);
    CHECK_DONE();
}
