// tc16gkt_replay.cpp: a replay of ct_conv_tc16gkt.cuh on the CPU, without
// a GPU: the header itself compiled as host C++ (-DCT_REPLAY), a block's
// threads std::threads (../replay_shim.h), its TMA copies, mbarriers and
// wgmma steps emulated by ../replay_hopper.h (the copy engine's box, zero
// fill, element strides and 128-byte swizzle; the barriers' phases; the
// operands read through their swizzled descriptors when wait_group
// retires them). Compared with an fp64 reference of the layer (relative L2
// 1e-2: each output is rounded once to bf16/f16), every output written,
// and each block's barriers completed as often as the pipeline's
// bookkeeping says. The layer, the candidate and the model's tensor map
// are -D flags: test_tc16gkt_conv.c builds them from tc16gkt_conv.c
// (LY_* the layer per group, TM_* the map). With SPLIT_K > 1 the grid's z
// holds the slices, each block's barriers are counted for its own slice,
// every slice of the workspace must be written whole, and the reduce
// (ct_tc16gkt_split.cuh) must give, bit for bit, the slices added in order
// plus the bias, rounded once. With WPRE=1 the prep kernel
// (ct_tc16gkt_wprep.cuh) runs first: its workspace must be, byte for
// byte, the A buffers' swizzled images this file computes on its own, and
// the main kernel fetches them with emulated 1D bulk copies.
#include "replay_shim.h"
#include "ct_dtype.cuh"
#include "replay_hopper.h"
#define CT_REPLAY 1
#define TC_NAME kmain
#define TC_B LY_B
#define TC_CIN LY_CIN
#define TC_GROUPS LY_GROUPS
#define TC_H LY_H
#define TC_W LY_W
#define TC_COUT LY_COUT
#define TC_KH LY_KH
#define TC_KW LY_KW
#define TC_OH LY_OH
#define TC_OW LY_OW
#define TC_PH LY_PH
#define TC_PW LY_PW
#define TC_SY LY_SY
#define TC_SX LY_SX
#define TC_DY LY_DY
#define TC_DX LY_DX
#define TC_BIAS LY_BIAS
#ifndef SPLIT_K
#define SPLIT_K 1
#endif
#ifndef WPRE
#define WPRE 0
#endif
#if CT_TF32
#include "ct_conv_tf32gkt.cuh"
#else
#include "ct_conv_tc16gkt.cuh"
#endif

static ct_elem toe(float v) { ct_elem e; ct_st(&e, v); return e; }

// The completions a block's barrier at shared byte b must have had, the
// block in slice z of the split (its chunks z NCH / SPLIT_K ..).
static long long expected_phases(unsigned b, int z)
{
    const unsigned i = (b - TG_BAR) / 8;
    const int nch = (z + 1) * TG_NCH / SPLIT_K - z * TG_NCH / SPLIT_K, nkb = nch * TG_KPC;
    long long n = 0;
    if (i < STAGES) {                     // fullB[s]: every k-block of stage s
        for (int kb = 0; kb < nkb; kb++)
            n += kb % STAGES == (int)i;
    } else if (i < 2 * STAGES) {          // emptyB[s]: every k-block but the last, which one A buffer drains
        for (int kb = 0; kb + (A_BUFS == 1 ? 0 : 1) < nkb; kb++)
            n += kb % STAGES == (int)(i - STAGES);
    } else if (i < 2 * STAGES + 2) {      // fullA[a]: every chunk of buffer a (none with WPRE=2)
        for (int ch = 0; ch < nch && WPRE != 2; ch++)
            n += ch % A_BUFS == (int)(i - 2 * STAGES);
    } else {                              // emptyA[a]: every chunk but the last (all with one buffer)
        for (int ch = 0; ch + (A_BUFS == 1 ? 0 : 1) < nch; ch++)
            n += ch % A_BUFS == (int)(i - 2 * STAGES - 2);
    }
    return n;
}

int main()
{
    srand(LY_SEED);
    const long long ci = (long long)LY_CIN * LY_GROUPS, co = (long long)LY_COUT * LY_GROUPS;
    const long long nx = (long long)LY_B * LY_H * LY_W * ci, ny = (long long)LY_B * LY_OH * LY_OW * co;
    const long long nw = co * LY_CIN * LY_KH * LY_KW;
    std::vector<ct_elem> xe(nx), we(nw), be(co);
    std::vector<float> x(nx), w(nw), bias(co);
    for (long long k = 0; k < nx; ++k) { xe[k] = toe((float)rand() / RAND_MAX - 0.5f); x[k] = ct_ld(&xe[k]); }
    for (long long k = 0; k < nw; ++k) { we[k] = toe((float)rand() / RAND_MAX - 0.5f); w[k] = ct_ld(&we[k]); }
    for (long long k = 0; k < co; ++k) { be[k] = toe((float)rand() / RAND_MAX - 0.5f); bias[k] = ct_ld(&be[k]); }
    std::vector<double> ref(ny, 0.0);
    for (int b = 0; b < LY_B; ++b)
        for (long long o = 0; o < co; ++o)
            for (int y = 0; y < LY_OH; ++y)
                for (int xo = 0; xo < LY_OW; ++xo) {
                    double s = LY_BIAS ? (double)bias[o] : 0.0;
                    const long long g = o / LY_COUT;
                    for (int c = 0; c < LY_CIN; ++c)
                        for (int i = 0; i < LY_KH; ++i)
                            for (int j = 0; j < LY_KW; ++j) {
                                const int yy = y * LY_SY + i * LY_DY - LY_PH, xx = xo * LY_SX + j * LY_DX - LY_PW;
                                if (yy < 0 || yy >= LY_H || xx < 0 || xx >= LY_W)
                                    continue;
                                s += (double)x[((b * LY_H + yy) * (long long)LY_W + xx) * ci + g * LY_CIN + c] *
                                     (double)w[((o * LY_CIN + c) * LY_KH + i) * LY_KW + j];
                            }
                    ref[((b * LY_OH + y) * (long long)LY_OW + xo) * co + o] = s;
                }
    ct_tmap_desc d{};
    d.rank = 4, d.dtype = CT_DTYPE, d.swizzle = TM_SWZ;   // CT_DTYPE: 0 (f32) with CT_TF32
    const unsigned long long dims[4] = {TM_DIMS}, strides[3] = {TM_STRIDES};
    const unsigned box[4] = {TM_BOX}, es[4] = {TM_ES};
    for (int k = 0; k < 4; k++)
        d.dims[k] = dims[k], d.box[k] = box[k], d.estrides[k] = es[k];
    for (int k = 0; k < 3; k++)
        d.strides[k] = strides[k];
    tg_tmap tm;
    ct_rp_tmap_make(&tm, d, xe.data(), (int)sizeof(ct_elem));
    if ((long long)box[0] * (box[1] / es[1]) * (box[2] / es[2]) * (long long)sizeof(ct_elem) != TG_SB) {
        printf("FAIL: the map's box of %u x %u x %u lands %lld bytes, a stage is %d\n", box[0], box[1] / es[1],
               box[2] / es[2], (long long)box[0] * (box[1] / es[1]) * (box[2] / es[2]) * (long long)sizeof(ct_elem),
               TG_SB);
        return 1;
    }
    for (long long k = 0; k < CT_RP_SMEM_BYTES; k += 2)   // NaN patterns: an unwritten operand shows
        ct_rp_smem[k] = 0xc1, ct_rp_smem[k + 1] = 0x7f;
    std::vector<ct_elem> oute(ny, toe(NAN));
    const ct_elem *wmain = we.data();   // the main kernel's weights: OIHW, or the prep's images
#if WPRE
    // The prep's workspace: an A buffer image a (group, channel block,
    // chunk), NaN patterns first so that an unwritten byte shows.
    const long long units = (long long)LY_GROUPS * TG_NCT * TG_NCH, ue = TG_WSA / (long long)sizeof(ct_elem);
    if (TG_NCT * TG_NCH != LY_PGX || LY_GROUPS != LY_PGY || units * TG_WSA != LY_PBYTES) {
        printf("FAIL: the model's prep is %d x %d blocks and %lld bytes, the header's %d x %d and %lld\n", LY_PGX,
               LY_PGY, (long long)LY_PBYTES, TG_NCT * TG_NCH, LY_GROUPS, units * TG_WSA);
        return 1;
    }
    std::vector<ct_elem> wp(units * ue, toe(NAN));
    ct_replay_grid(TG_NCT * TG_NCH, LY_GROUPS, 1, TGKT_WP_THREADS, 1, 1,
                   [&] { kmain_wprep(we.data(), wp.data()); });
    // Element (row m, channel k of the chunk) of tap t sits at row (t BM +
    // m), 16-byte chunk (k / E) ^ (m % 8): the 128-byte swizzle of a
    // 1024-aligned buffer; zeros past Cout and Cin; tf32 rounded (tg_rna).
    const int ck = 128 / (int)sizeof(ct_elem), per = 16 / (int)sizeof(ct_elem);
    long long wbad = 0;
    for (long long u = 0; u < units; ++u)
        for (int t = 0; t < TG_KHW; ++t)
            for (int m = 0; m < TG_BM; ++m)
                for (int k = 0; k < ck; ++k) {
                    const long long g = u / (TG_NCT * TG_NCH), co = u / TG_NCH % TG_NCT * TG_BM + m,
                                    c = u % TG_NCH * ck + k;
                    ct_elem want = toe(0.0f);
                    if (co < LY_COUT && c < LY_CIN)
                        want = we[((g * LY_COUT + co) * LY_CIN + c) * TG_KHW + t];
#if CT_TF32
                    unsigned bits;
                    memcpy(&bits, &want, 4);
                    bits = tg_rna(bits);
                    memcpy(&want, &bits, 4);
#endif
                    const long long at = u * ue + (t * TG_BM + m) * ck + ((k / per) ^ (m % 8)) * per + k % per;
                    if (memcmp(&want, &wp[at], sizeof want) != 0 && wbad++ < 5)
                        printf("FAIL: prepared weight (unit %lld, tap %d, row %d, channel %d) is %g, want %g\n", u,
                               t, m, k, ct_ld(&wp[at]), ct_ld(&want));
                }
    if (wbad)
        return 1;
    wmain = wp.data();
#endif
#if SPLIT_K > 1
    std::vector<float> ws((size_t)SPLIT_K * ny, NAN);
    ct_replay_grid(LY_GX, LY_GY, SPLIT_K, TG_NT, 1, 1, [&] { kmain(xe.data(), wmain, ws.data(), tm); });
#else
    ct_replay_grid(LY_GX, LY_GY, 1, TG_NT, 1, 1, [&] {
#if LY_BIAS
        kmain(xe.data(), wmain, be.data(), oute.data(), tm);
#else
        kmain(xe.data(), wmain, oute.data(), tm);
#endif
    });
#endif
    for (auto &e : ct_rp_bars)   // the last block's counts
        ct_rp_bar_log.push_back({e.first, e.second.phase});
    long long bad = 0;
    // The log holds each block's barriers in turn, blocks in launch order
    // (x fastest, z slowest).
    for (size_t k = 0; k < ct_rp_bar_log.size(); k++) {
        const auto &e = ct_rp_bar_log[k];
        const int z = (int)(k / (2 * STAGES + 4) / ((long long)LY_GX * LY_GY));
        if (e.second != expected_phases(e.first, z) && bad++ < 5)
            printf("FAIL: barrier %u of a block of slice %d completed %lld phases, the pipeline has %lld\n",
                   (e.first - TG_BAR) / 8, z, e.second, expected_phases(e.first, z));
    }
    if ((long long)ct_rp_bar_log.size() != (long long)LY_GX * LY_GY * SPLIT_K * (2 * STAGES + 4)) {
        printf("FAIL: %zu barrier lives for %d blocks of %d barriers\n", ct_rp_bar_log.size(),
               LY_GX * LY_GY * SPLIT_K, 2 * STAGES + 4);
        return 1;
    }
#if SPLIT_K > 1
    for (long long k = 0; k < (long long)ws.size(); ++k)
        if (std::isnan(ws[k]) && bad++ < 5)
            printf("FAIL: partial sum %lld of slice %lld not written\n", k % ny, k / ny);
    const unsigned rblocks = (unsigned)(((ny % 4 == 0 ? ny / 4 : ny) + 255) / 256);
    ct_replay_grid(rblocks, 1, 1, 256, 1, 1, [&] {
#if LY_BIAS
        kmain_reduce(ws.data(), be.data(), oute.data());
#else
        kmain_reduce(ws.data(), oute.data());
#endif
    });
    // The reduce: slices 0 .. SPLIT_K - 1 in order, then the bias, one rounding.
    for (long long k = 0; k < ny; ++k) {
        float s = ws[k];
        for (int z = 1; z < SPLIT_K; ++z)
            s += ws[z * ny + k];
        if (LY_BIAS)
            s += bias[k % co];
        const ct_elem want = toe(s);
        if (memcmp(&want, &oute[k], sizeof want) != 0 && bad++ < 5)
            printf("FAIL: output %lld is %g, the slices in order and the bias give %g\n", k, ct_ld(&oute[k]),
                   ct_ld(&want));
    }
#endif
    std::vector<float> out(ny);
    for (long long k = 0; k < ny; ++k)
        out[k] = ct_ld(&oute[k]);
#if CT_TF32
    return ct_replay_check(out, ref, 1.0 / 1024) || bad;   // tf32's tolerance, 2^-10
#else
    return ct_replay_check(out, ref, 1e-2) || bad;
#endif
}
