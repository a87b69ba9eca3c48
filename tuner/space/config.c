/* config.c - INI loading with inih. */
#include "config.h"

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "resources.h"
#include "text.h"

typedef enum { KEY_INT, KEY_DOUBLE, KEY_U64 } key_type;

typedef struct setting_key {
    const char *section, *key;
    key_type type;
    size_t offset;
    double min, max;
} setting_key;

#define S(sec, k, ty, field, lo, hi) {sec, k, ty, offsetof(ct_settings, field), lo, hi}
static const setting_key setting_keys[] = {
    S("measure", "warmup", KEY_INT, warmup, 0, 1000),
    S("measure", "min_reps", KEY_INT, min_reps, 1, 100000),
    S("measure", "max_reps", KEY_INT, max_reps, 1, 1000000),
    S("measure", "min_time_ms", KEY_DOUBLE, min_time_ms, 0, 60000),
    S("measure", "timeout_s", KEY_DOUBLE, timeout_s, 0.1, 86400),
    S("measure", "retime_spread", KEY_DOUBLE, retime_spread, 0, 100),
    S("measure", "race_factor", KEY_DOUBLE, race_factor, 0, 1000),
    S("measure", "l2_flush", KEY_INT, l2_flush, 0, 1),
    S("verify", "tolerance", KEY_DOUBLE, tolerance, 0, 1),
    S("verify", "seed", KEY_U64, seed, 0, 1.8e19),
    S("tune", "jobs", KEY_INT, jobs, 0, 1024),
    S("tune", "max_candidates", KEY_INT, max_candidates, 1, 1000000),
    S("tune", "retime_top", KEY_INT, retime_top, 0, 100),
};
#undef S

typedef struct load_ctx {
    ct_config *c;
    ct_err err;
    int failed;              /* a handler error is in err ...            */
    int err_line;            /* ... on this line                          */
    const char *cursor;      /* the text not yet handed to inih           */
    int line;                /* the line inih is parsing now (1-based)    */
    int after_key;           /* a key line came since the last section    */
    /* What this text set so far: a key given twice is refused, since only
     * one of the two values can be meant. */
    unsigned long long settings_seen;   /* bit k: setting_keys[k] */
    struct { const ct_template *t; const ct_param_def *def; int kernel; } lists_seen[CT_MAX_SPACE_LISTS];
    int nlists_seen;
} load_ctx;

static const ct_template *find_template(const char *name)
{
    const ct_family *const *fams = ct_families();
    for (int i = 0; fams[i]; i++) {
        const ct_template *t = ct_template_find(fams[i], name);
        if (t)
            return t;
    }
    return NULL;
}

static int set_setting(load_ctx *x, const setting_key *k, const char *value)
{
    char *end = NULL;
    errno = 0;
    double v;
    if (k->type == KEY_DOUBLE) {
        v = strtod(value, &end);
    } else if (k->type == KEY_U64) {
        v = (double)strtoull(value, &end, 10);
        if (*value == '-')
            end = (char *)value;
    } else {
        v = (double)strtoll(value, &end, 10);
    }
    while (end && (*end == ' ' || *end == '\t'))
        end++;
    if (errno || end == value || *end != '\0' || !isfinite(v) || v < k->min || v > k->max) {
        ct_fail(&x->err, CT_ERR_CONFIG, "[%s] %s: bad value '%s' (expected a number in %g..%g)",
                k->section, k->key, ct_echo(value, (char[CT_ECHO_LEN]){0}, CT_ECHO_LEN), k->min, k->max);
        return 0;
    }
    char *field = (char *)&x->c->s + k->offset;
    if (k->type == KEY_INT)
        *(int *)(void *)field = (int)v;
    else if (k->type == KEY_DOUBLE)
        *(double *)(void *)field = v;
    else
        *(unsigned long long *)(void *)field = strtoull(value, NULL, 10);
    return 1;
}

/* The parameter of t named name, or NULL. */
static const ct_param_def *param_of(const ct_template *t, const char *name)
{
    for (int i = 0; i < t->nparams; i++)
        if (strcmp(t->params[i].name, name) == 0)
            return &t->params[i];
    return NULL;
}

/* kernel: the list comes from a [kernel.K] section. Within one file a
 * template's own [space.T] list is the more specific and wins over its
 * kind's, in either order; the same section's key twice is refused. */
static int set_list(load_ctx *x, const ct_template *t, const char *name, const char *value, int kernel)
{
    const ct_param_def *def = param_of(t, name);
    char sec[80];   /* the section as the file names it, for the messages */
    snprintf(sec, sizeof sec, "%s.%s", kernel ? "kernel" : "space", kernel ? t->kernel : t->name);
    if (!def) {
        ct_fail(&x->err, CT_ERR_CONFIG, "[space.%s]: unknown parameter '%s'", t->name,
                ct_echo(name, (char[CT_ECHO_LEN]){0}, CT_ECHO_LEN));
        return 0;
    }
    int seen = 0;
    for (int i = 0; i < x->nlists_seen && !seen; i++)
        if (x->lists_seen[i].t == t && x->lists_seen[i].def == def) {
            if (x->lists_seen[i].kernel != kernel) {
                if (kernel)
                    return 1;   /* the template's own list stays */
                x->lists_seen[i].kernel = 0;
                seen = 1;
                continue;
            }
            ct_fail(&x->err, CT_ERR_CONFIG, "[%s] %s: given twice in this file", sec, name);
            return 0;
        }
    if (!seen && x->nlists_seen < CT_MAX_SPACE_LISTS) {
        x->lists_seen[x->nlists_seen].t = t;
        x->lists_seen[x->nlists_seen].kernel = kernel;
        x->lists_seen[x->nlists_seen++].def = def;
    }
    ct_space_list l = {.tmpl = t, .def = def};
    char buf[512];
    snprintf(buf, sizeof buf, "%s", value);
    /* Split on commas by hand: strtok would skip an empty item ("32,,64"). */
    for (char *tok = buf, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        if (strspn(tok, " \t") == strlen(tok)) {
            ct_fail(&x->err, CT_ERR_CONFIG, "[%s] %s: empty value in the list", sec, name);
            return 0;
        }
        if (l.nvals >= CT_MAX_VALUES) {
            ct_fail(&x->err, CT_ERR_CONFIG, "[%s] %s: more than %d values", sec, name, CT_MAX_VALUES);
            return 0;
        }
        long v;
        ct_err pe;
        if (ct_param_parse_value(def, tok, &v, &pe) != CT_OK) {
            ct_fail(&x->err, CT_ERR_CONFIG, "[%s] %s", sec, pe.msg);
            return 0;
        }
        for (int i = 0; i < l.nvals; i++)
            if (l.vals[i] == v) {
                ct_fail(&x->err, CT_ERR_CONFIG, "[%s] %s: value listed twice", sec, name);
                return 0;
            }
        l.vals[l.nvals++] = v;
    }
    if (l.nvals == 0) {
        ct_fail(&x->err, CT_ERR_CONFIG, "[%s] %s: empty value list", sec, name);
        return 0;
    }
    ct_config *c = x->c;
    for (int i = 0; i < c->nlists; i++)
        if (c->lists[i].tmpl == t && c->lists[i].def == def) {
            c->lists[i] = l;
            return 1;
        }
    if (c->nlists >= CT_MAX_SPACE_LISTS) {
        ct_fail(&x->err, CT_ERR_CONFIG, "too many parameter lists");
        return 0;
    }
    c->lists[c->nlists++] = l;
    return 1;
}

/* Calls fn on each template of the kernel kind named kernel (ct_template's
 * kernel, the folder templates/kernels/KERNEL/); returns how many there are,
 * or -1 when fn returned 0 (it stops there). */
static int each_of_kernel(const char *kernel, int (*fn)(void *, const ct_template *), void *arg)
{
    const ct_family *const *fams = ct_families();
    int n = 0;
    for (int i = 0; fams[i]; i++)
        for (int k = 0; k < fams[i]->ntemplates; k++) {
            const ct_template *t = &fams[i]->templates[k];
            if (!t->kernel || strcmp(t->kernel, kernel) != 0)
                continue;
            n++;
            if (fn && !fn(arg, t))
                return -1;
        }
    return n;
}

/* A [kernel.K] key: its list for every template of K with that parameter
 * (the kind's templates in two families may differ in a parameter that
 * only one of them has); a key none of them has is refused. */
typedef struct kernel_key {
    load_ctx *x;
    const char *name, *value;
    int applied;
} kernel_key;

static int kernel_key_set(void *arg, const ct_template *t)
{
    kernel_key *k = arg;
    if (!param_of(t, k->name))
        return 1;
    k->applied++;
    return set_list(k->x, t, k->name, k->value, 1);
}

static int set_kernel_list(load_ctx *x, const char *kernel, const char *name, const char *value)
{
    kernel_key k = {.x = x, .name = name, .value = value};
    int n = each_of_kernel(kernel, kernel_key_set, &k);
    if (n < 0)
        return 0;
    if (n == 0) {
        ct_fail(&x->err, CT_ERR_CONFIG, "unknown kernel kind in section [kernel.%s]", kernel);
        return 0;
    }
    if (k.applied == 0) {
        ct_fail(&x->err, CT_ERR_CONFIG, "[kernel.%s]: unknown parameter '%s'", kernel, name);
        return 0;
    }
    return 1;
}

static int known_section(const char *name)
{
    if (strncmp(name, "space.", 6) == 0)
        return find_template(name + 6) != NULL;
    if (strncmp(name, "kernel.", 7) == 0)
        return each_of_kernel(name + 7, NULL, NULL) > 0;
    for (size_t i = 0; i < sizeof setting_keys / sizeof setting_keys[0]; i++)
        if (strcmp(setting_keys[i].section, name) == 0)
            return 1;
    return 0;
}

/* Record the first error and its line. */
static void fail_at_line(load_ctx *x, const char *fmt, const char *arg)
{
    if (x->failed)
        return;
    ct_fail(&x->err, CT_ERR_CONFIG, fmt, arg);
    x->failed = 1;
    x->err_line = x->line;
}

/* inih reads through this, so that we know the line of every callback,
 * refuse lines longer than inih's buffer (which it would split in two) and
 * check section names even for sections without keys. */
static char *read_line(char *str, int num, void *stream)
{
    load_ctx *x = stream;
    if (!*x->cursor)
        return NULL;
    const char *nl = strchr(x->cursor, '\n');
    size_t len = nl ? (size_t)(nl - x->cursor) + 1 : strlen(x->cursor);
    x->line++;
    if (len > (size_t)num - 1) {
        fail_at_line(x, "line longer than %s characters", "198");
        memcpy(str, "\n", 2);   /* an empty line: parsing goes on, the error stays */
        x->cursor = nl ? nl + 1 : x->cursor + strlen(x->cursor);
        return str;
    }
    memcpy(str, x->cursor, len);
    str[len] = '\0';
    x->cursor += len;
    const char *t = str;
    while (*t == ' ' || *t == '\t')
        t++;
    const int blank = *t == '\0' || *t == '\n' || *t == '\r', comment = *t == ';' || *t == '#';
    /* inih takes an indented line after a key as more of that key's value
     * (a continuation line), which then reads as the key given twice, or
     * as a value with the next key's text in it: refuse it here, naming
     * this line. */
    if (!blank && !comment && t > str && x->after_key) {
        char text[CT_ECHO_LEN];
        char one[200];
        snprintf(one, sizeof one, "%.*s", (int)strcspn(t, "\r\n"), t);
        fail_at_line(x, "indented line '%s': INI reads an indented line as the continuation of the key above; "
                        "remove the indentation", ct_echo(one, text, sizeof text));
    }
    if (!blank && !comment)
        x->after_key = *t != '[';
    if (*t == '[') {
        char name[128];
        const char *close = strchr(t, ']');
        size_t n = close ? (size_t)(close - t - 1) : 0;
        if (close && n < sizeof name) {
            memcpy(name, t + 1, n);
            name[n] = '\0';
            if (!known_section(name))
                fail_at_line(x, strncmp(name, "space.", 6) == 0    ? "unknown template in section [%s]"
                                : strncmp(name, "kernel.", 7) == 0 ? "unknown kernel kind in section [%s]"
                                                                   : "unknown section [%s]", name);
        }
    }
    return str;
}

/* inih handler: returning 0 makes ini_parse report this line. */
static int on_entry(void *user, const char *section, const char *name, const char *value)
{
    load_ctx *x = user;
    if (x->failed)
        return 1;   /* keep the first error only */
    int ok = 0;
    if (strncmp(section, "space.", 6) == 0) {
        const ct_template *t = find_template(section + 6);
        if (!t)
            ct_fail(&x->err, CT_ERR_CONFIG, "unknown template in section [%s]", section);
        else
            ok = set_list(x, t, name, value, 0);
    } else if (strncmp(section, "kernel.", 7) == 0) {
        ok = set_kernel_list(x, section + 7, name, value);
    } else {
        int known_section = 0;
        for (size_t i = 0; i < sizeof setting_keys / sizeof setting_keys[0]; i++) {
            if (strcmp(setting_keys[i].section, section) != 0)
                continue;
            known_section = 1;
            if (strcmp(setting_keys[i].key, name) == 0) {
                if (x->settings_seen & (1ULL << i)) {
                    ct_fail(&x->err, CT_ERR_CONFIG, "[%s] %s: given twice in this file", section, name);
                    x->failed = 1;
                    x->err_line = x->line;
                    return 0;
                }
                x->settings_seen |= 1ULL << i;
                if (set_setting(x, &setting_keys[i], value))
                    return 1;
                x->failed = 1;
                x->err_line = x->line;
                return 0;
            }
        }
        if (!known_section)
            ct_fail(&x->err, CT_ERR_CONFIG, "unknown section [%s]", section);
        else
            ct_fail(&x->err, CT_ERR_CONFIG, "[%s]: unknown key '%s'", section,
                    ct_echo(name, (char[CT_ECHO_LEN]){0}, CT_ECHO_LEN));
    }
    if (!ok) {
        x->failed = 1;
        x->err_line = x->line;
    }
    return ok;
}

/* seen (may be NULL) gathers the settings the text gives. */
static ct_status apply_text(ct_config *c, const char *text, const char *name, unsigned long long *seen, ct_err *e)
{
    ct_config work = *c;
    load_ctx x = {.c = &work, .cursor = text};
    int line = ini_parse_stream(read_line, &x, on_entry, &x);
    /* inih reports the first bad line; ours may be a later or an earlier one
     * (an unknown empty section, an overlong line): report the earliest. */
    if (line != 0 && (!x.failed || line < x.err_line))
        return ct_fail(e, CT_ERR_CONFIG, "%s:%d: malformed line (expected [section] or key = value)",
                       name, line);
    if (x.failed)
        return ct_fail(e, CT_ERR_CONFIG, "%s:%d: %s", name, x.err_line, x.err.msg);
    if (line < 0)
        return ct_fail(e, CT_ERR_INTERNAL, "%s: inih could not allocate memory", name);
    if (work.s.max_reps < work.s.min_reps)
        return ct_fail(e, CT_ERR_CONFIG, "%s: [measure] max_reps (%d) is below min_reps (%d)", name,
                       work.s.max_reps, work.s.min_reps);
    *c = work;
    if (seen)
        *seen |= x.settings_seen;
    return CT_OK;
}

ct_status ct_config_apply_text(ct_config *c, const char *text, const char *name, ct_err *e)
{
    return apply_text(c, text, name, NULL, e);
}

ct_status ct_config_apply_file(ct_config *c, const char *path, ct_err *e)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return ct_fail(e, CT_ERR_CONFIG, "config %s: %s", path, strerror(errno));
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (cap - len < 4096) {
            cap = cap ? cap * 2 : 8192;
            if (cap > (1u << 24)) {
                free(buf);
                fclose(f);
                return ct_fail(e, CT_ERR_CONFIG, "config %s: larger than 16 MiB", path);
            }
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
            }
            buf = nb;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0)
            break;
    }
    int rerr = ferror(f);
    fclose(f);
    if (rerr) {
        free(buf);
        return ct_fail(e, CT_ERR_CONFIG, "config %s: read error", path);
    }
    buf[len] = '\0';
    if (memchr(buf, '\0', len)) {
        free(buf);
        return ct_fail(e, CT_ERR_CONFIG, "config %s: not a text file", path);
    }
    ct_status rc = ct_config_apply_text(c, buf, path, e);
    free(buf);
    return rc;
}

/* A built-in INI file: an INI file of configs/, or the value lists of a kernel kind
 * (templates/kernels/K/values.ini). */
static int builtin_ini(const char *path)
{
    size_t n = strlen(path);
    if (strncmp(path, "configs/", 8) == 0)
        return 1;
    return strncmp(path, "templates/kernels/", 18) == 0 && n > 11 && strcmp(path + n - 11, "/values.ini") == 0;
}

/* Every default, settings and value lists alike, is declared once: in the
 * built-in INI files, which must therefore give every setting. */
ct_status ct_config_init(ct_config *c, ct_err *e)
{
    memset(c, 0, sizeof *c);
    unsigned long long seen = 0;
    for (const ct_resource_entry *r = ct_resource_table; r->path; r++) {
        if (!builtin_ini(r->path))
            continue;
        ct_status rc = apply_text(c, r->data, r->path, &seen, e);
        if (rc != CT_OK)
            return rc;
    }
    for (size_t i = 0; i < sizeof setting_keys / sizeof setting_keys[0]; i++)
        if (!(seen & (1ULL << i)))
            return ct_fail(e, CT_ERR_INTERNAL, "the built-in configs give no [%s] %s", setting_keys[i].section,
                           setting_keys[i].key);
    return CT_OK;
}

const ct_space_list *ct_config_list(const ct_config *c, const ct_template *t, const char *param)
{
    for (int i = 0; i < c->nlists; i++)
        if (c->lists[i].tmpl == t && strcmp(c->lists[i].def->name, param) == 0)
            return &c->lists[i];
    return NULL;
}

void ct_settings_json(const ct_settings *s, char *buf, size_t len)
{
    ct_jw j;
    ct_jw_buffer(&j, buf, len, 0);
    ct_jw_object(&j, NULL);
    ct_jw_int(&j, "warmup", s->warmup);
    ct_jw_int(&j, "min_reps", s->min_reps);
    ct_jw_int(&j, "max_reps", s->max_reps);
    ct_jw_number(&j, "min_time_ms", "%g", s->min_time_ms);
    ct_jw_number(&j, "tolerance", "%g", s->tolerance);
    ct_jw_uint(&j, "seed", s->seed);
    ct_jw_int(&j, "max_candidates", s->max_candidates);
    ct_jw_number(&j, "timeout_s", "%g", s->timeout_s);
    ct_jw_number(&j, "retime_spread", "%g", s->retime_spread);
    ct_jw_number(&j, "race_factor", "%g", s->race_factor);
    ct_jw_int(&j, "l2_flush", s->l2_flush);
    ct_jw_int(&j, "retime_top", s->retime_top);
    ct_jw_end(&j);
}
