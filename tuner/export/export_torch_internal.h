/* export_torch_internal.h - what the single-problem module (export_torch.c)
 * shares with the family module and its PyTorch ops (export_torch_family.c).
 * Not a public interface. */
#ifndef CT_EXPORT_TORCH_INTERNAL_H
#define CT_EXPORT_TORCH_INTERNAL_H

#include <stdio.h>

#include "escape.h"
#include "export_torch.h"
#include "problem.h"
#include "selector.h"

/* Text for the inside of a Python string or docstring (escape.h): every
 * string the module prints that convtune did not write itself, so that a
 * device name from an imported record cannot end the docstring and add
 * code run on import. The buffer lives until the end of the statement. */
#define PY(s) ct_esc_py_string((s), (char[CT_PY_TEXT_MAX]){0}, CT_PY_TEXT_MAX)
#define CT_PY_TEXT_MAX 1200

/* What one module needs to know: its files, symbol and arguments. */
typedef struct ct_torch_mod {
    char name[200];            /* module and base file name */
    char cu[240], h[240], binding[260];
    char sym[220];             /* the C launcher it calls */
    const char *link;          /* "-lcufft" or "" */
    const ct_result *rec;      /* single export */
    const ct_tuned_set *set;   /* family export: the forward selector's set */
    /* family export: sets[0] = set, then the passes' (NULL where none is
     * tuned), named by the variant field's choices; their .cu files */
    const ct_tuned_set *sets[CT_TORCH_MAX_SETS];
    const char *set_names[CT_TORCH_MAX_SETS];
    int nsets;
    char set_cu[CT_TORCH_MAX_SETS][240];
    ct_problem p;              /* single export: the problem */
    ct_buffer bufs[CT_MAX_BUFS];
    int nb;
    char shape[CT_MAX_BUFS][96];
} ct_torch_mod;

/* The Python argument name of a buffer ("in" is a keyword). */
const char *ct_torch_arg_name(const char *buffer);

/* The family module's text (fp32 spelling: the caller retypes a half one). */
void ct_torch_family_py(FILE *f, const ct_torch_mod *m);

#endif
