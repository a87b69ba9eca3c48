/* fuzz_problem.c - libFuzzer target for the problem-string parser
 * (ct_problem_parse and, through it, every family's parse()).
 * The invariants are in fuzz_invariants.h; a violated one aborts, which
 * libFuzzer reports as a crash and saves the input. */
#include "fuzz_invariants.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *why = ct_fuzz_check_problem(data, size);
    if (why) {
        fprintf(stderr, "fuzz_problem: invariant violated: %s\n", why);
        abort();
    }
    return 0;
}
