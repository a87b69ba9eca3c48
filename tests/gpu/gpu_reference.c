/* gpu_reference.c - the fp64 GPU reference kernel, trusted for large
 * problems, agrees with the CPU reference on small ones of every mode, and
 * the layer families' (forward, dgrad and wgrad; ct_pass_ref64.cuh) on
 * small odd layers of both layouts. */
#include <math.h>

#include "gpu_common.h"

int main(void)
{
    ct_gpu g;
    gpu_or_skip(&g);
    static const char *const specs[] = {"conv1d:1:1", "conv1d:17:17", "conv1d:1000:31", "conv1d:4099:64:same",
                                        "conv1d:777:300:right", "conv1d:20000:2047:same",
                                        "conv2dc:2:6:9:11:4:3:2:pad=1,0:stride=2,3:dilation=2,1:groups=2:bias",
                                        "conv2dc:2:6:9:11:4:3:2:pad=1,0:stride=2,3:dilation=2,1:groups=2:dgrad",
                                        "conv2dc:2:6:9:11:4:3:2:pad=1,0:stride=2,3:dilation=2,1:groups=2:bias:wgrad",
                                        "conv2dc:2:5:13:11:5:7:7:same:groups=5:nhwc:dgrad:bf16",
                                        "conv2dc:2:5:13:11:5:7:7:same:groups=5:bias:nhwc:wgrad",
                                        "conv1dc:3:6:37:8:5:pad=2:stride=2:groups=2:dgrad",
                                        "conv1dc:3:16:41:16:4:causal:dilation=2:groups=16:bias:nlc:wgrad:f16"};
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
