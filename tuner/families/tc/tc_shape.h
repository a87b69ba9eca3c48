/* tc_shape.h - what the kernel kinds of the layer families (conv1dc,
 * conv2dc) share: the layer as every kind's hooks see it (ct_tc_shape; a
 * 1D layer is a 2D one of height 1), its groups, and the refusals several
 * tensor-core kinds apply alike.
 *
 * This folder (tuner/families/tc/) holds only such shared code: this
 * header, the kind descriptor (kernel_kind.h), the layer grammar and the
 * passes (conv_layer, conv_pass) and the two-launch workspace executor
 * (ws_exec). Each kind's own model lies in its kernel folder, the fp32
 * tensor-core kinds tc and tcsplit in templates/kernels/tc/. */
#ifndef CT_TC_SHAPE_H
#define CT_TC_SHAPE_H

#include <stddef.h>

#include "kernel_kind.h" /* the descriptor whose hooks take the shape: every user needs both */
#include "problem.h"

typedef struct ct_tc_shape {
    long long b, cin, h, w, cout, kh, kw, oh, ow; /* NCHW input, OIHW weights */
    long long ph, pw, sy, sx, dy, dx;             /* padding before, stride, dilation */
    long long groups;                             /* Cin and Cout split in groups (0 or 1: none) */
    int bias;
    int pass;                                     /* CT_PASS_*: the sizes above are the forward layer's */
    /* The problem described, for the hooks of a family's own kinds (the
     * shared kinds read the fields above only); may be NULL otherwise. */
    const ct_problem *p;
} ct_tc_shape;

/* The layer's groups, 1 when it has none: a grouped layer is one GEMM (or
 * one block's share of channels) per group. */
static inline long long ct_tc_ngroups(const ct_tc_shape *s)
{
    return s->groups > 1 ? s->groups : 1;
}

/* One group's layer: Cin and Cout of a group, groups 1 (each group is its
 * own GEMM; the grid's y dimension walks the groups). */
ct_tc_shape ct_tc_per_group(const ct_tc_shape *s);

/* Whether a tensor-core kind refuses the layer for its groups of one input
 * and one output channel (depthwise; one is ct_tc_per_group's shape): a
 * GEMM with a single column per group keeps at most 1/16 of each mma tile
 * busy, in every element type, and the depthwise templates serve exactly
 * these layers. Writes the reason. */
int ct_tc_depthwise_refused(const ct_tc_shape *one, char *why, size_t len);

/* Whether the half-precision mma.sync kinds (tc16, tc16cl, tc16w,
 * tc16rcl) cannot run s on lim's architecture (the reason in why): they
 * need sm_80, or sm_75 for f16 (two m16n8k8 steps per m16n8k16 one and
 * ordinary loads for cp.async, ct_mma16.cuh); Turing has no bf16 mma. */
int ct_tc16_arch_excluded(const ct_tc_shape *s, const ct_limits *lim, char *why, size_t len);

#endif
