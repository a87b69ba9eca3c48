/* test_tiled_conv.c - conv1dc_tiled (tiled.conv1dc.cu.in, beside it)
 * without a GPU: its decomposition replayed on the CPU over its whole space
 * on a battery of odd layers (tests/lib/conv1dc_replay.h) against the
 * family's fp64 reference. conv2dc_tiled is checked by test_family_conv2dc
 * and conformance_conv2dc (space, NVRTC) and on a GPU by gpu_families. */
#include "conv1dc_replay.h"

/* The tiled template's decomposition replayed on the CPU for one candidate:
 * blocks, groups, channel steps with UNROLL, the Cin % CPT tail, output
 * tiles and their windows (compile-time positions when one tile covers the
 * output), batch tiles, and the guarded stores. Each group's threads are
 * summed in thread order; the real kernel sums in another order. Unwritten
 * outputs stay NaN. */
static void replay_tiled(const shape *s, const ct_params *c, const float *x, const float *w, const float *bias,
                         double *out)
{
    const long block = ct_params_get(c, "BLOCK_SIZE", 0), cpb = ct_params_get(c, "COUT_PER_BLOCK", 0);
    const long group = block / cpb, cpt = ct_params_get(c, "CHANNELS_PER_THREAD", 0);
    const long unroll = ct_params_get(c, "UNROLL", 0), tile = ct_params_get(c, "OUT_TILE", 0);
    const long bpb = ct_params_get(c, "BATCH_PER_BLOCK", 0);
    const long long nt = (s->lout + tile - 1) / tile, nbt = (s->b + bpb - 1) / bpb;
    const long long ncb = s->cin / cpt, nblocks = nt * nbt * ((s->cout + cpb - 1) / cpb);
    for (size_t i = 0; i < (size_t)(s->b * s->cout * s->lout); i++)
        out[i] = NAN;
    double *acc = malloc(sizeof(double) * (size_t)(bpb * tile));
    double *sum = malloc(sizeof(double) * (size_t)(bpb * tile));
    for (long long bid = 0; bid < nblocks; bid++) {
        const long long t0 = (bid % nt) * tile, b0 = (bid / nt % nbt) * bpb;
        for (long grp = 0; grp < cpb; grp++) {
            const long long co = (bid / nt / nbt) * cpb + grp;
            for (long n = 0; n < bpb * tile; n++)
                sum[n] = 0.0;
            for (long gt = 0; gt < group; gt++) {
                for (long n = 0; n < bpb * tile; n++)
                    acc[n] = 0.0;
                if (co >= s->cout)
                    continue;
                /* Channel ranges this thread owns: whole steps, then the tail. */
                for (long long s0 = gt; s0 < ncb; s0 += group * unroll)
                    for (long u = 0; u < unroll; u++) {
                        const long long st = s0 + u * group;
                        if (u > 0 && st >= ncb)
                            continue;
                        for (long long ci = st * cpt; ci < (st + 1) * cpt; ci++)
                            for (long long k = 0; k < s->k; k++)
                                for (long bb = 0; bb < bpb; bb++)
                                    for (long t = 0; t < tile; t++) {
                                        const long long pos = t0 + t + k - s->pad;
                                        const long long b = b0 + bb;
                                        if (b >= s->b || pos < 0 || pos >= s->l)
                                            continue;
                                        acc[bb * tile + t] += (double)w[(co * s->cin + ci) * s->k + k] *
                                                              (double)x[(b * s->cin + ci) * s->l + pos];
                                    }
                    }
                for (long long ci = ncb * cpt + gt; ci < s->cin; ci += group)
                    for (long long k = 0; k < s->k; k++)
                        for (long bb = 0; bb < bpb; bb++)
                            for (long t = 0; t < tile; t++) {
                                const long long pos = t0 + t + k - s->pad, b = b0 + bb;
                                if (b >= s->b || pos < 0 || pos >= s->l)
                                    continue;
                                acc[bb * tile + t] += (double)w[(co * s->cin + ci) * s->k + k] *
                                                      (double)x[(b * s->cin + ci) * s->l + pos];
                            }
                for (long n = 0; n < bpb * tile; n++)
                    sum[n] += acc[n];
            }
            if (co >= s->cout)
                continue;
            for (long n = 0; n < bpb * tile; n++) {
                const long long b = b0 + n / tile, t = t0 + n % tile;
                if (b < s->b && t < s->lout) {
                    double *o = &out[(b * s->cout + co) * s->lout + t];
                    CHECK_MSG(isnan(*o), "output b=%lld co=%lld t=%lld written twice", b, co, t);
                    *o = sum[n] + (s->bias ? (double)bias[co] : 0.0);
                }
            }
        }
    }
    free(acc);
    free(sum);
}

int main(void)
{
    conv1dc_replay_all("conv1dc_tiled", replay_tiled);
    CHECK_DONE();
}
