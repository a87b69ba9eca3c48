/* escape.h - text from a database or a user made safe for the language of
 * the file it lands in. Every string convtune did not write itself (a
 * device name, a timestamp, parameters, a problem string from an imported
 * record or a merged shard) passes through one of these before it is
 * printed into generated code, so a hostile value can neither end a
 * comment, a string literal or a docstring nor add a line of code.
 *
 * Each function writes the escaped text of `in` into out (len bytes, NUL
 * included) and returns out. Text that does not fit is cut at a character
 * boundary of the escaped form (never inside an escape sequence) and ends
 * with "...". The output is printable ASCII only: other bytes, UTF-8
 * included, become escape sequences of the target language, so the files
 * stay ASCII and a byte that is not valid UTF-8 cannot break a parser. */
#ifndef CT_ESCAPE_H
#define CT_ESCAPE_H

#include <stddef.h>

/* For a C or C++ `//` comment: a backslash is shown as "\x5c" (a backslash
 * before a line end would splice the next line into the comment), "??" as
 * "?\x3f" (a trigraph "??/" is a backslash in ISO C), control characters
 * and bytes past 0x7e as "\xNN". */
const char *ct_esc_c_comment(const char *in, char *out, size_t len);

/* For the inside of a C or C++ "..." string literal: \" \\ \? and three-digit
 * octal escapes ("\033"), which, unlike "\x", never take a following digit
 * into the escape. */
const char *ct_esc_c_string(const char *in, char *out, size_t len);

/* For the inside of a Python "..." string literal or a """...""" docstring
 * (not a raw string): \" \\ and "\xNN"; a quote is always escaped, so no
 * run of three quotes can end a docstring. */
const char *ct_esc_py_string(const char *in, char *out, size_t len);

#endif
