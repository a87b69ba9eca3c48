/* resources.c - lookup in the table cmake/embed.cmake generates. */
#include "resources.h"

#include <string.h>

const char *ct_resource(const char *path, size_t *len)
{
    for (const ct_resource_entry *r = ct_resource_table; r->path; r++) {
        if (strcmp(r->path, path) == 0) {
            if (len)
                *len = r->len;
            return r->data;
        }
    }
    return NULL;
}
