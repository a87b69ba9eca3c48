/* test_gemm_conv.c - conv1dc_gemm (gemm.conv1dc.cu.in, beside it) without
 * a GPU: its decomposition replayed on the CPU over its whole space on a
 * battery of odd layers (tests/lib/conv1dc_replay.h) against the family's
 * fp64 reference. */
#include "conv1dc_replay.h"

/* The gemm template's decomposition replayed on the CPU for one candidate,
 * with the template's own index arithmetic: blocks over (batch, channel
 * tile, position tile), chunks of input channels staged with zero fill
 * (weights transposed to [ci*K + k][co], input rows at pitch XP), each
 * thread's window and register tile, and the bounds of the stores. */
static void replay_gemm(const shape *s, const ct_params *c, const float *x, const float *w, const float *bias,
                        double *out)
{
    const long long bm = ct_params_get(c, "COUT_TILE", 0), bn = ct_params_get(c, "T_TILE", 0);
    const long long tm = ct_params_get(c, "COUT_PER_THREAD", 0), tn = ct_params_get(c, "T_PER_THREAD", 0);
    const long long ck = ct_params_get(c, "CIN_CHUNK", 0) < s->cin ? ct_params_get(c, "CIN_CHUNK", 0) : s->cin;
    const long long nch = (s->cin + ck - 1) / ck, tx_n = bn / tn, nt = (bm / tm) * tx_n;
    const long long tiles_t = (s->lout + bn - 1) / bn, tiles_c = (s->cout + bm - 1) / bm;
    const long long lv = tn % 4 == 0 ? 4 : tn % 2 == 0 ? 2 : 1, nl = (tn + s->k - 1 + lv - 1) / lv * lv;
    const long long xw = bn + s->k - 1, xp = (bn - tn + nl + 3) / 4 * 4;
    /* NaN where nothing is staged: a read of it would poison an output. */
    float *sw = malloc((size_t)(ck * s->k * bm) * sizeof *sw), *sx = malloc((size_t)(ck * xp) * sizeof *sx);
    double *acc = malloc((size_t)(nt * tm * tn) * sizeof *acc);
    for (size_t i = 0; i < (size_t)(s->b * s->cout * s->lout); i++)
        out[i] = NAN;
    for (long long blk = 0; blk < tiles_t * tiles_c * s->b; blk++) {
        const long long tt = blk % tiles_t, rest = blk / tiles_t;
        const long long co0 = rest % tiles_c * bm, b = rest / tiles_c, t0 = tt * bn;
        for (long long th = 0; th < nt; th++)
            for (long long i = 0; i < tm; i++) {
                const long long co = co0 + th / tx_n * tm + i;
                for (long long j = 0; j < tn; j++)
                    acc[(th * tm + i) * tn + j] = s->bias && co < s->cout ? bias[co] : 0.0;
            }
        for (long long ch = 0; ch < nch; ch++) {
            const long long ci0 = ch * ck;
            for (long long i = 0; i < ck * s->k * bm; i++)
                sw[i] = NAN;
            for (long long i = 0; i < ck * xp; i++)
                sx[i] = NAN;
            for (long long idx = 0; idx < ck * s->k * bm; idx++) {
                const long long co = idx / (ck * s->k), r = idx % (ck * s->k);
                const int ok = co0 + co < s->cout && ci0 + r / s->k < s->cin;
                sw[r * bm + co] = ok ? w[((co0 + co) * s->cin + ci0) * s->k + r] : 0.0f;
            }
            for (long long idx = 0; idx < ck * xw; idx++) {
                const long long cc = idx / xw, j = idx % xw, xi = t0 - s->pad + j;
                const int ok = ci0 + cc < s->cin && xi >= 0 && xi < s->l;
                sx[cc * xp + j] = ok ? x[(b * s->cin + ci0 + cc) * s->l + xi] : 0.0f;
            }
            for (long long th = 0; th < nt; th++) {
                const long long tx = th % tx_n, ty = th / tx_n;
                for (long long cc = 0; cc < ck; cc++)
                    for (long long k = 0; k < s->k; k++)
                        for (long long i = 0; i < tm; i++)
                            for (long long j = 0; j < tn; j++)
                                acc[(th * tm + i) * tn + j] +=
                                    (double)sw[(cc * s->k + k) * bm + ty * tm + i] * (double)sx[cc * xp + tx * tn + j + k];
            }
        }
        for (long long th = 0; th < nt; th++) {
            const long long tx = th % tx_n, ty = th / tx_n;
            for (long long i = 0; i < tm; i++) {
                const long long co = co0 + ty * tm + i;
                for (long long j = 0; j < tn && co < s->cout; j++) {
                    const long long t = t0 + tx * tn + j;
                    if (t >= s->lout)
                        continue;
                    double *o = &out[(b * s->cout + co) * s->lout + t];
                    CHECK_MSG(isnan(*o), "gemm: output b=%lld co=%lld t=%lld written twice", b, co, t);
                    *o = acc[(th * tm + i) * tn + j];
                }
            }
        }
    }
    free(sw);
    free(sx);
    free(acc);
}

int main(void)
{
    conv1dc_replay_all("conv1dc_gemm", replay_gemm);
    CHECK_DONE();
}
