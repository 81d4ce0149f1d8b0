// A2A3's gathers (docs/intrinsics/gather.md): vgather reads UB through a
// list of byte offsets; vreducev2 keeps the elements a bit pattern selects,
// packed, and get_rsvd_cnt reports how many it kept.
#include "repeat.hpp"

#include <string>

namespace ptosim::cce {
namespace {
using namespace detail;

// vreducev2's built-in patterns 1..7, bit k of a group of four elements
// (the element kept when set); pto-isa's MaskPattern spells them P0101,
// P1010, P0001, P0010, P0100, P1000, P1111.
constexpr uint8_t kPatterns[8] = {0, 0x5, 0xa, 0x1, 0x2, 0x4, 0x8, 0xf};
}  // namespace

void vgather(const SourceLoc& loc, Dt d, uint64_t dst, uint64_t offsets, uint64_t base, uint16_t dst_rep, uint32_t repeat) {
    Core& c = core();
    const int size = size_of(d);
    const Plan p = plan(c, repeat, size);
    // The destination of a repeat is contiguous; the offsets are 32-bit, N a
    // repeat, one after another.
    const Operand o{dst, 1, dst_rep, size}, off{offsets, 1, static_cast<uint16_t>(p.per_repeat * 4 / kBlock), 4};
    OpRecord r = vector_record("vgather", d, p, loc);
    r.write(Space::UB, dst, span(c, p, o, "vgather", "dst", loc).bytes);
    r.read(Space::UB, offsets, span(c, p, off, "vgather", "offsets", loc).bytes);
    // The gathered addresses are only known from the data: each is checked
    // as it is read, and the record names the whole of UB above `base`.
    r.read(Space::UB, base, c.mem_size[static_cast<int>(Space::UB)] - std::min(base, c.mem_size[static_cast<int>(Space::UB)]));
    dispatch(c, r);
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    each_element(p, [&](uint32_t rr, uint32_t j) {
        const uint64_t at = base + load<uint32_t>(ub, off.at(rr, j));
        check_local(c, Space::UB, at, size, "vgather src", loc);
        std::memmove(ub + o.at(rr, j), ub + at, size);
    });
}

void vreducev2(const SourceLoc& loc, Dt d, uint64_t dst, uint64_t s0, uint64_t s1, uint32_t repeat, uint16_t s0_blk,
               int pattern, uint16_t s0_rep, uint16_t s1_rep) {
    Core& c = core();
    const char* op = "vreducev2";
    if (pattern < 0 || pattern > 7) fault(loc, "vreducev2: pattern mode " + std::to_string(pattern) + " is not 0..7");
    const int size = size_of(d);
    // Counter mode counts the elements of each repeat (Ascend C's GatherMask,
    // reduceMode): the repeat operand still counts the repeats. Normal mode
    // takes every slot of a repeat; the mask register is not applied.
    Plan p = unmasked(repeat, size);
    if (c.vec.counter) {
        p.per_repeat = static_cast<uint32_t>(c.vec.mask[0]);
        p.last_slot = p.per_repeat ? p.per_repeat - 1 : 0;
        p.any = repeat > 0 && p.per_repeat > 0;
    }
    const Operand a{s0, s0_blk, s0_rep, size};
    const uint64_t bits_per_repeat = uint64_t(s1_rep) * kBlock;
    OpRecord r = vector_record(op, d, p, loc);
    r.elements = uint64_t(repeat) * p.per_repeat;
    r.read(Space::UB, s0, span(c, p, a, op, "src0", loc).bytes);
    if (pattern == 0)
        r.read(Space::UB, s1, record_span(c, repeat, s1, bits_per_repeat, (p.per_repeat + 7) / 8, op, "src1", loc).bytes);
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    // What is written depends on the pattern's bits: count it first.
    uint64_t kept = 0;
    auto keeps = [&](uint32_t rr, uint32_t e) {
        if (pattern) return (kPatterns[pattern] >> (e % 4) & 1) != 0;
        return (ub[s1 + rr * bits_per_repeat + e / 8] >> (e % 8) & 1) != 0;
    };
    for (uint32_t rr = 0; rr < p.repeats; ++rr)
        for (uint32_t e = 0; e < p.per_repeat; ++e) kept += keeps(rr, e);
    check_local(c, Space::UB, dst, kept * size, "vreducev2 dst", loc);
    r.write(Space::UB, dst, kept * size);
    dispatch(c, r);
    uint64_t n = 0;
    for (uint32_t rr = 0; rr < p.repeats; ++rr)
        for (uint32_t e = 0; e < p.per_repeat; ++e)
            if (keeps(rr, e)) std::memmove(ub + dst + n++ * size, ub + a.at(rr, e), size);
    c.vec.rsvd_cnt = kept;
}

void vgatherb(const SourceLoc& loc, Dt d, uint64_t dst, uint64_t offsets, uint64_t base, uint16_t dst_rep,
              uint16_t dst_blk, uint32_t repeat) {
    Core& c = core();
    // Whole blocks, the mask not applied (reference): the unmasked plan's
    // per-element addressing lands each block where its strides say.
    const Plan p = unmasked(repeat, size_of(d));
    const Operand o{dst, dst_blk, dst_rep, size_of(d)};
    OpRecord r = vector_record("vgatherb", d, p, loc);
    r.write(Space::UB, dst, span(c, p, o, "vgatherb", "dst", loc).bytes);
    r.read(Space::UB, offsets, record_span(c, repeat, offsets, 32, 32, "vgatherb", "offsets", loc).bytes);
    r.read(Space::UB, base, c.mem_size[static_cast<int>(Space::UB)] - std::min(base, c.mem_size[static_cast<int>(Space::UB)]));
    dispatch(c, r);
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    for (uint32_t rr = 0; rr < repeat; ++rr) {
        uint8_t blocks[8][kBlock];
        for (uint32_t b = 0; b < 8; ++b) {
            const uint64_t at = base + load<uint32_t>(ub, offsets + (uint64_t(rr) * 8 + b) * 4);
            check_local(c, Space::UB, at, kBlock, "vgatherb src", loc);
            std::memcpy(blocks[b], ub + at, kBlock);
        }
        for (uint32_t b = 0; b < 8; ++b) std::memcpy(ub + o.at(rr, b * (kBlock / o.size)), blocks[b], kBlock);
    }
}

uint64_t get_rsvd_cnt() { return core().vec.rsvd_cnt; }

}  // namespace ptosim::cce
