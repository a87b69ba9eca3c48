/* dwp_conv.h - the persistent-warp depthwise 2D template conv2dc_dwp and its
 * bf16/f16 entry conv2dc_dwph (dwp.conv2dc.cu.in beside it, conv2dc's own
 * code): parameters, constraints and launch geometry, on the layer
 * described as a ct_tc_shape. The derived sizes are dwp_sizes.cuh's, which
 * the template expands too. */
#ifndef CT_DWP_CONV_H
#define CT_DWP_CONV_H

#include <stddef.h>

#include "problem.h"
#include "tc_shape.h"

#define CT_DWP_NPARAMS 5
extern const ct_param_def ct_dwp_params[CT_DWP_NPARAMS];

/* Its kinds: dwp (cp.async, sm_80 on) and dwph (the bf16/f16 entry, the
 * CT_DTYPE branch of conv2dc_dwp.cu, ordinary loads, any architecture). */
extern const ct_kernel_kind ct_kind_dwp, ct_kind_dwph;

/* conv2dc's template of this kind (CT_KERNEL in kernel_kind.h). */
#define CT_DWP_conv2dc                                                                                      \
    .summary = "depthwise: whole planes per warp, the next plane's cp.async copy in flight during the "    \
               "current one's FMAs; each input row's register window feeds OUT_Y output rows"
#define CT_KERNEL_dwp(nm, family)                                                                          \
    {.name = nm, CT_DWP_##family, .params = ct_dwp_params, .nparams = CT_DWP_NPARAMS, .kind = &ct_kind_dwp, \
     .kernel = "dwp"}

/* The bf16/f16 entry FAMILY_dwph (the family's line after its dwp one): the
 * CT_DTYPE branch of FAMILY_dwp.cu, ordinary loads where dwp's cp.async
 * cannot widen (docs/PROBLEMS.md "Half precision"). */
#define CT_DWPH_ENTRY(family)                                                                               \
    {.name = #family "_dwph", .summary = #family "_dwp for bf16/f16: planes widened to float as ordinary "  \
                                         "loads stage them, fp32 FMAs, one rounding per output",            \
     .dtypes = CT_DTYPES_HALF, .params = ct_dwp_params, .nparams = CT_DWP_NPARAMS, .kind = &ct_kind_dwph,   \
     .source = #family "_dwp", .kernel = "dwp"}

/* The kinds' hooks. */
int ct_dwp_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                     char *why, size_t len);
void ct_dwp_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c);
void ct_dwp_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l);

#endif
