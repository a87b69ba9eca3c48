// gemm_sizes.cuh: the derived sizes of conv1dc_gemm, one set of expressions
// for the kernel (gemm.conv1dc.cu.in: compile-time constants from the
// layer's CONV_* and the candidate's macros) and for its C model
// (gemm_conv.c: the same from a ct_tc_shape and the candidate's values,
// which includes this file too). Integer macros only, read alike by C and
// CUDA.
#ifndef GEMM_SIZES_CUH
#define GEMM_SIZES_CUH
#define GEMM_CDIV(a, b) (((a) + (b) - 1) / (b))
#define GEMM_RUP(a, b) (GEMM_CDIV(a, b) * (b))
// Input channels staged at a time (at most cin) and the chunks.
#define GEMM_CK(chunk, cin) ((chunk) < (cin) ? (chunk) : (cin))
#define GEMM_NCH(cin, ck) GEMM_CDIV(cin, ck)
// Threads: (bn / tn) along the positions x (bm / tm) along the channels.
#define GEMM_TX(bn, tn) ((bn) / (tn))
#define GEMM_NT(bm, tm, tx) (((bm) / (tm)) * (tx))
// Blocks: tiles of bn positions (lout of them) x tiles of bm channels.
#define GEMM_TILES_T(lout, bn) GEMM_CDIV(lout, bn)
#define GEMM_TILES_C(cout, bm) GEMM_CDIV(cout, bm)
#define GEMM_NBUF(pipe) ((pipe) ? 2 : 1)
// Input rows: a thread reads nl values (its window of tn + k - 1, rounded
// up to whole loads of lv) from column tx * tn; the staged row's pitch.
#define GEMM_LV(tn) ((tn) % 4 == 0 ? 4 : (tn) % 2 == 0 ? 2 : 1)
#define GEMM_NWIN(tn, k) ((tn) + (k) - 1)
#define GEMM_NL(nwin, lv) GEMM_RUP(nwin, lv)
#define GEMM_XP(bn, tn, nl) GEMM_RUP((bn) - (tn) + (nl), 4)
// Floats of a shared buffer: weights [ci*K + k][co] and input rows.
#define GEMM_S_W(ck, k, bm) ((ck) * (k) * (bm))
#define GEMM_S_X(ck, xp) ((ck) * (xp))
#endif
