/* kernel_kind.h - the descriptor of a kernel kind of the layer families
 * (conv1dc, conv2dc): what a template is, so that no code asks which
 * template it has in hand.
 *
 * A family lists each template with its kind (ct_template.kind, one line
 * per template); its constrain, normalize and geometry hooks check the
 * layer's layout and form against the kind's properties and hand the rest
 * to the kind's hooks, on the layer as a ct_tc_shape. Several templates
 * may share a kind (an fp32 kernel and its half-precision copy, the 1D and
 * 2D forms that differ only in their parameter lists); kinds that share
 * their code differ in properties the code reads (wgmma, a channels-last
 * layout, streamed weights). Adding a kind is one kernel folder and one
 * line per family that uses it: no list to extend. */
#ifndef CT_KERNEL_KIND_H
#define CT_KERNEL_KIND_H

#include <stddef.h>

#include "problem.h"

struct ct_tc_shape;

/* The pass of a layer problem (its "pass" field): the forward
 * convolution, its input gradient dx from dy and the weights (dgrad), or
 * its weight gradient dW (and db) from x and dy (wgrad), as PyTorch's
 * convolution_backward defines them (conv_pass.h). */
enum { CT_PASS_FWD = 0, CT_PASS_DGRAD = 1, CT_PASS_WGRAD = 2, CT_NPASSES = 3 };
#define CT_PASS_BIT(pass) (1u << (pass))

/* The activation layouts a kind reads and writes. */
enum { CT_LAYOUT_DEFAULT_ONLY = 0, CT_LAYOUT_CL_ONLY = 1, CT_LAYOUT_BOTH = 2 };

typedef struct ct_kernel_kind {
    const char *name;      /* "tc16g": the letters of its templates' names after the family's */
    int layouts;           /* CT_LAYOUT_*: NCL/NCHW, channels last (NLC/NHWC) or both */
    int any_layer;         /* 1: strided, dilated and grouped layers too; 0: stride 1, dilation 1, one group */
    int wgmma;             /* Hopper's warpgroup mma (sm_90a only) */
    int stream;            /* the weights streamed from memory into mma fragments (tc16w) */
    int cp_async;          /* copies by cp.async: sm_80 on, whatever its constraints otherwise say */
    unsigned passes;       /* CT_PASS_BIT()s of the passes it computes; 0: the forward pass alone */
    int (*constrain)(const ct_template *t, const struct ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                     char *why, size_t len);
    void (*normalize)(const ct_template *t, const struct ct_tc_shape *s, ct_params *c);
    void (*launch)(const ct_template *t, const struct ct_tc_shape *s, const ct_params *c, ct_launch *l);
    /* Optional: the TMA tensor maps its kernel takes after the buffers
     * (ct_family.tensor_maps); returns how many. */
    int (*tensor_maps)(const ct_template *t, const struct ct_tc_shape *s, const ct_params *c, ct_tmap_desc *out);
    /* Optional: the prep kernel's workspace bytes and launch (ct_family.prep). */
    long long (*prep)(const ct_template *t, const struct ct_tc_shape *s, const ct_params *c, ct_launch *l);
} ct_kernel_kind;

/* A family's template of the kernel kind K, whose folder (templates/kernels/
 * D/) holds K.cu.in: one line CT_KERNEL(family, K) in the family's template
 * table. The folder's header (D_conv.h, included through the generated
 * ct_kernels.h) defines CT_KERNEL_K(NAME, FAMILY) as the template's entry;
 * the build parses the same line to write the template's file, FAMILY_K.cu,
 * from K.cu.in (docs/ARCHITECTURE.md, "Adding a kernel"). */
#define CT_KERNEL(family, K) CT_KERNEL_##K(#family "_" #K, family)

/* Whether t's kind computes pass (CT_PASS_*). */
static inline int ct_kind_computes(const ct_template *t, int pass)
{
    const unsigned have = t->kind->passes ? t->kind->passes : CT_PASS_BIT(CT_PASS_FWD);
    return (have & CT_PASS_BIT(pass)) != 0;
}

/* Whether t's kind reads and writes channels last only. */
static inline int ct_kind_channels_last(const ct_template *t)
{
    return t->kind->layouts == CT_LAYOUT_CL_ONLY;
}

#endif
