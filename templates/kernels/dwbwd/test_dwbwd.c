/* test_dwbwd.c - the kinds dgdw and wgdw (ct_dwbwd.cuh, beside it) without a
 * GPU: each kernel replayed block by block and thread by thread on the
 * geometry the hooks compute (ct_dgdw_geometry, ct_wgdw_geometry), with the
 * device code's index math, against the family's fp64 reference. Shared
 * memory starts as NaN, so reading what the staging did not write fails;
 * every staged and read index is checked against the block's shared memory
 * and every output for being written exactly once. Sampled candidates of the
 * folder's values on the target layers' shapes (scaled down) and on odd
 * ones: strides 2 and 3, dilation 2, pad=P, causal, bias, widths not a
 * multiple of 4. Sums in fp64 of bf16 inputs: only indexing can differ. */
#include "tc16_replay.h"
#include "dwbwd_conv.h"

static unsigned long long rng = 0x510e527fade682d1ULL;

/* x[r0 + r][c0 + q] of a rows x width plane into [r][q] (pitch), zeros outside. */
static void stage(double *dst, long long rows, long long cols, long long pitch, const uint16_t *src,
                  long long height, long long width, long long r0, long long c0)
{
    for (long long r = 0; r < rows; r++)
        for (long long q = 0; q < cols; q++) {
            const long long gy = r0 + r, gx = c0 + q;
            dst[r * pitch + q] = gy >= 0 && gy < height && gx >= 0 && gx < width ? bf(src[gy * width + gx]) : 0.0;
        }
}

static double at(const double *sm, long long n, long long i)
{
    CHECK_MSG(i >= 0 && i < n && !isnan(sm[i]), "shared index %lld of %lld unstaged or out of bounds", i, n);
    return i >= 0 && i < n ? sm[i] : NAN;
}

static void put(const replay_run *R, long long i, double v)
{
    R->out[i] = v;
    R->writes[i]++;
}

/* dgdw STREAM 1: blocks (row, block of the row), threads, OUT_X items of
 * 4 outputs each; the vector path's window loads exactly as the device's
 * (whole aligned vectors in the row, else zeros), the scalar path's taps. */
static long long n_stream[2];   /* streamed replays: scalar path, vector path */
static void replay_dgdw_stream(const replay_run *R, const ct_dgdw_geom *g)
{
    n_stream[g->sv ? 1 : 0]++;
    const ct_tc_shape *s = &R->L->s;
    const long long ni = (s->w + 3) / 4;
    double win[4 * 64];
    CHECK(s->h == 1 && s->oh == 1 && g->nwl <= 4 * 64 && g->nt % 32 == 0);
    CHECK(g->blocks == s->b * s->cin * g->ntx && g->ntx * g->nt * g->ox >= ni && g->tow == 4 * g->nt * g->ox);
    for (long long blk = 0; blk < g->blocks; blk++) {
        const long long bx = blk % g->ntx, plane = blk / g->ntx, ch = plane % s->cin;
        const uint16_t *dy = R->in + plane * s->ow, *w = R->w + ch * s->kw;
        for (long long tid = 0; tid < g->nt; tid++)
            for (long long u = 0; u < g->ox; u++) {
                const long long k = bx * g->nt * g->ox + u * g->nt + tid;
                if (k >= ni)
                    break;
                for (long long o = 0; o < 4; o++) {
                    const long long xx = 4 * k + o;
                    if (xx >= s->w)
                        break;
                    double acc = 0;
                    if (g->sv) {
                        for (long long v = 0; v < g->nwl / 4; v++) {
                            const long long e = 4 * (k + g->rxmin + v);
                            for (long long q = 0; q < 4; q++)
                                win[4 * v + q] = e >= 0 && e < s->ow ? bf(dy[e + q]) : 0.0;
                            CHECK(e % 4 == 0 && (e < 0 || e >= s->ow || e + 4 <= s->ow));
                        }
                        for (long long j = 0; j < s->kw; j++) {
                            const long long i = o + s->pw - j * s->dx - 4 * g->rxmin;
                            CHECK_MSG(i >= 0 && i < g->nwl, "window index %lld of %lld", i, g->nwl);
                            if (i >= 0 && i < g->nwl)
                                acc += bf(w[j]) * win[i];
                        }
                    } else {
                        for (long long j = 0; j < s->kw; j++) {
                            const long long t = xx + s->pw - j * s->dx;
                            if (t >= 0 && t % s->sx == 0 && t / s->sx < s->ow)
                                acc += bf(w[j]) * bf(dy[t / s->sx]);
                        }
                    }
                    put(R, plane * s->w + xx, acc);
                }
            }
    }
}

/* dgdw: blocks (plane, phase class, tile), threads (ty, tx). */
static void replay_dgdw(const replay_run *R, const ct_params *c)
{
    const ct_tc_shape *s = &R->L->s;
    ct_dgdw_geom g;
    ct_dgdw_geometry(R->t, s, c, &g);
    if (g.stream) {
        replay_dgdw_stream(R, &g);
        return;
    }
    const long long sin_n = g.sih * g.pitch, st_n = g.tkh * g.kwp;
    double *sin = malloc((size_t)sin_n * sizeof(double)), *st = malloc((size_t)st_n * sizeof(double));
    double *acc = malloc((size_t)(g.oy * g.ox) * sizeof(double));
    for (long long blk = 0; blk < g.blocks; blk++) {
        const long long tile = blk % (g.nty * g.ntx), rest = blk / (g.nty * g.ntx);
        const long long phase = rest % g.nph, plane = rest / g.nph, ch = plane % s->cin;
        const long long py = phase / s->sx, px = phase % s->sx;
        const long long m0 = (tile / g.ntx) * g.toh, n0 = (tile % g.ntx) * g.tow;
        const uint16_t *dy = R->in + plane * s->oh * s->ow, *w = R->w + ch * s->kh * s->kw;
        for (long long i = 0; i < sin_n; i++)
            sin[i] = NAN;
        for (long long i = 0; i < st_n; i++)
            st[i] = NAN;
        if (g.swap) {
            stage(sin, g.sih, g.pitch, g.pitch, w, s->kh, s->kw, m0 + g.rymin, n0 + g.rxmin - g.lead);
            stage(st, g.tkh, g.kwp, g.kwp, dy, s->oh, s->ow, 0, 0);
        } else {
            stage(sin, g.sih, g.pitch, g.pitch, dy, s->oh, s->ow, m0 + g.rymin, n0 + g.rxmin - g.lead);
            stage(st, g.tkh, g.kwp, g.kwp, w, s->kh, s->kw, 0, 0);
        }
        for (long long tid = 0; tid < g.nitems; tid++) {
            const long long ty = tid / g.tx, tx = tid % g.tx;
            const long long base = ty * g.oy * g.pitch + g.lead + tx * g.ox;
            CHECK(base % g.lv == 0 && g.pitch % 4 == 0);
            for (long long k = 0; k < g.oy * g.ox; k++)
                acc[k] = 0;
            for (long long r = 0; r < g.nr; r++)
                for (long long a = 0; a < g.oy; a++) {
                    const long long id = py + s->ph - s->sy * (r - a + g.rymin);
                    if (id < 0 || id % g.tdy != 0 || id / g.tdy >= g.tkh)
                        continue;
                    for (long long j = 0; j < g.tkw; j++) {
                        const long long jd = px + s->pw - j * g.tdx;
                        if (jd % s->sx != 0)
                            continue;
                        const long long col = jd / s->sx - g.rxmin;
                        CHECK(col >= 0 && col + g.ox <= g.nwl);
                        const double tap = at(st, st_n, (id / g.tdy) * g.kwp + j);
                        for (long long o = 0; o < g.ox; o++)
                            acc[a * g.ox + o] += tap * at(sin, sin_n, base + r * g.pitch + o + col);
                    }
                }
            for (long long a = 0; a < g.oy; a++) {
                const long long yy = py + s->sy * (m0 + ty * g.oy + a);
                for (long long o = 0; o < g.ox && yy < s->h; o++) {
                    const long long xx = px + s->sx * (n0 + tx * g.ox + o);
                    if (xx < s->w)
                        put(R, (plane * s->h + yy) * s->w + xx, acc[a * g.ox + o]);
                }
            }
        }
    }
    free(sin);
    free(st);
    free(acc);
}

/* A sampled candidate made STREAM=1 (SWAP 0, normalized) where the hooks
 * admit that, so that every sample replays the streaming path; the sample
 * as it is otherwise. */
static ct_limits g_lim;
static void replay_dgdw_as_stream(const replay_run *R, const ct_params *c)
{
    ct_params c2 = *c;
    char why[256];
    CHECK(ct_params_set(&c2, "STREAM", 1, NULL) == CT_OK && ct_params_set(&c2, "SWAP", 0, NULL) == CT_OK);
    R->p->family->normalize(R->p, R->t, &c2);
    if (R->p->family->constrain(R->p, R->t, &c2, &g_lim, why, sizeof why) == 0) {
        ct_dgdw_geom g;
        ct_dgdw_geometry(R->t, &R->L->s, &c2, &g);
        CHECK(g.stream == 1);
        replay_dgdw_stream(R, &g);
    } else {
        replay_dgdw(R, c);
    }
}

/* wgdw STREAM 1: blocks (channel, slice), rows of the slice, steps of
 * GROUPS x PIX_X items, threads; the vector path's loads as the device's. */
static long long n_wstream[2];
static void replay_wgdw_stream(const replay_run *R, const ct_wgdw_geom *g)
{
    const ct_tc_shape *s = &R->L->s;
    const long long ni = (s->ow + 3) / 4, nw = s->cin * s->kw;
    double win[4 * 64];
    n_wstream[g->sv ? 1 : 0]++;
    CHECK(s->h == 1 && s->oh == 1 && g->nwl <= 4 * 64 && g->tt == 1 && g->nth == g->groups && g->nt == g->nth &&
          g->segs == ni && g->tx == s->kw && g->nu == s->b);
    for (long long ch = 0; ch < s->cin; ch++) {
        double tot[65] = {0};
        for (long long sp = 0; sp < g->split; sp++)
            for (long long u = sp * g->nu / g->split; u < (sp + 1) * g->nu / g->split; u++) {
                const long long plane = u * s->cin + ch;
                const uint16_t *x = R->in + plane * s->w, *dy = R->w + plane * s->ow;
                for (long long k0 = 0; k0 < ni; k0 += g->nth * g->px)
                    for (long long p = 0; p < g->px; p++)
                        for (long long tid = 0; tid < g->nth; tid++) {
                            const long long k = k0 + p * g->nth + tid;
                            if (g->sv)
                                for (long long v = 0; v < g->nwl / 4; v++) {
                                    const long long e = 4 * (k + g->lead + v);
                                    CHECK(e % 4 == 0 && (e < 0 || e >= s->w || e + 4 <= s->w));
                                    for (long long q = 0; q < 4; q++)
                                        win[4 * v + q] = k < ni && e >= 0 && e < s->w ? bf(x[e + q]) : 0.0;
                                }
                            for (long long o = 0; o < 4; o++) {
                                const double dv = k < ni && 4 * k + o < s->ow ? bf(dy[4 * k + o]) : 0.0;
                                if (s->bias)
                                    tot[s->kw] += dv;
                                for (long long j = 0; j < s->kw; j++) {
                                    double xv;
                                    if (g->sv) {
                                        const long long i = o + j * s->dx - s->pw - 4 * g->lead;
                                        CHECK_MSG(i >= 0 && i < g->nwl, "window index %lld of %lld", i, g->nwl);
                                        xv = i >= 0 && i < g->nwl ? win[i] : NAN;
                                    } else {
                                        const long long xx = (4 * k + o) * s->sx + j * s->dx - s->pw;
                                        xv = k < ni && 4 * k + o < s->ow && xx >= 0 && xx < s->w ? bf(x[xx]) : 0.0;
                                    }
                                    tot[j] += dv * xv;
                                }
                            }
                        }
            }
        for (long long j = 0; j < s->kw; j++)
            put(R, ch * s->kw + j, tot[j]);
        if (s->bias)
            put(R, nw + ch, tot[s->kw]);
    }
}

/* As replay_dgdw_as_stream, for wgdw. */
static void replay_wgdw(const replay_run *R, const ct_params *c);
static void replay_wgdw_as_stream(const replay_run *R, const ct_params *c)
{
    ct_params c2 = *c;
    char why[256];
    CHECK(ct_params_set(&c2, "STREAM", 1, NULL) == CT_OK);
    R->p->family->normalize(R->p, R->t, &c2);
    if (R->p->family->constrain(R->p, R->t, &c2, &g_lim, why, sizeof why) == 0)
        replay_wgdw(R, &c2);
    else
        replay_wgdw(R, c);
}

/* wgdw: blocks (channel, slice), threads (group, tap tile), units in turn. */
static void replay_wgdw(const replay_run *R, const ct_params *c)
{
    const ct_tc_shape *s = &R->L->s;
    ct_wgdw_geom g;
    ct_wgdw_geometry(R->t, s, c, &g);
    if (g.stream) {
        replay_wgdw_stream(R, &g);
        return;
    }
    const long long sx_n = g.sih * g.pitch, sd_n = g.br * g.dyp, nw = s->cin * s->kh * s->kw;
    double *sx = malloc((size_t)sx_n * sizeof(double)), *sd = malloc((size_t)sd_n * sizeof(double));
    double *tot = calloc((size_t)(s->cin * g.ntaps), sizeof(double));
    CHECK(g.smem >= 4 * (sx_n + sd_n) && g.smem >= 4 * g.groups * g.ntaps && g.smem >= 4 * (g.ntaps + 1));
    for (long long blk = 0; blk < s->cin * g.split; blk++) {
        const long long ch = blk / g.split, sp = blk % g.split;
        const long long ulo = sp * g.nu / g.split, uhi = (sp + 1) * g.nu / g.split;
        for (long long u = ulo; u < uhi; u++) {
            const long long b = u / g.nb, y0 = (u % g.nb) * g.br, plane = b * s->cin + ch;
            for (long long i = 0; i < sx_n; i++)
                sx[i] = NAN;
            for (long long i = 0; i < sd_n; i++)
                sd[i] = NAN;
            stage(sx, g.sih, g.pitch, g.pitch, R->in + plane * s->h * s->w, s->h, s->w, y0 * s->sy - s->ph,
                  -s->pw - g.lead);
            stage(sd, g.br, g.dyp, g.dyp, R->w + plane * s->oh * s->ow, s->oh, s->ow, y0, 0);
            for (long long tid = 0; tid < g.nth; tid++) {
                const long long grp = tid / g.tt, tt = tid % g.tt;
                const long long i0 = (tt / g.ntj) * g.ty, j0 = (tt % g.ntj) * g.tx;
                for (long long sg = grp; sg < g.segs; sg += g.groups) {
                    const long long yr = sg / g.nch, k = sg % g.nch;
                    const long long xr = (yr * s->sy + i0 * s->dy) * g.pitch + g.lead + k * g.px * s->sx +
                                         j0 * s->dx;
                    CHECK(xr % g.lv == 0);
                    for (long long p = 0; p < g.px; p++) {
                        const double dv = at(sd, sd_n, yr * g.dyp + k * g.px + p);
                        if (s->bias && tt == 0)
                            tot[ch * g.ntaps + g.ntaps - 1] += dv;
                        for (long long a = 0; a < g.ty; a++)
                            for (long long o = 0; o < g.tx; o++) {
                                CHECK(p * s->sx + o * s->dx < g.nwl);
                                const double xv = at(sx, sx_n, xr + a * s->dy * g.pitch + p * s->sx + o * s->dx);
                                if (i0 + a < s->kh && j0 + o < s->kw)
                                    tot[ch * g.ntaps + (i0 + a) * s->kw + j0 + o] += dv * xv;
                            }
                    }
                }
            }
        }
    }
    for (long long ch = 0; ch < s->cin; ch++) {
        for (long long e = 0; e < s->kh * s->kw; e++)
            put(R, ch * s->kh * s->kw + e, tot[ch * g.ntaps + e]);
        if (s->bias)
            put(R, nw + ch, tot[ch * g.ntaps + g.ntaps - 1]);
    }
    free(sx);
    free(sd);
    free(tot);
}

int main(void)
{
    ct_config cfg;
    ct_limits lim;
    if (!replay_setup(&cfg, &lim))
        return 1;
    g_lim = lim;
    static const char *const dg[] = {
        "conv2dc:2:3:16:16:3:31:31:same:groups=3:dgrad",      /* the 31x31 target, scaled down */
        "conv2dc:2:3:16:16:3:17:17:same:groups=3:dgrad",
        "conv2dc:2:3:20:20:3:7:7:same:groups=3:dgrad",
        "conv2dc:2:4:13:11:4:3:5:pad=2:stride=2,3:groups=4:dgrad",
        "conv2dc:1:3:15:9:3:3:3:pad=2:dilation=2:groups=3:dgrad:bf16",
        "conv2dc:2:2:17:10:2:5:4:pad=1:stride=3:dilation=2:groups=2:dgrad:f16",
        "conv1dc:2:4:300:4:4:causal:groups=4:dgrad:bf16",
        "conv1dc:2:3:101:3:5:causal:dilation=2:groups=3:dgrad",
        "conv1dc:2:4:99:4:3:pad=1:stride=3:groups=4:dgrad:f16",
        "conv1dc:2:3:64:3:4:causal:groups=3:dgrad",
        "conv1dc:2:3:72:3:5:pad=4:dilation=2:groups=3:bias:dgrad:bf16",
        "conv1dc:2:4:60:4:3:pad=2:groups=4:dgrad",
        "conv1dc:2:3:70:3:4:causal:stride=2:groups=3:dgrad:bf16",
        "conv1dc:1:2:37:2:7:pad=3:groups=2:dgrad",
    };
    /* Samples made STREAM=1 on these rows: both paths (vector: stride 1,
     * widths a multiple of 4; scalar: the rest). */
    static const char *const st[] = {
        "conv1dc:2:4:300:4:4:causal:groups=4:dgrad:bf16",
        "conv1dc:2:3:64:3:4:causal:groups=3:dgrad",
        "conv1dc:2:3:72:3:5:pad=4:dilation=2:groups=3:bias:dgrad:bf16",
        "conv1dc:2:4:60:4:3:pad=2:groups=4:dgrad",
        "conv1dc:2:3:70:3:4:causal:stride=2:groups=3:dgrad:bf16",
        "conv1dc:1:2:37:2:7:pad=3:groups=2:dgrad",
        "conv1dc:2:3:101:3:5:causal:dilation=2:groups=3:dgrad",
        "conv1dc:2:4:99:4:3:pad=1:stride=3:groups=4:dgrad:f16",
    };
    static const char *const wg[] = {
        "conv2dc:2:3:16:16:3:31:31:same:groups=3:wgrad",
        "conv2dc:2:3:16:16:3:17:17:same:groups=3:bias:wgrad",
        "conv2dc:2:3:20:20:3:7:7:same:groups=3:wgrad",
        "conv2dc:2:4:13:11:4:3:5:pad=2:stride=2,3:groups=4:bias:wgrad",
        "conv2dc:1:3:15:9:3:3:3:pad=2:dilation=2:groups=3:wgrad:bf16",
        "conv1dc:2:4:300:4:4:causal:groups=4:wgrad:bf16",
        "conv1dc:2:3:101:3:5:causal:dilation=2:groups=3:bias:wgrad",
        "conv1dc:2:4:99:4:3:pad=1:stride=3:groups=4:wgrad:f16",
    };
    static const char *const wst[] = {
        "conv1dc:3:4:300:4:4:causal:groups=4:wgrad:bf16",
        "conv1dc:2:3:64:3:4:causal:groups=3:bias:wgrad",
        "conv1dc:3:3:72:3:5:pad=4:dilation=2:groups=3:bias:wgrad:bf16",
        "conv1dc:2:4:60:4:3:pad=2:groups=4:wgrad",
        "conv1dc:2:3:70:3:4:causal:stride=2:groups=3:wgrad:bf16",
        "conv1dc:1:2:37:2:7:pad=3:groups=2:bias:wgrad",
        "conv1dc:2:4:99:4:3:pad=1:stride=3:groups=4:wgrad:f16",
    };
    for (size_t i = 0; i < sizeof dg / sizeof dg[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "%.7s_dgdw", dg[i]);
        replay_spec(dg[i], name, 6, &cfg, &lim, &rng, replay_dgdw);
    }
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++)
        replay_spec(st[i], "conv1dc_dgdw", 12, &cfg, &lim, &rng, replay_dgdw_as_stream);
    CHECK_MSG(n_stream[0] > 0 && n_stream[1] > 0, "STREAM replays: %lld scalar, %lld vector", n_stream[0],
              n_stream[1]);
    for (size_t i = 0; i < sizeof wg / sizeof wg[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "%.7s_wgdw", wg[i]);
        replay_spec(wg[i], name, 6, &cfg, &lim, &rng, replay_wgdw);
    }
    for (size_t i = 0; i < sizeof wst / sizeof wst[0]; i++)
        replay_spec(wst[i], "conv1dc_wgdw", 12, &cfg, &lim, &rng, replay_wgdw_as_stream);
    CHECK_MSG(n_wstream[0] > 0 && n_wstream[1] > 0, "wgdw STREAM replays: %lld scalar, %lld vector", n_wstream[0],
              n_wstream[1]);
    CHECK_DONE();
}
