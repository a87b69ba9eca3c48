/* cudnn_map.h - a problem as cuDNN's legacy convolution API describes it:
 * the sizes of its tensor, filter and convolution descriptors, or why it
 * cannot describe it. Pure arithmetic on the problem's fields (read by
 * name), so it is tested without a GPU or cuDNN.
 *
 * Every layer family maps: conv1dc as a 2D layer of height 1, conv2dc as
 * itself, conv1d and conv2d as layers of one channel. cuDNN pads both sides
 * of a dimension alike, so a problem padded unevenly (conv1dc causal,
 * conv1d right, 'same' with an even span) has no cuDNN baseline. */
#ifndef CT_CUDNN_MAP_H
#define CT_CUDNN_MAP_H

#include <stddef.h>

#include "problem.h"

/* The buffers' roles: indices into the family's buffers (kernel-argument
 * order), -1 where the pass has none. */
typedef struct ct_cudnn_conv {
    int pass;                  /* 0 forward, 1 dgrad, 2 wgrad (conv_pass.h) */
    ct_dtype dtype;
    int channels_last;         /* activations NHWC (NLC) instead of NCHW (NCL) */
    int bias;                  /* forward: bias added; wgrad: db follows dW in the output */
    int n, c, h, w;            /* the forward input x */
    int k, r, s;               /* output channels, filter height and width (weights K x C/G x R x S) */
    int oh, ow;                /* the forward output's height and width */
    int pad_h, pad_w, stride_h, stride_w, dil_h, dil_w, groups;
    int x_stride[4], y_stride[4];   /* element strides of x and y (dy): n, c, h, w */
    int buf_x, buf_w, buf_bias, buf_y;   /* forward: y the output; dgrad: y is dy, x the output dx;
                                            wgrad: w the output (then db) */
} ct_cudnn_conv;

/* Fill m for p and return 1, or return 0 with the reason in why (one
 * line: "causal padding (2 zeros before, none after): cuDNN pads both
 * sides alike"). */
int ct_cudnn_map(const ct_problem *p, ct_cudnn_conv *m, char *why, size_t len);

#endif
