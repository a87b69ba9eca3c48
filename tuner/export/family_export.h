/* family_export.h - what a family declares so that `convtune export --family
 * F` can write its selector (export_family.c), `query --nearest` can rank as
 * that selector does (selector.c), and `--torch` can wrap it
 * (export_torch.c). The export code knows nothing else of a family.
 *
 * The selector of a family export is
 *
 *   int convtune_F(BUFFERS..., ARGS..., cudaStream_t stream, int *grade)
 *
 * with the family's buffers as device pointers (inputs `const float *`, the
 * output `float *`) and its arguments: sizes as `long long`, keys as `int`;
 * an argument of kind CT_SEL_BUFFER is no parameter of its own but whether
 * the buffer of its name was given (not NULL). args[i] is field i of the
 * family's field table, in the same order, so a problem is the row of its
 * field values (p->dims); two problems compare when every key and buffer argument
 * is equal, at the distance sqrt(sum over the sizes of (ln a - ln b)^2).
 *
 * The generic kernel is templates/F/GENERIC.cu (found by name like every
 * template). Its kernels take the sizes at run time; behind
 * `#if !defined(__CUDACC_RTC__)` it defines two host functions the selector
 * calls, with the selector's buffers and its size and key arguments (not the
 * CT_SEL_BUFFER ones) in order:
 *
 *   static int GENERIC_accepts(ARGS...)
 *       1 when the values are a problem of the family (its grammar's rules),
 *       else 0: the selector then returns cudaErrorInvalidValue;
 *   static int GENERIC_launch(BUFFERS..., ARGS..., unsigned block, cudaStream_t stream)
 *       launches with block threads per block (a multiple of 32 up to 1024)
 *       and returns a cudaError_t.
 *
 * and, where the family sets `canonical`, a third:
 *
 *   static void GENERIC_canonical(ARGS *...)
 *       rewrites, through pointers to the same arguments, a spelling of a
 *       problem into the one the family's parse gives it (conv2dc: `pad`
 *       with the padding of `same`, stride 1 and odd extents is `same`;
 *       `pad=0,0` is `valid`; a dilation of one tap is 1). The selector's
 *       pick applies it to a request before comparing it with the tuned
 *       table, whose rows are canonical, so every spelling of a tuned layer
 *       finds it, and `query --nearest`, which parses its SPEC, ranks alike.
 *
 * Variants. A field after the arguments may give a problem other buffers
 * and another computation (a layer's training pass: the input gradient from
 * dout and the weights, the weight gradient from in and dout): one selector
 * cannot serve its values together. The family's export then names that
 * field (`variant`, "pass") and lists one ct_family_export per value
 * (`variants`, indexed by the value; NULL where a value has no selector).
 * variants[0] is the family's own export, whose selector keeps its names
 * (convtune_F); the selector of value v is named after the value's choice
 * name (convtune_F_dgrad, convtune_F_dgrad_bf16: ct_tuned_name) and holds
 * the winners of the problems whose field holds v and nothing else
 * (ct_tuned_load), with its own generic template, buffers and arguments.
 * Each variant's args are still the fields in field order (nargs as the
 * family's own); a field that is no argument of that variant (dgrad's
 * bias: a bias changes no input gradient) is of kind CT_SEL_FIXED, holds 0
 * in every problem of it, and is no parameter of the selector nor of its
 * GENERIC_accepts, GENERIC_launch and GENERIC_canonical.
 * `export --family F --pass V` (and `query --nearest` of a SPEC with that
 * field) chooses the variant; the variants' own values of `variant`,
 * `variants` and `nvariants` are not read. */
#ifndef CT_FAMILY_EXPORT_H
#define CT_FAMILY_EXPORT_H

#include "problem.h"

typedef enum ct_sel_kind {
    CT_SEL_SIZE = 0,   /* a positive extent: enters the log-size distance */
    CT_SEL_KEY,        /* any other integer (a mode, a pad): must be equal */
    CT_SEL_BUFFER,     /* whether the optional buffer of this name is given (a bias): must be equal */
    CT_SEL_FIXED       /* no argument of this selector: the field is 0 in every problem it holds (variants) */
} ct_sel_kind;

typedef struct ct_sel_arg {
    const char *name;              /* the C argument, and the Python keyword of a key: "n", "mode", "pad" */
    ct_sel_kind kind;
    const char *help;              /* "input length", for the header's comments */
    const char *const *choices;    /* a key's value names in value order (mode): an enum in the header */
    int nchoices;
    long long dflt;                /* a key without choices: its default in the PyTorch module (stride 1) */
} ct_sel_arg;

typedef struct ct_family_export {
    const char *generic;           /* template name of the generic kernel ("conv1d_generic") */
    const char *const *buffers;    /* the selector's buffers: inputs in kernel order, the output last, */
    int nbuffers;                  /* named as the family's buffers() names them */
    const ct_sel_arg *args;        /* one per field of the family, in field order, */
    int nargs;                     /* up to the variant field or the element type: an export holds one type */
    /* The PyTorch module: the shape of each input buffer as comma-separated
     * argument names ("cout,cin,k"), and the output's as a Python
     * expression of the arguments ("(b, cout, l + 2 * pad - k + 1)");
     * NULL: this selector has no PyTorch module (`--torch` refuses it). */
    const char *const *shapes;
    const char *out_shape;
    /* NULL, or a key with choices whose value picks one of the
     * '|'-separated alternatives of a shape ("b,cin,l|b,l,cin" by layout). */
    const char *shape_key;
    /* 1 when the generic kernel defines GENERIC_canonical (above): several
     * argument values spell one problem. */
    int canonical;
    /* NULL, or what this selector computes where its name alone does not
     * say (a variant's), one line for the export's comments. */
    const char *summary;
    /* NULL, or the field whose value picks a variant (above), and the
     * variants' exports indexed by its value. */
    const char *variant;
    const struct ct_family_export *const *variants;
    int nvariants;
} ct_family_export;

/* The export of f's variant v (0: f's own export); NULL when f has none
 * for v. */
static inline const ct_family_export *ct_family_export_variant(const ct_family *f, long long v)
{
    const ct_family_export *fx = f ? f->family_export : NULL;
    if (!fx || v == 0)
        return fx;
    return fx->variant && v > 0 && v < fx->nvariants ? fx->variants[v] : NULL;
}

#define CT_SEL_MAX_ARGS 20

#endif
