/* resources.h - files embedded in the binary at build time (templates/,
 * configs/, db/), found by their path relative to the source tree. */
#ifndef CT_RESOURCES_H
#define CT_RESOURCES_H

#include <stddef.h>

typedef struct ct_resource_entry {
    const char *path;       /* "templates/conv1d/conv1d_naive.cu" */
    const char *data;       /* NUL-terminated */
    size_t len;
    int generated;          /* written by the build (a kernel kind's stub), no file of the tree */
} ct_resource_entry;

extern const ct_resource_entry ct_resource_table[];

/* Embedded file at path, or NULL. */
const char *ct_resource(const char *path, size_t *len);

/* Embedded template file ("conv1d_naive.cu") in whichever folder of
 * templates/ holds it, or NULL. */
const char *ct_resource_template(const char *file, size_t *len);

/* Whether the embedded template file is one the build wrote (a kernel
 * kind's stub for a family) rather than a file of templates/. */
int ct_resource_generated(const char *file);

#endif
