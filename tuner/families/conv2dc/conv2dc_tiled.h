/* conv2dc_tiled.h - the conv2dc tiled template (templates/conv2dc/
 * conv2dc_tiled.cu: images or tiles staged in shared memory, pixels x output
 * channels per thread): its parameters, constraints, normalisation and
 * launch geometry on the layer described as a ct_tc_shape. The family
 * gives it plain layers only (groups, stride and dilation 1, NCHW, fp32);
 * valid is whether the layer's mode is valid (no padding). */
#ifndef CT_CONV2DC_TILED_H
#define CT_CONV2DC_TILED_H

#include <stddef.h>

#include "problem.h"
#include "tc_conv.h"

#define CT_CONV2DC_TILED_NPARAMS 15
extern const ct_param_def ct_conv2dc_tiled_params[CT_CONV2DC_TILED_NPARAMS];

int ct_conv2dc_tiled_constrain(const ct_tc_shape *s, int valid, const ct_params *c, const ct_limits *lim, char *why,
                               size_t len);
void ct_conv2dc_tiled_normalize(const ct_tc_shape *s, ct_params *c);
void ct_conv2dc_tiled_launch(const ct_tc_shape *s, const ct_params *c, ct_launch *l);

#endif
