/* params.h - a candidate's tuning parameters: an ordered list of NAME=value.
 *
 * A parameter's NAME is the one spelling used everywhere: the -D macro handed
 * to NVRTC, the INI key, the JSON key in the database and the #define in an
 * exported file. Values are integers; a parameter may declare symbolic names
 * for its values (MASK_PLACEMENT = constant|shared|global), which the INI and
 * the printed forms use while the macro receives the integer. */
#ifndef CT_PARAMS_H
#define CT_PARAMS_H

#include <limits.h>
#include <stddef.h>
#include "status.h"

#define CT_MAX_PARAMS 16
#define CT_MAX_VALUES 32

/* Declaration of one tunable parameter by a template (compiled into the
 * family's C code, written once as a row of a CT_PARAM_LIST below); the list
 * of values to try comes from configs/FAMILY.ini. */
typedef struct ct_param_def {
    const char *name;              /* macro / INI / JSON name               */
    const char *help;              /* one line, printed by `convtune space` */
    const char *const *symbols;    /* symbols[v] names value v, or NULL     */
    int nsymbols;
    long min;                      /* smallest numeric value (default 0: a
                                    * negative value is never a parameter) */
    long max;                      /* largest numeric value, where the
                                    * template's constraint has one; 0:
                                    * INT_MAX (each is a macro in the
                                    * kernel's int code). A value no problem
                                    * admits is refused where it is written,
                                    * not silently filtered out of every
                                    * space */
    long dflt;                     /* the value of a candidate built without
                                    * one (ct_params_defaults), and what a
                                    * faulty read yields (see below)        */
    int added;                     /* 1: added to its template after results
                                    * were stored, its default selecting the
                                    * code they measured: a stored parameter
                                    * object without it reads as the default,
                                    * and at the default it is left out of
                                    * the code hash (codehash.h), so those
                                    * results keep exporting             */
} ct_param_def;

typedef struct ct_params {
    int n;
    const char *names[CT_MAX_PARAMS];   /* point into static ct_param_def */
    long values[CT_MAX_PARAMS];
} ct_params;

/* Value of parameter name, or dflt when the candidate does not have it: a
 * lookup for generic code and tests that handle any template's candidates.
 * Family code reads its own parameters typed (CT_PARAM_LIST), never by name. */
long ct_params_get(const ct_params *p, const char *name, long dflt);

/* Set (add or replace) a parameter. */
ct_status ct_params_set(ct_params *p, const char *name, long value, ct_err *e);

/* Parse one value for def: an integer or one of def's symbols. */
ct_status ct_param_parse_value(const ct_param_def *def, const char *text, long *out, ct_err *e);

/* Text of a value: its symbol when def has one, else the integer. */
const char *ct_param_value_text(const ct_param_def *def, long v, char *buf, size_t len);

/* {"NAME":value,...} in declaration order; symbolic values as strings. */
ct_status ct_params_to_json(const ct_params *p, const ct_param_def *defs, int ndefs,
                            char *buf, size_t len);

/* NAME=value,NAME=value (integers): the compact key used in names and logs. */
ct_status ct_params_to_key(const ct_params *p, char *buf, size_t len);

/* NAME=value,NAME=value with each value spelled as ct_param_value_text
 * does (its symbol where defs give it one: MASK_PLACEMENT=shared): what
 * the command line prints, in the spelling of space, query and export,
 * and what compile --param and --candidate read back. */
ct_status ct_params_to_text(const ct_params *p, const ct_param_def *defs, int ndefs, char *buf, size_t len);

/* Inverse of ct_params_to_json for the parameters in defs: every def must be
 * present (an added one, ct_param_def.added, may be missing: it reads as its
 * default), nothing else may be. */
ct_status ct_params_from_json(const char *json, const ct_param_def *defs, int ndefs,
                              ct_params *out, ct_err *e);

/* ---- Typed parameters ------------------------------------------------------
 *
 * A template's parameters are declared once, as an X-macro list of rows
 *
 *     X(NAME, DEFAULT, KIND, HELP)     KIND: CT_INT(min), CT_RANGE(min, max),
 *                                      CT_THREADS(min), CT_WARPS(min) or
 *                                      CT_SYMBOLS(names)
 *
 *   #define TILED_PARAMS(X)                                          \
 *       X(BLOCK_SIZE, 256, CT_INT(32), "threads per block")          \
 *       X(PLACEMENT, 0, CT_SYMBOLS(placement_names), "where ...")
 *   CT_PARAM_LIST(tiled, TILED_PARAMS)
 *
 * which defines the template's table `tiled_params` (for its ct_template)
 * and `tiled_values`, a union whose members are the parameters by name
 * (q.BLOCK_SIZE) and in declaration order (q.v[i]); tiled_get(c) reads a
 * candidate into one and tiled_put(c, &q) writes one back. A misspelt name
 * does not compile, and a template's code cannot read a parameter its list
 * lacks. What remains is reading the list of the wrong template, say a
 * tiled list from a naive candidate: that is a fault (below). */
#define CT_INT(lo) .min = (lo)
/* An integer parameter added to a template that already had results
 * (ct_param_def.added). */
#define CT_ADDED_INT(lo) .min = (lo), .added = 1
#define CT_RANGE(lo, hi) .min = (lo), .max = (hi)
/* Threads of a block (along one of its dimensions, or in all) and warps of a
 * block: bounded by CUDA's 1024 threads per block on every architecture, so
 * an imported or configured value past that is refused, never exported. */
#define CT_THREADS(lo) .min = (lo), .max = 1024
#define CT_WARPS(lo) .min = (lo), .max = 32
#define CT_SYMBOLS(names) .symbols = (names), .nsymbols = (int)(sizeof(names) / sizeof((names)[0]))
#define CT_PARAM_DEF(NAME, DFLT, KIND, HELP) {.name = #NAME, .help = HELP, .dflt = (DFLT), KIND},
#define CT_PARAM_FIELD_(NAME, ...) long NAME;
#define CT_PARAM_ONE_(NAME, ...) +1

/* The table initializer and the length of a list. */
#define CT_PARAM_TABLE(LIST) {LIST(CT_PARAM_DEF)}
#define CT_PARAM_COUNT(LIST) (0 LIST(CT_PARAM_ONE_))

/* The values union of LIST, and its get/put over the table DEFS (made from
 * the same LIST: where a table is shared between files, one defines it). */
#define CT_PARAM_UNION(TAG, LIST)                                                         \
    typedef union TAG##_values {                                                          \
        long v[CT_PARAM_COUNT(LIST)];                                                     \
        struct { LIST(CT_PARAM_FIELD_) };                                                 \
    } TAG##_values;                                                                       \
    _Static_assert(sizeof(TAG##_values) == sizeof(long) * CT_PARAM_COUNT(LIST), "q.v[i] is the i-th name");

#define CT_PARAM_VALUES(TAG, LIST, DEFS)                                                  \
    CT_PARAM_UNION(TAG, LIST)                                                             \
    static inline TAG##_values TAG##_get(const ct_params *c)                             \
    {                                                                                     \
        TAG##_values q;                                                                   \
        ct_params_read(c, (DEFS), CT_PARAM_COUNT(LIST), q.v);                             \
        return q;                                                                         \
    }                                                                                     \
    static inline void TAG##_put(ct_params *c, const TAG##_values *q)                    \
    {                                                                                     \
        ct_params_write(c, (DEFS), CT_PARAM_COUNT(LIST), q->v);                           \
    }

#define CT_PARAM_LIST(TAG, LIST)                                                          \
    static const ct_param_def TAG##_params[] = CT_PARAM_TABLE(LIST);                      \
    CT_PARAM_VALUES(TAG, LIST, TAG##_params)

/* v[i] = c's value of defs[i], for n defs. A name c lacks is a fault: the
 * read yields the declared default, and the fault is kept (per thread) until
 * ct_params_faults collects it. */
void ct_params_read(const ct_params *c, const ct_param_def *defs, int n, long *v);
long ct_param_read(const ct_params *c, const ct_param_def *def);
/* Set (add or replace) each of defs[i] to v[i]. */
void ct_params_write(ct_params *c, const ct_param_def *defs, int n, const long *v);
/* For kinds whose templates declare parts of one full list `all` (a 1D
 * template lacks the 2D rows, two kinds share a model): v[i] = c's value
 * of all[i] where decl (the template's ndecl declarations) has that name,
 * else `missing`, or all[i]'s declared default where missing is
 * CT_PARAM_DFLT; and the write back of the declared ones. Which names
 * decl has is remembered for the last few lists (per thread), not looked
 * up for every candidate of a space. */
#define CT_PARAM_DFLT LONG_MIN
void ct_params_read_part(const ct_params *c, const ct_param_def *decl, int ndecl, const ct_param_def *all, int nall,
                         long missing, long *v);
void ct_params_write_part(ct_params *c, const ct_param_def *decl, int ndecl, const ct_param_def *all, int nall,
                          const long *v);
/* A candidate with every parameter of defs at its declared default. */
void ct_params_defaults(const ct_param_def *defs, int n, ct_params *out);
/* The declaration of name in defs, or NULL. */
const ct_param_def *ct_param_find(const ct_param_def *defs, int n, const char *name);

/* CT_OK when no read since the last call was a fault, else CT_ERR_INTERNAL
 * naming the first one and the count. Clears. Space building calls it after
 * each template, so that a family's misread is an error, never a default. */
ct_status ct_params_faults(ct_err *e);

/* Family code: after its #includes, so that the string API cannot creep back
 * in (GCC and Clang; elsewhere the tests still catch misreads). */
#if defined(__GNUC__)
#define CT_FAMILY_CODE _Pragma("GCC poison ct_params_get ct_params_set")
#else
#define CT_FAMILY_CODE
#endif

#endif
