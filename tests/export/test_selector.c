/* test_selector.c - the ranking behind `query --nearest` and the selector of
 * a family export (selector.c): log-size distance, the tuned set of a family
 * on a device (filled through the ct_db API), exact / nearest / generic
 * choices, ties, another device. No GPU. */
#include "export_common.h"

#include <math.h>

#include "selector.h"

static char base[] = "/tmp/ct_test_selector_XXXXXX";

static ct_problem prob(const char *spec)
{
    ct_problem p;
    ct_err e = {""};
    memset(&p, 0, sizeof p);
    CHECK_MSG(ct_problem_parse(spec, &p, &e) == CT_OK, "%s: %s", spec, e.msg);
    return p;
}

/* A family-chosen term: pad enters as one unit per step of padding. */
static double pad_steps(const ct_problem *a, const ct_problem *b)
{
    const double pads = (double)(ct_problem_value(a, "pad") - ct_problem_value(b, "pad"));
    const double l = ct_problem_size_distance(a, b);
    return l < 0 || ct_problem_value(a, "bias") != ct_problem_value(b, "bias") ? -1 : sqrt(l * l + pads * pads);
}

static void distances(void)
{
    ct_problem a = prob("conv1d:1000:10"), b = prob("conv1d:100:10"), c = prob("conv1d:1000:100");
    ct_problem d = prob("conv1d:100:100"), s = prob("conv1d:1000:10:same");
    CHECK(fabs(ct_problem_distance(&a, &b) - log(10.0)) < 1e-12);
    CHECK(fabs(ct_problem_distance(&b, &a) - log(10.0)) < 1e-12);
    CHECK(fabs(ct_problem_distance(&a, &c) - log(10.0)) < 1e-12);
    CHECK(fabs(ct_problem_distance(&a, &d) - sqrt(2.0) * log(10.0)) < 1e-12);
    CHECK(ct_problem_distance(&a, &a) == 0);
    CHECK(ct_problem_distance(&a, &s) == -1);     /* another mode */
    CHECK(fabs(ct_problem_size_distance(&a, &s)) < 1e-12);
    CHECK(ct_problem_distance(&a, NULL) == -1);
    CHECK_STR(ct_grade_name(CT_GRADE_EXACT), "exact");
    CHECK_STR(ct_grade_name(CT_GRADE_NEAREST_SIZE), "nearest_size");
    CHECK_STR(ct_grade_name(CT_GRADE_OTHER_DEVICE), "other_device");
    CHECK_STR(ct_grade_name(CT_GRADE_GENERIC), "generic");

    /* pad and bias are no sizes: they never enter the log-size distance. */
    ct_problem p0 = prob("conv1dc:1:64:100:32:5"), p2 = prob("conv1dc:1:64:100:32:5:pad=2");
    ct_problem c8 = prob("conv1dc:1:8:100:32:5"), pb = prob("conv1dc:1:64:100:32:5:bias");
    ct_problem p2l = prob("conv1dc:1:64:1000:32:5:pad=2");
    CHECK(ct_problem_distance(&p0, &p2) == -1);
    CHECK(ct_problem_distance(&p0, &pb) == -1);
    CHECK(fabs(ct_problem_distance(&p0, &c8) - log(8.0)) < 1e-12);
    CHECK(fabs(ct_problem_distance(&p2, &p2l) - log(10.0)) < 1e-12);
    CHECK(ct_problem_distance(&a, &p0) == -1);     /* another family */
    ct_problem v = prob("conv2dc:2:3:9:9:4:3:3"), vb = prob("conv2dc:2:3:9:9:4:3:3:valid:bias");
    ct_problem vs = prob("conv2dc:2:3:9:9:4:3:3:same"), v4 = prob("conv2dc:2:3:9:36:4:3:3");
    CHECK(ct_problem_distance(&v, &vb) == -1 && ct_problem_distance(&v, &vs) == -1);
    CHECK(fabs(ct_problem_distance(&v, &v4) - log(4.0)) < 1e-12);

    /* A family may declare its own distance; ct_problem_distance uses it. */
    ct_family hooked = *ct_family_find("conv1dc");
    hooked.distance = pad_steps;
    ct_problem h0 = p0, h2 = p2, hb = pb;
    h0.family = h2.family = hb.family = &hooked;
    CHECK(fabs(ct_problem_distance(&h0, &h2) - 2.0) < 1e-12);
    CHECK(ct_problem_distance(&h0, &hb) == -1);
    CHECK(ct_problem_distance(&h0, &p2) == -1);    /* the hook is never asked across families */

    /* Equality and order: every field counts; non-sizes sort first. */
    CHECK(ct_problem_equal(&p0, &p0) && !ct_problem_equal(&p0, &p2) && !ct_problem_equal(&p0, &pb));
    CHECK(ct_problem_compare(&p0, &p2) < 0 && ct_problem_compare(&p2, &p0) > 0);
    CHECK(ct_problem_compare(&p2, &c8) > 0);    /* pad decides before Cin */
    CHECK(ct_problem_compare(&c8, &p0) < 0 && ct_problem_compare(&p0, &p0) == 0);
    CHECK(ct_problem_compare(&s, &c) > 0);      /* mode before sizes: same after valid */
}

static char hash_tiled[17], hash_naive[17];

static void add(ct_db *db, const ct_device_info *d, const char *spec, const char *tmpl, long block, double us)
{
    char params[512] = "";
    const tc_param p[] = {{"BLOCK_SIZE", block}};
    CHECK(tc_params(spec, tmpl, p, 1, params, sizeof params));
    const ct_result r[] = {
        tc_rec(tmpl, strcmp(tmpl, "conv1d_naive") ? hash_tiled : hash_naive, params, "ok", us, 1e-7),
        tc_rec(tmpl, hash_naive, params, "wrong_result", us / 10, 0.5),
    };
    tc_add_run(db, d, spec, r, 2);
}

static void choose(const ct_tuned_set *s, const char *spec, const char *running, ct_grade grade, const char *chosen,
                   double distance)
{
    ct_problem p = prob(spec);
    ct_choice c;
    ct_select(s, &p, running, &c);
    CHECK_MSG(c.grade == grade, "%s: grade %s, expected %s", spec, ct_grade_name(c.grade), ct_grade_name(grade));
    if (chosen) {
        CHECK_MSG(c.index >= 0 && c.index < s->n && !strcmp(s->recs[c.index].problem, chosen),
                  "%s: chose %s, expected %s", spec, c.index >= 0 ? s->recs[c.index].problem : "nothing", chosen);
        CHECK_MSG(fabs(c.distance - distance) < 1e-9, "%s: distance %.12g, expected %.12g", spec, c.distance,
                  distance);
    } else {
        CHECK_MSG(c.index == -1 && c.distance == -1, "%s: chose %d, expected none", spec, c.index);
    }
}

int main(void)
{
    if (!mkdtemp(base)) {
        perror("mkdtemp");
        return 1;
    }
    distances();
    tc_template_hash("conv1d_tiled", hash_tiled);
    tc_template_hash("conv1d_naive", hash_naive);

    char path[600];
    snprintf(path, sizeof path, "%s/sel.db", base);
    ct_db *db = NULL;
    ct_err e = {""};
    CHECK(ct_db_open(path, 1, &db, &e) == CT_OK);
    if (!db)
        CHECK_DONE();
    /* A: four problems (two valid, two right), one also with a faster row
     * under a newer driver; B: two; C ("NVIDIA Test C 2"): one. */
    ct_device_info a = tc_device("NVIDIA Test A", "GPU-a", 9, 0, 13000);
    ct_device_info a2 = tc_device("NVIDIA Test A", "GPU-a", 9, 0, 13010);
    ct_device_info b = tc_device("NVIDIA Test B", "GPU-b", 8, 6, 13000);
    ct_device_info c = tc_device("NVIDIA Test A 2", "GPU-c", 9, 0, 13000);
    add(db, &a, "conv1d:100:2:right", "conv1d_naive", 64, 3.0);
    add(db, &a, "conv1d:400:2:right", "conv1d_naive", 128, 4.0);
    add(db, &a, "conv1d:100000:31", "conv1d_tiled", 256, 20.0);
    add(db, &a, "conv1d:1000:5", "conv1d_naive", 512, 5.0);
    add(db, &a2, "conv1d:100000:31", "conv1d_tiled", 128, 15.0);   /* faster, same device name */
    add(db, &b, "conv1d:1000:5", "conv1d_naive", 32, 1.0);
    add(db, &b, "conv1d:5000:5", "conv1d_naive", 32, 1.0);
    add(db, &c, "conv1d:7:3:same", "conv1d_naive", 32, 1.0);
    /* bf16: B has the most (three), A one; the fp32 choices above are unchanged */
    add(db, &b, "conv1d:1000:5:bf16", "conv1d_naive", 64, 2.0);
    add(db, &b, "conv1d:3000:5:bf16", "conv1d_naive", 64, 2.0);
    add(db, &b, "conv1d:9000:5:bf16", "conv1d_naive", 64, 2.0);
    add(db, &a, "conv1d:1000:5:bf16", "conv1d_naive", 128, 2.5);
    {
        /* a problem of the family that only failed: not tuned */
        char params[512] = "";
        const tc_param p[] = {{"BLOCK_SIZE", 64}};
        CHECK(tc_params("conv1d:99:9", "conv1d_naive", p, 1, params, sizeof params));
        const ct_result r[] = {tc_rec("conv1d_naive", hash_naive, params, "crashed", 0, -1)};
        tc_add_run(db, &a, "conv1d:99:9", r, 1);
    }

    /* no device asked: A has the most problems */
    ct_tuned_set s;
    CHECK(ct_tuned_load(db, "conv1d", CT_DTYPE_F32, 0, NULL, &s, &e) == CT_OK);
    CHECK_STR(s.device, "NVIDIA Test A");
    CHECK_STR(s.arch, "sm_90");
    CHECK(s.device_auto == 1 && s.ndevices == 3);
    CHECK(s.n == 4);
    if (s.n == 4) {
        /* ordered by mode (valid 0, right 2), then sizes */
        CHECK_STR(s.recs[0].problem, "conv1d:1000:5:valid");
        CHECK_STR(s.recs[1].problem, "conv1d:100000:31:valid");
        CHECK_STR(s.recs[2].problem, "conv1d:100:2:right");
        CHECK_STR(s.recs[3].problem, "conv1d:400:2:right");
        CHECK(s.recs[1].median_us == 15.0);       /* the driver-13010 row */
        CHECK(s.recs[0].status == CT_RS_OK && s.recs[0].median_us == 5.0);
        for (int i = 0; i < s.n; i++)
            CHECK_STR(s.probs[i].canonical, s.recs[i].problem);
        CHECK(ct_tuned_block(&s, 0) == 512);
        CHECK(ct_tuned_block(&s, 1) == 128);
        CHECK(ct_tuned_block(&s, 2) == 64);
        CHECK(ct_tuned_block(&s, -1) == CT_GENERIC_BLOCK && ct_tuned_block(&s, 4) == CT_GENERIC_BLOCK);
    }
    /* exact, nearest, generic */
    choose(&s, "conv1d:1000:5", NULL, CT_GRADE_EXACT, "conv1d:1000:5:valid", 0);
    choose(&s, "conv1d:1e5:31:valid", NULL, CT_GRADE_EXACT, "conv1d:100000:31:valid", 0);
    choose(&s, "conv1d:2000:5", NULL, CT_GRADE_NEAREST_SIZE, "conv1d:1000:5:valid", log(2.0));
    choose(&s, "conv1d:50000:31", NULL, CT_GRADE_NEAREST_SIZE, "conv1d:100000:31:valid", log(2.0));
    choose(&s, "conv1d:1000:31", NULL, CT_GRADE_NEAREST_SIZE, "conv1d:1000:5:valid", log(31.0 / 5.0));
    choose(&s, "conv1d:1000:3:same", NULL, CT_GRADE_GENERIC, NULL, -1);
    choose(&s, "conv1d:99:9", NULL, CT_GRADE_NEAREST_SIZE, "conv1d:1000:5:valid",
           sqrt(pow(log(1000.0 / 99.0), 2) + pow(log(9.0 / 5.0), 2)));
    /* a tie (ln 2 both ways): the first in the set's order wins */
    choose(&s, "conv1d:200:2:right", NULL, CT_GRADE_NEAREST_SIZE, "conv1d:100:2:right", log(2.0));
    choose(&s, "conv1d:201:2:right", NULL, CT_GRADE_NEAREST_SIZE, "conv1d:400:2:right", log(400.0 / 201.0));
    /* on another device model: the same choice, graded other_device */
    choose(&s, "conv1d:1000:5", "NVIDIA H100", CT_GRADE_OTHER_DEVICE, "conv1d:1000:5:valid", 0);
    choose(&s, "conv1d:2000:5", "NVIDIA H100", CT_GRADE_OTHER_DEVICE, "conv1d:1000:5:valid", log(2.0));
    choose(&s, "conv1d:1000:5", "NVIDIA Test A", CT_GRADE_EXACT, "conv1d:1000:5:valid", 0);
    choose(&s, "conv1d:1000:3:same", "NVIDIA H100", CT_GRADE_GENERIC, NULL, -1);
    ct_tuned_free(&s);

    /* a device asked for: exact name, or the only name containing it */
    CHECK(ct_tuned_load(db, "conv1d", CT_DTYPE_F32, 0, "NVIDIA Test B", &s, &e) == CT_OK);
    CHECK_STR(s.device, "NVIDIA Test B");
    CHECK(s.n == 2 && s.device_auto == 0);
    if (s.n == 2)
        CHECK(s.recs[0].median_us == 1.0 && s.recs[1].median_us == 1.0);
    choose(&s, "conv1d:2000:5", NULL, CT_GRADE_NEAREST_SIZE, "conv1d:1000:5:valid", log(2.0));
    choose(&s, "conv1d:3000:5", NULL, CT_GRADE_NEAREST_SIZE, "conv1d:5000:5:valid", log(5.0 / 3.0));
    ct_tuned_free(&s);
    CHECK(ct_tuned_load(db, "conv1d", CT_DTYPE_F32, 0, "test b", &s, &e) == CT_OK);
    CHECK_STR(s.device, "NVIDIA Test B");
    ct_tuned_free(&s);
    /* "NVIDIA Test A" is a name and a part of another: the exact name wins */
    CHECK(ct_tuned_load(db, "conv1d", CT_DTYPE_F32, 0, "NVIDIA Test A", &s, &e) == CT_OK);
    CHECK_STR(s.device, "NVIDIA Test A");
    CHECK(s.n == 4);
    ct_tuned_free(&s);
    CHECK(ct_tuned_load(db, "conv1d", CT_DTYPE_F32, 0, "a 2", &s, &e) == CT_OK);
    CHECK_STR(s.device, "NVIDIA Test A 2");
    CHECK(s.n == 1);
    choose(&s, "conv1d:7:3", NULL, CT_GRADE_GENERIC, NULL, -1);
    choose(&s, "conv1d:70:3:same", NULL, CT_GRADE_NEAREST_SIZE, "conv1d:7:3:same", log(10.0));
    ct_tuned_free(&s);
    /* several names match: a usage error naming them */
    e.msg[0] = '\0';
    CHECK(ct_tuned_load(db, "conv1d", CT_DTYPE_F32, 0, "nvidia test", &s, &e) == CT_ERR_USAGE);
    CHECK_MSG(strstr(e.msg, "matches several devices") && strstr(e.msg, "'NVIDIA Test B'"), "%s", e.msg);
    CHECK(ct_tuned_load(db, "conv1d", CT_DTYPE_F32, 0, "H100", &s, &e) == CT_ERR_NOT_FOUND);
    CHECK(ct_tuned_load(db, "conv9d", CT_DTYPE_F32, 0, NULL, &s, &e) == CT_ERR_USAGE);
    CHECK(strstr(e.msg, "unknown family 'conv9d'") != NULL);
    CHECK(ct_tuned_load(db, NULL, CT_DTYPE_F32, 0, NULL, &s, &e) == CT_ERR_USAGE);

    /* one element type per set: the bf16 problems only, on the device with
     * the most of them */
    CHECK(ct_tuned_load(db, "conv1d", CT_DTYPE_BF16, 0, NULL, &s, &e) == CT_OK);
    CHECK_STR(s.device, "NVIDIA Test B");
    CHECK_STR(s.name, "conv1d_bf16");
    CHECK(s.dtype == CT_DTYPE_BF16 && s.n == 3 && s.ndevices == 2);
    for (int i = 0; i < s.n; i++)
        CHECK_MSG(ct_problem_dtype(&s.probs[i]) == CT_DTYPE_BF16, "%s in the bf16 set", s.recs[i].problem);
    choose(&s, "conv1d:1000:5:bf16", NULL, CT_GRADE_EXACT, "conv1d:1000:5:valid:bf16", 0);
    choose(&s, "conv1d:2000:5:bf16", NULL, CT_GRADE_NEAREST_SIZE, "conv1d:3000:5:valid:bf16", log(1.5));
    choose(&s, "conv1d:1000:5", NULL, CT_GRADE_GENERIC, NULL, -1);   /* fp32: not comparable */
    ct_tuned_free(&s);
    CHECK(ct_tuned_load(db, "conv1d", CT_DTYPE_BF16, 0, "test a", &s, &e) == CT_OK);
    CHECK(s.n == 1 && s.recs[0].median_us == 2.5);
    ct_tuned_free(&s);
    CHECK(ct_tuned_load(db, "conv1d", CT_DTYPE_F32, 0, NULL, &s, &e) == CT_OK);
    CHECK_STR(s.name, "conv1d");
    CHECK(s.dtype == CT_DTYPE_F32 && s.n == 4);
    ct_tuned_free(&s);
    e.msg[0] = '\0';
    CHECK(ct_tuned_load(db, "conv1d", CT_DTYPE_F16, 0, NULL, &s, &e) == CT_ERR_NOT_FOUND);
    CHECK_MSG(strstr(e.msg, "no tuned f16 conv1d problem in the database") != NULL, "%s", e.msg);
    CHECK(ct_tuned_load(db, "conv1d", (ct_dtype)7, 0, NULL, &s, &e) == CT_ERR_USAGE);
    char nm[80];
    CHECK_STR(ct_tuned_name("conv2dc", NULL, CT_DTYPE_F16, nm, sizeof nm), "conv2dc_f16");
    CHECK_STR(ct_tuned_name("conv2dc", NULL, CT_DTYPE_F32, nm, sizeof nm), "conv2dc");
    CHECK_STR(ct_tuned_name("conv2dc", "dgrad", CT_DTYPE_F32, nm, sizeof nm), "conv2dc_dgrad");
    CHECK_STR(ct_tuned_name("conv2dc", "wgrad", CT_DTYPE_BF16, nm, sizeof nm), "conv2dc_wgrad_bf16");
    ct_db_close(db);

    /* an empty database */
    snprintf(path, sizeof path, "%s/empty.db", base);
    CHECK(ct_db_open(path, 1, &db, &e) == CT_OK);
    CHECK(ct_tuned_load(db, "conv1d", CT_DTYPE_F32, 0, NULL, &s, &e) == CT_ERR_NOT_FOUND);
    CHECK(strstr(e.msg, "no tuned conv1d problem") != NULL);
    ct_select(NULL, NULL, NULL, &(ct_choice){0});
    ct_db_close(db);

    tc_rm_rf(base);
    CHECK_DONE();
}
