/* conv_layer.h - the options a convolution layer's problem string shares
 * between conv1dc and conv2dc (PyTorch Conv1d/Conv2d): "key=V" or
 * "key=V,W" values, the fixed order the grammar lists them in, and the
 * output size of one dimension. */
#ifndef CT_CONV_LAYER_H
#define CT_CONV_LAYER_H

#include "status.h"

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

#endif
