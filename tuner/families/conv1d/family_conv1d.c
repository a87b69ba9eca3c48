/* family_conv1d.c - 1D cross-correlation of one signal with one mask.
 *
 *   out[i] = sum_{j<K} x[i + j - OFF] * mask[j],  x = 0 outside [0, N)
 *
 * Modes: valid (OFF = 0, N-K+1 outputs, the seeds' definition), same
 * (OFF = (K-1)/2, N outputs, as PyTorch's padding='same'), right (OFF = 0,
 * N outputs, zeros past the end of the input: the GPU-puzzles convention of
 * seed 001). */
#include "problem.h"
#include "family_export.h"

#include "ct_kernels.h"
#include "conv1d_tiled_sizes.cuh"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CT_FAMILY_CODE

enum { MODE_VALID = 0, MODE_SAME = 1, MODE_RIGHT = 2 };
static const char *const mode_names[] = {"valid", "same", "right"};

enum { DIM_N, DIM_K, DIM_MODE, DIM_DTYPE, NFIELDS };
static const ct_field fields[NFIELDS] = {
    [DIM_N] = {"N", CT_FIELD_SIZE, "input length"},
    [DIM_K] = {"K", CT_FIELD_SIZE, "mask taps"},
    [DIM_MODE] = {"mode", CT_FIELD_CHOICE,
                  "valid: N-K+1 outputs (default); same: N outputs, centred zero padding; "
                  "right: N outputs, zeros past the end of the input (GPU puzzles)",
                  mode_names, 3},
    [DIM_DTYPE] = CT_DTYPE_FIELD,
};

/* Sizes past 2^31 elements would need 64-bit indexing in every template and
 * more memory than a GPU has; 2e9 keeps all int arithmetic in kernels safe. */
#define MAX_LEN 2000000000LL

static long long offset_of(const ct_problem *p)
{
    return p->dims[DIM_MODE] == MODE_SAME ? (p->dims[DIM_K] - 1) / 2 : 0;
}

static long long outputs_of(const ct_problem *p)
{
    return p->dims[DIM_MODE] == MODE_VALID ? p->dims[DIM_N] - p->dims[DIM_K] + 1 : p->dims[DIM_N];
}

static ct_status parse(const char *text, ct_problem *p, ct_err *e)
{
    char buf[128], *f[3];
    int n = ct_split_fields(text, buf, sizeof buf, f, 3, e);
    if (n < 0)
        return CT_ERR_USAGE;
    if (n < 2)
        return ct_fail(e, CT_ERR_USAGE, "missing field K (mask taps)");
    for (int i = DIM_N; i <= DIM_K; i++) {
        ct_status rc = ct_parse_field_size(&fields[i], f[i], MAX_LEN, &p->dims[i], e);
        if (rc != CT_OK)
            return rc;
    }
    p->dims[DIM_MODE] = MODE_VALID;
    if (n == 3) {
        int m = ct_field_choice(&fields[DIM_MODE], f[2]);
        if (strcmp(f[2], "puzzle") == 0)   /* seed 001's own word for it */
            m = MODE_RIGHT;
        if (m < 0)
            return ct_fail(e, CT_ERR_USAGE, "MODE must be valid, same or right, got '%s'", f[2]);
        p->dims[DIM_MODE] = m;
    }
    if (p->dims[DIM_MODE] == MODE_VALID && p->dims[DIM_K] > p->dims[DIM_N])
        return ct_fail(e, CT_ERR_USAGE,
                       "K (mask taps) = %lld is longer than N (input length) = %lld in valid mode",
                       p->dims[DIM_K], p->dims[DIM_N]);
    return CT_OK;
}

static void canonical(const ct_problem *p, char *buf, size_t len)
{
    snprintf(buf, len, "conv1d:%lld:%lld:%s", p->dims[DIM_N], p->dims[DIM_K], mode_names[p->dims[DIM_MODE]]);
}

static double flops(const ct_problem *p)
{
    /* Taps that fall on padding still cost an FMA in every direct kernel. */
    return 2.0 * (double)outputs_of(p) * (double)p->dims[DIM_K];
}

static double bytes(const ct_problem *p)
{
    const double esz = (double)ct_dtype_size(ct_problem_dtype(p));
    return esz * ((double)p->dims[DIM_N] + (double)p->dims[DIM_K] + (double)outputs_of(p));
}

static int buffers(const ct_problem *p, ct_buffer *b)
{
    b[0] = (ct_buffer){.name = "in", .count = (size_t)p->dims[DIM_N]};
    b[1] = (ct_buffer){.name = "mask", .count = (size_t)p->dims[DIM_K], .symbol = "c_mask"};
    b[2] = (ct_buffer){.name = "out", .count = (size_t)outputs_of(p), .is_output = 1};
    return 3;
}

static int defines(const ct_problem *p, ct_define *d)
{
    d[0] = (ct_define){"CONV_N", p->dims[DIM_N]};
    d[1] = (ct_define){"CONV_K", p->dims[DIM_K]};
    d[2] = (ct_define){"CONV_OUT", outputs_of(p)};
    d[3] = (ct_define){"CONV_OFF", offset_of(p)};
    return 4;
}

static void reference(const ct_problem *p, const float *const *in, double *out)
{
    const long long n = p->dims[DIM_N], k = p->dims[DIM_K], off = offset_of(p);
    const long long nout = outputs_of(p);
    for (long long i = 0; i < nout; i++) {
        double acc = 0.0;
        long long j0 = off - i > 0 ? off - i : 0;
        long long j1 = n + off - i < k ? n + off - i : k;
        for (long long j = j0; j < j1; j++)
            acc += (double)in[0][i + j - off] * (double)in[1][j];
        out[i] = acc;
    }
}

/* The same reference, as C source for exported self-tests. */
static const char reference_c[] =
    "static void ct_reference(const float *const *in, double *out)\n"
    "{\n"
    "    for (long long i = 0; i < CONV_OUT; i++) {\n"
    "        double acc = 0.0;\n"
    "        for (long long j = 0; j < CONV_K; j++) {\n"
    "            long long x = i + j - CONV_OFF;\n"
    "            if (x >= 0 && x < CONV_N)\n"
    "                acc += (double)in[0][x] * (double)in[1][j];\n"
    "        }\n"
    "        out[i] = acc;\n"
    "    }\n"
    "}\n";

static const char *const placement_names[] = {"constant", "shared", "global"};

#define NAIVE_PARAMS(X) X(BLOCK_SIZE, 256, CT_THREADS(32), "threads per block")
CT_PARAM_LIST(naive, NAIVE_PARAMS)

#define TILED_PARAMS(X)                                                                                   \
    X(BLOCK_SIZE, 256, CT_THREADS(32), "threads per block")                                               \
    X(OUTPUTS_PER_THREAD, 1, CT_RANGE(1, 64), "consecutive outputs per thread (register blocking)")       \
    X(MASK_PLACEMENT, 0, CT_SYMBOLS(placement_names), "where the mask is read from")                     \
    X(MASK_PAD, 0, CT_INT(0), "1: pad the mask with zero taps to a multiple of OUTPUTS_PER_THREAD*UNROLL") \
    X(ALIGN, 16, CT_INT(0), "byte alignment of the mask and the staged input")                            \
    X(STAGE_INPUT, 1, CT_INT(0), "1: stage the block's input tile in shared memory")                      \
    X(VEC_WIDTH, 1, CT_INT(0), "inputs and taps per load instruction (1, 2, 4)")                          \
    X(UNROLL, 1, CT_INT(0), "window rotations (OUTPUTS_PER_THREAD taps) per tap-loop iteration")          \
    X(KCHUNK, 1024, CT_INT(0), "taps per shared-memory stage")                                            \
    X(MIN_BLOCKS, 1, CT_INT(0), "minimum resident blocks per SM (__launch_bounds__)")
CT_PARAM_LIST(tiled, TILED_PARAMS)

static const ct_template templates[] = {
    {.name = "conv1d_naive", .summary = "one thread per output, all from global memory (baseline)",
     .is_baseline = 1, .dtypes = CT_DTYPES_ALL, .params = naive_params, .nparams = CT_PARAM_COUNT(NAIVE_PARAMS)},
    {.name = "conv1d_tiled", .summary = "register-blocked sliding window, tiled input, placed mask",
     .params = tiled_params, .nparams = CT_PARAM_COUNT(TILED_PARAMS)},
    CT_KERNEL(conv1d, fft),
    /* The half types' entries of the same kernels, their code the CT_DTYPE
     * branch of the fp32 template's file (one source for every type; docs/PROBLEMS.md
     * "Half precision" says why they keep their names): same parameters
     * and constraints. */
    {.name = "conv1d_tiledh", .summary = "conv1d_tiled for bf16/f16: widened once from memory, fp32 window and sums",
     .dtypes = CT_DTYPES_HALF, .params = tiled_params, .nparams = CT_PARAM_COUNT(TILED_PARAMS),
     .source = "conv1d_tiled"},
    CT_FFTH_ENTRY(conv1d),
};

static long long round_up(long long v, long long m)
{
    return (v + m - 1) / m * m;
}

static int is_pow2(long v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

/* Effective padded mask length, tap chunk and staged input tile of a tiled
 * candidate: KP as conv1d_tiled.cu computes it (its #if MASK_PAD branches),
 * the chunk, its padded length and the tile conv1d_tiled_sizes.cuh's
 * expressions, which the template expands too (here over locals named as
 * its macros). */
typedef struct tiled_sizes {
    long long kp, kch, kch4, tile_in;
} tiled_sizes;

static void tiled_chunking(const ct_problem *p, const tiled_values *q, tiled_sizes *z)
{
    const long long CONV_K = p->dims[DIM_K], KCHUNK = q->KCHUNK;
    const long long KP = q->MASK_PAD ? round_up(CONV_K, q->OUTPUTS_PER_THREAD * q->UNROLL) : CONV_K;
    const long long TILE_OUT = (long long)q->BLOCK_SIZE * q->OUTPUTS_PER_THREAD;
    z->kp = KP;
    z->kch = KCH;
    z->kch4 = KCH4;
    z->tile_in = TILE_IN;
}

static int check_block(long block, const ct_limits *lim, char *why, size_t len)
{
    if (block < 32 || block % 32 != 0 || block > lim->max_threads_per_block) {
        snprintf(why, len, "BLOCK_SIZE=%ld is not a multiple of 32 within the device's %d threads",
                 block, lim->max_threads_per_block);
        return 1;
    }
    return 0;
}

static int constrain(const ct_problem *p, const ct_template *t, const ct_params *c,
                     const ct_limits *lim, char *why, size_t len)
{
    if (t->exec)
        return ct_conv1d_fft_constrain(p, c, lim, why, len);
    if (t->is_baseline)
        return check_block(naive_get(c).BLOCK_SIZE, lim, why, len);
    const tiled_values q = tiled_get(c);
    const long block = q.BLOCK_SIZE;
    if (check_block(block, lim, why, len))
        return 1;
    const long r = q.OUTPUTS_PER_THREAD, vw = q.VEC_WIDTH, placement = q.MASK_PLACEMENT, stage = q.STAGE_INPUT;
    const long align = q.ALIGN, unroll = q.UNROLL, chunk = q.KCHUNK, minb = q.MIN_BLOCKS;
    if (vw != 1 && vw != 2 && vw != 4) {
        snprintf(why, len, "VEC_WIDTH=%ld must be 1, 2 or 4", vw);
        return 1;
    }
    if (r < 1 || r > 64 || r % vw != 0) {
        snprintf(why, len, "OUTPUTS_PER_THREAD=%ld must be in 1..64 and a multiple of VEC_WIDTH=%ld", r, vw);
        return 1;
    }
    if ((long long)r * r * unroll > 4096) {
        snprintf(why, len, "OUTPUTS_PER_THREAD^2 x UNROLL = %ld FMAs per loop iteration would overflow the "
                 "instruction cache", r * r * unroll);
        return 1;
    }
    if (unroll < 1 || unroll > 64 || chunk < 4 || chunk % 4 != 0 || !is_pow2(align) || align < 4 || minb < 1) {
        snprintf(why, len, "UNROLL in 1..64, KCHUNK a positive multiple of 4, ALIGN a power of two >= 4, MIN_BLOCKS >= 1");
        return 1;
    }
    tiled_sizes z;
    tiled_chunking(p, &q, &z);
    const long long kp = z.kp;
    if (placement == 2 && q.MASK_PAD) {
        snprintf(why, len, "MASK_PAD needs a mask copy (constant or shared), not the caller's global buffer");
        return 1;
    }
    if (placement == 0 && round_up(kp, 4) * (long long)ct_dtype_size(ct_problem_dtype(p)) > lim->const_bytes) {
        snprintf(why, len, "mask of %lld taps does not fit in %d bytes of constant memory", kp, lim->const_bytes);
        return 1;
    }
    if (!stage && vw > 1 && offset_of(p) % vw != 0) {
        snprintf(why, len, "unstaged %ld-wide loads need the left padding (%lld) to be a multiple of %ld",
                 vw, offset_of(p), vw);
        return 1;
    }
    long long smem = 0;
    if (stage)
        smem += 4 * z.tile_in;   /* s_in */
    if (placement == 1)
        smem += 4 * z.kch4;      /* s_mask */
    smem += 2 * align;   /* worst-case alignment padding between the arrays */
    if (smem > 48 * 1024 || smem > lim->max_smem_per_block) {
        snprintf(why, len, "%lld bytes of static shared memory exceed the 48 KiB limit", smem);
        return 1;
    }
    if ((long long)minb * block > 2048) {
        snprintf(why, len, "MIN_BLOCKS=%ld x BLOCK_SIZE=%ld exceeds 2048 resident threads per SM", minb, block);
        return 1;
    }
    return 0;
}

static void normalize(const ct_problem *p, const ct_template *t, ct_params *c)
{
    if (t->is_baseline || t->exec)
        return;
    tiled_values q = tiled_get(c);
    tiled_sizes z;
    if (q.MASK_PAD && round_up(p->dims[DIM_K], q.OUTPUTS_PER_THREAD * q.UNROLL) == p->dims[DIM_K])
        q.MASK_PAD = 0;
    tiled_chunking(p, &q, &z);
    /* Without a shared-memory stage the chunking only splits a loop. */
    if (z.kch == z.kp || (!q.STAGE_INPUT && q.MASK_PLACEMENT != 1))
        q.KCHUNK = (long)round_up(z.kp, 4);
    if (!q.STAGE_INPUT && q.MASK_PLACEMENT == 2)
        q.ALIGN = 16;
    tiled_put(c, &q);
}

static void geometry(const ct_problem *p, const ct_template *t, const ct_params *c, ct_launch *l)
{
    long block, per_block;
    if (t->exec) {   /* the FFT: the launch of its scatter kernel, one output per thread */
        block = per_block = conv1d_fft_get(c).BLOCK_SIZE;
    } else if (t->is_baseline) {
        block = per_block = naive_get(c).BLOCK_SIZE;
    } else {
        const tiled_values q = tiled_get(c);
        block = q.BLOCK_SIZE;
        per_block = block * q.OUTPUTS_PER_THREAD;
    }
    long long nout = outputs_of(p);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)((nout + per_block - 1) / per_block);
    l->grid[1] = l->grid[2] = 1;
    l->block[0] = (unsigned)block;
    l->block[1] = l->block[2] = 1;
}

/* The selector of `export --family conv1d` and its generic kernel. */
static const char *const sel_buffers[] = {"in", "mask", "out"};
static const ct_sel_arg sel_args[] = {
    {.name = "n", .kind = CT_SEL_SIZE, .help = "input length"},
    {.name = "k", .kind = CT_SEL_SIZE, .help = "mask taps"},
    {.name = "mode", .kind = CT_SEL_KEY, .help = "valid, same or right", .choices = mode_names, .nchoices = 3},
};
static const char *const sel_shapes[] = {"n", "k"};

/* The selector's arguments are the fields, in field order (family_export.h). */
_Static_assert(sizeof sel_args / sizeof sel_args[0] == DIM_DTYPE, "one selector argument per field but the last");

static const ct_family_export family_export = {
    .generic = "conv1d_generic",
    .buffers = sel_buffers,
    .nbuffers = 3,
    .args = sel_args,
    .nargs = DIM_DTYPE,   /* the element type is no argument: a family export holds one */
    .shapes = sel_shapes,
    .out_shape = "(n - k + 1,) if mode == 0 else (n,)",
};

const ct_family ct_family_conv1d = {
    .name = "conv1d",
    .grammar = "conv1d:N:K[:valid|same|right][:bf16|f16]",
    .summary = "1D cross-correlation of one signal (N samples) with one mask (K taps)",
    .fields = fields,
    .nfields = NFIELDS,
    .parse = parse,
    .canonical = canonical,
    .flops = flops,
    .bytes = bytes,
    .buffers = buffers,
    .defines = defines,
    .reference = reference,
    .normalize = normalize,
    .templates = templates,
    .ntemplates = (int)(sizeof templates / sizeof templates[0]),
    .constrain = constrain,
    .geometry = geometry,
    .reference_c = reference_c,
    .family_export = &family_export,
};
