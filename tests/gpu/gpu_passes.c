/* gpu_passes.c - the training passes of the layer families (dgrad, wgrad;
 * conv_pass.h) on a GPU through the command line: odd layers in every form
 * the grammar takes (stride 2 and 3, dilation, every padding form, causal,
 * groups and depthwise, bias, both layouts, bf16 and f16), each tuned on a
 * random sample of every template that computes its pass, every candidate
 * verified against the fp64 references (the CPU one, or the GPU one past its
 * size limit, with a NaN-filled output before each run): none may be wrong,
 * crash or hang. Then exported winners' self-tests, built with nvcc and run
 * (their CPU reference is the pass's). Timings are printed, never asserted. */
#include "compile.h"
#include "gpu_common.h"
#include "rows.h"

static void tune(const char *db, const char *spec, const char *extra)
{
    tl_rows_tune(CT_BINARY, db, spec, extra);
}

int main(void)
{
    ct_gpu g;
    gpu_or_skip(&g);
    char arch[64];
    ct_arch_nvcc(g.arch, arch, sizeof arch);
    ct_gpu_close(&g);
    const char *dir = scratch_dir();
    char db[512];
    snprintf(db, sizeof db, "%s/p.db", dir);

    /* Each layer in both passes: small and odd (nothing a multiple of a
     * tile), then a few of the layers at reduced batch, where the
     * GPU reference takes over and the tuned kernels' real paths run. */
    static const char *const layers[] = {
        /* dense and grouped */
        "conv2dc:2:6:9:11:4:3:2:pad=1,0:stride=2,3:dilation=2,1:groups=2:bias",
        "conv2dc:3:8:13:7:12:3:3:same:groups=4:bias:nhwc",
        "conv2dc:1:5:17:19:7:5:5:stride=3",
        "conv2dc:2:16:15:15:16:3:3:same:groups=4:f16",
        "conv2dc:4:12:10:10:12:1:1:stride=2:bias:bf16",
        "conv1dc:3:6:37:8:5:pad=2:stride=2:groups=2:bias",
        "conv1dc:2:4:29:6:3:causal:dilation=3:groups=2:nlc",
        "conv1dc:1:64:4:64:5:pad=2:bias",
        /* depthwise */
        "conv2dc:2:5:13:11:5:7:7:same:groups=5:bias",
        "conv2dc:2:12:14:9:12:3:3:pad=1:stride=2:groups=12:nhwc",
        "conv2dc:3:6:10:12:6:5:3:pad=2,1:stride=3,2:dilation=1,2:groups=6:bias:bf16",
        "conv2dc:2:24:9:10:24:7:7:same:groups=24:nhwc:bf16",
        "conv2dc:1:16:11:13:16:31:31:same:groups=16:f16",
        "conv1dc:2:12:57:12:4:causal:groups=12:bias",
        "conv1dc:3:16:41:16:4:causal:groups=16:nlc:bf16",
        "conv1dc:2:10:33:10:3:pad=1:stride=3:dilation=2:groups=10:nlc:f16",
        "conv1dc:2:8:40:8:7:pad=3:stride=2:groups=8:bias:f16",
        "conv2dc:4:24:28:28:24:3:3:same:dilation=2:groups=24:bias:nhwc",
        "conv2dc:2:3:20:20:3:5:5:pad=2:stride=3:groups=3:nhwc:bf16",
        "conv2dc:2:2:17:10:2:5:4:pad=1:stride=3:dilation=2:groups=2:bias",
        "conv1dc:3:7:101:7:5:causal:dilation=2:groups=7:bias",
        "conv2dc:8:30:31:29:30:5:5:pad=2:stride=3:groups=2",
        "conv2dc:4:64:40:40:64:3:3:pad=2,1:stride=2,1:bias:nhwc",
        "conv2dc:16:64:28:28:64:3:3:same:groups=4:nhwc:f16",
        "conv1dc:8:128:1000:256:5:pad=2:stride=2:dilation=2:nlc",
        "conv1dc:4:64:512:128:3:causal:groups=64:bias:bf16",
        /* the layers, reduced */
        "conv2dc:4:32:16:16:32:31:31:same:groups=32",
        "conv2dc:2:96:28:28:96:7:7:same:groups=96",
        "conv2dc:4:96:28:28:96:7:7:same:groups=96:bias:nhwc:bf16",
        "conv1dc:2:256:1024:256:4:causal:groups=256:bf16",
        "conv1dc:2:256:1024:256:4:causal:groups=256:nlc:bf16",
        "conv2dc:4:64:28:28:64:3:3:same:groups=16",
        "conv2dc:500:12:22:22:12:3:3:valid",
    };
    static const char *const passes[] = {"dgrad", "wgrad"};
    for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
        for (int q = 0; q < 2; q++) {
            /* The pass before the element type, its last token. */
            char spec[256], extra[128];
            const char *dtype = strstr(layers[i], ":bf16") ? ":bf16" : strstr(layers[i], ":f16") ? ":f16" : "";
            snprintf(spec, sizeof spec, "%.*s:%s%s", (int)(strlen(layers[i]) - strlen(dtype)), layers[i], passes[q],
                     dtype);
            snprintf(extra, sizeof extra, "--strategy random --budget 40 --seed %zu", 2 * i + (size_t)q + 1);
            tune(db, spec, extra);
        }

    /* The depthwise kernels alone on odd layers (every candidate of the
     * 1D streaming path, several filter rows per thread in wgdwcl). */
    static const char *const alone[][2] = {
        {"conv1dc:3:16:101:16:4:causal:groups=16:bias:wgrad:bf16", "conv1dc_wgdw"},
        {"conv1dc:2:24:99:24:5:pad=4:dilation=2:groups=24:dgrad", "conv1dc_dgdw"},
        {"conv1dc:2:16:70:16:3:pad=1:stride=2:groups=16:wgrad", "conv1dc_wgdw"},
        {"conv1dc:2:512:4098:512:4:causal:groups=512:dgrad:bf16", "conv1dc_dgdw"},
        {"conv2dc:4:12:33:31:12:3:3:pad=1:stride=2:groups=12:bias:nhwc:wgrad:bf16", "conv2dc_wgdwcl"},
        {"conv2dc:4:3:30:30:3:7:7:same:groups=3:nhwc:wgrad:bf16", "conv2dc_wgdwcl"},
        {"conv2dc:4:96:28:28:96:3:3:same:dilation=2:groups=96:bias:nhwc:wgrad", "conv2dc_wgdwcl"},
        /* wgdw16cl (tensor cores, bf16/f16): odd sizes, a partial channel
         * group, even and > 8-row filters, dilation, padding as wide as
         * the filter, height 1. */
        {"conv2dc:3:40:17:23:40:5:5:same:groups=40:bias:nhwc:wgrad:f16", "conv2dc_wgdw16cl"},
        {"conv2dc:2:16:20:19:16:11:9:same:groups=16:nhwc:wgrad:bf16", "conv2dc_wgdw16cl"},
        {"conv2dc:2:24:15:16:24:3:3:same:dilation=2:groups=24:bias:nhwc:wgrad:bf16", "conv2dc_wgdw16cl"},
        {"conv2dc:2:8:10:11:8:4:4:same:groups=8:bias:nhwc:wgrad:f16", "conv2dc_wgdw16cl"},
        {"conv2dc:1:16:6:7:16:5:5:pad=4:groups=16:bias:nhwc:wgrad:bf16", "conv2dc_wgdw16cl"},
        {"conv1dc:3:16:101:16:4:causal:groups=16:bias:nlc:wgrad:bf16", "conv1dc_wgdw16cl"},
    };
    tl_rows_tune_alone(CT_BINARY, db, alone, sizeof alone / sizeof alone[0]);

    /* Exported winners of each pass, both families and layouts, a half type
     * and a bias gradient among them. */
    static const char *const exports[] = {
        "conv2dc:2:5:13:11:5:7:7:same:groups=5:bias:wgrad",
        "conv2dc:2:12:14:9:12:3:3:pad=1:stride=2:groups=12:nhwc:dgrad",
        "conv2dc:2:6:9:11:4:3:2:pad=1,0:stride=2,3:dilation=2,1:groups=2:bias:dgrad",
        "conv1dc:3:16:41:16:4:causal:groups=16:nlc:wgrad:bf16",
        "conv1dc:3:6:37:8:5:pad=2:stride=2:groups=2:bias:wgrad",
    };
    for (size_t i = 0; i < sizeof exports / sizeof exports[0]; i++)
        tl_rows_export_selftest(CT_BINARY, db, dir, exports[i], arch);
    sh("rm -rf %s", dir);
    CHECK_DONE();
}
