/* dw_conv.h - the depthwise templates (groups = Cin = Cout) of the layer
 * families: templates/conv1dc/conv1dc_dw.cu and templates/conv2dc/
 * conv2dc_dw.cu. Their parameters, derived sizes, constraints and launch
 * geometry, on the layer described as a ct_tc_shape (a 1D layer is a 2D one
 * of height 1); the sizes here mirror the macros of the templates. */
#ifndef CT_DW_CONV_H
#define CT_DW_CONV_H

#include <stddef.h>

#include "problem.h"
#include "tc_conv.h"

/* Parameter lists: 1D (conv1dc_dw) and 2D (conv2dc_dw); their lengths are
 * constants for the families' static template tables. */
#define CT_DW_NPARAMS_1D 4
#define CT_DW_NPARAMS_2D 4
extern const ct_param_def ct_dw_params_1d[CT_DW_NPARAMS_1D];
extern const ct_param_def ct_dw_params_2d[CT_DW_NPARAMS_2D];

/* Whether template t is one of these (it declares one of the lists above,
 * or dwp_conv.h's, whose hooks these dispatch to). */
int ct_dw_is(const ct_template *t);

/* The family hooks for a depthwise template. */
int ct_dw_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim, char *why,
                    size_t len);
void ct_dw_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c);
void ct_dw_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l);

#endif
