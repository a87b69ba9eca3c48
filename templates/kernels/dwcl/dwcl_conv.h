/* dwcl_conv.h - the channels-last depthwise template of conv1dc, conv1dc_dwcl
 * with its bf16/f16 entry conv1dc_dwclh (dwcl.conv1dc.cu.in beside it,
 * conv1dc's own code; layout nlc, groups = Cin = Cout): its parameters,
 * derived sizes, constraints and launch geometry on the layer described as
 * a ct_tc_shape (a 1D layer: height 1, w = L, ow = LOUT, pw the zeros
 * before). The derived sizes are dwcl_sizes.cuh's, which the template
 * expands too. The family excludes it from layers that are not channels
 * last. */
#ifndef CT_DWCL_CONV_H
#define CT_DWCL_CONV_H

#include <stddef.h>

#include "problem.h"
#include "tc_shape.h"

#define CT_DWCL_NPARAMS_1D 5
extern const ct_param_def ct_dwcl_params_1d[CT_DWCL_NPARAMS_1D];

/* Its kind: channels last. */
extern const ct_kernel_kind ct_kind_dwcl;

/* conv1dc's template of this kind (CT_KERNEL in kernel_kind.h). */
#define CT_DWCL_conv1dc                                                                                     \
    .summary = "depthwise, channels last (nlc): VEC channels x a run of positions per thread, vector loads " \
               "along C, the input window slid in registers"
#define CT_KERNEL_dwcl(nm, family)                                                                         \
    {.name = nm, CT_DWCL_##family, .params = ct_dwcl_params_1d, .nparams = CT_DWCL_NPARAMS_1D,             \
     .kind = &ct_kind_dwcl, .kernel = "dwcl"}

/* The bf16/f16 entry FAMILY_dwclh (the family's line after its dwcl one):
 * the CT_DTYPE branch of FAMILY_dwcl.cu. */
#define CT_DWCLH_ENTRY(family)                                                                              \
    {.name = #family "_dwclh", .summary = #family "_dwcl for bf16/f16: vector loads widened to float, fp32 " \
                                          "sums",                                                           \
     .dtypes = CT_DTYPES_HALF, .params = ct_dwcl_params_1d, .nparams = CT_DWCL_NPARAMS_1D,                  \
     .kind = &ct_kind_dwcl, .source = #family "_dwcl", .kernel = "dwcl"}

int ct_dwcl_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim, char *why,
                      size_t len);
void ct_dwcl_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c);
void ct_dwcl_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l);

#endif
