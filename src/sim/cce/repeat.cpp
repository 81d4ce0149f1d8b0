// The mask plan, bounds and record shared by the vector intrinsics
// (docs/intrinsics/vector.md, "Repeats, strides and the mask").
#include "repeat.hpp"

#include <string>

namespace ptosim::cce::detail {

Plan plan(const Core& c, uint32_t repeat, int widest_bytes) {
    Plan p;
    p.per_repeat = static_cast<uint32_t>(kRepeatBytes) / widest_bytes;
    const VectorState& v = c.vec;
    p.counter = v.counter;
    if (p.counter) {
        // Counter mode: the mask's low word is the number of elements; the
        // instruction's repeat operand is not used.
        p.count = v.mask[0];
        p.repeats = static_cast<uint32_t>((p.count + p.per_repeat - 1) / p.per_repeat);
        p.any = p.count > 0;
        p.last_slot = p.any ? static_cast<uint32_t>((p.count - 1) % p.per_repeat) : 0;
        return p;
    }
    p.mask[0] = v.mask[0];
    p.mask[1] = v.mask[1];
    p.repeats = repeat;
    for (uint32_t j = p.per_repeat; j-- > 0;)
        if (p.active(0, j)) {
            p.last_slot = j;
            p.any = repeat > 0;
            break;
        }
    return p;
}

Plan first_slots(uint32_t repeat, int widest_bytes, uint32_t slots) {
    Plan p;
    p.per_repeat = static_cast<uint32_t>(kRepeatBytes) / widest_bytes;
    for (uint32_t j = 0; j < std::min(slots, p.per_repeat); ++j) {
        const uint32_t bit = p.per_repeat > 128 ? j / 2 : j;
        p.mask[bit >> 6] |= uint64_t{1} << (bit & 63);
    }
    p.repeats = repeat;
    p.last_slot = slots > 0 ? std::min(slots, p.per_repeat) - 1 : 0;
    p.any = repeat > 0 && slots > 0;
    return p;
}

Plan unmasked(uint32_t repeat, int widest_bytes) {
    Plan p;
    p.per_repeat = static_cast<uint32_t>(kRepeatBytes) / widest_bytes;
    p.mask[0] = p.mask[1] = ~uint64_t{0};
    p.repeats = repeat;
    p.last_slot = p.per_repeat - 1;
    p.any = repeat > 0;
    return p;
}

Access record_span(const Core& c, uint32_t repeats, uint64_t base, uint64_t pitch, uint64_t last, const char* op,
                   const char* role, const SourceLoc& loc) {
    if (repeats == 0) return {Space::UB, 0, base, 0};
    const uint64_t bytes = uint64_t(repeats - 1) * pitch + last;
    check_local(c, Space::UB, base, bytes, op, role, loc);
    return {Space::UB, 0, base, bytes};
}

Access span(const Core& c, const Plan& p, const Operand& o, const char* op, const char* role, const SourceLoc& loc) {
    if (!p.any) return {Space::UB, 0, o.base, 0};
    uint64_t end = o.at(p.repeats - 1, p.last_slot) + o.size;
    // Normal mode: every repeat has the same highest active slot, so a repeat
    // with a small mask and a repeat stride below eight blocks ends where its
    // last active slot does. Counter mode: every repeat but the last is full.
    if (p.repeats > 1) end = std::max(end, o.at(p.repeats - 2, p.counter ? p.per_repeat - 1 : p.last_slot) + o.size);
    check_local(c, Space::UB, o.base, end - o.base, op, role, loc);
    return {Space::UB, 0, o.base, end - o.base};
}

OpRecord vector_record(const char* op, Dt d, const Plan& p, const SourceLoc& loc) {
    OpRecord r;
    r.op = op;
    r.pipe = Pipe::V;
    r.dtype = to_string(d);
    r.loc = loc;
    r.elements = p.counter ? p.count : uint64_t(p.repeats) * p.per_repeat;
    r.bytes = r.elements * size_of(d);
    r.flops = r.elements;
    return r;
}

}  // namespace ptosim::cce::detail
