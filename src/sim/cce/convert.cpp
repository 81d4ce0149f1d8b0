// vconv_<from>2<to><rounding> (docs/intrinsics/convert.md): the element
// types' conversion in the rounding the suffix names, over the shared repeat
// loop. A repeat covers 256 bytes of the wider type.
#include "repeat.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

namespace ptosim::cce {
namespace {
using namespace detail;

// x rounded to an integral value in the rounding the suffix names; no suffix
// on a lossy conversion rounds to nearest even (Ascend C's CAST_NONE).
double round_integral(double x, Round r) {
    switch (r) {
    case Round::Away: return std::round(x);
    case Round::Floor: return std::floor(x);
    case Round::Ceil: return std::ceil(x);
    case Round::Trunc: return std::trunc(x);
    default: return std::nearbyint(x);  // the host's default mode: to nearest, ties to even
    }
}

// The 16-bit float next to h away from zero (up = true) or toward it.
template <class H>
H step(H h, bool away) {
    return H::from_bits(static_cast<uint16_t>(away ? h.bits + 1 : h.bits - 1));
}

// A finite double as a 16-bit float in rounding r (exact below 2^-24
// relative, which every float source is).
template <class H>
H to_f16(double x, Round r) {
    if (std::isnan(x)) return H(static_cast<float>(x));
    // The double rounded to odd as float: one nearest-even rounding to H from
    // it is H's correct nearest-even rounding of x.
    float f = static_cast<float>(x);
    if (std::isfinite(f) && static_cast<double>(f) != x) {
        if (std::fabs(static_cast<double>(f)) > std::fabs(x)) f = std::nextafter(f, 0.0f);
        f = std::bit_cast<float>(std::bit_cast<uint32_t>(f) | 1u);
    }
    H h(f);
    const double back = static_cast<double>(static_cast<float>(h));
    if (back == x || std::isinf(x)) return h;
    const bool above = std::fabs(back) > std::fabs(x);  // h lies farther from zero than x
    switch (r) {
    case Round::Trunc: return above ? step(h, false) : h;
    case Round::Floor: return (x > 0) == above ? (x > 0 ? step(h, false) : h) : (x > 0 ? h : step(h, true));
    case Round::Ceil: return (x > 0) == above ? (x > 0 ? h : step(h, false)) : (x > 0 ? step(h, true) : h);
    case Round::Odd: {
        H t = above ? step(h, false) : h;
        return H::from_bits(static_cast<uint16_t>(t.bits | 1u));
    }
    case Round::Away: {
        // Nearest with ties away from zero: only a tie differs from nearest-even.
        const H other = above ? step(h, false) : step(h, true);
        const double ob = static_cast<double>(static_cast<float>(other));
        if (std::fabs(ob - x) == std::fabs(back - x)) return std::fabs(ob) > std::fabs(back) ? other : h;
        return h;
    }
    default: return h;
    }
}

float to_f32(double x, Round r) {
    if (!std::isfinite(x)) return static_cast<float>(x);
    float f = static_cast<float>(x);
    if (static_cast<double>(f) == x) return f;
    const bool above = std::fabs(static_cast<double>(f)) > std::fabs(x);
    const float toward = std::nextafter(f, 0.0f), away = std::nextafter(f, f > 0 ? INFINITY : -INFINITY);
    switch (r) {
    case Round::Trunc: return above ? toward : f;
    case Round::Floor: return x > 0 ? (above ? toward : f) : (above ? f : away);
    case Round::Ceil: return x > 0 ? (above ? f : away) : (above ? toward : f);
    case Round::Odd: {
        const float t = above ? toward : f;
        return std::bit_cast<float>(std::bit_cast<uint32_t>(t) | 1u);
    }
    case Round::Away: {
        const float other = above ? toward : away;
        if (std::fabs(double(other) - x) == std::fabs(double(f) - x)) return std::fabs(other) > std::fabs(f) ? other : f;
        return f;
    }
    default: return f;
    }
}

template <class To>
To convert(double x, bool from_float, Round r, bool wrap = false) {
    if constexpr (std::is_same_v<To, float>) {
        // f32 -> f32 with a rounding suffix rounds to an integral value.
        return to_f32(from_float && r != Round::None ? round_integral(x, r) : x, r);
    } else if constexpr (is_float_v<To>) {
        return to_f16<To>(x, r);
    } else {
        // Float to integer rounds, then saturates; NaN gives 0. With CTRL[59]
        // set (wrap) the rounded value keeps its low bits instead, and NaN
        // and infinities give 0 (pto-isa's TCVT and its test data).
        if (std::isnan(x)) return To(0);
        const double v = from_float ? round_integral(x, r) : x;
        if (wrap) {
            if (!std::isfinite(v) || std::fabs(v) >= 9223372036854775808.0) return To(0);
            return static_cast<To>(static_cast<uint64_t>(static_cast<int64_t>(v)));
        }
        if (v <= static_cast<double>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
        if (v >= static_cast<double>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
        return static_cast<To>(v);
    }
}

}  // namespace

void vconv(const SourceLoc& loc, const char* op, Dt from, Dt to, Round rnd, uint64_t dst, uint64_t src, const Shape& sh) {
    Core& c = core();
    const int fs = size_of(from), ts = size_of(to);
    const Plan p = plan(c, sh.repeat, std::max(fs, ts));
    const Operand od{dst, sh.dst_blk, sh.dst_rep, ts}, os{src, sh.src0_blk, sh.src0_rep, fs};
    OpRecord r = vector_record(op, to, p, loc);
    r.src_dtype = to_string(from);
    r.write(Space::UB, od.base, span(c, p, od, op, "dst", loc).bytes);
    r.read(Space::UB, os.base, span(c, p, os, op, "src", loc).bytes);
    dispatch(c, r);
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    const bool float_src = from == Dt::F32 || from == Dt::F16 || from == Dt::BF16;
    // CTRL[59]: 0 saturates a conversion to integer, 1 keeps the low bits.
    const bool wrap = (c.vec.ctrl >> 59 & 1) != 0;
    with_type(from, [&](auto f) {
        using F = decltype(f);
        with_type(to, [&](auto t) {
            using T = decltype(t);
            each_element_staged<T>(
                p,
                [&](uint32_t rr, uint32_t j) -> T {
                    const F v = load<F>(ub, os.at(rr, j));
                    if constexpr (!is_float_v<F> && !is_float_v<T>) {
                        // Integer narrowing, exactly (an int64 does not fit a double).
                        const int64_t w = static_cast<int64_t>(v);
                        return wrap ? static_cast<T>(w)
                                    : static_cast<T>(std::clamp<int64_t>(w, std::numeric_limits<T>::min(),
                                                                         std::numeric_limits<T>::max()));
                    } else {
                        double x;
                        if constexpr (is_float_v<F>) x = static_cast<double>(static_cast<float>(v));
                        else x = static_cast<double>(v);
                        return convert<T>(x, float_src, rnd, wrap);
                    }
                },
                [&](uint32_t rr, uint32_t j, T v) { store(ub, od.at(rr, j), v); });
        });
    });
}

void vconv_s4(const SourceLoc& loc, const char* op, bool to_s4, Round rnd, uint64_t dst, uint64_t src, const Shape& sh) {
    Core& c = core();
    const Plan p = plan(c, sh.repeat, 2);  // a repeat: 128 halves, 64 bytes of int4
    // The int4 side: 64 elements a 32-byte block, the element's byte and nibble.
    const uint64_t s4_base = to_s4 ? dst : src;
    const uint16_t s4_blk = to_s4 ? sh.dst_blk : sh.src0_blk, s4_rep = to_s4 ? sh.dst_rep : sh.src0_rep;
    auto nibble_at = [&](uint32_t r, uint32_t j) {
        return s4_base + (uint64_t(r) * s4_rep + uint64_t(j / 64) * s4_blk) * kBlock + (j % 64) / 2;
    };
    const Operand h = to_s4 ? Operand{src, sh.src0_blk, sh.src0_rep, 2} : Operand{dst, sh.dst_blk, sh.dst_rep, 2};
    OpRecord r = vector_record(op, to_s4 ? Dt::S8 : Dt::F16, p, loc);
    const Access s4 = record_span(c, p.repeats, s4_base, uint64_t(s4_rep) * kBlock, uint64_t(s4_blk) * kBlock + kBlock, op,
                                  to_s4 ? "dst" : "src", loc);
    const Access hs = span(c, p, h, op, to_s4 ? "src" : "dst", loc);
    if (to_s4) r.write(Space::UB, s4.offset, s4.bytes).read(Space::UB, hs.offset, hs.bytes);
    else r.write(Space::UB, hs.offset, hs.bytes).read(Space::UB, s4.offset, s4.bytes);
    dispatch(c, r);
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    each_element(p, [&](uint32_t rr, uint32_t j) {
        uint8_t& byte = ub[nibble_at(rr, j)];
        const int shift = (j % 2) * 4;
        if (to_s4) {
            // Rounded as the suffix says, then saturated to int4's [-8, 7].
            const int8_t v = std::clamp<int8_t>(
                convert<int8_t>(static_cast<double>(static_cast<float>(load<half>(ub, h.at(rr, j)))), true, rnd), -8, 7);
            byte = static_cast<uint8_t>((byte & ~(0xf << shift)) | ((v & 0xf) << shift));
        } else {
            const int v = ((byte >> shift) & 0xf) ^ 0x8;  // sign-extend the nibble
            store(ub, h.at(rr, j), half(static_cast<float>(v - 8)));
        }
    });
}

void vconv_deq(const SourceLoc& loc, uint64_t dst, uint64_t src, const Shape& sh) {
    Core& c = core();
    const Plan p = plan(c, sh.repeat, 4);
    const Operand od{dst, sh.dst_blk, sh.dst_rep, 2}, os{src, sh.src0_blk, sh.src0_rep, 4};
    OpRecord r = vector_record("vconv_deq", Dt::F16, p, loc);
    r.src_dtype = to_string(Dt::S32);
    r.write(Space::UB, dst, span(c, p, od, "vconv_deq", "dst", loc).bytes);
    r.read(Space::UB, src, span(c, p, os, "vconv_deq", "src", loc).bytes);
    dispatch(c, r);
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    const double scale = static_cast<float>(half::from_bits(static_cast<uint16_t>(c.vec.deqscale)));
    // The product rounds once to half, to nearest even (not documented).
    each_element_staged<half>(
        p, [&](uint32_t rr, uint32_t j) { return from_double<half>(static_cast<double>(load<int32_t>(ub, os.at(rr, j))) * scale); },
        [&](uint32_t rr, uint32_t j, half v) { store(ub, od.at(rr, j), v); });
}

void set_deqscale(const SourceLoc& loc, uint16_t half_bits) {
    Core& c = core();
    OpRecord r;
    r.op = "set_deqscale";
    r.pipe = Pipe::S;
    r.loc = loc;
    dispatch(c, r);
    c.vec.deqscale = half_bits;
}

void vreluconv(const SourceLoc& loc, const char* op, bool sub, Dt from, Dt to, uint64_t dst, uint64_t s0, uint64_t s1,
               const Shape& sh, bool high_half) {
    if (high_half) fault(loc, std::string(op) + " with h = 1 (the high-half packing) is not simulated by ptosim yet");
    Core& c = core();
    const int fs = size_of(from), ts = size_of(to);
    const Plan p = plan(c, sh.repeat, fs);
    const Operand od{dst, sh.dst_blk, sh.dst_rep, ts}, oa{s0, sh.src0_blk, sh.src0_rep, fs},
        ob{s1, sh.src1_blk, sh.src1_rep, fs};
    OpRecord r = vector_record(op, to, p, loc);
    r.src_dtype = to_string(from);
    r.write(Space::UB, dst, span(c, p, od, op, "dst", loc).bytes);
    r.read(Space::UB, s0, span(c, p, oa, op, "src0", loc).bytes);
    r.read(Space::UB, s1, span(c, p, ob, op, "src1", loc).bytes);
    dispatch(c, r);
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    with_type(from, [&](auto f) {
        using F = decltype(f);
        with_type(to, [&](auto t) {
            using T = decltype(t);
            each_element_staged<T>(
                p,
                [&](uint32_t rr, uint32_t j) -> T {
                    const double a = to_double(load<F>(ub, oa.at(rr, j))), b = to_double(load<F>(ub, ob.at(rr, j)));
                    // The sum or difference rounds to the source type first (an
                    // int16 one saturates), then the ReLU, then the conversion
                    // (not documented: the reference names the fused steps only).
                    double x;
                    if constexpr (is_float_v<F>) x = to_double(from_double<F>(sub ? a - b : a + b));
                    else x = std::clamp(sub ? a - b : a + b, double(std::numeric_limits<F>::min()), double(std::numeric_limits<F>::max()));
                    return convert<T>(std::max(x, 0.0), is_float_v<F>, Round::None);
                },
                [&](uint32_t rr, uint32_t j, T v) { store(ub, od.at(rr, j), v); });
        });
    });
}

}  // namespace ptosim::cce
