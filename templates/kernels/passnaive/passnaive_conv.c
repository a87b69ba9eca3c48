/* passnaive_conv.c - the kinds dgnaive and wgnaive (passnaive_conv.h). */
#include "passnaive_conv.h"
#include "conv_pass.h"
#include "tc_shape.h"

#include <stdio.h>
#include <string.h>

CT_FAMILY_CODE

#define PASSNAIVE_PARAMS(X) X(BLOCK_SIZE, 256, CT_THREADS(0), "threads per block")
const ct_param_def ct_passnaive_params[1] = CT_PARAM_TABLE(PASSNAIVE_PARAMS);
CT_PARAM_VALUES(pn, PASSNAIVE_PARAMS, ct_passnaive_params)

static int pn_constrain(const ct_template *t, const ct_tc_shape *s, const ct_params *c, const ct_limits *lim,
                        char *why, size_t len)
{
    (void)t, (void)s;
    const long block = pn_get(c).BLOCK_SIZE;
    if (block < 32 || block % 32 != 0 || block > lim->max_threads_per_block) {
        snprintf(why, len, "BLOCK_SIZE=%ld is not a multiple of 32 within the device's %d threads", block,
                 lim->max_threads_per_block);
        return 1;
    }
    return 0;
}

static void pn_normalize(const ct_template *t, const ct_tc_shape *s, ct_params *c)
{
    (void)t, (void)s, (void)c;
}

/* One thread per element of the pass's output. */
static void pn_launch(const ct_template *t, const ct_tc_shape *s, const ct_params *c, ct_launch *l)
{
    (void)t;
    memset(l, 0, sizeof *l);
    const long block = pn_get(c).BLOCK_SIZE;
    const long long n = s->pass == CT_PASS_DGRAD ? ct_pass_x_count(s) : ct_pass_w_count(s) + (s->bias ? s->cout : 0);
    l->grid[0] = (unsigned)((n + block - 1) / block);
    l->grid[1] = l->grid[2] = 1;
    l->block[0] = (unsigned)block;
    l->block[1] = l->block[2] = 1;
}

const ct_kernel_kind ct_kind_dgnaive = {.name = "dgnaive", .layouts = CT_LAYOUT_BOTH, .any_layer = 1,
                                        .passes = CT_PASS_BIT(CT_PASS_DGRAD), .constrain = pn_constrain,
                                        .normalize = pn_normalize, .launch = pn_launch};
const ct_kernel_kind ct_kind_wgnaive = {.name = "wgnaive", .layouts = CT_LAYOUT_BOTH, .any_layer = 1,
                                        .passes = CT_PASS_BIT(CT_PASS_WGRAD), .constrain = pn_constrain,
                                        .normalize = pn_normalize, .launch = pn_launch};
