/* conv_layer.h - the options a convolution layer's problem string shares
 * between conv1dc and conv2dc (PyTorch Conv1d/Conv2d): "key=V" or
 * "key=V,W" values, the fixed order the grammar lists them in, and the
 * output size of one dimension. */
#ifndef CT_CONV_LAYER_H
#define CT_CONV_LAYER_H

#include <stddef.h>

#include "kernel_kind.h"
#include "problem.h"
#include "status.h"
#include "tc_shape.h"

/* The value(s) of tok = "key=A" or, when two is set, "key=A,B" (B = A when
 * only one is given): positive sizes, or from 0 when zero_ok. Returns
 * CT_ERR_USAGE naming key when tok does not start with key or is malformed. */
ct_status ct_layer_values(const char *tok, const char *key, int two, int zero_ok, long long out[2], ct_err *e);

/* The grammar's optional fields come in one order: names[r] is the field of
 * rank r (nnames of them). rank is the field tok belongs to, *last the
 * highest rank seen so far (-1 at first): refuses a field given twice or
 * after one that comes later, naming both; else records rank. */
ct_status ct_layer_order(const char *const *names, int rank, int *last, const char *tok, ct_err *e);

/* Outputs of one dimension: PyTorch's floor((n + before + after - d*(k-1) - 1) / s) + 1,
 * or 0 when the dilated filter is longer than the padded input. */
long long ct_layer_out(long long n, long long before, long long after, long long k, long long s, long long d);

/* For a template that computes only stride 1, dilation 1 and one group:
 * 1 with the reason when the layer is strided or dilated (strided set) or
 * grouped (groups > 1), else 0. */
int ct_layer_plain_only(const char *tmpl, int strided, long long groups, char *why, size_t len);

/* The optional fields of a layer's grammar, in their order: the keyed
 * ones (names for messages), then the choice fields written as a bare
 * token, whose first choice is the default left out of canonical strings.
 * Among these the activations' "layout": 0 is PyTorch's default (NCL,
 * NCHW), 1 channels last (NLC, NHWC); the weights keep PyTorch's O(I/G)K /
 * O(I/G)HW order in both. A further bare field is one more entry of bare. */
typedef struct ct_layer_opts {
    const char *const *keyed;
    int nkeyed;
    const ct_field *fields;        /* the family's field table */
    const int *bare;               /* field indices of the bare choice fields, in order */
    int nbare;
    const char *expected;          /* the keyed fields as a message lists them */
} ct_layer_opts;

/* Whether tok is a bare field's value: 1 with dims[field] and *rank (its
 * rank among the optional fields) set and *rc CT_OK, or with a usage error
 * in *rc naming the field where tok is the layout of another family
 * ("nhwc" given to conv1dc); 0 when tok is none of them. */
int ct_layer_bare(const ct_layer_opts *o, const char *tok, long long *dims, int *rank, ct_status *rc, ct_err *e);

/* The refusal of tok, which is no field: "too many fields" after the last
 * one (last is the highest rank seen), else an unknown field. */
ct_status ct_layer_unknown(const ct_layer_opts *o, const char *tok, int last, ct_err *e);

/* ct_layer_order over the names of o's fields. */
ct_status ct_layer_order_opts(const ct_layer_opts *o, int rank, int *last, const char *tok, ct_err *e);

/* For a template that reads only the default layout (NCL / NCHW; reads
 * CT_LAYOUT_DEFAULT_ONLY): 1 with the reason when the layer is channels
 * last (layout 1), else 0; CT_LAYOUT_CL_ONLY is the opposite, for a
 * channels-last template on a default layer; CT_LAYOUT_BOTH excludes
 * nothing. */
int ct_layer_layout_excluded(const char *tmpl, const ct_field *layout, long long value, int reads, char *why,
                             size_t len);

/* The CPU fp64 reference of a layer (a 1D one has height 1): in[0] the
 * input, in[1] the O(I/G)HW weights, in[2] the bias when s->bias; the
 * activations NCHW, or NHWC where channels_last. */
void ct_layer_reference(const ct_tc_shape *s, int channels_last, const float *const *in, double *out);

#endif
