// ct_dwtc16_fwd.cuh: the forward pass of a depthwise layer (groups = Cin =
// Cout) in the channels-last layout (NHWC, and NLC as a 2D layer of height
// 1, through the LY_* names of FAMILY_as2d.cuh), bf16 or f16, on the tensor
// cores (mma.sync m16n8k16, fp32 sums, one rounding per output), as banded
// (Toeplitz) GEMMs: for one channel c and filter row kh,
//   A[m][k]  = x[b][y(m) + kh*DY][x0(m) - PW + k]      (16 input columns)
//   B[k][n]  = w[c][kh][j] where k - n = j*DX, 0 <= j < KW, else 0
//   D[m][n] += sum_k A[m][k] B[k][n]
// gives D[m][n] = out[b][oy(m)][x0(m) + n] after every kh: a row m of the
// m16 tile (an "A-row") is one output row and a run of 8 output columns,
// k spans 8 + (KW-1)*DX input columns (NK k-steps of 16: one for KW <= 9
// at dilation 1), stride 1 along W, any stride along H (y(m) = oy*SY - PH).
//
// A block takes CHANNELS channels (their B fragments in registers for the
// whole block, CHANNELS / WARPS a warp) and, ITEMS times, an item: a batch
// image b and a tile of ROWS output rows x COLS output columns. Per item:
//   1. stage the input rows the tile reads, channel-major in shared memory
//      (td_in: per channel NR rows of XR elements, columns x0 - PW .. so
//      that the 16 columns of an A-row start 16-byte aligned): VEC
//      channels of two neighbouring pixels a task (two global loads of up
//      to 16 bytes), BATCH tasks in flight, VEC 32-bit stores of column
//      pairs. Zeros outside the image and past the layer's channels.
//   2. barrier; each warp, for its channels, walks the item's m16 tiles
//      (A-row a = 16 p + m: output row a % rows, column run a / rows),
//      TILES of them at once (independent accumulator chains): per kh and
//      k-step one ldmatrix.x4 (the lanes' row addresses: any A-row's 16
//      columns) and one mma. The D fragments go to the output staging area
//      (td_out: pixel-major, the block's channels of a pixel together).
//   3. barrier; the threads copy td_out to the output, a word (two
//      channels) a lane, or with OUTV a 16-byte chunk (8 channels), whole
//      32-byte sectors (the next item's staging then reuses td_in: every
//      warp passed the barrier after its ldmatrix).
// The B fragments are built once a block: a lane loads one element of a
// filter row's band and shuffles give each lane its words.
//
// SHIFT (stride and dilation 1 along H): an m16 tile's halves are the even
// and the odd rows of 8 row pairs; for filter row kh + 1 half 0 takes the
// fragments half 1 had for kh, and one ldmatrix.x2 loads half 1's rows.
// SHIFT=2 (the same layers): an A-row is a run, a tile group's 8 A-rows 8
// runs of all ROWS rows in ROWS / 2 tiles; for kh + 1 every half takes the
// fragments of the half one row below, and one ldmatrix.x2 loads the last
// half's: one x2 for ROWS / 2 mma (td_compute2).
// PREFETCH: the next item's first staging batch is loaded before this
// item's mma (1) or its copy-out (2) and stored after it (its round trip
// overlaps the mma, or the copy-out).
// PIPE: PWARPS producer warps stage and copy out, the WARPS consumer warps
// compute, on two input and two output buffers (named barriers): the
// staging of item i + 1 and the copy-out of item i - 1 overlap the mma of
// item i. PIPE=2: the consumers copy out, the producers only stage.
// MINB: __launch_bounds__' blocks an SM (0: none given).
//
// Shared-memory layout (words of 32 bits): td_in channel c at c*CS +
// (c / VEC)*QOFF (the staging stores of the block's VEC-channel groups on
// distinct banks), row r at td_row(r)*RS (RS = 4 mod 8 words: the 8 rows
// of an ldmatrix matrix on distinct banks); td_out pixel (orow, ocol) at
// td_pix(orow, ocol)*PSW words (PSW odd, columns PRC = 4 mod 8 pixels
// apart: a D store's 32 lanes on 32 banks), channel l at element l.
//
// Tuning macros: VEC, CHANNELS, WARPS, ROWS, COLS, ITEMS, BATCH, TILES,
// SHIFT, PREFETCH, RING, PIPE, PWARPS, OUTV, MINB (dwtc16cl_conv.c).
// CT_REPLAY (the CPU replay, dwtc16cl_replay.cpp) supplies tc16_mma,
// tc16_ldsm4/2, the named barriers and the shuffle itself.
#include "ct_dtype.cuh"
#include "dwtc16cl_sizes.cuh"
#ifndef CT_REPLAY
#include "ct_mma16.cuh"
#endif
#ifdef CT_REPLAY
#define TD_ALIGNED(p, n) assert((reinterpret_cast<uintptr_t>(p) & ((n) - 1)) == 0)
#else
#define TD_ALIGNED(p, n) ((void)0)
#endif

static_assert(LY_CL, "channels-last (nhwc, nlc) layers only");
static_assert(LY_GROUPS == LY_CIN && LY_COUT == LY_CIN, "depthwise layers only");
static_assert(LY_PASS == 0, "the forward pass");
static_assert(CT_DTYPE == 1 || CT_DTYPE == 2, "bf16 or f16");
static_assert(LY_SX == 1, "stride 1 along W (a strided column is no Toeplitz shift)");
static_assert(VEC == 2 || VEC == 4 || VEC == 8, "VEC is 2, 4 or 8 channels (one 4-, 8- or 16-byte load)");
static_assert(LY_CIN % VEC == 0 && CHANNELS % VEC == 0, "VEC divides the channels and a block's channels");
static_assert(CHANNELS % WARPS == 0, "WARPS divides CHANNELS");
static_assert(COLS % 8 == 0 && COLS >= 8, "COLS is a multiple of 8");
static_assert(ROWS >= 1 && ITEMS >= 1 && BATCH >= 1 && TILES >= 1, "ROWS, ITEMS, BATCH, TILES >= 1");
static_assert(PREFETCH >= 0 && PREFETCH <= 2, "PREFETCH is 0, 1 or 2");
static_assert((OUTV == 0 || OUTV == 1) && MINB >= 0, "OUTV is 0 or 1, MINB at least 0");
static_assert(PIPE == 0 || ((PIPE == 1 || PIPE == 2) && PWARPS >= 1 && PREFETCH == 0 && RING == 0),
              "PIPE: PWARPS >= 1 producer warps, without PREFETCH and RING");
static_assert(SHIFT == 0 || ((SHIFT == 1 || SHIFT == 2) && LY_SY == 1 && LY_DY == 1 && ROWS % 2 == 0),
              "SHIFT: stride and dilation 1 along H, ROWS even");
static_assert(SHIFT != 2 || (ROWS <= 16 && TILES == 1), "SHIFT=2: ROWS <= 16 (ROWS / 2 tiles), TILES 1");
#define TD_SH1 (SHIFT == 1)
#define TD_SH2 (SHIFT == 2)

#define TD_C LY_CIN
#define TD_CB CHANNELS
#define TD_NCG DTC_NCG(TD_C, TD_CB)                          // channel groups
#define TD_CPW DTC_CPW(TD_CB, WARPS)                         // channels of a warp
#define TD_NK DTC_NK(LY_KW, LY_DX)                           // k-steps of 16 columns
#define TD_NCR DTC_NCR(COLS)                                 // column runs of a tile
#define TD_NM ((ROWS * TD_NCR + 15) / 16)                    // m16 tiles of a full item
#define TD_NR DTC_NR(ROWS, LY_SY, LY_KH, LY_DY)              // input rows of an item
#define TD_XR DTC_XR(COLS, TD_NK)                            // input columns staged
#define TD_XWN DTC_XWN(TD_XR)                                // words of a staged row
#define TD_RS DTC_RS(TD_XWN)                                 // row stride, 4 mod 8 words
#define TD_NQ DTC_NQ(TD_CB, VEC)                             // loads across a block's channels
#define TD_QOFF DTC_QOFF(TD_NQ)                              // offset of a VEC-channel group (16-byte aligned)
#define TD_CSA DTC_CSA(VEC)                                  // VEC x CS = 0 mod 32 words
#define TD_NRH ((TD_NR + 1) / 2)                             // SHIFT: rows of a parity
#define TD_NRP DTC_NRP(SHIFT, TD_NR)                         // row positions of a channel
#define TD_CS DTC_CS(TD_NRP, TD_RS, TD_CSA)
#define TD_IN_WORDS DTC_IN_WORDS(TD_CB, TD_CS, TD_NQ, TD_QOFF)
#define TD_PR DTC_PR(SHIFT, ROWS)                            // rows of a td_out half
#define TD_PRC DTC_PRC(TD_PR)                                // pixels of a staged column
#define TD_HOFF (COLS * TD_PRC)                              // SHIFT: the odd rows' half
#define TD_PSW DTC_PSW(TD_CB)                                // words of a staged pixel
#define TD_OUT_WORDS DTC_OUT_WORDS(SHIFT, ROWS, COLS, TD_PRC, TD_PSW)
#define TD_SMEM_WORDS DTC_SMEM_WORDS(PIPE, TD_IN_WORDS, TD_OUT_WORDS)
#define TD_NRT DTC_NT(LY_OH, ROWS)                           // row tiles of an image
#define TD_NCT DTC_NT(LY_OW, COLS)                           // column tiles of a row
#define TD_ITEMS ((long long)LY_B * TD_NRT * TD_NCT)
// Element offsets in 32 bits where both tensors have fewer than 2^31
// elements (a 64-bit multiply chain less in each staging load and store).
template <bool small> struct td_idx_of {
    typedef long long type;
};
template <> struct td_idx_of<true> {
    typedef int type;
};
typedef td_idx_of<((long long)LY_B * LY_H * LY_W * LY_CIN < (1LL << 31) &&
                   (long long)LY_B * LY_OH * LY_OW * LY_CIN < (1LL << 31))>::type td_idx;
#define TD_NSPLIT ((TD_ITEMS + ITEMS - 1) / ITEMS)
#define TD_NTHR DTC_THREADS(WARPS, PIPE, PWARPS)             // consumer (mma) and producer warps
#define TD_SNTHR DTC_SNTHR(WARPS, PIPE, PWARPS)              // staging threads
#define TD_CNTHR (PIPE == 2 ? 32 * WARPS : TD_SNTHR)          // copy-out threads
#define TD_NBUF (PIPE ? 2 : 1)                               // td_in and td_out buffers
#define TD_XT DTC_XT(TD_NQ, TD_XWN, TD_NR)                   // staging tasks of an item
#define TD_XI ((TD_XT + TD_SNTHR - 1) / TD_SNTHR)              // a thread's staging tasks
#define TD_NB ((TD_XI + BATCH - 1) / BATCH)                  // batches of them
static_assert(RING == 0 || (RING == 1 && COLS >= LY_OW && TD_NR > ROWS * LY_SY),
              "RING: one column tile a row, and row tiles sharing input rows");
#define TD_NSLOT (TD_SH2 ? ROWS * COLS : (SHIFT ? 2 : 1) * TD_HOFF)               // pixel slots of td_out
#define TD_NW (TD_CB / 2)                                    // words of a pixel's channels
#define TD_OUTV (OUTV && TD_NW % 4 == 0 && TD_C % 8 == 0)    // copy-out in 16-byte chunks
#define TD_NCH (TD_NW >= 4 ? TD_NW / 4 : 1)                  // 16-byte chunks of a pixel

// The position of staged input row r in a channel's rows: with SHIFT the
// even rows and then the odd ones (an ldmatrix matrix's 8 rows are rows
// of one parity 2 apart: RS apart in this order, on distinct banks).
__device__ __forceinline__ constexpr int td_row(int r)
{
    return TD_SH1 ? (r & 1) * TD_NRH + (r >> 1) : r;
}

// The position of the item's staged row r: td_row(r), with RING in a ring
// of NRP slots, row 0 in slot s0 (even with SHIFT: a row keeps its
// parity). SHIFT's ldmatrix rows are 2 pr + d: td_slot2.
__device__ __forceinline__ int td_slot(int r, int s0)
{
    if (!RING)
        return td_row(r);
    const int k = (r + s0) % TD_NRP;
    return td_row(k);
}
__device__ __forceinline__ int td_slot2(int pr, int d, int s0)
{
    return (d & 1) * TD_NRH + (RING ? (pr + (d >> 1) + s0 / 2) % TD_NRH : pr + (d >> 1));
}

// The word offset of channel l of the block in td_in.
__device__ __forceinline__ int td_ch(int l)
{
    return l * TD_CS + (l / VEC) * TD_QOFF;
}

// The pixel (orow, ocol) of the tile in td_out, in words of TD_PSW:
// column-major (a D store's lanes g, t: rows g, columns 2t, 2t + 1 apart by
// PRC = 4 mod 8), with SHIFT the even rows and the odd rows apart (a D
// store holds rows of one parity).
__device__ __forceinline__ int td_pix(int orow, int ocol)
{
    if (TD_SH2)
        return orow * COLS + (ocol & 1) * (COLS / 2) + (ocol >> 1);
    return SHIFT ? (orow & 1) * TD_HOFF + ocol * TD_PRC + (orow >> 1) : ocol * TD_PRC + orow;
}

// The output row and column of td_out's pixel slot (td_pix's inverse;
// rows past ROWS for the slots of the padding).
__device__ __forceinline__ void td_unpix(int slot, int &orow, int &ocol)
{
    if (TD_SH2) {
        orow = slot / COLS;
        const int rest = slot % COLS;
        ocol = 2 * (rest % (COLS / 2)) + rest / (COLS / 2);
        return;
    }
    const int h = SHIFT ? slot / TD_HOFF : 0, rest = SHIFT ? slot % TD_HOFF : slot;
    ocol = rest / TD_PRC;
    orow = SHIFT ? 2 * (rest % TD_PRC) + h : rest % TD_PRC;
}

// The copy-out: where NW words a pixel divide 32, a warp's lanes take word
// k = lane % NW of NP = 32 / NW pixel slots D apart (D x PSW = NW mod 32:
// their words on distinct banks), slots B*NP*D + r + i*D for the warp's
// step (B, r); otherwise the words in order. TD_OT tasks an item.
__device__ __forceinline__ constexpr int td_inv_psw()
{
    for (int i = 1; i < 32; i += 2)
        if (i * TD_PSW % 32 == 1)
            return i;
    return 1;
}
#define TD_STRIDED (TD_NW <= 32 && 32 % TD_NW == 0)
#define TD_NP (TD_STRIDED ? 32 / TD_NW : 1)
#define TD_D (TD_STRIDED ? TD_NW * td_inv_psw() % 32 : 1)
#define TD_OT (TD_STRIDED ? (TD_NSLOT + TD_NP * TD_D - 1) / (TD_NP * TD_D) * TD_D * 32 : TD_NSLOT * TD_NW)
__device__ __forceinline__ void td_oslot(int task, int &slot, int &k)
{
    if (TD_STRIDED) {
        k = task % TD_NW;
        const int i = task % 32 / TD_NW, w = task / 32;
        slot = w / TD_D * (TD_NP * TD_D) + w % TD_D + i * TD_D;
    } else {
        k = task % TD_NW, slot = task / TD_NW;
    }
}

// The 16 bits of a float rounded once to the element type.
__device__ __forceinline__ unsigned td_bits(float v)
{
#ifdef CT_REPLAY
    ct_elem e;
    ct_st(&e, v);
    unsigned short h;
    memcpy(&h, &e, sizeof h);
    return h;
#elif CT_DTYPE == 1
    return __bfloat16_as_ushort(__float2bfloat16_rn(v));
#else
    return __half_as_ushort(__float2half_rn(v));
#endif
}

// VEC channels of a pixel as VEC / 2 words (channel 2e in the low half of
// word e), zeros where ok is false; through the read-only path.
__device__ __forceinline__ void td_ldv(unsigned *v, const ct_elem *p, bool ok)
{
    if (VEC == 8) {
        const uint4 u = ok ? __ldg(reinterpret_cast<const uint4 *>(p)) : make_uint4(0, 0, 0, 0);
        v[0] = u.x, v[1] = u.y, v[2] = u.z, v[3] = u.w;
    } else if (VEC == 4) {
        const uint2 u = ok ? __ldg(reinterpret_cast<const uint2 *>(p)) : make_uint2(0, 0);
        v[0] = u.x, v[1] = u.y;
    } else {
        v[0] = ok ? __ldg(reinterpret_cast<const unsigned *>(p)) : 0u;
    }
}

// Channel e's elements of two pixels' vectors as one word (lo, hi).
__device__ __forceinline__ unsigned td_pair(const unsigned *lo, const unsigned *hi, int e)
{
    return e % 2 == 0 ? (lo[e / 2] & 0xffffu) | (hi[e / 2] << 16) : (lo[e / 2] >> 16) | (hi[e / 2] & 0xffff0000u);
}

// The staging task -> (q, j, r): q fastest (a warp's loads along the
// channels of a pixel), then the word j of row r.
__device__ __forceinline__ void td_task(int task, int &q, int &j, int &r)
{
    // (unsigned: no sign fix-ups in the divisions by constants)
    const unsigned u = (unsigned)task, rest = u / TD_NQ;
    q = (int)(u % TD_NQ);
    j = (int)(rest % TD_XWN), r = (int)(rest / TD_XWN);
}

// A batch of a thread's staging: the loaded vectors of BATCH tasks (two
// pixels each).
struct td_batch {
    unsigned v[BATCH][2][VEC / 2];
};

// Loads batch bt of the item (b, oy0, x0) of channel group cg: task (q, j,
// r) loads pixels x0 - PW + 2j and + 1 of input row oy0*SY - PH + r, VEC
// channels each. A thread takes the tasks tid, tid + NTHR, ...: every load
// of a batch is issued before its first store (one round trip to memory).
__device__ __forceinline__ void td_load(td_batch &st, const ct_elem *__restrict__ x, int tid, int cg, int b, int oy0,
                                        int x0, int bt, int rfirst, int nrow)
{
#pragma unroll
    for (int k = 0; k < BATCH; ++k) {
        const int task = tid + (bt * BATCH + k) * TD_SNTHR;
        int q, j, r;
        td_task(task, q, j, r);
        r += rfirst;
        const int y = oy0 * LY_SY - LY_PH + r, w = x0 - LY_PW + 2 * j, c = cg * TD_CB + q * VEC;
        const bool row = task < TD_NQ * TD_XWN * nrow && y >= 0 && y < LY_H && c < TD_C;
        const ct_elem *p = x + (((td_idx)b * LY_H + y) * LY_W + w) * TD_C + c;
        td_ldv(st.v[k][0], p, row && w >= 0 && w < LY_W);
        td_ldv(st.v[k][1], p + TD_C, row && w + 1 >= 0 && w + 1 < LY_W);
    }
}

// Stores batch bt into td_in: the column pairs of task (q, j, r) as word j
// of row r of its VEC channels.
__device__ __forceinline__ void td_store(const td_batch &st, unsigned *sm, int tid, int bt, int rfirst, int nrow,
                                         int s0)
{
#pragma unroll
    for (int k = 0; k < BATCH; ++k) {
        const int task = tid + (bt * BATCH + k) * TD_SNTHR;
        int q, j, r;
        td_task(task, q, j, r);
        if (task < TD_NQ * TD_XWN * nrow) {
            unsigned *s = sm + td_ch(q * VEC) + td_slot(rfirst + r, s0) * TD_RS + j;
#pragma unroll
            for (int e = 0; e < VEC; ++e)
                s[e * TD_CS] = td_pair(st.v[k][0], st.v[k][1], e);
        }
    }
}

// v of lane src of the warp (every lane calls it; the replay supplies
// td_rp_shfl).
__device__ __forceinline__ unsigned td_shfl(unsigned v, int src)
{
#ifdef CT_REPLAY
    return td_rp_shfl(v, src);
#else
    return __shfl_sync(0xffffffffu, v, src);
#endif
}

// The coordinates of an item: image b, first output row oy0, column x0.
__device__ __forceinline__ void td_item(long long item, int &b, int &oy0, int &x0)
{
    x0 = (int)(item % TD_NCT) * COLS;
    oy0 = (int)(item / TD_NCT % TD_NRT) * ROWS;
    b = (int)(item / TD_NCT / TD_NRT);
}

// Named barriers of PIPE's producer and consumer warps (ids 1..8 of the
// block's threads, 9 of the consumers alone; 0 is __syncthreads'):
// bar.sync waits for the phase, bar.arrive counts itself in and goes on;
// both order the thread's shared-memory accesses before the phase's
// completion. The replay supplies td_rp_bar_sync/arrive.
__device__ __forceinline__ void td_bar_sync(int id)
{
#ifdef CT_REPLAY
    td_rp_bar_sync(id);
#else
    // Immediate ids (a register id would make ptxas reserve all 16).
#define TD_BAR(op, n)                                                                                          \
    case n:                                                                                                    \
        asm volatile("bar." op " " #n ", %0;\n" ::"n"(TD_NTHR) : "memory");                                  \
        break;
    switch (id) {
        TD_BAR("sync", 1) TD_BAR("sync", 2) TD_BAR("sync", 3) TD_BAR("sync", 4)
        TD_BAR("sync", 5) TD_BAR("sync", 6) TD_BAR("sync", 7) TD_BAR("sync", 8)
    }
#endif
}
__device__ __forceinline__ void td_bar_cons()
{
#ifdef CT_REPLAY
    td_rp_bar_sync(9);
#else
    asm volatile("bar.sync 9, %0;\n" ::"n"(32 * WARPS) : "memory");
#endif
}
__device__ __forceinline__ void td_bar_arrive(int id)
{
#ifdef CT_REPLAY
    td_rp_bar_arrive(id);
#else
    switch (id) {
        TD_BAR("arrive", 1) TD_BAR("arrive", 2) TD_BAR("arrive", 3) TD_BAR("arrive", 4)
        TD_BAR("arrive", 5) TD_BAR("arrive", 6) TD_BAR("arrive", 7) TD_BAR("arrive", 8)
    }
#endif
}

// The item's extent inside the output: its output rows, column runs,
// A-rows (SHIFT: pairs of rows 2pr, 2pr + 1 of a run, the m16 tile's
// halves) and m16 tiles (uniform over the block).
struct td_ext {
    int rows, ncr, npr, na, nm;
};
__device__ __forceinline__ td_ext td_extent(int oy0, int x0)
{
    td_ext e;
    e.rows = LY_OH - oy0 < ROWS ? LY_OH - oy0 : ROWS;
    const int ncr0 = (LY_OW - x0 + 7) / 8;
    e.ncr = ncr0 < TD_NCR ? ncr0 : TD_NCR;
    e.npr = SHIFT ? (e.rows + 1) / 2 : e.rows;
    e.na = e.npr * e.ncr;
    e.nm = TD_SH2 ? (e.ncr + 7) / 8 : SHIFT ? (e.na + 7) / 8 : (e.na + 15) / 16;
    return e;
}

// SHIFT=2's mma of an item (stride and dilation 1 along H): an A-row is
// a run of 8 columns, the 8 A-rows of a tile group are 8 runs, and the
// group's ROWS / 2 m16 tiles hold the item's ROWS output rows, tile u's
// halves rows 2u and 2u + 1. For filter row kh + 1 every half takes the
// fragments of the half one row below it (half (u, 1) those of half
// (u + 1, 0)), and only the last half loads its row: one ldmatrix.x2 for
// ROWS / 2 mma. A matrix's 8 rows are 8 runs of one input row (32 words
// side by side: distinct banks). The warp's channels one after another,
// each stored to so before the next (their accumulators not live at once).
#define TD_T2 (ROWS >= 2 ? ROWS / 2 : 1)   // (1 where SHIFT=2 is off and ROWS 1: no empty arrays)
__device__ __forceinline__ void td_compute2(const unsigned *sm, unsigned *so, int warp, int lane,
                                            const unsigned (&bf)[TD_CPW][LY_KH][TD_NK][2],
                                            const float (&b0)[TD_CPW], const td_ext &ex, int s0)
{
    const int g = lane / 4, t = lane % 4;
    const int lh = (lane >> 3) & 1, lk = lane >> 4, lr = lane & 7;
    const int rows = ex.rows, ncr = ex.ncr, nm = ex.nm;
#pragma unroll 1
    for (int p = 0; p < nm; ++p) {
        // The lane's ldmatrix run (past the item: a copy of the last), its
        // D run.
        const int ra = 8 * p + lr < ncr ? 8 * p + lr : ncr - 1, rd = 8 * p + g;
#pragma unroll
        for (int i = 0; i < TD_CPW; ++i) {
            const unsigned *ch = sm + td_ch(warp * TD_CPW + i) + ra * 4;
            float acc[TD_T2][4];
            unsigned af[TD_T2][TD_NK][4];
#pragma unroll
            for (int u = 0; u < TD_T2; ++u)
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    acc[u][e] = b0[i];
#pragma unroll
            for (int kh = 0; kh < LY_KH; ++kh)
#pragma unroll
                for (int ks = 0; ks < TD_NK; ++ks) {
                    if (kh == 0) {
#pragma unroll
                        for (int u = 0; u < TD_T2; ++u) {
                            const unsigned *ap = ch + td_slot(2 * u + lh, s0) * TD_RS + ks * 8 + lk * 4;
                            TD_ALIGNED(ap, 16);
                            tc16_ldsm4(af[u][ks], reinterpret_cast<const tc16_bits *>(ap));
                        }
                    } else {
                        // Input row ROWS - 1 + kh for the last half (lanes
                        // 0..15: columns 8 (lane / 8 % 2)..).
                        const unsigned *ap = ch + td_slot(ROWS - 1 + kh, s0) * TD_RS + ks * 8 + lh * 4;
                        TD_ALIGNED(ap, 16);
                        unsigned h1[2];
                        tc16_ldsm2(h1, reinterpret_cast<const tc16_bits *>(ap));
#pragma unroll
                        for (int u = 0; u < TD_T2; ++u) {
                            unsigned *f = af[u][ks];
                            f[0] = f[1], f[2] = f[3];
                            f[1] = u + 1 < TD_T2 ? af[u + 1][ks][0] : h1[0];
                            f[3] = u + 1 < TD_T2 ? af[u + 1][ks][2] : h1[1];
                        }
                    }
#pragma unroll
                    for (int u = 0; u < TD_T2; ++u)
                        tc16_mma(acc[u], af[u][ks], bf[i][kh][ks]);
                }
            // D rows g (run rd) of halves hh: output row 2u + hh, columns
            // 2t, 2t + 1 of the run; one 16-bit element a channel. The
            // pixel is td_pix(orow, 8 rd + 2t + e): the lane's base and a
            // constant offset a store (no address register each).
            if (rd < ncr) {
                unsigned short *const sd =
                    reinterpret_cast<unsigned short *>(so + (rd * 4 + t) * TD_PSW) + warp * TD_CPW + i;
#pragma unroll
                for (int u = 0; u < TD_T2; ++u)
#pragma unroll
                    for (int hh = 0; hh < 2; ++hh)
#pragma unroll
                        for (int e = 0; e < 2; ++e) {
                            const int orow = 2 * u + hh;
                            if (orow < rows)
                                sd[2 * (orow * COLS + e * (COLS / 2)) * TD_PSW] =
                                    (unsigned short)td_bits(acc[u][2 * hh + e]);
                        }
            }
        }
    }
}

// A warp's mma of an item: for its channels, the item's m16 tiles, TILES
// at once, from the staged rows in sm (row 0 in ring slot s0), the D
// fragments rounded into so.
__device__ __forceinline__ void td_compute(const unsigned *sm, unsigned *so, int warp, int lane,
                                           const unsigned (&bf)[TD_CPW][LY_KH][TD_NK][2], const float (&b0)[TD_CPW],
                                           const td_ext &ex, int s0)
{
    const int g = lane / 4, t = lane % 4;
    // The lane's ldmatrix row: matrix lane / 8 (half h = rows 8h.., kq =
    // columns 8kq..), row lane % 8.
    const int lh = (lane >> 3) & 1, lk = lane >> 4, lr = lane & 7;
    if (TD_SH2) {
        td_compute2(sm, so, warp, lane, bf, b0, ex, s0);
        return;
    }
    const int rows = ex.rows, npr = ex.npr, na = ex.na, nm = ex.nm;
    (void)npr;
#pragma unroll 1
    for (int p0 = 0; p0 < nm; p0 += TILES) {
        float acc[TD_CPW][TILES][4];
        unsigned af[TD_CPW][TILES][TD_NK][4];
        int aoff[TILES], aoff2[TILES], arow[TILES];
#pragma unroll
        for (int u = 0; u < TILES; ++u) {
#if SHIFT == 1
            // Half h of the tile: output rows 2pr + h of the pairs
            // 8p..8p + 7; for kh > 0 the lane's x2 row (lanes 0..15:
            // half 1, columns 8 (lane / 8 % 2)..).
            int a = 8 * (p0 + u) + lr;
            a = a < na ? a : na - 1;   // past the item: a copy of the last pair
            const int pr = a % npr, run = a / npr;
            aoff[u] = td_slot2(pr, lh, s0) * TD_RS + run * 4 + lk * 4;
            aoff2[u] = run * 4 + lh * 4;   // + td_slot2(pr, 1 + kh) rows
            arow[u] = pr;
#else
            int a = 16 * (p0 + u) + 8 * lh + lr;
            a = a < na ? a : na - 1;   // past the item: a copy of the last A-row
            const int orow = a % rows, run = a / rows;
            aoff[u] = (RING ? 0 : orow * LY_SY * TD_RS) + run * 4 + lk * 4;
            aoff2[u] = 0;
            arow[u] = orow * LY_SY;   // RING: + kh * DY, in the ring
#endif
#pragma unroll
            for (int i = 0; i < TD_CPW; ++i)
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    acc[i][u][e] = b0[i];
        }
        (void)aoff2, (void)arow;
#pragma unroll
        for (int kh = 0; kh < LY_KH; ++kh)
#pragma unroll
            for (int ks = 0; ks < TD_NK; ++ks)
#pragma unroll
                for (int i = 0; i < TD_CPW; ++i)
#pragma unroll
                    for (int u = 0; u < TILES; ++u) {
                        if (TILES > 1 && p0 + u >= nm)
                            continue;   // uniform over the warp
                        const unsigned *ch = sm + td_ch(warp * TD_CPW + i) + ks * 8;
                        unsigned *f = af[i][u][ks];
                        if (SHIFT && kh > 0) {
                            // Half 0's rows are half 1's of the last kh
                            // (the same k-step's).
                            const unsigned *ap = ch + aoff2[u] + td_slot2(arow[u], 1 + kh, s0) * TD_RS;
                            TD_ALIGNED(ap, 16);
                            unsigned h1[2];
                            tc16_ldsm2(h1, reinterpret_cast<const tc16_bits *>(ap));
                            f[0] = f[1], f[2] = f[3], f[1] = h1[0], f[3] = h1[1];
                        } else {
                            const unsigned *ap =
                                ch + aoff[u] +
                                (RING && !SHIFT ? td_slot(arow[u] + kh * LY_DY, s0) : SHIFT ? 0 : kh * LY_DY) * TD_RS;
                            TD_ALIGNED(ap, 16);
                            tc16_ldsm4(f, reinterpret_cast<const tc16_bits *>(ap));
                        }
                        tc16_mma(acc[i][u], f, bf[i][kh][ks]);
                    }
        // D rows g and g + 8 (the A-rows of the halves), columns 2t,
        // 2t + 1 of the run: into td_out, two channels a word where the
        // warp has an even number.
#pragma unroll
        for (int u = 0; u < TILES; ++u) {
#pragma unroll
            for (int hh = 0; hh < 2; ++hh) {
#if SHIFT == 1
                const int a = 8 * (p0 + u) + g;
                const int orow = 2 * (a % npr) + hh, run = a / npr;
                if (a >= na || orow >= rows)
                    continue;
#else
                const int a = 16 * (p0 + u) + 8 * hh + g;
                if (a >= na)
                    continue;
                const int orow = a % rows, run = a / rows;
#endif
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const int ocol = run * 8 + 2 * t + e;
                    const int px = td_pix(orow, ocol) * TD_PSW;
                    if (TD_CPW % 2 == 0) {
#pragma unroll
                        for (int i = 0; i < TD_CPW; i += 2) {
                            unsigned *s = so + px + (warp * TD_CPW + i) / 2;
                            *s = td_bits(acc[i][u][2 * hh + e]) | td_bits(acc[i + 1][u][2 * hh + e]) << 16;
                        }
                    } else {
#pragma unroll
                        for (int i = 0; i < TD_CPW; ++i) {
                            const int l = warp * TD_CPW + i;
                            unsigned short *s = reinterpret_cast<unsigned short *>(so + px) + l;
                            *s = (unsigned short)td_bits(acc[i][u][2 * hh + e]);
                        }
                    }
                }
            }
        }
    }
}

// The tile's outputs from so, one word (two channels) a lane: a warp's
// 32 lanes read 32 / NW pixels' words, pixel slots D apart (D x PSW = NW
// mod 32 words: the pixels' words side by side on the banks), and store
// them as whole 32-byte sectors. Thread stid of nthr (all, PIPE=1's
// producers, PIPE=2's consumers).
__device__ __forceinline__ void td_copyout(const unsigned *so, ct_elem *__restrict__ out, int stid, int nthr, int cg,
                                           int b, int oy0, int x0, int rows)
{
    ct_elem *const ob = out + (td_idx)b * LY_OH * LY_OW * TD_C + cg * TD_CB;
    if (TD_OUTV) {
        // OUTV, where a pixel's words are whole 16-byte chunks (8
        // channels) of the output: a chunk a lane (four shared words, one
        // global store), the lanes along the chunks of consecutive slots;
        // a quarter of the instructions of the word-wise copy.
#pragma unroll 1
        for (int task = stid; task < TD_NSLOT * TD_NCH; task += nthr) {
            const int k4 = task % TD_NCH, slot = task / TD_NCH;
            int orow, ocol;
            td_unpix(slot, orow, ocol);
            if (orow < rows && x0 + ocol < LY_OW && cg * TD_CB + 8 * k4 < TD_C) {
                const unsigned *s = so + slot * TD_PSW + 4 * k4;
                ct_elem *p = ob + ((td_idx)(oy0 + orow) * LY_OW + x0 + ocol) * TD_C + 8 * k4;
                TD_ALIGNED(p, 16);
                *reinterpret_cast<uint4 *>(p) = make_uint4(s[0], s[1], s[2], s[3]);
            }
        }
        return;
    }
#pragma unroll 1
    for (int task = stid; task < TD_OT; task += nthr) {
        int slot, k;
        td_oslot(task, slot, k);
        int orow, ocol;
        td_unpix(slot, orow, ocol);
        if (slot < TD_NSLOT && orow < rows && x0 + ocol < LY_OW && cg * TD_CB + 2 * k < TD_C) {
            ct_elem *p = ob + ((td_idx)(oy0 + orow) * LY_OW + x0 + ocol) * TD_C + 2 * k;
            *reinterpret_cast<unsigned *>(p) = so[slot * TD_PSW + k];
        }
    }
}

// MINB 0: the threads alone (ptxas' own register choice, which a minimum
// of 1 block changes).
#if MINB
#define TD_BOUNDS __launch_bounds__(TD_NTHR, MINB)
#else
#define TD_BOUNDS __launch_bounds__(TD_NTHR)
#endif
extern "C" __global__ void TD_BOUNDS
TD_NAME(const ct_elem *__restrict__ x, const ct_elem *__restrict__ weight,
#if LY_BIAS
        const ct_elem *__restrict__ bias,
#endif
        ct_elem *__restrict__ out)
{
#ifndef CT_REPLAY
    extern __shared__ float smem[];   // (the replay's is a global array)
#endif
    unsigned *const sm = reinterpret_cast<unsigned *>(smem);
    // td_in (PIPE: two of them), then td_out (PIPE: two).
    unsigned *const so = sm + TD_NBUF * TD_IN_WORDS;
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, g = lane / 4, t = lane % 4;
    // The staging and copy-out threads: PIPE's producer warps (after the
    // WARPS consumer warps), else all.
    const int stid = PIPE ? tid - 32 * WARPS : tid;
    (void)stid;
    // The blocks in launch order take an item range's channel groups side
    // by side: the blocks reading the same pixels run together.
    const int cg = (int)(blockIdx.x % TD_NCG);
    const long long it0 = (long long)(blockIdx.x / TD_NCG) * ITEMS;
    const int nit = (int)(TD_ITEMS - it0 < ITEMS ? TD_ITEMS - it0 : ITEMS);

    // The warp's channels' B fragments: b[0] = B[16 ks + 2t, +1][g],
    // b[1] = B[16 ks + 2t + 8, +9][g], B[k][n] = w[c][kh][(k - n) / DX]
    // (PIPE: the consumer warps only).
    const tc16_bits *wb = reinterpret_cast<const tc16_bits *>(weight);
    unsigned bf[TD_CPW][LY_KH][TD_NK][2];
    float b0[TD_CPW];
    const bool mwarp = !PIPE || warp < WARPS;
#pragma unroll
    for (int i = 0; i < TD_CPW; ++i) {
        const int c = cg * TD_CB + warp * TD_CPW + i;
        const bool cok = mwarp && c < TD_C;
#if LY_BIAS
        b0[i] = cok ? ct_ldg(bias + c) : 0.0f;
#else
        b0[i] = 0.0f;
#endif
        // The band's elements B[k][n] = E[k - n + 8] of the row E[p] =
        // w[c][kh][(p - 8) / DX] where p - 8 is a tap's column, else 0:
        // lane l loads E[16 ks + l], takes E[16 ks + l + 1] from lane
        // l + 1, and a lane's words are the pairs of lanes 2t + 8hh + 8 - g
        // (one load and three shuffles a row and k-step instead of four
        // loads a word).
#pragma unroll
        for (int kh = 0; kh < LY_KH; ++kh)
#pragma unroll
            for (int ks = 0; ks < TD_NK; ++ks) {
                const int d = 16 * ks + lane - 8, j = d / LY_DX;
                const bool ok = cok && d >= 0 && d % LY_DX == 0 && j < LY_KW;
                const unsigned e = ok ? (unsigned)__ldg(wb + ((long long)c * LY_KH + kh) * LY_KW + j) : 0u;
                const unsigned pair = e | td_shfl(e, lane + 1 < 32 ? lane + 1 : lane) << 16;
#pragma unroll
                for (int hh = 0; hh < 2; ++hh)
                    bf[i][kh][ks][hh] = td_shfl(pair, 2 * t + 8 * hh + 8 - g);
            }
    }

#if PIPE
    // PIPE: the producer warps stage item it into td_in[it % 2] while the
    // consumer warps compute item it - 1 from the other, and copy item
    // it - 1's outputs out of td_out[(it - 1) % 2] while the consumers
    // fill the other. Barriers (a phase: every thread of the block, one
    // side waiting, the other arriving): FULL[s] (1 + s: td_in[s]
    // staged), OEMPTY[s] (3 + s: td_out[s] copied out), EMPTY[s] (5 + s:
    // td_in[s] read), OFULL[s] (7 + s: td_out[s] written). A side arrives
    // only where the other side will wait for that phase, so that every
    // phase completes and none is left half counted at the exit. PIPE=2:
    // the consumers copy their items out themselves, the producers only
    // stage (no OFULL, OEMPTY).
    if (mwarp) {
#pragma unroll 1
        for (int it = 0; it < nit; ++it) {
            const int s = it & 1;
            int b, oy0, x0;
            td_item(it0 + it, b, oy0, x0);
            const td_ext ex = td_extent(oy0, x0);
            td_bar_sync(1 + s);
            if (PIPE == 1 && it >= 2)
                td_bar_sync(3 + s);
            td_compute(sm + s * TD_IN_WORDS, so + s * TD_OUT_WORDS, warp, lane, bf, b0, ex, 0);
            if (it + 2 < nit)
                td_bar_arrive(5 + s);
            if (PIPE == 2) {
                // The consumers copy the item out themselves (barrier 9,
                // theirs alone): the next item's mma writes the other
                // td_out, and the one after this one's only past the
                // next item's barrier, which follows this copy-out.
                td_bar_cons();
                td_copyout(so + s * TD_OUT_WORDS, out, tid, TD_CNTHR, cg, b, oy0, x0, ex.rows);
            } else {
                td_bar_arrive(7 + s);
            }
        }
    } else {
        td_batch st;
#pragma unroll 1
        for (int it = 0; it <= nit; ++it) {
            if (it < nit) {
                const int s = it & 1;
                int b, oy0, x0;
                td_item(it0 + it, b, oy0, x0);
                if (it >= 2)
                    td_bar_sync(5 + s);
#pragma unroll 1
                for (int bt = 0; bt < TD_NB; ++bt) {
                    td_load(st, x, stid, cg, b, oy0, x0, bt, 0, TD_NR);
                    td_store(st, sm + s * TD_IN_WORDS, stid, bt, 0, TD_NR, 0);
                }
                td_bar_arrive(1 + s);
            }
            if (PIPE == 1 && it >= 1) {
                const int s = (it - 1) & 1;
                int b, oy0, x0;
                td_item(it0 + it - 1, b, oy0, x0);
                const td_ext ex = td_extent(oy0, x0);
                td_bar_sync(7 + s);
                td_copyout(so + s * TD_OUT_WORDS, out, stid, TD_CNTHR, cg, b, oy0, x0, ex.rows);
                if (it + 1 < nit)
                    td_bar_arrive(3 + s);
            }
        }
    }
#else
    td_batch st;
#if PREFETCH
    if (nit > 0) {
        int nb, ny0, nx0;
        td_item(it0, nb, ny0, nx0);
        td_load(st, x, tid, cg, nb, ny0, nx0, 0, 0, TD_NR);
    }
#endif
    // RING: an item after the previous row tile of its image (in this
    // block) stages only its last ROWS x SY rows; the others are the last
    // item's, in the ring's slots (row 0 of the item in slot s0).
    int s0 = 0;
#pragma unroll 1
    for (int it = 0; it < nit; ++it) {
        int b, oy0, x0;
        td_item(it0 + it, b, oy0, x0);
        const td_ext ex = td_extent(oy0, x0);

        const bool cont = RING && it > 0 && oy0 != 0;
        const int rfirst = cont ? TD_NR - ROWS * LY_SY : 0, nrow = TD_NR - rfirst;
        s0 = cont ? (s0 + ROWS * LY_SY) % TD_NRP : 0;
        // Stage the item, BATCH tasks at a time (the first batch already
        // loaded where PREFETCH loaded it during the last item's mma).
        const int nbt = RING ? ((TD_NQ * TD_XWN * nrow + TD_NTHR - 1) / TD_NTHR + BATCH - 1) / BATCH : TD_NB;
#pragma unroll 1
        for (int bt = 0; bt < nbt; ++bt) {
            if (!PREFETCH || bt > 0)
                td_load(st, x, tid, cg, b, oy0, x0, bt, rfirst, nrow);
            td_store(st, sm, tid, bt, rfirst, nrow, s0);
        }
        __syncthreads();
#if PREFETCH == 1
        // The next item's first batch, in flight during this item's mma.
        if (it + 1 < nit) {
            int nb, ny0, nx0;
            td_item(it0 + it + 1, nb, ny0, nx0);
            const int nfirst = RING && ny0 != 0 ? TD_NR - ROWS * LY_SY : 0;
            td_load(st, x, tid, cg, nb, ny0, nx0, 0, nfirst, TD_NR - nfirst);
        }
#endif
        td_compute(sm, so, warp, lane, bf, b0, ex, s0);
        __syncthreads();
        // The next item's staging then reuses td_in: every warp passed the
        // barrier after its ldmatrix.
#if PREFETCH == 2
        // The next item's first batch, in flight during this item's
        // copy-out (whose few registers leave room for it).
        if (it + 1 < nit) {
            int nb, ny0, nx0;
            td_item(it0 + it + 1, nb, ny0, nx0);
            const int nfirst = RING && ny0 != 0 ? TD_NR - ROWS * LY_SY : 0;
            td_load(st, x, tid, cg, nb, ny0, nx0, 0, nfirst, TD_NR - nfirst);
        }
#endif
        td_copyout(so, out, tid, TD_CNTHR, cg, b, oy0, x0, ex.rows);
    }
#endif
    (void)g;
}
