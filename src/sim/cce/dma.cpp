// A2A3's DMA between GM and UB and within UB, in bursts with gaps, padding
// and the atomic store modes (docs/intrinsics/dma.md).
#include <ptosim/sdma.hpp>
#include "repeat.hpp"

#include <string>

namespace ptosim::cce {
namespace {
using namespace detail;

uint64_t round_up(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

// The pad value's low `bytes` bytes, repeated over `count` elements.
void pad(uint8_t* at, uint64_t pad_val, int bytes, uint32_t count) {
    for (uint32_t e = 0; e < count; ++e) std::memcpy(at + uint64_t(e) * bytes, &pad_val, bytes);
}


}  // namespace

void copy_gm_to_ub(const SourceLoc& loc, const char* op, uint64_t ub, const void* gm, const Burst& b, int elem_bytes,
                   bool align_form) {
    Core& c = core();
    // The _align forms count the GM side in bytes and the UB gap in blocks;
    // the plain form counts everything in 32-byte blocks.
    const uint64_t len = align_form ? b.len : uint64_t(b.len) * kBlock;
    const uint64_t src_pitch = len + (align_form ? b.src_gap : uint64_t(b.src_gap) * kBlock);
    const uint64_t lead = uint64_t(b.left_pad) * elem_bytes, tail = uint64_t(b.right_pad) * elem_bytes;
    const uint64_t dst_pitch = round_up(lead + len + tail, kBlock) + uint64_t(b.dst_gap) * kBlock;
    const uint64_t ub_bytes = b.n ? (b.n - 1) * dst_pitch + lead + len + tail : 0;
    const uint64_t gm_bytes = b.n ? (b.n - 1) * src_pitch + len : 0;
    check_local(c, Space::UB, ub, ub_bytes, op, "dst", loc);
    const auto* src = static_cast<const uint8_t*>(gm);
    check_gm_bursts(src, b.n, src_pitch, len, op, loc);
    OpRecord r = dma_record(op, Pipe::MTE2, loc, uint64_t(b.n) * len);
    r.write(Access{Space::UB, 0, ub, ub_bytes}, burst_runs(lead + len + tail, {{b.n, dst_pitch}}));
    r.read(Access{Space::GM, 0, reinterpret_cast<uintptr_t>(gm), gm_bytes}, burst_runs(len, {{b.n, src_pitch}}));
    dispatch(c, r);
    uint8_t* base = c.mem[static_cast<int>(Space::UB)] + ub;
    for (uint32_t i = 0; i < b.n; ++i) {
        uint8_t* d = base + i * dst_pitch;
        pad(d, c.vec.pad_val, elem_bytes, b.left_pad);
        std::memcpy(d + lead, src + i * src_pitch, len);
        pad(d + lead + len, c.vec.pad_val, elem_bytes, b.right_pad);
    }
}

void copy_ub_to_gm(const SourceLoc& loc, const char* op, void* gm, uint64_t ub, const Burst& b, int elem_bytes,
                   bool align_form) {
    Core& c = core();
    const uint64_t len = align_form ? b.len : uint64_t(b.len) * kBlock;
    const uint64_t src_pitch = round_up(len, kBlock) + uint64_t(b.src_gap) * kBlock;
    const uint64_t dst_pitch = len + (align_form ? b.dst_gap : uint64_t(b.dst_gap) * kBlock);
    const uint64_t ub_bytes = b.n ? (b.n - 1) * src_pitch + len : 0;
    const uint64_t gm_bytes = b.n ? (b.n - 1) * dst_pitch + len : 0;
    check_local(c, Space::UB, ub, ub_bytes, op, "src", loc);
    auto* dst = static_cast<uint8_t*>(gm);
    check_gm_bursts(dst, b.n, dst_pitch, len, op, loc);
    OpRecord r = dma_record(op, Pipe::MTE3, loc, uint64_t(b.n) * len);
    r.read(Access{Space::UB, 0, ub, ub_bytes}, burst_runs(len, {{b.n, src_pitch}}));
    r.write(Access{Space::GM, 0, reinterpret_cast<uintptr_t>(gm), gm_bytes}, burst_runs(len, {{b.n, dst_pitch}}));
    const int atomic = c.vec.atomic_add ? (c.vec.atomic_type ? c.vec.atomic_type : 1) : 0;
    r.atomic = atomic != 0;
    dispatch(c, r);
    const uint8_t* base = c.mem[static_cast<int>(Space::UB)] + ub;
    {
        GmAtomicScope scope(c, atomic != 0);
        for (uint32_t i = 0; i < b.n; ++i) {
            uint8_t* d = dst + i * dst_pitch;
            const uint8_t* s = base + i * src_pitch;
            if (atomic == 0) {
                std::memcpy(d, s, len);
            } else {
                detail::with_type(static_cast<Dt>(atomic - 1), [&](auto t) { detail::add_into<decltype(t)>(d, s, len); });
            }
        }
    }
    // A store to an SDMA doorbell starts the queue's transfers.
    sdma::on_gm_store(c, loc, dst, gm_bytes);
    (void)elem_bytes;
}

void copy_ub_to_ub(const SourceLoc& loc, const char* op, uint64_t dst, uint64_t src, const Burst& b) {
    Core& c = core();
    const uint64_t len = uint64_t(b.len) * kBlock;
    const uint64_t src_pitch = len + uint64_t(b.src_gap) * kBlock, dst_pitch = len + uint64_t(b.dst_gap) * kBlock;
    const uint64_t src_bytes = b.n ? (b.n - 1) * src_pitch + len : 0, dst_bytes = b.n ? (b.n - 1) * dst_pitch + len : 0;
    check_local(c, Space::UB, src, src_bytes, op, "src", loc);
    check_local(c, Space::UB, dst, dst_bytes, op, "dst", loc);
    OpRecord r = dma_record(op, Pipe::V, loc, uint64_t(b.n) * len);
    r.read(Access{Space::UB, 0, src, src_bytes}, burst_runs(len, {{b.n, src_pitch}}));
    r.write(Access{Space::UB, 0, dst, dst_bytes}, burst_runs(len, {{b.n, dst_pitch}}));
    dispatch(c, r);
    uint8_t* ubm = c.mem[static_cast<int>(Space::UB)];
    for (uint32_t i = 0; i < b.n; ++i) std::memmove(ubm + dst + i * dst_pitch, ubm + src + i * src_pitch, len);
}

void set_atomic(const SourceLoc& loc, const char* op, int add, int type) {
    Core& c = core();
    dispatch(c, dma_record(op, Pipe::S, loc, 0));
    if (add >= 0) c.vec.atomic_add = add != 0;
    if (type >= 0) c.vec.atomic_type = static_cast<uint8_t>(type + 1);
}

}  // namespace ptosim::cce
