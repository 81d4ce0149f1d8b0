// What lets the register families take a whole-register path instead of
// walking a register element by element (the same elements in the same
// order, the same results):
// - predicates whose byte lanes are a prefix, [0, lanes) on and the rest
//   off: pset's PAT_ALL/PAT_VLn and plt make them, and they are by far the
//   most frequent masks;
// - element moves of a width known at compile time, not library calls.
#pragma once
#include <ptosim/cce_a5.hpp>

#include <cstring>
#include <type_traits>

namespace ptosim::cce::a5 {

inline void set_prefix(Pred& p, int lanes) {
    std::memset(p.b, 0, sizeof(p.b));
    std::memset(p.b, 0xFF, static_cast<size_t>(lanes >> 3));
    if (lanes & 7) p.b[lanes >> 3] = static_cast<uint8_t>((1u << (lanes & 7)) - 1);
}

// k when exactly the elements [0, k) of `elem` bytes are active, else -1.
// An element is active by its first lane, so a prefix of `lanes` lanes
// covers ceil(lanes / elem) elements.
inline int active_prefix(const Pred& p, int elem) {
    uint64_t w[4];
    static_assert(sizeof(w) == sizeof(p.b));
    std::memcpy(w, p.b, sizeof(w));
    int lanes = 0, i = 0;
    while (i < 4 && w[i] == ~uint64_t(0)) lanes += 64, ++i;
    if (i < 4) {
        const uint64_t v = w[i];
        const int ones = __builtin_ctzll(~v);
        if ((v >> ones) != 0) return -1;
        lanes += ones;
        for (++i; i < 4; ++i)
            if (w[i] != 0) return -1;
    }
    return (lanes + elem - 1) / elem;
}

// f(std::integral_constant<int, W>) for the element widths 1, 2, 4 and 8.
template <class F>
void with_width(int w, F&& f) {
    switch (w) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    default: f(std::integral_constant<int, 8>{}); break;
    }
}

}  // namespace ptosim::cce::a5
