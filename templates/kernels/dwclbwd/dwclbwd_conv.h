/* dwclbwd_conv.h - the training passes of depthwise layers in the
 * channels-last layout (ct_dwcl_bwd.cuh beside it, through FAMILY_dgdwcl and
 * FAMILY_wgdwcl): their parameters, constraints, launch geometry and the
 * executor of the weight gradient (the main kernel's partial sums into a
 * workspace, then a reduction kernel in a fixed order). */
#ifndef CT_DWCLBWD_CONV_H
#define CT_DWCLBWD_CONV_H

#include "executor.h"
#include "kernel_kind.h"
#include "problem.h"

#define CT_DWCLBWD_NPARAMS 8
extern const ct_param_def ct_dgdwcl_params[CT_DWCLBWD_NPARAMS - 3];
extern const ct_param_def ct_wgdwcl_params[CT_DWCLBWD_NPARAMS];
extern const ct_kernel_kind ct_kind_dgdwcl, ct_kind_wgdwcl;
extern const ct_executor ct_dwclbwd_exec;

/* The executor's pieces another depthwise weight gradient with the same
 * workspace and reduce kernel (ct_dwcl_wgred.cuh) reuses: the reduce's
 * grid for count outputs, and the export's host code for the template of
 * p's family that runs with executor x. */
unsigned ct_dwclbwd_reduce_grid(long long count);
void ct_dwclbwd_emit(const ct_executor *x, FILE *f, const ct_problem *p, const ct_params *c, const char *sym,
                     const char *signature);

#define CT_KERNEL_dgdwcl(nm, family)                                                                          \
    {.name = nm, .summary = "depthwise input gradient, channels last: VEC channels (one vector load) x a run " \
                            "of a row per thread, the dy window sliding in registers, taps in shared memory", \
     .dtypes = CT_DTYPES_ALL, .params = ct_dgdwcl_params, .nparams = CT_DWCLBWD_NPARAMS - 3,                  \
     .kind = &ct_kind_dgdwcl, .kernel = "dwclbwd"}
#define CT_KERNEL_wgdwcl(nm, family)                                                                          \
    {.name = nm, .summary = "depthwise weight gradient, channels last: VEC channels x a row of taps per "     \
                            "thread over bounded runs, block sums, splits added in fp64 by a second kernel", \
     .dtypes = CT_DTYPES_ALL, .params = ct_wgdwcl_params, .nparams = CT_DWCLBWD_NPARAMS,                      \
     .exec = &ct_dwclbwd_exec, .kind = &ct_kind_wgdwcl, .kernel = "dwclbwd"}

#endif
