/* tc_shape.c - the layer helpers the kernel kinds of the layer families
 * share (tc_shape.h). */
#include "tc_shape.h"

#include <stdio.h>

CT_FAMILY_CODE

ct_tc_shape ct_tc_per_group(const ct_tc_shape *s)
{
    ct_tc_shape g = *s;
    g.cin = s->cin / ct_tc_ngroups(s);
    g.cout = s->cout / ct_tc_ngroups(s);
    g.groups = 1;
    return g;
}

int ct_tc_depthwise_refused(const ct_tc_shape *one, char *why, size_t len)
{
    if (one->cin != 1 || one->cout != 1)
        return 0;
    snprintf(why, len, "one input and one output channel per group (depthwise): the depthwise templates "
             "serve it, an mma tile would be 1/16 busy");
    return 1;
}

int ct_tc16_arch_excluded(const ct_tc_shape *s, const ct_limits *lim, char *why, size_t len)
{
    const int cc = lim->cc_major * 10 + lim->cc_minor;
    if (cc >= 80)
        return 0;
    if (cc >= 75 && s->p && ct_problem_dtype(s->p) == CT_DTYPE_F16)
        return 0;
    if (cc >= 75)
        snprintf(why, len, "bf16 mma.sync needs sm_80 or later (sm_75 has f16 m16n8k8 only)");
    else
        snprintf(why, len, "f16 mma.sync m16n8k8 needs sm_75 or later, bf16 sm_80");
    return 1;
}
