/* tc16wb_conv.h - the kernel kind tc16wb (ct_conv_tc16wb.cuh, beside it): the
 * half-precision layers of at most 16 output pixels whose time is the
 * reading of their weights, on sm_90 (the weights as the mma's B operand,
 * copied by the bulk copy engine or loaded into registers, the im2col built
 * from input planes held in registers). Parameters, sizes (tc16wb_sizes.cuh's,
 * which the header's TC_* macros expand too), constraints and launch
 * geometry, on the layer as a ct_tc_shape. */
#ifndef CT_TC16WB_CONV_H
#define CT_TC16WB_CONV_H

#include <stddef.h>

#include "problem.h"
#include "tc_shape.h"

#define CT_TC16WB_NPARAMS 6
extern const ct_param_def ct_tc16wb_params[CT_TC16WB_NPARAMS];

/* The most output pixels (B x OH x OW: one tile, rows g and g + 8 of the
 * mma) and input plane values (H x W, held in registers) it takes. */
#define CT_TC16WB_MAX_PIXELS 16
#define CT_TC16WB_MAX_PLANE 16

/* The templates' one-line summary, the same in both families. */
#define CT_TC16WB_SUMMARY                                                                                    \
    "bf16/f16 layers of up to 16 pixels (sm_90): whole weight rows as the mma's B operand (bulk copy engine " \
    "or registers) against an im2col built from input planes in registers"

/* Its kind. */
extern const ct_kernel_kind ct_kind_tc16wb;

/* A family's template of this kind (CT_KERNEL in kernel_kind.h): the same
 * parameters, element types and summary in every family. */
#define CT_KERNEL_tc16wb(nm, family)                                                                    \
    {.name = nm, .summary = CT_TC16WB_SUMMARY, .params = ct_tc16wb_params, .nparams = CT_TC16WB_NPARAMS, \
     .dtypes = CT_TC16_DTYPES, .kind = &ct_kind_tc16wb, .kernel = "tc16wb"}

typedef struct ct_tc16wb_geom {
    long long co_tiles, warps_k, wsrc, chunks, cluster_k, minb;
    long long bn, nt, khw, kall, nkg, nkgb, ngw, gpc, kp, ntot, tp, hwi, nub, uit, nout;
    long long smem_bytes, grid_y, grid_z, regs;
} ct_tc16wb_geom;

/* s is the whole layer; the sizes are those of one group's GEMM. */
void ct_tc16wb_geometry_of(const ct_tc_shape *s, const ct_params *c, ct_tc16wb_geom *g);

int ct_tc16wb_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len);
void ct_tc16wb_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c);
void ct_tc16wb_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l);

#endif
