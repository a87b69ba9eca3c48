/* test_tc16_conv.c - the half-precision tensor-core templates without a GPU:
 * a replay of each kernel of this folder (ct_conv_tc16.cuh, its
 * channels-last form ct_conv_tc16cl.cuh, and ct_conv_tc16w.cuh) thread by
 * thread and lane by lane, with the hardware's operand layouts modelled as
 * the PTX ISA defines them (tc16_replay.h has the mma's):
 *
 *   ldmatrix .x4/.x2: lane l gives the address of row l % 8 of matrix l / 8;
 *     lane 4g + t receives elements 2t, 2t+1 of row g of each matrix.
 *
 * Shared memory starts as NaN patterns, so reading anything the copies did
 * not write fails; every shared address is checked against the stage and
 * ldmatrix's 16-byte alignment, and every output written exactly once. The
 * inputs are bf16 values and the products are summed in fp64, so only the
 * indexing (tiles, halo, the channel-innermost transposition, the
 * channels-last copies' pieces and their alignment, the raw weights'
 * transposition in shared memory, the staged channels-last outputs, the K
 * permutation of the streamed weights, the split reduction, the epilogue)
 * can make the result differ from the family's fp64 reference. Seeded
 * samples of each space on odd, grouped, strided, dilated and padded
 * layers. */
#include "tc16_conv.h"
#include "tc16_replay.h"

static unsigned long long rng = 0x2545f4914f6cdd1dULL;

/* ---- the hardware ---- */

typedef struct smem {
    const uint16_t *base;
    long long size;
} smem;

/* ldmatrix: addr[l] for the lanes that give one; out[lane][m] = the 32-bit
 * register of matrix m as two floats. */
static void ldmatrix(const smem *sm, const long long *addr, int nmat, float out[32][4][2])
{
    for (int l = 0; l < 8 * nmat; l++) {
        CHECK_MSG(addr[l] >= 0 && addr[l] + 8 <= sm->size && addr[l] % 8 == 0, "ldmatrix row %lld of %lld",
                  addr[l], sm->size);
        if (addr[l] < 0 || addr[l] + 8 > sm->size)
            return;
    }
    for (int lane = 0; lane < 32; lane++)
        for (int m = 0; m < nmat; m++)
            for (int e = 0; e < 2; e++)
                out[lane][m][e] = bf(sm->base[addr[8 * m + lane / 4] + 2 * (lane % 4) + e]);
}

/* ---- the tiled kernel (ct_conv_tc16.cuh) ---- */

typedef struct run {
    const layer *L;
    const ct_tc16_geom *g;
    const uint16_t *in, *w, *bias;
    double *out;
    int *writes;
} run;

static void raw_weights(const run *R, uint16_t *st, long long grp, long long co0, long long ch);
static long long pair_stages[2];   /* replayed pair-path stages by first-column offset */

/* tc16_iload + tc16_istore of chunk ch into stage st, and the weights
 * through registers (tc16_wload + tc16_wstore, PREFETCH 1) or raw
 * (PREFETCH 0). */
static void tiled_stage(const run *R, uint16_t *st, long long b, long long grp, long long co0, long long iy0,
                        long long ix0, long long ch)
{
    const ct_tc16_geom *g = R->g;
    const layer *L = R->L;
    const long long ci0 = ch * g->ck, ws = g->bm * g->khw, is = g->ih * g->iw;
    if (!g->prefetch)
        raw_weights(R, st, grp, co0, ch);
    for (long long tid = 0; tid < g->nt; tid++) {
        for (long long r = 0; r < (g->prefetch ? g->wr : 0); r++) {
            const long long slot = tid + r * g->nt, m = slot / g->khw, tap = slot % g->khw;
            const int ok = slot < ws && co0 + m < L->cout_g;
            for (long long q = 0; q < g->ck; q++) {
                const long long c = ci0 + q;
                const uint16_t v =
                    ok && c < L->cin_g ? R->w[((grp * L->cout_g + co0 + m) * L->cin_g + c) * g->khw + tap] : 0;
                if (slot < ws)
                    st[m * g->ap + tap * g->ck + q] = v;
            }
        }
        pair_stages[g->ioff] += g->ipair && tid == 0;
        for (long long r = 0; r < (g->ipair ? g->irx : 0); r++) {
            /* tc16_iload2 + tc16_istore2: 32-bit loads of a column pair */
            const long long slot = tid + r * g->nt, row = slot / g->npr, x = slot % g->npr * 2 - g->ioff;
            const long long iy = iy0 + row, ix = ix0 + x;
            const int ok = slot < g->ih * g->npr && iy >= 0 && iy < L->s.h && ix >= 0 && ix < L->s.w;
            CHECK_MSG(ix % 2 == 0 && L->s.w % 2 == 0, "pair at column %lld of %lld", ix, L->s.w);
            for (long long q = 0; q < g->ck; q++) {
                const long long c = ci0 + q, at = ((b * L->s.cin + grp * L->cin_g + c) * L->s.h + iy) * L->s.w + ix;
                CHECK(!ok || at % 2 == 0);
                for (int e = 0; e < 2; e++)
                    if (slot < g->ih * g->npr && x + e >= 0 && x + e < g->iw)
                        st[g->sa + (row * g->iw + x + e) * g->cp + q] = ok && c < L->cin_g ? R->in[at + e] : 0;
            }
        }
        for (long long r = 0; r < (g->ipair ? 0 : g->ir); r++) {
            const long long slot = tid + r * g->nt, iy = iy0 + slot / g->iw, ix = ix0 + slot % g->iw;
            const int ok = slot < is && iy >= 0 && iy < L->s.h && ix >= 0 && ix < L->s.w;
            for (long long q = 0; q < g->ck; q++) {
                const long long c = ci0 + q;
                const uint16_t v =
                    ok && c < L->cin_g ? R->in[((b * L->s.cin + grp * L->cin_g + c) * L->s.h + iy) * L->s.w + ix]
                                       : 0;
                if (slot < is)
                    st[g->sa + slot * g->cp + q] = v;
            }
        }
    }
}

/* The copies of chunk ch into stage st as ct_conv_tc16cl.cuh makes them:
 * input pieces of ivec channels of an NHWC pixel, raw weight pieces of
 * wvec elements of a row's [c][tap] run, each checked for the alignment of
 * its width on both sides; then the raw weights transposed in place. */
static long long vec_of(long long n)
{
    return n % 8 == 0 ? 8 : n % 4 == 0 ? 4 : n % 2 == 0 ? 2 : 1;
}

static void cl_stage(const run *R, uint16_t *st, long long b, long long grp, long long co0, long long iy0,
                     long long ix0, long long ch)
{
    const ct_tc16_geom *g = R->g;
    const layer *L = R->L;
    const long long ci0 = ch * g->ck, iv = vec_of(L->cin_g);
    const long long nin = L->s.b * L->s.h * L->s.w * L->s.cin;
    for (long long i = 0; i < g->ih * g->iw * (g->ck / iv); i++) {
        const long long px = i / (g->ck / iv), c = i % (g->ck / iv) * iv;
        const long long iy = iy0 + px / g->iw, ix = ix0 + px % g->iw, d = g->sa + px * g->cp + c;
        const int ok = iy >= 0 && iy < L->s.h && ix >= 0 && ix < L->s.w && ci0 + c < L->cin_g;
        const long long at = ((b * L->s.h + iy) * L->s.w + ix) * L->s.cin + grp * L->cin_g + ci0 + c;
        CHECK_MSG(d % iv == 0 && (!ok || (at % iv == 0 && at + iv <= nin)), "input piece %lld of %lld", at, iv);
        for (long long e = 0; e < iv; e++)
            st[d + e] = ok ? R->in[at + e] : 0;
    }
    raw_weights(R, st, grp, co0, ch);
}

/* tc16_wcopy's pieces into the raw area after the stage, then
 * tc16_wtranspose. */
static void raw_weights(const run *R, uint16_t *st, long long grp, long long co0, long long ch)
{
    const ct_tc16_geom *g = R->g;
    const layer *L = R->L;
    const long long ci0 = ch * g->ck, wv = vec_of(L->cin_g * g->khw), rk = g->ck * g->khw;
    const long long nw = L->s.cout * L->cin_g * g->khw;
    CHECK(g->clstage * 2 <= g->smem_bytes);
    for (long long i = 0; i < g->bm * (rk / wv); i++) {
        const long long m = i / (rk / wv), e0 = i % (rk / wv) * wv, d = g->stage + m * rk + e0;
        const int ok = co0 + m < L->cout_g && ci0 * g->khw + e0 < L->cin_g * g->khw;
        const long long at = ((grp * L->cout_g + co0 + m) * L->cin_g + ci0) * g->khw + e0;
        CHECK_MSG(d % wv == 0 && (!ok || (at % wv == 0 && at + wv <= nw)), "weight piece %lld of %lld", at, wv);
        for (long long e = 0; e < wv; e++)
            st[d + e] = ok ? R->w[at + e] : 0;
    }
    for (long long slot = 0; slot < g->bm * g->khw; slot++)
        for (long long q = 0; q < g->ck; q++)
            st[slot / g->khw * g->ap + slot % g->khw * g->ck + q] =
                st[g->stage + slot / g->khw * rk + q * g->khw + slot % g->khw];
}

/* The mma steps of one staged chunk, every warp. */
static void tiled_chunk(const run *R, const smem *st, double (*acc)[32][4])
{
    const ct_tc16_geom *g = R->g;
    const layer *L = R->L;
    const long long npix = g->toh * g->tow;
    for (long long warp = 0; warp < g->nt / 32; warp++) {
        const long long wm = warp % g->warps_m, wn = warp / g->warps_m;
        for (long long s = 0; s < g->khw * g->ck / 16; s++) {
            const long long tap = s / (g->ck / 16), ks = s % (g->ck / 16), k = tap * g->ck + ks * 16;
            const long long koff = (tap / L->s.kw * L->s.dy * g->iw + tap % L->s.kw * L->s.dx) * g->cp + ks * 16;
            static float a[8][32][4][2], bb[128][32][2][2];
            for (long long i = 0; i < g->mf; i++) {
                long long addr[32];
                for (int l = 0; l < 32; l++)
                    addr[l] = (wm * g->wm + l % 16) * g->ap + l / 16 * 8 + i * 16 * g->ap + k;
                ldmatrix(st, addr, 4, a[i]);
            }
            for (long long jj = 0; jj < (g->nf + 1) / 2; jj++) {
                long long addr[32];
                for (int l = 0; l < 32; l++) {
                    const long long n = wn * g->wn + jj * 16 + l % 8 + l / 16 * 8;
                    addr[l] = g->sa + (n < npix ? (n / g->tow * L->s.sy * g->iw + n % g->tow * L->s.sx) * g->cp : 0) +
                              l / 8 % 2 * 8 + koff;
                }
                float r[32][4][2];
                const int pair = 2 * jj + 1 < g->nf;
                ldmatrix(st, addr, pair ? 4 : 2, r);
                for (int l = 0; l < 32; l++)
                    for (int e = 0; e < 2; e++) {
                        bb[2 * jj][l][0][e] = r[l][0][e];
                        bb[2 * jj][l][1][e] = r[l][1][e];
                        if (pair) {
                            bb[2 * jj + 1][l][0][e] = r[l][2][e];
                            bb[2 * jj + 1][l][1][e] = r[l][3][e];
                        }
                    }
            }
            for (long long i = 0; i < g->mf; i++)
                for (long long j = 0; j < g->nf; j++)
                    mma(acc[(warp * g->mf + i) * g->nf + j], a[i], bb[j]);
        }
    }
}

/* Channels-last epilogue: the sums staged as [pixel][channel] (pitch op,
 * NaN first), then each pixel's channels written ovec at a time. */
static void cl_epilogue(const run *R, double (*acc)[32][4], long long b, long long grp, long long co0,
                        long long oy0, long long ox0)
{
    const ct_tc16_geom *g = R->g;
    const layer *L = R->L;
    const long long ov = vec_of(L->cout_g), npix = g->toh * g->tow;
    double *stg = malloc((size_t)(g->bn * g->op) * sizeof *stg);
    for (long long i = 0; i < g->bn * g->op; i++)
        stg[i] = NAN;
    CHECK(g->bn * g->op * 2 <= g->smem_bytes);
    for (long long warp = 0; warp < g->nt / 32; warp++) {
        const long long wm = warp % g->warps_m, wn = warp / g->warps_m;
        for (int lane = 0; lane < 32; lane++)
            for (long long i = 0; i < g->mf; i++)
                for (int r2 = 0; r2 < 2; r2++) {
                    const long long cl = wm * g->wm + i * 16 + lane / 4 + 8 * r2;
                    const double bv = L->s.bias && co0 + cl < L->cout_g ? bf(R->bias[grp * L->cout_g + co0 + cl]) : 0;
                    for (long long j = 0; j < g->nf; j++)
                        for (int r1 = 0; r1 < 2; r1++)
                            stg[(wn * g->wn + j * 8 + 2 * (lane % 4) + r1) * g->op + cl] =
                                acc[(warp * g->mf + i) * g->nf + j][lane][2 * r2 + r1] + bv;
                }
    }
    for (long long i = 0; i < npix * (g->bm / ov); i++) {
        const long long n = i / (g->bm / ov), c = i % (g->bm / ov) * ov;
        const long long oy = oy0 + n / g->tow, ox = ox0 + n % g->tow;
        if (oy >= L->s.oh || ox >= L->s.ow || co0 + c >= L->cout_g)
            continue;
        const long long o = ((b * L->s.oh + oy) * L->s.ow + ox) * L->s.cout + grp * L->cout_g + co0 + c;
        CHECK_MSG(o % ov == 0 && (n * g->op + c) % ov == 0, "output piece %lld of %lld", o, ov);
        for (long long e = 0; e < ov; e++) {
            R->out[o + e] = stg[n * g->op + c + e];
            R->writes[o + e]++;
        }
    }
    free(stg);
}

static void tiled_block(const run *R, uint16_t *sm, double (*acc)[32][4], long long bx, long long by)
{
    const ct_tc16_geom *g = R->g;
    const layer *L = R->L;
    const long long nct = (L->cout_g + g->bm - 1) / g->bm;
    const long long tile = bx % (g->ty * g->tx), b = bx / (g->ty * g->tx);
    const long long oy0 = tile / g->tx * g->toh, ox0 = tile % g->tx * g->tow;
    const long long grp = by / nct, co0 = by % nct * g->bm;
    const long long iy0 = oy0 * L->s.sy - L->s.ph, ix0 = ox0 * L->s.sx - L->s.pw, npix = g->toh * g->tow;
    const long long nwarps = g->nt / 32, stage = g->cl ? g->clstage : g->stage;
    for (long long i = 0; i < g->smem_bytes / 2; i++)
        sm[i] = NAN16;
    memset(acc, 0, (size_t)nwarps * g->mf * g->nf * sizeof *acc);
    for (long long ch = 0; ch < g->nch; ch++) {
        uint16_t *at = sm + ch % g->nbuf * stage;
        (g->cl ? cl_stage : tiled_stage)(R, at, b, grp, co0, iy0, ix0, ch);
        const smem st = {at, g->stage};
        tiled_chunk(R, &st, acc);
    }
    if (g->cl) {
        cl_epilogue(R, acc, b, grp, co0, oy0, ox0);
        return;
    }
    for (long long warp = 0; warp < nwarps; warp++) {
        const long long wm = warp % g->warps_m, wn = warp / g->warps_m;
        for (int lane = 0; lane < 32; lane++)
            for (long long i = 0; i < g->mf; i++)
                for (int r2 = 0; r2 < 2; r2++) {
                    const long long co = co0 + wm * g->wm + i * 16 + lane / 4 + 8 * r2;
                    if (co >= L->cout_g)
                        continue;
                    const double bv = L->s.bias ? bf(R->bias[grp * L->cout_g + co]) : 0.0;
                    for (long long j = 0; j < g->nf; j++)
                        for (int r1 = 0; r1 < 2; r1++) {
                            const long long n = wn * g->wn + j * 8 + 2 * (lane % 4) + r1;
                            const long long oy = oy0 + n / g->tow, ox = ox0 + n % g->tow;
                            if (n < npix && oy < L->s.oh && ox < L->s.ow) {
                                const long long o = ((b * L->s.cout + grp * L->cout_g + co) * L->s.oh + oy) * L->s.ow + ox;
                                R->out[o] = acc[(warp * g->mf + i) * g->nf + j][lane][2 * r2 + r1] + bv;
                                R->writes[o]++;
                            }
                        }
                }
    }
}

/* ---- the streaming kernel (ct_conv_tc16w.cuh) ---- */

/* One block z of the cluster (CLUSTER_K 1: the only one): its K groups'
 * im2col and mma steps, and its warps' partial sums into red. */
static void stream_part(const run *R, uint16_t *sm, double (*acc)[32][4], long long bx, long long by, long long z,
                        double *red)
{
    const ct_tc16_geom *g = R->g;
    const layer *L = R->L;
    const long long nct = (L->cout_g + g->bm - 1) / g->bm, n0 = bx * g->tile_n;
    const long long grp = by / nct, co0 = by % nct * g->bm, khw = g->khw, kall = g->kall;
    const long long kr = g->nkgb * 32, nwarps = g->nt / 32;
    const long long kb = z * g->nkgb, ke = kb + g->nkgb < g->nkg ? kb + g->nkgb : g->nkg;
    for (long long i = 0; i < g->smem_bytes / 2; i++)
        sm[i] = NAN16;
    /* STAGE_X: the planes of channels [c_lo, c_hi) of each image slot,
     * chunk by chunk as the kernel copies them: a 16-byte load only of a
     * chunk wholly inside the row (and so inside the input), elements
     * alone otherwise, zeros outside the row. */
    const long long hw = L->s.h * L->s.w, ohw = L->s.oh * L->s.ow, b_first = n0 / ohw, xs = g->tile_n * g->kp;
    const long long c_lo = kb * 32 / khw;
    const long long c_hi_k = ((ke * 32 < kall ? ke * 32 : kall) + khw - 1) / khw;
    const long long c_hi = c_hi_k < L->cin_g ? c_hi_k : L->cin_g, xcount = (c_hi - c_lo) * hw;
    const long long nin = L->s.b * L->s.cin * hw;
    for (long long idx = 0; g->stage_x && idx < g->ximg * (g->xp / 8); idx++) {
        const long long i = idx / (g->xp / 8), q = idx % (g->xp / 8), b = b_first + i;
        const long long s0 = (b * L->s.cin + grp * L->cin_g + c_lo) * hw, a0 = s0 & ~7LL;
        const long long lo = s0 - (a0 + 8 * q), hi = lo + xcount;
        const long long at = xs + i * g->xp + 8 * q;
        CHECK(at % 8 == 0 && at + 8 <= g->smem_bytes / 2);
        for (int e = 0; e < 8; e++) {
            const int in_row = b < L->s.b && e >= lo && e < hi;
            if (in_row)
                CHECK(a0 + 8 * q + e >= 0 && a0 + 8 * q + e < nin);
            sm[at + e] = in_row ? R->in[a0 + 8 * q + e] : 0;
        }
        if (b < L->s.b && lo <= 0 && hi >= 8)
            CHECK((a0 + 8 * q) % 8 == 0 && a0 + 8 * q + 8 <= nin);
    }
    /* im2col of the block's groups, 8 values a thread as the kernel's loop
     * deals them out. */
    for (long long idx = 0; idx < g->tile_n * (kr / 8); idx++) {
        const long long n = idx / (kr / 8), kk0 = idx % (kr / 8) * 8, pix = n0 + n;
        if (pix >= g->ntot)
            continue;
        const long long b = pix / (L->s.oh * L->s.ow), oy = pix / L->s.ow % L->s.oh, ox = pix % L->s.ow;
        for (int e = 0; e < 8; e++) {
            const long long kk = kb * 32 + kk0 + e, c = kk / khw, tap = kk % khw;
            const long long iy = oy * L->s.sy - L->s.ph + tap / L->s.kw * L->s.dy;
            const long long ix = ox * L->s.sx - L->s.pw + tap % L->s.kw * L->s.dx;
            const int ok = kk < kall && iy >= 0 && iy < L->s.h && ix >= 0 && ix < L->s.w;
            CHECK(n * g->kp + kk0 + e < g->smem_bytes / 2);
            uint16_t v = 0;
            if (ok && g->stage_x) {
                /* the staged row of image b, from its shift, channel c_lo */
                const long long slot = b - b_first, shift = ((b * L->s.cin + grp * L->cin_g + c_lo) * hw) & 7;
                const long long off = shift + ((c - c_lo) * L->s.h + iy) * L->s.w + ix;
                CHECK_MSG(slot >= 0 && slot < g->ximg && c >= c_lo && c < c_hi && off < shift + xcount,
                          "staged read outside the row: image slot %lld, channel %lld of [%lld, %lld)", slot, c,
                          c_lo, c_hi);
                v = sm[xs + slot * g->xp + off];
            } else if (ok) {
                v = R->in[((b * L->s.cin + grp * L->cin_g + c) * L->s.h + iy) * L->s.w + ix];
            }
            sm[n * g->kp + kk0 + e] = v;
        }
    }
    memset(acc, 0, (size_t)nwarps * g->nf * sizeof *acc);
    for (long long warp = 0; warp < nwarps; warp++) {
        const long long wm = warp % g->warps_m, wk = warp / g->warps_m;
        for (long long kg = kb + wk; kg < ke; kg += g->warps_k) {
            /* Lane (g, t): weights K 8t..8t+7 of rows g and g+8, then two
             * mma steps over K 8t..8t+3 and 8t+4..8t+7. */
            static float a[2][32][4][2], b[2][32][2][2];
            for (int lane = 0; lane < 32; lane++) {
                const long long gg = lane / 4, t = lane % 4;
                for (int row = 0; row < 2; row++) {
                    const long long co = co0 + wm * 16 + gg + 8 * row;
                    for (int e = 0; e < 8; e++) {
                        const long long kk = kg * 32 + 8 * t + e;
                        const int ok = co < L->cout_g && kg * 32 + 8 * t < kall;
                        const float v = ok ? bf(R->w[(grp * L->cout_g + co) * kall + kk]) : 0.0f;
                        /* e = 0..3: step 0 regs (row, e/2): {a0a1 | a2a3} then {a4a5 | a6a7} */
                        a[e / 4][lane][row + 2 * (e % 4 / 2)][e % 2] = v;
                    }
                }
            }
            for (long long j = 0; j < g->nf; j++) {
                for (int lane = 0; lane < 32; lane++) {
                    const long long at = (lane / 4 + 8 * j) * g->kp + 8 * (lane % 4) + (kg - kb) * 32;
                    CHECK(at + 8 <= g->smem_bytes / 2 && at % 8 == 0);
                    for (int e = 0; e < 8; e++)
                        b[e / 4][lane][e % 4 / 2][e % 2] = bf(sm[at + e]);
                }
                mma(acc[warp * g->nf + j], a[0], b[0]);
                mma(acc[warp * g->nf + j], a[1], b[1]);
            }
        }
    }
    /* Partial sums through shared memory. */
    for (long long warp = 0; warp < nwarps; warp++) {
        const long long wm = warp % g->warps_m, wk = warp / g->warps_m;
        for (int lane = 0; lane < 32; lane++)
            for (long long j = 0; j < g->nf; j++)
                for (int r = 0; r < 4; r++)
                    red[((wk * g->warps_m + wm) * 16 + lane / 4 + 8 * (r / 2)) * g->tile_n + j * 8 +
                        2 * (lane % 4) + r % 2] = acc[warp * g->nf + j][lane][r];
    }
}

/* A cluster of CLUSTER_K blocks (grid z), then the sum over the blocks' and
 * warps' partial sums, block z storing every CLUSTER_K-th output. */
static long long cluster_blocks;   /* replayed clusters of more than one block */
static long long staged_blocks[2]; /* replayed STAGE_X=1 blocks: all, of clusters */

static void stream_block(const run *R, uint16_t *sm, double (*acc)[32][4], long long bx, long long by)
{
    const ct_tc16_geom *g = R->g;
    const layer *L = R->L;
    const long long nct = (L->cout_g + g->bm - 1) / g->bm, n0 = bx * g->tile_n;
    const long long grp = by / nct, co0 = by % nct * g->bm, part = g->warps_k * g->bm * g->tile_n;
    /* STAGE_X with clusters: each block's sums [m][n] follow its warps' */
    const int block_sums = g->stage_x && g->cluster_k > 1;
    CHECK(g->grid_z == g->cluster_k && 4 * (part + block_sums * g->bm * g->tile_n) <= g->smem_bytes);
    double *red = malloc((size_t)(g->cluster_k * part) * sizeof *red);
    for (long long i = 0; i < g->cluster_k * part; i++)
        red[i] = NAN;
    cluster_blocks += g->cluster_k > 1;
    staged_blocks[0] += g->stage_x;
    staged_blocks[1] += block_sums;
    for (long long z = 0; z < g->cluster_k; z++)
        stream_part(R, sm, acc, bx, by, z, red + z * part);
    for (long long idx = 0; idx < g->bm * g->tile_n; idx++) {
        const long long m = idx / g->tile_n, n = idx % g->tile_n, co = co0 + m, pix = n0 + n;
        if (co >= L->cout_g || pix >= g->ntot)
            continue;
        double s = 0.0;
        if (block_sums) {
            for (long long z = 0; z < g->cluster_k; z++) {
                double sum = 0.0;   /* block z's sums[idx] */
                for (long long k = 0; k < g->warps_k; k++)
                    sum += red[z * part + k * g->bm * g->tile_n + idx];
                s += sum;
            }
        } else {
            for (long long k = 0; k < g->warps_k; k++)
                for (long long z = 0; z < g->cluster_k; z++)
                    s += red[z * part + (k * g->bm + m) * g->tile_n + n];
        }
        s += L->s.bias ? bf(R->bias[grp * L->cout_g + co]) : 0.0;
        const long long b = pix / (L->s.oh * L->s.ow), o = pix % (L->s.oh * L->s.ow);
        const long long at = (b * L->s.cout + grp * L->cout_g + co) * L->s.oh * L->s.ow + o;
        R->out[at] = s;
        R->writes[at]++;
    }
    free(red);
}

/* ---- the driver ---- */

/* One candidate: its launch as the family gives it, then every block. */
static void replay_one(const replay_run *P, const ct_params *c)
{
    ct_tc16_geom g;
    ct_tc16_geometry_of(P->t, &P->L->s, c, &g);
    ct_launch l;
    P->p->family->geometry(P->p, P->t, c, &l);
    CHECK(l.grid[0] == (unsigned)g.grid_x && l.grid[1] == (unsigned)g.grid_y &&
          l.grid[2] == (unsigned)(g.stream ? g.grid_z : 1) && l.block[0] == (unsigned)g.nt &&
          l.smem_bytes == (unsigned)g.smem_bytes);
    CHECK_MSG(g.mf <= 8 && g.nf <= 128, "%lld x %lld fragments", g.mf, g.nf);
    uint16_t *sm = malloc((size_t)g.smem_bytes);
    double(*acc)[32][4] = malloc((size_t)(g.nt / 32) * (size_t)(g.stream ? g.nf : g.mf * g.nf) * sizeof *acc);
    const run R = {P->L, &g, P->in, P->w, P->bias, P->out, P->writes};
    for (long long by = 0; by < g.grid_y; by++)
        for (long long bx = 0; bx < g.grid_x; bx++)
            (g.stream ? stream_block : tiled_block)(&R, sm, acc, bx, by);
    free(sm);
    free(acc);
}

static void replay(const char *spec, const char *tmpl, int samples, const ct_config *cfg, const ct_limits *lim)
{
    replay_spec(spec, tmpl, samples, cfg, lim, &rng, replay_one);
}

int main(void)
{
    ct_config cfg;
    ct_limits lim;
    if (!replay_setup(&cfg, &lim))
        return 1;
    /* Odd sizes, partial chunks and channel tiles, 1x1 and even filters,
     * groups, stride, dilation, asymmetric padding, bias. */
    static const char *const tiled[][2] = {
        {"conv2dc:2:19:9:11:21:3:3:same:bias:bf16", "conv2dc_tc16"},
        {"conv2dc:1:40:7:9:33:5:2:same:f16", "conv2dc_tc16"},
        {"conv2dc:2:33:6:5:18:1:1:valid:bias:bf16", "conv2dc_tc16"},
        {"conv2dc:1:24:13:12:20:3:3:pad=2,1:stride=2,3:dilation=2,1:groups=2:bf16", "conv2dc_tc16"},
        {"conv2dc:2:3:11:10:16:7:7:same:bias:bf16", "conv2dc_tc16"},
        {"conv1dc:2:37:29:20:5:pad=2:bias:bf16", "conv1dc_tc16"},
        {"conv1dc:3:24:40:18:3:pad=4:stride=2:dilation=4:groups=3:f16", "conv1dc_tc16"},
        {"conv1dc:1:64:4:48:5:pad=2:bias:bf16", "conv1dc_tc16"},
    };
    /* Channels-last: every copy width (channels of a group a multiple of
     * 8, 4, 2, odd), partial chunks and channel tiles, groups, stride,
     * dilation, bias. */
    static const char *const cl[][2] = {
        {"conv2dc:2:24:9:11:40:3:3:same:bias:nhwc:bf16", "conv2dc_tc16cl"},
        {"conv2dc:1:36:7:9:20:5:2:same:nhwc:f16", "conv2dc_tc16cl"},
        {"conv2dc:2:19:6:5:21:1:1:valid:bias:nhwc:bf16", "conv2dc_tc16cl"},
        {"conv2dc:1:20:13:12:28:3:3:pad=2,1:stride=2,3:dilation=2,1:groups=2:nhwc:bf16", "conv2dc_tc16cl"},
        {"conv2dc:2:3:11:10:16:7:7:same:bias:nhwc:bf16", "conv2dc_tc16cl"},
        {"conv1dc:2:37:29:22:5:pad=2:bias:nlc:bf16", "conv1dc_tc16cl"},
        {"conv1dc:3:24:40:18:3:pad=4:stride=2:dilation=4:groups=3:nlc:f16", "conv1dc_tc16cl"},
        {"conv1dc:1:64:33:48:5:pad=2:bias:nlc:bf16", "conv1dc_tc16cl"},
    };
    static const char *const stream[][2] = {
        {"conv1dc:1:64:4:40:5:pad=2:bias:bf16", "conv1dc_tc16w"},
        {"conv1dc:2:48:7:20:3:pad=1:stride=2:bf16", "conv1dc_tc16w"},
        {"conv1dc:1:64:9:24:4:causal:dilation=2:groups=2:bias:f16", "conv1dc_tc16w"},
        {"conv2dc:2:32:3:5:20:3:3:same:groups=2:bias:f16", "conv2dc_tc16w"},
        {"conv2dc:1:64:4:4:40:3:3:pad=1:stride=2:bf16", "conv2dc_tc16w"},
        /* reductions long enough for CLUSTER_K > 1, split evenly and not
         * (600 values: 19 groups, the last partial) */
        {"conv1dc:1:256:4:40:5:pad=2:bias:bf16", "conv1dc_tc16w"},
        {"conv1dc:1:200:3:24:3:pad=1:f16", "conv1dc_tc16w"},
        {"conv2dc:1:96:3:3:24:3:3:same:groups=2:bias:bf16", "conv2dc_tc16w"},
    };
    for (size_t i = 0; i < sizeof tiled / sizeof tiled[0]; i++)
        replay(tiled[i][0], tiled[i][1], 6, &cfg, &lim);
    CHECK_MSG(pair_stages[0] > 0 && pair_stages[1] > 0, "input column pairs replayed %lld, %lld times",
              pair_stages[0], pair_stages[1]);
    for (size_t i = 0; i < sizeof cl / sizeof cl[0]; i++)
        replay(cl[i][0], cl[i][1], 6, &cfg, &lim);
    for (size_t i = 0; i < sizeof stream / sizeof stream[0]; i++)
        replay(stream[i][0], stream[i][1], 10, &cfg, &lim);
    CHECK_MSG(cluster_blocks > 0, "no CLUSTER_K > 1 candidate was replayed");
    CHECK_MSG(staged_blocks[0] > 0 && staged_blocks[1] > 0, "STAGE_X=1 replayed on %lld blocks, with clusters %lld",
              staged_blocks[0], staged_blocks[1]);
    CHECK_DONE();
}
