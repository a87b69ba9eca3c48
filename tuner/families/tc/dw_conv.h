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

/* Their kinds: dw1 (conv1dc_dw, conv1dc_dwh), dw2 (conv2dc_dw), and
 * dwp_conv.h's persistent-warp template, whose hooks check the depthwise
 * layer first: dwp (cp.async, sm_80 on) and dwph (its bf16/f16 entry, the
 * CT_DTYPE branch of conv2dc_dwp.cu,
 * ordinary loads, any architecture). */
extern const ct_kernel_kind ct_kind_dw1, ct_kind_dw2, ct_kind_dwp, ct_kind_dwph;

#endif
