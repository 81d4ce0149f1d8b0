// A2A3's reductions and broadcasts (docs/intrinsics/reduce.md): vcadd,
// vcmax, vcmin over each repeat; vcgadd, vcgmax, vcgmin over each 32-byte
// block; vcpadd over adjacent pairs; vbrcb, one element to one block.
#include "repeat.hpp"

#include <cmath>
#include <cstring>
#include <string>

namespace ptosim::cce {
namespace {
using namespace detail;

// One addition of the reduction tree, rounded to the element type. A 16-bit
// float sum of finite terms that overflows keeps the largest finite value
// (Ascend C's BlockReduceSum documents 65504 for half).
template <class T>
T add(T a, T b) {
    const T s = from_double<T>(to_double(a) + to_double(b));
    if constexpr (std::is_same_v<T, half>) {
        if (std::isinf(to_double(s)) && std::isfinite(to_double(a)) && std::isfinite(to_double(b)))
            return half::from_bits(std::signbit(to_double(s)) ? 0xfbff : 0x7bff);
    }
    return s;
}

// Sums v[0..n) (n a power of two) pairwise, level by level, as a binary tree.
template <class T>
T tree_sum(T* v, uint32_t n) {
    for (; n > 1; n /= 2)
        for (uint32_t i = 0; i < n / 2; ++i) v[i] = add(v[2 * i], v[2 * i + 1]);
    return v[0];
}

// tree_sum of a fixed count: the compiler keeps the tree in registers.
template <uint32_t N, class T>
T tree_sum_n(T* v) {
    for (uint32_t n = N; n > 1; n /= 2)
        for (uint32_t i = 0; i < n / 2; ++i) v[i] = add(v[2 * i], v[2 * i + 1]);
    return v[0];
}
// The same sums as tree_sum(v, n), the usual counts unrolled.
template <class T>
T tree_sum_any(T* v, uint32_t n) {
    switch (n) {
    case 8: return tree_sum_n<8>(v);
    case 16: return tree_sum_n<16>(v);
    case 64: return tree_sum_n<64>(v);
    default: return tree_sum(v, n);
    }
}

// Which of value(0) .. value(n - 1) is the first extreme; a NaN never wins
// over a number (not documented).
template <class V>
uint32_t first_extreme(Red red, uint32_t n, V&& value) {
    uint32_t best = 0;
    double bv = value(0);
    for (uint32_t k = 1; k < n; ++k) {
        const double x = value(k);
        if (std::isnan(bv) ? !std::isnan(x) : (red == Red::Max ? x > bv : x < bv)) {
            best = k;
            bv = x;
        }
    }
    return best;
}

// The slot of the first extreme among the given slots.
template <class T>
uint32_t extreme(Red red, const uint8_t* ub, const Operand& src, const SlotOffsets& at, uint32_t r,
                 std::span<const uint32_t> slots) {
    return slots[first_extreme(red, static_cast<uint32_t>(slots.size()),
                               [&](uint32_t k) { return to_double(load<T>(ub, at(src, r, slots[k]))); })];
}

OpRecord reduce_record(const Core& c, const char* op, Dt d, const Plan& p, const Operand& src, uint64_t dst,
                       uint64_t pitch, uint64_t last, const SourceLoc& loc) {
    OpRecord r = vector_record(op, d, p, loc);
    r.write(Space::UB, dst, record_span(c, p.repeats, dst, pitch, last, op, "dst", loc).bytes);
    r.read(Space::UB, src.base, span(c, p, src, op, "src", loc).bytes);
    return r;
}

}  // namespace

void vreduce(const SourceLoc& loc, const char* op, Red red, Dt d, uint64_t dst, uint64_t src, const ReduceShape& sh,
             int order) {
    Core& c = core();
    if (red == Red::Add && order != 0)
        fault(loc, "vcadd with mode 1 (the sum into ACC_VAL) is not simulated by ptosim yet");
    const int size = size_of(d);
    const Plan p = plan(c, sh.repeat, size);
    const Operand s{src, sh.src_blk, sh.src_rep, size};
    // What a repeat writes, which is also the unit of dstRepeatStride: the
    // value, the value and its index (each as wide as the element), or a
    // 32-bit index alone.
    const uint64_t record = red == Red::Add || order == 2 ? size : order == 3 ? 4 : 2 * size;
    dispatch(c, reduce_record(c, op, d, p, s, dst, sh.dst_rep * record, record, loc));
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    const SlotOffsets at(s, p.per_repeat);
    with_type(d, [&](auto t) {
        using T = decltype(t);
        T v[256];
        each_repeat(p, [&](uint32_t r, std::span<const uint32_t> slots) {
            if (slots.empty()) return;
            const uint64_t to = dst + uint64_t(r) * sh.dst_rep * record;
            if (red == Red::Add) {
                // Masked-off slots stay in the tree as zeros. A full repeat
                // of adjoining blocks is one copy.
                if (slots.size() == p.per_repeat && s.blk == 1) {
                    std::memcpy(v, ub + at(s, r, 0), kRepeatBytes);  // per_repeat elements
                } else {
                    for (uint32_t j = 0; j < p.per_repeat; ++j) v[j] = T(0.0f);
                    for (uint32_t j : slots) v[j] = load<T>(ub, at(s, r, j));
                }
                store(ub, to, tree_sum_any(v, p.per_repeat));
                return;
            }
            const uint32_t best = extreme<T>(red, ub, s, at, r, slots);
            const T value = load<T>(ub, at(s, r, best));
            using Index = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
            switch (order) {
            case 0: store(ub, to, value); store(ub, to + size, static_cast<Index>(best)); break;
            case 1: store(ub, to, static_cast<Index>(best)); store(ub, to + size, value); break;
            case 2: store(ub, to, value); break;
            default: store(ub, to, best); break;
            }
        });
    });
}

void vgreduce(const SourceLoc& loc, const char* op, Red red, Dt d, uint64_t dst, uint64_t src, const ReduceShape& sh) {
    Core& c = core();
    const int size = size_of(d);
    const Plan p = plan(c, sh.repeat, size);
    const Operand s{src, sh.src_blk, sh.src_rep, size};
    const uint32_t per_block = static_cast<uint32_t>(kBlock) / size;
    // A repeat's eight results lie side by side; dstRepeatStride counts them
    // as one unit (not documented; pto-isa steps f32 rows by 1 = 32 bytes).
    const uint64_t record = 8 * uint64_t(size);
    dispatch(c, reduce_record(c, op, d, p, s, dst, sh.dst_rep * record, record, loc));
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    // A sum over a NaN: which payload comes out depends on which operand
    // the compiled addition returns, so such sums keep the general path
    // below (the same NaN bits as before this path existed).
    const auto nan_free = [&] {
        for (uint32_t r = 0; r < p.repeats; ++r)
            for (uint32_t b = 0; b < 8; ++b) {
                float v[8];
                std::memcpy(v, ub + s.base + (uint64_t(r) * s.rep + uint64_t(b) * s.blk) * kBlock, sizeof v);
                bool nan = false;
                for (int k = 0; k < 8; ++k) nan |= v[k] != v[k];
                if (nan) return false;
            }
        return true;
    };
    typedef float f4 __attribute__((vector_size(16)));
    typedef int i4 __attribute__((vector_size(16)));
    // One full block of floats read in place (pto-isa's TROWMAX/TROWSUM
    // rows): the same sums (float addition is add<float>: the double sum of
    // two floats rounds to float as the exact one does) and the same choice
    // of the first extreme, NaNs never winning over a number.
    const auto float_block = [red](const uint8_t* in) {
        f4 lo, hi;
        std::memcpy(&lo, in, sizeof lo);
        std::memcpy(&hi, in + 16, sizeof hi);
        if (red == Red::Add) {
            // The tree's pairs side by side: (v0+v1, v2+v3, v4+v5, v6+v7),
            // then ((v0+v1)+(v2+v3), (v4+v5)+(v6+v7)), then their sum; the
            // callers pass no NaN here, so the order of each addition's
            // operands does not matter.
            const f4 s1 = __builtin_shuffle(lo, hi, i4{0, 2, 4, 6}) + __builtin_shuffle(lo, hi, i4{1, 3, 5, 7});
            const f4 s2 = __builtin_shuffle(s1, i4{0, 2, 0, 2}) + __builtin_shuffle(s1, i4{1, 3, 1, 3});
            return s2[0] + s2[1];
        }
        float v[8];
        std::memcpy(v, in, sizeof v);
        const i4 nan = (lo != lo) | (hi != hi);
        float out = v[0];
        if ((nan[0] | nan[1] | nan[2] | nan[3]) == 0) {
            // No NaN: a later element replaces the choice only when
            // strictly beyond it, so a tie keeps the first.
            for (int k = 1; k < 8; ++k)
                out = red == Red::Max ? (v[k] > out ? v[k] : out) : (v[k] < out ? v[k] : out);
        } else {
            for (int k = 1; k < 8; ++k)
                if (std::isnan(out) ? !std::isnan(v[k]) : (red == Red::Max ? v[k] > out : v[k] < out)) out = v[k];
        }
        return out;
    };
    const auto block_at = [&](uint32_t r, uint32_t b) {
        return ub + s.base + (uint64_t(r) * s.rep + uint64_t(b) * s.blk) * kBlock;
    };
    const auto result_at = [&](uint32_t r, uint32_t b) { return dst + uint64_t(r) * sh.dst_rep * record + uint64_t(b) * 4; };
    if (d == Dt::F32 && p.all_slots() && p.repeats > 0) {
        // Four blocks at a time when no result lands on a source byte (then
        // the order of reads and writes does not matter): the three levels
        // of the four trees (or of the left-first comparisons: the first
        // extreme of a NaN-free block is the left-first tournament's winner)
        // side by side in vector registers, the four results stored at once.
        // Four blocks holding a NaN: an extreme goes block by block through
        // float_block; a sum sends the whole instruction to the general path
        // below (as nan_free did), which writes every result again, the
        // NaN-free ones with the bits written here.
        const uint64_t src_end = s.base + (uint64_t(p.repeats - 1) * s.rep + 7 * uint64_t(s.blk)) * kBlock + kBlock;
        const uint64_t dst_end = result_at(p.repeats - 1, 7) + 4;
        const auto grouped = [&] {
            const auto level = [red](f4 a, f4 b) {
                const f4 even = __builtin_shuffle(a, b, i4{0, 2, 4, 6}), odd = __builtin_shuffle(a, b, i4{1, 3, 5, 7});
                if (red == Red::Add) return even + odd;
                return red == Red::Max ? (odd > even ? odd : even) : (odd < even ? odd : even);
            };
            for (uint32_t r = 0; r < p.repeats; ++r)
                for (uint32_t g = 0; g < 8; g += 4) {
                    f4 lo[4], hi[4];
                    i4 nan = {0, 0, 0, 0};
                    for (int k = 0; k < 4; ++k) {
                        const uint8_t* const in = block_at(r, g + k);
                        std::memcpy(&lo[k], in, sizeof lo[k]);
                        std::memcpy(&hi[k], in + 16, sizeof hi[k]);
                        nan |= (lo[k] != lo[k]) | (hi[k] != hi[k]);
                    }
                    if ((nan[0] | nan[1] | nan[2] | nan[3]) != 0) {
                        if (red == Red::Add) return false;
                        for (uint32_t k = 0; k < 4; ++k) store(ub, result_at(r, g + k), float_block(block_at(r, g + k)));
                        continue;
                    }
                    const f4 four = level(level(level(lo[0], hi[0]), level(lo[1], hi[1])),
                                          level(level(lo[2], hi[2]), level(lo[3], hi[3])));
                    std::memcpy(ub + result_at(r, g), &four, sizeof four);
                }
            return true;
        };
        if (dst_end <= s.base || src_end <= dst) {
            if (grouped()) return;
        } else if (red != Red::Add || nan_free()) {
            for (uint32_t r = 0; r < p.repeats; ++r)
                for (uint32_t b = 0; b < 8; ++b) store(ub, result_at(r, b), float_block(block_at(r, b)));
            return;
        }
    }
    const SlotOffsets at(s, p.per_repeat);
    with_type(d, [&](auto t) {
        using T = decltype(t);
        each_repeat(p, [&](uint32_t r, std::span<const uint32_t> slots) {
            // The slots come in order: a block's are one stretch of them
            // (with every slot active, the block's own per_block).
            const bool full = slots.size() == p.per_repeat;
            auto lo = slots.begin();
            for (uint32_t b = 0; b < 8; ++b) {
                auto hi = lo;
                if (full) hi += per_block;
                else
                    while (hi != slots.end() && *hi < (b + 1) * per_block) ++hi;
                const std::span<const uint32_t> in(lo, hi);
                lo = hi;
                if (in.empty()) continue;  // a block with no active slot is not written (not documented)
                const uint64_t to = dst + uint64_t(r) * sh.dst_rep * record + uint64_t(b) * size;
                if (red == Red::Add) {
                    // A block's slots are contiguous: a full block is one copy.
                    T v[32];
                    if (in.size() == per_block) {
                        std::memcpy(v, ub + at(s, r, b * per_block), kBlock);  // per_block elements
                    } else {
                        for (uint32_t k = 0; k < per_block; ++k) v[k] = T(0.0f);
                        for (uint32_t j : in) v[j - b * per_block] = load<T>(ub, at(s, r, j));
                    }
                    store(ub, to, tree_sum_any(v, per_block));
                } else if (in.size() == per_block) {
                    // A full block: extreme's choice over a local copy of it.
                    T v[32];
                    std::memcpy(v, ub + at(s, r, b * per_block), kBlock);
                    store(ub, to, v[first_extreme(red, per_block, [&](uint32_t k) { return to_double(v[k]); })]);
                } else {
                    store(ub, to, load<T>(ub, at(s, r, extreme<T>(red, ub, s, at, r, in))));
                }
            }
        });
    });
}

void vcpadd(const SourceLoc& loc, Dt d, uint64_t dst, uint64_t src, const ReduceShape& sh) {
    Core& c = core();
    const int size = size_of(d);
    const Plan p = plan(c, sh.repeat, size);
    const Operand s{src, sh.src_blk, sh.src_rep, size};
    // dstRepeatStride counts 128 bytes here, a repeat's results (the reference
    // says so for vcpadd alone).
    const uint64_t pitch = uint64_t(sh.dst_rep) * 128, last = uint64_t(p.per_repeat / 2) * size;
    dispatch(c, reduce_record(c, "vcpadd", d, p, s, dst, pitch, last, loc));
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    with_type(d, [&](auto t) {
        using T = decltype(t);
        // Result k is the sum of slots 2k and 2k+1, written when slot 2k is
        // active; an inactive slot 2k+1 adds nothing (not documented).
        each_element(p, [&](uint32_t r, uint32_t j) {
            if (j % 2) return;
            const T a = load<T>(ub, s.at(r, j));
            const T sum = p.active(r, j + 1) ? add(a, load<T>(ub, s.at(r, j + 1))) : a;
            store(ub, dst + r * pitch + uint64_t(j / 2) * size, sum);
        });
    });
}

void vbrcb(const SourceLoc& loc, Dt d, uint64_t dst, uint64_t src, uint16_t dst_blk, uint16_t dst_rep, uint32_t repeat) {
    Core& c = core();
    const int size = size_of(d);
    // The mask is not applied: every block of every repeat is written.
    const Plan p = unmasked(repeat, size);
    const Operand o{dst, dst_blk, dst_rep, size};
    const uint32_t per_block = static_cast<uint32_t>(kBlock) / size;
    OpRecord r = vector_record("vbrcb", d, p, loc);
    r.write(Space::UB, dst, span(c, p, o, "vbrcb", "dst", loc).bytes);
    r.read(Space::UB, src, record_span(c, repeat, src, 8 * uint64_t(size), 8 * uint64_t(size), "vbrcb", "src", loc).bytes);
    dispatch(c, r);
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    // Source and destination may be the same buffer (pto-isa's TCI does so):
    // a repeat's eight sources are read before its blocks are written.
    for (uint32_t rr = 0; rr < repeat; ++rr) {
        uint8_t vals[8][8];
        for (uint32_t b = 0; b < 8; ++b) std::memcpy(vals[b], ub + src + (uint64_t(rr) * 8 + b) * size, size);
        for (uint32_t j = 0; j < p.per_repeat; ++j) std::memcpy(ub + o.at(rr, j), vals[j / per_block], size);
    }
}

}  // namespace ptosim::cce
