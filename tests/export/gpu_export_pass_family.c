/* gpu_export_pass_family.c - the pass selectors of `convtune export
 * --family F --pass P` run on a GPU, as a user calls them. A database holds
 * winners (the passes' naive baselines at their first parameter values) of
 * dgrad and wgrad problems of conv2dc and conv1dc on this GPU's name, one
 * of them bf16; each pass is exported, and a driver built with nvcc calls
 * the selectors for the tuned layers (graded exact: the tuned instance
 * runs), for layers next to them (nearest_size) and for layers in other
 * modes (generic): both run the pass's generic kernel. Every output, NaN-
 * filled before, is held to an fp64 CPU reference of the pass: relative L2
 * error at most 1e-5 in fp32, 1e-2 in bf16. */
#include "export_common.h"
#include "gpu.h"

static const struct {
    const char *spec, *tmpl;
} rows[] = {
    {"conv2dc:2:6:9:11:4:3:2:pad=1,0:stride=2,3:groups=2:dgrad", "conv2dc_dgnaive"},
    {"conv2dc:2:5:13:11:5:7:7:same:groups=5:bias:wgrad", "conv2dc_wgnaive"},
    {"conv2dc:2:4:10:10:8:3:3:dilation=2:nhwc:wgrad", "conv2dc_wgnaive"},
    {"conv1dc:2:16:50:16:4:causal:groups=16:dgrad", "conv1dc_dgnaive"},
    {"conv1dc:3:16:41:16:4:causal:groups=16:bias:wgrad", "conv1dc_wgnaive"},
    {"conv2dc:2:8:12:12:8:5:5:same:groups=8:nhwc:dgrad:bf16", "conv2dc_dgnaive"},
};

/* The exports: --family, --pass, --dtype and the file's name. */
static const char *const exports[][4] = {
    {"conv2dc", "dgrad", "f32", "conv2dc_dgrad"}, {"conv2dc", "wgrad", "f32", "conv2dc_wgrad"},
    {"conv1dc", "dgrad", "f32", "conv1dc_dgrad"}, {"conv1dc", "wgrad", "f32", "conv1dc_wgrad"},
    {"conv2dc", "dgrad", "bf16", "conv2dc_dgrad_bf16"},
};

/* The driver: each case a layer as a 2D one (conv1dc: h = kh = 1, l = w,
 * k = kw, pad = pw, stride = sw, dilation = dw), the selector it calls and
 * the grade it must give. */
static const char driver[] =
    "#include <cuda_runtime.h>\n#include <cuda_bf16.h>\n#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
    "#include <string.h>\n#include <vector>\n"
    "#include \"conv2dc_dgrad.h\"\n#include \"conv2dc_wgrad.h\"\n#include \"conv1dc_dgrad.h\"\n"
    "#include \"conv1dc_wgrad.h\"\n#include \"conv2dc_dgrad_bf16.h\"\n"
    "enum { C2DG, C2WG, C1DG, C1WG, C2DG16 };\n"
    "struct C { int sel; long long b, cin, h, w, cout, kh, kw; int mode, ph, pw, sh, sw, dh, dw, causal, groups, bias,"
    " layout, grade; };\n"
    "static const C cases[] = {\n"
    "    {C2DG, 2, 6, 9, 11, 4, 3, 2, 2, 1, 0, 2, 3, 1, 1, 0, 2, 0, 0, CONVTUNE_EXACT},\n"
    "    {C2DG, 2, 6, 10, 11, 4, 3, 2, 2, 1, 0, 2, 3, 1, 1, 0, 2, 0, 0, CONVTUNE_NEAREST_SIZE},\n"
    "    {C2DG, 1, 4, 7, 9, 6, 3, 3, 2, 1, 2, 1, 2, 2, 1, 0, 2, 0, 1, CONVTUNE_GENERIC},\n"
    "    {C2WG, 2, 5, 13, 11, 5, 7, 7, 1, 0, 0, 1, 1, 1, 1, 0, 5, 1, 0, CONVTUNE_EXACT},\n"
    "    {C2WG, 2, 5, 14, 11, 5, 7, 7, 1, 0, 0, 1, 1, 1, 1, 0, 5, 1, 0, CONVTUNE_NEAREST_SIZE},\n"
    "    {C2WG, 2, 4, 10, 10, 8, 3, 3, 0, 0, 0, 1, 1, 2, 2, 0, 1, 0, 1, CONVTUNE_EXACT},\n"
    "    {C2WG, 2, 6, 8, 7, 3, 2, 3, 0, 0, 0, 2, 1, 1, 1, 0, 3, 1, 1, CONVTUNE_GENERIC},\n"
    "    {C1DG, 2, 16, 1, 50, 16, 1, 4, 0, 0, 0, 1, 1, 1, 1, 1, 16, 0, 0, CONVTUNE_EXACT},\n"
    "    {C1DG, 2, 16, 1, 70, 16, 1, 4, 0, 0, 0, 1, 1, 1, 1, 1, 16, 0, 0, CONVTUNE_NEAREST_SIZE},\n"
    "    {C1DG, 2, 6, 1, 33, 4, 1, 5, 0, 0, 2, 1, 3, 1, 2, 0, 2, 0, 1, CONVTUNE_GENERIC},\n"
    "    {C1WG, 3, 16, 1, 41, 16, 1, 4, 0, 0, 0, 1, 1, 1, 1, 1, 16, 1, 0, CONVTUNE_EXACT},\n"
    "    {C1WG, 3, 16, 1, 60, 16, 1, 4, 0, 0, 0, 1, 1, 1, 1, 1, 16, 1, 0, CONVTUNE_NEAREST_SIZE},\n"
    "    {C1WG, 2, 4, 1, 29, 6, 1, 3, 0, 0, 0, 1, 2, 1, 3, 1, 2, 0, 1, CONVTUNE_GENERIC},\n"
    "    {C2DG16, 2, 8, 12, 12, 8, 5, 5, 1, 0, 0, 1, 1, 1, 1, 0, 8, 0, 1, CONVTUNE_EXACT},\n"
    "    {C2DG16, 2, 8, 13, 12, 8, 5, 5, 1, 0, 0, 1, 1, 1, 1, 0, 8, 0, 1, CONVTUNE_NEAREST_SIZE},\n"
    "};\n"
    /* one dimension: outputs and the zeros before (the grammar's rules) */
    "static void dim(long long n, long long k, int mode, int p, int s, int d, int causal, long long *out,"
    " long long *before)\n{\n"
    "    const long long span = (long long)d * (k - 1) + 1;\n"
    "    *before = causal ? span - 1 : mode == 1 ? d * (k - 1) / 2 : p;\n"
    "    *out = mode == 1 ? n : (n + (causal ? span - 1 : 2 * *before) - span) / s + 1;\n}\n"
    "static long long X(const C &c, int b, int ch, int y, int x) { return c.layout ? (((long long)b * c.h + y) * c.w"
    " + x) * c.cin + ch : (((long long)b * c.cin + ch) * c.h + y) * c.w + x; }\n"
    "static unsigned long long seed = 88172645463325252ULL;\n"
    "static float uni(void) { seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;"
    " return (float)((double)(seed >> 40) / 8388608.0 - 1.0); }\n"
    "template <class T> static T *dev(const std::vector<T> &v)\n{\n"
    "    T *p = NULL;\n    if (cudaMalloc(&p, v.size() * sizeof(T) + 16) != cudaSuccess) exit(2);\n"
    "    cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);\n    return p;\n}\n"
    "int main(void)\n{\n    int failed = 0;\n"
    "    for (size_t n = 0; n < sizeof cases / sizeof cases[0]; n++) {\n"
    "        const C &c = cases[n];\n"
    "        const int half = c.sel == C2DG16, wg = c.sel == C2WG || c.sel == C1WG;\n"
    "        long long oh, ow, bh, bw;\n"
    "        dim(c.h, c.kh, c.mode, c.ph, c.sh, c.dh, 0, &oh, &bh);\n"
    "        dim(c.w, c.kw, c.mode, c.pw, c.sw, c.dw, c.causal, &ow, &bw);\n"
    "        const long long cg = c.cin / c.groups, og = c.cout / c.groups, nw = c.cout * cg * c.kh * c.kw;\n"
    "        const long long nx = c.b * c.cin * c.h * c.w, ny = c.b * c.cout * oh * ow;\n"
    "        std::vector<float> x(nx), dy(ny), wt(nw);\n"
    "        for (auto *v : {&x, &dy, &wt})\n            for (auto &e : *v)\n"
    "                e = half ? __bfloat162float(__float2bfloat16(uni())) : uni();\n"
    "        std::vector<double> want(wg ? nw + (c.bias ? c.cout : 0) : nx, 0.0);\n"
    "        for (int b = 0; b < c.b; b++) for (int co = 0; co < c.cout; co++) for (int y = 0; y < oh; y++)\n"
    "            for (int xo = 0; xo < ow; xo++) {\n"
    "                const long long yi = c.layout ? (((long long)b * oh + y) * ow + xo) * c.cout + co\n"
    "                                               : (((long long)b * c.cout + co) * oh + y) * ow + xo;\n"
    "                const double g = dy[yi];\n"
    "                if (wg && c.bias) want[nw + co] += g;\n"
    "                for (int ci = 0; ci < cg; ci++) for (int i = 0; i < c.kh; i++) for (int j = 0; j < c.kw; j++) {\n"
    "                    const long long yy = y * c.sh + i * c.dh - bh, xx = xo * c.sw + j * c.dw - bw;\n"
    "                    if (yy < 0 || yy >= c.h || xx < 0 || xx >= c.w) continue;\n"
    "                    const long long wi = ((co * cg + ci) * c.kh + i) * c.kw + j;\n"
    "                    const long long xi = X(c, b, (int)(co / og * cg + ci), (int)yy, (int)xx);\n"
    "                    if (wg) want[wi] += g * x[xi]; else want[xi] += g * wt[wi];\n"
    "                }\n            }\n"
    "        int grade = -1, rc = 0;\n        std::vector<float> got(want.size());\n"
    "        if (half) {\n"
    "            std::vector<__nv_bfloat16> hdy(ny), hwt(nw), hout(want.size());\n"
    "            for (long long i = 0; i < ny; i++) hdy[i] = __float2bfloat16(dy[i]);\n"
    "            for (long long i = 0; i < nw; i++) hwt[i] = __float2bfloat16(wt[i]);\n"
    "            __nv_bfloat16 *a = dev(hdy), *w = dev(hwt), *o = dev(hout);\n"
    "            cudaMemset(o, 0xff, hout.size() * 2);\n"
    "            rc = convtune_conv2dc_dgrad_bf16(a, w, o, c.b, c.cin, c.h, c.w, c.cout, c.kh, c.kw, c.mode, c.ph,"
    " c.pw, c.sh, c.sw, c.dh, c.dw, c.groups, c.layout, 0, &grade);\n"
    "            cudaMemcpy(hout.data(), o, hout.size() * 2, cudaMemcpyDeviceToHost);\n"
    "            for (size_t i = 0; i < got.size(); i++) got[i] = __bfloat162float(hout[i]);\n"
    "            cudaFree(a); cudaFree(w); cudaFree(o);\n"
    "        } else {\n"
    "            std::vector<float> out(want.size());\n"
    "            float *a = dev(wg ? x : dy), *w = dev(wg ? dy : wt), *o = dev(out);\n"
    "            cudaMemset(o, 0xff, out.size() * 4);\n"
    "            if (c.sel == C2DG) rc = convtune_conv2dc_dgrad(a, w, o, c.b, c.cin, c.h, c.w, c.cout, c.kh, c.kw,"
    " c.mode, c.ph, c.pw, c.sh, c.sw, c.dh, c.dw, c.groups, c.layout, 0, &grade);\n"
    "            if (c.sel == C2WG) rc = convtune_conv2dc_wgrad(a, w, o, c.b, c.cin, c.h, c.w, c.cout, c.kh, c.kw,"
    " c.mode, c.ph, c.pw, c.sh, c.sw, c.dh, c.dw, c.groups, c.bias, c.layout, 0, &grade);\n"
    "            if (c.sel == C1DG) rc = convtune_conv1dc_dgrad(a, w, o, c.b, c.cin, c.w, c.cout, c.kw, c.pw,"
    " c.causal, c.sw, c.dw, c.groups, c.layout, 0, &grade);\n"
    "            if (c.sel == C1WG) rc = convtune_conv1dc_wgrad(a, w, o, c.b, c.cin, c.w, c.cout, c.kw, c.pw,"
    " c.causal, c.sw, c.dw, c.groups, c.bias, c.layout, 0, &grade);\n"
    "            cudaMemcpy(got.data(), o, out.size() * 4, cudaMemcpyDeviceToHost);\n"
    "            cudaFree(a); cudaFree(w); cudaFree(o);\n"
    "        }\n"
    "        const cudaError_t sync = cudaDeviceSynchronize();\n"
    "        double num = 0, den = 0;\n"
    "        for (size_t i = 0; i < want.size(); i++) {\n"
    "            const double d = (double)got[i] - want[i];\n"
    "            num += isnan(got[i]) ? 1e30 : d * d;\n            den += want[i] * want[i];\n        }\n"
    "        const double err = sqrt(num / (den > 0 ? den : 1)), tol = half ? 1e-2 : 1e-5;\n"
    "        const int ok = rc == 0 && sync == cudaSuccess && grade == c.grade && err <= tol;\n"
    "        printf(\"case %zu: selector %d rc %d grade %s (want %s) relerr %.3g%s\\n\", n, c.sel, rc,"
    " convtune_grade_name(grade), convtune_grade_name(c.grade), err, ok ? \"\" : \"  FAILED\");\n"
    "        failed += !ok;\n    }\n"
    "    printf(\"%d of %zu failed\\n\", failed, sizeof cases / sizeof cases[0]);\n"
    "    return failed != 0;\n}\n";

int main(void)
{
    ct_gpu g;
    tl_gpu_or_skip(&g);
    char arch[64];
    ct_arch_nvcc(g.arch, arch, sizeof arch);
    const ct_device_info d = tc_device(g.info.name, "GPU-pass-family", g.info.cc_major, g.info.cc_minor, 13000);
    ct_gpu_close(&g);
    const char *dir = tl_scratch_dir();
    char db_path[600];
    snprintf(db_path, sizeof db_path, "%s/p.db", dir);
    ct_db *db = NULL;
    ct_err e = {""};
    CHECK_MSG(ct_db_open(db_path, 1, &db, &e) == CT_OK, "%s: %s", db_path, e.msg);
    if (!db)
        CHECK_DONE();
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const ct_result rec = tc_first_values(rows[i].spec, rows[i].tmpl, 10.0 + (double)i);
        tc_add_run(db, &d, rows[i].spec, &rec, 1);
    }
    ct_db_close(db);
    char sources[1200] = "";
    for (size_t i = 0; i < sizeof exports / sizeof exports[0]; i++) {
        CHECK_MSG(tl_sh("'%s' export --family %s --pass %s --dtype %s --db '%s' -o '%s/%s.cu'", CT_BINARY,
                        exports[i][0], exports[i][1], exports[i][2], db_path, dir, exports[i][3]) == 0,
                  "export --family %s --pass %s --dtype %s failed", exports[i][0], exports[i][1], exports[i][2]);
        snprintf(sources + strlen(sources), sizeof sources - strlen(sources), " '%s/%s.cu'", dir, exports[i][3]);
    }
    char drv[700];
    snprintf(drv, sizeof drv, "%s/driver.cu", dir);
    CHECK(tc_write_text(drv, driver) == 0);
    CHECK_MSG(tl_sh("cd '%s' && nvcc %s -o driver driver.cu%s", dir, arch, sources) == 0, "building the driver failed");
    CHECK_MSG(tl_sh("'%s/driver'", dir) == 0, "a pass selector gave a wrong result or grade (see above)");
    CHECK_DONE();
}
