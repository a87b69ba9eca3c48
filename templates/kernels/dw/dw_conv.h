/* dw_conv.h - the depthwise templates (groups = Cin = Cout) of the layer
 * families, conv1dc_dw (with its bf16/f16 entry conv1dc_dwh) and conv2dc_dw:
 * each family's own device code (dw.FAMILY.cu.in beside it, no shared
 * header). Their parameters, derived sizes, constraints and launch
 * geometry, on the layer described as a ct_tc_shape (a 1D layer is a 2D one
 * of height 1); the derived sizes are dw1_sizes.cuh's and dw2_sizes.cuh's,
 * which the templates expand too. */
#ifndef CT_DW_CONV_H
#define CT_DW_CONV_H

#include <stddef.h>

#include "problem.h"
#include "tc_shape.h"

/* Parameter lists: 1D (conv1dc_dw) and 2D (conv2dc_dw); their lengths are
 * constants for the families' static template tables. */
#define CT_DW_NPARAMS_1D 4
#define CT_DW_NPARAMS_2D 4
extern const ct_param_def ct_dw_params_1d[CT_DW_NPARAMS_1D];
extern const ct_param_def ct_dw_params_2d[CT_DW_NPARAMS_2D];

/* Their kinds: dw1 (conv1dc_dw, conv1dc_dwh) and dw2 (conv2dc_dw). */
extern const ct_kernel_kind ct_kind_dw1, ct_kind_dw2;

/* A family's template of this kind (CT_KERNEL in kernel_kind.h): the
 * family's code, parameter list, kind and summary. */
#define CT_DW_conv1dc                                                                                       \
    .summary = "depthwise: OUT_PER_THREAD outputs of a channel per thread from a register window of its "  \
               "inputs, the K taps in registers, vector loads at stride 1",                                  \
    .params = ct_dw_params_1d, .nparams = CT_DW_NPARAMS_1D, .kind = &ct_kind_dw1
#define CT_DW_conv2dc                                                                                       \
    .summary = "depthwise: a plane tile and its filter staged in shared memory, OUT_Y x OUT_X outputs per " \
               "thread sliding a filter row along a register window",                                        \
    .params = ct_dw_params_2d, .nparams = CT_DW_NPARAMS_2D, .kind = &ct_kind_dw2
#define CT_KERNEL_dw(nm, family) {.name = nm, CT_DW_##family, .kernel = "dw"}

/* The bf16/f16 entry conv1dc_dwh (conv1dc's line after its dw one): the
 * CT_DTYPE branch of conv1dc_dw.cu (docs/PROBLEMS.md "Half precision"). */
#define CT_DWH_ENTRY(family)                                                                                \
    {.name = #family "_dwh", .summary = #family "_dw for bf16/f16: vector loads widened to float, fp32 sums", \
     .dtypes = CT_DTYPES_HALF, .params = ct_dw_params_1d, .nparams = CT_DW_NPARAMS_1D, .kind = &ct_kind_dw1, \
     .source = #family "_dw", .kernel = "dw"}

/* Whether a layer is not depthwise, with why (each output channel of the
 * depthwise templates, dwp's too, reads only its own input channel). */
int ct_dw_layer_excluded(const ct_template *t, const ct_tc_shape *s, char *why, size_t len);

#endif
