/* consumer_dtype.h - the element type of the family export a consumer uses
 * (CONSUMER_DTYPE: 0 fp32, 1 bf16, 2 f16; CMakeLists.txt sets it from
 * -DCONSUMER_DTYPE=f32|bf16|f16): the selector's names, the tolerance, and
 * moving host floats to and from device buffers of the type.
 *
 * A half export's selector is convtune_F_bf16 (convtune_F_f16) and takes
 * void pointers to elements of the type. The consumer draws its inputs as
 * floats, rounds them to the type (round to nearest even, as convtune and
 * __float2bfloat16_rn / __float2half_rn do), uploads their bits and gives
 * the fp64 reference the rounded values, so what remains is the kernel's
 * own rounding of each output: convtune's bound for the type is twice its
 * unit roundoff (docs/PROBLEMS.md "Half precision"). */
#ifndef CONSUMER_DTYPE_H
#define CONSUMER_DTYPE_H

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef CONSUMER_DTYPE
#define CONSUMER_DTYPE 0
#endif

#if CONSUMER_DTYPE == 0
#define SEL(f) convtune_##f
#define SELX(f, x) convtune_##f##_##x
#define SELM(F, x) CONVTUNE_##F##_##x
#define TOLERANCE 1e-5
#define TYPE_NAME "f32"
#define TYPE_SUFFIX ""
#elif CONSUMER_DTYPE == 1
#define SEL(f) convtune_##f##_bf16
#define SELX(f, x) convtune_##f##_bf16_##x
#define SELM(F, x) CONVTUNE_##F##_BF16_##x
#define TOLERANCE 7.8125e-3   /* 2^-7 */
#define TYPE_NAME "bf16"
#define TYPE_SUFFIX ":bf16"
#elif CONSUMER_DTYPE == 2
#define SEL(f) convtune_##f##_f16
#define SELX(f, x) convtune_##f##_f16_##x
#define SELM(F, x) CONVTUNE_##F##_F16_##x
#define TOLERANCE 9.765625e-4   /* 2^-10 */
#define TYPE_NAME "f16"
#define TYPE_SUFFIX ":f16"
#else
#error "CONSUMER_DTYPE must be 0 (f32), 1 (bf16) or 2 (f16)"
#endif

/* Bytes of one element. */
#define ELEM_SIZE ((size_t)(CONSUMER_DTYPE ? 2 : 4))

static inline uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* f (finite) to the type's bits, round to nearest even. */
static inline uint16_t to_half_bits(float f)
{
    const uint32_t u = f32_bits(f);
#if CONSUMER_DTYPE == 1
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
#else
    const uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    const float a = fabsf(f);
    if (a >= 65520.0f)                  /* rounds past the largest, 65504 */
        return sign | 0x7C00u;
    if (a < 6.103515625e-05f)           /* subnormal: a multiple of 2^-24 (nearbyint: to even) */
        return sign | (uint16_t)nearbyintf(a * 16777216.0f);
    const uint32_t mant = u & 0x7FFFFFu, rem = mant & 0x1FFFu;
    uint32_t h = ((((u >> 23) & 0xFFu) - 127u + 15u) << 10) | (mant >> 13);
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        h++;                            /* a carry into the exponent is right */
    return sign | (uint16_t)h;
#endif
}

static inline float from_half_bits(uint16_t h)
{
#if CONSUMER_DTYPE == 1
    return bits_f32((uint32_t)h << 16);
#else
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    if (e == 0)
        return sign ? -ldexpf((float)m, -24) : ldexpf((float)m, -24);
    if (e == 31)
        return bits_f32(sign | 0x7F800000u | (m << 13));
    return bits_f32(sign | ((e - 15u + 127u) << 23) | (m << 13));
#endif
}

/* The value of the type nearest to f (f itself for fp32). */
static inline float round_to_type(float f)
{
#if CONSUMER_DTYPE == 0
    return f;
#else
    return from_half_bits(to_half_bits(f));
#endif
}

/* n values of host (already of the type) into the device buffer dev. */
static inline cudaError_t upload(void *dev, const float *host, size_t n)
{
#if CONSUMER_DTYPE == 0
    return cudaMemcpy(dev, host, n * sizeof *host, cudaMemcpyHostToDevice);
#else
    uint16_t *bits = malloc(n * sizeof *bits + 1);
    if (!bits)
        return cudaErrorMemoryAllocation;
    for (size_t i = 0; i < n; i++)
        bits[i] = to_half_bits(host[i]);
    const cudaError_t err = cudaMemcpy(dev, bits, n * sizeof *bits, cudaMemcpyHostToDevice);
    free(bits);
    return err;
#endif
}

/* n elements of the device buffer dev into host, as floats. */
static inline cudaError_t download(float *host, const void *dev, size_t n)
{
#if CONSUMER_DTYPE == 0
    return cudaMemcpy(host, dev, n * sizeof *host, cudaMemcpyDeviceToHost);
#else
    uint16_t *bits = malloc(n * sizeof *bits + 1);
    if (!bits)
        return cudaErrorMemoryAllocation;
    cudaError_t err = cudaMemcpy(bits, dev, n * sizeof *bits, cudaMemcpyDeviceToHost);
    for (size_t i = 0; err == cudaSuccess && i < n; i++)
        host[i] = from_half_bits(bits[i]);
    free(bits);
    return err;
#endif
}

#endif
