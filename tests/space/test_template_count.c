/* test_template_count.c - no cap on the templates of a family: a test
 * family of 40 (more than any real one, and past the 16 that once capped
 * the space's statistics and the tuner's sources) through the generic code
 * paths: space enumeration and statistics, template lookup, an exhaustive
 * search, sampling, and the per-template sources and hashes the tuner,
 * precompile and retime load (ct_family_sources_load). No GPU. */
#include "check.h"
#include "compile.h"
#include "compile_pool.h"
#include "config.h"
#include "files.h"
#include "problem.h"
#include "runner.h"
#include "search.h"
#include "space.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int build(const ct_problem *p, const ct_config *c, const ct_limits *l, const char *only, ct_space *s)
{
    ct_err e = {0};
    ct_status rc = ct_space_build(p, c, l, only, s, &e);
    CHECK_MSG(rc == CT_OK, "ct_space_build(%s, %s): %s", p->canonical, only ? only : "all", e.msg);
    return rc == CT_OK;
}

#define MANY 40
#define MANY_PARAMS(X) X(WIDTH, 1, CT_INT(0), "a parameter every template of the test family has")
CT_PARAM_LIST(many, MANY_PARAMS)

static ct_template many_templates[MANY];
static char many_names[MANY][16];

/* Template i admits WIDTH 1 .. i % 3 + 1 of the list {1, 2, 3}, so that
 * each template's count is its own and a mix-up of indices shows. */
static int many_constrain(const ct_problem *p, const ct_template *t, const ct_params *c, const ct_limits *lim,
                          char *why, size_t len)
{
    (void)p, (void)lim;
    const long most = (long)(t - many_templates) % 3 + 1;
    if (many_get(c).WIDTH <= most)
        return 0;
    snprintf(why, len, "%s: WIDTH above %ld", t->name, most);
    return 1;
}

static const ct_family many_family = {.name = "many", .templates = many_templates, .ntemplates = MANY,
                                      .constrain = many_constrain};

static void test_many_templates(void)
{
    for (int i = 0; i < MANY; i++) {
        snprintf(many_names[i], sizeof many_names[i], "many_k%02d", i);
        many_templates[i] = (ct_template){.name = many_names[i], .summary = "a test template", .is_baseline = i == 0,
                                          .params = many_params, .nparams = CT_PARAM_COUNT(MANY_PARAMS)};
    }
    /* A config of the test family's lists alone. */
    static ct_config c;
    for (int i = 0; i < MANY && c.nlists < CT_MAX_SPACE_LISTS; i++)
        c.lists[c.nlists++] = (ct_space_list){.tmpl = &many_templates[i], .def = &many_params[0], .nvals = 3,
                                              .vals = {1, 2, 3}};
    ct_problem p = {.family = &many_family, .canonical = "many:1"};
    ct_limits l;
    ct_err e = {0};
    CHECK(ct_limits_for_arch("sm_90", &l, &e) == CT_OK);
    ct_space s;
    if (!build(&p, &c, &l, NULL, &s))
        return;
    /* Every template enumerated, counted under its own entry, in order. */
    CHECK_MSG(s.ntemplates == MANY, "%d of %d templates in the space", s.ntemplates, MANY);
    int want = 0, seen[MANY] = {0};
    for (int i = 0; i < s.ntemplates && i < MANY; i++) {
        const ct_space_stats *st = &s.stats[i];
        CHECK_MSG(st->tmpl == &many_templates[i] && st->full == 3 && st->distinct == 3 &&
                      st->admissible == i % 3 + 1,
                  "%s: full %lld, distinct %lld, admissible %lld", many_names[i], st->full, st->distinct,
                  st->admissible);
        want += i % 3 + 1;
    }
    CHECK_MSG(s.n == want, "%d candidates, want %d", s.n, want);
    for (int i = 0; i < s.n; i++) {
        const int t = ct_template_index(&p, s.cand[i].tmpl);
        CHECK(t >= 0 && t < MANY);
        if (t >= 0 && t < MANY)
            seen[t]++;
    }
    for (int t = 0; t < MANY; t++)
        CHECK_MSG(seen[t] == t % 3 + 1, "%s: %d candidates", many_names[t], seen[t]);
    /* The last template alone, found by name past any small table. */
    ct_space last;
    if (build(&p, &c, &l, many_names[MANY - 1], &last)) {
        CHECK(last.ntemplates == 1 && last.n == (MANY - 1) % 3 + 1 && last.stats[0].tmpl == &many_templates[MANY - 1]);
        ct_space_free(&last);
    }
    CHECK(ct_template_find(&many_family, many_names[MANY - 1]) == &many_templates[MANY - 1]);

    /* An exhaustive search proposes every candidate of every template. */
    ct_search *srch = ct_search_new(&s, CT_SEARCH_EXHAUSTIVE, s.n, 1);
    CHECK(srch != NULL);
    int *idx = malloc((size_t)s.n * sizeof *idx), proposed[MANY] = {0}, total = 0;
    for (int n; srch && idx && (n = ct_search_next(srch, idx, s.n)) > 0;)
        for (int k = 0; k < n; k++, total++)
            proposed[ct_template_index(&p, s.cand[idx[k]].tmpl)]++;
    CHECK_MSG(total == s.n, "%d of %d proposed", total, s.n);
    for (int t = 0; t < MANY; t++)
        CHECK_MSG(proposed[t] == t % 3 + 1, "%s: %d proposed", many_names[t], proposed[t]);
    free(idx);
    ct_search_free(srch);

    /* A sample keeps the baseline's candidate and draws from the rest. */
    ct_space_sample(&s, 8, 5);
    CHECK(s.n == 8 && s.cand[0].tmpl == &many_templates[0]);
    int late = 0;
    for (int i = 0; i < s.n; i++)
        late += ct_template_index(&p, s.cand[i].tmpl) >= 16;
    CHECK_MSG(late > 0, "no candidate of a template past the 16th in the sample");
    ct_space_free(&s);

    /* The tuner's per-template sources and hashes, one per template. */
    const char *base = getenv("TMPDIR");
    char dir[200];
    snprintf(dir, sizeof dir, "%s/ct_test_space_XXXXXX", base && *base ? base : "/tmp");
    CHECK(mkdtemp(dir) != NULL);
    for (int i = 0; i < MANY; i++) {
        char path[300], text[128];
        snprintf(path, sizeof path, "%s/%.15s.cu", dir, many_names[i]);
        snprintf(text, sizeof text, "extern \"C\" __global__ void %.15s() {}\n", many_names[i]);
        CHECK(tl_write_text(path, text) == 0);
    }
    ct_family_sources src;
    CHECK_MSG(ct_family_sources_load(&many_family, dir, &src, &e) == CT_OK, "%s", e.msg);
    CHECK(src.n == MANY);
    for (int i = 0; i < src.n && i < MANY; i++) {
        char hash[17];
        CHECK_MSG(src.text[i] && strstr(src.text[i], many_names[i]), "%s: source %s", many_names[i],
                  src.text[i] ? src.text[i] : "(none)");
        ct_hash_hex(src.text[i] ? src.text[i] : "", hash);
        CHECK(strcmp(hash, src.hash[i]) == 0);
        CHECK(i == 0 || strcmp(src.hash[i], src.hash[i - 1]) != 0);
    }
    ct_family_sources_free(&src);
    CHECK(src.n == 0 && src.text == NULL && src.hash == NULL);
    /* One file missing: an error naming it, and nothing left to free. */
    char gone[300];
    snprintf(gone, sizeof gone, "%s/%.15s.cu", dir, many_names[MANY - 1]);
    CHECK(unlink(gone) == 0);
    CHECK(ct_family_sources_load(&many_family, dir, &src, &e) != CT_OK);
    CHECK_MSG(strstr(e.msg, many_names[MANY - 1]) != NULL, "message: %s", e.msg);
    CHECK(src.text == NULL && src.n == 0);
    tl_rm_rf(dir);
}

int main(void)
{
    test_many_templates();
    CHECK_DONE();
}
