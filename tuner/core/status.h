/* status.h - status codes and the error record every library call fills.
 *
 * Library code never prints or exits: it returns a ct_status and, on failure,
 * leaves one human-readable line in a ct_err that main() prints. The codes are
 * also the process exit codes (documented in docs/COMMANDS.md), so a script can tell a
 * bad problem string from a missing GPU without parsing stderr. */
#ifndef CT_STATUS_H
#define CT_STATUS_H

#include <stddef.h>

typedef enum ct_status {
    CT_OK = 0,
    CT_ERR_INTERNAL = 1,   /* a bug or an unexpected library failure        */
    CT_ERR_USAGE = 2,      /* bad command line, problem string or parameter */
    CT_ERR_CONFIG = 3,     /* bad or missing INI file                       */
    CT_ERR_NO_GPU = 4,     /* no driver, no device, or device index unknown */
    CT_ERR_DB = 5,         /* database cannot be opened, is corrupt or newer */
    CT_ERR_NOT_FOUND = 6,  /* nothing stored that matches the request       */
    CT_ERR_IO = 7,         /* file cannot be read or written                */
    CT_ERR_COMPILE = 8,    /* NVRTC rejected a source                       */
    CT_ERR_CUDA = 9,       /* a Driver API call failed                      */
    CT_ERR_NO_RESULT = 10  /* tuning finished without one verified candidate */
} ct_status;

typedef struct ct_err {
    char msg[1024];
} ct_err;

/* Record a formatted message in e (if e is not NULL) and return code, so a
 * failure site reads `return ct_fail(e, CT_ERR_USAGE, "...", ...);`. */
ct_status ct_fail(ct_err *e, ct_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
