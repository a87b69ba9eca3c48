/* tiled_conv.h - the tiled templates of the layer families, each family's
 * own code (tiled.FAMILY.cu.in beside it): conv1dc_tiled streams the weight
 * rows with vector loads and reduces over the input channels in a block;
 * conv2dc_tiled stages images or tiles in shared memory, pixels x output
 * channels per thread. Their parameters, derived sizes, constraints and
 * launch geometry on the layer described as a ct_tc_shape (a 1D layer is a
 * 2D one of height 1). The families give them plain layers only (groups,
 * stride and dilation 1, NCL/NCHW, fp32); conv2dc_tiled's image stage
 * reads the problem's mode (valid: no padding). */
#ifndef CT_TILED_CONV_H
#define CT_TILED_CONV_H

#include <stddef.h>

#include "problem.h"
#include "tc_shape.h"

/* Parameter lists: 1D (conv1dc_tiled) and 2D (conv2dc_tiled); their lengths
 * are constants for the families' static template tables. */
#define CT_TILED_NPARAMS_1D 8
#define CT_TILED_NPARAMS_2D 15
extern const ct_param_def ct_tiled_params_1d[CT_TILED_NPARAMS_1D];
extern const ct_param_def ct_tiled_params_2d[CT_TILED_NPARAMS_2D];

/* Their kinds: tiled1 (conv1dc_tiled) and tiled2 (conv2dc_tiled). */
extern const ct_kernel_kind ct_kind_tiled1, ct_kind_tiled2;

/* A family's template of this kind (CT_KERNEL in kernel_kind.h). */
#define CT_TILED_conv1dc                                                                                    \
    .summary = "weight rows streamed with vector loads, inputs through L1, block reduction over input "     \
               "channels",                                                                                    \
    .params = ct_tiled_params_1d, .nparams = CT_TILED_NPARAMS_1D, .kind = &ct_kind_tiled1
#define CT_TILED_conv2dc                                                                                    \
    .summary = "images staged in shared memory, pixels x output channels per thread",                       \
    .params = ct_tiled_params_2d, .nparams = CT_TILED_NPARAMS_2D, .kind = &ct_kind_tiled2
#define CT_KERNEL_tiled(nm, family) {.name = nm, CT_TILED_##family, .kernel = "tiled"}

#endif
