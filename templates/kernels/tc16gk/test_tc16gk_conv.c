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
 * wgmma per row), padded-chunk, 1x1 and 5x2 layers.
 *
 * tf32 problems run ct_conv_tf32gk.cuh (4-byte elements, wgmma k8): the same
 * replay on fp32 inputs with its layouts, and every operand a wgmma step
 * reads must be a TF32 value (its 13 low bits clear: the transpose and the
 * in-place rounding of the input pieces covered it), the results within
 * tf32's tolerance of the fp64 reference of the unrounded inputs. */
#include "tc16_replay.h"
#include "tc16gk_conv.h"
#include "dtype.h"

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

/* ---- tf32: ct_conv_tf32gk.cuh ---- */

static const uint32_t NAN32 = 0x7fc00001u;   /* unwritten shared memory: not a TF32 value either */

static uint32_t bits32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float flt32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t rna32(uint32_t u)   /* cvt.rna.tf32.f32 */
{
    return bits32(ct_tf32_round(flt32(u)));
}

typedef struct blk32 {
    const layer *L;
    const ct_tc16gk_geom *g;
    const float *in, *w;
    long long b, grp, co0, iy0, ix0;
    uint32_t *sm; /* shared memory, 32-bit words */
    long long nsm;
} blk32;

/* tg_copy (in_pieces 1: only the input pieces, for tg_round_input's walk
 * over them, round 1). */
static void copy32(const blk32 *B, long long st, long long ci0, int round)
{
    const ct_tc16gk_geom *g = B->g;
    const layer *L = B->L;
    const ct_tc_shape *s = &L->s;
    const long long per = g->ck / 4, cin_all = L->cin_g * L->groups;
    for (long long i = 0; i < g->ih * g->iw * per; i++) {
        const long long p = i / per, c = i % per * 4;
        const long long iy = B->iy0 + p / g->iw, ix = B->ix0 + p % g->iw;
        const int ok = iy >= 0 && iy < s->h && ix >= 0 && ix < s->w && (L->cin_g % g->ck == 0 || ci0 + c < L->cin_g);
        const long long dst = st + g->sr + c / 4 * g->ppx * 16 + p * 16;
        const long long src = ((B->b * s->h + iy) * s->w + ix) * cin_all + B->grp * L->cin_g + ci0 + c;
        CHECK_MSG(dst % 16 == 0 && dst + 16 <= st + g->st, "input piece at byte %lld of stage %lld", dst, st);
        CHECK_MSG(!ok || (src % 4 == 0 && src + 4 <= s->b * s->h * s->w * cin_all), "input piece from %lld", src);
        for (int v = 0; v < 4; v++)
            B->sm[dst / 4 + v] = round ? rna32(B->sm[dst / 4 + v]) : ok ? bits32(B->in[src + v]) : 0;
    }
    if (round)
        return;
    const long long wper = g->ck * g->khw / 4, rk = L->cin_g * g->khw;
    for (long long i = 0; i < g->bm * wper; i++) {
        const long long m = i / wper, e = i % wper * 4;
        const int ok = B->co0 + m < L->cout_g && (L->cin_g % g->ck == 0 || ci0 * g->khw + e < rk);
        const long long dst = st + (m * g->rkp + e) * 4;
        const long long src = (B->grp * L->cout_g + B->co0 + m) * rk + ci0 * g->khw + e;
        CHECK_MSG(dst % 16 == 0 && dst + 16 <= st + g->sr, "raw weight piece at byte %lld of stage %lld", dst, st);
        CHECK_MSG(!ok || (src % 4 == 0 && src + 4 <= L->groups * L->cout_g * rk), "raw weight piece from %lld", src);
        for (int v = 0; v < 4; v++)
            B->sm[dst / 4 + v] = ok ? bits32(B->w[src + v]) : 0;
    }
}

/* tg_transpose: [tap][c / 4][row][4], rounded. */
static void transpose32(const blk32 *B, long long a, long long st)
{
    const ct_tc16gk_geom *g = B->g;
    const long long c4 = g->ck / 4, khw = g->khw;
    for (long long i = 0; i < g->bm * c4; i++) {
        const long long m = i % g->bm, o = i / g->bm;
        const long long src = st + (m * g->rkp + o * 4 * khw) * 4;
        CHECK_MSG(src % 16 == 0 && src + 16 * khw <= st + g->sr, "transpose read at byte %lld", src);
        for (long long tap = 0; tap < khw; tap++) {
            const long long dst = a + ((tap * c4 + o) * g->bm + m) * 16;
            CHECK_MSG(dst % 16 == 0 && dst + 16 <= a + g->sa, "transpose write at byte %lld", dst);
            for (long long j = 0; j < 4; j++)
                B->sm[dst / 4 + j] = rna32(B->sm[src / 4 + j * khw + tap]);
        }
    }
}

/* One m64nNk8 TF32 step: element (row, k) of a K-major operand without
 * swizzling at byte start + (k / 4) lbo + (row / 8) sbo + (row % 8) 16 +
 * (k % 4) 4, inside [lo, hi), and a TF32 value where its column is stored
 * (a FLAT chain's columns past a row's TILE_OW are its halo and a run may
 * end past the tile: never stored, their operands not a concern). */
static void wgmma32(const blk32 *B, double *d, long long n, long long a, long long a_lo, long long a_hi, long long b,
                    long long b_lo, long long b_hi, long long *unrounded)
{
    const ct_tc16gk_geom *g = B->g;
    double A[64][8];
    for (int m = 0; m < 64; m++)
        for (int k = 0; k < 8; k++) {
            const long long at = a + k / 4 * g->bm * 16 + m / 8 * 128 + m % 8 * 16 + k % 4 * 4;
            CHECK_MSG(at >= a_lo && at + 4 <= a_hi, "A element at byte %lld outside [%lld, %lld)", at, a_lo, a_hi);
            *unrounded += (B->sm[at / 4] & 0x1fffu) != 0;
            A[m][k] = flt32(B->sm[at / 4]);
        }
    for (long long c = 0; c < n; c++) {
        double col[8];
        const int flat = B->L->s.sy == 1;
        const int stored = flat ? c % g->iw < g->tow && c / g->iw < g->rpw : c < g->tow;
        for (int k = 0; k < 8; k++) {
            const long long at = b + k / 4 * g->ppx * 16 + c / 8 * 128 + c % 8 * 16 + k % 4 * 4;
            CHECK_MSG(at >= b_lo && at + 4 <= b_hi, "B element at byte %lld outside [%lld, %lld)", at, b_lo, b_hi);
            *unrounded += stored && (B->sm[at / 4] & 0x1fffu) != 0;
            col[k] = flt32(B->sm[at / 4]);
        }
        for (int m = 0; m < 64; m++) {
            double sum = 0;
            for (int k = 0; k < 8; k++)
                sum += A[m][k] * col[k];
            d[m * n + c] += sum;
        }
    }
}

static long long seen32_rows, seen32_padded, seen32_narrow, seen32_ck8;

/* One candidate of a tf32 problem, block by block as the kernel runs. */
static void replay32(const layer *L, const float *in, const float *w, const float *bias, const ct_params *c,
                     double *out, int *writes)
{
    ct_tc16gk_geom g;
    const ct_tc_shape *s = &L->s;
    ct_tc16gk_geometry_of(s, c, &g);
    CHECK(g.elem == 4 && g.kstep == 8);
    const long long ty = (s->oh + g.toh - 1) / g.toh, tx = (s->ow + g.tow - 1) / g.tow;
    const long long nct = (L->cout_g + g.bm - 1) / g.bm, look = g.stages - 2, flat = s->sy == 1;
    const long long nwg = g.wg_m * g.wg_n, op = g.bm + 4, cout_all = L->cout_g * L->groups;
    const long long ovec = L->cout_g % 4 == 0 ? 4 : L->cout_g % 2 == 0 ? 2 : 1;
    seen32_rows += !flat;
    seen32_padded += L->cin_g % g.ck != 0;
    seen32_narrow += ovec < 4;
    seen32_ck8 += g.ck == 8;
    blk32 B = {.L = L, .g = &g, .in = in, .w = w, .nsm = g.smem_bytes / 4};
    B.sm = malloc((size_t)B.nsm * sizeof *B.sm);
    double *acc = malloc((size_t)(nwg * g.nw * 64 * g.wgn) * sizeof *acc);
    double *so = malloc((size_t)B.nsm * sizeof *so);
    int *staged = malloc((size_t)B.nsm * sizeof *staged);
    long long unrounded = 0;
    for (long long by = 0; by < g.grid_y; by++)
        for (long long bx = 0; bx < g.grid_x; bx++) {
            const long long tile = bx % (ty * tx);
            B.b = bx / (ty * tx), B.grp = by / nct, B.co0 = by % nct * g.bm;
            const long long oy0 = tile / tx * g.toh, ox0 = tile % tx * g.tow;
            B.iy0 = oy0 * s->sy - s->ph, B.ix0 = ox0 - s->pw;
            for (long long i = 0; i < B.nsm; i++)
                B.sm[i] = NAN32;
            memset(acc, 0, (size_t)(nwg * g.nw * 64 * g.wgn) * sizeof *acc);
            const long long stg = 2 * g.sa;
            for (long long k = 0; k < look && k < g.nch; k++)
                copy32(&B, stg + k * g.st, k * g.ck, 0);
            for (long long ch = 0; ch < g.nch; ch++) {
                const long long st = ch % g.stages;
                if (ch + look < g.nch)
                    copy32(&B, stg + (ch + look) % g.stages * g.st, (ch + look) * g.ck, 0);
                const long long a = ch % 2 * g.sa;
                transpose32(&B, a, stg + st * g.st);
                copy32(&B, stg + st * g.st, ch * g.ck, 1);   /* tg_round_input */
                const long long sb0 = stg + st * g.st + g.sr;
                for (long long wg = 0; wg < nwg; wg++) {
                    const long long wgm = wg % g.wg_m, wgn = wg / g.wg_m;
                    for (long long sp = 0; sp < g.khw * g.ck / 8; sp++) {
                        const long long tap = sp / (g.ck / 8), q = sp % (g.ck / 8);
                        const long long oa = (tap * (g.ck / 4) + 2 * q) * g.bm;
                        for (long long rr = 0; rr < g.nw; rr++) {
                            const long long p0 = (rr * s->sy + tap / s->kw * s->dy) * g.iw + tap % s->kw * s->dx;
                            const long long da = a + wgm * 64 * 16 + oa * 16;
                            const long long db = sb0 + wgn * g.rpw * s->sy * g.iw * 16 + 2 * q * g.ppx * 16 + p0 * 16;
                            wgmma32(&B, acc + (wg * g.nw + rr) * 64 * g.wgn, g.wgn, da, a, a + g.sa, db, sb0,
                                    sb0 + g.sb, &unrounded);
                        }
                    }
                }
            }
            for (long long i = 0; i < B.nsm; i++)
                staged[i] = 0;
            for (long long wg = 0; wg < nwg; wg++) {
                const long long wgm = wg % g.wg_m, wgn = wg / g.wg_m, rw0 = wgn * g.rpw;
                for (int th = 0; th < 128; th++) {
                    const int wq = th / 32, gg = th % 32 / 4, t = th % 4;
                    for (long long rr = 0; rr < g.nw; rr++)
                        for (long long j = 0; j < g.wgn / 8; j++)
                            for (int e = 0; e < 2; e++) {
                                const long long n = 8 * j + 2 * t + e;
                                const long long re = flat ? n / g.iw : rr, xe = flat ? n % g.iw : n;
                                if (xe >= g.tow || re >= g.rpw)
                                    continue;
                                for (int h = 0; h < 2; h++) {
                                    const long long row = 16 * wq + gg + 8 * h, co = B.co0 + wgm * 64 + row;
                                    const long long at = ((rw0 + re) * g.tow + xe) * op + wgm * 64 + row;
                                    CHECK_MSG(at < B.nsm, "staged output %lld past shared memory", at);
                                    const double bv = bias && co < L->cout_g ? bias[B.grp * L->cout_g + co] : 0.0;
                                    so[at] = acc[(wg * g.nw + rr) * 64 * g.wgn + row * g.wgn + n] + bv;
                                    staged[at]++;
                                }
                            }
                }
            }
            const long long per = g.bm / ovec;
            for (long long i = 0; i < g.toh * g.tow * per; i++) {
                const long long n = i / per, cc = i % per * ovec;
                const long long oy = oy0 + n / g.tow, ox = ox0 + n % g.tow;
                if (oy >= s->oh || ox >= s->ow || B.co0 + cc >= L->cout_g)
                    continue;
                CHECK_MSG((n * op + cc) % ovec == 0, "a staged output vector off its alignment");
                for (long long v = 0; v < ovec; v++) {
                    const long long at = n * op + cc + v;
                    CHECK_MSG(staged[at] == 1, "staged output %lld written %d times", at, staged[at]);
                    const long long o = ((B.b * s->oh + oy) * s->ow + ox) * cout_all + B.grp * L->cout_g + B.co0 +
                                        cc + v;
                    out[o] = so[at];
                    writes[o]++;
                }
            }
        }
    CHECK_MSG(unrounded == 0, "%lld operands read by wgmma steps were not TF32 values (or unwritten)", unrounded);
    free(B.sm);
    free(acc);
    free(so);
    free(staged);
}

/* Up to `samples` candidates of spec (a tf32 problem) replayed on the same
 * random fp32 inputs: every output written once, within 2^-10 of the fp64
 * reference and showing TF32's rounding. */
static void replay_tf32(const char *spec, int samples, const ct_config *cfg, const ct_limits *lim)
{
    ct_problem p;
    ct_err e = {0};
    CHECK_MSG(ct_problem_parse(spec, &p, &e) == CT_OK, "%s: %s", spec, e.msg);
    const ct_template *t = ct_template_find(p.family, "conv2dc_tc16gkcl");
    ct_params cand[12];
    const int ncand = t ? sample_candidates(&p, t, cfg, lim, samples < 12 ? samples : 12, cand, &rng) : 0;
    CHECK_MSG(ncand > 0, "%s: conv2dc_tc16gkcl admits no candidate", spec);
    layer L = layer_of(&p);
    L.s.p = &p;   /* the element type: the tf32 sizes */
    ct_buffer bufs[CT_MAX_BUFS];
    const int nb = p.family->buffers(&p, bufs);
    float *host[CT_MAX_BUFS] = {0};
    for (int i = 0; i < nb - 1; i++) {
        host[i] = malloc(bufs[i].count * sizeof(float));
        for (size_t k = 0; k < bufs[i].count; k++)
            host[i][k] = tl_uniform(&rng);
    }
    const size_t count = bufs[nb - 1].count;
    double *ref = malloc(count * sizeof *ref), *got = malloc(count * sizeof *got);
    int *writes = malloc(count * sizeof *writes);
    p.family->reference(&p, (const float *const *)host, ref);
    double worst = 0, best = INFINITY;
    const double tol = ct_dtype_tolerance(CT_DTYPE_TF32, 1e-5);
    for (int i = 0; i < ncand; i++) {
        for (size_t k = 0; k < count; k++) {
            got[k] = NAN;
            writes[k] = 0;
        }
        replay32(&L, host[0], host[1], L.s.bias ? host[2] : NULL, &cand[i], got, writes);
        double num = 0, den = 0;
        int once = 1;
        for (size_t k = 0; k < count; k++) {
            num += (got[k] - ref[k]) * (got[k] - ref[k]);
            den += ref[k] * ref[k];
            once &= writes[k] == 1;
        }
        char key[512];
        ct_params_to_key(&cand[i], key, sizeof key);
        CHECK_MSG(once, "%s %s: an output not written exactly once", spec, key);
        const double err = isnan(num) ? INFINITY : sqrt(num / den);
        CHECK_MSG(err <= tol, "%s %s: replay error %.3g over tf32's %.3g", spec, key, err, tol);
        worst = err > worst || isnan(err) ? err : worst;
        best = err < best ? err : best;
    }
    CHECK_MSG(best > 1e-6, "%s: replay error %.3g shows no TF32 rounding", spec, best);
    printf("replay %-52s tf32 %2d candidates, worst relative error %.2g\n", spec, ncand, worst);
    for (int i = 0; i < nb - 1; i++)
        free(host[i]);
    free(ref);
    free(got);
    free(writes);
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
    /* tf32 (ct_conv_tf32gk.cuh): channels a multiple of 4 but not 8,
     * padded last chunks, groups, dilation, stride down, odd and even
     * output channels (stores of 1, 2 and 4), a 5x2 filter, bias. */
    static const char *const tf32_shapes[] = {
        "conv2dc:1:40:9:11:42:3:3:same:dilation=2:groups=2:bias:nhwc:tf32",
        "conv2dc:2:20:9:12:40:3:3:pad=1:stride=2,1:bias:nhwc:tf32",
        "conv2dc:1:12:15:17:21:5:2:pad=2,1:nhwc:tf32",
        "conv2dc:1:36:10:20:96:3:3:same:bias:nhwc:tf32",
        "conv2dc:1:64:6:8:70:1:1:valid:nhwc:tf32",
    };
    for (size_t i = 0; i < sizeof tf32_shapes / sizeof tf32_shapes[0]; i++)
        replay_tf32(tf32_shapes[i], 6, &cfg, &lim);
    CHECK_MSG(seen32_rows > 0 && seen32_padded > 0 && seen32_narrow > 0 && seen32_ck8 > 0,
              "tf32 replayed a wgmma per row: %lld, a padded last chunk: %lld, stores under 4 channels: %lld, "
              "chunks of 8: %lld", seen32_rows, seen32_padded, seen32_narrow, seen32_ck8);
    CHECK_DONE();
}
