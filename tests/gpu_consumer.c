/* gpu_consumer.c - runs the consumer program that consumer_build built
 * (consumer-work/build/consumer, from tests/consumer and a family export):
 * on a GPU it calls the exported selector on tuned and untuned sizes and
 * checks every result against an fp64 CPU reference and every grade; its
 * exit status is this test's (0 pass, 77 no GPU: SKIPPED, else fail).
 * tests/CMakeLists.txt makes consumer_build a fixture of this test, so
 * `ctest -L gpu` builds the consumer first. */
#include "export_common.h"

#define TIMEOUT_S 600

int main(void)
{
    char cwd[1024], exe[1200], capdir[1200];
    if (!getcwd(cwd, sizeof cwd)) {
        perror("getcwd");
        return 1;
    }
    snprintf(exe, sizeof exe, "%s/consumer-work/build/consumer", cwd);
    snprintf(capdir, sizeof capdir, "%s/consumer-work/cap", cwd);
    if (access(exe, X_OK) != 0) {
        /* Not a skip: SKIPPED means no GPU, and a build that failed is a
         * failure wherever it happens. */
        printf("FAILED: %s was not built (consumer_build did not pass)\n", exe);
        return 1;
    }
    char *argv[] = {exe, NULL};
    tc_result r;
    tc_run(argv, cwd, capdir, TIMEOUT_S, &r);
    fputs(r.out, stdout);
    fputs(r.err, stderr);
    int code = r.code;
    tc_result_free(&r);
    if (code == 0 || code == CT_TEST_SKIP)
        return code;
    fprintf(stderr, "consumer exited with %d\n", code);
    return 1;
}
