// Helpers shared by the vector families whose bodies work on whole tiles
// (reductions, layout, gather/scatter, rearrangements): one call that
// validates, records and dispatches an instruction's operands, the region
// fill, shape faults, and the element arithmetic these families agree on
// (NaN-propagating max/min, wrapping integers). A family's own rules stay in
// its header; what two families use lives here.
#pragma once
#include <pto/common/sim_support.hpp>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

namespace pto::ptosim_impl {

// Vector instructions take Vec (UB) tiles in row-major ND layout.
template <class T>
constexpr void check_vec_operand() {
    static_assert(T::Loc == TileType::Vec, "vector instructions take Vec (UB) tiles");
    static_assert(T::isRowMajor && !T::isBoxedLayout, "vector instructions take row-major ND tiles");
}

// Element-type predicates of the instructions' type lists.
template <class E, class... Ts>
constexpr bool one_of = (std::is_same_v<E, Ts> || ...);

template <class D, class... S>
constexpr bool same_elem = (std::is_same_v<D, S> && ...);

// Integer arithmetic runs unsigned so that signed overflow and the promotion
// of uint16 * uint16 to int wrap instead of being undefined behaviour.
template <class A>
inline A wrap_add(A a, A b) {
    if constexpr (std::is_integral_v<A>) {
        using U = std::make_unsigned_t<decltype(a + b)>;
        return static_cast<A>(static_cast<U>(a) + static_cast<U>(b));
    } else {
        return a + b;
    }
}
template <class A>
inline A wrap_sub(A a, A b) {
    if constexpr (std::is_integral_v<A>) {
        using U = std::make_unsigned_t<decltype(a - b)>;
        return static_cast<A>(static_cast<U>(a) - static_cast<U>(b));
    } else {
        return a - b;
    }
}
template <class A>
inline A wrap_mul(A a, A b) {
    if constexpr (std::is_integral_v<A>) {
        using U = std::make_unsigned_t<decltype(a * b)>;
        return static_cast<A>(static_cast<U>(a) * static_cast<U>(b));
    } else {
        return a * b;
    }
}

// A double-precision result as float, rounded to odd when the destination is
// a 16-bit float: the store's nearest-even rounding to 11 or 8 bits is then
// the single correct rounding of the double.
template <class D>
inline float from_double(double x) {
    float f = static_cast<float>(x);
    if constexpr (is_f16<D>) {
        if (std::isfinite(f) && static_cast<double>(f) != x) {
            if (std::fabs(static_cast<double>(f)) > std::fabs(x)) f = std::nextafter(f, 0.0f);
            uint32_t u;
            std::memcpy(&u, &f, 4);
            u |= 1u;
            std::memcpy(&f, &u, 4);
        }
    }
    return f;
}

}  // namespace pto::ptosim_impl

namespace pto::ptosim_impl::vop {

// True when no argument is a tile: the trailing arguments are events.
template <class... Ts>
constexpr bool events_only = !(is_tile_data_v<std::remove_cvref_t<Ts>> || ...);

namespace rd {
// Float max/min propagate NaN; on ties (including -0 vs +0) the earlier
// operand stays, so a reduction keeps its first extreme element.
template <class A>
inline bool is_nan(A a) {
    if constexpr (std::is_floating_point_v<A>) return a != a;
    else return false;
}
template <class A>
inline bool beats_max(A cur, A v) { return !is_nan(cur) && (is_nan(v) || v > cur); }
template <class A>
inline bool beats_min(A cur, A v) { return !is_nan(cur) && (is_nan(v) || v < cur); }
template <class A>
inline A max(A a, A b) { return beats_max(a, b) ? b : a; }
template <class A>
inline A min(A a, A b) { return beats_min(a, b) ? b : a; }
// Integers wrap (two's complement) without signed-overflow or promotion UB.
template <class A>
inline A add(A a, A b) { return wrap_add(a, b); }
template <class A>
inline A mul(A a, A b) { return wrap_mul(a, b); }
template <class A>
inline A sub(A a, A b) { return wrap_sub(a, b); }
}  // namespace rd

inline std::string shape_str(int r, int c) { return std::to_string(r) + "x" + std::to_string(c); }

template <class T>
inline bool same_valid(const T& t, int vr, int vc) { return t.GetValidRow() == vr && t.GetValidCol() == vc; }

[[noreturn]] inline void shape_fault(CallSite cs, const char* op, const std::string& what) {
    ptosim::fault(loc_of(cs), std::string(op) + ": " + what);
}

// A rule pto-isa documents (or asserts with PTO_ASSERT, which its release
// build compiles to nothing) but the device does not check: the instruction
// goes on as the release build runs on the device, and memcheck reports the
// call (docs/semantics.md, "Faults and reports").
inline void debug_contract(const SourceLoc& loc, const char* op, Pipe pipe, const std::string& what,
                           const std::string& release, const std::string& fix) {
    ptosim::Tolerated t;
    t.op = op;
    t.kind = "debug-only-contract";
    t.pipe = pipe;
    t.message = std::string(op) + " at " + loc.str() + ": " + what + "; pto-isa states this rule, but only its debug "
                "build checks it: " + release;
    t.fix = fix;
    ptosim::tolerate(loc, std::move(t));
}

// pto-isa's rule that `role`'s valid shape is run_r x run_c, the region its
// release build drives the loops with (`driver` says whose), checked only by
// PTO_ASSERT (docs/debug-contracts.md). The release build `verb`s `role` over
// that region whatever its own valid shape says, so ptosim does the same and
// reports the call. A region past `role`'s storage would take the access out
// of the tile into whatever the buffer holds next, which ptosim does not
// model: that stays a fault. `in_storage` overrides the row/column bound for
// operands whose storage the caller judges itself (A5's linear masks).
template <class T>
void region_contract(CallSite cs, const char* op, const T& t, const char* role, int run_r, int run_c,
                     const std::string& driver, const char* verb, const std::string& fix,
                     std::optional<bool> in_storage = std::nullopt) {
    const int vr = t.GetValidRow(), vc = t.GetValidCol();
    if (vr == run_r && vc == run_c) return;
    const std::string what = std::string(role) + "'s valid shape " + shape_str(vr, vc) + " differs from " +
                             shape_str(run_r, run_c) + " (" + driver + ")";
    const std::string runs = std::string(verb) + "s " + role + " over " + shape_str(run_r, run_c);
    if (!in_storage.value_or(run_r <= T::Rows && run_c <= T::Cols))
        shape_fault(cs, op, what + "; pto-isa's release build " + runs + ", past its " + shape_str(T::Rows, T::Cols) +
                                " storage, which ptosim does not model: " + fix);
    debug_contract(loc_of(cs), op, Pipe::V, what, "the release build " + runs + " and ignores its own valid shape", fix);
}

// Element (r, c) of a source tile, widened to compute_t.
template <class T>
struct in_view {
    const uint8_t* base;
    compute_t<typename T::DType> operator()(int r, int c) const {
        return widen(load_elem<typename T::DType>(at<T>(const_cast<uint8_t*>(base), r, c)));
    }
};

struct NoTmp {};

// Validates every operand, records the op on pipe V and dispatches it;
// returns the base of each destination and one view per source. A tmp tile
// is scratch the A2A3 implementation overwrites, so it is checked and
// recorded as written there; A5 ignores it.
template <class Tmp, class... Dsts, class... Src>
auto begin_op_n(CallSite cs, const char* op, uint64_t elements, Tmp* tmp, std::tuple<Dsts&...> dsts, Src&... src) {
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    auto bases = std::apply([&](auto&... d) { return std::array<uint8_t*, sizeof...(Dsts)>{tile_base(c, d, op, "destination", loc)...}; }, dsts);
    std::tuple<in_view<Src>...> views{in_view<Src>{tile_base(c, src, op, "source", loc)}...};
    OpRecord rec = make_record(op, Pipe::V, cs);
    (record_tile(rec, false, src), ...);
    if constexpr (!std::is_same_v<Tmp, NoTmp>) {
        if (!PTOSIM_TARGET_A5) {
            tile_base(c, *tmp, op, "tmp", loc, false);
            rec.write(space_of<Tmp>(), tmp->address(), tile_bytes<Tmp>());
        }
    }
    std::apply([&](auto&... d) { (record_tile(rec, true, d), ...); }, dsts);
    rec.elements = elements;
    rec.flops = elements;
    using FirstDst = std::remove_cvref_t<std::tuple_element_t<0, std::tuple<Dsts...>>>;
    rec.bytes = elements * sizeof(typename FirstDst::DType) * (sizeof...(Dsts) + sizeof...(Src));
    ptosim::dispatch(c, rec);
    return std::pair{bases, views};
}

template <class Tmp, class Dst, class... Src>
auto begin_op(CallSite cs, const char* op, uint64_t elements, Tmp* tmp, Dst& dst, Src&... src) {
    auto [bases, views] = begin_op_n(cs, op, elements, tmp, std::tuple<Dst&>{dst}, src...);
    return std::pair{bases[0], views};
}

template <class Dst, class V>
inline void put(uint8_t* d, int r, int c, V v) {
    store_elem(at<Dst>(d, r, c), narrow<typename Dst::DType>(v));
}

// dst(r, c) = g(r, c) over a vr x vc region.
template <class Dst, class G>
PTOSIM_VECTORIZE void fill_region(uint8_t* d, int vr, int vc, G g) {
    for (int r = 0; r < vr; ++r)
        for (int c = 0; c < vc; ++c) put<Dst>(d, r, c, g(r, c));
}

// One instruction's operands: each tile is validated and recorded as it is
// named, and the record is dispatched once all are named.
struct Op {
    CallSite cs;
    const char* name;
    Core& core;
    SourceLoc loc;
    OpRecord rec;
    Op(CallSite site, const char* op, Pipe pipe)
        : cs(site), name(op), core(ptosim::core()), loc(loc_of(site)), rec(make_record(op, pipe, site)) {}

    template <class T>
    uint8_t* tile(const T& t, const char* role, bool write) {
        uint8_t* p = tile_base(core, t, name, role, loc);
        record_tile(rec, write, t);
        return p;
    }
    void dispatch(uint64_t elements, uint64_t bytes) {
        rec.elements = elements;
        rec.flops = 0;
        rec.bytes = bytes;
        ptosim::dispatch(core, rec);
    }
    // Names the pipe too: which pipe these run on differs per target and mode.
    std::string who() const { return std::string(name) + " [" + ptosim::to_string(rec.pipe) + "]"; }
    [[noreturn]] void fault(const std::string& what) const { ptosim::fault(loc, who() + ": " + what); }
};

}  // namespace pto::ptosim_impl::vop
