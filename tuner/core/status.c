/* status.c - the error record helper. */
#include "status.h"

#include <stdarg.h>
#include <stdio.h>

ct_status ct_fail(ct_err *e, ct_status code, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}
