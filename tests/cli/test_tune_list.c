/* test_tune_list.c - `convtune tune --problems FILE` without a GPU: the list
 * is read and parsed whole before anything runs (a bad line is one error
 * naming the file and line, and no database is created); --problem, --shard
 * and --json do not go with it; a problem the database already holds a
 * winner of is skipped, whatever its spelling, with one line each and a
 * closing table (exit 0 when every problem is held); and where the driver
 * cannot load, a problem left to tune stops the run with the no-GPU status,
 * the line of that problem and the table saying what was not run. */
#include <dlfcn.h>

#include "export_common.h"
#define CT_EXPORT_TEST_NAME "tune_list"
#include "export_run.h"

#define DEV "NVIDIA Test List GPU"

static void write_list(const char *name, const char *text)
{
    char path[700];
    path_in(path, sizeof path, name);
    CHECK(tc_write_text(path, text) == 0);
}

int main(void)
{
    if (!scratch_dirs())
        return 1;
    char db[700], fresh[700];
    path_in(db, sizeof db, "t.db");
    path_in(fresh, sizeof fresh, "never.db");
    tc_result r;

    /* A bad line: the file and line named, nothing created. */
    write_list("bad.txt", "# a model's layers\nconv2dc:2:4:16:16:8:3:3:same\n\nconv2dc:2:4:16:16:8:3\n");
    convtune(&r, "tune", "--problems", "bad.txt", "--db", fresh, NULL);
    fails(&r, 2, "bad.txt:4:", "a bad line");
    CHECK_MSG(!tc_exists(fresh), "a refused list created %s", fresh);
    write_list("empty.txt", "# nothing\n\n");
    convtune(&r, "tune", "--problems", "empty.txt", "--db", fresh, NULL);
    fails(&r, 2, "no problem in the file", "an empty list");
    convtune(&r, "tune", "--problems", "missing.txt", "--db", fresh, NULL);
    fails(&r, 7, "missing.txt", "a missing file");
    convtune(&r, "tune", "--problems", "bad.txt", "--problem", "conv1d:100:3", "--db", fresh, NULL);
    fails(&r, 2, "give one", "--problems with --problem");
    convtune(&r, "tune", "--problems", "bad.txt", "--json", "--db", fresh, NULL);
    fails(&r, 2, "--json does not apply", "--problems with --json");
    convtune(&r, "tune", "--problems", "bad.txt", "--shard", "0/2", "--db", fresh, NULL);
    fails(&r, 2, "--shard does not apply", "--problems with --shard");
    CHECK(!tc_exists(fresh));

    /* Two problems held, one of them spelled twice (pad=1 is same here). */
    ct_db *h;
    ct_err e;
    CHECK(ct_db_open(db, 1, &h, &e) == CT_OK);
    const ct_device_info dev = tc_device(DEV, "GPU-list", 9, 0, 13000);
    static const char *const held[] = {"conv2dc:2:4:16:16:8:3:3:same", "conv1dc:2:8:64:16:3:pad=1:bias:dgrad"};
    static const char *const tmpl[] = {"conv2dc_naive", "conv1dc_dgnaive"};
    for (int i = 0; i < 2; i++) {
        char json[512], hash[17];
        CHECK(tc_params(held[i], tmpl[i], NULL, 0, json, sizeof json));
        tc_template_hash(tmpl[i], hash);
        ct_result rec = tc_rec(tmpl[i], hash, json, "ok", 12.5, 1e-7);
        tc_add_run(h, &dev, held[i], &rec, 1);
    }
    ct_db_close(h);
    write_list("held.txt", "conv2dc:2:4:16:16:8:3:3:same\nconv2dc:2:4:16:16:8:3:3:pad=1\n"
                           "  conv1dc:2:8:64:16:3:pad=1:bias:dgrad  \n");
    convtune(&r, "tune", "--problems", "held.txt", "--db", db, NULL);
    CHECK_MSG(r.code == 0, "all held: exit %d: %s", r.code, r.err);
    CHECK_MSG(strstr(r.out, "[1/2] conv2dc:2:4:16:16:8:3:3:same: held already, skipped") &&
                  strstr(r.out, "[2/2] conv1dc:2:8:64:16:3:pad=1:dgrad: held already, skipped") &&
                  !strstr(r.out, "[3/"),
              "all held: %s", r.out);
    CHECK_MSG(strstr(r.out, "0 tuned, 2 held already, 0 failed or not run, of 2"), "all held, summary: %s", r.out);
    tc_result_free(&r);

    /* One to tune: without a driver the run stops with the no-GPU status
     * after that problem's line, and the table tells. */
    void *drv = dlopen("libcuda.so.1", RTLD_NOW);
    if (drv) {
        dlclose(drv);
        printf("note: libcuda.so.1 loads here; the no-GPU run is not checked\n");
    } else {
        write_list("one.txt", "conv2dc:2:4:16:16:8:3:3:same\nconv2dc:2:4:16:16:8:5:5:same\nconv1d:1000:31\n");
        convtune(&r, "tune", "--problems", "one.txt", "--db", db, NULL);
        CHECK_MSG(r.code == 4, "no GPU: exit %d, expected 4: %s%s", r.code, r.out, r.err);
        CHECK_MSG(strstr(r.out, "[1/3] conv2dc:2:4:16:16:8:3:3:same: held already") &&
                      strstr(r.out, "[2/3] conv2dc:2:4:16:16:8:5:5:same: failed") && !strstr(r.out, "[3/3]") &&
                      strstr(r.out, "not run") && strstr(r.out, "0 tuned, 1 held already, 2 failed or not run, of 3"),
                  "no GPU: %s", r.out);
        tc_result_free(&r);
    }
    if (!getenv("CT_KEEP"))
        tc_rm_rf(base);
    CHECK_DONE();
}
