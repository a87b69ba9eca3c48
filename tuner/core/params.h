/* params.h - a candidate's tuning parameters: an ordered list of NAME=value.
 *
 * A parameter's NAME is the one spelling used everywhere: the -D macro handed
 * to NVRTC, the INI key, the JSON key in the database and the #define in an
 * exported file. Values are integers; a parameter may declare symbolic names
 * for its values (MASK_PLACEMENT = constant|shared|global), which the INI and
 * the printed forms use while the macro receives the integer. */
#ifndef CT_PARAMS_H
#define CT_PARAMS_H

#include <stddef.h>
#include "status.h"

#define CT_MAX_PARAMS 16
#define CT_MAX_VALUES 32

/* Declaration of one tunable parameter by a template (compiled into the
 * family's C file); the list of values to try comes from configs/NAME.ini. */
typedef struct ct_param_def {
    const char *name;              /* macro / INI / JSON name               */
    const char *help;              /* one line, printed by `convtune space` */
    const char *const *symbols;    /* symbols[v] names value v, or NULL     */
    int nsymbols;
    long min;                      /* smallest numeric value (default 0: a
                                    * negative value is never a parameter) */
} ct_param_def;

typedef struct ct_params {
    int n;
    const char *names[CT_MAX_PARAMS];   /* point into static ct_param_def */
    long values[CT_MAX_PARAMS];
} ct_params;

/* Value of parameter name, or dflt when the candidate does not have it. */
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

/* Inverse of ct_params_to_json for the parameters in defs: every def must be
 * present, nothing else may be. */
ct_status ct_params_from_json(const char *json, const ct_param_def *defs, int ndefs,
                              ct_params *out, ct_err *e);

#endif
