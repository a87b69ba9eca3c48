// wino4_sizes.cuh: the derived sizes of the kind wino4, one set of
// expressions for the kernel (ct_conv_wino4.cuh: its W4_* macros,
// compile-time constants from the layer's LY_* and the candidate's macros)
// and for its C model (wino4_conv.c: the same from a ct_tc_shape and the
// candidate's values, which includes this file too). Integer macros only,
// read alike by C and CUDA.
#ifndef WINO4_SIZES_CUH
#define WINO4_SIZES_CUH
#define WINO4_CDIV(a, b) (((a) + (b) - 1) / (b))
// 4x4 output tiles along n outputs, and of a layer of b items.
#define WINO4_TILES_OF(n) WINO4_CDIV(n, 4)
#define WINO4_NTL(b, th, tw) ((b) * (th) * (tw))
// Threads of a block: 36 transform positions of ts = (tn / thn) x (tm / thm).
#define WINO4_TX(tn, thn) ((tn) / (thn))
#define WINO4_TY(tm, thm) ((tm) / (thm))
#define WINO4_TS(tx, ty) ((tx) * (ty))
#define WINO4_NT(ts) (36 * (ts))
// The grid: blocks of tm channels of a group (y), of tn tiles (x).
#define WINO4_MTILES(coutg, tm) WINO4_CDIV(coutg, tm)
#define WINO4_NTILES(ntl, tn) WINO4_CDIV(ntl, tn)
// A k row's floats (multiples of 4: 16-byte fragments): U's 4 past its
// channels, so that the filters' k-fastest stores fall 4 banks apart a k
// (two-way conflicts at most, where a multiple of 32 made them CHUNK_K-way),
// V's its tiles (NCHW patches are stored tile-fastest; NHWC ones meet the
// conflicts, a padding would cost the room of larger chunks).
#define WINO4_AP(tm) ((tm) + 4)
#define WINO4_BP(tn) (tn)
// Floats per position plane: its rows, then up to F mod 32, F the floats
// a quarter warp reads of one fragment run (4 TY of U, 4 TX of V), so
// that the 4 (or 2) positions of a warp read disjoint banks where their
// runs fit 32 banks together, and the fewest wavefronts otherwise. A stage
// is 36 planes of each, ck k rows a plane.
#define WINO4_PLANE(rows, f) ((rows) + ((f) % 32 - (rows) % 32 + 32) % 32)
#define WINO4_UPL(ck, tm, ty) WINO4_PLANE((ck) * WINO4_AP(tm), 4 * (ty))
#define WINO4_VPL(ck, tn, tx) WINO4_PLANE((ck) * WINO4_BP(tn), 4 * (tx))
#define WINO4_STAGE(upl, vpl) (36 * ((upl) + (vpl)))
// The epilogue's planes (ty rows of tn + 1 sums, per channel of a thread),
// which reuse the stages, and the channels of a thread a round of the
// output transform: as many (4, 2, 1) as the stages hold.
#define WINO4_EP(tn) ((tn) + 1)
#define WINO4_EPL(ty, ep) ((ty) * (ep))
#define WINO4_ER(epl, stages, stage) \
    (36 * 4 * (epl) <= (stages) * (stage) ? 4 : 36 * 2 * (epl) <= (stages) * (stage) ? 2 : 1)
// Patches (pi) and filters (pw) a thread gathers a chunk of ck channels.
#define WINO4_PI(ck, tn, nt) WINO4_CDIV((ck) * (tn), nt)
#define WINO4_PW(ck, tm, nt) WINO4_CDIV((ck) * (tm), nt)
// Bytes of shared memory a block: the stages, then the tile table (16
// bytes a tile).
#define WINO4_SMEM(stages, stage, tn) (4 * (stages) * (stage) + 16 * (tn))
#endif
// FPRE=1: the filters transformed once a call by the prep kernel. The C
// model, where FPRE is no macro, sees these, the kernel of FPRE=0 none (its
// code is what results stored before FPRE measured): outside the include
// guard, whose group the code hash cannot resolve (read twice, the same
// definitions again). The workspace holds, for every group, channel block
// and chunk, U' as the stage wants it: [xi][k][m], ck x tm floats a
// position, unpadded (the block copies 16-byte runs of m: no k-fastest
// stores to spread over the banks, so U's k rows are tm floats; its planes
// keep their padding).
#if !defined(FPRE) || FPRE
#define WINO4_U4(ck, tm) ((ck) * (tm) / 4)                           // float4 of U' a position and chunk
#define WINO4_UI(ck, tm, ts) WINO4_CDIV(WINO4_U4(ck, tm), ts)   // float4 a thread copies a chunk (its position's plane)
#define WINO4_UPLF(ck, tm, ty) WINO4_PLANE((ck) * (tm), 4 * (ty))
#define WINO4_UWS(g, mtiles, nch, ck, tm) ((g) * (mtiles) * (nch) * 36 * (ck) * (tm))   // workspace floats
#define WINO4_PREP_NT 256   // threads of a prep block, one filter (k, m) each
#endif
