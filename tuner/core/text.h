/* text.h - user text on its way into a fixed buffer or an error message.
 *
 * A path the user gave (an option, an environment variable) is copied or
 * joined whole or refused, never cut: a cut path names another file. And a
 * user's text quoted in a message is bounded and escaped, so that a
 * 100,000-character argument or a newline in it still gives one short line
 * on stderr. */
#ifndef CT_TEXT_H
#define CT_TEXT_H

#include <stddef.h>

#include "status.h"

/* The one limit on a path convtune is given: 1023 characters. */
#define CT_PATH_MAX 1024

/* buf (len bytes) = a followed by b (either may be NULL or ""). When the
 * whole does not fit, buf is "" and code is returned with "WHAT: path too
 * long (N characters, at most len - 1): <the first 40>..." in e; what names
 * the option or variable it came from. */
ct_status ct_path_join(char *buf, size_t len, const char *a, const char *b, const char *what, ct_status code,
                       ct_err *e);

/* ct_path_join(buf, len, path, NULL, ...): path whole, or refused. */
ct_status ct_path_copy(char *buf, size_t len, const char *path, const char *what, ct_status code, ct_err *e);

/* text as a message may quote it: control characters and backslashes
 * escaped (\n, \t, \xHH, \\), at most CT_ECHO_MAX characters of text and
 * then "..." when there is more. Returns buf (len: CT_ECHO_LEN is always
 * enough). */
#define CT_ECHO_MAX 60
#define CT_ECHO_LEN (CT_ECHO_MAX * 4 + 4)
const char *ct_echo(const char *text, char *buf, size_t len);

#endif
