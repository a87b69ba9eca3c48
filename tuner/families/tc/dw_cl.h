/* dw_cl.h - the channels-last depthwise template of conv1dc (templates/
 * conv1dc/conv1dc_dwcl.cu, layout nlc, groups = Cin = Cout): its
 * parameters, derived sizes, constraints and launch geometry on the layer
 * described as a ct_tc_shape (a 1D layer: height 1, w = L, ow = LOUT, pw the
 * zeros before). The sizes here mirror the template's macros. The family
 * excludes it from layers that are not channels last. */
#ifndef CT_DW_CL_H
#define CT_DW_CL_H

#include <stddef.h>

#include "problem.h"
#include "tc_conv.h"

#define CT_DWCL_NPARAMS_1D 5
extern const ct_param_def ct_dwcl_params_1d[CT_DWCL_NPARAMS_1D];

/* Its kind: channels last. */
extern const ct_kernel_kind ct_kind_dwcl;

int ct_dwcl_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim, char *why,
                      size_t len);
void ct_dwcl_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c);
void ct_dwcl_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l);

#endif
