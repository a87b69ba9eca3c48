// wino_sizes.cuh: the derived sizes of the kind wino, one set of expressions
// for the kernel (ct_conv_wino.cuh: compile-time constants from the layer's
// LY_* and the candidate's macros) and for its C model (wino_conv.c: the
// same from a ct_tc_shape and the candidate's values, which includes this
// file too). Integer macros only, read alike by C and CUDA.
#ifndef WINO_SIZES_CUH
#define WINO_SIZES_CUH
#define WINO_CDIV(a, b) (((a) + (b) - 1) / (b))
// 2x2 output tiles along n outputs.
#define WINO_TILES_OF(n) WINO_CDIV(n, 2)
// Threads of a block: 16 transform positions of (tn / thn) x (tm / thm).
#define WINO_TX(tn, thn) ((tn) / (thn))
#define WINO_TY(tm, thm) ((tm) / (thm))
#define WINO_NT(tx, ty) (16 * ((tx) * (ty)))
// Patches (pi) and filters (pw) a thread gathers a chunk of ck channels.
#define WINO_PI(ck, tn, nt) WINO_CDIV((ck) * (tn), nt)
#define WINO_PW(ck, tm, nt) WINO_CDIV((ck) * (tm), nt)
// Registers a thread needs: the sums, two k's fragments, the raw patches
// and filters of the next chunk, about 24 for indices and the loop.
#define WINO_REGS(thm, thn, pi, pw) ((thm) * (thn) + 2 * ((thm) + (thn)) + 16 * (pi) + 9 * (pw) + 24)
// The launch bounds' blocks an SM: as many as the estimate lets 512 warps
// of whole 8-register steps hold (whole warps a scheduler), at least minb
// (MIN_BLOCKS), within 1024 threads an SM and at least 1.
#define WINO_MINB_R(regs, nt) ((512 / (((regs) + 7) / 8 * 8)) * 128 / (nt))
#define WINO_MINB_A(r, minb) ((r) > (minb) ? (r) : (minb))
#define WINO_MINB(a, nt) ((a) < 1 ? 1 : (a) > 1024 / (nt) ? 1024 / (nt) : (a))
// Floats per position plane of U and of V: rows, then up to 16 mod 32, so
// that the two positions of a warp (16 threads each, where TX x TY = 16)
// read opposite halves of the banks; a stage is 16 planes of each, a k row
// padded by 4.
#define WINO_PLANE(rows) ((rows) + (48 - (rows) % 32) % 32)
#define WINO_AP(tm) ((tm) + 4)
#define WINO_BP(tn) ((tn) + 4)
#define WINO_UPL(ck, tm) WINO_PLANE((ck) * WINO_AP(tm))
#define WINO_VPL(ck, tn) WINO_PLANE((ck) * WINO_BP(tn))
#define WINO_STAGE(upl, vpl) (16 * ((upl) + (vpl)))
// The epilogue's planes (ty rows of tn + 1 sums, per channel of a thread),
// which reuse the stages.
#define WINO_EP(tn) ((tn) + 1)
#define WINO_EPL(ty, ep) ((ty) * (ep))
// Bytes of shared memory a block: the stages, then the tile table (16
// bytes a tile). Up to 48 KiB they are static arrays (the code of the
// results stored before larger stages existed); above, one dynamic array
// (up to the device's opt-in limit: 64 KiB on sm_75), which the launch
// sizes.
#define WINO_SMEM(stages, stage, tn) (4 * (stages) * (stage) + 16 * (tn))
#define WINO_STATIC_MAX (48 * 1024)
#define WINO_DYN(smem) ((smem) > WINO_STATIC_MAX)
// A block of dynamic shared memory fills an sm_75 SM's 64 KiB alone: its
// launch bounds ask for one block (the registers of one).
#define WINO_MINB_D(minb, smem) (WINO_DYN(smem) ? 1 : (minb))
#endif
// FPRE=1: the filters transformed once a call by the prep kernel. The C
// model, where FPRE is no macro, sees these, the kernel of FPRE=0 none (its
// code is what results stored before FPRE measured): outside the include
// guard, whose group the code hash cannot resolve (read twice, the same
// definitions again). The workspace holds, for every group, channel block
// and chunk, U as the stage wants it: [xi][k][m], ck x tm floats a
// position, unpadded (the block copies 16-byte runs of m: no k-fastest
// stores to spread over the banks, so U's k rows are tm floats; its planes
// keep their padding). A position's ts threads copy its plane, as many
// float4 each; the prefetched copies take 4 registers a float4 where the
// raw filters took 9 each.
#if !defined(FPRE) || FPRE
#define WINO_U4(ck, tm) ((ck) * (tm) / 4)                       // float4 of U a position and chunk
#define WINO_UI(ck, tm, ts) WINO_CDIV(WINO_U4(ck, tm), ts)      // float4 a thread copies a chunk
#define WINO_UPLF(ck, tm) WINO_PLANE((ck) * (tm))
#define WINO_REGSF(thm, thn, pi, ui) (WINO_REGS(thm, thn, pi, 0) + 4 * (ui))
#define WINO_UWS(g, mtiles, nch, ck, tm) ((g) * (mtiles) * (nch) * 16 * (ck) * (tm))   // workspace floats
#define WINO_PREP_NT 256   // threads of a prep block, one filter (k, m) each
#endif
