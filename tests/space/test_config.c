/* test_config.c - the built-in configuration (the configs/ INI files
 * embedded in the library) and INI overrides from text and from files: defaults, value lists,
 * error messages naming NAME:LINE:, atomicity of a failed apply. No GPU. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "check.h"
#include "config.h"
#include "problem.h"

#include <stdio.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static char tmpdir[512];

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static const ct_template *tmpl(const char *name)
{
    const ct_family *f = ct_family_find("conv1d");
    return f ? ct_template_find(f, name) : NULL;
}

static const ct_space_list *list_of(const ct_config *c, const char *t, const char *param)
{
    const ct_template *tp = tmpl(t);
    return tp ? ct_config_list(c, tp, param) : NULL;
}

/* Whether list l holds exactly the n values want, in order. */
static int list_is(const ct_space_list *l, const long *want, int n)
{
    if (!l || l->nvals != n)
        return 0;
    for (int i = 0; i < n; i++)
        if (l->vals[i] != want[i])
            return 0;
    return 1;
}

static void fresh(ct_config *c)
{
    ct_err e;
    memset(&e, 0, sizeof e);
    ct_status rc = ct_config_init(c, &e);
    CHECK_MSG(rc == CT_OK, "ct_config_init: %s", e.msg);
}

/* Apply text, which must fail with CT_ERR_CONFIG, a message starting with
 * "over.ini:LINE:" (line > 0) or "over.ini:" (line 0) and containing frag,
 * and leave the configuration byte for byte as it was. */
static void expect_error(const char *text, int line, const char *frag)
{
    static ct_config c, before;
    fresh(&c);
    memcpy(&before, &c, sizeof c);
    ct_err e;
    memset(&e, 0, sizeof e);
    ct_status rc = ct_config_apply_text(&c, text, "over.ini", &e);
    CHECK_MSG(rc == CT_ERR_CONFIG, "status %d for:\n%s", (int)rc, text);
    char prefix[64];
    if (line > 0)
        snprintf(prefix, sizeof prefix, "over.ini:%d:", line);
    else
        snprintf(prefix, sizeof prefix, "over.ini:");
    CHECK_MSG(strncmp(e.msg, prefix, strlen(prefix)) == 0, "message does not start with '%s': %s",
              prefix, e.msg);
    CHECK_MSG(strstr(e.msg, frag) != NULL, "message lacks '%s': %s", frag, e.msg);
    CHECK_MSG(memcmp(&c, &before, sizeof c) == 0, "failed apply changed the config:\n%s", text);
}

static int write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    int ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

/* ------------------------------------------------------------------------ */
/* Defaults, against the INI files of the source tree                       */

/* A small INI reader of the test's own, for the shipped files: sections,
 * key = value, whole-line comments (; or #) and inline " ; comments". */
typedef struct ini_kv {
    char file[64], section[64], key[64], value[256];
    int dup;   /* the same section/key is set by more than one file */
} ini_kv;

static int nkv;
static ini_kv kvs[512];

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

/* Truncating string copy. */
static void copy(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static void read_ini(const char *dir, const char *file)
{
    char path[2400], line[1024], section[64] = "";
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    CHECK_MSG(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        char *s = trim(line);
        if (!*s || *s == ';' || *s == '#')
            continue;
        if (*s == '[') {
            char *close = strchr(s, ']');
            CHECK_MSG(close != NULL, "%s: bad section line %s", file, s);
            if (close)
                *close = '\0';
            copy(section, sizeof section, s + 1);
            continue;
        }
        char *eq = strchr(s, '=');
        CHECK_MSG(eq != NULL, "%s: bad line %s", file, s);
        if (!eq)
            continue;
        *eq = '\0';
        char *value = eq + 1;
        for (char *q = value; *q; q++)
            if (*q == ';' && (q == value || q[-1] == ' ' || q[-1] == '\t')) {
                *q = '\0';
                break;
            }
        if (nkv >= (int)(sizeof kvs / sizeof kvs[0]))
            break;
        ini_kv *kv = &kvs[nkv];
        memset(kv, 0, sizeof *kv);
        copy(kv->file, sizeof kv->file, file);
        copy(kv->section, sizeof kv->section, section);
        copy(kv->key, sizeof kv->key, trim(s));
        copy(kv->value, sizeof kv->value, trim(value));
        for (int i = 0; i < nkv; i++)
            if (strcmp(kvs[i].section, kv->section) == 0 && strcmp(kvs[i].key, kv->key) == 0) {
                if (strcmp(kvs[i].file, kv->file) != 0)
                    kvs[i].dup = kv->dup = 1;
                else
                    kvs[i].dup = 2;   /* superseded within its file */
            }
        nkv++;
    }
    fclose(f);
}

static void read_shipped_configs(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/configs", CT_SOURCE_DIR);
    DIR *d = opendir(dir);
    CHECK_MSG(d != NULL, "cannot open the configs directory of the source tree");
    if (!d)
        return;
    int files = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        size_t n = strlen(de->d_name);
        if (n > 4 && strcmp(de->d_name + n - 4, ".ini") == 0) {
            read_ini(dir, de->d_name);
            files++;
        }
    }
    closedir(d);
    CHECK(files >= 2);   /* default.ini and one per family */
    /* Each kernel kind's value lists (templates/kernels/K/values.ini). */
    snprintf(dir, sizeof dir, "%s/templates/kernels", CT_SOURCE_DIR);
    d = opendir(dir);
    CHECK_MSG(d != NULL, "cannot open the kernel folders of the source tree");
    if (!d)
        return;
    int kinds = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        char kdir[1400], ini[1500];
        snprintf(kdir, sizeof kdir, "%s/%s", dir, de->d_name);
        snprintf(ini, sizeof ini, "%s/values.ini", kdir);
        if (de->d_name[0] == '.' || access(ini, F_OK) != 0)
            continue;
        read_ini(kdir, "values.ini");
        kinds++;
    }
    closedir(d);
    CHECK(kinds >= 1);
}

/* The setting named section/key of s as a double (seed exactly through *u). */
static int setting_of(const ct_settings *s, const char *section, const char *key, double *v,
                      unsigned long long *u)
{
    static const struct {
        const char *section, *key;
    } names[] = {
        {"measure", "warmup"}, {"measure", "min_reps"}, {"measure", "max_reps"},
        {"measure", "min_time_ms"}, {"verify", "tolerance"}, {"verify", "seed"},
        {"tune", "jobs"}, {"tune", "max_candidates"}, {"measure", "timeout_s"},
        {"measure", "retime_spread"}, {"measure", "race_factor"}, {"measure", "l2_flush"},
        {"tune", "retime_top"},
    };
    const double vals[] = {s->warmup, s->min_reps, s->max_reps, s->min_time_ms, s->tolerance,
                           (double)s->seed, s->jobs, s->max_candidates, s->timeout_s,
                           s->retime_spread, s->race_factor, s->l2_flush, s->retime_top};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i].section, section) == 0 && strcmp(names[i].key, key) == 0) {
            *v = vals[i];
            *u = s->seed;
            return 1;
        }
    return 0;
}

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

/* Whether l holds the comma-separated values of text (symbols by name). */
static int list_text_is(const ct_space_list *l, const char *text)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        tok = trim(tok);
        long v = -1;
        int sym = 0;
        for (int k = 0; k < l->def->nsymbols; k++)
            if (strcasecmp(l->def->symbols[k], tok) == 0)
                v = k, sym = 1;
        if (!sym)
            v = strtol(tok, NULL, 10);
        if (n >= l->nvals || l->vals[n] != v)
            return 0;
        n++;
    }
    return n == l->nvals;
}

static void test_defaults(void)
{
    static ct_config c;
    fresh(&c);

    /* Every setting default.ini writes is what ct_config_init holds. */
    read_shipped_configs();
    static const char *const required[] = {"warmup", "min_reps", "max_reps", "min_time_ms",
                                           "tolerance", "seed", "jobs", "max_candidates"};
    int found_required[sizeof required / sizeof required[0]] = {0};
    int space_entries = 0;
    for (int i = 0; i < nkv; i++) {
        const ini_kv *kv = &kvs[i];
        if (kv->dup)
            continue;   /* the winner depends on the embedding order; not checked */
        if (strncmp(kv->section, "kernel.", 7) == 0) {
            /* Every template of the kind with that parameter has the list. */
            int applied = 0, of_kind = 0;
            const ct_family *const *fams = ct_families();
            for (int fi = 0; fams[fi]; fi++)
                for (int ti = 0; ti < fams[fi]->ntemplates; ti++) {
                    const ct_template *t = &fams[fi]->templates[ti];
                    if (!t->kernel || strcmp(t->kernel, kv->section + 7) != 0)
                        continue;
                    of_kind++;
                    const ct_space_list *l = ct_config_list(&c, t, kv->key);
                    int has = 0;
                    for (int p = 0; p < t->nparams; p++)
                        has |= strcmp(t->params[p].name, kv->key) == 0;
                    if (!has)
                        continue;
                    applied++;
                    CHECK_MSG(l && list_text_is(l, kv->value), "%s %s: not the [%s] list %s", t->name, kv->key,
                              kv->section, kv->value);
                }
            CHECK_MSG(of_kind > 0, "%s: [%s] names no kernel kind a family uses", kv->file, kv->section);
            CHECK_MSG(applied > 0, "%s: [%s] %s is no parameter of its templates", kv->file, kv->section, kv->key);
            space_entries += applied;
            continue;
        }
        if (strncmp(kv->section, "space.", 6) == 0) {
            space_entries++;
            const ct_template *t = find_template(kv->section + 6);
            CHECK_MSG(t != NULL, "%s: [%s] names no template", kv->file, kv->section);
            if (!t)
                continue;
            const ct_param_def *def = NULL;
            for (int p = 0; p < t->nparams; p++)
                if (strcmp(t->params[p].name, kv->key) == 0)
                    def = &t->params[p];
            CHECK_MSG(def != NULL, "%s: %s is no parameter of %s", kv->file, kv->key, t->name);
            const ct_space_list *l = ct_config_list(&c, t, kv->key);
            CHECK_MSG(l != NULL, "no list for %s %s", t->name, kv->key);
            if (!def || !l)
                continue;
            char buf[256];
            snprintf(buf, sizeof buf, "%s", kv->value);
            int n = 0;
            char *save = NULL;
            for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                tok = trim(tok);
                long v = -1;
                int sym = 0;
                for (int k = 0; k < def->nsymbols; k++)
                    if (strcasecmp(def->symbols[k], tok) == 0) {
                        v = k;
                        sym = 1;
                    }
                if (!sym)
                    v = strtol(tok, NULL, 10);
                CHECK_MSG(n < l->nvals && l->vals[n] == v, "%s %s: value %d is not %s", t->name,
                          kv->key, n, tok);
                n++;
            }
            CHECK_MSG(n == l->nvals, "%s %s: %d values in the file, %d loaded", t->name, kv->key,
                      n, l->nvals);
            continue;
        }
        double v;
        unsigned long long u;
        CHECK_MSG(setting_of(&c.s, kv->section, kv->key, &v, &u), "%s: unknown [%s] %s", kv->file,
                  kv->section, kv->key);
        if (!setting_of(&c.s, kv->section, kv->key, &v, &u))
            continue;
        for (size_t r = 0; r < sizeof required / sizeof required[0]; r++)
            if (strcmp(required[r], kv->key) == 0)
                found_required[r] = 1;
        if (strcmp(kv->key, "seed") == 0)
            CHECK(u == strtoull(kv->value, NULL, 10));
        else
            CHECK_MSG(v == strtod(kv->value, NULL), "[%s] %s: loaded %g, file says %s",
                      kv->section, kv->key, v, kv->value);
    }
    for (size_t r = 0; r < sizeof required / sizeof required[0]; r++)
        CHECK_MSG(found_required[r], "default.ini does not set %s", required[r]);

    /* Sanity of the defaults whatever their values. */
    CHECK(c.s.tolerance > 0 && c.s.tolerance < 1e-2);
    CHECK(c.s.min_reps >= 1 && c.s.max_reps >= c.s.min_reps);
    CHECK(c.s.max_candidates >= 1);

    /* A value list for every parameter of every template of every family,
     * non-empty and without repeats, and no list for anything else. */
    int expected_lists = 0;
    const ct_family *const *fams = ct_families();
    for (int fi = 0; fams[fi]; fi++) {
        const ct_family *f = fams[fi];
        for (int ti = 0; ti < f->ntemplates; ti++) {
            const ct_template *t = &f->templates[ti];
            for (int pi = 0; pi < t->nparams; pi++) {
                const ct_param_def *d = &t->params[pi];
                const ct_space_list *l = ct_config_list(&c, t, d->name);
                expected_lists++;
                CHECK_MSG(l != NULL, "no value list for %s %s", t->name, d->name);
                if (!l)
                    continue;
                CHECK(l->tmpl == t);
                CHECK(l->def == d);
                CHECK_MSG(l->nvals >= 1 && l->nvals <= CT_MAX_VALUES, "%s %s: %d values", t->name,
                          d->name, l->nvals);
                for (int i = 0; i < l->nvals; i++) {
                    for (int j = 0; j < i; j++)
                        CHECK_MSG(l->vals[i] != l->vals[j], "%s %s: repeated value", t->name,
                                  d->name);
                    if (d->nsymbols > 0)
                        CHECK(l->vals[i] >= 0 && l->vals[i] < d->nsymbols);
                }
            }
            CHECK(ct_config_list(&c, t, "NO_SUCH_PARAMETER") == NULL);
        }
    }
    CHECK(c.nlists == expected_lists);
    CHECK(c.nlists == space_entries);

    /* The naive template has no tiled parameters. */
    CHECK(list_of(&c, "conv1d_naive", "OUTPUTS_PER_THREAD") == NULL);
    const ct_space_list *mp = list_of(&c, "conv1d_tiled", "MASK_PLACEMENT");
    CHECK(mp && mp->def->nsymbols == 3);

    /* Initialising twice gives the same configuration. */
    static ct_config c2;
    fresh(&c2);
    CHECK(memcmp(&c, &c2, sizeof c) == 0);

    char json[512], want[64];
    ct_settings_json(&c.s, json, sizeof json);
    snprintf(want, sizeof want, "\"min_reps\":%d", c.s.min_reps);
    CHECK(strstr(json, want) != NULL);
    snprintf(want, sizeof want, "\"tolerance\":%g", c.s.tolerance);
    CHECK(strstr(json, want) != NULL);
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */

/* Every declared range of every template's parameters is enforced where
 * an INI file sets the parameter: one past each end is refused. */
static void test_declared_ranges(void)
{
    int n = 0;
    const ct_family *const *fams = ct_families();
    for (int i = 0; fams[i]; i++)
        for (int t = 0; t < fams[i]->ntemplates; t++) {
            const ct_template *tp = &fams[i]->templates[t];
            for (int k = 0; k < tp->nparams; k++) {
                const ct_param_def *d = &tp->params[k];
                if (d->nsymbols || d->max <= 0)
                    continue;
                char text[256], want[128];
                snprintf(text, sizeof text, "[space.%s]\n%s = %ld\n", tp->name, d->name, d->max + 1);
                snprintf(want, sizeof want, "%s: bad value %ld (at most %ld)", d->name, d->max + 1, d->max);
                expect_error(text, 2, want);
                snprintf(text, sizeof text, "[space.%s]\n%s = %ld\n", tp->name, d->name, d->min - 1);
                snprintf(want, sizeof want, "%s: bad value %ld (at least %ld)", d->name, d->min - 1, d->min);
                expect_error(text, 2, want);
                n++;
            }
        }
    CHECK_MSG(n >= 10, "only %d parameters declare a range", n);
}

static void test_errors(void)
{
    /* malformed lines */
    expect_error("just words\n", 1, "malformed");
    expect_error("[measure]\nwarmup = 2\nno equals sign here\n", 3, "malformed");
    expect_error("[measure\n", 1, "malformed");
    expect_error("; comment\n\n[measure]\n= 5\n", 4, "unknown key ''");
    /* unknown section (reported on its first key) */
    expect_error("[measure]\nwarmup = 1\n[bogus]\nx = 1\n", 3, "unknown section [bogus]");
    /* A section is checked on its own line, even when it has no keys. */
    expect_error("[measure]\nwarmup = 1\n[bogus]\n", 3, "unknown section [bogus]");
    expect_error("x = 1\n", 1, "unknown section");   /* keys before any section */
    expect_error("[Measure]\nwarmup = 1\n", 1, "unknown section");
    /* a key given twice in one file: which value was meant cannot be known */
    expect_error("[measure]\nwarmup = 1\nmin_reps = 5\nwarmup = 2\n", 4, "[measure] warmup: given twice");
    expect_error("[space.conv1d_naive]\nBLOCK_SIZE = 1024\nBLOCK_SIZE = 64, 32\n", 3,
                 "[space.conv1d_naive] BLOCK_SIZE: given twice");
    expect_error("[space.conv1d_tiled]\nALIGN = 16\n[measure]\nwarmup = 1\n[space.conv1d_tiled]\nALIGN = 128\n", 6,
                 "ALIGN: given twice");
    /* a kernel kind's lists: a kind no family uses, a parameter none of its
     * templates has, a key given twice */
    expect_error("[kernel.bogus]\nWSRC = 0\n", 1, "unknown kernel kind in section [kernel.bogus]");
    expect_error("[kernel.tc16wb]\nBLOCK_SIZE = 64\n", 2, "[kernel.tc16wb]: unknown parameter 'BLOCK_SIZE'");
    expect_error("[kernel.tc16wb]\nWSRC = 0\nWSRC = 1\n", 3, "[kernel.tc16wb] WSRC: given twice");
    expect_error("[kernel.tc16wb]\nWSRC = 0, x\n", 2, "[kernel.tc16wb] parameter WSRC: bad value");
    /* values below a parameter's least: no block of 0 threads, nothing negative */
    expect_error("[space.conv1d_tiled]\nBLOCK_SIZE = 0\n", 2, "BLOCK_SIZE: bad value 0 (at least 32)");
    expect_error("[space.conv1d_tiled]\nMASK_PAD = -1\n", 2, "MASK_PAD: bad value -1 (at least 0)");
    expect_error("[space.conv1d_tiled]\nOUTPUTS_PER_THREAD = 4, 0\n", 2, "OUTPUTS_PER_THREAD: bad value 0");
    /* values its constraint never admits, so the template would silently lose every candidate
     * (probe F102): refused against the parameter's declared range, naming file:line, section, key */
    expect_error("[space.conv1dc_simt]\nOUT_X = 0\n", 2,
                 "[space.conv1dc_simt] parameter OUT_X: bad value 0 (at least 1)");
    expect_error("[space.conv1dc_simt]\nOUT_X = 4, 17\n", 2, "[space.conv1dc_simt] parameter OUT_X: bad value 17 "
                                                             "(at most 16)");
    expect_error("[space.conv2dc_tiled]\nIMGS_PER_BLOCK = 1, 65\n", 2, "IMGS_PER_BLOCK: bad value 65 (at most 64)");
    test_declared_ranges();
    /* an indented line is inih's continuation of the key above: refused on its own line, not blamed
     * on the key (probe F112) */
    expect_error("[measure]\nwarmup = 3\n  min_reps = 5\n", 3, "indented line 'min_reps = 5': INI reads an "
                                                              "indented line as the continuation of the key above");
    expect_error("[space.conv1d_tiled]\nALIGN = 16\n\t128\n", 3, "indented line '128'");
    expect_error("[measure]\nwarmup = 3\n; note\n\n   min_reps = 5\n", 5, "indented line 'min_reps = 5'");
    /* unknown key in a known section */
    expect_error("[measure]\nbogus = 1\n", 2, "unknown key 'bogus'");
    expect_error("[verify]\nmin_reps = 5\n", 2, "unknown key 'min_reps'");
    /* bad values */
    expect_error("[measure]\nmin_reps = many\n", 2, "min_reps");
    expect_error("[measure]\nmin_reps = many\n", 2, "many");
    expect_error("\n[verify]\ntolerance = -1\n", 3, "tolerance");
    expect_error("[measure]\nmin_reps = 0\n", 2, "min_reps");
    expect_error("[measure]\nmin_reps = 2.5\n", 2, "min_reps");
    expect_error("[measure]\nmin_reps = 99999999999999999999\n", 2, "min_reps");
    expect_error("[measure]\nwarmup = -1\n", 2, "warmup");
    expect_error("[measure]\nwarmup = 5x\n", 2, "warmup");
    expect_error("[measure]\nwarmup =\n", 2, "warmup");
    expect_error("[measure]\nmin_time_ms = nan\n", 2, "min_time_ms");
    expect_error("[measure]\nmin_time_ms = inf\n", 2, "min_time_ms");
    expect_error("[verify]\ntolerance = 2\n", 2, "tolerance");
    expect_error("[verify]\nseed = -1\n", 2, "seed");
    expect_error("[tune]\nmax_candidates = 0\n", 2, "max_candidates");
    /* unknown template, unknown parameter */
    expect_error("[space.nope]\nBLOCK_SIZE = 32\n", 1, "unknown template");
    expect_error("[space.nope]\nBLOCK_SIZE = 32\n", 1, "nope");
    expect_error("[space.conv1d_tiled]\nTHREADS = 32\n", 2, "unknown parameter 'THREADS'");
    expect_error("[space.conv1d_naive]\nOUTPUTS_PER_THREAD = 4\n", 2, "unknown parameter");
    /* bad symbolic or integer values */
    expect_error("[space.conv1d_tiled]\nMASK_PLACEMENT = texture\n", 2, "texture");
    expect_error("[space.conv1d_tiled]\nMASK_PLACEMENT = texture\n", 2, "MASK_PLACEMENT");
    expect_error("[space.conv1d_tiled]\nMASK_PLACEMENT = shared, texture\n", 2, "texture");
    expect_error("[space.conv1d_tiled]\nMASK_PLACEMENT = 3\n", 2, "MASK_PLACEMENT");
    expect_error("[space.conv1d_tiled]\nBLOCK_SIZE = 64, big\n", 2, "BLOCK_SIZE");
    expect_error("[space.conv1d_tiled]\nBLOCK_SIZE = 6 4\n", 2, "BLOCK_SIZE");
    /* duplicate value, also spelled differently */
    expect_error("[space.conv1d_tiled]\nBLOCK_SIZE = 64, 128, 64\n", 2, "twice");
    expect_error("[space.conv1d_tiled]\nMASK_PLACEMENT = shared, 1\n", 2, "twice");
    /* empty list */
    expect_error("[space.conv1d_tiled]\nBLOCK_SIZE =\n", 2, "empty");
    expect_error("[space.conv1d_tiled]\nBLOCK_SIZE = ,\n", 2, "empty");
    /* too many values */
    char many[512] = "[space.conv1d_tiled]\nKCHUNK = 4";
    for (int i = 2; i <= CT_MAX_VALUES + 1; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), ",%d", 4 * i);
    strcat(many, "\n");
    expect_error(many, 2, "KCHUNK");
    /* the first error is the one reported */
    expect_error("[measure]\nwarmup = 1\nbogus = 1\n[verify]\ntolerance = -1\n", 3, "bogus");
    /* max_reps below min_reps: a cross-key check, reported without a line */
    expect_error("[measure]\nmin_reps = 50\nmax_reps = 10\n", 0, "max_reps");
    expect_error("[measure]\nmax_reps = 11\nmin_reps = 12\n", 0, "min_reps");
    expect_error("[measure]\nmin_reps = 100000\nmax_reps = 99999\n", 0, "max_reps");

    /* A failure after valid lines applies none of them. */
    static ct_config c, before;
    fresh(&c);
    memcpy(&before, &c, sizeof c);
    CHECK(c.s.min_reps != 7);
    ct_err e;
    CHECK(ct_config_apply_text(&c, "[measure]\nmin_reps = 7\n[space.conv1d_tiled]\n"
                                   "BLOCK_SIZE = 32\nbogus = 1\n", "x.ini", &e) == CT_ERR_CONFIG);
    CHECK(c.s.min_reps == before.s.min_reps);
    const ct_space_list *bs = list_of(&c, "conv1d_tiled", "BLOCK_SIZE");
    CHECK(bs && bs->nvals >= 1 && !(bs->nvals == 1 && bs->vals[0] == 32));
    CHECK(memcmp(&c, &before, sizeof c) == 0);
}

/* ------------------------------------------------------------------------ */
/* Valid overrides                                                          */

/* The list of param of the template named t, in any family. */
static const ct_space_list *kind_list(const ct_config *c, const char *t, const char *param)
{
    const ct_template *tp = find_template(t);
    return tp ? ct_config_list(c, tp, param) : NULL;
}

static void test_override(void)
{
    /* indentation before any key, and indented comments, are not continuations */
    {
        static ct_config c;
        fresh(&c);
        ct_err e;
        ct_status rc = ct_config_apply_text(&c, "[measure]\n  warmup = 3\n\n  ; note\n  # note\nmin_reps = 5\n",
                                            "indent.ini", &e);
        CHECK_MSG(rc == CT_OK && c.s.warmup == 3 && c.s.min_reps == 5, "indented first key: %s", e.msg);
    }
    static ct_config c, before;
    fresh(&c);
    memcpy(&before, &c, sizeof c);
    ct_err e;
    memset(&e, 0, sizeof e);
    ct_status rc = ct_config_apply_text(&c,
        "[measure]\nmin_reps = 7\n[space.conv1d_tiled]\nBLOCK_SIZE = 32, 96\n"
        "MASK_PLACEMENT = global\n", "over.ini", &e);
    CHECK_MSG(rc == CT_OK, "valid override rejected: %s", e.msg);
    CHECK(c.s.min_reps == 7);
    CHECK(c.s.max_reps == before.s.max_reps && c.s.warmup == before.s.warmup);
    CHECK(c.s.tolerance == before.s.tolerance && c.s.max_candidates == before.s.max_candidates);
    static const long bs[] = {32, 96}, global[] = {2};
    CHECK(list_is(list_of(&c, "conv1d_tiled", "BLOCK_SIZE"), bs, 2));
    CHECK(list_is(list_of(&c, "conv1d_tiled", "MASK_PLACEMENT"), global, 1));
    CHECK(c.nlists == before.nlists);
    /* Every other list is as it was, the naive BLOCK_SIZE included. */
    for (int i = 0; i < c.nlists; i++) {
        const ct_space_list *l = &c.lists[i];
        int changed = l->tmpl == tmpl("conv1d_tiled") &&
                      (strcmp(l->def->name, "BLOCK_SIZE") == 0 ||
                       strcmp(l->def->name, "MASK_PLACEMENT") == 0);
        if (!changed)
            CHECK_MSG(memcmp(l, &before.lists[i], sizeof *l) == 0, "list %s %s changed",
                      l->tmpl->name, l->def->name);
    }
    const ct_space_list *nb0 = list_of(&before, "conv1d_naive", "BLOCK_SIZE");
    CHECK(nb0 && list_is(list_of(&c, "conv1d_naive", "BLOCK_SIZE"), nb0->vals, nb0->nvals));

    /* Comments, blank lines, spacing, case of symbols; a later file wins. */
    rc = ct_config_apply_text(&c,
        "; a comment\n# another\n\n[verify]\n  tolerance=0.5   \nseed = 18\n"
        "[tune]\njobs = 4 ; inline comment\nmax_candidates = 9\n"
        "[space.conv1d_tiled]\nMASK_PLACEMENT = SHARED,constant\n"
        "[measure]\nmax_reps = 7\nwarmup = 0\nmin_time_ms = 0.25\n"
        "[space.conv1d_naive]\nBLOCK_SIZE = 64, 32\n", "more.ini", &e);
    CHECK_MSG(rc == CT_OK, "second override rejected: %s", e.msg);
    CHECK(c.s.tolerance == 0.5 && c.s.seed == 18 && c.s.jobs == 4);
    CHECK(c.s.max_candidates == 9 && c.s.max_reps == 7 && c.s.min_reps == 7);
    CHECK(c.s.warmup == 0 && c.s.min_time_ms == 0.25);
    static const long sc[] = {1, 0}, nb[] = {64, 32};
    CHECK(list_is(list_of(&c, "conv1d_tiled", "MASK_PLACEMENT"), sc, 2));
    CHECK(list_is(list_of(&c, "conv1d_naive", "BLOCK_SIZE"), nb, 2));
    CHECK(c.nlists == before.nlists);

    /* [kernel.K] sets the list of every template of kind K; a template's
     * own [space.T] list wins over it within a file, in either order. */
    rc = ct_config_apply_text(&c, "[kernel.tc16wb]\nWARPS_K = 4, 8\nCHUNKS = 1\n[space.conv2dc_tc16wb]\nWARPS_K = 2\n",
                              "kind.ini", &e);
    CHECK_MSG(rc == CT_OK, "kernel section rejected: %s", e.msg);
    static const long w48[] = {4, 8}, w2[] = {2}, ch1[] = {1};
    CHECK(list_is(kind_list(&c, "conv1dc_tc16wb", "WARPS_K"), w48, 2));
    CHECK(list_is(kind_list(&c, "conv2dc_tc16wb", "WARPS_K"), w2, 1));
    CHECK(list_is(kind_list(&c, "conv1dc_tc16wb", "CHUNKS"), ch1, 1));
    CHECK(list_is(kind_list(&c, "conv2dc_tc16wb", "CHUNKS"), ch1, 1));
    rc = ct_config_apply_text(&c, "[space.conv1dc_tc16wb]\nWARPS_K = 2\n[kernel.tc16wb]\nWARPS_K = 16\n", "k2.ini", &e);
    CHECK_MSG(rc == CT_OK, "kernel section after a template's rejected: %s", e.msg);
    static const long w16[] = {16};
    CHECK(list_is(kind_list(&c, "conv1dc_tc16wb", "WARPS_K"), w2, 1));
    CHECK(list_is(kind_list(&c, "conv2dc_tc16wb", "WARPS_K"), w16, 1));
    CHECK(c.nlists == before.nlists);

    /* Empty text changes nothing. */
    memcpy(&before, &c, sizeof c);
    CHECK(ct_config_apply_text(&c, "", "empty.ini", &e) == CT_OK);
    CHECK(memcmp(&c, &before, sizeof c) == 0);

    /* Seeds use the whole unsigned 64-bit range. */
    CHECK(ct_config_apply_text(&c, "[verify]\nseed = 18000000000000000000\n", "s.ini", &e) == CT_OK);
    CHECK(c.s.seed == 18000000000000000000ULL);
    /* A line longer than inih's buffer is an error on that line, never split in two. */
    {
        char longline[400];
        snprintf(longline, sizeof longline, "[measure]\n;%0250d\nwarmup = 50\n", 0);
        ct_settings before = c.s;
        CHECK(ct_config_apply_text(&c, longline, "long.ini", &e) == CT_ERR_CONFIG);
        CHECK_MSG(strncmp(e.msg, "long.ini:2:", 11) == 0, "%s", e.msg);
        CHECK(c.s.warmup == before.warmup);
    }
    /* An empty item inside a list. */
    CHECK(ct_config_apply_text(&c, "[space.conv1d_tiled]\nBLOCK_SIZE = 32,,64\n", "e.ini", &e) == CT_ERR_CONFIG);
    /* Large seeds: values up to 2^63-1 fit. */
    CHECK(ct_config_apply_text(&c, "[verify]\nseed = 9223372036854775807\n", "s.ini", &e) == CT_OK);
    CHECK(c.s.seed == 9223372036854775807ULL);
}

/* ------------------------------------------------------------------------ */
/* Files                                                                    */

static void test_files(void)
{
    static ct_config c, before;
    fresh(&c);
    memcpy(&before, &c, sizeof c);
    ct_err e;
    char path[700];

    /* missing file */
    snprintf(path, sizeof path, "%s/missing.ini", tmpdir);
    memset(&e, 0, sizeof e);
    CHECK(ct_config_apply_file(&c, path, &e) == CT_ERR_CONFIG);
    CHECK_MSG(strstr(e.msg, path) != NULL, "message lacks the path: %s", e.msg);
    CHECK(memcmp(&c, &before, sizeof c) == 0);

    /* a directory is not a config file */
    memset(&e, 0, sizeof e);
    CHECK(ct_config_apply_file(&c, tmpdir, &e) == CT_ERR_CONFIG);
    CHECK(strstr(e.msg, tmpdir) != NULL);
    CHECK(memcmp(&c, &before, sizeof c) == 0);

    /* one bad line: path and line number */
    snprintf(path, sizeof path, "%s/bad.ini", tmpdir);
    const char *bad = "[measure]\nwarmup = 4\nmin_reps = lots\n";
    CHECK(write_file(path, bad, strlen(bad)));
    memset(&e, 0, sizeof e);
    CHECK(ct_config_apply_file(&c, path, &e) == CT_ERR_CONFIG);
    char prefix[800];
    snprintf(prefix, sizeof prefix, "%s:3:", path);
    CHECK_MSG(strstr(e.msg, prefix) != NULL, "message lacks '%s': %s", prefix, e.msg);
    CHECK(strstr(e.msg, "min_reps") != NULL);
    CHECK(c.s.warmup == before.s.warmup);
    CHECK(memcmp(&c, &before, sizeof c) == 0);

    /* a NUL byte */
    snprintf(path, sizeof path, "%s/nul.ini", tmpdir);
    static const char nul[] = "[measure]\nwarmup = 4\n\0\nmin_reps = 9\n";
    CHECK(write_file(path, nul, sizeof nul - 1));
    memset(&e, 0, sizeof e);
    CHECK(ct_config_apply_file(&c, path, &e) == CT_ERR_CONFIG);
    CHECK(strstr(e.msg, path) != NULL);
    CHECK(c.s.warmup == before.s.warmup);
    CHECK(memcmp(&c, &before, sizeof c) == 0);

    /* a good file */
    snprintf(path, sizeof path, "%s/good.ini", tmpdir);
    const char *good = "[measure]\r\nwarmup = 9\r\n[space.conv1d_tiled]\r\nVEC_WIDTH = 1, 2, 4\r\n";
    CHECK(write_file(path, good, strlen(good)));
    memset(&e, 0, sizeof e);
    CHECK_MSG(ct_config_apply_file(&c, path, &e) == CT_OK, "good file: %s", e.msg);
    CHECK(c.s.warmup == 9);
    static const long vw[] = {1, 2, 4};
    CHECK(list_is(list_of(&c, "conv1d_tiled", "VEC_WIDTH"), vw, 3));

    /* an empty file */
    snprintf(path, sizeof path, "%s/empty.ini", tmpdir);
    CHECK(write_file(path, "", 0));
    memcpy(&before, &c, sizeof c);
    CHECK(ct_config_apply_file(&c, path, &e) == CT_OK);
    CHECK(memcmp(&c, &before, sizeof c) == 0);

    /* a file larger than the reader's first buffer, error on its last line */
    snprintf(path, sizeof path, "%s/big.ini", tmpdir);
    size_t cap = 64 * 1024, len = 0;
    char *big = malloc(cap);
    CHECK(big != NULL);
    if (big) {
        int lines = 0;
        while (len + 64 < cap - 256) {
            len += (size_t)snprintf(big + len, cap - len, "; filler comment line %d\n", lines);
            lines++;
        }
        len += (size_t)snprintf(big + len, cap - len, "[tune]\nmax_candidates = 5\n");
        lines += 2;
        CHECK(write_file(path, big, len));
        memset(&e, 0, sizeof e);
        CHECK_MSG(ct_config_apply_file(&c, path, &e) == CT_OK, "big file: %s", e.msg);
        CHECK(c.s.max_candidates == 5);
        len += (size_t)snprintf(big + len, cap - len, "max_candidates = 5000000\n");
        lines++;
        CHECK(write_file(path, big, len));
        memcpy(&before, &c, sizeof c);
        memset(&e, 0, sizeof e);
        CHECK(ct_config_apply_file(&c, path, &e) == CT_ERR_CONFIG);
        snprintf(prefix, sizeof prefix, "%s:%d:", path, lines);
        CHECK_MSG(strstr(e.msg, prefix) != NULL, "message lacks '%s': %s", prefix, e.msg);
        CHECK(memcmp(&c, &before, sizeof c) == 0);
        free(big);
    }

    const char *names[] = {"bad.ini", "nul.ini", "good.ini", "empty.ini", "big.ini"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        remove(path);
    }
}

int main(void)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    snprintf(tmpdir, sizeof tmpdir, "%s/ct_test_config_XXXXXX", base);
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }

    test_defaults();
    test_errors();
    test_override();
    test_files();

    rmdir(tmpdir);
    CHECK_DONE();
}
