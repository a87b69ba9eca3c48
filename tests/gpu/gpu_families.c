/* gpu_families.c - the conv1dc, conv2d and conv2dc families on a GPU through
 * the command line: small and odd shapes (every candidate tuned must be
 * correct), every family in bf16 and f16 (the naive templates and the
 * half-precision ones against the CPU and the fp64 GPU references, which
 * read the half inputs, with the type's tolerance), the tensor-core templates alone on odd shapes (a random sample
 * of each space, every candidate verified; in tf32 too, their single-pass
 * mode), the seed problems with a budget,
 * and exported winners' self-tests (one of several launches among them)
 * built with nvcc and run. Timings are printed, never asserted. */
#include "compile.h"
#include "db.h"
#include "dtype.h"
#include "gpu_common.h"
#include "rows.h"

static void tune(const char *db, const char *spec, const char *extra)
{
    tl_rows_tune(CT_BINARY, db, spec, extra);
}

static void tune_alone(const char *db, const char *const (*rows)[2], size_t n)
{
    tl_rows_tune_alone(CT_BINARY, db, rows, n);
}

static void export_selftest(const char *db, const char *dir, const char *spec, const char *arch)
{
    tl_rows_export_selftest(CT_BINARY, db, dir, spec, arch);
}

int main(void)
{
    ct_gpu g;
    gpu_or_skip(&g);
    char arch[64];
    ct_arch_nvcc(g.arch, arch, sizeof arch);   /* as the exports' Build line */
    const int tensor_tf32 = g.lim.cc_major >= 8;   /* mma.sync TF32 and cp.async */
    const int clusters = g.lim.cc_major >= 9;      /* thread-block clusters */
    ct_gpu_close(&g);
    const char *dir = scratch_dir();
    char db[512];
    snprintf(db, sizeof db, "%s/f.db", dir);

    /* Odd sizes (nothing a multiple of a tile), B = 1, 1x1 filters, bias,
     * padding, same mode. */
    static const char *const small[] = {
        "conv1dc:1:3:17:5:1",           "conv1dc:2:7:33:9:7:pad=3:bias", "conv1dc:8:64:1000:128:3:pad=1",
        "conv1dc:1:1:1:1:1",            "conv2d:1:7:9:1:1",              "conv2d:4:513:257:5:7:same",
        "conv2d:2:31:33:31:1:valid",    "conv2d:1:1000:1000:3:3",        "conv2dc:1:3:17:13:5:3:3:same:bias",
        "conv2dc:2:4:9:9:3:1:1:valid",  "conv2dc:3:2:30:31:7:5:5:valid:bias",
        /* issue 15 on every template that admits them (tiled: causal and
         * asymmetric padding at stride 1; simt: strided, dilated, grouped;
         * naive: everything) */
        "conv1dc:2:7:33:9:4:causal:bias", "conv1dc:2:6:29:4:3:causal:stride=2:dilation=3:groups=2",
        "conv2dc:2:3:17:13:5:5:3:pad=4,1:bias", "conv2dc:2:4:15:13:6:3:3:pad=1:stride=2,3:dilation=2:groups=2",
        /* channels last (naive, and the depthwise channels-last template) */
        "conv1dc:2:7:33:9:4:causal:bias:nlc", "conv2dc:2:4:15:13:6:3:3:pad=1:stride=2,3:dilation=2:groups=2:nhwc",
        "conv2dc:3:2:30:31:7:5:5:valid:bias:nhwc",
    };
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        char extra[64];
        snprintf(extra, sizeof extra, "--max-candidates 40 --seed %zu", i + 1);
        tune(db, small[i], extra);
    }
    /* The tensor-core templates on their own: channels, sizes and filters
     * that fit no tile, several chunks with a partial last one, 1x1 and
     * even filters, short sequences, bias with and without split-K. */
    static const char *const tc[][2] = {
        {"conv2dc:3:19:13:11:37:3:3:same:bias", "conv2dc_tc"},
        {"conv2dc:2:70:9:7:20:5:2:valid", "conv2dc_tc"},
        {"conv2dc:1:3:31:29:64:7:7:same", "conv2dc_tc"},
        {"conv2dc:4:33:10:10:130:1:1:valid:bias", "conv2dc_tc"},
        {"conv2dc:3:45:12:13:30:3:3:same:bias", "conv2dc_tcsplit"},
        {"conv2dc:1:130:6:5:17:3:4:same", "conv2dc_tcsplit"},
        {"conv1dc:3:21:77:19:5:pad=2:bias", "conv1dc_tc"},
        {"conv1dc:2:40:9:70:4:pad=1", "conv1dc_tc"},
        {"conv1dc:2:100:50:33:3:pad=1:bias", "conv1dc_tcsplit"},
        {"conv1dc:1:300:1000:5:1", "conv1dc_tcsplit"},
        /* issue 15: grouped (two channels a group the narrowest: one is
         * depthwise, left to the depthwise templates), strided, dilated,
         * causal and asymmetrically padded layers on odd sizes */
        {"conv2dc:2:12:13:11:18:3:3:same:groups=3:bias", "conv2dc_tc"},
        {"conv2dc:3:8:17:15:8:7:7:same:groups=4", "conv2dc_tc"},
        {"conv2dc:2:3:37:35:16:7:7:pad=3:stride=2:bias", "conv2dc_tc"},
        {"conv2dc:1:6:19:17:10:3:2:pad=2,1:stride=2,3:dilation=2,3:groups=2", "conv2dc_tc"},
        {"conv2dc:1:64:9:9:32:3:3:pad=1:stride=2:groups=2:bias", "conv2dc_tcsplit"},
        {"conv1dc:3:12:101:18:3:pad=8:dilation=8:groups=3:bias", "conv1dc_tc"},
        {"conv1dc:2:20:77:20:4:causal:groups=10", "conv1dc_tc"},
        {"conv1dc:2:9:60:6:5:pad=2:stride=3", "conv1dc_tc"},
        {"conv1dc:1:96:40:32:3:causal:dilation=2:groups=2", "conv1dc_tcsplit"},
    };
    if (tensor_tf32)
        tune_alone(db, tc, sizeof tc / sizeof tc[0]);
    if (tensor_tf32) {
        export_selftest(db, dir, tc[0][0], arch);
        export_selftest(db, dir, tc[4][0], arch);
        export_selftest(db, dir, tc[8][0], arch);
        export_selftest(db, dir, tc[11][0], arch);    /* grouped, strided, dilated tc */
        export_selftest(db, dir, tc[16][0], arch);   /* causal grouped tc */
    } else {
        printf("tensor-core templates not run: %s has no TF32 mma.sync (sm_80 or later)\n", arch);
    }
    /* tf32: the single-pass tc kernels alone (every candidate verified to
     * 2^-10, the winner's error TF32's rounding, not 3xTF32's): odd
     * channels, both layouts, groups, stride, dilation, asymmetric and
     * causal padding, bias, split-K, a dense layer of batch 1; exported
     * self-tests (one split-K); then a tune over every template that takes
     * a tf32 problem (the fp32 ones too). */
    static const char *const tf32[][2] = {
        {"conv2dc:3:19:13:11:37:3:3:same:bias:tf32", "conv2dc_tc"},
        {"conv2dc:2:12:13:11:18:3:3:same:groups=3:bias:nhwc:tf32", "conv2dc_tc"},
        {"conv2dc:1:6:19:17:10:3:2:pad=2,1:stride=2,3:dilation=2,3:groups=2:tf32", "conv2dc_tc"},
        {"conv2dc:3:45:12:13:30:3:3:same:bias:nhwc:tf32", "conv2dc_tcsplit"},
        {"conv2dc:1:130:6:5:17:3:4:same:tf32", "conv2dc_tcsplit"},
        {"conv2dc:1:64:56:56:64:3:3:same:nhwc:tf32", "conv2dc_tc"},
        {"conv1dc:3:21:77:19:5:pad=2:bias:tf32", "conv1dc_tc"},
        {"conv1dc:2:20:77:20:4:causal:groups=10:nlc:tf32", "conv1dc_tc"},
        {"conv1dc:2:100:50:33:3:pad=1:bias:nlc:tf32", "conv1dc_tcsplit"},
    };
    if (tensor_tf32) {
        tune_alone(db, tf32, sizeof tf32 / sizeof tf32[0]);
        export_selftest(db, dir, tf32[0][0], arch);
        export_selftest(db, dir, tf32[3][0], arch);   /* split-K, bias, channels last */
        export_selftest(db, dir, tf32[7][0], arch);   /* causal grouped 1D, channels last */
        tune(db, "conv2dc:2:16:15:13:24:3:3:same:bias:tf32", "--max-candidates 40 --seed 31");
        tune(db, "conv1dc:2:24:57:40:3:pad=1:nlc:tf32", "--max-candidates 40 --seed 32");
    }
    /* The fp32 tensor-core templates on channels-last layers: odd sizes,
     * groups, stride, dilation, asymmetric padding, bias, split-K. */
    static const char *const tccl[][2] = {
        {"conv2dc:3:19:13:11:37:3:3:same:bias:nhwc", "conv2dc_tc"},
        {"conv2dc:2:12:13:11:18:3:3:same:groups=3:bias:nhwc", "conv2dc_tc"},
        {"conv2dc:1:6:19:17:10:3:2:pad=2,1:stride=2,3:dilation=2,3:groups=2:nhwc", "conv2dc_tc"},
        {"conv2dc:3:45:12:13:30:3:3:same:bias:nhwc", "conv2dc_tcsplit"},
        {"conv1dc:3:21:77:19:5:pad=2:bias:nlc", "conv1dc_tc"},
        {"conv1dc:2:100:50:33:3:pad=1:bias:nlc", "conv1dc_tcsplit"},
    };
    if (tensor_tf32) {
        tune_alone(db, tccl, sizeof tccl / sizeof tccl[0]);
        export_selftest(db, dir, tccl[0][0], arch);
        export_selftest(db, dir, tccl[3][0], arch);   /* split-K, bias, channels last */
    }

    /* The depthwise templates on their own (any architecture): causal K = 4
     * with rows on and off the 16-byte vector path, strided and dilated 1D
     * layers, 7x7, 13x13 and 31x31 filters on odd planes split in tiles or
     * whole, a strided and an odd-sized layer with bias. */
    static const char *const dw[][2] = {
        {"conv1dc:3:20:77:20:4:causal:groups=20:bias", "conv1dc_dw"},
        {"conv1dc:2:12:96:12:4:causal:groups=12", "conv1dc_dw"},
        {"conv1dc:2:9:101:9:3:pad=8:dilation=8:groups=9", "conv1dc_dw"},
        {"conv1dc:1:5:64:5:3:pad=2:dilation=2:groups=5:bias", "conv1dc_dw"},
        {"conv1dc:3:7:61:7:5:pad=2:stride=3:groups=7:bias", "conv1dc_dw"},
        {"conv2dc:2:6:19:17:6:7:7:same:groups=6", "conv2dc_dw"},
        {"conv2dc:1:4:29:31:4:13:13:same:groups=4", "conv2dc_dw"},
        {"conv2dc:1:2:40:37:2:31:31:same:groups=2", "conv2dc_dw"},
        {"conv2dc:2:5:23:21:5:3:3:pad=1:stride=2:groups=5:bias", "conv2dc_dw"},
        {"conv2dc:3:3:13:11:3:5:3:pad=2,1:stride=1,2:dilation=2,1:groups=3:bias", "conv2dc_dw"},
        /* conv2dc_dwp (sm_80 on): odd planes (no 16-byte copies), planes
         * per warp that do not divide the layer's (10, 9, 15), 16-byte
         * copies with windows 1, 2 and 0 floats off alignment, stride 2,
         * dilation 2, several passes of a warp over a large plane, and the
         * three issue-15 filters on 32x32 planes. */
        {"conv2dc:2:5:19:17:5:7:7:same:groups=5:bias", "conv2dc_dwp"},
        {"conv2dc:3:3:23:20:3:3:3:pad=1:stride=2:groups=3:bias", "conv2dc_dwp"},
        {"conv2dc:3:5:20:24:5:5:5:pad=4:dilation=2:groups=5", "conv2dc_dwp"},
        {"conv2dc:3:3:40:36:3:6:4:pad=3,2:stride=3,2:dilation=2,3:groups=3:bias", "conv2dc_dwp"},
        {"conv2dc:1:3:64:64:3:31:31:same:groups=3", "conv2dc_dwp"},
        {"conv2dc:3:5:32:32:5:7:7:same:groups=5", "conv2dc_dwp"},
        {"conv2dc:2:7:32:32:7:13:13:same:groups=7:bias", "conv2dc_dwp"},
        {"conv2dc:1:4:32:32:4:31:31:same:groups=4", "conv2dc_dwp"},
        /* channels last: the causal target's channels at a small length,
         * channel counts on the 16-, 8- and 4-byte paths, stride, dilation */
        {"conv1dc:2:1024:256:1024:4:causal:groups=1024:nlc", "conv1dc_dwcl"},
        {"conv1dc:3:20:77:20:4:causal:groups=20:bias:nlc", "conv1dc_dwcl"},
        {"conv1dc:2:9:101:9:3:pad=8:dilation=8:groups=9:nlc", "conv1dc_dwcl"},
        {"conv1dc:3:6:61:6:5:pad=2:stride=3:groups=6:bias:nlc", "conv1dc_dwcl"},
        {"conv1dc:1:36:40:36:31:pad=15:dilation=2:groups=36:nlc", "conv1dc_dwcl"},
        /* channels-last tiles (any architecture): 16-byte vectors with
         * bias, odd and 3 channels (scalar loads), stride 2 and 3, dilation,
         * asymmetric padding, same with an even kernel, valid, one channel */
        {"conv2dc:2:96:20:22:96:7:7:same:groups=96:bias:nhwc", "conv2dc_dwtcl"},
        {"conv2dc:3:13:23:21:13:3:3:pad=1:stride=2:groups=13:bias:nhwc", "conv2dc_dwtcl"},
        {"conv2dc:2:6:19:17:6:5:3:pad=2,1:stride=3,2:dilation=2,1:groups=6:nhwc", "conv2dc_dwtcl"},
        {"conv2dc:1:3:30:31:3:4:4:same:groups=3:nhwc", "conv2dc_dwtcl"},
        {"conv2dc:2:24:15:16:24:3:3:valid:dilation=2:groups=24:nhwc", "conv2dc_dwtcl"},
        {"conv1dc:2:1:200:1:11:pad=5:nlc", "conv1dc_dwtcl"},
        {"conv1dc:3:20:77:20:4:causal:groups=20:bias:nlc", "conv1dc_dwtcl"},
        /* channels last on the tensor cores (half types, sm_80 on): bias
         * on odd sizes, stride and dilation along H with dilation along
         * W, a 13-wide filter (two k-steps), 24 channels (the 16-byte
         * group offsets), a conv1dc layer */
        {"conv2dc:3:40:17:23:40:5:5:same:groups=40:bias:nhwc:f16", "conv2dc_dwtc16cl"},
        {"conv2dc:4:24:30:29:24:3:3:pad=2:stride=2,1:dilation=2:groups=24:nhwc:bf16", "conv2dc_dwtc16cl"},
        {"conv2dc:2:48:19:21:48:13:13:same:groups=48:bias:nhwc:bf16", "conv2dc_dwtc16cl"},
        {"conv1dc:2:64:1000:64:9:pad=4:groups=64:bias:nlc:bf16", "conv1dc_dwtc16cl"},
    };
    for (size_t i = 0; i < sizeof dw / sizeof dw[0]; i++) {
        if (!tensor_tf32 && (strcmp(dw[i][1], "conv2dc_dwp") == 0 || strstr(dw[i][1], "dwtc16cl")))
            continue;   /* cp.async, mma.sync: sm_80 on, as the tensor-core templates */
        char extra[128];
        snprintf(extra, sizeof extra, "--template %s --strategy random --budget 40 --seed %zu", dw[i][1], i + 1);
        tune(db, dw[i][0], extra);
    }
    export_selftest(db, dir, dw[0][0], arch);   /* causal depthwise, bias */
    export_selftest(db, dir, dw[8][0], arch);   /* strided depthwise 2D, bias */
    if (tensor_tf32)
        export_selftest(db, dir, dw[11][0], arch);   /* conv2dc_dwp strided, dilated, bias */
    export_selftest(db, dir, dw[24][0], arch);   /* conv2dc_dwtcl strided, odd channels, bias */
    if (tensor_tf32)
        export_selftest(db, dir, dw[30][0], arch);   /* conv2dc_dwtc16cl f16, odd sizes, bias */

    /* The SIMT templates on their own (any architecture): grouped layers
     * with few channels per group (a block of several groups, a partial
     * last block, a channel multiplier), strided and dilated layers with
     * one group, chunked reductions with a partial last chunk, causal,
     * asymmetric padding, odd sizes everywhere. */
    static const char *const simt[][2] = {
        {"conv2dc:3:24:29:27:24:3:3:same:groups=6:bias", "conv2dc_simt"},
        {"conv2dc:2:20:17:19:40:3:3:same:groups=10", "conv2dc_simt"},
        {"conv2dc:2:9:21:23:15:5:5:pad=2:dilation=2:groups=3", "conv2dc_simt"},
        {"conv2dc:2:37:31:29:19:3:3:pad=1:stride=2:bias", "conv2dc_simt"},
        {"conv2dc:2:3:45:43:16:7:7:pad=3:stride=2:bias", "conv2dc_simt"},
        {"conv2dc:1:6:19:17:10:3:2:pad=2,1:stride=2,3:dilation=2,3:groups=2", "conv2dc_simt"},
        {"conv1dc:3:20:203:36:3:pad=8:dilation=8:bias", "conv1dc_simt"},
        {"conv1dc:2:18:157:12:4:causal:dilation=2:groups=3", "conv1dc_simt"},
        {"conv1dc:2:9:161:7:5:pad=2:stride=3:bias", "conv1dc_simt"},
        {"conv1dc:1:40:300:40:3:pad=4:dilation=4:groups=8", "conv1dc_simt"},
    };
    for (size_t i = 0; i < sizeof simt / sizeof simt[0]; i++) {
        char extra[128];
        snprintf(extra, sizeof extra, "--template %s --strategy random --budget 30 --seed %zu", simt[i][1], i + 1);
        tune(db, simt[i][0], extra);
    }
    export_selftest(db, dir, simt[0][0], arch);   /* grouped SIMT, bias */
    export_selftest(db, dir, simt[6][0], arch);   /* dilated 1D SIMT, bias */

    export_selftest(db, dir, dw[18][0], arch);   /* causal depthwise, channels last */
    export_selftest(db, dir, dw[21][0], arch);   /* strided depthwise, channels last, bias */
    export_selftest(db, dir, "conv2dc:3:2:30:31:7:5:5:valid:bias:nhwc", arch);

    export_selftest(db, dir, "conv1dc:2:7:33:9:7:pad=3:bias", arch);
    export_selftest(db, dir, "conv2d:4:513:257:5:7:same", arch);
    export_selftest(db, dir, "conv2dc:3:2:30:31:7:5:5:valid:bias", arch);
    export_selftest(db, dir, "conv2dc:2:4:15:13:6:3:3:pad=1:stride=2,3:dilation=2:groups=2", arch);
    export_selftest(db, dir, "conv1dc:2:6:29:4:3:causal:stride=2:dilation=3:groups=2", arch);

    /* Half precision: odd shapes on the CPU reference, large ones (over
     * 2e8 FLOPs) on the fp64 GPU reference reading the half inputs; every
     * template with the type (the naive ones at least) verified. */
    static const char *const half[] = {
        "conv1d:1000:31:same:bf16",
        "conv1d:100000:2047:f16",
        "conv1dc:2:7:33:9:7:pad=3:bias:bf16",
        "conv1dc:8:64:1000:128:3:pad=1:f16",
        "conv1dc:2:6:29:4:3:causal:stride=2:dilation=3:groups=2:bf16",
        "conv2d:4:513:257:5:7:same:f16",
        "conv2d:16:512:512:11:11:same:bf16",
        "conv2dc:3:2:30:31:7:5:5:valid:bias:bf16",
        "conv2dc:32:64:56:56:64:3:3:same:f16",
        "conv2dc:2:4:15:13:6:3:3:pad=1:stride=2,3:dilation=2:groups=2:bias:f16",
        /* half and channels last (the naive template alone) */
        "conv1dc:2:7:33:9:7:pad=3:bias:nlc:bf16",
        "conv2dc:3:2:30:31:7:5:5:valid:bias:nhwc:f16",
        "conv2dc:32:64:56:56:64:3:3:same:nhwc:bf16",
    };
    for (size_t i = 0; i < sizeof half / sizeof half[0]; i++) {
        char extra[64];
        snprintf(extra, sizeof extra, "--max-candidates 20 --seed %zu", i + 1);
        tune(db, half[i], extra);
    }
    export_selftest(db, dir, half[0], arch);
    export_selftest(db, dir, half[2], arch);
    export_selftest(db, dir, half[5], arch);
    export_selftest(db, dir, half[9], arch);
    export_selftest(db, dir, half[10], arch);   /* bf16, channels last */
    export_selftest(db, dir, half[11], arch);   /* f16, channels last, bias */

    /* The half copies of the direct templates alone (issue 16), each in
     * both types: odd lengths, every mode, masks of several shared-memory
     * chunks with an odd left padding, a segment count that is no power
     * of two for the FFT; odd planes, 1x1, 1-wide and 11x11 filters. */
    static const char *const direct_half[][2] = {
        {"conv1d:4099:33:right:f16", "conv1d_tiledh"},
        {"conv1d:1003:31:same:bf16", "conv1d_tiledh"},
        {"conv1d:30011:2047:same:f16", "conv1d_tiledh"},
        {"conv1d:20011:1500:valid:bf16", "conv1d_tiledh"},
        {"conv1d:100003:2047:f16", "conv1d_ffth"},
        {"conv1d:4097:33:same:bf16", "conv1d_ffth"},
        {"conv1d:1001:31:right:f16", "conv1d_ffth"},
        {"conv1d:30013:2047:same:bf16", "conv1d_ffth"},
        {"conv2d:4:513:257:5:7:same:bf16", "conv2d_tiledh"},
        {"conv2d:2:31:33:31:1:valid:f16", "conv2d_tiledh"},
        {"conv2d:3:101:99:11:11:same:f16", "conv2d_tiledh"},
        {"conv2d:1:7:9:1:1:bf16", "conv2d_tiledh"},
        /* the depthwise channels-last copy: the causal target's channels,
         * channel counts on the 8-, 4- and 2-byte paths, stride, dilation */
        {"conv1dc:2:1024:256:1024:4:causal:groups=1024:nlc:bf16", "conv1dc_dwclh"},
        {"conv1dc:3:20:77:20:4:causal:groups=20:bias:nlc:f16", "conv1dc_dwclh"},
        {"conv1dc:2:9:101:9:3:pad=8:dilation=8:groups=9:nlc:bf16", "conv1dc_dwclh"},
        {"conv1dc:3:6:61:6:5:pad=2:stride=3:groups=6:bias:nlc:f16", "conv1dc_dwclh"},
        /* the depthwise NCL and plane copies (any architecture: conv2dc_dwph
         * stages without cp.async): rows on and off the vector path, odd
         * planes, 4-element rows, stride 2, dilation 2, bias, a 31x31 filter */
        {"conv1dc:3:20:77:20:4:causal:groups=20:bias:f16", "conv1dc_dwh"},
        {"conv1dc:2:12:96:12:4:causal:groups=12:bf16", "conv1dc_dwh"},
        {"conv1dc:2:9:101:9:3:pad=4:dilation=2:groups=9:bias:bf16", "conv1dc_dwh"},
        {"conv1dc:3:7:61:7:5:pad=2:stride=2:groups=7:f16", "conv1dc_dwh"},
        {"conv2dc:2:5:19:17:5:7:7:same:groups=5:bias:bf16", "conv2dc_dwph"},
        {"conv2dc:3:3:23:20:3:3:3:pad=1:stride=2:groups=3:bias:f16", "conv2dc_dwph"},
        {"conv2dc:3:5:20:24:5:5:5:pad=4:dilation=2:groups=5:bf16", "conv2dc_dwph"},
        {"conv2dc:2:7:32:32:7:13:13:same:groups=7:f16", "conv2dc_dwph"},
        /* the channels-last tiles: 16-byte vectors, odd channels, stride,
         * dilation, asymmetric padding, bias, a dilated 1D layer */
        {"conv2dc:2:96:20:22:96:7:7:same:groups=96:bias:nhwc:bf16", "conv2dc_dwtcl"},
        {"conv2dc:3:13:23:21:13:3:3:pad=1:stride=2:groups=13:nhwc:f16", "conv2dc_dwtcl"},
        {"conv2dc:2:40:17:19:40:3:3:pad=2:dilation=2:groups=40:bias:nhwc:f16", "conv2dc_dwtcl"},
        {"conv2dc:2:6:19:17:6:5:3:pad=2,1:stride=3,2:dilation=2,1:groups=6:bias:nhwc:bf16", "conv2dc_dwtcl"},
        {"conv1dc:2:24:101:24:3:pad=8:dilation=8:groups=24:nlc:bf16", "conv1dc_dwtcl"},
    };
    for (size_t i = 0; i < sizeof direct_half / sizeof direct_half[0]; i++) {
        char extra[128];
        snprintf(extra, sizeof extra, "--template %s --strategy random --budget 30 --seed %zu", direct_half[i][1],
                 i + 1);
        tune(db, direct_half[i][0], extra);
    }
    export_selftest(db, dir, direct_half[2][0], arch);   /* conv1d_tiledh, f16 */
    export_selftest(db, dir, direct_half[5][0], arch);   /* conv1d_ffth (cuFFT), bf16 */
    export_selftest(db, dir, direct_half[8][0], arch);   /* conv2d_tiledh, bf16 */
    export_selftest(db, dir, direct_half[13][0], arch);   /* conv1dc_dwclh, f16, bias */
    export_selftest(db, dir, direct_half[16][0], arch);   /* conv1dc_dwh, f16, bias */
    export_selftest(db, dir, direct_half[21][0], arch);   /* conv2dc_dwph, f16, strided, bias */
    export_selftest(db, dir, direct_half[24][0], arch);   /* conv2dc_dwtcl, bf16, 16-byte vectors, bias */

    /* The half-precision tensor-core templates alone (sm_80): odd sizes,
     * partial chunks and channel tiles, 1x1, even and 7x7 filters, groups,
     * stride, dilation, asymmetric and causal padding, bias; layers of few
     * pixels (seed 002's among them) for the weight-streaming tc16w. */
    static const char *const tc16[][2] = {
        {"conv2dc:3:19:13:11:37:3:3:same:bias:bf16", "conv2dc_tc16"},
        {"conv2dc:2:70:9:7:20:5:2:valid:f16", "conv2dc_tc16"},
        {"conv2dc:1:3:31:29:64:7:7:same:bf16", "conv2dc_tc16"},
        {"conv2dc:4:33:10:10:130:1:1:valid:bias:f16", "conv2dc_tc16"},
        {"conv2dc:2:12:13:11:18:3:3:same:groups=3:bias:bf16", "conv2dc_tc16"},
        {"conv2dc:1:24:19:17:20:3:2:pad=2,1:stride=2,3:dilation=2,3:groups=2:f16", "conv2dc_tc16"},
        {"conv2dc:2:64:37:35:48:3:3:pad=1:stride=2:bias:bf16", "conv2dc_tc16"},
        {"conv1dc:3:21:77:19:5:pad=2:bias:bf16", "conv1dc_tc16"},
        {"conv1dc:2:40:9:70:4:pad=1:f16", "conv1dc_tc16"},
        {"conv1dc:3:48:101:36:3:pad=8:dilation=8:groups=3:bias:bf16", "conv1dc_tc16"},
        {"conv1dc:2:36:60:20:5:pad=2:stride=3:f16", "conv1dc_tc16"},
        {"conv1dc:2:20:77:20:4:causal:groups=10:bf16", "conv1dc_tc16"},
        {"conv1dc:1:1024:4:1024:5:pad=2:bias:bf16", "conv1dc_tc16w"},
        {"conv1dc:2:96:7:40:3:pad=1:stride=2:f16", "conv1dc_tc16w"},
        {"conv1dc:1:64:9:24:4:causal:dilation=2:groups=2:bias:bf16", "conv1dc_tc16w"},
        {"conv2dc:2:64:5:3:48:3:3:same:bias:bf16", "conv2dc_tc16w"},
        {"conv2dc:1:128:4:4:72:3:3:pad=1:stride=2:groups=2:f16", "conv2dc_tc16w"},
    };
    if (tensor_tf32)
        tune_alone(db, tc16, sizeof tc16 / sizeof tc16[0]);
    if (tensor_tf32) {
        export_selftest(db, dir, tc16[0][0], arch);
        export_selftest(db, dir, tc16[5][0], arch);    /* grouped, strided, dilated tc16 */
        export_selftest(db, dir, tc16[12][0], arch);   /* seed 002 in bf16, streamed */
    }

    /* tc16w with the reduction split over a thread-block cluster (sm_90):
     * only CLUSTER_K > 1 candidates, so that the winners exported are
     * clusters; even and uneven splits (600 values: 19 groups, the last
     * partial), groups, bias. */
    static const char *const tc16wc[][2] = {
        {"conv1dc:1:1024:4:512:5:pad=2:bias:bf16", "conv1dc_tc16w"},
        {"conv1dc:1:200:3:24:3:pad=1:f16", "conv1dc_tc16w"},
        {"conv2dc:1:256:4:4:96:3:3:same:groups=2:bias:f16", "conv2dc_tc16w"},
    };
    if (clusters) {
        CHECK(sh("printf '[space.conv1dc_tc16w]\\nCLUSTER_K = 2, 4, 8\\n[space.conv2dc_tc16w]\\nCLUSTER_K = 2, 4\\n' "
                 "> %s/cluster.ini", dir) == 0);
        for (size_t i = 0; i < sizeof tc16wc / sizeof tc16wc[0]; i++) {
            char extra[700];
            snprintf(extra, sizeof extra,
                     "--template %s --config %s/cluster.ini --strategy random --budget 30 --seed %zu", tc16wc[i][1],
                     dir, i + 1);
            tune(db, tc16wc[i][0], extra);
        }
        export_selftest(db, dir, tc16wc[0][0], arch);
        export_selftest(db, dir, tc16wc[2][0], arch);
    }
    /* tc16w with STAGE_X=1 only (input planes staged; with clusters, the
     * blocks' sums added first): seed 002, tiles over two images, images of
     * 15 pixels split across tiles, groups (planes off 16-byte alignment). */
    static const char *const tc16wx[][2] = {
        {"conv1dc:1:1024:4:1024:5:pad=2:bias:bf16", "conv1dc_tc16w"},
        {"conv1dc:2:96:7:40:3:pad=1:stride=2:f16", "conv1dc_tc16w"},
        {"conv2dc:2:64:5:3:48:3:3:same:bias:bf16", "conv2dc_tc16w"},
        {"conv2dc:1:128:4:4:72:3:3:pad=1:stride=2:groups=2:f16", "conv2dc_tc16w"},
    };
    if (tensor_tf32) {
        CHECK(sh("printf '[space.conv1dc_tc16w]\\nSTAGE_X = 1\\n[space.conv2dc_tc16w]\\nSTAGE_X = 1\\n' > %s/stage.ini",
                 dir) == 0);
        for (size_t i = 0; i < sizeof tc16wx / sizeof tc16wx[0]; i++) {
            char extra[700];
            snprintf(extra, sizeof extra, "--template %s --config %s/stage.ini --strategy random --budget 30 --seed %zu",
                     tc16wx[i][1], dir, i + 11);
            tune(db, tc16wx[i][0], extra);
        }
    }

    /* conv*_tc16wb alone (sm_90: the bulk copy engine): seed 002 and layers
     * of few pixels, 16 pixels (mma rows g + 8), group channels not a
     * multiple of 8 (planes a value at a time), partial last groups,
     * stride, dilation, causal padding, groups, 2D taps, bias; then its
     * clusters and its register weights alone, with exports. */
    static const char *const tc16wb[][2] = {
        {"conv1dc:1:1024:4:1024:5:pad=2:bias:bf16", "conv1dc_tc16wb"},
        {"conv1dc:4:96:4:40:3:pad=1:f16", "conv1dc_tc16wb"},
        {"conv1dc:2:48:7:20:3:pad=1:stride=2:bf16", "conv1dc_tc16wb"},
        {"conv1dc:1:64:9:24:4:causal:dilation=2:groups=2:bias:f16", "conv1dc_tc16wb"},
        {"conv1dc:2:12:5:10:2:pad=1:bias:bf16", "conv1dc_tc16wb"},
        {"conv2dc:1:512:4:4:256:3:3:same:bias:bf16", "conv2dc_tc16wb"},
        {"conv2dc:2:32:2:3:20:3:3:same:groups=2:bias:f16", "conv2dc_tc16wb"},
        {"conv2dc:1:96:3:3:24:3:3:same:groups=2:bias:bf16", "conv2dc_tc16wb"},
    };
    if (clusters) {
        tune_alone(db, tc16wb, sizeof tc16wb / sizeof tc16wb[0]);
        export_selftest(db, dir, tc16wb[0][0], arch);   /* seed 002 in bf16 */
        export_selftest(db, dir, tc16wb[3][0], arch);   /* causal, dilated, grouped */
        export_selftest(db, dir, tc16wb[6][0], arch);   /* 2D, 12 pixels, grouped */
        static const char *const only[][3] = {
            {"conv1dc:1:1024:4:256:5:pad=2:bias:bf16", "conv1dc_tc16wb", "CLUSTER_K = 2, 4, 8"},
            {"conv2dc:1:192:4:4:64:3:3:same:groups=2:bias:f16", "conv2dc_tc16wb", "CLUSTER_K = 2, 4"},
            {"conv1dc:2:48:7:24:3:pad=1:stride=2:bf16", "conv1dc_tc16wb", "WSRC = 1"},
            {"conv2dc:1:256:4:4:128:3:3:same:bias:bf16", "conv2dc_tc16wb", "WSRC = 1"},
        };
        for (size_t i = 0; i < sizeof only / sizeof only[0]; i++) {
            CHECK(sh("printf '[space.%s]\\n%s\\n' > %s/wb%zu.ini", only[i][1], only[i][2], dir, i) == 0);
            char extra[700];
            snprintf(extra, sizeof extra, "--template %s --config %s/wb%zu.ini --strategy random --budget 30 --seed %zu",
                     only[i][1], dir, i, i + 21);
            tune(db, only[i][0], extra);
            export_selftest(db, dir, only[i][0], arch);
        }
    }

    /* The channels-last tc16cl alone: every copy width (group channels a
     * multiple of 8, 4, 2 or odd, in and out), partial chunks and channel
     * tiles, groups, stride, dilation, asymmetric and causal padding, bias,
     * and the two benchmark layers. */
    static const char *const tc16cl[][2] = {
        {"conv2dc:3:19:13:11:37:3:3:same:bias:nhwc:bf16", "conv2dc_tc16cl"},
        {"conv2dc:2:70:9:7:20:5:2:valid:nhwc:f16", "conv2dc_tc16cl"},
        {"conv2dc:1:3:31:29:64:7:7:same:nhwc:bf16", "conv2dc_tc16cl"},
        {"conv2dc:2:12:13:11:18:3:3:same:groups=3:bias:nhwc:bf16", "conv2dc_tc16cl"},
        {"conv2dc:1:24:19:17:20:3:2:pad=2,1:stride=2,3:dilation=2,3:groups=2:nhwc:f16", "conv2dc_tc16cl"},
        {"conv2dc:2:64:37:35:48:3:3:pad=1:stride=2:bias:nhwc:bf16", "conv2dc_tc16cl"},
        {"conv2dc:32:64:56:56:64:3:3:same:nhwc:bf16", "conv2dc_tc16cl"},
        {"conv2dc:16:128:28:28:128:3:3:same:bias:nhwc:bf16", "conv2dc_tc16cl"},
        {"conv1dc:3:21:77:19:5:pad=2:bias:nlc:bf16", "conv1dc_tc16cl"},
        {"conv1dc:3:48:101:36:3:pad=8:dilation=8:groups=3:bias:nlc:f16", "conv1dc_tc16cl"},
        {"conv1dc:2:36:60:22:5:pad=2:stride=3:nlc:bf16", "conv1dc_tc16cl"},
        {"conv1dc:2:20:77:20:4:causal:groups=10:nlc:f16", "conv1dc_tc16cl"},
    };
    if (tensor_tf32)
        tune_alone(db, tc16cl, sizeof tc16cl / sizeof tc16cl[0]);
    if (tensor_tf32) {
        export_selftest(db, dir, tc16cl[0][0], arch);   /* odd channels: one-element copies */
        export_selftest(db, dir, tc16cl[4][0], arch);   /* grouped, strided, dilated */
        export_selftest(db, dir, tc16cl[9][0], arch);   /* 1D, grouped, dilated, f16 */
    }

    /* The resident-weight templates alone, each on problems no other list
     * tunes (so that the export is theirs): conv2dc_tc16rcl (mma.sync, sm_80
     * on), tc16g and tc16gcl (wgmma, sm_90a only). Odd widths and channels
     * (one-element pieces), channels padded to 16, groups, dilation, stride
     * down (a wgmma per row), bias, an output channel tile past Cout, both
     * PINGPONG modes in the random samples. */
    static const char *const tc16r[][2] = {
        {"conv2dc:2:19:15:17:21:5:2:pad=2,1:nhwc:f16", "conv2dc_tc16rcl"},
        {"conv2dc:3:20:13:11:42:3:3:same:dilation=2:groups=2:bias:nhwc:bf16", "conv2dc_tc16rcl"},
    };
    static const char *const tc16g[][2] = {
        {"conv2dc:2:19:15:17:22:5:2:pad=2,1:f16", "conv2dc_tc16g"},
        {"conv2dc:2:24:9:12:40:3:3:pad=1:stride=2,1:bias:bf16", "conv2dc_tc16g"},
        {"conv2dc:2:64:20:30:96:3:3:same:bias:f16", "conv2dc_tc16g"},
        {"conv2dc:2:19:15:17:22:5:2:pad=2,1:nhwc:bf16", "conv2dc_tc16gcl"},
        {"conv2dc:1:20:5:11:42:3:3:same:dilation=2:groups=2:bias:nhwc:f16", "conv2dc_tc16gcl"},
        {"conv2dc:2:64:20:30:96:3:3:same:bias:nhwc:bf16", "conv2dc_tc16gcl"},
        {"conv2dc:2:24:9:12:40:3:3:pad=1:stride=2,1:bias:nhwc:f16", "conv2dc_tc16gcl"},
        /* weights staged raw in pieces of channels (128 and more: 3x3 rows
         * of 64 channels, 147 KB, fit A but not twice), channels padded to
         * 16 in the last piece (136, 120), a channel tile past Cout */
        {"conv2dc:2:136:10:12:64:3:3:same:f16", "conv2dc_tc16g"},
        {"conv2dc:2:128:14:14:72:3:3:same:bias:nhwc:bf16", "conv2dc_tc16gcl"},
        {"conv2dc:2:120:12:12:64:3:3:same:bias:nhwc:f16", "conv2dc_tc16gcl"},
        /* images 2 and 3 pixels wide: a row and its halo (IW 4, 5) under
         * the 8 columns of a wgmma step, up to 8 rows to one wgmma */
        {"conv2dc:2:64:16:3:64:3:3:same:bias:bf16", "conv2dc_tc16g"},
        {"conv2dc:2:64:16:2:72:3:3:same:nhwc:f16", "conv2dc_tc16gcl"},
    };
    /* conv2dc_tc16gkcl (wgmma, weights streamed by chunks of channels):
     * several chunks with the last one padded (24 and 40 channels a group
     * in chunks of 16 or 32), groups, dilation, odd output channels
     * (one-element stores), stride down (a wgmma per row), a 5x2 filter,
     * an output channel tile past Cout, rows of 3 pixels (IW 5 < 8). */
    static const char *const tc16gk[][2] = {
        {"conv2dc:1:48:9:11:42:3:3:same:dilation=2:groups=2:bias:nhwc:f16", "conv2dc_tc16gkcl"},
        {"conv2dc:2:24:9:12:40:3:3:pad=1:stride=2,1:bias:nhwc:bf16", "conv2dc_tc16gkcl"},
        {"conv2dc:2:16:15:17:22:5:2:pad=2,1:nhwc:bf16", "conv2dc_tc16gkcl"},
        {"conv2dc:2:40:18:20:96:3:3:same:bias:nhwc:f16", "conv2dc_tc16gkcl"},
        {"conv2dc:2:128:14:14:72:3:3:same:nhwc:bf16", "conv2dc_tc16gkcl"},
        {"conv2dc:2:32:16:3:40:3:3:same:bias:nhwc:bf16", "conv2dc_tc16gkcl"},
    };
    /* conv2dc_tc16gktcl, conv1dc_tc16gktcl (TMA tensor copies, mbarrier
     * pipeline): Cin not a multiple of 64 (zeros past Cin in the last
     * box), batch 1, stride 2 down (a TMA element stride), padding (the
     * copy engine's zero fill), dilation with ROWS boxes, groups of 64
     * channels with odd Cout/groups (one-element stores) and bias, a 1x1
     * strided layer, a causal strided 1D layer. */
    static const char *const tc16gkt[][2] = {
        {"conv2dc:1:72:33:35:40:3:3:same:nhwc:f16", "conv2dc_tc16gktcl"},
        {"conv2dc:2:40:17:19:24:3:3:pad=1:stride=2:bias:nhwc:bf16", "conv2dc_tc16gktcl"},
        {"conv2dc:1:64:10:16:64:3:3:same:dilation=2:nhwc:bf16", "conv2dc_tc16gktcl"},
        {"conv2dc:1:128:7:9:66:3:3:same:groups=2:bias:nhwc:bf16", "conv2dc_tc16gktcl"},
        {"conv2dc:2:64:15:16:136:1:1:valid:stride=2:nhwc:f16", "conv2dc_tc16gktcl"},
        {"conv1dc:3:40:301:24:5:causal:stride=2:bias:nlc:f16", "conv1dc_tc16gktcl"},
    };
    const int wgmma = g.lim.cc_major == 9 && g.lim.cc_minor == 0;
    if (tensor_tf32) {
        tune_alone(db, tc16r, sizeof tc16r / sizeof tc16r[0]);
        export_selftest(db, dir, tc16r[0][0], arch);   /* one-element copies */
    }
    if (wgmma) {
        tune_alone(db, tc16g, sizeof tc16g / sizeof tc16g[0]);
        export_selftest(db, dir, tc16g[1][0], arch);   /* NCHW, strided down */
        export_selftest(db, dir, tc16g[5][0], arch);   /* NHWC, a channel tile past Cout */
        export_selftest(db, dir, tc16g[7][0], arch);   /* NCHW, raw weights in pieces, padded */
        export_selftest(db, dir, tc16g[8][0], arch);   /* NHWC, raw weights in pieces */
        export_selftest(db, dir, tc16g[10][0], arch);  /* NCHW, 3-pixel rows */
        tune_alone(db, tc16gk, sizeof tc16gk / sizeof tc16gk[0]);
        export_selftest(db, dir, tc16gk[0][0], arch);  /* groups, odd channels, a padded chunk */
        export_selftest(db, dir, tc16gk[1][0], arch);  /* strided down */
        tune_alone(db, tc16gkt, sizeof tc16gkt / sizeof tc16gkt[0]);
        export_selftest(db, dir, tc16gkt[1][0], arch); /* the tensor map encoded by the launcher, stride 2 */
        export_selftest(db, dir, tc16gkt[3][0], arch); /* groups, odd channels */
        /* tf32 on TF32 wgmma (ct_conv_tf32gk.cuh): channels a multiple of 4
         * only, padded last chunks, groups, dilation, stride down, odd output
         * channels, bias, a dense layer. */
        static const char *const tf32gk[][2] = {
            {"conv2dc:1:40:9:11:42:3:3:same:dilation=2:groups=2:bias:nhwc:tf32", "conv2dc_tc16gkcl"},
            {"conv2dc:2:20:9:12:40:3:3:pad=1:stride=2,1:bias:nhwc:tf32", "conv2dc_tc16gkcl"},
            {"conv2dc:2:12:15:17:21:5:2:pad=2,1:nhwc:tf32", "conv2dc_tc16gkcl"},
            {"conv2dc:2:64:20:30:96:3:3:same:bias:nhwc:tf32", "conv2dc_tc16gkcl"},
            {"conv2dc:4:64:28:28:64:3:3:same:nhwc:tf32", "conv2dc_tc16gkcl"},
        };
        tune_alone(db, tf32gk, sizeof tf32gk / sizeof tf32gk[0]);
        export_selftest(db, dir, tf32gk[0][0], arch);  /* groups, odd channels, a padded chunk */
        export_selftest(db, dir, tf32gk[3][0], arch);
        /* tf32 on tc16gktcl (ct_conv_tf32gkt.cuh: 32-channel TMA boxes
         * rounded to TF32 in shared memory): Cin 36 (a last box of 4
         * channels and zeros) with bias, stride 2 both ways (element
         * strides), groups of 32 channels with odd Cout/groups and bias. */
        static const char *const tf32gkt[][2] = {
            {"conv2dc:1:36:33:35:40:3:3:same:bias:nhwc:tf32", "conv2dc_tc16gktcl"},
            {"conv2dc:2:20:17:19:24:3:3:pad=1:stride=2:nhwc:tf32", "conv2dc_tc16gktcl"},
            {"conv2dc:1:64:7:9:66:3:3:same:groups=2:bias:nhwc:tf32", "conv2dc_tc16gktcl"},
        };
        tune_alone(db, tf32gkt, sizeof tf32gkt / sizeof tf32gkt[0]);
        export_selftest(db, dir, tf32gkt[1][0], arch); /* the launcher's fp32 tensor map, stride 2 */
        /* Split-K on tc16gktcl, SPLIT_K pinned to 2-4 by a --config (the
         * slices over the grid's z, the workspace, the reduce's bias and
         * rounding, and their export): 4 chunks with bias and Cout 72, 3
         * chunks (the last of 8 channels) strided, tf32 of 4 chunks with an
         * output count not a multiple of 4 (the reduce's one-element path),
         * a 1D layer. The 2D rows share ":10:13:" (CONVTUNE_GPU_SPEC). */
        char splitcfg[600];
        snprintf(splitcfg, sizeof splitcfg, "%s/split.ini", dir);
        FILE *sf = fopen(splitcfg, "w");
        CHECK(sf != NULL);
        if (sf) {
            fprintf(sf, "[space.conv2dc_tc16gktcl]\nSPLIT_K = 2, 3, 4\n[space.conv1dc_tc16gktcl]\nSPLIT_K = 2, 3, 4\n");
            fclose(sf);
        }
        static const char *const splitk[][2] = {
            {"conv2dc:2:256:10:13:72:3:3:same:bias:nhwc:bf16", "conv2dc_tc16gktcl"},
            {"conv2dc:1:136:10:13:40:3:3:pad=1:stride=2:nhwc:f16", "conv2dc_tc16gktcl"},
            {"conv2dc:1:100:10:13:21:3:3:same:bias:nhwc:tf32", "conv2dc_tc16gktcl"},
            {"conv1dc:2:256:300:40:5:pad=2:bias:nlc:bf16", "conv1dc_tc16gktcl"},
        };
        for (size_t i = 0; i < sizeof splitk / sizeof splitk[0]; i++) {
            char extra[900];
            snprintf(extra, sizeof extra, "--template %s --strategy random --budget 20 --seed %zu --config %s",
                     splitk[i][1], i + 1, splitcfg);
            tl_rows_tune(CT_BINARY, db, splitk[i][0], extra);
        }
        export_selftest(db, dir, splitk[0][0], arch);  /* the workspace and the reduce, bias */
        export_selftest(db, dir, splitk[2][0], arch);  /* tf32, one output a reduce thread */
    } else {
        printf("wgmma templates not run: %s is not compute capability 9.0\n", g.arch);
    }

    /* The seeds' problems, with a budget (the benchmark tunes them fully). */
    static const char *const seeds[] = {
        "conv1dc:1:1024:4:1024:5:pad=2:bias",
        "conv2d:16:2048:2048:11:11:same",
        "conv2dc:10000:1:28:28:12:7:7:valid",
        "conv2dc:10000:12:22:22:12:3:3:valid",
    };
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++)
        tune(db, seeds[i], "--budget 60 --seed 5");
    export_selftest(db, dir, seeds[0], arch);
    export_selftest(db, dir, seeds[2], arch);
    sh("rm -rf %s", dir);
    CHECK_DONE();
}
