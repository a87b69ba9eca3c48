/* check.h - moved to tests/lib/check.h (the shared test library). */
#include "lib/check.h"
