/* dwp_conv.h - the persistent-warp depthwise 2D template (templates/conv2dc/
 * conv2dc_dwp.cu): parameters, constraints and launch geometry, on the layer
 * described as a ct_tc_shape. The sizes here mirror the template's macros;
 * dw_conv.c dispatches to these for the template that declares ct_dwp_params. */
#ifndef CT_DWP_CONV_H
#define CT_DWP_CONV_H

#include <stddef.h>

#include "problem.h"
#include "tc_conv.h"

#define CT_DWP_NPARAMS 5
extern const ct_param_def ct_dwp_params[CT_DWP_NPARAMS];

/* Before sm_80 (no cp.async): checked before the layer, so that the reason
 * names the architecture on every layer. */
int ct_dwp_arch_excluded(const ct_limits *lim, char *why, size_t len);
int ct_dwp_constrain(const ct_tc_shape *s, const ct_params *c, const ct_limits *lim, char *why, size_t len);
void ct_dwp_normalize(const ct_tc_shape *s, ct_params *c);
void ct_dwp_launch(const ct_tc_shape *s, const ct_params *c, ct_launch *l);

#endif
