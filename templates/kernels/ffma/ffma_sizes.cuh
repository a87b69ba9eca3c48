// ffma_sizes.cuh: the derived sizes of the kind ffma, one set of expressions
// for the kernel (ct_conv_ffma.cuh: compile-time constants from the layer's
// LY_* and the candidate's macros) and for its C model (ffma_conv.c: the
// same from a ct_tc_shape and the candidate's values, which includes this
// file too). Integer macros only, read alike by C and CUDA.
#ifndef FFMA_SIZES_CUH
#define FFMA_SIZES_CUH
#define FFMA_CDIV(a, b) (((a) + (b) - 1) / (b))
// Threads of a block: (tn / thn) along the pixels x (tm / thm) along the
// channels.
#define FFMA_TX(tn, thn) ((tn) / (thn))
#define FFMA_TY(tm, thm) ((tm) / (thm))
#define FFMA_NT(tx, ty) ((tx) * (ty))
// A (weights) and B (pixels) elements a thread loads a chunk of ck.
#define FFMA_AL(tm, ck, nt) ((tm) * (ck) / (nt))
#define FFMA_BL(tn, ck, nt) ((tn) * (ck) / (nt))
// Registers a thread needs: the sums, two k's fragments (the next one's
// loads in flight), the next chunk's loads with the B addresses, about 24
// for indices and the loop (ptxas on sm_75 .. sm_90 stays within it
// without spills).
#define FFMA_REGS(thm, thn, al, bl) ((thm) * (thn) + 2 * ((thm) + (thn)) + (al) + 2 * (bl) + 24)
// The launch bounds ask for as many blocks an SM as leave that many, at
// most 1024 threads (sm_75) and at least 1. An SM's 64K registers are four
// schedulers' 16K, each holding whole warps: 512 / regs rounded up to 8
// warps a scheduler.
#define FFMA_MINB_R(regs, nt) ((512 / (((regs) + 7) / 8 * 8)) * 128 / (nt))
#define FFMA_MINB(r, nt) ((r) < 1 ? 1 : (r) > 1024 / (nt) ? 1024 / (nt) : (r))
// Floats per k row of the A and B stages (padded by 4), and the bytes of
// shared memory a block: two stages of ck rows of each, the pixel table
// counted at 12 bytes a pixel (the kernel's ff_pix takes 16: the count is
// 4 x tn bytes short, kept as it is so that the spaces do not change).
#define FFMA_AP(tm) ((tm) + 4)
#define FFMA_BP(tn) ((tn) + 4)
#define FFMA_SMEM(ck, tm, tn) (4 * 2 * (ck) * (FFMA_AP(tm) + FFMA_BP(tn)) + 12 * (tn))
#endif
