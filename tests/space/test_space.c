/* test_space.c - the candidate space (space.c): enumeration of the config's
 * value lists, normalisation, deduplication, constraints against offline
 * device limits, template restriction, seeded sampling and the random
 * generator. Checked against an independent enumeration written here. No GPU. */
#include "check.h"
#include "config.h"
#include "problem.h"
#include "runner.h"
#include "space.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEYLEN 512

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static ct_problem problem(const char *spec)
{
    ct_problem p;
    ct_err e;
    memset(&e, 0, sizeof e);
    ct_status rc = ct_problem_parse(spec, &p, &e);
    CHECK_MSG(rc == CT_OK, "%s: %s", spec, e.msg);
    if (rc != CT_OK)
        exit(1);
    return p;
}

static ct_limits limits(const char *arch)
{
    ct_limits l;
    ct_err e;
    memset(&e, 0, sizeof e);
    ct_status rc = ct_limits_for_arch(arch, &l, &e);
    CHECK_MSG(rc == CT_OK, "%s: %s", arch, e.msg);
    if (rc != CT_OK)
        exit(1);
    return l;
}

static void config(ct_config *c, const char *override)
{
    ct_err e;
    memset(&e, 0, sizeof e);
    ct_status rc = ct_config_init(c, &e);
    CHECK_MSG(rc == CT_OK, "ct_config_init: %s", e.msg);
    if (rc == CT_OK && override) {
        rc = ct_config_apply_text(c, override, "test.ini", &e);
        CHECK_MSG(rc == CT_OK, "override: %s\n%s", e.msg, override);
    }
    if (rc != CT_OK)
        exit(1);
}

static int build(const ct_problem *p, const ct_config *c, const ct_limits *l, const char *only,
                 ct_space *s)
{
    ct_err e;
    memset(&e, 0, sizeof e);
    ct_status rc = ct_space_build(p, c, l, only, s, &e);
    CHECK_MSG(rc == CT_OK, "ct_space_build(%s): %s", p->canonical, e.msg);
    return rc == CT_OK;
}

static const ct_space_stats *stats_of(const ct_space *s, const char *tmpl)
{
    for (int i = 0; i < s->ntemplates; i++)
        if (strcmp(s->stats[i].tmpl->name, tmpl) == 0)
            return &s->stats[i];
    return NULL;
}

/* "template|NAME=v,NAME=v" */
static void cand_key(const ct_template *t, const ct_params *p, char *buf)
{
    int n = snprintf(buf, KEYLEN, "%s|", t->name);
    ct_status rc = ct_params_to_key(p, buf + n, KEYLEN - (size_t)n);
    CHECK(rc == CT_OK);
}

static int cmp_key(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Sorted keys of all candidates; caller frees. */
static char *space_keys(const ct_space *s)
{
    char *keys = malloc((size_t)(s->n ? s->n : 1) * KEYLEN);
    if (!keys) {
        CHECK_MSG(0, "out of memory");
        exit(1);
    }
    for (int i = 0; i < s->n; i++)
        cand_key(s->cand[i].tmpl, &s->cand[i].params, keys + (size_t)i * KEYLEN);
    qsort(keys, (size_t)s->n, KEYLEN, cmp_key);
    return keys;
}

static int same_list(const ct_space *a, const ct_space *b)
{
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++) {
        const ct_params *x = &a->cand[i].params, *y = &b->cand[i].params;
        if (a->cand[i].tmpl != b->cand[i].tmpl || x->n != y->n)
            return 0;
        for (int j = 0; j < x->n; j++)
            if (x->values[j] != y->values[j] || strcmp(x->names[j], y->names[j]) != 0)
                return 0;
    }
    return 1;
}

/* Tiled single-value lists, then the given lines, which replace any of them
 * (a second file: one file may not give a key twice). */
static void tiled_config(ct_config *c, const char *lines)
{
    config(c, "[space.conv1d_tiled]\n"
              "BLOCK_SIZE = 256\nOUTPUTS_PER_THREAD = 8\nMASK_PLACEMENT = constant\nMASK_PAD = 0\n"
              "ALIGN = 16\nSTAGE_INPUT = 1\nVEC_WIDTH = 4\nUNROLL = 1\nKCHUNK = 1024\n"
              "MIN_BLOCKS = 1\n");
    char text[2048];
    snprintf(text, sizeof text, "[space.conv1d_tiled]\n%s", lines);
    ct_err e;
    ct_status rc = ct_config_apply_text(c, text, "test2.ini", &e);
    CHECK_MSG(rc == CT_OK, "override: %s\n%s", e.msg, text);
    if (rc != CT_OK)
        exit(1);
}

/* ------------------------------------------------------------------------ */
/* Independent enumeration: every combination of the lists, normalised,
 * deduplicated by key; counts distinct and admissible, and the sorted
 * admissible keys.                                                          */

typedef struct recount {
    long long full, distinct, admissible;
} recount;

static recount enumerate(const ct_problem *p, const ct_config *c, const ct_limits *l,
                         const ct_template *t, char **adm_keys)
{
    recount r = {1, 0, 0};
    const ct_space_list *lists[CT_MAX_PARAMS];
    for (int i = 0; i < t->nparams; i++) {
        lists[i] = ct_config_list(c, t, t->params[i].name);
        if (!lists[i]) {
            CHECK_MSG(0, "no list for %s", t->params[i].name);
            return r;
        }
        r.full *= lists[i]->nvals;
    }
    char *keys = malloc((size_t)r.full * KEYLEN);
    char *adm = malloc((size_t)r.full * KEYLEN);
    int *admissible = malloc((size_t)r.full * sizeof *admissible);
    if (!keys || !adm || !admissible) {
        CHECK_MSG(0, "out of memory");
        exit(1);
    }
    /* Key of each combination, with its admissibility appended as a last
     * character so that sorting keeps it alongside. */
    for (long long combo = 0; combo < r.full; combo++) {
        ct_params cp = {0};
        long long rest = combo;
        long vals[CT_MAX_PARAMS];
        for (int i = t->nparams - 1; i >= 0; i--) {
            vals[i] = lists[i]->vals[rest % lists[i]->nvals];
            rest /= lists[i]->nvals;
        }
        for (int i = 0; i < t->nparams; i++)
            ct_params_set(&cp, t->params[i].name, vals[i], NULL);
        if (p->family->normalize)
            p->family->normalize(p, t, &cp);
        char why[256];
        /* As the space does: a template without the problem's element type
         * is left out before the family's constraints. */
        int ok = !ct_template_refuses_dtype(p, t, why, sizeof why) &&
                 p->family->constrain(p, t, &cp, l, why, sizeof why) == 0;
        char *k = keys + (size_t)combo * KEYLEN;
        cand_key(t, &cp, k);
        size_t len = strlen(k);
        CHECK(len + 2 < KEYLEN);
        k[len] = '\x01';          /* separator sorting before any key character */
        k[len + 1] = ok ? 'Y' : 'N';
        k[len + 2] = '\0';
    }
    qsort(keys, (size_t)r.full, KEYLEN, cmp_key);
    for (long long i = 0; i < r.full; i++) {
        char *k = keys + (size_t)i * KEYLEN;
        char *sep = strchr(k, '\x01');
        char ok = sep[1];
        *sep = '\0';
        if (i > 0 && strcmp(k, keys + (size_t)(i - 1) * KEYLEN) == 0) {
            /* a duplicate: normalisation must not make admissibility depend
             * on which original combination it came from */
            CHECK_MSG(ok == (char)admissible[i - 1], "%s: admissibility differs between duplicates",
                      k);
            admissible[i] = ok;
            continue;
        }
        admissible[i] = ok;
        r.distinct++;
        if (ok == 'Y')
            memcpy(adm + (size_t)(r.admissible++) * KEYLEN, k, KEYLEN);
    }
    free(keys);
    free(admissible);
    *adm_keys = adm;
    return r;
}

/* ------------------------------------------------------------------------ */
/* The space of conv1d:1e6:2047 on sm_90                                    */

static void check_space(const ct_problem *p, const ct_config *c, const ct_limits *l,
                        const ct_space *s)
{
    const ct_family *f = p->family;
    CHECK(s->ntemplates == f->ntemplates);

    long long sum = 0;
    int pos = 0;
    for (int ti = 0; ti < s->ntemplates; ti++) {
        const ct_space_stats *st = &s->stats[ti];
        const ct_template *t = st->tmpl;
        CHECK(t == &f->templates[ti]);   /* in the family's order */
        long long full = 1;
        for (int i = 0; i < t->nparams; i++) {
            const ct_space_list *li = ct_config_list(c, t, t->params[i].name);
            CHECK(li != NULL);
            full *= li ? li->nvals : 0;
        }
        CHECK_MSG(st->full == full, "%s: full %lld, product of lists %lld", t->name, st->full,
                  full);
        CHECK_MSG(st->admissible <= st->distinct && st->distinct <= st->full,
                  "%s: full %lld distinct %lld admissible %lld", t->name, st->full, st->distinct,
                  st->admissible);
        CHECK(st->admissible >= 0);
        /* a reason is kept exactly when something was rejected */
        CHECK((st->example_reject[0] != '\0') == (st->admissible < st->distinct));
        sum += st->admissible;

        /* this template's candidates are contiguous and in place */
        for (long long i = 0; i < st->admissible; i++, pos++)
            CHECK_MSG(pos < s->n && s->cand[pos].tmpl == t, "candidate %d is not of %s", pos,
                      t->name);

        /* the independent enumeration agrees, candidate for candidate */
        char *adm = NULL;
        recount r = enumerate(p, c, l, t, &adm);
        CHECK_MSG(r.full == st->full && r.distinct == st->distinct &&
                  r.admissible == st->admissible,
                  "%s: space says %lld/%lld/%lld, recount %lld/%lld/%lld", t->name, st->full,
                  st->distinct, st->admissible, r.full, r.distinct, r.admissible);
        ct_space one = {0};
        one.cand = s->cand + (pos - st->admissible);
        one.n = (int)st->admissible;
        char *mine = space_keys(&one);
        if (r.admissible == st->admissible) {
            int diff = 0;
            for (long long i = 0; i < r.admissible; i++)
                diff += strcmp(mine + (size_t)i * KEYLEN, adm + (size_t)i * KEYLEN) != 0;
            CHECK_MSG(diff == 0, "%s: %d candidates differ from the recount", t->name, diff);
        }
        free(mine);
        free(adm);
    }
    CHECK_MSG(sum == s->n, "n = %d, sum of admissible %lld", s->n, sum);

    /* no two candidates alike */
    char *keys = space_keys(s);
    int dups = 0;
    for (int i = 1; i < s->n; i++)
        if (strcmp(keys + (size_t)i * KEYLEN, keys + (size_t)(i - 1) * KEYLEN) == 0 && dups++ < 3)
            CHECK_MSG(0, "duplicate candidate %s", keys + (size_t)i * KEYLEN);
    CHECK(dups == 0);
    free(keys);

    /* every candidate is admissible again and normalised for good */
    int bad_constrain = 0, bad_norm = 0, bad_shape = 0;
    for (int i = 0; i < s->n; i++) {
        const ct_candidate *cd = &s->cand[i];
        const ct_template *t = cd->tmpl;
        char why[256] = "";
        if (f->constrain(p, t, &cd->params, l, why, sizeof why) != 0 && bad_constrain++ < 3)
            CHECK_MSG(0, "candidate %d of %s now rejected: %s", i, t->name, why);
        ct_params again = cd->params;
        if (f->normalize)
            f->normalize(p, t, &again);
        if (memcmp(&again, &cd->params, sizeof again) != 0 && bad_norm++ < 3)
            CHECK_MSG(0, "normalising candidate %d of %s again changes it", i, t->name);
        /* all parameters, in declaration order */
        int ok = cd->params.n == t->nparams;
        for (int j = 0; ok && j < t->nparams; j++)
            ok = strcmp(cd->params.names[j], t->params[j].name) == 0;
        if (!ok && bad_shape++ < 3)
            CHECK_MSG(0, "candidate %d of %s lacks parameters", i, t->name);
    }
    CHECK(bad_constrain == 0 && bad_norm == 0 && bad_shape == 0);
}

static void test_default_space(void)
{
    static ct_config c;
    config(&c, NULL);
    ct_problem p = problem("conv1d:1e6:2047");
    ct_limits l90 = limits("sm_90"), l75 = limits("sm_75");
    ct_space s90, s75;
    if (!build(&p, &c, &l90, NULL, &s90))
        return;
    check_space(&p, &c, &l90, &s90);
    const ct_space_stats *naive = stats_of(&s90, "conv1d_naive");
    const ct_space_stats *tiled = stats_of(&s90, "conv1d_tiled");
    CHECK(naive && tiled);
    if (naive && tiled) {
        CHECK(tiled->admissible > 0);
        CHECK(naive->admissible > 0);
        /* the naive template: admissible iff BLOCK_SIZE is a multiple of 32 in 32..1024 */
        const ct_space_list *bs = ct_config_list(&c, naive->tmpl, "BLOCK_SIZE");
        long long want = 0;
        for (int i = 0; bs && i < bs->nvals; i++)
            want += bs->vals[i] >= 32 && bs->vals[i] % 32 == 0 &&
                    bs->vals[i] <= l90.max_threads_per_block;
        CHECK(naive->admissible == want);
    }
    printf("conv1d:1e6:2047 on sm_90: %d candidates", s90.n);
    for (int i = 0; i < s90.ntemplates; i++)
        printf("; %s %lld/%lld/%lld", s90.stats[i].tmpl->name, s90.stats[i].full,
               s90.stats[i].distinct, s90.stats[i].admissible);
    printf("\n");

    /* Smaller limits never admit more. */
    if (build(&p, &c, &l75, NULL, &s75)) {
        check_space(&p, &c, &l75, &s75);
        CHECK(s75.ntemplates == s90.ntemplates);
        for (int i = 0; i < s75.ntemplates && i < s90.ntemplates; i++) {
            CHECK(s75.stats[i].full == s90.stats[i].full);
            CHECK(s75.stats[i].distinct == s90.stats[i].distinct);
            CHECK(s75.stats[i].admissible <= s90.stats[i].admissible);
        }
        CHECK(s75.n <= s90.n);
        ct_space_free(&s75);
    }

    /* Much smaller limits admit strictly fewer. */
    ct_limits tight = l90;
    tight.max_threads_per_block = 128;
    tight.max_smem_per_block = 8 * 1024;
    ct_space st;
    if (build(&p, &c, &tight, NULL, &st)) {
        check_space(&p, &c, &tight, &st);
        CHECK(st.n < s90.n);
        for (int i = 0; i < st.n; i++)
            CHECK(ct_params_get(&st.cand[i].params, "BLOCK_SIZE", 0) <= 128);
        ct_space_free(&st);
    }

    /* The same build twice gives the same list. */
    ct_space again;
    if (build(&p, &c, &l90, NULL, &again)) {
        CHECK(same_list(&s90, &again));
        ct_space_free(&again);
    }
    ct_space_free(&s90);
    CHECK(s90.cand == NULL && s90.n == 0);

    /* Other shapes and modes keep the invariants. */
    const char *specs[] = {"conv1d:100:31", "conv1d:4096:31:same", "conv1d:15:4:right",
                           "conv1d:1000:1000", "conv1d:100000:4097:same", "conv1d:7:64:same"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        ct_problem q = problem(specs[i]);
        ct_space sq;
        if (build(&q, &c, &l90, NULL, &sq)) {
            check_space(&q, &c, &l90, &sq);
            ct_space_free(&sq);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Constraints and normalisation                                            */

static void test_constraints(void)
{
    ct_problem p = problem("conv1d:1e6:2047");
    ct_limits l = limits("sm_90");
    static ct_config c;
    ct_space s;

    /* OUTPUTS_PER_THREAD = 64 x BLOCK_SIZE = 256 staged: 64 KiB of input tile. */
    config(&c, "[space.conv1d_tiled]\nOUTPUTS_PER_THREAD = 64\nBLOCK_SIZE = 256\nSTAGE_INPUT = 1\n");
    if (build(&p, &c, &l, NULL, &s)) {
        const ct_space_stats *t = stats_of(&s, "conv1d_tiled");
        CHECK(t && t->distinct > 0 && t->admissible == 0);
        CHECK(t && t->example_reject[0] != '\0');
        for (int i = 0; i < s.n; i++)
            CHECK(strcmp(s.cand[i].tmpl->name, "conv1d_tiled") != 0);
        ct_space_free(&s);
    }
    /* ... and the reason is shared memory, when nothing else is wrong. */
    tiled_config(&c, "OUTPUTS_PER_THREAD = 64\nBLOCK_SIZE = 256\nSTAGE_INPUT = 1\n");
    if (build(&p, &c, &l, "conv1d_tiled", &s)) {
        const ct_space_stats *t = &s.stats[0];
        CHECK(s.ntemplates == 1 && t->full == 1 && t->distinct == 1 && t->admissible == 0);
        CHECK_MSG(strstr(t->example_reject, "shared memory") != NULL, "reason: %s",
                  t->example_reject);
        ct_space_free(&s);
    }
    /* Without staging the same candidate fits. */
    tiled_config(&c, "OUTPUTS_PER_THREAD = 64\nBLOCK_SIZE = 256\nSTAGE_INPUT = 0\n");
    if (build(&p, &c, &l, "conv1d_tiled", &s)) {
        CHECK_MSG(s.n == 1, "unstaged R=64 candidate rejected: %s", s.stats[0].example_reject);
        ct_space_free(&s);
    }
    /* Straight through the family's constraint. */
    {
        const ct_template *tiled = ct_template_find(p.family, "conv1d_tiled");
        ct_params cp = {0};
        const char *names[] = {"BLOCK_SIZE", "OUTPUTS_PER_THREAD", "MASK_PLACEMENT", "MASK_PAD",
                               "ALIGN", "STAGE_INPUT", "VEC_WIDTH", "UNROLL", "KCHUNK",
                               "MIN_BLOCKS"};
        const long vals[] = {256, 64, 0, 0, 16, 1, 4, 1, 1024, 1};
        for (int i = 0; i < 10; i++)
            ct_params_set(&cp, names[i], vals[i], NULL);
        char why[256] = "";
        CHECK(tiled && p.family->constrain(&p, tiled, &cp, &l, why, sizeof why) != 0);
        CHECK_MSG(strstr(why, "shared memory") != NULL, "reason: %s", why);
        ct_params_set(&cp, "OUTPUTS_PER_THREAD", 8, NULL);
        why[0] = '\0';
        CHECK_MSG(p.family->constrain(&p, tiled, &cp, &l, why, sizeof why) == 0, "R=8: %s", why);
        /* too many threads for the device */
        ct_params_set(&cp, "BLOCK_SIZE", 2048, NULL);
        CHECK(p.family->constrain(&p, tiled, &cp, &l, why, sizeof why) != 0);
        CHECK(strstr(why, "BLOCK_SIZE") != NULL);
        ct_params_set(&cp, "BLOCK_SIZE", 100, NULL);
        CHECK(p.family->constrain(&p, tiled, &cp, &l, why, sizeof why) != 0);
    }

    /* VEC_WIDTH = 4 with OUTPUTS_PER_THREAD = 6: not a whole number of vectors. */
    config(&c, "[space.conv1d_tiled]\nVEC_WIDTH = 4\nOUTPUTS_PER_THREAD = 6\n");
    if (build(&p, &c, &l, "conv1d_tiled", &s)) {
        CHECK(s.n == 0 && s.stats[0].distinct > 0 && s.stats[0].admissible == 0);
        CHECK_MSG(strstr(s.stats[0].example_reject, "VEC_WIDTH") != NULL, "reason: %s",
                  s.stats[0].example_reject);
        ct_space_free(&s);
    }
    tiled_config(&c, "VEC_WIDTH = 4\nOUTPUTS_PER_THREAD = 6\n");
    if (build(&p, &c, &l, "conv1d_tiled", &s)) {
        CHECK(s.n == 0 && s.stats[0].full == 1 && s.stats[0].admissible == 0);
        CHECK(strstr(s.stats[0].example_reject, "VEC_WIDTH") != NULL);
        ct_space_free(&s);
    }
    /* ... while 2-wide loads divide 6 outputs. */
    tiled_config(&c, "VEC_WIDTH = 2\nOUTPUTS_PER_THREAD = 6\n");
    if (build(&p, &c, &l, "conv1d_tiled", &s)) {
        CHECK_MSG(s.n == 1, "VEC_WIDTH=2 R=6 rejected: %s", s.stats[0].example_reject);
        ct_space_free(&s);
    }
}

static void test_normalisation(void)
{
    ct_limits l = limits("sm_90");
    static ct_config c;
    ct_space s;

    /* K = 31 is shorter than any KCHUNK of the default lists. */
    ct_problem small = problem("conv1d:100:31");
    config(&c, NULL);
    if (build(&small, &c, &l, "conv1d_tiled", &s)) {
        CHECK_MSG(s.stats[0].distinct < s.stats[0].full, "distinct %lld, full %lld",
                  s.stats[0].distinct, s.stats[0].full);
        ct_space_free(&s);
    }
    /* Only KCHUNK differs: the two candidates are one kernel. */
    tiled_config(&c, "KCHUNK = 1024, 2048\n");
    if (build(&small, &c, &l, "conv1d_tiled", &s)) {
        CHECK(s.stats[0].full == 2);
        CHECK_MSG(s.stats[0].distinct == 1, "distinct %lld", s.stats[0].distinct);
        CHECK(s.n == 1);
        ct_space_free(&s);
    }
    /* ... but not for a mask longer than a chunk, staged in shared memory. */
    ct_problem big = problem("conv1d:1e6:2047");
    if (build(&big, &c, &l, "conv1d_tiled", &s)) {
        CHECK(s.stats[0].full == 2);
        CHECK_MSG(s.stats[0].distinct == 2, "distinct %lld", s.stats[0].distinct);
        ct_space_free(&s);
    }
    /* A KCHUNK list that is all longer than the mask collapses to one. */
    tiled_config(&c, "KCHUNK = 32, 64, 128, 1024, 2048\n");
    if (build(&small, &c, &l, "conv1d_tiled", &s)) {
        CHECK(s.stats[0].full == 5 && s.stats[0].distinct == 1);
        ct_space_free(&s);
    }
    /* The naive template has nothing to normalise. */
    config(&c, NULL);
    if (build(&small, &c, &l, "conv1d_naive", &s)) {
        CHECK(s.stats[0].distinct == s.stats[0].full);
        ct_space_free(&s);
    }
}

/* ------------------------------------------------------------------------ */
/* Template restriction, missing lists                                      */

static void test_only(void)
{
    static ct_config c;
    config(&c, NULL);
    ct_problem p = problem("conv1d:1e6:2047");
    ct_limits l = limits("sm_90");
    ct_space all, s;
    if (!build(&p, &c, &l, NULL, &all))
        return;
    const ct_space_stats *naive = stats_of(&all, "conv1d_naive");
    const ct_space_stats *tiled = stats_of(&all, "conv1d_tiled");

    if (build(&p, &c, &l, "conv1d_naive", &s)) {
        CHECK(s.ntemplates == 1);
        CHECK(strcmp(s.stats[0].tmpl->name, "conv1d_naive") == 0);
        CHECK(naive && s.n == naive->admissible && s.n > 0);
        for (int i = 0; i < s.n; i++)
            CHECK(s.cand[i].tmpl->is_baseline && strcmp(s.cand[i].tmpl->name, "conv1d_naive") == 0);
        ct_space_free(&s);
    }
    if (build(&p, &c, &l, "conv1d_tiled", &s)) {
        CHECK(s.ntemplates == 1);
        CHECK(tiled && s.n == tiled->admissible);
        for (int i = 0; i < s.n; i++)
            CHECK(!s.cand[i].tmpl->is_baseline);
        ct_space_free(&s);
    }

    ct_err e;
    memset(&e, 0, sizeof e);
    memset(&s, 0x5a, sizeof s);
    CHECK(ct_space_build(&p, &c, &l, "conv1d_nope", &s, &e) == CT_ERR_USAGE);
    CHECK_MSG(strstr(e.msg, "conv1d_nope") != NULL, "message: %s", e.msg);
    CHECK(s.n == 0);
    ct_space_free(&s);
    memset(&e, 0, sizeof e);
    CHECK(ct_space_build(&p, &c, &l, "", &s, &e) == CT_ERR_USAGE);
    ct_space_free(&s);

    /* A template parameter without a value list is a configuration error. */
    static ct_config broken;
    broken = c;
    int w = 0;
    for (int i = 0; i < broken.nlists; i++)
        if (!(strcmp(broken.lists[i].tmpl->name, "conv1d_tiled") == 0 &&
              strcmp(broken.lists[i].def->name, "KCHUNK") == 0))
            broken.lists[w++] = broken.lists[i];
    CHECK(w == broken.nlists - 1);
    broken.nlists = w;
    memset(&e, 0, sizeof e);
    CHECK(ct_space_build(&p, &broken, &l, NULL, &s, &e) == CT_ERR_CONFIG);
    CHECK_MSG(strstr(e.msg, "KCHUNK") != NULL, "message: %s", e.msg);
    CHECK(s.cand == NULL && s.n == 0);
    ct_space_free(&s);
    /* ... unless that template is left out. */
    if (build(&p, &broken, &l, "conv1d_naive", &s)) {
        CHECK(naive && s.n == naive->admissible);
        ct_space_free(&s);
    }
    ct_space_free(&all);
}

/* ------------------------------------------------------------------------ */
/* Sampling and the generator                                               */

static int count_baseline(const ct_space *s)
{
    int n = 0;
    for (int i = 0; i < s->n; i++)
        n += s->cand[i].tmpl->is_baseline;
    return n;
}

static void test_sample(void)
{
    static ct_config c;
    config(&c, NULL);
    ct_problem p = problem("conv1d:1e6:2047");
    ct_limits l = limits("sm_90");
    ct_space full, a, b, d;
    if (!build(&p, &c, &l, NULL, &full) || !build(&p, &c, &l, NULL, &a) ||
        !build(&p, &c, &l, NULL, &b) || !build(&p, &c, &l, NULL, &d))
        return;
    const int nbase = count_baseline(&full);
    const int max = 50;
    CHECK(full.n > max && nbase > 0 && nbase < max);
    char *all_keys = space_keys(&full);

    ct_space_sample(&a, max, 12345);
    ct_space_sample(&b, max, 12345);
    ct_space_sample(&d, max, 12346);
    CHECK(a.n == max && b.n == max && d.n == max);
    CHECK(same_list(&a, &b));      /* same seed, same list */
    CHECK(!same_list(&a, &d));     /* another seed, another list */
    CHECK(count_baseline(&a) == nbase);
    CHECK(count_baseline(&d) == nbase);

    /* a subset of the space, without repeats */
    char *ak = space_keys(&a);
    int missing = 0, dups = 0;
    for (int i = 0; i < a.n; i++) {
        const char *k = ak + (size_t)i * KEYLEN;
        if (!bsearch(k, all_keys, (size_t)full.n, KEYLEN, cmp_key))
            missing++;
        if (i > 0 && strcmp(k, ak + (size_t)(i - 1) * KEYLEN) == 0)
            dups++;
    }
    CHECK(missing == 0 && dups == 0);
    free(ak);

    /* the sample also differs as a set between seeds, not only in order */
    char *dk = space_keys(&d);
    ak = space_keys(&a);
    int same_set = 1;
    for (int i = 0; i < a.n; i++)
        same_set &= strcmp(ak + (size_t)i * KEYLEN, dk + (size_t)i * KEYLEN) == 0;
    CHECK(!same_set);
    free(ak);
    free(dk);

    /* a sample no smaller than the space leaves it alone */
    ct_space e;
    if (build(&p, &c, &l, NULL, &e)) {
        ct_space_sample(&e, e.n, 99);
        CHECK(same_list(&e, &full));
        ct_space_sample(&e, e.n + 1000, 99);
        CHECK(same_list(&e, &full));
        /* a sample smaller than the baselines still keeps them all */
        ct_space_sample(&e, 1, 99);
        CHECK(e.n == nbase && count_baseline(&e) == nbase);
        ct_space_free(&e);
    }
    /* sampling to the space size minus one drops exactly one non-baseline */
    if (build(&p, &c, &l, NULL, &e)) {
        ct_space_sample(&e, full.n - 1, 7);
        CHECK(e.n == full.n - 1 && count_baseline(&e) == nbase);
        ct_space_free(&e);
    }

    ct_space_free(&full);
    ct_space_free(&a);
    ct_space_free(&b);
    ct_space_free(&d);
    free(all_keys);
}

static void test_rand(void)
{
    /* splitmix64 from state 0: the published first outputs */
    unsigned long long st = 0;
    CHECK(ct_rand_next(&st) == 0xE220A8397B1DCDAFULL);
    CHECK(ct_rand_next(&st) == 0x6E789E6AA1B965F4ULL);
    CHECK(ct_rand_next(&st) == 0x06C45D188009454FULL);
    CHECK(st == 3 * 0x9E3779B97F4A7C15ULL);

    unsigned long long a = 42, b = 42, c = 43;
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
        unsigned long long x = ct_rand_next(&a), y = ct_rand_next(&b), z = ct_rand_next(&c);
        CHECK(x == y);
        differ += x != z;
    }
    CHECK(a == b);
    CHECK(differ == 1000);

    /* roughly uniform bits */
    unsigned long long s = 1;
    int ones = 0;
    for (int i = 0; i < 4096; i++)
        ones += __builtin_popcountll(ct_rand_next(&s));
    CHECK(ones > 4096 * 32 - 2000 && ones < 4096 * 32 + 2000);
}

/* A space without a template restriction holds every template of the
 * family, each with the candidates of its space alone: on grouped and
 * channels-last layers the last-declared templates (SIMT, channels-last
 * depthwise) are the ones with candidates. */
static void test_all_templates(void)
{
    static ct_config c;
    config(&c, NULL);
    ct_limits l = limits("sm_90");
    static const char *const specs[] = {
        "conv1d:1e6:2047", "conv2d:16:2048:2048:11:11:same", "conv1dc:2:6:37:12:3:pad=1:stride=2:groups=3",
        "conv1dc:8:1024:4096:1024:4:causal:groups=1024:nlc", "conv2dc:32:128:28:28:128:3:3:same:groups=32",
        "conv2dc:2:8:13:11:8:7:7:same:groups=8:nhwc:bf16",
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        ct_problem p = problem(specs[i]);
        ct_space all;
        if (!build(&p, &c, &l, NULL, &all))
            continue;
        CHECK_MSG(all.ntemplates == p.family->ntemplates, "%s: %d of %d templates in the space", specs[i],
                  all.ntemplates, p.family->ntemplates);
        int total = 0;
        for (int t = 0; t < p.family->ntemplates; t++) {
            ct_space one;
            if (!build(&p, &c, &l, p.family->templates[t].name, &one))
                continue;
            const ct_space_stats *st = stats_of(&all, p.family->templates[t].name);
            CHECK_MSG(st && st->admissible == one.n, "%s %s: %lld admissible in the whole space, %d alone", specs[i],
                      p.family->templates[t].name, st ? st->admissible : -1LL, one.n);
            total += one.n;
            ct_space_free(&one);
        }
        CHECK_MSG(all.n == total, "%s: %d candidates, the templates' spaces %d", specs[i], all.n, total);
        ct_space_free(&all);
    }
}

int main(void)
{
    test_default_space();
    test_constraints();
    test_normalisation();
    test_only();
    test_all_templates();
    test_sample();
    test_rand();
    CHECK_DONE();
}
