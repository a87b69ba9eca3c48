/* fuzz_config.c - libFuzzer target for the INI loader: ct_config_apply_text
 * on top of the built-in configuration (ct_config_init). The invariants are
 * in fuzz_invariants.h; a violated one aborts, which libFuzzer reports as a
 * crash and saves the input. */
#include "fuzz_invariants.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ct_config base;
    static int ready;
    if (!ready) {
        ct_err e;
        if (ct_config_init(&base, &e) != CT_OK) {
            fprintf(stderr, "fuzz_config: ct_config_init: %s\n", e.msg);
            abort();
        }
        ready = 1;
    }
    const char *why = ct_fuzz_check_config(&base, data, size);
    if (why) {
        fprintf(stderr, "fuzz_config: invariant violated: %s\n", why);
        abort();
    }
    return 0;
}
