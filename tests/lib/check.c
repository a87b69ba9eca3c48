/* check.c - the counters of check.h, one pair per test program. */
#include "check.h"

int ct_check_failures;
int ct_check_count;
