// The shared machinery of the repeat-addressed vector intrinsics: the mask
// (normal and counter mode), the block/repeat-stride addressing, the bounds
// of what an instruction touches and its dispatch record. Every vector
// family's body is a per-element lambda over `each_element`
// (docs/intrinsics/vector.md).
#pragma once
#include <ptosim/cce.hpp>
#include <ptosim/core.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace ptosim::cce::detail {

// An atomic-add store of `bytes` from UB into GM, element by element of T
// (set_atomic_add with the type set_atomic_<type> chose).
template <class T>
void add_into(uint8_t* gm, const uint8_t* ub, uint64_t bytes) {
    for (uint64_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
        T a, b;
        std::memcpy(&a, gm + i, sizeof(T));
        std::memcpy(&b, ub + i, sizeof(T));
        T s;
        if constexpr (std::is_integral_v<T>) s = static_cast<T>(static_cast<int64_t>(a) + static_cast<int64_t>(b));
        else s = T(static_cast<float>(a) + static_cast<float>(b));
        std::memcpy(gm + i, &s, sizeof(T));
    }
}

constexpr uint64_t kBlock = 32;     // bytes in a block
constexpr uint64_t kRepeatBytes = 256;  // a repeat covers eight blocks of the widest operand

template <class F>
decltype(auto) with_type(Dt d, F&& f) {
    switch (d) {
    case Dt::F32: return f(float{});
    case Dt::F16: return f(half{});
    case Dt::BF16: return f(bfloat16_t{});
    case Dt::S32: return f(int32_t{});
    case Dt::U32: return f(uint32_t{});
    case Dt::S16: return f(int16_t{});
    case Dt::U16: return f(uint16_t{});
    case Dt::S8: return f(int8_t{});
    case Dt::U8: return f(uint8_t{});
    case Dt::S64: return f(int64_t{});
    default: return f(uint64_t{});
    }
}

// One operand: where it starts in UB and how it steps.
struct Operand {
    uint64_t base;
    uint16_t blk, rep;
    int size;  // element bytes
    // Slot j's block is j / (32 / size) and its byte in the block
    // (j % (32 / size)) * size: with size a power of two up to 8, the high
    // and low bits of j * size, without a division.
    uint64_t at(uint32_t r, uint32_t j) const {
        const uint64_t b = uint64_t(j) * static_cast<uint32_t>(size);
        return base + (uint64_t(r) * rep + (b / kBlock) * blk) * kBlock + b % kBlock;
    }
};

// Which elements of a repeat-addressed instruction run: `repeats` repeats of
// `per_repeat` element slots, the mask deciding each slot.
struct Plan {
    uint32_t repeats = 0;
    uint32_t per_repeat = 0;
    uint64_t count = 0;  // counter mode: elements in all
    bool counter = false;
    uint64_t mask[2] = {0, 0};
    uint32_t last_slot = 0;  // the highest active slot of the last repeat
    bool any = false;

    bool active(uint32_t r, uint32_t j) const {
        if (counter) return uint64_t(r) * per_repeat + j < count;
        // 8-bit elements: 256 slots share the 128 mask bits, two per bit
        // (not documented; docs/intrinsics/vector.md, "Mask").
        const uint32_t bit = per_repeat > 128 ? j / 2 : j;
        return (mask[bit >> 6] >> (bit & 63) & 1) != 0;
    }
    // Normal mode with every slot of a repeat active (a full mask, what most
    // instructions run under): a test of the mask words, no loop.
    [[gnu::always_inline]] bool all_slots() const {
        if (counter) return false;
        const uint32_t bits = per_repeat > 128 ? 128 : per_repeat;
        const uint64_t lo = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
        const uint64_t hi = bits > 64 ? (bits >= 128 ? ~uint64_t{0} : (uint64_t{1} << (bits - 64)) - 1) : 0;
        return (mask[0] & lo) == lo && (mask[1] & hi) == hi;
    }
    bool block_full(uint32_t r, uint32_t j0, uint32_t n) const {
        if (counter) return uint64_t(r) * per_repeat + j0 + n <= count;
        // One mask bit a slot and the block's bits in one word: one test.
        if (per_repeat <= 128 && n < 64 && (j0 & 63) + n <= 64) {
            const uint64_t need = (uint64_t{1} << n) - 1;
            return (mask[j0 >> 6] >> (j0 & 63) & need) == need;
        }
        for (uint32_t j = j0; j < j0 + n; ++j)
            if (!active(r, j)) return false;
        return true;
    }
};

// The plan of an instruction under the core's mask register. Inline, as
// the spans and the record below: they run once per intrinsic call, and
// pto-isa's headers issue many small ones (docs/speed.md).
[[gnu::always_inline]] inline Plan plan(const Core& c, uint32_t repeat, int widest_bytes) {
    Plan p;
    p.per_repeat = static_cast<uint32_t>(kRepeatBytes) / widest_bytes;
    const VectorState& v = c.vec;
    p.counter = v.counter;
    if (p.counter) {
        // Counter mode: the mask's low word is the number of elements; the
        // instruction's repeat operand is not used.
        // per_repeat is a power of two (256 / 1, 2, 4 or 8): shifts, not
        // 64-bit divisions.
        const int shift = std::countr_zero(p.per_repeat);
        p.count = v.mask[0];
        p.repeats = static_cast<uint32_t>((p.count >> shift) + ((p.count & (p.per_repeat - 1)) != 0));
        p.any = p.count > 0;
        p.last_slot = p.any ? static_cast<uint32_t>((p.count - 1) & (p.per_repeat - 1)) : 0;
        return p;
    }
    p.mask[0] = v.mask[0];
    p.mask[1] = v.mask[1];
    p.repeats = repeat;
    if (p.all_slots()) {
        p.last_slot = p.per_repeat - 1;
        p.any = repeat > 0;
        return p;
    }
    for (uint32_t j = p.per_repeat; j-- > 0;)
        if (p.active(0, j)) {
            p.last_slot = j;
            p.any = repeat > 0;
            break;
        }
    return p;
}
// Normal mode with only the first `slots` slots of each of `repeat` repeats
// active, whatever the mask register holds.
Plan first_slots(uint32_t repeat, int widest_bytes, uint32_t slots);
// Every slot of `repeat` repeats, whatever the mask register holds: the
// instructions the reference documents as taking no mask (vcmpv, vcmpvs).
Plan unmasked(uint32_t repeat, int widest_bytes);

// check_local of UB bytes, the passing case inline (check_local builds the
// message and faults).
[[gnu::always_inline]] inline void check_ub(const Core& c, uint64_t offset, uint64_t bytes, const char* op, const char* role,
                     const SourceLoc& loc) {
    const uint64_t size = c.mem_size[static_cast<int>(Space::UB)];
    if (size != 0 && offset <= size && bytes <= size - offset) [[likely]]
        return;
    check_local(c, Space::UB, offset, bytes, op, role, loc);
}

// Bytes [base, base + (repeats - 1) * pitch + last) of a destination that
// steps by a whole record per repeat (reductions, bit masks); faults past UB.
inline Access record_span(const Core& c, uint32_t repeats, uint64_t base, uint64_t pitch, uint64_t last, const char* op,
                          const char* role, const SourceLoc& loc) {
    if (repeats == 0) return {Space::UB, 0, base, 0};
    const uint64_t bytes = uint64_t(repeats - 1) * pitch + last;
    check_ub(c, base, bytes, op, role, loc);
    return {Space::UB, 0, base, bytes};
}

// Faults when the operand's bytes under the plan leave UB; returns its span.
[[gnu::always_inline]] inline Access span(const Core& c, const Plan& p, const Operand& o, const char* op, const char* role,
                   const SourceLoc& loc) {
    if (!p.any) return {Space::UB, 0, o.base, 0};
    uint64_t end = o.at(p.repeats - 1, p.last_slot) + o.size;
    // Normal mode: every repeat has the same highest active slot, so a repeat
    // with a small mask and a repeat stride below eight blocks ends where its
    // last active slot does. Counter mode: every repeat but the last is full.
    if (p.repeats > 1) end = std::max(end, o.at(p.repeats - 2, p.counter ? p.per_repeat - 1 : p.last_slot) + o.size);
    check_ub(c, o.base, end - o.base, op, role, loc);
    return {Space::UB, 0, o.base, end - o.base};
}

// Runs f(r, j) for every active element slot, in order.
template <class F>
void each_element(const Plan& p, F&& f) {
    for (uint32_t r = 0; r < p.repeats; ++r)
        for (uint32_t j = 0; j < p.per_repeat; ++j)
            if (p.active(r, j)) f(r, j);
}

// Whether the operands' blocks follow each other within a repeat (block
// stride 1) and their repeats follow each other too (repeat stride 8 blocks,
// 256 bytes), for every operand: then runs of active slots across blocks (and
// repeats) are contiguous in every operand and each_run joins them.
struct Adjoin {
    bool blocks = false, repeats = false;
};
inline Adjoin adjoin(std::initializer_list<const Operand*> ops) {
    Adjoin a{true, true};
    for (const Operand* o : ops) {
        a.blocks = a.blocks && o->blk == 1;
        a.repeats = a.repeats && o->blk == 1 && uint64_t(o->rep) * kBlock == kRepeatBytes;
    }
    return a;
}

// Runs f(r, j0, n) over the active slots in order, as runs of consecutive
// slots that are contiguous in every operand of `elem_bytes`-wide elements
// (Operand::at(r, j0) + k * size for k < n), so a body loops over plain
// arrays. A run never crosses a block unless `adj` says the blocks (and
// repeats) adjoin; a partly masked block gives one run per stretch of
// active slots. The order of the elements is each_element's.
template <class F>
void each_run(const Plan& p, int elem_bytes, Adjoin adj, F&& f) {
    const uint32_t per_block = static_cast<uint32_t>(kBlock) / static_cast<uint32_t>(elem_bytes);
    const uint32_t blocks = p.per_repeat / per_block;
    uint32_t run_r = 0, run_j = 0, run_n = 0;
    uint64_t run_end = 0;  // the slot after the pending run, counted from the first repeat's first
    const auto emit = [&](uint32_t r, uint32_t j0, uint32_t n) {
        const uint64_t start = uint64_t(r) * p.per_repeat + j0;
        if (run_n > 0 && start == run_end && (r == run_r ? adj.blocks : adj.repeats)) {
            run_n += n;
        } else {
            if (run_n > 0) f(run_r, run_j, run_n);
            run_r = r, run_j = j0, run_n = n;
        }
        run_end = start + n;
    };
    // Normal mode: the mask is the same in every repeat, so which blocks are
    // whole is worked out once.
    uint32_t whole = 0;
    if (p.all_slots() && blocks < 32) whole = (1u << blocks) - 1;
    else if (!p.counter)
        for (uint32_t b = 0; b < blocks && b < 32; ++b)
            if (p.block_full(0, b * per_block, per_block)) whole |= 1u << b;
    // Every slot active up to the end (a full mask, or counter mode) and
    // adjoining blocks: the runs the loop below would join, given at once
    // (one per repeat, or one in all when the repeats adjoin too) instead
    // of block by block.
    const bool all = p.counter || (blocks < 32 && whole == (1u << blocks) - 1);
    if (all && adj.blocks) {
        const uint64_t slots = p.counter ? std::min<uint64_t>(p.count, uint64_t(p.repeats) * p.per_repeat)
                                         : uint64_t(p.repeats) * p.per_repeat;
        if (adj.repeats) {
            if (slots > 0) f(0u, 0u, static_cast<uint32_t>(slots));
            return;
        }
        for (uint32_t r = 0; uint64_t(r) * p.per_repeat < slots; ++r)
            f(r, 0u, static_cast<uint32_t>(std::min<uint64_t>(p.per_repeat, slots - uint64_t(r) * p.per_repeat)));
        return;
    }
    for (uint32_t r = 0; r < p.repeats; ++r) {
        const uint64_t first = uint64_t(r) * p.per_repeat;  // counter mode: elements before this repeat
        for (uint32_t b = 0; b < blocks; ++b) {
            const uint32_t j0 = b * per_block;
            if (p.counter) {
                if (first + j0 >= p.count) break;
                emit(r, j0, static_cast<uint32_t>(std::min<uint64_t>(per_block, p.count - first - j0)));
                continue;
            }
            if (whole >> b & 1) {
                emit(r, j0, per_block);
                continue;
            }
            for (uint32_t j = j0, end = j0 + per_block; j < end;) {
                if (!p.active(r, j)) {
                    ++j;
                    continue;
                }
                const uint32_t start = j;
                while (j < end && p.active(r, j)) ++j;
                emit(r, start, j - start);
            }
        }
    }
    if (run_n > 0) f(run_r, run_j, run_n);
}

// Runs out(r, j, in(r, j)) for every active slot, all reads first: a
// conversion reads every source element of every repeat before it writes
// any. pto-isa converts in place at a wider destination stride and relies on
// it: TDEQUANT widens halves to floats over the same bytes within a repeat,
// TROWARGMAX's int16 indices to float over the same start, where repeat r
// writes the bytes repeat r + 1 reads (docs/intrinsics/README.md, "In-place
// conversions"). Source and destination types differ, so no conversion can
// mean to read an earlier repeat's result.
template <class V, class In, class Out>
void each_element_staged(const Plan& p, In&& in, Out&& out) {
    thread_local std::vector<V> staged;
    staged.resize(size_t(p.repeats) * p.per_repeat);
    for (uint32_t r = 0; r < p.repeats; ++r)
        for (uint32_t j = 0; j < p.per_repeat; ++j)
            if (p.active(r, j)) staged[size_t(r) * p.per_repeat + j] = in(r, j);
    for (uint32_t r = 0; r < p.repeats; ++r)
        for (uint32_t j = 0; j < p.per_repeat; ++j)
            if (p.active(r, j)) out(r, j, staged[size_t(r) * p.per_repeat + j]);
}

// Runs f(r, slots) once per repeat with the active slots of that repeat, in
// order: the per-repeat instructions (reductions, pair sums) fold them. The
// list is worked out once, not per repeat: in normal mode every repeat has
// the mask's slots, in counter mode every repeat but the last is full.
template <class F>
void each_repeat(const Plan& p, F&& f) {
    uint32_t slots[256];
    uint32_t n = 0;
    for (uint32_t r = 0; r < p.repeats; ++r) {
        if (r == 0 || (p.counter && r + 1 == p.repeats)) {
            n = 0;
            for (uint32_t j = 0; j < p.per_repeat; ++j)
                if (p.active(r, j)) slots[n++] = j;
        }
        f(r, std::span<const uint32_t>(slots, n));
    }
}

// Where each slot of a repeat lies, from the operand's start in its repeat:
// Operand::at(r, j) is o.base + r * o.rep * kBlock + at[j], without the
// divisions, for the per-repeat loops.
struct SlotOffsets {
    uint64_t at[256];
    uint64_t repeat_bytes;
    SlotOffsets(const Operand& o, uint32_t per_repeat) : repeat_bytes(uint64_t(o.rep) * kBlock) {
        for (uint32_t j = 0; j < per_repeat; ++j) at[j] = o.at(0, j) - o.base;
    }
    uint64_t operator()(const Operand& o, uint32_t r, uint32_t j) const { return o.base + r * repeat_bytes + at[j]; }
};

template <class T>
constexpr bool is_float_v = std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

template <class T>
double to_double(T v) {
    if constexpr (is_float_v<T>) return static_cast<double>(static_cast<float>(v));
    else return static_cast<double>(v);
}

// A double as the element type, rounded once: through float rounded to odd
// when the element is 16 bits wide, so the final nearest-even rounding is the
// single correct rounding of the double. Integers wrap.
template <class T>
T from_double(double x) {
    if constexpr (std::is_same_v<T, float>) {
        return static_cast<float>(x);
    } else if constexpr (is_float_v<T>) {
        float f = static_cast<float>(x);
        if (std::isfinite(f) && static_cast<double>(f) != x) {
            if (std::fabs(static_cast<double>(f)) > std::fabs(x)) f = std::nextafter(f, 0.0f);
            f = std::bit_cast<float>(std::bit_cast<uint32_t>(f) | 1u);
        }
        return T(f);
    } else {
        return static_cast<T>(static_cast<int64_t>(x));
    }
}

template <class T>
inline T load(const uint8_t* ub, uint64_t at) {
    T v;
    std::memcpy(&v, ub + at, sizeof(T));
    return v;
}
template <class T>
inline void store(uint8_t* ub, uint64_t at, T v) {
    std::memcpy(ub + at, &v, sizeof(T));
}

// What dispatch does with no subscriber (checkers, cost model, tracer) and
// the launch going on: count the call and keep its location. Returns false
// when the full record is wanted; the caller then builds and dispatches it.
// pto-isa's headers issue many small instructions, and the record's
// construction was a good part of each one's cost (docs/speed.md).
[[gnu::always_inline]] inline bool dispatch_unrecorded(Core& c, const char* op, const SourceLoc& loc) {
    if (::ptosim::detail::g_has_subscribers || (c.abandon && c.abandon->load(std::memory_order_relaxed))) return false;
    ++c.ops;
    c.last_loc = loc;
    c.last_op = op;
    return true;
}

// The light path of an instruction whose every operand is one contiguous
// run: with nothing subscribed and the launch going on, every slot active
// (counter mode, or a full mask in normal mode), each operand's blocks and
// repeats adjoining (block stride 1, repeat stride the repeat's bytes of its
// own element size) and each run inside UB. Then the instruction is the
// element loop over one run of `elements` elements from each operand's base,
// which is what each_run hands over in that case; the caller passes the
// dispatch point with pass_unrecorded and computes. Returns 0 when any
// condition fails: the caller takes its general path, which builds the same
// plan, faults with its message or dispatches the record.
// `widest` is the widest element's bytes (a repeat's slot count); `reps`
// holds each operand's repeat stride in blocks, `sizes` its element bytes
// and `bases` its start. pto-isa's headers issue many small instructions of
// this form (docs/speed.md, "pto-isa's headers executed").
template <size_t N>
[[gnu::always_inline]] inline uint64_t light_run(const Core& c, const Shape& sh, int widest, const uint16_t (&blks)[N],
                                                 const uint16_t (&reps)[N], const int (&sizes)[N],
                                                 const uint64_t (&bases)[N]) {
    if (::ptosim::detail::g_has_subscribers || (c.abandon && c.abandon->load(std::memory_order_relaxed))) return 0;
    const VectorState& v = c.vec;
    const uint32_t per_repeat = static_cast<uint32_t>(kRepeatBytes) / static_cast<uint32_t>(widest);
    uint64_t n;
    if (v.counter) {
        n = v.mask[0];
    } else {
        Plan p;
        p.per_repeat = per_repeat;
        p.mask[0] = v.mask[0];
        p.mask[1] = v.mask[1];
        if (!p.all_slots()) return 0;
        n = uint64_t(sh.repeat) * per_repeat;
    }
    const uint64_t ub_size = c.mem_size[static_cast<int>(Space::UB)];
    if (n == 0 || ub_size == 0 || n > ub_size) return 0;
    for (size_t k = 0; k < N; ++k) {
        if (blks[k] != 1 || uint64_t(reps[k]) * kBlock != uint64_t(per_repeat) * static_cast<uint32_t>(sizes[k]))
            return 0;
        const uint64_t bytes = n * static_cast<uint32_t>(sizes[k]);
        if (!(bases[k] <= ub_size && bytes <= ub_size - bases[k])) return 0;
    }
    return n;
}
// What dispatch does with nothing subscribed: count the call and keep its
// location (after light_run said so).
[[gnu::always_inline]] inline void pass_unrecorded(Core& c, const char* op, const SourceLoc& loc) {
    ++c.ops;
    c.last_loc = loc;
    c.last_op = op;
}

// The record every vector intrinsic dispatches before it runs.
[[gnu::always_inline]] inline OpRecord vector_record(const char* op, Dt d, const Plan& p, const SourceLoc& loc) {
    OpRecord r;
    r.op = op;
    r.pipe = Pipe::V;
    r.dtype = to_string(d);
    r.loc = loc;
    r.elements = p.counter ? p.count : uint64_t(p.repeats) * p.per_repeat;
    r.counter = p.counter;
    r.bytes = r.elements * size_of(d);
    r.flops = r.elements;
    return r;
}

// The bytes of a transfer in bursts, as a record's runs: `run` bytes at each
// index of the (count, pitch) loops, outermost first; a loop of one
// iteration adds no dimension, and with none the access is its whole range.
// A record of the span instead would show the checkers and the cost model
// the gaps between a tile's rows as bytes moved.
inline Runs burst_runs(uint64_t run, std::initializer_list<std::pair<uint64_t, uint64_t>> loops) {
    Runs r{};
    r.run = run;
    for (const auto& [count, pitch] : loops) {
        if (count <= 1 || r.dims == Runs::kMaxDims) continue;
        r.count[r.dims] = count;
        r.pitch[r.dims] = pitch;
        ++r.dims;
    }
    return r;
}

// The record of a DMA intrinsic on `pipe` moving `bytes` (both targets).
inline OpRecord dma_record(const char* op, Pipe pipe, const SourceLoc& loc, uint64_t bytes) {
    OpRecord r;
    r.op = op;
    r.pipe = pipe;
    r.loc = loc;
    r.bytes = bytes;
    return r;
}

}  // namespace ptosim::cce::detail
