/* problem.h - problem families and parsed problems.
 *
 * A family (conv1d, conv2dc, ...) is one folder of C code that fills a
 * ct_family: the fields of its problems, how to parse its problem string, its
 * canonical name, its FLOP and byte counts, its buffers, its CPU fp64
 * reference, its templates and their parameters, launch geometry and
 * constraints. Every other stage (space, compile, runner, storage, export)
 * talks to a family only through this interface, so adding a family touches
 * no other module except the registry (tuner/families/families.def).
 *
 * A problem is its family plus one value per field of the family's field
 * table. Generic code reads the values only through the table's kinds (the
 * distance, ordering and equality below); a family reads its own through the
 * enum of field indices it declares with the table. */
#ifndef CT_PROBLEM_H
#define CT_PROBLEM_H

#include <stddef.h>
#include "params.h"
#include "status.h"
#include "tmap.h"

/* A problem string has at most CT_PROBLEM_SPEC_MAX - 1 characters. */
#define CT_PROBLEM_SPEC_MAX 256
#define CT_MAX_FIELDS 20
#define CT_MAX_BUFS 6
#define CT_MAX_DEFINES 32   /* a family's defines() writes at most this many */

struct ct_family;
struct ct_executor;
struct ct_kernel_kind;
struct ct_family_export;

/* What a field's value means to generic code. */
typedef enum ct_field_kind {
    CT_FIELD_SIZE = 0,   /* a positive extent (N, Cin, H, KW): enters the log-size distance */
    CT_FIELD_INT,        /* any other integer (pad): problems compare only when it is equal */
    CT_FIELD_FLAG,       /* 0 or 1 (bias) */
    CT_FIELD_CHOICE      /* one of choices[] (mode), held as its index */
} ct_field_kind;

/* One field of a family's problems, declared once in the family's table. */
typedef struct ct_field {
    const char *name;              /* "N", "pad", "bias", "mode" */
    ct_field_kind kind;
    const char *help;              /* "input length"; for a choice, what each choice means */
    const char *const *choices;    /* CT_FIELD_CHOICE: the names, in value order */
    int nchoices;
} ct_field;

/* The element type of a problem's buffers (inputs, weights, bias, output);
 * kernels accumulate in fp32 whatever it is. Every family declares it as its
 * last field, named "dtype", with CT_DTYPE_FIELD (f32, bf16, f16) or, for
 * the layer families with tensor-core kernels, CT_DTYPE_FIELD_TF32 (tf32
 * too); a problem string writes it as the last token (":bf16", ":f16",
 * ":tf32"), and fp32, the default, not at all, so the canonical strings of
 * fp32 problems are those of before. tf32 is no storage type: its buffers
 * are fp32 (4 bytes, the buffers of an fp32 problem), and kernels may round
 * the operands of their products to TF32 (10 stored mantissa bits); it is
 * verified against a looser tolerance (ct_dtype_tolerance) and never chosen
 * for a problem that did not name it. */
typedef enum ct_dtype { CT_DTYPE_F32 = 0, CT_DTYPE_BF16 = 1, CT_DTYPE_F16 = 2, CT_DTYPE_TF32 = 3 } ct_dtype;
#define CT_NDTYPES 4

extern const char *const ct_dtype_names[CT_NDTYPES];   /* "f32", "bf16", "f16", "tf32" */
#define CT_DTYPE_FIELD                                                                                 \
    {"dtype", CT_FIELD_CHOICE,                                                                         \
     "element type of inputs, weights, bias and output: f32 (default), bf16 or f16; sums are fp32", \
     ct_dtype_names, 3}
#define CT_DTYPE_FIELD_TF32                                                                            \
    {"dtype", CT_FIELD_CHOICE,                                                                         \
     "element type of inputs, weights, bias and output: f32 (default), bf16 or f16; tf32: fp32 "    \
     "tensors, products of operands rounded to TF32 (tolerance 2^-10); sums are fp32",               \
     ct_dtype_names, 4}

typedef struct ct_problem {
    const struct ct_family *family;
    /* dims[i] is the value of family->fields[i]: families index it with the
     * enum they declare with their field table, generic code through the
     * table only. */
    long long dims[CT_MAX_FIELDS];
    char canonical[160];           /* database key, e.g. "conv1d:1000000:2047:valid" */
} ct_problem;

/* One device buffer the kernels take, in kernel-argument order. Inputs come
 * first; exactly one buffer is the output. A non-NULL symbol names a
 * __constant__ array that a template may declare to receive a copy of this
 * input (the runner fills it when the module has the symbol). */
typedef struct ct_buffer {
    const char *name;
    size_t count;          /* elements of float (the output of a reference: double) */
    int is_output;
    const char *symbol;
} ct_buffer;

typedef struct ct_launch {
    unsigned grid[3];
    unsigned block[3];
    unsigned smem_bytes;   /* dynamic shared memory */
} ct_launch;

/* What the device offers, read once through the Driver API (or assumed for an
 * offline `convtune compile`). Constraints are checked against it. */
typedef struct ct_limits {
    int cc_major, cc_minor;
    int sm_count;
    int max_threads_per_block;
    int max_smem_per_block;        /* with opt-in, bytes */
    int max_smem_per_sm;
    int regs_per_sm;
    int const_bytes;               /* constant memory for __constant__ arrays */
} ct_limits;

typedef struct ct_template {
    const char *name;              /* "conv1d_naive": file templates/NAME.cu, kernel NAME */
    const char *summary;
    int is_baseline;               /* the naive kernel speedups are reported against */
    const ct_param_def *params;
    int nparams;
    /* NULL: one kernel named like the template, launched with the family's
     * geometry. Otherwise the executor runs the candidate (executor.h). */
    const struct ct_executor *exec;
    /* The element types it computes in, as bits 1u << ct_dtype; 0 means
     * fp32 only. The space leaves out a template without the problem's
     * type (ct_template_refuses_dtype) before the family's constrain. */
    unsigned dtypes;
    /* The kernel kind it is (its hooks and properties), declared by the
     * family code that implements it; generic code never looks inside. */
    const struct ct_kernel_kind *kind;
    /* NULL: its code is templates/NAME.cu. Otherwise the template whose file
     * holds its code too: the half-type entry of a kernel folded into one
     * source for every element type (conv1d_tiledh's code is the CT_DTYPE
     * branch of conv1d_tiled.cu). Its own name stays the kernel's name,
     * its results' key and a candidate of its own in the space. */
    const char *source;
    /* The kernel folder (templates/kernels/NAME/) a family's CT_KERNEL line
     * made it from, NULL for a family's own template: the [kernel.NAME]
     * value lists of the configs apply to it. */
    const char *kernel;
} ct_template;

/* Every element type: the naive template of every family has it, so some
 * template always remains. */
#define CT_DTYPES_ALL ((1u << CT_DTYPE_F32) | (1u << CT_DTYPE_BF16) | (1u << CT_DTYPE_F16) | (1u << CT_DTYPE_TF32))
/* The half types alone: templates whose fp32 counterpart is another one. */
#define CT_DTYPES_HALF ((1u << CT_DTYPE_BF16) | (1u << CT_DTYPE_F16))

typedef struct ct_define {
    const char *name;
    long long value;
} ct_define;

typedef struct ct_family {
    const char *name;              /* "conv1d" */
    const char *grammar;           /* "conv1d:N:K[:valid|same|right]" */
    const char *summary;

    /* The problem's fields: p->dims[i] holds fields[i]. */
    const ct_field *fields;
    int nfields;
    /* Optional: distance for the nearest-size lookup of two problems of
     * this family, -1 when not comparable. NULL: ct_problem_distance's
     * default. */
    double (*distance)(const ct_problem *a, const ct_problem *b);

    /* fields: the text after "NAME:". Fill p->dims (p->family is set). */
    ct_status (*parse)(const char *fields, ct_problem *p, ct_err *e);
    /* Canonical text form (the database key) into buf. */
    void (*canonical)(const ct_problem *p, char *buf, size_t len);
    double (*flops)(const ct_problem *p);      /* 2 per multiply-add */
    double (*bytes)(const ct_problem *p);      /* each input read once, output written once */
    /* Fill bufs (at most CT_MAX_BUFS) and return how many. */
    int (*buffers)(const ct_problem *p, ct_buffer *bufs);
    /* Problem-size macros handed to every template (CONV_N, ...); returns count. */
    int (*defines)(const ct_problem *p, ct_define *defs);
    /* fp64 reference on the CPU: in[i] for each input buffer, out has output count. */
    void (*reference)(const ct_problem *p, const float *const *in, double *out);

    const ct_template *templates;
    int ntemplates;

    /* Constraint check beyond what the space lists: returns 0 when the
     * candidate is admissible, else writes the reason into why. */
    int (*constrain)(const ct_problem *p, const ct_template *t, const ct_params *c,
                     const ct_limits *lim, char *why, size_t len);
    /* Optional: rewrite parameters that cannot matter for this problem to one
     * canonical value (a tap chunk longer than the mask, say), so the space
     * holds no two candidates that compile to the same kernel. */
    void (*normalize)(const ct_problem *p, const ct_template *t, ct_params *c);
    /* Launch geometry of template t with parameters c. */
    void (*geometry)(const ct_problem *p, const ct_template *t, const ct_params *c,
                     ct_launch *out);
    /* Optional: the TMA tensor maps template t takes after the buffers
     * (at most CT_MAX_TMAPS, into out); returns how many, 0 for none. The
     * runner encodes them from the device pointers at launch (tmap.h). */
    int (*tensor_maps)(const ct_problem *p, const ct_template *t, const ct_params *c, ct_tmap_desc *out);
    /* Optional: a kernel that template t's executor runs before the main
     * one on every call, writing a workspace that the main kernel reads (a
     * transformed copy of the weights): returns the workspace's bytes, 0
     * when candidate c has none, and sets its launch in l. */
    long long (*prep)(const ct_problem *p, const ct_template *t, const ct_params *c, ct_launch *l);
    /* C source of the CPU reference, used by exported self-tests. It defines
     * `static void ct_reference(const float *const *in, double *out)` using
     * the problem macros. */
    const char *reference_c;
    /* Optional: the reference source of p where it is not reference_c (a
     * layer's training pass); ct_problem_reference_c picks. */
    const char *(*reference_c_for)(const ct_problem *p);
    /* What `export --family` needs: the selector's arguments and the
     * generic kernel (family_export.h). */
    const struct ct_family_export *family_export;
} ct_family;

/* Parse "family:fields" into p, naming the bad field on failure. The
 * element type token, the last one, is taken here for every family that has
 * a "dtype" field; the family's parse sees the text before it. */
ct_status ct_problem_parse(const char *spec, ct_problem *p, ct_err *e);

/* Distance for the nearest-size lookup (the selector, tune's starting
 * points): the family's own when it declares one, otherwise the log-size
 * distance sqrt(sum over the size fields of (ln a - ln b)^2), and -1 (not
 * comparable) for another family or when any field that is not a size
 * differs. */
double ct_problem_distance(const ct_problem *a, const ct_problem *b);

/* The log-size distance over the size fields alone, whatever the other
 * fields hold; -1 for problems of different families. */
double ct_problem_size_distance(const ct_problem *a, const ct_problem *b);

/* Same family and the same value in every field. */
int ct_problem_equal(const ct_problem *a, const ct_problem *b);

/* A total order of parsed problems: by family name, then the fields that
 * are not sizes, in table order, then the sizes in table order, each
 * ascending (conv1d: mode, N, K). <0, 0, >0 like strcmp. */
int ct_problem_compare(const ct_problem *a, const ct_problem *b);

/* The C source of p's CPU reference for exported self-tests. */
const char *ct_problem_reference_c(const ct_problem *p);

/* Index of the field named name in f's table, -1 when there is none. */
int ct_field_find(const ct_family *f, const char *name);

/* The value of p's field named name (a choice: its index); -1 when p's
 * family has no such field (no field holds a negative value). For code
 * outside the family; the family itself indexes p->dims with its enum. */
long long ct_problem_value(const ct_problem *p, const char *name);

/* Index of word among a choice field's names, -1 when it is none of them. */
int ct_field_choice(const ct_field *fd, const char *word);

/* ct_parse_size for a size field, named in messages as "NAME (help)". */
ct_status ct_parse_field_size(const ct_field *fd, const char *text, long long max, long long *out, ct_err *e);

/* All registered families, NULL-terminated. */
const ct_family *const *ct_families(void);
const ct_family *ct_family_find(const char *name);
const ct_template *ct_template_find(const ct_family *f, const char *name);

size_t ct_problem_output_count(const ct_problem *p);

/* The problem's element type: its "dtype" field, fp32 when the family has
 * none. */
ct_dtype ct_problem_dtype(const ct_problem *p);
/* Bytes of one element: 4 (f32, tf32) or 2. */
size_t ct_dtype_size(ct_dtype t);
const char *ct_dtype_name(ct_dtype t);
/* The type of the elements in memory: f32 for tf32, t itself otherwise.
 * Code that moves, fills or declares buffers asks this, never t. */
ct_dtype ct_dtype_storage(ct_dtype t);
/* 1 for the 2-byte types bf16 and f16. */
int ct_dtype_is_half(ct_dtype t);

/* The family's problem macros, then CT_DTYPE (the ct_dtype value) for a
 * bf16 or f16 problem and CT_TF32 1 for a tf32 one: neither for fp32
 * problems, so their compile cache keys and exports are those of before;
 * templates/common/ct_dtype.cuh defaults both to 0. A tf32 problem's
 * storage is fp32, so it leaves CT_DTYPE unset: every fp32 template
 * compiles for it unchanged, and the ones that may round to TF32 read
 * CT_TF32 (a compile-time switch). Returns the count (at most
 * CT_MAX_DEFINES). Every stage takes the macros from here, never from the
 * family's defines(). */
int ct_problem_defines(const ct_problem *p, ct_define *defs);

/* 1 with the reason in why when template t lacks the problem's element
 * type ("conv1d_tiled computes in fp32 only"), else 0. A template that
 * computes fp32 also serves tf32 (exactly, more accurately than asked). */
int ct_template_refuses_dtype(const ct_problem *p, const ct_template *t, char *why, size_t len);

/* Split the text after "family:" at ':' into at most max fields: a copy
 * goes into buf (len bytes), f[i] point into it. Returns the count, or -1
 * with a message when the text is too long or has more than max fields. */
int ct_split_fields(const char *fields, char *buf, size_t len, char **f, int max, ct_err *e);

/* Strict size parser shared by families: a positive integer written plainly
 * ("1000000") or in exact scientific notation ("1e6", "2.5e3"); rejects zero,
 * negatives, fractions ("1.5e0"), overflow past max and junk. field names the
 * field in the message. */
ct_status ct_parse_size(const char *text, const char *field, long long max,
                        long long *out, ct_err *e);

/* Whether about regs registers per thread leave room for min_blocks
 * resident blocks of threads threads (ptxas allocates registers per warp in
 * multiples of 8, at most 255 a thread; an SM holds 2048 threads). Returns 1
 * and writes the reason into why when they do not. */
int ct_regs_exceed(const ct_limits *lim, long long regs, long long threads, long min_blocks, char *why,
                   size_t len);

#endif
