/* dwbwd_conv.h - the training passes of depthwise layers (groups = Cin =
 * Cout), NCHW / NCL, every element type, any stride, dilation and padding
 * (ct_dwbwd.cuh beside it, through FAMILY_dgdw and FAMILY_wgdw):
 *   dgdw  the input gradient: a phase class of a tile of a plane per
 *         block, OUT_Y x OUT_X pixels per thread sliding the filter's
 *         matching taps along register windows of the staged dy tile;
 *   wgdw  the weight gradient (then the bias's): a channel per block, tap
 *         tiles x pixel groups of threads, register windows of the staged
 *         x rows, a fixed-order tree over the groups.
 * Their parameters, derived sizes (dwbwd_sizes.cuh's, which the DG_* and
 * WG_* macros expand too),
 * constraints and launch geometry on the layer as a ct_tc_shape. */
#ifndef CT_DWBWD_CONV_H
#define CT_DWBWD_CONV_H

#include "kernel_kind.h"
#include "problem.h"

/* Parameter lists: 2D, and 1D without the rows' parameters. */
#define CT_DGDW_NPARAMS_2D 7
#define CT_DGDW_NPARAMS_1D 5
#define CT_WGDW_NPARAMS_2D 8
#define CT_WGDW_NPARAMS_1D 6
extern const ct_param_def ct_dgdw_params_2d[CT_DGDW_NPARAMS_2D];
extern const ct_param_def ct_dgdw_params_1d[CT_DGDW_NPARAMS_1D];
extern const ct_param_def ct_wgdw_params_2d[CT_WGDW_NPARAMS_2D];
extern const ct_param_def ct_wgdw_params_1d[CT_WGDW_NPARAMS_1D];

extern const ct_kernel_kind ct_kind_dgdw, ct_kind_wgdw;

struct ct_tc_shape;

/* The derived sizes of a candidate (the DG_* and WG_* macros of
 * ct_dwbwd.cuh), for the hooks and the CPU replay (test_dwbwd.c). */
typedef struct ct_dgdw_geom {
    long long ox, oy, swap, nph, tkh, tkw, tdy, tdx, srcw, mh, mw, rymin, rymax, rxmin, rxmax, toh, tow, nty, ntx;
    long long tx, nitems, nt, lead, lv, nwl, nr, sih, pitch, kwp, smem, blocks;
    long long stream, sv; /* STREAM 1: rxmin is the window's first vector, nwl its elements */
} ct_dgdw_geom;
typedef struct ct_wgdw_geom {
    long long tx, ty, px, groups, split, nti, ntj, tt, khp, kwp, nch, owp, br, nb, nu, segs, nth, nt, lead, lv;
    long long nwx, nwl, sih, pitch, dyp, ntaps, smem;
    long long stream, sv; /* STREAM 1: lead is the x window's first vector, nwl its elements, segs items */
} ct_wgdw_geom;
void ct_dgdw_geometry(const ct_template *t, const struct ct_tc_shape *s, const ct_params *c, ct_dgdw_geom *g);
void ct_wgdw_geometry(const ct_template *t, const struct ct_tc_shape *s, const ct_params *c, ct_wgdw_geom *g);

#define CT_DGDW_conv1dc .params = ct_dgdw_params_1d, .nparams = CT_DGDW_NPARAMS_1D
#define CT_DGDW_conv2dc .params = ct_dgdw_params_2d, .nparams = CT_DGDW_NPARAMS_2D
#define CT_WGDW_conv1dc .params = ct_wgdw_params_1d, .nparams = CT_WGDW_NPARAMS_1D
#define CT_WGDW_conv2dc .params = ct_wgdw_params_2d, .nparams = CT_WGDW_NPARAMS_2D
#define CT_KERNEL_dgdw(nm, family)                                                                           \
    {.name = nm, .summary = "depthwise input gradient: a stride phase class of a dy tile and the filter "    \
                            "staged, OUT_Y x OUT_X pixels per thread sliding the matching taps along "      \
                            "register windows (SWAP: the plane as the taps)",                              \
     CT_DGDW_##family, .dtypes = CT_DTYPES_ALL, .kind = &ct_kind_dgdw, .kernel = "dwbwd"}
#define CT_KERNEL_wgdw(nm, family)                                                                           \
    {.name = nm, .summary = "depthwise weight gradient: a channel per block, TAP_Y x TAP_X taps per thread "  \
                            "over its pixel group's segments of the staged rows, fixed-order tree over "    \
                            "the groups",                                                                    \
     CT_WGDW_##family, .dtypes = CT_DTYPES_ALL, .kind = &ct_kind_wgdw, .kernel = "dwbwd"}

#endif
