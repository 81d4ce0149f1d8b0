// A2A3's compares and selects (docs/intrinsics/compare.md): vcmp_* into the
// compare mask register, vcmpv_*/vcmpvs_* into a bit mask in UB, vsel in its
// three select modes, set_cmpmask. Bit j of a repeat's mask belongs to
// element slot j; a repeat's bits take per_repeat / 8 bytes.
#include "repeat.hpp"

#include <string>

namespace ptosim::cce {
namespace {
using namespace detail;

// IEEE comparisons: an unordered pair (a NaN on either side) is only "not equal".
template <class T>
bool holds(Cmp c, T a, T b) {
    const double x = to_double(a), y = to_double(b);
    switch (c) {
    case Cmp::Eq: return x == y;
    case Cmp::Ne: return !(x == y);
    case Cmp::Lt: return x < y;
    case Cmp::Le: return x <= y;
    case Cmp::Gt: return x > y;
    default: return x >= y;
    }
}

inline bool bit_of(const uint8_t* bytes, uint32_t i) { return (bytes[i / 8] >> (i % 8) & 1) != 0; }
inline void put_bit(uint8_t* bytes, uint32_t i, bool v) {
    const uint8_t m = static_cast<uint8_t>(1u << (i % 8));
    bytes[i / 8] = v ? static_cast<uint8_t>(bytes[i / 8] | m) : static_cast<uint8_t>(bytes[i / 8] & ~m);
}

// Records and bounds-checks a compare into UB bits; returns its plan.
Plan bits_into_ub(Core& c, const SourceLoc& loc, const char* op, Dt d, uint64_t dst, const Operand* srcs, int n,
                  uint32_t repeat) {
    const Plan p = unmasked(repeat, size_of(d));
    OpRecord r = vector_record(op, d, p, loc);
    const uint64_t per = p.per_repeat / 8;
    r.write(Space::UB, dst, record_span(c, p.repeats, dst, per, per, op, "dst", loc).bytes);
    for (int i = 0; i < n; ++i) r.read(Space::UB, srcs[i].base, span(c, p, srcs[i], op, i ? "src1" : "src0", loc).bytes);
    dispatch(c, r);
    return p;
}

}  // namespace

void vcmp(const SourceLoc& loc, const char* op, Cmp cmp, Dt d, uint64_t s0, uint64_t s1, const Shape& sh) {
    Core& c = core();
    const int size = size_of(d);
    const Plan p = plan(c, sh.repeat, size);
    const Operand a{s0, sh.src0_blk, sh.src0_rep, size}, b{s1, sh.src1_blk, sh.src1_rep, size};
    OpRecord r = vector_record(op, d, p, loc);
    r.read(Space::UB, s0, span(c, p, a, op, "src0", loc).bytes);
    r.read(Space::UB, s1, span(c, p, b, op, "src1", loc).bytes);
    dispatch(c, r);
    const uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    auto* reg = reinterpret_cast<uint8_t*>(c.vec.cmpmask);
    // A masked-off slot leaves its register bit as it was; with several
    // repeats, each overwrites the bits of the one before.
    with_type(d, [&](auto t) {
        using T = decltype(t);
        each_element(p, [&](uint32_t rr, uint32_t j) {
            put_bit(reg, j, holds<T>(cmp, load<T>(ub, a.at(rr, j)), load<T>(ub, b.at(rr, j))));
        });
    });
}

void vcmpv(const SourceLoc& loc, const char* op, Cmp cmp, Dt d, uint64_t dst, uint64_t s0, uint64_t s1, const Shape& sh) {
    Core& c = core();
    const int size = size_of(d);
    const Operand srcs[2] = {{s0, sh.src0_blk, sh.src0_rep, size}, {s1, sh.src1_blk, sh.src1_rep, size}};
    const Plan p = bits_into_ub(c, loc, op, d, dst, srcs, 2, sh.repeat);
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    with_type(d, [&](auto t) {
        using T = decltype(t);
        each_element(p, [&](uint32_t rr, uint32_t j) {
            const bool v = holds<T>(cmp, load<T>(ub, srcs[0].at(rr, j)), load<T>(ub, srcs[1].at(rr, j)));
            put_bit(ub + dst, rr * p.per_repeat + j, v);
        });
    });
}

void vcmpvs(const SourceLoc& loc, const char* op, Cmp cmp, Dt d, uint64_t dst, uint64_t s0, uint64_t scalar,
            const Shape& sh) {
    Core& c = core();
    const int size = size_of(d);
    const Operand src{s0, sh.src0_blk, sh.src0_rep, size};
    const Plan p = bits_into_ub(c, loc, op, d, dst, &src, 1, sh.repeat);
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    with_type(d, [&](auto t) {
        using T = decltype(t);
        T s;
        std::memcpy(&s, &scalar, sizeof(T));
        each_element(p, [&](uint32_t rr, uint32_t j) {
            put_bit(ub + dst, rr * p.per_repeat + j, holds<T>(cmp, load<T>(ub, src.at(rr, j)), s));
        });
    });
}

void vsel(const SourceLoc& loc, Dt d, uint64_t dst, uint64_t s0, uint64_t s1, const Shape& sh, int mode) {
    Core& c = core();
    const char* op = "vsel";
    if (mode < 0 || mode > 2) fault(loc, "vsel: select mode " + std::to_string(mode) + " is not 0, 1 or 2");
    const int size = size_of(d);
    const Plan p = plan(c, sh.repeat, size);
    const Operand o{dst, sh.dst_blk, sh.dst_rep, size}, a{s0, sh.src0_blk, sh.src0_rep, size},
        b{s1, sh.src1_blk, sh.src1_rep, size};
    // Modes 1 and 2 read their bits from UB, a repeat's worth after another,
    // whatever src1's strides say: from src1 (mode 1) or from the address
    // the compare mask register holds (mode 2).
    const uint64_t bits_at = mode == 1 ? s1 : (c.vec.cmpmask[0] & 0xffffffffu);
    const uint64_t per = p.per_repeat / 8;
    OpRecord r = vector_record(op, d, p, loc);
    r.write(Space::UB, dst, span(c, p, o, op, "dst", loc).bytes);
    r.read(Space::UB, s0, span(c, p, a, op, "src0", loc).bytes);
    if (mode != 1) r.read(Space::UB, s1, span(c, p, b, op, "src1", loc).bytes);
    if (mode != 0) r.read(Space::UB, bits_at, record_span(c, p.repeats, bits_at, per, per, op, "mask", loc).bytes);
    dispatch(c, r);
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    const auto* reg = reinterpret_cast<const uint8_t*>(c.vec.cmpmask);
    with_type(d, [&](auto t) {
        using T = decltype(t);
        T constant;
        std::memcpy(&constant, reg, sizeof(T));  // mode 1: the register's low bits
        each_element(p, [&](uint32_t rr, uint32_t j) {
            const bool first = mode == 0 ? bit_of(reg, j) : bit_of(ub + bits_at, rr * p.per_repeat + j);
            const T other = mode == 1 ? constant : load<T>(ub, b.at(rr, j));
            store(ub, o.at(rr, j), first ? load<T>(ub, a.at(rr, j)) : other);
        });
    });
}

void set_cmpmask(const SourceLoc& loc, uint64_t src) {
    Core& c = core();
    check_local(c, Space::UB, src, 16, "set_cmpmask src", loc);
    OpRecord r;
    r.op = "set_cmpmask";
    r.pipe = Pipe::V;
    r.loc = loc;
    r.bytes = 16;
    r.read(Space::UB, src, 16);
    dispatch(c, r);
    std::memcpy(c.vec.cmpmask, c.mem[static_cast<int>(Space::UB)] + src, 16);
}

}  // namespace ptosim::cce
