/* data.c - see data.h. */
#include "data.h"

#include "space.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

unsigned long long tl_seed(unsigned long long dflt)
{
    const char *env = getenv("CT_TEST_SEED");
    unsigned long long seed = env && *env ? strtoull(env, NULL, 0) : dflt;
    printf("seed %llu (set CT_TEST_SEED to repeat)\n", seed);
    return seed;
}

float tl_uniform(unsigned long long *state)
{
    for (;;) {
        float v = (float)((double)(ct_rand_next(state) >> 40) / (double)(1ULL << 24) * 2.0 - 1.0);
        if (v != 0.0f)
            return v;
    }
}

void tl_fill(float *v, size_t n, unsigned long long *state)
{
    for (size_t i = 0; i < n; i++)
        v[i] = tl_uniform(state);
}

double tl_relerr(const double *got, const double *want, size_t n)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(got[i]))
            return INFINITY;
        num += (got[i] - want[i]) * (got[i] - want[i]);
        den += want[i] * want[i];
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}
