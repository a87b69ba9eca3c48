// dwtc16cl_sizes.cuh: the derived sizes of the kind dwtc16cl, one set of
// expressions for the kernel (ct_dwtc16_fwd.cuh: its TD_* constants from
// the layer's LY_* and the candidate's macros) and for its C model
// (dwtc16cl_conv.c: the same from a ct_tc_shape and the candidate's
// values, which includes this file too). Integer macros only, read alike
// by C and CUDA.
#ifndef DWTC16CL_SIZES_CUH
#define DWTC16CL_SIZES_CUH
#define DTC_CDIV(a, b) (((a) + (b) - 1) / (b))
#define DTC_RUP(a, b) (DTC_CDIV(a, b) * (b))
// Channel groups of cb channels, a warp's channels, loads of vec channels
// across a group.
#define DTC_NCG(c, cb) DTC_CDIV(c, cb)
#define DTC_CPW(cb, warps) ((cb) / (warps))
#define DTC_NQ(cb, vec) ((cb) / (vec))
// k-steps of 16 input columns a run of 8 outputs spans, runs of 8 in a
// tile's cols, input rows of rows output rows, input columns staged and
// their words (two half elements a word), the row stride (4 mod 8 words).
#define DTC_NK(kw, dx) DTC_CDIV(8 + ((kw) - 1) * (dx), 16)
#define DTC_NCR(cols) ((cols) / 8)
#define DTC_NR(rows, sy, kh, dy) (((rows) - 1) * (sy) + ((kh) - 1) * (dy) + 1)
#define DTC_XR(cols, nk) ((cols) + 16 * (nk) - 8)
#define DTC_XWN(xr) ((xr) / 2)
#define DTC_RS(xwn) ((xwn) + (12 - (xwn) % 8) % 8)
// The offset of a vec-channel group (16-byte aligned), the alignment of a
// channel's stride (vec x cs = 0 mod 32 words), a channel's row positions
// (SHIFT 1: both parities padded alike) and stride, the input stage's words.
#define DTC_QOFF(nq) ((nq) >= 8 ? 4 : (32 / ((nq) > 0 ? (nq) : 1)) % 32 & ~3)
#define DTC_CSA(vec) (32 / (vec))
#define DTC_NRP(shift, nr) ((shift) == 1 ? 2 * (((nr) + 1) / 2) : (nr))
#define DTC_CS(nrp, rs, csa) DTC_RUP((nrp) * (rs), csa)
#define DTC_IN_WORDS(cb, cs, nq, qoff) DTC_RUP((cb) * (cs) + (nq) * (qoff), 4)
// The output stage: rows of a half, pixels of a staged column, words of a
// staged pixel, its words (SHIFT 2: ROWS rows of COLS pixels).
#define DTC_PR(shift, rows) ((shift) == 1 ? (rows) / 2 : (rows))
#define DTC_PRC(pr) ((pr) == 1 ? 1 : (pr) + (12 - (pr) % 8) % 8)
#define DTC_PSW(cb) (((cb) / 2) | 1)
#define DTC_OUT_WORDS(shift, rows, cols, prc, psw)                                                            \
    ((shift) == 2 ? (rows) * (cols) * (psw) : ((shift) ? 2 : 1) * (cols) * (prc) * (psw))
// Tiles of n outputs in runs of t, staging tasks of an item.
#define DTC_NT(n, t) DTC_CDIV(n, t)
#define DTC_XT(nq, xwn, nr) ((nq) * (xwn) * (nr))
// Threads of a block (PIPE: the WARPS consumer warps and PWARPS producer
// warps), threads that stage and copy out, the shared memory's words
// (PIPE: two td_in and two td_out).
#define DTC_THREADS(warps, pipe, pwarps) (32 * ((warps) + ((pipe) ? (pwarps) : 0)))
#define DTC_SNTHR(warps, pipe, pwarps) (32 * ((pipe) ? (pwarps) : (warps)))
#define DTC_SMEM_WORDS(pipe, in, out) (((pipe) ? 2 : 1) * ((in) + (out)))
#endif
