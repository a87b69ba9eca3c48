// tc16gk_sizes.cuh: the derived sizes of the kind tc16gkcl that depend on
// the element size (elem bytes: 2 for bf16 and f16, ct_conv_tc16gk.cuh; 4
// for tf32, ct_conv_tf32gk.cuh), one set of expressions for the kernels
// (their TC_* macros) and for the C model (tc16gk_conv.c, which includes
// this file too). The sizes of any element size are tc16g_sizes.cuh's
// (tc16r); so are the half types' planes, A and staged output pitch, which
// ct_conv_tc16gk.cuh takes from the core it shares with tc16g
// (ct_conv_tc16g_core.cuh: TC16G_SB, TC16G_SA, TC16G_OP) and which the C
// model reads there too. Integer macros only, read alike by C and CUDA.
#ifndef TC16GK_SIZES_CUH
#define TC16GK_SIZES_CUH
#define TC16GK_CDIV(a, b) (((a) + (b) - 1) / (b))
// Elements in 16 bytes: a core matrix row's, a plane's channels, the pad
// of a raw weight row and of a staged output pixel.
#define TC16GK_V(elem) (16 / (elem))
// The k of a wgmma step: 32 bytes of elements (k16 for the half types, k8
// for tf32).
#define TC16GK_KSTEP(elem) (32 / (elem))
// Chunks of ck channels (the last one's channels past cin are zeros).
#define TC16GK_NCH(cin, ck) TC16GK_CDIV(cin, ck)
// Bytes of a chunk's planes (ck / V planes of pb bytes) and of its A (bm
// rows of khw x ck elements); the staged output pixel pitch, elements.
#define TC16GK_SB(ck, elem, pb) ((ck) / TC16GK_V(elem) * (pb))
#define TC16GK_SA(bm, khw, ck, elem) ((bm) * (khw) * (ck) * (elem))
#define TC16GK_OP(bm, elem) ((bm) + TC16GK_V(elem))
// A raw weight row in shared memory (elements: a chunk's taps and a pad),
// a chunk's raw weights (bytes) and a stage (raw weights, then planes).
#define TC16GK_RKP(ck, khw, elem) ((ck) * (khw) + TC16GK_V(elem))
#define TC16GK_SR(bm, rkp, elem) ((bm) * (rkp) * (elem))
#define TC16GK_ST(sr, sb) ((sr) + (sb))
// Bytes of the staged outputs (toh x tow pixels of pitch op), which
// overlay A's two buffers and the stages: the dynamic shared memory.
#define TC16GK_SO(toh, tow, op, elem) ((toh) * (tow) * (op) * (elem))
#define TC16GK_SMEM(sa, stages, st, so) (2 * (sa) + (stages) * (st) > (so) ? 2 * (sa) + (stages) * (st) : (so))
#endif
