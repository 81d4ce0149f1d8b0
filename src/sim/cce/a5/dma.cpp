// A5's DMA between GM and UB (copy_gm_to_ubuf_align_v2,
// copy_ubuf_to_gm_align_v2) and its loop registers
// (docs/intrinsics/a5-vreg.md, "DMA").
#include <ptosim/sdma.hpp>
#include <ptosim/cce_a5.hpp>

#include "../repeat.hpp"

#include <mutex>
#include <string>
#include <unordered_map>

namespace ptosim::cce::a5 {
namespace {
using namespace ptosim::cce::detail;

// The loop registers of one core: [0] GM->UB, [1] UB->GM, [2] GM->L1; each
// the sizes (loop2 << 21 | loop1) and the strides of loop 1 and loop 2
// (local bytes << 40 | GM bytes). They are the core's, kept across kernels as
// the device keeps them; the reset value is one iteration of each loop.
// l1_pad: the pad value set_pad_val_outtol1 set (reset 0).
struct Loops {
    uint64_t reg[3][3] = {{uint64_t{1} << 21 | 1, 0, 0}, {uint64_t{1} << 21 | 1, 0, 0}, {uint64_t{1} << 21 | 1, 0, 0}};
    uint64_t l1_pad = 0;
};
std::mutex loops_mutex;
std::unordered_map<const Core*, Loops> loops_of;

Loops loops(const Core& c) {
    std::lock_guard<std::mutex> lock(loops_mutex);
    return loops_of[&c];
}

struct Walk {
    uint64_t n1, n2, gm1, gm2, ub1, ub2;
};
Walk walk(const Loops& l, int dir) {
    const uint64_t* r = l.reg[dir];
    constexpr uint64_t low40 = (uint64_t{1} << 40) - 1;
    // Loop 1's register holds its GM stride (low 40 bits) and UB stride (above
    // them), loop 2's likewise.
    return {r[0] & 0x1FFFFF, (r[0] >> 21) & 0x3FFFFF, r[1] & low40, r[2] & low40, r[1] >> 40, r[2] >> 40};
}


// Runs f(gm_offset, ub_offset) for every burst of the two loops, loop 2
// outermost; returns the span each side covers.
template <class F>
void each_burst(const Walk& w, const DmaV2& d, F&& f) {
    for (uint64_t j = 0; j < w.n2; ++j)
        for (uint64_t i = 0; i < w.n1; ++i)
            for (uint32_t b = 0; b < d.n; ++b)
                f(j * w.gm2 + i * w.gm1 + b * d.gm_stride, j * w.ub2 + i * w.ub1 + uint64_t(b) * d.ub_stride);
}
// One side of the transfer as the record's runs (burst_runs): d.n bursts
// that side's stride apart, in the two outer loops.
Runs side_runs(const Walk& w, const DmaV2& d, uint64_t run, bool local) {
    return local ? burst_runs(run, {{w.n2, w.ub2}, {w.n1, w.ub1}, {d.n, d.ub_stride}})
                 : burst_runs(run, {{w.n2, w.gm2}, {w.n1, w.gm1}, {d.n, d.gm_stride}});
}
// check_gm of every burst, in the order each_burst visits them: the bursts
// of one iteration of the outer loops at once (check_gm_bursts: one look up
// when they lie in one allocation, each burst on its own otherwise).
void check_bursts(const Walk& w, const DmaV2& d, const uint8_t* gm, const char* op, const SourceLoc& loc) {
    for (uint64_t j = 0; j < w.n2; ++j)
        for (uint64_t i = 0; i < w.n1; ++i) check_gm_bursts(gm + j * w.gm2 + i * w.gm1, d.n, d.gm_stride, d.len, op, loc);
}
}  // namespace

void set_dma_loop(const SourceLoc& loc, const char* op, bool to_ub, int which, uint64_t value) {
    set_dma_loop(loc, op, to_ub ? DmaDir::GmToUb : DmaDir::UbToGm, which, value);
}

void set_dma_loop(const SourceLoc& loc, const char* op, DmaDir dir, int which, uint64_t value) {
    Core& c = core();
    dispatch(c, detail::dma_record(op, Pipe::S, loc, 0));
    std::lock_guard<std::mutex> lock(loops_mutex);
    loops_of[&c].reg[static_cast<int>(dir)][which] = value;
}

void set_l1_pad_value(const SourceLoc& loc, uint64_t value) {
    Core& c = core();
    dispatch(c, detail::dma_record("set_pad_val_outtol1", Pipe::S, loc, 0));
    std::lock_guard<std::mutex> lock(loops_mutex);
    loops_of[&c].l1_pad = value;
}

namespace {
// GM -> a local buffer (UB or L1) in bursts over the two outer loops. With
// the data select bit (`d.pad`), each burst is followed by `right_pad`
// elements of the pad value and then filled up to its 32-byte boundary with
// it, the pad value's low `elem` bytes an element (chosen: pto-isa's TLOAD
// pads a tile's row this way, and its PADMAX/PADMIN testcases check the
// padded columns).
void copy_gm_to_local_v2(const SourceLoc& loc, const char* op, Space space, DmaDir dir, uint64_t dst,
                         const void* gm, const DmaV2& d, uint32_t right_pad) {
    Core& c = core();
    const Loops l = loops(c);
    const Walk w = walk(l, static_cast<int>(dir));
    const int elem = d.elem > 0 ? d.elem : 1;
    const auto padded_end = [&](uint64_t u) {
        return d.pad ? (u + d.len + uint64_t(right_pad) * elem + 31) / 32 * 32 : u + d.len;
    };
    uint64_t local_end = 0, gm_end = 0, moved = 0;
    // A padded burst ends at a 32-byte boundary: its length in UB is the
    // same for every burst when the bursts start 32-byte aligned.
    const uint64_t local_run = padded_end(0);
    bool same_runs = true;
    const auto* src = static_cast<const uint8_t*>(gm);
    each_burst(w, d, [&](uint64_t g, uint64_t u) {
        local_end = std::max(local_end, padded_end(u));
        gm_end = std::max(gm_end, g + d.len);
        moved += d.len;
        same_runs = same_runs && padded_end(u) - u == local_run;
    });
    check_bursts(w, d, src, op, loc);
    if (moved == 0) return;
    check_local(c, space, dst, local_end, op, "dst", loc);
    OpRecord r = detail::dma_record(op, Pipe::MTE2, loc, moved);
    if (same_runs) r.write(Access{space, 0, dst, local_end}, side_runs(w, d, local_run, true));
    else r.write(space, dst, local_end);
    r.read(Access{Space::GM, 0, reinterpret_cast<uintptr_t>(gm), gm_end}, side_runs(w, d, d.len, false));
    dispatch(c, r);
    uint8_t* base = c.mem[static_cast<int>(space)] + dst;
    const uint64_t pad_val = space == Space::L1 ? l.l1_pad : c.vec.pad_val;
    each_burst(w, d, [&](uint64_t g, uint64_t u) {
        std::memcpy(base + u, src + g, d.len);
        for (uint64_t at = u + d.len; at < padded_end(u); ++at)
            base[at] = static_cast<uint8_t>(pad_val >> (8 * ((at - u) % uint64_t(elem))));
    });
}
}  // namespace

void copy_gm_to_ub_v2(const SourceLoc& loc, uint64_t ub, const void* gm, const DmaV2& d) {
    copy_gm_to_local_v2(loc, "copy_gm_to_ubuf_align_v2", Space::UB, DmaDir::GmToUb, ub, gm, d, 0);
}

void copy_gm_to_l1_v2(const SourceLoc& loc, uint64_t l1, const void* gm, const DmaV2& d, uint32_t right_pad) {
    copy_gm_to_local_v2(loc, "copy_gm_to_cbuf_align_v2", Space::L1, DmaDir::GmToL1, l1, gm, d, right_pad);
}

void copy_ub_to_gm_v2(const SourceLoc& loc, void* gm, uint64_t ub, const DmaV2& d) {
    Core& c = core();
    const char* op = "copy_ubuf_to_gm_align_v2";
    const Walk w = walk(loops(c), 1);
    uint64_t ub_end = 0, gm_end = 0, moved = 0;
    auto* dst = static_cast<uint8_t*>(gm);
    each_burst(w, d, [&](uint64_t g, uint64_t u) {
        ub_end = std::max(ub_end, u + d.len);
        gm_end = std::max(gm_end, g + d.len);
        moved += d.len;
    });
    check_bursts(w, d, dst, op, loc);
    if (moved == 0) return;
    check_local(c, Space::UB, ub, ub_end, op, "src", loc);
    OpRecord r = detail::dma_record(op, Pipe::MTE3, loc, moved);
    r.read(Access{Space::UB, 0, ub, ub_end}, side_runs(w, d, d.len, true));
    r.write(Access{Space::GM, 0, reinterpret_cast<uintptr_t>(gm), gm_end}, side_runs(w, d, d.len, false));
    // set_atomic_add: the store adds into GM, in the type set_atomic_<type>
    // chose, under the atomic lock (the A2A3 form's rule).
    const int atomic = c.vec.atomic_add ? (c.vec.atomic_type ? c.vec.atomic_type : 1) : 0;
    r.atomic = atomic != 0;
    dispatch(c, r);
    const uint8_t* base = c.mem[static_cast<int>(Space::UB)] + ub;
    {
        GmAtomicScope scope(c, atomic != 0);
        each_burst(w, d, [&](uint64_t g, uint64_t u) {
            if (atomic == 0) std::memcpy(dst + g, base + u, d.len);
            else detail::with_type(static_cast<Dt>(atomic - 1), [&](auto t) { add_into<decltype(t)>(dst + g, base + u, d.len); });
        });
    }
    // A store to an SDMA doorbell starts the queue's transfers.
    sdma::on_gm_store(c, loc, dst, gm_end);
}

}  // namespace ptosim::cce::a5
