/* fuzz_invariants.h - what must hold for any input to the problem-string
 * parser (ct_problem_parse) and the INI loader (ct_config_apply_text).
 *
 * Shared by the libFuzzer targets (fuzz_problem.c, fuzz_config.c, built with
 * clang when CONVTUNE_FUZZ is ON) and by the replay test
 * (tests/fuzz/test_fuzz_replay.c, built in every build), so a crashing input kept
 * in tests/fuzz/regressions/ is checked against exactly the same rules.
 *
 * Each check takes raw bytes (the text ends at the first NUL, as it would
 * for a C string from argv or a file) and returns NULL when every invariant
 * holds, else a static message naming the broken one. Memory errors and
 * undefined behaviour are the sanitizers' job. */
#ifndef CT_FUZZ_INVARIANTS_H
#define CT_FUZZ_INVARIANTS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "problem.h"

static char ct_fuzz_msg[1600];

/* The input as a NUL-terminated string (malloc'd; cut at the first NUL). */
static inline char *ct_fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

static inline const char *ct_fuzz_fail(const char *what, const char *detail)
{
    snprintf(ct_fuzz_msg, sizeof ct_fuzz_msg, "%s%s%s", what, detail ? ": " : "",
             detail ? detail : "");
    return ct_fuzz_msg;
}

/* The error record must hold one NUL-terminated line. */
static inline int ct_fuzz_msg_ok(const ct_err *e)
{
    size_t n = strnlen(e->msg, sizeof e->msg);
    return n > 0 && n < sizeof e->msg;
}

/* ------------------------------------------------------------------------ */
/* Problem strings                                                          */

static inline const char *ct_fuzz_check_problem_text(const char *spec)
{
    ct_problem p, q, again;
    ct_err e, e2;
    memset(&e, 0, sizeof e);
    ct_status rc = ct_problem_parse(spec, &p, &e);
    if (rc != CT_OK) {
        if (rc != CT_ERR_USAGE)
            return ct_fuzz_fail("parse failed with a status other than CT_ERR_USAGE", e.msg);
        if (!ct_fuzz_msg_ok(&e))
            return ct_fuzz_fail("parse failed without a one-line message", NULL);
        if (strncmp(e.msg, "problem", 7) != 0)
            return ct_fuzz_fail("parse error does not start with 'problem'", e.msg);
        return NULL;
    }
    const ct_family *f = p.family;
    if (!f)
        return ct_fuzz_fail("parse succeeded without a family", spec);
    size_t clen = strnlen(p.canonical, sizeof p.canonical);
    if (clen == 0 || clen >= sizeof p.canonical)
        return ct_fuzz_fail("canonical string empty or unterminated", spec);
    size_t flen = strlen(f->name);
    if (strncmp(p.canonical, f->name, flen) != 0 || p.canonical[flen] != ':')
        return ct_fuzz_fail("canonical string does not start with 'FAMILY:'", p.canonical);
    if (strncmp(spec, f->name, flen) != 0 || spec[flen] != ':')
        return ct_fuzz_fail("accepted a string that does not start with 'FAMILY:'", spec);
    /* Each value fits its field's kind; past the table, nothing is set. */
    for (int i = 0; i < CT_MAX_FIELDS; i++) {
        const ct_field *fd = i < f->nfields ? &f->fields[i] : NULL;
        const long long v = p.dims[i];
        int bad = !fd ? v != 0
                  : fd->kind == CT_FIELD_SIZE ? v <= 0
                  : fd->kind == CT_FIELD_FLAG ? v != 0 && v != 1
                  : fd->kind == CT_FIELD_CHOICE ? v < 0 || v >= fd->nchoices
                  : 0;
        if (bad)
            return ct_fuzz_fail("a field's value does not fit its kind", p.canonical);
    }

    /* Deterministic: the same string parses to the same bytes. */
    memset(&e2, 0, sizeof e2);
    if (ct_problem_parse(spec, &again, &e2) != CT_OK || memcmp(&p, &again, sizeof p) != 0)
        return ct_fuzz_fail("parsing the same string twice differs", spec);

    /* The canonical form is a fixed point with the same problem. */
    memset(&e2, 0, sizeof e2);
    if (ct_problem_parse(p.canonical, &q, &e2) != CT_OK)
        return ct_fuzz_fail("canonical string does not parse", e2.msg);
    if (strcmp(q.canonical, p.canonical) != 0)
        return ct_fuzz_fail("canonical string is not canonical", q.canonical);
    if (q.family != p.family || memcmp(q.dims, p.dims, sizeof p.dims) != 0)
        return ct_fuzz_fail("canonical string parses to another problem", p.canonical);

    /* What the rest of the tuner derives from a parsed problem is sane. */
    double fl = f->flops(&p), by = f->bytes(&p);
    if (!(isfinite(fl) && fl > 0 && isfinite(by) && by > 0))
        return ct_fuzz_fail("FLOP or byte count not finite and positive", p.canonical);
    ct_buffer bufs[CT_MAX_BUFS];
    int nb = f->buffers(&p, bufs), outs = 0;
    if (nb <= 0 || nb > CT_MAX_BUFS)
        return ct_fuzz_fail("buffer count out of range", p.canonical);
    for (int i = 0; i < nb; i++) {
        if (bufs[i].count == 0)
            return ct_fuzz_fail("empty buffer", p.canonical);
        outs += bufs[i].is_output != 0;
    }
    if (outs != 1 || ct_problem_output_count(&p) == 0)
        return ct_fuzz_fail("not exactly one non-empty output buffer", p.canonical);
    ct_define defs[CT_MAX_DEFINES];
    int nd = f->defines(&p, defs);
    if (nd < 0 || nd > CT_MAX_DEFINES)
        return ct_fuzz_fail("define count out of range", p.canonical);
    return NULL;
}

static inline const char *ct_fuzz_check_problem(const uint8_t *data, size_t size)
{
    char *spec = ct_fuzz_text(data, size);
    const char *why = ct_fuzz_check_problem_text(spec);
    free(spec);
    return why;
}

/* ------------------------------------------------------------------------ */
/* INI text                                                                 */

/* Field by field (struct padding may differ between copies). */
static inline int ct_fuzz_config_equal(const ct_config *a, const ct_config *b)
{
    const ct_settings *x = &a->s, *y = &b->s;
    if (x->warmup != y->warmup || x->min_reps != y->min_reps || x->max_reps != y->max_reps ||
        memcmp(&x->min_time_ms, &y->min_time_ms, sizeof x->min_time_ms) != 0 ||
        memcmp(&x->tolerance, &y->tolerance, sizeof x->tolerance) != 0 || x->seed != y->seed ||
        x->jobs != y->jobs || x->max_candidates != y->max_candidates || a->nlists != b->nlists)
        return 0;
    for (int i = 0; i < a->nlists; i++) {
        const ct_space_list *l = &a->lists[i], *m = &b->lists[i];
        if (l->tmpl != m->tmpl || l->def != m->def || l->nvals != m->nvals ||
            memcmp(l->vals, m->vals, (size_t)l->nvals * sizeof l->vals[0]) != 0)
            return 0;
    }
    return 1;
}

static inline const char *ct_fuzz_check_settings(const ct_config *c)
{
    const ct_settings *s = &c->s;
    if (s->warmup < 0 || s->warmup > 1000 || s->min_reps < 1 || s->max_reps < s->min_reps ||
        s->max_reps > 1000000 || !isfinite(s->min_time_ms) || s->min_time_ms < 0 ||
        s->min_time_ms > 60000 || !isfinite(s->tolerance) || s->tolerance < 0 || s->tolerance > 1 ||
        s->jobs < 0 || s->jobs > 1024 || s->max_candidates < 1 || s->max_candidates > 1000000)
        return ct_fuzz_fail("a setting is out of its range after a successful apply", NULL);
    if (c->nlists < 0 || c->nlists > CT_MAX_SPACE_LISTS)
        return ct_fuzz_fail("list count out of range", NULL);
    for (int i = 0; i < c->nlists; i++) {
        const ct_space_list *l = &c->lists[i];
        if (!l->tmpl || !l->def || l->def < l->tmpl->params ||
            l->def >= l->tmpl->params + l->tmpl->nparams)
            return ct_fuzz_fail("a value list does not belong to its template", NULL);
        if (l->nvals < 1 || l->nvals > CT_MAX_VALUES)
            return ct_fuzz_fail("a value list is empty or too long", l->def->name);
        for (int j = 0; j < l->nvals; j++) {
            if (l->def->nsymbols > 0 && (l->vals[j] < 0 || l->vals[j] >= l->def->nsymbols))
                return ct_fuzz_fail("a symbolic value is out of range", l->def->name);
            for (int k = 0; k < j; k++)
                if (l->vals[k] == l->vals[j])
                    return ct_fuzz_fail("a value list holds a value twice", l->def->name);
        }
        for (int k = 0; k < i; k++)
            if (c->lists[k].tmpl == l->tmpl && c->lists[k].def == l->def)
                return ct_fuzz_fail("two lists for one parameter", l->def->name);
    }
    return NULL;
}

/* base: a configuration from ct_config_init. */
static inline const char *ct_fuzz_check_config_text(const ct_config *base, const char *text)
{
    static ct_config c, before, twice;
    ct_err e;
    memcpy(&c, base, sizeof c);
    memcpy(&before, base, sizeof before);
    memset(&e, 0, sizeof e);
    ct_status rc = ct_config_apply_text(&c, text, "fuzz.ini", &e);
    if (rc != CT_OK) {
        if (rc != CT_ERR_CONFIG)
            return ct_fuzz_fail("apply failed with a status other than CT_ERR_CONFIG", e.msg);
        if (memcmp(&c, &before, sizeof c) != 0)
            return ct_fuzz_fail("a failed apply changed the configuration", e.msg);
        if (!ct_fuzz_msg_ok(&e))
            return ct_fuzz_fail("apply failed without a one-line message", NULL);
        if (strncmp(e.msg, "fuzz.ini:", 9) != 0)
            return ct_fuzz_fail("apply error does not start with the file name", e.msg);
        return NULL;
    }
    const char *why = ct_fuzz_check_settings(&c);
    if (why)
        return why;
    /* Applying the same text again changes nothing. */
    memcpy(&twice, &c, sizeof twice);
    memset(&e, 0, sizeof e);
    if (ct_config_apply_text(&twice, text, "fuzz.ini", &e) != CT_OK)
        return ct_fuzz_fail("text accepted once is refused the second time", e.msg);
    if (!ct_fuzz_config_equal(&c, &twice))
        return ct_fuzz_fail("applying the same text twice is not idempotent", NULL);
    return NULL;
}

static inline const char *ct_fuzz_check_config(const ct_config *base, const uint8_t *data, size_t size)
{
    char *text = ct_fuzz_text(data, size);
    const char *why = ct_fuzz_check_config_text(base, text);
    free(text);
    return why;
}

#endif
