/* csv.h - one CSV field as RFC 4180 writes it, shared by the query output
 * and `db export --format csv`. */
#ifndef CT_CSV_H
#define CT_CSV_H

#include <stdio.h>

/* s as it is, or quoted (quotes doubled) when it holds a comma, a quote, CR
 * or LF. */
void ct_csv_field(FILE *f, const char *s);

#endif
