/* params.c - candidate parameter lists and their text forms. */
#include "params.h"

#include "json.h"
#include "text.h"

#include <errno.h>
#include <limits.h>
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
    /* Names are mostly a template's own declaration strings, which the
     * candidate points at: a pointer match first spares the string
     * compares that dominated building a space (half its time). */
    for (int i = 0; i < p->n; i++) {
        if (p->names[i] == name) {
            p->values[i] = value;
            return CT_OK;
        }
    }
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
        return ct_fail(e, CT_ERR_USAGE, "parameter %s: bad value '%s'", def->name,
                       ct_echo(text, (char[CT_ECHO_LEN]){0}, CT_ECHO_LEN));
    memcpy(buf, text, len);
    buf[len] = '\0';
    char *end = NULL;
    errno = 0;
    long v = strtol(buf, &end, 10);
    if (errno || *end != '\0' || end == buf) {
        for (char *c = buf; *c; c++)   /* one line: control characters as '?' */
            *c = (unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c;
        if (def->nsymbols > 0) {
            char opts[256] = "";
            for (int s = 0; s < def->nsymbols; s++) {
                strncat(opts, s ? ", " : "", sizeof opts - strlen(opts) - 1);
                strncat(opts, def->symbols[s], sizeof opts - strlen(opts) - 1);
            }
            return ct_fail(e, CT_ERR_USAGE, "parameter %s: bad value '%s' (expected one of: %s)",
                           def->name, ct_echo(buf, (char[CT_ECHO_LEN]){0}, CT_ECHO_LEN), opts);
        }
        return ct_fail(e, CT_ERR_USAGE, "parameter %s: bad value '%s' (expected an integer)",
                       def->name, ct_echo(buf, (char[CT_ECHO_LEN]){0}, CT_ECHO_LEN));
    }
    if (def->nsymbols == 0 && v < def->min)
        return ct_fail(e, CT_ERR_USAGE, "parameter %s: bad value %ld (at least %ld)", def->name, v, def->min);
    /* The declared largest, or what the kernel's int arithmetic holds (every
     * value becomes a macro there). */
    long max = def->max > 0 ? def->max : INT_MAX;
    if (def->nsymbols == 0 && v > max)
        return ct_fail(e, CT_ERR_USAGE, "parameter %s: bad value %ld (at most %ld)", def->name, v, max);
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

const ct_param_def *ct_param_find(const ct_param_def *defs, int n, const char *name)
{
    /* Kinds look their own declarations up (the same string): see
     * ct_params_set. */
    for (int i = 0; i < n; i++)
        if (defs[i].name == name)
            return &defs[i];
    for (int i = 0; i < n; i++)
        if (strcmp(defs[i].name, name) == 0)
            return &defs[i];
    return NULL;
}

/* Per thread: space building and the tests collect their own faults, and
 * the compile pool's threads never see another thread's. */
static _Thread_local struct {
    int count;
    char first[256];
} faults;

long ct_param_read(const ct_params *c, const ct_param_def *def)
{
    /* Candidates made from a table point at its names: try that first. */
    for (int i = 0; i < c->n; i++)
        if (c->names[i] == def->name)
            return c->values[i];
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->names[i], def->name) == 0)
            return c->values[i];
    if (faults.count++ == 0) {
        char key[160];
        (void)ct_params_to_key(c, key, sizeof key);   /* a long key is cut short: still a clue */
        snprintf(faults.first, sizeof faults.first, "read of parameter %.40s, which candidate {%.150s} lacks",
                 def->name, key);
    }
    return def->dflt;
}

void ct_params_read(const ct_params *c, const ct_param_def *defs, int n, long *v)
{
    for (int i = 0; i < n; i++)
        v[i] = ct_param_read(c, &defs[i]);
}

/* Which of all[0..nall) decl declares, remembered for the last few
 * (decl, all) pairs a thread asked about (a space walks one template's
 * candidates, a kind's model asks with one or two full lists). */
static const unsigned char *declared(const ct_param_def *decl, int ndecl, const ct_param_def *all, int nall)
{
    enum { SLOTS = 4 };
    static _Thread_local struct {
        const ct_param_def *decl, *all;
        const char *first, *last;   /* decl's end names: a table built at a
                                     * freed one's address is not taken
                                     * for it */
        int ndecl, nall;
        unsigned char has[CT_MAX_PARAMS * 2];
    } memo[SLOTS];
    static _Thread_local int next;
    if (nall > CT_MAX_PARAMS * 2 || ndecl < 1)
        return NULL;   /* looked up each time */
    for (int k = 0; k < SLOTS; k++)
        if (memo[k].decl == decl && memo[k].all == all && memo[k].ndecl == ndecl && memo[k].nall == nall &&
            memo[k].first == decl[0].name && memo[k].last == decl[ndecl - 1].name)
            return memo[k].has;
    const int k = next;
    next = (next + 1) % SLOTS;
    memo[k].decl = decl;
    memo[k].all = all;
    memo[k].first = decl[0].name;
    memo[k].last = decl[ndecl - 1].name;
    memo[k].ndecl = ndecl;
    memo[k].nall = nall;
    for (int i = 0; i < nall; i++)
        memo[k].has[i] = ct_param_find(decl, ndecl, all[i].name) != NULL;
    return memo[k].has;
}

void ct_params_read_part(const ct_params *c, const ct_param_def *decl, int ndecl, const ct_param_def *all, int nall,
                         long missing, long *v)
{
    const unsigned char *has = declared(decl, ndecl, all, nall);
    for (int i = 0; i < nall; i++) {
        const int in = has ? has[i] : ct_param_find(decl, ndecl, all[i].name) != NULL;
        v[i] = in ? ct_param_read(c, &all[i]) : missing == CT_PARAM_DFLT ? all[i].dflt : missing;
    }
}

void ct_params_write_part(ct_params *c, const ct_param_def *decl, int ndecl, const ct_param_def *all, int nall,
                          const long *v)
{
    const unsigned char *has = declared(decl, ndecl, all, nall);
    for (int i = 0; i < nall; i++)
        if (has ? has[i] : ct_param_find(decl, ndecl, all[i].name) != NULL)
            ct_params_set(c, all[i].name, v[i], NULL);
}

void ct_params_write(ct_params *c, const ct_param_def *defs, int n, const long *v)
{
    for (int i = 0; i < n; i++)
        ct_params_set(c, defs[i].name, v[i], NULL);
}

void ct_params_defaults(const ct_param_def *defs, int n, ct_params *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < n; i++)
        ct_params_set(out, defs[i].name, defs[i].dflt, NULL);
}

ct_status ct_params_faults(ct_err *e)
{
    if (faults.count == 0)
        return CT_OK;
    ct_status rc = ct_fail(e, CT_ERR_INTERNAL, "%s (%d faulty parameter read%s)", faults.first, faults.count,
                           faults.count == 1 ? "" : "s");
    faults.count = 0;
    return rc;
}

ct_status ct_params_to_json(const ct_params *p, const ct_param_def *defs, int ndefs,
                            char *buf, size_t len)
{
    ct_jw w;
    ct_jw_buffer(&w, buf, len, 0);
    ct_jw_object(&w, NULL);
    for (int i = 0; i < p->n; i++) {
        const ct_param_def *d = ct_param_find(defs, ndefs, p->names[i]);
        if (d && d->nsymbols > 0 && p->values[i] >= 0 && p->values[i] < d->nsymbols)
            ct_jw_string(&w, p->names[i], d->symbols[p->values[i]]);
        else
            ct_jw_int(&w, p->names[i], p->values[i]);
    }
    ct_jw_end(&w);
    return ct_jw_fits(&w) ? CT_OK : CT_ERR_INTERNAL;
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

ct_status ct_params_to_text(const ct_params *p, const ct_param_def *defs, int ndefs, char *buf, size_t len)
{
    size_t off = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->n && off < len; i++) {
        char num[32];
        const char *v = ct_param_value_text(ct_param_find(defs, ndefs, p->names[i]), p->values[i], num, sizeof num);
        off += (size_t)snprintf(buf + off, len - off, "%s%s=%s", i ? "," : "", p->names[i], v);
    }
    return off < len ? CT_OK : CT_ERR_INTERNAL;
}

/* The inverse of ct_params_to_json, with the JSON reader of json.h: an
 * object whose members are the template's parameters, each an integer or
 * one of its symbols. */
ct_status ct_params_from_json(const char *json, const ct_param_def *defs, int ndefs,
                              ct_params *out, ct_err *e)
{
    memset(out, 0, sizeof *out);
    ct_json *root = NULL;
    ct_status rc = CT_OK;
    if (ct_json_parse(json, strlen(json), &root, NULL) != CT_OK || root->type != CT_JSON_OBJECT) {
        ct_json_free(root);
        return ct_fail(e, CT_ERR_DB, "stored parameters are not a JSON object: %.60s", json);
    }
    for (size_t k = 0; k < root->n && rc == CT_OK; k++) {
        const ct_param_def *def = ct_param_find(defs, ndefs, root->keys[k]);
        const ct_json *v = root->items[k];
        char val[64];
        long x = 0;
        if (!def) {
            rc = ct_fail(e, CT_ERR_DB, "stored parameter '%.60s' is not a parameter of this template", root->keys[k]);
            break;
        }
        /* A string is a symbol's spelling only: "128" for 128 is text a tool
         * rewrote, and taking it would store two spellings of one value. */
        if (v->type == CT_JSON_STRING && def->nsymbols == 0) {
            char shown[44];
            size_t o = 0;
            for (const char *c = v->str; *c && o < 40; c++)   /* one line: control characters as '?' */
                shown[o++] = (unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c;
            shown[o] = '\0';
            rc = ct_fail(e, CT_ERR_DB, "parameter %s: expected an integer, got the string \"%s\"", def->name, shown);
            break;
        }
        if (v->type == CT_JSON_STRING)
            snprintf(val, sizeof val, "%s", v->str);
        else if (v->type == CT_JSON_NUMBER && v->is_integer)
            snprintf(val, sizeof val, "%lld", v->integer);
        else
            snprintf(val, sizeof val, "(%s)", ct_json_type_name(v->type));
        if ((rc = ct_param_parse_value(def, val, &x, e)) == CT_OK)
            rc = ct_params_set(out, def->name, x, e);
    }
    ct_json_free(root);
    if (rc != CT_OK)
        return rc;
    for (int i = 0; i < ndefs; i++) {
        int found = 0;
        for (int j = 0; j < out->n; j++)
            found |= strcmp(out->names[j], defs[i].name) == 0;
        /* A parameter added later: its default is the code stored before. */
        if (!found && defs[i].added)
            ct_params_set(out, defs[i].name, defs[i].dflt, NULL);
        else if (!found)
            return ct_fail(e, CT_ERR_DB, "stored parameters lack %s", defs[i].name);
    }
    /* Keep declaration order, so keys and names are stable. */
    ct_params ordered = {0};
    for (int i = 0; i < ndefs; i++)
        ct_params_set(&ordered, defs[i].name, ct_params_get(out, defs[i].name, 0), NULL);
    *out = ordered;
    return CT_OK;
}
