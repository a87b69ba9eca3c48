/* dtype.c - rounding to and from the half element types on the host, and
 * the tolerances of every type. */
#include "dtype.h"

#include <math.h>
#include <string.h>

static uint32_t bits_of(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    return x;
}

static float float_of(uint32_t x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

uint16_t ct_f32_to_bf16(float f)
{
    uint32_t x = bits_of(f);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    /* Adding just under half an ulp, plus the lowest kept bit, rounds ties
     * to even; a carry into the exponent is the right result, up to inf. */
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

/* v >> s rounded to nearest, ties to even (0 < s < 32). */
static uint32_t shift_rne(uint32_t v, int s)
{
    uint32_t q = v >> s, rem = v & ((1u << s) - 1), half = 1u << (s - 1);
    return q + (rem > half || (rem == half && (q & 1u)));
}

uint16_t ct_f32_to_f16(float f)
{
    uint32_t x = bits_of(f);
    const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    const uint32_t ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u)
        return sign | 0x7e00u;
    const int e = (int)(ax >> 23) - 127;
    const uint32_t m = ax & 0x7fffffu;
    if (e > 15)
        return sign | 0x7c00u;
    if (e >= -14)   /* normal: a carry out of the mantissa raises the exponent, up to inf */
        return sign | (uint16_t)shift_rne(((uint32_t)(e + 15) << 23) | m, 13);
    if (e < -25)    /* below half the smallest subnormal */
        return sign;
    /* Subnormal: the value in units of 2^-24 is (1.m * 2^23) * 2^(e+1). */
    return sign | (uint16_t)shift_rne(m | 0x800000u, -(e + 1));
}

float ct_bf16_to_f32(uint16_t h)
{
    return float_of((uint32_t)h << 16);
}

float ct_f16_to_f32(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1f)
        return float_of(sign | 0x7f800000u | (m << 13));
    if (e == 0) {
        const float v = ldexpf((float)m, -24);
        return sign ? -v : v;
    }
    return float_of(sign | ((e + 112u) << 23) | (m << 13));
}

float ct_dtype_round(ct_dtype t, float f)
{
    switch (t) {
    case CT_DTYPE_BF16:
        return ct_bf16_to_f32(ct_f32_to_bf16(f));
    case CT_DTYPE_F16:
        return ct_f16_to_f32(ct_f32_to_f16(f));
    default:   /* f32, and tf32, whose elements are fp32 */
        return f;
    }
}

void ct_dtype_narrow(ct_dtype t, const float *src, void *dst, size_t n)
{
    if (!ct_dtype_is_half(t)) {
        memmove(dst, src, n * sizeof(float));
        return;
    }
    uint16_t *h = dst;
    for (size_t i = 0; i < n; i++)
        h[i] = t == CT_DTYPE_BF16 ? ct_f32_to_bf16(src[i]) : ct_f32_to_f16(src[i]);
}

void ct_dtype_widen(ct_dtype t, void *buf, size_t n)
{
    if (!ct_dtype_is_half(t))
        return;
    /* From the end: float i lands on halves 2i and 2i+1, both read already
     * (through memcpy: the bytes change type). */
    unsigned char *b = buf;
    for (size_t i = n; i-- > 0;) {
        uint16_t v;
        memcpy(&v, b + 2 * i, sizeof v);
        const float f = t == CT_DTYPE_BF16 ? ct_bf16_to_f32(v) : ct_f16_to_f32(v);
        memcpy(b + 4 * i, &f, sizeof f);
    }
}

uint16_t ct_dtype_nan_bits(ct_dtype t)
{
    return t == CT_DTYPE_BF16 ? 0x7fc0u : 0x7e00u;
}

double ct_dtype_tolerance(ct_dtype t, double f32_tolerance)
{
    switch (t) {
    case CT_DTYPE_BF16:
        return 0x1p-7;   /* 2u, u = 2^-8 (8 significand bits) */
    case CT_DTYPE_F16:
        return 0x1p-10;  /* 2u, u = 2^-11 (11 significand bits) */
    case CT_DTYPE_TF32:
        return 0x1p-10;  /* 2u, u = 2^-11 (11 significand bits, as f16) */
    default:
        return f32_tolerance;
    }
}

int ct_dtype_verified(ct_dtype t, double relerr, double f32_tolerance)
{
    return relerr <= ct_dtype_tolerance(t, f32_tolerance);
}

double ct_dtype_peak_tflops(ct_dtype t, double fma_tflops, double tc_half_tflops)
{
    /* A TF32 mma step (k8) takes the time of a half one (k16) on sm_80
     * and sm_90: half the rate. */
    double v = t == CT_DTYPE_F32 ? fma_tflops : t == CT_DTYPE_TF32 ? tc_half_tflops / 2 : tc_half_tflops;
    return v > 0 ? v : 0;
}

float ct_tf32_round(float f)
{
    uint32_t x = bits_of(f);
    if ((x & 0x7fffffffu) >= 0x7f800000u)   /* inf and NaN as they are */
        return f;
    /* Half of the dropped 13 bits' range added to the magnitude, then
     * dropped: to nearest, ties away from zero; a carry into the exponent
     * is the right result, up to inf. */
    return float_of((x + 0x1000u) & 0xffffe000u);
}

const char *ct_dtype_c_type(ct_dtype t)
{
    return t == CT_DTYPE_BF16 ? "__nv_bfloat16" : t == CT_DTYPE_F16 ? "__half" : "float";
}

const char *ct_dtype_header(ct_dtype t)
{
    return t == CT_DTYPE_BF16 ? "cuda_bf16.h" : t == CT_DTYPE_F16 ? "cuda_fp16.h" : NULL;
}
