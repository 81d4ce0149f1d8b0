// A5's predicate moves (docs/intrinsics/a5-vreg.md, "Predicate loads,
// stores, packs"): plds/psts between UB and a predicate register, ppack and
// punpack between halves of predicates. A predicate is 256 bits, one per
// byte lane of a vector register.
#include <ptosim/cce_a5.hpp>

#include "../repeat.hpp"
#include "records.hpp"

#include <cstring>
#include <string>

namespace ptosim::cce::a5 {
namespace {
using namespace ptosim::cce::detail;

constexpr int kBits = kVL;
constexpr int kBytes = kBits / 8;
bool bit(const uint8_t* b, int i) { return (b[i >> 3] >> (i & 7) & 1) != 0; }
void set_bit(uint8_t* b, int i, bool on) {
    if (on) b[i >> 3] = static_cast<uint8_t>(b[i >> 3] | (1u << (i & 7)));
}
const char* dist_name(PDist d) { return d == PDist::Norm ? "NORM" : d == PDist::Us ? "US" : d == PDist::Ds ? "DS" : "PK"; }
}  // namespace

void pload(const SourceLoc& loc, Pred& dst, uint64_t ub, PDist how) {
    Core& c = core();
    if (how == PDist::Pk) fault(loc, "plds takes NORM, US or DS (PK is a store distribution)");
    const uint64_t bytes = how == PDist::Us ? kBytes / 2 : how == PDist::Ds ? 2 * kBytes : kBytes;
    check_local(c, Space::UB, ub, bytes, (std::string("plds ") + dist_name(how) + " src").c_str(), loc);
    OpRecord r = vector_record("plds", loc);
    r.bytes = bytes;
    r.read(Space::UB, ub, bytes);
    dispatch(c, r);
    const uint8_t* src = c.mem[static_cast<int>(Space::UB)] + ub;
    Pred out{};
    for (int i = 0; i < kBits; ++i) {
        const bool on = how == PDist::Norm ? bit(src, i) : how == PDist::Us ? bit(src, i / 2) : bit(src, 2 * i);
        set_bit(out.b, i, on);
    }
    dst = out;
}

void pstore(const SourceLoc& loc, const Pred& src, uint64_t ub, PDist how) {
    Core& c = core();
    if (how == PDist::Us || how == PDist::Ds) fault(loc, "psts takes NORM or PK (US and DS are load distributions)");
    const uint64_t bytes = how == PDist::Pk ? kBytes / 2 : kBytes;
    check_local(c, Space::UB, ub, bytes, (std::string("psts ") + dist_name(how) + " dst").c_str(), loc);
    OpRecord r = vector_record("psts", loc);
    r.bytes = bytes;
    r.write(Space::UB, ub, bytes);
    dispatch(c, r);
    uint8_t out[kBytes] = {};
    for (int i = 0; i < int(bytes) * 8; ++i) set_bit(out, i, how == PDist::Norm ? bit(src.b, i) : bit(src.b, 2 * i));
    std::memcpy(c.mem[static_cast<int>(Space::UB)] + ub, out, bytes);
}

void ppack(const SourceLoc& loc, const char* op, bool unpack, bool higher, Pred& dst, const Pred& src) {
    OpRecord r = vector_record(op, loc);
    dispatch(core(), r);
    Pred out{};
    const int half = kBits / 2;
    for (int i = 0; i < half; ++i) {
        if (unpack) {
            // Bit i of the chosen half, twice.
            const bool on = bit(src.b, (higher ? half : 0) + i);
            set_bit(out.b, 2 * i, on);
            set_bit(out.b, 2 * i + 1, on);
        } else {
            // The even bits, packed into the chosen half.
            set_bit(out.b, (higher ? half : 0) + i, bit(src.b, 2 * i));
        }
    }
    dst = out;
}

}  // namespace ptosim::cce::a5
