// What lets the register families take a whole-register path instead of
// walking a register element by element (the same elements in the same
// order, the same results):
// - predicates whose byte lanes are a prefix (set_prefix, active_prefix in
//   ptosim/cce_a5.hpp, which the kernel-side light paths use as well);
// - element moves of a width known at compile time, not library calls.
#pragma once
#include <ptosim/cce_a5.hpp>

#include <type_traits>

namespace ptosim::cce::a5 {

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
