// vconv_<from>2<to><rounding> (docs/intrinsics/convert.md): the element
// types' conversion in the rounding the suffix names, over the shared repeat
// loop. A repeat covers 256 bytes of the wider type.
#include "element_ops.hpp"
#include "repeat.hpp"

#include <ptosim/numerics.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

namespace ptosim::cce {
using namespace detail;

namespace {
// float -> half to nearest even and half -> float over one contiguous run
// of each operand with nothing subscribed (light_run), source and
// destination apart: the row conversion the general path below runs a
// repeat at a time, over the whole run at once (each element converts on
// its own, so the bits are the same). pto-isa's TCVT converts a row per
// instruction. False: take the general path.
bool light_float_half(Core& c, const SourceLoc& loc, const char* op, bool to_half, uint64_t dst, uint64_t src,
                      const Shape& sh) {
    const int fs = to_half ? 4 : 2, ts = to_half ? 2 : 4;
    const uint64_t n = light_run<2>(c, sh, 4, {sh.dst_blk, sh.src0_blk}, {sh.dst_rep, sh.src0_rep}, {ts, fs}, {dst, src});
    if (n == 0) return false;
    if (!(dst + n * ts <= src || src + n * fs <= dst)) return false;
    pass_unrecorded(c, op, loc);
    uint8_t* const ub = c.mem[static_cast<int>(Space::UB)];
    if (to_half) float_to_half_row(reinterpret_cast<const float*>(ub + src), ub + dst, static_cast<int>(n));
    else half_row_to_float(ub + src, reinterpret_cast<float*>(ub + dst), static_cast<int>(n));
    return true;
}
}  // namespace

void vconv(const SourceLoc& loc, const char* op, Dt from, Dt to, Round rnd, uint64_t dst, uint64_t src, const Shape& sh) {
    Core& c = core();
    if (from == Dt::F32 && to == Dt::F16 && (rnd == Round::None || rnd == Round::Rint)) {
        if (light_float_half(c, loc, op, true, dst, src, sh)) return;
    } else if (from == Dt::F16 && to == Dt::F32 && rnd == Round::None) {
        if (light_float_half(c, loc, op, false, dst, src, sh)) return;
    }
    const int fs = size_of(from), ts = size_of(to);
    const Plan p = plan(c, sh.repeat, std::max(fs, ts));
    const Operand od{dst, sh.dst_blk, sh.dst_rep, ts}, os{src, sh.src0_blk, sh.src0_rep, fs};
    const Access dst_span = span(c, p, od, op, "dst", loc), src_span = span(c, p, os, op, "src", loc);
    if (!dispatch_unrecorded(c, op, loc)) {
        OpRecord r = vector_record(op, to, p, loc);
        r.src_dtype = to_string(from);
        r.write(Space::UB, od.base, dst_span.bytes);
        r.read(Space::UB, os.base, src_span.bytes);
        dispatch(c, r);
    }
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    // No byte the instruction writes is one it reads (the usual case): each
    // run converts straight into the destination, in element order.
    const bool apart = dst_span.offset + dst_span.bytes <= src_span.offset ||
                       src_span.offset + src_span.bytes <= dst_span.offset;
    const bool float_src = from == Dt::F32 || from == Dt::F16 || from == Dt::BF16;
    // CTRL[59]: 0 saturates a conversion to integer, 1 keeps the low bits.
    const bool wrap = (c.vec.ctrl >> 59 & 1) != 0;
    // Every source element is read before any is written (each_element_staged's
    // reason), run by run: a run is contiguous in both operands.
    const Adjoin adj{od.blk == 1 && os.blk == 1, false};
    const int widest = std::max(fs, ts);
    with_type(from, [&](auto f) {
        using F = decltype(f);
        with_type(to, [&](auto t) {
            using T = decltype(t);
            const auto one = [&](const F v) -> T {
                if constexpr (!is_float_v<F> && !is_float_v<T>) {
                    // Integer narrowing, exactly (an int64 does not fit a double).
                    const int64_t w = static_cast<int64_t>(v);
                    return wrap ? static_cast<T>(w)
                                : static_cast<T>(std::clamp<int64_t>(w, std::numeric_limits<T>::min(),
                                                                     std::numeric_limits<T>::max()));
                } else if constexpr (is_float_v<F> && is_float_v<T> && sizeof(F) < sizeof(T)) {
                    // Widening half/bfloat16 to float is exact: no rounding to do.
                    if (rnd == Round::None) return static_cast<float>(v);
                    return convert<T>(static_cast<double>(static_cast<float>(v)), true, rnd);
                } else if constexpr (std::is_same_v<F, float> && is_float_v<T> && sizeof(T) == 2) {
                    // Nearest even from a float is the 16-bit type's own rounding (to_f16's default).
                    if (rnd == Round::None || rnd == Round::Rint) return T(v);
                    return convert<T>(static_cast<double>(v), true, rnd);
                } else {
                    double x;
                    if constexpr (is_float_v<F>) x = static_cast<double>(static_cast<float>(v));
                    else x = static_cast<double>(v);
                    return convert<T>(x, float_src, rnd, wrap ? Overflow::Wrap : Overflow::Saturate);
                }
            };
            constexpr bool to_half = std::is_same_v<F, float> && std::is_same_v<T, half>;
            constexpr bool from_half = std::is_same_v<F, half> && std::is_same_v<T, float>;
            // float <-> half in nearest even (or exact): a run at a time through
            // the row conversions ptolab's own TCVT uses (F16C where the host
            // has it), bit-identical to `one` (numerics.hpp).
            const bool rows = (to_half && (rnd == Round::None || rnd == Round::Rint)) || (from_half && rnd == Round::None);
            if (apart) {
                each_run(p, widest, adj, [&](uint32_t rr, uint32_t j0, uint32_t n) {
                    const uint8_t* const from_bytes = ub + os.at(rr, j0);
                    uint8_t* const to_bytes = ub + od.at(rr, j0);
                    if constexpr (to_half) {
                        if (rows) return float_to_half_row(reinterpret_cast<const float*>(from_bytes), to_bytes, static_cast<int>(n));
                    } else if constexpr (from_half) {
                        if (rows) return half_row_to_float(from_bytes, reinterpret_cast<float*>(to_bytes), static_cast<int>(n));
                    }
                    // Each run converts into a local array, then one copy: with
                    // each element stored into UB inside the conversion loop the
                    // widening float-to-integer forms (fp16 -> int32, fp32 ->
                    // int64) left their destination unwritten, at -O1 as at -O3
                    // (CceConvert.WideningIntoBytesApartFromTheSource, pto-isa's
                    // tcvt testcase; docs/speed.md). A run is at most a repeat.
                    T buf[kRepeatBytes];
                    for (uint32_t e = 0; e < n; ++e) buf[e] = one(load<F>(from_bytes, e * sizeof(F)));
                    std::memcpy(to_bytes, buf, size_t(n) * sizeof(T));
                });
                return;
            }
            // The staging buffers are found once per instruction, not per run
            // (a thread_local's address costs a call in a shared library).
            thread_local std::vector<T> staged_buf;
            thread_local std::vector<float> row_buf;
            staged_buf.resize(size_t(p.repeats) * p.per_repeat);
            T* const staged = staged_buf.data();
            size_t k = 0;
            if (rows) {
                if constexpr (to_half) row_buf.resize(size_t(p.per_repeat) * p.repeats);
                float* const row = row_buf.data();
                each_run(p, widest, adj, [&](uint32_t rr, uint32_t j0, uint32_t n) {
                    const uint8_t* const from_bytes = ub + os.at(rr, j0);
                    if constexpr (to_half) {
                        std::memcpy(row, from_bytes, size_t(n) * sizeof(float));
                        float_to_half_row(row, reinterpret_cast<uint8_t*>(staged + k), static_cast<int>(n));
                    } else if constexpr (from_half) {
                        half_row_to_float(from_bytes, staged + k, static_cast<int>(n));
                    }
                    k += n;
                });
            } else {
                each_run(p, widest, adj, [&](uint32_t rr, uint32_t j0, uint32_t n) {
                    const uint8_t* const from_bytes = ub + os.at(rr, j0);
                    for (uint32_t e = 0; e < n; ++e) staged[k++] = one(load<F>(from_bytes, e * sizeof(F)));
                });
            }
            // A run is contiguous in the destination too: one copy, in element order.
            k = 0;
            each_run(p, widest, adj, [&](uint32_t rr, uint32_t j0, uint32_t n) {
                std::memcpy(ub + od.at(rr, j0), staged + k, size_t(n) * sizeof(T));
                k += n;
            });
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
