/* test_conformance.c - every registered family (ct_families()) through the
 * same checks, without a GPU:
 *
 * 1. the family itself: its hooks, grammar, templates (one baseline), their
 *    sources and the fp64 reference kernel's;
 * 2. parse and reject: each example accepted with its canonical string, the
 *    canonical string parsed again to the same problem (buffers, defines);
 *    each bad string refused as a usage error naming the field at fault;
 * 3. the CPU fp64 reference against a brute force written here from the
 *    definition every family shares (a direct sum, below) on odd shapes with
 *    random inputs that are never zero; the buffers, output count, FLOPs and
 *    bytes against the same geometry;
 * 4. a seeded sample of every template compiled, on sm_75 or sm_90 (a
 *    drawn one of those where it has candidates), through the tuner's
 *    compile pool (sample.h); a template with no candidate for any example
 *    on sm_75 must be excluded there by its constraints with a reason
 *    naming the architecture it needs, and one for sm_75 alone (an older
 *    GPU's path) excluded likewise on sm_90.
 *
 * Nothing here is family-specific except the table, one row per family, in
 * conformance_rows.h.
 * A family added to the registry without a row fails this test.
 *
 *   test_conformance [FAMILY...]     (no argument: every family) */
#include "check.h"
#include "compile.h"
#include "config.h"
#include "data.h"
#include "problem.h"
#include "runner.h"
#include "sample.h"
#include "space.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance_rows.h"

static const char *const archs[] = {"sm_75", "sm_90"};

static ct_status parse(const char *spec, ct_problem *p, ct_err *e)
{
    memset(e, 0, sizeof *e);
    return ct_problem_parse(spec, p, e);
}

/* ---- 1. the family ---- */

static void check_family(const ct_family *f)
{
    CHECK_MSG(ct_family_find(f->name) == f, "%s: not found by name", f->name);
    CHECK_MSG(f->parse && f->canonical && f->flops && f->bytes && f->buffers && f->defines && f->reference &&
                  f->constrain && f->geometry, "%s: a required hook is missing", f->name);
    size_t n = strlen(f->name);
    CHECK_MSG(f->grammar && !strncmp(f->grammar, f->name, n) && f->grammar[n] == ':', "%s: grammar '%s'",
              f->name, f->grammar ? f->grammar : "");
    CHECK_MSG(f->summary && *f->summary, "%s: no summary", f->name);
    CHECK_MSG(f->reference_c && strstr(f->reference_c, "static void ct_reference("), "%s: reference_c", f->name);
    CHECK_MSG(f->ntemplates >= 2, "%s: %d templates", f->name, f->ntemplates);
    int baselines = 0;
    for (int t = 0; t < f->ntemplates; t++) {
        const ct_template *tp = &f->templates[t];
        baselines += tp->is_baseline;
        CHECK_MSG(!strncmp(tp->name, f->name, n) && tp->name[n] == '_', "%s: template %s", f->name, tp->name);
        CHECK_MSG(ct_template_find(f, tp->name) == tp, "%s: template %s named twice", f->name, tp->name);
        CHECK_MSG(tp->summary && *tp->summary && tp->nparams >= 1, "%s: summary or parameters", tp->name);
        char *src = NULL;
        ct_err e;
        CHECK_MSG(ct_template_source(tp->name, NULL, &src, &e) == CT_OK, "%s: %s", tp->name, e.msg);
        free(src);
    }
    /* One baseline per pass where the family's problems have passes (a
     * "pass" choice field: conv_pass.h), else one. */
    const int pf = ct_field_find(f, "pass"), want = pf >= 0 ? f->fields[pf].nchoices : 1;
    CHECK_MSG(baselines == want, "%s: %d baseline templates, want %d", f->name, baselines, want);
}

/* ---- 2. parse and reject ---- */

static int same_problem(const ct_problem *a, const ct_problem *b)
{
    ct_define da[CT_MAX_DEFINES], db[CT_MAX_DEFINES];
    ct_buffer ba[CT_MAX_BUFS], bb[CT_MAX_BUFS];
    int nd = a->family->defines(a, da), nb = a->family->buffers(a, ba);
    if (b->family != a->family || nd != b->family->defines(b, db) || nb != b->family->buffers(b, bb))
        return 0;
    for (int i = 0; i < nd; i++)
        if (strcmp(da[i].name, db[i].name) != 0 || da[i].value != db[i].value)
            return 0;
    for (int i = 0; i < nb; i++)
        if (ba[i].count != bb[i].count || ba[i].is_output != bb[i].is_output)
            return 0;
    return 1;
}

static void check_example(const ct_family *f, const example *x)
{
    ct_problem p, q;
    ct_err e;
    ct_status rc = parse(x->spec, &p, &e);
    CHECK_MSG(rc == CT_OK, "'%s' rejected: %s", x->spec, e.msg);
    if (rc != CT_OK)
        return;
    CHECK_MSG(p.family == f, "'%s': family %s", x->spec, p.family->name);
    CHECK_STR(p.canonical, x->canonical);
    rc = parse(p.canonical, &q, &e);
    CHECK_MSG(rc == CT_OK, "canonical '%s' rejected: %s", p.canonical, e.msg);
    if (rc != CT_OK)
        return;
    CHECK_STR(q.canonical, p.canonical);
    CHECK_MSG(same_problem(&p, &q), "'%s' and its canonical '%s' differ", x->spec, p.canonical);
    ct_define d[CT_MAX_DEFINES];
    int nd = f->defines(&p, d);
    CHECK_MSG(nd >= 1 && nd <= CT_MAX_DEFINES, "%s: %d defines", p.canonical, nd);
    for (int i = 0; i < nd; i++)
        for (int j = 0; j < i; j++)
            CHECK_MSG(strcmp(d[i].name, d[j].name) != 0, "%s: define %s twice", p.canonical, d[i].name);
}

static void check_refusal(const ct_family *f, const refusal *r)
{
    ct_problem p;
    ct_err e;
    ct_status rc = parse(r->spec, &p, &e);
    CHECK_MSG(rc == CT_ERR_USAGE, "'%s': status %d, want a usage error (canonical '%s')", r->spec, (int)rc,
              rc == CT_OK ? p.canonical : "");
    if (rc == CT_OK)
        return;
    CHECK_MSG(strstr(e.msg, r->field) != NULL, "'%s': the message does not name %s: %s", r->spec, r->field, e.msg);
    if (r->also)
        CHECK_MSG(strstr(e.msg, r->also) != NULL, "'%s': the message lacks \"%s\": %s", r->spec, r->also, e.msg);
    /* Where it fails, a user learns the grammar. */
    CHECK_MSG(strstr(e.msg, f->grammar) != NULL, "'%s': the message lacks the grammar %s: %s", r->spec, f->grammar,
              e.msg);
    CHECK_MSG(!strchr(e.msg, '\n'), "'%s': a message of several lines", r->spec);
    CHECK(p.family == NULL);
}

/* ---- 3. the reference against the definition ---- */

static double at(const float *v, long long i)
{
    return (double)v[i];
}

/* The definition above, term by term. */
static long long one_if_0(long long v)
{
    return v ? v : 1;
}

static void brute_force(const geometry *g, int cl, const float *in, const float *w, const float *bias, double *out)
{
    const long long sy = one_if_0(g->sy), sx = one_if_0(g->sx), dy = one_if_0(g->dy), dx = one_if_0(g->dx);
    const long long cg = g->cin / one_if_0(g->groups), og = g->cout / one_if_0(g->groups);
    for (long long b = 0; b < g->b; b++)
        for (long long co = 0; co < g->cout; co++)
            for (long long y = 0; y < g->oh; y++)
                for (long long x = 0; x < g->ow; x++) {
                    double acc = g->bias ? at(bias, co) : 0.0;
                    for (long long ci = 0; ci < cg; ci++)
                        for (long long i = 0; i < g->kh; i++)
                            for (long long j = 0; j < g->kw; j++) {
                                long long r = y * sy + i * dy - g->ph, c = x * sx + j * dx - g->pw;
                                if (r < 0 || r >= g->h || c < 0 || c >= g->w)
                                    continue;
                                const long long ch = co / og * cg + ci;
                                acc += at(in, cl ? ((b * g->h + r) * g->w + c) * g->cin + ch
                                                    : ((b * g->cin + ch) * g->h + r) * g->w + c) *
                                       at(w, ((co * cg + ci) * g->kh + i) * g->kw + j);
                            }
                    out[cl ? ((b * g->oh + y) * g->ow + x) * g->cout + co
                              : ((b * g->cout + co) * g->oh + y) * g->ow + x] = acc;
                }
}

static void check_odd_shape(const ct_family *f, const odd_shape *s, unsigned long long *rng)
{
    ct_problem p;
    ct_err e;
    ct_status rc = parse(s->spec, &p, &e);
    CHECK_MSG(rc == CT_OK && p.family == f, "'%s' rejected: %s", s->spec, e.msg);
    if (rc != CT_OK)
        return;
    const geometry *g = &s->g;
    const long long cg = g->cin / one_if_0(g->groups);
    const size_t want[4] = {(size_t)(g->b * g->cin * g->h * g->w), (size_t)(g->cout * cg * g->kh * g->kw),
                            (size_t)g->cout, (size_t)(g->b * g->cout * g->oh * g->ow)};
    const int nin = g->bias ? 3 : 2;
    ct_buffer bufs[CT_MAX_BUFS];
    int nb = f->buffers(&p, bufs);
    CHECK_MSG(nb == nin + 1, "%s: %d buffers, want %d", s->spec, nb, nin + 1);
    if (nb != nin + 1)
        return;
    double bytes = 0;
    for (int i = 0; i < nb; i++) {
        size_t w = i == nin ? want[3] : want[i];
        CHECK_MSG(bufs[i].count == w, "%s: buffer %s holds %zu, the definition %zu", s->spec, bufs[i].name,
                  bufs[i].count, w);
        CHECK_MSG(bufs[i].is_output == (i == nin), "%s: buffer %s: inputs first, then the output", s->spec,
                  bufs[i].name);
        bytes += 4.0 * (double)bufs[i].count;
    }
    CHECK(ct_problem_output_count(&p) == want[3]);
    const double flops = 2.0 * (double)want[3] * (double)(cg * g->kh * g->kw);
    CHECK_MSG(f->flops(&p) == flops, "%s: %.17g FLOPs, the definition %.17g", s->spec, f->flops(&p), flops);
    CHECK_MSG(f->bytes(&p) == bytes, "%s: %.17g bytes, the buffers %.17g", s->spec, f->bytes(&p), bytes);

    float *in[CT_MAX_BUFS] = {0};
    for (int i = 0; i < nin; i++) {
        in[i] = malloc(bufs[i].count * sizeof(float));
        tl_fill(in[i], bufs[i].count, rng);
    }
    double *got = malloc(want[3] * sizeof *got), *ref = malloc(want[3] * sizeof *ref);
    f->reference(&p, (const float *const *)in, got);
    const size_t sl = strlen(s->spec);
    const int cl = (sl > 4 && !strcmp(s->spec + sl - 4, ":nlc")) || (sl > 5 && !strcmp(s->spec + sl - 5, ":nhwc"));
    brute_force(g, cl, in[0], in[1], g->bias ? in[2] : NULL, ref);
    double err = tl_relerr(got, ref, want[3]), norm = 0;
    for (size_t i = 0; i < want[3]; i++)
        norm = fmax(norm, fabs(ref[i]));
    /* Both sum the same products in fp64, in other orders. */
    CHECK_MSG(err <= 1e-13, "%s: the CPU reference differs from the definition: relative L2 %.3g", s->spec, err);
    CHECK_MSG(norm > 0, "%s: all-zero output", s->spec);
    for (int i = 0; i < nin; i++)
        free(in[i]);
    free(got);
    free(ref);
}

/* ---- 4. the templates through NVRTC ---- */

static void check_compile(const ct_family *f, const family_row *row, const ct_config *cfg)
{
    const char *specs[MAX_EXAMPLES];
    int n = 0;
    for (int i = 0; i < MAX_EXAMPLES && row->examples[i].spec; i++)
        if (row->examples[i].sample)
            specs[n++] = row->examples[i].spec;
    CHECK_MSG(n > 0, "%s: no example to compile", f->name);
    if (n == 0)
        return;
    char ref[64];
    snprintf(ref, sizeof ref, "%s_ref64", f->name);
    tl_sample s;
    tl_compile_sample(specs, n, archs, 2, cfg, row->per_template, ref, &s);
    CHECK_MSG(s.compiled[0] && s.compiled[1] && s.ntemplates == f->ntemplates, "%s: no sample compiled", f->name);
    const int ok =
        s.compiled[0] && s.compiled[1] && s.admissible[0] && s.admissible[1] && s.ntemplates == f->ntemplates;
    for (int t = 0; ok && t < f->ntemplates; t++) {
        const ct_template *tp = &f->templates[t];
        /* Where it can compile: an admissible candidate of some example on
         * the architecture (a drawn one of those compiled, and any that
         * failed is a failed check above). */
        int on[2] = {0, 0};
        for (int i = 0; i < n; i++)
            for (int a = 0; a < 2; a++)
                on[a] += s.admissible[a][i * f->ntemplates + t] > 0;
        CHECK_MSG(!(on[0] || on[1]) || s.compiled[0][t] + s.compiled[1][t] > 0, "%s: admissible, nothing compiled",
                  tp->name);
        if (on[1] == 0 && on[0] > 0) {
            /* A template for older GPUs only (bf16 where sm_75 has no mma):
             * on sm_90 its constraints must say so, naming the architecture,
             * for every example it has candidates for on sm_75. */
            for (int i = 0; i < n; i++) {
                const int k = i * f->ntemplates + t;
                if (s.admissible[0][k] > 0)
                    CHECK_MSG(s.admissible[1][k] == 0 && strstr(s.why[1][k], "sm_") != NULL,
                              "%s %s: compiled for sm_75 only, and the constraints on sm_90 do not name the "
                              "architecture: %s", specs[i], tp->name, s.why[1][k]);
            }
            printf("%s: for sm_75 only\n", tp->name);
            continue;
        }
        CHECK_MSG(on[1] > 0, "%s: nothing admissible for sm_90 in any example", tp->name);
        if (on[0] > 0)
            continue;
        /* Nothing for sm_75: the constraints must say which architecture
         * the template needs, for every example it has candidates for on
         * sm_90 (the others exclude it for another reason: a layout or an
         * element type it does not compute in). */
        const char *why = "";
        for (int i = 0; i < n; i++) {
            const int k = i * f->ntemplates + t;
            why = s.admissible[1][k] > 0 ? s.why[0][k] : s.why[1][k];
            if (s.admissible[1][k] == 0)
                continue;
            CHECK_MSG(s.admissible[0][k] == 0 && strstr(why, "sm_") != NULL,
                      "%s %s: nothing compiled for sm_75, and the constraints do not name the architecture "
                      "needed: %s", specs[i], tp->name, s.admissible[0][k] ? "(candidates admissible)" : why);
        }
        printf("%s: excluded on sm_75: %s\n", tp->name, why);
    }
    tl_sample_free(&s);
}

/* ---- the driver ---- */

static void conform(const ct_family *f, const family_row *row, const ct_config *cfg, unsigned long long *rng)
{
    printf("== %s\n", f->name);
    check_family(f);
    int nx = 0, nr = 0, no = 0;
    for (; nx < MAX_EXAMPLES && row->examples[nx].spec; nx++)
        check_example(f, &row->examples[nx]);
    for (; nr < 48 && row->refusals[nr].spec; nr++)
        check_refusal(f, &row->refusals[nr]);
    for (; no < 20 && row->odd[no].spec; no++)
        check_odd_shape(f, &row->odd[no], rng);
    CHECK_MSG(nx > 0 && nr > 0 && no > 0, "%s: the row needs examples, refusals and odd shapes", f->name);
    printf("%s: %d examples, %d refusals, %d odd shapes against the definition\n", f->name, nx, nr, no);
    check_compile(f, row, cfg);
}

static const family_row *row_of(const char *name)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (!strcmp(rows[i].family, name))
            return &rows[i];
    return NULL;
}

int main(int argc, char **argv)
{
    unsigned long long rng = tl_seed(0x9E3779B97F4A7C15ULL);
    ct_config cfg;
    ct_err e;
    CHECK(ct_config_init(&cfg, &e) == CT_OK);
    const ct_family *const *fams = ct_families();
    int nfam = 0;
    for (int i = 0; fams[i]; i++) {
        nfam++;
        CHECK_MSG(row_of(fams[i]->name) != NULL, "family %s has no row in test_conformance.c's table",
                  fams[i]->name);
    }
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        CHECK_MSG(ct_family_find(rows[i].family) != NULL, "a row for %s, which is not registered", rows[i].family);
    for (int a = 1; a < argc; a++)
        CHECK_MSG(ct_family_find(argv[a]) != NULL, "no family %s", argv[a]);
    for (int i = 0; fams[i]; i++) {
        int wanted = argc == 1;
        for (int a = 1; a < argc; a++)
            wanted |= !strcmp(argv[a], fams[i]->name);
        const family_row *row = row_of(fams[i]->name);
        if (wanted && row)
            conform(fams[i], row, &cfg, &rng);
    }
    printf("%d families registered\n", nfam);
    CHECK_DONE();
}
