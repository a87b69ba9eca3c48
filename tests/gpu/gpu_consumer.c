/* gpu_consumer.c - runs the consumer programs that consumer_build built
 * from tests/consumer and a family export of every family
 * (consumer-work/build/consumer for conv1d, consumer-work/build-F/consumer
 * for the others): on a GPU each calls the exported selector on tuned and
 * untuned sizes (exact, nearest_size and generic grades, NaN-filled outputs,
 * random inputs) and checks every result against an fp64 CPU reference and
 * every grade; then the consumers of the half exports
 * (consumer-work/build-F-T, tests/lib/export_common.h's tc_half_cases) with
 * their type's bound. 0 when all pass, 77 (SKIPPED) when there is no GPU,
 * else 1.
 * tests/CMakeLists.txt makes consumer_build a fixture of this test, so
 * `ctest -L gpu` builds the consumer first. */
#include "export_common.h"

#define TIMEOUT_S 600

/* Run one consumer; its exit status. */
static int run_one(const char *cwd, const char *exe, const char *capdir)
{
    if (access(exe, X_OK) != 0) {
        /* Not a skip: SKIPPED means no GPU, and a build that failed is a
         * failure wherever it happens. */
        printf("FAILED: %s was not built (consumer_build did not pass)\n", exe);
        return 1;
    }
    char *argv[] = {(char *)exe, NULL};
    tc_result r;
    tc_run(argv, cwd, capdir, TIMEOUT_S, &r);
    fputs(r.out, stdout);
    fputs(r.err, stderr);
    int code = r.code;
    tc_result_free(&r);
    if (code != 0 && code != CT_TEST_SKIP)
        fprintf(stderr, "%s exited with %d\n", exe, code);
    return code;
}

int main(void)
{
    char cwd[1024], exe[1200], capdir[1200];
    if (!getcwd(cwd, sizeof cwd)) {
        perror("getcwd");
        return 1;
    }
    snprintf(capdir, sizeof capdir, "%s/consumer-work/cap", cwd);
    int skipped = 0, failed = 0;
    for (int c = 0; c < TC_NFAMILY_CASES; c++) {
        const char *fam = tc_family_cases[c].family;
        if (!strcmp(fam, "conv1d"))
            snprintf(exe, sizeof exe, "%s/consumer-work/build/consumer", cwd);
        else
            snprintf(exe, sizeof exe, "%s/consumer-work/build-%s/consumer", cwd, fam);
        printf("== %s\n", fam);
        fflush(stdout);
        int code = run_one(cwd, exe, capdir);
        skipped += code == CT_TEST_SKIP;
        failed += code != 0 && code != CT_TEST_SKIP;
    }
    for (int c = 0; c < TC_NHALF_CASES; c++) {
        snprintf(exe, sizeof exe, "%s/consumer-work/build-%s-%s/consumer", cwd, tc_half_cases[c].family,
                 tc_half_cases[c].dtype);
        printf("== %s %s\n", tc_half_cases[c].family, tc_half_cases[c].dtype);
        fflush(stdout);
        int code = run_one(cwd, exe, capdir);
        skipped += code == CT_TEST_SKIP;
        failed += code != 0 && code != CT_TEST_SKIP;
    }
    if (failed)
        return 1;
    return skipped ? CT_TEST_SKIP : 0;
}
