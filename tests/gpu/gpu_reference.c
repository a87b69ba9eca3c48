/* gpu_reference.c - the fp64 GPU reference kernel, trusted for large
 * problems, agrees with the CPU reference on small ones of every mode. */
#include <math.h>

#include "gpu_common.h"

int main(void)
{
    ct_gpu g;
    gpu_or_skip(&g);
    static const char *const specs[] = {"conv1d:1:1", "conv1d:17:17", "conv1d:1000:31", "conv1d:4099:64:same",
                                        "conv1d:777:300:right", "conv1d:20000:2047:same"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        ct_problem p;
        ct_err e;
        CHECK(ct_problem_parse(specs[i], &p, &e) == CT_OK);
        ct_workload w;
        if (ct_workload_create(&g, &p, 99 + i, NULL, NULL, &w, &e) != CT_OK) {
            CHECK_MSG(0, "%s", e.msg);
            continue;
        }
        CHECK_MSG(!w.ref_on_gpu, "%s: small problems use the CPU reference", specs[i]);
        size_t n = ct_problem_output_count(&p);
        double *cpu = malloc(n * sizeof *cpu);
        memcpy(cpu, w.ref, n * sizeof *cpu);
        for (size_t k = 0; k < n; k++)
            w.ref[k] = NAN;
        CHECK_MSG(ct_reference_gpu(&g, &w, NULL, &e) == CT_OK, "%s", e.msg);
        double num = 0, den = 0;
        for (size_t k = 0; k < n; k++) {
            num += (w.ref[k] - cpu[k]) * (w.ref[k] - cpu[k]);
            den += cpu[k] * cpu[k];
        }
        double rel = sqrt(num / den);
        CHECK_MSG(rel <= 1e-13, "%s: GPU reference differs from the CPU one by %g", specs[i], rel);
        printf("%s: GPU fp64 reference matches the CPU one (relative L2 %.2g)\n", specs[i], rel);
        free(cpu);
        ct_workload_free(&g, &w);
    }
    ct_gpu_close(&g);
    CHECK_DONE();
}
