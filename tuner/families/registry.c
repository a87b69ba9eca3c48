/* registry.c - the list of families, expanded from families.def. */
#include <stddef.h>

#include "problem.h"

#define CT_FAMILY(name) extern const ct_family ct_family_##name;
#include "families.def"
#undef CT_FAMILY

static const ct_family *const families[] = {
#define CT_FAMILY(name) &ct_family_##name,
#include "families.def"
#undef CT_FAMILY
    NULL,
};

const ct_family *const *ct_families(void)
{
    return families;
}
