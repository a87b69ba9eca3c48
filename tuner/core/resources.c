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

/* Templates live in templates/FAMILY/ (shared ones in templates/common/) but
 * are named by file alone: a template's file name is unique across folders
 * (it starts with its family's name), so the folder adds nothing to find. */
static const ct_resource_entry *template_entry(const char *file)
{
    size_t fl = strlen(file);
    for (const ct_resource_entry *r = ct_resource_table; r->path; r++) {
        size_t pl = strlen(r->path);
        if (strncmp(r->path, "templates/", 10) == 0 && pl > fl && r->path[pl - fl - 1] == '/' &&
            strcmp(r->path + pl - fl, file) == 0)
            return r;
    }
    return NULL;
}

const char *ct_resource_template(const char *file, size_t *len)
{
    const ct_resource_entry *r = template_entry(file);
    if (r && len)
        *len = r->len;
    return r ? r->data : NULL;
}

int ct_resource_generated(const char *file)
{
    const ct_resource_entry *r = template_entry(file);
    return r && r->generated;
}
