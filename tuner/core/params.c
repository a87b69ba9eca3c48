/* params.c - candidate parameter lists and their text forms. */
#include "params.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

long ct_params_get(const ct_params *p, const char *name, long dflt)
{
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->names[i], name) == 0)
            return p->values[i];
    return dflt;
}

ct_status ct_params_set(ct_params *p, const char *name, long value, ct_err *e)
{
    for (int i = 0; i < p->n; i++) {
        if (strcmp(p->names[i], name) == 0) {
            p->values[i] = value;
            return CT_OK;
        }
    }
    if (p->n >= CT_MAX_PARAMS)
        return ct_fail(e, CT_ERR_INTERNAL, "too many parameters (at most %d)", CT_MAX_PARAMS);
    p->names[p->n] = name;
    p->values[p->n] = value;
    p->n++;
    return CT_OK;
}

ct_status ct_param_parse_value(const ct_param_def *def, const char *text, long *out, ct_err *e)
{
    while (*text == ' ' || *text == '\t')
        text++;
    size_t len = strlen(text);
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
        len--;
    for (int s = 0; s < def->nsymbols; s++) {
        if (strlen(def->symbols[s]) == len && strncasecmp(def->symbols[s], text, len) == 0) {
            *out = s;
            return CT_OK;
        }
    }
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return ct_fail(e, CT_ERR_USAGE, "parameter %s: bad value '%.*s'", def->name, (int)len, text);
    memcpy(buf, text, len);
    buf[len] = '\0';
    char *end = NULL;
    errno = 0;
    long v = strtol(buf, &end, 10);
    if (errno || *end != '\0' || end == buf) {
        if (def->nsymbols > 0) {
            char opts[256] = "";
            for (int s = 0; s < def->nsymbols; s++) {
                strncat(opts, s ? ", " : "", sizeof opts - strlen(opts) - 1);
                strncat(opts, def->symbols[s], sizeof opts - strlen(opts) - 1);
            }
            return ct_fail(e, CT_ERR_USAGE, "parameter %s: bad value '%s' (expected one of: %s)",
                           def->name, buf, opts);
        }
        return ct_fail(e, CT_ERR_USAGE, "parameter %s: bad value '%s' (expected an integer)",
                       def->name, buf);
    }
    if (def->nsymbols == 0 && v < def->min)
        return ct_fail(e, CT_ERR_USAGE, "parameter %s: bad value %ld (at least %ld)", def->name, v, def->min);
    if (def->nsymbols > 0 && (v < 0 || v >= def->nsymbols))
        return ct_fail(e, CT_ERR_USAGE, "parameter %s: value %ld out of range 0..%d",
                       def->name, v, def->nsymbols - 1);
    *out = v;
    return CT_OK;
}

const char *ct_param_value_text(const ct_param_def *def, long v, char *buf, size_t len)
{
    if (def && v >= 0 && v < def->nsymbols)
        return def->symbols[v];
    snprintf(buf, len, "%ld", v);
    return buf;
}

static const ct_param_def *find_def(const ct_param_def *defs, int ndefs, const char *name)
{
    for (int i = 0; i < ndefs; i++)
        if (strcmp(defs[i].name, name) == 0)
            return &defs[i];
    return NULL;
}

ct_status ct_params_to_json(const ct_params *p, const ct_param_def *defs, int ndefs,
                            char *buf, size_t len)
{
    size_t off = 0;
    int n = snprintf(buf, len, "{");
    off += (size_t)n;
    for (int i = 0; i < p->n && off < len; i++) {
        const ct_param_def *d = find_def(defs, ndefs, p->names[i]);
        if (d && d->nsymbols > 0 && p->values[i] >= 0 && p->values[i] < d->nsymbols)
            n = snprintf(buf + off, len - off, "%s\"%s\":\"%s\"", i ? "," : "", p->names[i],
                         d->symbols[p->values[i]]);
        else
            n = snprintf(buf + off, len - off, "%s\"%s\":%ld", i ? "," : "", p->names[i],
                         p->values[i]);
        off += (size_t)n;
    }
    if (off < len)
        off += (size_t)snprintf(buf + off, len - off, "}");
    return off < len ? CT_OK : CT_ERR_INTERNAL;
}

ct_status ct_params_to_key(const ct_params *p, char *buf, size_t len)
{
    size_t off = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->n && off < len; i++)
        off += (size_t)snprintf(buf + off, len - off, "%s%s=%ld", i ? "," : "", p->names[i],
                                p->values[i]);
    return off < len ? CT_OK : CT_ERR_INTERNAL;
}

/* A deliberately small reader for the flat objects ct_params_to_json
 * writes: {"NAME":int or "symbol", ...}. */
ct_status ct_params_from_json(const char *json, const ct_param_def *defs, int ndefs,
                              ct_params *out, ct_err *e)
{
    memset(out, 0, sizeof *out);
    const char *s = json;
    while (*s == ' ')
        s++;
    if (*s++ != '{')
        return ct_fail(e, CT_ERR_DB, "stored parameters are not a JSON object: %.60s", json);
    for (;;) {
        while (*s == ' ' || *s == ',')
            s++;
        if (*s == '}')
            break;
        if (*s++ != '"')
            return ct_fail(e, CT_ERR_DB, "stored parameters: bad JSON near '%.20s'", s - 1);
        const char *k = s;
        while (*s && *s != '"')
            s++;
        if (!*s)
            return ct_fail(e, CT_ERR_DB, "stored parameters: unterminated key");
        size_t klen = (size_t)(s - k);
        s++;
        while (*s == ' ' || *s == ':')
            s++;
        char val[64];
        size_t vlen = 0;
        int quoted = *s == '"';
        if (quoted)
            s++;
        while (*s && (quoted ? *s != '"' : (*s != ',' && *s != '}')) && vlen < sizeof val - 1)
            val[vlen++] = *s++;
        val[vlen] = '\0';
        if (quoted && *s == '"')
            s++;
        const ct_param_def *def = NULL;
        for (int i = 0; i < ndefs; i++)
            if (strlen(defs[i].name) == klen && strncmp(defs[i].name, k, klen) == 0)
                def = &defs[i];
        if (!def)
            return ct_fail(e, CT_ERR_DB, "stored parameter '%.*s' is not a parameter of this template",
                           (int)klen, k);
        long v;
        ct_status rc = ct_param_parse_value(def, val, &v, e);
        if (rc != CT_OK)
            return rc;
        rc = ct_params_set(out, def->name, v, e);
        if (rc != CT_OK)
            return rc;
    }
    for (int i = 0; i < ndefs; i++) {
        int found = 0;
        for (int j = 0; j < out->n; j++)
            found |= strcmp(out->names[j], defs[i].name) == 0;
        if (!found)
            return ct_fail(e, CT_ERR_DB, "stored parameters lack %s", defs[i].name);
    }
    /* Keep declaration order, so keys and names are stable. */
    ct_params ordered = {0};
    for (int i = 0; i < ndefs; i++)
        ct_params_set(&ordered, defs[i].name, ct_params_get(out, defs[i].name, 0), NULL);
    *out = ordered;
    return CT_OK;
}
