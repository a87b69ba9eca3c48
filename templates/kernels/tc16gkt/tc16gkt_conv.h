/* tc16gkt_conv.h - the kernel kind tc16gktcl (ct_conv_tc16gkt.cuh, beside
 * it): the channels-last half-precision layer on Hopper, input tiles
 * copied by TMA tensor copies into 128-byte-swizzled shared memory, wgmma
 * on both operands there, a producer warpgroup and WG_M consumer
 * warpgroups on an mbarrier pipeline. Parameters, sizes (tc16gkt_sizes.cuh's,
 * which the headers' TG_* macros expand too), constraints, launch geometry
 * and the input's tensor map, on the layer as a ct_tc_shape. */
#ifndef CT_TC16GKT_CONV_H
#define CT_TC16GKT_CONV_H

#include <stddef.h>

#include "executor.h"
#include "problem.h"
#include "tc_shape.h"

#define CT_TC16GKT_NPARAMS 11
extern const ct_param_def ct_tc16gkt_params[CT_TC16GKT_NPARAMS];

#define CT_TC16GKT_SUMMARY                                                                                     \
    "channels-last bf16/f16 on Hopper: input tiles by TMA tensor copies (128-byte swizzle, padding by the "  \
    "copy engine's zero fill), wgmma on swizzled shared memory, a producer warpgroup feeding WG_M consumer " \
    "warpgroups through an mbarrier pipeline STAGES deep; tf32 on TF32 wgmma, 32-channel chunks rounded in " \
    "shared memory"

/* The most filter taps: a transpose item holds 8 channels of every tap in
 * registers, 4 words a tap. */
#define CT_TC16GKT_MAX_TAPS 16

/* The most split-K slices (SPLIT_K). */
#define CT_TC16GKT_MAX_SPLIT 16

extern const ct_kernel_kind ct_kind_tc16gktcl;

/* The executor of its templates: SPLIT_K 1 one launch (every buffer and the
 * tensor map), else the main kernel into a split-K workspace and the
 * reduce (ws_exec.h); with WPRE the prep kernel before either, the main
 * kernel reading its workspace for the weights. */
extern const ct_executor ct_tc16gkt_exec;

/* Element types: bf16, f16 and tf32. The kernel computes fp32 too, by
 * 3xTF32 (CT_TF32X3, ct_conv_tf32gkt.cuh), and the CPU replay checks it at
 * 1e-7 to 5e-7, but it is not admitted: on an H200 (2026-11-28) its error
 * was 7.6e-6 and 8.0e-6 on 256 and 128 input channels of a 3x3 filter and
 * 1.5e-5 (over fp32's 1e-5) on 14 of 30 candidates of 512, where the
 * mma.sync 3xTF32 kernels give 3.4e-7: the GPU's sums inside a wgmma keep
 * fewer bits than the replay's model. Its time was no better either. */
#define CT_KERNEL_tc16gktcl(nm, family)                                                                     \
    {.name = nm, .summary = CT_TC16GKT_SUMMARY, .params = ct_tc16gkt_params, .nparams = CT_TC16GKT_NPARAMS, \
     .dtypes = CT_TC16_DTYPES | (1u << CT_DTYPE_TF32), .exec = &ct_tc16gkt_exec,                         \
     .kind = &ct_kind_tc16gktcl, .kernel = "tc16gktcl"}

typedef struct ct_tc16gkt_geom {
    long long wg_m, wg_n, toh, tow, stages, setmaxnreg, abufs, rows, minb, split;
    long long elem, ck;   /* element bytes (2; tf32, fp32 4) and a chunk's channels (64; tf32, fp32 32) */
    long long images;     /* of each A buffer and B stage: 2 for fp32 (3xTF32's small parts), else 1 */
    long long bm, n, nw, nc, nt, khw, nch, kpc, nkb, boxh, sb, sa, so, bar, smem_bytes, grid_x, grid_y, regs;
    long long slice_nkb, grid_z;   /* the smallest split slice's k-blocks; the slices (grid z) */
    long long wpre, wp_units, wp_bytes; /* WPRE; the prep's A images (its blocks) and workspace bytes */
    long long wsa, sak;            /* an A image (a chunk's taps); WPRE=2: a k-block's A in its stage */
} ct_tc16gkt_geom;

/* s is the whole layer; the sizes are those of one group's GEMM. */
void ct_tc16gkt_geometry_of(const ct_tc_shape *s, const ct_params *c, ct_tc16gkt_geom *g);

/* The input's tensor map (the kernel's argument after the buffers): the
 * NHWC tensor as [C][W][H][B], innermost first; a box of 64 channels x
 * TILE_OW x TILE_OH pixels with the layer's strides as element strides,
 * 128-byte swizzle. */
void ct_tc16gkt_input_map(const ct_tc_shape *s, const ct_params *c, int dtype, ct_tmap_desc *m);

int ct_tc16gkt_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                         char *why, size_t len);
void ct_tc16gkt_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c);
void ct_tc16gkt_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l);
/* WPRE=1: the workspace of the weights' A images (bytes) and the launch
 * of <TC_NAME>_wprep that writes it; 0 for WPRE=0. */
long long ct_tc16gkt_prep(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l);
int ct_tc16gkt_tensor_maps(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_tmap_desc *out);

#endif
