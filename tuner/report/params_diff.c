/* params_diff.c - non-default parameters of a candidate (params_diff.h). */
#include "params_diff.h"

#include <string.h>

#include "json.h"
#include "params.h"
#include "svg.h"

/* Whether JSON value v is parameter d's declared default: numbers compare
 * as integers, symbols by name, booleans as 0/1. */
static int is_default(const ct_param_def *d, const ct_json *v)
{
    switch (v->type) {
    case CT_JSON_NUMBER:
        return v->number == (double)d->dflt;
    case CT_JSON_STRING:
        return d->symbols && d->dflt >= 0 && d->dflt < d->nsymbols && d->symbols[d->dflt] &&
               !strcmp(d->symbols[d->dflt], v->str);
    case CT_JSON_BOOL:
        return v->boolean == (d->dflt != 0);
    default:
        return 0;
    }
}

int ct_params_nondefault(FILE *f, const ct_family *fam, const char *tmpl, const char *params_json)
{
    ct_json *j = NULL;
    if (ct_json_parse(params_json, strlen(params_json), &j, NULL) != CT_OK || j->type != CT_JSON_OBJECT) {
        ct_json_free(j);
        ct_html_text(f, params_json);
        return 1;
    }
    const ct_template *t = fam ? ct_template_find(fam, tmpl) : NULL;
    int n = 0;
    for (size_t k = 0; k < j->n; k++) {
        const ct_json *v = j->items[k];
        int dflt = 0;
        for (int p = 0; t && p < t->nparams && !dflt; p++)
            dflt = !strcmp(t->params[p].name, j->keys[k]) && is_default(&t->params[p], v);
        if (dflt)
            continue;
        fputs(n++ ? " " : "", f);
        ct_html_text(f, j->keys[k]);
        fputc('=', f);
        if (v->type == CT_JSON_NUMBER)
            fprintf(f, "%.10g", v->number);
        else if (v->type == CT_JSON_STRING)
            ct_html_text(f, v->str);
        else if (v->type == CT_JSON_BOOL)
            fputs(v->boolean ? "true" : "false", f);
        else
            fputs("?", f);
    }
    if (!n)
        fputs("(all defaults)", f);
    ct_json_free(j);
    return n;
}
