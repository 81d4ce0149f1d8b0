// How the intrinsic wrappers hand their operands to the runtime: a
// local-memory pointer as the offset it holds, a GM pointer as its host
// address, a scalar as its element's bytes. Both kernel preludes share it
// (cce/builtins.hpp for the executed-pto-isa build, pto/common/cce_builtins.hpp
// for ptolab's own headers), so the intrinsic families compile under either.
// Every family header starts here: with the call-site type (cce/sync.hpp)
// and the runtime's entry points (ptosim/cce.hpp).
#pragma once
#include <cce/sync.hpp>
#include <cce/types.hpp>
#include <ptosim/cce.hpp>

#include <cstdint>

namespace ptosim_cce {
// What a not-yet-simulated intrinsic "returns": it faults first, so the value
// is never used; it converts to whatever the call site expects.
struct Unsimulated {
    template <class T>
    operator T() const { return T{}; }
};
// The offset a local-memory pointer holds (the device's address in its buffer).
template <class P>
inline uint64_t off(P* p) { return static_cast<uint64_t>((uintptr_t)p); }
// A GM pointer as the host address it is.
template <class P>
inline void* host(P* p) { return (void*)p; }
// A scalar operand's bytes as the element type T (low bytes).
template <class T, class S>
inline uint64_t scalar_bits(S s) {
    const T v = static_cast<T>(s);
    uint64_t bits = 0;
    __builtin_memcpy(&bits, &v, sizeof(T));
    return bits;
}
}  // namespace ptosim_cce

// The address-update modes of the Cube's load_* intrinsics.
namespace __cce_scalar {
enum addr_cal_mode_t : int { inc = 0, dec = 1 };
}  // namespace __cce_scalar
// pto-isa at cannmirror defdb75f names it unqualified (npu/a2a3/TExtract.hpp:
// addr_cal_mode_t(0)), later trees qualified; bisheng takes both.
using __cce_scalar::addr_cal_mode_t;
