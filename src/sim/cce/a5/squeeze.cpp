// A5's squeeze (vsqz) and the AR-addressed store stream it feeds (vstur,
// vstar, sprclr, sprsts); semantics and sources in
// docs/intrinsics/a5-squeeze.md.
#include <ptosim/cce_a5.hpp>

#include "../repeat.hpp"
#include "records.hpp"

#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

namespace ptosim::cce::a5 {
namespace {
constexpr int kSprAr = 74;  // SPR_AR, the number pto-isa and asc-devkit give it

// A core's squeeze state: AR, the byte offset vstur stores at (a special
// register of the core, kept across kernels: pto-isa clears it with sprclr
// before each stream), and the byte count the last vsqz with MODE_STORED
// left for the next vstur (`pending`: not consumed yet).
struct SqueezeState {
    uint64_t ar = 0;
    uint32_t count = 0;
    bool pending = false;
};
std::mutex state_mutex;
std::unordered_map<const Core*, SqueezeState> state_of;

template <class F>
auto with_state(const Core& c, F&& f) {
    std::lock_guard<std::mutex> lock(state_mutex);
    return f(state_of[&c]);
}

void check_spr(const SourceLoc& loc, const char* op, int spr) {
    if (spr != kSprAr)
        fault(loc, std::string(op) + " of special register " + std::to_string(spr) +
                       ": ptosim simulates SPR_AR (74) only, the register vsqz and vstur use");
}
}  // namespace

void vsqueeze(const SourceLoc& loc, VReg& dst, const VReg& src, int elem, const Pred& mask, bool store) {
    Core& c = core();
    OpRecord r = vector_record("vsqz", loc);
    r.bytes = kVL;
    dispatch(c, r);
    VReg out{};
    int n = 0;
    for (int i = 0; i < kVL / elem; ++i)
        if (mask.lane(i * elem)) std::memcpy(out.b + elem * n++, src.b + elem * i, elem);
    dst = out;
    if (!store) return;
    const bool was_pending = with_state(c, [&](SqueezeState& s) {
        const bool before = s.pending;
        s.count = uint32_t(n * elem);
        s.pending = true;
        return before;
    });
    // Documented (Ascend C Squeeze, STORE_REG): a stored squeeze and the
    // vstur that consumes its count must alternate; the device deadlocks
    // otherwise, so ptosim stops there instead of guessing.
    if (was_pending)
        fault(loc, "vsqz with MODE_STORED while the count of the previous stored vsqz has not been consumed: "
                   "each stored vsqz must be followed by the vstur that stores it before the next one");
}

void vstore_squeezed(const SourceLoc& loc, const VReg& src, uint64_t ub, bool post_update) {
    Core& c = core();
    bool pending = false;
    uint32_t bytes = 0;
    uint64_t ar = 0;
    with_state(c, [&](SqueezeState& s) {
        pending = s.pending;
        bytes = s.count;
        ar = s.ar;
        return 0;
    });
    if (!pending)
        fault(loc, "vstur without a count to store: vstur writes the bytes the last vsqz with MODE_STORED "
                   "counted; issue vsqz(dst, src, mask, MODE_STORED) before each vstur");
    const uint64_t at = ub + ar;
    OpRecord r = vector_record("vstur", loc);
    if (bytes > 0) {
        check_local(c, Space::UB, at, bytes, "vstur dst (base + AR)", loc);
        r.bytes = bytes;
        r.write(Space::UB, at, bytes);
    }
    dispatch(c, r);
    if (bytes > 0) std::memcpy(c.mem[static_cast<int>(Space::UB)] + at, src.b, bytes);
    with_state(c, [&](SqueezeState& s) {
        s.pending = false;
        if (post_update) s.ar += bytes;
        return 0;
    });
}

void spr_clear(const SourceLoc& loc, int spr) {
    check_spr(loc, "sprclr", spr);
    Core& c = core();
    dispatch(c, vector_record("sprclr", loc));
    with_state(c, [](SqueezeState& s) {
        s.ar = 0;
        return 0;
    });
}

void spr_store(const SourceLoc& loc, int spr, uint64_t ub) {
    check_spr(loc, "sprsts", spr);
    Core& c = core();
    const uint32_t value = uint32_t(with_state(c, [](SqueezeState& s) { return s.ar; }));
    check_local(c, Space::UB, ub, sizeof value, "sprsts dst", loc);
    OpRecord r = vector_record("sprsts", loc);
    r.bytes = sizeof value;
    r.write(Space::UB, ub, sizeof value);
    dispatch(c, r);
    std::memcpy(c.mem[static_cast<int>(Space::UB)] + ub, &value, sizeof value);
}

}  // namespace ptosim::cce::a5
