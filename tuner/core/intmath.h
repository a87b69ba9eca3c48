/* intmath.h - the integer arithmetic of launch geometry, shared by every
 * template's size code: sizes are positive, so plain division rounds down. */
#ifndef CT_INTMATH_H
#define CT_INTMATH_H

/* a / b rounded up (b > 0, a >= 0). */
static inline long long ct_cdiv(long long a, long long b)
{
    return (a + b - 1) / b;
}

/* a rounded up to a multiple of b. */
static inline long long ct_rup(long long a, long long b)
{
    return ct_cdiv(a, b) * b;
}

#endif
