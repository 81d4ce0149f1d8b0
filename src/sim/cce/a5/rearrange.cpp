// A5's interleaves (docs/intrinsics/a5-vreg.md, "Interleaves"): vintlv and
// vdintlv over two vector registers, pintlv_b* and pdintlv_b* over two
// predicates. One call rearranges both registers whole.
#include <ptosim/cce_a5.hpp>

#include "../repeat.hpp"
#include "records.hpp"

#include <cstring>

namespace ptosim::cce::a5 {
namespace {
using namespace ptosim::cce::detail;

OpRecord record(const char* op, const SourceLoc& loc, uint64_t bytes) {
    OpRecord r = vector_record(op, loc);
    r.bytes = bytes;
    return r;
}
bool bit(const uint8_t* b, int i) { return (b[i >> 3] >> (i & 7) & 1) != 0; }
void set_bit(uint8_t* b, int i, bool on) {
    if (on) b[i >> 3] = static_cast<uint8_t>(b[i >> 3] | (1u << (i & 7)));
}
}  // namespace

void vinterleave(const SourceLoc& loc, const char* op, bool deinterleave, int elem, VReg& d0, VReg& d1, const VReg& s0,
                 const VReg& s1) {
    dispatch(core(), record(op, loc, 2 * kVL));
    // The two sources as one sequence of 2*VL bytes, and the result likewise.
    uint8_t in[2 * kVL], out[2 * kVL];
    std::memcpy(in, s0.b, kVL);
    std::memcpy(in + kVL, s1.b, kVL);
    const int n = kVL / elem;  // elements in one register
    for (int i = 0; i < n; ++i) {
        if (deinterleave) {
            // Even elements of the sequence to d0, odd ones to d1.
            std::memcpy(out + i * elem, in + 2 * i * elem, elem);
            std::memcpy(out + kVL + i * elem, in + (2 * i + 1) * elem, elem);
        } else {
            // s0[i], s1[i] side by side.
            std::memcpy(out + 2 * i * elem, s0.b + i * elem, elem);
            std::memcpy(out + (2 * i + 1) * elem, s1.b + i * elem, elem);
        }
    }
    std::memcpy(d0.b, out, kVL);
    std::memcpy(d1.b, out + kVL, kVL);
}

void pinterleave(const SourceLoc& loc, const char* op, bool deinterleave, int elem, Pred& d0, Pred& d1, const Pred& s0,
                 const Pred& s1) {
    dispatch(core(), record(op, loc, 0));
    constexpr int kBits = kVL;  // bits in a predicate
    uint8_t in[2 * kBits / 8], out[2 * kBits / 8] = {};
    std::memcpy(in, s0.b, kBits / 8);
    std::memcpy(in + kBits / 8, s1.b, kBits / 8);
    const int n = kBits / elem;  // groups of `elem` bits in one predicate
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < elem; ++k) {
            if (deinterleave) {
                set_bit(out, i * elem + k, bit(in, 2 * i * elem + k));
                set_bit(out, kBits + i * elem + k, bit(in, (2 * i + 1) * elem + k));
            } else {
                set_bit(out, 2 * i * elem + k, bit(s0.b, i * elem + k));
                set_bit(out, (2 * i + 1) * elem + k, bit(s1.b, i * elem + k));
            }
        }
    std::memcpy(d0.b, out, kBits / 8);
    std::memcpy(d1.b, out + kBits / 8, kBits / 8);
}

}  // namespace ptosim::cce::a5

namespace ptosim::cce::a5 {

void vselect_index(const SourceLoc& loc, int elem, VReg& dst, const VReg& src, const VReg& idx) {
    dispatch(core(), [&] {
        OpRecord r = vector_record("vselr", loc);
        r.bytes = kVL;
        return r;
    }());
    const int n = kVL / elem;
    VReg out;
    for (int i = 0; i < n; ++i) {
        uint64_t k = 0;
        std::memcpy(&k, idx.b + i * elem, elem);
        // An index past the register wraps (chosen: not documented).
        std::memcpy(out.b + i * elem, src.b + (k % uint64_t(n)) * elem, elem);
    }
    dst = out;
}

}  // namespace ptosim::cce::a5

namespace ptosim::cce::a5 {

void vpack(const SourceLoc& loc, const char* op, bool unpack, bool higher, int src_elem, bool is_signed, VReg& dst,
           const VReg& src) {
    OpRecord r = vector_record(op, loc);
    r.bytes = kVL;
    dispatch(core(), r);
    VReg out;
    std::memset(out.b, 0, kVL);
    const int n = kVL / src_elem;
    if (!unpack) {
        // Element i's low half to byte (higher ? VL/2 : 0) + i * src_elem / 2.
        const int h = src_elem / 2, base = higher ? kVL / 2 : 0;
        for (int i = 0; i < n; ++i) std::memcpy(out.b + base + i * h, src.b + i * src_elem, h);
    } else {
        // Element i of the chosen half to a slot twice as wide.
        const int first = higher ? n / 2 : 0;
        for (int i = 0; i < n / 2; ++i) {
            const uint8_t* e = src.b + (first + i) * src_elem;
            std::memcpy(out.b + i * 2 * src_elem, e, src_elem);
            const bool neg = is_signed && (e[src_elem - 1] & 0x80) != 0;
            std::memset(out.b + i * 2 * src_elem + src_elem, neg ? 0xff : 0, src_elem);
        }
    }
    dst = out;
}

}  // namespace ptosim::cce::a5
