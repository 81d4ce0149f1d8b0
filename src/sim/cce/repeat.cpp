// The mask plan, bounds and record shared by the vector intrinsics
// (docs/intrinsics/vector.md, "Repeats, strides and the mask").
#include "repeat.hpp"

#include <string>

namespace ptosim::cce::detail {

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

}  // namespace ptosim::cce::detail
