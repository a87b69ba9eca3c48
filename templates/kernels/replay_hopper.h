// replay_hopper.h: Hopper's asynchronous pieces for a CPU replay through
// replay_shim.h (include it after the shim, before a device header built
// with -DCT_REPLAY): shared memory as one 1024-aligned array (ct_rp_smem,
// shared addresses are offsets into it, so the swizzle, a function of the
// address, lands as on the GPU), mbarriers (arrive, expect_tx, complete_tx,
// try_wait.parity), the tiled TMA load (box, element strides, zero fill
// out of bounds, 16-byte-chunk swizzle), the 1D bulk copy, and wgmma
// m64nNk16 (m64nNk8 on 4-byte elements with CT_TF32, each operand required a TF32 value) with both
// operands read through shared-memory matrix descriptors (K-major,
// 128-byte swizzle), executed when wgmma.wait_group retires its group: the
// latest moment the hardware may read the operands, so a stage released
// too early is refilled before the emulated read. A write (TMA or
// ct_rp_write_check'ed store) into the operands of a wgmma not yet retired
// fails at once; so does a wait that no arrival completes (deadlock).
//
// The tensor map is the replay's own 128-byte struct (ct_rp_tmap), made by
// ct_rp_tmap_make from a ct_tmap_desc (tuner/core/tmap.h), the tuner's
// description of cuTensorMapEncodeTiled's arguments.
#ifndef REPLAY_HOPPER_H
#define REPLAY_HOPPER_H
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <utility>
#include "tmap.h"

#ifndef CT_RP_SMEM_BYTES
#define CT_RP_SMEM_BYTES (232448 + 1024)
#endif
alignas(1024) static unsigned char ct_rp_smem[CT_RP_SMEM_BYTES];

#define CT_RP_FAIL(...)                                                                                       \
    do {                                                                                                      \
        fprintf(stderr, "FAIL: " __VA_ARGS__);                                                                \
        fprintf(stderr, "\n");                                                                                \
        fflush(stderr);                                                                                       \
        _Exit(1);                                                                                             \
    } while (0)

static inline unsigned ct_rp_smem_addr(const void *p)
{
    const unsigned char *c = static_cast<const unsigned char *>(p);
    if (c < ct_rp_smem || c > ct_rp_smem + CT_RP_SMEM_BYTES)
        CT_RP_FAIL("a shared address of a pointer outside shared memory");
    return (unsigned)(c - ct_rp_smem);
}

// ---- mbarriers: one table, one lock, one condition for every waiter ----
struct ct_rp_bar {
    int count = 0, pending = 0;
    long long tx = 0;
    long long phase = 0;   // completed phases
};
static std::mutex ct_rp_mu;
static std::condition_variable ct_rp_cv;
static std::map<unsigned, ct_rp_bar> ct_rp_bars;
// Each barrier's completed phases at its next init (one entry per block
// that used it), for the replay's bookkeeping check.
static std::vector<std::pair<unsigned, long long>> ct_rp_bar_log;

static inline void ct_rp_bar_init(unsigned b, unsigned n)
{
    std::lock_guard<std::mutex> l(ct_rp_mu);
    if (b % 8 != 0)
        CT_RP_FAIL("mbarrier at %u is not 8-aligned", b);
    auto it = ct_rp_bars.find(b);
    if (it != ct_rp_bars.end())
        ct_rp_bar_log.push_back({b, it->second.phase});
    ct_rp_bar &r = ct_rp_bars[b];
    r.count = r.pending = (int)n;
    r.tx = 0;
    r.phase = 0;
}

// The lock held: completes the phase when every arrival and byte is in.
static inline void ct_rp_bar_step(ct_rp_bar &r)
{
    if (r.pending < 0 || r.tx < 0)
        CT_RP_FAIL("mbarrier over-arrived (pending %d, tx %lld)", r.pending, r.tx);
    if (r.pending == 0 && r.tx == 0) {
        r.phase++;
        r.pending = r.count;
        ct_rp_cv.notify_all();
    }
}

static inline ct_rp_bar &ct_rp_bar_of(unsigned b)
{
    auto it = ct_rp_bars.find(b);
    if (it == ct_rp_bars.end() || it->second.count == 0)
        CT_RP_FAIL("mbarrier at %u used before init", b);
    return it->second;
}

static inline void ct_rp_arrive(unsigned b)
{
    std::lock_guard<std::mutex> l(ct_rp_mu);
    ct_rp_bar &r = ct_rp_bar_of(b);
    r.pending--;
    ct_rp_bar_step(r);
}

static inline void ct_rp_arrive_tx(unsigned b, unsigned bytes)
{
    std::lock_guard<std::mutex> l(ct_rp_mu);
    ct_rp_bar &r = ct_rp_bar_of(b);
    r.tx += bytes;
    r.pending--;
    ct_rp_bar_step(r);
}

static inline void ct_rp_complete_tx(unsigned b, long long bytes)
{
    std::lock_guard<std::mutex> l(ct_rp_mu);
    ct_rp_bar &r = ct_rp_bar_of(b);
    r.tx -= bytes;
    ct_rp_bar_step(r);
}

// mbarrier.try_wait.parity in a loop: done when the phase of that parity
// has completed, i.e. the current phase's parity differs.
static inline void ct_rp_wait(unsigned b, unsigned parity)
{
    std::unique_lock<std::mutex> l(ct_rp_mu);
    ct_rp_bar_of(b);
    const bool ok = ct_rp_cv.wait_for(l, std::chrono::seconds(60),
                                      [&] { return (unsigned)(ct_rp_bars[b].phase & 1) != (parity & 1); });
    if (!ok)
        CT_RP_FAIL("mbarrier at %u: a wait for parity %u never completed (deadlock)", b, parity);
}

// ---- writes against the operands of wgmma groups not yet retired ----
struct ct_rp_pend {
    unsigned lo[2], hi[2];
    int left;
};
static std::map<std::pair<int, long long>, ct_rp_pend> ct_rp_pends;

static inline void ct_rp_write_check(const void *p, unsigned bytes)
{
    const unsigned a = ct_rp_smem_addr(p);
    std::lock_guard<std::mutex> l(ct_rp_mu);
    for (auto &e : ct_rp_pends)
        for (int k = 0; k < 2; k++)
            if (a < e.second.hi[k] && a + bytes > e.second.lo[k])
                CT_RP_FAIL("a write to shared bytes %u..%u that a pending wgmma (warpgroup %d) still reads", a,
                           a + bytes, e.first.first);
}

// ---- the tiled TMA load ----
struct ct_rp_tmap {
    const unsigned char *base;
    short rank, esz, swizzle;
    unsigned long long dims[5], strides[4];   // strides of dimensions 1 ..
    unsigned short box[5];
    unsigned char estr[5];
};
static_assert(sizeof(ct_rp_tmap) <= 128, "a tensor map is 128 bytes");

// The replay's tensor map of d over the buffer at base, after the checks
// cuTensorMapEncodeTiled makes (its documented requirements).
static inline void ct_rp_tmap_make(void *out, const ct_tmap_desc &d, const void *base, int esz)
{
    ct_rp_tmap m{};
    m.base = static_cast<const unsigned char *>(base);
    m.rank = (short)d.rank, m.esz = (short)esz, m.swizzle = (short)d.swizzle;
    if (d.rank < 1 || d.rank > 5)
        CT_RP_FAIL("tensor map rank %d", d.rank);
    if ((reinterpret_cast<unsigned long long>(base) & 15) != 0)
        CT_RP_FAIL("tensor map base not 16-byte aligned");
    for (int i = 0; i < d.rank; i++) {
        m.dims[i] = d.dims[i], m.box[i] = (unsigned short)d.box[i], m.estr[i] = (unsigned char)d.estrides[i];
        if (i > 0)
            m.strides[i - 1] = d.strides[i - 1];
        if (d.dims[i] < 1 || d.dims[i] > (1ull << 32))
            CT_RP_FAIL("tensor map dimension %d: %llu elements", i, d.dims[i]);
        if (d.box[i] < 1 || d.box[i] > 256)
            CT_RP_FAIL("tensor map box dimension %d: %u (1 to 256)", i, d.box[i]);
        if (d.estrides[i] < 1 || d.estrides[i] > 8)
            CT_RP_FAIL("tensor map element stride %d: %u (1 to 8)", i, d.estrides[i]);
        if (i > 0 && (d.strides[i - 1] % 16 != 0 || d.strides[i - 1] >= (1ull << 40)))
            CT_RP_FAIL("tensor map stride %d: %llu bytes (a multiple of 16 under 2^40)", i, d.strides[i - 1]);
    }
    if (d.box[0] * esz % 16 != 0)
        CT_RP_FAIL("tensor map inner box of %u bytes is no multiple of 16", d.box[0] * esz);
    if (d.swizzle && (int)d.box[0] * esz > d.swizzle)
        CT_RP_FAIL("tensor map inner box of %u bytes exceeds the %d-byte swizzle", d.box[0] * esz, d.swizzle);
    memcpy(out, &m, sizeof m);
}

// Physical shared address of logical byte a under a swizzle of span sw
// (16-byte chunks XORed with the row within the pattern: 128-byte spans
// over 8 rows, 64 over 4, 32 over 2).
static inline unsigned ct_rp_swz(unsigned a, int sw)
{
    if (sw == 128)
        return a ^ (((a >> 7) & 7) << 4);
    if (sw == 64)
        return a ^ (((a >> 7) & 3) << 4);
    if (sw == 32)
        return a ^ (((a >> 7) & 1) << 4);
    return a;
}

// cp.async.bulk.tensor.4d tile mode: the box at coordinates c (innermost
// first) into shared memory at dst, row by row (a row is the inner box,
// padded to the swizzle span), elements outside the tensor zeros; then
// the box's bytes complete on barrier b.
static inline void ct_rp_tma_4d(unsigned dst, const void *map, int c0, int c1, int c2, int c3, unsigned b)
{
    ct_rp_tmap m;
    memcpy(&m, map, sizeof m);
    if (m.rank != 4)
        CT_RP_FAIL("a 4D copy through a rank-%d tensor map", m.rank);
    if (dst % 128 != 0 || (m.swizzle == 128 && dst % 1024 != 0))
        CT_RP_FAIL("TMA destination %u misaligned for a %d-byte swizzle", dst, m.swizzle);
    const int c[4] = {c0, c1, c2, c3};
    unsigned n[4];
    for (int i = 0; i < 4; i++)
        n[i] = i == 0 ? m.box[0] : (m.box[i] + m.estr[i] - 1) / m.estr[i];
    const unsigned row = n[0] * m.esz;
    if (m.swizzle && row != (unsigned)m.swizzle)
        CT_RP_FAIL("inner box of %u bytes: the replay models rows of the full swizzle span", row);
    const unsigned long long rows = (unsigned long long)n[1] * n[2] * n[3], bytes = rows * row;
    if (dst + bytes > CT_RP_SMEM_BYTES)
        CT_RP_FAIL("TMA box past shared memory");
    ct_rp_write_check(ct_rp_smem + dst, (unsigned)bytes);
    for (unsigned i3 = 0; i3 < n[3]; i3++)
        for (unsigned i2 = 0; i2 < n[2]; i2++)
            for (unsigned i1 = 0; i1 < n[1]; i1++) {
                const unsigned r = (i3 * n[2] + i2) * n[1] + i1;
                const long long x[4] = {0, c[1] + (long long)i1 * m.estr[1], c[2] + (long long)i2 * m.estr[2],
                                        c[3] + (long long)i3 * m.estr[3]};
                bool in = true;
                for (int k = 1; k < 4; k++)
                    in = in && x[k] >= 0 && x[k] < (long long)m.dims[k];
                for (unsigned i0 = 0; i0 < n[0]; i0++) {
                    const long long x0 = c[0] + (long long)i0;
                    const unsigned at = ct_rp_swz(dst + r * row + i0 * m.esz, m.swizzle);
                    if (in && x0 >= 0 && x0 < (long long)m.dims[0]) {
                        const unsigned long long off =
                            x0 * m.esz + x[1] * m.strides[0] + x[2] * m.strides[1] + x[3] * m.strides[2];
                        memcpy(ct_rp_smem + at, m.base + off, m.esz);
                    } else {
                        memset(ct_rp_smem + at, 0, m.esz);
                    }
                }
            }
    ct_rp_complete_tx(b, (long long)bytes);
}

// cp.async.bulk.shared::cluster.global (1D): n bytes from global src into
// shared memory at dst, as they are (a swizzled image lands swizzled only
// where its offsets are the shared addresses' own: a 1024-aligned dst for
// the 128-byte pattern), then the bytes complete on barrier b. Both
// addresses 16-aligned and n a multiple of 16, as the instruction needs.
static inline void ct_rp_bulk(unsigned dst, const void *src, unsigned n, unsigned b)
{
    if (dst % 16 != 0 || reinterpret_cast<unsigned long long>(src) % 16 != 0 || n % 16 != 0 || n == 0)
        CT_RP_FAIL("bulk copy of %u bytes from %p to shared %u: 16-byte alignment and size", n, src, dst);
    if ((unsigned long long)dst + n > CT_RP_SMEM_BYTES)
        CT_RP_FAIL("bulk copy past shared memory");
    ct_rp_write_check(ct_rp_smem + dst, n);
    memcpy(ct_rp_smem + dst, src, n);
    ct_rp_complete_tx(b, (long long)n);
}

// fence.proxy.async: the emulation has one proxy.
static inline void ct_rp_proxy_fence() {}

// bar.sync id, n among the threads that take part (one barrier an id).
static inline void ct_rp_named_sync(int id, int n)
{
    static std::mutex mu;
    static std::map<int, std::barrier<> *> bars;
    std::barrier<> *b;
    {
        std::lock_guard<std::mutex> l(mu);
        auto &p = bars[id];
        if (!p)
            p = new std::barrier<>(n);
        b = p;
    }
    b->arrive_and_wait();
}

// ---- wgmma: m64nNk16, fp32 accumulators, operands through descriptors ----
struct ct_rp_mma {
    float *d;
    int n;
    unsigned long long da, db;
    std::pair<int, long long> key;
};
thread_local std::vector<ct_rp_mma> ct_rp_open;                 // not yet committed
thread_local std::vector<std::vector<ct_rp_mma>> ct_rp_groups;  // committed, not retired
thread_local long long ct_rp_seq;

// Shared byte of element (row, k) of a K-major operand: 128-byte swizzle,
// 8-row groups SBO apart, the start 1024-aligned but for its k offset.
static inline unsigned ct_rp_desc_at(unsigned long long desc, int row, int k)
{
    const unsigned start = (unsigned)(desc & 0x3FFF) << 4, sbo = (unsigned)((desc >> 32) & 0x3FFF) << 4;
    const int layout = (int)(desc >> 62), base_off = (int)((desc >> 49) & 7);
    if (layout != 1 || base_off != 0)
        CT_RP_FAIL("descriptor layout %d base offset %d: the replay models 128-byte swizzle from aligned bases",
                   layout, base_off);
    if (start % 1024 >= 128)
        CT_RP_FAIL("descriptor start %u is not at row 0 of a swizzle pattern", start);
    return ct_rp_swz(start + (unsigned)(row / 8) * sbo + (unsigned)(row % 8) * 128 + (unsigned)k * (unsigned)sizeof(ct_elem),
                     128);
}

static inline float ct_rp_elem(unsigned at)
{
    ct_elem e;
    memcpy(&e, ct_rp_smem + at, sizeof e);
#if defined(CT_TF32) || defined(CT_TF32X3)   // tf32, or fp32 by 3xTF32 (big and small parts)
    // TF32 wgmma truncates: the kernel must have rounded every operand.
    unsigned u;
    memcpy(&u, &e, 4);
    if (u & 0x1fffu)
        CT_RP_FAIL("a wgmma operand at shared byte %u is not a TF32 value (0x%08x): unrounded or unwritten", at, u);
#endif
    return ct_ld(&e);
}

static inline void ct_rp_mma_run(const ct_rp_mma &op)
{
    const int tw = threadIdx.x % 128, w = tw / 32, g = tw % 32 / 4, t = tw % 4;
    for (int j = 0; j < op.n / 8; j++)
        for (int h = 0; h < 2; h++)
            for (int e = 0; e < 2; e++) {
                const int row = 16 * w + g + 8 * h, col = 8 * j + 2 * t + e;
                float s = 0.0f;
                for (int k = 0; k < 32 / (int)sizeof(ct_elem); k++)   // k16, or k8 with 4-byte elements
                    s += ct_rp_elem(ct_rp_desc_at(op.da, row, k)) * ct_rp_elem(ct_rp_desc_at(op.db, col, k));
                op.d[4 * j + 2 * h + e] += s;
            }
    std::lock_guard<std::mutex> l(ct_rp_mu);
    auto it = ct_rp_pends.find(op.key);
    if (it != ct_rp_pends.end() && --it->second.left == 0)
        ct_rp_pends.erase(it);
}

static inline void ct_rp_wgmma(float *d, int n, unsigned long long da, unsigned long long db)
{
    ct_rp_mma op{d, n, da, db, {(int)(threadIdx.x / 128), ct_rp_seq++}};
    const unsigned a0 = ct_rp_desc_at(da, 0, 0) & ~1023u, b0 = ct_rp_desc_at(db, 0, 0) & ~1023u;
    {
        std::lock_guard<std::mutex> l(ct_rp_mu);
        auto it = ct_rp_pends.find(op.key);
        if (it == ct_rp_pends.end())
            ct_rp_pends[op.key] = ct_rp_pend{{a0, b0}, {a0 + 8 * 1024, b0 + (unsigned)(n / 8) * 1024}, 128};
    }
    ct_rp_open.push_back(op);
}

static inline void ct_rp_wg_commit()
{
    ct_rp_groups.push_back(ct_rp_open);
    ct_rp_open.clear();
}

// The 32 threads of this thread's warp meet (an instruction .sync.aligned
// completes for the whole warp at once).
static inline void ct_rp_warp_sync()
{
    static std::mutex mu;
    static std::map<unsigned, std::barrier<> *> bars;
    std::barrier<> *b;
    {
        std::lock_guard<std::mutex> l(mu);
        auto &p = bars[threadIdx.x / 32];
        if (!p)
            p = new std::barrier<>(32);
        b = p;
    }
    b->arrive_and_wait();
}

// wgmma.wait_group n: every committed group but the newest n retires now,
// for the whole warp before any of its threads goes on.
static inline void ct_rp_wg_wait(int n)
{
    while ((int)ct_rp_groups.size() > n) {
        for (const ct_rp_mma &op : ct_rp_groups.front())
            ct_rp_mma_run(op);
        ct_rp_groups.erase(ct_rp_groups.begin());
    }
    ct_rp_warp_sync();
}
#endif
