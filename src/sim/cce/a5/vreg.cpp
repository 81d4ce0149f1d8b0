// A5's register layer: predicates, loads and stores between UB and vector
// registers, and register arithmetic (docs/intrinsics/a5-vreg.md). Each
// operation passes the one dispatch point with its pipe and the UB bytes it
// touches, then computes over the whole 256-byte register in one call; the
// per-element arithmetic is A2A3's (element_ops.hpp), so both targets round
// and wrap alike.
#include <ptosim/nan_rule.hpp>
#include <ptosim/cce_a5.hpp>
#include <ptosim/vmath.hpp>

#include "../../check.hpp"
#include "../../launch.hpp"
#include "../element_ops.hpp"
#include "../repeat.hpp"
#include "fast_paths.hpp"
#include "records.hpp"

#include <cmath>
#include <limits>
#include <string>

namespace ptosim::cce::a5 {
namespace {
using namespace ptosim::cce::detail;

void set_lane(Pred& p, int byte, bool on) {
    const uint8_t bit = static_cast<uint8_t>(1u << (byte & 7));
    p.b[byte >> 3] = on ? static_cast<uint8_t>(p.b[byte >> 3] | bit) : static_cast<uint8_t>(p.b[byte >> 3] & ~bit);
}
// Element i of `elem` bytes on or off: every byte lane of it, so a predicate
// made for one width reads the same elements at that width.
void set_elem(Pred& p, int i, int elem, bool on) {
    for (int k = 0; k < elem; ++k) set_lane(p, i * elem + k, on);
}
bool active(const Pred& p, int i, int elem) { return p.lane(i * elem); }

OpRecord reg_record(const char* op, Dt d, const SourceLoc& loc, uint64_t elements) {
    OpRecord r;
    r.op = op;
    r.pipe = Pipe::V;
    r.dtype = to_string(d);
    r.loc = loc;
    r.elements = elements;
    r.bytes = elements * size_of(d);
    r.flops = elements;
    return r;
}
uint64_t count_active(const Pred& m, int elem) {
    if (const int k = active_prefix(m, elem); k >= 0) return uint64_t(k);
    uint64_t n = 0;
    for (int i = 0; i < kVL / elem; ++i) n += active(m, i, elem);
    return n;
}

// The element-wise driver: f(i) computes element i of the result into a
// scratch register (the destination may alias a source); inactive elements
// keep the destination's value (merging) or become zero.
template <class T, class F>
void each(VReg& dst, const Pred& m, bool merging, F&& f) {
    constexpr int n = kVL / int(sizeof(T));
    VReg out;
    if (const int k = active_prefix(m, sizeof(T)); k >= 0) {
        // The same elements in the same order, as a plain loop over arrays.
        for (int i = 0; i < k; ++i) store(out.b, uint64_t(i) * sizeof(T), f(i));
        const size_t done = size_t(k) * sizeof(T);
        if (merging) std::memcpy(out.b + done, dst.b + done, kVL - done);
        else std::memset(out.b + done, 0, kVL - done);
        std::memcpy(dst.b, out.b, kVL);
        return;
    }
    for (int i = 0; i < n; ++i) {
        T v;
        if (active(m, i, sizeof(T))) v = f(i);
        else if (merging) v = load<T>(dst.b, uint64_t(i) * sizeof(T));
        else std::memset(&v, 0, sizeof(T));
        store(out.b, uint64_t(i) * sizeof(T), v);
    }
    std::memcpy(dst.b, out.b, kVL);
}
template <class T>
T at(const VReg& r, int i) {
    return load<T>(r.b, uint64_t(i) * sizeof(T));
}
template <class T>
bool compare(Cmp op, T a, T b) {
    const double x = to_double(a), y = to_double(b);
    switch (op) {
    case Cmp::Eq: return x == y;
    case Cmp::Ne: return x != y;
    case Cmp::Lt: return x < y;
    case Cmp::Le: return x <= y;
    case Cmp::Gt: return x > y;
    default: return x >= y;
    }
}
}  // namespace

void unwritten_register(const SourceLoc& loc, const char* op, int operand) {
    Core* c = current_core_or_null();
    if (c && c->launch) check::unwritten_register(*c->launch, *c, loc, op, operand);
}

void pset(const SourceLoc& loc, const char* op, Pred& out, int elem, int pattern) {
    dispatch(core(), op, loc, [&] { return vector_record(op, loc); });
    const int n = kVL / elem;
    static constexpr int kFirst[] = {0, 1, 2, 3, 4, 8, 16, 32, 64, 128};
    // The prefix patterns, lane by lane at once.
    int prefix = -1;
    if (pattern == 0) prefix = n;
    else if (pattern >= 1 && pattern <= 9) prefix = std::min(n, kFirst[pattern]);
    else if (pattern == 12) prefix = n / 2;
    else if (pattern == 13) prefix = n / 4;
    else if (pattern == 15) prefix = 0;
    if (prefix >= 0) {
        set_prefix(out, prefix * elem);
        return;
    }
    std::memset(out.b, 0, sizeof(out.b));
    for (int i = 0; i < n; ++i) {
        bool on;
        if (pattern == 0) on = true;
        else if (pattern >= 1 && pattern <= 9) on = i < kFirst[pattern];
        else if (pattern == 10) on = i % 3 == 0;
        else if (pattern == 11) on = i % 4 == 0;
        else if (pattern == 12) on = i < n / 2;
        else if (pattern == 13) on = i < n / 4;
        else if (pattern == 15) on = false;
        else fault(loc, std::string(op) + ": predicate pattern " + std::to_string(pattern) +
                            " is not one of PAT_ALL, PAT_VL1..PAT_VL128, PAT_M3, PAT_M4, PAT_H, PAT_Q, PAT_ALLF");
        set_elem(out, i, elem, on);
    }
}

void plt(const SourceLoc& loc, const char* op, Pred& out, int elem, uint32_t& count, bool post_update) {
    dispatch(core(), op, loc, [&] { return vector_record(op, loc); });
    const uint32_t n = static_cast<uint32_t>(kVL / elem);
    const uint32_t on = count < n ? count : n;
    set_prefix(out, static_cast<int>(on) * elem);
    if (post_update) count -= on;
}

void plogic(const SourceLoc& loc, const char* op, PLogic how, Pred& out, const Pred& a, const Pred& b, const Pred& g) {
    dispatch(core(), op, loc, [&] { return vector_record(op, loc); });
    Pred r;
    for (size_t i = 0; i < sizeof(r.b); ++i) {
        uint8_t v;
        switch (how) {
        case PLogic::And: v = a.b[i] & b.b[i]; break;
        case PLogic::Or: v = a.b[i] | b.b[i]; break;
        case PLogic::Xor: v = a.b[i] ^ b.b[i]; break;
        case PLogic::Not: v = static_cast<uint8_t>(~a.b[i]); break;
        case PLogic::Sel: r.b[i] = static_cast<uint8_t>((a.b[i] & g.b[i]) | (b.b[i] & ~g.b[i])); continue;
        default: v = a.b[i]; break;
        }
        // Lanes the governing predicate leaves out become zero.
        r.b[i] = static_cast<uint8_t>(v & g.b[i]);
    }
    out = r;
}

void vload(const SourceLoc& loc, const char* op, VReg& dst, uint64_t ub, Ld how, int elem) {
    Core& c = core();
    if (how == Ld::Unsupported)
        fault(loc, std::string(op) + ": this load distribution (DINTLV into one register) is not simulated by "
                                     "ptosim yet; NORM, BRC_B*, US_B*, DS_B*, UNPK_B*, UNPK4_B8, BLK and E2B_B16/B32 "
                                     "are (docs/intrinsics/a5-vreg.md)");
    // LoadAlign: a full-register load starts on a 32-byte boundary.
    if (how == Ld::Norm && ub % 32 != 0)
        fault(loc, std::string(op) + " NORM from UB offset " + std::to_string(ub) +
                       ", which is not 32-byte aligned: an aligned load needs a 32-byte aligned address (use the "
                       "unaligned loads, or align the tile)");
    uint64_t bytes = kVL;
    if (how == Ld::Brc) bytes = uint64_t(elem);
    else if (how == Ld::Us || how == Ld::Unpk) bytes = kVL / 2;
    else if (how == Ld::Blk) bytes = 32;
    else if (how == Ld::Unpk4) bytes = kVL / 4;
    else if (how == Ld::E2b) bytes = uint64_t(kVL / 32) * elem;
    check_local(c, Space::UB, ub, bytes, op, "src", loc);
    dispatch(c, op, loc, [&] {
        OpRecord r = vector_record(op, loc);
        r.bytes = bytes;
        r.read(Space::UB, ub, bytes);
        return r;
    });
    const uint8_t* src = c.mem[static_cast<int>(Space::UB)] + ub;
    if (how == Ld::Norm) {  // UB is never a register: straight in
        std::memcpy(dst.b, src, kVL);
        return;
    }
    VReg out;
    with_width(elem, [&](auto e) {
        const int n = kVL / e;
        switch (how) {
        case Ld::Brc:
            for (int i = 0; i < n; ++i) std::memcpy(out.b + i * e, src, e);
            break;
        case Ld::Us:  // each element twice
            for (int i = 0; i < n; ++i) std::memcpy(out.b + i * e, src + (i / 2) * e, e);
            break;
        case Ld::Ds:  // every other element
            for (int i = 0; i < n; ++i) std::memcpy(out.b + i * e, src + 2 * i * e, e);
            break;
        case Ld::Blk:  // one 32-byte block, in every block (asc_loadalign_brc_datablock)
            for (int k = 0; k < kVL / 32; ++k) std::memcpy(out.b + 32 * k, src, 32);
            break;
        case Ld::E2b:  // element k into every slot of block k (LoadAlign, DIST_E2B_B16/B32)
            for (int k = 0; k < kVL / 32; ++k)
                for (int j = 0; j < 32; j += e) std::memcpy(out.b + 32 * k + j, src + k * e, e);
            break;
        case Ld::Unpk4:  // 64 bytes, byte i into the low byte of 32-bit slot i (asc_loadalign_unpack4)
            std::memset(out.b, 0, kVL);
            for (int i = 0; i < kVL / 4; ++i) out.b[4 * i] = src[i];
            break;
        default:  // Unpk: element i into the low half of a slot twice as wide
            std::memset(out.b, 0, kVL);
            for (int i = 0; i < n / 2; ++i) std::memcpy(out.b + 2 * i * e, src + i * e, e);
            break;
        }
    });
    dst = out;
}

void vstore(const SourceLoc& loc, const char* op, const VReg& src, uint64_t ub, St how, int elem, const Pred& mask) {
    Core& c = core();
    if (how == St::Unsupported)
        fault(loc, std::string(op) + ": this store distribution (INTLV from one register, MRG*CHN) is not simulated "
                                     "by ptosim yet; NORM_B*, ONEPT_B*, PK_B* and PK4_B32 are (docs/intrinsics/a5-vreg.md)");
    const int n = kVL / elem;
    // What lands in UB: the active elements (NORM), element 0 (ONEPT), or
    // the low half (PK) or quarter (PK4) of each active element, packed.
    const int out_elem = how == St::Pk ? elem / 2 : how == St::Pk4 ? elem / 4 : elem;
    int first = -1, last = -1;
    const int prefix = how == St::OnePt ? -1 : active_prefix(mask, elem);
    if (prefix >= 0) {
        if (prefix > 0) first = 0, last = prefix - 1;
    } else {
        for (int i = 0; i < (how == St::OnePt ? 1 : n); ++i)
            if (active(mask, i, elem)) {
                if (first < 0) first = i;
                last = i;
            }
    }
    const uint64_t lo = ub + uint64_t(first) * out_elem, bytes = uint64_t(last - first + 1) * out_elem;
    if (first >= 0) check_local(c, Space::UB, lo, bytes, op, "dst", loc);
    dispatch(c, op, loc, [&] {
        OpRecord r = vector_record(op, loc);
        if (first >= 0) {
            r.bytes = bytes;
            r.write(Space::UB, lo, bytes);
        }
        return r;
    });
    if (first < 0) return;
    uint8_t* dst = c.mem[static_cast<int>(Space::UB)] + ub;
    if (prefix >= 0 && out_elem == elem) {
        std::memcpy(dst, src.b, size_t(prefix) * elem);
        return;
    }
    with_width(out_elem, [&](auto w) {
        if (prefix >= 0) {  // packing an active prefix
            for (int i = 0; i < prefix; ++i) std::memcpy(dst + i * w, src.b + i * elem, w);
            return;
        }
        for (int i = first; i <= last; ++i)
            if (active(mask, i, elem)) std::memcpy(dst + i * w, src.b + i * elem, w);
    });
}

void vstore_blocks(const SourceLoc& loc, const VReg& src, uint64_t ub, uint32_t block_stride, int elem,
                   const Pred& mask) {
    Core& c = core();
    const char* op = "vsstb";
    if (ub % 32 != 0)
        fault(loc, std::string(op) + " to UB offset " + std::to_string(ub) +
                       ", which is not 32-byte aligned (the address must be)");
    // Block k to ub + k * block_stride * 32; a block whose elements are all
    // inactive is neither written nor checked (documented).
    uint64_t lo = UINT64_MAX, hi = 0;
    bool used[kVL / 32] = {};
    for (int k = 0; k < kVL / 32; ++k) {
        for (int j = 0; j < 32 && !used[k]; j += elem) used[k] = active(mask, (k * 32 + j) / elem, elem);
        if (!used[k]) continue;
        const uint64_t at = ub + uint64_t(k) * block_stride * 32;
        lo = std::min(lo, at);
        hi = std::max(hi, at + 32);
    }
    if (hi > 0) check_local(c, Space::UB, lo, hi - lo, op, "dst", loc);
    dispatch(c, op, loc, [&] {
        OpRecord r = vector_record(op, loc);
        if (hi > 0) {
            r.bytes = hi - lo;
            r.write(Space::UB, lo, hi - lo);
        }
        return r;
    });
    uint8_t* mem = c.mem[static_cast<int>(Space::UB)];
    for (int k = 0; k < kVL / 32; ++k) {
        if (!used[k]) continue;
        uint8_t* to = mem + ub + uint64_t(k) * block_stride * 32;
        for (int j = 0; j < 32; j += elem)
            if (active(mask, (k * 32 + j) / elem, elem)) std::memcpy(to + j, src.b + k * 32 + j, elem);
    }
}

void vload2(const SourceLoc& loc, const char* op, VReg& lo, VReg& hi, uint64_t ub, int elem) {
    Core& c = core();
    if (ub % 32 != 0)
        fault(loc, std::string(op) + " DINTLV from UB offset " + std::to_string(ub) +
                       ", which is not 32-byte aligned: an aligned load needs a 32-byte aligned address");
    check_local(c, Space::UB, ub, 2 * kVL, op, "src", loc);
    dispatch(c, op, loc, [&] {
        OpRecord r = vector_record(op, loc);
        r.bytes = 2 * kVL;
        r.read(Space::UB, ub, 2 * kVL);
        return r;
    });
    const uint8_t* src = c.mem[static_cast<int>(Space::UB)] + ub;
    VReg a, b;
    for (int i = 0; i < kVL / elem; ++i) {
        std::memcpy(a.b + i * elem, src + 2 * i * elem, elem);
        std::memcpy(b.b + i * elem, src + (2 * i + 1) * elem, elem);
    }
    lo = a;
    hi = b;
}

void vstore2(const SourceLoc& loc, const char* op, const VReg& lo, const VReg& hi, uint64_t ub, int elem,
             const Pred& mask) {
    Core& c = core();
    int last = -1;
    for (int i = 0; i < kVL / elem; ++i)
        if (active(mask, i, elem)) last = i;
    const uint64_t bytes = uint64_t(last + 1) * 2 * elem;
    if (last >= 0) check_local(c, Space::UB, ub, bytes, op, "dst", loc);
    dispatch(c, op, loc, [&] {
        OpRecord r = vector_record(op, loc);
        if (last >= 0) {
            r.bytes = bytes;
            r.write(Space::UB, ub, bytes);
        }
        return r;
    });
    uint8_t* dst = c.mem[static_cast<int>(Space::UB)] + ub;
    for (int i = 0; i <= last; ++i)
        if (active(mask, i, elem)) {
            std::memcpy(dst + 2 * i * elem, lo.b + i * elem, elem);
            std::memcpy(dst + (2 * i + 1) * elem, hi.b + i * elem, elem);
        }
}

void vbinary(const SourceLoc& loc, const char* op, Bin b, Dt d, VReg& dst, const VReg& x, const VReg& y,
             const Pred& m, bool merging) {
    dispatch(core(), op, loc, [&] { return reg_record(op, d, loc, count_active(m, size_of(d))); });
    with_type(d, [&](auto t) {
        using T = decltype(t);
        with_bin(b, [&](auto op) {
            each<T>(dst, m, merging,
                    [&](int i) { return binary<T, false>(op, at<T>(x, i), at<T>(y, i), at<T>(dst, i)); });
        });
    });
}

void vunary(const SourceLoc& loc, const char* op, Una u, Dt d, VReg& dst, const VReg& x, const Pred& m, bool merging) {
    dispatch(core(), op, loc, [&] { return reg_record(op, d, loc, count_active(m, size_of(d))); });
    // vexp/vln/vsqrt on floats: the active prefix at once through vmath_f32,
    // as A2A3's vexp does, which gives each element (float)f((double)x) as
    // unary<float> does.
    if (d == Dt::F32 && (u == Una::Exp || u == Una::Ln || u == Una::Sqrt)) {
        if (const int k = active_prefix(m, 4); k >= 0) {
            float row[kVL / 4];
            std::memcpy(row, x.b, kVL);
            vmath_f32(u == Una::Exp ? VMath::Exp : u == Una::Ln ? VMath::Log : VMath::Sqrt, row, row, size_t(k));
            if (merging) std::memcpy(row + k, dst.b + 4 * k, kVL - 4 * size_t(k));
            else std::memset(row + k, 0, kVL - 4 * size_t(k));
            std::memcpy(dst.b, row, kVL);
            return;
        }
    }
    with_type(d, [&](auto t) {
        using T = decltype(t);
        with_una(u, [&](auto op) { each<T>(dst, m, merging, [&](int i) { return unary<T>(op, at<T>(x, i)); }); });
    });
}

void vscalar(const SourceLoc& loc, const char* op, Sca s, Dt d, VReg& dst, const VReg& x, uint64_t scalar,
             const Pred& m, bool merging) {
    dispatch(core(), op, loc, [&] { return reg_record(op, d, loc, count_active(m, size_of(d))); });
    with_type(d, [&](auto t) {
        using T = decltype(t);
        T sv;
        std::memcpy(&sv, &scalar, sizeof(T));
        with_sca(s, [&](auto op) {
            each<T>(dst, m, merging, [&](int i) {
                return op == Sca::Dup ? sv : with_scalar<T, false>(op, at<T>(x, i), sv, at<T>(dst, i));
            });
        });
    });
}

void vcarry(const SourceLoc& loc, const char* op, bool sub, Pred& carry, VReg& dst, const VReg& a, const VReg& b,
            const Pred* carry_in, const Pred& mask) {
    dispatch(core(), op, loc, [&] { return reg_record(op, Dt::U32, loc, count_active(mask, 4)); });
    Pred c{};
    VReg out{};
    for (int i = 0; i < kVL / 4; ++i) {
        if (!active(mask, i, 4)) continue;
        const uint64_t x = at<uint32_t>(a, i), y = at<uint32_t>(b, i);
        const uint64_t in = carry_in ? (active(*carry_in, i, 4) ? 1 : 0) : (sub ? 1 : 0);
        // Subtraction adds the complement: a + ~b + carry, so "carry" is "no borrow".
        const uint64_t r = sub ? x + (~y & 0xFFFFFFFFu) + in : x + y + in;
        store(out.b, uint64_t(i) * 4, static_cast<uint32_t>(r));
        set_elem(c, i, 4, (r >> 32) != 0);
    }
    dst = out;
    carry = c;
}

void vmull(const SourceLoc& loc, bool is_signed, VReg& lo, VReg& hi, const VReg& a, const VReg& b, const Pred& mask) {
    dispatch(core(), "vmull", loc, [&] { return reg_record("vmull", is_signed ? Dt::S32 : Dt::U32, loc, count_active(mask, 4)); });
    VReg l{}, h{};
    for (int i = 0; i < kVL / 4; ++i) {
        if (!active(mask, i, 4)) continue;
        const uint64_t p = is_signed ? static_cast<uint64_t>(int64_t(at<int32_t>(a, i)) * int64_t(at<int32_t>(b, i)))
                                     : uint64_t(at<uint32_t>(a, i)) * uint64_t(at<uint32_t>(b, i));
        store(l.b, uint64_t(i) * 4, static_cast<uint32_t>(p));
        store(h.b, uint64_t(i) * 4, static_cast<uint32_t>(p >> 32));
    }
    lo = l;
    hi = h;
}

void vcompare(const SourceLoc& loc, const char* op, Cmp c, Dt d, Pred& dst, const VReg& a, const VReg& b,
              const Pred& m) {
    dispatch(core(), op, loc, [&] { return reg_record(op, d, loc, count_active(m, size_of(d))); });
    Pred out{};
    with_type(d, [&](auto t) {
        using T = decltype(t);
        for (int i = 0; i < kVL / int(sizeof(T)); ++i)
            set_elem(out, i, sizeof(T), active(m, i, sizeof(T)) && compare<T>(c, at<T>(a, i), at<T>(b, i)));
    });
    dst = out;
}

void vcompare_scalar(const SourceLoc& loc, const char* op, Cmp c, Dt d, Pred& dst, const VReg& a, uint64_t scalar,
                     const Pred& m) {
    dispatch(core(), op, loc, [&] { return reg_record(op, d, loc, count_active(m, size_of(d))); });
    Pred out{};
    with_type(d, [&](auto t) {
        using T = decltype(t);
        T sv;
        std::memcpy(&sv, &scalar, sizeof(T));
        for (int i = 0; i < kVL / int(sizeof(T)); ++i)
            set_elem(out, i, sizeof(T), active(m, i, sizeof(T)) && compare<T>(c, at<T>(a, i), sv));
    });
    dst = out;
}

void vselect(const SourceLoc& loc, Dt d, VReg& dst, const VReg& a, const VReg& b, const Pred& sel) {
    dispatch(core(), "vsel", loc, [&] { return reg_record("vsel", d, loc, kVL / size_of(d)); });
    const int e = size_of(d);
    VReg out;
    for (int i = 0; i < kVL / e; ++i) std::memcpy(out.b + i * e, (active(sel, i, e) ? a : b).b + i * e, e);
    dst = out;
}

void vreduce(const SourceLoc& loc, const char* op, Red how, Dt d, VReg& dst, const VReg& a, const Pred& m) {
    dispatch(core(), op, loc, [&] { return reg_record(op, d, loc, count_active(m, size_of(d))); });
    with_type(d, [&](auto t) {
        using T = decltype(t);
        VReg out{};
        const int prefix = active_prefix(m, sizeof(T));
        if (how == Red::Add) {
            if constexpr (is_float_v<T>) {
                // The documented binary tree (asc-devkit asc_reduce_sum for
                // the 950: "指令内累加顺序采用二叉树累加方式"): the inactive
                // elements as +0, adjacent pairs added level by level, every
                // addition rounded to the element type.
                constexpr int n = kVL / int(sizeof(T));
                T v[n];
                for (int i = 0; i < n; ++i) v[i] = active(m, i, sizeof(T)) ? at<T>(a, i) : from_double<T>(0.0);
                for (int w = n; w > 1; w /= 2)
                    for (int i = 0; i < w / 2; ++i) v[i] = binary<T>(Bin::Add, v[2 * i], v[2 * i + 1], v[2 * i]);
                store(out.b, 0, v[0]);
                dst = out;
                return;
            }
            if constexpr (std::is_integral_v<T> && sizeof(T) == 2) {
                // 16-bit integers are summed in 32 bits into a 32-bit
                // element 0 (asc-devkit asc_reduce_sum: int16_t -> int32_t,
                // uint16_t -> uint32_t, "会提升精度到uint32_t/int32_t进行计算");
                // 128 of them cannot overflow it.
                using W = std::conditional_t<std::is_signed_v<T>, int32_t, uint32_t>;
                W acc = 0;
                for (int i = 0; i < kVL / 2; ++i)
                    if (active(m, i, 2)) acc = static_cast<W>(acc + static_cast<W>(at<T>(a, i)));
                store(out.b, 0, acc);
                dst = out;
                return;
            }
            // 32-bit integers wrap: any order gives the same sum.
            bool any = false;
            T acc{};
            for (int i = 0; i < kVL / int(sizeof(T)); ++i) {
                if (!active(m, i, sizeof(T))) continue;
                const T v = at<T>(a, i);
                acc = any ? binary<T>(Bin::Add, acc, v, acc) : v;
                any = true;
            }
            store(out.b, 0, acc);
        } else {
            // The extreme value into element 0 and its index (the lowest of
            // equal ones, the first NaN's if any) into element 1 as an
            // integer of the element's width; without an active element,
            // -inf (+inf for the minimum) and index 0 (asc-devkit
            // asc_reduce_max.md / asc_reduce_min.md).
            if constexpr (std::is_same_v<T, float>) {
                if (prefix > 0) {
                    // The loop below over a float prefix, in passes without
                    // its branches: the first NaN if any; else the extreme
                    // value, its first index, and for a maximum of zero +0
                    // when any of the zeros is +0 (the loop's max(-0, +0)).
                    float v[kVL / 4];
                    std::memcpy(v, a.b, kVL);
                    int nan_at = -1;
                    bool any_nan = false;
                    if (prefix == kVL / 4) {
                        // A whole register, four lanes at a time: whether
                        // there is a NaN, and if not the extreme value (exact
                        // in any order without NaNs; below, only its value
                        // is used, never the sign of a zero).
                        typedef float f4 __attribute__((vector_size(16)));
                        typedef int32_t i4 __attribute__((vector_size(16)));
                        f4 x[kVL / 16];
                        std::memcpy(x, a.b, kVL);
                        i4 nan = {};
                        for (const f4& q : x) nan |= q != q;
                        any_nan = (nan[0] | nan[1] | nan[2] | nan[3]) != 0;
                        if (!any_nan) {
                            f4 l[4] = {x[0], x[1], x[2], x[3]};
                            if (how == Red::Max)
                                for (int k = 4; k < kVL / 16; ++k) l[k & 3] = x[k] > l[k & 3] ? x[k] : l[k & 3];
                            else
                                for (int k = 4; k < kVL / 16; ++k) l[k & 3] = x[k] < l[k & 3] ? x[k] : l[k & 3];
                            for (int k = 1; k < 4; ++k) l[0] = how == Red::Max ? (l[k] > l[0] ? l[k] : l[0]) : (l[k] < l[0] ? l[k] : l[0]);
                            float m = l[0][0];
                            for (int j = 1; j < 4; ++j) m = how == Red::Max ? (l[0][j] > m ? l[0][j] : m) : (l[0][j] < m ? l[0][j] : m);
                            int first = 0;
                            while (v[first] != m) ++first;
                            float acc = v[first];
                            if (how == Red::Max && m == 0.0f)
                                for (int i = first; i < prefix; ++i)
                                    if (v[i] == 0.0f && !std::signbit(v[i])) acc = 0.0f;
                            const uint64_t idx = uint64_t(first);
                            store(out.b, 0, acc);
                            std::memcpy(out.b + sizeof(T), &idx, sizeof(T));
                            dst = out;
                            return;
                        }
                    } else {
                        for (int i = 0; i < prefix; ++i) any_nan |= v[i] != v[i];
                    }
                    if (any_nan)
                        for (int i = 0; i < prefix && nan_at < 0; ++i)
                            if (v[i] != v[i]) nan_at = i;
                    uint64_t idx = 0;
                    float acc;
                    if (nan_at >= 0) {
                        acc = v[nan_at];
                        idx = uint64_t(nan_at);
                    } else {
                        // The extreme value in eight lanes (exact in any
                        // order without NaNs; only its value is used).
                        float lane[8];
                        for (float& l : lane) l = v[0];
                        if (how == Red::Max)
                            for (int i = 1; i < prefix; ++i) lane[i & 7] = v[i] > lane[i & 7] ? v[i] : lane[i & 7];
                        else
                            for (int i = 1; i < prefix; ++i) lane[i & 7] = v[i] < lane[i & 7] ? v[i] : lane[i & 7];
                        float m = lane[0];
                        for (int j = 1; j < 8; ++j) m = how == Red::Max ? (lane[j] > m ? lane[j] : m) : (lane[j] < m ? lane[j] : m);
                        int first = 0;
                        while (v[first] != m) ++first;
                        idx = uint64_t(first);
                        acc = v[first];
                        if (how == Red::Max && m == 0.0f)
                            for (int i = first; i < prefix; ++i)
                                if (v[i] == 0.0f && !std::signbit(v[i])) acc = 0.0f;
                    }
                    store(out.b, 0, acc);
                    std::memcpy(out.b + sizeof(T), &idx, sizeof(T));
                    dst = out;
                    return;
                }
            }
            T acc;
            if constexpr (is_float_v<T>) acc = from_double<T>(how == Red::Max ? -INFINITY : INFINITY);
            else acc = how == Red::Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
            uint64_t idx = 0;
            bool nan = false, any = false;
            const int n = prefix >= 0 ? prefix : kVL / int(sizeof(T));
            for (int i = 0; i < n && !nan; ++i) {
                if (prefix < 0 && !active(m, i, sizeof(T))) continue;
                const T v = at<T>(a, i);
                const double x = to_double(v), y = to_double(acc);
                if constexpr (is_float_v<T>) {
                    if (std::isnan(x)) {
                        acc = v;
                        idx = uint64_t(i);
                        nan = true;
                        continue;
                    }
                }
                if (!any || (how == Red::Max ? x > y : x < y)) {
                    any = true;
                    acc = v;
                    idx = uint64_t(i);
                } else if (x == y && x == 0 && how == Red::Max && !std::signbit(x) && std::signbit(y)) {
                    acc = v;  // max(-0, +0) = +0 (documented); the index stays the first
                }
            }
            store(out.b, 0, acc);
            std::memcpy(out.b + sizeof(T), &idx, sizeof(T));
        }
        dst = out;
    });
}

void vreduce_blocks(const SourceLoc& loc, const char* op, Red how, Dt d, VReg& dst, const VReg& a, const Pred& m) {
    dispatch(core(), op, loc, [&] { return reg_record(op, d, loc, count_active(m, size_of(d))); });
    with_type(d, [&](auto t) {
        using T = decltype(t);
        constexpr int per = 32 / int(sizeof(T));
        // The identity an inactive element stands for (documented for max:
        // "未被mask选中的元素被视为最小值（浮点数为-inf）").
        T ident;
        if (how == Red::Add) ident = from_double<T>(0.0);
        else if constexpr (is_float_v<T>) ident = from_double<T>(how == Red::Max ? -INFINITY : INFINITY);
        else ident = how == Red::Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
        VReg out{};
        const int prefix = active_prefix(m, sizeof(T));
        with_bin(how == Red::Add ? Bin::Add : how == Red::Max ? Bin::Max : Bin::Min, [&](auto op) {
            for (int k = 0; k < kVL / 32; ++k) {
                if constexpr (std::is_integral_v<T> && sizeof(T) == 2) {
                    if (how == Red::Add) {
                        // In 32 bits, into 32-bit element k, as vreduce's
                        // sum (asc-devkit asc_reduce_sum_datablock: int16_t
                        // -> int32_t, uint16_t -> uint32_t).
                        using W = std::conditional_t<std::is_signed_v<T>, int32_t, uint32_t>;
                        W acc = 0;
                        for (int j = 0; j < per; ++j)
                            if (active(m, k * per + j, 2)) acc = static_cast<W>(acc + static_cast<W>(at<T>(a, k * per + j)));
                        store(out.b, uint64_t(k) * sizeof(W), acc);
                        continue;
                    }
                }
                if constexpr (is_float_v<T>) {
                    if (how == Red::Add) {
                        // Each block's binary tree, as vreduce's sum
                        // (asc-devkit asc_reduce_sum_datablock: "在每个
                        // DataBlock（32B）内两两相加逐层归约求和").
                        T v[per];
                        for (int j = 0; j < per; ++j) v[j] = active(m, k * per + j, sizeof(T)) ? at<T>(a, k * per + j) : ident;
                        for (int w = per; w > 1; w /= 2)
                            for (int i = 0; i < w / 2; ++i) v[i] = binary<T>(op, v[2 * i], v[2 * i + 1], v[2 * i]);
                        store(out.b, uint64_t(k) * sizeof(T), v[0]);
                        continue;
                    }
                }
                T acc = ident;
                // The extremes (and integer sums) in element order.
                for (int j = 0; j < per; ++j) {
                    const int i = k * per + j;
                    if (prefix >= 0 ? i >= prefix : !active(m, i, sizeof(T))) continue;
                    acc = binary<T>(op, acc, at<T>(a, i), acc);
                }
                store(out.b, uint64_t(k) * sizeof(T), acc);
            }
        });
        dst = out;
    });
}

void vpair_add(const SourceLoc& loc, Dt d, VReg& dst, const VReg& a, const Pred& m) {
    if (d != Dt::F16 && d != Dt::F32)
        fault(loc, std::string("vcpadd: half or float elements only (asc-devkit PairReduceElem), not ") + to_string(d));
    dispatch(core(), "vcpadd", loc, [&] { return reg_record("vcpadd", d, loc, count_active(m, size_of(d))); });
    with_type(d, [&](auto t) {
        using T = decltype(t);
        const int n = kVL / int(sizeof(T));
        const T zero = from_double<T>(0.0);
        VReg out{};
        for (int i = 0; i < n / 2; ++i) {
            const T x = active(m, 2 * i, sizeof(T)) ? at<T>(a, 2 * i) : zero;
            const T y = active(m, 2 * i + 1, sizeof(T)) ? at<T>(a, 2 * i + 1) : zero;
            // One addition in the element type (rounded once).
            store(out.b, uint64_t(i) * sizeof(T), binary<T>(Bin::Add, x, y, x));
        }
        dst = out;
    });
}

void vindex(const SourceLoc& loc, Dt d, VReg& dst, uint64_t start_bits, bool decreasing) {
    dispatch(core(), "vci", loc, [&] { return reg_record("vci", d, loc, kVL / size_of(d)); });
    with_type(d, [&](auto t) {
        using T = decltype(t);
        T s;
        std::memcpy(&s, &start_bits, sizeof(T));
        VReg out;
        const int n = kVL / int(sizeof(T));
        // Decreasing: start + n - 1 down to start (asc-devkit asc_arange).
        if constexpr (std::is_integral_v<T> && sizeof(T) <= 4) {
            // The sum is exact in double, so from_double's int64 truncation
            // and wrap into T is integer arithmetic.
            for (int i = 0; i < n; ++i)
                store(out.b, uint64_t(i) * sizeof(T), static_cast<T>(int64_t(s) + (decreasing ? n - 1 - i : i)));
            dst = out;
            return;
        }
        for (int i = 0; i < n; ++i)
            store(out.b, uint64_t(i) * sizeof(T), from_double<T>(to_double(s) + (decreasing ? n - 1 - i : i)));
        dst = out;
    });
}

}  // namespace ptosim::cce::a5

namespace ptosim::cce::a5 {

void vexpdif(const SourceLoc& loc, Dt src_type, int part, VReg& dst, const VReg& a, const VReg& b, const Pred& m,
             bool merging) {
    const int se = size_of(src_type);
    if (src_type != Dt::F32 && src_type != Dt::F16)
        fault(loc, std::string("vexpdif on ") + to_string(src_type) + " sources: it takes float or half sources");
    // float destination elements; a half source's element 2i + part pairs
    // with destination element i (as vcvt's parts), a float's element i.
    const int n = kVL / 4;
    uint64_t active_n = 0;
    VReg out;
    for (int i = 0; i < n; ++i) {
        const int j = se == 4 ? i : 2 * i + part;
        float v;
        if (m.lane(j * se)) {
            ++active_n;
            double x, y;
            if (se == 4) {
                x = at<float>(a, j);
                y = at<float>(b, j);
            } else {
                x = static_cast<float>(at<half>(a, j));
                y = static_cast<float>(at<half>(b, j));
            }
            // The difference in float, then e to it rounded once to float.
            const float d = static_cast<float>(x - y);
            v = static_cast<float>(std::exp(static_cast<double>(d)));
        } else if (merging) {
            v = at<float>(dst, i);
        } else {
            v = 0.0f;
        }
        store(out.b, uint64_t(i) * 4, v);
    }
    dispatch(core(), "vexpdif", loc, [&] { return reg_record("vexpdif", Dt::F32, loc, active_n); });
    dst = out;
}

}  // namespace ptosim::cce::a5
